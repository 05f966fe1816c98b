"""The exact optimal strategy of single-column rule sets: dynamic programming, cached tables, advice.

>>> from kniffel import rules, solver
>>> from kniffel.position import ColumnPosition
>>> solved = solver.table(rules.get("yahtzee", {"joker": "free"}))   # doctest: +SKIP
>>> round(solved.expected_score, 4)                                   # doctest: +SKIP
254.5896
>>> at = ColumnPosition({}, (1, 3, 3, 5, 6), rolls_left=2)                    # doctest: +SKIP
>>> str(solver.Advisor(solved).options(at)[0].action)                       # doctest: +SKIP
'roll keep 3 3'
"""

from __future__ import annotations

from kniffel.solver.kernelcache import use_kernels_cache

use_kernels_cache()  # before any kernel is defined (see kniffel.solver.kernelcache)

from kniffel.position import SheetState
from kniffel.rules import single_column
from kniffel.solver.advisor import Advisor, Option
from kniffel.solver.cache import cache_dir, table
from kniffel.solver.compile import (
    SOLVER_VERSION,
    Compiled,
    UnsupportedRulesError,
    compile_rules,
)
from kniffel.solver.distribution import (
    DistributionTable,
    ScoreDistribution,
    distribution_table,
    option_distributions,
    situation_distribution,
    state_distribution,
)
from kniffel.solver.dp import Solution, solve

State = SheetState
"""The former name of :class:`kniffel.position.SheetState` (kept while callers move to the new one)."""

__all__ = [
    "SOLVER_VERSION",
    "Advisor",
    "Compiled",
    "DistributionTable",
    "Option",
    "ScoreDistribution",
    "SheetState",
    "Solution",
    "State",
    "UnsupportedRulesError",
    "cache_dir",
    "compile_rules",
    "distribution_table",
    "option_distributions",
    "single_column",
    "situation_distribution",
    "solve",
    "state_distribution",
    "table",
]
