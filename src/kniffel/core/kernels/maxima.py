"""The larger of two floats, and of rows of them, as one instruction on every build.

The keep lattice's best sub-keeps and every roll's best entry are maxima over rows of lanes. How a row's
best is kept decides their speed (``docs/explanation/kernels.md``, "The maxima"): :func:`larger` is one
``vmaxps``, and :func:`most_into` / :func:`most_of_own` fold up to four rows into one in a single pass,
so that a row is stored once for every four it takes in instead of once for each (a load and a store
fewer per row; the values are the same, a maximum being exact). Rows are indexed in the one array, not
taken as views: a compiled loop over views of one array could not tell them apart either.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

FOLD = 4
"""Rows a pass of :func:`most_into` / :func:`most_of_own` takes in at most."""


def _maxnum(typingctx: Any, x: Any, y: Any) -> Any:  # pragma: no cover
    """The larger of two floats of one type, neither NaN, as one ``vmaxps``: LLVM's ``maxnum`` told no NaN
    comes. ``np.maximum`` returns a NaN it is given (a compare and two blends a vector); a choice (``x if
    x > y else y``, the builtin ``max``) became a masked store, microcoded without AVX-512 and, with it, a
    store for every row folded in. A Zen 1's best sub-keeps: 430 ns a lane as ``np.maximum``, 1,000 ns as a
    masked store, 260-330 ns as this; a Zen 5's (AVX-512): 75-87 ns a lane as masked stores, 40-44 as this,
    four rows a pass."""
    if not isinstance(x, types.Float) or x != y:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        kind = context.get_value_type(signature.args[0])
        name = f"llvm.maxnum.f{signature.args[0].bitwidth}"
        maxnum = builder.module.globals.get(name) or ir.Function(
            builder.module, ir.FunctionType(kind, [kind, kind]), name
        )
        return builder.call(maxnum, list(args), fastmath=("nnan",))

    return x(x, y), codegen


larger: Any = intrinsic(_maxnum)
"""The larger of ``x`` and ``y``, neither of them NaN: one ``vmaxps`` (:func:`_maxnum`), called from
compiled code."""


@njit(cache=True, nogil=True, inline="always")
def most_into(into: Any, i: int, rows: Any, ids: Any, seed: int) -> None:  # pragma: no cover
    """``into[i]`` becomes the largest of the row ``rows[seed]`` and the rows ``rows[ids[0]]``,
    ``rows[ids[1]]``, ... up to the first negative index, lane by lane, :data:`FOLD` a pass (every roll's
    best entry: its best strike and the pairs it scores). The first pass reads the seed where the others
    read ``into[i]``: a roll's row was a copy of the seed first, a row written and read again for each
    of the 252 rolls (the same maxima of the same rows in the same order: every value the same to the
    last bit). Two loops serve the counts of a pass, the last row repeated where fewer come (a row taken
    twice changes no maximum): a roll's best entries with a loop for each count compiled 1.5 s longer
    for 30 ns a lane less. ``into`` and ``rows`` must be different arrays: one array read and written
    under two names, the compiler cannot tell the rows apart and gives up its vectors (the keep lattice,
    one array, has :func:`most_of_own`)."""
    start, end = 0, 0
    while end < ids.shape[0] and ids[end] >= 0:
        end += 1
    if end == 0:
        for lane in range(into.shape[1]):
            into[i, lane] = rows[seed, lane]
        return
    count = min(FOLD, end)
    a = ids[0]
    b = ids[1] if count > 1 else a
    if count <= 2:
        for lane in range(into.shape[1]):
            into[i, lane] = larger(larger(rows[seed, lane], rows[a, lane]), rows[b, lane])
    else:
        c = ids[2]
        d = ids[3] if count > 3 else c
        for lane in range(into.shape[1]):
            most = larger(larger(rows[b, lane], rows[c, lane]), rows[d, lane])
            into[i, lane] = larger(larger(rows[seed, lane], rows[a, lane]), most)
    start = count
    while start < end:
        count = min(FOLD, end - start)
        a = ids[start]
        b = ids[start + 1] if count > 1 else a
        if count <= 2:
            for lane in range(into.shape[1]):
                into[i, lane] = larger(larger(into[i, lane], rows[a, lane]), rows[b, lane])
        else:
            c = ids[start + 2]
            d = ids[start + 3] if count > 3 else c
            for lane in range(into.shape[1]):
                most = larger(larger(rows[b, lane], rows[c, lane]), rows[d, lane])
                into[i, lane] = larger(larger(into[i, lane], rows[a, lane]), most)
        start += count


@njit(cache=True, nogil=True, inline="always")
def most_of_own(rows: Any, i: int, width: int, ids: Any, start: int) -> None:  # pragma: no cover
    """``rows[i]`` becomes the largest of itself and the rows ``rows[ids[start]]``, ... of the same array
    up to the first negative index, in the first ``width`` lanes, :data:`FOLD` a pass (the keep lattice's
    best sub-keeps, which are rows of the lattice itself). A loop for each count of a pass: with the last
    row repeated instead, the keeps of one or two parents read two rows more, and the best sub-keeps took
    235-340 ns a lane against 176-200."""
    # counted here as in most_into, not by a shared inlined helper: one cost 0.1-0.25 s of compile a kernel
    end = start
    while end < ids.shape[0] and ids[end] >= 0:
        end += 1
    while start < end:
        count = min(FOLD, end - start)
        a = ids[start]
        if count == 1:
            for lane in range(width):
                rows[i, lane] = larger(rows[i, lane], rows[a, lane])
        elif count == 2:
            b = ids[start + 1]
            for lane in range(width):
                rows[i, lane] = larger(larger(rows[i, lane], rows[a, lane]), rows[b, lane])
        elif count == 3:
            b, c = ids[start + 1], ids[start + 2]
            for lane in range(width):
                most = larger(rows[b, lane], rows[c, lane])
                rows[i, lane] = larger(larger(rows[i, lane], rows[a, lane]), most)
        else:
            b, c, d = ids[start + 1], ids[start + 2], ids[start + 3]
            for lane in range(width):
                most = larger(larger(rows[b, lane], rows[c, lane]), rows[d, lane])
                rows[i, lane] = larger(larger(rows[i, lane], rows[a, lane]), most)
        start += count


@njit(cache=True, nogil=True, inline="always")
def most_of_seed(rows: Any, i: int, width: int, ids: Any, seed: Any, s: int) -> int:  # pragma: no cover
    """``rows[i]`` becomes the largest of ``seed[s]`` and the first rows ``rows[ids[0]]``, ... of the same
    array, at least one and at most :data:`FOLD` of them, in the first ``width`` lanes; returns how many it
    took (:func:`most_of_own` folds in the rest). A roll's row starts from its own value this way in the
    pass that takes its sub-keeps, instead of a copy of the value and a pass after it: a load and a store
    fewer per roll and throw."""
    end = 0
    while end < FOLD and end < ids.shape[0] and ids[end] >= 0:
        end += 1
    a = ids[0]
    if end == 1:
        for lane in range(width):
            rows[i, lane] = larger(seed[s, lane], rows[a, lane])
    elif end == 2:
        b = ids[1]
        for lane in range(width):
            rows[i, lane] = larger(larger(seed[s, lane], rows[a, lane]), rows[b, lane])
    elif end == 3:
        b, c = ids[1], ids[2]
        for lane in range(width):
            most = larger(rows[b, lane], rows[c, lane])
            rows[i, lane] = larger(larger(seed[s, lane], rows[a, lane]), most)
    else:
        b, c, d = ids[1], ids[2], ids[3]
        for lane in range(width):
            most = larger(larger(rows[b, lane], rows[c, lane]), rows[d, lane])
            rows[i, lane] = larger(larger(seed[s, lane], rows[a, lane]), most)
    return end


@njit(cache=True, nogil=True, inline="always")
def add_most_of_seed(
    total: Any, p: float, rows: Any, width: int, ids: Any, seed: Any, s: int
) -> bool:  # pragma: no cover
    """``total[lane] += p * m`` with ``m`` the largest of ``seed[s]`` and the rows ``rows[ids[0]]``, ...,
    where those are at most :data:`FOLD`: one pass, and ``m`` stored nowhere; False, with nothing done,
    where there are more. A turn's first throw reads each roll's best only for the turn's mean, so a
    roll's row written there was a store (and a line fetched for it) no pass read again. The sum is
    :func:`kniffel.core.kernels.common.keep_max`'s, to the last bit. With fewer rows the last is taken again
    (a row taken twice changes no maximum)."""
    end = 0
    while end < ids.shape[0] and ids[end] >= 0:
        end += 1
    if end > FOLD:
        return False
    a = ids[0]
    b = ids[1] if end > 1 else a
    c = ids[2] if end > 2 else b
    d = ids[3] if end > 3 else c
    for lane in range(width):
        most = larger(larger(rows[b, lane], rows[c, lane]), rows[d, lane])
        total[lane] += p * larger(larger(seed[s, lane], rows[a, lane]), most)
    return True
