"""numba kernels of :mod:`kniffel.core.distribution`: one turn of the optimal policy as a Markov chain, and
the final-score distributions it leads to.

A turn's decisions are those of the compiled simulator (:mod:`kniffel.core.kernels.play`): the same
scoring values and recorded entries (:func:`~kniffel.core.kernels.common.score_values`), the same keep values
(:func:`~kniffel.core.kernels.common.sweep`), the same comparisons (a keep replaces scoring only when strictly
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

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.common import lane_of, mask_lanes, mask_segments, scoring, settle, zero_of
from kniffel.core.kernels.play import turn_tables
from kniffel.core.kernels.records import KernelTables, borrowing


class TurnState(NamedTuple):
    """The state a turn starts from: the filled boxes, whether the five-of-a-kind box is armed, the upper
    score, and ``start``, the free throws left after the turn if every usable one is taken."""

    mask: int
    armed: int
    up: int
    start: int


class TurnPolicy(NamedTuple):
    """The tables that decide a turn (:func:`~kniffel.core.kernels.play.turn_tables`): the scoring values
    ``sv``, the strike's box ``strike_box``, the entry each roll would make ``choice`` and the keep values
    ``table``, each with a column per lane."""

    sv: Any
    strike_box: Any
    choice: Any
    table: Any


class TurnMass(NamedTuple):
    """Where the probability of a few lanes' turns is while :func:`push` moves it, a column per lane (the
    last axis): on ``held`` keeps about to be thrown, on ``shown`` rolls ``[at_once, roll]``, or in the
    entries made, ``pairs[k, row]`` (a pair row of the scoring tables, or the strike row) and ``jokers[k,
    at_once, face, box]`` (a five of a kind the extra rules place), at local free-throw level ``k``;
    ``sink`` is one flat array behind ``held``, ``pairs`` and ``jokers``, in that order; ``best`` and
    ``keeps`` are the lanes' best keep of one roll and its value (:func:`best_keeps`)."""

    held: Any
    shown: Any
    pairs: Any
    jokers: Any
    sink: Any
    best: Any
    keeps: Any


class Outcomes(NamedTuple):
    """Turn outcomes by row: ``count[row]`` of them, the ``i``-th reaching lane ``lane[row, i]`` with
    ``gain[row, i]`` points, with probability ``prob[row, i]``."""

    count: Any
    lane: Any
    gain: Any
    prob: Any


class Distributions(NamedTuple):
    """Distributions stored one after the other: lane ``c``'s probabilities are ``pmf[offset[c] :
    offset[c] + length[c]]``, of the totals ``first[c]`` on."""

    pmf: Any
    offset: Any
    first: Any
    length: Any


class Spans(NamedTuple):
    """The totals each row's distribution spans before it is trimmed: ``size[row]`` of them from
    ``low[row]`` on."""

    low: Any
    size: Any


LANES = 128
"""The lanes whose turns :func:`push` moves side by side. Their masses take about 650 KB for Yahtzee, so
the keep values they read come from the L2; measured from 16 to 256 lanes, 128 was fastest (fewer lanes
pay each roll's loop overhead more often)."""


# --- one turn ------------------------------------------------------------------------------------------


@borrowing
def throw(mass: TurnMass, t: KernelTables) -> None:  # pragma: no cover
    """Throw the dice each held keep lacks, in every lane: ``mass.shown[at_once, roll]`` receives the mass
    of ``mass.held`` (which is emptied). The empty keep throws all dice at once (``at_once`` = 1 under the
    sharp rule)."""
    held, shown = mass.held, mass.shown
    sharp = shown.shape[0] == 2
    first, child, probs = t.first_roll, t.child, t.roll_probs
    n = held.shape[1]
    # the empty keep's mass sets every roll of its throw, so only the other rows start from 0
    if sharp:
        shown[0] = 0.0
    into = shown[1 if sharp else 0]
    m0 = held[0]
    for r in range(probs.shape[0]):
        p = probs[r]
        row = into[r]
        for i in range(n):
            row[i] = m0[i] * p
    m0[:] = 0.0
    sixth = 1.0 / 6.0
    # keeps come smallest first, so a keep has received all its mass before it is thrown on
    for k in range(1, first):
        m = held[k]
        for f in range(6):
            c = child[k, f]
            row = shown[0, c - first] if c >= first else held[c]
            for i in range(n):
                row[i] += m[i] * sixth
        m[:] = 0.0


@njit(cache=True, nogil=True, inline="always")
def best_keeps(
    table: Any, col: int, subs: Any, r: int, scored: Any, mass: TurnMass
) -> None:  # pragma: no cover
    """:func:`~.common.best_keep` in every lane at once, with the same comparisons in the same
    order: ``mass.keeps[i]`` is the keep to hold with roll ``r`` showing (-1: score it, whose value
    ``scored[i]`` is) and ``mass.best[i]`` its value; ``table[keep, col + i]`` the lanes' keep values.
    One lane at a time, this search took four fifths of the distributions' turns (Yahtzee, 14.7 of
    18 us a lane with seven boxes filled)."""
    best, keeps = mass.best, mass.keeps
    n = best.shape[0]
    for i in range(n):
        best[i] = scored[i]
        keeps[i] = -1
    for j in range(subs.shape[1]):
        q = subs[r, j]
        if q < 0:
            break
        values = table[q, col : col + n]
        for i in range(n):
            v, b = values[i], best[i]
            keeps[i] = q if v > b else keeps[i]
            best[i] = max(v, b)


@borrowing
def push(
    policy: TurnPolicy, col: int, usable: int, pos: int, mass: TurnMass, t: KernelTables
) -> None:  # pragma: no cover
    """Push the turns' probability through the ``policy`` of the lanes ``col .. col + n - 1`` (``n``, the
    lanes ``mass`` holds), from the rolls ``mass.shown`` with ``pos`` throws left, to the entries the
    policy makes (``mass.pairs``, ``mass.jokers``)."""
    sv, choice, table = policy.sv, policy.choice, policy.table
    shown, sink, keeps = mass.shown, mass.sink, mass.keeps
    subs = t.choices
    n_s, n_rolls, n = shown.shape
    # where each entry's mass goes in ``sink``, so that a lane's mass is added without a branch: which of
    # keep, pair and five of a kind a lane takes is as good as random to the processor
    pairs_at = mass.held.size
    n_pairs = mass.pairs.shape[1]
    jokers_at = pairs_at + mass.pairs.size
    n_boxes = mass.jokers.shape[3]
    while True:
        level = pos if pos <= usable else usable
        again = False
        for s in range(n_s):
            for r in range(n_rolls):
                m = shown[s, r]
                # skip a roll no lane shows (dice thrown at once, which most throws are not; a turn
                # taken up mid-way, which shows one roll)
                live = False
                for i in range(n):
                    live = live | (m[i] != 0.0)
                if not live:
                    continue
                if pos > 0:
                    best_keeps(table[pos - 1], col, subs, r, sv[level, s, r, col : col + n], mass)
                else:
                    keeps[:] = -1
                entries = choice[level, s, r, col : col + n]
                pair_row = pairs_at + level * n_pairs * n
                joker_row = jokers_at + ((level * n_s + s) * 6 + t.alike[r]) * n_boxes * n - n
                for i in range(n):
                    x, keep, j = m[i], keeps[i], entries[i]
                    entered = joker_row - j * n + i if j < 0 else pair_row + j * n + i
                    sink[keep * n + i if keep >= 0 else entered] += x
                    again = again | ((keep >= 0) & (x != 0.0))
        if not again:
            break
        pos -= 1
        throw(mass, t)


@borrowing
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


@borrowing
def outcomes(
    mass: TurnMass,
    i: int,
    policy: TurnPolicy,
    lane: int,
    state: TurnState,
    t: KernelTables,
    lane_base: Any,
    out: Outcomes,
    row: int,
) -> None:  # pragma: no cover
    """The entries of :func:`push` in column ``i`` of ``mass``, through the ``policy`` of ``lane``, as the
    outcomes of a turn from ``state``, in row ``row`` of ``out``: the state after each and the points it
    gained (the entry's points, the extra bonus and the upper bonus where the score crosses the
    threshold), with their probabilities. The column's accumulators in ``mass`` are emptied."""
    pair_mass, joker_mass, strike_box = mass.pairs, mass.jokers, policy.strike_box
    mask, armed, up = state.mask, state.armed, state.up
    out_lane, out_gain, out_prob = out.lane[row], out.gain[row], out.prob[row]
    n = scoring(t)
    strike = t.pair_box.shape[0]
    count = zero_of(out_lane)
    for k in range(pair_mass.shape[0]):
        free = state.start + k
        for j in range(strike + 1):
            m = pair_mass[k, j, i]
            if m == 0.0:
                continue
            pair_mass[k, j, i] = 0.0
            if j == strike:
                box, p = strike_box[k, lane], 0
            else:
                box, p = t.pair_box[j], t.pair_pts[j]
            child, armed_after, up_after, gain, _ = settle(n, mask, armed, box, p, up, 0)
            to = lane_of(t, lane_base, armed_after, free, child, up_after)
            count = add_outcome(out_lane, out_gain, out_prob, count, to, gain, m)
        for s in range(joker_mass.shape[1]):
            for face in range(6):
                for box in range(t.n_boxes):
                    m = joker_mass[k, s, face, box, i]
                    if m == 0.0:
                        continue
                    joker_mass[k, s, face, box, i] = 0.0
                    p = int(t.jpts[mask, armed, s, face, box])
                    extra = int(t.jbonus[mask, armed, face])
                    child, armed_after, up_after, gain, _ = settle(n, mask, armed, box, p, up, extra)
                    to = lane_of(t, lane_base, armed_after, free, child, up_after)
                    count = add_outcome(out_lane, out_gain, out_prob, count, to, gain, m)
    out.count[row] = count


@njit(cache=True, nogil=True)
def scratch(t: KernelTables, usable: int, lanes: int) -> TurnMass:  # pragma: no cover
    """The probability of ``lanes`` turns nowhere yet, for :func:`push`."""
    n_s, n_rolls, _ = t.nonzero.shape
    n_held = t.first_roll * lanes  # keeps, not full rolls: a full roll is shown, never held
    n_pairs = (usable + 1) * (t.pair_box.shape[0] + 1) * lanes
    n_jokers = (usable + 1) * n_s * 6 * t.n_boxes * lanes
    sink = np.zeros(n_held + n_pairs + n_jokers)
    held = sink[:n_held].reshape((t.first_roll, lanes))
    pair_mass = sink[n_held : n_held + n_pairs].reshape((usable + 1, t.pair_box.shape[0] + 1, lanes))
    joker_mass = sink[n_held + n_pairs :].reshape((usable + 1, n_s, 6, t.n_boxes, lanes))
    shown = np.zeros((n_s, n_rolls, lanes))
    best, keeps = np.empty(lanes), np.empty(lanes, dtype=np.int64)
    return TurnMass(held, shown, pair_mass, joker_mass, sink, best, keeps)


@borrowing
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
    out: Outcomes,
    first: int,
    last: int,
) -> None:  # pragma: no cover
    """The turn outcomes of every lane (at every free-throw level) of the bundles of masks
    ``masks[starts[b] : starts[b + 1]]``, ``b`` from ``first`` to ``last - 1``, in row ``lane -
    first_lane`` of ``out`` (threads take different bundles at once:
    :func:`kniffel.core.runtime.work.run_parallel`)."""
    n = scoring(t)
    for b in range(first, last):
        segments, width = mask_segments(masks[starts[b] : starts[b + 1]], n, t.lanes)
        # each column's state: mask, armed, upper score, and its place among its mask's lanes
        states = np.empty((width, 4), dtype=np.int64)
        col = 0
        for i in range(segments.shape[0]):
            mask, armed, lo, nl = segments[i, 0], segments[i, 1], segments[i, 2], segments[i, 3]
            for lane in range(nl):
                states[col + lane, 0], states[col + lane, 1] = mask, armed
                states[col + lane, 2], states[col + lane, 3] = lo + lane, lane
            col += nl
        for fr in range(t.n_free):
            usable = min(t.per_turn, fr)
            start = fr - usable
            sv, strike_box, choice, table = turn_tables(segments, start, usable, values, t)
            policy = TurnPolicy(sv, strike_box, choice, table)
            positions = usable + t.rolls - 1
            mass = scratch(t, usable, min(LANES, width))
            for col in range(0, width, LANES):
                if width - col < mass.held.shape[1]:
                    mass = scratch(t, usable, width - col)
                mass.held[0, :] = 1.0
                throw(mass, t)
                push(policy, col, usable, positions, mass, t)
                for i in range(mass.held.shape[1]):
                    mask, armed, up, lane = (
                        states[col + i, 0],
                        states[col + i, 1],
                        states[col + i, 2],
                        states[col + i, 3],
                    )
                    row = lane_base[armed * t.n_free + fr, mask] + lane - first_lane
                    outcomes(
                        mass, i, policy, col + i, TurnState(mask, armed, up, start), t, lane_base, out, row
                    )


@njit(cache=True, nogil=True, inline="always")
def span(lanes: Any, gains: Any, count: int, first: Any, length: Any) -> tuple[int, int]:  # pragma: no cover
    """The totals ``lo .. hi - 1`` that the first ``count`` outcomes ``(lanes, gains)`` can lead to,
    their children's distributions ``(first, length)`` shifted by the points gained."""
    lo = 1 << 40
    hi = -(1 << 40)
    for i in range(count):
        c = lanes[i]
        a = gains[i] + first[c]
        lo = min(lo, a)
        hi = max(hi, a + length[c])
    return lo, hi


@njit(cache=True, nogil=True, inline="always")
def add_outcomes(
    out: Any,
    low: int,
    lanes: Any,
    gains: Any,
    probs: Any,
    count: int,
    children: Any,
    offset: Any,
    first: Any,
    length: Any,
) -> None:  # pragma: no cover
    """``out[i]``, the chance of ``low + i`` points to come, gains each of the first ``count`` outcomes
    ``(lanes, gains, probs)``: its probability times its child's distribution (in ``children`` at
    ``offset``, from ``first``, ``length`` long), shifted by the points gained. Over slices indexed from
    0: ``out[shift + i] += p * children[src + i]`` went one total at a time (numba wraps a negative index
    around, so the compiler could not load them as vectors)."""
    for o in range(count):
        c = lanes[o]
        shift = gains[o] + first[c] - low
        into, child = out[shift : shift + length[c]], children[offset[c] : offset[c] + length[c]]
        p = probs[o]
        for i in range(length[c]):
            into[i] += p * child[i]


@borrowing
def supports(found: Outcomes, children: Distributions, spans: Spans) -> None:  # pragma: no cover
    """Before trimming: the totals each row's distribution spans, after the outcomes ``found`` that lead
    to the ``children``."""
    for row in range(found.count.shape[0]):
        lo, hi = span(found.lane[row], found.gain[row], found.count[row], children.first, children.length)
        spans.low[row] = lo
        spans.size[row] = hi - lo


@borrowing
def combine(
    found: Outcomes, row: int, children: Distributions, spans: Spans, made: Distributions, tail: float
) -> None:  # pragma: no cover
    """Row ``row``'s distribution of points to come: a turn with the outcomes ``found`` followed by the
    distributions of the ``children`` they lead to, over its ``spans``; then trimmed (the probability
    ``tail`` at either end folded into the nearest kept total) and stored in ``made`` at the offset it
    holds for the row, which the untrimmed distribution fills (the rest of it zeros)."""
    pmf, offset, first, length = children.pmf, children.offset, children.first, children.length
    lanes, gains, probs = found.lane[row], found.gain[row], found.prob[row]
    out, at, low, size = made.pmf, made.offset[row], spans.low[row], spans.size[row]
    whole = out[at : at + size]
    for i in range(size):
        whole[i] = 0.0
    add_outcomes(whole, low, lanes, gains, probs, found.count[row], pmf, offset, first, length)
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
    # what trimming freed stays a gap of zeros after the row (a fifth of a percent of Yahtzee's
    # probabilities): closing the gaps moved every probability of a level once more, on one thread
    for i in range(kept, size):
        out[at + i] = 0.0
    made.first[row] = low + a - at
    made.length[row] = kept


@borrowing
def chunk_distributions(
    found: Outcomes,
    children: Distributions,
    spans: Spans,
    made: Distributions,
    tail: float,
    first_row: int,
    last_row: int,
) -> None:  # pragma: no cover
    """:func:`combine` for the rows ``first_row .. last_row - 1`` of a chunk (threads take different
    rows at once); each writes its own stretch of ``made.pmf``."""
    for row in range(first_row, last_row):
        combine(found, row, children, spans, made, tail)


# --- one situation ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def situation_outcomes(
    state: TurnState,
    usable: int,
    values: Any,
    t: KernelTables,
    lane_base: Any,
    pos: int,
    keep: int,
    roll: int,
    at_once: int,
) -> tuple[Any, Any, Any]:  # pragma: no cover
    """The outcomes of the rest of a turn from ``state``, with ``usable`` free throws still to use: from
    holding ``keep`` for a throw that leaves ``pos`` throws, or (``keep`` < 0) from roll ``roll`` showing
    with ``pos`` throws left. ``(lanes, gains, probabilities)``."""
    n = scoring(t)
    mask, armed = state.mask, state.armed
    lo, _, _ = mask_lanes(mask, n, t.lanes)
    up = max(state.up, lo)
    segments = np.empty((1, 4), dtype=np.int64)
    segments[0, 0], segments[0, 1], segments[0, 2], segments[0, 3] = mask, armed, up, 1
    sv, strike_box, choice, table = turn_tables(segments, state.start, usable, values, t)
    policy = TurnPolicy(sv, strike_box, choice, table)
    mass = scratch(t, usable, 1)
    if keep >= 0:
        mass.held[keep, 0] = 1.0
        throw(mass, t)
    else:
        mass.shown[at_once, roll, 0] = 1.0
    col = zero_of(segments)  # the one lane's column and row, compiled as the table's are
    push(policy, col, usable, pos, mass, t)
    k = max_outcomes(t, usable)
    found = Outcomes(
        np.zeros(1, dtype=np.int64), np.empty((1, k), dtype=np.int64), np.empty((1, k), dtype=np.int64),
        np.empty((1, k)),
    )  # fmt: skip
    outcomes(mass, col, policy, col, TurnState(mask, armed, up, state.start), t, lane_base, found, col)
    count = found.count[0]
    return found.lane[0, :count], found.gain[0, :count], found.prob[0, :count]


@njit(cache=True, nogil=True)
def situation_distribution(
    lanes: Any, gains: Any, probs: Any, pmf: Any, offset: Any, first: Any, length: Any
) -> tuple[int, Any]:  # pragma: no cover
    """The distribution of points to come after outcomes ``(lanes, gains, probs)``: its lowest total and
    the probabilities from there (untrimmed). The stored distributions come as arrays, not as
    :class:`Distributions`: this is asked once per option of a position from Python, where building a
    record and numba's typing of it cost about a microsecond a call."""
    lo, hi = span(lanes, gains, lanes.shape[0], first, length)
    out = np.zeros(max(hi - lo, 0))
    add_outcomes(out, lo, lanes, gains, probs, lanes.shape[0], pmf, offset, first, length)
    return lo, out
