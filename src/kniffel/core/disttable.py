"""Final-score distributions and the table that holds one for every state: :class:`ScoreDistribution`
(one state's points to come), :class:`DistributionTable` and :class:`LevelTable` (every state's, or one
level's), and :func:`build_table`, which pushes the probability through each turn from the full sheet back
(:mod:`kniffel.core.kernels.distribution`). :mod:`kniffel.core.distribution` caches the tables and answers
questions with them.

Each stored distribution drops the probability (below 1e-15 at either end, :data:`TAIL`) of totals that
repeated extra bonuses make possible but practically never happen, folding it into the nearest kept
total: the probabilities still sum to 1 and the mean moves by less than 1e-10.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import Any

import numpy as np

from kniffel.base.arrays import F64, I64, read_only
from kniffel.base.errors import SituationError
from kniffel.core.advisor import Advisor
from kniffel.core.lanes import LaneLayout, lane_layout, lane_of, mask_widths, sublayout_index, widths_of
from kniffel.core.points import Solution, mask_bundles
from kniffel.core.runtime.pace import DISTRIBUTIONS, remember
from kniffel.core.runtime.spill import Allowance, Spilled, give_back
from kniffel.core.runtime.work import Cancel, Progress, check, run_ranges
from kniffel.core.tables import Compiled
from kniffel.rules import RuleSet

PACE_SAMPLE = 100_000
"""Lanes a build must have to be a fair sample of this machine's pace (:mod:`kniffel.core.runtime.pace`):
a full rule set's table has hundreds of thousands, a late position's cone a few hundred."""

TAIL = 1.0e-15
"""Probability at either end of a state's distribution that is folded into the nearest kept total: the
long tail of repeated extra bonuses would otherwise make every distribution as wide as the most a sheet
can score. Each fold moves the mean by less than ``TAIL`` times the distribution's width, at every turn of
a game: far below 1e-10 in all; the total stays 1."""
CHUNK_LANES = 4096
"""Lanes whose turn outcomes are held at once while the table is built: bounds the scratch memory, and
the time between two chances to stop a build (a fraction of a second)."""
SPILLED_CHUNK_LANES = 1024
"""The same where the levels pass through files (:func:`build_levels`' ``spill``): a chunk reads the
distributions of every state its turns lead to, and 4,096 of Yahtzee's lanes read a third of the level
after theirs (150-190 MB) before the pages read could be let go; 1,024 read a tenth."""
BUNDLES_PER_TASK = 4
"""Bundles of masks a thread works out in one compiled call (a call costs some microseconds; the threads
take the next run as they finish one, so that they end a chunk together)."""
ROWS_PER_TASK = 256
"""Lanes whose distributions a thread combines in one compiled call."""


# --- one distribution ----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ScoreDistribution:
    """The probability of every final score: ``probabilities[i]`` is P(final score = ``low + i``)."""

    low: int
    probabilities: F64

    @classmethod
    def certain(cls, score: int) -> ScoreDistribution:
        """A score that is known already (a full sheet's)."""
        return cls(score, np.ones(1))

    @property
    def high(self) -> int:
        """The highest final score with a stored probability."""
        return self.low + len(self.probabilities) - 1

    @property
    def scores(self) -> I64:
        return np.arange(self.low, self.high + 1, dtype=np.int64)

    @property
    def total(self) -> float:
        """The sum of the probabilities (1 up to rounding)."""
        return float(self.probabilities.sum())

    @property
    def mean(self) -> float:
        return float(self.probabilities @ self.scores)

    @property
    def std(self) -> float:
        deviation = self.scores - self.mean
        return float(np.sqrt(self.probabilities @ (deviation * deviation)))

    @cached_property
    def survival(self) -> F64:
        """``[i]``: P(final score >= ``low + i``), summed from the top so that small tails stay exact."""
        tail: F64 = np.cumsum(self.probabilities[::-1])[::-1]
        return tail

    def at_least(self, score: int) -> float:
        """P(final score >= ``score``)."""
        i = int(score) - self.low
        if i <= 0:
            return 1.0
        if i >= len(self.probabilities):
            return 0.0
        return float(self.survival[i])

    def percentile(self, q: float) -> int:
        """The smallest final score ``s`` with P(final score <= ``s``) >= ``q`` percent (within 1e-12, so
        that a median of exactly one half is not moved by rounding)."""
        if not 0 <= q <= 100:
            raise ValueError(f"a percentile is 0 to 100, got {q}")
        cdf = np.cumsum(self.probabilities)
        i = int(np.searchsorted(cdf, q / 100 - 1e-12, side="left"))
        return self.low + min(i, len(self.probabilities) - 1)

    def shifted(self, points: int) -> ScoreDistribution:
        return ScoreDistribution(self.low + points, self.probabilities)

    def to_json(self, percentiles: Sequence[float] = (1, 5, 10, 25, 50, 75, 90, 95, 99)) -> dict[str, Any]:
        """Every probability at full precision, the mean, the standard deviation and percentiles."""
        return {
            "low": self.low,
            "high": self.high,
            "mean": self.mean,
            "std": self.std,
            "percentiles": {str(q): self.percentile(q) for q in percentiles},
            "probabilities": self.probabilities.tolist(),
        }


def best_of(scores: Sequence[ScoreDistribution]) -> ScoreDistribution:
    """The distribution of the highest of independent final scores."""
    return bar(scores, shared=False)


def bar(others: Sequence[ScoreDistribution], *, shared: bool = True) -> ScoreDistribution:
    """The score a player must reach to win against ``others`` (independent final scores): with
    ``shared``, a tie among ``k`` players is worth ``1/k`` of a win, as if a lot settled it (the best of
    them, or one more with the chance that the tie goes against the player); else the best of them (a
    tie wins for every tied player). :func:`chance_at_least` against it is the chance of winning."""
    from kniffel.core.kernels.win import best_of as combined

    if not others:
        raise ValueError("the bar of no scores")
    counts = np.array([len(s.probabilities) for s in others], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    lows = np.array([s.low for s in others], dtype=np.int64)
    out = np.empty(int(counts.max() + lows.max() - lows.min()) + 2)
    probabilities = np.concatenate([np.asarray(s.probabilities, dtype=np.float64) for s in others])
    scratch = np.empty(2 * len(others) + 1)
    low, length = combined(lows, offsets, counts, probabilities, out, scratch, bool(shared))
    return ScoreDistribution(int(low), out[:length])


def chance_at_least(own: ScoreDistribution, best: ScoreDistribution) -> float:
    """``P(own >= best)`` for independent final scores: against the others' :func:`bar`, the chance of
    winning."""
    from kniffel.core.kernels.win import at_least

    return float(at_least(own.low, own.probabilities, best.low, best.probabilities))


# --- the table of every state -----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class DistributionTable:
    """The distribution of the points still to come from every between-turn state of a solved rule set
    that its layout covers (every state, a cone, or the early levels: :mod:`kniffel.core.lanes`)."""

    solution: Solution
    layout: LaneLayout
    pmf: F64
    """The stored probabilities of every lane, one after the other."""
    index: I64
    """``[0, lane]`` offset in :attr:`pmf`, ``[1, lane]`` lowest total, ``[2, lane]`` how many."""
    seconds: float
    """Time to build it (0 when loaded from the cache)."""

    def __post_init__(self) -> None:
        # read-only whether built here or mapped from the cache: one compiled kernel reads both
        object.__setattr__(self, "pmf", read_only(self.pmf))

    @property
    def compiled(self) -> Compiled:
        return self.solution.compiled

    @property
    def rules(self) -> RuleSet:
        return self.solution.rules

    @property
    def root(self) -> int:
        """The boxes every sheet the table covers has filled (a bit mask; 0: every sheet)."""
        return self.layout.root

    @property
    def nbytes(self) -> int:
        return int(self.pmf.nbytes + self.index.nbytes)

    @cached_property
    def advisor(self) -> Advisor:
        return Advisor(self.solution)

    def covers(self, mask: int) -> bool:
        """Whether the table holds the sheets of ``mask``."""
        return self.layout.covers(mask)

    def lane(self, armed: int, free: int, mask: int, up: int) -> int:
        return lane_of(self.compiled, self.layout, armed, free, mask, up)

    def points_to_come(self, lane: int) -> ScoreDistribution:
        offset, low, count = (int(x) for x in self.index[:, lane])
        return ScoreDistribution(low, np.array(self.pmf[offset : offset + count]))


@dataclass(frozen=True, eq=False)
class LevelTable:
    """The distributions of the points still to come from every state with ``level`` boxes filled, by
    lane of the whole layout (:func:`~kniffel.core.lanes.lane_layout` with the empty sheet as root)
    counted from the level's first: what the early target rows start from at their horizon
    (:class:`kniffel.core.target.Horizon`)."""

    level: int
    pmf: F64
    index: I64
    """``[0, lane]`` offset in :attr:`pmf`, ``[1, lane]`` lowest total, ``[2, lane]`` how many."""

    def __post_init__(self) -> None:
        # one kind of arrays whether cut from a whole table (read-only, the index a slice) or loaded from
        # the cache (writable, contiguous): one compiled kernel reads both
        object.__setattr__(self, "pmf", read_only(self.pmf))
        object.__setattr__(self, "index", np.ascontiguousarray(self.index))

    @classmethod
    def of(cls, table: DistributionTable, level: int) -> LevelTable:
        """The level of a table that holds it whole (its root the empty sheet)."""
        if table.root != 0 or not all(table.covers(int(mask)) for mask in table.compiled.levels[level]):
            raise SituationError(
                f"the distribution table does not hold the sheets of this level (boxes filled: {level})"
            )
        a, b = int(table.layout.level_start[level]), int(table.layout.level_start[level + 1])
        return cls(level, table.pmf, table.index[:, a:b])


def build_table(
    solution: Solution,
    progress: Progress | None = None,
    *,
    within: Mapping[str, int] | None = None,
    most_filled: int | None = None,
    cancel: Cancel | None = None,
    spill: Path | None = None,
) -> DistributionTable:
    """Compute the distribution table of a solved rule set (no cache); ``progress(done, total)`` after
    each piece of work. With ``within`` (a sheet), only the sheets that fill at least its boxes are
    computed: a small table for the rest of one game (a cone; asking it about other sheets is an error).
    With ``most_filled``, only the sheets with at most that many boxes filled are kept (all are
    computed). ``cancel`` is asked between pieces of work (:mod:`kniffel.core.runtime.work`).

    In memory by default; with ``spill`` (a folder), the levels pass through files there as the early
    tables' do, and the table is kept in a file of its own, mapped (:meth:`Spilled.kept`): what a
    process holds for the rest of a game is then the system's file cache, not its memory (a cone of
    Yatzy's with eleven boxes open is 190 MB)."""
    root = 0
    if within is not None:
        root = Advisor(solution).state(within).mask
    if spill is not None:
        whole = Spilled(spill)
        try:
            layout, index, seconds = build_levels(
                solution, whole.append, progress, root, most_filled, cancel, spill=spill
            )
            return DistributionTable(solution, layout, whole.kept(), index, seconds)
        finally:
            whole.close()
    kept = _Reserve(solution.compiled, root, most_filled)
    layout, index, seconds = build_levels(
        solution, kept.write, progress, root, most_filled, cancel, room=kept.room
    )
    built = lane_layout(solution.compiled, root).n_lanes
    if built >= PACE_SAMPLE:  # what later estimates of a table's build read
        remember(DISTRIBUTIONS, seconds, built)
    return DistributionTable(solution, layout, kept.table(), index, seconds)


class _Reserve:
    """One array for the levels a table keeps, each computed where it stays, right after the one before
    (:func:`build_levels`'s ``room``). Joined at the end instead, the levels of Yahtzee's whole table (1.9 GB)
    were copied into new memory once more: 2.5-3.4 s of a 10-13 s build on a Zen 1.

    It is reserved at the most a table can hold (every lane as long as the most points still to come,
    plus one), which is several times what is written: memory never written is never handed out. Where
    the reservation is refused, or a level outgrows it (it cannot where the bound holds), the levels
    are joined as before."""

    def __init__(self, c: Compiled, root: int, most_filled: int | None) -> None:
        layout = lane_layout(c, root, most_filled)
        longest = (
            1
            + int(c.box_most.sum())
            + c.upper_bonus
            + c.extra_most * c.n_boxes
            + c.free_points * max(c.n_free - 1, 0)
        )
        try:
            self.buffer = np.empty(layout.n_lanes * longest)
        except MemoryError:
            self.buffer = np.empty(0)
        self.end = 0
        self.written: list[F64] = []

    def _offset(self, level: F64) -> int | None:
        """Where ``level`` starts in the reservation, or None if it is not in it."""
        at = level.ctypes.data - self.buffer.ctypes.data
        if self.buffer.size == 0 or not 0 <= at <= self.buffer.nbytes - level.nbytes:
            return None
        return at // self.buffer.itemsize

    def room(self, after: F64 | None) -> F64:
        """Where the next level may be computed: right after ``after`` (the level before, if it is in
        the reservation), or where the reservation is still free."""
        if after is not None:
            start = self._offset(after)
            if start is not None:
                self.end = max(self.end, start + len(after))
        return self.buffer[self.end :]

    def write(self, level: F64) -> None:
        self.written.append(level)

    def table(self) -> F64:
        """The kept levels in the order written: a view of the reservation if they lie in it one after
        the other, else joined."""
        at = 0
        for level in self.written:
            if len(level) and self._offset(level) != at:
                return np.concatenate(self.written)
            at += len(level)
        return self.buffer[:at]


Tap = Callable[[int, int, F64, I64], object]
"""Sees each piece of a level as it is computed: the level, the first of the piece's lanes, their
probabilities and their index (``[0]`` offsets into those probabilities, ``[1]`` lowest totals, ``[2]``
counts), to be copied by whoever keeps them."""


def build_levels(
    solution: Solution,
    write: Callable[[F64], object],
    progress: Progress | None,
    root: int = 0,
    most_filled: int | None = None,
    cancel: Cancel | None = None,
    tap: Tap | None = None,
    room: Callable[[F64 | None], F64] | None = None,
    spill: Path | None = None,
) -> tuple[LaneLayout, I64, float]:
    """Compute every lane's distribution, from the full sheet back to the empty one (a level only reads
    the one after it); the probabilities of the levels with at most ``most_filled`` boxes filled go to
    ``write`` (each level whole as soon as the next is done, or with ``spill`` piece by piece as they are
    computed: in the same order either way), and every piece of every level to ``tap``. ``room(level
    before)`` gives the array a kept level is computed in (:class:`_Reserve`; by default each its own).

    With ``spill`` (a folder), a level is written to a file there as it is computed and read back from it
    by the next, whose pages are let go whenever the build holds more than it may
    (:mod:`kniffel.core.runtime.spill`): two of Yahtzee's levels held at once took a gigabyte. Returns
    the layout of the lanes written, their index (offsets in the order written) and the seconds it took."""
    c = solution.compiled
    layout = lane_layout(c, root)
    index = np.zeros((3, layout.n_lanes), dtype=np.int64)
    top = len(c.levels) - 1
    full = c.full_mask
    # the full sheet: the unused free throws' worth, for certain
    for armed in range(mask_widths(c, full)[1]):
        for free in range(c.n_free):
            lane = int(layout.lane_base[c.aux(armed, free), full])
            index[:, lane] = (lane - layout.level_start[top], c.free_points * free, 1)
    levels = [level[(level & root) == root] for level in c.levels]
    lanes_of = np.diff(layout.level_start)
    total = int(lanes_of[:-1].sum())
    done = [0]

    def advance(lanes: int) -> None:
        check(cancel)
        done[0] += lanes
        if progress is not None:
            progress(done[0], total)

    def kept(n: int) -> bool:
        return most_filled is None or n <= most_filled

    full_lanes = int(layout.level_start[top + 1] - layout.level_start[top])
    children = np.ones(full_lanes)
    if room is not None and kept(top) and spill is None:
        space = room(None)
        if len(space) >= full_lanes:
            children = space[:full_lanes]
            children[:] = 1.0
    if tap is not None:
        tap(top, int(layout.level_start[top]), children, index[:, int(layout.level_start[top]) :])
    written = 0
    start_of = np.zeros(top + 2, dtype=np.int64)  # where each kept level starts among those written
    if spill is not None and kept(top):
        write(children)
        written = full_lanes
    allowance = Allowance()
    spilled: Spilled | None = None
    start = time.perf_counter()
    if progress is not None:
        progress(0, total)
    try:
        for n in range(top - 1, -1, -1):
            if spill is None:
                into = room(children) if room is not None and kept(n) else None
                level = _level(solution, layout, levels[n], n, children, index, advance, _InMemory(into), tap)
                if kept(n + 1):
                    write(children)
                    start_of[n + 1] = written
                    written += len(children)
                children = level
            else:
                start_of[n] = written
                store = _ToFile(spill, write if kept(n) else None, allowance)
                _level(solution, layout, levels[n], n, children, index, advance, store, tap)
                written += store.written
                children = np.zeros(0)  # the mapping of the level read goes with its file
                if spilled is not None:
                    spilled.close()
                spilled = store.spilled
                children = spilled.mapped()
            if kept(n + 1):
                _shift(index, layout, n + 1, int(start_of[n + 1]))
        if spill is None:
            write(children)
            start_of[0] = written
        _shift(index, layout, 0, int(start_of[0]))
    finally:
        children = np.zeros(0)
        if spilled is not None:
            spilled.close()
        if spill is not None:
            give_back()
    if most_filled is not None:
        part = lane_layout(c, root, most_filled)
        return part, sublayout_index(c, layout, part, index), time.perf_counter() - start
    return layout, index, time.perf_counter() - start


def _shift(index: I64, layout: LaneLayout, n: int, written: int) -> None:
    """Level ``n``'s offsets, within the level while the level before reads it, after the ``written``
    probabilities of the kept levels before it: where it lies among them."""
    index[0, int(layout.level_start[n]) : int(layout.level_start[n + 1])] += written


class _InMemory:
    """A level's distributions in one array: in ``into`` while it has the room foreseen (the
    reservation's rest), then in a larger one (:func:`_grown`)."""

    chunk_lanes = CHUNK_LANES

    def __init__(self, into: F64 | None) -> None:
        self.into = into
        self.pmf: F64 = np.empty(0)
        self.stored = 0

    def room(self, size: int, foreseen: int) -> F64:
        if self.stored == 0 and not len(self.pmf):
            # the reservation's rest where it has the room foreseen (refused, it is empty: the level then
            # grew from nothing, a copy each time it doubled), else an array of the level's own
            self.pmf = (
                self.into if self.into is not None and len(self.into) >= foreseen else np.empty(foreseen)
            )
        if self.stored + size > len(self.pmf):  # more than foreseen: a larger array, what is stored copied
            self.pmf = _grown(self.pmf, self.stored, self.stored + size)
        return self.pmf[self.stored : self.stored + size]

    def keep(self, index: I64, lanes: slice, size: int) -> None:
        index[0, lanes] += self.stored
        self.stored += size

    def level(self) -> F64:
        return self.pmf[: self.stored]


class _ToFile:
    """A level's distributions written to a file piece by piece (and those of a kept level to ``write``
    as well), each computed in a scratch array; the level before, read from its own file mapped, let go
    of (with every other mapped table) whenever the build holds more than its ``allowance``."""

    def __init__(self, folder: Path, write: Callable[[F64], object] | None, allowance: Allowance) -> None:
        self.spilled = Spilled(folder)
        self.write = write
        self.allowance = allowance
        self.scratch: F64 = np.empty(0)
        self.written = 0
        self.chunk_lanes = SPILLED_CHUNK_LANES

    def room(self, size: int, foreseen: int) -> F64:
        if len(self.scratch) < size:
            self.scratch = np.empty(max(size, 2 * len(self.scratch)))
        return self.scratch[:size]

    def keep(self, index: I64, lanes: slice, size: int) -> None:
        piece = self.scratch[:size]
        index[0, lanes] += self.spilled.count
        self.spilled.append(piece)
        if self.write is not None:
            self.write(piece)
            self.written += size
        self.allowance.relieve()  # the level read among them

    def level(self) -> F64:
        return np.zeros(0)


def _level(
    solution: Solution,
    layout: LaneLayout,
    masks: I64,
    n: int,
    children: F64,
    index: I64,
    advance: Callable[[int], None],
    store: _InMemory | _ToFile,
    tap: Tap | None = None,
) -> F64:
    """The distributions of every lane of the masks of level ``n`` (``children``: level ``n + 1``'s
    probabilities), computed a chunk at a time where ``store`` has room for them and handed to ``tap``;
    fills their rows of ``index`` (offsets within the level) and returns what ``store`` holds of the
    level. ``advance(lanes)`` is called after each piece of work (it may stop the build)."""
    from kniffel.core.kernels.distribution import (
        Distributions,
        Outcomes,
        Spans,
        chunk_distributions,
        chunk_outcomes,
        max_outcomes,
        supports,
    )

    c = solution.compiled
    t = c.kernel_tables
    if not len(masks):
        return np.empty(0)
    width = int(max_outcomes(t, min(c.free_per_turn, c.n_free - 1)))
    starts = mask_bundles(c, masks)
    widths, variants = widths_of(c, masks)
    before = np.concatenate([[0], np.cumsum(widths * variants * c.n_free)])
    level_base = int(layout.level_start[n])
    offset, first, length = index[0], index[1], index[2]
    following = Distributions(children, offset, first, length)  # the states the turns lead to
    # the level's distributions are written where they stay: joined from parts, a level (hundreds of MB)
    # was new memory twice and one more copy (Yahtzee: 0.5-2 s of the early tables)
    child_lanes = int(layout.level_start[n + 2] - layout.level_start[n + 1])
    foreseen = _room(int(before[-1]), len(children), child_lanes)
    b = 0
    n_bundles = len(starts) - 1
    while b < n_bundles:
        # bundles until the chunk's outcomes would hold too many lanes (at least one bundle)
        e = b + 1
        while e < n_bundles and before[starts[e + 1]] - before[starts[b]] <= store.chunk_lanes:
            e += 1
        m0, m1 = int(starts[b]), int(starts[e])
        lo_lane, hi_lane = level_base + int(before[m0]), level_base + int(before[m1])
        rows = hi_lane - lo_lane
        found = Outcomes(
            np.zeros(rows, dtype=np.int64), np.empty((rows, width), dtype=np.int64),
            np.empty((rows, width), dtype=np.int64), np.empty((rows, width), dtype=np.float64),
        )  # fmt: skip
        outcomes = partial(
            chunk_outcomes, masks[m0:m1], starts[b : e + 1] - m0, solution.values, t,
            layout.lane_base, lo_lane, found,
        )  # fmt: skip
        run_ranges(e - b, BUNDLES_PER_TASK, outcomes)
        spans = Spans(np.empty(rows, dtype=np.int64), np.empty(rows, dtype=np.int64))
        supports(found, following, spans)
        at = np.concatenate([[0], np.cumsum(spans.size)[:-1]]).astype(np.int64)
        size = int(spans.size.sum())
        new_first, new_length = np.empty(rows, dtype=np.int64), np.empty(rows, dtype=np.int64)
        made = Distributions(store.room(size, foreseen), at, new_first, new_length)
        distributions = partial(chunk_distributions, found, following, spans, made, TAIL)
        run_ranges(rows, ROWS_PER_TASK, distributions)
        lanes = slice(lo_lane, hi_lane)
        offset[lanes] = made.offset
        first[lanes] = made.first
        length[lanes] = made.length
        if tap is not None:
            tap(n, lo_lane, made.pmf, index[:, lanes])
        store.keep(index, lanes, size)
        b = e
        advance(rows)
    return store.level()


def _room(lanes: int, children: int, child_lanes: int) -> int:
    """Room for the distributions of ``lanes`` states whose children's take ``children`` probabilities
    over ``child_lanes`` states: twice as long as the children's on average, and 64 more (a turn widens
    a distribution by what it can score; memory never written is never handed out)."""
    return int(lanes * (2.0 * children / max(1, child_lanes) + 64))


def _grown(pmf: F64, stored: int, needed: int) -> F64:
    """A larger array for a level's distributions, with the ``stored`` first of ``pmf`` copied."""
    grown = np.empty(max(needed, 2 * len(pmf)))
    grown[:stored] = pmf[:stored]
    return grown


__all__ = [
    "CHUNK_LANES",
    "SPILLED_CHUNK_LANES",
    "TAIL",
    "DistributionTable",
    "LevelTable",
    "ScoreDistribution",
    "bar",
    "best_of",
    "build_table",
    "chance_at_least",
]
