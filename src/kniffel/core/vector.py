"""Many single-column games in arrays, moved by one compiled step: what the vectorised environments
(:mod:`kniffel.env`) step, an agent's action a game at a time (:mod:`kniffel.core.kernels.env`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kniffel.base.dice import FACES, sorted_rolls
from kniffel.core.tables import Compiled

if TYPE_CHECKING:
    from kniffel.core.kernels.envvalues import Layout, TurnCache, TurnMemo
    from kniffel.core.kernels.records import Bound, KernelTables
    from kniffel.core.points import Solution

OBSERVED = (
    "dice", "counts", "rolls_left", "free_throws_taken", "thrown_at_once", "filled", "points", "upper_sum",
    "extra_bonus", "free_throws_left",
)  # fmt: skip
"""The fields a game is observed in, in the order the step's kernel reads their offsets."""


class VectorGames:
    """The state of ``n`` games of the compiled rules ``compiled`` in arrays, and the compiled step that
    moves them; an observation puts field ``name`` of :data:`OBSERVED` at ``offsets[name]`` (a field
    left out is not observed)."""

    def __init__(self, compiled: Compiled, n: int, offsets: Mapping[str, int]) -> None:
        from kniffel.core.kernels.env import N_OFFSETS, EnvGames, EnvRules

        n_dice, n_boxes = compiled.rules.dice, compiled.n_boxes
        self.dice = np.zeros((n, n_dice), dtype=np.int8)
        self.rolls = np.zeros(n, dtype=np.int8)
        self.taken = np.zeros(n, dtype=np.int8)
        self.at_once = np.zeros(n, dtype=np.int8)
        self.filled = np.zeros(n, dtype=np.int64)
        self.points = np.zeros((n, n_boxes), dtype=np.int32)
        self.upper = np.zeros(n, dtype=np.int32)
        self.extra = np.zeros(n, dtype=np.int32)
        self.free_left = np.zeros(n, dtype=np.int8)
        self.total = np.zeros(n, dtype=np.int64)
        self.rng = np.zeros(n, dtype=np.uint64)
        code_to_roll = np.full(FACES**n_dice, -1, dtype=np.int32)
        rolls = sorted_rolls(n_dice)
        for r, roll in enumerate(rolls):
            code_to_roll[sum((face - 1) * FACES**j for j, face in enumerate(roll))] = r
        roll_dice = np.array(rolls, dtype=np.int8)
        self.tables = EnvRules(compiled.kernel_tables, compiled.base, code_to_roll, roll_dice)
        self.offsets = np.array([offsets.get(name, -1) for name in OBSERVED], dtype=np.int64)
        assert len(OBSERVED) == N_OFFSETS
        self.state = EnvGames(
            self.dice, self.rolls, self.taken, self.at_once, self.filled, self.points, self.upper,
            self.extra, self.free_left, self.total, self.rng,
        )  # fmt: skip
        """The games' arrays as the kernels take them (the arrays are changed in place, never replaced)."""

    @property
    def n(self) -> int:
        return int(self.dice.shape[0])

    def new(self, seed: int) -> None:
        """Start every game afresh, the dice streams derived from ``seed``."""
        from kniffel.core.kernels.env import new_games
        from kniffel.core.kernels.play import streams
        from kniffel.core.play import stream_base

        self.rng[:] = streams(np.uint64(stream_base(seed)), np.uint64(0), self.n)
        new_games(0, self.state, self.tables)

    def stepper(
        self,
        actions: npt.NDArray[np.int64],
        masks: npt.NDArray[np.int8],
        obs: npt.NDArray[np.float32],
        *,
        penalty: float,
        rewards: npt.NDArray[np.float64],
        done: npt.NDArray[np.bool_],
        final: npt.NDArray[np.float64],
        legal: npt.NDArray[np.bool_],
        autoreset: bool = True,
    ) -> Bound:
        """A step of every game with these arrays, as a call without arguments to make after each change
        of ``actions``: apply ``actions`` where ``masks`` (the last observation's) allows them; elsewhere
        ``-penalty`` and no change. Then observe every game into ``obs`` and ``masks``, as :meth:`observe`
        does. Bound once, so that numba does not type some 50 arrays at every step (a third of the
        single-game environment's step)."""
        from kniffel.core.kernels.env import EnvResults, step
        from kniffel.core.kernels.records import Bound

        results = EnvResults(rewards, done, final, legal)
        return Bound(
            step, actions, masks, obs, self.offsets, penalty, autoreset, self.state, results, self.tables
        )

    def observer(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Bound:
        """:meth:`observe` into these arrays as a call without arguments (as :meth:`stepper`)."""
        from kniffel.core.kernels.env import observe
        from kniffel.core.kernels.records import Bound

        return Bound(observe, obs, masks, self.offsets, self.state, self.tables)

    def observe(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> None:
        from kniffel.core.kernels.env import observe

        observe(obs, masks, self.offsets, self.state, self.tables)

    def valuer(
        self,
        values: ActionValues,
        masks: npt.NDArray[np.int8],
        out: npt.NDArray[np.float64],
        best: npt.NDArray[np.int64],
    ) -> Callable[[], object]:
        """Every game's action values (:class:`ActionValues`) into ``out`` and ``best``, as the masks of
        the last observation allow the actions, as a call without arguments (bound as :meth:`stepper`
        binds the step) to make after every reset and step: it keeps each game's keep values from a
        turn's first decision for its later one (:class:`~kniffel.core.kernels.envvalues.TurnCache`).
        Many games are valued in parts on the compiled threads (:data:`PARALLEL_FROM`)."""
        from kniffel.core.kernels.env import EnvGames
        from kniffel.core.kernels.envvalues import Question, env_action_values
        from kniffel.core.kernels.records import Bound
        from kniffel.core.runtime.work import compiled_threads, run_parallel

        tables = values.solution.compiled.kernel_tables
        rows, games_of = np.zeros((self.n, 9), dtype=np.int64), np.zeros(self.n, dtype=np.int64)
        threads = compiled_threads()
        parts = 1 if self.n < PARALLEL_FROM else min(self.n // (PARALLEL_FROM // 2), 2 * threads)
        edges = np.linspace(0, self.n, parts + 1).astype(np.int64).tolist()
        bound = [
            Bound(
                env_action_values,
                EnvGames(*(field[lo:hi] for field in self.state)),
                self.tables,
                Question(
                    values.solution.values, tables, self.tables.base, values.layout, masks[lo:hi], out[lo:hi],
                    best[lo:hi],
                ),
                turn_cache(hi - lo, tables),
                turn_memo(hi - lo, tables.first_roll),
                rows[lo:hi],
                games_of[lo:hi],
            )
            for lo, hi in itertools.pairwise(edges)
        ]  # fmt: skip
        if len(bound) == 1:
            return bound[0]

        def value() -> None:
            run_parallel(len(bound), lambda part: bound[part]())

        return value


PARALLEL_FROM = 256
"""Games from which :meth:`VectorGames.valuer` values them in parts on the compiled threads (a part a
thread runs costs some milliseconds; a call of a thread some microseconds)."""


def turn_cache(games: int, tables: KernelTables) -> TurnCache:
    """A :class:`~kniffel.core.kernels.envvalues.TurnCache` of ``games`` games (with none, for a call
    alone: its slabs are made by the call), slabs enough for a call that sweeps every game."""
    from kniffel.core.kernels.common import BUNDLE
    from kniffel.core.kernels.envvalues import TurnCache

    kinds = tables.n_free * (tables.per_turn + 1) * tables.rolls + 1
    slabs = games // BUNDLE + kinds if games else 0
    return TurnCache(
        np.full(games, -1, dtype=np.int64),
        np.zeros(games, dtype=np.int64),
        np.zeros(games, dtype=np.int64),
        np.zeros(slabs * 2 * tables.first_roll * min(games, BUNDLE)),
        np.zeros(slabs + 1, dtype=np.int64),
        np.zeros(slabs, dtype=np.int64),
    )


def turn_memo(games: int, first_roll: int) -> TurnMemo:
    """A :class:`~kniffel.core.kernels.envvalues.TurnMemo` of :data:`MEMO_SLOTS` slots for ``games`` games
    (none for none)."""
    from kniffel.core.kernels.envvalues import TurnMemo

    slots = MEMO_SLOTS if games else 0
    keys = np.full(slots, -1, dtype=np.int64)
    return TurnMemo(keys, np.zeros(slots, dtype=np.int64), np.zeros((slots, 2, first_roll)))


MEMO_SLOTS = 1024
"""The slots of a :func:`turn_memo` (3.4 MB of Yahtzee's keeps): twice the early sheets random play of
Yahtzee meets (:data:`~kniffel.core.kernels.envvalues.MEMO_FILLED`)."""


class ActionValues:
    """Every legal action of single-column positions valued by the solved table ``solution`` (expected
    points still to come, this turn's included: the exact planner's values), in the environments' action
    layout (:mod:`kniffel.env.encoding`): a throw per bit mask of the sorted dice held, a score and a
    strike per box. Of the positions of many games at once (:meth:`VectorGames.valuer`) or of rows
    (:meth:`of_rows`), in one compiled call."""

    def __init__(self, solution: Solution) -> None:
        from kniffel.base.keeps import keep_lattice
        from kniffel.core.kernels.envvalues import Layout

        self.solution = solution
        lattice = keep_lattice(solution.rules.dice)
        n_dice = solution.rules.dice
        n_keeps = (1 << n_dice) - 1
        keep_of = np.zeros((lattice.n_rolls, n_keeps), dtype=np.int64)
        index_of = np.full((lattice.n_rolls, lattice.first_roll), -1, dtype=np.int64)
        for r in range(lattice.n_rolls):
            roll = lattice.keeps[lattice.first_roll + r]
            for bits in range(n_keeps):
                keep = lattice.index(tuple(face for i, face in enumerate(roll) if bits >> i & 1))
                keep_of[r, bits] = keep
                if index_of[r, keep] < 0:  # the smallest mask: the first matching dice
                    index_of[r, keep] = bits
        order = np.full(lattice.choices.shape, -1, dtype=np.int64)
        rank = np.zeros((lattice.n_rolls, n_keeps), dtype=np.int64)
        for r in range(lattice.n_rolls):
            held = [k for k in lattice.choices[r] if 0 <= k < lattice.first_roll]
            order[r, : len(held)] = [index_of[r, k] for k in held]
            rank[r] = [held.index(k) for k in keep_of[r]]
        self.layout: Layout = Layout(keep_of, index_of, order, rank)

    def of_rows(
        self,
        rows: npt.NDArray[np.int64],
        masks: npt.NDArray[np.int8],
        out: npt.NDArray[np.float64],
        best: npt.NDArray[np.int64],
    ) -> None:
        """``out[i, action]``: the value of every action ``masks[i]`` allows in the position ``rows[i]``
        (:meth:`kniffel.core.position.ColumnPosition.encode`), NaN for the others; ``best[i]`` the best
        of them, ties broken as the exact planner breaks them."""
        from kniffel.core.kernels.envvalues import Question, action_values

        games = np.arange(len(rows), dtype=np.int64)
        c = self.solution.compiled
        tables = c.kernel_tables
        question = Question(self.solution.values, tables, c.base, self.layout, masks, out, best)
        action_values(question, rows, games, turn_cache(0, tables), turn_memo(0, tables.first_roll))
