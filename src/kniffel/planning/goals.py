"""Goals: what a player plays for, the menu above the planners.

A goal (:class:`kniffel.planning.interface.Goal`) is a small value with a text form and a unit; the
built-in ones are here:

* ``points`` (:class:`Points`): the most points on average; values are expected points still to come.
* ``target:T`` (:class:`Target`): the largest chance of finishing with at least ``T`` points; values are
  probabilities (:mod:`kniffel.core.target`).
* ``win`` (:class:`Win`): the largest chance of finishing first; values are probabilities
  (:mod:`kniffel.planning.winning`).

Each goal makes the planner that plays it (:meth:`Goal.planner`), handing it the goal itself: planners
know no goal module, this one knows them all. :func:`kniffel.planning.planner_for` shares the planners; a
bot plays one (``bot:win``, ``bot:target:250``); hints, reviews, tournaments and ``kniffel advise --goal``
take goals (:func:`kniffel.services.advice.options`). A goal carries everything they need of it: its
text, its unit, its planner, its names in every language (:meth:`Goal.describe`, :meth:`Goal.bot_name`),
its *aim* (how compiled play and the advisors play it: :meth:`Goal.aim`, points, a target score or the
win) and what it plays for alone at a table (:meth:`Goal.alone`). A new goal is one class (here or
anywhere else) and :func:`register`; nothing else dispatches on goals.

>>> parse_goal("target:250")
Target(score=250)
>>> str(parse_goal("WIN")), parse_goal("mean") == POINTS
('win', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from kniffel.base.i18n import N_
from kniffel.core import AIM_POINTS, AIM_WIN
from kniffel.planning.exact import is_exact
from kniffel.planning.interface import Goal, Planner, PlanningError, Unit
from kniffel.planning.points import points_planner
from kniffel.planning.winning import TargetPlanner, WinPlanner
from kniffel.rules import RuleSet


class PlainGoal(Goal):
    """A goal that takes no argument: its text form is its :attr:`~Goal.name` alone."""

    def __str__(self) -> str:
        return self.name

    @classmethod
    def from_argument(cls, argument: str | None) -> Goal:
        if argument is not None:
            raise PlanningError(f"the goal {cls.name} takes nothing after it, got {cls.name}:{argument}")
        return cls()


@dataclass(frozen=True)
class Points(PlainGoal):
    """The most points on average: optimal play where the solver covers the rules."""

    name: ClassVar[str] = "points"
    unit: ClassVar[Unit] = Unit.POINTS
    title: ClassVar[str] = N_("the most points")
    bot_title: ClassVar[str] = N_("Bot (optimal)")

    def planner(self, rules: RuleSet, *, directory: Path | None = None, wait: bool = True) -> Planner:
        return points_planner(rules, self, directory=directory, wait=wait)

    def aim(self) -> int:
        return AIM_POINTS


@dataclass(frozen=True)
class Target(Goal):
    """The largest chance of finishing with at least ``score`` points."""

    score: int
    name: ClassVar[str] = "target"
    unit: ClassVar[Unit] = Unit.PROBABILITY
    title: ClassVar[str] = N_("a score of at least {points}")
    bot_title: ClassVar[str] = N_("Bot (target {points})")

    def __post_init__(self) -> None:
        if isinstance(self.score, bool) or not isinstance(self.score, int) or not 0 <= self.score < 10**6:
            raise PlanningError(f"a target is a whole number of points, as in target:250; got {self.score!r}")

    def __str__(self) -> str:
        return f"{self.name}:{self.score}"

    @classmethod
    def from_argument(cls, argument: str | None) -> Goal:
        text = (argument or "").strip()
        if not text.isdecimal() or len(text) > 6:
            raise PlanningError(
                f"a target is a whole number of points, as in target:250; got target:{argument or ''}"
            )
        return cls(int(text))

    def planner(self, rules: RuleSet, *, directory: Path | None = None, wait: bool = True) -> Planner:
        return TargetPlanner(rules, self, directory, wait=wait)

    def fields(self) -> dict[str, object]:
        return {"points": self.score}

    def aim(self) -> int:
        return self.score


@dataclass(frozen=True)
class Win(PlainGoal):
    """The largest chance of finishing first."""

    name: ClassVar[str] = "win"
    unit: ClassVar[Unit] = Unit.PROBABILITY
    title: ClassVar[str] = N_("the best chance of winning")
    bot_title: ClassVar[str] = N_("Bot (win)")

    def planner(self, rules: RuleSet, *, directory: Path | None = None, wait: bool = True) -> Planner:
        # win play needs the exact tables; elsewhere it plays for points
        if not is_exact(rules):
            return points_planner(rules, POINTS, directory=directory)
        return WinPlanner(rules, self, directory, wait=wait)

    def aim(self) -> int:
        return AIM_WIN

    def alone(self) -> Goal:
        return POINTS


POINTS: Points = Points()
WIN: Win = Win()

_GOALS: dict[str, type[Goal]] = {"points": Points, "target": Target, "win": Win}
ALIASES = {"mean": "points", "optimal": "points"}
"""Other names of goals: ``mean`` (``kniffel advise --goal mean``), ``optimal`` (``bot:optimal``)."""


def register(goal: type[Goal]) -> None:
    """Make a goal class known to :func:`parse_goal` by its :attr:`Goal.name`."""
    if not goal.name or ":" in goal.name:
        raise PlanningError(f"a goal's name is a word without ':', got {goal.name!r}")
    _GOALS[goal.name] = goal


def goal_names() -> list[str]:
    """The goals' text forms, for help and error messages (``NAME:T`` for one that takes a number)."""
    names = []
    for name, cls in _GOALS.items():
        try:
            cls.from_argument(None)
        except PlanningError:
            name += ":T"
        names.append(name)
    return names


def parse_goal(text: str | Goal) -> Goal:
    """The goal ``text`` names: ``points`` (or ``mean``), ``target:T``, ``win``, or another registered
    goal; :class:`PlanningError` says what is known."""
    if isinstance(text, Goal):
        return text
    cleaned = text.strip().lower()
    name, colon, argument = cleaned.partition(":")
    name = ALIASES.get(name.strip(), name.strip())
    found = _GOALS.get(name)
    if found is None:
        raise PlanningError(f"unknown goal {text!r}; choose one of: {', '.join(goal_names())}")
    return found.from_argument(argument.strip() if colon else None)


__all__ = [
    "ALIASES",
    "POINTS",
    "WIN",
    "PlainGoal",
    "Points",
    "Target",
    "Win",
    "goal_names",
    "parse_goal",
    "register",
]
