"""Which targets a state's row of a cone holds: where it ends, and which of its targets are solved.

A row ends where no entry leaves a chance at more (:func:`cut_windows`, before a level is solved) and at
its last probability that is not 0 (:func:`trim_zeros`, after). A cone of one target (or a few) solves
only the targets games from its root can ask for (:class:`Reach`), in runs, and answers only questions
about them. A state's points gained since the root are what its new upper boxes hold, a sum its other
new boxes can hold and the extra bonuses it can have earned; where its lane holds one upper score, the
first is known, and only the targets the root's targets less such a gain reach are asked. Yahtzee's
cone of 300 from the empty sheet: 43.6 of 49.7 million lanes, the cone 7 % sooner, every asked
probability the same to the last bit (``docs/performance.md``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.base.arrays import I64
from kniffel.core.compile import Compiled, KernelTables
from kniffel.core.kernels import lane_at, scoring, settle
from kniffel.core.lanes import lowest_ups
from kniffel.core.position import SheetState
from kniffel.core.records import Scoring, borrowing
from kniffel.core.targetkernels import Window
from kniffel.core.work import run_in_parts

MERGE = 4
"""A cone solves the gaps of up to this many targets between a state's runs of asked targets too: a run
costs each of the state's entries a loop of its own (:func:`targetkernels.enter_lanes`)."""


class Reach(NamedTuple):
    """Which targets of a state games from a cone's root can ask for, given the root's targets ``low ..
    high``: a state's points gained since the root are its upper boxes' (known from its upper score
    where its lane holds one score: a state's *terms* ``(least, lower, extras)``, ``least`` -1 where it
    does not), some sum the other boxes it filled can hold (``sums``,
    :attr:`kniffel.core.compile.Compiled.lower_sums`, subset ``lower``), and up to ``extras`` extra
    bonuses of ``extra`` points (-1: several amounts, not told apart). A superset of what games reach,
    closed under the entries of the rows' loop (:func:`terms_of` says why): a lane it holds reads only
    lanes it holds, so the lanes outside it need not be solved. Gaps of up to ``merge`` targets between
    runs are solved anyway (a run costs each entry's loop again; such a lane may read unsolved ones,
    and no question is answered from it)."""

    low: int
    high: int
    extra: int
    sums: Any
    merge: int


@njit(cache=True, nogil=True, inline="always")
def reached(reach: Reach, u: int, least: int, lower: int, extras: int) -> bool:  # pragma: no cover
    """Whether a state of terms ``(least, lower, extras)`` (:class:`Reach`) can be asked for target ``u``."""
    if least < 0 or reach.extra < 0:
        return True
    top = reach.sums.shape[1] - 2
    for k in range(extras + 1):
        gained = least + reach.extra * k
        lo, hi = max(reach.low - u - gained, 0), min(reach.high - u - gained, top)
        if lo <= hi and reach.sums[lower, hi + 1] > reach.sums[lower, lo]:
            return True
    return False


@borrowing
def reached_runs(
    reach: Reach, terms: Any, windows: Any, counts: Any, bounds: Any, runs: Any
) -> None:  # pragma: no cover
    """The runs of targets of each state (``terms[i]``, its window ``windows[i] = (first, count)``) that
    :func:`reached` holds, gaps of up to ``reach.merge`` joined: with ``runs`` empty, how many into
    ``counts[i]``; else the runs ``(first target, count)`` into ``runs[bounds[i] : bounds[i + 1]]``."""
    fill = runs.shape[0] > 0
    for i in range(terms.shape[0]):
        least, lower, extras = terms[i, 0], terms[i, 1], terms[i, 2]
        first, count = windows[i, 0], windows[i, 1]
        found = 0
        start = -1
        last = -1
        at = bounds[i]
        for u in range(first, first + count):
            if not reached(reach, u, least, lower, extras):
                continue
            if start >= 0 and u - last - 1 <= reach.merge:
                last = u
                continue
            if start >= 0:
                if fill:
                    runs[at + found, 0], runs[at + found, 1] = start, last - start + 1
                found += 1
            start, last = u, u
        if start >= 0:
            if fill:
                runs[at + found, 0], runs[at + found, 1] = start, last - start + 1
            found += 1
        counts[i] = found


@borrowing
def all_reached(
    reach: Reach, least: int, lower: int, extras: int, first: int, last: int
) -> bool:  # pragma: no cover
    """Whether :func:`reached` holds every target ``first .. last`` of a state of these terms."""
    for u in range(first, last + 1):  # noqa: SIM110 - compiled: a loop, not a generator
        if not reached(reach, u, least, lower, extras):
            return False
    return True


def reach_of(c: Compiled, low: int, high: int) -> Reach:
    """What a cone of the root's targets ``low .. high`` asks of its states (:class:`Reach`)."""
    extras = np.unique(c.jbonus[c.jbonus > 0]) if c.extra_most else np.zeros(0, dtype=np.int64)
    extra = int(extras[0]) if len(extras) == 1 else (0 if not len(extras) else -1)
    return Reach(low, high, extra, c.lower_sums, MERGE)


def terms_of(c: Compiled, root: SheetState, items: I64) -> I64:
    """Each state's terms of :class:`Reach`, ``(least, lower, extras)``: its upper boxes' points since
    the root where its lane holds one upper score (else -1: every target asked), the subset of the
    other boxes it filled since the root, and how many extra bonuses it can have earned (one a box
    filled after the five-of-a-kind box scored)."""
    masks, armed, ups = items[:, 0], items[:, 1], items[:, 2]
    lowest = lowest_ups(c, masks)
    i = ups - lowest
    full = masks & c.upper_mask == c.upper_mask
    # a lane holds one upper score below the threshold, but a sheet's first lane where scores lie below
    # it (from the root's own up: they cannot reach the bonus any more); the loop plays a lane of
    # several scores from one of them, and such lanes lead only into lanes of several scores (a first
    # lane into first lanes, the threshold's lane and a full upper section into the same), so they
    # are solved for every target
    exact = ~full & (ups < c.threshold) & ((i > 0) | (lowest <= root.up)) & (ups >= root.up)
    new = masks & ~root.mask
    filled = np.zeros(len(masks), dtype=np.int64)
    for b in range(c.n_boxes):
        filled += (new >> b) & 1
    five_new = (new >> c.five) & 1 if c.five >= 0 else np.zeros(len(masks), dtype=np.int64)
    extras = np.where(armed > 0, filled - five_new, 0)
    terms = np.stack([np.where(exact, ups - root.up, -1), c.lower_subsets(new), extras], axis=1)
    return np.ascontiguousarray(terms, dtype=np.int64)


def runs_of(
    c: Compiled, root: SheetState, asked: Reach | None, items: I64, windows: I64
) -> tuple[I64, I64, I64, I64]:
    """The runs of targets of ``items`` (their windows ``(first, count)``) that the cone solves: ``(items,
    bounds, runs, widths)``, state ``i``'s runs ``runs[bounds[i] : bounds[i + 1]]`` of ``widths[i]``
    lanes in all; every target of each window without ``asked``, else those games can ask for
    (:class:`Reach`; a state with none is left out)."""
    windows = np.ascontiguousarray(windows, dtype=np.int64)
    if asked is None or not len(items):
        bounds = np.arange(len(items) + 1, dtype=np.int64)
        return items, bounds, windows, windows[:, 1].copy()
    terms = terms_of(c, root, items)
    counts = np.zeros(len(items), dtype=np.int64)
    none = np.zeros((0, 2), dtype=np.int64)
    run_in_parts(
        len(items),
        lambda first, last: reached_runs(
            asked, terms[first:last], windows[first:last], counts[first:last], counts[first:last], none
        ),
    )
    kept = np.flatnonzero(counts > 0)
    items, terms, windows, counts = items[kept], terms[kept], windows[kept], counts[kept]
    bounds = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(counts, out=bounds[1:])
    runs = np.zeros((int(bounds[-1]), 2), dtype=np.int64)
    run_in_parts(
        len(items),
        lambda first, last: reached_runs(
            asked, terms[first:last], windows[first:last], counts[first:last], bounds[first:last], runs
        ),
    )
    widths = np.add.reduceat(runs[:, 1], bounds[:-1]) if len(items) else np.zeros(0, dtype=np.int64)
    return np.ascontiguousarray(items), bounds, runs, widths.astype(np.int64)


# --- windows cut to what can be nonzero ----------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _last_nonzero(
    index: Any, lane_base: Any, lanes: Any, n: Scoring, at: Window, box: int, points: int, extra: int
) -> int:  # pragma: no cover
    """The largest target an entry of ``points`` (``extra`` on top) in ``box`` from ``at`` leaves a
    chance at: past it the child's row is 0 (its stored row ends at its last nonzero probability)."""
    child, armed_after, up_after, gained, _ = settle(n, at.mask, at.armed, box, points, at.up, extra)
    lane = lane_at(lane_base, lanes, n, armed_after, at.free, child, up_after)
    return int(gained + index[lane, 1] + index[lane, 2] - 1)


@borrowing
def last_nonzero(
    index: Any, lane_base: Any, t: KernelTables, mask: int, armed: int, up: int, free_top: int
) -> int:  # pragma: no cover
    """The largest target that any entry of a turn in this state (at any free-throw level up to
    ``free_top``) leaves a chance at, from the children's rows as stored: past it the state's row is 0."""
    n = scoring(t)
    lanes = t.lanes
    allow = t.allowed[mask]
    best = 0
    joker = n.joker and n.five >= 0 and (mask >> n.five) & 1 == 1
    n_s = t.nonzero.shape[0]
    for f in range(free_top + 1):
        at = Window(mask, armed, up, f, 0, 0)
        for b in range(n.n_boxes):
            if (allow >> b) & 1 == 1:
                best = max(best, _last_nonzero(index, lane_base, lanes, n, at, b, 0, 0))
        for j in range(t.pair_box.shape[0]):
            b = t.pair_box[j]
            if (allow >> b) & 1 == 1:
                points = int(t.pair_pts[j])
                best = max(best, _last_nonzero(index, lane_base, lanes, n, at, b, points, 0))
        if joker:
            for face in range(6):
                extra = int(t.jbonus[mask, armed, face])
                for s in range(n_s):
                    for b in range(n.n_boxes):
                        p = int(t.jpts[mask, armed, s, face, b])
                        if p >= 0:
                            best = max(
                                best,
                                _last_nonzero(index, lane_base, lanes, n, at, b, p, extra),
                            )
    return best


@borrowing
def cut_windows(
    items: Any, free_top: int, index: Any, lane_base: Any, t: KernelTables
) -> None:  # pragma: no cover
    """Shorten the windows of the states ``items[i] = (mask, armed, up)`` (every free-throw level) to
    :func:`last_nonzero`: the lanes past it are 0 without solving them."""
    n = scoring(t)
    for i in range(items.shape[0]):
        mask, armed, up = items[i, 0], items[i, 1], items[i, 2]
        last = last_nonzero(index, lane_base, t, mask, armed, up, free_top)
        for f in range(free_top + 1):
            lane = lane_at(lane_base, t.lanes, n, armed, f, mask, up)
            first, count = index[lane, 1], index[lane, 2]
            if count > 0 and first + count - 1 > last:
                index[lane, 2] = max(0, last - first + 1)


@njit(cache=True, nogil=True)
def trim_zeros(prob: Any, index: Any, start: int, end: int) -> Any:  # pragma: no cover
    """The rows of lanes ``start .. end - 1`` (one level, in ``prob``) without their trailing zeros,
    packed one after the other; ``index`` is updated (a row past its end reads 0). Where the rows lie in
    the order of their lanes (as the windows lay them out), they are packed in place, towards the front
    of ``prob``, and the front is returned: a level is hundreds of MB, and new memory comes slowly on
    some systems; else into a new array."""
    in_order = True
    past = 0
    for lane in range(start, end):
        offset, count = index[lane, 0], index[lane, 2]
        if count > 0:
            in_order = in_order and offset >= past
            past = offset + count
    out = prob
    if not in_order:
        total = 0
        for lane in range(start, end):
            total += index[lane, 2]
        out = np.empty(total, dtype=prob.dtype)
    at = 0
    for lane in range(start, end):
        offset, count = index[lane, 0], index[lane, 2]
        # a row ends at its last probability that is not 0 (nor a target left unsolved, NaN)
        while count > 0 and (prob[offset + count - 1] == 0.0 or np.isnan(prob[offset + count - 1])):
            count -= 1
        # a row moves only towards the front, past the rows already packed: copied forwards in place
        row, into = prob[offset : offset + count], out[at : at + count]
        for i in range(count):
            into[i] = row[i]
        index[lane, 0], index[lane, 2] = at, count
        at += count
    return out[:at]


__all__ = [
    "MERGE",
    "Reach",
    "all_reached",
    "cut_windows",
    "last_nonzero",
    "reach_of",
    "reached",
    "reached_runs",
    "runs_of",
    "terms_of",
    "trim_zeros",
]
