"""The turn search of a sheet of one or several columns, compiled: each column valued by a table over its
states, the best entry of every roll over the open columns and the keep values before every throw
(:mod:`kniffel.core.kernels.sheet`), for one position or for many games played side by side.

:class:`kniffel.planning.compiled.SheetSearch` is this search reading a game's position into the columns'
states and valuing its options; simulations play whole games with :meth:`SheetKernels.play`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import F64, I64
from kniffel.core.runtime.work import compiled_threads
from kniffel.core.tables import Compiled

BATCH = 4096
"""Games played per call of the kernel: progress is reported between calls."""


@dataclass(frozen=True)
class SheetGames:
    """What :meth:`SheetKernels.play` played: per game and column the points (bonuses included), whether
    the upper bonus was reached, whether the five-of-a-kind box holds points, and the extra bonuses."""

    totals: I64
    """``[game, column, (points, upper bonus, five, extra bonuses)]``."""
    seconds: float

    @property
    def scores(self) -> I64:
        scores: I64 = self.totals[:, :, 0].sum(axis=1)
        return scores


class SheetKernels:
    """The compiled search over the columns ``compiled`` (a column's tables as the solver compiles them;
    ``announced[c]`` where column ``c`` is announced), column ``c`` valued by ``values[c]`` (``[aux, mask,
    up]`` as the solver lays it out), with ``rolls`` throws a turn; announcing is chosen only when it is
    worth ``announce_margin`` more than not announcing."""

    def __init__(
        self,
        compiled: Sequence[Compiled],
        values: Sequence[F64],
        announced: Sequence[bool],
        rolls: int,
        *,
        announce_margin: float = 0.0,
    ) -> None:
        from kniffel.core.kernels.sheet import sheet_tables, stacked_values

        self.compiled = tuple(compiled)
        self.rolls = rolls
        self.announce_margin = announce_margin
        self.tables = sheet_tables([c.kernel_tables for c in self.compiled])
        self.announced = np.array(announced, dtype=np.int64)
        self.values: F64 = stacked_values(values)
        self.threads = compiled_threads()
        """Threads that play a batch of games side by side (numba's thread count: ``NUMBA_NUM_THREADS``)."""

    @staticmethod
    def ready() -> bool:
        """Whether the search's kernel is compiled, in this process or in the disk cache. Its first
        compile takes 20-30 s: a player people wait for plays the Python lookahead until then."""
        from kniffel.core.kernels.sheet import turn_values
        from kniffel.core.runtime.precompile import needs_compiling

        return not needs_compiling(turn_values)

    def turn(self, mask: I64, armed: I64, up: I64) -> tuple[F64, F64, I64]:
        """The turn from the columns' states ``(mask, armed, up)``: ``stop[at_once, roll, lane]``, the
        value of scoring each roll, ``keeps[rolls_left - 1, keep, lane]``, the value of holding each keep
        and throwing, and the ``(column, box)`` of each lane past the first (lane 0: nothing announced;
        lane ``1 + i``: box ``announceable[i]`` announced)."""
        from kniffel.core.kernels.sheet import turn_values

        stop, keeps, announceable = turn_values(
            self.tables, self.values, self.announced, mask, armed, up, self.rolls
        )
        return stop, keeps, announceable

    def play(
        self,
        games: int,
        base: int,
        first_game: int = 0,
        *,
        log: npt.NDArray[np.int32] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> SheetGames:
        """Games ``first_game .. first_game + games - 1`` of the dice streams of ``base``
        (:func:`kniffel.core.play.stream_base`), each to the end, and the seconds they took. ``log``
        (``[game, turn, step, 3]``) records the first games' throws and entries (see
        :func:`~kniffel.core.kernels.sheet.play_games`)."""
        from kniffel.core.kernels.play import streams
        from kniffel.core.kernels.sheet import play_games

        totals = np.zeros((games, len(self.compiled), 4), dtype=np.int64)
        no_log = np.zeros((0, 1, 1, 3), dtype=np.int32)
        start = time.perf_counter()
        with ThreadPoolExecutor(self.threads) as pool:
            for lo in range(0, games, BATCH):
                n = min(BATCH, games - lo)
                rng = streams(np.uint64(base), np.uint64(first_game + lo), n)
                part = totals[lo : lo + n]
                run = partial(
                    play_games,
                    self.tables,
                    self.values,
                    self.announced,
                    self.rolls,
                    self.announce_margin,
                    rng,
                    part,
                    log if lo == 0 and log is not None else no_log,
                )
                bounds = np.linspace(0, n, min(self.threads, n) + 1).astype(int).tolist()
                list(pool.map(run, bounds[:-1], bounds[1:]))
                if progress is not None:
                    progress(lo + n, games)
        return SheetGames(totals, time.perf_counter() - start)
