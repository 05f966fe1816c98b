"""A game as people play it, whatever shows it: players and bots, dice that resume, saving, undo, hints.

Both front ends that seat people at a game, the line interface (:mod:`kniffel.apps.cli.play`) and the
full-screen game (:mod:`kniffel.apps.tui`), play through a :class:`Session`; a game saved by one resumes in
the other. The session owns no rules and shows nothing: every question goes to :class:`kniffel.Game`, every
word is the front end's.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from kniffel.base.errors import GameError, GameFormatError
from kniffel.base.i18n import LANGUAGES, N_, number, percent, translate
from kniffel.bots import Bot
from kniffel.bots import default_name as default_bot_name
from kniffel.bots import make as make_bot
from kniffel.engine.actions import Action, Outcome, Score, Strike
from kniffel.engine.game import DiceSource, Game, SecureDice, SeededDice
from kniffel.planning import (
    WIN,
    Choice,
    NotReady,
    PlanningError,
    is_exact,
    parse_goal,
    planner_for,
    win_chances,
    win_tables,
)
from kniffel.planning.exact import advisor_job
from kniffel.planning.worker import Work
from kniffel.rules import RuleSet
from kniffel.services.review import (
    Decision,
    PlayerSummary,
    Review,
    can_review_by_win,
    listed,
    loss_text,
    player_goals,
    review,
)

if TYPE_CHECKING:
    from kniffel.services.record import GameRecord

SAVE_KEY = "cli"
"""Key of the sessions' own data in a save file (bots, dice drawn); :meth:`Game.from_json` ignores it."""


# --- players ---------------------------------------------------------------------------------------

BOT_PREFIX = "bot"


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    bot: str | None = None
    """The bot spec handed to ``kniffel.bots.make`` (``bot``, ``bot:heuristic``), None for a human."""


def is_bot_spec(text: str) -> bool:
    word = text.strip().lower()
    return word == BOT_PREFIX or word.startswith(BOT_PREFIX + ":")


def bot_name(spec: str, taken: Sequence[str] = ()) -> str:
    """A bot's name by what it plays for (:func:`kniffel.bots.default_name`): ``Bot (optimal)``, ``Bot
    (win)``, ``Bot (target 250)``; a second of a kind ``Bot (optimal) 2``. The game keeps it in English, as
    the names of its players are its data (a saved game is read in any language): front ends show it in
    theirs (:func:`shown_names`)."""
    name = default_bot_name(spec)
    count = 1
    chosen = name
    while chosen in taken:
        count += 1
        chosen = f"{name} {count}"
    return chosen


def bot_name_in(spec: str, lang: str) -> str:
    """The default name of a bot of ``spec`` in ``lang``: ``Bot (Heuristik)``, ``Bot (Ziel 250)``."""
    return default_bot_name(spec, lang)


def shown_names(names: Sequence[str], specs: Mapping[int, str], lang: str) -> list[str]:
    """The players' ``names`` as a front end in ``lang`` shows them: a bot (``specs``: its spec by seat)
    that bears its default name (:func:`bot_name`, ``Bot (heuristic) 2``) is named in ``lang``; every
    other name is shown as it was given. A translation that would be taken for another player's name is
    not used."""
    shown = list(names)
    for index, spec in specs.items():
        default = re.fullmatch(rf"{re.escape(bot_name(spec))}( \d+)?", names[index])
        if default is None:
            continue
        translated = bot_name_in(spec, lang) + (default[1] or "")
        if translated == names[index] or translated not in names:
            shown[index] = translated
    return shown


def parse_players(specs: Sequence[str]) -> list[PlayerSpec]:
    """``["Ada", "bot", "bot:optimal", "bot"]`` -> Ada and bots named by kind: "Bot (heuristic)", "Bot
    (optimal)" and "Bot (heuristic) 2"; ``"Zoe=bot:win"`` is a bot named Zoe (a saved game keeps the
    name)."""
    if not specs:
        raise GameError("name the players: --player NAME for a human, --player bot for a bot (1 to 8)")
    players: list[PlayerSpec] = []
    for spec in specs:
        name, named, bot = spec.rpartition("=")
        if named and name.strip() and is_bot_spec(bot):
            players.append(PlayerSpec(name.strip(), bot.strip().lower()))
        elif is_bot_spec(spec):
            name = bot_name(spec, [p.name for p in players])
            players.append(PlayerSpec(name, spec.strip().lower()))
        else:
            players.append(PlayerSpec(spec.strip()))
    return players


# --- dice ------------------------------------------------------------------------------------------


class CountingDice:
    """Passes throws through and counts the dice drawn, so a seeded game saved halfway resumes with
    the dice it would have had without the break."""

    def __init__(self, source: DiceSource, drawn: int = 0) -> None:
        self.source = source
        self.drawn = 0
        self.skip(drawn)

    def skip(self, n: int) -> None:
        if n:
            self.throw(n)

    def throw(self, n: int) -> tuple[int, ...]:
        self.drawn += n
        return self.source.throw(n)


def dice_source(seed: int | None, drawn: int = 0) -> CountingDice:
    return CountingDice(SecureDice() if seed is None else SeededDice(seed), drawn if seed is not None else 0)


def bot_seed(seed: int | None, index: int) -> int | None:
    """Each bot's own seed, derived from the game's so that ``--seed`` fixes the bots' choices too."""
    return None if seed is None else seed * 16 + index + 1


# --- files -----------------------------------------------------------------------------------------


def check_writable(path: Path) -> None:
    """Refuse, naming ``path``, a file that cannot be written: a folder, one in a missing or read-only
    folder, or a read-only file. Front ends call it before the work whose result the file is to keep."""
    folder = path.parent
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist", str(path))
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise PermissionError(errno.EACCES, "cannot be written", str(path))


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` all at once: a crash leaves the old file or the new, never half."""
    # Errors name ``path``, not the temporary file written beside it.
    check_writable(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    except OSError as error:
        raise type(error)(error.errno, error.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise type(error)(error.errno, error.strerror, str(path)) from None
        raise


# --- advice ----------------------------------------------------------------------------------------


SUMMARY_HEADERS = (N_("Player"), N_("Score"), N_("Decisions"), N_("Optimal"), N_("Loss"), N_("Accuracy"))
"""The columns of a review's summary, one row a player (English: front ends translate them)."""


def read_game(path: Path) -> Game:
    """The game saved in ``path``; a file that holds none is refused with its name."""
    text = path.read_text(encoding="utf-8")
    try:
        return Game.loads(text)
    except GameFormatError as error:
        raise GameFormatError(f"{path}: not a saved game ({error})") from None


def saved_bots(path: Path, game: Game) -> dict[int, str]:
    """The bots of ``game`` as the front end that saved it in ``path`` recorded them (seat -> spec, as
    :meth:`Session.load` reads them); none where the file records none (a game saved elsewhere)."""
    try:
        extra = json.loads(path.read_text(encoding="utf-8")).get(SAVE_KEY) or {}
        by_name = extra.get("bots") or {}
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(by_name, dict):
        return {}
    return {i: spec for i, name in enumerate(game.players) if isinstance(spec := by_name.get(name), str)}


def result_line(game: Game, translate: Callable[..., str], names: Mapping[str, str] | None = None) -> str:
    """Who won with how many points (or who share first place), translated by ``translate(english,
    **fields)``, the players named as ``names`` shows them (:meth:`Session.shown`): what the terminal
    game shows at the end and prints on leaving."""
    best = game.standings()[0].total
    winners = [(names or {}).get(name, name) for name in game.winners()]
    if len(winners) == 1:
        return translate("Winner: {player}, with {points} points.", player=winners[0], points=best)
    return translate(
        "Tie: {players} share first place with {points} points.", players=", ".join(winners), points=best
    )


def renamed(result: Review, names: Mapping[str, str]) -> Review:
    """``result`` with its players named as ``names`` shows them (:meth:`Session.shown`)."""
    return dataclasses.replace(
        result,
        players=[dataclasses.replace(p, name=names.get(p.name, p.name)) for p in result.players],
        decisions=[dataclasses.replace(d, player=names.get(d.player, d.player)) for d in result.decisions],
    )


def listed_decisions(review: Review, *, everything: bool = False) -> list[Decision]:
    """The decisions a review lists (:func:`kniffel.services.review.listed`: the costly ones, each against the
    best for its player's goal; all of them with ``everything``)."""
    return listed(review, everything=everything)


def summary_cells(player: PlayerSummary, lang: str = "en") -> tuple[str, ...]:
    """A player's row of a review's summary, under :data:`SUMMARY_HEADERS`, with numbers as ``lang``
    writes them (a loss of a chance as a percentage). What the player is graded by is
    :func:`goal_text` of :attr:`PlayerSummary.goal`."""
    if not player.decisions:  # nothing decided yet: nothing to grade
        return (player.name, str(player.score), "0", "\N{EN DASH}", "\N{EN DASH}", "\N{EN DASH}")
    accuracy = player.accuracy
    return (
        player.name,
        str(player.score),
        str(player.decisions),
        f"{player.optimal} ({percent(lang, player.optimal_share, 0)})",
        loss_text(player.loss, player.unit, lang),
        "\N{EN DASH}" if accuracy is None else number(lang, accuracy, 1),
    )


def goal_text(goal: str, lang: str = "en") -> str:
    """What a review grades by, for people in ``lang`` (:meth:`kniffel.planning.Goal.describe`)."""
    try:
        return parse_goal(goal).describe(lang)
    except PlanningError:  # a goal no longer registered: its text
        return goal


def hint_choices(game: Game, count: int | None = None) -> tuple[list[Choice], bool]:
    """The ``count`` best options (all with None) of the player to move and whether the values are
    exact. A strike is left out where scoring the same box is listed too (scoring never pays less)."""
    planner = planner_for(game.rules)
    choices = planner.choices(game)
    scored = {c.action.box for c in choices if isinstance(c.action, Score)}
    shown = [c for c in choices if not (isinstance(c.action, Strike) and c.action.box in scored)]
    return shown[:count], planner.exact


def thinking_text(lang: str) -> str:
    """ "Thinking...", and while a first use compiles the solver, that and for how long so far: what a
    front end says while the advice waits (a person should not take the silence for a hang)."""
    found = compiling_seconds()
    if found is None:
        return translate(lang, "Thinking...")
    first_use = N_("Thinking... compiling the solver first, only on its first use ({time} so far).")
    return translate(lang, first_use, time=about(found))


QUICK_ORDER = N_("The quick bot's order of the options, best first, until the exact values are solved.")
"""What a front end says above :func:`kniffel.planning.quick_choices`' options."""


def points_table_pending(rules: RuleSet) -> bool:
    """Whether hints for ``rules`` wait for their points table to be solved (it is not in memory or on
    disk): the worker solves it meanwhile (:func:`kniffel.planning.exact.advisor_job`)."""
    if not is_exact(rules):
        return False
    job = advisor_job(rules)
    return job is not None and not job.done()


def compiling_seconds() -> float | None:
    """How long this process has been compiling kernels, if it is (:func:`kniffel.core.kernelcache.
    compiling`)."""
    from kniffel.core.kernelcache import compiling

    found = compiling()
    return None if found is None else found.seconds


def plays_to_win(game: Game) -> bool:
    """Whether chances of winning can be told in ``game``: several players, rules the exact solver
    covers."""
    return len(game.players) > 1 and is_exact(game.rules)


@dataclass(frozen=True)
class Preparing:
    """Chances of winning are not there yet: the worker solves what they need (:mod:`kniffel.planning.
    worker`). What a front end says meanwhile (it shows points)."""

    work: Work
    """What is solved and what it costs (its sentence is a template for the front end to translate)."""
    fraction: float | None
    """How much is done, 0 to 1 (None: not started)."""
    solving: bool = True
    """False when nothing solves it (win tables are not prepared in the background here)."""
    compiling: float | None = field(default_factory=compiling_seconds)
    """Seconds this process has been compiling kernels (a first use), when it is: until they are
    compiled the solve cannot start or stands still, and its estimate leaves them out."""

    @classmethod
    def of(cls, not_ready: NotReady, rules: RuleSet | None = None) -> Preparing:
        """What ``not_ready`` waits for; with ``rules``, missing early win tables are started first (a
        front end that shows chances of winning says so: this note)."""
        job = not_ready.job
        if job is None and not_ready.early and rules is not None:
            job = win_tables(rules).prepare()
        if job is None:
            return cls(not_ready.work, None, solving=False)
        return cls(job.work, job.fraction)

    def note(self, translate: Callable[..., str]) -> str:
        """What a front end says meanwhile, translated by ``translate(english, **fields)``: what is
        solved, roughly how long and how big, how far it is, and that points are shown meanwhile."""
        what = translate(self.work.template, **dict(self.work.fields))
        if not self.solving:
            return translate(
                "Chances of winning show once the win tables are solved ({what}: kniffel cache prepare "
                "--rules {rules}).",
                what=what,
                rules=dict(self.work.fields).get("rules", ""),
            )
        if self.compiling is not None:
            return translate(
                "{what}: compiling the solver first, only on its first use ({time} so far). Points "
                "meanwhile.",
                what=what,
                time=about(self.compiling),
            )
        cost = about(self.work.seconds)
        if self.work.bytes:
            cost = translate("{time}, {size} on disk", time=cost, size=megabytes(self.work.bytes))
        done = (
            ""
            if self.fraction is None
            else translate(", {percent} percent done", percent=round(100 * self.fraction))
        )
        return translate("{what}: about {cost}{done}. Points meanwhile.", what=what, cost=cost, done=done)


def about(seconds: float) -> str:
    """A rough duration: ``5 s``, ``90 s``, ``3 min``."""
    if seconds < 120:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"


def megabytes(size: int) -> str:
    return f"{max(1, round(size / 1e6))} MB"


def hint_win_chances(
    game: Game, choices: Sequence[Choice], *, wait: bool = False
) -> list[float | None] | Preparing | None:
    """Beside hints in a game of several players: each listed choice's chance of finishing first
    (:class:`kniffel.planning.WinPlanner`); None where chances cannot be told; :class:`Preparing` while
    the tables they need are solved (the first time for a rule set: a minute or so, in the background;
    late in a game a second or two). With ``wait`` they are solved now."""
    if not plays_to_win(game) or game.is_over:
        return None
    try:
        wins = {c.action: c.value for c in planner_for(game.rules, WIN, wait=wait).choices(game)}
    except NotReady as not_ready:
        return Preparing.of(not_ready, game.rules)
    return [wins.get(c.action) for c in choices]


TIE_NOTE = N_("A tie counts as a win for each tied player: the chances can add up to more than 100 %.")
"""Said beside chances of winning whose shown figures add up to more than 100 %."""


def needs_tie_note(chances: Sequence[float], decimals: int) -> bool:
    """Whether ``chances``, shown as percents with ``decimals``, add up to more than 100 (ties count for
    every tied player: :data:`TIE_NOTE` says so)."""
    shown = sum(round(100 * float(c), decimals) for c in chances)
    return bool(shown > 100 + 0.5 * 10.0**-decimals)


def live_chances(game: Game, *, wait: bool = False) -> list[float] | Preparing | None:
    """Every player's chance of finishing first, each playing for points from where they stand; None
    where chances cannot be told (one player, rules the solver does not cover); :class:`Preparing`
    while their tables are solved (see :func:`hint_win_chances`)."""
    if not plays_to_win(game):
        return None
    try:
        return win_chances(game, wait=wait)
    except NotReady as not_ready:
        return Preparing.of(not_ready, game.rules)


# --- the session -----------------------------------------------------------------------------------


@dataclass
class Settings:
    lang: str = "en"
    lang_given: str | None = None
    """The language asked for (``--lang``), which beats the one a loaded game was saved in."""
    pad: bool = False
    save: Path | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Undone:
    """What :meth:`Session.undo` took back: a person's decision, and how many bot actions after it."""

    player: int
    action: Action
    bot_actions: int


@dataclass
class Session:
    """A game in progress: who is a bot, where it is saved, the dice it draws."""

    game: Game
    dice: CountingDice
    bots: dict[int, Bot]
    specs: dict[int, str]
    """The spec each bot was made from, saved so that a resumed game has the same bots."""
    settings: Settings
    replay: list[tuple[int, Action]] = field(default_factory=list, init=False)
    """Bot actions taken back by an undo, applied again (same dice) when the bots' turns come."""

    # --- setting up -----------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: RuleSet, players: Sequence[str], settings: Settings, *args: Any) -> Self:
        """A new game; ``args`` are the front end's own fields."""
        specs = parse_players(players)
        dice = dice_source(settings.seed)
        game = Game(rules, [p.name for p in specs], dice=dice, pad=settings.pad)
        chosen = {i: p.bot for i, p in enumerate(specs) if p.bot is not None}
        return cls(game, dice, cls._make_bots(chosen, settings.seed), chosen, settings, *args)

    @classmethod
    def load(cls, path: Path, settings: Settings, *args: Any) -> Self:
        """The game saved in ``path`` (by either front end); ``args`` are the front end's own fields."""
        text = path.read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise GameFormatError(f"{path}: not a saved game ({error})") from None
        if not isinstance(data, dict):
            raise GameFormatError(f"{path}: not a saved game")
        extra = data.get(SAVE_KEY) or {}
        names = data.get("players")
        if not isinstance(extra, dict) or not isinstance(names, list):
            raise GameFormatError(f"{path}: not a saved game")
        saved_seed, drawn, by_name = extra.get("seed"), extra.get("drawn", 0), extra.get("bots", {})
        saved_lang = extra.get("lang", settings.lang)
        if not (saved_seed is None or type(saved_seed) is int) or type(drawn) is not int or drawn < 0:
            raise GameFormatError(f"{path}: damaged dice record")
        if not isinstance(by_name, dict) or not all(isinstance(v, str) for v in by_name.values()):
            raise GameFormatError(f"{path}: damaged bot list")
        if settings.lang_given is None and saved_lang in LANGUAGES:
            settings.lang = saved_lang
        continues = settings.seed is None
        if continues:
            settings.seed = saved_seed
        dice = dice_source(settings.seed)
        settings.pad = settings.pad or bool(extra.get("pad", False))
        try:
            game = Game.from_json(data, dice=dice, pad=settings.pad)
        except GameFormatError as error:
            raise GameFormatError(f"{path}: not a saved game ({error})") from None
        if continues and saved_seed is not None:
            # Continue the saved dice stream where it stopped; a count no game can reach is damage, and
            # skipping it would take forever.
            most = len(game.players) * game.rules.turns * (game.rules.rolls + game.rules.free_throws_per_turn)
            if drawn > most * game.rules.dice:
                raise GameFormatError(
                    f"{path}: damaged dice record (drawn {drawn}, at most {most * game.rules.dice})"
                )
            dice.skip(drawn)
        specs = {i: by_name[name] for i, name in enumerate(game.players) if name in by_name}
        return cls(game, dice, cls._make_bots(specs, settings.seed), specs, settings, *args)

    @staticmethod
    def _make_bots(specs: Mapping[int, str], seed: int | None) -> dict[int, Bot]:
        # bots people watch: they never keep them waiting for tables that take long to solve
        return {i: make_bot(spec, seed=bot_seed(seed, i), live=True) for i, spec in specs.items()}

    def review(self, *, by_win: bool = False, wait: bool = True) -> Review:
        """The review of the game (:func:`kniffel.services.review.review`) with every player graded by its own
        goal: bots by what they play for, people by points (by the chance of winning with ``by_win``, which
        also records every player's chances after each turn where they can be told)."""
        goals = player_goals(self.game, self.specs, "win" if by_win else "points")
        return review(self.game, goals=goals, chances=by_win and can_review_by_win(self.game), wait=wait)

    def bots_to_prepare(self) -> list[Bot]:
        """The bots that load (or solve, once) tables before they can play."""
        return [bot for bot in self.bots.values() if callable(getattr(bot, "prepare", None))]

    def prepare(self, bot: Bot) -> None:
        """Load the tables ``bot`` needs, before play starts rather than in the middle of it. A live bot
        whose points table is still to be solved (on a first use its kernels compile for half a minute)
        does not hold up the start: the worker solves it, and the bot plays as the quick bot until then
        (:meth:`kniffel.bots.PlannerBot.table_at_hand`)."""
        at_hand = getattr(bot, "table_at_hand", None)
        if callable(at_hand) and not at_hand(self.game.rules):
            return
        getattr(bot, "prepare")(self.game.rules)  # noqa: B009 - not every bot has tables

    # --- saving ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data = self.game.to_json()
        data[SAVE_KEY] = {
            "bots": {self.game.players[i]: spec for i, spec in self.specs.items()},
            "seed": self.settings.seed,
            "drawn": self.dice.drawn,
            "pad": self.settings.pad,
            "lang": self.settings.lang,
        }
        return data

    def save(self, path: Path) -> None:
        write_atomically(path, json.dumps(self.to_json(), indent=1) + "\n")

    def autosave(self) -> None:
        if self.settings.save is not None:
            self.save(self.settings.save)

    # --- playing --------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """Every player's name as shown in the game's language (:func:`shown_names`)."""
        return shown_names(self.game.players, self.specs, self.settings.lang)

    def shown(self) -> dict[str, str]:
        """Each player's name in the game (its data) -> the name shown (:meth:`names`)."""
        return dict(zip(self.game.players, self.names(), strict=True))

    def record_game(self, reviewed: Review | None = None) -> list[GameRecord]:
        """Add the finished game to the record of each seat a person plays, on this device
        (:func:`kniffel.services.record.record_finished_game`, ``reviewed`` a review made anyway); what
        was added. ``OSError`` if the record cannot be written."""
        from kniffel.services.record import record_finished_game  # the record writes through this module

        humans = [seat for seat in range(len(self.game.players)) if seat not in self.bots]
        return record_finished_game(self.game, humans, reviewed=reviewed)

    @property
    def all_bots(self) -> bool:
        return len(self.bots) == len(self.game.players)

    def apply(self, action: Action) -> Outcome:
        """Apply and autosave; what the action did."""
        outcome = self.game.apply(action)
        self.autosave()
        return outcome

    def bot_action(self) -> Action:
        """The action of the bot to move: one taken back by an undo, else the bot's choice."""
        index = self.game.current
        return self._replayed(index) or self.bots[index].choose(self.game)

    def _replayed(self, index: int) -> Action | None:
        if not self.replay:
            return None
        actor, action = self.replay[0]
        if actor != index or not self.game.can_apply(action):
            self.replay.clear()
            return None
        self.replay.pop(0)
        return action

    def undo(self) -> Undone:
        """Take back the last decision made by a person, as the game allows it (:meth:`Game.undo`: an
        entry or announcement, never a throw whose dice are seen, nothing once the game is over).

        Bots' actions after it are taken back too and replayed with the same dice once the bots'
        turns come again.
        """
        game = self.game
        if game.is_over or not game.log:
            raise GameError(game.undo_blocker() or "nothing to undo")
        taken: list[tuple[int, Action]] = []
        while (actor := game.last_player) is not None and actor in self.bots:
            taken.append((actor, game.retract()))
        try:
            if actor is None:
                raise GameError("nothing to undo")
            action = game.undo()
        except GameError:
            self._redo(taken)
            raise
        self.replay = [*reversed(taken), *self.replay]
        self.autosave()
        return Undone(actor, action, len(taken))

    def _redo(self, taken: list[tuple[int, Action]]) -> None:
        """Apply again the bots' actions an undo took back, when it is refused after all."""
        for _, action in reversed(taken):
            self.game.apply(action)


__all__ = [
    "SAVE_KEY",
    "SUMMARY_HEADERS",
    "CountingDice",
    "PlayerSpec",
    "Preparing",
    "Session",
    "Settings",
    "Undone",
    "bot_name_in",
    "bot_seed",
    "check_writable",
    "dice_source",
    "hint_choices",
    "hint_win_chances",
    "is_bot_spec",
    "live_chances",
    "parse_players",
    "plays_to_win",
    "renamed",
    "saved_bots",
    "shown_names",
    "summary_cells",
    "write_atomically",
]
