"""The target rows and how they are solved: a state's row holds ``P(u)``, the probability of still making at
least ``u`` more points from the start of a turn in that state (see :mod:`kniffel.core.target`, which
keeps them on disk and in memory and answers questions with them). Rows are solved level by level over a
cone of states, each for its window of targets (:func:`windows`), with the compiled sweep of
:mod:`kniffel.core.kernels.target`; from a :class:`Horizon` on they are read from final-score
distributions instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import F32, F64, I64, read_only
from kniffel.base.errors import SituationError
from kniffel.core.disttable import LevelTable
from kniffel.core.kernels.records import KernelTables
from kniffel.core.lanes import (
    LaneLayout,
    lane_layout,
    lane_of,
    level_of,
    lowest_ups,
    mask_widths,
    sublayout_index,
    upper_lane,
    widths_of,
)
from kniffel.core.position import SheetState
from kniffel.core.runtime.pace import TARGET_ROWS, remember
from kniffel.core.runtime.spill import Allowance, zeros
from kniffel.core.runtime.store import spill_folder
from kniffel.core.runtime.work import Cancel, Progress, check, run_between, run_in_parts
from kniffel.core.tables import Compiled
from kniffel.rules import RuleSet

if TYPE_CHECKING:
    from kniffel.core.kernels.spans import Reach

PIECE = 2048
"""States solved in one round of compiled calls: a fraction of a second, so that a solve stops soon when
asked."""
TASK = 4096
"""Lanes a thread solves in one compiled call (about 2 ms): a call costs some microseconds, and the
threads take the next run of bundles as they finish one, so that they end a piece together."""
PACE_SAMPLE = 2_000_000
"""A solve of at least this many probabilities (half a second and more) is a fair sample of the
machine's pace: its seconds per probability are remembered for later estimates
(:mod:`kniffel.core.runtime.pace`)."""


def default_limit(c: Compiled) -> int:
    """The most points a game of these rules can make with at most one extra five of a kind: every box
    at its best, the upper bonus, every free throw unused, and one extra five of a kind's worth. Targets
    beyond it are out of the rows' reach (one game in many millions gets there)."""
    best = sum(int(c.base[:, :, b].max()) for b in range(c.n_boxes))
    extra = 0
    if c.joker and c.jpts.shape[0] > 1:
        extra = int(c.jbonus.max()) + max(0, int(c.jpts.max()) - int(c.base.max()))
    return best + c.upper_bonus + c.free_points * (c.n_free - 1) + extra


def points_left(c: Compiled) -> I64:
    """``[mask]``: the most points the open boxes can still pay (bonuses and free throws included): a
    state's row ends there, or at the limit if that is less."""
    masks = np.arange(c.n_masks, dtype=np.int64)
    open_bits = 1 - ((masks[:, None] >> np.arange(c.n_boxes)) & 1)
    upper_open = (open_bits * c.upper[None, :]).any(axis=1)
    bound: I64 = (
        open_bits @ c.box_most
        + np.where(upper_open, c.upper_bonus, 0)
        + open_bits.sum(axis=1) * c.extra_most
        + c.free_points * (c.n_free - 1)
    )
    return bound


def empty_state(c: Compiled) -> SheetState:
    """The state of the empty sheet (every free throw left)."""
    return SheetState.empty(c)


# --- windows --------------------------------------------------------------------------------------------


def windows(
    c: Compiled, layout: LaneLayout, limit: int, root: SheetState, low: int, high: int | None
) -> tuple[I64, I64]:
    """Which targets each state of ``layout`` needs when the root state ``root`` asks about targets
    ``low .. high`` (``high`` None: every target up to the limit, from every state), and where they go:
    ``index[lane, 0]`` offset in the level's array, ``[lane, 1]`` the first target kept, ``[lane, 2]``
    how many (0 for a state the root cannot reach, or one whose targets are all made already or all out
    of reach); and the size of each level's array.

    A state ``s`` reached from the root has gained at least ``least(s)`` and at most ``most(s)`` points
    on the way, so of the root's targets it needs ``low - most(s) .. high - least(s)``, cut to ``1 ..
    reach``: at or below 0 every target is made, past the reach none. The bounds are written so that an
    entry from ``p`` to ``c`` gaining ``g`` points has ``least(c) <= least(p) + g`` and ``most(c) >=
    most(p) + g`` (so ``most`` counts the upper bonus where a state may have earned it, not where the
    root could still earn it: an entry that crosses the threshold adds the bonus to both); so a child's
    window holds every target a parent's window can leave it with, and a state whose row is solved never
    reads a child outside its window. Lanes are laid out level by level, within a level sheet by sheet,
    then by armed variant, upper score and free throws left; worked out a level at a time in arrays (a
    cone asks for hundreds of thousands of lanes)."""
    bounds = points_left(c)
    index = np.zeros((layout.n_lanes, 3), dtype=np.int64)
    index[:, 1] = 1
    sizes = np.zeros(len(c.levels), dtype=np.int64)
    frees = root.free + 1
    for n in layout.levels():
        masks = c.levels[n]
        masks = masks[(masks & root.mask == root.mask) & (layout.lane_base[:, masks].max(axis=0) >= 0)]
        mask, armed, i, least, most = _gains(c, root, masks)
        end = np.minimum(bounds[mask], limit)
        first, last = _window(least, most, low, high, end)
        count = np.maximum(0, last - first + 1)
        # free throws left vary fastest, each lane of a state its own copy of the window
        lanes = layout.lane_base[(armed * c.n_free)[:, None] + np.arange(frees)[None, :], mask[:, None]]
        lanes = (lanes + i[:, None]).ravel()
        counts = np.repeat(count, frees)
        index[lanes, 0] = np.cumsum(counts) - counts
        index[lanes, 1] = np.repeat(first, frees)
        index[lanes, 2] = counts
        sizes[n] = int(counts.sum())
    return index, sizes


def _window(least: I64, most: I64, low: int, high: int | None, end: I64) -> tuple[I64, I64]:
    """The targets states that gained ``least .. most`` since the root need of the root's ``low ..
    high`` (``first .. last``, empty when ``last < first``: every target made already, then ``first``
    is 1, or out of reach, then ``first`` is past the row's ``end``)."""
    first = np.maximum(1, low - most)
    last = end if high is None else np.minimum(end, high - least)
    empty = last < first
    first = np.where(empty, np.where(last < 1, 1, end + 1), first)
    return first, last


def _lanes_of(c: Compiled, masks: I64) -> tuple[I64, I64, I64, I64]:
    """Every lane of ``masks`` at one free-throw level, in layout order (sheet, armed variant, upper
    score): ``(mask, armed, i, up)``, lane ``i`` of the sheet's upper scores being score ``up``."""
    masks = np.asarray(masks, dtype=np.int64)
    widths, variants = widths_of(c, masks)
    per_mask = widths * variants
    sheet = np.repeat(np.arange(len(masks)), per_mask)
    k = np.arange(len(sheet)) - np.repeat(np.cumsum(per_mask) - per_mask, per_mask)
    width = widths[sheet]
    mask, armed, i = masks[sheet], k // width, k % width
    up = lowest_ups(c, mask) + i
    return mask, armed, i, up


def _upper_reachable(
    c: Compiled, root: SheetState, mask: I64, i: I64, up: I64, top_lane: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """Whether lane ``i`` (upper score ``up``; ``top_lane``: the sheet's last) of each sheet's upper
    scores holds a score the sheet can have after the root: sums of what its newly filled upper boxes
    can hold (a sheet with only the sixes filled has six of its 31 scores). The first lane stands for
    every score up to its own and the top lane for every score from its own up. Rows are solved for
    these lanes only: in Yahtzee's early levels a fifth of the lanes hold scores no game has."""
    top, root_up = c.threshold, min(root.up, c.threshold)
    kinds, which = np.unique(c.upper_subsets(mask & ~root.mask), return_inverse=True)
    # the scores on top of the root's own: below the threshold shifted by it, at the threshold all above
    sums = np.zeros((len(kinds), top + 1), dtype=np.bool_)
    sums[:, root_up:top] = c.upper_sums[kinds, : top - root_up]
    sums[:, top] = c.upper_sums[kinds, top - root_up :].any(axis=1)
    # how many reachable scores lie below each score, so that a lane standing for a run of them asks once
    below = np.zeros((len(kinds), top + 2), dtype=np.int64)
    np.cumsum(sums, axis=1, out=below[:, 1:])
    last = np.where(top_lane, top, up)
    first = np.where(i == 0, 0, up)
    full = mask & c.upper_mask == c.upper_mask
    reachable: npt.NDArray[np.bool_] = full | (below[which, last + 1] > below[which, first])
    return reachable


def can_reach(c: Compiled, root: SheetState, state: SheetState) -> bool:
    """Whether a game from ``root`` can be in ``state``'s lane: the rows of a cone of ``root`` are solved
    for these (its boxes hold the root's, its upper score is one they can make, its five-of-a-kind box
    as the root has it)."""
    _, armed, i, _, _ = _gains(c, root, np.array([state.mask]))
    return bool(((armed == state.armed) & (i == upper_lane(c, state.mask, state.up))).any())


def _gains(c: Compiled, root: SheetState, masks: I64) -> tuple[I64, I64, I64, I64, I64]:
    """The lanes of ``masks`` (sheets that fill at least the root's boxes) that can follow ``root``, in
    layout order (sheet, armed variant, upper score), as ``(mask, armed, i, least, most)``: lane ``i``
    of its sheet's upper scores and what the state can have gained since the root, at least and at
    most (see :func:`windows`)."""
    mask, armed, i, up = _lanes_of(c, masks)
    full = mask & c.upper_mask == c.upper_mask
    # the five-of-a-kind box filled at the root: its armed variant is the root's for good
    reachable = np.full(len(mask), True)
    if c.five >= 0 and root.mask >> c.five & 1:
        reachable &= armed == root.armed
    # the first lane stands for every upper score up to its own, the lane of a full upper section for
    # every score: both may have gained nothing; otherwise the upper score cannot have gone down
    crossed = (root.up < c.threshold) & (c.threshold <= up)
    least = np.where(full | (i == 0), 0, up - root.up + np.where(crossed, c.upper_bonus, 0))
    reachable &= full | np.where(i == 0, root.up <= up, up >= root.up)
    top_lane = i == widths_of(c, mask)[0] - 1
    reachable &= _upper_reachable(c, root, mask, i, up, top_lane)
    new = mask & ~root.mask
    new_boxes = (new[:, None] >> np.arange(c.n_boxes)[None, :]) & 1
    upper_most = new_boxes @ (c.box_most * c.upper)
    # below its sheet's top lane a lane's upper score is the one the DP enters from (the first lane's
    # stands for the lower ones, whose boxes the DP plays as from it), so the upper boxes gained exactly
    # that since the root, where their best entries say more (Yahtzee's cone of 300 from the empty sheet:
    # 8 % fewer lanes); the top lane holds every score from its own up, so there the best entries bound it
    below_top = ~full & ~top_lane
    upper_most = np.where(below_top, np.minimum(upper_most, np.maximum(up - root.up, 0)), upper_most)
    boxes_most = upper_most + new_boxes @ (c.box_most * (1 - c.upper))
    bonus_open = bool(c.upper_bonus) and root.mask & c.upper_mask != c.upper_mask and root.up < c.threshold
    # the bonus counts where this state may have earned it: then an entry that crosses the threshold
    # adds it to ``most`` as it adds it to the points
    earned = bonus_open & (full | (up >= c.threshold))
    new_count = new_boxes.sum(axis=1)
    most = boxes_most + np.where(earned, c.upper_bonus, 0) + np.where(armed > 0, c.extra_most * new_count, 0)
    keep = np.flatnonzero(reachable)
    return mask[keep], armed[keep], i[keep], least[keep], most[keep]


def reached_lanes(c: Compiled, masks: I64) -> I64:
    """How many lanes of each of ``masks`` (every armed variant and free-throw level) hold a state that
    a game from the empty sheet can reach: those whose rows are solved.

    From the empty sheet whether a lane is reached depends on the sheet's upper boxes alone (which
    upper scores their sums can make) and on where its lanes' upper scores start and how many there
    are; every armed variant of a lane is reached alike. So :func:`_gains` is asked once for each kind
    of sheet: Yatzy's 8,192 sheets are 232 kinds, and an estimate of its early tables took a third of a
    second of every process that asked for a chance of winning."""
    masks = np.asarray(masks, dtype=np.int64)
    widths, variants = widths_of(c, masks)
    kinds = np.stack([masks & c.upper_mask, lowest_ups(c, masks), widths], axis=1)
    _, first, kind_of = np.unique(kinds, axis=0, return_index=True, return_inverse=True)
    shown = masks[first]
    mask, armed, *_ = _gains(c, empty_state(c), shown)
    order = np.argsort(shown)
    per_kind: I64 = np.zeros(len(shown), dtype=np.int64)
    at_first_variant = armed == 0
    np.add.at(per_kind, order[np.searchsorted(shown[order], mask[at_first_variant])], 1)
    counts: I64 = per_kind[kind_of.ravel()] * variants * c.n_free
    return counts


# --- the rows ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TargetRows:
    """Solved rows of a single-column rule set: the states of a cone (or of the early levels of the whole
    table), each for its window of targets."""

    compiled: Compiled
    limit: int
    layout: LaneLayout
    index: I64
    """``[lane, 3]``: offset in its level's array, first target, count (see :func:`windows`)."""
    levels: tuple[F32 | None, ...]
    """``[n]``: the probabilities of the states with ``n`` boxes filled (None: not kept)."""
    root: SheetState
    low: int
    """The targets from the root the rows answer: ``low .. high``."""
    high: int
    reach: I64
    """:func:`points_left` of the rules."""
    seconds: float
    """Time of the DP alone; 0 for rows loaded from disk."""
    horizon: int | None = None
    """None: every row is exact target play. Else the level (boxes filled) from which the rows take play
    for points instead (:class:`Horizon`): a row is then the chance of the target when the turns before
    that level are played for it and the rest for points, a lower bound of the exact row."""
    asked: Reach | None = None
    """None: every target of every window is solved. Else only those games from the root can ask for
    (:class:`~kniffel.core.kernels.spans.Reach`): the others hold NaN or nothing to rely on, and
    :meth:`covers` refuses them."""
    _windows_of: dict[int, tuple[I64, I64, I64, I64]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Of each sheet asked about (:meth:`covers`): its lanes' armed variants, upper-score lanes and window
    ends (a game asks about the same few sheets at every decision)."""

    @property
    def rules(self) -> RuleSet:
        return self.compiled.rules

    @property
    def nbytes(self) -> int:
        return sum(level.nbytes for level in self.levels if level is not None) + self.index.nbytes

    def lane(self, state: SheetState) -> int | None:
        """The state's lane, None if the rows do not cover it."""
        c = self.compiled
        if state.mask & self.root.mask != self.root.mask:
            return None
        if self.layout.lane_base[c.aux(state.armed, state.free), state.mask] < 0:
            return None
        return lane_of(c, self.layout, state.armed, state.free, state.mask, state.up)

    def holds(self, level: int) -> bool:
        return 0 <= level < len(self.levels) and self.levels[level] is not None

    def covers(self, state: SheetState, first: int, last: int, *, turn: bool) -> bool:
        """Whether the rows answer targets ``first .. last`` from ``state``: between turns (``turn``
        false: the state's own row), or for its options in a turn (then the next level's rows are read,
        and the state's window says which of their targets are there)."""
        c = self.compiled
        level = level_of(state.mask)
        if not self.holds(level + 1 if turn else level) or self.lane(state) is None:
            return False
        if state.free > self.root.free:
            return False
        armed, i, window_firsts, window_lasts = self._windows_of_sheet(state.mask)
        lane = np.flatnonzero((armed == state.armed) & (i == upper_lane(c, state.mask, state.up)))
        if not len(lane):
            return False  # the root cannot reach it
        if last <= 0:
            return True  # every target made already
        window_first, window_last = int(window_firsts[lane[0]]), int(window_lasts[lane[0]])
        inside = max(first, 1) >= window_first and (last <= window_last or window_last >= self.row_end(state))
        return inside and self._asked(state, max(first, 1), min(last, window_last))

    def _asked(self, state: SheetState, first: int, last: int) -> bool:
        """Whether games from the root can ask ``state`` for each of the targets ``first .. last`` (every
        target can where the rows solved every target)."""
        from kniffel.core.kernels.spans import all_reached
        from kniffel.core.spans import terms_of

        if self.asked is None or last < first:
            return True
        item = np.array([[state.mask, state.armed, state.up]], dtype=np.int64)
        least, lower, extras = (int(x) for x in terms_of(self.compiled, self.root, item)[0])
        return bool(all_reached(self.asked, least, lower, extras, first, last))

    def _windows_of_sheet(self, mask: int) -> tuple[I64, I64, I64, I64]:
        found = self._windows_of.get(mask)
        if found is None:
            _, armed, i, least, most = _gains(self.compiled, self.root, np.array([mask]))
            end = np.full(len(least), min(int(self.reach[mask]), self.limit))
            high = None if self.high >= self.limit else self.high
            found = (armed, i, *_window(least, most, self.low, high, end))
            self._windows_of[mask] = found
        return found

    def row_end(self, state: SheetState) -> int:
        """The last target a state's row can hold: where its open boxes stop paying, or the limit."""
        return min(int(self.reach[state.mask]), self.limit)

    def open_ended(self, state: SheetState) -> bool:
        """Whether the state's row stops at the limit rather than where the open boxes stop paying: then
        a target past it is read at the limit, an upper bound."""
        return bool(self.reach[state.mask] > self.limit)

    def row(self, state: SheetState) -> tuple[int, F32]:
        """The first target of the state's row and its probabilities (:class:`SituationError` if the
        rows do not cover the state)."""
        lane = self.lane(state)
        level = self.levels[level_of(state.mask)] if level_of(state.mask) < len(self.levels) else None
        if lane is None or level is None:
            raise SituationError(f"{self.rules.id}: these target rows do not cover the state")
        offset, first, count = (int(x) for x in self.index[lane])
        return first, level[offset : offset + count]

    def value(self, state: SheetState, u: int) -> float:
        """The probability of making at least ``u`` more points from the start of a turn in ``state``
        (1 at or below 0, 0 past the row, the value at the limit beyond it)."""
        return float(self.curve(state, u, 1)[0])

    def curve(self, state: SheetState, first: int, count: int) -> F64:
        """The state's probabilities of targets ``first .. first + count - 1``: 1 at or below 0, past the
        row 0, or the value at its end if it is :meth:`open_ended` (an upper bound)."""
        if state.mask == self.compiled.full_mask:
            u = np.arange(first, first + count)
            full: F64 = (u <= self.compiled.free_points * state.free).astype(np.float64)
            return full
        row_first, row = self.row(state)
        u = np.arange(first, first + count)
        # past a row cut at the limit its value there; a row that ends before (zeros dropped) is 0 past it
        at_limit = len(row) and row_first + len(row) - 1 >= self.limit
        last = float(row[-1]) if at_limit and self.open_ended(state) else 0.0
        padded = np.concatenate([row.astype(np.float64), [last, np.nan]])
        at = u - row_first
        inside = np.where(at < len(row), at, len(row))
        out: F64 = np.where(u <= 0, 1.0, np.where(at < 0, np.nan, padded[np.maximum(inside, 0)]))
        return out


def solve_rows(
    c: Compiled,
    *,
    root: SheetState | None = None,
    low: int = 1,
    high: int | None = None,
    limit: int | None = None,
    most_filled: int | None = None,
    keep: Callable[[int], bool] | None = None,
    horizon: Horizon | HorizonRows | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> TargetRows:
    """Solve the rows of the cone of ``root`` (the empty sheet by default: every state) for the root's
    targets ``low .. high`` (``high`` None: every state's row to its end, at most the limit,
    :func:`default_limit`). Levels are solved
    from the full sheet back to the root's; ``keep(level)`` says which levels' arrays to keep (all by
    default); ``most_filled`` limits the layout (and so what can be kept) to the early levels, all of
    which are then solved from the later ones. With ``horizon``, the rows of its level are its chances
    of play for points and only the levels before it are solved (:class:`Horizon`).
    ``progress(done, total)`` counts states; ``cancel`` is asked between pieces of work
    (:mod:`kniffel.core.runtime.work`)."""
    from kniffel.core.kernels.spans import cut_windows, reached_runs
    from kniffel.core.kernels.target import (
        Reading,
        TargetLevel,
        solve_target,
    )
    from kniffel.core.spans import reach_of, runs_of, trim_in_pieces

    limit = default_limit(c) if limit is None else limit
    root = empty_state(c) if root is None else root
    if high is not None and high >= limit:
        high = None  # every target up to the limit: rows as long as the open boxes pay
    if limit < 0:
        raise SituationError(f"a target table's limit is a number of points, got {limit}")
    root_level = level_of(root.mask)
    if horizon is not None and not root_level < horizon.level < len(c.levels) - 1:
        raise SituationError(
            f"a horizon at level {horizon.level} (boxes filled) is not between the root and the end"
        )
    # the sheets solved: up to the horizon's (an index of Yatzy's every lane is 26 MB, of those up to its
    # horizon 7 MB)
    full_layout = lane_layout(c, root.mask, None if horizon is None else horizon.level)
    index, sizes = windows(c, full_layout, limit, root, low, high)
    # a cone of some targets solves only those its states can be asked for; rows of every target, all
    asked = None if horizon is not None or high is None else reach_of(c, low, high)
    top = len(c.levels) - 1 if horizon is None else horizon.level
    kept = keep or (lambda level: most_filled is None or level <= most_filled)
    kt = c.kernel_tables
    starts = full_layout.level_start
    # the levels solved from a horizon's rows kept in a file are kept in files too, their pages let go
    # whenever the solve holds more than its allowance
    folder = horizon.folder if isinstance(horizon, HorizonRows) else None
    allowance = None if folder is None else Allowance()
    if horizon is None:  # the full sheet: only unused free throws are left to come
        below = _full_sheet(c, full_layout, index, int(sizes[top]), root.free)
    else:
        below = horizon.rows(full_layout, index, int(sizes[top]))
    below = trim_in_pieces(below, index, int(starts[top]), int(starts[top + 1]), allowance)
    arrays: list[F32 | None] = [None] * len(c.levels)
    arrays[top] = below if kept(top) else None
    items_by_level = [_items(c, full_layout, index, level, root) for level in range(root_level, top)]
    total = sum(len(items) for items in items_by_level)
    done = 0
    seconds = 0.0
    # compile or load the kernels now, so that the first piece of work is not the compiler's
    empty = np.zeros((0, 3), dtype=np.int64)
    scratch = np.zeros(1, dtype=np.float32)
    no_runs = np.zeros((0, 2), dtype=np.int64)
    nothing = TargetLevel(
        empty,
        np.zeros(1, dtype=np.int64),
        root.free,
        scratch,
        Reading(read_only(scratch), index, full_layout.lane_base),
        np.zeros(1, dtype=np.int64),
        no_runs,
    )
    solve_target(nothing, kt, 0, 0)
    if asked is not None:
        none = np.zeros(0, dtype=np.int64)
        reached_runs(asked, empty, no_runs, none, none, no_runs)
    cut_windows(empty, root.free, index, full_layout.lane_base, kt)
    if progress is not None:
        progress(0, total)
    for level in range(top - 1, root_level - 1, -1):
        check(cancel)
        begin = time.perf_counter()
        items = items_by_level[level - root_level]
        # the lanes past what any entry leaves a chance at are 0: the rows stop there
        _cut_windows(items, root.free, index, full_layout.lane_base, kt)
        a, b = int(starts[level]), int(starts[level + 1])
        counts = index[a:b, 2]
        index[a:b, 0] = np.cumsum(counts) - counts
        items, lanes = _with_lanes(c, full_layout, index, items, root)
        items, bounds, runs, widths = runs_of(c, root, asked, items, index[lanes, 1:])
        # targets no run holds are NaN: no question reads them (TargetRows.covers refuses them)
        size = int(counts.sum())
        prob = zeros(size, np.float32, folder) if asked is None else np.full(size, np.nan, dtype=np.float32)
        seconds += time.perf_counter() - begin
        for piece, bundles, tasks in _pieces(widths):
            check(cancel)
            begin = time.perf_counter()
            # read-only, as the option kernel reads stored rows: one compile of the entries for both
            read = Reading(read_only(below), index, full_layout.lane_base)
            own = bounds[piece.start : piece.stop + 1]
            work = TargetLevel(items[piece], bundles, root.free, prob, read, own, runs)
            run_between(tasks, partial(solve_target, work, kt))
            if allowance is not None:
                allowance.relieve()
            seconds += time.perf_counter() - begin
            done += piece.stop - piece.start
            if progress is not None:
                progress(done, total)
        begin = time.perf_counter()
        prob = trim_in_pieces(prob, index, a, b, allowance)
        seconds += time.perf_counter() - begin
        arrays[level] = prob if kept(level) else None
        below = prob
    for prob_level in arrays:
        if prob_level is not None:
            prob_level.flags.writeable = False
    if horizon is None and int(sizes.sum()) >= PACE_SAMPLE:  # what later estimates of a cone read
        remember(TARGET_ROWS, seconds, int(sizes.sum()))
    layout = full_layout if most_filled is None else lane_layout(c, root.mask, most_filled)
    if most_filled is not None:
        index = np.ascontiguousarray(sublayout_index(c, full_layout, layout, index.T).T)
        arrays = arrays[: most_filled + 1] + [None] * (len(arrays) - most_filled - 1)
    return TargetRows(
        c, limit, layout, index, tuple(arrays), root, low, limit if high is None else high, points_left(c),
        seconds, None if horizon is None else horizon.level, asked,
    )  # fmt: skip


@dataclass(frozen=True)
class Horizon:
    """Where rows stop being target play: from ``distributions.level`` boxes filled on, each state is
    played for points, so its row is the chance that its final-score distribution under optimal
    expected-score play gives. The rows before it are solved for the target as ever, over a fraction of
    the states (with six of Yahtzee's 13 boxes filled, a quarter of the probabilities), and each is a
    lower bound of the exact row: the chance of the target when the turns before the horizon are played
    for it and the rest for points."""

    distributions: LevelTable

    @property
    def level(self) -> int:
        return self.distributions.level

    def rows(self, layout: LaneLayout, index: I64, size: int) -> F32:
        """The level's rows in the windows of ``index`` (over ``layout``, the whole layout of the empty
        sheet, whose lanes the distributions count from the level's first): ``P(points to come >= u)``
        of each state's distribution."""
        from kniffel.core.kernels.target import survival_rows

        a, b = int(layout.level_start[self.level]), int(layout.level_start[self.level + 1])
        if layout.root != 0 or self.distributions.index.shape[1] != b - a:
            raise SituationError(
                "the distributions do not hold the horizon's sheets as the rows lay them out"
            )
        prob = np.zeros(size, dtype=np.float32)
        lanes = np.arange(a, b, dtype=np.int64)
        pmf, dist_index = self.distributions.pmf, self.distributions.index
        run_in_parts(
            b - a,
            lambda first, last: survival_rows(
                prob, index, lanes[first:last], lanes[first:last] - a, pmf, dist_index
            ),
        )
        return prob


class HorizonRows:
    """A horizon's rows worked out while the distributions of its level are built, piece by piece
    (:meth:`tap`, as :func:`kniffel.core.distribution.with_levels` hands them), so that the level's
    distributions (hundreds of megabytes) are never held whole: the rows :meth:`Horizon.rows` gives, in
    the windows of the early rows (every target up to the limit from the empty sheet). Read once, by
    the solve that starts from them (:meth:`rows`). Kept in a file beside the cache's tables, mapped
    (:func:`~kniffel.core.runtime.spill.zeros`), as are the levels that solve makes: Yatzy's rows of the
    horizon (133 MB) and of the level before it (73 MB) would otherwise be in a server's memory
    together, on top of what it holds; the pages read are let go as a build's are (:class:`Allowance`)."""

    def __init__(self, c: Compiled, level: int, directory: Path | None = None) -> None:
        layout = lane_layout(c, 0, level)  # the early rows' lanes up to the horizon, as they lay them out
        index, sizes = windows(c, layout, default_limit(c), empty_state(c), 1, None)
        self.level = level
        self.folder = spill_folder(directory)
        """Where the rows, and those of the levels the solve from them makes, are kept in files (None:
        in memory): beside the cache's tables."""
        self._first = int(layout.level_start[level])
        self._windows: I64 = np.ascontiguousarray(index[self._first : int(layout.level_start[level + 1])])
        self._prob: F32 = zeros(int(sizes[level]), np.float32, self.folder)

    def tap(self, level: int, first_lane: int, pmf: F64, dist_index: I64) -> None:
        """Take the rows of a piece of the distributions (:data:`kniffel.core.disttable.Tap`) if it is of
        the horizon's level."""
        from kniffel.core.kernels.target import survival_rows

        if level != self.level:
            return
        count = dist_index.shape[1]
        lanes = np.arange(first_lane - self._first, first_lane - self._first + count, dtype=np.int64)
        # of the kinds Horizon.rows hands the kernel (read-only distributions, contiguous index): one compile
        pieces, index = read_only(pmf), np.ascontiguousarray(dist_index)
        run_in_parts(
            count,
            lambda first, last: survival_rows(
                self._prob, self._windows, lanes[first:last], lanes[first:last] - lanes[0], pieces, index
            ),
        )

    def rows(self, layout: LaneLayout, index: I64, size: int) -> F32:
        """The level's rows in the windows of ``index`` (which must be those of the early rows), handed
        over: the solve lets them go once the level before is solved (a hundred-odd MB)."""
        a, b = int(layout.level_start[self.level]), int(layout.level_start[self.level + 1])
        prob = self._prob
        if layout.root != 0 or size != len(prob) or not np.array_equal(index[a:b], self._windows):
            raise SituationError("the horizon's rows were worked out for other windows, or handed over")
        self._prob = np.zeros(0, dtype=np.float32)
        return prob


def _full_sheet(c: Compiled, layout: LaneLayout, index: I64, size: int, free_top: int) -> F32:
    """The full sheet's probabilities: a target is made if the unused free throws pay for it."""
    prob = np.zeros(size, dtype=np.float32)
    full = c.full_mask
    for armed in range(mask_widths(c, full)[1]):
        for free in range(free_top + 1):
            if layout.lane_base[c.aux(armed, free), full] < 0:
                continue
            lane = int(layout.lane_base[c.aux(armed, free), full])
            offset, first, count = (int(x) for x in index[lane])
            u = np.arange(first, first + count)
            prob[offset : offset + count] = (u <= c.free_points * free).astype(np.float32)
    return prob


def _items(c: Compiled, layout: LaneLayout, index: I64, level: int, root: SheetState) -> I64:
    """The states ``(mask, armed, up)`` of one level whose rows are solved (free-throw levels together)."""
    masks = c.levels[level]
    mask, armed, i, up = _lanes_of(c, masks[masks & root.mask == root.mask])
    base = layout.lane_base[armed * c.n_free + root.free, mask]
    solved = np.flatnonzero(base >= 0)
    solved = solved[index[base[solved] + i[solved], 2] > 0]
    return np.ascontiguousarray(np.stack([mask[solved], armed[solved], up[solved]], axis=1), dtype=np.int64)


def _pieces(widths: I64) -> Iterator[tuple[slice, I64, I64]]:
    """The items of a level in pieces of about :data:`PIECE` (what one round of compiled calls solves, a
    fraction of a second), each with the starts of its bundles of at least :data:`BUNDLE`
    lanes (and the end) and the starts of its tasks, runs of bundles of at least :data:`TASK` lanes
    (and the end) that a thread solves in one call."""
    from kniffel.core.kernels.loop import bundle_starts
    from kniffel.core.kernels.target import BUNDLE

    for start in range(0, len(widths), PIECE):
        piece = widths[start : start + PIECE]
        bundles = bundle_starts(piece, BUNDLE)
        tasks = bundle_starts(np.add.reduceat(piece, bundles[:-1]), TASK)
        yield slice(start, start + len(piece)), bundles, tasks


def _cut_windows(items: I64, free_top: int, index: I64, lane_base: I64, kt: KernelTables) -> None:
    """:func:`cut_windows` of ``items``, a slice of them on each thread."""
    from kniffel.core.kernels.spans import cut_windows

    run_in_parts(
        len(items),
        lambda first, last: cut_windows(items[first:last], free_top, index, lane_base, kt),
    )


def _with_lanes(c: Compiled, layout: LaneLayout, index: I64, items: I64, root: SheetState) -> tuple[I64, I64]:
    """``items`` whose rows still hold a lane, and their lanes, in the order of the layout: a bundle
    then holds states of one sheet and its neighbours, which read the same children's rows (from the
    caches, not memory) and leave more boxes' entries out (:func:`open_pairs`). The widest
    first, as before, made Yahtzee's cone of 300 2-4 % slower; the threads take runs of bundles as
    they finish one, so they end a piece together either way."""
    if not len(items):
        return items, np.zeros(0, dtype=np.int64)
    masks, armed, ups = items[:, 0], items[:, 1], items[:, 2]
    width, _ = widths_of(c, masks)
    lanes = layout.lane_base[armed * c.n_free + root.free, masks] + np.clip(
        ups - lowest_ups(c, masks), 0, width - 1
    )
    solved = np.flatnonzero(index[lanes, 2] > 0)
    kept: I64 = items[solved]
    found: I64 = lanes[solved]
    return kept, found


__all__ = [
    "PIECE",
    "Horizon",
    "HorizonRows",
    "TargetRows",
    "can_reach",
    "default_limit",
    "empty_state",
    "points_left",
    "reached_lanes",
    "solve_rows",
    "windows",
]
