"""Many games by one strategy: score statistics and histograms.

>>> from kniffel import rules
>>> from kniffel.services.simulate import simulate
>>> result = simulate(rules.get("yahtzee", {"joker": "free"}), games=100_000, seed=1)   # doctest: +SKIP
>>> round(result.mean, 1), result.games, result.strategy                               # doctest: +SKIP
(254.6, 100000, 'bot:optimal')

Strategies are the bots of :mod:`kniffel.bots`: ``bot`` (the heuristic), ``bot:optimal`` or any
``bot:NAME``. Each game is played through :class:`~kniffel.engine.game.Game`, on every rule set, except where
``bot:optimal`` is the solver's optimal policy: single-column rule sets the solver covers, and sheets of
alike free columns (Knöffel), whose columns are independent for the policy, so one column is played.
Those games are played all at once in compiled code (:mod:`kniffel.core.play`), thousands a second.
``bot:win`` alone at the table plays for points (:class:`kniffel.planning.WinPlanner`), so its games are
``bot:optimal``'s and are played the same way.
A player for a final score (``bot:target:T``) on such a single column plays its games all at once too,
as compiled tournaments play it (:func:`kniffel.core.winplay.play_to_win`, alone at its table), from the
cone of the empty sheet for its score: its game ``i`` is the tournament's deal ``i``. Options of exactly
the same chance are told apart as compiled play tells them apart, not by their points as the planner
does: the same chance of the score (Kniffel filled top-down, 150: 28.2 % both ways), a mean a point or
two lower.
The heuristic ``bot`` on such a single column plays its own table of values the same way, the games
tournaments play (:func:`heuristic_search`). On multi-column sheets without free throws
``bot:optimal`` (the column estimate) and ``bot`` play whole games in their planners' compiled turn
search (:class:`~kniffel.planning.compiled.SheetSearch`), the very search they use in a game.
The same seed gives the same games: game ``i`` draws its dice from a stream derived from ``(seed, i)``
alone. :func:`simulate` plays them in blocks of a few seconds (up to eight where they are played all at
once), so that Ctrl-C keeps the games of the blocks it finished (:class:`SimulationInterrupted`, a
partial result).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from kniffel import bots
from kniffel.base.errors import KniffelError, plotting_unavailable
from kniffel.engine.game import Game, SeededDice
from kniffel.planning import POINTS, HeuristicPlanner, Planner, is_exact, planner_for
from kniffel.planning.compiled import SearchPlanner, SheetSearch, covers
from kniffel.rules import Order, RuleSet, single_column

if TYPE_CHECKING:
    from kniffel.core import Compiled, Solution

OPTIMAL = "bot:optimal"
"""The default strategy: optimal play for points, in compiled code where the rules allow."""


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


MAX_GAMES = 10_000_000
"""The most games one simulation plays: every final score is kept (with per-game records while
playing), so memory grows with the count; this many take well under a gigabyte."""

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
"""The percentiles of the final scores a result reports."""


BLOCK_SECONDS = 2.0
"""About how long a block of games (:func:`blocks`) takes: what Ctrl-C may throw away, against the
batches compiled play needs to run at full speed."""
LOCKSTEP_BLOCK_SECONDS = 8.0
"""The same for games played in lockstep (:mod:`kniffel.core.play`), which report their progress every
turn: they share a turn's tables across a block, so a block of hundreds of thousands of games plays
faster a game than several of a few seconds each (a million Yahtzee games on a 2-core Zen 1: 12.2 s in
blocks of 2 s, 11.0 s in blocks of 8 s, 10.2 s in one)."""
LOCKSTEP_FIRST_BLOCK = 1 << 16
"""The first block of games played in lockstep: about a second once compiled, where the blocks of 16,
128, 1,024 and 8,192 games before it cost 0.3 s for a few thousand games (each turn costs some
milliseconds however few games share it)."""


class SimulationError(KniffelError):
    """A simulation that cannot be run as asked (bad count, unknown strategy, unsupported rules)."""


R = TypeVar("R")


class Interrupted(KeyboardInterrupt, Generic[R]):
    """Ctrl-C during a run of many games played in :func:`blocks`: ``result`` holds the games of the
    blocks it finished (a partial result), None before the first block was over."""

    def __init__(self, result: R | None) -> None:
        super().__init__()
        self.result = result


class SimulationInterrupted(Interrupted["SimulationResult"]):
    """Ctrl-C during :func:`simulate` (:attr:`SimulationResult.partial`)."""


def blocks(
    count: int, *, seconds: float = BLOCK_SECONDS, smallest: int = 16, largest: int = 1 << 20
) -> Iterator[tuple[int, int]]:
    """``(first, size)`` of consecutive blocks of ``count`` items (games, deals) for a caller that plays
    each block before it asks for the next: the first of ``smallest`` items, each later one sized by the
    pace of the one before to take about ``seconds``, between ``smallest`` and ``largest`` items and at
    most eight times the one before (the first block's pace includes loading and compiling)."""
    first, size = 0, smallest
    while first < count:
        size = min(size, count - first)
        start = time.perf_counter()
        yield first, size
        took = max(time.perf_counter() - start, 1e-6)
        first += size
        size = max(smallest, min(largest, 8 * size, int(size * seconds / took)))


@dataclass(frozen=True)
class SimulationResult:
    """The final scores of a simulation and what they add up to."""

    rules_id: str
    options: dict[str, str]
    strategy: str
    seed: int
    scores: npt.NDArray[np.int64]
    """Final total of each game, in game order."""
    seconds: float
    """Time spent playing (not solving or loading the table, not compiling)."""
    upper_bonus_rate: float
    """Share of columns that reached the upper bonus."""
    five_rate: float | None
    """Share of columns with points in the five-of-a-kind box (None if the rules have none)."""
    extra_bonuses: float
    """Extra bonuses (further five of a kinds) per game."""
    columns: int = 1
    """Columns played per game (1 for compiled optimal play, which plays one column of Knöffel)."""
    expected: float | None = None
    """The exact expected score of the strategy, where known (optimal play)."""
    games_asked: int | None = None
    """The games the run was to play when it was interrupted before them all (a partial result)."""

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def partial(self) -> bool:
        return self.games_asked is not None

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    @property
    def std(self) -> float:
        """Sample standard deviation (0 for a single game)."""
        return float(self.scores.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of the mean."""
        return self.std / math.sqrt(self.games)

    @property
    def min(self) -> int:
        return int(self.scores.min())

    @property
    def max(self) -> int:
        return int(self.scores.max())

    @property
    def median(self) -> float:
        return float(np.median(self.scores))

    @property
    def percentiles(self) -> dict[int, float]:
        """The final score below which ``p`` percent of the games fall, for each ``p`` of
        :data:`PERCENTILES` (linear interpolation, as :func:`numpy.percentile`)."""
        values = np.percentile(self.scores, PERCENTILES)
        return {p: float(v) for p, v in zip(PERCENTILES, values, strict=True)}

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "games": self.games,
            "partial": self.partial,
            **({"games_asked": self.games_asked} if self.games_asked is not None else {}),
            "mean": self.mean,
            "std": self.std,
            "min": self.min,
            "max": self.max,
            "median": self.median,
            "percentiles": {str(p): v for p, v in self.percentiles.items()},
            "stderr": self.stderr,
            "rules": self.rules_id,
            "options": dict(self.options),
            "strategy": self.strategy,
            "seed": self.seed,
            "columns": self.columns,
            "upper_bonus_rate": self.upper_bonus_rate,
            "five_rate": self.five_rate,
            "extra_bonuses_per_game": self.extra_bonuses,
            "seconds": self.seconds,
        }
        if self.expected is not None:
            data["expected"] = self.expected
        return data


def simulate(
    rules: RuleSet,
    *,
    strategy: str = OPTIMAL,
    games: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    solution: Solution | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``rules`` with ``strategy`` (``"bot"``, ``"bot:optimal"`` or any
    ``"bot:NAME"`` of :func:`kniffel.bots.available`).

    ``progress(done, games)`` is called as games complete. Where ``bot:optimal`` is played in compiled
    code (see :func:`compiled_rules`) the solved table comes from :func:`kniffel.core.table` (the disk
    cache) unless ``solution`` (a :class:`~kniffel.core.Solution` of those rules) is given. Raises
    :class:`SimulationError` for a bad request, and on Ctrl-C :class:`SimulationInterrupted` with the
    games of the blocks played (see the module's description).
    """
    check_request(strategy, games, seed)
    compiled = compiled_rules(rules) if plays_for_points(strategy) else None
    if compiled is not None and solution is None:
        from kniffel import core

        solution = core.table(compiled)  # loaded once, not for every block
    chunks: list[Chunk] = []
    try:
        if compiled is None and own_table(rules, strategy) is None and target_aim(rules, strategy) is None:
            plan = blocks(games)
        else:
            plan = blocks(games, seconds=LOCKSTEP_BLOCK_SECONDS, smallest=LOCKSTEP_FIRST_BLOCK)
        for first, size in plan:

            def report(done: int, _: int, before: int = first) -> None:
                if progress is not None:
                    progress(before + done, games)

            chunks.append(play_chunk(rules, strategy, seed, first, size, progress=report, solution=solution))
    except KeyboardInterrupt as interrupt:
        partial = combine(rules, strategy, seed, chunks, asked=games) if chunks else None
        raise SimulationInterrupted(partial) from interrupt
    return combine(rules, strategy, seed, chunks)


def check_request(strategy: str, games: int, seed: int) -> None:
    """:class:`SimulationError` unless ``games`` is a positive count, ``seed`` a whole number and
    ``strategy`` a bot's name."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"the number of games must be a positive whole number, got {games!r}")
    if games > MAX_GAMES:
        raise SimulationError(f"at most {MAX_GAMES:,} games a simulation, got {games:,}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"the seed must be a whole number, got {seed!r}")
    if strategy != "bot" and not strategy.startswith("bot:"):
        raise SimulationError(f"unknown strategy {strategy!r}; choose one of: {', '.join(bots.available())}")
    try:
        bots.make(strategy, seed=0)
    except bots.BotError as error:
        raise SimulationError(str(error)) from None


@dataclass(frozen=True)
class Chunk:
    """Games ``first_game``, ``first_game + 1``... of a simulation: their scores and bonus counts, the part
    of a run that :func:`play_chunk` plays in one place and :func:`combine` adds up, so that a run split
    over processes or machines gives the result of one run."""

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


def play_chunk(
    rules: RuleSet,
    strategy: str,
    seed: int,
    first_game: int,
    games: int,
    *,
    progress: Callable[[int, int], None] | None = None,
    solution: Solution | None = None,
) -> Chunk:
    """Games ``first_game`` to ``first_game + games - 1`` of the run of :func:`simulate` with ``seed``:
    game ``i`` is the same game whichever chunk plays it. ``progress(done, games)`` counts this chunk's
    games."""
    compiled = compiled_rules(rules) if plays_for_points(strategy) else None
    if compiled is not None:
        return _compiled(compiled, seed, first_game, games, progress, solution)
    aim = target_aim(rules, strategy)
    if aim is not None:
        return _for_target(rules, aim, solution, seed, first_game, games, progress)
    if solution is not None:
        raise SimulationError(
            f"{strategy} does not play {rules.id} by a solved table: the one given is of no use"
        )
    own = own_table(rules, strategy)
    if own is not None:
        return _lockstep(own.compiled[0], own.values[0], seed, first_game, games, progress, expected=None)
    search = sheet_search(rules, strategy)
    if search is not None:
        return _sheet(rules, search, seed, first_game, games, progress)
    return _bots(rules, strategy, seed, first_game, games, progress)


def combine(
    rules: RuleSet, strategy: str, seed: int, chunks: Sequence[Chunk], *, asked: int | None = None
) -> SimulationResult:
    """The result of the run whose games ``chunks`` hold (in any order; together games 0, 1... once
    each). ``asked``: the games the run was to play, when ``chunks`` may hold fewer (a partial
    result)."""
    ordered = sorted(chunks, key=lambda chunk: chunk.first_game)
    if (
        not ordered
        or ordered[0].first_game != 0
        or any(a.first_game + a.scores.shape[0] != b.first_game for a, b in pairwise(ordered))
    ):
        raise SimulationError("the chunks of a simulation must hold consecutive games from game 0")
    first = ordered[0]
    games = sum(chunk.scores.shape[0] for chunk in ordered)
    cells = games * first.columns
    return SimulationResult(
        rules.id,
        dict(rules.options),
        strategy,
        seed,
        np.concatenate([chunk.scores for chunk in ordered]),
        sum(chunk.seconds for chunk in ordered),
        upper_bonus_rate=sum(chunk.upper_bonuses for chunk in ordered) / cells,
        five_rate=sum(chunk.fives for chunk in ordered) / cells if rules.five_box is not None else None,
        extra_bonuses=sum(chunk.extra_bonuses for chunk in ordered) / games,
        columns=first.columns,
        expected=first.expected,
        games_asked=asked if asked is not None and asked > games else None,
    )


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


def _sheet(
    rules: RuleSet,
    search: SheetSearch,
    seed: int,
    first_game: int,
    games: int,
    progress: Callable[[int, int], None] | None,
) -> Chunk:
    from kniffel.core import stream_base

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
        columns=len(rules.columns),
        expected=None,
    )


def _compiled(
    played_rules: RuleSet,
    seed: int,
    first_game: int,
    games: int,
    progress: Callable[[int, int], None] | None,
    solution: Solution | None,
) -> Chunk:
    solution = _solved(played_rules, solution)
    return _lockstep(solution, None, seed, first_game, games, progress, expected=solution.expected_score)


def _solved(rules: RuleSet, solution: Solution | None) -> Solution:
    """The solved table of ``rules``: ``solution`` if given (and of those rules), else the disk cache's."""
    from kniffel import core

    if solution is None:
        return core.table(rules)
    if solution.rules != rules:
        raise SimulationError(f"the table given is for {solution.rules.id}, not {rules.id}")
    return solution


def _for_target(
    rules: RuleSet,
    aim: int,
    solution: Solution | None,
    seed: int,
    first_game: int,
    games: int,
    progress: Callable[[int, int], None] | None,
) -> Chunk:
    """Games of a player for the final score ``aim`` alone at its table, played all at once from the
    cone of the empty sheet for ``aim`` (solved once a process and held for its later blocks)."""
    from kniffel.core import game_rows, play_to_win

    solution = _solved(rules, solution)
    rows = game_rows(solution.compiled, aim)

    def report(done: int, total: int) -> None:
        if progress is not None:
            progress(games * done // total, games)

    played = play_to_win(
        solution,
        players=1,
        deals=games,
        seed=seed,
        aims=[aim],
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


def _lockstep(
    source: Solution | Compiled,
    values: npt.NDArray[np.float64] | None,
    seed: int,
    first_game: int,
    games: int,
    progress: Callable[[int, int], None] | None,
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
    )


def _bots(
    rules: RuleSet,
    strategy: str,
    seed: int,
    first_game: int,
    games: int,
    progress: Callable[[int, int], None] | None,
) -> Chunk:
    from kniffel.core import MASK64, stream_base

    scores = np.zeros(games, dtype=np.int64)
    bonus = five = extras = 0
    base = stream_base(seed)
    start = time.perf_counter()
    for g in range(games):
        game_seed = (base + first_game + g) & MASK64
        game = bots.play(
            Game(rules, ["bot"], dice=SeededDice(game_seed)), [bots.make(strategy, seed=game_seed)]
        )
        sheet = game.sheet
        scores[g] = sheet.total
        for column in rules.columns:
            totals = sheet.column_totals(column)
            bonus += totals.upper_bonus > 0
            extras += totals.extra_bonus // rules.extra_bonus if rules.extra_bonus else 0
            if rules.five_box is not None:
                five += sheet.entries.get(rules.key(column, rules.box(rules.five_box)), 0) > 0
        if progress is not None:
            progress(g + 1, games)
    seconds = time.perf_counter() - start
    return Chunk(first_game, scores, bonus, five, extras, seconds, columns=len(rules.columns), expected=None)


def plot_histogram(result: SimulationResult, path: str | Path, *, title: str | None = None) -> Path:
    """Draw the histogram of final scores to ``path`` (the format follows its suffix: ``.png``,
    ``.svg``, ``.pdf``). Needs matplotlib (else :class:`~kniffel.base.errors.PlottingUnavailableError`);
    ``OSError`` if the file cannot be written, ``ValueError`` for a format matplotlib does not know."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise plotting_unavailable() from None
    path = Path(path)
    scores = result.scores
    low, high = result.min, result.max
    width = max(1, math.ceil((high - low + 1) / 120))
    edges = np.arange(low, high + width + 1, width) - 0.5
    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.hist(scores, bins=edges.tolist(), color="#3b6ea8", edgecolor="none")
    axes.axvline(result.mean, color="#c0392b", linewidth=1.2, label=f"mean {result.mean:.2f}")
    if result.expected is not None:
        axes.axvline(
            result.expected,
            color="#222222",
            linewidth=1,
            linestyle="--",
            label=f"exact {result.expected:.2f}",
        )
    axes.set_xlabel("final score")
    axes.set_ylabel("games")
    options = ", ".join(f"{k}={v}" for k, v in sorted(result.options.items()))
    axes.set_title(
        title
        or f"{result.rules_id}{f' ({options})' if options else ''}: {result.strategy}, {result.games:,} games"
    )
    axes.legend(title=f"std {result.std:.2f}, min {result.min}, max {result.max}", loc="upper right")
    figure.tight_layout()
    figure.savefig(path)
    return path
