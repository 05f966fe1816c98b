"""The value of every option of a position, from a solved table: what exact planning and advice read.

A position is a :class:`kniffel.core.position.ColumnPosition` (many of them:
:class:`kniffel.core.position.Positions`). Values are the expected number of points still to come, the points
of this turn included and the points already on the sheet excluded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import F64
from kniffel.base.keeps import KeepLattice, keep_lattice
from kniffel.core.points import Solution
from kniffel.core.position import ROW, ColumnPosition, Positions, SheetState
from kniffel.core.tables import Compiled
from kniffel.engine.actions import FreeThrow, Roll, Score


@dataclass(frozen=True)
class Option:
    """One thing the player may do now, with its value: ``Score(box)``, ``Roll(keep=...)`` (hold those
    dice, throw the others) or ``FreeThrow(keep=...)`` (the same, paid from the free throws)."""

    action: Score | Roll
    value: float

    @property
    def box(self) -> str | None:
        """The box to score in, for a score."""
        return self.action.box if isinstance(self.action, Score) else None

    @property
    def keep(self) -> tuple[int, ...] | None:
        """The dice held, for a throw (ascending; ``()`` throws all)."""
        return self.action.keep if isinstance(self.action, Roll) else None

    @property
    def free_throw(self) -> bool:
        """The throw after this keep is a free throw (it costs one)."""
        return isinstance(self.action, FreeThrow)

    @property
    def is_score(self) -> bool:
        return isinstance(self.action, Score)

    def to_json(self) -> dict[str, object]:
        return {"action": str(self.action), "value": self.value}


class OptionRanker:
    """What the advice of every goal shares for one compiled single-column rule set: a sheet read into
    its state, the action each option code stands for and the one ranking of valued options, so that ties
    break alike whatever the values mean. It needs no solved table: the chances of a target are ranked
    through it without the expected points being solved first (:class:`kniffel.core.target.TargetAdvisor`)."""

    def __init__(self, compiled: Compiled) -> None:
        self.compiled = compiled
        self.rules = compiled.rules
        self._keeps = keep_lattice(self.rules.dice)
        self._scores = [Score(box.id) for box in self.rules.boxes]
        self._rolls = [Roll(keep=keep) for keep in self._keeps.keeps[: self._keeps.first_roll]]
        self._free_throws: list[Roll] = [
            FreeThrow(keep=keep) for keep in self._keeps.keeps[: self._keeps.first_roll]
        ]
        self._actions: tuple[Score | Roll, ...] = (*self._scores, *self._rolls)
        self._free_actions: tuple[Score | Roll, ...] = (*self._scores, *self._free_throws)
        self._width = len(self._scores) + self._keeps.choices.shape[1]
        """The most options a situation has: every box, and every keep a roll may be thrown from."""

    def state(self, filled: Mapping[str, int], free_throws_left: int | None = None) -> SheetState:
        """Index the sheet ``filled`` (:meth:`SheetState.of`)."""
        return SheetState.of(self.compiled, filled, free_throws_left)

    def actions(self, free: bool = False) -> tuple[Score | Roll, ...]:
        """The action of each option code of :meth:`rank` (:mod:`kniffel.core.kernels.batch`): a
        score per box, then a throw per keep, free throws if ``free``."""
        return self._free_actions if free else self._actions

    def rank(
        self, rows: npt.NDArray[np.int64], boxes: F64, keeps: F64
    ) -> tuple[npt.NDArray[np.int64], F64, npt.NDArray[np.int64]]:
        """The options of situations ``rows`` whose boxes and keeps are valued ``boxes``, ``keeps`` (in
        the layout of :data:`~kniffel.core.kernels.points.points_options`, whatever the values mean: points,
        or a chance of reaching a target), ranked as :meth:`ranked` ranks them: the one ranking of every
        goal's advice, so ties break alike."""
        from kniffel.core.kernels.batch import ranked_options

        n = rows.shape[0]
        codes = np.empty((n, self._width), dtype=np.int64)
        values = np.empty((n, self._width))
        counts = np.empty(n, dtype=np.int64)
        ranked_options(rows, boxes, keeps, self._keeps.choices, codes, values, counts)
        return codes, values, counts

    def ranked_options(
        self, rows: npt.NDArray[np.int64], boxes: F64, keeps: F64, free: bool
    ) -> list[list[Option]]:
        """:meth:`rank` as lists of options, one list a situation (``free``: the throws are free throws)."""
        codes, values, counts = self.rank(rows, boxes, keeps)
        actions = self.actions(free)
        return [
            list(map(Option, [actions[c] for c in codes[i, :count].tolist()], values[i, :count].tolist()))
            for i, count in enumerate(counts.tolist())
        ]

    @property
    def lattice(self) -> KeepLattice:
        """The keep lattice of the rules' dice (what keeps a situation's keep values are of)."""
        return self._keeps


class Advisor(OptionRanker):
    """Answers "what is every option worth" for one solved single-column rule set.

    A situation is valued by the compiled kernels of the DP
    (:data:`~kniffel.core.kernels.points.points_options` over the one state), so advice and the solved table
    come from the same code; the actions are made once, so a query costs the kernel and a list of options."""

    def __init__(self, solution: Solution) -> None:
        super().__init__(solution.compiled)
        self.solution = solution

    def prepare(self) -> None:
        """Compile the advisor's kernel, or load it from numba's cache, now rather than at the first
        query (a first run compiles for some seconds; a front end can say so meanwhile)."""
        self._ranked(np.empty((0, ROW), dtype=np.int64))

    def value(self, filled: Mapping[str, int], free_throws_left: int | None = None) -> float:
        """Expected points still to come before the next turn starts."""
        s = self.state(filled, free_throws_left)
        if s.mask == self.compiled.full_mask:
            return float(self.compiled.free_points * s.free)
        return float(self.solution.values[self.compiled.aux(s.armed, s.free), s.mask, s.up])

    def options(self, position: ColumnPosition) -> list[Option]:
        """Every legal option of ``position``, best first (ties: scoring before throwing, boxes as listed
        by the rules, keeps smallest first)."""
        row, free = position.encode(self.compiled)
        situations = np.array([row], dtype=np.int64)
        boxes, keeps = self._values(situations)
        return self.ranked_options(situations, boxes, keeps, free)[0]

    def ranked(
        self, positions: Positions | npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], F64, npt.NDArray[np.int64]]:
        """Every option of many positions at once (or their rows, :meth:`ColumnPosition.encode`):
        ``(codes, values, counts)``, row ``i`` holding ``counts[i]`` options best first as
        :meth:`options` lists them, by code (:meth:`actions`) and value; the rest of the row is unused.
        One compiled call for all rows: the array interface of batch advice. ``ValueError`` for rows no
        position has (the kernel would read outside its tables); a position's row is sound."""
        rows = np.ascontiguousarray(
            positions.rows if isinstance(positions, Positions) else positions, dtype=np.int64
        )
        if rows.ndim != 2 or rows.shape[1] != ROW:
            raise ValueError(f"rows must be an array of shape (n, {ROW}), got {rows.shape}")
        c = self.compiled
        mask, armed, up, free, roll, at_once, sweep_free, usable, throws = rows.T
        bad = (
            (mask < 0)
            | (mask >= c.full_mask)
            | (armed < 0)
            | (armed >= c.n_armed)
            | (up < 0)
            | (up > c.threshold)
            | (free < 0)
            | (free >= c.n_free)
            | (roll < 0)
            | (roll >= self._keeps.n_rolls)
            | (at_once < 0)
            | (at_once >= c.n_at_once)
            | (usable < 0)
            | (usable > sweep_free)
            | (sweep_free >= c.n_free)
            | (throws < -1)
            | (throws >= self.rules.rolls - 1)
        )
        if bad.any():
            raise ValueError(
                f"row {int(np.argmax(bad))} is no situation's row: {rows[np.argmax(bad)].tolist()}"
            )
        return self._ranked(rows)

    def _ranked(
        self, rows: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], F64, npt.NDArray[np.int64]]:
        """:meth:`ranked` for rows known to be sound."""
        return self.rank(rows, *self._values(rows))

    def _values(self, rows: npt.NDArray[np.int64]) -> tuple[F64, F64]:
        """The expected points of every box and keep of each situation (rows known to be sound)."""
        from kniffel.core.kernels.points import points_options

        n = rows.shape[0]
        # arrays of this call's own: one advisor may answer several threads at once (a web server)
        boxes = np.empty((n, self.compiled.n_boxes))
        keeps = np.empty((n, self._keeps.first_roll))
        points_options(self.solution.values, self.compiled.kernel_tables, rows, boxes, keeps)
        return boxes, keeps
