"""numba kernels of the dynamic programme: scoring, the keep lattice, one turn, one level of states.

Every array of values is laid out ``[..., lane]`` where a lane is one upper score (``lo + lane``), so the
inner loops run over contiguous memory and vectorise. The loops index the arrays directly instead of
taking row views: a view costs a reference-count update, which is slow and, shared between threads,
contended. The tables come from :class:`kniffel.solver.compile.Compiled`; the argument lists are long
because numba wants plain arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

NEG = -1.0e300


@njit(cache=True, nogil=True, inline="always")
def candidate(
    values: Any,
    aux: int,
    child: int,
    p: Any,
    extra: Any,
    is_upper: bool,
    lo: int,
    nl: int,
    threshold: int,
    upper_bonus: int,
    out: Any,
    row: int,
    col: int,
) -> None:  # pragma: no cover
    """``out[row, col + lane]``: points now (with the upper bonus if the score crosses the threshold) plus
    the value of state ``values[aux, child]`` at upper score ``lo + lane`` after scoring ``p`` in a box."""
    add = p + extra
    if is_upper:
        # lanes that stay below the threshold, those that cross it (bonus), those already above it
        cross = min(max(threshold - p - lo, 0), nl)
        above = min(max(threshold - lo, cross), nl)
        shift = lo + p
        for lane in range(cross):
            out[row, col + lane] = add + values[aux, child, shift + lane]
        top = add + upper_bonus + values[aux, child, threshold]
        for lane in range(cross, above):
            out[row, col + lane] = top
        top = add + values[aux, child, threshold]
        for lane in range(above, nl):
            out[row, col + lane] = top
    else:
        for lane in range(nl):
            out[row, col + lane] = add + values[aux, child, lo + lane]


@njit(cache=True, nogil=True)
def score_segments(
    seg_mask: Any,
    seg_armed: Any,
    seg_lo: Any,
    seg_nl: Any,
    free: int,
    out: Any,
    values: Any,
    base: Any,
    upper: Any,
    allowed: Any,
    alike: Any,
    five: int,
    track: bool,
    n_free: int,
    joker: bool,
    jpts: Any,
    jbonus: Any,
    threshold: int,
    upper_bonus: int,
    pair_box: Any,
    pair_pts: Any,
    nonzero: Any,
) -> None:  # pragma: no cover
    """``out[s, roll, lane]``: the best points-now-plus-future of entering each roll (thrown at once or
    not) with ``free`` free throws left, for several states side by side: segment ``i`` is state
    ``seg_mask[i]`` / ``seg_armed[i]`` at upper scores ``seg_lo[i] ..`` in the next ``seg_nl[i]`` lanes.

    Any box a roll may be entered in may be struck instead, so the best 0-point entry ``dump`` is an
    option for every roll, and only the boxes where a roll scores points need a look of their own: the
    candidates of every distinct ``(box, points)`` pair are computed once, not once per roll, and laid out
    over all lanes (NEG where the segment's box is filled), so that a roll takes one pass over all lanes
    per pair instead of one per segment."""
    n_s, n_rolls, n_boxes = base.shape
    n_pairs = pair_box.shape[0]
    width = out.shape[2]
    dump = np.full(width, NEG)
    cand = np.empty((n_pairs + 1, width))
    off = 0
    for i in range(seg_mask.shape[0]):
        mask, armed, lo, nl = seg_mask[i], seg_armed[i], seg_lo[i], seg_nl[i]
        allow = allowed[mask]
        aux = armed * n_free + free
        for b in range(n_boxes):
            if (allow >> b) & 1 == 0:
                continue
            a0 = free if track and b == five else aux
            child = mask | (1 << b)
            for lane in range(nl):
                v = values[a0, child, lo + lane]
                dump[off + lane] = v if v > dump[off + lane] else dump[off + lane]
        for j in range(n_pairs):
            b = pair_box[j]
            if (allow >> b) & 1 == 0:
                for lane in range(nl):
                    cand[j, off + lane] = NEG
                continue
            p = np.int64(pair_pts[j])
            a2 = (1 if p > 0 else 0) if track and b == five else armed
            candidate(
                values, a2 * n_free + free, mask | (1 << b), p, 0, upper[b] == 1, lo, nl, threshold,
                upper_bonus, cand, j, off,
            )  # fmt: skip
        off += nl
    acc = np.empty(width)
    for s in range(n_s):
        for r in range(n_rolls):
            for lane in range(width):
                acc[lane] = dump[lane]
            for i in range(nonzero.shape[2]):
                j = nonzero[s, r, i]
                if j < 0:
                    break
                for lane in range(width):
                    x = cand[j, lane]
                    acc[lane] = x if x > acc[lane] else acc[lane]
            for lane in range(width):
                out[s, r, lane] = acc[lane]
    if not joker or five < 0:
        return
    # a further five of a kind where the five-of-a-kind box is filled: the extra rules decide
    off = 0
    for i in range(seg_mask.shape[0]):
        mask, armed, lo, nl = seg_mask[i], seg_armed[i], seg_lo[i], seg_nl[i]
        if (mask >> five) & 1 == 1:
            for s in range(n_s):
                for r in range(n_rolls):
                    face = alike[r]
                    if face < 0:
                        continue
                    for lane in range(nl):
                        out[s, r, off + lane] = NEG
                    extra = np.int64(jbonus[mask, armed, face])
                    for b in range(n_boxes):
                        p = np.int64(jpts[mask, armed, s, face, b])
                        if p < 0:
                            continue
                        candidate(
                            values, armed * n_free + free, mask | (1 << b), p, extra, upper[b] == 1, lo, nl,
                            threshold, upper_bonus, cand, n_pairs, off,
                        )  # fmt: skip
                        for lane in range(nl):
                            x = cand[n_pairs, off + lane]
                            y = out[s, r, off + lane]
                            out[s, r, off + lane] = x if x > y else y
        off += nl


@njit(cache=True, nogil=True)
def keep_expect(
    ev: Any, width: int, child: Any, first_roll: int, probs: Any, sharp: bool, at_once: Any
) -> None:  # pragma: no cover
    """``ev[keep]`` for every keep that is not a full roll: the expected value of throwing the dice it
    lacks, from the values of the rolls in ``ev[first_roll:]`` (one die at a time). With the sharp rule the
    empty keep throws all dice at once and takes its values from ``at_once[roll]`` instead."""
    sixth = 1.0 / 6.0
    for k in range(first_roll - 1, -1, -1):
        c0, c1, c2 = child[k, 0], child[k, 1], child[k, 2]
        c3, c4, c5 = child[k, 3], child[k, 4], child[k, 5]
        for lane in range(width):
            ev[k, lane] = (
                ev[c0, lane] + ev[c1, lane] + ev[c2, lane] + ev[c3, lane] + ev[c4, lane] + ev[c5, lane]
            ) * sixth
    if sharp:
        for lane in range(width):
            ev[0, lane] = 0.0
        for r in range(at_once.shape[0]):
            p = probs[r]
            for lane in range(width):
                ev[0, lane] += p * at_once[r, lane]


@njit(cache=True, nogil=True)
def keep_max(ev: Any, width: int, parent: Any, padded: Any) -> None:  # pragma: no cover
    """In place: ``ev[keep]`` becomes the best value over the keep and every sub-multiset of it (keeps
    come smallest first, so a keep's parents are final when it is reached)."""
    acc = np.empty(width)
    n_links = parent.shape[1]
    for k in range(1, ev.shape[0]):
        for lane in range(width):
            acc[lane] = ev[k, lane]
        for j in range(n_links):
            q = parent[k, j]
            if q < 0:
                break
            for lane in range(width):
                x = ev[q, lane]
                acc[lane] = x if x > acc[lane] else acc[lane]
        for lane in range(width):
            ev[k, lane] = acc[lane]


@njit(cache=True, nogil=True)
def roll_values(
    sv: Any,
    free: int,
    usable: int,
    stages: int,
    width: int,
    ev: Any,
    at_once: Any,
    child: Any,
    parent: Any,
    padded: Any,
    first_roll: int,
    probs: Any,
) -> None:  # pragma: no cover
    """The value of a roll just thrown, with ``stages`` regular throws left after it, ``free`` free throws
    left and ``usable`` of them allowed this turn: in ``ev[first_roll + roll]`` (and, with the sharp rule,
    ``at_once[roll]`` for a roll of all the dice at once). ``sv[free, at_once, roll]`` are the scoring
    values; ``ev`` is also the scratch space of the keep lattice."""
    n_s, n_rolls = sv.shape[1], sv.shape[2]
    sharp = n_s == 2
    start = free - usable
    for r in range(n_rolls):
        k = first_roll + r
        for lane in range(width):
            ev[k, lane] = sv[start, 0, r, lane]
        if sharp:
            for lane in range(width):
                at_once[r, lane] = sv[start, 1, r, lane]
    for step in range(usable + stages):
        level = start + step + 1 if step < usable else free
        keep_expect(ev, width, child, first_roll, probs, sharp, at_once)
        keep_max(ev, width, parent, padded)
        for r in range(n_rolls):
            k = first_roll + r
            if sharp:
                for lane in range(width):
                    x = sv[level, 1, r, lane]
                    at_once[r, lane] = x if x > ev[k, lane] else ev[k, lane]
            for lane in range(width):
                x = sv[level, 0, r, lane]
                ev[k, lane] = x if x > ev[k, lane] else ev[k, lane]


BUNDLE = 64
"""Masks are solved in bundles of at least this many lanes: the keep lattice does not care which mask
a lane belongs to, and a row of a few lanes costs nearly as much loop overhead as a row of many."""


@njit(cache=True, nogil=True)
def mask_lanes(mask: int, five: int, n_armed: int, lanes: Any, upper_mask: int) -> tuple[int, int, int]:
    """The first upper score computed for ``mask``, how many are, and the armed variants (lanes are
    ``armed * count + score - first``)."""
    if (mask & upper_mask) == upper_mask:
        lo, nl = 0, 1
    else:
        lo, nl = lanes[mask, 0], lanes[mask, 1] - lanes[mask, 0]
    na = n_armed if five >= 0 and (mask >> five) & 1 == 1 else 1
    return lo, nl, na


@njit(cache=True, nogil=True)
def solve_bundle(
    masks: Any,
    values: Any,
    base: Any,
    upper: Any,
    allowed: Any,
    alike: Any,
    five: int,
    n_armed: int,
    n_free: int,
    joker: bool,
    jpts: Any,
    jbonus: Any,
    threshold: int,
    upper_bonus: int,
    lanes: Any,
    upper_mask: int,
    rolls: int,
    per_turn: int,
    child: Any,
    parent: Any,
    padded: Any,
    first_roll: int,
    probs: Any,
    pair_box: Any,
    pair_pts: Any,
    nonzero: Any,
) -> None:  # pragma: no cover
    """Fill ``values[aux, mask, :]``, the expected points to come from the start of a turn, for every mask
    of ``masks``, every armed / free-throw variant and every upper score the mask can have. Only the
    upper scores ``lanes[mask, 0] .. lanes[mask, 1] - 1`` are computed: lower ones cannot reach the bonus
    any more, so they are all worth what the lowest computed one is (and with every upper box filled,
    every upper score is). The masks' lanes (armed variants included) share one keep lattice."""
    n_s, n_rolls, _ = base.shape
    sharp = n_s == 2
    track = n_armed == 2
    width = 0
    for i in range(masks.shape[0]):
        _, nl, na = mask_lanes(masks[i], five, n_armed, lanes, upper_mask)
        width += na * nl
    n_seg = 0
    for i in range(masks.shape[0]):
        _, _, na = mask_lanes(masks[i], five, n_armed, lanes, upper_mask)
        n_seg += na
    seg_mask = np.empty(n_seg, dtype=np.int64)
    seg_armed = np.empty(n_seg, dtype=np.int64)
    seg_lo = np.empty(n_seg, dtype=np.int64)
    seg_nl = np.empty(n_seg, dtype=np.int64)
    n_seg = 0
    for i in range(masks.shape[0]):
        lo, nl, na = mask_lanes(masks[i], five, n_armed, lanes, upper_mask)
        for a in range(na):
            seg_mask[n_seg], seg_armed[n_seg], seg_lo[n_seg], seg_nl[n_seg] = masks[i], a, lo, nl
            n_seg += 1
    sv = np.empty((n_free, n_s, n_rolls, width))
    for f in range(n_free):
        score_segments(
            seg_mask, seg_armed, seg_lo, seg_nl, f, sv[f], values, base, upper, allowed, alike, five, track,
            n_free, joker, jpts, jbonus, threshold, upper_bonus, pair_box, pair_pts, nonzero,
        )  # fmt: skip
    ev = np.empty((child.shape[0], width))
    at_once = np.empty((n_rolls if sharp else 1, width))
    total = np.empty(width)
    for f in range(n_free):
        roll_values(
            sv, f, min(per_turn, f), rolls - 1, width, ev, at_once, child, parent, padded, first_roll, probs
        )
        for lane in range(width):
            total[lane] = 0.0
        for r in range(n_rolls):
            p = probs[r]
            if sharp:
                for lane in range(width):
                    total[lane] += p * at_once[r, lane]
            else:
                k = first_roll + r
                for lane in range(width):
                    total[lane] += p * ev[k, lane]
        off = 0
        for i in range(masks.shape[0]):
            mask = masks[i]
            lo, nl, na = mask_lanes(mask, five, n_armed, lanes, upper_mask)
            for a in range(na):
                aux = a * n_free + f
                first = off + a * nl
                for lane in range(nl):
                    values[aux, mask, lo + lane] = total[first + lane]
                for lane in range(lo):
                    values[aux, mask, lane] = total[first]
                if (mask & upper_mask) == upper_mask:
                    for lane in range(1, values.shape[2]):
                        values[aux, mask, lane] = total[first]
            off += na * nl


@njit(cache=True, parallel=True)
def solve_level(
    masks: Any,
    values: Any,
    base: Any,
    upper: Any,
    allowed: Any,
    alike: Any,
    five: int,
    n_armed: int,
    n_free: int,
    joker: bool,
    jpts: Any,
    jbonus: Any,
    threshold: int,
    upper_bonus: int,
    lanes: Any,
    upper_mask: int,
    rolls: int,
    per_turn: int,
    child: Any,
    parent: Any,
    padded: Any,
    first_roll: int,
    probs: Any,
    pair_box: Any,
    pair_pts: Any,
    nonzero: Any,
) -> None:  # pragma: no cover
    """Every mask of one level (same number of filled boxes), in bundles of :data:`BUNDLE` lanes or more,
    in parallel."""
    starts = np.empty(masks.shape[0] + 1, dtype=np.int64)
    count = 0
    width = BUNDLE
    for i in range(masks.shape[0]):
        if width >= BUNDLE:
            starts[count] = i
            count += 1
            width = 0
        _, nl, na = mask_lanes(masks[i], five, n_armed, lanes, upper_mask)
        width += na * nl
    starts[count] = masks.shape[0]
    for b in prange(count):
        solve_bundle(
            masks[starts[b] : starts[b + 1]], values, base, upper, allowed, alike, five, n_armed, n_free,
            joker, jpts, jbonus, threshold, upper_bonus, lanes, upper_mask, rolls, per_turn, child, parent,
            padded, first_roll, probs, pair_box, pair_pts, nonzero,
        )  # fmt: skip
