"""The tables compiled play reads (:func:`kniffel.core.winplay.play_to_win`), what each costs before it
is made, and which of them are kept for the next run.

Players for points read the solved table (kept in the disk cache). Players to win read the target rows
of every sheet, the score distributions of every sheet and the early rows
(:func:`kniffel.core.target.early_rows`); players of final scores alone only the cone of the empty sheet
for their scores (a fraction of every sheet's rows). The early rows are kept in the disk cache (the same files
``kniffel cache prepare`` and the goal planners use), so only the first run solves them. The target rows
and the distributions of every sheet are solved in memory at every run: for a full rule set each is more
than a gigabyte, more than the cache keeps (it holds the early levels only).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from kniffel.base.i18n import N_
from kniffel.core import AIM_POINTS, AIM_WIN, Progress, level_sizes
from kniffel.planning.winning import seconds_per_lane, seconds_per_value, win_tables
from kniffel.planning.worker import Work
from kniffel.rules import RuleSet

if TYPE_CHECKING:
    from kniffel.core import DistributionTable, Solution, TargetRows

TARGETS = N_("Solving the target rows of every sheet of {rules} (in memory, at every run)")
CONE = N_("Solving the chances of reaching {targets} in {rules} (in memory, at every run)")
DISTRIBUTIONS = N_("Solving the score distributions of every sheet of {rules} (in memory, at every run)")
EARLY = N_("Solving the early win rows of {rules} (once; kept on disk)")
SOLUTION = N_("Solving {rules} (once, then cached)")


@dataclass(frozen=True)
class Step:
    """One table still to be made: what it is and costs (:class:`~kniffel.planning.worker.Work`), and
    how to make it, told of its progress."""

    work: Work
    make: Callable[[Progress | None], object]


class PlayTables:
    """The tables compiled play reads on ``rules``, each made when first needed and then kept, so that
    the blocks of deals of one tournament make them once (:meth:`steps` says what is still to be made and
    what it costs; :meth:`prepare` makes it with a progress bar per table)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._progress: Progress | None = None
        self._cones: dict[tuple[int, int], TargetRows] = {}

    @cached_property
    def solution(self) -> Solution:
        from kniffel.core import table

        return table(self.rules, progress=self._progress)

    @cached_property
    def targets(self) -> TargetRows:
        from kniffel.core import solve_rows

        return solve_rows(self.solution.compiled, progress=self._progress)

    def targets_for(self, aims: Collection[int]) -> TargetRows:
        """The target rows players of ``aims`` read: a player to win reads every sheet's
        (:attr:`targets`); players of final scores alone read the cone of the empty sheet for their
        scores, which holds every state their games reach with the targets it can need, the same rows
        to the last bit, a fraction of every sheet's (a Yahtzee tournament of bot:target:250 against
        bot took 11.8 s with its cone, 27 s with every sheet's rows)."""
        wanted = self._wanted(aims)
        if wanted is None or "targets" in self.__dict__:
            return self.targets
        # a cone of more targets holds the rows of fewer (a tournament's tables ask for their players')
        low, high = wanted
        found = next((rows for (a, b), rows in self._cones.items() if a <= low and high <= b), None)
        if found is None:
            from kniffel.core import empty_state, solve_rows

            c = self.solution.compiled
            found = solve_rows(c, root=empty_state(c), low=low, high=high, progress=self._progress)
            self._cones[wanted] = found
        return found

    def _wanted(self, aims: Collection[int]) -> tuple[int, int] | None:
        """The targets of the cone that players of ``aims`` read (:func:`kniffel.core.target.answered`),
        or None for every sheet's rows (a player to win)."""
        from kniffel.core import answered

        scores = [aim for aim in aims if aim >= 0]
        if AIM_WIN in aims or not scores:
            return None
        return answered(self.solution.compiled, min(scores), max(scores))

    @cached_property
    def distributions(self) -> DistributionTable:
        from kniffel.core import build_table

        return build_table(self.solution, self._progress)

    @cached_property
    def early(self) -> TargetRows:
        """The early rows a player to win reads, from the disk cache (solved and kept the first time)."""
        from kniffel.core import early_rows

        return early_rows(self.solution.compiled, distributions=self.distributions, progress=self._progress)

    def steps(self, aims: Collection[int]) -> list[Step]:
        """What players of ``aims`` (:meth:`kniffel.planning.Goal.aim`) still need made, in order, each
        with a rough cost (time on 2 processors, size held)."""
        if all(aim == AIM_POINTS for aim in aims):
            return []
        c = self.solution.compiled
        done = self.__dict__
        tables = win_tables(self.rules)
        sizes = level_sizes(c)
        fields = (("rules", self.rules.id),)
        values = float(sizes.rows.sum())
        steps = []
        wanted = self._wanted(aims)
        if wanted is not None and wanted not in self._cones and "targets" not in done:
            from kniffel.core import cone_size, empty_state

            size = cone_size(c, empty_state(c), *wanted)
            low, high = wanted
            targets = str(low) if low == high else f"{low}-{high}"
            work = Work(CONE, size * seconds_per_value(), 4 * size, (*fields, ("targets", targets)))
            steps.append(Step(work, lambda progress: self._with(progress, lambda: self.targets_for(aims))))
        if wanted is None and "targets" not in done:
            steps.append(
                Step(
                    Work(TARGETS, values * seconds_per_value(), int(4 * values), fields),
                    self._maker("targets"),
                )
            )
        if AIM_WIN in aims:
            if "distributions" not in done:
                size = int(sizes.distributions.sum()) * 8
                seconds = float(sizes.lanes.sum()) * seconds_per_lane()
                steps.append(Step(Work(DISTRIBUTIONS, seconds, size, fields), self._maker("distributions")))
            if "early" not in done:
                from kniffel.core import early_rows_ready

                seconds = 0.0 if early_rows_ready(self.rules) else tables.early_seconds[1]
                steps.append(Step(Work(EARLY, seconds, 0, fields), self._maker("early")))
        return steps

    def _maker(self, name: str) -> Callable[[Progress | None], object]:
        """Makes the table ``name`` (one of the cached properties) told of its progress."""
        return lambda progress: self._with(progress, lambda: getattr(self, name))

    def _with(self, progress: Progress | None, make: Callable[[], object]) -> object:
        """``make()`` with ``progress`` told of what it solves."""
        self._progress = progress
        try:
            return make()
        finally:
            self._progress = None

    def prepare(
        self, aims: Collection[int], shown: Callable[[Work], AbstractContextManager[Progress | None]]
    ) -> None:
        """Make what players of ``aims`` need now, each table in ``shown(work)`` (a progress bar that
        names it and its cost, say), rather than in the middle of the first block of games."""
        if aims and "solution" not in self.__dict__:
            with shown(Work(SOLUTION, 0.0, 0, (("rules", self.rules.id),))) as progress:
                self._maker("solution")(progress)
        for step in self.steps(aims):
            with shown(step.work) as progress:
                step.make(progress)


__all__ = ["CONE", "DISTRIBUTIONS", "EARLY", "SOLUTION", "TARGETS", "PlayTables", "Step"]
