"""The expected-points objective of the compiled loops: a level of the DP (:class:`PointsLevel`, its
``score`` and ``store``) and the keeps of a bundle of situations (:func:`points_keeps`), made into the
level loop :data:`solve_points` and the option kernel :data:`points_options` by
:mod:`kniffel.core.kernels.loop`."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.common import (
    enter,
    entry_rows,
    mask_lanes,
    mask_segments,
    score_values,
    scoring,
    sweep_from,
)
from kniffel.core.kernels.loop import level_loop, option_kernel
from kniffel.core.kernels.records import KernelTables


class PointsLevel(NamedTuple):
    """A level of the expected-points DP (:data:`kniffel.core.kernels.points.solve_points`): its masks in
    bundles of at least :data:`BUNDLE` lanes (bundle ``b`` is ``masks[starts[b] : starts[b + 1]]``) and
    ``values[aux, mask, up]``, read for the next level's states and written for these. Every armed and
    free-throw variant is solved at the upper scores ``lanes[mask, 0] .. lanes[mask, 1] - 1``; the lower
    ones, which cannot reach the bonus any more, get the lowest's value (every one does with the upper
    section full)."""

    masks: Any
    starts: Any
    values: Any


@njit(cache=True, nogil=True, inline="always")
def score_points(level: Any, b: Any, t: Any) -> Any:  # pragma: no cover
    """The points objective's ``score`` (:mod:`kniffel.core.kernels.loop`): bundle ``b``'s masks and the
    best points-now-plus-future of every roll in their lanes (:func:`score_values`)."""
    n = scoring(t)
    n_s, n_rolls, _ = t.nonzero.shape
    masks = level.masks[level.starts[b] : level.starts[b + 1]]
    segments, width = mask_segments(masks, n, t.lanes)
    rows, _ = entry_rows(t, 1, width)
    sv = np.empty((n.n_free, n_s, n_rolls, width))
    for free in range(n.n_free):
        score_values(segments, free, level.values, t, rows[0], None, sv[free], None)
    return masks, sv


@njit(cache=True, nogil=True, inline="always")
def store_points(level: Any, masks: Any, free: Any, solved: Any, t: Any) -> Any:  # pragma: no cover
    """The points objective's ``store``: the turns' values into ``level.values`` (:class:`PointsLevel`)."""
    n, values, off = scoring(t), level.values, 0
    for mask in masks:
        lo, nl, na = mask_lanes(mask, n, t.lanes)
        full = (mask & n.upper_mask) == n.upper_mask
        for a in range(na):
            aux, first = a * n.n_free + free, off + a * nl
            for lane in range(nl):
                values[aux, mask, lo + lane] = solved[first + lane]
            for lane in range(values.shape[2] if full else lo):  # the lanes that behave like the first
                values[aux, mask, lane] = solved[first]
        off += na * nl


@njit(cache=True, nogil=True, inline="always")
def points_keeps(
    values: Any, t: KernelTables, situations: Any, lanes: Any, table: Any
) -> None:  # pragma: no cover
    """The expected-points ``turn_keeps`` of :data:`kniffel.core.kernels.points.points_options`: the keep
    values of the situations ``situations[lanes]`` (a lane each, their throws alike: the same
    ``sweep_free``, ``usable`` and ``throws``), from the best
    entry of every roll at each free-throw level the throw may leave (:func:`score_values`) swept over
    the keep lattice (:func:`sweep_from`) into ``table[0, keep, lane]``."""
    width = lanes.shape[0]
    sweep_free, usable, throws = situations[lanes[0], 6], situations[lanes[0], 7], situations[lanes[0], 8]
    segments = np.empty((width, 4), dtype=np.int64)
    for lane in range(width):
        i = lanes[lane]
        segments[lane, 0], segments[lane, 1] = situations[i, 0], situations[i, 1]
        segments[lane, 2], segments[lane, 3] = situations[i, 2], 1
    n_s, n_rolls, _ = t.nonzero.shape
    sv = np.empty((t.n_free, n_s, n_rolls, width))
    rows, _ = entry_rows(t, 1, width)
    for f in range(sweep_free - usable, sweep_free + 1):
        score_values(segments, f, values, t, rows[0], None, sv[f], None)
    sweep_from(sv, sweep_free, usable, usable + throws + 1, t, table)


solve_points = level_loop("points", score_points, store_points)
"""The level loop of expected points (:class:`PointsLevel`)."""
points_options = option_kernel("points", enter, points_keeps)
"""Every option of N situations in expected points; its objective is the DP's table of values
(``enter`` takes it as its ``values``)."""
