"""The exact optimal strategy of single-column rule sets: dynamic programming, cached tables, advice.

This module is the core's one door: everything above it imports from ``kniffel.core`` and from none of its
modules. The core is built in three floors (``docs/explanation/architecture.md``): the compiled functions
and the records they pass (:mod:`kniffel.core.kernels`), the machine under the solver
(:mod:`kniffel.core.runtime`: threads, the tables on disk, the kernel cache, compiling ahead, pace) and the
solver's Python, named by what it solves: the compiled rule tables (``tables``), the table of expected
points (``points``), advice (``advisor``, ``position``), the chance of a target (``target``, ``targetrows``,
``spans``), final-score distributions (``distribution``, ``disttable``), compiled play (``play``,
``winplay``, ``sheet``, ``vector``), batch advice (``batch``) and the warm-up (``warm``). Its names are
imported on first use: importing the door alone loads neither numba nor a kernel.

>>> from kniffel import core, rules
>>> solved = core.table(rules.get("yahtzee", {"joker": "free"}))   # doctest: +SKIP
>>> round(solved.expected_score, 4)                                   # doctest: +SKIP
254.5896
>>> at = core.ColumnPosition({}, (1, 3, 3, 5, 6), rolls_left=2)      # doctest: +SKIP
>>> str(core.Advisor(solved).options(at)[0].action)                   # doctest: +SKIP
'roll keep 3 3'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kniffel.base.door import Door

if TYPE_CHECKING:
    from kniffel.core.advisor import Advisor, Option, OptionRanker
    from kniffel.core.batch import FIELDS, AnswerWriter, LineReader, LineStatus, ThrowProblem, throw_problem
    from kniffel.core.distribution import (
        banked_points,
        distribution_table,
        early_table_ready,
        held_table,
        option_distributions,
        situation_distribution,
        state_distribution,
        table_for,
        with_level,
    )
    from kniffel.core.disttable import (
        DistributionTable,
        ScoreDistribution,
        bar,
        best_of,
        build_table,
        chance_at_least,
    )
    from kniffel.core.early import (
        EarlyTables,
        LevelSizes,
        early_levels,
        early_rows_levels,
        early_tables,
        horizon_level,
        level_sizes,
    )
    from kniffel.core.kernels.win import POINTS as AIM_POINTS
    from kniffel.core.kernels.win import WIN as AIM_WIN
    from kniffel.core.lanes import lane_layout, level_of, widths_of
    from kniffel.core.levels import misjudged
    from kniffel.core.play import (
        MASK64,
        Played,
        StreamDice,
        add_counts,
        box_counts,
        deal_seed,
        dealt_faces,
        mix64,
        play_games,
        stream_base,
        trace,
    )
    from kniffel.core.points import Solution, Values, load_solution, solve, solve_compiled, table
    from kniffel.core.position import ColumnPosition, Positions, SheetState
    from kniffel.core.runtime.kernelcache import Compiling, compiled_seconds, compiling, kernels_cache_dir
    from kniffel.core.runtime.memo import Held, Memo
    from kniffel.core.runtime.pace import DISTRIBUTIONS, TARGET_ROWS, rate
    from kniffel.core.runtime.precompile import processors
    from kniffel.core.runtime.spill import allow_growth, allowed_growth, give_back
    from kniffel.core.runtime.store import (
        CACHE_BUDGET_ENV,
        CACHE_DIR_ENV,
        SOLVER_VERSION,
        CacheEntry,
        OverBudgetError,
        cache_budget,
        cache_dir,
        cache_entries,
        env_size,
        make_room,
        parse_size,
        remove_entries,
        table_key,
        table_path,
        tables_size,
        trim_cache,
    )
    from kniffel.core.runtime.work import (
        Cancel,
        Cancelled,
        Progress,
        compiled_threads,
        is_helper,
        use_threads,
    )
    from kniffel.core.sheet import SheetGames, SheetKernels
    from kniffel.core.tables import Compiled, UnsupportedRulesError, compile_rules
    from kniffel.core.target import (
        RowsQuestion,
        TargetAdvisor,
        answered,
        cone_size,
        early_horizon,
        early_rows,
        early_rows_ready,
        game_rows,
        is_early,
        read_at_limit,
        target_needs_compiling,
    )
    from kniffel.core.targetrows import (
        TargetRows,
        default_limit,
        empty_state,
        points_left,
        reached_lanes,
        solve_rows,
    )
    from kniffel.core.vector import OBSERVED, ActionValues, VectorGames
    from kniffel.core.warm import WARM_UP_ENV, start_warm_up, warm_up, warm_up_needed
    from kniffel.core.winplay import Matches, play_to_win

_DOOR = Door(__name__, globals())
_open = _DOOR.open

_open("advisor", "Advisor", "Option", "OptionRanker")
_open("batch", "FIELDS", "AnswerWriter", "LineReader", "LineStatus", "ThrowProblem", "throw_problem")
_open(
    "distribution", "banked_points", "distribution_table", "early_table_ready", "held_table",
    "option_distributions", "situation_distribution", "state_distribution", "table_for", "with_level",
)  # fmt: skip
_open(
    "disttable", "DistributionTable", "ScoreDistribution", "bar", "best_of", "build_table", "chance_at_least"
)
_open("kernels.win", AIM_POINTS="POINTS", AIM_WIN="WIN")
_open("levels", "misjudged")
_open(
    "early", "EarlyTables", "LevelSizes", "early_levels", "early_rows_levels", "early_tables",
    "horizon_level", "level_sizes",
)  # fmt: skip
_open("lanes", "lane_layout", "level_of", "widths_of")
_open(
    "play", "MASK64", "Played", "StreamDice", "add_counts", "box_counts", "deal_seed", "dealt_faces", "mix64",
    "play_games", "stream_base", "trace",
)  # fmt: skip
_open("points", "Solution", "Values", "load_solution", "solve", "solve_compiled", "table")
_open("position", "ColumnPosition", "Positions", "SheetState")
_open("runtime.kernelcache", "Compiling", "compiled_seconds", "compiling", "kernels_cache_dir")
_open("runtime.memo", "Held", "Memo")
_open("runtime.pace", "DISTRIBUTIONS", "TARGET_ROWS", "rate")
_open("runtime.precompile", "processors")
_open("runtime.spill", "allow_growth", "allowed_growth", "give_back")
_open(
    "runtime.store", "CACHE_BUDGET_ENV", "CACHE_DIR_ENV", "SOLVER_VERSION", "CacheEntry", "OverBudgetError",
    "cache_budget", "cache_dir", "cache_entries", "env_size", "make_room", "parse_size", "remove_entries",
    "table_key", "table_path", "tables_size", "trim_cache",
)  # fmt: skip
_open("runtime.work", "Cancel", "Cancelled", "Progress", "compiled_threads", "is_helper", "use_threads")
_open("sheet", "SheetGames", "SheetKernels")
_open("tables", "Compiled", "UnsupportedRulesError", "compile_rules")
_open(
    "target", "RowsQuestion", "TargetAdvisor", "answered", "cone_size", "early_horizon", "early_rows",
    "early_rows_ready", "game_rows", "is_early", "read_at_limit", "target_needs_compiling",
)  # fmt: skip
_open(
    "targetrows", "TargetRows", "default_limit", "empty_state", "points_left", "reached_lanes", "solve_rows"
)
_open("vector", "OBSERVED", "ActionValues", "VectorGames")
_open("warm", "WARM_UP_ENV", "start_warm_up", "warm_up", "warm_up_needed")
_open("winplay", "Matches", "play_to_win")


__all__ = [
    "AIM_POINTS",
    "AIM_WIN",
    "CACHE_BUDGET_ENV",
    "CACHE_DIR_ENV",
    "DISTRIBUTIONS",
    "FIELDS",
    "MASK64",
    "OBSERVED",
    "SOLVER_VERSION",
    "TARGET_ROWS",
    "WARM_UP_ENV",
    "ActionValues",
    "Advisor",
    "AnswerWriter",
    "CacheEntry",
    "Cancel",
    "Cancelled",
    "ColumnPosition",
    "Compiled",
    "Compiling",
    "DistributionTable",
    "EarlyTables",
    "Held",
    "LevelSizes",
    "LineReader",
    "LineStatus",
    "Matches",
    "Memo",
    "Option",
    "OptionRanker",
    "OverBudgetError",
    "Played",
    "Positions",
    "Progress",
    "RowsQuestion",
    "ScoreDistribution",
    "SheetGames",
    "SheetKernels",
    "SheetState",
    "Solution",
    "StreamDice",
    "TargetAdvisor",
    "TargetRows",
    "ThrowProblem",
    "UnsupportedRulesError",
    "Values",
    "VectorGames",
    "add_counts",
    "allow_growth",
    "allowed_growth",
    "answered",
    "banked_points",
    "bar",
    "best_of",
    "box_counts",
    "build_table",
    "cache_budget",
    "cache_dir",
    "cache_entries",
    "chance_at_least",
    "compile_rules",
    "compiled_seconds",
    "compiled_threads",
    "compiling",
    "cone_size",
    "deal_seed",
    "dealt_faces",
    "default_limit",
    "distribution_table",
    "early_horizon",
    "early_levels",
    "early_rows",
    "early_rows_levels",
    "early_rows_ready",
    "early_table_ready",
    "early_tables",
    "empty_state",
    "env_size",
    "game_rows",
    "give_back",
    "held_table",
    "horizon_level",
    "is_early",
    "is_helper",
    "kernels_cache_dir",
    "lane_layout",
    "level_of",
    "level_sizes",
    "load_solution",
    "make_room",
    "misjudged",
    "mix64",
    "option_distributions",
    "parse_size",
    "play_games",
    "play_to_win",
    "points_left",
    "processors",
    "rate",
    "reached_lanes",
    "read_at_limit",
    "remove_entries",
    "situation_distribution",
    "solve",
    "solve_compiled",
    "solve_rows",
    "start_warm_up",
    "state_distribution",
    "stream_base",
    "table",
    "table_for",
    "table_key",
    "table_path",
    "tables_size",
    "target_needs_compiling",
    "throw_problem",
    "trace",
    "trim_cache",
    "use_threads",
    "warm_up",
    "warm_up_needed",
    "widths_of",
    "with_level",
]
