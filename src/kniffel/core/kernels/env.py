"""numba kernels of :mod:`kniffel.env.vector`: one step of many single-column games at once.

The rules come only from the solver's compiled tables (:class:`kniffel.core.kernels.records.KernelTables`),
which are checked against :func:`kniffel.rules.placements`, and are read as every compiled game reads
them: where a roll may go and what it pays there by :func:`~kniffel.core.kernels.common.roll_entry`, what the
entry does to the game by :func:`~kniffel.core.kernels.common.settle`. The dice are thrown as every compiled
game throws them (:func:`kniffel.core.kernels.play.throw`, from the per-game streams): an action's held
dice are a keep of the lattice, and the roll it gives is shown sorted. So a step applies an agent's
action with the same throw and the same entry as the games played by the solver's tables apply theirs.
Actions and observations follow :mod:`kniffel.env.encoding`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from numba import njit

from kniffel.core.kernels.common import boxes_for, roll_entry, scoring, settle
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
