"""The door of planning: what every planner and every goal shares, and nothing that plays.

A :class:`Goal` is what a player plays for; its planner (:meth:`Goal.planner`) values every option of a
position for it. Planners answer :class:`Choice` lists and receive the goal they serve; the concrete goals
and their registry are the menu above the planners (:mod:`kniffel.planning.goals`). This module imports no
other module of planning: goals and planners both stand on it, so neither needs the other's module.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol

from kniffel.base.errors import KniffelError
from kniffel.base.i18n import translate

if TYPE_CHECKING:  # the vocabulary is read without the engine and the rule sets (kniffel stats)
    from kniffel.core import ColumnPosition, Progress
    from kniffel.engine.actions import Action
    from kniffel.engine.game import Game
    from kniffel.rules import RuleSet


class PlanningError(KniffelError):
    """A planner asked for something it cannot do (an unknown kind, rules it does not cover)."""


class OthersNeeded(PlanningError):  # noqa: N818 - says what is missing, as a refusal does
    """A goal that plays against the other players (the chance of winning) was asked about a position
    without them: a column alone, or a table of one."""

    def __init__(self, goal: Goal) -> None:
        super().__init__(f"playing for {goal} needs the other players' sheets")
        self.goal = goal


def uncovered(rules: RuleSet, goal: Goal) -> PlanningError:
    """The refusal of a goal that only the exact solver's tables play, on rules they do not cover."""
    return PlanningError(
        f"{rules.id}: playing for {goal} covers the rule sets the exact solver solves "
        "(one column, not announced)"
    )


# --- goals -------------------------------------------------------------------------------------------------


class Unit(StrEnum):
    """What a planner's values count."""

    POINTS = "points"
    """Expected points still to come."""
    PROBABILITY = "probability"
    """A chance, 0 to 1."""


class Goal(ABC):
    """What a player plays for (:mod:`kniffel.planning.goals` holds the built-in ones and the registry).
    Subclasses are frozen dataclasses: goals compare and hash by value, and ``str(goal)`` reads back with
    :func:`kniffel.planning.goals.parse_goal`."""

    name: ClassVar[str]
    """The first word of the text form (``target`` in ``target:250``)."""
    unit: ClassVar[Unit]
    title: ClassVar[str]
    """What it plays for, for people (a message of the catalogs, filled with :meth:`fields`)."""
    bot_title: ClassVar[str]
    """The default name of a bot playing for it (a message of the catalogs, filled with :meth:`fields`)."""

    @abstractmethod
    def __str__(self) -> str: ...

    @classmethod
    @abstractmethod
    def from_argument(cls, argument: str | None) -> Goal:
        """The goal of ``NAME`` (``argument`` None) or ``NAME:ARGUMENT``; :class:`PlanningError` if the
        argument does not fit."""

    @abstractmethod
    def planner(self, rules: RuleSet, *, directory: Path | None = None, wait: bool = True) -> Planner:
        """The planner that plays for this goal on ``rules`` (see :func:`kniffel.planning.planner_for`)."""

    def fields(self) -> dict[str, object]:
        """The fields of :attr:`title` and :attr:`bot_title` (``points`` of a target)."""
        return {}

    def describe(self, lang: str = "en") -> str:
        """A short phrase for people in ``lang`` ("the most points", "at least 250 points")."""
        return translate(lang, self.title, **self.fields())

    def bot_name(self, lang: str = "en") -> str:
        """The default name of a bot playing for it in ``lang`` ("Bot (win)", "Bot (Ziel 250)")."""
        return translate(lang, self.bot_title, **self.fields())

    @abstractmethod
    def aim(self) -> int:
        """How the compiled players and the advisors play it: :data:`AIM_POINTS` (the most points),
        :data:`AIM_WIN` (the chance of finishing first) or a score of 0 or more (the chance of finishing
        with at least that many points)."""

    def alone(self) -> Goal:
        """What it plays for with nobody else at the table (winning alone is the most points)."""
        return self


# --- planners ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A legal decision and its value if it is taken (and play is as good as the planner can make it
    afterwards), in the unit of the planner's goal (:attr:`Planner.goal`): expected points still to come
    when playing for points, a probability when playing for a target or to win."""

    action: Action
    value: float


@dataclass(frozen=True)
class Reach:
    """How to read chances of finishing with at least a score: the score, the points still needed for it,
    and whether the tables were read at their limit."""

    target: int
    """The final score played for."""
    needed: int
    """The points the player still has to make for it."""
    limit: int | None
    """The rows' limit when the chances are read there (the target asks for more points than the tables
    go to): then they are upper bounds, not the chances; else None."""


class ColumnAdvisor(Protocol):
    """What answers any position of a single column of one rule set, for a batch of them."""

    def options(self, position: ColumnPosition) -> Sequence[object]:
        """Every option of ``position`` (each with ``action`` and ``value``), best first."""
        ...


class Planner(Protocol):
    """Values every legal decision for the goal it serves, at a whole table (a :class:`Game`) or, for
    planners of the exact solver's tables, in one column alone (a ``ColumnPosition`` of one-column
    rules, as the command line and batch lines give it)."""

    rules: RuleSet
    exact: bool
    """Whether the values are those of optimal play (else an estimate)."""

    @property
    def goal(self) -> Goal:
        """What the planner plays for; its unit is the unit of the values."""
        ...

    def choices(self, at: Game | ColumnPosition, progress: Progress | None = None) -> list[Choice]:
        """Every legal decision of the player to move, best first; ``[]`` before the first throw of a
        turn (there is nothing to decide) and when the game is over. ``progress(done, total)`` follows
        a solve the answer waits for."""
        ...

    def reach(self, at: Game | ColumnPosition) -> Reach | None:
        """How to read the values when they are chances of a final score (None otherwise); known
        before the tables the values need are solved."""
        ...

    def column_advisor(self, progress: Progress | None = None) -> ColumnAdvisor:
        """What answers every position of the one column of :attr:`rules`, for a batch of them;
        :class:`PlanningError` where the planner has no tables of that column."""
        ...


def best_first(choices: list[Choice]) -> list[Choice]:
    """Sorted by value, ties scoring first, then striking, then throwing (rolls and free throws), then
    announcing, and then in the order given; sorts in place."""
    from kniffel.engine.actions import Announce, Score, Strike

    tie_order: dict[type[Action], int] = {Score: 0, Strike: 1, Announce: 3}
    choices.sort(key=lambda c: tie_order.get(type(c.action), 2))
    choices.sort(key=lambda c: -c.value)
    return choices


__all__ = [
    "Choice",
    "ColumnAdvisor",
    "Goal",
    "OthersNeeded",
    "Planner",
    "PlanningError",
    "Reach",
    "Unit",
    "best_first",
    "uncovered",
]
