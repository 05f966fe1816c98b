"""Many games by one strategy: score statistics and histograms.

>>> from kniffel import rules
>>> from kniffel.services.simulate import simulate
>>> result = simulate(rules.get("yahtzee", {"joker": "free"}), games=100_000, seed=1)   # doctest: +SKIP
>>> round(result.mean, 1), result.games, result.strategy                               # doctest: +SKIP
(254.6, 100000, 'bot:optimal')

Strategies are the bots of :mod:`kniffel.bots`: ``bot`` (the heuristic), ``bot:optimal`` or any
``bot:NAME``. A simulation resolves its strategy once into a plan (:func:`kniffel.services.plans.resolve`:
the solver's policy, the compiled games of a player for a score or of the quick bot, the compiled turn
search, or the engine) and plays every block of its games by it.
The same seed gives the same games: game ``i`` draws its dice from a stream derived from ``(seed, i)``
alone. :func:`simulate` plays them in blocks of a few seconds (up to eight where they are played all at
once), so that Ctrl-C keeps the games of the blocks it finished (:class:`SimulationInterrupted`, a
partial result).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from kniffel import bots
from kniffel.base.errors import KniffelError, plotting_unavailable
from kniffel.rules import RuleSet
from kniffel.services.plans import Chunk, Plan, Solved, resolve

if TYPE_CHECKING:
    from kniffel.core import Progress, Solution

OPTIMAL = "bot:optimal"
"""The default strategy: optimal play for points, in compiled code where the rules allow."""


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
class BoxStatistics:
    """How one box was filled at the end of a simulation's games (in every column, on a sheet of several).

    >>> box = BoxStatistics("full_house", np.array([3] + [0] * 24 + [7]))
    >>> box.entries, box.mean, box.struck
    (10, 17.5, 0.3)
    >>> box.distribution
    {0: 0.3, 25: 0.7}
    """

    box: str
    counts: npt.NDArray[np.int64]
    """``counts[p]``: the columns whose box holds ``p`` points."""

    @property
    def entries(self) -> int:
        """The columns counted: the games times the columns of each."""
        return int(self.counts.sum())

    @property
    def mean(self) -> float:
        """The box's mean points (extra and upper bonuses are not a box's)."""
        return float(self.counts @ np.arange(len(self.counts))) / self.entries

    @property
    def struck(self) -> float:
        """The share of entries of 0 points: struck (scoring a box for nothing is the same)."""
        return float(self.counts[0]) / self.entries

    @property
    def distribution(self) -> dict[int, float]:
        """The share of entries of each number of points that occurs."""
        return {p: int(n) / self.entries for p, n in enumerate(self.counts.tolist()) if n}

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "struck": self.struck,
            "distribution": {str(p): share for p, share in self.distribution.items()},
        }


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
    boxes: Mapping[str, BoxStatistics] | None = None
    """Each box's statistics by its id, in the rules' order (every column's entries of it together);
    None where the strategy's games are played by the compiled turn search of several columns or for a
    score (:attr:`kniffel.services.plans.Chunk.boxes`)."""

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
        if self.boxes is not None:
            data["boxes"] = {box: stats.to_json() for box, stats in self.boxes.items()}
        return data


def simulate(
    rules: RuleSet,
    *,
    strategy: str = OPTIMAL,
    games: int,
    seed: int,
    progress: Progress | None = None,
    solution: Solution | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``rules`` with ``strategy`` (``"bot"``, ``"bot:optimal"`` or any
    ``"bot:NAME"`` of :func:`kniffel.bots.available`).

    ``progress(done, games)`` is called as games complete. Where ``strategy`` plays by the solver's table
    (see :mod:`kniffel.services.plans`) the table comes from :func:`kniffel.core.table` (the disk cache)
    unless ``solution`` (a :class:`~kniffel.core.Solution` of those rules) is given. Raises
    :class:`SimulationError` for a bad request, and on Ctrl-C :class:`SimulationInterrupted` with the
    games of the blocks played (see the module's description).
    """
    check_request(strategy, games, seed)
    plan = simulation_plan(rules, strategy, solution)
    if isinstance(plan, Solved):
        plan = plan.loaded()  # loaded once, not for every block
    chunks: list[Chunk] = []
    try:
        if plan.lockstep:
            sizes = blocks(games, seconds=LOCKSTEP_BLOCK_SECONDS, smallest=LOCKSTEP_FIRST_BLOCK)
        else:
            sizes = blocks(games)
        for first, size in sizes:

            def report(done: int, _: int, before: int = first) -> None:
                if progress is not None:
                    progress(before + done, games)

            chunks.append(play_chunk(rules, strategy, seed, first, size, progress=report, plan=plan))
    except KeyboardInterrupt as interrupt:
        partial = combine(rules, strategy, seed, chunks, asked=games) if chunks else None
        raise SimulationInterrupted(partial) from interrupt
    return combine(rules, strategy, seed, chunks)


def simulation_plan(rules: RuleSet, strategy: str, solution: Solution | None = None) -> Plan:
    """How ``strategy`` plays ``rules`` (:func:`kniffel.services.plans.resolve`), by ``solution`` where
    given: :class:`SimulationError` unless the plan plays by a solved table and that table is of its
    rules."""
    plan = resolve(rules, strategy)
    if solution is None:
        return plan
    if not isinstance(plan, Solved):
        raise SimulationError(
            f"{strategy} does not play {rules.id} by a solved table: the one given is of no use"
        )
    if solution.rules != plan.solved:
        raise SimulationError(f"the table given is for {solution.rules.id}, not {plan.solved.id}")
    return dataclasses.replace(plan, solution=solution)


def play_chunk(
    rules: RuleSet,
    strategy: str,
    seed: int,
    first_game: int,
    games: int,
    *,
    progress: Progress | None = None,
    plan: Plan | None = None,
) -> Chunk:
    """Games ``first_game`` to ``first_game + games - 1`` of the run of :func:`simulate` with ``seed``:
    game ``i`` is the same game whichever chunk plays it. ``progress(done, games)`` counts this chunk's
    games. ``plan``: how ``strategy`` plays ``rules`` where it is made already (:func:`simulate` makes
    it once for all its blocks), else it is made here (a task of a run split over processes)."""
    plan = plan if plan is not None else resolve(rules, strategy)
    return plan.play(seed, first_game, games, progress)


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


def combine(
    rules: RuleSet, strategy: str, seed: int, chunks: Sequence[Chunk], *, asked: int | None = None
) -> SimulationResult:
    """The result of the run whose games ``chunks`` hold (in any order; together games 0, 1... once
    each). ``asked``: the games the run was to play, when ``chunks`` may hold fewer (a partial
    result)."""
    from kniffel.core import add_counts

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
    boxes: dict[str, BoxStatistics] | None = None
    if all(chunk.boxes is not None for chunk in ordered):
        counts = np.zeros((len(rules.boxes), 1), dtype=np.int64)
        for chunk in ordered:
            assert chunk.boxes is not None
            counts = add_counts(counts, chunk.boxes)
        boxes = {box.id: BoxStatistics(box.id, row) for box, row in zip(rules.boxes, counts, strict=True)}
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
        boxes=boxes,
    )


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


__all__ = [
    "BLOCK_SECONDS",
    "LOCKSTEP_BLOCK_SECONDS",
    "LOCKSTEP_FIRST_BLOCK",
    "MAX_GAMES",
    "OPTIMAL",
    "PERCENTILES",
    "BoxStatistics",
    "Interrupted",
    "SimulationError",
    "SimulationInterrupted",
    "SimulationResult",
    "blocks",
    "check_request",
    "combine",
    "play_chunk",
    "plot_histogram",
    "simulate",
    "simulation_plan",
]
