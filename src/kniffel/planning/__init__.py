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
  :func:`~kniffel.planning.goals.parse_goal`; each goal makes its planner, and
  :mod:`~kniffel.planning.planners` shares them.

Its names are imported on first use (:class:`kniffel.base.door.Door`): importing the door alone, or the
ladder of levels (:mod:`~kniffel.planning.ladder`), loads neither numpy nor the solver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kniffel.base.door import Door

if TYPE_CHECKING:
    from kniffel.planning.columns import ORDERED_EXTRA_ROLLS, ColumnPlanner
    from kniffel.planning.exact import ExactPlanner, is_exact
    from kniffel.planning.goals import POINTS, WIN, Points, Target, Win, parse_goal
    from kniffel.planning.heuristic import HeuristicPlanner, Weights
    from kniffel.planning.interface import Choice, Goal, Planner, PlanningError, Unit
    from kniffel.planning.lookahead import Lookahead, Valuation
    from kniffel.planning.planners import planner_for, quick_choices
    from kniffel.planning.points import METHODS, Method
    from kniffel.planning.winning import TargetPlanner, WinPlanner, final_scores, win_chances, win_tables
    from kniffel.planning.worker import NotReady

_DOOR = Door(__name__, globals())
_DOOR.open("columns", "ORDERED_EXTRA_ROLLS", "ColumnPlanner")
_DOOR.open("exact", "ExactPlanner", "is_exact")
_DOOR.open("goals", "POINTS", "WIN", "Points", "Target", "Win", "parse_goal")
_DOOR.open("heuristic", "HeuristicPlanner", "Weights")
_DOOR.open("interface", "Choice", "Goal", "Planner", "PlanningError", "Unit")
_DOOR.open("lookahead", "Lookahead", "Valuation")
_DOOR.open("planners", "planner_for", "quick_choices")
_DOOR.open("points", "METHODS", "Method")
_DOOR.open("winning", "TargetPlanner", "WinPlanner", "final_scores", "win_chances", "win_tables")
_DOOR.open("worker", "NotReady")


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
