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
the goal it serves (:mod:`kniffel.planning.goals`: ``points``, ``target:T``, ``win``), best first. Bots
play the best choice, hints list them, reviews price each decision against the best one.
:func:`planner_for` makes them, once per rule set and goal.

The floors of the package, each standing on the ones below:

* :mod:`~kniffel.planning.interface`, the door: the abstract :class:`Goal`, :class:`Planner`,
  :class:`Choice` and the words they share; it imports nothing of planning.
* the planners, each receiving the goal it serves: :mod:`~kniffel.planning.exact` (the solver's
  tables), :mod:`~kniffel.planning.columns` and :mod:`~kniffel.planning.heuristic` (the two estimates,
  one turn search each: :mod:`~kniffel.planning.compiled`, :mod:`~kniffel.planning.lookahead`),
  :mod:`~kniffel.planning.winning` (a target and the chance of winning) and
  :mod:`~kniffel.planning.points`, which chooses the method that plays for points.
* :mod:`~kniffel.planning.goals`, the menu above them: the concrete goals, their registry and
  :func:`~kniffel.planning.goals.parse_goal`; each goal makes its planner.
"""

from __future__ import annotations

from pathlib import Path

from kniffel.core import Memo
from kniffel.engine.game import Game
from kniffel.planning.columns import ORDERED_EXTRA_ROLLS, ColumnPlanner
from kniffel.planning.exact import ExactPlanner, is_exact, rules_key
from kniffel.planning.goals import POINTS, WIN, Points, Target, Win, parse_goal
from kniffel.planning.heuristic import HeuristicPlanner, Weights
from kniffel.planning.interface import Choice, Goal, Planner, PlanningError, Unit
from kniffel.planning.lookahead import Lookahead, Valuation
from kniffel.planning.points import METHODS, Method, points_planner
from kniffel.planning.winning import TargetPlanner, WinPlanner, final_scores, win_chances, win_tables
from kniffel.planning.worker import NotReady
from kniffel.rules import RuleSet

_MAX_PLANNERS = 128
"""Goal planners kept at once, the least recently used given up first (see
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
    ``win``) on ``rules`` (:meth:`Goal.planner`), made once per rule set (and per table ``directory`` and
    ``wait``) and shared: safe to call from several threads. For points, ``method`` (and the heuristic's
    ``weights``) says how the values are found (:func:`kniffel.planning.points.points_planner`); the other
    goals are played exactly where the solver covers the rules. A first answer may solve tables
    (seconds); a planner made with ``wait`` false hands what it lacks to the worker and raises
    :class:`NotReady` instead."""
    goal = parse_goal(goal)
    if method != "best" or weights is not None:
        if goal != POINTS:
            raise PlanningError(f"{method} play is for points, not for {goal}")
        return points_planner(rules, goal, method=method, directory=directory, weights=weights, wait=wait)
    key = (str(goal), *rules_key(rules), directory, wait)
    return _planners.get_or_make(
        key,
        lambda: (rules, goal.planner(rules, directory=directory, wait=wait)),
        lambda found: found[0] is rules or found[0] == rules,
    )[1]


def quick_choices(game: Game) -> list[Choice]:
    """The options of the player to move as the quick bot orders them, best first: its lookahead, a
    few milliseconds, never waiting for a compile. What a live bot plays and a front end shows while
    the exact table is solved (on a first use, half a minute with its kernels' compile). Its values
    are the bot's own scores, not points to come."""
    return points_planner(game.rules, POINTS, method="heuristic", wait=False).choices(game)


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
