"""numba kernels of the target tables (:mod:`kniffel.solver.target`): the probability of still making at
least ``u`` more points, played to make that probability as large as possible.

It is the expected-score recursion of :mod:`kniffel.solver.kernels` with a vector over ``u`` where that
one has a number: entering ``g`` points shifts the child state's vector by ``g``, and the keep lattice takes
means and maxima lane by lane, so the lattice sweep (:func:`~kniffel.solver.kernels.sweep`) and the best
entry of each roll (:func:`~kniffel.solver.kernels.best_entries`) are the solver's own. Only entering
points differs (a shift instead of a sum), and so the steps that call it.

A *row* is the vector of one state ``(aux, mask, up)``: ``prob[start + u]`` for ``u`` in ``0 .. width[mask]
- 1``, ``start = starts[aux, mask] + (up - lanes[mask, 0]) * width[mask]`` (one row per upper score the DP
computes; lower ones are worth the lowest's). Below the row, ``u <= 0``, the probability is 1; past it 0:
the open boxes cannot pay that much, or the table stops at its limit there (see
:class:`~kniffel.solver.target.TargetTable`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from kniffel.solver.compile import KernelTables
from kniffel.solver.kernels import NEG, Scoring, best_entries, entry, scoring, sweep


@njit(cache=True, nogil=True, inline="always")
def row_start(
    starts: Any, widths: Any, lanes: Any, upper_mask: int, aux: int, mask: int, up: int
) -> int:  # pragma: no cover
    """Where the row of state ``aux`` / ``mask`` at upper score ``up`` starts in ``prob``."""
    if (mask & upper_mask) == upper_mask:
        return int(starts[aux, mask])
    lo = lanes[mask, 0]
    return int(starts[aux, mask] + (up - lo if up > lo else 0) * widths[mask])


@njit(cache=True, nogil=True, inline="always")
def enter_target(
    prob: Any,
    starts: Any,
    widths: Any,
    lanes: Any,
    n: Scoring,
    mask: int,
    armed: int,
    free: int,
    box: int,
    points: int,
    extra: int,
    up: int,
    u0: int,
    w: int,
    out: Any,
    row: int,
    col: int,
) -> None:  # pragma: no cover
    """``out[row, col + lane]``: the probability of making ``u0 + lane`` more points from here when
    ``points`` go in ``box`` (``extra`` bonus on top, the upper bonus if the score crosses the threshold)
    with ``free`` free throws left after the turn: the child state's row shifted by what was gained."""
    child, armed_after, up_after, crossed = entry(n, mask, armed, box, points, up)
    gained = points + extra + (n.upper_bonus if crossed else 0)
    base = row_start(starts, widths, lanes, n.upper_mask, armed_after * n.n_free + free, child, up_after)
    width = widths[child]
    # lanes made certain by the points gained, those the child's row answers, those out of its reach
    certain = min(max(gained + 1 - u0, 0), w)
    beyond = min(max(gained + width - u0, certain), w)
    for lane in range(certain):
        out[row, col + lane] = 1.0
    shift = base + u0 - gained
    for lane in range(certain, beyond):
        out[row, col + lane] = prob[shift + lane]
    for lane in range(beyond, w):
        out[row, col + lane] = 0.0


@njit(cache=True, nogil=True, inline="always")
def reduce(rows: Any, row: int, w: int, weights: Any) -> None:  # pragma: no cover
    """With ``weights``, ``rows[row, 0]`` becomes the weighted sum of the row's ``w`` lanes (else
    nothing: each lane stands on its own)."""
    if weights is not None:
        acc = 0.0
        for lane in range(w):
            acc += rows[row, lane] * weights[lane]
        rows[row, 0] = acc


@njit(cache=True, nogil=True)
def score_probabilities(
    mask: int,
    armed: int,
    up: int,
    free: int,
    u0: int,
    w: int,
    prob: Any,
    starts: Any,
    widths: Any,
    t: KernelTables,
    rows: Any,
    out: Any,
    weights: Any,
    choice: Any,
    strike_box: Any,
) -> None:  # pragma: no cover
    """``out[s, roll, lane]``: the best probability of making ``u0 + lane`` more points by entering each
    roll (thrown at once: ``s`` = 1) in state ``mask`` / ``armed`` at upper score ``up``, with ``free`` free
    throws left after the turn (the target counterpart of :func:`kniffel.solver.kernels.score_values`:
    ``rows`` holds a row per distinct ``(box, points > 0)`` pair, then the best strike, then scratch).

    With ``weights`` (None: each lane on its own) every entry is valued by the weighted sum of its
    ``w`` lanes before entries are compared, and ``out`` has one lane: the best such sum (a chance of
    winning, when the weights are the chances of the others' best score).

    With ``choice`` and ``strike_box`` (None: not asked for) the entry each value is the best of is
    recorded as :func:`~kniffel.solver.kernels.score_values` records it, for a game to be played by these
    values (:func:`kniffel.solver.playkernels.play_game_turn`)."""
    n = scoring(t)
    strike, one = rows.shape[0] - 2, rows.shape[0] - 1
    allow = t.allowed[mask]
    lanes = t.lanes
    width = w if weights is None else 1
    for lane in range(width):
        rows[strike, lane] = NEG
    for b in range(n.n_boxes):
        if (allow >> b) & 1 == 0:
            continue
        enter_target(prob, starts, widths, lanes, n, mask, armed, free, b, 0, 0, up, u0, w, rows, one, 0)
        reduce(rows, one, w, weights)
        for lane in range(width):
            x = rows[one, lane]
            better = x > rows[strike, lane]
            rows[strike, lane] = x if better else rows[strike, lane]
            if strike_box is not None:
                strike_box[lane] = b if better else strike_box[lane]
    for j in range(strike):
        b = t.pair_box[j]
        if (allow >> b) & 1 == 0:
            for lane in range(width):
                rows[j, lane] = NEG
            continue
        enter_target(
            prob, starts, widths, lanes, n, mask, armed, free, b, int(t.pair_pts[j]), 0, up, u0, w, rows, j, 0
        )
        reduce(rows, j, w, weights)
    if weights is None:
        # the whole rows, not a slice of them: numba compiles a slice as an array of any layout, whose
        # loops do not vectorise (that alone made the table's DP twice as slow)
        best_entries(rows, t.nonzero, out, choice)
    else:
        best_entries(rows[:, :1], t.nonzero, out, choice)
    if n.joker and n.five >= 0 and (mask >> n.five) & 1 == 1:
        # a further five of a kind: the extra rules decide where it may go, what it pays and the bonus
        n_s, n_rolls, _ = out.shape
        for s in range(n_s):
            for r in range(n_rolls):
                face = t.alike[r]
                if face < 0:
                    continue
                extra = int(t.jbonus[mask, armed, face])
                for lane in range(width):
                    out[s, r, lane] = NEG
                for b in range(n.n_boxes):
                    p = int(t.jpts[mask, armed, s, face, b])
                    if p < 0:
                        continue
                    enter_target(
                        prob, starts, widths, lanes, n, mask, armed, free, b, p, extra, up, u0, w, rows, one,
                        0,
                    )  # fmt: skip
                    reduce(rows, one, w, weights)
                    for lane in range(width):
                        x = rows[one, lane]
                        better = x > out[s, r, lane]
                        out[s, r, lane] = x if better else out[s, r, lane]
                        if choice is not None:
                            choice[s, r, lane] = -1 - b if better else choice[s, r, lane]


@njit(cache=True, nogil=True)
def turn_probabilities(
    mask: int,
    armed: int,
    up: int,
    free: int,
    usable: int,
    positions: int,
    u0: int,
    w: int,
    prob: Any,
    starts: Any,
    widths: Any,
    t: KernelTables,
    weights: Any,
    table: Any,
    sv: Any,
    choice: Any,
    strike_box: Any,
) -> None:  # pragma: no cover
    """The keep probabilities of a turn in one state for the lanes ``u0 .. u0 + w - 1`` (with
    ``weights``, their weighted sum, one lane), written into ``table`` as
    :func:`~kniffel.solver.kernels.sweep` writes keep values, with ``free`` free throws left of which
    ``usable`` may still be thrown this turn. ``sv[k]`` (``k`` = ``0 .. usable``) receives the scoring
    values of every roll with ``free - usable + k`` free throws left after the turn, and ``choice`` /
    ``strike_box`` (None: not asked for) the entries that give them (:func:`score_probabilities`), as
    :func:`kniffel.solver.playkernels.turn_tables` lays them out."""
    rows = np.empty((t.pair_box.shape[0] + 2, w))
    for k in range(usable + 1):
        f = free - usable + k
        if choice is None:
            score_probabilities(
                mask, armed, up, f, u0, w, prob, starts, widths, t, rows, sv[k], weights, None, None
            )
        else:
            score_probabilities(
                mask, armed, up, f, u0, w, prob, starts, widths, t, rows, sv[k], weights, choice[k],
                strike_box[k],
            )  # fmt: skip
    # the sweep takes all its free throws as usable: with ``usable`` of them, level 0 is the lowest
    sweep(sv, usable, positions, t, table)


@njit(cache=True, nogil=True)
def solve_row(
    mask: int, armed: int, up: int, prob: Any, starts: Any, widths: Any, t: KernelTables
) -> None:  # pragma: no cover
    """The rows of state ``mask`` / ``armed`` at upper score ``up``, every free-throw level."""
    n = scoring(t)
    w = int(widths[mask])
    n_s, n_rolls, _ = t.nonzero.shape
    sv = np.empty((n.n_free, n_s, n_rolls, w), dtype=np.float32)
    # float32 lanes: twice as many to a vector instruction, and a row of keeps stays in the cache
    rows = np.empty((t.pair_box.shape[0] + 2, w), dtype=np.float32)
    for f in range(n.n_free):
        score_probabilities(mask, armed, up, f, 0, w, prob, starts, widths, t, rows, sv[f], None, None, None)
    total = np.empty((1, 1, w), dtype=np.float32)
    for f in range(n.n_free):
        sweep(sv, f, min(t.per_turn, f) + t.rolls, t, total)
        base = row_start(starts, widths, t.lanes, n.upper_mask, armed * n.n_free + f, mask, up)
        prob[base] = 1.0
        for lane in range(1, w):
            prob[base + lane] = total[0, 0, lane]


@njit(cache=True, parallel=True)
def solve_level(items: Any, prob: Any, starts: Any, widths: Any, t: KernelTables) -> None:  # pragma: no cover
    """Every row ``items[i] = (mask, armed, up)`` of one level (same number of filled boxes), in
    parallel: their children are all in later levels."""
    for i in prange(items.shape[0]):
        solve_row(items[i, 0], items[i, 1], items[i, 2], prob, starts, widths, t)
