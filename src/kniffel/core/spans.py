"""Which targets a state's row of a cone holds: where it ends, and which of its targets are solved.

A row ends where no entry leaves a chance at more (:func:`cut_windows`, before a level is solved) and at
its last probability that is not 0 (:func:`trim_zeros`, after). A cone of one target (or a few) solves
only the targets games from its root can ask for (:class:`Reach`), in runs, and answers only questions
about them. A state's points gained since the root are what its new upper boxes hold, a sum its other
new boxes can hold and the extra bonuses it can have earned; where its lane holds one upper score, the
first is known, and only the targets the root's targets less such a gain reach are asked. Yahtzee's
cone of 300 from the empty sheet: 43.6 of 49.7 million lanes, the cone 7 % sooner, every asked
probability the same to the last bit (``docs/explanation/kernels.md``, "What a cone solves").
"""

from __future__ import annotations

import numpy as np

from kniffel.base.arrays import F32, I64
from kniffel.core.kernels.spans import Reach, reached_runs, trim_zeros
from kniffel.core.lanes import lowest_ups
from kniffel.core.position import SheetState
from kniffel.core.runtime.spill import Allowance
from kniffel.core.runtime.work import run_in_parts
from kniffel.core.tables import Compiled

MERGE = 4
"""A cone solves the gaps of up to this many targets between a state's runs of asked targets too: a run
costs each of the state's entries a loop of its own (:func:`targetkernels.enter_runs`)."""

TRIM_PIECE = 4 << 20
"""Probabilities a level kept in a file is packed in at a time (:func:`trim_in_pieces`): 16 MB of
float32."""


def trim_in_pieces(prob: F32, index: I64, start: int, end: int, allowance: Allowance | None) -> F32:
    """:func:`trim_zeros` of the lanes ``start .. end - 1``, bit for bit, over about
    :data:`TRIM_PIECE` probabilities at a time, the mapped pages let go between them whenever the solve
    holds more than its ``allowance``: packing reads the whole level, and Yatzy's rows of the early
    rows' horizon, kept in a file, are 133 MB that one pass would put in the process's memory at once.
    Rows that lie in the order of their lanes (as the windows lay them out) are packed in place, a piece
    at a time towards the front of what the pieces before packed; others (or without an allowance) in
    one pass."""
    offsets, counts = index[start:end, 0], index[start:end, 2]
    held = counts > 0
    at, length = offsets[held], counts[held]
    in_order = len(at) == 0 or (at[0] >= 0 and bool(np.all(at[1:] >= at[:-1] + length[:-1])))
    if allowance is None or not in_order or end <= start:
        packed: F32 = trim_zeros(prob, index, start, end)
        return packed
    # the lanes of each piece: those whose rows end within the next TRIM_PIECE probabilities read
    reach = np.cumsum(counts)
    ends = np.searchsorted(reach, np.arange(TRIM_PIECE, int(reach[-1]), TRIM_PIECE), "right").tolist()
    done = 0
    for first, last in zip([0, *ends], [*ends, end - start], strict=True):
        lanes = slice(start + first, start + last)
        # packed to the front of what follows the pieces packed before: offsets counted from there
        index[lanes, 0] -= done
        packed_piece = trim_zeros(prob[done:], index, start + first, start + last)
        index[lanes, 0] += done
        done += len(packed_piece)
        allowance.relieve()
    return prob[:done]


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
