"""numba kernels of :mod:`kniffel.core.play`: dice streams and one turn of many games.

A turn is decided with the DP's own kernels over the same tables: the scoring values of every roll and
the entry each is the best of (:func:`~.common.score_values`), the keep values before every
throw (:func:`~.common.sweep`), and what entering points does to a game
(:func:`~.common.settle`), so the games follow exactly the rules and values the table was
solved for.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from kniffel.core.kernels.common import best_keep, entry_rows, score_values, scoring, settle, sweep
from kniffel.core.kernels.records import KernelTables, Lattice, Scoring, borrowing

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_SIX = np.uint64(6)
_ONE = np.uint64(1)
MASK64 = (1 << 64) - 1
"""A game number or seed taken as the unsigned 64 bits the dice streams start from."""


class Turn(NamedTuple):
    """The turn being played: its number (0 for a game's first), the seat whose dice are thrown (-1:
    every game's own stream, :func:`die`; else that seat's in the deal, :func:`deal_start`) and the log
    that keeps its decisions (see :func:`kniffel.core.play.play_turn`)."""

    number: int
    seat: int
    log: Any


class TurnTables(NamedTuple):
    """The decision tables of a turn in its lanes (:func:`turn_tables`): ``sv[k, at_once, roll, lane]``
    (the scoring values of every roll at level ``k``: ``k`` free throws more left after the turn than if
    it took every one it may), ``strike_box[k, lane]`` and ``choice[k, at_once, roll, lane]`` (the entry
    each scoring value is the best of, as :func:`~kniffel.core.kernels.common.score_values` records it: a pair
    row, the strike row with its box, or ``-1 - box`` for a five of a kind the extra rules place) and
    ``table[pos - 1, keep, lane]`` (the value of holding a keep when the throw leaves ``pos - 1``
    throws)."""

    sv: Any
    strike_box: Any
    choice: Any
    table: Any


class Grouping(NamedTuple):
    """The games grouped for one turn (:func:`work`): ``order`` (the games by key, their state as a
    sortable number), ``keys`` (those keys, in that order), ``starts`` (where each work item starts in
    ``order``) and ``bundles`` (where each bundle starts among the items); ``starts`` and ``bundles`` end
    with the total."""

    keys: Any
    order: Any
    starts: Any
    bundles: Any


@njit(cache=True, nogil=True, inline="always")
def mix(z: Any) -> Any:  # pragma: no cover
    """splitmix64's finaliser: consecutive counters become independent-looking 64-bit words."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True)
def streams(base: Any, first: Any, n: int) -> Any:  # pragma: no cover
    """The starting state of the dice stream of games ``first .. first + n - 1``."""
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = mix(base + (first + np.uint64(i) + _ONE) * GOLDEN)
    return out


@njit(cache=True, nogil=True, inline="always")
def die(rng: Any, g: int) -> Any:  # pragma: no cover
    """The next face (0-5) of game ``g``'s stream (multiply-shift: bias below 2**-29)."""
    state = rng[g] + GOLDEN
    rng[g] = state
    return np.int64(((mix(state) >> _S32) * _SIX) >> _S32)


class Games(NamedTuple):
    """The state of a batch of games between turns (one entry per game), as the kernels take it."""

    mask: npt.NDArray[np.int64]
    up: npt.NDArray[np.int32]
    """Upper-section score, capped at the bonus threshold."""
    armed: npt.NDArray[np.int8]
    free: npt.NDArray[np.int8]
    score: npt.NDArray[np.int64]
    rng: npt.NDArray[np.uint64]
    flags: npt.NDArray[np.int8]
    """Bit 0: upper bonus reached; bit 1: points in the five-of-a-kind box."""
    extras: npt.NDArray[np.int64]

    @classmethod
    def new(cls, n: int, free: int, base: int, first_game: int) -> Games:
        return cls(
            np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int32),
            np.zeros(n, dtype=np.int8),
            np.full(n, free, dtype=np.int8),
            np.zeros(n, dtype=np.int64),
            streams(np.uint64(base), np.uint64(first_game & MASK64), n),
            np.zeros(n, dtype=np.int8),
            np.zeros(n, dtype=np.int64),
        )


@njit(cache=True, nogil=True)
def take(values: Any, which: Any) -> Any:  # pragma: no cover
    """``values[which]``, one array at a time (a loop over every field at once ran a third slower: eight
    arrays at once do not stay in the cache)."""
    out = np.empty(which.shape[0], dtype=values.dtype)
    for i in range(which.shape[0]):
        out[i] = values[which[i]]
    return out


@borrowing
def put(values: Any, which: Any, taken: Any) -> None:  # pragma: no cover
    """``values[which] = taken``, the other way of :func:`take`."""
    for i in range(which.shape[0]):
        values[which[i]] = taken[i]


@njit(cache=True, nogil=True)
def gather(games: Games, which: Any) -> Games:  # pragma: no cover
    """The state of the games ``which`` in arrays of their own, in that order. A bundle's games are
    played from such a copy, side by side in memory: read and written where they lie, one game here and
    the next far off, they took half of the games' own time (a bundle's games are consecutive in the
    grouping's order, not in the batch)."""
    return Games(
        take(games.mask, which),
        take(games.up, which),
        take(games.armed, which),
        take(games.free, which),
        take(games.score, which),
        take(games.rng, which),
        take(games.flags, which),
        take(games.extras, which),
    )


@borrowing
def scatter(played: Games, which: Any, games: Games) -> None:  # pragma: no cover
    """Put the state of ``played`` (made by :func:`gather` from ``which``) back into ``games``."""
    put(games.mask, which, played.mask)
    put(games.up, which, played.up)
    put(games.armed, which, played.armed)
    put(games.free, which, played.free)
    put(games.score, which, played.score)
    put(games.rng, which, played.rng)
    put(games.flags, which, played.flags)
    put(games.extras, which, played.extras)


@njit(cache=True, nogil=True, inline="always")
def deal_start(seed: Any, seat: int, turn: int, throw: int) -> Any:  # pragma: no cover
    """Where the dice of throw ``throw`` (1 for a turn's first) of ``seat``'s turn ``turn`` in the deal
    with ``seed`` start: the same whoever sits there and whatever was played before (duplicate play,
    :class:`kniffel.services.tournament.DealDice`)."""
    position = np.uint64((seat << 40) | (turn << 20) | throw)
    return mix(np.uint64(seed) ^ mix(position))


@njit(cache=True, nogil=True, inline="always")
def deal_next(x: Any) -> tuple[Any, Any]:  # pragma: no cover
    """The next face (0-5) of a deal's throw and the state after it; a throw of ``n`` dice takes the
    first ``n`` faces from its start."""
    x = mix(x + GOLDEN)
    return x, np.int64(x % _SIX)


@borrowing
def deal_faces(seed: Any, seat: int, turn: int, throw: int, out: Any) -> None:  # pragma: no cover
    """``out[i]``: the faces (1-6) of a deal's throw (:func:`deal_start`), as many as ``out`` holds."""
    x = deal_start(seed, seat, turn, throw)
    for i in range(out.shape[0]):
        x, face = deal_next(x)
        out[i] = face + 1


@njit(cache=True, nogil=True, inline="always")
def throw(
    rng: Any, g: int, keep: int, size: Any, child: Any, n_dice: int, seat: int, turn: int, number: int
) -> int:  # pragma: no cover
    """The roll (a keep of every die) that throwing the dice ``keep`` lacks shows: with ``seat`` -1 the
    next faces of game ``g``'s stream (:func:`die`), else throw ``number`` (1 for the turn's first) of
    ``seat``'s turn ``turn`` in the deal whose seed ``rng[g]`` holds (:func:`deal_start`)."""
    k = keep
    if seat < 0:
        while size[k] < n_dice:
            k = child[k, die(rng, g)]
    else:
        x = deal_start(rng[g], seat, turn, number)
        while size[k] < n_dice:
            x, face = deal_next(x)
            k = child[k, face]
    return k


@njit(cache=True, nogil=True, inline="always")
def record(
    log: Any, g: int, turn: int, step: int, first: int, second: int, third: int
) -> int:  # pragma: no cover
    """Write step ``step`` of game ``g``'s turn ``turn`` into ``log`` if it keeps that game (see
    :func:`kniffel.core.play.play_turn`); the next step."""
    if g >= log.shape[0]:
        return step
    log[g, turn, step, 0] = first
    log[g, turn, step, 1] = second
    log[g, turn, step, 2] = third
    return step + 1


class Announcing(NamedTuple):
    """Lanes a turn may switch to after its first throw, each valued as its own column of the sweep: on a
    sheet of several columns, the announced boxes (:func:`kniffel.core.kernels.sheet.play_games`). Lane
    ``i`` (1 to ``width - 1``) is worth at most ``bound[i]`` and is chosen only when better than the
    turn's own lane (0) by more than ``margin``; ``boxes[i - 1]`` is its ``(column, box)``, logged."""

    width: int
    bound: Any
    margin: float
    boxes: Any


@njit(cache=True, nogil=True, inline="always")
def play_throws(
    rng: Any,
    at: int,
    g: int,
    turn: Turn,
    lattice: Lattice,
    sv: Any,
    table: Any,
    positions: int,
    lane: int,
    announcing: Any,
) -> tuple[int, int, int, int, int]:  # pragma: no cover
    """A turn's throws and keeps, ``positions`` of them at most (the first throw leaves that many), each
    keep the best by lane ``lane`` of ``sv`` (scoring values, as :class:`TurnTables` holds them: level
    ``k`` where ``k`` of the turn's usable free throws, ``sv.shape[0] - 1``, are left unused) and ``table``
    (the keep values :func:`~.common.sweep` wrote), until the turn scores: the roll, whether
    it was thrown at once, the level, the lane (with ``announcing``, None where nothing is, the lane
    switched to after the first throw) and the next step of the log. Every compiled game that plays by
    the sweep's tables throws here: the simulator's (:func:`play_game_turn`) and the sheet of several
    columns' (whose ordered columns are valued with more throws than the game has). The dice of game row
    ``at`` (:func:`throw`), logged in row ``g`` of ``turn.log``."""
    size, child, subs = lattice.size, lattice.child, lattice.choices
    n_dice = size[child.shape[0] - 1]
    sharp = sv.shape[1] == 2
    usable = sv.shape[0] - 1
    log, number, seat = turn.log, turn.number, turn.seat
    keep = 0
    pos = positions
    step = 0
    throws = 0
    while True:
        throws += 1
        r = throw(rng, at, keep, size, child, n_dice, seat, number, throws) - lattice.first_roll
        s = 1 if sharp and keep == 0 else 0
        step = record(log, g, number, step, keep, r, 0)
        if pos == 0:
            break
        level = pos if pos <= usable else usable
        best, keep = best_keep(table, pos - 1, subs, r, sv[level, s, r, lane], lane)
        if announcing is not None and pos == positions and announcing.width > 1:
            # the first of equally good lanes in order; none is worth more than its bound
            own, chosen = best, 0
            for i in range(1, announcing.width):
                if announcing.bound[i] - announcing.margin <= own:
                    continue
                v, q = best_keep(table, pos - 1, subs, r, sv[level, s, r, i], i)
                if v - announcing.margin > best:
                    best, keep, chosen = v - announcing.margin, q, i
            if chosen > 0:
                lane = chosen
                c, box = announcing.boxes[lane - 1, 0], announcing.boxes[lane - 1, 1]
                step = record(log, g, number, step, -3, c, box)
        if keep < 0:
            break
        pos -= 1
    return r, s, (pos if pos <= usable else usable), lane, step


@njit(cache=True, nogil=True)
def key_order(keys: Any) -> tuple[Any, Any]:  # pragma: no cover
    """The indices of ``keys`` (none negative) in the order of their keys (as ``np.argsort`` gives them, up
    to the order among equal keys, which no caller reads) and the keys in that order. A counting sort: in
    one pass over a counter per key value where the keys span at most eight times as many values as there
    are keys (a turn of half a million Yahtzee games: 2**20 values), else in passes of 16 bits each (two
    below 2**32, which the games' keys are). Each pass carries the keys along, so that the next pass and
    the grouping read them in order instead of gathering them through the indices. The scattered writes
    cost most: on a Zen 1 the 13 turns of half a million games took 0.23 s to sort in one pass, 0.35 s in
    two passes gathering the keys. (Past 2**32 it took ``np.argsort`` once, whose sort alone took 2.3 s of
    the grouping's 7.5 s to compile on a Zen 1.)"""
    n = keys.shape[0]
    if n == 0:
        return np.arange(0), keys.copy()
    # the least and the largest key in one loop: numpy's min and max took 0.5 s of a first run to compile
    least, top = keys[0], keys[0]
    for i in range(1, n):
        least, top = min(least, keys[i]), max(top, keys[i])
    if least < 0:
        raise ValueError("the games' keys are not negative")
    bits = 16
    if top < max(1 << 16, 8 * n):
        bits = 1
        while top >> bits:
            bits += 1
    digit = (1 << bits) - 1
    order, ordered = np.arange(n), keys.copy()
    spare_order, spare_keys = np.empty_like(order), np.empty_like(ordered)
    counts = np.empty(1 << bits, dtype=np.int32)
    shift = 0
    while True:
        counts[:] = 0
        for i in range(n):
            counts[(ordered[i] >> shift) & digit] += 1
        at = np.int32(0)
        for d in range(1 << bits):
            c = counts[d]
            counts[d] = at
            at += c
        for i in range(n):
            key = ordered[i]
            d = (key >> shift) & digit
            spare_order[counts[d]], spare_keys[counts[d]] = order[i], key
            counts[d] += 1
        order, spare_order = spare_order, order
        ordered, spare_keys = spare_keys, ordered
        shift += bits
        # a key has 63 bits: no shift past them
        if shift >= 63 or top >> shift == 0:
            return order, ordered


@njit(cache=True, nogil=True, inline="always")
def upper_lane(t: KernelTables, mask: int, up: int) -> Any:  # pragma: no cover
    """The upper score a state's turn is valued at: its own, but at least ``t.lanes[mask, 0]`` (below it
    every score is worth the same, the bonus out of reach), and 0 once every upper box is filled (then it
    matters no more)."""
    if (mask & t.upper_mask) == t.upper_mask:
        return 0
    return max(up, t.lanes[mask, 0])


@njit(cache=True, nogil=True)
def work(games: Any, t: KernelTables, gap: int, chunk: int, bundle: int) -> Grouping:  # pragma: no cover
    """The games grouped for one turn: a work item is a run of one state with upper scores no more than
    ``gap`` apart, at most ``chunk`` games; a bundle is consecutive items with the same free throws and at
    least ``bundle`` lanes between them, which share one pass over the keep lattice, or fewer once it
    holds ``chunk`` games (the threads take bundles: the first turns, where every game is in one of a
    few states, were played by one thread)."""
    mask, up, armed, free = games.mask, games.up, games.armed, games.free
    n = mask.shape[0]
    lanes = t.threshold + 1
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        bits = mask[i]
        keys[i] = (bits * t.n_armed * t.n_free + armed[i] * t.n_free + free[i]) * lanes
        keys[i] += upper_lane(t, bits, up[i])
    order, keys = key_order(keys)

    starts = np.empty(n + 1, dtype=np.int64)
    count = 0
    prev_group = -1
    prev_up = 0
    item_start = 0
    for i in range(n):
        key = keys[i]
        group = key // lanes
        key_up = key - group * lanes
        if i == 0 or group != prev_group or key_up - prev_up > gap or i - item_start >= chunk:
            starts[count] = i
            count += 1
            item_start = i
        prev_group = group
        prev_up = key_up
    starts[count] = n

    bundles = np.empty(count + 1, dtype=np.int64)
    n_bundles = 0
    width = bundle
    prev_free = -1
    bundle_start = 0
    for item in range(count):
        g0 = order[starts[item]]
        if width >= bundle or free[g0] != prev_free or starts[item] - bundle_start >= chunk:
            bundles[n_bundles] = item
            n_bundles += 1
            width = 0
            bundle_start = starts[item]
        prev_free = free[g0]
        width += keys[starts[item + 1] - 1] % lanes - keys[starts[item]] % lanes + 1
    bundles[n_bundles] = count
    return Grouping(keys, order, starts[: count + 1], bundles[: n_bundles + 1])


@borrowing
def play_game_turn(
    games: Any, at: int, g: int, turn: Turn, t: KernelTables, n: Scoring, tables: TurnTables, lane: int
) -> tuple[int, int]:  # pragma: no cover
    """Game ``g``'s throws, keeps and entry from the state it is in (row ``at`` of ``games``: ``g`` itself,
    or its row in a copy made by :func:`gather`; ``g`` is its row in ``turn.log``), decided by lane
    ``lane`` of its turn's ``tables`` (:func:`turn_tables`; its scoring values counted from the free
    throws left once every usable one is taken): the box it filled and the points entered there (extra
    and upper bonuses apart). Whatever the tables value (points, or a chance of winning), the game is
    played the same way. ``turn.log`` as :func:`kniffel.core.play.play_turn` keeps it.

    The dice: with ``turn.seat`` -1, the next of game ``g``'s stream (``games.rng[at]``, :func:`die`); else
    the deal's dice of that seat (``games.rng[at]`` is the deal's seed, :func:`deal_start`)."""
    m, arm, fr = int(games.mask[at]), int(games.armed[at]), int(games.free[at])
    up, free, score, flags, extras = games.up, games.free, games.score, games.flags, games.extras
    usable = min(t.per_turn, fr)
    start = fr - usable
    strike = t.pair_box.shape[0]
    positions = usable + t.rolls - 1
    lattice, sv, table = Lattice(t.size, t.child, t.choices, t.first_roll), tables.sv, tables.table
    r, s, level, _, step = play_throws(games.rng, at, g, turn, lattice, sv, table, positions, lane, None)
    # the entry the scoring value was the best of
    j = int(tables.choice[level, s, r, lane])
    extra = 0
    if j < 0:
        box = -1 - j
        p = int(t.jpts[m, arm, s, t.alike[r], box])
        extra = int(t.jbonus[m, arm, t.alike[r]])
    elif j == strike:
        box = int(tables.strike_box[level, lane])
        p = 0
    else:
        box = int(t.pair_box[j])
        p = int(t.pair_pts[j])
    after, armed_after, up_after, gained, marks = settle(n, m, arm, box, p, int(up[at]), extra)
    flags[at] |= marks
    if extra > 0:
        extras[at] += 1
    games.mask[at] = after
    games.armed[at] = armed_after
    up[at] = up_after
    free[at] = start + level
    score[at] += gained
    record(turn.log, g, turn.number, step, -2, box, (p << 16) | extra)
    return box, p


@njit(cache=True, nogil=True)
def turn_tables(
    segments: Any, start: int, usable: int, values: Any, t: KernelTables
) -> TurnTables:  # pragma: no cover
    """The decision tables (:class:`TurnTables`) of a turn in every lane of ``segments`` with ``usable``
    free throws still to use and ``start`` left after them (level ``k`` of the scoring values: ``start +
    k`` free throws left after the turn). The simulator and the distributions decide by them."""
    n_s, n_rolls, _ = t.nonzero.shape
    width = 0
    for i in range(segments.shape[0]):
        width += segments[i, 3]
    levels = usable + 1
    sv = np.empty((levels, n_s, n_rolls, width))
    rows, strike_box = entry_rows(t, levels, width)
    choice = np.empty((levels, n_s, n_rolls, width), dtype=np.int32)
    for k in range(levels):
        score_values(segments, start + k, values, t, rows[k], strike_box[k], sv[k], choice[k])
    positions = usable + t.rolls - 1
    table = np.empty((positions, t.first_roll, width))
    # the sweep takes all its free throws as usable: with ``usable`` of them, level 0 is ``start``
    sweep(sv, usable, positions, t, table)
    return TurnTables(sv, strike_box, choice, table)


@njit(cache=True, nogil=True)
def points_turns(
    games: Any, played: Any, states: Any, turn: Turn, values: Any, t: KernelTables
) -> None:  # pragma: no cover
    """The turns of the games ``played`` (rows of ``games``, all with the same free throws left), each in
    the state ``(mask, armed, up, free)`` of the same row of ``states``, played for points: the turn's
    tables of all of them in one pass over the keep lattice (:func:`turn_tables`), a lane a game. A pass
    costs mostly per call, hardly per lane: games decided before their turn to win, played for points,
    took a pass each."""
    count = played.shape[0]
    segments = np.empty((count, 4), dtype=np.int64)
    for i in range(count):
        m = states[i, 0]
        lo = upper_lane(t, m, states[i, 2])
        segments[i, 0], segments[i, 1], segments[i, 2], segments[i, 3] = m, states[i, 1], lo, 1
    fr = states[0, 3]
    usable = min(t.per_turn, fr)
    play_lanes(games, played, turn, t, turn_tables(segments, fr - usable, usable, values, t))


@borrowing
def play_lanes(
    games: Any, played: Any, turn: Turn, t: KernelTables, tables: TurnTables
) -> None:  # pragma: no cover
    """The turn of each game ``played[i]`` (a row of ``games``) by lane ``i`` of the turn's ``tables``,
    which hold a lane a game (:func:`points_turns`, :func:`kniffel.core.kernels.win.play_weighted`)."""
    n = scoring(t)
    for i in range(played.shape[0]):
        play_game_turn(games, played[i], played[i], turn, t, n, tables, i)


@njit(cache=True, nogil=True)
def play_bundles(
    games: Any,
    turn: Turn,
    values: Any,
    t: KernelTables,
    grouping: Grouping,
    entered: Any,
    first: int,
    last: int,
) -> None:  # pragma: no cover
    """One turn of the games of the bundles ``first .. last - 1`` of :func:`work` (threads play different
    bundles at once: :func:`kniffel.core.play.play_turn`): each bundle's turn tables, then each game's
    throws, keeps and entry. The games of a bundle have the same free throws, those of an item the same
    state (:func:`play_game_turn` reads it from the game). ``entered`` (empty: nothing kept) gets the
    box each game filled and the points it entered there, ``box << 16 | points``, in the grouping's order
    of the games, one after the other as their copied state lies (:func:`gather`), not at each game's
    own row of the batch, one here and the next far off."""
    keys, order, starts, bundles = grouping.keys, grouping.order, grouping.starts, grouping.bundles
    n = scoring(t)
    lanes = t.threshold + 1
    # the games of these bundles, side by side in the grouping's order (:func:`gather`)
    first_game = starts[bundles[first]]
    which = order[first_game : starts[bundles[last]]]
    played, upper = gather(games, which), keys[first_game : starts[bundles[last]]] % lanes
    mask, armed, free = played.mask, played.armed, played.free
    for b in range(first, last):
        first_item, last_item = bundles[b], bundles[b + 1]
        fr = int(free[starts[first_item] - first_game])
        usable = min(t.per_turn, fr)

        # one segment per item: its state at the upper scores from its lowest game's to its highest's
        n_items = last_item - first_item
        segments = np.empty((n_items, 4), dtype=np.int64)
        for item in range(first_item, last_item):
            g0 = starts[item] - first_game
            lo = upper[g0]
            nl = upper[starts[item + 1] - 1 - first_game] - lo + 1
            i = item - first_item
            segments[i, 0], segments[i, 1], segments[i, 2], segments[i, 3] = mask[g0], armed[g0], lo, nl
        tables = turn_tables(segments, fr - usable, usable, values, t)

        off = 0
        for item in range(first_item, last_item):
            i = item - first_item
            lo, nl = segments[i, 2], segments[i, 3]
            for at in range(starts[item] - first_game, starts[item + 1] - first_game):
                box, p = play_game_turn(played, at, which[at], turn, t, n, tables, off + upper[at] - lo)
                if entered.shape[0] > 0:
                    entered[first_game + at] = (box << 16) | p
            off += nl
    scatter(played, which, games)


@borrowing
def finish(score: Any, free: Any, free_points: int) -> None:  # pragma: no cover
    """Unused free throws count at the end."""
    for g in range(score.shape[0]):
        score[g] += free_points * free[g]


@borrowing
def count_entered(entered: Any, counts: Any) -> None:  # pragma: no cover
    """``counts[box, points]`` += how many of ``entered`` (``box << 16 | points``, as
    :func:`play_bundles` writes them) are of that box and points."""
    for code in entered:
        counts[code >> 16, code & 0xFFFF] += 1
