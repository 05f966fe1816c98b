"""Many games of players playing to win against players playing for points, compiled.

Each *deal* is played once in every seating, as :mod:`kniffel.services.tournament` plays it (duplicate play):
in seating ``s`` seat ``i`` holds role ``(i + s) % n``, and the dice of a seat's throw come from the deal,
the seat, the turn and the throw alone (:func:`kniffel.core.kernels.play.deal_start`, the dice of
:class:`kniffel.services.tournament.DealDice`), so the roles meet the same luck seat by seat. A role plays
either for the chance of finishing first (the value :class:`kniffel.planning.goals.WinPlanner` gives every
option; :func:`kniffel.core.kernels.win.win_turn`) or for points (the simulator's turn,
:func:`kniffel.core.play.play_turn`), by the solver's values or by another table of their layout:
the heuristic bot's on one column (:meth:`kniffel.planning.HeuristicPlanner.potential`) values an entry as
its points plus the change of such a table, so the same turn played by that table is the heuristic's turn.
A tie for first names every tied player a winner; the win is then shared (:meth:`Matches.shares`), and a
role playing to win values it so, at ``1/k`` of a win in a tie of ``k``, unless the table's house rule
makes a tie a win for every tied player (:func:`kniffel.rules.tie_wins_all`): then it values it at a
whole win, as the chances recorded before every turn do.

>>> from kniffel import rules
>>> from kniffel.core import solve
>>> from kniffel.core.winplay import play_to_win
>>> matches = play_to_win(solve(rules.get("yahtzee")), players=2, deals=1000, seed=1)  # doctest: +SKIP
>>> matches.shares()[:, 0].mean()                                                   # doctest: +SKIP
0.52...
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import F32, F64, I64, read_only
from kniffel.base.errors import KniffelError
from kniffel.core.disttable import DistributionTable, build_table
from kniffel.core.kernels.play import Games
from kniffel.core.play import deal_seed, play_turn
from kniffel.core.points import Solution
from kniffel.core.runtime.work import run_ranges
from kniffel.core.tables import Compiled
from kniffel.core.target import as_played_to_win, early_rows
from kniffel.core.targetrows import TargetRows, solve_rows
from kniffel.rules import tie_wins_all

MAX_PLAYERS = 8
GAMES_PER_TASK = 128
"""Games whose turn to win a thread plays in one compiled call (their open games are swept
:data:`kniffel.core.kernels.win.LANES` at a time)."""
CHANCES_PER_TASK = 256
"""Games whose chances a thread works out in one compiled call (a few microseconds a game)."""


@dataclass(frozen=True)
class Matches:
    """Games of roles playing to win or for points. Game ``g`` is deal ``g % deals`` in seating
    ``g // deals`` (seat ``i`` holds role ``(i + seating) % players``)."""

    players: int
    deals: int
    aims: tuple[int, ...]
    """What each role plays for (:func:`play_to_win`)."""

    @property
    def to_win(self) -> tuple[bool, ...]:
        """Which roles play to win."""
        from kniffel.core.kernels.win import WIN

        return tuple(aim == WIN for aim in self.aims)

    scores: I64
    """``[game, seat]``: final scores."""
    predictions: F32 | None
    """``[game, turn, mover, seat]``: before the turn of seat ``mover`` in round ``turn``, each seat's chance
    of finishing first with everyone playing for points from there, a tie counted as the rules count it
    (:meth:`outcomes`; None when not asked for)."""
    seconds: float
    flags: npt.NDArray[np.int8] | None = None
    """``[game, seat]``: bit 0 the upper bonus earned, bit 1 points in the five-of-a-kind box (None where
    not kept)."""
    extras: I64 | None = None
    """``[game, seat]``: the extra bonuses earned (None where not kept)."""

    @property
    def seating(self) -> I64:
        """``[game]``: its seating."""
        return np.arange(self.games, dtype=np.int64) // max(self.deals, 1)

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def winners(self) -> npt.NDArray[np.bool_]:
        """``[game, seat]``: who finished first (every tied player)."""
        out: npt.NDArray[np.bool_] = self.scores == self.scores.max(axis=1, keepdims=True)
        return out

    def outcomes(self, shared: bool) -> F64:
        """``[game, seat]``: what each seat's game came to, as the chances of winning count it: its share
        of the win (``shared``), or 1 for every tied player (a tie wins for all)."""
        winners = self.winners
        out: F64 = winners / winners.sum(axis=1, keepdims=True) if shared else winners.astype(np.float64)
        return out

    def roles(self) -> I64:
        """``[game, role]``: the seat of each role."""
        out: I64 = (np.arange(self.players)[None, :] - self.seating[:, None]) % self.players
        return out

    def shares(self) -> F64:
        """``[game, role]``: each role's share of the win (1 alone, 1/k in a k-way tie, else 0)."""
        out: F64 = np.take_along_axis(self.outcomes(shared=True), self.roles(), axis=1)
        return out

    def role_scores(self) -> I64:
        """``[game, role]``: the final scores by role."""
        out: I64 = np.take_along_axis(self.scores, self.roles(), axis=1)
        return out

    def by_deal(self) -> I64:
        """``[deal, seating, role]``: the final scores as :class:`kniffel.services.tournament.Match` keeps
        them."""
        out: I64 = self.role_scores().reshape(self.players, self.deals, self.players).transpose(1, 0, 2)
        return np.ascontiguousarray(out)


def play_to_win(
    solution: Solution | Compiled,
    *,
    players: int,
    deals: int,
    seed: int,
    to_win: Sequence[bool] | None = None,
    aims: Sequence[int] | None = None,
    first_deal: int = 0,
    predict: bool = False,
    targets: TargetRows | None = None,
    distributions: DistributionTable | None = None,
    early: TargetRows | None = None,
    log: npt.NDArray[np.int32] | None = None,
    progress: Callable[[int, int], None] | None = None,
    values: Sequence[F64 | None] | None = None,
) -> Matches:
    """Play deals ``first_deal ..`` of ``solution``'s rule set (``deals`` of them, each in every seating:
    ``deals * players`` games) with each role playing for its aim: ``aims[role]`` is
    :data:`~kniffel.core.kernels.win.WIN`, :data:`~kniffel.core.kernels.win.POINTS` or a final score
    to reach (0 or more); ``to_win`` says it as a flag per role (win or points); by default role 0 plays
    to win, the others for points. The deals are :mod:`kniffel.services.tournament`'s for ``seed``. The target
    rows and distributions of every state are solved in memory (a minute or two for a full rule set) unless
    given or unneeded (no role to win or for a target, no ``predict``). A role playing to win reads the
    early levels from the early rows (``early``, :func:`kniffel.core.target.early_rows`, solved in
    memory unless given: play for points past their horizon) as :class:`kniffel.planning.WinPlanner`
    does, and the exact rows after them; a role for a target reads the exact rows. ``predict`` records
    every seat's chance of winning before every turn (:attr:`Matches.predictions`). ``log`` (``[seat,
    game, turn, step, 3]``, as :func:`kniffel.core.play.play_turn` keeps it) records the first
    games' every decision. ``progress(done, total)`` is called after every turn.

    ``values[role]``, where given, is the table a role playing for points plays by instead of the solver's
    values (``[aux, mask, up]`` over the states of the compiled rules, as :attr:`Solution.values`); where
    every role plays by such a table, ``solution`` may be the compiled rules alone
    (:func:`~kniffel.core.compile_rules`): nothing is solved."""
    from kniffel.core.kernels import win as win_kernels
    from kniffel.core.kernels.play import Turn, finish
    from kniffel.core.kernels.win import POINTS, WIN, FinalScores, TargetTables, win_turn

    if not 1 <= players <= MAX_PLAYERS:
        raise KniffelError(f"a table has 1 to {MAX_PLAYERS} players, got {players}")
    if deals < 0:
        raise KniffelError(f"the number of deals must be at least 0, got {deals}")
    if aims is None:
        flags = to_win if to_win is not None else (True,) + (False,) * (players - 1)
        aims = [WIN if flag else POINTS for flag in flags]
    roles = tuple(int(aim) for aim in aims)
    if len(roles) != players:
        raise KniffelError(f"say for each of the {players} players what it plays for")
    if any(aim < POINTS for aim in roles):
        raise KniffelError(f"an aim is WIN, POINTS or a score of 0 or more, got {min(roles)}")
    if players < 2 and (WIN in roles or predict):
        raise KniffelError(f"playing to win needs 2 to {MAX_PLAYERS} players, got {players}")
    c, optimal = (solution.compiled, solution.values) if isinstance(solution, Solution) else (solution, None)
    t = c.kernel_tables
    own = [None] * players if values is None else list(values)
    if len(own) != players:
        raise ValueError(f"give each of the {players} players a table of values or None")
    shape = (c.n_aux, c.n_masks, c.threshold + 1)
    for goal, given in zip(roles, own, strict=True):
        if given is not None and (goal != POINTS or given.shape != shape):
            raise ValueError(f"a table of values is for a player for points, of the shape {shape}")
    playing = any(aim != POINTS for aim in roles)
    winning = WIN in roles
    if optimal is None and (playing or predict or any(given is None for given in own)):
        raise ValueError("playing to win, for a target or by the solver's values needs the solved table")
    if playing:
        targets = targets or solve_rows(c)
    if winning or predict:
        assert isinstance(solution, Solution)
        distributions = distributions or build_table(solution)
    if any(given is not None and given.rules != c.rules for given in (targets, distributions, early)):
        raise KniffelError("the target and distribution tables are of other rules")
    # what each aim reads: the rows of a game to win, or the exact rows of a target
    rows_of: list[tuple[TargetRows, Callable[[I64], npt.NDArray[np.bool_]]]] = []
    if winning:
        assert targets is not None
        early = early or early_rows(c, use_cache=False, distributions=distributions)
        rows_of.append((as_played_to_win(targets, early), lambda aim: aim == WIN))
    if targets is not None:
        rows_of.append((targets, lambda aim: aim >= 0))
    # (arrays of the right types where no distribution is read, read-only as a table's are: the kernel
    # takes one signature, not a second compile of some seconds for games without a player to win)
    shared = not tie_wins_all(c.rules)
    finals = (
        FinalScores(
            read_only(np.zeros(1)),
            np.zeros((3, 1), dtype=np.int64),
            np.zeros((c.n_aux, c.n_masks), dtype=np.int64),
            0,
            shared,
        )
        if distributions is None
        else FinalScores(
            distributions.pmf,
            distributions.index,
            distributions.layout.lane_base,
            int(distributions.index[2].max()),
            shared,
        )
    )
    # the table each role plays for points by, as an index into ``boards``; -1 for a role playing for a goal
    boards: list[F64] = []
    board_of = np.full(players, -1, dtype=np.int64)
    for role, (goal, given) in enumerate(zip(roles, own, strict=True)):
        if goal == POINTS:
            by = optimal if given is None else given
            assert by is not None
            if not any(known is by for known in boards):
                boards.append(by)
            board_of[role] = next(i for i, known in enumerate(boards) if known is by)
    n = deals * players
    seeds = np.array([deal_seed(seed, first_deal + d) for d in range(deals)], dtype=np.uint64)
    table = Games(
        np.zeros((players, n), dtype=np.int64),
        np.zeros((players, n), dtype=np.int32),
        np.zeros((players, n), dtype=np.int8),
        np.full((players, n), c.n_free - 1, dtype=np.int8),
        np.zeros((players, n), dtype=np.int64),
        np.ascontiguousarray(np.tile(seeds, (players, players))),
        np.zeros((players, n), dtype=np.int8),
        np.zeros((players, n), dtype=np.int64),
    )
    seating = np.repeat(np.arange(players, dtype=np.int64), deals)
    steps = c.rules.rolls + c.rules.free_throws_per_turn + 1
    if log is None:
        log = np.zeros((players, 0, c.n_boxes, steps, 3), dtype=np.int32)
    turns = c.n_boxes
    predictions = np.zeros((n, turns, players, players), dtype=np.float32) if predict else None
    chances = np.empty((n, players))
    start = time.perf_counter()
    for turn in range(turns):
        for mover in range(players):
            if predictions is not None:
                run_ranges(
                    n,
                    CHANCES_PER_TASK,
                    partial(win_kernels.chances, table, finals, t, chances),
                )
                predictions[:, turn, mover, :] = chances
            aim = np.array(roles, dtype=np.int64)[(mover + seating) % players]
            for rows, reads in rows_of:
                chosen = reads(aim)
                if not chosen.any():
                    continue
                assert optimal is not None
                mine = Games._make(field[mover] for field in table)
                level, after = rows.levels[turn], rows.levels[turn + 1]
                assert level is not None
                assert after is not None
                played_for = np.where(chosen, aim, POINTS)
                reading = TargetTables(
                    level, after, rows.index, rows.layout.lane_base, rows.reach, rows.limit
                )
                moving = Turn(turn, mover, log[mover])
                turn_to_win = partial(win_turn, table, mine, played_for, moving, optimal, reading, finals, t)
                run_ranges(n, GAMES_PER_TASK, turn_to_win)
            # the seatings where ``mover``'s role plays for points, in runs of consecutive games played by
            # one table
            for lo, hi, board in _runs(board_of[(mover + seating) % players]):
                part = Games._make(field[mover, lo:hi] for field in table)
                play_turn(part, log[mover, lo:hi], turn, boards[board], t, mover)
            if progress is not None:
                progress(turn * players + mover + 1, turns * players)
    for s in range(players):
        finish(table.score[s], table.free[s], c.free_points)
    return Matches(
        players,
        deals,
        roles,
        np.ascontiguousarray(table.score.T),
        predictions,
        time.perf_counter() - start,
        np.ascontiguousarray(table.flags.T),
        np.ascontiguousarray(table.extras.T),
    )


def _runs(labels: I64) -> list[tuple[int, int, int]]:
    """The ``(start, stop, label)`` of every run of one label of 0 or more in ``labels``."""
    if labels.shape[0] == 0:
        return []
    cuts = (np.flatnonzero(np.diff(labels)) + 1).tolist()
    starts, stops = [0, *cuts], [*cuts, labels.shape[0]]
    return [(lo, hi, int(labels[lo])) for lo, hi in zip(starts, stops, strict=True) if labels[lo] >= 0]
