"""numba kernels of the target rows (:mod:`kniffel.core.target`): the probability of still making at
least ``u`` more points, played to make that probability as large as possible.

It is the expected-score recursion of :mod:`kniffel.core.kernels.common` with a vector over ``u`` where that
one has a number: entering ``g`` points shifts the child state's vector by ``g``, and the keep lattice takes
means and maxima lane by lane, so the lattice sweep (:func:`~kniffel.core.kernels.common.sweep`) and the best
entry of each roll (:func:`~kniffel.core.kernels.common.best_entries`) are the solver's own. Only entering
points differs (a shift instead of a sum), and so the steps that call it.

A *row* is the vector of one between-turn state, kept for the targets of its *window* only: state lane
``lane`` (:mod:`kniffel.core.lanes`) holds ``P(first + i)`` at ``prob[offset + i]`` for ``i < count``,
with ``(offset, first, count) = index[lane]`` and ``prob`` the array of the lane's level (the states
with as many boxes filled). At or below 0 the probability is 1; past the window's end 0 (the open boxes
cannot pay that much, or the rows stop at the table's limit there). Below the window's start nothing is
known: a window is made wide enough that no state whose row is solved reads a child below its window
(:func:`kniffel.core.target.windows`), and a read there gives NaN, which every test would see.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.common import (
    NEG,
    best_entries,
    keep_better,
    keep_larger,
    lane_at,
    scoring,
    settle,
    sweep,
    with_globals,
)
from kniffel.core.kernels.loop import level_loop, option_kernel
from kniffel.core.kernels.records import EntryState, KernelTables, Scoring, borrowing, wide


class Window(NamedTuple):
    """A state between turns and the targets asked of it: ``u0 .. u0 + w - 1`` (the lanes), with
    ``free`` free throws left after the turn."""

    mask: int
    armed: int
    up: int
    free: int
    u0: int
    w: int


class Reading(NamedTuple):
    """The rows an entry reads: the next level's probabilities, the lanes' windows (``index``) and where
    each state's lanes start (``lane_base``)."""

    prob: Any
    index: Any
    lane_base: Any


@borrowing
def entered(
    read: Reading, lanes: Any, n: Scoring, at: Window, box: int, points: int, extra: int
) -> tuple[int, int, int, int]:  # pragma: no cover
    """Where the lanes of ``at`` find their probabilities when ``points`` go in ``box`` (``extra`` bonus on
    top, the upper bonus if the score crosses the threshold): lanes ``0 .. certain - 1`` are made by the
    points gained, ``start .. beyond - 1`` read the child state's row at ``read.prob[shift + lane]``,
    the lanes from ``beyond`` on cannot be made (``certain .. start - 1``, below the child's window but
    not made, are none where the windows are sound).

    Compiled once and called (every caller passes its integers :data:`~kniffel.core.kernels.records.wide`):
    inlined, with the entry and the lane lookup inside it, at the three call sites of a weighed turn's
    entries, it was most of their inlining (the option kernel's entries compiled in 5.2 s, 3.1 s
    called); the call beside its lookups cost the games to win and the rows nothing measurable."""
    gained, offset, first, count = child_row(read, lanes, n, at, box, points, extra)
    return lanes_of(at.u0, at.w, gained, offset, first, count)


@njit(cache=True, nogil=True, inline="always")
def child_row(
    read: Reading, lanes: Any, n: Scoring, at: Window, box: int, points: int, extra: int
) -> tuple[int, int, int, int]:  # pragma: no cover
    """The points gained when ``points`` go in ``box`` from ``at`` (``extra`` on top, the upper bonus if
    the score crosses the threshold) and the child state's row: ``(gained, offset, first, count)``."""
    child, armed_after, up_after, gained, _ = settle(n, at.mask, at.armed, box, points, at.up, extra)
    lane = lane_at(read.lane_base, lanes, n, armed_after, at.free, child, up_after)
    return gained, read.index[lane, 0], read.index[lane, 1], read.index[lane, 2]


@njit(cache=True, nogil=True, inline="always")
def lanes_of(
    u0: int, w: int, gained: int, offset: int, first: int, count: int
) -> tuple[int, int, int, int]:  # pragma: no cover
    """:func:`entered`'s lanes for targets ``u0 .. u0 + w - 1`` of an entry gaining ``gained`` into a child
    whose row starts at ``offset`` with target ``first`` and holds ``count``."""
    certain = min(max(gained + 1 - u0, 0), w)
    start = min(max(gained + first - u0, certain), w)
    beyond = min(max(gained + first + count - u0, start), w)
    return certain, start, beyond, offset + u0 - gained - first


@borrowing(fastmath={"reassoc", "contract"})
def weighted_sum(weights: Any, lo: int, hi: int, prob: Any, shift: int) -> float:  # pragma: no cover
    """``sum(weights[i] * prob[shift + i])`` over ``lo .. hi - 1`` (``prob`` None: of the weights alone).

    A turn played to win sums a hundred rows of several hundred lanes. Summed in order, every addition
    waits for the one before; the compiler may sum in vectors only if it may reorder the additions
    (``reassoc``: the last bits of a sum then depend on the vector width compiled for), and loads them as
    vectors only from slices whose indices it knows are not negative (``prob[shift + i]`` with any
    ``shift`` was read one lane at a time: numba wraps negative indices around).

    The weights are float32, as the rows are, and so is the sum: with float64 weights every row's
    float32 was converted before its multiply, and on a Zen 1 those conversions bound the loop (a turn
    played to win spent half its time here; in float32 tournaments of ``bot:win`` played a quarter more
    games a second). The weights are worked out in float64 and rounded once, where the sums are asked
    for (:func:`kniffel.core.kernels.win.win_turn`,
    :meth:`kniffel.core.target.TargetAdvisor.option_values`), so a game played compiled and one played
    through the planners weigh alike; a sum is as exact as its float32 rows, to a few of their last
    places."""
    lanes = weights[lo:hi]
    total = np.float32(0.0)
    if prob is None:
        for i in range(hi - lo):
            total += lanes[i]
    else:
        read = prob[shift + lo : shift + hi]
        for i in range(hi - lo):
            total += lanes[i] * read[i]
    return float(total)


@njit(cache=True, nogil=True, inline="always")
def enter_weighted(
    read: Reading, lanes: Any, n: Scoring, at: Window, box: int, points: int, extra: int, weights: Any
) -> float:  # pragma: no cover
    """The weighted sum over the lanes of ``at`` of :func:`enter_runs`'s probabilities (a chance of
    winning, when the weights are the chances of the others' bar, :func:`~.win.best_of`), summed over the
    lanes that read the child's row and the weights of those made by the points gained alone: the lanes
    past the child's window add nothing."""
    certain, start, beyond, shift = entered(read, lanes, n, at, wide(box), wide(points), wide(extra))
    if start > certain:
        return np.nan
    made = weighted_sum(weights, 0, certain, None, 0)
    return float(made + weighted_sum(weights, start, beyond, read.prob, shift))


@njit(cache=True, nogil=True, inline="always")
def enter_runs(
    read: Reading,
    lanes: Any,
    n: Scoring,
    at: Window,
    box: int,
    points: int,
    extra: int,
    out: Any,
    col: int,
    runs: Any,
) -> None:  # pragma: no cover
    """``out[col + lane]``: the probability of making ``u0 + lane`` more points from ``at`` when ``points``
    go in ``box`` (:func:`entered`): the child state's row shifted by what was gained, for each run
    ``(u0, w)`` of ``runs`` (targets ``u0 .. u0 + w - 1``), the runs side by side from ``col``. The child
    is looked up once for all of them: a state's targets that games reach can be several runs.

    Inlined where a state's entries are made (:func:`lanes_into`: its one call site in the rows' entries
    of a roll, which go through every box and pair in one loop, and one in the further fives of a kind).
    Called instead, each of a state's hundred-odd entries handed the call some seventy numbers (its
    records and arrays) for a copy of a hundred lanes: inlined, the entries of the levels of six and
    eight boxes filled of Kniffel's cone of 300 took 0.50 and 0.41 s of one thread instead of 0.91 and
    0.68. Inlined at every call site of the entries' two loops (six) it was compiled six times over,
    and the rows' kernel took 19.8 s to compile instead of 11.4 s."""
    gained, offset, first, count = child_row(read, lanes, n, at, box, points, extra)
    for r in range(runs.shape[0]):
        u0, w = runs[r, 0], runs[r, 1]
        certain, start, beyond, shift = lanes_of(u0, w, gained, offset, first, count)
        # over slices, indexed from 0: ``out[col + i]`` and ``read.prob[shift + i]`` were copied one lane
        # at a time (numba wraps a negative index around, and nothing told the compiler these are not
        # negative)
        lane = out[col : col + w]
        made, unknown = lane[:certain], lane[certain:start]
        read_child, cannot = lane[start:beyond], lane[beyond:]
        source = read.prob[shift + start : shift + beyond]
        for i in range(made.shape[0]):
            made[i] = 1.0
        for i in range(unknown.shape[0]):
            unknown[i] = np.nan
        for i in range(read_child.shape[0]):
            read_child[i] = source[i]
        for i in range(cannot.shape[0]):
            cannot[i] = 0.0
        col += w


@njit(cache=True, nogil=True, inline="always")
def lanes_into(
    read: Reading, lanes: Any, n: Scoring, at: Window, entry: Any, row: Any, col: int, weights: Any, runs: Any
) -> None:  # pragma: no cover
    """How the rows enter points (``weights`` None): ``row[col + lane]`` for every lane of the runs of
    targets of ``at`` once ``entry = (box, points, extra)`` is entered (:func:`enter_runs`, inlined)."""
    box, points, extra = entry
    enter_runs(read, lanes, n, at, wide(box), wide(points), wide(extra), row, wide(col), runs)


@njit(cache=True, nogil=True, inline="always")
def weighted_into(
    read: Reading, lanes: Any, n: Scoring, at: Window, entry: Any, row: Any, col: int, weights: Any, runs: Any
) -> None:  # pragma: no cover
    """How a weighed turn enters points (a target's options, a turn played to win): ``row[col]``, the
    weighted sum over the lanes of ``at`` once ``entry = (box, points, extra)`` is entered
    (:func:`enter_weighted`)."""
    box, points, extra = entry
    row[col] = enter_weighted(read, lanes, n, at, box, points, extra, weights)


def enter_into(*args: Any) -> None:
    """How the entries below enter points: :func:`lanes_into` or :func:`weighted_into`, put in the
    globals of each one's copy in place of this one (see :func:`entry_probabilities`)."""
    raise NotImplementedError("made by with_globals with lanes_into or weighted_into")


def _entry_probabilities(
    at: Window, read: Reading, t: KernelTables, rows: Any, col: int, weights: Any, strike_box: Any, runs: Any
) -> None:  # pragma: no cover
    """``rows[j, col + lane]``: the probability of making ``at.u0 + lane`` more points by each entry of
    a roll in the state ``at``: a row per distinct ``(box, points > 0)`` pair (NEG where the box is not
    open), then the best strike, then scratch (the target counterpart of
    :func:`kniffel.core.kernels.common.entry_values`). The lanes are those of ``runs`` (see
    :func:`enter_runs`; ``at.w`` of them in all). With ``weights`` each entry is its lanes' weighted
    sum, in lane ``col`` (``runs`` unused)."""
    n = scoring(t)
    w = at.w
    strike, one = rows.shape[0] - 2, rows.shape[0] - 1
    allow = t.allowed[at.mask]
    lanes = t.lanes
    width = w if weights is None else 1
    # slices indexed from 0, so that the lane loops load and store vectors (see enter_runs)
    best, entered_now = rows[strike, col : col + width], rows[one, col : col + width]
    for lane in range(width):
        best[lane] = NEG
    # each box's strike (into the scratch row, kept where best), then each pair, in one loop: one call
    # site of the entry, which the rows' copy compiles in (:func:`enter_runs`)
    for k in range(n.n_boxes + strike):
        pair = k >= n.n_boxes
        j = k - n.n_boxes if pair else one
        b = int(t.pair_box[j]) if pair else k
        if (allow >> b) & 1 == 0:
            if pair:
                closed = rows[j, col : col + width]
                for lane in range(width):
                    closed[lane] = NEG
            continue
        points = int(t.pair_pts[j]) if pair else 0
        enter_into(read, lanes, n, at, (b, points, 0), rows[j], col, weights, runs)
        if pair:
            continue
        if strike_box is None:
            keep_larger(entered_now, best, None, b)
        else:
            keep_larger(entered_now, best, strike_box[col : col + width], b)


def _joker_probabilities(
    at: Window,
    read: Reading,
    t: KernelTables,
    rows: Any,
    col: int,
    out: Any,
    weights: Any,
    choice: Any,
    runs: Any,
) -> None:  # pragma: no cover
    """Where the five-of-a-kind box is filled, ``out[s, roll, col + lane]`` of each further five of a
    kind: the extra rules decide where it may go, what it pays and the bonus (``rows``' last row is
    scratch; the lanes as :func:`_entry_probabilities` has them)."""
    n = scoring(t)
    mask, armed, w = at.mask, at.armed, at.w
    if not (n.joker and n.five >= 0 and (mask >> n.five) & 1 == 1):
        return
    one = rows.shape[0] - 1
    lanes = t.lanes
    width = w if weights is None else 1
    n_s, n_rolls, _ = out.shape
    for s in range(n_s):
        for r in range(n_rolls):
            face = t.alike[r]
            if face < 0:
                continue
            extra = int(t.jbonus[mask, armed, face])
            for lane in range(width):
                out[s, r, col + lane] = NEG
            for b in range(n.n_boxes):
                p = int(t.jpts[mask, armed, s, face, b])
                if p < 0:
                    continue
                enter_into(read, lanes, n, at, (b, p, extra), rows[one], col, weights, runs)
                keep_better(rows[one], out[s, r], col, width, choice, s, r, -1 - b)


def _entries(template: Any, name: str, enter: Any) -> Any:
    """``template`` compiled with ``enter`` as its :func:`enter_into`, inlined where it is called."""
    return njit(cache=True, nogil=True, inline="always")(with_globals(template, name, enter_into=enter))


entry_probabilities = _entries(_entry_probabilities, "entry_probabilities", lanes_into)
"""The rows' entries of a roll, lane by lane (``weights`` None). Each way of entering has its own copy:
with both in one function, numba's inliner (which runs before the types are known) put the weighed
entries into the rows' kernel too, and it compiled in 11.5-12.4 s instead of 10.1-10.4 s."""
weighted_entry_probabilities = _entries(_entry_probabilities, "weighted_entry_probabilities", weighted_into)
"""A weighed turn's entries of a roll, one weighted sum a state."""
joker_probabilities = _entries(_joker_probabilities, "joker_probabilities", lanes_into)
"""The rows' entries of a further five of a kind, lane by lane."""
weighted_joker_probabilities = _entries(_joker_probabilities, "weighted_joker_probabilities", weighted_into)
"""A weighed turn's entries of a further five of a kind."""


@njit(cache=True, nogil=True, inline="always")
def window(states: Any, i: int, free: int) -> Window:  # pragma: no cover
    """Row ``i`` of ``states`` (the fields of :class:`Window`, one state a row) with ``free`` free throws."""
    return Window(states[i, 0], states[i, 1], states[i, 2], free, states[i, 4], states[i, 5])


@borrowing
def score_probabilities(
    states: Any,
    fewer: int,
    read: Reading,
    t: KernelTables,
    rows: Any,
    out: Any,
    weights: Any,
    choice: Any,
    strike_box: Any,
) -> None:  # pragma: no cover
    """``out[s, roll, i]``: the best chance of each roll's entries (thrown at once: ``s`` = 1) in the
    state of row ``i`` of ``states`` (the fields of :class:`Window`, with ``fewer`` free throws fewer
    than it says left after the turn), each entry valued by ``sum(weights[i, lane] * P(making
    states[i, 4] + lane more points))`` over the state's ``states[i, 5]`` lanes (the target counterpart of
    :func:`~.common.score_values`; ``rows`` as :func:`entry_probabilities` fills it, a lane a
    state). The children's rows are read from ``read`` (the next level's).

    With ``choice`` and ``strike_box`` (None: not asked for) the entry each value is the best of is
    recorded as :func:`~kniffel.core.kernels.common.score_values` records it, for a game to be played by these
    values (:func:`kniffel.core.kernels.play.play_game_turn`)."""
    no_runs = states[:0, :2]  # a weighed entry sums the whole window (and allocates nothing)
    for i in range(states.shape[0]):
        at = window(states, i, states[i, 3] - fewer)
        weighted_entry_probabilities(at, read, t, rows, i, weights[i], strike_box, no_runs)
    best_entries(rows, t.nonzero, out, choice)
    for i in range(states.shape[0]):
        at = window(states, i, states[i, 3] - fewer)
        weighted_joker_probabilities(at, read, t, rows, i, out, weights[i], choice, no_runs)


@njit(cache=True, nogil=True)
def turn_probabilities(
    states: Any,
    weights: Any,
    usable: int,
    positions: int,
    read: Reading,
    t: KernelTables,
    table: Any,
    sv: Any,
    choice: Any,
    strike_box: Any,
) -> None:  # pragma: no cover
    """The weighted keep probabilities of a turn in each state of ``states`` (rows of the fields of
    :class:`Window`, as :func:`score_probabilities` weighs them; lane ``i`` of every table is row ``i``'s),
    written into ``table`` as :func:`~.common.sweep` writes keep values; every state has the
    same free throws left, ``usable`` of which may still be thrown this turn. ``sv[k]`` (``k`` = ``0 ..
    usable``) receives the scoring values of every roll with ``usable - k`` free throws fewer left after
    the turn, and ``choice`` / ``strike_box`` (None: not asked for) the entries that give them, as
    :func:`kniffel.core.kernels.play.turn_tables` lays them out.

    The keep lattice does not care which state a lane is (the rows' level loop,
    :data:`kniffel.core.kernels.target.solve_target`, sweeps many too): a turn of one state swept on its own
    cost 20 us, most of it the loops' overhead per keep for a single lane."""
    rows = np.empty((t.pair_box.shape[0] + 2, states.shape[0]))
    for k in range(usable + 1):
        if choice is None:
            score_probabilities(states, usable - k, read, t, rows, sv[k], weights, None, None)
        else:
            score_probabilities(states, usable - k, read, t, rows, sv[k], weights, choice[k], strike_box[k])
    # the sweep takes all its free throws as usable: with ``usable`` of them, level 0 is the lowest
    sweep(sv, usable, positions, t, table)


PAD = 16
"""A bundle's lanes are swept in a width rounded up to this (the extra lanes are zeros, swept and
dropped): the compiled lane loops take 16 lanes a turn (two vectors of eight, on the native build of an
Intel Xeon as on the AVX2 one), and a width that is no multiple of it ends every row's loop in a slower
tail. Rounded up to 64, a bundle swept 12 % more lanes than it holds, against 3 % now; the levels of
Kniffel's cone of 300 that take most of its time were 5-11 % sooner on the native build, 1-2 % on the
AVX2 one, every probability the same."""
BUNDLE = 256
"""States are solved in bundles of at least this many lanes: the keep lattice does not care which state a
lane belongs to, and its loops cost per keep as much for a few lanes as for many (a window late in a
game, or of one target, is a few dozen lanes)."""


@njit(cache=True, nogil=True)
def open_pairs(t: KernelTables, items: Any) -> Any:  # pragma: no cover
    """``t.nonzero`` without the pairs of boxes that every state of ``items`` has filled: their rows are
    NEG in every lane, so the best entry of a roll is the same without them (late in a game most boxes
    are filled, and comparing their rows was most of the work of a roll's best entry)."""
    allow = 0
    for i in range(items.shape[0]):
        allow |= t.allowed[items[i, 0]]
    n_s, n_rolls, n = t.nonzero.shape
    out = np.full((n_s, n_rolls, n), -1, dtype=t.nonzero.dtype)
    for s in range(n_s):
        for r in range(n_rolls):
            k = 0
            for i in range(n):
                j = t.nonzero[s, r, i]
                if j < 0:
                    break
                if (allow >> t.pair_box[j]) & 1:
                    out[s, r, k] = j
                    k += 1
    return out


class TargetLevel(NamedTuple):
    """A level of the target rows (:data:`kniffel.core.kernels.target.solve_target`): its states ``items[i] =
    (mask, armed, up)`` in bundles (bundle ``b`` is ``items[starts[b] : starts[b + 1]]``), each solved
    at every free-throw level up to ``free_top`` for the targets of its runs ``runs[bounds[i] :
    bounds[i + 1]]`` (rows ``(first target, count)``, within its window) into ``prob`` (the level's
    array), from the next level's rows (``read``). The bundle's runs lie side by side as the lanes of one
    sweep of the keep lattice; a window's targets outside its runs are not solved."""

    items: Any
    starts: Any
    free_top: int
    prob: Any
    read: Reading
    bounds: Any
    runs: Any


class TargetBundle(NamedTuple):
    """A bundle of a :class:`TargetLevel`: its states, how many lanes each one's runs have, and the runs
    (:class:`TargetLevel`'s ``bounds`` of these states and ``runs``)."""

    items: Any
    widths: Any
    bounds: Any
    runs: Any


@njit(cache=True, nogil=True, inline="always")
def score_target(level: Any, b: Any, t: Any) -> Any:  # pragma: no cover
    """The target objective's ``score`` (:mod:`kniffel.core.kernels.loop`): bundle ``b``'s states and the
    best probability of every roll's entries over their windows, side by side (the rows allocated
    here, the entries worked out by :func:`bundle_entries`)."""
    n_s, n_rolls, _ = t.nonzero.shape
    first_item, last_item = level.starts[b], level.starts[b + 1]
    items = level.items[first_item:last_item]
    bounds = level.bounds[first_item : last_item + 1]
    runs = level.runs
    read = level.read
    count = items.shape[0]
    widths = np.zeros(count, dtype=np.int64)
    width = 0
    for i in range(count):
        for r in range(bounds[i], bounds[i + 1]):
            widths[i] += runs[r, 1]
        width += widths[i]
    # float32 lanes: twice as many to a vector instruction, and a row of keeps stays in the cache
    padded = (width + PAD - 1) // PAD * PAD
    nonzero = open_pairs(t, items)
    sv = np.empty((level.free_top + 1, n_s, n_rolls, padded), dtype=np.float32)
    # every entry's row is written over the windows' lanes: only the padding is zeroed
    rows = np.empty((t.pair_box.shape[0] + 2, padded), dtype=np.float32)
    for j in range(rows.shape[0]):
        for lane in range(width, padded):
            rows[j, lane] = 0.0
    for free in range(level.free_top + 1):
        bundle_entries(free, items, bounds, runs, widths, read, t, rows, nonzero, sv[free])
    return TargetBundle(items, widths, bounds, runs), sv


@borrowing
def bundle_entries(
    free: int,
    items: Any,
    bounds: Any,
    runs: Any,
    widths: Any,
    read: Reading,
    t: KernelTables,
    rows: Any,
    nonzero: Any,
    sv: Any,
) -> None:  # pragma: no cover
    """``sv[s, roll, lane]``: the best probability of every roll's entries in the states ``items`` (the
    targets of their runs, ``runs[bounds[i] : bounds[i + 1]]``, ``widths[i]`` lanes in all, side by
    side) with ``free`` free throws left after the turn.

    A kernel that borrows its arrays, apart from :func:`score_target`, which allocates the bundle's rows
    and so counts references: inlined there, every state's entries took a reference to each array of
    the tables and let go of it, atomic operations that were 6 % of a cone's time."""
    col = 0
    for i in range(items.shape[0]):
        own = runs[bounds[i] : bounds[i + 1]]
        at = Window(items[i, 0], items[i, 1], items[i, 2], free, own[0, 0], widths[i])
        entry_probabilities(at, read, t, rows, col, None, None, own)
        col += widths[i]
    best_entries(rows, nonzero, sv, None)
    col = 0
    for i in range(items.shape[0]):
        own = runs[bounds[i] : bounds[i + 1]]
        at = Window(items[i, 0], items[i, 1], items[i, 2], free, own[0, 0], widths[i])
        joker_probabilities(at, read, t, rows, col, sv, None, None, own)
        col += widths[i]


@njit(cache=True, nogil=True, inline="always")
def store_target(level: Any, bundle: Any, free: Any, solved: Any, t: Any) -> Any:  # pragma: no cover
    """The target objective's ``store``: the turns' values of each state's runs into its row."""
    n = scoring(t)
    items, bounds, runs, index, prob = bundle.items, bundle.bounds, bundle.runs, level.read.index, level.prob
    col = 0
    for i in range(items.shape[0]):
        lane = lane_at(level.read.lane_base, t.lanes, n, items[i, 1], free, items[i, 0], items[i, 2])
        offset, first = index[lane, 0], index[lane, 1]
        for r in range(bounds[i], bounds[i + 1]):
            at, w = offset + runs[r, 0] - first, runs[r, 1]
            row, made = prob[at : at + w], solved[col : col + w]
            for k in range(w):
                row[k] = made[k]
            col += w


class TargetOptions(NamedTuple):
    """What the options of situations are valued by for a target
    (:data:`kniffel.core.kernels.target.target_options`): situation ``i``'s weights ``weights[i, :widths[i]]``
    of its targets ``firsts[i]`` on (one weight of 1 for the chance of one target; the chances of the
    others' bar for a chance of winning, :func:`~.win.best_of`; float32, as :func:`weighted_sum` sums
    them), read from the next level's rows (``read``; ``lanes``: the tables' lane layout)."""

    read: Reading
    lanes: Any
    firsts: Any
    widths: Any
    weights: Any


@njit(cache=True, nogil=True, inline="always")
def target_box(
    objective: TargetOptions,
    n: Scoring,
    state: EntryState,
    box: int,
    points: int,
    extra: int,
    lanes: Any,
    boxes: Any,
    i: int,
) -> None:  # pragma: no cover
    """The target's ``enter_box``: ``boxes[i, lanes.col]``, the weighted chance of situation ``i``'s
    targets once ``points`` (``extra`` on top) go in ``box`` from ``state`` at upper score ``lanes.lo``
    (:func:`enter_weighted`); the counterpart of :func:`kniffel.core.kernels.common.enter`."""
    at = Window(state.mask, state.armed, lanes.lo, state.free, objective.firsts[i], objective.widths[i])
    weights = objective.weights[i]
    boxes[i, lanes.col] = enter_weighted(objective.read, objective.lanes, n, at, box, points, extra, weights)


@njit(cache=True, nogil=True, inline="always")
def target_keeps(
    objective: TargetOptions, t: KernelTables, situations: Any, lanes: Any, table: Any
) -> None:  # pragma: no cover
    """The target's ``turn_keeps``: the weighted keep chances of the situations ``situations[lanes]``
    (a lane each, their throws alike) by :func:`turn_probabilities`, into ``table[0, keep, lane]``."""
    width = lanes.shape[0]
    sweep_free, usable, throws = situations[lanes[0], 6], situations[lanes[0], 7], situations[lanes[0], 8]
    states = np.empty((width, 6), dtype=np.int64)
    weights = np.empty((width, objective.weights.shape[1]), dtype=np.float32)
    for lane in range(width):
        i = lanes[lane]
        states[lane, 0], states[lane, 1], states[lane, 2] = (
            situations[i, 0],
            situations[i, 1],
            situations[i, 2],
        )
        states[lane, 3], states[lane, 4], states[lane, 5] = (
            sweep_free,
            objective.firsts[i],
            objective.widths[i],
        )
        for j in range(weights.shape[1]):  # a loop: a row assigned whole compiles the broadcasting too
            weights[lane, j] = objective.weights[i, j]
    n_s, n_rolls, _ = t.nonzero.shape
    sv = np.empty((usable + 1, n_s, n_rolls, width))
    turn_probabilities(states, weights, usable, usable + throws + 1, objective.read, t, table, sv, None, None)


@borrowing
def survival_rows(
    prob: Any, index: Any, lanes: Any, dist_lanes: Any, pmf: Any, dist_index: Any
) -> None:  # pragma: no cover
    """The rows of ``lanes`` (their windows in ``index``, written into ``prob``) as ``P(points to come >=
    u)`` of the distributions of ``dist_lanes`` (:class:`kniffel.core.distribution.LevelTable`'s
    ``pmf`` and ``index``): summed from the top, in float64."""
    for k in range(lanes.shape[0]):
        offset, first, count = index[lanes[k], 0], index[lanes[k], 1], index[lanes[k], 2]
        d = dist_lanes[k]
        at, low, n = dist_index[0, d], dist_index[1, d], dist_index[2, d]
        acc = 0.0
        j = n - 1
        for i in range(count - 1, -1, -1):
            while j >= 0 and low + j >= first + i:
                acc += pmf[at + j]
                j -= 1
            prob[offset + i] = min(acc, 1.0)


solve_target = level_loop("target", score_target, store_target)
"""The level loop of the chance of a target (:class:`TargetLevel`)."""
target_options = option_kernel("target", target_box, target_keeps)
"""Every option of N situations as the weighted chance of targets (:class:`TargetOptions`): of one
target, or of winning."""
