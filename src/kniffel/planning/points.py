"""Playing for the most points: the planner of each method, and which method is best for a rule set.

For points there are *methods*:

* ``exact`` (:class:`~kniffel.planning.exact.ExactPlanner`): the solver's tables, for the rule sets it
  covers (one column that is not announced); its best choice is optimal play.
* ``column`` (:class:`~kniffel.planning.columns.ColumnPlanner`): every other sheet, valued as the sum of
  its columns' tables.
* ``heuristic`` (:class:`~kniffel.planning.heuristic.HeuristicPlanner`): no tables, a fast estimate of
  what each box is worth.
* ``best`` (the default): the exact planner where the solver covers the rules, else the column one.

The planner of the points goal is the best one (:meth:`kniffel.planning.goals.Points.planner`); the other
methods are asked for by name (bots, benchmarks, tests).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from kniffel.core import Memo
from kniffel.planning.columns import ColumnPlanner
from kniffel.planning.exact import ExactPlanner, is_exact, rules_key
from kniffel.planning.heuristic import HeuristicPlanner, Weights
from kniffel.planning.interface import Goal, Planner, PlanningError
from kniffel.rules import RuleSet

Method = Literal["best", "exact", "column", "heuristic"]
METHODS: tuple[Method, ...] = ("best", "exact", "column", "heuristic")

_MAX_PLANNERS = 128
"""Planners kept at once, the least recently used given up first: they hold solved tables (see
:data:`kniffel.planning.exact.MAX_TABLES`)."""
_planners: Memo[tuple[object, ...], tuple[RuleSet, Planner]] = Memo(_MAX_PLANNERS)


def points_planner(
    rules: RuleSet,
    goal: Goal,
    *,
    method: Method = "best",
    directory: Path | None = None,
    weights: Weights | None = None,
    wait: bool = True,
) -> Planner:
    """The planner that plays ``goal`` (the most points) on ``rules`` by ``method`` (see the module
    docstring), made once per rule set (and per table ``directory``, heuristic ``weights`` and ``wait``)
    and shared: safe to call from several threads. Without ``wait`` the exact planner hands a table it
    lacks to the worker (:class:`~kniffel.planning.worker.NotReady` until it is there), and a heuristic
    or column planner plays the Python lookahead while its compiled search's kernel is still to compile
    (the same values; a first compile takes half a minute). ``exact`` raises :class:`PlanningError` for
    rules the solver does not cover."""
    if method not in METHODS:
        raise PlanningError(f"unknown method {method!r}; choose one of: {', '.join(METHODS)}")
    if weights is not None and method != "heuristic":
        raise PlanningError(f"weights are for the heuristic planner, not the {method} one")
    if method == "heuristic":
        weights = weights or Weights()
    key = (str(goal), method, *rules_key(rules), directory, weights, wait)

    def valid(found: tuple[RuleSet, Planner]) -> bool:
        return found[0] is rules or found[0] == rules

    if method == "best" and _planners.get(key, valid) is not None:
        # the planner it stands for ages with it, so that both names keep giving one planner
        for concrete in ("exact", "column"):
            _planners.get((str(goal), concrete, *key[2:]), valid)

    def make() -> tuple[RuleSet, Planner]:
        planner: Planner
        if method == "best":
            best: Method = "exact" if is_exact(rules) else "column"
            planner = points_planner(rules, goal, method=best, directory=directory, wait=wait)
        elif method == "exact":
            if not is_exact(rules):
                raise PlanningError(
                    f"{rules.id}: the exact solver covers one column that is not announced, not these rules"
                )
            planner = ExactPlanner(rules, goal, directory, wait=wait)
        elif method == "column":
            planner = ColumnPlanner(rules, goal, directory, wait=wait)
        else:
            planner = HeuristicPlanner(rules, goal, weights, wait=wait)
        return rules, planner

    # made outside any shared lock: solving one rule set's table never keeps another's planner waiting
    return _planners.get_or_make(key, make, valid)[1]


__all__ = ["METHODS", "Method", "points_planner"]
