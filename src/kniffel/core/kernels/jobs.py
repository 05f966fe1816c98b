"""What a first run compiles ahead on a second processor (:mod:`kniffel.core.runtime.precompile` runs
the helper): the kernels the DP's level loop calls and a target question's option kernels, each with the
argument types the work will call it with."""

from __future__ import annotations

from typing import Any

from kniffel.core.kernels.records import KernelTables
from kniffel.core.runtime.precompile import Job


def dp_callees(tables_type: Any) -> list[tuple[Any, tuple[Any, ...]]]:
    """The kernels ``solve_points`` calls (not inlined) with the signatures its typing asks for, in the
    order it reaches them, given ``numba.typeof`` of the :class:`KernelTables`. A test holds this list
    to the signatures a first run compiles."""
    import numba

    from kniffel.core.kernels.common import (
        best_entries,
        entry_values,
        joker_entry,
        keep_expect,
        keep_max,
        mask_lanes,
        scoring,
    )
    from kniffel.core.kernels.records import EntryState, FiveAlike, Lanes, Scoring

    types: Any = numba.types  # numba's stubs do not type its type constructors
    field = dict(zip(tables_type.fields, tables_type.types, strict=True))
    n = types.NamedTuple([field[name] for name in Scoring._fields], Scoring)
    i64, f64, none, boolean = types.int64, types.float64, types.none, types.boolean
    values, rows, segments = types.Array(f64, 3, "C"), types.Array(f64, 2, "C"), types.Array(i64, 2, "C")
    pairs = field["allowed"], field["pair_box"], field["pair_pts"]
    state = types.NamedUniTuple(i64, 3, EntryState)
    joker = (
        field["jpts"],
        field["jbonus"],
        state,
        types.NamedTuple([i64, i64, field["alike"].dtype], FiveAlike),
    )
    return [
        (scoring, (tables_type,)),
        (mask_lanes, (i64, n, field["lanes"])),
        (entry_values, (segments, i64, values, n, *pairs, rows, none)),
        (best_entries, (rows, field["nonzero"], values, none)),
        (joker_entry, (values, n, *joker, types.NamedUniTuple(i64, 3, Lanes), rows, values, none)),
        (keep_expect, (rows, i64, field["child"], i64, field["roll_probs"], boolean, rows, boolean, rows)),
        # a roll's keeps seeded with its own value (the sweep's one pass), or not (an empty seed)
        (keep_max, (rows, i64, field["parent"], i64, rows, field["roll_probs"], types.Array(f64, 1, "C"))),
    ]


def dp_jobs(tables: KernelTables) -> list[Job]:
    """The helper's work for the DP: :func:`dp_callees`, the last one the DP reaches first."""
    import numba

    typeof: Any = numba.typeof
    return list(reversed(dp_callees(typeof(tables))))


def option_jobs(tables: KernelTables) -> list[Job]:
    """The helper's work for a target question, in the order the question reaches them: the windows' cut
    (:func:`kniffel.core.kernels.spans.cut_windows`, right after the rows' kernel, which the question
    compiles itself), the option kernel (:data:`kniffel.core.kernels.target.target_options`) and what
    ranks its options (:func:`kniffel.core.kernels.win.fold`,
    :func:`kniffel.core.kernels.batch.ranked_options`), with the argument types
    :func:`kniffel.core.targetrows.solve_rows` and :meth:`kniffel.core.target.TargetAdvisor.option_values`
    pass. A test holds them together. Compiled one after the other, on a fresh install, by the helper
    while the question compiles its rows' kernel and solves the rows; the question waits for the one the
    helper is compiling when it reaches it (:class:`_Progress`)."""
    import numba

    from kniffel.core.kernels.batch import ranked_options
    from kniffel.core.kernels.spans import cut_windows
    from kniffel.core.kernels.target import Reading, TargetOptions, target_options
    from kniffel.core.kernels.win import fold

    typeof: Any = numba.typeof
    types: Any = numba.types
    rows = types.Array(types.float32, 1, "C", readonly=True)
    table = types.Array(types.int64, 2, "C")
    values = types.Array(types.float64, 2, "C")
    vector, i64 = types.Array(types.float64, 1, "C"), types.int64
    integers = types.Array(i64, 1, "C")
    weights = types.Array(types.float32, 2, "C")
    read = types.NamedTuple((rows, table, table), Reading)
    weighed = types.NamedTuple((read, typeof(tables.lanes), integers, integers, weights), TargetOptions)
    choices = types.Array(types.int32, 2, "C", readonly=True)
    ranking = (table, values, values, choices, table, values, integers)
    return [
        (cut_windows, (table, i64, table, table, typeof(tables))),
        (target_options, (weighed, typeof(tables), table, values, values)),
        (fold, (i64, vector, i64, i64, types.boolean)),
        (ranked_options, ranking),
    ]
