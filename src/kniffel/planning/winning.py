"""Playing for a target and playing to win: the tables they read, final scores, chances of winning, and
their planners (:mod:`kniffel.planning.goals` names the goals).

The goal planners read tables that take time to solve the first time (:class:`WinTables`): the target
rows and score distributions of early sheets are solved once per rule set and kept on disk (half a
minute, a hundred-odd megabytes); those of later sheets are solved for the cone of the position asked
about (a second or two) and held in memory for the rest of the game. The early target rows look no
further than their horizon (:func:`kniffel.core.early.horizon_level`): from there on they take play
for points, whose chances the distributions give, so that they are solved over a quarter of the states.
A target question is never answered from them (its cone is exact); a game to win reads them for its
first turns only (Yahtzee's and Kniffel's first four). A planner made with ``wait=False`` never solves
anything itself: what it lacks goes to the process's worker (:mod:`kniffel.planning.worker`) and
:class:`NotReady` says so, so that a front end can show points meanwhile.

How the chance of finishing first is told (:class:`WinPlanner`, :func:`win_chances`): each other player is
taken to play for points from where they stand, so their final score has the exact distribution of
optimal expected-score play (:mod:`kniffel.core.distribution`), independent of the others'. A tie among
``k`` players is worth ``1/k`` of a win, so that the chances of a game add up to 1, unless the table's house
rule makes it a win for every tied player (:func:`kniffel.rules.tie_wins_all`). Either way the player to
move wins by reaching the others' *bar* (:func:`kniffel.core.bar`): their best, or with shared ties their
best plus one with the chance that a tie goes against the player, as if a lot settled it. ``P(win) = sum
over the bar s of P(bar = s) * P(I make at least s - what I have)``, the second factor from the target
rows. The rest of the turn is played for that sum, later turns by each target's own policy, so the chance
is an overestimate while others still play (from exact rows, 3-4 points of percentage at the start of a
game; the early rows, played for points past their horizon, come within about half a point of how
often ``bot:win`` wins there: ``benchmarks/win_early.py``); once every other player has finished, their
bar is known and the chance is exact: it is target play (for the bar, a tie shared).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from kniffel.base.arrays import F64
from kniffel.base.i18n import N_
from kniffel.core import (
    Advisor,
    Cancel,
    ColumnPosition,
    DistributionTable,
    OptionRanker,
    Progress,
    RowsQuestion,
    ScoreDistribution,
    SheetState,
    TargetAdvisor,
    TargetRows,
    banked_points,
    bar,
    chance_at_least,
    cone_size,
    default_limit,
    distribution_table,
    early_horizon,
    early_levels,
    early_rows,
    early_rows_ready,
    early_table_ready,
    early_tables,
    held_table,
    horizon_level,
    is_early,
    lane_layout,
    level_of,
    read_at_limit,
    situation_distribution,
    state_distribution,
    table_for,
)
from kniffel.engine.game import Game
from kniffel.engine.sheet import ScoreSheet
from kniffel.planning.exact import (
    advisor_for,
    column_position,
    free_throws_arg,
    is_exact,
    legal_choices,
    optimal_choices,
    ranker_for,
    rules_key,
)
from kniffel.planning.interface import Choice, Goal, OthersNeeded, Reach, uncovered
from kniffel.planning.worker import Job, NotReady, Work, worker
from kniffel.rules import RuleSet, tie_wins_all

T = TypeVar("T")


# --- the tables goal planners read --------------------------------------------------------------------------


PREPARE_ENV = "KNIFFEL_PREPARE_WIN_TABLES"
"""Set to 0, front ends do not start the early win tables in the background (15-20 s or more of both
processors the first time for a rule set): chances of winning then show only where they are there
already (solved before by ``kniffel cache prepare``, ``kniffel advise --goal win`` or
:func:`prepare_tables`), as a server short of processors may want. A position's own cone past them is
still solved on the worker when asked for (seconds at most)."""


def preparing_allowed() -> bool:
    """Whether front ends may hand win tables to the worker (see :data:`PREPARE_ENV`)."""
    import os

    return os.environ.get(PREPARE_ENV, "1").strip() != "0"


def prepare_tables(rules: RuleSet, directory: Path | None = None) -> None:
    """Solve (or load) the early win tables of ``rules`` now (15-20 s of two processors the first time for
    a full rule set, nothing once they are on disk)."""
    tables = win_tables(rules, directory)
    if not tables.early_ready():
        tables.solve_early()


SECONDS_PER_VALUE = 3.5e-7
"""Solving a target row costs about this per probability until this machine's own pace is measured
(:func:`seconds_per_value`; 2 processors, Yahtzee's cone of a target from the empty sheet and its early
rows: about 1.7e-7 on a Zen 4, about 6e-7 on a Zen 1; this lies between)."""


def seconds_per_value() -> float:
    """What solving a target row costs per probability here: the pace this machine's solves were
    measured at (:mod:`kniffel.core.runtime.pace`), or :data:`SECONDS_PER_VALUE` before the first."""
    from kniffel.core import TARGET_ROWS, rate

    return rate(TARGET_ROWS, SECONDS_PER_VALUE)


SECONDS_PER_LANE = 1.4e-5
"""Solving a score distribution costs about this per state until this machine's own pace is measured
(:func:`seconds_per_lane`; 2 processors, Yahtzee's full table within ``kniffel cache prepare``: 5.4 s
for 404,160 states)."""


def seconds_per_lane() -> float:
    """What solving a score distribution costs per state here: the pace this machine's tables were built
    at (:mod:`kniffel.core.runtime.pace`), or :data:`SECONDS_PER_LANE` before the first."""
    from kniffel.core import DISTRIBUTIONS, rate

    return rate(DISTRIBUTIONS, SECONDS_PER_LANE)


class WinTables:
    """What the goal planners of one rule set read, and how to get it without waiting.

    Early sheets (:func:`kniffel.core.early.early_levels`) are answered by the early tables on disk;
    once they are missing, one job of the worker solves both (:meth:`early_work` says how long and how
    big, so a front end can tell people first). Later sheets are answered by cones solved for the
    position asked about (a second or two) and held in memory. Each method takes ``wait``: solve what is
    missing now (a library call, a bot), or hand it to the worker and raise :class:`NotReady`."""

    def __init__(self, rules: RuleSet, directory: Path | None = None) -> None:
        self.rules = rules
        self.directory = directory
        self.key: tuple[Hashable, ...] = (*rules_key(rules), str(directory))

    @cached_property
    def advisor(self) -> Advisor:
        return advisor_for(self.rules, self.directory)

    @cached_property
    def ranker(self) -> OptionRanker:
        """Reads sheets and ranks options without a table of points (:func:`ranker_for`): a target's
        chances are read from rows that need none."""
        return ranker_for(self.rules, self.directory)

    @property
    def compiled(self) -> Any:
        return self.ranker.compiled

    # --- the early tables ---

    def early_ready(self) -> bool:
        """Whether the early tables are on disk (cheap: their descriptions are read)."""
        return early_table_ready(self.rules, self.directory) and early_rows_ready(self.rules, self.directory)

    def early_work(self) -> Work:
        """What solving the early tables costs, roughly, before it starts (worked out once)."""
        return self._early_work

    @cached_property
    def _early_work(self) -> Work:
        return Work(
            N_("Solving the win tables of {rules} (once; kept on disk)"),
            sum(self.early_seconds),
            early_tables(self.compiled).bytes,
            self._fields,
        )

    @cached_property
    def early_seconds(self) -> tuple[float, float]:
        """What solving the distributions and the early rows costs, roughly: every state's distribution,
        and the rows of every state before the horizon (:func:`kniffel.core.early.horizon_level`),
        each as far as it can reach."""
        early = early_tables(self.compiled)
        return early.lanes * seconds_per_lane(), early.solved_values * seconds_per_value()

    @property
    def _fields(self) -> tuple[tuple[str, str], ...]:
        return (("rules", self.rules.id),)

    def solve_early(self, progress: Progress | None = None, cancel: Cancel | None = None) -> bool:
        """Solve (or load) both early tables now; ``progress(done, 1000)``."""
        return self._solve_early(cancel or (lambda: False), progress or (lambda done, total: None))

    def _solve_early(self, cancel: Cancel, progress: Progress) -> bool:
        solution = self.advisor.solution
        c = self.compiled
        # one progress for both solves, weighted by what they cost
        first_seconds, second_seconds = self.early_seconds
        share = first_seconds / max(first_seconds + second_seconds, 1e-9)
        scale = 1000

        def first(done: int, total: int) -> None:
            progress(int(scale * share * done / max(total, 1)), scale)

        def second(done: int, total: int) -> None:
            progress(int(scale * (share + (1 - share) * done / max(total, 1))), scale)

        # the distributions, and the rows of the early rows' horizon on the way: the rows start from them
        horizon = None
        if horizon_level(c) is None:
            distribution_table(solution, directory=self.directory, progress=first, cancel=cancel)
        else:
            horizon = early_horizon(c, solution, directory=self.directory, progress=first, cancel=cancel)
        early_rows(c, directory=self.directory, distributions=horizon, progress=second, cancel=cancel)
        return True

    def prepare(self) -> Job[bool] | None:
        """Hand the early tables to the worker unless they are there (then None) or front ends may not
        (:data:`PREPARE_ENV`; then None too)."""
        if self.early_ready() or not preparing_allowed():
            return None
        return worker().submit((*self.key, "early"), self.early_work(), self._solve_early)

    # --- target rows and distributions ---

    def rows(
        self,
        state: SheetState,
        first: int,
        last: int,
        *,
        turn: bool,
        wait: bool,
        early: bool,
        progress: Progress | None = None,
    ) -> TargetRows:
        """Rows answering targets ``first .. last`` from ``state`` (see
        :class:`kniffel.core.target.RowsQuestion`). ``early``: for an early state, solve the early tables
        (and keep them) rather than the state's own cone. ``progress`` follows a solve made here."""
        c = self.compiled
        if early and is_early(c, state, turn):
            if self.early_ready() or wait:
                return RowsQuestion(c, state, first, last, turn, self.directory).rows(progress=progress)
            raise NotReady(self.early_job(), self.early_work(), early=True)
        # the question's targets are the job's key too: questions past the limit share it
        question = RowsQuestion(c, state, first, last, turn, self.directory, early=False)
        found = question.held()
        if found is not None:
            return found
        if wait:
            return question.rows(progress=progress)
        job = self._submit(
            ("rows", state, question.first, question.last, turn),
            lambda: Work(
                N_("Solving the chances of a {rules} position"),
                cone_size(c, state, question.first, question.last) * seconds_per_value(),
                0,
                self._fields,
            ),
            question.rows,
        )
        raise NotReady(job, job.work)

    def distribution(
        self, sheet: dict[str, int], free_throws_left: int | None, *, turn: bool, wait: bool
    ) -> DistributionTable:
        """A distribution table covering ``sheet`` (with ``turn``, also the sheets its turn leads to)."""
        solution = self.advisor.solution
        state = self.advisor.state(sheet, free_throws_left)
        is_early = level_of(state.mask) + int(turn) <= early_levels(self.compiled)
        if is_early and not wait and not early_table_ready(self.rules, self.directory):
            raise NotReady(self.early_job(), self.early_work(), early=True)
        found = held_table(solution, state, turn=turn, directory=self.directory)
        if found is not None:
            return found
        if wait or is_early:  # an early sheet whose table is on disk: loaded, not solved
            return table_for(solution, sheet, free_throws_left, turn=turn, directory=self.directory)
        job = self._submit(
            ("dist", state.mask),
            lambda: Work(
                N_("Solving the final scores of a {rules} position"),
                lane_layout(self.compiled, state.mask).n_lanes * seconds_per_lane(),
                0,
                self._fields,
            ),
            lambda cancel, progress: table_for(
                solution, sheet, free_throws_left, turn=turn, directory=self.directory, cancel=cancel
            ),
        )
        raise NotReady(job, job.work)

    def early_job(self) -> Job[bool] | None:
        """The job solving the early tables, if the worker has one (queued or running). Only a front end
        starts one (:meth:`prepare`): it says so to people; a planner never does."""
        return worker().job((*self.key, "early"))

    def _submit(
        self, key: tuple[Hashable, ...], work: Callable[[], Work], run: Callable[[Cancel, Progress], T]
    ) -> Job[T]:
        """The worker's job for ``key``: the one it has, or a new one (``work()`` says what it costs,
        worked out only then). Not held back by :data:`PREPARE_ENV`: a position's own cone is small
        (seconds at most), and without it chances would stop once a game leaves the early tables."""
        found: Job[T] | None = worker().job((*self.key, *key))
        return found if found is not None else worker().submit((*self.key, *key), work(), run)


_tables: dict[tuple[Hashable, ...], WinTables] = {}
_tables_lock = threading.Lock()


def win_tables(rules: RuleSet, directory: Path | None = None) -> WinTables:
    """The :class:`WinTables` of a rule set (one per process and directory)."""
    key = (*rules_key(rules), str(directory))
    with _tables_lock:
        found = _tables.get(key)
        if found is None or found.rules != rules:
            found = _tables[key] = WinTables(rules, directory)
        return found


# --- final scores -------------------------------------------------------------------------------------------


def scored(sheet: ScoreSheet) -> int:
    """The points a sheet holds now: boxes, upper bonuses and extra bonuses, not the unused free throws
    (those are still to come in the solver's tables)."""
    return sum(t.total - t.free_throws for t in sheet.totals)


def final_scores(
    game: Game, player: int, directory: Path | None = None, *, wait: bool = True
) -> ScoreDistribution:
    """The distribution of ``player``'s final score when playing for points from where they stand (the
    exact distribution of optimal expected-score play, :mod:`kniffel.core.distribution`); with
    ``wait`` false, :class:`NotReady` while its table is solved."""
    sheet = game.sheets[player]
    if sheet.is_full:
        return ScoreDistribution.certain(sheet.total)
    rules = game.rules
    column = rules.columns[0]
    tables = win_tables(rules, directory)
    extra = sheet.extra_bonus.get(column.id, 0)
    if player == game.current and game.turn.dice is not None:
        at = column_position(game)
        assert at is not None
        table = tables.distribution(dict(at.sheet), at.free_throws_left, turn=True, wait=wait)
        found = situation_distribution(table, at, extra_bonus=extra)
    else:
        left = free_throws_arg(rules, sheet.free_throws_left(column))
        table = tables.distribution(dict(sheet.entries), left, turn=False, wait=wait)
        found = state_distribution(table, dict(sheet.entries), left, extra_bonus=extra)
    return found


def win_chances(game: Game, directory: Path | None = None, *, wait: bool = True) -> list[float]:
    """Every player's chance of finishing first, each playing for points from where they stand: a tie
    among ``k`` players worth ``1/k`` of a win (the chances add up to 1), or under the house rule
    :func:`kniffel.rules.tie_wins_all` a win for each tied player. Single-column rule sets the solver
    covers; with ``wait`` false, :class:`NotReady` while a table is solved."""
    scores = [final_scores(game, p, directory, wait=wait) for p in range(len(game.players))]
    shared = not tie_wins_all(game.rules)
    chances = []
    for p, own in enumerate(scores):
        others = [s for q, s in enumerate(scores) if q != p]
        if not others:
            chances.append(1.0)
            continue
        chances.append(chance_at_least(own, bar(others, shared=shared)))
    return chances


# --- planners ----------------------------------------------------------------------------------------------


class GoalPlanner:
    """What the target and win planners share: the rules, the goal, the tables, whether to wait for them.
    They play the rule sets the exact solver covers."""

    exact = True

    def __init__(
        self, rules: RuleSet, goal: Goal, directory: Path | None = None, *, wait: bool = True
    ) -> None:
        if not is_exact(rules):
            raise uncovered(rules, goal)
        self.rules = rules
        self.goal = goal
        self.directory = directory
        self.wait = wait
        self.tables = win_tables(rules, directory)

    def ranked(self, game: Game, choices: list[Choice]) -> list[Choice]:
        """Options equally good for the goal (a game won or lost whatever happens, say) in the order of
        their points (optimal play for points breaks the ties)."""
        if len({c.value for c in choices}) < len(choices):
            points = optimal_choices(game, self.tables.advisor)
            by_points = {c.action: rank for rank, c in enumerate(points)}
            choices.sort(key=lambda c: by_points.get(c.action, len(by_points)))
            choices.sort(key=lambda c: -c.value)
        return choices

    def _choices(
        self, at: Game | ColumnPosition, first: int, weights: F64, *, early: bool, progress: Progress | None
    ) -> list[Choice]:
        """Every legal action valued by ``sum(weights[i] * P(making at least first + i more))``: of a
        game's player to move (ties in the order of their points), or every option of a column alone
        as the advisor lists them."""
        position = column_position(at) if isinstance(at, Game) else at
        if position is None:
            return []
        ranker = self.tables.ranker
        state = ranker.state(position.sheet, position.free_throws_left)
        last = first + len(weights) - 1
        rows = self.tables.rows(state, first, last, turn=True, wait=self.wait, early=early, progress=progress)
        options = TargetAdvisor(ranker, rows).option_values(position, first, weights)
        if not isinstance(at, Game):
            return [Choice(o.action, o.value) for o in options]

        def struck(box: str) -> float:
            after = ranker.state({**position.sheet, box: 0}, position.free_throws_left)
            return float(np.dot(weights, rows.curve(after, first, len(weights))))

        return self.ranked(at, legal_choices(at, {o.action: o.value for o in options}, struck))


class TargetPlanner(GoalPlanner):
    """Every legal action valued by the largest probability of finishing with at least the score its
    goal aims at (:meth:`Goal.aim`: ``target:250`` aims at 250)."""

    def __init__(
        self, rules: RuleSet, goal: Goal, directory: Path | None = None, *, wait: bool = True
    ) -> None:
        super().__init__(rules, goal, directory, wait=wait)
        self.target = goal.aim()
        if self.target < 0:
            raise ValueError(f"{goal} is not played for a final score")

    def needed(self, at: Game | ColumnPosition) -> int:
        """The points still to make: the target less what the sheet holds (a column alone holds its
        boxes and its upper bonus: extra bonuses earned are not part of a box-by-box sheet)."""
        if isinstance(at, Game):
            return self.target - scored(at.sheet)
        return self.target - banked_points(self.rules, at.sheet)

    def choices(self, at: Game | ColumnPosition, progress: Progress | None = None) -> list[Choice]:
        # a target asks for its own cone: cheaper than the early tables, which cover every target
        return self._choices(at, self.needed(at), np.ones(1), early=False, progress=progress)

    def reach(self, at: Game | ColumnPosition) -> Reach:
        needed = self.needed(at)
        position = column_position(at) if isinstance(at, Game) else at
        if position is None:
            return Reach(self.target, needed, None)
        ranker = self.tables.ranker
        c = ranker.compiled
        state = ranker.state(position.sheet, position.free_throws_left)
        return Reach(self.target, needed, default_limit(c) if read_at_limit(c, state, needed) else None)

    def column_advisor(self, progress: Progress | None = None) -> TargetOptions:
        return TargetOptions(self.tables.ranker, self.target, progress)


class WinPlanner(GoalPlanner):
    """Every legal action valued by the chance of finishing first (see the module docstring). Alone at
    the table it plays for points; a column alone has no others to beat (:class:`OthersNeeded`)."""

    def others(self, game: Game) -> ScoreDistribution:
        """The bar of the players other than the one to move (:func:`kniffel.core.bar`): the final score
        to reach to win against them, a tie counted as the rules count it."""
        return bar(
            [
                final_scores(game, p, self.directory, wait=self.wait)
                for p in range(len(game.players))
                if p != game.current
            ],
            shared=not tie_wins_all(self.rules),
        )

    def choices(self, at: Game | ColumnPosition, progress: Progress | None = None) -> list[Choice]:
        if not isinstance(at, Game):
            raise OthersNeeded(self.goal)
        if len(at.players) == 1:
            return optimal_choices(at, self.tables.advisor)
        if at.is_over or at.turn.dice is None:
            return []  # nothing to decide: the others' scores are not asked for
        others = self.others(at)
        # I win by reaching the others' bar: P(win) = sum over the bar s of P(bar = s) * P(I make at
        # least s - what I have)
        first = others.low - scored(at.sheet)
        return self._choices(at, first, others.probabilities, early=True, progress=progress)

    def reach(self, at: Game | ColumnPosition) -> Reach | None:
        return None

    def column_advisor(self, progress: Progress | None = None) -> TargetOptions:
        raise OthersNeeded(self.goal)


class TargetOptions:
    """What a batch of single-column positions asks when it plays for a final score: every option's
    probability of reaching it, from any position of a game (the rows of the empty sheet's cone, solved
    once). A sheet's points so far are its boxes and upper bonus (extra bonuses earned are not part of a
    box-by-box sheet)."""

    def __init__(self, ranker: OptionRanker, target: int, progress: Progress | None = None) -> None:
        self.target = target
        question = RowsQuestion(ranker.compiled, ranker.state({}), target, target, turn=False, early=False)
        rows = question.rows(progress=progress)
        self.advisor = TargetAdvisor(ranker, rows)

    def needed(self, sheet: Mapping[str, int]) -> int:
        return self.target - self.advisor.scored(sheet)

    def upper_bound(self, position: ColumnPosition) -> bool:
        """Whether the chances of ``position`` are read at the rows' limit, upper bounds rather than the
        chances (:meth:`kniffel.core.target.TargetAdvisor.upper_bound`): the target asks for more points
        than a game makes with at most one extra five of a kind."""
        state = self.advisor.ranker.state(position.sheet, position.free_throws_left)
        return self.advisor.upper_bound(state, self.needed(position.sheet))

    def options(self, position: ColumnPosition) -> Sequence[object]:
        return self.advisor.options(position, self.needed(position.sheet))


def with_patience(job: Job[T] | None, seconds: float) -> bool:
    """Wait for ``job`` if it is expected to take at most ``seconds`` (a cone), not for a long one (the
    early tables); whether it is done."""
    if job is None:
        return False
    if job.work.seconds > seconds:
        return job.done()
    return job.wait(timeout=max(1.0, 10 * job.work.seconds))


def ready_or(make: Callable[[], T], fallback: Callable[[NotReady], T]) -> T:
    """``make()``, or ``fallback(not_ready)`` while its tables are solved."""
    try:
        return make()
    except NotReady as not_ready:
        return fallback(not_ready)


__all__ = [
    "PREPARE_ENV",
    "GoalPlanner",
    "TargetOptions",
    "TargetPlanner",
    "WinPlanner",
    "WinTables",
    "final_scores",
    "prepare_tables",
    "preparing_allowed",
    "ready_or",
    "scored",
    "win_chances",
    "win_tables",
    "with_patience",
]
