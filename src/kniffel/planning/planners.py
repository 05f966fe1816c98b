"""The planner for a goal on a rule set, made once and shared, and the quick bot's options that a front
end shows while the exact ones are solved."""

from __future__ import annotations

from pathlib import Path

from kniffel.core import Memo
from kniffel.engine.game import Game
from kniffel.planning.exact import rules_key
from kniffel.planning.goals import POINTS, parse_goal
from kniffel.planning.heuristic import Weights
from kniffel.planning.interface import Choice, Goal, Planner, PlanningError
from kniffel.planning.points import Method, points_planner
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


__all__ = ["planner_for", "quick_choices"]
