"""numba kernels of :mod:`kniffel.core.distribution`: one turn of the optimal policy as a Markov chain, and
the final-score distributions it leads to.

A turn's decisions are those of the compiled simulator (:mod:`kniffel.core.playkernels`): the same
scoring values and recorded entries (:func:`~kniffel.core.kernels.score_values`), the same keep values
(:func:`~kniffel.core.kernels.sweep`), the same comparisons (a keep replaces scoring only when strictly
better, the first best keep among the roll's sub-multisets in ascending order). Instead of drawing dice,
the probability of every keep and roll is pushed forward: a keep's mass goes a sixth to each keep one die
larger until the dice are full (the keep lattice's "add one die" link), each roll's mass to the keep the
policy holds or the entry it makes. What comes out is the turn's outcomes: the state after it and the
points it gained, with their probabilities.

A *lane* of the distribution table is one between-turn state ``(mask, armed, free, up)`` as the DP
computes it (upper scores below the mask's lowest computed one behave like it, and with every upper box
filled the upper score no longer matters); its distribution of points still to come is stored as a run of
probabilities from its lowest possible total (``first``) on (``length`` of them) at ``offset`` in one flat
array. The full sheet's lanes hold the worth of the unused free throws with probability 1.

Free-throw levels in a turn's tables are counted from ``start``, the free throws left after the turn if
every usable one is taken: local level ``k`` is ``start + k`` free throws left after the turn. That lets a
situation partway through the free throws (fewer usable than the rules allow a turn) reuse the sweep, which
takes every free throw left as usable.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from kniffel.core.compile import KernelTables
from kniffel.core.kernels import (
    best_keep,
    entry,
    lane_of,
    mask_lanes,
    mask_segments,
    scoring,
)
from kniffel.core.playkernels import turn_tables

# --- one turn ------------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def throw(held: Any, shown: Any, t: KernelTables, sharp: bool) -> None:  # pragma: no cover
    """Throw the dice each held keep lacks: ``shown[at_once, roll]`` receives the mass of ``held`` (which is
    emptied). The empty keep throws all dice at once (``at_once`` = 1 under the sharp rule)."""
    first, child, probs = t.first_roll, t.child, t.roll_probs
    for s in range(shown.shape[0]):
        for r in range(shown.shape[1]):
            shown[s, r] = 0.0
    m0 = held[0]
    held[0] = 0.0
    if m0 > 0.0:
        s0 = 1 if sharp else 0
        for r in range(probs.shape[0]):
            shown[s0, r] += m0 * probs[r]
    sixth = 1.0 / 6.0
    # keeps come smallest first, so a keep has received all its mass before it is thrown on
    for k in range(1, first):
        m = held[k]
        if m == 0.0:
            continue
        held[k] = 0.0
        m *= sixth
        for f in range(6):
            c = child[k, f]
            if c >= first:
                shown[0, c - first] += m
            else:
                held[c] += m


@njit(cache=True, nogil=True)
def push(
    sv: Any,
    choice: Any,
    table: Any,
    lane: int,
    usable: int,
    pos: int,
    held: Any,
    shown: Any,
    thrown: bool,
    t: KernelTables,
    pair_mass: Any,
    joker_mass: Any,
) -> None:  # pragma: no cover
    """Push a turn's probability through the policy of ``lane``'s tables (``turn_tables``). It starts
    as ``held`` keeps about to be thrown (``thrown`` false) or as ``shown`` rolls (``thrown`` true),
    ``pos`` throws left after that throw. The mass of each entry the policy makes is added to
    ``pair_mass[k, row]`` (a pair row of the scoring tables, or the strike row) or ``joker_mass[k, at_once,
    face, box]`` (a five of a kind the extra rules place), at local free-throw level ``k``."""
    subs = t.choices
    n_s, n_rolls = shown.shape[0], shown.shape[1]
    sharp = n_s == 2
    if not thrown:
        throw(held, shown, t, sharp)
    while True:
        level = pos if pos <= usable else usable
        again = False
        for s in range(n_s):
            for r in range(n_rolls):
                m = shown[s, r]
                if m == 0.0:
                    continue
                keep = -1
                if pos > 0:
                    _, keep = best_keep(table, pos - 1, subs, r, sv[level, s, r, lane], lane)
                if keep >= 0:
                    held[keep] += m
                    again = True
                    continue
                j = choice[level, s, r, lane]
                if j < 0:
                    joker_mass[level, s, t.alike[r], -1 - j] += m
                else:
                    pair_mass[level, j] += m
        if not again:
            break
        pos -= 1
        throw(held, shown, t, sharp)


@njit(cache=True, nogil=True)
def add_outcome(
    lanes: Any, gains: Any, probs: Any, count: int, lane: int, gain: int, p: float
) -> int:  # pragma: no cover
    """Add probability ``p`` of reaching ``lane`` with ``gain`` points to the first ``count`` outcomes
    (merged with an equal one); the new count."""
    for i in range(count):
        if lanes[i] == lane and gains[i] == gain:
            probs[i] += p
            return count
    lanes[count], gains[count], probs[count] = lane, gain, p
    return count + 1


@njit(cache=True, nogil=True)
def outcomes(
    pair_mass: Any,
    joker_mass: Any,
    strike_box: Any,
    lane: int,
    mask: int,
    armed: int,
    up: int,
    start: int,
    t: KernelTables,
    lane_base: Any,
    out_lane: Any,
    out_gain: Any,
    out_prob: Any,
) -> int:  # pragma: no cover
    """The entries of :func:`push` as ``(state after, points gained)`` outcomes of a turn in state
    ``mask`` / ``armed`` at upper score ``up``: ``out_lane[i]``, ``out_gain[i]`` (the entry's points, the
    extra bonus and the upper bonus where the score crosses the threshold) and ``out_prob[i]``; returns
    how many. The accumulators are emptied."""
    n = scoring(t)
    strike = t.pair_box.shape[0]
    count = 0
    for k in range(pair_mass.shape[0]):
        free = start + k
        for j in range(strike + 1):
            m = pair_mass[k, j]
            if m == 0.0:
                continue
            pair_mass[k, j] = 0.0
            if j == strike:
                box, p = strike_box[k, lane], 0
            else:
                box, p = t.pair_box[j], t.pair_pts[j]
            child, armed_after, up_after, crossed = entry(n, mask, armed, box, p, up)
            gain = p + (t.upper_bonus if crossed else 0)
            to = lane_of(t, lane_base, armed_after, free, child, up_after)
            count = add_outcome(out_lane, out_gain, out_prob, count, to, gain, m)
        for s in range(joker_mass.shape[1]):
            for face in range(6):
                for box in range(t.n_boxes):
                    m = joker_mass[k, s, face, box]
                    if m == 0.0:
                        continue
                    joker_mass[k, s, face, box] = 0.0
                    p = int(t.jpts[mask, armed, s, face, box])
                    extra = int(t.jbonus[mask, armed, face])
                    child, armed_after, up_after, crossed = entry(n, mask, armed, box, p, up)
                    gain = p + extra + (t.upper_bonus if crossed else 0)
                    to = lane_of(t, lane_base, armed_after, free, child, up_after)
                    count = add_outcome(out_lane, out_gain, out_prob, count, to, gain, m)
    return count


@njit(cache=True, nogil=True)
def scratch(t: KernelTables, usable: int) -> tuple[Any, Any, Any, Any]:  # pragma: no cover
    """Zeroed ``held``, ``shown``, ``pair_mass`` and ``joker_mass`` for :func:`push`."""
    n_s, n_rolls, _ = t.nonzero.shape
    held = np.zeros(t.child.shape[0])
    shown = np.zeros((n_s, n_rolls))
    pair_mass = np.zeros((usable + 1, t.pair_box.shape[0] + 1))
    joker_mass = np.zeros((usable + 1, n_s, 6, t.n_boxes))
    return held, shown, pair_mass, joker_mass


@njit(cache=True, nogil=True)
def max_outcomes(t: KernelTables, usable: int) -> int:  # pragma: no cover
    """The most outcomes one turn can have (one per scoring row and five-of-a-kind placement and level)."""
    n_s = t.nonzero.shape[0]
    return int((usable + 1) * (t.pair_box.shape[0] + 1 + n_s * 6 * t.n_boxes))


# --- the table, a level of masks at a time ---------------------------------------------------------------


@njit(cache=True, nogil=True)
def chunk_outcomes(
    masks: Any,
    starts: Any,
    values: Any,
    t: KernelTables,
    lane_base: Any,
    first_lane: int,
    out_count: Any,
    out_lane: Any,
    out_gain: Any,
    out_prob: Any,
    first: int,
    last: int,
) -> None:  # pragma: no cover
    """The turn outcomes of every lane (at every free-throw level) of the bundles of masks
    ``masks[starts[b] : starts[b + 1]]``, ``b`` from ``first`` to ``last - 1``, written at row ``lane -
    first_lane`` of the ``out_`` arrays (threads take different bundles at once:
    :func:`kniffel.core.work.run_parallel`)."""
    n = scoring(t)
    for b in range(first, last):
        segments, _ = mask_segments(masks[starts[b] : starts[b + 1]], n, t.lanes)
        n_seg = segments.shape[0]
        for fr in range(t.n_free):
            usable = min(t.per_turn, fr)
            start = fr - usable
            sv, strike_box, choice, table = turn_tables(segments, start, usable, values, t)
            held, shown, pair_mass, joker_mass = scratch(t, usable)
            positions = usable + t.rolls - 1
            col = 0
            for i in range(n_seg):
                mask, armed, lo, nl = segments[i, 0], segments[i, 1], segments[i, 2], segments[i, 3]
                base = lane_base[armed * t.n_free + fr, mask] - first_lane
                for lane in range(nl):
                    held[0] = 1.0
                    push(
                        sv, choice, table, col + lane, usable, positions, held, shown, False, t, pair_mass,
                        joker_mass,
                    )  # fmt: skip
                    row = base + lane
                    out_count[row] = outcomes(
                        pair_mass, joker_mass, strike_box, col + lane, mask, armed, lo + lane, start, t,
                        lane_base, out_lane[row], out_gain[row], out_prob[row],
                    )  # fmt: skip
                col += nl


@njit(cache=True, nogil=True)
def supports(
    out_count: Any, out_lane: Any, out_gain: Any, first: Any, length: Any, lows: Any, sizes: Any
) -> None:  # pragma: no cover
    """Before trimming: each lane's lowest total and how many totals its distribution spans."""
    for row in range(out_count.shape[0]):
        lo = 1 << 40
        hi = -(1 << 40)
        for i in range(out_count[row]):
            c = out_lane[row, i]
            a = out_gain[row, i] + first[c]
            lo = min(lo, a)
            hi = max(hi, a + length[c])
        lows[row] = lo
        sizes[row] = hi - lo


@njit(cache=True, nogil=True)
def combine(
    count: int,
    lanes: Any,
    gains: Any,
    probs: Any,
    pmf: Any,
    offset: Any,
    first: Any,
    length: Any,
    low: int,
    out: Any,
    at: int,
    size: int,
    tail: float,
) -> tuple[int, int]:  # pragma: no cover
    """``out[at : at + size]``: the distribution of points to come, from totals ``low`` on, of a turn with
    these outcomes followed by the distributions of the states they lead to; then trimmed (the probability
    ``tail`` at either end folded into the nearest kept total) and moved to start at ``at``. Returns the
    lowest kept total and how many are kept."""
    for i in range(size):
        out[at + i] = 0.0
    for o in range(count):
        c = lanes[o]
        p = probs[o]
        shift = at + gains[o] + first[c] - low
        src = offset[c]
        for i in range(length[c]):
            out[shift + i] += p * pmf[src + i]
    a, b = at, at + size - 1
    acc = 0.0
    while a < b and acc + out[a] < tail:
        acc += out[a]
        a += 1
    out[a] += acc
    acc = 0.0
    while b > a and acc + out[b] < tail:
        acc += out[b]
        b -= 1
    out[b] += acc
    kept = b - a + 1
    for i in range(kept):
        out[at + i] = out[a + i]
    return low + a - at, kept


@njit(cache=True, nogil=True)
def chunk_distributions(
    out_count: Any,
    out_lane: Any,
    out_gain: Any,
    out_prob: Any,
    pmf: Any,
    offset: Any,
    first: Any,
    length: Any,
    lows: Any,
    at: Any,
    sizes: Any,
    out: Any,
    new_first: Any,
    new_length: Any,
    tail: float,
    first_row: int,
    last_row: int,
) -> None:  # pragma: no cover
    """:func:`combine` for the lanes ``first_row .. last_row - 1`` of a chunk (threads take different
    lanes at once); each writes its own stretch of ``out``."""
    for row in range(first_row, last_row):
        f, k = combine(
            out_count[row], out_lane[row], out_gain[row], out_prob[row], pmf, offset, first, length,
            lows[row], out, at[row], sizes[row], tail,
        )  # fmt: skip
        new_first[row] = f
        new_length[row] = k


@njit(cache=True, nogil=True)
def compact(out: Any, at: Any, length: Any) -> int:  # pragma: no cover
    """Close the gaps trimming left between consecutive lanes' stretches of ``out`` (``at`` is updated);
    returns the total kept."""
    end = 0
    for row in range(at.shape[0]):
        src = at[row]
        for i in range(length[row]):
            out[end + i] = out[src + i]
        at[row] = end
        end += length[row]
    return end


# --- one situation ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def situation_outcomes(
    mask: int,
    armed: int,
    up: int,
    start: int,
    usable: int,
    values: Any,
    t: KernelTables,
    lane_base: Any,
    pos: int,
    keep: int,
    roll: int,
    at_once: int,
) -> tuple[Any, Any, Any]:  # pragma: no cover
    """The outcomes of the rest of a turn in state ``mask`` / ``armed`` at upper score ``up``, with
    ``usable`` free throws still to use and ``start`` left after them: from holding ``keep`` for a throw
    that leaves ``pos`` throws, or (``keep`` < 0) from roll ``roll`` showing with ``pos`` throws left.
    ``(lanes, gains, probabilities)``."""
    n = scoring(t)
    lo, _, _ = mask_lanes(mask, n, t.lanes)
    segments = np.empty((1, 4), dtype=np.int64)
    segments[0, 0], segments[0, 1], segments[0, 2], segments[0, 3] = mask, armed, max(up, lo), 1
    sv, strike_box, choice, table = turn_tables(segments, start, usable, values, t)
    held, shown, pair_mass, joker_mass = scratch(t, usable)
    if keep >= 0:
        held[keep] = 1.0
    else:
        shown[at_once, roll] = 1.0
    push(sv, choice, table, 0, usable, pos, held, shown, keep < 0, t, pair_mass, joker_mass)
    k = max_outcomes(t, usable)
    lanes = np.empty(k, dtype=np.int64)
    gains = np.empty(k, dtype=np.int64)
    probs = np.empty(k)
    count = outcomes(
        pair_mass, joker_mass, strike_box, 0, mask, armed, max(up, lo), start, t, lane_base, lanes, gains,
        probs,
    )  # fmt: skip
    return lanes[:count], gains[:count], probs[:count]


@njit(cache=True, nogil=True)
def situation_distribution(
    lanes: Any, gains: Any, probs: Any, pmf: Any, offset: Any, first: Any, length: Any
) -> tuple[int, Any]:  # pragma: no cover
    """The distribution of points to come after outcomes ``(lanes, gains, probs)``: its lowest total and
    the probabilities from there (untrimmed)."""
    lo = 1 << 40
    hi = -(1 << 40)
    for i in range(lanes.shape[0]):
        a = gains[i] + first[lanes[i]]
        lo = min(lo, a)
        hi = max(hi, a + length[lanes[i]])
    out = np.zeros(max(hi - lo, 0))
    for o in range(lanes.shape[0]):
        c = lanes[o]
        shift = gains[o] + first[c] - lo
        src = offset[c]
        for i in range(length[c]):
            out[shift + i] += probs[o] * pmf[src + i]
    return lo, out
