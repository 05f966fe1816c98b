"""The column estimate's turn search in compiled code, for the sheets it covers.

:class:`~kniffel.planning.columns.ColumnPlanner` values an entry as its points plus the change in its
column's single-column table value; on a sheet without free throws and announced columns that is exactly
what the solver's kernels compute for one state of one column, so the whole turn (the best entry of every
roll over the open columns, the keep values before every throw) runs in
:class:`kniffel.core.SheetKernels`: the planner asks :meth:`SheetSearch.choices` for one position, and
:meth:`SheetSearch.play` plays many games at once for :mod:`kniffel.services.simulate`. Sheets it does not
cover (free throws, announced columns) keep the Python lookahead of :mod:`kniffel.planning.lookahead`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import I64
from kniffel.base.keeps import keep_lattice
from kniffel.core import SheetKernels
from kniffel.engine.actions import Announce, Roll, Score, Strike
from kniffel.engine.game import Game
from kniffel.planning.interface import Choice, ColumnAdvisor, Goal, Reach, best_first
from kniffel.planning.lookahead import Lookahead, Valuation
from kniffel.rules import Order, Placement, RuleSet, single_column

if TYPE_CHECKING:
    from kniffel.core import ColumnPosition, Compiled, Progress


def covers(rules: RuleSet) -> bool:
    """Whether :class:`SheetSearch` plays ``rules``: a sheet of one or several columns without free
    throws (which a column pays for, so that their cost moves between columns during a turn)."""
    return not rules.free_throws


def column_rules(rules: RuleSet, index: int) -> RuleSet:
    """Column ``index`` of ``rules`` alone, as the solver's tables state it: an announced column (which
    the solver does not handle) as a free one, which takes the same strikes and, once a box is
    announced, the same points in it."""
    alone = single_column(rules, index)
    if alone.columns[0].order is Order.ANNOUNCED:
        free = dataclasses.replace(alone.columns[0], order=Order.FREE)
        alone = dataclasses.replace(alone, columns=(free,))
    return alone


class SheetSearch(SheetKernels):
    """The compiled turn search over the columns of ``rules``: column ``c`` is valued by the table
    ``values[c]`` (``[aux, mask, up]`` as the solver lays it out) over the states of ``compiled[c]``;
    what it adds to the kernels is reading a game's position and valuing its options."""

    def __init__(
        self,
        rules: RuleSet,
        compiled: Sequence[Compiled],
        values: Sequence[npt.NDArray[np.float64]],
        *,
        announce_margin: float = 0.0,
    ) -> None:
        super().__init__(
            compiled,
            values,
            [c.order is Order.ANNOUNCED for c in rules.columns],
            rules.rolls,
            announce_margin=announce_margin,
        )
        self.rules = rules
        self.lattice = keep_lattice(rules.dice)

    def state(self, game: Game) -> tuple[I64, I64, I64]:
        """The columns' ``(mask, armed, up)`` of the player to move, as the kernels read them."""
        entries = game.sheet.entries
        rules = self.rules
        mask = np.zeros(len(self.compiled), dtype=np.int64)
        armed = np.zeros_like(mask)
        up = np.zeros_like(mask)
        for c, (column, compiled) in enumerate(zip(rules.columns, self.compiled, strict=True)):
            for b, box in enumerate(rules.boxes):
                points = entries.get(rules.key(column, box))
                if points is None:
                    continue
                mask[c] |= 1 << b
                if compiled.upper[b]:
                    up[c] += points
                if b == compiled.five and compiled.n_armed == 2:
                    armed[c] = points > 0
            up[c] = min(up[c], compiled.threshold)
        return mask, armed, up

    def choices(self, game: Game, valuation: Valuation) -> list[Choice]:
        """What :class:`~kniffel.planning.lookahead.Lookahead` answers, for a covered sheet."""
        turn = game.turn
        assert turn.dice is not None
        stop, keeps, announceable = self.turn(*self.state(game))
        lanes = {
            self.rules.key(self.rules.columns[c], self.rules.boxes[b]): 1 + i
            for i, (c, b) in enumerate(announceable.tolist())
        }
        rolls_left = game.rolls_left
        lane = 0 if turn.announced is None else lanes[turn.announced]
        roll = self.lattice.roll_index(turn.dice)
        at_once = int(turn.thrown_at_once and self.rules.sharp)
        subs = [k for k in self.lattice.choices[roll].tolist() if k >= 0]
        found = game.placements()
        result: list[Choice] = []
        for action in game.legal_actions():
            if isinstance(action, Score | Strike):
                placement = found[action.box] if isinstance(action, Score) else Placement(0)
                value = valuation.entry(action.box, placement, 0)
            elif isinstance(action, Roll) and rolls_left > 0:
                value = float(keeps[rolls_left - 1, self.lattice.index(action.keep), lane])
            elif isinstance(action, Announce):
                i = lanes[action.box]
                value = float(stop[at_once, roll, i])
                if rolls_left > 0:
                    value = max(value, float(keeps[rolls_left - 1, subs, i].max()))
                value -= self.announce_margin
            else:
                continue
            result.append(Choice(action, valuation.before + value))
        return best_first(result)


def new_log(rules: RuleSet, games: int) -> npt.NDArray[np.int32]:
    """Space for :meth:`SheetSearch.play` to record ``games`` games: a turn's throws, an announcement and
    the entry."""
    turns = len(rules.columns) * len(rules.boxes)
    return np.full((games, turns, rules.rolls + 2, 3), -1, dtype=np.int32)


class SearchPlanner:
    """A planner for points by an estimate of its own (the heuristic, the column estimate): it values a
    position's entries by :meth:`valuation` and searches the turn by them in compiled code where
    :attr:`search` covers the sheet, else by the Python lookahead (:meth:`choices`)."""

    exact = False
    search: SheetSearch | None
    """The compiled turn search where it covers the sheet, else None (the Python lookahead)."""

    def __init__(self, rules: RuleSet, goal: Goal, *, wait: bool = True) -> None:
        self.rules = rules
        self.goal = goal
        self.wait = wait
        """False for a player people wait for: no waiting for the compiled search's first compile."""

    def valuation(self, game: Game) -> Valuation:
        """What the entries of the player to move in ``game`` are worth to this planner."""
        raise NotImplementedError

    def choices(self, at: Game | ColumnPosition, progress: Progress | None = None) -> list[Choice]:
        """The choices in the game ``at``: none when there is nothing to decide, else the compiled
        search's (where it covers the sheet) or the Python lookahead's, both valuing entries by
        :meth:`valuation`. Without :attr:`wait` the lookahead answers while the search's kernel is not
        compiled yet (:meth:`SheetSearch.ready`): a game people watch never waits for that compile. A
        column alone is the exact solver's to answer."""
        if not isinstance(at, Game):
            raise TypeError(f"{self.rules.id}: a column alone is answered by the exact solver's tables")
        if at.is_over or at.turn.dice is None:
            return []
        valued = self.valuation(at)
        if self.search is not None and (self.wait or self.search.ready()):
            return self.search.choices(at, valued)
        return Lookahead(at, valued).choices()

    def reach(self, at: Game | ColumnPosition) -> Reach | None:
        return None

    def column_advisor(self, progress: Progress | None = None) -> ColumnAdvisor:
        raise TypeError(f"{self.rules.id}: a batch of positions is answered by the exact solver's tables")


__all__ = [
    "SearchPlanner",
    "SheetSearch",
    "column_rules",
    "covers",
    "new_log",
]
