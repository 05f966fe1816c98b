"""The hook to the solver's advisor: hints during play and the review after a game.

The exact solver covers single-column rule sets only; this module is the one place in the web package
that knows about it, and it asks the advice service (:mod:`kniffel.services.advice`: the one road of every
front end's hints) and :mod:`kniffel.services.review`, which the terminal uses too. When they cannot help,
:func:`available` is false and the front end hides the hint and review panels.

The advisor values every option as the expected points still to come; a hint lists those values best
first, a review puts each decision of a finished game next to the best one. With several players the
hints and the review also give chances of winning (:mod:`kniffel.planning.winning`), and
:func:`chances` every player's chance after every action, for the bars beside the players.

Nothing here solves a table on the request's thread: a table that is not in memory or on disk goes to the
process's one worker (:mod:`kniffel.planning.worker`) and the answer says ``preparing`` meanwhile, so
that one table's first request never holds up another game's hints.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from kniffel.base.i18n import N_, translate
from kniffel.core import Cancel, Progress
from kniffel.engine.actions import Score, Strike
from kniffel.engine.game import Game
from kniffel.planning import POINTS, Choice, NotReady, is_exact, quick_choices
from kniffel.planning.exact import advisor_job
from kniffel.planning.interface import Goal, Unit
from kniffel.planning.winning import win_chances
from kniffel.planning.worker import Work, worker
from kniffel.rules import RuleSet
from kniffel.services import advice
from kniffel.services.advice import Position, Preparing, plays_to_win
from kniffel.services.proficiency import player_json
from kniffel.services.review import Review, can_review_by_win, listed, loss_text, player_goals
from kniffel.services.review import review as review_game
from kniffel.services.wording import SUMMARY_HEADERS, goal_text, summary_cells, summary_notes

log = logging.getLogger("kniffel.apps.web")

MAX_OPTIONS = 12
"""Hints list this many options, best first; the rest are rarely worth reading. The best entry on the
sheet (score or strike) is listed too even when it ranks lower: the table marks its box."""

_covered: dict[RuleSet, bool] = {}


ABANDON_AFTER = 30.0
"""A solve nobody asked about for this many seconds is cancelled (:attr:`Worker.abandon_after`): a page
showing ``preparing`` asks again every few seconds, so a solve whose pages went away stops rather than
fill the processor and the disk for tables nobody reads."""


def abandon_unasked(seconds: float = ABANDON_AFTER) -> None:
    """Have the process's worker cancel the solves nobody waits for any more (a server calls this)."""
    worker().abandon_after = seconds


def available(rules: RuleSet) -> bool:
    """Whether hints and reviews exist for these rules: those the exact solver covers (cheap after the
    first call per rule set)."""
    if rules not in _covered:
        try:
            _covered[rules] = is_exact(rules)
        except Exception:  # a broken solver installation: the panels simply stay hidden
            log.exception("the solver cannot be used for %s", rules.id)
            _covered[rules] = False
    return _covered[rules]


def known(rules: RuleSet) -> bool | None:
    """What :func:`available` says of these rules if it was asked before, else ``None`` (so that a
    caller on the event loop need not hand the question to a thread every time)."""
    return _covered.get(rules)


def preparing(found: Preparing) -> dict[str, Any]:
    """What an answer says while its tables are solved: what, how far, roughly how long in all, and,
    on a first use, how long the server has been compiling the kernels the solve runs on (``compiling``,
    seconds; then ``progress`` is null: it says nothing until the solve itself runs)."""
    compiling = found.compiling if found.solving else None
    said: dict[str, Any] = {
        "what": found.work.what,
        "progress": None if found.fraction is None or compiling is not None else round(found.fraction, 3),
        "seconds": round(found.work.seconds, 1),
        "compiling": None if compiling is None else round(compiling, 1),
    }
    if found.refused is not None:  # never solved as things are: said with the way out (REFUSED)
        said["refused"] = {"needs": found.refused.needs, "budget": found.refused.budget}
        said["note"] = found.note(lambda text, **fields: text.format(**fields))
    return said


READY = "ready"
REFUSED = "refused"
"""The ``status`` of an advice answer whose table the table cache's budget refused: shaped as a
``preparing`` one, its ``preparing`` says ``refused`` (the bytes needed and the budget) and ``note`` (how
to raise the budget, which the route puts in the request's language)."""
PREPARING = "preparing"
"""The ``status`` of an advice answer (hints, review, chances): its figures are there (``ready``), or
what it needs is being solved (``preparing``). A preparing answer always has the same shape:
``{"status": "preparing", "preparing": {"what": ..., "progress": 0.42 or null, "seconds": ...}}`` (the
route adds what it always answers: ``seq``, an empty ``options`` or ``decisions``); the page shows
``what`` and ``progress`` and asks again in a moment."""


def waiting(found: Preparing) -> dict[str, Any]:
    """The answer of an advice route while ``found`` is solved (see :data:`PREPARING`)."""
    return {"status": PREPARING if found.refused is None else REFUSED, "preparing": preparing(found)}


QUEUED = N_("Working out the chances of winning")
"""What a ``preparing`` answer for the chances says when the advisor has too many asks already: the
page asks again in a moment, as it does while a table is solved."""


def queued() -> dict[str, Any]:
    """The answer for chances not worked out yet while their lane is full (see :data:`PREPARING`):
    ``queued`` says so, and the page backs off as it does from a busy server (nothing is solved for it
    meanwhile)."""
    return {
        "status": PREPARING,
        "preparing": {"what": QUEUED, "progress": None, "seconds": 1.0, "compiling": None, "queued": True},
    }


def is_preparing(answer: object) -> bool:
    """Whether an advice answer says ``preparing`` rather than giving its figures."""
    return isinstance(answer, dict) and answer.get("status") == PREPARING


def advisor_ready(rules: RuleSet) -> Preparing | None:
    """None when the expected-score table of ``rules`` is in memory or on disk (loaded now); else it
    goes to the worker (solved once, a second or so, and cached) and this says so."""
    job = advisor_job(rules)
    return None if job is None else Preparing.of_job(job)


def options(game: Game) -> list[Choice] | Preparing | None:
    """Every option of the player to move after a throw, best first (:func:`kniffel.services.advice.
    options`, for points); ``None`` without advice, :class:`Preparing` while the table is solved. Before
    the first throw of a turn there is nothing to decide (``[]``)."""
    if not available(game.rules):
        return None
    try:
        found = advice.options(Position.of_game(game), POINTS, wait=False)
    except Exception:
        log.exception("the advisor failed for game position %s", [str(a) for a in game.log[-3:]])
        return None
    return found.preparing or list(found.options)


def hints(game: Game) -> list[dict[str, Any]] | dict[str, Any] | None:
    """The options of the player to move with their values, best first (:func:`kniffel.services.advice.
    hints`); ``None`` if no advice; ``preparing`` (:func:`waiting`) while the table is solved, with the
    quick bot's order of the options meanwhile (``estimate``: actions only). With several players each
    option also has ``win``: its chance of finishing first (left out while its tables are solved)."""
    if not available(game.rules):
        return None
    try:
        found = advice.hints(game, wait=False)
    except Exception:
        log.exception("the advisor failed for game position %s", [str(a) for a in game.log[-3:]])
        return None
    if found.points.preparing is not None:
        quick = [{"action": str(c.action)} for c in estimate(game)]
        return {**waiting(found.points.preparing), "estimate": quick}
    shown = _shown(found.points.options)
    found_wins = found.chances(shown)
    wins = found_wins if isinstance(found_wins, list) else None
    listed: list[dict[str, Any]] = []
    for n, c in enumerate(shown):
        option: dict[str, Any] = {"action": str(c.action), "value": round(c.value, 2)}
        if wins is not None and wins[n] is not None:
            option["win"] = round(wins[n] or 0.0, 4)
        listed.append(option)
    return listed


def _shown(found: Sequence[Choice]) -> list[Choice]:
    """The options a hint lists: the :data:`MAX_OPTIONS` best, and the best entry on the sheet."""
    shown = list(found[:MAX_OPTIONS])
    best_entry = next((c for c in found if isinstance(c.action, Score | Strike)), None)
    if best_entry is not None and best_entry not in shown:
        shown.append(best_entry)
    return shown


def estimate(game: Game) -> list[Choice]:
    """The options a hint lists while the exact table is solved, as the quick bot orders them
    (:func:`kniffel.planning.quick_choices`): the order only, its figures are not points to
    come. Empty if it fails (the wait for the exact values still says why)."""
    try:
        return _shown(quick_choices(game))
    except Exception:
        log.exception("the quick estimate failed for game position %s", [str(a) for a in game.log[-3:]])
        return []


_chances: OrderedDict[tuple[str, int], list[float]] = OrderedDict()
_chances_lock = threading.Lock()
MAX_CHANCES = 1024
"""Positions whose chances are kept: every client of a game asks after every action."""


def known_chances(key: tuple[str, int]) -> dict[str, Any] | None:
    """The chances of position ``key`` if they were worked out before (a lookup in memory: cheap enough
    for the event loop, so that asks answered from memory never queue for the advisor's thread)."""
    with _chances_lock:
        found = _chances.get(key)
        if found is not None:
            _chances.move_to_end(key)
    return None if found is None else {"status": READY, "chances": found}


def chances(game: Game, key: tuple[str, int]) -> dict[str, Any] | None:
    """Every player's chance of finishing first in the position ``key`` (game id, actions played), each
    playing for points from there, as ``{"status": "ready", "chances": [...]}``; ``preparing``
    (:func:`waiting`) while their tables are solved (the first time for a rule set, and briefly late in a
    game); ``None`` where chances cannot be told (one player, rules the solver does not cover, or win
    tables not prepared here)."""
    if not available(game.rules) or not plays_to_win(game):
        return None
    known = known_chances(key)
    if known is not None:
        return known
    pending = advisor_ready(game.rules)
    if pending is not None:
        return waiting(pending)
    try:
        found = [round(c, 4) for c in win_chances(game, wait=False)]
    except NotReady as not_ready:
        pending = Preparing.of(not_ready, game.rules)
        return waiting(pending) if pending.solving else None
    with _chances_lock:
        _chances[key] = found
        while len(_chances) > MAX_CHANCES:
            _chances.popitem(last=False)
    return {"status": READY, "chances": found}


def review(
    game: Game, bots: Mapping[int, str] | None = None, lang: str = "en", people: str = "points"
) -> dict[str, Any] | None:
    """The review of the game (:func:`kniffel.services.review.review`), every player graded by its own goal (a
    bot, ``bots`` its spec by seat, by what it plays for; people by ``people``, points by default):
    ``decisions`` holds the decisions every front end lists (:func:`kniffel.services.review.listed`), each
    with its goal, the choice, the best choice for that goal and the loss (``loss_text`` as ``lang`` writes
    it); ``None`` if no advice for these rules, ``preparing`` (:func:`waiting`, with no decisions) while the
    table is solved. With several
    players ``chances`` holds every player's chance before the game and after each turn, for a chart, once
    their tables are there; until then (and while a goal played for a chance has its tables solved) the
    review grades everyone by points and says ``win_preparing``. ``players`` holds each seat's graded
    choices and total loss (in its goal's ``unit``), from which a player's record takes its loss per
    choice."""
    if not available(game.rules):
        return None
    pending = advisor_ready(game.rules)
    if pending is not None:
        return waiting(pending) | {"decisions": [], "chances": None}
    goals = player_goals(game, bots or {}, people)
    win_preparing: Preparing | None = None
    result = None
    if can_review_by_win(game) or any(goal.unit != Unit.POINTS for goal in goals):
        result, win_preparing = _review_with_chances(game, goals)
    if result is None and win_preparing is None:
        with contextlib.suppress(NotReady):  # no chances to chart: by the goals whose tables are at hand
            result = review_game(game, goals=goals, wait=False)
    if result is None:
        result = review_game(game)
    decisions = []
    for d in listed(result):
        decisions.append(
            {
                "seq": d.number,
                "player": d.player,
                "round": d.round,
                "dice": list(d.dice),
                "goal": d.goal,
                "unit": d.unit,
                "chosen": d.chosen,
                "best": d.best,
                "loss": round(d.loss, 6),
                "loss_text": loss_text(d.loss, d.unit, lang),
            }
        )
    chart = None if result.chances is None else [[round(c, 4) for c in row] for row in result.chances]
    # every player's choices and what they gave away in all, for a player's record (kniffel.services.record)
    players = [
        {"seat": seat, "name": p.name, "unit": p.unit, "decisions": p.decisions, "loss": round(p.loss, 6)}
        | player_json(game.rules.id, p, lang)
        for seat, p in enumerate(result.players)
    ]
    answer: dict[str, Any] = {
        "status": READY,
        "decisions": decisions,
        "chances": chart,
        "players": players,
        "summary": summary_json(result, lang),
    }
    if win_preparing is not None:
        answer["win_preparing"] = preparing(win_preparing)
    return answer


def summary_json(result: Review, lang: str) -> dict[str, Any]:
    """Every player's summary as the terminal shows it, in ``lang``: its column heads, a row a player (the
    figures with their units, what the player is graded by) and what loss and accuracy mean."""
    return {
        "headers": [translate(lang, header) for header in SUMMARY_HEADERS],
        "rows": [{"cells": summary_cells(p, lang), "goal": goal_text(p.goal, lang)} for p in result.players],
        "notes": summary_notes(lang),
    }


_reviews: OrderedDict[str, Review] = OrderedDict()
_reviews_lock = threading.Lock()
MAX_REVIEWS = 64
"""Games whose review by win chance is kept: every page of a finished table may ask for it."""
SECONDS_PER_DECISION = 0.2
"""A decision's chances of winning cost about this, once the early win tables are there."""


def _review_with_chances(game: Game, goals: Sequence[Goal]) -> tuple[Review | None, Preparing | None]:
    """The review of ``game`` by ``goals`` with every player's chances (where they can be told) if it is
    ready, else what is being prepared for it (None when nothing prepares it). Past the early tables
    every position needs a small table of its own: the whole review goes to the worker as one job rather
    than one position per ask."""
    chances = can_review_by_win(game)
    key = game.dumps() + "|" + ",".join(map(str, goals))
    with _reviews_lock:
        found = _reviews.get(key)
    if found is not None:
        return found, None
    try:
        return review_game(game, goals=goals, chances=chances, wait=False), None
    except NotReady as not_ready:
        if not_ready.early:
            waiting = Preparing.of(not_ready, game.rules)
            return None, waiting if waiting.solving else None
    frozen = game.copy()

    def run(cancel: Cancel, progress: Progress) -> Review:
        reviewed = review_game(frozen, goals=goals, chances=chances)
        with _reviews_lock:
            _reviews[key] = reviewed
            while len(_reviews) > MAX_REVIEWS:
                _reviews.popitem(last=False)
        return reviewed

    work = Work(
        N_("Working out the chances of winning of every decision ({rules})"),
        SECONDS_PER_DECISION * len(game.log),
        0,
        (("rules", game.rules.id),),
    )
    job = worker().submit(("review", key), work, run)
    return None, Preparing(job.work, job.fraction)
