"""The trainer's page and its answers (:mod:`kniffel.services.trainer`): ``/trainer``, reached from the home
page.

``GET /api/trainer?rules=ID&options=K=V,...&goal=points|win&count=N&seed=S`` (or ``&daily=YYYY-MM-DD``,
the series everyone gets on that date) answers the series' positions. Finding them takes a second or
two (more the first time a rule set's tables are solved, and minutes for a first series to win): the
planning worker does it, the route answers ``preparing`` with its progress meanwhile
(:data:`kniffel.apps.web.advice.PREPARING`) and the page asks again. The series is then kept in memory
(:data:`MAX_SERIES`), with the values of every option of its positions, so that
``GET /api/trainer/answer?...&number=K&action=TEXT`` grades an answer at once and
``GET /api/trainer/result?...&answers=K:TEXT;K:TEXT`` adds the answers up into the player's figure.
Nothing is stored: the page keeps its series and answers, and asks again for one the server forgot.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kniffel import rules as rules_module
from kniffel.apps.web import advice, pages
from kniffel.apps.web.dependencies import Allowed, service_of
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.guard import client_of
from kniffel.apps.web.words import language_of
from kniffel.base.errors import KniffelError
from kniffel.base.i18n import N_
from kniffel.engine.game import Game
from kniffel.planning import POINTS, WIN, parse_goal
from kniffel.planning.worker import Work, worker
from kniffel.rules import RuleSet
from kniffel.services import proficiency, trainer
from kniffel.services.advice import Preparing

PAGE = pages.Page("trainer.html", "Kniffel · Trainer", "trainer.js")
MAX_SERIES = 64
"""Series kept in memory, the least recently asked for given up first."""
SECONDS = {"points": 3.0, "win": 60.0}
"""What finding a series takes, roughly (to win, a first series solves its tables too)."""
FINDING = N_("Finding positions that teach in {rules}")

SeriesKey = tuple[str, tuple[tuple[str, str], ...], str, int, int]
_series: OrderedDict[SeriesKey, list[trainer.Exercise]] = OrderedDict()
_lock = threading.Lock()

router = APIRouter()


@router.get("/trainer")
async def page() -> Response:
    return HTMLResponse(pages.html(PAGE))


def asked_series(request: Request) -> tuple[RuleSet, SeriesKey]:
    """The rule set and the series a request names (see the module docstring); :class:`WebError` for
    what cannot be one."""
    query = request.query_params
    options: dict[str, str] = {}
    for pair in filter(None, query.get("options", "").split(",")):
        name, equals, value = pair.partition("=")
        if not equals:
            raise WebError("malformed", "options are KEY=VALUE, separated by commas")
        options[name.strip()] = value.strip()
    try:
        rules = rules_module.get(query.get("rules", "kniffel"), options)
        goal = parse_goal(query.get("goal", "points"))
    except KniffelError as error:
        raise WebError("invalid", str(error)) from None
    if goal not in (POINTS, WIN):
        raise WebError("invalid", "the trainer plays for points or to win")
    count_text = query.get("count", str(trainer.SERIES))
    if not count_text.isdecimal() or not 1 <= int(count_text) <= trainer.MAX_SERIES:
        raise WebError("malformed", f"count is a number of positions from 1 to {trainer.MAX_SERIES}")
    daily, seed_text = query.get("daily"), query.get("seed", "")
    if daily:
        try:
            seed = trainer.daily_seed(rules, date.fromisoformat(daily), goal)
        except ValueError:
            raise WebError("malformed", "daily is a date as YYYY-MM-DD") from None
    elif seed_text.isdecimal() and len(seed_text) <= 18:
        seed = int(seed_text)
    else:
        raise WebError("malformed", "name the series by seed (a whole number) or daily (a date)")
    key: SeriesKey = (rules.id, tuple(sorted(rules.options.items())), str(goal), int(count_text), seed)
    return rules, key


def found_series(rules: RuleSet, key: SeriesKey) -> list[trainer.Exercise] | dict[str, Any]:
    """The series of ``key`` if it is found, else the worker's job that finds it as a ``preparing``
    answer."""
    with _lock:
        found = _series.get(key)
        if found is not None:
            _series.move_to_end(key)
            return found
    _, _, goal, count, seed = key

    def run(cancel: Any, progress: Any) -> list[trainer.Exercise]:
        made = trainer.series(rules, count=count, seed=seed, goal=goal, progress=progress)
        with _lock:
            _series[key] = made
            while len(_series) > MAX_SERIES:
                _series.popitem(last=False)
        return made

    work = Work(FINDING, SECONDS["win" if goal == str(WIN) else "points"], 0, (("rules", rules.id),))
    job = worker().submit(("trainer", key), work, run)
    if job.wait(0.0):
        try:
            return job.result(0.0)
        except KniffelError as error:
            raise WebError("invalid", str(error)) from None
    return advice.waiting(Preparing(job.work, job.fraction))


def exercise_json(exercise: trainer.Exercise, number: int, lang: str) -> dict[str, Any]:
    """A position as the page shows it: its words in ``lang``, and its sheet a row a box (the points of the
    player to move and of the others, what the dice pay in each free box, and whether it may be struck)."""
    game = Game.from_situation(exercise.situation)
    rules, legal = game.rules, game.legal
    mover = game.current
    others = [seat for seat in range(len(game.players)) if seat != mover]
    rows = []
    for key in rules.box_keys:
        column, box = rules.locate(key)
        placement = legal.placements.get(key)
        rows.append(
            {
                "key": key,
                "label": box.label(lang) + (f" ({column.id})" if rules.multi_column else ""),
                "points": game.sheets[mover].entries.get(key),
                "pays": None if placement is None else placement.total,
                "strike": key in legal.strikeable,
                "others": [game.sheets[seat].entries.get(key) for seat in others],
            }
        )
    return exercise.to_json() | {
        "number": number,
        "heading": exercise.heading(lang),
        "question": exercise.question(lang),
        "rows": rows,
        "totals": [game.sheets[mover].total, *(game.sheets[seat].total for seat in others)],
    }


@router.get("/api/trainer")
async def series(request: Request, allowances: Allowed) -> Any:
    allowances.advice.spend(client_of(request), N_("too many series from your address: wait a little"))
    rules, key = asked_series(request)
    lang = language_of(request)
    found = await service_of(request).advise(lambda: found_series(rules, key), client_of(request))
    if isinstance(found, dict):
        return found
    return {
        "status": advice.READY,
        "seed": key[4],
        "goal": key[2],
        "exercises": [exercise_json(e, n, lang) for n, e in enumerate(found, 1)],
    }


def _graded(found: list[trainer.Exercise], number_text: str, action: str) -> trainer.Verdict:
    last = len(found)
    if not number_text.isdecimal() or not 1 <= int(number_text) <= last:
        raise WebError("malformed", f"number is a position of the series, 1 to {last}")
    if not action.strip() or len(action) > 200:
        raise WebError("malformed", "say which dice to keep or which box to fill")
    try:
        return trainer.answer(found[int(number_text) - 1], action)
    except trainer.TrainerError as error:
        raise WebError("illegal", str(error)) from None


@router.get("/api/trainer/answer")
async def answer(request: Request, allowances: Allowed) -> Any:
    allowances.advice.spend(client_of(request), N_("too many answers from your address: wait a little"))
    rules, key = asked_series(request)
    lang = language_of(request)
    query = request.query_params

    def grade() -> dict[str, Any]:
        found = found_series(rules, key)
        if isinstance(found, dict):
            return found
        verdict = _graded(found, query.get("number", ""), query.get("action", ""))
        return {"status": advice.READY} | verdict.to_json(lang)

    return await service_of(request).advise(grade, client_of(request))


@router.get("/api/trainer/result")
async def result(request: Request, allowances: Allowed) -> Any:
    allowances.advice.spend(client_of(request), N_("too many answers from your address: wait a little"))
    rules, key = asked_series(request)
    lang = language_of(request)
    answers = [part.partition(":") for part in request.query_params.get("answers", "").split(";") if part]

    def add_up() -> dict[str, Any]:
        found = found_series(rules, key)
        if isinstance(found, dict):
            return found
        verdicts = [_graded(found, number, action) for number, _, action in answers]
        done = trainer.result(verdicts)
        figure = done.proficiency
        return {"status": advice.READY, **done.to_json(), "text": figure.text(lang)}

    return await service_of(request).advise(add_up, client_of(request))


MAX_GAMES = 2000
"""Games of a record one ask for a player's figure adds up (a record keeps them all)."""


@router.get("/api/proficiency")
async def figure(request: Request) -> dict[str, Any]:
    """A player's figure from the reviewed games of a record (``games=LOSS:DECISIONS,...``, oldest first,
    of the rule set ``rules``): the average loss a decision, the level it matches, in words, and the
    level over time (:func:`kniffel.services.proficiency.over_time`)."""
    query = request.query_params
    rules_id = query.get("rules", "")
    games: list[tuple[float, int]] = []
    for part in filter(None, query.get("games", "").split(",")[:MAX_GAMES]):
        loss, _, decisions = part.partition(":")
        try:
            games.append((float(loss), int(decisions)))
        except ValueError:
            raise WebError("malformed", "games are LOSS:DECISIONS, separated by commas") from None
    if any(not 0 <= loss < 10_000 or not 0 <= decisions < 10_000 for loss, decisions in games):
        raise WebError("malformed", "a game's loss and decisions are small numbers of 0 or more")
    lang = language_of(request)
    total = proficiency.measured(rules_id, sum(g[0] for g in games), sum(g[1] for g in games))
    runs = proficiency.over_time(games, rules_id)
    return {
        **total.to_json(),
        "text": total.text(lang),
        "over_time": [run.level for run in runs],
    }


__all__ = ["MAX_GAMES", "MAX_SERIES", "PAGE", "router"]
