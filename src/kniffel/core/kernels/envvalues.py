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

from kniffel.core.kernels.common import BUNDLE
from kniffel.core.kernels.env import EnvGames, EnvRules
from kniffel.core.kernels.points import points_keeps, points_options
from kniffel.core.kernels.records import KernelTables


class Layout(NamedTuple):
    """Where the keeps of the lattice stand among the throws of the action layout: ``keep_of[roll,
    bits]`` is the keep that holding the dice ``bits`` (of the sorted roll ``roll``) holds, and
    ``index_of[roll, keep]`` the throw that holds ``keep`` by its first matching dice (-1: none)."""

    keep_of: Any
    index_of: Any


@njit(cache=True, nogil=True)
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
        row = rows[count]
        row[0], row[1], row[2], row[3] = mask, armed, up, free
        row[4], row[5], row[6], row[7], row[8] = rules.code_to_roll[code], at_once, sweep_free, usable, throws
        games_of[count] = g
        count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def struck(values: Any, t: KernelTables, row: Any, box: int) -> float:  # pragma: no cover
    """The value of striking ``box`` in the position ``row``: the table's value of the sheet after."""
    after = row[0] | (1 << box)
    free = row[3]
    if after == (1 << t.n_boxes) - 1:
        return float(t.free_points * free)
    armed = 0 if t.n_armed == 2 and box == t.five else row[1]
    up = 0 if after & t.upper_mask == t.upper_mask else row[2]
    return float(values[armed * t.n_free + free, after, up])


class TurnCache(NamedTuple):
    """The keep values of each game's turn before its last regular throw, kept from the turn's first
    decision (whose sweep computes them on its way): ``keys[g]`` the sheet's state they are of (``mask,
    armed, up, free``; a state never recurs in another turn) and ``keeps[g, keep]`` the values. Rules
    with free throws keep none (their later throws are valued from other levels)."""

    keys: Any
    keeps: Any


@njit(cache=True, nogil=True)
def action_values(
    values: Any, t: KernelTables, rows: Any, games_of: Any, masks: Any, layout: Layout, out: Any, best: Any
) -> None:  # pragma: no cover
    """``out[g, action]``: the value of every action ``masks[g]`` allows in the position ``rows[i]`` of
    game ``g = games_of[i]`` (NaN for the others, and in every row of a game without a position), and
    ``best[g]`` the best of them (-1 without a position), ties broken as the exact planner breaks them:
    the boxes in order (a box the roll pays nothing in is entered by its strike), then the strikes that
    give up points, then the throws in the lattice's order, each held by its first matching dice."""
    count = rows.shape[0]
    boxes = np.empty((count, t.n_boxes))
    keeps = np.empty((count, t.first_roll))
    points_options(values, t, rows, boxes, keeps)
    fill(values, t, rows, games_of, masks, layout, boxes, keeps, out, best)


@njit(cache=True, nogil=True)
def cached_values(
    values: Any, t: KernelTables, rows: Any, games_of: Any, masks: Any, layout: Layout, cache: TurnCache
) -> tuple[Any, Any]:  # pragma: no cover
    """The box and keep values of the positions ``rows`` (of the games ``games_of``), as
    :data:`~kniffel.core.kernels.points.points_options` writes them, the keeps of a turn's later
    regular throw read from ``cache`` where it holds them, and kept there at a turn's first decision."""
    count = rows.shape[0]
    boxes = np.empty((count, t.n_boxes))
    keeps = np.empty((count, t.first_roll))
    entries = rows.copy()
    entries[:, 8] = -1  # the entries alone: the keeps follow
    points_options(values, t, entries, boxes, keeps)
    keeping = t.n_free == 1
    asked = np.empty(count, dtype=np.int64)
    n_asked = 0
    for i in range(count):
        row = rows[i]
        if row[8] < 0:
            continue
        g = games_of[i]
        key = cache.keys[g]
        same = key[0] == row[0] and key[1] == row[1] and key[2] == row[2] and key[3] == row[3]
        if keeping and row[8] == 0 and same:
            keeps[i, :] = cache.keeps[g, :]
            continue
        asked[n_asked] = i
        n_asked += 1
    # the positions asked, their throws alike, in bundles of lanes that share a sweep
    for throws in range(t.rolls - 1, -1, -1):
        lanes = np.empty(n_asked, dtype=np.int64)
        width = 0
        for j in range(n_asked):
            if rows[asked[j], 8] == throws:
                lanes[width] = asked[j]
                width += 1
        for start in range(0, width, BUNDLE):
            bundle = lanes[start : min(width, start + BUNDLE)]
            row0 = rows[bundle[0]]
            positions = row0[7] + throws + 1
            table = np.empty((positions, t.first_roll, bundle.shape[0]))
            points_keeps(values, t, rows, bundle, table)
            for lane in range(bundle.shape[0]):
                i = bundle[lane]
                for k in range(t.first_roll):
                    keeps[i, k] = table[positions - 1, k, lane]
                if keeping and positions == 2:
                    g = games_of[i]
                    for k in range(t.first_roll):
                        cache.keeps[g, k] = table[0, k, lane]
                    for f in range(4):
                        cache.keys[g, f] = rows[i, f]
    return boxes, keeps


@njit(cache=True, nogil=True)
def fill(
    values: Any,
    t: KernelTables,
    rows: Any,
    games_of: Any,
    masks: Any,
    layout: Layout,
    boxes: Any,
    keeps: Any,
    out: Any,
    best: Any,
) -> None:  # pragma: no cover
    """:func:`action_values` from the positions' box and keep values (:data:`~kniffel.core.kernels.
    points.points_options`'s ``boxes`` and ``keeps``)."""
    count = rows.shape[0]
    out[:, :] = np.nan
    best[:] = -1
    n_boxes = t.n_boxes
    n_keeps = layout.keep_of.shape[1]
    for i in range(count):
        g = games_of[i]
        allowed, o, row = masks[g], out[g], rows[i]
        top = -np.inf
        chosen = -1
        for b in range(n_boxes):
            a = n_keeps + b
            if allowed[a] == 0:
                a = n_keeps + n_boxes + b
                if allowed[a] == 0:
                    continue
            o[a] = boxes[i, b]
            if boxes[i, b] > top:
                top, chosen = boxes[i, b], a
        for b in range(n_boxes):
            a = n_keeps + n_boxes + b
            if allowed[n_keeps + b] == 0 or allowed[a] == 0:
                continue
            v = struck(values, t, row, b)
            o[a] = v
            if v > top:
                top, chosen = v, a
        roll = row[4]
        if allowed[0] == 1:
            for a in range(n_keeps):
                o[a] = keeps[i, layout.keep_of[roll, a]]
            for c in range(t.choices.shape[1]):
                k = t.choices[roll, c]
                if k < 0:
                    break
                if k < t.first_roll and keeps[i, k] > top:
                    top, chosen = keeps[i, k], layout.index_of[roll, k]
        best[g] = chosen


@njit(cache=True, nogil=True)
def env_action_values(
    games: EnvGames,
    rules: EnvRules,
    values: Any,
    masks: Any,
    layout: Layout,
    cache: TurnCache,
    out: Any,
    best: Any,
) -> None:  # pragma: no cover
    """:func:`action_values` of every game of ``games`` (:func:`env_rows`), as the masks of its last
    observation allow its actions; the keep values of a turn's later regular throw come from ``cache``
    (kept at the turn's first decision, which the environment values at every step)."""
    n_games = games.dice.shape[0]
    rows = np.empty((n_games, 9), dtype=np.int64)
    games_of = np.empty(n_games, dtype=np.int64)
    count = env_rows(games, rules, rows, games_of)
    rows, games_of = rows[:count], games_of[:count]
    t = rules.tables
    boxes, keeps = cached_values(values, t, rows, games_of, masks, layout, cache)
    fill(values, t, rows, games_of, masks, layout, boxes, keeps, out, best)
