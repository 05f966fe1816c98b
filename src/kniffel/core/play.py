"""Whole games under the optimal policy, many at a time: the engine behind :mod:`kniffel.services.simulate`.

Deciding a turn optimally needs the turn's tables (the value of every keep before every throw), which
cost as much as one state of the dynamic programme. Games therefore advance turn by turn in lockstep:
before each turn they are sorted by state, and the games in one state (filled boxes, armed flag, free
throws) with nearby upper scores share one computation of those tables, vectorised over the upper scores
like the DP itself (several such groups share one pass over the keep lattice, as the DP's masks do).
Early turns are shared by nearly every game; later ones by fewer, and a state never recurs in another
turn (a turn fills one box), so nothing is lost by forgetting the tables at once. The decisions then
only compare table entries: the best keep among the roll's sub-multisets, or the best box.

Every game draws its dice from its own stream, derived from the seed and the game's number alone, so the
scores do not depend on the batch size, the grouping or the number of threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import read_only
from kniffel.base.keeps import keep_lattice
from kniffel.core.kernels.play import MASK64 as MASK64
from kniffel.core.kernels.play import Games
from kniffel.core.kernels.records import KernelTables
from kniffel.core.points import Solution, Values
from kniffel.core.runtime.work import run_ranges
from kniffel.core.tables import Compiled

LANE_GAP = 8
"""Games of one state whose upper scores are further apart than this get tables of their own: computing
the lanes in between would cost more than it shares."""
CHUNK = 1024
"""Most games one work item plays, so that a state shared by many games is spread over the threads."""
BUNDLE = 64
"""Work items share one pass over the keep lattice until they have this many lanes (upper scores)."""
BUNDLES_PER_TASK = 8
"""Bundles a thread plays in one compiled call (a call costs some microseconds, a bundle tens of them)."""


NO_ENTRIES = np.zeros(0, dtype=np.int32)
"""The ``entered`` of :func:`play_turn` that keeps nothing."""


def play_turn(
    games: Games,
    log: Any,
    turn: int,
    values: Any,
    t: KernelTables,
    seat: int,
    entered: npt.NDArray[np.int32] = NO_ENTRIES,
) -> None:
    """Play one turn of every game of ``games``: group the games by state, compute each group's turn tables
    once, then throw, keep and score for each of its games, bundles of groups on every compiled thread at once
    (:func:`~kniffel.core.runtime.work.run_ranges`). With ``log`` (``[game, turn, step, 3]``) the first games
    record every throw as ``(keep, roll, 0)`` and the entry as ``(-2, box, points << 16 | extra)``; with
    ``entered`` (one a game) each game's box filled and points entered there, ``box << 16 | points``, in
    no order of the games (:func:`entered_counts` counts them). ``seat`` -1 throws
    each game's own stream of dice; else ``games.rng`` holds deal seeds and the dice are that seat's in
    each deal (:func:`kniffel.core.kernels.play.deal_start`)."""
    from kniffel.core.kernels.play import Turn, play_bundles, work

    values = read_only(values)  # a tournament's own tables may be writable
    grouping = work(games, t, LANE_GAP, CHUNK, BUNDLE)
    run_ranges(
        len(grouping.bundles) - 1,
        BUNDLES_PER_TASK,
        partial(play_bundles, games, Turn(turn, seat, log), values, t, grouping, entered),
    )


@dataclass(frozen=True)
class Played:
    """Final scores and a few facts of each game (arrays indexed by game number)."""

    scores: npt.NDArray[np.int64]
    upper_bonus: npt.NDArray[np.bool_]
    """The upper bonus was reached."""
    five: npt.NDArray[np.bool_]
    """The five-of-a-kind box holds points (if the rule set has one)."""
    extra_bonuses: npt.NDArray[np.int64]
    """Extra bonuses earned (further five of a kinds paid by the rules' extra bonus)."""
    seconds: float
    boxes: npt.NDArray[np.int64]
    """``[box, points]``: the games that entered ``points`` in ``box`` (boxes in the rules' order; extra
    and upper bonuses are not a box's points). A row sums to the number of games; its column 0 counts the
    games that struck the box."""


def mix64(z: int) -> int:
    """The splitmix64 finaliser (plain Python, for deriving the streams)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def stream_base(seed: int) -> int:
    """The root of the per-game dice streams of ``seed`` (any integer)."""
    return mix64((seed & MASK64) ^ mix64((seed >> 64) & MASK64))


GOLDEN = 0x9E3779B97F4A7C15
"""The step of every dice stream (the kernels' own, :data:`kniffel.core.kernels.play.GOLDEN`)."""


@dataclass
class StreamDice:
    """The dice of game ``game`` of the compiled games with ``seed`` (:func:`play_games`, game ``game``
    of the vector environment reset with that seed), as a :class:`kniffel.Game` throws them: a game
    played through the engine with them throws what the compiled game throws for the same keeps.

    >>> from kniffel import Game, rules
    >>> dice = StreamDice(4)
    >>> Game(rules.get("yahtzee"), ["Ada"], dice=dice).roll()
    (1, 1, 1, 2, 3)
    >>> StreamDice(4).throw(5)   # the same faces, as thrown, before the game sorts them
    (1, 2, 1, 3, 1)
    """

    seed: int
    game: int = 0
    state: int = field(init=False)
    """Where the stream stands: the last word drawn from (the kernels' ``rng`` of the game)."""

    def __post_init__(self) -> None:
        self.state = mix64((stream_base(self.seed) + ((self.game + 1) & MASK64) * GOLDEN) & MASK64)

    def throw(self, n: int) -> tuple[int, ...]:
        """The next ``n`` faces of the stream (the kernels' ``die``)."""
        faces = []
        for _ in range(n):
            self.state = (self.state + GOLDEN) & MASK64
            faces.append((((mix64(self.state) >> 32) * 6) >> 32) + 1)
        return tuple(faces)

    def copy(self) -> StreamDice:
        """The stream at the same point: it throws what this one would throw next."""
        twin = StreamDice(self.seed, self.game)
        twin.state = self.state
        return twin


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a duplicate-play run with ``seed`` (:mod:`kniffel.services.tournament`,
    :mod:`kniffel.core.winplay`): that of game ``deal`` of :func:`play_games` with that seed."""
    return (stream_base(seed) + deal) & MASK64


def played_by(solution: Solution | Compiled, values: Values | None) -> tuple[Compiled, Values]:
    """The rules and the values games are played by: ``values`` if given (laid out as a solution's),
    else the solution's own."""
    c = solution if isinstance(solution, Compiled) else solution.compiled
    if values is None:
        if isinstance(solution, Compiled):
            raise ValueError("compiled rules alone play by the values given, and none were")
        return c, solution.values
    if values.shape != (layout := (c.n_aux, c.n_masks, c.threshold + 1)):
        raise ValueError(f"values laid out as {values.shape}, not as the rules' {layout}")
    return c, values


def play_games(
    solution: Solution | Compiled,
    games: int,
    seed: int,
    *,
    batch: int = 1 << 19,
    progress: Callable[[int, int], None] | None = None,
    first_game: int = 0,
    values: Values | None = None,
) -> Played:
    """Play ``games`` games of ``solution``'s rule set optimally, or by ``values`` (laid out as a
    solution's values; ``solution`` may then be the compiled rules alone): the heuristic bot's own
    table, as tournaments play it (:attr:`kniffel.planning.compiled.SheetSearch.values`).

    Game ``i`` uses the dice stream ``(seed, first_game + i)``, so splitting a run into parts with
    ``first_game`` gives the same games. ``progress(done, games)`` is called after every turn of every
    batch (``done`` counts whole games' worth of turns).
    """
    from kniffel.core.kernels.play import finish

    if games < 0:
        raise ValueError(f"the number of games must be at least 0, got {games}")
    c, values = played_by(solution, values)
    tables = c.kernel_tables
    base = stream_base(seed)
    scores = np.zeros(games, dtype=np.int64)
    bonus = np.zeros(games, dtype=np.bool_)
    five = np.zeros(games, dtype=np.bool_)
    extras = np.zeros(games, dtype=np.int64)
    turns = c.n_boxes
    no_log = np.zeros((0, 1, 1, 3), dtype=np.int32)
    boxes = np.zeros((turns, 1), dtype=np.int64)
    start = time.perf_counter()
    for lo in range(0, games, batch):
        n = min(batch, games - lo)
        g = Games.new(n, c.n_free - 1, base, first_game + lo)
        entered = np.zeros((turns, n), dtype=np.int32)
        for turn in range(turns):
            play_turn(g, no_log, turn, values, tables, -1, entered[turn])
            if progress is not None:
                progress(lo + (n * (turn + 1)) // turns, games)
        finish(g.score, g.free, c.free_points)
        scores[lo : lo + n] = g.score
        bonus[lo : lo + n] = g.flags & 1 != 0
        five[lo : lo + n] = g.flags & 2 != 0
        extras[lo : lo + n] = g.extras
        boxes = add_counts(boxes, entered_counts(entered, turns))
    return Played(scores, bonus, five, extras, time.perf_counter() - start, boxes)


def entered_counts(entered: npt.NDArray[np.integer[Any]], n_boxes: int) -> npt.NDArray[np.int64]:
    """``[box, points]``: how many of ``entered`` (``box << 16 | points``, as :func:`play_turn` keeps
    them) entered ``points`` in ``box``, as wide as the most points entered. Counted compiled, in one
    pass: numpy's ``bincount`` widens every code to 64 bits first, and the count runs on one processor
    after every batch of a simulation."""
    from kniffel.core.kernels.play import count_entered

    counts = np.zeros((n_boxes, 1 << 16), dtype=np.int64)
    count_entered(np.ascontiguousarray(entered, dtype=np.int32).ravel(), counts)
    held = np.flatnonzero(counts.any(axis=0))
    width = int(held[-1]) + 1 if len(held) else 1
    return np.ascontiguousarray(counts[:, :width])


def box_counts(entries: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """``[box, points]``: how many rows of ``entries`` (``[game, box]``, the points each game entered in
    each box) hold ``points`` in ``box``."""
    n_boxes = entries.shape[1]
    return entered_counts((np.arange(n_boxes, dtype=np.int64) << 16) | entries, n_boxes)


def add_counts(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The sum of two ``[box, points]`` counts (:attr:`Played.boxes`), as wide as the wider."""
    width = max(a.shape[1], b.shape[1])
    out = np.zeros((a.shape[0], width), dtype=np.int64)
    out[:, : a.shape[1]] += a
    out[:, : b.shape[1]] += b
    return out


@dataclass(frozen=True)
class Throw:
    keep: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True)
class TurnRecord:
    """One turn of a traced game: its throws, then the box filled and the points it paid."""

    throws: tuple[Throw, ...]
    box: str
    points: int
    extra: int


def trace(
    solution: Solution | Compiled, seed: int, game: int = 0, *, values: Values | None = None
) -> tuple[list[TurnRecord], int]:
    """Game number ``game`` of the run with ``seed``, decision by decision, and its final score (the same
    game :func:`play_games` plays, by the same ``values``; for tests and for showing what the policy did)."""
    from kniffel.core.kernels.play import finish

    c, values = played_by(solution, values)
    k = keep_lattice(c.rules.dice)
    g = Games.new(1, c.n_free - 1, stream_base(seed), game)
    steps = c.rules.rolls + c.rules.free_throws_per_turn + 1
    log = np.full((1, c.n_boxes, steps, 3), -1, dtype=np.int32)
    for turn in range(c.n_boxes):
        play_turn(g, log, turn, values, c.kernel_tables, -1)
    finish(g.score, g.free, c.free_points)
    records = []
    for turn in range(c.n_boxes):
        throws: list[Throw] = []
        for step in range(steps):
            keep, roll, packed = (int(x) for x in log[0, turn, step])
            if keep == -2:
                records.append(
                    TurnRecord(tuple(throws), c.rules.boxes[roll].id, packed >> 16, packed & 0xFFFF)
                )
                break
            throws.append(Throw(k.keeps[keep], k.keeps[k.first_roll + roll]))
    return records, int(g.score[0])


def dealt_faces(seed: int, seat: int, turn: int, throw: int, n: int) -> tuple[int, ...]:
    """The faces of ``n`` dice of throw ``throw`` (from 1) of ``seat``'s turn ``turn`` in the deal of
    ``seed``: what the compiled games of a deal throw there, whatever was played before."""
    from kniffel.core.kernels.play import deal_faces

    faces = np.empty(n, dtype=np.int64)
    deal_faces(np.uint64(seed & MASK64), seat, turn, throw, faces)
    return tuple(int(face) for face in faces)
