"""The two loops written once for every objective: a level of the dynamic programme over the sheet
(the turns of a level's states, a bundle of states at a time, their lanes swept side by side over the
keep lattice), and every option of N situations (each box a roll may go in, each keep it may be
thrown from).

A level's objective is a record of one level's work (a ``NamedTuple`` of arrays and numbers) and two
compiled functions of its own module, marked ``inline="always"``:

* ``score(level, b, t) -> (bundle, sv)``: bundle ``b``'s states, their lanes side by side, and the
  value of every roll's best entry in those lanes, ``sv[free, at_once, roll, lane]`` with ``free``
  free throws left after the turn, in the objective's precision (what entering points means is the
  objective's: a sum of points for points, a shifted row of probabilities for a target);
* ``store(level, bundle, free, solved, t)``: where the values of the turns, ``solved[lane]``, go.

:func:`level_loop` makes the loop of an objective from them: :data:`solve_points` for expected points
(:class:`kniffel.core.kernels.points.PointsLevel`) and :data:`solve_target` for the chance of a target
(:class:`kniffel.core.kernels.target.TargetLevel`). The rest is written once, in :func:`_solve_level`:
the keep lattice (:func:`~kniffel.core.kernels.common.sweep_from`) and the order of the free-throw levels.

An option kernel's objective is what values an entry (the DP's table of values for points; a
:class:`kniffel.core.kernels.target.TargetOptions` for targets and the chance of winning) and two
functions: ``enter_box`` (one box of one situation: :func:`kniffel.core.kernels.common.enter`,
:func:`kniffel.core.kernels.target.target_box`) and ``turn_keeps`` (the keeps of a bundle of situations
whose throws are alike: :func:`kniffel.core.kernels.points.points_keeps`,
:func:`kniffel.core.kernels.target.target_keeps`). :func:`option_kernel` makes :data:`points_options`
and :data:`target_options` from :func:`_situation_values`, which decides what a roll may be entered as
(:func:`~kniffel.core.kernels.common.roll_entries`) and bundles the situations.

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

from typing import Any

import numpy as np
from numba import njit

from kniffel.core.kernels.common import BUNDLE, NEG, roll_entries, scoring, sweep_from, with_globals
from kniffel.core.kernels.records import EntryState, KernelTables, Lanes


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
    so ``partial(loop, level, t)`` is what :func:`kniffel.core.runtime.work.run_between` runs. It lets go of
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
    made = with_globals(_solve_level, f"solve_{name}", score.py_func.__module__, score=score, store=store)
    return njit(cache=True, nogil=True)(made)


# --- every option of N situations ---------------------------------------------------------------------


def enter_box(
    objective: Any, n: Any, state: Any, box: int, points: int, extra: int, lanes: Any, boxes: Any, i: int
) -> None:
    """An option kernel's first function (see :func:`_situation_values`), replaced as :func:`score` is."""
    raise NotImplementedError("an option kernel is made by option_kernel, with its objective's functions")


def turn_keeps(objective: Any, t: KernelTables, situations: Any, lanes: Any, table: Any) -> None:
    """An option kernel's second function (see :func:`_situation_values`), replaced as :func:`score` is."""
    raise NotImplementedError("an option kernel is made by option_kernel, with its objective's functions")


def _situation_values(
    objective: Any, t: KernelTables, situations: Any, boxes: Any, keeps: Any
) -> None:  # pragma: no cover
    """Every option of each situation ``situations[i] = (mask, armed, up, free, roll, at_once,
    sweep_free, usable, throws)`` (:meth:`kniffel.core.position.ColumnPosition.encode`), valued by
    ``objective``: ``boxes[i, box]`` for entering roll ``roll`` (thrown at once: ``at_once``) in each
    box with ``free`` free throws left after the turn (NEG where it may not go; the objective's
    ``enter_box``), and ``keeps[i, keep]`` for holding each keep and throwing the rest, where that throw
    leaves ``throws`` regular throws and ``usable`` of ``sweep_free`` free throws (not computed when
    ``throws`` < 0: no throw is left). The situations whose throws are alike are swept together, a lane
    each, in bundles of up to :data:`~kniffel.core.kernels.common.BUNDLE` (the objective's ``turn_keeps``):
    a lane's values do not depend on the lanes beside it, and a sweep costs per keep about as much for
    a few lanes as for many."""
    n = scoring(t)
    count = situations.shape[0]
    points = np.empty(n.n_boxes, dtype=np.int64)
    extras = np.empty(n.n_boxes, dtype=np.int64)
    for i in range(count):
        state = EntryState(situations[i, 0], situations[i, 1], situations[i, 3])
        up, roll, s = situations[i, 2], situations[i, 4], situations[i, 5]
        roll_entries(t, n, state, s, roll, points, extras)
        for b in range(n.n_boxes):
            if points[b] < 0:
                boxes[i, b] = NEG
            else:
                enter_box(objective, n, state, b, points[b], extras[b], Lanes(up, 1, b), boxes, i)
    # the situations in the order of their kind of throw (a counting sort: few kinds, compiled at once)
    kinds = n.n_free * (t.per_turn + 1) * t.rolls + 1
    key = np.empty(count, dtype=np.int64)
    starts = np.zeros(kinds + 1, dtype=np.int64)
    for i in range(count):
        sweep_free, usable, throws = situations[i, 6], situations[i, 7], situations[i, 8]
        key[i] = 0 if throws < 0 else 1 + (sweep_free * (t.per_turn + 1) + usable) * t.rolls + throws
        starts[key[i] + 1] += 1
    for k in range(kinds):
        starts[k + 1] += starts[k]
    order = np.empty(count, dtype=np.int64)
    for i in range(count):
        order[starts[key[i]]] = i
        starts[key[i]] += 1
    start = 0
    while start < count:
        first = order[start]
        end = start + 1
        while end < count and end - start < BUNDLE and key[order[end]] == key[first]:
            end += 1
        if key[first] > 0:
            table = np.empty((1, keeps.shape[1], end - start))
            turn_keeps(objective, t, situations, order[start:end], table)
            for lane in range(end - start):
                i = order[start + lane]
                for k in range(keeps.shape[1]):
                    keeps[i, k] = table[0, k, lane]
        start = end


def option_kernel(name: str, enter_box: Any, turn_keeps: Any) -> Any:
    """The compiled option kernel of an objective: :func:`_situation_values` with the objective's
    ``enter_box`` and ``turn_keeps`` as its globals, cached as ``<name>_options``."""
    kernel = with_globals(
        _situation_values,
        f"{name}_options",
        turn_keeps.py_func.__module__,
        enter_box=enter_box,
        turn_keeps=turn_keeps,
    )
    return njit(cache=True, nogil=True)(kernel)
