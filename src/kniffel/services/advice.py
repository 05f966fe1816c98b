"""Advice: every option of a position valued for a goal, one road for every front end.

:func:`options` is the one way from a question to its answer: the command line's ``kniffel advise`` (a
table text, or a column's sheet and dice), the web's hints and analysis, the terminal game's hints and
the review all ask it. A :class:`Position` is what they ask about, a whole table (a game, or the
:class:`~kniffel.engine.situation.Situation` a table text describes) or one column alone (a
:class:`~kniffel.core.position.ColumnPosition` of a one-column rule set); the goal, parsed once by the
front end, is handed down as it is, and its planner (:meth:`kniffel.planning.interface.Goal.planner`)
answers. The answer is one :class:`Advice`: the options with their values, their unit, whether they are
exact, how to read chances of a final score (:class:`~kniffel.planning.interface.Reach`: read at the
tables' limit, they are upper bounds) and, for a caller that would not wait, what is being solved
meanwhile (:class:`Preparing`).

:func:`hints` is what every game's hint shows, on the same road: the options for points, and in a game
of several players each one's chance of winning. A batch of single-column positions goes faster, in
compiled blocks (:mod:`kniffel.services.batch`), with the advisor its goal's planner hands out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kniffel.base.errors import SituationError
from kniffel.base.i18n import N_
from kniffel.core import ColumnPosition, Progress, ThrowProblem, throw_problem
from kniffel.engine.actions import Action, Score, Strike
from kniffel.engine.game import Game
from kniffel.engine.sheet import ScoreSheet
from kniffel.engine.situation import Situation
from kniffel.planning import POINTS, WIN, is_exact, planner_for, win_tables
from kniffel.planning.exact import advisor_job
from kniffel.planning.interface import Choice, Goal, OthersNeeded, Reach, Unit, uncovered
from kniffel.planning.worker import Job, NotReady, Refusal, Work
from kniffel.rules import RulesError, RuleSet
from kniffel.rules import get as get_rules


def check_position(rules: RuleSet, s: ColumnPosition) -> None:
    """Range checks that name the fields of a position as a query gives them (the advisor checks the
    rest)."""
    problem = throw_problem(rules, s.rolls_left, s.free_throws_left, s.free_throws_used)
    if problem == ThrowProblem.ROLLS_LEFT:
        raise SituationError(f"rolls left must be 0 to {rules.rolls - 1}, got {s.rolls_left}")
    if len(s.sheet) == len(rules.boxes):
        raise SituationError("the sheet is full: there is nothing to advise")
    ScoreSheet(rules, dict(s.sheet)).check_fill_order()
    if problem == ThrowProblem.NO_FREE_THROWS:
        raise SituationError(f"{rules.id} has no free throws")
    if problem == ThrowProblem.FREE_LEFT:
        raise SituationError(f"free throws left must be 0 to {rules.free_throws}, got {s.free_throws_left}")
    if problem == ThrowProblem.FREE_USED:
        raise SituationError(
            f"free throws used must be 0 to {rules.free_throws_per_turn}, got {s.free_throws_used}"
        )
    if problem == ThrowProblem.FREE_BEFORE_ROLLS:
        raise SituationError("free throws come after the regular rolls: rolls left must be 0")


# --- the question and its answer ------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """What advice is asked about: the player to move at a whole table (``at`` a game: every sheet, so
    that the chance of winning can be told), or one column alone (``at`` a position of the one-column
    ``rules``, as ``kniffel advise --sheet --dice`` and batch lines give it). Made by :meth:`of_game`,
    :meth:`of_situation` or :meth:`of_column`, which check what they are given."""

    rules: RuleSet
    at: Game | ColumnPosition

    @classmethod
    def of_game(cls, game: Game) -> Position:
        return cls(game.rules, game)

    @classmethod
    def of_situation(cls, situation: Situation) -> Position:
        """The table a table text describes; ``SituationError`` before the turn's first roll."""
        if situation.dice is None:
            raise SituationError("the situation has no dice yet: advice starts after the turn's first roll")
        return cls.of_game(Game.from_situation(situation))

    @classmethod
    def of_column(cls, rules: RuleSet, position: ColumnPosition) -> Position:
        """A column's position alone (``rules`` of one column), checked as a query gives it
        (:func:`check_position`)."""
        check_position(rules, position)
        return cls(rules, position)

    @property
    def alone(self) -> bool:
        """Whether nobody else is at the table: a column asked about alone, or a game of one."""
        return not isinstance(self.at, Game) or len(self.at.players) == 1


@dataclass(frozen=True)
class Advice:
    """The answer to a question (:func:`options`)."""

    goal: Goal
    """The goal asked about."""
    played: Goal
    """The goal the values are for: the one asked, or what its planner plays instead where the rules
    leave no choice (the chance of winning on a sheet the solver does not cover is played for points)."""
    options: tuple[Choice, ...] = ()
    """Every option, best first (none while :attr:`preparing`, or with nothing to decide)."""
    exact: bool = True
    """Whether the values are those of optimal play (else the column estimate's)."""
    reach: Reach | None = None
    """How to read chances of a final score: the score, the points still needed, the tables' limit
    when the chances are read there (upper bounds); None for other goals."""
    preparing: Preparing | None = None
    """What is being solved while the caller would not wait (then there are no options yet)."""

    @property
    def unit(self) -> Unit:
        """What the values count."""
        return self.played.unit

    @property
    def upper_bound(self) -> bool:
        """Whether the values are upper bounds (chances read at the tables' limit), not the chances."""
        return self.reach is not None and self.reach.limit is not None


def options(
    position: Position,
    goal: Goal,
    *,
    wait: bool = True,
    progress: Progress | None = None,
    directory: Path | None = None,
    strict: bool = False,
) -> Advice:
    """Every option of ``position`` valued for ``goal`` by its planner, best first. The first question
    of a rule set may solve tables (seconds; ``progress(done, total)`` follows a solve that reports it);
    with ``wait`` false, what must be solved goes to the worker and the answer says so
    (:attr:`Advice.preparing`). ``strict`` refuses what the goal's planner cannot play as asked rather
    than answer what it plays instead: a goal against the other players at a position without them
    (:class:`~kniffel.planning.interface.OthersNeeded`), a goal played for another on these rules
    (:class:`~kniffel.planning.interface.PlanningError`)."""
    rules = position.rules
    if strict and position.alone and goal.alone() != goal:
        raise OthersNeeded(goal)
    planner = planner_for(rules, goal, directory=directory, wait=wait)
    if strict and planner.goal != goal:
        raise uncovered(rules, goal)
    reach = planner.reach(position.at)
    try:
        found = planner.choices(position.at, progress)
    except NotReady as not_ready:
        preparing = Preparing.of(not_ready, rules)
        return Advice(goal, planner.goal, (), planner.exact, reach, preparing)
    return Advice(goal, planner.goal, tuple(found), planner.exact, reach)


PAST_THE_LIMIT = N_(
    "Past {limit} more points the tables stop: these are the chances of {limit} more, upper bounds"
)
"""What a front end says under chances read at the tables' limit (:attr:`Advice.upper_bound`)."""


# --- while tables are solved -------------------------------------------------------------------------------


def compiling_seconds() -> float | None:
    """How long this process has been compiling kernels, if it is (:func:`kniffel.core.runtime.kernelcache.
    compiling`)."""
    from kniffel.core import compiling

    found = compiling()
    return None if found is None else found.seconds


def about(seconds: float) -> str:
    """A rough duration: ``5 s``, ``90 s``, ``3 min``."""
    if seconds < 120:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"


def megabytes(size: int) -> str:
    return f"{max(1, round(size / 1e6))} MB"


@dataclass(frozen=True)
class Preparing:
    """An answer is not there yet: the worker solves what it needs (:mod:`kniffel.planning.worker`). What
    a front end says meanwhile (points while chances of winning wait; the quick bot's order while the
    points table does)."""

    work: Work
    """What is solved and what it costs (its sentence is a template for the front end to translate)."""
    fraction: float | None
    """How much is done, 0 to 1 (None: not started)."""
    solving: bool = True
    """False when nothing solves it (win tables are not prepared in the background here)."""
    compiling: float | None = field(default_factory=compiling_seconds)
    """Seconds this process has been compiling kernels (a first use), when it is: until they are
    compiled the solve cannot start or stands still, and its estimate leaves them out."""
    reason: NotReady | None = field(default=None, compare=False, repr=False)
    """The planner's word that made it, for a caller that raises it on (a review)."""
    refused: Refusal | None = None
    """The table cache's budget refused the solve: nothing solves it until the budget is raised."""
    elapsed: float | None = None
    """Seconds since the solve started (None: it waits for its turn)."""

    @classmethod
    def of_job(cls, job: Job[Any], reason: NotReady | None = None) -> Preparing:
        """What ``job`` is doing: solving, or refused by the table cache's budget."""
        if job.refusal is not None:
            return cls(job.work, None, refused=job.refusal, compiling=None, reason=reason)
        elapsed = None if job.started is None else max(0.0, time.monotonic() - job.started)
        return cls(job.work, job.fraction, reason=reason, elapsed=elapsed)

    def left(self) -> float | None:
        """Seconds the solve still takes at the pace it has kept so far (its time over the share done),
        once enough of it is done to tell; None before."""
        done, spent = self.fraction, self.elapsed
        if done is None or spent is None or done < MEASURED or spent < 1:
            return None
        return spent * (1 - done) / done

    @classmethod
    def of(cls, not_ready: NotReady, rules: RuleSet | None = None) -> Preparing:
        """What ``not_ready`` waits for; with ``rules``, missing early win tables are started first (a
        front end that shows chances of winning says so: this note)."""
        job = not_ready.job
        if job is None and not_ready.early and rules is not None:
            job = win_tables(rules).prepare()
        if job is None:
            return cls(not_ready.work, None, solving=False, reason=not_ready)
        return cls.of_job(job, not_ready)

    def note(self, translate: Callable[..., str]) -> str:
        """What a front end says meanwhile, translated by ``translate(english, **fields)``: what is
        solved, roughly how long and how big (before it starts, as this machine solved such work
        before; once it runs, at the pace it keeps), how far it is, and that points are shown
        meanwhile. The rule set is named as people know it."""
        fields = dict(self.work.fields)
        if "rules" in fields:
            fields["rules"] = rules_name(fields["rules"], translate)
        what = translate(self.work.template, **fields)
        if self.refused is not None:
            return refusal_note(self.refused, what, translate)
        if not self.solving:
            return translate(
                "Chances of winning show once the win tables are solved ({what}: kniffel cache prepare "
                "--rules {rules}).",
                what=what,
                rules=dict(self.work.fields).get("rules", ""),
            )
        if self.compiling is not None:
            return translate(
                "{what}: compiling the solver first, only on its first use ({time} so far). Points "
                "meanwhile.",
                what=what,
                time=about(self.compiling),
            )
        done = (
            ""
            if self.fraction is None
            else translate(", {percent} percent done", percent=round(100 * self.fraction))
        )
        left = self.left()
        if left is not None:
            return translate(
                "{what}: about {time} left{done}. Points meanwhile.", what=what, time=about(left), done=done
            )
        if self.elapsed is not None and self.elapsed > self.work.seconds:  # slower than expected
            return translate(
                "{what}: {time} so far{done}. Points meanwhile.",
                what=what,
                time=about(self.elapsed),
                done=done,
            )
        cost = about(self.work.seconds)
        if self.work.bytes:
            cost = translate("{time}, {size} on disk", time=cost, size=megabytes(self.work.bytes))
        return translate("{what}: about {cost}{done}. Points meanwhile.", what=what, cost=cost, done=done)


MEASURED = 0.03
"""The share of a solve done past which its own pace tells how long the rest takes."""


def rules_name(rules_id: str, translate: Callable[..., str]) -> str:
    """A rule set as people know it ("Kniffel (Schmidt)"), translated by ``translate``; an id that names
    no built-in rule set as it is."""
    try:
        return translate(get_rules(rules_id).name)
    except RulesError:
        return rules_id


def refusal_note(refused: Refusal, what: str, translate: Callable[..., str]) -> str:
    """What a front end says of a solve the table cache's budget refused: the size it needs, the budget
    and how to raise it (to the next whole gigabyte above what the cache would then hold)."""
    suggested = f"{-(-(refused.needs + refused.budget) // 1_000_000_000)}GB"
    return translate(
        "{what}: needs {needs} on disk, more than the table cache's budget of {budget} allows. Raise it "
        "(kniffel serve --cache-budget {suggested}, or KNIFFEL_CACHE_BUDGET={suggested}). Points meanwhile.",
        what=what,
        needs=megabytes(refused.needs),
        budget=megabytes(refused.budget),
        suggested=suggested,
    )


# --- hints -------------------------------------------------------------------------------------------------


def plays_to_win(game: Game) -> bool:
    """Whether chances of winning can be told in ``game``: several players, rules the exact solver
    covers."""
    return len(game.players) > 1 and is_exact(game.rules)


def points_table_pending(rules: RuleSet) -> bool:
    """Whether hints for ``rules`` wait for their points table to be solved (it is not in memory or on
    disk): the worker solves it meanwhile (:func:`kniffel.planning.exact.advisor_job`), and a front end
    that waits for the hints shows the quick bot's order (:func:`kniffel.planning.quick_choices`)."""
    if not is_exact(rules):
        return False
    job = advisor_job(rules)
    return job is not None and not job.done()


@dataclass(frozen=True)
class Hints:
    """What a hint shows: the options of the player to move valued for points, and beside them (a game
    of several players on rules the exact solver covers) each one's chance of finishing first."""

    points: Advice
    wins: Mapping[Action, float] | Preparing | None = None
    """Each option's chance of winning; :class:`Preparing` while its tables are solved (the first time
    for a rule set a minute or so, late in a game a second or two); None where it cannot be told."""

    def chances(self, choices: Sequence[Choice]) -> list[float | None] | Preparing | None:
        """The chance of winning of each of ``choices`` (None for one it does not list), or what
        :attr:`wins` says instead."""
        if isinstance(self.wins, Mapping):
            return [self.wins.get(c.action) for c in choices]
        return self.wins


def hints(game: Game, *, wait: bool = True) -> Hints:
    """The hints for the player to move (:class:`Hints`): the points, waiting for their table unless
    ``wait`` is false (then :attr:`Advice.preparing` says what is solved meanwhile), and the chances of
    winning, which are never waited for."""
    position = Position.of_game(game)
    points = options(position, POINTS, wait=wait)
    if points.preparing is not None or not plays_to_win(game) or game.is_over:
        return Hints(points)
    wins = options(position, WIN, wait=False)
    return Hints(points, wins.preparing or {c.action: c.value for c in wins.options})


def pruned(choices: Sequence[Choice], count: int | None = None) -> list[Choice]:
    """The ``count`` best of ``choices`` (all with None) as the terminal front ends list them: a strike
    is left out where scoring the same box is listed too (scoring never pays less)."""
    scored = {c.action.box for c in choices if isinstance(c.action, Score)}
    shown = [c for c in choices if not (isinstance(c.action, Strike) and c.action.box in scored)]
    return shown[:count]


__all__ = [
    "PAST_THE_LIMIT",
    "Advice",
    "Hints",
    "Position",
    "Preparing",
    "about",
    "check_position",
    "compiling_seconds",
    "hints",
    "megabytes",
    "options",
    "plays_to_win",
    "points_table_pending",
    "pruned",
]
