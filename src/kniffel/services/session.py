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
from kniffel.engine.actions import Action, Outcome, Roll
from kniffel.engine.game import DiceSource, Game, SecureDice, SeededDice
from kniffel.planning import NotReady, PlanningError, parse_goal, win_chances
from kniffel.rules import RuleSet
from kniffel.services.advice import Preparing, about, compiling_seconds, plays_to_win
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
    while their tables are solved (the first time for a rule set a minute or so, in the background; late
    in a game a second or two)."""
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
        game = Game(rules, [p.name for p in specs], dice=dice)
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
            game = Game.from_json(data, dice=dice)
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
        """Take back the last decision made by a person.

        Bots' actions after it are taken back too and replayed with the same dice once the bots'
        turns come again; a person's roll in between stops the undo, because virtual dice must not be
        thrown again (on a score pad the typed throw can be taken back and typed anew).
        """
        game = self.game
        taken: list[tuple[int, Action]] = []
        while game.log:
            action = game.undo()
            actor = game.current
            taken.append((actor, action))
            if actor in self.bots:
                continue
            if isinstance(action, Roll) and not self.settings.pad:
                self._redo(taken)
                raise GameError("dice can't be re-rolled: only a score, strike or announcement can be undone")
            self.replay = [*reversed(taken[:-1]), *self.replay]
            self.autosave()
            return Undone(actor, action, len(taken) - 1)
        self._redo(taken)
        raise GameError("nothing to undo")

    def _redo(self, taken: list[tuple[int, Action]]) -> None:
        for _, action in reversed(taken):
            self.game.apply(action)


__all__ = [
    "SAVE_KEY",
    "SUMMARY_HEADERS",
    "CountingDice",
    "PlayerSpec",
    "Session",
    "Settings",
    "Undone",
    "bot_name_in",
    "bot_seed",
    "check_writable",
    "dice_source",
    "is_bot_spec",
    "live_chances",
    "parse_players",
    "renamed",
    "saved_bots",
    "shown_names",
    "summary_cells",
    "write_atomically",
]
