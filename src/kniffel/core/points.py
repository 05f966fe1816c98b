"""The dynamic programme: from the full sheet back to the empty one, a level of masks at a time."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import read_only
from kniffel.base.files import atomic_stream, atomic_write
from kniffel.core.lanes import widths_of
from kniffel.core.runtime.store import (
    FORMAT,
    SOLVER_VERSION,
    checksum,
    make_room,
    mark_used,
    meta_path,
    solving,
    table_key,
    table_path,
)
from kniffel.core.runtime.work import compiled_threads, run_between
from kniffel.core.tables import Compiled, compile_rules
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
    from kniffel.core.kernels.jobs import dp_jobs
    from kniffel.core.kernels.points import PointsLevel, solve_points
    from kniffel.core.runtime.precompile import helping

    tables = c.kernel_tables
    values = empty_values(c)
    levels = [level for level in reversed(c.levels[:-1]) if len(level)]
    total = sum(len(level) for level in levels)
    # compile or load the JIT cache now, in this thread, before the threads call it; a progress display
    # learns the total only then, so that it can say it is compiling until it is done. On a first run a
    # helper process compiles some of the kernels it calls meanwhile (see kniffel.core.runtime.precompile).
    nothing = PointsLevel(np.empty(0, dtype=np.int64), np.zeros(1, dtype=np.int64), values)
    with helping(dp_jobs(tables), solve_points):
        # the levels' bundles first: on a first run the helper meanwhile starts on the DP's callees
        bundles = [mask_bundles(c, level) for level in levels]
        solve_points(nothing, tables, 0, 0)
    if progress is not None:
        progress(0, total)
    threads = compiled_threads()
    done = 0
    seconds = 0.0
    for level, starts in zip(levels, bundles, strict=True):
        start = time.perf_counter()
        work = PointsLevel(level, starts, values)
        count = len(starts) - 1
        cuts = np.linspace(0, count, min(count, threads * PARTS_PER_THREAD) + 1).astype(np.int64)
        run_between(cuts, partial(solve_points, work, tables))
        seconds += time.perf_counter() - start
        done += len(level)
        if progress is not None:
            progress(done, total)
    values.flags.writeable = False
    return Solution(c, values, seconds)


def mask_bundles(c: Compiled, masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Where the bundles of ``masks`` start (and, last, where they end), each holding at least
    ``BUNDLE`` lanes of the DP's (:func:`kniffel.core.kernels.loop.bundle_starts`): the DP and the
    distributions sweep a level's masks in these."""
    from kniffel.core.kernels.common import BUNDLE
    from kniffel.core.kernels.loop import bundle_starts

    widths, variants = widths_of(c, masks)
    starts: npt.NDArray[np.int64] = bundle_starts(widths * variants, BUNDLE)
    return starts


def solve(rules: RuleSet) -> Solution:
    """Solve a single-column rule set in memory (no cache)."""
    return solve_compiled(compile_rules(rules))


# --- the table on disk -------------------------------------------------------------------------------


def load_solution(compiled: Compiled, directory: Path | None = None) -> Solution | None:
    """The cached solution of ``compiled.rules`` if a sound one exists, else None."""
    path = table_path(compiled.rules, directory)
    meta_file = meta_path(path)
    try:
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        shape = (compiled.n_aux, compiled.n_masks, compiled.threshold + 1)
        if (
            not isinstance(meta, dict)
            or meta.get("format") != FORMAT
            or meta.get("key") != table_key(compiled.rules)
            or meta.get("solver_version") != SOLVER_VERSION
            or tuple(meta.get("shape", ())) != shape
        ):
            return None
        # a plain ndarray over the mapping: indexing a np.memmap goes through Python code
        values = np.asarray(np.load(path, mmap_mode="r", allow_pickle=False))
        if values.shape != shape or values.dtype != np.float64 or not values.flags.c_contiguous:
            return None
        if checksum(values) != meta.get("checksum"):
            return None
        solution = Solution(compiled, values, 0.0)
        if not np.isfinite(solution.expected_score) or solution.expected_score != meta.get("expected_score"):
            return None
        mark_used(meta_file)
        return solution
    except Exception:  # numpy's header parser alone raises EOFError, TokenError, SyntaxError...
        return None


def save_solution(solution: Solution, directory: Path | None = None) -> Path:
    """Write the table and its description atomically; returns the table's path."""
    path = table_path(solution.rules, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": FORMAT,
        "key": table_key(solution.rules),
        "solver_version": SOLVER_VERSION,
        "rules": solution.rules.id,
        "options": dict(solution.rules.options),
        "shape": list(solution.values.shape),
        "checksum": checksum(solution.values),
        "expected_score": solution.expected_score,
        "seconds": solution.seconds,
    }
    meta_path(path).unlink(missing_ok=True)
    make_room(solution.values.nbytes, path.parent, keep=path)
    with atomic_stream(path) as stream:
        np.save(stream, np.ascontiguousarray(solution.values), allow_pickle=False)
    atomic_write(meta_path(path), json.dumps(meta, indent=1))
    return path


def table(
    rules: RuleSet,
    *,
    use_cache: bool = True,
    directory: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Solution:
    """The solved table of a single-column rule set: from the cache when a sound copy is there, else
    solved (and then cached, if ``use_cache``). A cache that cannot be written is not an error."""
    compiled = compile_rules(rules)
    if not use_cache:
        return solve_compiled(compiled, progress=progress)
    found = load_solution(compiled, directory)
    if found is not None:
        return found
    with solving(table_path(rules, directory)):
        found = load_solution(compiled, directory)  # another process may have solved it while we waited
        if found is not None:
            return found
        solution = solve_compiled(compiled, progress=progress)
        with contextlib.suppress(OSError):
            save_solution(solution, directory)
    # The saved copy is file-backed memory the system can reclaim; the solved array is not.
    saved = load_solution(compiled, directory)
    return solution if saved is None else Solution(compiled, saved.values, solution.seconds)
