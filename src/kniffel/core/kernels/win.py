"""numba kernels of playing to win: final-score distributions combined across players, and whole turns of
many games played for the chance of finishing first (:mod:`kniffel.core.winplay`).

The chance of winning is read as :mod:`kniffel.planning.goals` describes it: the others' final scores are
independent, each playing for points from where they stand (:mod:`kniffel.core.distribution`), and a
player wins by reaching the *bar* (:func:`best_of`): the best of the others' scores where a tie counts as
a win for every tied player (a table's house rule), or where a tie among ``k`` players is worth ``1/k``
of a win (the rule by default), the best of them plus one with the chance that the tie goes against the
player, as if it were settled by lot. The player to move weighs its target probabilities
(:mod:`kniffel.core.kernels.target`) by the bar; the turn is then played by those weighted values with
the simulator's own turn (:func:`~kniffel.core.kernels.play.play_game_turn`).

A *final-score distribution* here is ``(low, offset, count)`` into a flat array of probabilities: the
chance of finishing with ``low + i`` points is ``pmf[offset + i]``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.common import lane_of
from kniffel.core.kernels.play import Turn, TurnTables, play_lanes, points_turns
from kniffel.core.kernels.records import KernelTables, borrowing, wide
from kniffel.core.kernels.target import Reading, turn_probabilities

WIN = -1
"""An aim of :func:`win_turn`: to finish first."""
POINTS = -2
"""An aim of :func:`win_turn`: points (the game's turn is played elsewhere)."""


class FinalScores(NamedTuple):
    """The final-score distribution of every state between turns, played for points
    (:class:`kniffel.core.distribution.DistributionTable`): lane ``lane`` (``lane_base`` as
    :func:`~kniffel.core.kernels.common.lane_of` reads it) is the chance of ``index[1, lane] + i`` more points
    at ``pmf[index[0, lane] + i]``, ``index[2, lane]`` of them; ``longest`` the most of any lane. ``shared``
    says how a tie for first counts when they are compared (:func:`best_of`): a share of the win, or a
    win for every tied player."""

    pmf: Any
    index: Any
    lane_base: Any
    longest: int
    shared: bool


class TargetTables(NamedTuple):
    """The target rows a turn played for a target or to win reads (:mod:`kniffel.core.kernels.target`):
    the mover's level (``own``) and the next (``after``), their lanes (``index``, where each state's
    lanes start in ``lane_base``), the most points each set of filled boxes can still make (``reach``)
    and the highest target the rows answer (``limit``)."""

    own: Any
    after: Any
    index: Any
    lane_base: Any
    reach: Any
    limit: int


@borrowing
def best_of(
    lows: Any, offsets: Any, counts: Any, pmf: Any, out: Any, below: Any, shared: bool
) -> tuple[int, int]:  # pragma: no cover
    """The bar of independent final scores ``(lows[q], offsets[q], counts[q])`` of ``pmf``: the
    distribution of the score a player must reach to win against them, written into ``out`` (long enough
    for the highest score less the highest low, plus two); returns its lowest score and its length.
    Without ``shared`` it is the distribution of the highest of the scores (a tie wins for every tied
    player). With ``shared``, a tie among ``k`` players is worth ``1/k`` of a win: the chance of winning
    with ``x`` points is ``V(x) = E[1{every score <= x} / (1 + J)]``, ``J`` the scores equal to ``x``,
    and the bar takes ``V(x) - V(x - 1)`` at ``x``, so that ``P(own >= bar)`` is the share of the win
    (:func:`at_least`). ``below`` is scratch, two entries a score and one more."""
    k = lows.shape[0]
    if k == 1:
        # one other player (every game of two): the best is that player's score, read as it is (summed
        # up and differenced back it cost a tenth of a turn to win, and its last bits); shared, a tie is
        # half a win: the bar is that score, or one more, each with half its chance
        n = counts[0]
        at = offsets[0]
        if not shared:
            for i in range(n):
                out[i] = pmf[at + i]
            return lows[0], n
        out[0] = 0.5 * pmf[at]
        for i in range(1, n):
            out[i] = 0.5 * (pmf[at + i - 1] + pmf[at + i])
        out[n] = 0.5 * pmf[at + n - 1]
        return lows[0], n + 1
    first = lows[0]
    last = lows[0] + counts[0] - 1
    for q in range(1, k):
        first = max(first, lows[q])
        last = max(last, lows[q] + counts[q] - 1)
    # P(score_q <= x), x from first - 1 on: below the highest low, the others' best cannot be
    for q in range(k):
        below[q] = 0.0
        for i in range(min(first - lows[q], counts[q])):
            below[q] += pmf[offsets[q] + i]
    if shared:
        # V(x) = integral over t from 0 to 1 of prod_q (P(score_q < x) + t P(score_q = x)): the chance
        # that j of the others tie at x is the coefficient of t^j, and 1/(1 + j) is the integral of t^j;
        # the polynomial's coefficients are kept in ``below[k:]``
        previous = 0.0
        for x in range(first, last + 2):
            below[k] = 1.0
            for q in range(k):
                i = x - lows[q]
                p = pmf[offsets[q] + i] if 0 <= i < counts[q] else 0.0
                a = below[q]
                below[k + q + 1] = below[k + q] * p
                for j in range(q, 0, -1):
                    below[k + j] = below[k + j] * a + below[k + j - 1] * p
                below[k] *= a
                below[q] += p
            value = 0.0
            for j in range(k + 1):
                value += below[k + j] / (j + 1)
            out[x - first] = value - previous
            previous = value
        return first, last - first + 2
    previous = 1.0
    for q in range(k):
        previous *= below[q]
    for x in range(first, last + 1):
        cdf = 1.0
        for q in range(k):
            i = x - lows[q]
            if 0 <= i < counts[q]:
                below[q] += pmf[offsets[q] + i]
            cdf *= below[q]
        out[x - first] = cdf - previous
        previous = cdf
    return first, last - first + 1


@borrowing
def at_least(own_low: int, own: Any, best_low: int, best: Any) -> float:  # pragma: no cover
    """``P(own >= best)`` for independent final scores: own ``own_low + i`` with ``own[i]``, best
    ``best_low + i`` with ``best[i]``: with the others' bar for ``best`` (:func:`best_of`), the chance of
    winning against them."""
    total = 0.0
    below = 0.0  # P(best <= x)
    j = 0
    for i in range(own.shape[0]):
        x = own_low + i
        while j < best.shape[0] and best_low + j <= x:
            below += best[j]
            j += 1
        total += own[i] * below
    return total


@borrowing
def fold(
    first: int, weights: Any, count: int, limit: int, open_ended: bool
) -> tuple[int, int]:  # pragma: no cover
    """The targets ``first .. first + count - 1`` of ``weights`` that a target table with ``limit``
    answers, folded in place: past the limit, a state that can still make more (``open_ended``) reads
    them at the limit (an upper bound: their weights move onto it), one that cannot makes none of them
    (their weights go). Returns the first target and how many are left."""
    last = first + count - 1
    if last <= limit:
        return first, count
    inside = max(0, limit - first + 1)
    rest = 0.0
    if open_ended:
        for i in range(inside, count):
            rest += weights[i]
    if inside == 0:
        weights[0] = rest
        return limit, 1
    weights[inside - 1] += rest
    return first, inside


@borrowing
def decided(
    first: int, count: int, row_first: int, row: Any, open_ended: bool, limit: int
) -> int:  # pragma: no cover
    """Whether targets ``first .. first + count - 1`` are all made already (1: every option wins), or
    the least of them cannot be made from a turn's start whose target row holds ``P(row_first + i)`` at
    ``row[i]`` (0: no option wins; past the row 0, or for a row cut at the table's ``limit`` its last
    value), or neither (-1). A player whose game is decided plays for points: every option is worth the
    same chance."""
    if first + count - 1 <= 0:
        return 1
    if first <= 0:  # the least target is made already, the others not
        return -1
    at = first - row_first
    if at >= row.shape[0]:
        if not open_ended or row.shape[0] == 0 or row_first + row.shape[0] - 1 < limit:
            return 0
        at = row.shape[0] - 1
    if at >= 0 and row[at] == 0.0:
        return 0
    return -1


@njit(cache=True, nogil=True, inline="always")
def final_of(
    games: Any, q: int, g: int, finals: FinalScores, t: KernelTables
) -> tuple[int, int, int]:  # pragma: no cover
    """Player ``q``'s final-score distribution in game ``g`` (``games`` holds ``[player, game]``),
    between turns and playing for points: the distribution table's lane of its state, shifted by the
    points it holds."""
    lane = lane_of(
        t,
        finals.lane_base,
        int(games.armed[q, g]),
        int(games.free[q, g]),
        int(games.mask[q, g]),
        int(games.up[q, g]),
    )
    index = finals.index
    return int(games.score[q, g] + index[1, lane]), int(index[0, lane]), int(index[2, lane])


class Others(NamedTuple):
    """Scratch of :func:`others_best` (``below`` two entries a player): made once for many games
    (:func:`others`)."""

    lows: Any
    offsets: Any
    counts: Any
    below: Any


@njit(cache=True, nogil=True)
def others(players: int) -> Others:  # pragma: no cover
    """Scratch for :func:`others_best` in games of ``players``."""
    return Others(
        np.empty(players - 1, dtype=np.int64),
        np.empty(players - 1, dtype=np.int64),
        np.empty(players - 1, dtype=np.int64),
        np.empty(2 * players),
    )


@borrowing
def others_best(
    games: Any, me: int, g: int, finals: FinalScores, t: KernelTables, out: Any, scratch: Others
) -> tuple[int, int]:  # pragma: no cover
    """The bar of the players of game ``g`` other than ``me`` (:func:`best_of`, a tie counted as
    ``finals.shared`` says), into ``out``: its lowest score and length."""
    lows, offsets, counts = scratch.lows, scratch.offsets, scratch.counts
    k = 0
    for q in range(games.mask.shape[0]):
        if q != me:
            lows[k], offsets[k], counts[k] = final_of(games, q, g, finals, t)
            k += 1
    first, length = best_of(lows, offsets, counts, finals.pmf, out, scratch.below, finals.shared)
    return first, length


@njit(cache=True, nogil=True)
def chances(
    games: Any, finals: FinalScores, t: KernelTables, out: Any, first: int, last: int
) -> None:  # pragma: no cover
    """``out[g, p]``: player ``p``'s chance of finishing first in game ``g`` (``first .. last - 1``), every
    player between turns and playing for points from there (a tie counted as ``finals.shared`` says: shared,
    the chances of a game add up to 1)."""
    players = games.mask.shape[0]
    pmf = finals.pmf
    best = np.empty(finals.longest + 1)
    scratch = others(players)
    for g in range(first, last):
        for p in range(players):
            low, offset, count = final_of(games, p, g, finals, t)
            first, length = others_best(games, p, g, finals, t, best, scratch)
            out[g, p] = at_least(low, pmf[offset : offset + count], first, best[:length])


LANES = 64
"""Games whose turn to win is swept in one pass of the keep lattice, a lane each
(:func:`~kniffel.core.kernels.target.turn_probabilities`)."""


@njit(cache=True, nogil=True)
def play_weighted(
    games: Any, played: Any, states: Any, weights: Any, turn: Turn, read: Reading, t: KernelTables
) -> None:  # pragma: no cover
    """The turns of the games ``played`` (rows of ``games``, all with the same free throws left), each in
    the state of the same row of ``states`` and played by its weighted target probabilities (the same row
    of ``weights``): one turn's tables for all of them, a lane a game."""
    n_s, n_rolls, _ = t.nonzero.shape
    count = played.shape[0]
    usable = min(t.per_turn, int(states[0, 3]))
    positions = usable + t.rolls - 1
    sv = np.empty((usable + 1, n_s, n_rolls, count))
    choice = np.empty((usable + 1, n_s, n_rolls, count), dtype=np.int32)
    strike_box = np.empty((usable + 1, count), dtype=np.int64)
    table = np.empty((positions, t.first_roll, count))
    turn_probabilities(states, weights, usable, positions, read, t, table, sv, choice, strike_box)
    play_lanes(games, played, turn, t, TurnTables(sv, strike_box, choice, table))


@njit(cache=True, nogil=True)
def win_turn(
    games: Any,
    mine: Any,
    aims: Any,
    turn: Turn,
    values: Any,
    rows: TargetTables,
    finals: FinalScores,
    t: KernelTables,
    first_game: int,
    last_game: int,
) -> None:  # pragma: no cover
    """The turn of the player in seat ``turn.seat`` in the games ``g`` (``first_game .. last_game - 1``)
    where ``aims[g]`` says it plays to win (``WIN``) or for a final score of at least ``aims[g]`` (0 or
    more; ``POINTS``: not played here) (``games`` holds ``[seat, game]``, ``mine`` its row ``turn.seat``;
    ``games.rng`` the deals' seeds, the dice are the seat's in the deal). Played to win, every keep and
    entry is valued by ``sum over s of P(the others' bar = s) * P(making at least s - held more)``, the
    rest of the turn played for that sum (the value :class:`kniffel.planning.WinPlanner` gives every
    option); for a target by the probability of making it (:class:`kniffel.planning.TargetPlanner`'s); a
    game already decided either way is played for points (:func:`decided`). ``values`` are the solver's
    values; ``rows`` the target rows of the mover's level and the next; ``turn.log`` as
    :func:`~kniffel.core.play.play_turn` keeps it. The games still open are played :data:`LANES` at a
    time (:func:`play_weighted`), those with the same free throws left together, and so are the games
    decided (:func:`~kniffel.core.kernels.play.points_turns`)."""
    player = turn.seat
    own_prob, index, target_lanes, reach, limit = rows.own, rows.index, rows.lane_base, rows.reach, rows.limit
    read = Reading(rows.after, index, target_lanes)
    played = np.empty(LANES, dtype=np.int64)
    states = np.empty((LANES, 6), dtype=np.int64)
    # each game's weights worked out in float64 (as the planners work them out), then rounded for the
    # weighed sums (:func:`~kniffel.core.kernels.target.weighted_sum`)
    wanted = np.empty(finals.longest + 1)
    weights = np.empty((LANES, finals.longest + 1), dtype=np.float32)
    waiting = 0
    # the games decided either way, played for points LANES at a time (:func:`points_turns`)
    settled = np.empty(LANES, dtype=np.int64)
    settled_states = np.empty((LANES, 4), dtype=np.int64)
    n_settled = 0
    scratch = others(games.mask.shape[0])
    for g in range(first_game, last_game):
        if aims[g] == POINTS:
            continue
        # as the target kernels' other callers pass them (numba's int() keeps an int8 an int8)
        mask, armed, up = wide(games.mask[player, g]), wide(games.armed[player, g]), wide(games.up[player, g])
        fr = wide(games.free[player, g])
        if waiting > 0 and states[0, 3] != fr:
            # another count of free throws: another sweep (the lanes of one share the turn's throws)
            play_weighted(mine, played[:waiting], states[:waiting], weights[:waiting], turn, read, t)
            waiting = 0
        if aims[g] == WIN:
            first, count = others_best(games, player, g, finals, t, wanted, scratch)
        else:
            wanted[0] = 1.0
            first, count = int(aims[g]), 1
        first -= int(games.score[player, g])
        lane = lane_of(t, target_lanes, armed, fr, mask, up)
        offset, row_first, row_count = index[lane, 0], index[lane, 1], index[lane, 2]
        row = own_prob[offset : offset + row_count]
        if decided(first, count, row_first, row, reach[mask] > limit, limit) >= 0:
            if n_settled > 0 and settled_states[0, 3] != fr:
                points_turns(mine, settled[:n_settled], settled_states[:n_settled], turn, values, t)
                n_settled = 0
            settled[n_settled] = g
            settled_states[n_settled, 0], settled_states[n_settled, 1] = mask, armed
            settled_states[n_settled, 2], settled_states[n_settled, 3] = up, fr
            n_settled += 1
            if n_settled == LANES:
                points_turns(mine, settled, settled_states, turn, values, t)
                n_settled = 0
            continue
        first, count = fold(first, wanted, count, limit, reach[mask] > limit)
        for j in range(count):
            weights[waiting, j] = wanted[j]
        played[waiting] = g
        states[waiting, 0], states[waiting, 1], states[waiting, 2] = mask, armed, up
        states[waiting, 3], states[waiting, 4], states[waiting, 5] = fr, first, count
        waiting += 1
        if waiting == LANES:
            play_weighted(mine, played, states, weights, turn, read, t)
            waiting = 0
    if waiting > 0:
        play_weighted(mine, played[:waiting], states[:waiting], weights[:waiting], turn, read, t)
    if n_settled > 0:
        points_turns(mine, settled[:n_settled], settled_states[:n_settled], turn, values, t)
