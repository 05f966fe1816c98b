"""numba kernels of :mod:`kniffel.env.vector`: one step of many single-column games at once.

The rules come only from the solver's compiled tables (:class:`kniffel.core.kernels.records.KernelTables`),
which are checked against :func:`kniffel.rules.placements`, and are read as every compiled game reads
them: where a roll may go and what it pays there by :func:`~kniffel.core.kernels.common.roll_entry`, what the
entry does to the game by :func:`~kniffel.core.kernels.common.settle`. The dice are thrown as every compiled
game throws them (:func:`kniffel.core.kernels.play.throw`, from the per-game streams): an action's held
dice are a keep of the lattice, and the roll it gives is shown sorted. So a step applies an agent's
action with the same throw and the same entry as the games played by the solver's tables apply theirs.
Actions and observations follow :mod:`kniffel.env.encoding`.

For the values of their actions (:mod:`kniffel.core.kernels.envvalues`) the games' positions are read
(:func:`env_rows`) and the turns of many of them swept at once, a game a lane (:func:`lane_keeps`,
:func:`first_keeps`): each lane is a sheet of its own, where the solver's sweeps carry the upper scores
of one sheet in their lanes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from kniffel.core.kernels.common import (
    NEG,
    best_entries,
    boxes_for,
    joker_applies,
    keep_expect,
    keep_max,
    roll_entry,
    scoring,
    settle,
    sharp_roll,
    sweep_from,
)
from kniffel.core.kernels.maxima import larger
from kniffel.core.kernels.play import throw
from kniffel.core.kernels.records import EntryState, KernelTables, Scoring, borrowing

# positions of the observation's parts in ``offsets`` (-1: the rules have no such part)
DICE, COUNTS, ROLLS_LEFT, FREE_TAKEN, AT_ONCE, FILLED, POINTS, UPPER_SUM, EXTRA, FREE_LEFT = range(10)
N_OFFSETS = 10


class EnvGames(NamedTuple):
    """Where every game stands (one entry per game): its dice, the throws left and the free throws taken
    this turn, whether the dice were thrown at once, the sheet (filled boxes, their points, upper sum,
    extra bonuses), the free throws left, the total so far and the game's dice stream."""

    dice: Any
    rolls: Any
    taken: Any
    at_once: Any
    filled: Any
    points: Any
    upper: Any
    extra: Any
    free_left: Any
    total: Any
    rng: Any


class EnvRules(NamedTuple):
    """What the kernels read of the rules: the solver's tables (throws, free throws, what a roll pays in
    each box, the boxes each sheet allows, the extra rules, the upper bonus) and the number of each
    sorted roll by its dice."""

    tables: KernelTables
    base: Any
    """:attr:`kniffel.core.Compiled.base`: what a roll pays in each box (looked up, not searched)."""
    code_to_roll: Any
    roll_dice: Any
    """``[roll, die]``: the faces (1-6) of each sorted roll, ascending."""


class EnvResults(NamedTuple):
    """What a step gives back per game: the reward, whether the game ended, its total then, and whether
    the action was legal."""

    rewards: Any
    done: Any
    final: Any
    legal: Any


@borrowing
def _throw(g: int, held: int, dice: Any, rng: Any, rules: EnvRules) -> None:  # pragma: no cover
    """Throw the dice of game ``g`` not held (bit mask of positions of its sorted dice): the held dice
    are a keep, thrown from as every compiled game throws; the roll is shown sorted."""
    t = rules.tables
    n = dice.shape[1]
    keep = 0
    for j in range(n):
        if (held >> j) & 1 == 1:
            keep = t.child[keep, dice[g, j] - 1]
    r = throw(rng, g, keep, t.size, t.child, n, -1, 0, 0) - t.first_roll
    for j in range(n):
        dice[g, j] = rules.roll_dice[r, j]


@borrowing
def _start_turn(g: int, games: EnvGames, rules: EnvRules) -> None:  # pragma: no cover
    _throw(g, 0, games.dice, games.rng, rules)
    games.rolls[g] = 1
    games.taken[g] = 0
    games.at_once[g] = 1


@borrowing
def _new_game(g: int, games: EnvGames, rules: EnvRules) -> None:  # pragma: no cover
    """Game ``g`` starts again: empty sheet, every free throw left, first throw made."""
    games.filled[g] = 0
    games.points[g, :] = 0
    games.upper[g] = 0
    games.extra[g] = 0
    t = rules.tables
    games.free_left[g] = t.n_free - 1
    games.total[g] = (t.n_free - 1) * t.free_points
    _start_turn(g, games, rules)


@borrowing
def new_games(first: int, games: EnvGames, rules: EnvRules) -> None:  # pragma: no cover
    """Start a new game in every slot from ``first`` on."""
    for g in range(first, games.dice.shape[0]):
        _new_game(g, games, rules)


@borrowing
def _roll_number(g: int, dice: Any, code_to_roll: Any) -> int:  # pragma: no cover
    code = 0
    for j in range(dice.shape[1] - 1, -1, -1):
        code = code * 6 + dice[g, j] - 1
    return int(code_to_roll[code])


@njit(cache=True, nogil=True, inline="always")
def _scoring_state(
    g: int, games: EnvGames, t: KernelTables, n: Scoring
) -> tuple[EntryState, int]:  # pragma: no cover
    """Game ``g``'s sheet as the solver's kernels take it (armed: points in the five-of-a-kind box),
    and whether its dice were thrown at once as the tables index it."""
    armed = 1 if n.n_armed > 1 and games.points[g, n.five] > 0 else 0
    s = min(int(games.at_once[g]), t.nonzero.shape[0] - 1)
    return EntryState(int(games.filled[g]), armed, 0), s


@borrowing
def step(
    actions: Any,
    masks: Any,
    obs: Any,
    offsets: Any,
    penalty: float,
    autoreset: bool,
    games: EnvGames,
    results: EnvResults,
    rules: EnvRules,
) -> None:  # pragma: no cover
    """Apply ``actions[g]`` to every game ``g``, then write every game's observation and action mask
    (:func:`observe`: one call a step, as the tables' arrays are unpacked on every call). An action
    outside the space or not marked in ``masks`` (as :func:`observe` wrote them) earns ``-penalty`` and
    changes nothing (``legal[g] = 0``); a game that ends records its total in ``final[g]`` and starts
    again (``done[g] = 1``) if ``autoreset``, else stays over."""
    dice, rolls, taken, at_once, filled, points, upper, extra, free_left, total, rng = games
    rewards, done, final, legal = results
    t, code_to_roll = rules.tables, rules.code_to_roll
    n = scoring(t)
    n_games, n_actions = masks.shape
    n_keeps = (1 << dice.shape[1]) - 1
    full = (1 << t.n_boxes) - 1
    for g in range(n_games):
        a = int(actions[g])
        done[g] = 0
        ok = 0 <= a < n_actions and masks[g, a] == 1
        legal[g] = ok
        if not ok:
            rewards[g] = -penalty
            continue
        if a < n_keeps:
            _throw(g, a, dice, rng, rules)
            if rolls[g] < t.rolls:
                rolls[g] += 1
            else:
                taken[g] += 1
            at_once[g] = 1 if a == 0 else 0
            rewards[g] = 0.0
            continue
        b = (a - n_keeps) % t.n_boxes
        state, s = _scoring_state(g, games, t, n)
        p, bonus = 0, 0
        if a < n_keeps + t.n_boxes:
            # what the box pays; the mask has said that the dice may go there
            p, bonus = roll_entry(t, n, state, s, _roll_number(g, dice, code_to_roll), b, rules.base)
        after, _, _, gained, _ = settle(n, state.mask, state.armed, b, p, int(upper[g]), bonus)
        gain = gained - taken[g] * t.free_points
        if (n.upper_mask >> b) & 1 == 1:
            upper[g] += p  # the sum shown, not capped at the threshold as the solver's state is
        free_left[g] -= taken[g]
        points[g, b] = p
        extra[g] += bonus
        filled[g] = after
        total[g] += gain
        rewards[g] = gain
        if after == full:
            done[g] = 1
            final[g] = total[g]
            if autoreset:
                _new_game(g, games, rules)
        else:
            _start_turn(g, games, rules)
    observe(obs, masks, offsets, games, rules)


@borrowing
def observe(obs: Any, masks: Any, offsets: Any, games: EnvGames, rules: EnvRules) -> None:  # pragma: no cover
    """Write every game's observation and action mask (see :mod:`kniffel.env.encoding`)."""
    dice, rolls, taken, at_once, filled, points = (
        games.dice,
        games.rolls,
        games.taken,
        games.at_once,
        games.filled,
        games.points,
    )
    upper, extra, free_left = games.upper, games.extra, games.free_left
    t, code_to_roll = rules.tables, rules.code_to_roll
    n = scoring(t)
    n_games, n_dice = dice.shape
    n_keeps = (1 << n_dice) - 1
    n_boxes = t.n_boxes
    full = (1 << n_boxes) - 1
    for g in range(n_games):
        o = obs[g]
        o[:] = 0.0
        m = masks[g]
        m[:] = 0
        over = filled[g] == full
        if not over:
            for j in range(n_dice):
                o[offsets[DICE] + j] = dice[g, j]
                o[offsets[COUNTS] + dice[g, j] - 1] += 1.0
            o[offsets[ROLLS_LEFT]] = t.rolls - rolls[g]
            if offsets[FREE_TAKEN] >= 0:
                o[offsets[FREE_TAKEN]] = taken[g]
            if offsets[AT_ONCE] >= 0:
                o[offsets[AT_ONCE]] = at_once[g]
        mask = filled[g]
        for b in range(n_boxes):
            if (mask >> b) & 1:
                o[offsets[FILLED] + b] = 1.0
                o[offsets[POINTS] + b] = points[g, b]
        o[offsets[UPPER_SUM]] = upper[g]
        if offsets[EXTRA] >= 0:
            o[offsets[EXTRA]] = extra[g]
        if offsets[FREE_LEFT] >= 0:
            o[offsets[FREE_LEFT]] = free_left[g]
        if over:
            continue
        can_throw = rolls[g] < t.rolls or (taken[g] < t.per_turn and free_left[g] > taken[g])
        throw = 1 if can_throw else 0
        for k in range(n_keeps):
            m[k] = throw
        state, s = _scoring_state(g, games, t, n)
        r = _roll_number(g, dice, code_to_roll)
        open_to = boxes_for(t, n, state, s, r) & ~mask
        for b in range(n_boxes):
            if (open_to >> b) & 1 == 0:
                continue
            p, bonus = roll_entry(t, n, state, s, r, b, rules.base)
            if p + bonus > 0:  # scoring nothing is the strike: one action for it
                m[n_keeps + b] = 1
            m[n_keeps + n_boxes + b] = 1


# --- the positions of the games and the sweeps of their turns, for the values of their actions ---


def _prefetch(typingctx: Any, array: Any, offset: Any) -> Any:  # pragma: no cover
    """Ask for the cache line of element ``offset`` of the C-contiguous ``array`` (counted over all its
    dimensions) without waiting for it: LLVM's ``prefetch``, one ``prefetcht0``."""
    if not isinstance(array, types.Array) or array.layout != "C" or not isinstance(offset, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        pointer, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        name = "llvm.prefetch.p0"
        prefetch = builder.module.globals.get(name) or ir.Function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer, i32, i32, i32]), name
        )
        # a read, kept in every level of the caches, of data
        builder.call(
            prefetch, [builder.bitcast(builder.gep(data, [args[1]]), pointer), i32(0), i32(3), i32(1)]
        )
        return context.get_dummy_value()

    return types.none(array, offset), codegen


prefetch: Any = intrinsic(_prefetch)
"""Ask for the cache line of an element of an array without waiting for it (:func:`_prefetch`), from
compiled code."""

AHEAD = 4
"""How many lanes ahead :func:`lane_entries` asks for the table's values of a lane's sheets after."""


@njit(cache=True, nogil=True, inline="always")
def fetch_after(values: Any, n: Scoring, mask: int, aux: int, up: int) -> None:  # pragma: no cover
    """Ask for the table's values of the sheets after each open box of the sheet ``mask`` (table row
    ``aux``) at the upper score ``up``, and up to 31 points above it after an upper box: a lane's
    entries read a dozen values from all over the table, each a wait for the memory when asked for
    only as it is read (the table is far larger than the caches)."""
    per_aux, per_mask = values.shape[1] * values.shape[2], values.shape[2]
    for b in range(n.n_boxes):
        if (mask >> b) & 1 == 0:
            at = aux * per_aux + (mask | (1 << b)) * per_mask
            prefetch(values, at + up)
            if (n.upper_mask >> b) & 1 == 1:
                for more in range(8, 32, 8):
                    prefetch(values, at + min(up + more, per_mask - 1))


@borrowing
def env_rows(games: EnvGames, rules: EnvRules, rows: Any, games_of: Any) -> int:  # pragma: no cover
    """The positions of the games of ``games`` that are not over, as :meth:`kniffel.core.position.
    ColumnPosition.encode` writes their rows: ``rows[i]`` of game ``games_of[i]``; how many."""
    t = rules.tables
    n_games, n_dice = games.dice.shape
    full = (1 << t.n_boxes) - 1
    n_at_once = t.nonzero.shape[0]
    count = 0
    for g in range(n_games):
        mask = int(games.filled[g])
        if mask == full:
            continue
        up = min(int(games.upper[g]), t.threshold)
        if mask & t.upper_mask == t.upper_mask:
            up = 0
        armed = 0
        if t.n_armed == 2 and t.five >= 0 and (mask >> t.five) & 1 == 1 and games.points[g, t.five] > 0:
            armed = 1
        free = int(games.free_left[g]) - int(games.taken[g])
        code = 0
        for j in range(n_dice - 1, -1, -1):
            code = code * 6 + games.dice[g, j] - 1
        rolls_left = t.rolls - int(games.rolls[g])
        at_once = 1 if games.at_once[g] == 1 and n_at_once == 2 else 0
        usable = max(0, min(t.per_turn - int(games.taken[g]), free))
        sweep_free, throws = free, rolls_left - 1
        if rolls_left == 0:
            if usable > 0:
                sweep_free, usable, throws = free - 1, usable - 1, 0
            else:
                usable, throws = 0, -1
        rows[count, 0], rows[count, 1], rows[count, 2], rows[count, 3] = mask, armed, up, free
        rows[count, 4], rows[count, 5] = rules.code_to_roll[code], at_once
        rows[count, 6], rows[count, 7], rows[count, 8] = sweep_free, usable, throws
        games_of[count] = g
        count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def entered(
    values: Any, n: Scoring, mask: int, armed: int, free: int, up: int, box: int, points: int, extra: int
) -> float:  # pragma: no cover
    """:func:`~kniffel.core.kernels.common.enter` of one lane, the upper score ``up``: the same sums in
    the same order, without the loops over lanes, which for a lane each cost more than their sums."""
    child = mask | (1 << box)
    if n.n_armed == 2 and box == n.five:
        armed = 1 if points > 0 else 0
    aux = armed * n.n_free + free
    add = points + extra
    if (n.upper_mask >> box) & 1 == 1:
        threshold = n.threshold
        if up + points < threshold:
            return float(add + values[aux, child, up + points])
        if up < threshold:
            return float(add + n.upper_bonus + values[aux, child, threshold])
        return float(add + values[aux, child, threshold])
    return float(add + values[aux, child, up])


@borrowing
def lane_entries(
    values: Any, t: KernelTables, rows: Any, bundle: Any, free: int, entries: Any, after: Any, zero: Any
) -> None:  # pragma: no cover
    """What each roll may be entered as in the positions ``rows[bundle[lane]]`` with ``free`` free throws
    left after the turn, as :func:`~kniffel.core.kernels.common.entry_values` writes ``entries[pair,
    lane]`` and the best strike ``entries[-2, lane]`` for segments of one lane each. Every lane is its
    own sheet here, so the states after each box are read a lane at a time; a box of the lower section
    adds the same state after (``after[box, lane]``, NEG where it is filled) to each of its points, so
    its entries (most of the pairs) are sums across the lanes, and only the upper section's, whose
    points move the upper score, are worked out a lane at a time. ``zero[box, lane]``: the value after a
    0 in each open box. The sums are :func:`entered`'s, in the same order."""
    n = scoring(t)
    width = bundle.shape[0]
    n_boxes, n_pairs = n.n_boxes, t.pair_box.shape[0]
    for lane in range(min(AHEAD, width)):
        row = rows[bundle[lane]]
        fetch_after(values, n, row[0], row[1] * n.n_free + free, row[2])
    for lane in range(width):
        if lane + AHEAD < width:
            row = rows[bundle[lane + AHEAD]]
            fetch_after(values, n, row[0], row[1] * n.n_free + free, row[2])
        row = rows[bundle[lane]]
        mask, armed, up = row[0], row[1], row[2]
        allow = t.allowed[mask]
        strike = NEG
        for b in range(n_boxes):
            if (allow >> b) & 1 == 0:
                after[b, lane] = NEG
                continue
            zero[b, lane] = entered(values, n, mask, armed, free, up, b, 0, 0)
            strike = larger(zero[b, lane], strike)
            if (n.upper_mask >> b) & 1 == 0:
                armed_after = 1 if n.n_armed == 2 and b == n.five else armed
                after[b, lane] = values[armed_after * n.n_free + free, mask | (1 << b), up]
        entries[n_pairs, lane] = strike
        for j in range(n_pairs):
            b = t.pair_box[j]
            if (n.upper_mask >> b) & 1 == 1:
                points = int(t.pair_pts[j])
                open_box = (allow >> b) & 1 == 1
                entries[j, lane] = (
                    entered(values, n, mask, armed, free, up, b, points, 0) if open_box else NEG
                )
    for j in range(n_pairs):
        b = t.pair_box[j]
        if (n.upper_mask >> b) & 1 == 0:
            points = int(t.pair_pts[j])
            lanes, sums = after[b], entries[j]
            for lane in range(width):
                sums[lane] = points + lanes[lane]  # NEG stays NEG: points are below its spacing


@borrowing
def lane_jokers(
    values: Any,
    t: KernelTables,
    rows: Any,
    bundle: Any,
    free: int,
    after: Any,
    zero: Any,
    alike: Any,
    out: Any,
) -> None:  # pragma: no cover
    """``out[s, roll, lane]`` of each roll of five alike (``alike``) in the lanes whose five-of-a-kind box
    is filled: where the extra rules say it goes (:func:`~kniffel.core.kernels.common.joker_entry`). No
    points in a box are the extra bonus on the value after a 0 there, and a lower box's the sum on its
    state after (:func:`lane_entries`' ``zero`` and ``after``): the sums :func:`entered` makes."""
    n = scoring(t)
    for lane in range(bundle.shape[0]):
        row = rows[bundle[lane]]
        mask, armed, up = row[0], row[1], row[2]
        if not joker_applies(n, mask):
            continue
        for s in range(out.shape[0]):
            for r in alike:
                face = t.alike[r]
                extra = int(t.jbonus[mask, armed, face])
                placed = t.jpts[mask, armed, s, face]
                top = NEG
                for b in range(n.n_boxes):
                    points = int(placed[b])
                    if (n.upper_mask >> b) & 1 == 1 or b == n.five:
                        if points < 0:
                            continue
                        if points == 0:
                            v = extra + zero[b, lane]
                        else:
                            v = entered(values, n, mask, armed, free, up, b, points, extra)
                    else:
                        # a lower box without a branch on its points: which it pays is as good as
                        # random to the processor (unset rows of a closed box are never taken)
                        none, some = extra + zero[b, lane], (points + extra) + after[b, lane]
                        v = none if points == 0 else some
                        v = v if points >= 0 else NEG
                    top = larger(v, top)
                out[s, r, lane] = top


@njit(cache=True, nogil=True)
def lane_scores(values: Any, t: KernelTables, rows: Any, bundle: Any) -> Any:  # pragma: no cover
    """``sv[free, at_once, roll, lane]``: each roll's best entry in the positions ``rows[bundle]`` (their
    throws alike) at each free-throw level their turn may leave, as
    :func:`~kniffel.core.kernels.common.score_values` gives them (:func:`lane_entries`,
    :func:`lane_jokers`)."""
    width = bundle.shape[0]
    sweep_free, usable = rows[bundle[0], 6], rows[bundle[0], 7]
    n_s, n_rolls, _ = t.nonzero.shape
    sv = np.empty((t.n_free, n_s, n_rolls, width))
    entries = np.empty((t.pair_box.shape[0] + 2, width))
    after, zero = np.empty((t.n_boxes, width)), np.empty((t.n_boxes, width))
    alike = np.flatnonzero(t.alike >= 0)
    for f in range(sweep_free - usable, sweep_free + 1):
        lane_entries(values, t, rows, bundle, f, entries, after, zero)
        best_entries(entries, t.nonzero, sv[f], None)
        lane_jokers(values, t, rows, bundle, f, after, zero, alike, sv[f])
    return sv


@njit(cache=True, nogil=True)
def lane_keeps(values: Any, t: KernelTables, rows: Any, bundle: Any, table: Any) -> None:  # pragma: no cover
    """:func:`~kniffel.core.kernels.points.points_keeps` of the positions ``rows[bundle]`` (their throws
    alike), each roll's best entry from :func:`lane_scores`: the keep values of the last
    ``table.shape[0]`` positions of the turn's sweep into ``table[position, keep, lane]``."""
    usable, throws = rows[bundle[0], 7], rows[bundle[0], 8]
    sv = lane_scores(values, t, rows, bundle)
    sweep_from(sv, rows[bundle[0], 6], usable, usable + throws + 1, t, table)


@njit(cache=True, nogil=True)
def first_keeps(values: Any, t: KernelTables, rows: Any, bundle: Any, later: Any) -> Any:  # pragma: no cover
    """The keeps of the first decision of the turns ``rows[bundle]`` (two regular throws left, no free
    ones): :func:`~kniffel.core.kernels.common.sweep_from` of their two positions, its passes called
    alike, with the later throw's keeps into ``later[keep, lane]`` and those of the first decision left
    in the lattice it returns (``[keep, lane]``), where the decision reads the few it needs: copied
    out, as the sweep copies every keep, they were a fifth of a turn's time."""
    width = bundle.shape[0]
    free = rows[bundle[0], 6]
    sv = lane_scores(values, t, rows, bundle)
    n_s, n_rolls = sv.shape[1], sv.shape[2]
    sharp = n_s == 2
    first, child, parent, probs = t.first_roll, t.child, t.parent, t.roll_probs
    ev = np.empty((child.shape[0], width))
    at_once = np.empty((n_rolls if sharp else 1, width))
    for r in range(n_rolls if sharp else 0):
        for lane in range(width):
            at_once[r, lane] = sv[free, 1, r, lane]
    keep_expect(ev, width, child, first, probs, sharp, at_once, True, sv[free, 0])
    for k in range(first):
        for lane in range(width):
            later[k, lane] = ev[k, lane]
    nothing = np.empty(0)
    if sharp:
        keep_max(ev, width, parent, first, ev[:0], probs, nothing)
        sharp_roll(ev, at_once, sv[free], first, width)
    else:
        keep_max(ev, width, parent, first, sv[free, 0], probs, nothing)
    keep_expect(ev, width, child, first, probs, sharp, at_once, True, ev[:0])
    return ev
