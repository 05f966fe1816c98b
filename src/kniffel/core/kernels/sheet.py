"""numba kernels of a turn on a sheet of several columns, each valued by its own single-column table.

A multi-column sheet has no exact table, but each column can be given one as if played alone: entering
points in a column is valued as the points plus the change in that column's table value (the *column
estimate* of :mod:`kniffel.planning.columns`; the heuristic planner builds such tables too). Everything a
turn needs is then a solver kernel already: the best entry of every roll in one column is
:func:`~kniffel.core.kernels.common.score_values` of a one-lane segment (the column's state) on the column's
table, the best over the sheet is the maximum over the open columns of that less the column's value
before, and the keep values before every throw are :func:`~kniffel.core.kernels.common.sweep` over those stop
values. Announcing a box of an announced column after the first throw is a lane of its own: its stop
values are the roll's points in that box or else the best strike anywhere, swept like the others.

The planner asks :func:`turn_values` for one position; :func:`play_games` plays whole games with the same
steps. Columns come as ``tables`` (:class:`SheetTables`: the columns' kernel tables, all of one rule set
apart from the fill order, as one table and what the order changes in it), ``values``
(``[column, aux, mask, up]``, the columns' tables stacked) and ``announced`` (``[column]``: 1 for an
announced column, valued by a free column's table), whose length is the number of columns. Sheets with
free throws are not covered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.common import (
    NEG,
    enter,
    entry_values,
    joker_applies,
    score_values,
    scoring,
    settle,
    sweep,
)
from kniffel.core.kernels.play import Announcing, Turn, play_throws, record
from kniffel.core.kernels.records import EntryState, KernelTables, Lanes, Lattice, borrowing, wide

ORDER_FIELDS = ("rolls", "allowed", "jpts", "jbonus")
"""The fields of :class:`~.records.KernelTables` that a column's fill order changes: where a
box may be entered, and so where the joker puts five alike; and the throws a turn that its values assume
(:mod:`kniffel.planning.columns` values an ordered column with more than the rules give)."""


class SheetTables(NamedTuple):
    """The kernel tables of a sheet's columns as the kernels take them (:func:`sheet_tables`): the first
    column's (``first``) and, stacked by column, the fields its fill order changes (:data:`ORDER_FIELDS`);
    :func:`column_of` puts a column's together. A tuple of the columns' tables would have been simpler,
    but numba compiles a kernel once for each length of a tuple argument (about 25 s of both processors
    for :func:`turn_values` and :func:`play_games` again), and indexes it by a column's number through a
    branch per column at every use (four columns padded: 37 s to compile where one took 28 s)."""

    first: KernelTables
    rolls: Any
    allowed: Any
    jpts: Any
    jbonus: Any


def sheet_tables(tables: Sequence[KernelTables]) -> SheetTables:
    """The columns' kernel tables (one per column, in order) as a :class:`SheetTables`; a ``ValueError``
    if they differ in more than their fill order."""
    if not tables:
        raise ValueError("a sheet has at least one column")
    first = tables[0]
    for c, t in enumerate(tables[1:], start=1):
        for name in KernelTables._fields:
            if name in ORDER_FIELDS:
                continue
            mine, theirs = getattr(t, name), getattr(first, name)
            same = np.array_equal(mine, theirs) if isinstance(mine, np.ndarray) else mine == theirs
            if not same:
                raise ValueError(f"column {c} differs from the first in {name}, not only in its fill order")
    stacked = []
    for name in ORDER_FIELDS:
        field = np.stack([np.asarray(getattr(t, name)) for t in tables])
        # a column's slice must be typed as the first column's field (read-only or not) for the kernels
        # to take it where they take that field: a second typing would compile them once more
        field.flags.writeable = np.asarray(getattr(first, name)).flags.writeable
        stacked.append(field)
    return SheetTables(first, *stacked)


@njit(cache=True, nogil=True, inline="always")
def column_of(tables: SheetTables, c: int) -> KernelTables:  # pragma: no cover
    """Column ``c``'s :class:`~kniffel.core.kernels.records.KernelTables` (:class:`SheetTables`)."""
    t = tables.first
    return KernelTables(
        t.n_boxes,
        t.five,
        t.n_armed,
        t.n_free,
        t.free_points,
        t.per_turn,
        tables.rolls[c],
        t.joker,
        t.threshold,
        t.upper_bonus,
        t.upper_mask,
        tables.allowed[c],
        t.alike,
        tables.jpts[c],
        tables.jbonus[c],
        t.lanes,
        t.pair_box,
        t.pair_pts,
        t.nonzero,
        t.first_roll,
        t.size,
        t.child,
        t.parent,
        t.roll_probs,
        t.choices,
    )


def stacked_values(values: Sequence[Any]) -> Any:
    """The columns' single-column tables (``[aux, mask, up]`` each) as the kernels take them, one array
    ``[column, aux, mask, up]``: columns may track different states (an ordered column may not need the
    armed flag), so each is padded to the largest, and the kernels index a column's table by its
    number."""
    shape = tuple(max(v.shape[i] for v in values) for i in range(3))
    stacked = np.zeros((len(values), *shape))
    for c, v in enumerate(values):
        stacked[c, : v.shape[0], : v.shape[1], : v.shape[2]] = v
    return stacked


class ColumnEntries(NamedTuple):
    """What :func:`column_values` finds for each column ``c`` alone: ``gains[c, at_once, roll]``, the value
    of entering each roll in its best box there relative to the column's value before; ``entries[c,
    at_once, roll]``, that entry's ``(box, points, extra bonus)``; ``strikes[c]``, the best strike's
    ``(value, box)``."""

    gains: Any
    entries: Any
    strikes: Any


@njit(cache=True, nogil=True)
def scratch(tables: Any) -> tuple[Any, Any, Any, Any]:  # pragma: no cover
    """Space for :func:`stop_values`: the entry rows (as many as the column with the most pairs needs),
    the strike box, one column's scoring values and the entry each is the best of."""
    t0 = tables.first
    n_s, n_rolls, _ = t0.nonzero.shape
    rows = np.empty((t0.pair_box.shape[0] + 2, 1))
    strike_box = np.empty(1, dtype=np.int64)
    out = np.empty((n_s, n_rolls, 1))
    choice = np.empty((n_s, n_rolls, 1), dtype=np.int32)
    return rows, strike_box, out, choice


@njit(cache=True, nogil=True)
def column_values(
    c: int,
    t: Any,
    values: Any,
    announced: Any,
    mask: Any,
    armed: Any,
    up: Any,
    found: ColumnEntries,
    space: tuple[Any, Any, Any, Any],
) -> None:  # pragma: no cover
    """Column ``c`` (its kernel tables ``t``, state ``mask[c]``, ``armed[c]``, ``up[c]``) alone, into
    ``found``: the best entry of each roll there (NEG in an announced column, which takes points only
    after an announcement) and the best strike. A turn changes one column, so a game recomputes only
    that one."""
    rows, strike_box, out, choice = space
    gains, entries, strikes = found.gains, found.entries, found.strikes
    n_s, n_rolls = gains.shape[1], gains.shape[2]
    segment = np.empty((1, 4), dtype=np.int64)
    segment[0, 0], segment[0, 1], segment[0, 2], segment[0, 3] = mask[c], armed[c], up[c], 1
    n_rows = t.pair_box.shape[0] + 2
    before = values[c, armed[c] * t.n_free, mask[c], up[c]]
    # no free throws: an int64 0, not a literal one, for which numba would compile both once more
    none = wide(0)
    if announced[c]:
        entry_values(
            segment, none, values[c], scoring(t), t.allowed, t.pair_box, t.pair_pts, rows[:n_rows], strike_box
        )
    else:
        score_values(segment, none, values[c], t, rows[:n_rows], strike_box, out, choice)
    strikes[c, 0], strikes[c, 1] = rows[n_rows - 2, 0] - before, strike_box[0]
    for s in range(n_s):
        for r in range(n_rolls):
            if announced[c]:
                gains[c, s, r] = NEG
                continue
            gains[c, s, r] = out[s, r, 0] - before
            j = int(choice[s, r, 0])
            if j < 0:
                box = -1 - j
                face = t.alike[r]
                entries[c, s, r, 0] = box
                entries[c, s, r, 1] = t.jpts[mask[c], armed[c], s, face, box]
                entries[c, s, r, 2] = t.jbonus[mask[c], armed[c], face]
            elif j == n_rows - 2:
                entries[c, s, r, 0], entries[c, s, r, 1], entries[c, s, r, 2] = strike_box[0], 0, 0
            else:
                entries[c, s, r, 0], entries[c, s, r, 1], entries[c, s, r, 2] = (
                    t.pair_box[j],
                    t.pair_pts[j],
                    0,
                )


@borrowing
def stop_values(
    full: Any, mask: Any, gains: Any, strikes: Any, stop: Any, column: Any, floor: Any
) -> None:  # pragma: no cover
    """``stop[0, at_once, roll, 0]``: the best value of ending the turn on each roll, entered in any open
    column (:func:`column_values`) or struck, relative to the columns' values before; ``column[at_once,
    roll]`` is the column it goes in (its entry is in that column's ``entries``, or is the strike of
    ``floor`` where ``floor`` beats every entry). ``floor`` gets ``(value, column, box)`` of the best
    strike anywhere, which is all an announced column offers without an announcement. ``full`` is a
    column's mask once filled."""
    n_s, n_rolls = column.shape
    for s in range(n_s):
        for r in range(n_rolls):
            stop[0, s, r, 0] = NEG
            column[s, r] = -1
    floor[0], floor[1], floor[2] = NEG, -1, -1
    for c in range(mask.shape[0]):
        if mask[c] == full:
            continue
        if strikes[c, 0] > floor[0]:
            floor[0], floor[1], floor[2] = strikes[c, 0], c, strikes[c, 1]
        for s in range(n_s):
            for r in range(n_rolls):
                v = gains[c, s, r]
                if v > stop[0, s, r, 0]:
                    stop[0, s, r, 0] = v
                    column[s, r] = c
    for s in range(n_s):
        for r in range(n_rolls):
            if floor[0] > stop[0, s, r, 0]:
                stop[0, s, r, 0] = floor[0]
                column[s, r] = -1


@njit(cache=True, nogil=True)
def sheet_space(tables: Any, n_cols: int) -> ColumnEntries:  # pragma: no cover
    """Space for :func:`column_values` for every one of the ``n_cols`` columns."""
    n_s, n_rolls, _ = tables.first.nonzero.shape
    gains = np.empty((n_cols, n_s, n_rolls))
    entries = np.empty((n_cols, n_s, n_rolls, 3), dtype=np.int64)
    strikes = np.empty((n_cols, 2))
    return ColumnEntries(gains, entries, strikes)


@njit(cache=True, nogil=True)
def announceable(tables: Any, announced: Any, mask: Any) -> Any:  # pragma: no cover
    """``[lane, (column, box)]``: the open boxes of the announced columns, in column and box order."""
    count = 0
    for c in range(announced.shape[0]):
        if announced[c]:
            for b in range(tables.first.n_boxes):
                count += (mask[c] >> b) & 1 == 0
    lanes = np.empty((count, 2), dtype=np.int64)
    i = 0
    for c in range(announced.shape[0]):
        if announced[c]:
            for b in range(tables.first.n_boxes):
                if (mask[c] >> b) & 1 == 0:
                    lanes[i, 0], lanes[i, 1] = c, b
                    i += 1
    return lanes


@njit(cache=True, nogil=True)
def box_pairs(tables: Any, announced: Any) -> Any:  # pragma: no cover
    """``[column, box, at_once, roll]``: the pair of the column's table (``pair_box``, ``pair_pts``) that a
    roll scores in the box, -1 where it scores nothing there; for the announced columns, whose lanes take
    a roll's points in one box, so that a lane looks them up instead of searching the roll's pairs."""
    t = tables.first  # every column has the first's pairs (only the boxes open to them differ)
    n_s, n_rolls, _ = t.nonzero.shape
    n_cols = announced.shape[0]
    pairs = np.full((n_cols, t.n_boxes, n_s, n_rolls), -1, dtype=np.int32)
    for c in range(n_cols):
        if not announced[c]:
            continue
        for s in range(n_s):
            for r in range(n_rolls):
                for i in range(t.nonzero.shape[2]):
                    j = t.nonzero[s, r, i]
                    if j < 0:
                        break
                    pairs[c, t.pair_box[j], s, r] = j
    return pairs


@njit(cache=True, nogil=True)
def announced_values(
    tables: Any, values: Any, mask: Any, armed: Any, up: Any, lanes: Any, pairs: Any, worth: Any, points: Any
) -> None:  # pragma: no cover
    """``worth[at_once, roll, lane]``: the value of entering each roll in the box of ``lane``
    (:func:`announceable`) once it is announced, relative to its column's value before (NEG where the
    joker may not put it there), and ``points[at_once, roll, lane]`` the entry's ``(points << 16) |
    extra``. They depend on the announced column alone, so a game recomputes them only when it changes.
    Outside the joker a roll's value in the box depends only on which pair of ``pairs``
    (:func:`box_pairs`) it scores there, so each pair is entered once."""
    n_s, n_rolls = worth.shape[0], worth.shape[1]
    one = np.empty((1, 1))
    paid = np.empty(tables.first.pair_box.shape[0])
    for lane in range(lanes.shape[0]):
        c, b = lanes[lane, 0], lanes[lane, 1]
        t = column_of(tables, c)
        n = scoring(t)
        m, a = mask[c], armed[c]
        before = values[c, a * t.n_free, m, up[c]]
        joker = joker_applies(n, m)
        state, one_lane = EntryState(m, a, 0), Lanes(up[c], 1, 0)
        enter(values[c], n, state, b, 0, 0, one_lane, one, 0)
        nothing = one[0, 0] - before
        for j in range(t.pair_box.shape[0]):
            if t.pair_box[j] == b:
                enter(values[c], n, state, b, int(t.pair_pts[j]), 0, one_lane, one, 0)
                paid[j] = one[0, 0] - before
        for s in range(n_s):
            for r in range(n_rolls):
                if joker and t.alike[r] >= 0:
                    p = int(t.jpts[m, a, s, t.alike[r], b])
                    extra = int(t.jbonus[m, a, t.alike[r]])
                    v = NEG
                    if p >= 0:
                        enter(values[c], n, state, b, p, extra, one_lane, one, 0)
                        v = one[0, 0] - before
                else:
                    j = pairs[c, b, s, r]
                    extra = 0
                    if j < 0:
                        p, v = 0, nothing
                    else:
                        p, v = int(t.pair_pts[j]), paid[j]
                worth[s, r, lane] = v
                points[s, r, lane] = (p << 16) | extra


@borrowing
def announced_stop(worth: Any, width: int, floor: Any, stop: Any, bound: Any) -> None:  # pragma: no cover
    """``stop[0, at_once, roll, lane]`` for the first ``width`` lanes of :func:`announced_values`: the
    value of ending the turn on each roll once the lane's box is announced, the entry there or the best
    strike anywhere (``floor``) where that is better or the roll may not go there; ``bound[lane]`` the
    best of the lane's stop values, which no keep of the lane is worth more than."""
    f = floor[0]
    for lane in range(width):
        bound[lane] = NEG
    for s in range(worth.shape[0]):
        for r in range(worth.shape[1]):
            for lane in range(width):
                v = worth[s, r, lane]
                x = v if v >= f else f
                stop[0, s, r, lane] = x
                bound[lane] = max(bound[lane], x)


@njit(cache=True, nogil=True)
def turn_values(
    tables: Any, values: Any, announced: Any, mask: Any, armed: Any, up: Any, rolls: int
) -> tuple[Any, Any, Any]:  # pragma: no cover
    """One position of a sheet, relative to the columns' values before the turn: ``stop[at_once, roll,
    lane]`` and ``keeps[p - 1, keep, lane]``, the value of holding ``keep`` and throwing the rest with
    ``p`` throws left (``p`` from 1 to ``rolls - 1``); lane 0 without an announcement, lane ``1 + i``
    after announcing the box of row ``i`` of the third result (:func:`announceable`)."""
    t0 = tables.first
    n_s, n_rolls, _ = t0.nonzero.shape
    lanes = announceable(tables, announced, mask)
    width = lanes.shape[0] + 1
    stop = np.empty((1, n_s, n_rolls, width))
    column = np.empty((n_s, n_rolls), dtype=np.int64)
    floor = np.empty(3)
    found = sheet_space(tables, mask.shape[0])
    space = scratch(tables)
    full = (1 << t0.n_boxes) - 1
    for c in range(mask.shape[0]):
        if mask[c] != full:
            column_values(c, column_of(tables, c), values, announced, mask, armed, up, found, space)
    plain = np.empty((1, n_s, n_rolls, 1))
    stop_values(full, mask, found.gains, found.strikes, plain, column, floor)
    stop[:, :, :, 0] = plain[:, :, :, 0]
    worth = np.empty((n_s, n_rolls, width - 1))
    points = np.empty((n_s, n_rolls, width - 1), dtype=np.int64)
    announced_values(tables, values, mask, armed, up, lanes, box_pairs(tables, announced), worth, points)
    announced_stop(worth, width - 1, floor, stop[:, :, :, 1:], np.empty(width - 1))
    keeps = np.empty((max(rolls - 1, 1), t0.first_roll, width))
    if rolls > 1:
        sweep(stop, 0, rolls - 1, t0, keeps)
    return stop[0].copy(), keeps, lanes


@njit(cache=True, nogil=True, inline="always")
def padded_width(width: int) -> int:  # pragma: no cover
    return width if width < 4 else (width + 7) // 8 * 8


@njit(cache=True, nogil=True)
def play_games(
    tables: Any,
    values: Any,
    announced: Any,
    rolls: int,
    margin: float,
    rng: Any,
    totals: Any,
    log: Any,
    first: int,
    last: int,
) -> None:  # pragma: no cover
    """Games ``first .. last - 1`` of ``rng`` (one dice stream each), each from the empty sheet to the full
    one. Threads run parts of a batch side by side (the kernel releases the GIL): numba's parallel loops
    cannot take the columns' tables, a tuple holding a tuple of arrays.

    For game ``g``, ``totals[g, c]`` gets column ``c``'s ``(points, upper bonus, points in the five box,
    extra bonuses)``. With ``log`` (``[game, turn, step, 3]``, first games only) every throw is recorded
    as ``(keep, roll, 0)``, an announcement as ``(-3, column, box)`` and the entry as ``(-2, column, box
    << 16 | points)``."""
    pairs = box_pairs(tables, announced)
    t0 = tables.first
    n_cols = announced.shape[0]
    n_s, n_rolls, _ = t0.nonzero.shape
    lattice = Lattice(t0.size, t0.child, t0.choices, t0.first_roll)
    positions = rolls - 1
    most = 1 + announced.sum() * t0.n_boxes
    turns = n_cols * t0.n_boxes
    # A sweep costs mostly per call and per vector of lanes, hardly per lane: every lane of a turn goes
    # in one call, from four lanes on padded to a multiple of eight (the padding a copy of lane 0), which
    # the sweep's vectorised loops take whole (measured: four or seven lanes cost more than eight). The
    # turn's arrays are cut from these as contiguous ones.
    most = padded_width(most)
    stop_space = np.empty(n_s * n_rolls * most)
    keeps_space = np.empty(max(positions, 1) * t0.first_roll * most)
    # the announced lanes' entries, recomputed when an announced column changes
    worth = np.empty((n_s, n_rolls, most))
    points = np.empty((n_s, n_rolls, most), dtype=np.int64)
    column = np.empty((n_s, n_rolls), dtype=np.int64)
    floor = np.empty(3)
    bound = np.empty(most)
    space = scratch(tables)
    found = sheet_space(tables, n_cols)
    full = (1 << t0.n_boxes) - 1
    keeps0 = np.empty((max(positions, 1), t0.first_roll, 1))
    # the space above serves the games one after the other: each writes what it reads before reading it
    for g in range(first, last):
        mask = np.zeros(n_cols, dtype=np.int64)
        armed = np.zeros(n_cols, dtype=np.int64)
        up = np.zeros(n_cols, dtype=np.int64)
        for c in range(n_cols):
            column_values(c, column_of(tables, c), values, announced, mask, armed, up, found, space)
        lanes = announceable(tables, announced, mask)
        stale = True
        # The announced lanes' stop values change only with their entries and the best strike: while both
        # stay, their keeps in ``keeps_space`` are still the last sweep's, and lane 0 is swept alone.
        swept_width, swept_floor = -1, NEG
        for turn in range(turns):
            if stale:
                lanes = announceable(tables, announced, mask)
                announced_values(tables, values, mask, armed, up, lanes, pairs, worth, points)
                stale = False
                swept_width = -1
            width = lanes.shape[0] + 1
            padded = padded_width(width)
            stop = stop_space[: n_s * n_rolls * padded].reshape((1, n_s, n_rolls, padded))
            keeps = keeps_space[: max(positions, 1) * t0.first_roll * padded].reshape(
                (max(positions, 1), t0.first_roll, padded)
            )
            stop_values(full, mask, found.gains, found.strikes, stop[:, :, :, :1], column, floor)
            if width > 1:
                announced_stop(worth, width - 1, floor, stop[:, :, :, 1:width], bound[1:width])
            if padded > width:
                for s in range(n_s):
                    for r in range(n_rolls):
                        for i in range(width, padded):
                            stop[0, s, r, i] = stop[0, s, r, 0]
            if positions > 0 and width > 1 and width == swept_width and floor[0] == swept_floor:
                sweep(stop[:, :, :, :1], 0, positions, t0, keeps0)
                for q in range(positions):
                    for k in range(t0.first_roll):
                        keeps[q, k, 0] = keeps0[q, k, 0]
            elif positions > 0:
                sweep(stop, 0, positions, t0, keeps)
                swept_width, swept_floor = width, floor[0]
            # after the first throw: announcing is chosen only when better by more than ``margin``
            announcing = Announcing(width, bound, margin, lanes)
            played = Turn(turn, -1, log)
            r, s, _, lane, step = play_throws(
                rng, g, g, played, lattice, stop, keeps, positions, 0, announcing
            )
            if lane > 0 and worth[s, r, lane - 1] >= floor[0]:
                c, box = lanes[lane - 1, 0], lanes[lane - 1, 1]
                p, extra = points[s, r, lane - 1] >> 16, points[s, r, lane - 1] & 0xFFFF
            elif lane > 0 or column[s, r] < 0:
                c, box, p, extra = int(floor[1]), int(floor[2]), 0, 0
            else:
                c = column[s, r]
                box, p, extra = (
                    found.entries[c, s, r, 0],
                    found.entries[c, s, r, 1],
                    found.entries[c, s, r, 2],
                )
            t = column_of(tables, c)
            after, armed_after, up_after, gained, marks = settle(
                scoring(t), mask[c], armed[c], box, p, up[c], extra
            )
            totals[g, c, 0] += gained
            totals[g, c, 1] |= marks & 1
            totals[g, c, 2] |= marks >> 1
            if extra > 0:
                totals[g, c, 3] += 1
            mask[c], armed[c], up[c] = after, armed_after, up_after
            stale = stale or announced[c] == 1
            if after != full:
                column_values(c, t, values, announced, mask, armed, up, found, space)
            record(log, g, turn, step, -2, c, (box << 16) | p)
