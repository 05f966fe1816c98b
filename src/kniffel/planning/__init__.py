"""Planning: the value of every legal action of a game position, for a goal.

>>> from kniffel import Game, SeededDice, rules
>>> from kniffel.planning import planner_for
>>> game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
>>> game.roll()
(1, 1, 2, 3, 5)
>>> best = planner_for(game.rules).choices(game)[0]                      # doctest: +SKIP
>>> str(best.action), round(best.value, 2)                               # doctest: +SKIP
('roll keep 5', 245.9)

A *planner* answers :meth:`Planner.choices`: every legal action of the player to move with its value for
the planner's goal (:mod:`kniffel.planning.goals`: ``points``, ``target:T``, ``win``), best first. Bots
play the best choice, hints list them, reviews price each decision against the best one.
:func:`planner_for` makes them. For points there are *methods*:

* ``exact`` (:class:`ExactPlanner`): the solver's tables, for the rule sets it covers (one column that
  is not announced); its best choice is optimal play.
* ``column`` (:class:`ColumnPlanner`): every other sheet, valued as the sum of its columns' tables.
* ``heuristic`` (:class:`HeuristicPlanner`): no tables, a fast estimate of what each box is worth.
* ``best`` (the default): the exact planner where the solver covers the rules, else the column one.

A target and the chance of winning are played exactly where the solver covers the rules
(:class:`TargetPlanner`, :class:`WinPlanner`, :mod:`kniffel.planning.winning`). The exact planner reads
the solver's advice; the column and heuristic planners share one expectimax over the rest of the turn
and differ only in their :class:`Valuation` of the turn's end. On multi-column sheets without free
throws that search runs in compiled code (:mod:`kniffel.planning.compiled`, each planner's valuation as
a table per column); elsewhere in Python (:mod:`kniffel.planning.lookahead`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from kniffel.core import Memo
from kniffel.engine.game import Game
from kniffel.planning.columns import ORDERED_EXTRA_ROLLS, ColumnPlanner
from kniffel.planning.exact import ExactPlanner, advisor_for, is_exact, rules_key
from kniffel.planning.goals import POINTS, WIN, Goal, Points, Target, Unit, Win, parse_goal
from kniffel.planning.heuristic import HeuristicPlanner, Weights
from kniffel.planning.interface import Choice, Planner, PlanningError
from kniffel.planning.lookahead import Lookahead, Valuation
from kniffel.planning.winning import (
    NotReady,
    TargetPlanner,
    WinPlanner,
    final_scores,
    win_chances,
    win_tables,
)
from kniffel.rules import RuleSet

Method = Literal["best", "exact", "column", "heuristic"]
METHODS: tuple[Method, ...] = ("best", "exact", "column", "heuristic")

_MAX_PLANNERS = 128
"""Planners kept at once, the least recently used given up first: they hold solved tables (see
:data:`kniffel.planning.exact.MAX_TABLES`)."""
_planners: Memo[tuple[object, ...], tuple[RuleSet, Planner]] = Memo(_MAX_PLANNERS)


def planner_for(
    rules: RuleSet,
    goal: Goal | str = POINTS,
    *,
    method: Method = "best",
    directory: Path | None = None,
    weights: Weights | None = None,
    wait: bool = True,
) -> Planner:
    """The planner that plays for ``goal`` (a :class:`Goal` or its text: ``points``, ``target:250``,
    ``win``) on ``rules``, made once per rule set (and per table ``directory``, heuristic ``weights``
    and ``wait``) and shared: safe to call from several threads. For points, ``method`` says how the
    values are found (see the module docstring); the other goals are played exactly where the solver
    covers the rules (and for points elsewhere). The first call may solve tables (seconds); a goal
    planner with ``wait`` false hands what it lacks to the worker and raises :class:`NotReady` instead,
    and a heuristic or column planner plays the Python lookahead while its compiled search's kernel is
    still to compile (the same values; a first compile takes half a minute). ``exact`` raises
    :class:`PlanningError` for rules the solver does not cover."""
    goal = parse_goal(goal)
    if method not in METHODS:
        raise PlanningError(f"unknown method {method!r}; choose one of: {', '.join(METHODS)}")
    if method != "best" and goal != POINTS:
        raise PlanningError(f"{method} play is for points, not for {goal}")
    if weights is not None and method != "heuristic":
        raise PlanningError(f"weights are for the heuristic planner, not the {method} one")
    if method == "heuristic":
        weights = weights or Weights()
    key = (str(goal), method, *rules_key(rules), directory, weights, wait)

    def valid(found: tuple[RuleSet, Planner]) -> bool:
        return found[0] is rules or found[0] == rules

    if goal == POINTS and method == "best" and _planners.get(key, valid) is not None:
        # the planner it stands for ages with it, so that both names keep giving one planner
        for concrete in ("exact", "column"):
            _planners.get((str(goal), concrete, *key[2:]), valid)

    def make() -> tuple[RuleSet, Planner]:
        planner: Planner
        if goal != POINTS:
            planner = goal.planner(rules, directory=directory, wait=wait)
        elif method == "best" and is_exact(rules):
            planner = planner_for(rules, method="exact", directory=directory)
        elif method == "best":
            planner = planner_for(rules, method="column", directory=directory, wait=wait)
        elif method == "exact":
            if not is_exact(rules):
                raise PlanningError(
                    f"{rules.id}: the exact solver covers one column that is not announced, not these rules"
                )
            planner = ExactPlanner(rules, advisor_for(rules, directory))
        elif method == "column":
            planner = ColumnPlanner(rules, directory, wait=wait)
        else:
            planner = HeuristicPlanner(rules, weights, wait=wait)
        return rules, planner

    # made outside any shared lock: solving one rule set's table never keeps another's planner waiting
    return _planners.get_or_make(key, make, valid)[1]


def quick_choices(game: Game) -> list[Choice]:
    """The options of the player to move as the quick bot orders them, best first: its lookahead, a
    few milliseconds, never waiting for a compile. What a live bot plays and a front end shows while
    the exact table is solved (on a first use, half a minute with its kernels' compile). Its values
    are the bot's own scores, not points to come."""
    return planner_for(game.rules, method="heuristic", wait=False).choices(game)


__all__ = [
    "METHODS",
    "ORDERED_EXTRA_ROLLS",
    "POINTS",
    "WIN",
    "Choice",
    "ColumnPlanner",
    "ExactPlanner",
    "Goal",
    "HeuristicPlanner",
    "Lookahead",
    "Method",
    "NotReady",
    "Planner",
    "PlanningError",
    "Points",
    "Target",
    "TargetPlanner",
    "Unit",
    "Valuation",
    "Weights",
    "Win",
    "WinPlanner",
    "final_scores",
    "is_exact",
    "parse_goal",
    "planner_for",
    "quick_choices",
    "win_chances",
    "win_tables",
]
