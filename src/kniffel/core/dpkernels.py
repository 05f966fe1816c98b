"""The one loop of every dynamic programme over the sheet: the turns of a level's states, a bundle of
states at a time, their lanes swept side by side over the keep lattice.

An objective is a record of one level's work (a ``NamedTuple`` of arrays and numbers) and two compiled
functions of its own module, marked ``inline="always"``:

* ``score(level, b, t) -> (bundle, sv)``: bundle ``b``'s states, their lanes side by side, and the
  value of every roll's best entry in those lanes, ``sv[free, at_once, roll, lane]`` with ``free``
  free throws left after the turn, in the objective's precision (what entering points means is the
  objective's: a sum of points for points, a shifted row of probabilities for a target);
* ``store(level, bundle, free, solved, t)``: where the values of the turns, ``solved[lane]``, go.

:func:`level_loop` makes the loop of an objective from them: :data:`solve_points` for expected points
(:class:`kniffel.core.kernels.PointsLevel`) and :data:`solve_target` for the chance of a target
(:class:`kniffel.core.targetkernels.TargetLevel`). The rest is written once, in :func:`_solve_level`:
the keep lattice (:func:`~kniffel.core.kernels.sweep_from`) and the order of the free-throw levels.

Why a loop per objective made from one function, and not one kernel that is told its objective:
numba compiles a function with the globals it finds, inlining the functions marked ``inline="always"``
into it, so each objective's loop is compiled exactly as if written out by hand, and cached like any
kernel under a name of its own. Three other ways were measured (numba 0.68) and not kept: a kernel
that takes the objective's functions as arguments is never cached (every process would compile it
again); functions chosen by the record's type (``numba.extending.overload``) are compiled on their own
and optimised again where they are linked in, which made the DP's first compile 1.0-2.0 s (a fifth)
longer; and an objective passed as a literal number is no use here, because numba prunes the branches
of a literal only where it is compared with None, so every objective's branch was typed with every
record.
"""

from __future__ import annotations

import types as pytypes
from typing import Any

import numpy as np
from numba import njit

from kniffel.core.compile import KernelTables
from kniffel.core.kernels import score_points, store_points, sweep_from
from kniffel.core.targetkernels import score_target, store_target


@njit(cache=True, nogil=True)
def bundle_starts(widths: Any, least: int) -> Any:  # pragma: no cover
    """Where the bundles of states whose lanes are ``widths`` start, and last where they end: each
    bundle takes the states in order until it holds at least ``least`` lanes (the last may hold fewer).
    The keep lattice does not care which state a lane is, and its loops cost per keep about as much for
    a few lanes as for many, so a level's states are swept in bundles."""
    starts = np.empty(widths.shape[0] + 1, dtype=np.int64)
    starts[0] = 0
    count = 1
    lanes = 0
    for i in range(widths.shape[0]):
        lanes += widths[i]
        if lanes >= least:
            starts[count] = i + 1
            count += 1
            lanes = 0
    if starts[count - 1] != widths.shape[0]:
        starts[count] = widths.shape[0]
        count += 1
    return starts[:count]


def score(level: Any, b: int, t: KernelTables) -> tuple[Any, Any]:
    """An objective's first function (see the module docstring); :func:`level_loop` puts the objective's
    own in its loop's globals in place of this one."""
    raise NotImplementedError("a level loop is made by level_loop, with its objective's functions")


def store(level: Any, bundle: Any, free: int, solved: Any, t: KernelTables) -> None:
    """An objective's second function (see the module docstring), replaced as :func:`score` is."""
    raise NotImplementedError("a level loop is made by level_loop, with its objective's functions")


def _solve_level(level: Any, t: KernelTables, first: int, last: int) -> None:  # pragma: no cover
    """The turns of the bundles ``first .. last - 1`` of ``level`` at every free-throw level: the best
    entry of every roll (the objective's ``score``), then, free-throw level by level, the keep lattice
    swept from them to the value of the turn (the empty keep before the first throw), kept where the
    objective's ``store`` puts it. Threads call it for different bundles at once: the bounds come last,
    so ``partial(loop, level, t)`` is what :func:`kniffel.core.work.run_between` runs. It lets go of
    the GIL, and each bundle writes its own values."""
    for b in range(first, last):
        bundle, sv = score(level, b, t)
        solved = np.empty((1, 1, sv.shape[3]), dtype=sv.dtype)
        for free in range(sv.shape[0]):
            usable = min(t.per_turn, free)
            sweep_from(sv, free, usable, usable + t.rolls, t, solved)
            store(level, bundle, free, solved[0, 0], t)


def level_loop(name: str, score: Any, store: Any) -> Any:
    """The compiled loop of an objective: :func:`_solve_level` with the objective's ``score`` and
    ``store`` (its compiled functions) as its globals, cached as ``solve_<name>``."""
    loop = pytypes.FunctionType(
        _solve_level.__code__, {**_solve_level.__globals__, "score": score, "store": store}, f"solve_{name}"
    )
    loop.__qualname__ = loop.__name__
    loop.__doc__ = _solve_level.__doc__
    return njit(cache=True, nogil=True)(loop)


solve_points = level_loop("points", score_points, store_points)
"""The level loop of expected points (:class:`kniffel.core.kernels.PointsLevel`)."""
solve_target = level_loop("target", score_target, store_target)
"""The level loop of the chance of a target (:class:`kniffel.core.targetkernels.TargetLevel`)."""
