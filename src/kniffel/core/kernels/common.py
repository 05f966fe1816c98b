"""numba kernels of the solver: entering points in a box, the best entry of each roll, the sweep over the
keep lattice, and the dynamic programme built from them; the optimal games of
:mod:`kniffel.core.kernels.play` and the advisor (:data:`kniffel.core.kernels.points.points_options`) use the
same pieces.

Every array of values is laid out ``[..., lane]`` where a lane is one upper score of some state (``lo +
lane``), so the inner loops run over contiguous memory and vectorise. The loops index the arrays directly
instead of taking row views: a view costs a reference-count update, which is slow and, shared between
threads, contended. The rule set's tables come as one :class:`~kniffel.core.kernels.records.KernelTables`
(``t``), passed to the kernels that do a bundle's worth of work per call; the small helpers called in
their loops take the numbers they need as a :class:`Scoring` and the arrays they read.

The DP itself is the one level loop of :mod:`kniffel.core.kernels.loop` (``solve_points``);
:class:`kniffel.core.kernels.points.PointsLevel` is its expected-points objective. ``score_values`` and
``sweep_from`` are inlined into it: numba links a compiled callee into every caller and optimises it again
there, so each level of calls made the first run a few seconds longer. The small helpers stay separate
(inlining them made it longer still; on a first run :mod:`kniffel.core.runtime.precompile` compiles them in a
second process).

A *segment* is one state's run of lanes: a row ``(mask, armed, lo, nl)`` of a ``segments`` array is state
``mask`` / ``armed`` at the upper scores ``lo .. lo + nl - 1``, and the segments' lanes follow each other.
"""

from __future__ import annotations

import types as pytypes
from typing import Any

import numpy as np
from numba import njit

from kniffel.core.kernels.maxima import add_most_of_seed, larger, most_into, most_of_own, most_of_seed
from kniffel.core.kernels.records import EntryState, FiveAlike, KernelTables, Lanes, Scoring, borrowing

NEG = -1.0e300


def with_globals(template: Any, name: str, module: str | None = None, **functions: Any) -> Any:
    """A copy of the plain function ``template`` named ``name`` that finds ``functions`` among its
    globals: numba compiles a function with the globals it finds, so each copy is compiled (and cached
    under its own name) as if written out by hand with those functions in it. ``module`` is the module
    that makes the copy and holds it (its own, by default): a helper process finds the copy there by
    name, as it finds any kernel."""
    copy = pytypes.FunctionType(template.__code__, {**template.__globals__, **functions}, name)
    copy.__qualname__ = name
    copy.__doc__ = template.__doc__
    copy.__module__ = module or template.__module__
    return copy


@borrowing
def scoring(t: KernelTables) -> Scoring:  # pragma: no cover
    return Scoring(t.n_boxes, t.five, t.n_armed, t.n_free, t.joker, t.threshold, t.upper_bonus, t.upper_mask)


# --- entering points in a box ---------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def entry(
    n: Scoring, mask: int, armed: int, box: int, points: int, up: int
) -> tuple[int, int, int, bool]:  # pragma: no cover
    """Entering ``points`` in ``box`` in state ``mask`` / ``armed`` at upper score ``up``: the filled boxes
    after, the armed flag after (points in the five-of-a-kind box arm it, a strike there disarms it), the
    upper score after (capped at the threshold) and whether it crossed the bonus threshold."""
    child = mask | (1 << box)
    if n.n_armed == 2 and box == n.five:
        armed = 1 if points > 0 else 0
    crossed = False
    if (n.upper_mask >> box) & 1 == 1:
        crossed = up < n.threshold <= up + points
        up = min(up + points, n.threshold)
    return child, armed, up, crossed


@njit(cache=True, nogil=True, inline="always")
def enter(
    values: Any,
    n: Scoring,
    state: EntryState,
    box: int,
    points: int,
    extra: int,
    lanes: Lanes,
    out: Any,
    row: int,
) -> None:  # pragma: no cover
    """``out[row, col + lane]`` for the upper scores ``lo + lane``, ``lane < nl`` (``lanes``): the value of
    :func:`entry` in ``state``: the points, the extra bonus ``extra``, the upper bonus where the score
    crosses the threshold, and the value of the state after."""
    lo, nl, col = lanes.lo, lanes.nl, lanes.col
    child, armed, _, _ = entry(n, state.mask, state.armed, box, points, lo)
    aux = armed * n.n_free + state.free
    add = points + extra
    if (n.upper_mask >> box) & 1 == 1:
        # lanes that stay below the threshold, those that cross it (bonus), those already at it: one
        # contiguous loop each instead of a test per lane
        threshold = n.threshold
        cross = min(max(threshold - points - lo, 0), nl)
        above = min(max(threshold - lo, cross), nl)
        shift = lo + points
        for lane in range(cross):
            out[row, col + lane] = add + values[aux, child, shift + lane]
        top = add + n.upper_bonus + values[aux, child, threshold]
        for lane in range(cross, above):
            out[row, col + lane] = top
        top = add + values[aux, child, threshold]
        for lane in range(above, nl):
            out[row, col + lane] = top
    else:
        for lane in range(nl):
            out[row, col + lane] = add + values[aux, child, lo + lane]


# --- the best entry of each roll ---------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def entry_rows(t: KernelTables, levels: int, width: int) -> tuple[Any, Any]:  # pragma: no cover
    """Space for :func:`entry_values` at ``levels`` free-throw levels: ``rows[level]`` holds a row per
    distinct ``(box, points > 0)`` pair, then the rows ``STRIKE`` and ``ONE``; ``strike_box[level]``.
    Inlined: compiled on its own it was typed apart by its callers' literal level counts, three compiles
    of two allocations (0.15-0.25 s each, one of them on a first solve's path)."""
    rows = np.empty((levels, t.pair_box.shape[0] + 2, width))
    return rows, np.empty((levels, width), dtype=np.int64)


@borrowing
def entry_values(
    segments: Any,
    free: int,
    values: Any,
    n: Scoring,
    allowed: Any,
    pair_box: Any,
    pair_pts: Any,
    rows: Any,
    strike_box: Any,
) -> None:  # pragma: no cover
    """What a roll may be entered as, valued in every lane of ``segments`` with ``free`` free throws left
    after the turn: ``rows[j, lane]`` for each distinct ``(box, points > 0)`` pair ``j`` of the base
    table (NEG where the box is not open), and ``rows[STRIKE, lane]`` the best entry of 0 points, in box
    ``strike_box[lane]`` if asked for (not None; ``rows[ONE]`` is scratch). Any box a roll may be entered
    in may be struck instead, so outside the joker these are all a roll's options, and none depends on the
    roll: they are computed once for all rolls."""
    strike, one = rows.shape[0] - 2, rows.shape[0] - 1
    off = 0
    for i in range(segments.shape[0]):
        mask, nl = segments[i, 0], segments[i, 3]
        state, lanes = EntryState(mask, segments[i, 1], free), Lanes(segments[i, 2], nl, off)
        allow = allowed[mask]
        best, entered = rows[strike, off : off + nl], rows[one, off : off + nl]
        for lane in range(nl):
            best[lane] = NEG
        for b in range(n.n_boxes):
            if (allow >> b) & 1 == 0:
                continue
            enter(values, n, state, b, 0, 0, lanes, rows, one)
            if strike_box is None:
                keep_larger(entered, best, None, b)
            else:
                keep_larger(entered, best, strike_box[off : off + nl], b)
        for j in range(strike):
            b = pair_box[j]
            if (allow >> b) & 1 == 0:
                for lane in range(nl):
                    rows[j, off + lane] = NEG
                continue
            enter(values, n, state, b, int(pair_pts[j]), 0, lanes, rows, j)
        off += nl


@borrowing
def best_entries(rows: Any, nonzero: Any, out: Any, choice: Any) -> None:  # pragma: no cover
    """``out[s, roll, lane]``: the best of :func:`entry_values` each roll (thrown at once: ``s`` = 1) may
    take, the best strike or a pair it scores. With ``choice`` (None: not asked for, and not compiled
    in), ``choice[s, roll, lane]`` is the row that gives it, found in the scratch row ``ONE``; without,
    its strike and its rows four at a time (:func:`~kniffel.core.kernels.maxima.most_into`)."""
    strike = rows.shape[0] - 2
    n_s, n_rolls, width = out.shape
    for s in range(n_s):
        for r in range(n_rolls):
            if choice is None:
                most_into(out[s], r, rows, nonzero[s, r], strike)
                continue
            acc = rows[strike + 1, :width]
            for lane in range(width):
                acc[lane] = rows[strike, lane]
                choice[s, r, lane] = strike
            for i in range(nonzero.shape[2]):
                j = nonzero[s, r, i]
                if j < 0:
                    break
                for lane in range(width):
                    x, y = rows[j, lane], acc[lane]
                    better = x > y
                    acc[lane] = x if better else y
                    was = choice[s, r, lane]
                    choice[s, r, lane] = j if better else was
            for lane in range(width):
                out[s, r, lane] = acc[lane]


@njit(cache=True, nogil=True, inline="always")
def keep_larger(entered: Any, kept: Any, chosen: Any, code: int) -> None:  # pragma: no cover
    """``kept[lane]`` takes ``entered[lane]`` where that is larger, and ``chosen[lane]`` records ``code``
    there (None: not asked for): one more entry against a roll's best so far, or a box's zero against the
    best strike. The three are slices indexed from 0: ``best[col + lane]`` with a ``col`` the compiler
    cannot see is not negative was read and written one lane at a time (numba wraps negative indices
    around)."""
    if chosen is None:
        for lane in range(kept.shape[0]):
            kept[lane] = larger(entered[lane], kept[lane])
    else:
        for lane in range(kept.shape[0]):
            x, y = entered[lane], kept[lane]
            better = x > y
            kept[lane] = x if better else y
            was = chosen[lane]
            chosen[lane] = code if better else was


@njit(cache=True, nogil=True, inline="always")
def keep_better(
    row: Any, best: Any, col: int, width: int, choice: Any, s: int, r: int, code: int
) -> None:  # pragma: no cover
    """Lanes ``col .. col + width - 1`` of ``best`` (a roll's best entry so far) take ``row``'s value
    where it is larger, and ``choice[s, r]`` records ``code`` there (None: not asked for): a further five
    of a kind's placement against the roll's other entries."""
    entered, kept = row[col : col + width], best[col : col + width]
    if choice is None:
        keep_larger(entered, kept, None, code)
    else:
        keep_larger(entered, kept, choice[s, r, col : col + width], code)


@borrowing
def joker_entry(
    values: Any,
    n: Scoring,
    jpts: Any,
    jbonus: Any,
    state: EntryState,
    five: FiveAlike,
    lanes: Lanes,
    rows: Any,
    out: Any,
    choice: Any,
) -> None:  # pragma: no cover
    """``out[s, r, col + lane]`` for the ``lanes`` of ``state``, whose five-of-a-kind box is filled: the
    best entry of a further five of a kind (roll ``r`` thrown at once: ``s`` = 1, ``five``): the extra
    rules decide the boxes it may go in, what it pays there and the extra bonus on top. With ``choice``
    (None: not asked for), ``choice[s, r, col + lane]`` is ``-1 - box``."""
    one = rows.shape[0] - 1
    s, r, col, nl = five.at_once, five.roll, lanes.col, lanes.nl
    extra = int(jbonus[state.mask, state.armed, five.face])
    for lane in range(nl):
        out[s, r, col + lane] = NEG
    for b in range(n.n_boxes):
        p = int(jpts[state.mask, state.armed, s, five.face, b])
        if p < 0:
            continue
        enter(values, n, state, b, p, extra, lanes, rows, one)
        keep_better(rows[one], out[s, r], col, nl, choice, s, r, -1 - b)


@njit(cache=True, nogil=True, inline="always")
def joker_applies(n: Scoring, mask: int) -> bool:  # pragma: no cover
    """Whether the extra rules decide where a five of a kind goes (its box is filled)."""
    return n.joker and n.five >= 0 and (mask >> n.five) & 1 == 1


@njit(cache=True, nogil=True, inline="always")
def zero_of(a: Any) -> Any:  # pragma: no cover
    """0, typed as a run-time integer: numba types a variable that starts as a literal ``0`` both as the
    literal and as an integer, and compiles every kernel it is passed to once for each."""
    return a.shape[0] - a.shape[0]


@njit(cache=True, nogil=True, inline="always")
def score_values(
    segments: Any,
    free: int,
    values: Any,
    t: KernelTables,
    rows: Any,
    strike_box: Any,
    out: Any,
    choice: Any,
) -> None:  # pragma: no cover
    """``out[s, roll, lane]``: the best points-now-plus-future of entering each roll (thrown at once:
    ``s`` = 1) in every lane of ``segments`` with ``free`` free throws left after the turn. With ``choice``
    (None: not asked for), ``choice[s, roll, lane]`` says which entry gives it: a pair row of ``rows``
    (:func:`entry_rows`, one level), the strike row (the box in ``strike_box[lane]``), or ``-1 - box`` for
    a five of a kind the extra rules place."""
    n = scoring(t)
    entry_values(segments, free, values, n, t.allowed, t.pair_box, t.pair_pts, rows, strike_box)
    best_entries(rows, t.nonzero, out, choice)
    n_s, n_rolls, _ = out.shape
    off = zero_of(segments)
    for i in range(segments.shape[0]):
        mask, nl = segments[i, 0], segments[i, 3]
        if joker_applies(n, mask):
            state, lanes = EntryState(mask, segments[i, 1], free), Lanes(segments[i, 2], nl, off)
            for s in range(n_s):
                for r in range(n_rolls):
                    face = t.alike[r]
                    if face >= 0:
                        five = FiveAlike(s, r, face)
                        joker_entry(values, n, t.jpts, t.jbonus, state, five, lanes, rows, out, choice)
        off += nl


# --- the keep lattice -----------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def keep_expect(
    ev: Any,
    width: int,
    child: Any,
    first_roll: int,
    probs: Any,
    sharp: bool,
    at_once: Any,
    lattice: bool,
    rolls: Any,
) -> None:  # pragma: no cover
    """``ev[keep]`` for every keep that is not a full roll: the expected value of throwing the dice it
    lacks, from the values of the rolls, one die at a time: ``rolls[roll]``, or with ``rolls`` empty the
    rolls' own rows ``ev[first_roll:]`` (a turn's first throw reads the entries where they were worked
    out instead of a copy of them). With the sharp rule the empty keep throws all dice at once and takes
    its values from ``at_once[roll]`` instead. Without ``lattice``, only the empty keep, from ``rolls``
    (a turn of one throw; a later throw's mean is summed by :func:`keep_max`) or ``at_once``."""
    apart = rolls.shape[0] > 0
    if lattice:
        # in the values' own precision: a float64 factor would widen every float32 lane
        one = np.empty(1, dtype=ev.dtype)
        one[0] = 1.0 / 6.0
        sixth = one[0]
        for k in range(first_roll - 1, -1, -1):
            c0, c1, c2 = child[k, 0], child[k, 1], child[k, 2]
            c3, c4, c5 = child[k, 3], child[k, 4], child[k, 5]
            if apart and c0 >= first_roll:  # a keep one die short of a roll: its children are rolls
                o = first_roll
                for lane in range(width):
                    three = rolls[c0 - o, lane] + rolls[c1 - o, lane] + rolls[c2 - o, lane]
                    ev[k, lane] = (
                        three + rolls[c3 - o, lane] + rolls[c4 - o, lane] + rolls[c5 - o, lane]
                    ) * sixth
                continue
            for lane in range(width):
                ev[k, lane] = (
                    ev[c0, lane] + ev[c1, lane] + ev[c2, lane] + ev[c3, lane] + ev[c4, lane] + ev[c5, lane]
                ) * sixth
    if sharp or not lattice:
        for lane in range(width):
            ev[0, lane] = 0.0
        for r in range(probs.shape[0]):
            p = probs[r]
            if sharp:
                for lane in range(width):
                    ev[0, lane] += p * at_once[r, lane]
            else:
                for lane in range(width):
                    ev[0, lane] += p * rolls[r, lane]


@njit(cache=True, nogil=True, inline="always")
def best_keep(
    table: Any, row: int, subs: Any, r: int, best: float, lane: int
) -> tuple[float, int]:  # pragma: no cover
    """The policy's choice with roll ``r`` showing: the best of ``best`` (scoring now) and holding one of
    the roll's keeps (``table[row, keep, lane]``, as :func:`sweep` writes them), with its value; the keep
    is -1 for scoring, which ties go to. The simulator, the distributions and the sheet search all decide
    with this one rule. Written without a branch: which keep wins is as good as random to the processor,
    and a mispredicted jump cost the simulator a tenth of a game's own time."""
    keep = -1
    for j in range(subs.shape[1]):
        q = subs[r, j]
        if q < 0:
            break
        v = table[row, q, lane]
        keep = q if v > best else keep
        best = max(v, best)
    return best, keep


@borrowing
def keep_max(
    ev: Any, width: int, parent: Any, first_roll: int, seed: Any, probs: Any, mean: Any
) -> None:  # pragma: no cover
    """In place: ``ev[keep]`` becomes the best value over the keep and every sub-multiset of it, and
    ``ev[roll]`` the best over its proper sub-multisets (the best keep to throw from), or with ``seed``
    (empty: not given) the best of that and ``seed[roll - first_roll]`` (scoring it now), in the same
    pass. With ``mean`` (empty: not asked for), ``mean`` becomes the rolls' mean weighed by ``probs``,
    each value added while at hand as :func:`keep_expect` adds them (the same to the last bit), and a
    roll whose best takes one pass is not stored (:func:`add_most_of_seed`). Keeps come smallest first,
    so a keep's parents are final when it is reached. Rows are maxed in place, four parents a pass
    (``docs/explanation/kernels.md``: a Zen 1's 15 % sooner than two, a Zen 5's twice as fast). No seed is an
    empty array, not None: one compiled function serves both (each was 0.3-0.4 s of a first compile)."""
    seeded = seed.shape[0] > 0
    summed = mean.shape[0] > 0
    # the keeps, then the rolls: in one loop with the rolls' branch, no row's loop was made vectors
    for k in range(1, min(first_roll, ev.shape[0])):
        most_of_own(ev, k, width, parent[k], 0)
    for lane in range(mean.shape[0]):
        mean[lane] = 0.0
    for k in range(first_roll, ev.shape[0]):
        s = k - first_roll
        if summed and seeded and add_most_of_seed(mean, probs[s], ev, width, parent[k], seed, s):
            continue
        # a roll is not a keep of its own: start from its value, or its first parent
        if seeded:
            start = most_of_seed(ev, k, width, parent[k], seed, s)
        else:
            q = parent[k, 0]
            for lane in range(width):
                ev[k, lane] = ev[q, lane]
            start = 1
        most_of_own(ev, k, width, parent[k], start)
        if summed:
            p = probs[s]
            for lane in range(width):
                mean[lane] += p * ev[k, lane]


@njit(cache=True, nogil=True, inline="always")
def sharp_roll(ev: Any, at_once: Any, scores: Any, first_roll: int, width: int) -> None:  # pragma: no cover
    """A sharp rule set's rolls after :func:`keep_max` without a seed: ``at_once[roll]`` the best of
    scoring the roll at once (``scores[1]``) or holding its best keep, ``ev[roll]`` the best of scoring it
    (``scores[0]``) or holding."""
    for r in range(scores.shape[1]):
        k = first_roll + r
        for lane in range(width):
            at_once[r, lane] = larger(scores[1, r, lane], ev[k, lane])
        for lane in range(width):
            ev[k, lane] = larger(scores[0, r, lane], ev[k, lane])


@njit(cache=True, nogil=True, inline="always")
def sweep(sv: Any, free: int, positions: int, t: KernelTables, table: Any) -> None:  # pragma: no cover
    """The keep values of a turn with ``free`` free throws left, from ``sv[f, at_once, roll, lane]``
    (:func:`score_values` with ``f`` free throws left after the turn): :func:`sweep_from` with as many of
    them usable as a turn allows."""
    sweep_from(sv, free, min(t.per_turn, free), positions, t, table)


@njit(cache=True, nogil=True, inline="always")
def sweep_from(
    sv: Any, free: int, usable: int, positions: int, t: KernelTables, table: Any
) -> None:  # pragma: no cover
    """The keep values of a turn with ``free`` free throws left of which ``usable`` may still be taken
    this turn, from ``sv[f, at_once, roll, lane]`` (:func:`score_values` with ``f`` free throws left after
    the turn). Position ``q`` is a throw that leaves ``q`` throws, free ones included: the turn's first
    throw leaves ``usable + rolls - 1``. The sweep goes
    through the positions ``0 .. positions - 1`` and writes the last ``table.shape[0]`` of them:
    ``table[i, keep, lane]`` is the value of holding ``keep`` (one of the first ``table.shape[1]``) and
    throwing the rest at position ``positions - table.shape[0] + i``. The simulator asks for every keep
    before every throw it chooses; the DP for the empty keep of the turn's start, which is the value of the
    state."""
    n_s, n_rolls, width = sv.shape[1], sv.shape[2], sv.shape[3]
    sharp = n_s == 2
    start = free - usable
    first = t.first_roll
    child, parent, probs = t.child, t.parent, t.roll_probs
    n_keeps = table.shape[1]
    skip = positions - table.shape[0]
    # the values' precision: float64 for the DP, float32 for the wide lanes of the target tables
    ev = np.empty((child.shape[0], width), dtype=sv.dtype)
    at_once = np.empty((n_rolls if sharp else 1, width), dtype=sv.dtype)
    for r in range(n_rolls if sharp else 0):
        for lane in range(width):
            at_once[r, lane] = sv[start, 1, r, lane]
    # only the empty keep asked for (the DP): the last throw's mean is summed by the pass before it
    summed = not sharp and n_keeps == 1 and positions > 1
    mean = np.empty(width if summed else 0, dtype=sv.dtype)
    # the first throw reads the rolls' entries where they are (``rolls``); later ones the lattice's rows
    rolls = sv[start, 0]
    for q in range(positions):
        if summed and q + 1 == positions:
            for lane in range(width):
                table[q - skip, 0, lane] = mean[lane]
            break
        keep_expect(ev, width, child, first, probs, sharp, at_once, n_keeps > 1 or q + 1 < positions, rolls)
        if q >= skip:
            for k in range(n_keeps):
                row = rolls[k - first] if k >= first and rolls.shape[0] > 0 else ev[k]
                for lane in range(width):
                    table[q - skip, k, lane] = row[lane]
        if q + 1 == positions:
            break
        rolls = ev[:0]
        level = start + q + 1 if q + 1 <= usable else free
        if not sharp:
            # a roll's best: scoring it (its value) or holding the best of its keeps, in one pass
            last = summed and q + 2 == positions
            keep_max(ev, width, parent, first, sv[level, 0], probs, mean if last else mean[:0])
            continue
        keep_max(ev, width, parent, first, ev[:0], probs, mean[:0])
        sharp_roll(ev, at_once, sv[level], first, width)


# --- the dynamic programme ---------------------------------------------------------------------------------

BUNDLE = 64
"""Masks are solved in bundles of at least this many lanes: the keep lattice does not care which mask
a lane belongs to, and a row of a few lanes costs nearly as much loop overhead as a row of many."""


@borrowing
def mask_lanes(mask: int, n: Scoring, lanes: Any) -> tuple[int, int, int]:  # pragma: no cover
    """The first upper score computed for ``mask``, how many are, and the armed variants (lanes are
    ``armed * count + score - first``)."""
    if (mask & n.upper_mask) == n.upper_mask:
        lo, nl = 0, 1
    else:
        lo, nl = lanes[mask, 0], lanes[mask, 1] - lanes[mask, 0]
    na = n.n_armed if n.five >= 0 and (mask >> n.five) & 1 == 1 else 1
    return lo, nl, na


@njit(cache=True, nogil=True, inline="always")
def lane_at(
    lane_base: Any, lanes: Any, n: Scoring, armed: int, free: int, mask: int, up: int
) -> int:  # pragma: no cover
    """The lane of state ``(mask, armed, free, up)`` in a layout whose ``lane_base`` is
    :attr:`kniffel.core.lanes.LaneLayout.lane_base` (upper scores below the mask's first computed one
    behave like it); ``lanes`` is the rule set's :attr:`~kniffel.core.kernels.records.KernelTables.lanes`."""
    lo, nl, _ = mask_lanes(mask, n, lanes)
    i = min(max(up - lo, 0), nl - 1)
    return int(lane_base[armed * n.n_free + free, mask] + i)


@njit(cache=True, nogil=True, inline="always")
def lane_of(
    t: KernelTables, lane_base: Any, armed: int, free: int, mask: int, up: int
) -> int:  # pragma: no cover
    """:func:`lane_at` with the rule set's tables."""
    return lane_at(lane_base, t.lanes, scoring(t), armed, free, mask, up)


@njit(cache=True, nogil=True, inline="always")
def mask_segments(masks: Any, n: Scoring, lanes: Any) -> tuple[Any, Any]:  # pragma: no cover
    """The segments of ``masks`` (one per armed variant, at the upper scores the DP computes, see
    :func:`mask_lanes`) and how many lanes they hold together."""
    width = zero_of(masks)
    n_seg = 0
    for i in range(masks.shape[0]):
        _, nl, na = mask_lanes(masks[i], n, lanes)
        width += na * nl
        n_seg += na
    segments = np.empty((n_seg, 4), dtype=np.int64)
    n_seg = 0
    for i in range(masks.shape[0]):
        lo, nl, na = mask_lanes(masks[i], n, lanes)
        for a in range(na):
            segments[n_seg, 0], segments[n_seg, 1] = masks[i], a
            segments[n_seg, 2], segments[n_seg, 3] = lo, nl
            n_seg += 1
    return segments, width


# --- the option kernels' pieces (kniffel.core.kernels.points.points_options) ------------------------------


@njit(cache=True, nogil=True, inline="always")
def boxes_for(t: KernelTables, n: Scoring, state: EntryState, s: int, roll: int) -> int:  # pragma: no cover
    """The boxes ``roll`` (thrown at once: ``s`` = 1) may go in, in ``state``, as a bit mask: where the
    five-of-a-kind box is filled the extra rules say it for a five of a kind, else the sheet's order.
    What it pays in each is :func:`roll_entry`'s."""
    mask, face = state.mask, t.alike[roll]
    if joker_applies(n, mask) and face >= 0:
        boxes = 0
        for box in range(n.n_boxes):
            if t.jpts[mask, state.armed, s, face, box] >= 0:
                boxes |= 1 << box
        return boxes
    return int(t.allowed[mask])


@njit(cache=True, nogil=True, inline="always")
def roll_entry(
    t: KernelTables, n: Scoring, state: EntryState, s: int, roll: int, box: int, base: Any
) -> tuple[int, int]:  # pragma: no cover
    """What ``roll`` (thrown at once: ``s`` = 1) pays in ``box`` in ``state``, and the extra bonus on top:
    where the five-of-a-kind box is filled the extra rules say it for a five of a kind (-1 where it may
    not go); else its points there (0: a strike), -1 where the box may not be filled now
    (:func:`boxes_for`). The points come from ``base`` (:attr:`Compiled.base`, ``[at_once, roll, box]``)
    if given, else from the roll's pairs (the kernels' tables do not carry ``base``: every array a
    kernel's tables hold costs each call that passes them). The option kernel
    (:func:`kniffel.core.kernels.loop._situation_values`) asks this of each box, the environment's step
    (:mod:`kniffel.core.kernels.env`) of the box an agent chose."""
    mask, armed, face = state.mask, state.armed, t.alike[roll]
    if joker_applies(n, mask) and face >= 0:
        return int(t.jpts[mask, armed, s, face, box]), int(t.jbonus[mask, armed, face])
    if (t.allowed[mask] >> box) & 1 == 0:
        return -1, 0
    if base is not None:
        return int(base[s, roll, box]), 0
    for j in range(t.nonzero.shape[2]):
        pair = t.nonzero[s, roll, j]
        if pair < 0:
            break
        if t.pair_box[pair] == box:
            return int(t.pair_pts[pair]), 0
    return 0, 0


@borrowing
def roll_entries(
    t: KernelTables, n: Scoring, state: EntryState, s: int, roll: int, points: Any, extras: Any
) -> None:  # pragma: no cover
    """:func:`roll_entry` of every box: ``points[box]``, ``extras[box]`` (the roll's pairs searched,
    no ``base``). One call a situation that borrows the tables: the option kernel keeps reference
    counts, and there each inlined call that hands on the tables took a reference to every array they
    hold and let go of it again, which made its boxes take fifteen times as long."""
    for box in range(n.n_boxes):
        points[box], extras[box] = roll_entry(t, n, state, s, roll, box, None)


@njit(cache=True, nogil=True, inline="always")
def settle(
    n: Scoring, mask: int, armed: int, box: int, points: int, up: int, extra: int
) -> tuple[int, int, int, int, int]:  # pragma: no cover
    """:func:`entry` with what it gained: ``points`` and the extra bonus ``extra`` entered in ``box`` in
    state ``mask`` / ``armed`` at upper score ``up`` give the state after, the points gained (with the
    upper bonus if the entry crossed the threshold) and the entry's marks (bit 0: the upper bonus reached
    now, bit 1: points in the five-of-a-kind box). Every compiled game (the simulator's, the sheet of
    several columns', the environment's) and every table that follows entries (the target rows, the
    distributions) enters points here."""
    after, armed_after, up_after, crossed = entry(n, mask, armed, box, points, up)
    gained = points + extra
    marks = 0
    if crossed:
        gained += n.upper_bonus
        marks |= 1
    if box == n.five and points > 0:
        marks |= 2
    return after, armed_after, up_after, gained, marks
