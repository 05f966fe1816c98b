"""The compiled half of which targets a state's row of a cone holds (:mod:`kniffel.core.spans` says what
and why): :class:`Reach`, whether a state can be asked a target and its runs of asked targets, where a row
ends (:func:`cut_windows`) and the rows packed without their trailing zeros (:func:`trim_zeros`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.common import lane_at, scoring, settle
from kniffel.core.kernels.records import KernelTables, Scoring, borrowing
from kniffel.core.kernels.target import Window


class Reach(NamedTuple):
    """Which targets of a state games from a cone's root can ask for, given the root's targets ``low ..
    high``: a state's points gained since the root are its upper boxes' (known from its upper score
    where its lane holds one score: a state's *terms* ``(least, lower, extras)``, ``least`` -1 where it
    does not), some sum the other boxes it filled can hold (``sums``,
    :attr:`kniffel.core.tables.Compiled.lower_sums`, subset ``lower``), and up to ``extras`` extra
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
