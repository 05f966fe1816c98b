"""The dynamic programme: from the full sheet back to the empty one, a level of masks at a time."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.rules import RuleSet
from kniffel.solver.compile import Compiled, compile_rules

Values = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Solution:
    """The solved values of a single-column rule set.

    ``values[aux, mask, up]`` is the expected number of points still to come from the start of a turn
    (bonuses and unused free throws included), with ``aux = armed * n_free + free_throws_left``.
    """

    compiled: Compiled
    values: Values
    seconds: float
    """Time of the dynamic programme alone (no compilation, no I/O); 0 for a table loaded from disk."""

    @property
    def rules(self) -> RuleSet:
        return self.compiled.rules

    @property
    def expected_score(self) -> float:
        """Expected final score of optimal play from the empty sheet."""
        c = self.compiled
        return float(self.values[c.aux(0, c.n_free - 1), 0, 0])


def empty_values(c: Compiled) -> Values:
    """The value array with only the full sheet filled in (unused free throws)."""
    values = np.zeros((c.n_aux, c.n_masks, c.threshold + 1), dtype=np.float64)
    for armed in range(c.n_armed):
        for free in range(c.n_free):
            values[c.aux(armed, free), c.full_mask, :] = c.free_points * free
    return values


def solve_compiled(c: Compiled, progress: Callable[[int, int], None] | None = None) -> Solution:
    """Run the dynamic programme; ``progress(done, total)`` is called after each level of masks (its own
    time is not counted in :attr:`Solution.seconds`)."""
    import numba

    from kniffel.solver import kernels

    tables = c.kernel_tables
    values = empty_values(c)
    levels = [level for level in reversed(c.levels[:-1]) if len(level)]
    total = sum(len(level) for level in levels)
    kernels.solve_level(np.empty(0, dtype=np.int64), values, tables)  # compile or load the JIT cache now
    done = 0
    seconds = 0.0
    # bundles of masks differ in work, so threads take one at a time as they finish
    chunk = numba.set_parallel_chunksize(1)
    try:
        for level in levels:
            start = time.perf_counter()
            kernels.solve_level(level, values, tables)
            seconds += time.perf_counter() - start
            done += len(level)
            if progress is not None:
                progress(done, total)
    finally:
        numba.set_parallel_chunksize(chunk)
    values.flags.writeable = False
    return Solution(c, values, seconds)


def solve(rules: RuleSet) -> Solution:
    """Solve a single-column rule set in memory (no cache)."""
    return solve_compiled(compile_rules(rules))
