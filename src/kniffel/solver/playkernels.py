"""numba kernels of :mod:`kniffel.solver.play`: dice streams, one turn of many games, the best box.

The turn's tables come from the DP's own kernels (:func:`~kniffel.solver.kernels.score_segments`,
:func:`~kniffel.solver.kernels.keep_expect`, :func:`~kniffel.solver.kernels.keep_max`) over the same
compiled rule tables, so the games follow exactly the rules the values were solved for.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from kniffel.solver.kernels import NEG, keep_expect, keep_max, score_segments

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_SIX = np.uint64(6)
_ONE = np.uint64(1)


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


@njit(cache=True, nogil=True)
def best_box(
    mask: int,
    armed: int,
    free: int,
    up: int,
    s: int,
    r: int,
    values: Any,
    base: Any,
    upper: Any,
    allowed: Any,
    alike: Any,
    five: int,
    track: bool,
    n_free: int,
    joker: bool,
    jpts: Any,
    jbonus: Any,
    threshold: int,
    upper_bonus: int,
) -> tuple[int, int, int]:  # pragma: no cover
    """The box roll ``r`` is best entered in, its points and the extra bonus, for the same choices
    :func:`~kniffel.solver.kernels.score_segments` maximises over (a score, or a strike for 0)."""
    n_boxes = base.shape[2]
    face = alike[r]
    special = joker and five >= 0 and (mask >> five) & 1 == 1 and face >= 0
    extra = int(jbonus[mask, armed, face]) if special else 0
    allow = allowed[mask]
    best = NEG
    best_b = -1
    best_p = 0
    for b in range(n_boxes):
        if special:
            p = int(jpts[mask, armed, s, face, b])
            if p < 0:
                continue
        else:
            if (allow >> b) & 1 == 0:
                continue
            p = int(base[s, r, b])
        child = mask | (1 << b)
        # the points, then (outside the joker case) striking the box for 0 instead
        for attempt in range(2):
            if attempt == 1:
                if special or p == 0:
                    break
                p = 0
            a2 = (1 if p > 0 else 0) if track and b == five else armed
            v = float(p + extra)
            nu = up
            if upper[b] == 1:
                nu = min(up + p, threshold)
                if up < threshold <= up + p:
                    v += upper_bonus
            v += values[a2 * n_free + free, child, nu]
            if v > best:
                best = v
                best_b = b
                best_p = p
    return best_b, best_p, extra


@njit(cache=True, nogil=True)
def turn_tables(
    sv: Any,
    table: Any,
    fr: int,
    per_turn: int,
    child: Any,
    parent: Any,
    padded: Any,
    first_roll: int,
    probs: Any,
) -> None:  # pragma: no cover
    """The keep values of a turn with ``fr`` free throws left, from ``sv[f, at_once, roll, lane]``, the
    best entry of each roll with ``f`` free throws left after the turn: ``table[q, keep, lane]`` is the
    value of holding ``keep`` and throwing the rest when the throw leads to position ``q`` (throws left
    after it, free ones included). Lanes are independent: they may belong to different states."""
    n_s, n_rolls, width = sv.shape[1], sv.shape[2], sv.shape[3]
    sharp = n_s == 2
    usable = min(per_turn, fr)
    start = fr - usable
    positions = table.shape[0]
    ev = np.empty((child.shape[0], width))
    at_once = np.empty((n_rolls if sharp else 1, width))
    for r in range(n_rolls):
        for lane in range(width):
            ev[first_roll + r, lane] = sv[start, 0, r, lane]
        if sharp:
            for lane in range(width):
                at_once[r, lane] = sv[start, 1, r, lane]
    for q in range(positions):
        keep_expect(ev, width, child, first_roll, probs, sharp, at_once)
        for k in range(first_roll):
            for lane in range(width):
                table[q, k, lane] = ev[k, lane]
        if q + 1 == positions:
            break
        keep_max(ev, width, parent, padded)
        level = start + q + 1 if q + 1 <= usable else fr
        for r in range(n_rolls):
            k = first_roll + r
            if sharp:
                for lane in range(width):
                    x = sv[level, 1, r, lane]
                    at_once[r, lane] = x if x > ev[k, lane] else ev[k, lane]
            for lane in range(width):
                x = sv[level, 0, r, lane]
                ev[k, lane] = x if x > ev[k, lane] else ev[k, lane]


@njit(cache=True, parallel=True)
def play_turn(
    mask: Any,
    up: Any,
    armed: Any,
    free: Any,
    score: Any,
    rng: Any,
    flags: Any,
    extras: Any,
    log: Any,
    turn: int,
    values: Any,
    subs: Any,
    size: Any,
    n_aux: int,
    free_points: int,
    gap: int,
    chunk: int,
    bundle: int,
    base: Any,
    upper: Any,
    allowed: Any,
    alike: Any,
    five: int,
    n_armed: int,
    n_free: int,
    joker: bool,
    jpts: Any,
    jbonus: Any,
    threshold: int,
    upper_bonus: int,
    lanes_of: Any,
    upper_mask: int,
    rolls: int,
    per_turn: int,
    child: Any,
    parent: Any,
    padded: Any,
    first_roll: int,
    probs: Any,
    pair_box: Any,
    pair_pts: Any,
    nonzero: Any,
) -> None:  # pragma: no cover
    """Play one turn of every game: group the games by state, compute each group's turn tables once,
    then throw, keep and score for each of its games. With ``log`` (``[game, turn, step, 3]``) the first
    games record every throw as ``(keep, roll, 0)`` and the entry as ``(-2, box, points << 16 | extra)``."""
    n = mask.shape[0]
    n_s, n_rolls, _ = base.shape
    sharp = n_s == 2
    track = n_armed == 2
    n_keeps = child.shape[0]
    n_dice = size[n_keeps - 1]
    lanes = threshold + 1

    # states as sortable keys; the upper score only matters while an upper box is open and the bonus
    # can still be reached (below ``lanes_of[mask, 0]`` every score is worth the same)
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        bits = mask[i]
        keys[i] = (bits * n_aux + armed[i] * n_free + free[i]) * lanes
        if (bits & upper_mask) != upper_mask:
            keys[i] += max(up[i], lanes_of[bits, 0])
    order = np.argsort(keys)

    # work items: runs of one state, upper scores without wide gaps, at most ``chunk`` games
    starts = np.empty(n + 1, dtype=np.int64)
    count = 0
    prev_group = -1
    prev_up = 0
    item_start = 0
    for i in range(n):
        key = keys[order[i]]
        group = key // lanes
        key_up = key - group * lanes
        if i == 0 or group != prev_group or key_up - prev_up > gap or i - item_start >= chunk:
            starts[count] = i
            count += 1
            item_start = i
        prev_group = group
        prev_up = key_up
    starts[count] = n

    # bundles: consecutive items with the same free throws and at least ``bundle`` lanes between them
    # share one pass over the keep lattice
    bundles = np.empty(count + 1, dtype=np.int64)
    n_bundles = 0
    width = bundle
    prev_free = -1
    for item in range(count):
        g0 = order[starts[item]]
        if width >= bundle or free[g0] != prev_free:
            bundles[n_bundles] = item
            n_bundles += 1
            width = 0
        prev_free = free[g0]
        width += keys[order[starts[item + 1] - 1]] % lanes - keys[g0] % lanes + 1
    bundles[n_bundles] = count

    for bi in prange(n_bundles):
        first_item = bundles[bi]
        last_item = bundles[bi + 1]
        fr = int(free[order[starts[first_item]]])
        usable = min(per_turn, fr)
        start = fr - usable
        positions = usable + rolls - 1
        width = 0
        for item in range(first_item, last_item):
            width += keys[order[starts[item + 1] - 1]] % lanes - keys[order[starts[item]]] % lanes + 1
        # the scoring values of every roll in each item's lanes, then the keep values of all lanes
        n_items = last_item - first_item
        seg_mask = np.empty(n_items, dtype=np.int64)
        seg_armed = np.empty(n_items, dtype=np.int64)
        seg_lo = np.empty(n_items, dtype=np.int64)
        seg_nl = np.empty(n_items, dtype=np.int64)
        for item in range(first_item, last_item):
            g0 = order[starts[item]]
            lo = keys[g0] % lanes
            seg_mask[item - first_item] = mask[g0]
            seg_armed[item - first_item] = armed[g0]
            seg_lo[item - first_item] = lo
            seg_nl[item - first_item] = keys[order[starts[item + 1] - 1]] % lanes - lo + 1
        sv = np.empty((n_free, n_s, n_rolls, width))
        for f in range(start, fr + 1):
            score_segments(
                seg_mask, seg_armed, seg_lo, seg_nl, f, sv[f], values, base, upper, allowed, alike, five,
                track, n_free, joker, jpts, jbonus, threshold, upper_bonus, pair_box, pair_pts, nonzero,
            )  # fmt: skip
        table = np.empty((positions, first_roll, width))
        turn_tables(sv, table, fr, per_turn, child, parent, padded, first_roll, probs)

        off = 0
        for item in range(first_item, last_item):
            a = starts[item]
            b = starts[item + 1]
            g0 = order[a]
            m = mask[g0]
            arm = int(armed[g0])
            lo = keys[g0] % lanes
            nl = keys[order[b - 1]] % lanes - lo + 1
            for i in range(a, b):
                g = order[i]
                lane = off + keys[g] % lanes - lo
                logged = g < log.shape[0]
                keep = 0
                pos = positions
                step = 0
                while True:
                    k = keep
                    while size[k] < n_dice:
                        k = child[k, die(rng, g)]
                    r = k - first_roll
                    s = 1 if sharp and keep == 0 else 0
                    if logged:
                        log[g, turn, step, 0] = keep
                        log[g, turn, step, 1] = r
                        log[g, turn, step, 2] = 0
                        step += 1
                    if pos == 0:
                        break
                    level = start + pos if pos <= usable else fr
                    best = sv[level, s, r, lane]
                    choice = -1
                    for j in range(subs.shape[1]):
                        q = subs[r, j]
                        if q < 0:
                            break
                        v = table[pos - 1, q, lane]
                        if v > best:
                            best = v
                            choice = q
                    if choice < 0:
                        break
                    keep = choice
                    pos -= 1
                level = start + pos if pos <= usable else fr
                u = int(up[g])
                box, p, extra = best_box(
                    m, arm, level, u, s, r, values, base, upper, allowed, alike, five, track, n_free, joker,
                    jpts, jbonus, threshold, upper_bonus,
                )  # fmt: skip
                gained = p + extra
                if upper[box] == 1:
                    if u < threshold <= u + p:
                        gained += upper_bonus
                        flags[g] |= 1
                    up[g] = min(u + p, threshold)
                if box == five and p > 0:
                    flags[g] |= 2
                if extra > 0:
                    extras[g] += 1
                if track and box == five:
                    armed[g] = 1 if p > 0 else 0
                mask[g] = m | (1 << box)
                free[g] = level
                score[g] += gained
                if logged:
                    log[g, turn, step, 0] = -2
                    log[g, turn, step, 1] = box
                    log[g, turn, step, 2] = (p << 16) | extra
            off += nl


@njit(cache=True, nogil=True)
def finish(score: Any, free: Any, free_points: int) -> None:  # pragma: no cover
    """Unused free throws count at the end."""
    for g in range(score.shape[0]):
        score[g] += free_points * free[g]
