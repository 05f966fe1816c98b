"""How one strategy plays many games of one rule set, resolved once into a plan that plays them.

Strategies are the bots of :mod:`kniffel.bots`: ``bot`` (the heuristic), ``bot:optimal`` or any
``bot:NAME``. :func:`resolve` reads the strategy and the rules once and says how its games are played; a
simulation (:mod:`kniffel.services.simulate`) plays every block of its games by that plan, and a
tournament (:mod:`kniffel.services.tournament`) asks each player's plan what it does at a table played
all at once (:attr:`Plan.role`).

Each game is played through :class:`~kniffel.engine.game.Game` (:class:`Engine`), on every rule set,
except where ``bot:optimal`` is the solver's optimal policy (:class:`Optimal`): single-column rule sets
the solver covers, and sheets of alike free columns (Knöffel), whose columns are independent for the
policy, so one column is played. Those games are played all at once in compiled code
(:mod:`kniffel.core.play`), thousands a second. ``bot:win`` alone at the table plays for points
(:class:`kniffel.planning.WinPlanner`), so its games are ``bot:optimal``'s and are played the same way.
A player for a final score (``bot:target:T``, :class:`ForTarget`) on such a single column plays its
games all at once too, as compiled tournaments play it (:func:`kniffel.core.winplay.play_to_win`, alone
at its table), from the cone of the empty sheet for its score: its game ``i`` is the tournament's deal
``i``. Options of exactly the same chance are told apart as compiled play tells them apart, not by their
points as the planner does: the same chance of the score (Kniffel filled top-down, 150: 28.2 % both
ways), a mean a point or two lower.
A level below 7 (``bot:1`` to ``bot:6``, :mod:`kniffel.planning.levels`) plays where ``bot:optimal`` plays
compiled, the same way, by the solver's table as the level sees it (:class:`Level`).
The heuristic ``bot`` on such a single column plays its own table of values the same way
(:class:`OwnTable`), the games tournaments play (:func:`heuristic_search`). On multi-column sheets
without free throws ``bot:optimal`` (the column estimate) and ``bot`` play whole games in their
planners' compiled turn search (:class:`Sheet`, :class:`~kniffel.planning.compiled.SheetSearch`), the
very search they use in a game.
Game ``i`` draws its dice from a stream derived from ``(seed, i)`` alone, whichever block plays it.
"""

from __future__ import annotations

import dataclasses
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Literal, Self

import numpy as np
import numpy.typing as npt

from kniffel import bots
from kniffel.core import AIM_POINTS, Progress
from kniffel.engine.dice import SeededDice
from kniffel.engine.game import Game
from kniffel.planning import POINTS, HeuristicPlanner, Planner, is_exact, planner_for
from kniffel.planning.compiled import SearchPlanner, SheetSearch, covers
from kniffel.planning.levels import level_planner, seen_values
from kniffel.rules import Order, RuleSet, single_column

if TYPE_CHECKING:
    from kniffel.core import Compiled, Solution

HEURISTIC: Final = "heuristic"
"""The heuristic bot's role in compiled play (:attr:`Plan.role`): for points, by its own table."""

Role = int | Literal["heuristic"]
"""What a player does in compiled play: an aim of :func:`kniffel.core.winplay.play_to_win` (points,
win, or a target score), or :data:`HEURISTIC`."""


@dataclass(frozen=True)
class Chunk:
    """Games ``first_game``, ``first_game + 1``... of a simulation: their scores and bonus counts, the part
    of a run that :func:`kniffel.services.simulate.play_chunk` plays in one place and
    :func:`kniffel.services.simulate.combine` adds up, so that a run split over processes or machines
    gives the result of one run."""

    first_game: int
    scores: npt.NDArray[np.int64]
    upper_bonuses: int
    """Columns that reached the upper bonus, in all the chunk's games."""
    fives: int
    """Columns with points in the five-of-a-kind box."""
    extra_bonuses: int
    seconds: float
    columns: int
    expected: float | None
    boxes: npt.NDArray[np.int64] | None = None
    """``[box, points]``: the columns whose box (of the rules' boxes, in their order) holds ``points``
    at the end of the chunk's games; None where the plan does not count them (the compiled turn search
    of several columns, a player for a score)."""


@dataclass(frozen=True, kw_only=True)
class Plan(ABC):
    """How ``strategy`` plays games of ``rules`` (made by :func:`resolve`)."""

    rules: RuleSet
    strategy: str
    role: Role | None = None
    """What its player does at a table of rules the solver covers played all at once in compiled code
    (tournaments), None where such a table is played through the engine."""

    lockstep: ClassVar[bool] = False
    """Whether its games are played in lockstep, all at once a turn (:mod:`kniffel.core.play`): a block
    of many games plays faster a game than several small ones."""

    @abstractmethod
    def play(self, seed: int, first_game: int, games: int, progress: Progress | None = None) -> Chunk:
        """Games ``first_game`` to ``first_game + games - 1`` of the run with ``seed``: game ``i`` is the
        same game whichever call plays it. ``progress(done, games)`` counts this call's games."""

    def own_values(self) -> npt.NDArray[np.float64] | None:
        """The table its player plays compiled games for points by instead of the solver's (laid out as
        the solver's), None where it plays by the solver's or plays for another goal."""
        return None


@dataclass(frozen=True, kw_only=True)
class Solved(Plan, ABC):
    """A plan that plays by the solver's table of :attr:`solved`."""

    solved: RuleSet
    """The rules whose solved table it plays by."""
    solution: Solution | None = None
    """That table, once loaded (:meth:`loaded`); else each call loads it from the disk cache."""

    lockstep: ClassVar[bool] = True

    def table(self) -> Solution:
        """The solved table of :attr:`solved`: :attr:`solution`, else the disk cache's."""
        from kniffel import core

        return core.table(self.solved) if self.solution is None else self.solution

    def loaded(self) -> Self:
        """This plan with its table in hand, loaded (or solved) once for every block it plays."""
        return self if self.solution is not None else dataclasses.replace(self, solution=self.table())


@dataclass(frozen=True, kw_only=True)
class Optimal(Solved):
    """The solver's optimal policy, one column (of a sheet of alike free columns: Knöffel) played."""

    def play(self, seed: int, first_game: int, games: int, progress: Progress | None = None) -> Chunk:
        solution = self.table()
        return _lockstep(solution, None, seed, first_game, games, progress, expected=solution.expected_score)


@dataclass(frozen=True, kw_only=True)
class ForTarget(Solved):
    """A player for the final score :attr:`aim` alone at its table, as compiled tournaments play it."""

    aim: int

    def play(self, seed: int, first_game: int, games: int, progress: Progress | None = None) -> Chunk:
        """Games played all at once from the cone of the empty sheet for :attr:`aim` (solved once a
        process and held for its later blocks)."""
        from kniffel.core import game_rows, play_to_win

        solution = self.table()
        rows = game_rows(solution.compiled, self.aim)

        def report(done: int, total: int) -> None:
            if progress is not None:
                progress(games * done // total, games)

        played = play_to_win(
            solution,
            players=1,
            deals=games,
            seed=seed,
            aims=[self.aim],
            first_deal=first_game,
            targets=rows,
            progress=report,
        )
        assert played.flags is not None
        assert played.extras is not None
        return Chunk(
            first_game,
            played.scores[:, 0].copy(),
            int((played.flags & 1 != 0).sum()),
            int((played.flags & 2 != 0).sum()),
            int(played.extras.sum()),
            played.seconds,
            columns=1,
            expected=None,
        )


@dataclass(frozen=True, kw_only=True)
class Level(Solved):
    """A level below 7 (:class:`kniffel.bots.LevelBot`) on one column, by the solver's table as it sees it
    (:func:`kniffel.planning.levels.seen_values`), its games played all at once as :class:`Optimal`'s are
    (one column of a sheet of alike free columns too)."""

    level: int

    def table(self) -> Solution:
        """The solved table, the one the planners share: the level's view of it is made once."""
        from kniffel.planning.exact import advisor_for

        return advisor_for(self.solved).solution if self.solution is None else self.solution

    def own_values(self) -> npt.NDArray[np.float64]:
        return seen_values(self.table(), self.level)

    def play(self, seed: int, first_game: int, games: int, progress: Progress | None = None) -> Chunk:
        played = self.table().compiled
        return _lockstep(played, self.own_values(), seed, first_game, games, progress, expected=None)


@dataclass(frozen=True, kw_only=True)
class OwnTable(Plan):
    """The heuristic bot on one column, by its own table of values (nothing solved)."""

    search: SheetSearch
    role: Role | None = HEURISTIC

    lockstep: ClassVar[bool] = True

    def own_values(self) -> npt.NDArray[np.float64]:
        own: npt.NDArray[np.float64] = self.search.values[0]
        return own

    def play(self, seed: int, first_game: int, games: int, progress: Progress | None = None) -> Chunk:
        search = self.search
        return _lockstep(
            search.compiled[0], search.values[0], seed, first_game, games, progress, expected=None
        )


@dataclass(frozen=True, kw_only=True)
class Sheet(Plan):
    """Whole games in the planner's compiled turn search (:func:`sheet_search`)."""

    search: SheetSearch

    def play(self, seed: int, first_game: int, games: int, progress: Progress | None = None) -> Chunk:
        from kniffel.core import stream_base

        search = self.search
        base = stream_base(seed)
        search.play(1, base)  # load (or compile) the kernels outside the timing
        played = search.play(games, base, first_game, progress=progress)
        totals = played.totals
        return Chunk(
            first_game,
            played.scores,
            int(totals[:, :, 1].sum()),
            int(totals[:, :, 2].sum()),
            int(totals[:, :, 3].sum()),
            played.seconds,
            columns=len(self.rules.columns),
            expected=None,
        )


@dataclass(frozen=True, kw_only=True)
class Engine(Plan):
    """Each game through :class:`~kniffel.engine.game.Game`, the bot choosing every action."""

    def play(self, seed: int, first_game: int, games: int, progress: Progress | None = None) -> Chunk:
        from kniffel.core import MASK64, box_counts, stream_base

        rules, strategy = self.rules, self.strategy
        scores = np.zeros(games, dtype=np.int64)
        bonus = five = extras = 0
        entries = np.zeros((games * len(rules.columns), len(rules.boxes)), dtype=np.int64)
        base = stream_base(seed)
        start = time.perf_counter()
        for g in range(games):
            game_seed = (base + first_game + g) & MASK64
            game = bots.play(
                Game(rules, ["bot"], dice=SeededDice(game_seed)), [bots.make(strategy, seed=game_seed)]
            )
            sheet = game.sheet
            scores[g] = sheet.total
            for c, column in enumerate(rules.columns):
                row = entries[g * len(rules.columns) + c]
                for b, box in enumerate(rules.boxes):
                    row[b] = sheet.entries[rules.key(column, box)]
                totals = sheet.column_totals(column)
                bonus += totals.upper_bonus > 0
                extras += totals.extra_bonus // rules.extra_bonus if rules.extra_bonus else 0
                if rules.five_box is not None:
                    five += sheet.entries.get(rules.key(column, rules.box(rules.five_box)), 0) > 0
            if progress is not None:
                progress(g + 1, games)
        seconds = time.perf_counter() - start
        return Chunk(
            first_game,
            scores,
            bonus,
            five,
            extras,
            seconds,
            columns=len(rules.columns),
            expected=None,
            boxes=box_counts(entries),
        )


def resolve(rules: RuleSet, strategy: str) -> Plan:
    """How ``strategy`` (a bot's name, :func:`kniffel.bots.make` knows it) plays games of ``rules``:
    the solver's optimal policy where it plays for points alone and the rules allow, the compiled games
    of a player for a score, the quick bot's own table, the compiled turn search, else the engine (see
    the module's description). Loads no table: :meth:`Solved.loaded` does."""
    bot = bots.make(strategy, seed=0)
    goal = bots.goal_of(bot)
    role = goal.aim() if goal is not None and is_exact(rules) else None
    found = bots.level_of(bot)
    if found is not None and found.mistakes is not None:
        return level_plan(rules, strategy, found.number)
    played = compiled_rules(rules) if plays_for_points(strategy) else None
    if played is not None:
        return Optimal(rules=rules, strategy=strategy, role=role, solved=played)
    aim = target_aim(rules, strategy)
    if aim is not None:
        return ForTarget(rules=rules, strategy=strategy, role=role, solved=rules, aim=aim)
    own = own_table(rules, strategy)
    if own is not None:
        return OwnTable(rules=rules, strategy=strategy, search=own)
    search = sheet_search(rules, strategy)
    if search is not None:
        return Sheet(rules=rules, strategy=strategy, role=role, search=search)
    return Engine(rules=rules, strategy=strategy, role=role)


def level_plan(rules: RuleSet, strategy: str, level: int) -> Plan:
    """How level ``level`` (1 to 6) plays ``rules``: all at once by the table it sees where optimal play
    is (:func:`compiled_rules`), for points in compiled tournaments on one column; else in the compiled
    turn search of its planner where it covers the sheet, else through the game."""
    played = compiled_rules(rules)
    if played is not None:
        role = AIM_POINTS if is_exact(rules) else None
        return Level(rules=rules, strategy=strategy, role=role, solved=played, level=level)
    columns = level_planner(rules, POINTS, level).columns
    if columns is not None and columns.search is not None:
        return Sheet(rules=rules, strategy=strategy, search=columns.search)
    return Engine(rules=rules, strategy=strategy)


def plays_for_points(strategy: str) -> bool:
    """Whether ``strategy`` alone at a table plays the solver's policy for points (its goal alone,
    :meth:`kniffel.planning.Goal.alone`, is points: ``bot:optimal``, ``bot:points``, and ``bot:win``):
    what compiled play plays where the rules allow."""
    goal = bots.goal_of(bots.make(strategy, seed=0))
    return goal is not None and goal.alone() == POINTS


def target_aim(rules: RuleSet, strategy: str) -> int | None:
    """The final score ``strategy`` plays for alone at a table, where compiled play plays it on
    ``rules`` (one column the solver covers); None for any other strategy or sheet."""
    goal = bots.goal_of(bots.make(strategy, seed=0))
    if goal is None or not is_exact(rules):
        return None
    aim = goal.alone().aim()
    return aim if aim >= 0 else None


def compiled_rules(rules: RuleSet) -> RuleSet | None:
    """The rule set whose optimal play stands for ``bot:optimal``'s on ``rules`` in compiled code:
    ``rules`` itself where the solver covers them, one column of a sheet whose columns are all filled
    freely (Knöffel), else None (the bot then plays through the game)."""
    if rules.multi_column and all(c.order is Order.FREE for c in rules.columns):
        rules = single_column(rules)
    return rules if is_exact(rules) else None


def sheet_search(rules: RuleSet, strategy: str) -> SheetSearch | None:
    """The compiled turn search that plays ``strategy`` (the heuristic ``bot`` on any sheet,
    ``bot:optimal`` on a multi-column one) on ``rules``, or None where the games go elsewhere:
    ``bot:optimal`` on a single column (which :func:`compiled_rules` plays where it can), other bots and
    the sheets :func:`kniffel.planning.compiled.covers` leaves out (free throws) through
    :class:`~kniffel.engine.game.Game`."""
    if not covers(rules):
        return None
    planner: Planner
    if plays_for_points(strategy) and rules.multi_column:
        planner = planner_for(rules, method="column")
    elif isinstance(bots.make(strategy, seed=0), bots.HeuristicBot):
        planner = planner_for(rules, method="heuristic")
    else:
        return None
    assert isinstance(planner, SearchPlanner)
    return planner.search


def heuristic_search(rules: RuleSet, bot: bots.Bot) -> SheetSearch | None:
    """The compiled turn search of the heuristic ``bot`` on a sheet of one column that it covers (no
    free throws), whose one table is what compiled play (simulations, tournaments) plays the bot by;
    None for any other bot or sheet."""
    if not isinstance(bot, bots.HeuristicBot) or rules.multi_column:
        return None
    planner = bot.prepare(rules)  # the bot's own planner: its weights, made once per rule set
    return planner.search if isinstance(planner, HeuristicPlanner) else None


def own_table(rules: RuleSet, strategy: str) -> SheetSearch | None:
    """The search whose one table ``strategy`` plays all at once on ``rules`` (:func:`heuristic_search`,
    on rules the solver covers, as tournaments play it), or None."""
    return heuristic_search(rules, bots.make(strategy, seed=0)) if is_exact(rules) else None


def _lockstep(
    source: Solution | Compiled,
    values: npt.NDArray[np.float64] | None,
    seed: int,
    first_game: int,
    games: int,
    progress: Progress | None,
    *,
    expected: float | None,
) -> Chunk:
    """Games of one column played all at once (:func:`kniffel.core.play.play`): optimally by a solved
    table, or by ``values``, a heuristic bot's own table (nothing solved)."""
    from kniffel.core import play_games

    play_games(source, 1, seed, values=values)  # load (or compile) the kernels outside the timing
    played = play_games(source, games, seed, progress=progress, first_game=first_game, values=values)
    return Chunk(
        first_game,
        played.scores,
        int(played.upper_bonus.sum()),
        int(played.five.sum()),
        int(played.extra_bonuses.sum()),
        played.seconds,
        columns=1,
        expected=expected,
        boxes=played.boxes,
    )


__all__ = [
    "HEURISTIC",
    "Chunk",
    "Engine",
    "ForTarget",
    "Level",
    "Optimal",
    "OwnTable",
    "Plan",
    "Role",
    "Sheet",
    "Solved",
    "compiled_rules",
    "heuristic_search",
    "level_plan",
    "own_table",
    "plays_for_points",
    "resolve",
    "sheet_search",
    "target_aim",
]
