"""The column estimate: strong play of the sheets the exact solver does not cover.

Those are multi-column sheets and announced columns. A sheet's total is the sum of its columns'
totals, so the future is estimated as the sum of each column's optimal value *as if that column were
played alone* (:func:`kniffel.rules.single_column`), read from the column's single-column table.
Entering points in a box is then worth ``points + bonuses + V_col(after) - V_col(before)``, and keeps,
announcements and free throws are chosen by the exact expectimax over the rest of the turn
(:mod:`kniffel.planning.lookahead`) with that value.

Two tables are stand-ins: an announced column, which the solver does not handle, is valued by a free
column's table (over-rating its future by the worth of choosing the box after the last throw rather
than the first), and ordered columns beside others by tables with an extra roll a turn (see
:data:`ORDERED_EXTRA_ROLLS`). On a single free column the estimate is the exact solver's recursion, so
its values equal :class:`~kniffel.planning.exact.ExactPlanner`'s (the tests hold it to that).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from kniffel.core import Advisor
from kniffel.engine.game import Game
from kniffel.planning.compiled import SearchPlanner, SheetSearch, column_rules, covers
from kniffel.planning.exact import advisor_for, free_throws_arg
from kniffel.planning.interface import Goal
from kniffel.planning.lookahead import ColumnCache, Matrix, best_entries, own_entries
from kniffel.rules import Column, Order, Placement, RuleSet, Section, single_column

ORDERED_EXTRA_ROLLS = 1
"""On a multi-column sheet, the tables that value top-down and bottom-up columns are solved with this
many rolls a turn more than the rules give. Alone, such a column spends a turn on each box in turn; beside
other columns its next box is filled when the dice suit it, which is worth about one more roll. Measured
on kniffel-3col (200 games each): 578 with the plain tables, 617 with one extra roll, 577 with two.
Giving free or announced columns an extra roll made the bot worse (super-kniffel: 1066 -> 1045)."""


@dataclass(frozen=True, eq=False)
class ColumnModel:
    """One column of the sheet: the rules to ask where dice may go in it (the column alone), and the
    advisor whose table values its future."""

    column: Column
    alone: RuleSet
    advisor: Advisor
    exact: bool
    """False when the table is a stand-in (see the module docstring)."""


def column_model(rules: RuleSet, index: int, directory: Path | None = None) -> ColumnModel:
    column = rules.columns[index]
    alone = single_column(rules, index)
    exact = column.order is not Order.ANNOUNCED
    valued = column_rules(rules, index)  # the solver has no announced columns: a free column stands in
    if rules.multi_column and column.order.sequential:
        valued = dataclasses.replace(valued, rolls=rules.rolls + ORDERED_EXTRA_ROLLS)
        exact = False
    return ColumnModel(column, alone, advisor_for(valued, directory), exact=exact)


class ColumnPlanner(SearchPlanner):
    """The column estimate described in the module docstring."""

    def __init__(
        self, rules: RuleSet, goal: Goal, directory: Path | None = None, *, wait: bool = True
    ) -> None:
        super().__init__(rules, goal, wait=wait)
        self.models = {c.id: self.model(i, directory) for i, c in enumerate(rules.columns)}
        self.upper = {box.id for box in rules.boxes if box.section is Section.UPPER}
        self.columns = ColumnCache(4096)
        self.search = None
        if covers(rules):
            models = list(self.models.values())
            self.search = SheetSearch(
                rules, [m.advisor.compiled for m in models], [m.advisor.solution.values for m in models]
            )

    def model(self, index: int, directory: Path | None) -> ColumnModel:
        """Column ``index``'s model: its table, solved (another planner may see it otherwise)."""
        return column_model(self.rules, index, directory)

    def valuation(self, game: Game) -> ColumnValuation:
        return ColumnValuation(self, game)


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
        return self.model.advisor.value(own, free_throws_arg(self.planner.rules, left))

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


class ColumnValuation:
    """An entry is worth what it pays plus the change in its column's table value; free throws are
    charged to the column that pays for them, through the table's free-throws-left state."""

    free_throw_cost = 0.0
    announce_margin = 0.0

    def __init__(self, planner: ColumnPlanner, game: Game) -> None:
        self.planner = planner
        self.rules = rules = game.rules
        sheet = game.sheet
        self.states = {
            c.id: ColumnState(
                planner,
                planner.models[c.id],
                own_entries(rules, sheet.entries, c),
                sheet.free_throws_left(c) if rules.free_throws else 0,
            )
            for c in rules.columns
        }

    @cached_property
    def before(self) -> float:
        """The sheet's expected points still to come as the column tables see it."""
        return sum(s.before for s in self.states.values())

    def roll_values(self, column: Column, used: int, at_once: bool, announced: str | None) -> Matrix:
        state = self.states[column.id]
        key = (column.id, state.frozen, state.left, used, at_once, announced)
        return self.planner.columns.get(
            key,
            lambda: best_entries(
                state.model.alone,
                state.own,
                at_once,
                announced,
                lambda box_id, placement: state.gain(box_id, placement, used),
            ),
        )

    def entry(self, key: str, placement: Placement, used: int) -> float:
        column, box = self.rules.locate(key)
        return self.states[column.id].gain(box.id, placement, used)


__all__ = ["ORDERED_EXTRA_ROLLS", "ColumnModel", "ColumnPlanner", "ColumnValuation", "column_model"]
