"""What every planner answers: each legal action of the player to move, with its value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kniffel.base.errors import KniffelError
from kniffel.engine.game import Action, Announce, Game, Score, Strike
from kniffel.rules import RuleSet

if TYPE_CHECKING:
    from kniffel.planning.goals import Goal


class PlanningError(KniffelError):
    """A planner asked for something it cannot do (an unknown kind, rules it does not cover)."""


@dataclass(frozen=True)
class Choice:
    """A legal decision and its value if it is taken (and play is as good as the planner can make it
    afterwards), in the unit of the planner's goal (:attr:`Planner.goal`): expected points still to come
    when playing for points, a probability when playing for a target or to win."""

    action: Action
    value: float


class Planner(Protocol):
    rules: RuleSet
    exact: bool
    """Whether the values are those of optimal play (else an estimate)."""

    @property
    def goal(self) -> Goal:
        """What the planner plays for; its unit is the unit of the values."""
        ...

    def choices(self, game: Game) -> list[Choice]:
        """Every legal decision of the player to move, best first; ``[]`` before the first throw of a
        turn (there is nothing to decide) and when the game is over."""
        ...


_TIE_ORDER: dict[type[Action], int] = {Score: 0, Strike: 1, Announce: 3}
"""Among equal values: scoring, then striking, then throwing (rolls and free throws), then announcing."""


def best_first(choices: list[Choice]) -> list[Choice]:
    """Sorted by value, ties in :data:`_TIE_ORDER` and then in the order given; sorts in place."""
    choices.sort(key=lambda c: _TIE_ORDER.get(type(c.action), 2))
    choices.sort(key=lambda c: -c.value)
    return choices


__all__ = ["Choice", "Planner", "PlanningError", "best_first"]
