"""The game engine: players take turns rolling, keeping and scoring until every sheet is full.

Every move is a small immutable :class:`~kniffel.engine.actions.Action`. A :class:`Game` knows its legal
actions (:attr:`Game.legal`, computed once per position), tells why an illegal one is refused
(:meth:`Game.check`), applies actions (saying what each did, :class:`~kniffel.engine.actions.Outcome`),
lets a player take one back where that is fair (:meth:`Game.undo`: never a throw whose dice are seen,
never in a finished game; what was taken back stays on record), and saves itself as JSON that replays
to the same position under the rule set it was played by.
:meth:`Game.situation` and :meth:`Game.from_situation` move between a game and the one-line
:class:`~kniffel.engine.situation.Situation` of the player to move.

>>> from kniffel import Game, SeededDice, rules
>>> game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(7))
>>> game.roll()
(1, 2, 3, 4, 6)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from kniffel.base.dice import validate_dice
from kniffel.base.errors import (
    DiceError,
    GameError,
    GameFormatError,
    IllegalActionError,
    KniffelError,
    UnknownBoxError,
)
from kniffel.base.i18n import N_
from kniffel.base.keeps import keep_lattice
from kniffel.engine.actions import (
    Action,
    Announce,
    BoxAction,
    Faces,
    FreeThrow,
    LegalActions,
    Outcome,
    Roll,
    Score,
    Strike,
    TakenBack,
    action_text,
    is_submultiset,
    read_action,
    read_taken_back,
)
from kniffel.engine.dice import DiceSource, RepeatableDice, SecureDice
from kniffel.engine.sheet import ScoreSheet, sheet_text
from kniffel.engine.situation import Situation
from kniffel.rules import Order, Placement, RuleSet, placements, strikeable
from kniffel.rules import get as get_rules

FORMAT_VERSION = 1
MAX_PLAYERS = 8


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
    """A game of any rule set for 1 to 8 players.

    The position changes only through :meth:`apply` and :meth:`undo` (and a program's :meth:`retract`);
    everyone else reads it.

    ``pad`` says that the dice are real ones, thrown at the table and typed in (a score pad): there a
    throw may be taken back to be typed anew, since that throws no die again."""

    def __init__(
        self,
        rules: RuleSet,
        players: Sequence[str],
        *,
        dice: DiceSource | None = None,
        pad: bool = False,
    ) -> None:
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise GameError(f"a game has 1 to {MAX_PLAYERS} players, got {len(players)}")
        names = [str(p).strip() for p in players]
        if any(not n for n in names):
            raise GameError("every player needs a name")
        if len(set(names)) != len(names):
            raise GameError("player names must differ")
        self.rules = rules
        self.players: tuple[str, ...] = tuple(names)
        self.dice_source: DiceSource = dice if dice is not None else SecureDice()
        self.pad = pad
        self.sheets = [ScoreSheet(rules) for _ in names]
        self.current = 0
        self.turn = Turn()
        self.log: list[Action] = []
        self.taken_back: list[TakenBack] = []
        """What players took back (:meth:`undo`), in the order they did."""
        self._history: list[tuple[int, Turn, ScoreSheet | None]] = []
        self._legal: LegalActions | None = None

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

    @property
    def totals(self) -> list[int]:
        """Each player's total now, in seat order."""
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

    def __str__(self) -> str:
        """The sheets side by side and whose turn it is, as plain text::

        Kniffel (Schmidt), round 2 of 13: Bob to move, dice 1 2 3 4 6, 2 rolls left
        Box                   Ada   Bob
        Ones                    3
        ...
        """
        if self.is_over:
            best = self.standings()[0].total
            state = f"game over, won by {' and '.join(self.winners())} with {best}"
        else:
            dice = "not rolled yet" if self.dice is None else "dice " + " ".join(map(str, self.dice))
            state = f"{self.player} to move, {dice}, {self.rolls_left} rolls left"
        head = f"{self.rules.name}, round {self.round} of {self.rules.turns}: {state}"
        return head + "\n" + sheet_text(self.rules, list(self.players), self.sheets)

    def __repr__(self) -> str:
        return f"<Game {self.rules.id} {list(self.players)!r}, {len(self.log)} actions>"

    def situation(self) -> Situation:
        """The situation of the player to move (``GameError`` once the game is over)."""
        if self.is_over:
            raise GameError("the game is over: no player is to move")
        turn = self.turn
        n = len(self.players)
        return Situation(
            self.rules,
            self.sheet,
            turn.dice,
            self.rolls_left,
            free_throws=turn.free_throws,
            thrown_at_once=turn.thrown_at_once,
            announced=turn.announced,
            others=tuple(self.sheets[(self.current + k) % n] for k in range(1, n)),
        )

    # --- the legal actions ---------------------------------------------------------------------

    @property
    def legal(self) -> LegalActions:
        """Every action allowed now; worked out once per position."""
        if self._legal is None:
            self._legal = self._find_legal()
        return self._legal

    def legal_actions(self) -> list[Action]:
        """Every action allowed now; rolls are listed once per distinct set of kept dice."""
        return list(self.legal)

    def placements(self) -> dict[str, Placement]:
        """Where the current dice may be scored and what each box pays (empty before the first roll)."""
        return dict(self.legal.placements)

    def can_apply(self, action: Action) -> bool:
        return action in self.legal

    def parse_action(self, text: str) -> Action:
        """The action ``text`` names, read leniently against the legal actions now: the text form
        (``roll keep 3 3``, ``score chance``), short forms (``r``, ``k 3 3``, ``s full``, ``x 2:ch``, a
        box alone to score in it) and the forms :meth:`action_text` shows in any language (``3 3
        halten``, ``Chance eintragen``). A box name that fits several boxes is read as the one that is
        legal. :class:`GameFormatError` (or :class:`UnknownBoxError`) says what cannot be read; whether
        the action is allowed is :meth:`check`'s to say.

        >>> from kniffel import SeededDice
        >>> game = Game(get_rules("kniffel"), ["Ada"], dice=SeededDice(7))
        >>> game.parse_action("k 3 3"), game.parse_action("s gr")
        (Roll(keep=(3, 3), dice=None), Score(box='large_straight'))
        """
        return read_action(text, self.rules, self.legal)

    def action_text(self, action: Action | str, language: str = "en") -> str:
        """``action`` (or its text form) as people read it in ``language``: in English the text form,
        in German ``3 3 halten``, ``Chance eintragen``. :meth:`parse_action` reads it back."""
        if isinstance(action, str):
            action = Action.parse(action)
        return action_text(action, self.rules, language)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not allowed now."""
        if action not in self.legal:
            raise IllegalActionError(self._why_not(action))

    def _find_legal(self) -> LegalActions:
        rules, turn, sheet = self.rules, self.turn, self.sheet
        if self.is_over:
            return LegalActions(n_dice=rules.dice)
        keeps: tuple[Faces, ...] = ()
        free = False
        if self._throw_blocker(free=False) is None:
            keeps = self._keeps()
        elif self._throw_blocker(free=True) is None:
            keeps, free = self._keeps(), True
        if turn.dice is None:
            return LegalActions(keeps, free, n_dice=rules.dice)
        found = placements(
            rules, sheet.entries, turn.dice, thrown_at_once=turn.thrown_at_once, announced=turn.announced
        )
        strikes = strikeable(rules, sheet.entries, turn.dice, announced=turn.announced, scoreable=found)
        announces: tuple[str, ...] = ()
        if turn.rolls == 1 and turn.announced is None:
            announces = tuple(k for k in sheet.free_keys if rules.locate(k)[0].order is Order.ANNOUNCED)
        return LegalActions(
            keeps,
            free,
            MappingProxyType({k: p for k, p in found.items() if self._free_throws_fit(k)}),
            tuple(k for k in strikes if self._free_throws_fit(k)),
            announces,
            rules.dice,
        )

    def _keeps(self) -> tuple[Faces, ...]:
        """Every distinct set of dice that may be held for a throw (not all of them)."""
        if self.turn.dice is None:
            return ((),)
        return keep_lattice(self.rules.dice).keeps_of(self.turn.dice)[:-1]

    def _free_throws_fit(self, key: str) -> bool:
        """The column of ``key`` can pay for the free throws taken this turn."""
        if not self.turn.free_throws:
            return True
        column, _ = self.rules.locate(key)
        return self.sheet.free_throws_left(column) >= self.turn.free_throws

    def _throw_blocker(self, *, free: bool) -> str | None:
        """Why no (free) throw at all is allowed now; None if one is."""
        turn, rules = self.turn, self.rules
        if not free:
            if turn.rolls >= rules.rolls:
                return N_(f"no rolls left ({rules.rolls} per turn): score or strike a box")
            return None
        if not rules.free_throws:
            return N_(f"{rules.id} has no free throws")
        if turn.rolls < rules.rolls:
            return N_("a free throw comes after the regular rolls")
        if turn.free_throws >= rules.free_throws_per_turn:
            return N_(f"free throws a turn: at most {rules.free_throws_per_turn}")
        if not any(
            self.sheet.free_throws_left(c) > turn.free_throws
            and any(rules.key(c, b) not in self.sheet.entries for b in rules.boxes)
            for c in rules.columns
        ):
            return N_("no free throws left")
        return None

    def _why_not(self, action: Action) -> str:
        """Why an action that is not legal now is refused, in one line."""
        if self.is_over:
            return N_("the game is over")
        if isinstance(action, Roll):
            return self._throw_blocker(free=isinstance(action, FreeThrow)) or self._keep_problem(action)
        if not isinstance(action, BoxAction):
            return N_(f"unknown action {action!r}")
        turn, rules = self.turn, self.rules
        try:
            column, _ = rules.locate(action.box)
        except UnknownBoxError as error:
            return str(error)
        if turn.dice is None:
            return N_("roll the dice first")
        if action.box in self.sheet.entries:
            return N_(f"{action.box} is already filled")
        if isinstance(action, Announce):
            if column.order is not Order.ANNOUNCED:
                return N_(f"{action.box} is not in an announced column")
            if turn.announced is not None:
                return N_(f"{turn.announced} is already announced")
            return N_("announce right after the first roll")
        if not self._free_throws_fit(action.box):
            return N_(f"column {column.id} has no free throws left to pay for this turn's")
        if isinstance(action, Score):
            if turn.announced is not None:
                return N_(f"{turn.announced} is announced: score it or strike a box")
            if column.order is Order.ANNOUNCED:
                return N_(f"{action.box} can only be filled after announcing it")
            if column.order is not Order.FREE:
                if column.order is Order.TOP_DOWN:
                    return N_(f"column {column.id} is filled top-down: {action.box} is not next")
                return N_(f"column {column.id} is filled bottom-up: {action.box} is not next")
            return N_(f"the joker rule sends these dice elsewhere: {', '.join(self.legal.placements)}")
        return N_(f"{action.box} cannot be struck now; allowed: {', '.join(self.legal.strikeable)}")

    def _keep_problem(self, action: Roll) -> str:
        turn, rules = self.turn, self.rules
        if turn.dice is None and action.keep:
            return N_("nothing to keep before the first roll")
        if turn.dice is not None and not is_submultiset(action.keep, turn.dice):
            return N_(f"can only keep dice that are showing: {' '.join(map(str, turn.dice))}")
        if len(action.keep) >= rules.dice:
            return N_("keeping every die leaves nothing to roll; score or strike a box instead")
        if action.dice is not None:
            try:
                validate_dice(list(action.dice), rules.dice)
            except DiceError as error:
                return str(error)
            if not is_submultiset(action.keep, action.dice):
                return N_("the rolled dice must include the kept ones")
        return N_(f"{action} is not allowed now")

    # --- changing ------------------------------------------------------------------------------

    def apply(self, action: Action | str) -> Outcome:
        """Apply a legal action (:class:`IllegalActionError` saying why not, else) and return what it
        did: the action as it is logged (a roll with its dice), and for a score or strike the box, the
        points, the extra bonus and the upper bonus it earned. Text is read by :meth:`parse_action`
        (``game.apply("score chance")``, ``game.apply("k 3 3")``)."""
        if isinstance(action, str):
            action = self.parse_action(action)
        elif not isinstance(action, Action):
            raise GameFormatError(
                f"apply takes an action (Roll(), Score('chance'), ...) or its text ('score chance'), "
                f"got {action!r}"
            )
        self.check(action)
        player = self.current
        history_entry: tuple[int, Turn, ScoreSheet | None] = (player, self.turn, None)
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
            outcome = Outcome(action, player)
        elif isinstance(action, Announce):
            self.turn = dataclasses.replace(self.turn, announced=action.box)
            outcome = Outcome(action, player)
        else:
            assert isinstance(action, Score | Strike)
            sheet = self.sheet
            history_entry = (player, self.turn, _copy_sheet(sheet))
            placement = self.legal.placements[action.box] if isinstance(action, Score) else Placement(0)
            column, _ = self.rules.locate(action.box)
            upper_bonus_before = sheet.column_totals(column).upper_bonus
            sheet.entries[action.box] = placement.points
            if placement.bonus:
                sheet.extra_bonus[column.id] = sheet.extra_bonus.get(column.id, 0) + placement.bonus
            if self.turn.free_throws:
                used = sheet.free_throws_used.get(column.id, 0)
                sheet.free_throws_used[column.id] = used + self.turn.free_throws
            outcome = Outcome(
                action,
                player,
                action.box,
                placement.points,
                placement.bonus,
                sheet.column_totals(column).upper_bonus - upper_bonus_before,
            )
            self.current = (self.current + 1) % len(self.players)
            self.turn = Turn()
        self._history.append(history_entry)
        self.log.append(outcome.action)
        self._legal = None
        return outcome

    @property
    def last_player(self) -> int | None:
        """Index of the player who made the last action (None before the first)."""
        return self._history[-1][0] if self._history else None

    def undo_blocker(self) -> str | None:
        """Why :meth:`undo` refuses now, in one line; None if it may take the last action back. A throw
        stays once its dice are seen (taking it back would throw them again, until they please), unless
        they were typed from real dice (``pad``); an entry or an announcement may be taken back; a
        finished game is final."""
        if self.is_over:
            return N_("the game is over: a finished game stays as it ended")
        if not self.log:
            return N_("nothing to undo")
        if isinstance(self.log[-1], Roll) and not self.pad:
            return N_("dice can't be re-rolled: only a score, strike or announcement can be undone")
        return None

    @property
    def can_undo(self) -> bool:
        return self.undo_blocker() is None

    def undo(self) -> Action:
        """A player takes back the last action: it is undone, kept in :attr:`taken_back` and returned;
        :class:`GameError` says why not (:meth:`undo_blocker`)."""
        blocker = self.undo_blocker()
        if blocker is not None:
            raise GameError(blocker)
        player = self._history[-1][0]
        action = self.retract()
        self.taken_back.append(TakenBack(len(self.log), player, action))
        return action

    def retract(self) -> Action:
        """Take back the last action as if it had never been made, whatever it was, and return it: for a
        program that withdraws an action nobody has seen (a commit that failed) or that it applies again
        as it was (a bot's move, replayed with its dice). No rule stops it and nothing of it is kept; a
        player takes back with :meth:`undo`. :class:`GameError` if there is no action."""
        if not self.log:
            raise GameError("nothing to undo")
        player, turn, sheet = self._history.pop()
        action = self.log.pop()
        if sheet is not None:
            self.sheets[player] = sheet
        self.current, self.turn = player, turn
        self._legal = None
        return action

    def copy(self, *, dice: DiceSource | None = None) -> Game:
        """An independent copy of the position and its history (undo works on it too). The copy throws
        with ``dice``; by default a game with seeded dice (:class:`RepeatableDice`) gives its copy a copy
        of them, which throws what this game would throw next, and any other game the operating system's
        secure dice.

        >>> from kniffel import SeededDice
        >>> game = Game(get_rules("kniffel"), ["Ada"], dice=SeededDice(7))
        >>> game.copy().roll() == game.roll()
        True
        """
        if dice is None and isinstance(self.dice_source, RepeatableDice):
            dice = self.dice_source.copy()
        game = Game(self.rules, self.players, dice=dice, pad=self.pad)
        game.sheets = [_copy_sheet(sheet) for sheet in self.sheets]
        game.current, game.turn = self.current, self.turn
        game.log = list(self.log)
        game.taken_back = list(self.taken_back)
        game._history = list(self._history)  # its sheets are copies already, never changed again
        game._legal = self._legal
        return game

    def __getstate__(self) -> dict[str, object]:
        """What pickling keeps of a game: everything but its legal actions (worked out again)."""
        return {**self.__dict__, "_legal": None}

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """:meth:`copy` (its rules, immutable, shared): what ``copy.deepcopy`` makes of a game."""
        return self.copy()

    def replay(self) -> Iterator[tuple[Game, Action]]:
        """Every position of the game with the action taken there, from the first: ``(position,
        action)``. The position is one game that moves on by the action after each step (as if the loop
        applied it); ``copy()`` it to keep one. The dice are those of the log."""
        position = Game(self.rules, self.players)
        for action in self.log:
            yield position, action
            position.apply(action)

    def roll(self, keep: Iterable[int] = ()) -> Faces:
        """Roll, keeping ``keep``; returns the dice now showing."""
        dice = self.apply(Roll(keep=tuple(keep))).dice
        assert dice is not None
        return dice

    def score(self, box: str) -> Outcome:
        """Enter the dice in ``box``; what it earned."""
        return self.apply(Score(box))

    def strike(self, box: str) -> Outcome:
        """Enter 0 in ``box``."""
        return self.apply(Strike(box))

    # --- situations ----------------------------------------------------------------------------

    @classmethod
    def from_situation(
        cls, situation: Situation, *, player: str = "Player", dice: DiceSource | None = None
    ) -> Game:
        """A game in ``situation`` (with no history to undo), e.g. for a planner to value: one player, or
        with the situation's other players (named ``Player 2``, ...) the whole table, seated so that those
        who have moved in this round come before the player to move."""
        moved = [other for other in situation.others if len(other.entries) > len(situation.sheet.entries)]
        waiting = situation.others[: len(situation.others) - len(moved)]
        names = [f"{player} {n}" for n in range(2, len(situation.others) + 2)]
        seats = [*names[len(waiting) :], player, *names[: len(waiting)]]
        game = cls(situation.rules, seats, dice=dice)
        for seat, sheet in enumerate([*moved, situation.sheet, *waiting]):
            game.sheets[seat] = _copy_sheet(sheet)
        game.current = len(moved)
        game.turn = Turn(
            dice=situation.dice,
            rolls=situation.rules.rolls - situation.rolls_left,
            free_throws=situation.free_throws,
            announced=situation.announced,
            thrown_at_once=situation.thrown_at_once,
        )
        return game

    # --- saving --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The rule set's declaration (its id and options too, for readers that know only those),
        players and the action log with every roll's dice: enough to replay the game; and what players
        took back, where they did (readers that do not know it replay the same game)."""
        data = {
            "format": FORMAT_VERSION,
            "rules": self.rules.id,
            "options": dict(self.rules.options),
            "ruleset": self.rules.to_json(),
            "players": list(self.players),
            "actions": [a.to_json() for a in self.log],
            "totals": self.totals,
        }
        if self.taken_back:
            data["taken_back"] = [taken.to_json() for taken in self.taken_back]
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: object, *, dice: DiceSource | None = None, pad: bool = False) -> Game:
        """Replay a saved game (``pad``: its dice are typed from real ones); :class:`GameFormatError` if
        it is damaged or not a game.

        The rules are the saved declaration (``ruleset``) when there is one, so a game keeps the rules it
        was played by and a rule set of one's own loads too; older saves name a built-in rule set by id
        and options."""
        if not isinstance(data, Mapping):
            raise GameFormatError("a saved game is a JSON object")
        if data.get("format") != FORMAT_VERSION:
            raise GameFormatError(f"unsupported save format {data.get('format')!r}")
        rules = _saved_rules(data)
        try:
            players = data["players"]
            actions = data["actions"]
        except KeyError as error:
            raise GameFormatError(f"saved game lacks {error.args[0]!r}") from None
        if not isinstance(players, list) or not isinstance(actions, list):
            raise GameFormatError("players and actions must be lists")
        if not all(isinstance(p, str) for p in players):
            raise GameFormatError(f"player names must be strings, got {players!r}")
        try:
            game = cls(rules, players, dice=dice, pad=pad)
        except GameError as error:
            raise GameFormatError(str(error)) from None
        for number, item in enumerate(actions, 1):
            action = Action.from_json(item)
            if isinstance(action, Roll) and action.dice is None:
                raise GameFormatError(f"action {number}: a saved roll must record its dice")
            try:
                game.apply(action)
            except IllegalActionError as error:
                raise GameFormatError(f"action {number} ({action}) is illegal: {error}") from None
        if "totals" in data and data["totals"] != game.totals:
            raise GameFormatError("the saved totals do not match the replayed game")
        game.taken_back = read_taken_back(data.get("taken_back", []), len(game.log), len(game.players))
        return game

    @classmethod
    def loads(cls, text: str, *, dice: DiceSource | None = None, pad: bool = False) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise GameFormatError(f"not JSON: {error}") from None
        return cls.from_json(data, dice=dice, pad=pad)


def _saved_rules(data: Mapping[str, Any]) -> RuleSet:
    """The rule set of a saved game: its declaration, else the built-in one it names."""
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise GameFormatError(f"options must be an object of name: value, got {options!r}")
    if "ruleset" in data:
        try:
            rules = RuleSet.from_json(data["ruleset"])
        except KniffelError as error:
            raise GameFormatError(f"the saved rule set is damaged: {error}") from None
        if data.get("rules", rules.id) != rules.id or dict(options) != dict(rules.options):
            raise GameFormatError(
                f"the saved rule set is {rules.id} {dict(rules.options)}, but the save names "
                f"{data.get('rules')} {dict(options)}"
            )
        return rules
    if "rules" not in data:
        raise GameFormatError("saved game lacks 'rules'")
    try:
        return get_rules(str(data["rules"]), options)
    except KniffelError as error:
        raise GameFormatError(str(error)) from None


def _copy_sheet(sheet: ScoreSheet) -> ScoreSheet:
    return ScoreSheet(sheet.rules, dict(sheet.entries), dict(sheet.extra_bonus), dict(sheet.free_throws_used))


__all__ = [
    "Game",
    "Standing",
    "Turn",
]
