"""Levels of play, from a newcomer (1) to the best for points (7) and to win (8): whom a family can beat.
The ladder itself, each level's name and mistakes, is :mod:`kniffel.planning.ladder`.

A level below 7 is the exact policy with the mistakes people make on top, none drawn by chance: it plays
the solver's table as a player sees it who looks too little ahead and holds some boxes too dear or too
cheap (:func:`kniffel.core.misjudged`). Its :class:`~kniffel.planning.ladder.Mistakes` grow with the
level's *strength* (0 for none, 1 for a newcomer):

* **short sight**: the future counts ``1 - strength`` of what it is worth. A newcomer takes the most
  points the turn can bring, fills upper boxes with whatever they pay without an eye on the bonus, and
  strikes where the points now are least;
* **the five of a kind**: points in its box seem worth :data:`~kniffel.planning.ladder.CHASE` more where
  the sheet tracks them (a player who chases five alike), and elsewhere the open box seems worth
  :data:`~kniffel.planning.ladder.HOPE` more (a player who keeps it open in hope and strikes another box
  instead);
* **straights**: filling a straight box seems worth :data:`~kniffel.planning.ladder.DOUBT` more: a player
  who gives up a straight too early and strikes it;
* **the chance box**: filling it seems worth :data:`~kniffel.planning.ladder.HASTE` more: a player who
  spends it early.

Level 7 is the solver's play for points and level 8 the play to win (:mod:`kniffel.planning.winning`).
On every sheet a level sees its columns' tables so (:class:`LevelPlanner`: the exact planner's advisor
over the table it sees on one column, the column estimate's tables on several), so it plays every rule
set, in a game and in compiled games alike.

The strengths were set so that each level scores some points more than the one below on every rule set
of one column (``benchmarks/levels.py`` measures the ladder; ``docs/explanation/levels.md`` shows it).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from kniffel.base.arrays import F64
from kniffel.core import Advisor, ColumnPosition, Memo, Progress, Solution, misjudged
from kniffel.engine.game import Game
from kniffel.planning.columns import ColumnModel, ColumnPlanner
from kniffel.planning.exact import advisor_for, is_exact, optimal_choices, rules_key
from kniffel.planning.interface import Choice, Goal, PlanningError, Reach
from kniffel.planning.ladder import Level, Mistakes, level
from kniffel.rules import RuleSet
from kniffel.rules.scoring import Chance, Faces, Run


def filled(mistakes: Mistakes, rules: RuleSet, tracked: bool) -> F64:
    """``[box]``: what filling each box of ``rules`` (one column) seems worth more to a player of
    ``mistakes``; ``tracked``: whether the sheet's states track points in the five-of-a-kind box (then
    :attr:`Mistakes.chase` applies to them, not :attr:`Mistakes.hope` to the box)."""
    out = np.zeros(len(rules.boxes))
    for b, box in enumerate(rules.boxes):
        if isinstance(box.score, Run | Faces):
            out[b] = mistakes.straights
        elif isinstance(box.score, Chance):
            out[b] = mistakes.chance
        elif box.id == rules.five_box and not tracked:
            out[b] = -mistakes.hope
    return out


def see(mistakes: Mistakes, solution: Solution) -> Solution:
    """``solution``'s table as a player of ``mistakes`` sees it (:func:`kniffel.core.misjudged`)."""
    tracked = solution.compiled.n_armed == 2
    return misjudged(
        solution,
        foresight=mistakes.foresight,
        filled=filled(mistakes, solution.rules, tracked),
        scored_five=mistakes.chase if tracked else 0.0,
    )


_SEEN = 12
"""Tables as levels see them kept at once (one a level and rule set: 8 MB each for Yahtzee)."""
_seen: Memo[tuple[object, ...], tuple[Solution, Solution]] = Memo(_SEEN)


def seen(solution: Solution, mistakes: Mistakes) -> Solution:
    """``solution`` as a player of ``mistakes`` sees it, made once per table and kept."""
    key = (*rules_key(solution.rules), mistakes)
    return _seen.get_or_make(
        key, lambda: (solution, see(mistakes, solution)), lambda found: found[0] is solution
    )[1]


class SeenColumns(ColumnPlanner):
    """The column estimate by its columns' tables as a player of ``mistakes`` sees them: a level on
    the sheets the solver does not cover."""

    def __init__(
        self,
        rules: RuleSet,
        goal: Goal,
        mistakes: Mistakes,
        directory: Path | None = None,
        *,
        wait: bool = True,
    ) -> None:
        self.mistakes = mistakes
        super().__init__(rules, goal, directory, wait=wait)

    def model(self, index: int, directory: Path | None) -> ColumnModel:
        model = super().model(index, directory)
        advisor = Advisor(seen(model.advisor.solution, self.mistakes))
        return dataclasses.replace(model, advisor=advisor, exact=False)


class LevelPlanner:
    """The choices of a level below 7, best first by the level's own view (its values are not points
    to expect): on one column the solver covers, the exact planner's over the table the level sees; on
    other sheets the column estimate's over the tables it sees."""

    exact = False

    def __init__(
        self, rules: RuleSet, goal: Goal, level: Level, directory: Path | None = None, *, wait: bool = True
    ) -> None:
        mistakes = level.mistakes
        if mistakes is None:
            raise PlanningError(f"level {level.number} makes no mistakes: it plays the solver's planner")
        self.rules = rules
        self.goal = goal
        """The points a level plays for, as it misjudges them."""
        self.level = level
        self.advisor: Advisor | None = None
        """The table the level sees, where the solver covers the rules."""
        self.columns: SeenColumns | None = None
        """The column estimate over the tables it sees, elsewhere."""
        if is_exact(rules):
            self.advisor = Advisor(seen(advisor_for(rules, directory).solution, mistakes))
        else:
            self.columns = SeenColumns(rules, goal, mistakes, directory, wait=wait)

    def choices(self, at: Game | ColumnPosition, progress: Progress | None = None) -> list[Choice]:
        if self.columns is not None:
            return self.columns.choices(at, progress)
        assert self.advisor is not None
        return optimal_choices(at, self.advisor)

    def reach(self, at: Game | ColumnPosition) -> Reach | None:
        return None

    def column_advisor(self, progress: Progress | None = None) -> Advisor:
        if self.advisor is None:
            raise TypeError(f"{self.rules.id}: a batch of positions is answered by the exact solver's tables")
        return self.advisor


_PLANNERS = 32
_planners: Memo[tuple[object, ...], tuple[RuleSet, LevelPlanner]] = Memo(_PLANNERS)


def level_planner(
    rules: RuleSet, goal: Goal, number: int, directory: Path | None = None, *, wait: bool = True
) -> LevelPlanner:
    """The planner of level ``number`` (1 to 6) on ``rules``, made once per rule set and shared (the
    bots of a tournament played through the game are made anew for every game)."""
    key = (*rules_key(rules), goal, number, directory, wait)
    return _planners.get_or_make(
        key,
        lambda: (rules, LevelPlanner(rules, goal, level(number), directory, wait=wait)),
        lambda found: found[0] == rules,
    )[1]


def seen_values(solution: Solution, number: int) -> F64:
    """The table level ``number`` (1 to 6) plays compiled games by on ``solution``'s rules: the solved
    table as it sees it (:meth:`Mistakes.see`)."""
    mistakes = level(number).mistakes
    if mistakes is None:
        raise PlanningError(f"level {number} plays by the solved table itself")
    return seen(solution, mistakes).values


__all__ = [
    "LevelPlanner",
    "SeenColumns",
    "filled",
    "level_planner",
    "see",
    "seen",
    "seen_values",
]
