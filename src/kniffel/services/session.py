"""A game as people play it, whatever shows it: its bots, dice that resume, saving, undo, hints.

Both front ends that seat people at a game, the line interface (:mod:`kniffel.apps.cli.play`) and the
full-screen game (:mod:`kniffel.apps.tui`), play through a :class:`Session`; a game saved by one resumes in
the other. The session owns no rules and shows nothing: every question goes to :class:`kniffel.Game`, every
word is the front end's. Who sits at the table is read by :mod:`kniffel.services.players`; what front ends
say about a game (its result, a review's summary, a wait) is in :mod:`kniffel.services.wording`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from kniffel.base.errors import GameError, GameFormatError
from kniffel.base.files import atomic_write
from kniffel.base.i18n import LANGUAGES
from kniffel.bots import Bot
from kniffel.bots import make as make_bot
from kniffel.engine.actions import Action, Outcome
from kniffel.engine.dice import DiceSource, SecureDice, SeededDice
from kniffel.engine.game import Game
from kniffel.planning import (
    NotReady,
    win_chances,
)
from kniffel.rules import RuleSet
from kniffel.services.advice import Preparing, plays_to_win
from kniffel.services.players import bot_seed, parse_players, shown_names
from kniffel.services.record import GameRecord, record_finished_game
from kniffel.services.review import (
    Review,
    can_review_by_win,
    player_goals,
    review,
)

SAVE_KEY = "cli"
"""Key of the sessions' own data in a save file (bots, dice drawn); :meth:`Game.from_json` ignores it."""


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


# --- saved games and hints -------------------------------------------------------------------------


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
        atomic_write(path, json.dumps(self.to_json(), indent=1) + "\n")

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
    "CountingDice",
    "Session",
    "Settings",
    "Undone",
    "dice_source",
    "live_chances",
    "read_game",
    "saved_bots",
]
