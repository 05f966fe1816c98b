"""The exact optimal strategy of single-column rule sets: dynamic programming, cached tables, advice.

>>> from kniffel import core, rules
>>> from kniffel.core.position import ColumnPosition
>>> solved = core.table(rules.get("yahtzee", {"joker": "free"}))   # doctest: +SKIP
>>> round(solved.expected_score, 4)                                   # doctest: +SKIP
254.5896
>>> at = ColumnPosition({}, (1, 3, 3, 5, 6), rolls_left=2)                    # doctest: +SKIP
>>> str(core.Advisor(solved).options(at)[0].action)                       # doctest: +SKIP
'roll keep 3 3'
"""

from __future__ import annotations

from kniffel.core.kernelcache import use_kernels_cache

use_kernels_cache()  # before any kernel is defined (see kniffel.core.kernelcache)

from kniffel.core.advisor import Advisor, Option, OptionRanker
from kniffel.core.cache import cache_dir, table
from kniffel.core.compile import (
    SOLVER_VERSION,
    Compiled,
    UnsupportedRulesError,
    compile_rules,
)
from kniffel.core.distribution import (
    DistributionTable,
    ScoreDistribution,
    distribution_table,
    option_distributions,
    situation_distribution,
    state_distribution,
)
from kniffel.core.dp import Solution, solve
from kniffel.core.position import SheetState
from kniffel.rules import single_column

State = SheetState
"""The former name of :class:`kniffel.core.position.SheetState` (kept while callers move to the new one)."""

__all__ = [
    "SOLVER_VERSION",
    "Advisor",
    "Compiled",
    "DistributionTable",
    "Option",
    "OptionRanker",
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
