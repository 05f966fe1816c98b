"""The dynamic programme: from the full sheet back to the empty one, a level of masks at a time."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import read_only
from kniffel.core.compile import Compiled, compile_rules
from kniffel.core.lanes import widths_of
from kniffel.core.work import compiled_threads, run_between
from kniffel.rules import RuleSet

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

    def __post_init__(self) -> None:
        # the warm-up's made-up values must compile the kernels that solved ones use
        object.__setattr__(self, "values", read_only(self.values))

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


PARTS_PER_THREAD = 4
"""A level is cut into this many parts per thread, taken in turn as threads finish: masks differ in
work, and on a busy machine one thread may get less of the processor than another."""


def solve_compiled(c: Compiled, progress: Callable[[int, int], None] | None = None) -> Solution:
    """Run the dynamic programme; ``progress(done, total)`` is called after each level of masks (its own
    time is not counted in :attr:`Solution.seconds`)."""
    from kniffel.core import dpkernels, kernels, precompile

    tables = c.kernel_tables
    values = empty_values(c)
    levels = [level for level in reversed(c.levels[:-1]) if len(level)]
    total = sum(len(level) for level in levels)
    # compile or load the JIT cache now, in this thread, before the threads call it; a progress display
    # learns the total only then, so that it can say it is compiling until it is done. On a first run a
    # helper process compiles some of the kernels it calls meanwhile (see kniffel.core.precompile).
    nothing = kernels.PointsLevel(np.empty(0, dtype=np.int64), np.zeros(1, dtype=np.int64), values)
    with precompile.helping(precompile.dp_jobs(tables), dpkernels.solve_points):
        # the levels' bundles first: on a first run the helper meanwhile starts on the DP's callees
        bundles = [mask_bundles(c, level) for level in levels]
        dpkernels.solve_points(nothing, tables, 0, 0)
    if progress is not None:
        progress(0, total)
    threads = compiled_threads()
    done = 0
    seconds = 0.0
    for level, starts in zip(levels, bundles, strict=True):
        start = time.perf_counter()
        work = kernels.PointsLevel(level, starts, values)
        count = len(starts) - 1
        cuts = np.linspace(0, count, min(count, threads * PARTS_PER_THREAD) + 1).astype(np.int64)
        run_between(cuts, partial(dpkernels.solve_points, work, tables))
        seconds += time.perf_counter() - start
        done += len(level)
        if progress is not None:
            progress(done, total)
    values.flags.writeable = False
    return Solution(c, values, seconds)


def mask_bundles(c: Compiled, masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Where the bundles of ``masks`` start (and, last, where they end), each holding at least
    ``kernels.BUNDLE`` lanes of the DP's (:func:`kniffel.core.dpkernels.bundle_starts`): the DP and the
    distributions sweep a level's masks in these."""
    from kniffel.core import dpkernels, kernels

    widths, variants = widths_of(c, masks)
    starts: npt.NDArray[np.int64] = dpkernels.bundle_starts(widths * variants, kernels.BUNDLE)
    return starts


def solve(rules: RuleSet) -> Solution:
    """Solve a single-column rule set in memory (no cache)."""
    return solve_compiled(compile_rules(rules))
