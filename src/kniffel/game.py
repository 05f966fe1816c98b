"""The game engine: players take turns rolling, keeping and scoring until every sheet is full.

Every move is a small immutable :class:`Action`. A :class:`Game` lists its legal actions, tells why an
illegal one is refused (:meth:`Game.check`), applies actions, undoes them and saves itself as JSON
that replays to the same position.

>>> from kniffel import Game, rules
>>> game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(7))
>>> game.roll()
(1, 2, 3, 4, 6)
"""

from __future__ import annotations

import dataclasses
import json
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from kniffel.dice import FACES, validate_dice
from kniffel.errors import KniffelError
from kniffel.keeps import keep_lattice
from kniffel.rules import Order, Placement, RuleSet, placements, strikeable
from kniffel.rules import get as get_rules
from kniffel.sheet import ScoreSheet, SheetError

FORMAT_VERSION = 1
MAX_PLAYERS = 8

Faces = tuple[int, ...]
"""Dice, sorted ascending."""


class IllegalActionError(KniffelError):
    """An action the rules do not allow now; the message says why."""


class GameFormatError(KniffelError):
    """A saved game or an action text that cannot be read."""


# --- dice sources ----------------------------------------------------------------------------------


class DiceSource(Protocol):
    """Where new dice come from."""

    def throw(self, n: int) -> tuple[int, ...]: ...


class SecureDice:
    """Dice from the operating system's secure random source, for real play."""

    def throw(self, n: int) -> tuple[int, ...]:
        return tuple(secrets.randbelow(FACES) + 1 for _ in range(n))


@dataclass
class SeededDice:
    """Reproducible dice for tests, bots and simulations: the same seed gives the same throws."""

    seed: int
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def throw(self, n: int) -> tuple[int, ...]:
        return tuple(self._rng.randint(1, FACES) for _ in range(n))


# --- actions ---------------------------------------------------------------------------------------


def _faces(text: Iterable[str]) -> Faces:
    try:
        return tuple(int(t) for t in text)
    except ValueError:
        raise GameFormatError(f"dice are numbers 1-6, got {' '.join(text)!r}") from None


@dataclass(frozen=True)
class Action:
    """Base of every action. ``str(action)`` and :meth:`parse` round-trip."""

    name: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.name}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is not None:
                data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    @staticmethod
    def from_json(data: object) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("action"), str):
            raise GameFormatError(f"not an action: {data!r}")
        if data["action"] not in ACTION_TYPES:
            raise GameFormatError(f"not an action: {data!r}")
        cls = ACTION_TYPES[data["action"]]
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name in ("keep", "dice"):
                if not isinstance(value, list) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value
                ):
                    raise GameFormatError(f"{f.name} must be a list of faces, got {value!r}")
                value = tuple(value)
            elif not isinstance(value, str):
                raise GameFormatError(f"{f.name} must be a box name, got {value!r}")
            kwargs[f.name] = value
        try:
            return cls(**kwargs)
        except TypeError as error:
            raise GameFormatError(f"incomplete action {data!r}: {error}") from None

    @staticmethod
    def parse(text: str) -> Action:
        """``roll``, ``roll keep 3 3 5``, ``roll keep 3 3 = 1 3 3 4 6``, ``free keep 6 6``,
        ``announce 3:full_house``, ``score chance``, ``strike ones``."""
        words = text.split()
        if not words or words[0] not in ACTION_TYPES:
            raise GameFormatError(f"unknown action {text!r}; actions: {', '.join(ACTION_TYPES)}")
        cls = ACTION_TYPES[words[0]]
        rest = words[1:]
        if issubclass(cls, Roll):
            dice: Faces | None = None
            if "=" in rest:
                at = rest.index("=")
                dice, rest = _faces(rest[at + 1 :]), rest[:at]
            if rest and rest[0] == "keep":
                rest = rest[1:]
            elif rest:
                raise GameFormatError(f"expected 'keep' after {words[0]!r}, got {rest[0]!r}")
            return cls(keep=_faces(rest), dice=dice)
        if len(rest) != 1:
            raise GameFormatError(f"{words[0]} takes one box, e.g. '{words[0]} chance'")
        return cls(rest[0])  # type: ignore[call-arg]


@dataclass(frozen=True)
class Roll(Action):
    """Throw the dice not kept. ``keep`` is the multiset of current dice set aside (empty for the
    first roll); ``dice`` is the result: given for a score pad or a replay, else drawn."""

    name: ClassVar[str] = "roll"
    keep: Faces = ()
    dice: Faces | None = None

    def __post_init__(self) -> None:
        # Dice are multisets: (5, 3) and (3, 5) are the same keep, so store them sorted.
        object.__setattr__(self, "keep", tuple(sorted(self.keep)))
        if self.dice is not None:
            object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def __str__(self) -> str:
        text = self.name + ("" if not self.keep else " keep " + " ".join(map(str, self.keep)))
        return text if self.dice is None else text + " = " + " ".join(map(str, self.dice))


@dataclass(frozen=True)
class FreeThrow(Roll):
    """A roll beyond the regular ones, paid from the column's free-throw box (Knöffel)."""

    name: ClassVar[str] = "free"


@dataclass(frozen=True)
class BoxAction(Action):
    """An action that names one box."""

    box: str

    def __str__(self) -> str:
        return f"{self.name} {self.box}"


@dataclass(frozen=True)
class Announce(BoxAction):
    """Name the box of an announced column this turn's roll is meant for (after the first roll)."""

    name: ClassVar[str] = "announce"


@dataclass(frozen=True)
class Score(BoxAction):
    """Enter the dice in a box; ends the turn."""

    name: ClassVar[str] = "score"


@dataclass(frozen=True)
class Strike(BoxAction):
    """Fill a box with 0; ends the turn."""

    name: ClassVar[str] = "strike"


ACTION_TYPES: dict[str, type[Action]] = {cls.name: cls for cls in (Roll, FreeThrow, Announce, Score, Strike)}


# --- the game --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """The state of the turn in progress."""

    dice: Faces | None = None
    rolls: int = 0
    free_throws: int = 0
    announced: str | None = None
    thrown_at_once: bool = False
    """The last throw was made with all dice (the sharp variant doubles figures then)."""


@dataclass(frozen=True)
class Standing:
    name: str
    total: int
    rank: int


class Game:
    """A game of any rule set for 1 to 8 players."""

    def __init__(
        self,
        rules: RuleSet,
        players: Sequence[str],
        *,
        dice: DiceSource | None = None,
    ) -> None:
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, got {len(players)}")
        names = [str(p).strip() for p in players]
        if any(not n for n in names):
            raise ValueError("every player needs a name")
        if len(set(names)) != len(names):
            raise ValueError("player names must differ")
        self.rules = rules
        self.players: tuple[str, ...] = tuple(names)
        self.dice_source: DiceSource = dice if dice is not None else SecureDice()
        self.sheets = [ScoreSheet(rules) for _ in names]
        self.current = 0
        self.turn = Turn()
        self.log: list[Action] = []
        self._history: list[tuple[int, Turn, ScoreSheet | None]] = []

    # --- reading -------------------------------------------------------------------------------

    @property
    def dice(self) -> Faces | None:
        return self.turn.dice

    @property
    def sheet(self) -> ScoreSheet:
        """The sheet of the player to move."""
        return self.sheets[self.current]

    @property
    def player(self) -> str:
        return self.players[self.current]

    @property
    def is_over(self) -> bool:
        return all(s.is_full for s in self.sheets)

    @property
    def rolls_left(self) -> int:
        return self.rules.rolls - self.turn.rolls

    @property
    def round(self) -> int:
        """1-based number of the round in progress (one box per player per round)."""
        return min(len(self.sheets[-1].entries) + 1, self.rules.turns)

    def totals(self) -> list[int]:
        return [s.total for s in self.sheets]

    def standings(self) -> list[Standing]:
        """Players by total, best first; equal totals share a rank."""
        order = sorted(range(len(self.players)), key=lambda i: -self.sheets[i].total)
        result: list[Standing] = []
        for position, i in enumerate(order):
            total = self.sheets[i].total
            rank = result[-1].rank if result and result[-1].total == total else position + 1
            result.append(Standing(self.players[i], total, rank))
        return result

    def winners(self) -> list[str]:
        """Names of the players with the highest total (several on a tie); empty while playing."""
        if not self.is_over:
            return []
        return [s.name for s in self.standings() if s.rank == 1]

    def placements(self) -> dict[str, Placement]:
        """Where the current dice may be scored and what each box pays (empty before the first roll)."""
        if self.turn.dice is None or self.is_over:
            return {}
        options = placements(
            self.rules,
            self.sheet.entries,
            self.turn.dice,
            thrown_at_once=self.turn.thrown_at_once,
            announced=self.turn.announced,
        )
        return {k: v for k, v in options.items() if self._free_throws_fit(k)}

    def _free_throws_fit(self, key: str) -> bool:
        column, _ = self.rules.locate(key)
        return self.sheet.free_throws_left(column) >= self.turn.free_throws

    def legal_actions(self) -> list[Action]:
        """Every action allowed now; rolls are listed once per distinct set of kept dice."""
        if self.is_over:
            return []
        actions: list[Action] = []
        for keep in self._keeps():
            for cls in (Roll, FreeThrow):
                action = cls(keep=keep)
                if self._reason(action) is None:
                    actions.append(action)
        if self.turn.dice is not None:
            if self.turn.rolls == 1 and self.turn.announced is None:
                actions += [
                    Announce(k)
                    for k in self.sheet.free_keys
                    if self.rules.locate(k)[0].order is Order.ANNOUNCED
                ]
            actions += [Score(k) for k in self.placements()]
            actions += [Strike(k) for k in self._strikeable()]
        return actions

    def _keeps(self) -> tuple[Faces, ...]:
        if self.turn.dice is None:
            return ((),)
        return keep_lattice(self.rules.dice).keeps_of(self.turn.dice)

    def _strikeable(self) -> list[str]:
        if self.turn.dice is None:
            return []
        keys = strikeable(self.rules, self.sheet.entries, self.turn.dice, announced=self.turn.announced)
        return [k for k in keys if self._free_throws_fit(k)]

    def can_apply(self, action: Action) -> bool:
        return self._reason(action) is None

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not allowed now."""
        reason = self._reason(action)
        if reason is not None:
            raise IllegalActionError(reason)

    def _reason(self, action: Action) -> str | None:
        if self.is_over:
            return "the game is over"
        turn, rules = self.turn, self.rules
        if isinstance(action, Roll):
            return self._roll_reason(action)
        if not isinstance(action, BoxAction):
            return f"unknown action {action!r}"
        try:
            column, _ = rules.locate(action.box)
        except KeyError as error:
            return str(error.args[0])
        if turn.dice is None:
            return "roll the dice first"
        if action.box in self.sheet.entries:
            return f"{action.box} is already filled"
        if isinstance(action, Announce):
            if column.order is not Order.ANNOUNCED:
                return f"{action.box} is not in an announced column"
            if turn.announced is not None:
                return f"{turn.announced} is already announced"
            if turn.rolls != 1:
                return "announce right after the first roll"
            return None
        if not self._free_throws_fit(action.box):
            return f"column {column.id} has no free throws left to pay for this turn's"
        if isinstance(action, Score):
            if action.box in self.placements():
                return None
            if turn.announced is not None:
                return f"{turn.announced} is announced: score it or strike a box"
            if column.order is Order.ANNOUNCED:
                return f"{action.box} can only be filled after announcing it"
            if column.order is not Order.FREE:
                return f"column {column.id} is filled {column.order.value}: {action.box} is not next"
            return f"the joker rule sends these dice elsewhere: {', '.join(self.placements())}"
        if action.box not in self._strikeable():
            return f"{action.box} cannot be struck now; allowed: {', '.join(self._strikeable())}"
        return None

    def _roll_reason(self, action: Roll) -> str | None:
        turn, rules = self.turn, self.rules
        if isinstance(action, FreeThrow):
            if not rules.free_throws:
                return f"{rules.id} has no free throws"
            if turn.rolls < rules.rolls:
                return "a free throw comes after the regular rolls"
            if turn.free_throws >= rules.free_throws_per_turn:
                return f"at most {rules.free_throws_per_turn} free throw(s) per turn"
            if not any(
                self.sheet.free_throws_left(c) > turn.free_throws
                and any(rules.key(c, b) not in self.sheet.entries for b in rules.boxes)
                for c in rules.columns
            ):
                return "no free throws left"
        elif turn.rolls >= rules.rolls:
            return f"no rolls left ({rules.rolls} per turn): score or strike a box"
        if turn.dice is None and action.keep:
            return "nothing to keep before the first roll"
        if turn.dice is not None and not _is_submultiset(action.keep, turn.dice):
            return f"can only keep dice that are showing: {' '.join(map(str, turn.dice))}"
        if len(action.keep) >= rules.dice:
            return "keeping every die leaves nothing to roll; score or strike a box instead"
        if action.dice is not None:
            try:
                validate_dice(list(action.dice), rules.dice)
            except ValueError as error:
                return str(error)
            if not _is_submultiset(action.keep, action.dice):
                return "the rolled dice must include the kept ones"
        return None

    # --- changing ------------------------------------------------------------------------------

    def apply(self, action: Action) -> Action:
        """Apply a legal action and return it completed (a roll with its dice), as it is logged."""
        self.check(action)
        history_entry: tuple[int, Turn, ScoreSheet | None] = (self.current, self.turn, None)
        if isinstance(action, Roll):
            dice = action.dice
            if dice is None:
                dice = tuple(sorted(action.keep + self.dice_source.throw(self.rules.dice - len(action.keep))))
            action = dataclasses.replace(action, dice=dice)
            self.turn = dataclasses.replace(
                self.turn,
                dice=dice,
                rolls=self.turn.rolls + (0 if isinstance(action, FreeThrow) else 1),
                free_throws=self.turn.free_throws + isinstance(action, FreeThrow),
                thrown_at_once=not action.keep,
            )
        elif isinstance(action, Announce):
            self.turn = dataclasses.replace(self.turn, announced=action.box)
        else:
            assert isinstance(action, Score | Strike)
            before = _copy_sheet(self.sheet)
            history_entry = (self.current, self.turn, before)
            placement = self.placements()[action.box] if isinstance(action, Score) else Placement(0)
            column, _ = self.rules.locate(action.box)
            sheet = self.sheet
            sheet.entries[action.box] = placement.points
            if placement.bonus:
                sheet.extra_bonus[column.id] = sheet.extra_bonus.get(column.id, 0) + placement.bonus
            if self.turn.free_throws:
                used = sheet.free_throws_used.get(column.id, 0)
                sheet.free_throws_used[column.id] = used + self.turn.free_throws
            self.current = (self.current + 1) % len(self.players)
            self.turn = Turn()
        self._history.append(history_entry)
        self.log.append(action)
        return action

    def undo(self) -> Action:
        """Take back the last action and return it; ``IndexError`` if there is none."""
        if not self.log:
            raise IndexError("nothing to undo")
        player, turn, sheet = self._history.pop()
        action = self.log.pop()
        if sheet is not None:
            self.sheets[player] = sheet
        self.current, self.turn = player, turn
        return action

    def roll(self, keep: Iterable[int] = ()) -> Faces:
        """Roll, keeping ``keep``; returns the dice now showing."""
        action = self.apply(Roll(keep=tuple(keep)))
        assert isinstance(action, Roll)
        assert action.dice is not None
        return action.dice

    def score(self, box: str) -> Action:
        return self.apply(Score(box))

    def strike(self, box: str) -> Action:
        return self.apply(Strike(box))

    # --- saving --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Rules, players and the action log with every roll's dice: enough to replay the game."""
        return {
            "format": FORMAT_VERSION,
            "rules": self.rules.id,
            "options": dict(self.rules.options),
            "players": list(self.players),
            "actions": [a.to_json() for a in self.log],
            "totals": self.totals(),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: object, *, dice: DiceSource | None = None) -> Game:
        """Replay a saved game; :class:`GameFormatError` if it is damaged or not a game."""
        if not isinstance(data, Mapping):
            raise GameFormatError("a saved game is a JSON object")
        if data.get("format") != FORMAT_VERSION:
            raise GameFormatError(f"unsupported save format {data.get('format')!r}")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise GameFormatError(f"options must be an object of name: value, got {options!r}")
        try:
            rules = get_rules(str(data["rules"]), options)
            players = data["players"]
            actions = data["actions"]
        except KeyError as error:
            raise GameFormatError(f"saved game lacks {error.args[0]!r}") from None
        except ValueError as error:
            raise GameFormatError(str(error)) from None
        if not isinstance(players, list) or not isinstance(actions, list):
            raise GameFormatError("players and actions must be lists")
        if not all(isinstance(p, str) for p in players):
            raise GameFormatError(f"player names must be strings, got {players!r}")
        try:
            game = cls(rules, players, dice=dice)
        except ValueError as error:
            raise GameFormatError(str(error)) from None
        for number, item in enumerate(actions, 1):
            action = Action.from_json(item)
            if isinstance(action, Roll) and action.dice is None:
                raise GameFormatError(f"action {number}: a saved roll must record its dice")
            try:
                game.apply(action)
            except IllegalActionError as error:
                raise GameFormatError(f"action {number} ({action}) is illegal: {error}") from None
        if "totals" in data and data["totals"] != game.totals():
            raise GameFormatError("the saved totals do not match the replayed game")
        return game

    @classmethod
    def loads(cls, text: str, *, dice: DiceSource | None = None) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise GameFormatError(f"not JSON: {error}") from None
        return cls.from_json(data, dice=dice)


def _is_submultiset(part: Sequence[int], whole: Sequence[int]) -> bool:
    rest = list(whole)
    for face in part:
        if face not in rest:
            return False
        rest.remove(face)
    return True


def _copy_sheet(sheet: ScoreSheet) -> ScoreSheet:
    return ScoreSheet(sheet.rules, dict(sheet.entries), dict(sheet.extra_bonus), dict(sheet.free_throws_used))


__all__ = [
    "Action",
    "Announce",
    "DiceSource",
    "FreeThrow",
    "Game",
    "GameFormatError",
    "IllegalActionError",
    "Roll",
    "Score",
    "SecureDice",
    "SeededDice",
    "SheetError",
    "Standing",
    "Strike",
    "Turn",
]
