"""numba kernels of :class:`kniffel.core.vector.ActionValues`: every legal action of many single-column
positions valued in expected points, in the environments' action layout (:mod:`kniffel.env.encoding`: a
throw per bit mask of the sorted dice held, then a score and a strike per box).

The values are the option kernel's (:data:`~kniffel.core.kernels.points.points_options`, what the advisor
reads) and, for a strike of a box the roll would pay in, the table's value of the sheet with that box
struck (what :meth:`kniffel.core.Advisor.value` reads): the values of the exact planner's choices, in the
unit of the advisor (expected points still to come, this turn's included).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.common import BUNDLE, joker_applies, roll_entry, scoring
from kniffel.core.kernels.env import (
    EnvGames,
    EnvRules,
    entered,
    env_rows,
    first_keeps,
    lane_keeps,
    prefetch,
)
from kniffel.core.kernels.maxima import larger
from kniffel.core.kernels.records import EntryState, KernelTables, Scoring, borrowing


class Layout(NamedTuple):
    """Where the keeps of the lattice stand among the throws of the action layout: ``keep_of[roll,
    bits]`` is the keep that holding the dice ``bits`` (of the sorted roll ``roll``) holds,
    ``index_of[roll, keep]`` the throw that holds ``keep`` by its first matching dice (-1: none),
    ``order[roll]`` the throws holding its keeps, in the lattice's order of the keeps (-1 pads) and
    ``rank[roll, bits]`` where the keep of throw ``bits`` stands in that order."""

    keep_of: Any
    index_of: Any
    order: Any
    rank: Any


@njit(cache=True, nogil=True, inline="always")
def struck(values: Any, n: Scoring, free_points: int, row: Any, box: int) -> float:  # pragma: no cover
    """The value of striking ``box`` in the position ``row``: the table's value of the sheet after."""
    after = row[0] | (1 << box)
    free = row[3]
    if after == (1 << n.n_boxes) - 1:
        return float(free_points * free)
    armed = 0 if n.n_armed == 2 and box == n.five else row[1]
    up = 0 if after & n.upper_mask == n.upper_mask else row[2]
    return float(values[armed * n.n_free + free, after, up])


class TurnCache(NamedTuple):
    """Where each game's keep values of its turn's later regular throw are, kept from the turn's first
    decision (whose sweep computes them on its way), and the bundles of a call's sweeps, which hold them:
    ``keys[g]`` the sheet's state they are of (:func:`state_key`; a turn's keeps depend on nothing else,
    -1: none), ``refs[g]`` where (``slab * BUNDLE + lane`` of ``slabs``, or ``-1 - slot`` of the memo)
    and ``calls[g]`` the call that swept that slab. ``slabs``: a block for each slab (as many as
    ``widths``), each a bundle's sweep as a table ``[position, keep, lane]`` of its ``widths[slab]``
    lanes, position 1 the first decision's keeps, 0 those of the later regular throw (:func:`slab_at`).
    Each call fills them from the first, after reading the ones the call before filled, and
    ``slab_calls[slab]`` says which call filled each (the last of ``slab_calls`` counts the calls). The
    sweeps write their keeps here and nothing copies them. Rules with free throws keep none for later
    (their later throws are valued from other levels), nor does a cache of no games."""

    keys: Any
    refs: Any
    calls: Any
    slabs: Any
    slab_calls: Any
    widths: Any


@njit(cache=True, nogil=True, inline="always")
def slab_at(
    cache: TurnCache, first_roll: int, ref: int, position: int
) -> tuple[int, int]:  # pragma: no cover
    """Where in ``cache.slabs`` the keeps of ``position`` of lane ``ref % BUNDLE`` of slab ``ref //
    BUNDLE`` start, and the step from one keep to the next."""
    slab, lane = ref // BUNDLE, ref % BUNDLE
    width, block = cache.widths[slab], cache.slabs.shape[0] // cache.widths.shape[0]
    return slab * block + position * first_roll * width + lane, width


class TurnMemo(NamedTuple):
    """The turns of early sheets, swept once and kept, in slots found by the state's hash: ``keys[slot]``
    the state (:func:`state_key`, -1: empty; a slot is never given to another), ``claims[slot]`` the call
    that swept it (its keeps are there once that call's sweeps are done) and ``keeps[slot, position,
    keep]`` as a slab holds them. Games meet the same sheets early on: random play of Yahtzee meets 41
    sheets with one box filled and 450 with two, a fifth of its turns. No slots: nothing kept."""

    keys: Any
    claims: Any
    keeps: Any


MEMO_FILLED = 2
"""The sheets with at most this many boxes filled are kept in the memo (:class:`TurnMemo`)."""


@njit(cache=True, nogil=True, inline="always")
def state_key(row: Any) -> int:  # pragma: no cover
    """The sheet's state of the position ``row`` (filled boxes, armed, upper score, free throws) as one
    number."""
    return int(((row[0] * 2 + row[1]) * 1024 + row[2]) * 64 + row[3])


@njit(cache=True, nogil=True, inline="always")
def hashed(state: int, size: int) -> int:  # pragma: no cover
    """The slot of ``state`` in a table of ``size`` slots (a power of two): the top bits of its Fibonacci
    hash, so that the states of neighbouring sheets spread over the slots."""
    return int((np.uint64(state) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & (size - 1)


@njit(cache=True, nogil=True, inline="always")
def filled_boxes(mask: int) -> int:  # pragma: no cover
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


class Question(NamedTuple):
    """What the values of positions' actions are read from and written to: the solved table ``values``,
    the rules' ``tables`` and what each roll pays in each box (``base``, :attr:`kniffel.core.Compiled.base`),
    where the keeps stand among the throws (``layout``), the legal actions of each game (``masks[g]``)
    and the answers: ``out[g, action]`` and ``best[g]``."""

    values: Any
    tables: KernelTables
    base: Any
    layout: Layout
    masks: Any
    out: Any
    best: Any


@njit(cache=True, nogil=True, inline="always")
def fill_game(
    q: Question, rows: Any, i: int, g: int, keeps: Any, at: int, stride: int, listed: Any
) -> None:  # pragma: no cover
    """``out[g, action]``: the value of every action ``masks[g]`` allows in the position ``rows[i]``,
    NaN for the others, the keeps' from ``keeps[at + keep * stride]``, and ``best[g]`` the best action,
    ties broken as the exact planner breaks them: the boxes in order (a box the roll pays nothing in is
    entered by its strike), then the strikes that give up points, then the throws in the lattice's
    order, each held by its first matching dice (``layout.rank`` and ``layout.order``). Each kind of
    action keeps its first best as it comes, without a branch (which action wins is as good as random
    to the processor), and the earliest kind with the best value wins. ``listed``: space for a list of
    boxes."""
    values, t, layout = q.values, q.tables, q.layout
    n = scoring(t)
    n_boxes = n.n_boxes
    n_keeps = layout.keep_of.shape[1]
    row, allowed, o = rows[i], q.masks[g], q.out[g]
    mask, armed, up, free, roll, s = row[0], row[1], row[2], row[3], row[4], row[5]
    throwing = allowed[0] == 1
    throw_top, throw_rank = -np.inf, n_keeps
    if throwing:
        kept, ranks = layout.keep_of[roll], layout.rank[roll]
        for a in range(n_keeps):
            v = keeps[at + kept[a] * stride]
            o[a] = v
            rank = ranks[a]
            better = (v > throw_top) | ((v == throw_top) & (rank < throw_rank))
            throw_rank = rank if better else throw_rank
            throw_top = larger(v, throw_top)
    for a in range(n_keeps if throwing else 0, o.shape[0]):
        o[a] = np.nan
    # the boxes the roll may enter (scored, or struck where it pays nothing), listed without a branch
    boxes = listed
    n_open = 0
    for b in range(n_boxes):
        boxes[n_open] = b
        n_open += allowed[n_keeps + n_boxes + b] != 0
    state = EntryState(mask, armed, free)
    joker = joker_applies(n, mask) and t.alike[roll] >= 0
    points = q.base[s, roll]
    entry_top, entry, strike_top, strike = -np.inf, -1, -np.inf, -1
    for j in range(n_open):
        b = boxes[j]
        paid = allowed[n_keeps + b] != 0
        if joker:
            p, extra = roll_entry(t, n, state, s, roll, b, q.base)
        else:
            p, extra = int(points[b]), 0
        v = entered(values, n, mask, armed, free, up, b, p, extra)
        w = struck(values, n, t.free_points, row, b)
        o[n_keeps + b] = v if paid else np.nan
        o[n_keeps + n_boxes + b] = w if paid else v
        better = v > entry_top
        entry = (n_keeps + b if paid else n_keeps + n_boxes + b) if better else entry
        entry_top = larger(v, entry_top)
        w = w if paid else -np.inf
        better = w > strike_top
        strike = n_keeps + n_boxes + b if better else strike
        strike_top = larger(w, strike_top)
    if entry_top >= strike_top and entry_top >= throw_top:
        q.best[g] = entry
    elif strike_top >= throw_top:
        q.best[g] = strike
    else:
        q.best[g] = layout.order[roll, throw_rank]


@njit(cache=True, nogil=True, inline="always")
def empty_games(q: Question, start: int, end: int) -> None:  # pragma: no cover
    """The games ``start .. end - 1`` have no position (they are over): no action, no values."""
    for g in range(start, end):
        q.best[g] = -1
        for a in range(q.out.shape[1]):
            q.out[g, a] = np.nan


class Call(NamedTuple):
    """The work of one call of :func:`action_values`, a number per position ``i``: ``key[i]`` the kind of
    its throws to sweep (0: nothing to sweep; ``-1 - j``: position ``j`` sweeps its sheet in this call),
    ``slot[i]`` the memo's slot its sweep fills (-1: none), ``at[i]`` where its sweep put its keeps
    (``slab * BUNDLE + lane``), ``starts`` and ``order`` the positions to sweep by kind (a counting sort,
    as the option kernel's: kind ``k + 1`` starts at ``starts[k]``), ``sheets`` and ``sweeper`` a hash
    table of the sheets swept in this call (state and position, -1: empty), ``followed[i]`` whether
    another position waits for position ``i``'s sweep, ``listed`` space for :func:`fill_game`, and
    ``number`` the call's number."""

    key: Any
    slot: Any
    at: Any
    starts: Any
    order: Any
    sheets: Any
    sweeper: Any
    followed: Any
    listed: Any
    number: int


FILL_AHEAD = 6
"""How many positions ahead :func:`sort_positions` asks for the keeps a position's values read
(:func:`fetch_keeps`)."""


@njit(cache=True, nogil=True, inline="always")
def fetch_keeps(q: Question, rows: Any, games_of: Any, cache: TurnCache, i: int) -> None:  # pragma: no cover
    """Ask for the keeps :func:`fill_game` reads of position ``i`` without waiting for them, if it is a
    turn's later throw whose keeps its first decision left in a slab: a keep to a cache line there (the
    slab's lanes run along the keeps), out of the caches by then (a call's slabs are more than they
    hold). The table's values and the position's row of values, asked for too, were no sooner."""
    row, g = rows[i], games_of[i]
    if row[8] != 0 or cache.keys[g] != state_key(row):
        return
    ref = cache.refs[g]
    if ref < 0 or cache.slab_calls[ref // BUNDLE] != cache.calls[g]:
        return
    at, step = slab_at(cache, q.tables.first_roll, ref, 0)
    kept = q.layout.keep_of[row[4]]
    for a in range(kept.shape[0]):
        prefetch(cache.slabs, at + kept[a] * step)


@borrowing
def sort_positions(
    q: Question, rows: Any, games_of: Any, cache: TurnCache, memo: TurnMemo, kept: Any, call: Call
) -> None:  # pragma: no cover
    """The first part of :func:`action_values`: every position whose keeps are at hand valued (from the
    slab or the memo slot its turn's first decision left them in, or from the memo), and the others
    sorted by their kind of throw into ``call.order``. A turn's first decision whose sheet another
    position of this call sweeps waits for that; one of an early sheet not in the memo claims its slot.
    ``kept``: the memo's keeps as a flat array."""
    t = q.tables
    keeping = t.n_free == 1 and cache.keys.shape[0] > 0
    slots, size = memo.keys.shape[0], call.sheets.shape[0]
    first_roll = t.first_roll
    count = rows.shape[0]
    done = 0
    for i in range(-FILL_AHEAD, count):
        if keeping and i + FILL_AHEAD < count:
            fetch_keeps(q, rows, games_of, cache, i + FILL_AHEAD)
        if i < 0:
            continue
        row, g = rows[i], games_of[i]
        empty_games(q, done, g)
        done = g + 1
        key = 0
        throws = row[8]
        if throws < 0 or q.masks[g, 0] == 0:
            fill_game(q, rows, i, g, kept, 0, 0, call.listed)
            call.key[i] = 0
            continue
        state = state_key(row)
        kind = 1 + (row[6] * (t.per_turn + 1) + row[7]) * t.rolls + throws
        first = keeping and throws == 1 and row[7] == 0
        if keeping and throws == 0 and cache.keys[g] == state:
            ref = cache.refs[g]
            if ref < 0:
                fill_game(q, rows, i, g, kept, -2 * (ref + 1) * first_roll, 1, call.listed)
                call.key[i] = 0
                continue
            if cache.slab_calls[ref // BUNDLE] == cache.calls[g]:
                at, step = slab_at(cache, first_roll, ref, 0)
                fill_game(q, rows, i, g, cache.slabs, at, step, call.listed)
                call.key[i] = 0
                continue
            key = kind
        elif first:
            h = hashed(state, slots) if slots > 0 else 0
            if slots > 0 and memo.keys[h] == state and memo.claims[h] != call.number:
                # an early sheet swept before: its keeps are in the memo
                fill_game(q, rows, i, g, kept, (2 * h + 1) * first_roll, 1, call.listed)
                cache.keys[g], cache.refs[g] = state, -1 - h
                call.key[i] = 0
                continue
            j = hashed(state, size)
            while call.sheets[j] >= 0 and call.sheets[j] != state:
                j = (j + 1) & (size - 1)
            if call.sheets[j] == state:
                key = -1 - call.sweeper[j]
                call.followed[call.sweeper[j]] = True
            else:
                call.sheets[j], call.sweeper[j] = state, i
                key = kind
                free_slot = slots > 0 and memo.keys[h] < 0 and memo.claims[h] != call.number
                if free_slot and filled_boxes(row[0]) <= MEMO_FILLED:
                    memo.claims[h] = call.number
                    call.slot[i] = h
        else:
            key = kind
        call.key[i] = key
    empty_games(q, done, q.out.shape[0])
    starts, order = call.starts, call.order
    for k in range(starts.shape[0]):
        starts[k] = 0
    for i in range(count):
        starts[max(call.key[i], 0) + 1] += 1
    for k in range(starts.shape[0] - 1):
        starts[k + 1] += starts[k]
    for i in range(count):
        k = max(call.key[i], 0)
        order[starts[k]] = i
        starts[k] += 1


class Swept(NamedTuple):
    """A bundle of positions swept (``rows[bundle]``) into slab ``slab``: lane ``lane``'s keeps of its
    decision at ``keeps[at + keep * width + lane]``, and whether the slab holds those of the turn's later
    regular throw (``later``)."""

    slab: int
    bundle: Any
    keeps: Any
    at: int
    later: bool


@borrowing
def take_sweep(
    q: Question, rows: Any, games_of: Any, cache: TurnCache, memo: TurnMemo, swept: Swept, call: Call
) -> None:  # pragma: no cover
    """The positions of a bundle swept (``swept``) valued from their keeps; where the turn's later regular
    throw was swept too, the games remember where, a position that claimed a memo slot fills it, and one
    that others wait for copies its keeps into the slab for them."""
    first_roll, slab, keeps, at = q.tables.first_roll, swept.slab, swept.keeps, swept.at
    width = swept.bundle.shape[0]
    cache.slab_calls[slab] = call.number
    for lane in range(width):
        i = swept.bundle[lane]
        g, ref = games_of[i], slab * BUNDLE + lane
        call.at[i] = ref
        fill_game(q, rows, i, g, keeps, at + lane, width, call.listed)
        if not swept.later:
            continue
        cache.keys[g], cache.refs[g], cache.calls[g] = state_key(rows[i]), ref, call.number
        h = call.slot[i]
        if call.followed[i] or h >= 0:
            now, step = slab_at(cache, first_roll, ref, 1)
            for k in range(first_roll):
                cache.slabs[now + k * step] = keeps[at + k * width + lane]
        if h >= 0:
            for p in range(2):
                now, step = slab_at(cache, first_roll, ref, p)
                for k in range(first_roll):
                    memo.keeps[h, p, k] = cache.slabs[now + k * step]
            memo.keys[h] = state_key(rows[i])


@borrowing
def take_sheets(
    q: Question, rows: Any, games_of: Any, cache: TurnCache, call: Call
) -> None:  # pragma: no cover
    """The positions that waited for another's sweep of their sheet (:func:`sort_positions`) valued from
    its slab, which their games remember as theirs."""
    for i in range(rows.shape[0]):
        if call.key[i] >= 0:
            continue
        ref, g = call.at[-1 - call.key[i]], games_of[i]
        at, step = slab_at(cache, q.tables.first_roll, ref, 1)
        fill_game(q, rows, i, g, cache.slabs, at, step, call.listed)
        cache.keys[g], cache.refs[g], cache.calls[g] = state_key(rows[i]), ref, call.number


@njit(cache=True, nogil=True)
def action_values(
    q: Question, rows: Any, games_of: Any, cache: TurnCache, memo: TurnMemo
) -> None:  # pragma: no cover
    """``out[g, action]``: the value of every action ``masks[g]`` allows in the position ``rows[i]`` of
    game ``g = games_of[i]`` (ascending), NaN for the others and in every row of a game without a
    position, and ``best[g]`` the best of them (-1 without a position): :func:`fill_game` (``q``,
    :class:`Question`).

    The values are the option kernel's (:data:`~kniffel.core.kernels.points.points_options`). A turn's
    keeps are swept once, at its first decision, in bundles of positions whose throws are alike, into
    the slabs of ``cache`` (:class:`TurnCache`), where its later regular throw finds them in the next
    call; a sheet that several games meet in a call is swept once, and an early one once and for all
    (``memo``, :class:`TurnMemo`). This allocates; the work is done by kernels that only borrow their
    arrays: in one that counts references, every view and every record of arrays handed on took a
    reference and let go of it again, and a game's boxes took three times as long."""
    t, values = q.tables, q.values
    count = rows.shape[0]
    kinds = t.n_free * (t.per_turn + 1) * t.rolls + 1
    first_roll = t.first_roll
    if cache.widths.shape[0] < count // BUNDLE + kinds:  # no cache: slabs for this call alone
        slabs = count // BUNDLE + kinds
        block = 2 * first_roll * min(count, BUNDLE)
        cache = TurnCache(
            cache.keys,
            cache.refs,
            cache.calls,
            np.empty(slabs * block),
            np.zeros(slabs + 1, dtype=np.int64),
            np.zeros(slabs, dtype=np.int64),
        )
    block = cache.slabs.shape[0] // max(1, cache.widths.shape[0])
    number = cache.slab_calls[-1] + 1
    cache.slab_calls[-1] = number
    size = 2
    while size < 2 * count:
        size *= 2
    call = Call(
        np.zeros(count, dtype=np.int64),
        np.full(count, -1, dtype=np.int64),
        np.full(count, -1, dtype=np.int64),
        np.zeros(kinds + 1, dtype=np.int64),
        np.empty(count, dtype=np.int64),
        np.full(size, -1, dtype=np.int64),
        np.empty(size, dtype=np.int64),
        np.zeros(count, dtype=np.bool_),
        np.empty(t.n_boxes, dtype=np.int64),
        number,
    )
    keeping = t.n_free == 1 and cache.keys.shape[0] > 0
    sort_positions(q, rows, games_of, cache, memo, memo.keeps.reshape(-1), call)
    start, slab = call.starts[0], 0
    while start < count:
        first = call.order[start]
        end = start + 1
        while end < count and end - start < BUNDLE and call.key[call.order[end]] == call.key[first]:
            end += 1
        width = end - start
        # the decision's keeps into the slab's position 1, and of a turn's first decision those of its
        # later regular throw into position 0: a table of the bundle's lanes, in one piece
        later = keeping and rows[first, 7] + rows[first, 8] + 1 == 2
        cache.widths[slab] = width
        bundle, at = call.order[start:end], slab * block
        if later:
            v0 = cache.slabs[at : at + first_roll * width].reshape((first_roll, width))
            keeps, at = first_keeps(values, t, rows, bundle, v0).reshape(-1), 0
        else:
            keeps, at = cache.slabs, at + first_roll * width
            lane_keeps(
                values, t, rows, bundle, keeps[at : at + first_roll * width].reshape((1, first_roll, width))
            )
        take_sweep(q, rows, games_of, cache, memo, Swept(slab, bundle, keeps, at, later), call)
        start, slab = end, slab + 1
    take_sheets(q, rows, games_of, cache, call)


@njit(cache=True, nogil=True)
def env_action_values(
    games: EnvGames, rules: EnvRules, q: Question, cache: TurnCache, memo: TurnMemo, rows: Any, games_of: Any
) -> None:  # pragma: no cover
    """:func:`action_values` of every game of ``games`` (:func:`env_rows` into ``rows`` and ``games_of``,
    space for every game), as the masks of its last observation allow its actions."""
    count = env_rows(games, rules, rows, games_of)
    action_values(q, rows[:count], games_of[:count], cache, memo)
