"""The column estimate's turn search in compiled code, for the sheets it covers.

:class:`~kniffel.planning.columns.ColumnPlanner` values an entry as its points plus the change in its
column's single-column table value; on a sheet without free throws and announced columns that is exactly
what the solver's kernels compute for one state of one column, so the whole turn (the best entry of every
roll over the open columns, the keep values before every throw) runs in
:mod:`kniffel.solver.sheetkernels`: the planner asks :meth:`SheetSearch.choices` for one position, and
:meth:`SheetSearch.play` plays many games at once for :mod:`kniffel.simulate`. Sheets it does not cover
(free throws, announced columns) keep the Python lookahead of :mod:`kniffel.planning.lookahead`.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np
import numpy.typing as npt

from kniffel.game import Game, Roll, Score, Strike
from kniffel.keeps import keep_lattice
from kniffel.planning.interface import Choice, best_first
from kniffel.rules import Order, Placement, RuleSet

if TYPE_CHECKING:
    from kniffel.planning.columns import ColumnModel, ColumnValuation

I64 = npt.NDArray[np.int64]

BATCH = 4096
"""Games played per call of the kernel: progress is reported between calls."""


def covers(rules: RuleSet) -> bool:
    """Whether :class:`SheetSearch` plays ``rules``: no free throws (their cost moves between columns
    during a turn) and no announced columns (an announcement changes what every roll may be entered as)."""
    return not rules.free_throws and all(c.order is not Order.ANNOUNCED for c in rules.columns)


@dataclass(frozen=True)
class SheetGames:
    """What :meth:`SheetSearch.play` played: per game and column the points (bonuses included), whether
    the upper bonus was reached, whether the five-of-a-kind box holds points, and the extra bonuses."""

    totals: I64
    """``[game, column, (points, upper bonus, five, extra bonuses)]``."""
    seconds: float

    @property
    def scores(self) -> I64:
        scores: I64 = self.totals[:, :, 0].sum(axis=1)
        return scores


class SheetSearch:
    """The compiled turn search over the columns of ``models`` (one per column of ``rules``)."""

    def __init__(self, rules: RuleSet, models: Sequence[ColumnModel]) -> None:
        self.rules = rules
        self.models = tuple(models)
        self.threads = max(1, numba.get_num_threads())
        """Threads that play a batch of games side by side (numba's thread count: ``NUMBA_NUM_THREADS``)."""
        self.lattice = keep_lattice(rules.dice)
        compiled = [m.advisor.compiled for m in self.models]
        self.tables = tuple(c.kernel_tables for c in compiled)
        tables = [m.advisor.solution.values for m in self.models]
        # Columns may track different states (an ordered column may not need the armed flag): one array
        # holds them all, padded, so that the kernels index a column's table by its number.
        shape = tuple(max(v.shape[i] for v in tables) for i in range(3))
        self.values = np.zeros((len(tables), *shape))
        for c, v in enumerate(tables):
            self.values[c, : v.shape[0], : v.shape[1], : v.shape[2]] = v

    def state(self, game: Game) -> tuple[I64, I64, I64]:
        """The columns' ``(mask, armed, up)`` of the player to move, as the kernels read them."""
        from kniffel.planning.lookahead import own_entries

        entries = game.sheet.entries
        states = [
            m.advisor.state(own_entries(self.rules, entries, m.column)) for m in self.models
        ]
        return (
            np.array([s.mask for s in states], dtype=np.int64),
            np.array([s.armed for s in states], dtype=np.int64),
            np.array([s.up for s in states], dtype=np.int64),
        )

    def keep_values(self, game: Game) -> npt.NDArray[np.float64]:
        """``[p - 1, keep]``: the value of holding ``keep`` and throwing with ``p`` throws left, relative
        to the sheet's value before the turn."""
        from kniffel.solver.sheetkernels import turn_values

        mask, armed, up = self.state(game)
        _, _, _, keeps = turn_values(self.tables, self.values, mask, armed, up, self.rules.rolls)
        result: npt.NDArray[np.float64] = keeps
        return result

    def choices(self, game: Game, valuation: ColumnValuation) -> list[Choice]:
        """What :class:`~kniffel.planning.lookahead.Lookahead` answers, for a covered sheet."""
        rolls_left = game.rolls_left
        keeps = self.keep_values(game) if rolls_left > 0 else None
        found = game.placements()
        result: list[Choice] = []
        for action in game.legal_actions():
            if isinstance(action, Score | Strike):
                placement = found[action.box] if isinstance(action, Score) else Placement(0)
                value = valuation.entry(action.box, placement, 0)
            elif isinstance(action, Roll) and keeps is not None:
                value = float(keeps[rolls_left - 1, self.lattice.index(action.keep)])
            else:
                continue
            result.append(Choice(action, valuation.before + value))
        return best_first(result)

    def play(
        self,
        games: int,
        base: int,
        first_game: int = 0,
        *,
        log: npt.NDArray[np.int32] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> SheetGames:
        """Games ``first_game .. first_game + games - 1`` of the dice streams of ``base``
        (:func:`kniffel.solver.play.stream_base`), each to the end. ``log`` (``[game, turn, step, 3]``)
        records the first games' throws and entries (see :func:`~kniffel.solver.sheetkernels.play_game`)."""
        from kniffel.solver.playkernels import streams
        from kniffel.solver.sheetkernels import play_games

        n_cols = len(self.models)
        totals = np.zeros((games, n_cols, 4), dtype=np.int64)
        no_log = np.zeros((0, 1, 1, 3), dtype=np.int32)
        start = time.perf_counter()
        for lo in range(0, games, BATCH):
            n = min(BATCH, games - lo)
            rng = streams(np.uint64(base), np.uint64(first_game + lo), n)
            state = np.zeros((n, n_cols, 3), dtype=np.int64)
            part = np.zeros((n, n_cols, 4), dtype=np.int64)
            logged = log if lo == 0 and log is not None else no_log
            bounds = np.linspace(0, n, min(self.threads, n) + 1).astype(int).tolist()
            with ThreadPoolExecutor(len(bounds) - 1) as pool:
                for _ in pool.map(
                    lambda first, last: play_games(
                        self.tables, self.values, self.rules.rolls, rng, state, part, logged, first, last
                    ),
                    bounds[:-1],
                    bounds[1:],
                ):
                    pass
            totals[lo : lo + n] = part
            if progress is not None:
                progress(lo + n, games)
        return SheetGames(totals, time.perf_counter() - start)


def new_log(rules: RuleSet, games: int) -> npt.NDArray[np.int32]:
    """Space for :meth:`SheetSearch.play` to record ``games`` games."""
    turns = len(rules.columns) * len(rules.boxes)
    return np.full((games, turns, rules.rolls + 1, 3), -1, dtype=np.int32)


__all__ = ["SheetGames", "SheetSearch", "covers", "new_log"]


