"""The optimal bot: exact play from the solver's tables, and strong play of multi-column sheets.

A *planner* values every legal decision of the player to move as the expected number of points still
to come (the convention of :class:`kniffel.solver.Advisor`: points already on the sheet excluded,
bonuses and unused free throws to come included). Two planners exist:

* :class:`ExactPlanner`, for the rule sets the exact solver handles (one column that is not announced):
  the advisor's own values, so its best choice is optimal play.
* :class:`ColumnPlanner`, for everything else (several columns, announced columns). The sheet's total is
  the sum of its columns' totals, so the future is estimated as the sum of each column's optimal value
  *as if that column were played alone*, read from the column's single-column table. Entering points
  in a box is then worth ``points + bonuses + V_col(after) - V_col(before)``, and keeps, announcements
  and free throws are chosen by exact expectimax over the rest of the turn with that value. Two tables
  are stand-ins: an announced column, which the solver does not handle, is valued by a free column's
  table (over-rating its future by the worth of choosing the box after the last throw rather than the
  first), and ordered columns by tables with an extra roll a turn (see :data:`ORDERED_EXTRA_ROLLS`).

On a single free column the two agree exactly, which the tests use to check the expectimax.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kniffel.dice import roll_index
from kniffel.game import Action, Announce, FreeThrow, Game, Roll, Score, Strike
from kniffel.keeps import keep_lattice
from kniffel.rules import Column, Order, Placement, RuleSet, Section, placements, strikeable
from kniffel.sheet import ScoreSheet
from kniffel.solver import Advisor, UnsupportedRulesError, compile_rules, single_column, table

NEG_INF = float("-inf")
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Choice:
    """A legal decision and the expected points still to come if it is taken (and play is optimal,
    or as good as the planner can make it, afterwards)."""

    action: Action
    value: float


class Planner(Protocol):
    rules: RuleSet
    exact: bool
    """Whether the values are those of optimal play (else the multi-column estimate)."""

    def choices(self, game: Game) -> list[Choice]:
        """Every legal decision of the player to move, best first; ``[]`` before the first throw of a
        turn (there is nothing to decide) and when the game is over."""
        ...


# --- tables --------------------------------------------------------------------------------------

_lock = threading.RLock()
_advisors: dict[tuple[object, ...], tuple[RuleSet, Advisor]] = {}
_planners: dict[tuple[object, ...], tuple[RuleSet, Planner]] = {}


def _key(rules: RuleSet) -> tuple[object, ...]:
    return (rules.id, tuple(sorted(rules.options.items())), tuple((c.id, c.order) for c in rules.columns))


def advisor_for(rules: RuleSet, directory: Path | None = None) -> Advisor:
    """The advisor of a single-column rule set, its table loaded from the cache or solved once per
    process (``UnsupportedRulesError`` if the solver does not handle it)."""
    key = (*_key(rules), directory)
    with _lock:
        found = _advisors.get(key)
        if found is not None and found[0] == rules:
            return found[1]
        advisor = Advisor(table(rules, directory=directory))
        _advisors[key] = (rules, advisor)
        return advisor


def is_exact(rules: RuleSet) -> bool:
    """Whether the exact solver covers ``rules`` (cheap: no table is built)."""
    if rules.multi_column:
        return False
    try:
        compile_rules(rules, check=0)
    except UnsupportedRulesError:
        return False
    return True


def planner_for(rules: RuleSet, directory: Path | None = None) -> Planner:
    """The planner of ``rules``: exact where the solver covers them, else built from column tables.
    The first call per rule set may solve tables (seconds); later calls are free."""
    key = (*_key(rules), directory)
    with _lock:
        found = _planners.get(key)
        if found is not None and found[0] == rules:
            return found[1]
        planner: Planner
        if is_exact(rules):
            planner = ExactPlanner(rules, advisor_for(rules, directory))
        else:
            planner = ColumnPlanner(rules, directory)
        _planners[key] = (rules, planner)
        return planner


def _free_arg(rules: RuleSet, left: int) -> int | None:
    """The advisor's ``free_throws_left`` argument: only rule sets with free throws have that state."""
    return left if rules.free_throws else None


def _keep_actions(game: Game) -> list[Roll]:
    return [a for a in game.legal_actions() if isinstance(a, Roll)]


# --- exact -------------------------------------------------------------------------------------------


class ExactPlanner:
    """Optimal play of a single-column rule set: the solver's advisor, mapped onto the game's actions."""

    exact = True

    def __init__(self, rules: RuleSet, advisor: Advisor) -> None:
        self.rules = rules
        self.advisor = advisor

    def choices(self, game: Game) -> list[Choice]:
        turn = game.turn
        if game.is_over or turn.dice is None:
            return []
        rules = self.rules
        sheet = game.sheet
        # The advisor counts the free throws still to be paid for: those taken this turn are charged
        # to the column when the box is filled, so they are not left any more.
        left = _free_arg(rules, sheet.free_throws_left(rules.columns[0]) - turn.free_throws)
        entries = dict(sheet.entries)
        options = self.advisor.options(
            entries,
            turn.dice,
            game.rolls_left,
            thrown_at_once=turn.thrown_at_once,
            free_throws_left=left,
            free_throws_used=turn.free_throws,
        )
        scores = {o.box: o.value for o in options if o.box is not None}
        keeps = {(o.keep, o.free_throw): o.value for o in options if o.keep is not None}
        found = game.placements()
        result: list[Choice] = []
        for action in game.legal_actions():
            value: float | None = None
            if isinstance(action, Roll):
                value = keeps.get((action.keep, isinstance(action, FreeThrow)))
            elif isinstance(action, Score):
                value = scores.get(action.box)
            elif isinstance(action, Strike):
                placement = found.get(action.box)
                if placement is not None and placement.total == 0:
                    value = scores.get(action.box)
                else:  # a box that would pay, struck: the advisor does not list such a waste
                    value = self.advisor.value({**entries, action.box: 0}, left)
            if value is not None:
                result.append(Choice(action, value))
        return _best_first(result)


def _best_first(choices: list[Choice]) -> list[Choice]:
    """Sorted by value; ties keep the order given (scores before strikes before keeps)."""
    order: dict[type[Action], int] = {Score: 0, Strike: 1, Announce: 3}
    choices.sort(key=lambda c: order.get(type(c.action), 2))
    choices.sort(key=lambda c: -c.value)
    return choices


# --- several columns -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ColumnModel:
    """One column of a multi-column sheet: the rules to ask where dice may go in it (its own fill order,
    as a one-column sheet), and the advisor whose table values its future."""

    column: Column
    alone: RuleSet
    advisor: Advisor
    exact: bool
    """False when the table is a stand-in (see the module docstring)."""


ORDERED_EXTRA_ROLLS = 1
"""On a multi-column sheet, the tables that value top-down and bottom-up columns are solved with this
many rolls a turn more than the rules give. Alone, such a column spends a turn on each box in turn; beside
other columns its next box is filled when the dice suit it, which is worth about one more roll. Measured
on kniffel-3col (200 games each): 578 with the plain tables, 617 with one extra roll, 577 with two.
Giving free or announced columns an extra roll made the bot worse (super-kniffel: 1066 -> 1045)."""


def column_model(rules: RuleSet, index: int, directory: Path | None = None) -> ColumnModel:
    column = rules.columns[index]
    alone = dataclasses.replace(rules, columns=(column,))
    exact = column.order is not Order.ANNOUNCED
    valued = single_column(rules, index) if exact else dataclasses.replace(rules, columns=(Column("1"),))
    if rules.multi_column and column.order in (Order.TOP_DOWN, Order.BOTTOM_UP):
        valued = dataclasses.replace(valued, rolls=rules.rolls + ORDERED_EXTRA_ROLLS)
        exact = False
    return ColumnModel(column, alone, advisor_for(valued, directory), exact=exact)


class ColumnPlanner:
    """The multi-column estimate described in the module docstring."""

    exact = False

    def __init__(self, rules: RuleSet, directory: Path | None = None) -> None:
        self.rules = rules
        self.models = [column_model(rules, i, directory) for i in range(len(rules.columns))]
        self.tables = keep_lattice(rules.dice)
        self.upper = {box.id for box in rules.boxes if box.section is Section.UPPER}
        # Per column state: the value of the best placement of every roll in that column. A sheet
        # changes one column a turn, so most of these outlive many decisions.
        self._stops: dict[tuple[object, ...], Matrix] = {}

    def choices(self, game: Game) -> list[Choice]:
        if game.is_over or game.turn.dice is None:
            return []
        return _Turn(self, game).choices()

    def column_stop(self, state: ColumnState, used: int, at_once: bool, announced: str | None) -> Matrix:
        """For every roll: the best value of entering it in this column (``-inf`` where it may not go),
        relative to the column's value before; ``used`` free throws are charged to the column."""
        key = (state.model.column.id, state.frozen, state.left, used, at_once, announced)
        cached = self._stops.get(key)
        if cached is not None:
            return cached
        rolls = self.tables.rolls
        best = np.full(len(rolls), NEG_INF)
        worth: dict[tuple[str, Placement], float] = {}
        for r, roll in enumerate(rolls):
            found = placements(
                state.model.alone, state.own, roll, thrown_at_once=at_once, announced=announced
            )
            for box_id, placement in found.items():
                value = worth.get((box_id, placement))
                if value is None:
                    value = worth[box_id, placement] = state.gain(box_id, placement, used)
                if value > best[r]:
                    best[r] = value
        best.flags.writeable = False
        if len(self._stops) > 4096:
            self._stops.clear()
        self._stops[key] = best
        return best


@dataclass(eq=False)
class ColumnState:
    """One column of the sheet of the player to move."""

    planner: ColumnPlanner
    model: ColumnModel
    own: dict[str, int]
    """Box id -> points of the column's filled boxes."""
    left: int
    """Free throws the column can still pay for (0 without free throws)."""

    @cached_property
    def frozen(self) -> tuple[tuple[str, int], ...]:
        return tuple(sorted(self.own.items()))

    @property
    def open(self) -> bool:
        return len(self.own) < len(self.model.alone.boxes)

    def future(self, own: Mapping[str, int], left: int) -> float:
        return self.model.advisor.value(own, _free_arg(self.planner.rules, left))

    @cached_property
    def before(self) -> float:
        """The column's expected points still to come (0 once it is full: nothing more can happen)."""
        return self.future(self.own, self.left) if self.open else 0.0

    @cached_property
    def upper_sum(self) -> int:
        return sum(p for box_id, p in self.own.items() if box_id in self.planner.upper)

    def gain(self, box_id: str, placement: Placement, used: int) -> float:
        """Value of entering ``placement`` in ``box_id`` after ``used`` free throws, relative to the
        column's value before (a strike is ``Placement(0)``)."""
        rules = self.planner.rules
        gained = float(placement.total)
        if box_id in self.planner.upper:
            threshold = rules.upper_bonus_threshold
            if self.upper_sum < threshold <= self.upper_sum + placement.points:
                gained += rules.upper_bonus
        after = self.future({**self.own, box_id: placement.points}, self.left - used)
        return gained + after - self.before


class _Turn:
    """One decision of a multi-column sheet: expectimax over the rest of the turn."""

    def __init__(self, planner: ColumnPlanner, game: Game) -> None:
        self.planner = planner
        self.game = game
        self.rules = rules = game.rules
        self.turn = game.turn
        self.sheet: ScoreSheet = game.sheet
        self.tables = planner.tables
        self.sharps = (False, True) if rules.sharp else (False,)
        self.columns: list[ColumnState] = []
        for model in planner.models:
            own = {
                rules.locate(key)[1].id: points
                for key, points in self.sheet.entries.items()
                if rules.locate(key)[0] == model.column
            }
            left = self.sheet.free_throws_left(model.column) if rules.free_throws else 0
            self.columns.append(ColumnState(planner, model, own, left))
        self._stages: dict[tuple[str, int, str | None], dict[bool, Matrix]] = {}
        self._floors: dict[tuple[int, str | None], float] = {}

    @cached_property
    def row(self) -> int:
        assert self.turn.dice is not None
        return roll_index(self.rules.dice)[self.turn.dice]

    @cached_property
    def base(self) -> float:
        """The sheet's expected points still to come as the column tables see it."""
        return sum(c.before for c in self.columns)

    def column_of(self, key: str) -> ColumnState:
        column, _ = self.rules.locate(key)
        return next(c for c in self.columns if c.model.column == column)

    # --- the end of the turn ---------------------------------------------------------------------

    def strike_floor(self, used: int, announced: str | None) -> float:
        """The best box to strike that is not also a box to score in: the same for every roll (the
        boxes of announced columns, or after an announcement any box the fill orders allow)."""
        key = (used, announced)
        if key not in self._floors:
            dice = self.turn.dice
            assert dice is not None
            entries = self.sheet.entries
            extra = set(strikeable(self.rules, entries, dice, announced=announced))
            extra -= set(placements(self.rules, entries, dice, announced=announced))
            best = NEG_INF
            for box_key in extra:
                state = self.column_of(box_key)
                if state.left >= used:
                    best = max(best, state.gain(self.rules.locate(box_key)[1].id, Placement(0), used))
            self._floors[key] = best
        return self._floors[key]

    def stop(self, used: int, at_once: bool, announced: str | None) -> Matrix:
        """For every roll: the value of ending the turn on it after ``used`` free throws."""
        best = np.full(len(self.tables.rolls), NEG_INF)
        announced_id = None
        announced_column: Column | None = None
        if announced is not None:
            announced_column, box = self.rules.locate(announced)
            announced_id = box.id
        for state in self.columns:
            if not state.open or state.left < used:
                continue
            if announced_column is not None and state.model.column != announced_column:
                continue  # after an announcement only the announced box takes points
            best = np.maximum(best, self.planner.column_stop(state, used, at_once, announced_id))
        result: Matrix = np.maximum(best, self.strike_floor(used, announced))
        return result

    # --- the rolls still to come -----------------------------------------------------------------

    def free_throw_possible(self, number: int) -> bool:
        """Whether a ``number``-th free throw of this turn could be taken."""
        rules = self.rules
        if not rules.free_throws or number > rules.free_throws_per_turn:
            return False
        return any(c.open and c.left >= number for c in self.columns)

    def keep_values(self, after: dict[bool, Matrix]) -> Matrix:
        return self.tables.keep_values(after[False], after.get(True))

    def stage(self, kind: str, number: int, announced: str | None) -> dict[bool, Matrix]:
        """Per roll (and by "thrown at once"): the value of the position before deciding, with
        ``number`` regular rolls left (``kind`` "regular") or ``number`` free throws taken ("free")."""
        key = (kind, number, announced)
        cached = self._stages.get(key)
        if cached is not None:
            return cached
        if kind == "regular" and number == 0:
            result = self.stage("free", 0, announced)
        else:
            after: dict[bool, Matrix] | None = None
            if kind == "regular":
                after = self.stage("regular", number - 1, announced)
            elif self.free_throw_possible(number + 1):
                after = self.stage("free", number + 1, announced)
            used = number if kind == "free" else 0
            result = {s: self.stop(used, s, announced) for s in self.sharps}
            if after is not None:
                go_on = self.tables.best_throw(self.keep_values(after))
                result = {s: np.maximum(v, go_on) for s, v in result.items()}
        self._stages[key] = result
        return result

    def throw_values(self, announced: str | None) -> tuple[Matrix, bool] | None:
        """Value of every keep from the current position, and whether the throw would be a free one;
        None if the turn must end."""
        rolls_left = self.game.rolls_left
        if rolls_left > 0:
            return self.keep_values(self.stage("regular", rolls_left - 1, announced)), False
        number = self.turn.free_throws + 1
        if self.free_throw_possible(number):
            return self.keep_values(self.stage("free", number, announced)), True
        return None

    # --- the choices -------------------------------------------------------------------------------

    def choices(self) -> list[Choice]:
        game, turn = self.game, self.turn
        result: list[Choice] = []
        found = game.placements()
        used = turn.free_throws
        throws = self.throw_values(turn.announced)
        for action in game.legal_actions():
            value: float | None = None
            if isinstance(action, Score | Strike):
                placement = found[action.box] if isinstance(action, Score) else Placement(0)
                box_id = self.rules.locate(action.box)[1].id
                value = self.column_of(action.box).gain(box_id, placement, used)
            elif isinstance(action, Roll):
                if throws is not None and throws[1] == isinstance(action, FreeThrow):
                    value = float(throws[0][self.tables.index(action.keep)])
            elif isinstance(action, Announce):
                value = self.announced_value(action.box)
            if value is not None:
                result.append(Choice(action, self.base + value))
        return _best_first(result)

    def announced_value(self, box_key: str) -> float:
        """The value of announcing ``box_key`` now: the better of throwing on and stopping at once."""
        best = float(self.stop(self.turn.free_throws, self.turn.thrown_at_once, box_key)[self.row])
        throws = self.throw_values(box_key)
        if throws is not None:
            best = max(best, float(self.tables.best_throw(throws[0])[self.row]))
        return best


# --- the bot ---------------------------------------------------------------------------------------


class OptimalBot:
    """Optimal play of single-column rule sets; the column-table estimate on multi-column sheets."""

    name: str = "optimal"

    def __init__(self, *, seed: int | None = None, directory: Path | None = None) -> None:
        # Decisions never depend on chance; the seed is accepted so every bot is made alike.
        self.seed = seed
        self.directory = directory

    def prepare(self, rules: RuleSet) -> Planner:
        """Load or solve the tables ``rules`` need now rather than at the first decision."""
        return planner_for(rules, self.directory)

    def choose(self, game: Game) -> Action:
        if game.is_over:
            raise ValueError("the game is over: there is nothing to choose")
        if game.turn.dice is None:
            return Roll()
        for choice in self.prepare(game.rules).choices(game):
            if game.can_apply(choice.action):
                return choice.action
        # Unreachable while the planner lists legal actions only; a bot must never stall a game.
        return game.legal_actions()[0]


__all__ = [
    "Choice",
    "ColumnPlanner",
    "ExactPlanner",
    "OptimalBot",
    "Planner",
    "advisor_for",
    "is_exact",
    "planner_for",
]
