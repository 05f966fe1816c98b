"""numba kernels of a turn on a sheet of several columns, each valued by its own single-column table.

A multi-column sheet has no exact table, but each column has one when played alone: entering points in
a column is valued as the points plus the change in that column's table value (the *column estimate* of
:mod:`kniffel.planning.columns`). Everything a turn needs is then a solver kernel already: the best entry
of every roll in one column is :func:`~kniffel.solver.kernels.score_values` of a one-lane segment (the
column's state) on the column's table, the best over the sheet is the maximum over the open columns of
that less the column's value before, and the keep values before every throw are
:func:`~kniffel.solver.kernels.sweep` over those stop values. The planner asks :func:`turn_values` for
one position; :func:`play_games` plays many whole games with the same two steps, game by game in parallel.

Columns come as ``tables`` (a tuple of :class:`~kniffel.solver.compile.KernelTables`, one per column, all
of the same rule set apart from the fill order) and ``values`` (``[column, aux, mask, up]``, the columns'
tables stacked). Sheets with free throws or announced columns are not covered (see
:func:`kniffel.planning.compiled.covers`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from kniffel.solver.kernels import NEG, entry, score_values, scoring, sweep
from kniffel.solver.playkernels import die


@njit(cache=True, nogil=True)
def scratch(tables: Any) -> tuple[Any, Any, Any, Any]:  # pragma: no cover
    """Space for :func:`stop_values`: the entry rows (as many as the column with the most pairs needs),
    the strike box, one column's scoring values and the entry each is the best of."""
    t0 = tables[0]
    n_s, n_rolls, _ = t0.nonzero.shape
    most = 0
    for c in range(len(tables)):
        most = max(most, tables[c].pair_box.shape[0])
    rows = np.empty((most + 2, 1))
    strike_box = np.empty(1, dtype=np.int64)
    out = np.empty((n_s, n_rolls, 1))
    choice = np.empty((n_s, n_rolls, 1), dtype=np.int32)
    return rows, strike_box, out, choice


@njit(cache=True, nogil=True)
def stop_values(
    tables: Any,
    values: Any,
    mask: Any,
    armed: Any,
    up: Any,
    stop: Any,
    column: Any,
    entries: Any,
    space: tuple[Any, Any, Any, Any],
) -> None:  # pragma: no cover
    """``stop[0, at_once, roll, 0]``: the best value of ending the turn on each roll, entered in any open
    column (the columns' states are ``mask[c]``, ``armed[c]``, ``up[c]``), relative to the columns' values
    before; ``column[at_once, roll]`` is the column it goes in and ``entries[at_once, roll, 0..2]`` the
    box, the points and the extra bonus."""
    rows, strike_box, out, choice = space
    n_s, n_rolls = column.shape
    segment = np.empty((1, 4), dtype=np.int64)
    for s in range(n_s):
        for r in range(n_rolls):
            stop[0, s, r, 0] = NEG
            column[s, r] = -1
    for c in range(len(tables)):
        t = tables[c]
        if mask[c] == (1 << t.n_boxes) - 1:
            continue
        segment[0, 0], segment[0, 1], segment[0, 2], segment[0, 3] = mask[c], armed[c], up[c], 1
        n_rows = t.pair_box.shape[0] + 2
        score_values(segment, 0, values[c], t, rows[:n_rows], strike_box, out, choice)
        before = values[c, armed[c] * t.n_free, mask[c], up[c]]
        for s in range(n_s):
            for r in range(n_rolls):
                v = out[s, r, 0] - before
                if v > stop[0, s, r, 0]:
                    stop[0, s, r, 0] = v
                    column[s, r] = c
                    j = int(choice[s, r, 0])
                    if j < 0:
                        box = -1 - j
                        face = t.alike[r]
                        entries[s, r, 0] = box
                        entries[s, r, 1] = t.jpts[mask[c], armed[c], s, face, box]
                        entries[s, r, 2] = t.jbonus[mask[c], armed[c], face]
                    elif j == n_rows - 2:
                        entries[s, r, 0] = strike_box[0]
                        entries[s, r, 1] = 0
                        entries[s, r, 2] = 0
                    else:
                        entries[s, r, 0] = t.pair_box[j]
                        entries[s, r, 1] = t.pair_pts[j]
                        entries[s, r, 2] = 0


@njit(cache=True, nogil=True)
def turn_values(
    tables: Any, values: Any, mask: Any, armed: Any, up: Any, rolls: int
) -> tuple[Any, Any, Any, Any]:  # pragma: no cover
    """One position of a sheet: :func:`stop_values` (``stop[at_once, roll]``, ``column``, ``entries``) and
    ``keeps[p - 1, keep]``, the value of holding ``keep`` and throwing the rest with ``p`` throws left
    (``p`` from 1 to ``rolls - 1``), all relative to the columns' values before the turn."""
    t0 = tables[0]
    n_s, n_rolls, _ = t0.nonzero.shape
    stop = np.empty((1, n_s, n_rolls, 1))
    column = np.empty((n_s, n_rolls), dtype=np.int64)
    entries = np.empty((n_s, n_rolls, 3), dtype=np.int64)
    stop_values(tables, values, mask, armed, up, stop, column, entries, scratch(tables))
    keeps = np.empty((max(rolls - 1, 1), t0.first_roll, 1))
    if rolls > 1:
        sweep(stop, 0, rolls - 1, t0, keeps)
    return stop[0, :, :, 0].copy(), column, entries, keeps[:, :, 0].copy()


@njit(cache=True, nogil=True)
def play_game(
    g: int,
    tables: Any,
    values: Any,
    rolls: int,
    rng: Any,
    state: Any,
    totals: Any,
    log: Any,
) -> None:  # pragma: no cover
    """Game ``g`` from the empty sheet to the full one: ``state[g, c]`` holds column ``c``'s ``(mask,
    armed, up)`` as it goes and ``totals[g, c]`` its ``(points, upper bonus, points in the five box,
    extra bonuses)``. With ``log`` (``[game, turn, step, 3]``, first games only) every throw is recorded as
    ``(keep, roll, 0)`` and the entry as ``(-2, column, box << 16 | points)``."""
    t0 = tables[0]
    n_cols = len(tables)
    n_s, n_rolls, _ = t0.nonzero.shape
    sharp = n_s == 2
    size, child, subs = t0.size, t0.child, t0.choices
    n_dice = size[child.shape[0] - 1]
    positions = rolls - 1
    stop = np.empty((1, n_s, n_rolls, 1))
    column = np.empty((n_s, n_rolls), dtype=np.int64)
    entries = np.empty((n_s, n_rolls, 3), dtype=np.int64)
    keeps = np.empty((max(positions, 1), t0.first_roll, 1))
    space = scratch(tables)
    mask = np.zeros(n_cols, dtype=np.int64)
    armed = np.zeros(n_cols, dtype=np.int64)
    up = np.zeros(n_cols, dtype=np.int64)
    turns = 0
    for c in range(n_cols):
        turns += tables[c].n_boxes
    logged = g < log.shape[0]
    for turn in range(turns):
        stop_values(tables, values, mask, armed, up, stop, column, entries, space)
        if positions > 0:
            sweep(stop, 0, positions, t0, keeps)
        keep = 0
        pos = positions
        step = 0
        while True:
            k = keep
            while size[k] < n_dice:
                k = child[k, die(rng, g)]
            r = k - t0.first_roll
            s = 1 if sharp and keep == 0 else 0
            if logged:
                log[g, turn, step, 0] = keep
                log[g, turn, step, 1] = r
                log[g, turn, step, 2] = 0
                step += 1
            if pos == 0:
                break
            best = stop[0, s, r, 0]
            keep = -1
            for j in range(subs.shape[1]):
                q = subs[r, j]
                if q < 0:
                    break
                v = keeps[pos - 1, q, 0]
                if v > best:
                    best = v
                    keep = q
            if keep < 0:
                break
            pos -= 1
        c = column[s, r]
        box, p, extra = entries[s, r, 0], entries[s, r, 1], entries[s, r, 2]
        t = tables[c]
        after, armed_after, up_after, crossed = entry(
            scoring(t),
            mask[c],
            armed[c],
            box,
            p,
            up[c],
        )
        totals[g, c, 0] += p + extra + (t.upper_bonus if crossed else 0)
        if crossed:
            totals[g, c, 1] = 1
        if box == t.five and p > 0:
            totals[g, c, 2] = 1
        if extra > 0:
            totals[g, c, 3] += 1
        mask[c], armed[c], up[c] = after, armed_after, up_after
        if logged:
            log[g, turn, step, 0] = -2
            log[g, turn, step, 1] = c
            log[g, turn, step, 2] = (box << 16) | p
    for c in range(n_cols):
        state[g, c, 0], state[g, c, 1], state[g, c, 2] = mask[c], armed[c], up[c]


@njit(cache=True, nogil=True)
def play_games(
    tables: Any, values: Any, rolls: int, rng: Any, state: Any, totals: Any, log: Any, first: int, last: int
) -> None:  # pragma: no cover
    """:func:`play_game` for games ``first .. last - 1`` of ``rng`` (one dice stream each). Threads run
    parts of a batch side by side (the kernel releases the GIL): numba's parallel loops cannot take the
    columns' tables, a tuple of tuples of arrays."""
    for g in range(first, last):
        play_game(g, tables, values, rolls, rng, state, totals, log)
