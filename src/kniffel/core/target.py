"""Playing for a target: the largest probability of finishing with at least so many points.

Maximising the expected score is not what a player behind wants: 40 points short with two turns left, the
long shot is right. A state's *row* holds ``P(u)``: the probability of still making at least ``u`` more
points from the start of a turn in that state when every decision is taken to make exactly that
probability as large as possible (a different policy for each ``u``). It is the expected-score DP with a
vector over ``u`` (:mod:`kniffel.core.kernels.target`).

Rows are solved for the states a question can reach, not for every state: a *cone* is the states whose
sheets fill at least the boxes of a root state (the rest of one game), and each state's row is kept only
for its *window*, the targets the root's targets ``low .. high`` can leave it with (:func:`windows`). Late
in a game a cone is small (with seven boxes filled, 2**6 masks of 2**13), and a question about one target
needs a fraction of each row; the whole table (every state, every target up to the limit) is the cone of
the empty sheet. The values do not depend on the cone: a state's row is the same number wherever it is
solved.

Every row stops at the table's *limit* (:func:`default_limit`: the most a game can score with at most one
extra five of a kind): a target further away than that is answered with the probability at the limit, an
upper bound that is flagged. Probabilities are float32 (7 significant digits).

The rows and how a cone is solved are in :mod:`kniffel.core.targetrows` (their names are importable from
here too); this module keeps the early rows on disk and the cones in memory, and advises with them.

>>> from kniffel import rules
>>> from kniffel.core import TargetAdvisor, solve_rows
>>> from kniffel.core.tables import compile_rules
>>> rows = solve_rows(compile_rules(rules.get("yahtzee")), high=250)   # doctest: +SKIP
>>> round(rows.value(rows.root, 250), 4)                             # doctest: +SKIP
0.5...
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from kniffel.base.arrays import F32, F64, I64
from kniffel.base.errors import SituationError
from kniffel.core.advisor import Option, OptionRanker
from kniffel.core.disttable import DistributionTable, LevelTable
from kniffel.core.early import early_rows_levels, horizon_level
from kniffel.core.lanes import LaneLayout, lane_layout, level_of
from kniffel.core.points import Solution, table
from kniffel.core.position import ColumnPosition, SheetState
from kniffel.core.runtime.memo import Held
from kniffel.core.runtime.store import (
    cache_dir,
    derived_path,
    described,
    load_array,
    save_array,
    save_arrays,
    solving,
    table_key,
)
from kniffel.core.runtime.work import Cancel, Progress
from kniffel.core.tables import Compiled, compile_rules
from kniffel.core.targetrows import (
    Horizon,
    HorizonRows,
    TargetRows,
    default_limit,
    empty_state,
    points_left,
    solve_rows,
    windows,
)
from kniffel.rules import RuleSet

# --- the early rows on disk, cones in memory --------------------------------------------------------------

KIND = "win-early"
"""What the cache calls the early target rows (:func:`early_rows`; before their horizon, ``target-early``
held exact rows)."""


def early_paths(rules: RuleSet, directory: Path | None = None) -> tuple[Path, Path]:
    """The probabilities (``.npy``, the kept levels one after the other) and the index (``.npy``; the
    description beside the probabilities is JSON, written last) of a rule set's early rows."""
    base = derived_path(rules, KIND, directory)
    return base, base.with_name(f"{base.stem}-index.npy")


def _load_early(c: Compiled, directory: Path | None) -> TargetRows | None:
    rules = c.rules
    most_filled = early_rows_levels(c)
    layout = lane_layout(c, 0, most_filled)
    prob_path, index_path = early_paths(rules, directory)
    index = load_array(index_path, table_key(rules), (layout.n_lanes, 3), np.int64)
    if index is None:
        return None
    sizes = _level_sizes(layout, index)
    prob = load_array(prob_path, table_key(rules), (int(sizes.sum()),), np.float32)
    if prob is None:
        return None
    limit = default_limit(c)
    return _rows_of(c, layout, np.array(index), prob, sizes, limit, 0.0)


def _level_sizes(layout: LaneLayout, index: I64) -> I64:
    """The size of each level's array (offsets are per level)."""
    sizes = np.zeros(len(layout.level_start) - 1, dtype=np.int64)
    for n in layout.levels():
        a, b = int(layout.level_start[n]), int(layout.level_start[n + 1])
        if b > a:
            sizes[n] = int((index[a:b, 0] + index[a:b, 2]).max())
    return sizes


def _rows_of(
    c: Compiled, layout: LaneLayout, index: I64, prob: F32, sizes: I64, limit: int, seconds: float
) -> TargetRows:
    """Rows whose kept levels lie one after the other in ``prob``."""
    levels: list[F32 | None] = [None] * len(c.levels)
    at = 0
    for n in layout.levels():
        levels[n] = prob[at : at + int(sizes[n])]
        at += int(sizes[n])
    return TargetRows(
        c,
        limit,
        layout,
        index,
        tuple(levels),
        empty_state(c),
        1,
        limit,
        points_left(c),
        seconds,
        horizon_level(c),
    )


def early_rows(
    rules: RuleSet | Compiled,
    *,
    use_cache: bool = True,
    directory: Path | None = None,
    distributions: DistributionTable | LevelTable | HorizonRows | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> TargetRows:
    """The rows of the early sheets (at most :func:`early_rows_levels` boxes filled) for every target up
    to the limit, as a game to win reads them: play for points from the horizon on
    (:func:`~kniffel.core.early.horizon_level`, :class:`Horizon`; none on a small rule set, whose rows
    are exact). From the cache when a sound copy is there, else solved and cached if ``use_cache``
    (processes sharing the directory solve them once). ``distributions`` are those of the horizon's
    level (:class:`~kniffel.core.distribution.LevelTable`, a table that holds it, or its rows worked out
    as they were built: :func:`early_horizon`); by default they are built first."""
    c = rules if isinstance(rules, Compiled) else compile_rules(rules)
    if use_cache:
        found = _load_early(c, directory)
        if found is not None:
            return found
    prob_path, index_path = early_paths(c.rules, directory)
    with solving(prob_path, also=(index_path,)) if use_cache else contextlib.nullcontext():
        if use_cache:
            found = _load_early(c, directory)
            if found is not None:
                return found
        horizon: Horizon | HorizonRows | None
        if isinstance(distributions, HorizonRows):
            horizon = distributions
        else:
            horizon = horizon_of(c, distributions, directory=directory, use_cache=use_cache)
        solved = solve_rows(
            c, most_filled=early_rows_levels(c), horizon=horizon, progress=progress, cancel=cancel
        )
        del horizon  # the horizon's rows (a hundred-odd MB) go before the rows are written and read back
        if not use_cache:
            return solved
        key = table_key(c.rules)
        details: dict[str, object] = {
            "rules": c.rules.id,
            "options": dict(c.rules.options),
            "kind": KIND,
            "limit": solved.limit,
            "most_filled": early_rows_levels(c),
            "horizon": solved.horizon,
            "seconds": solved.seconds,
        }
        with contextlib.suppress(OSError):
            save_array(index_path, key, solved.index, {**details, "kind": f"{KIND}-index"})
            # the kept levels one after the other, written as they are: joined, they were held twice
            save_arrays(prob_path, key, [level for level in solved.levels if level is not None], details)
    loaded = _load_early(c, directory)
    return solved if loaded is None else dataclasses.replace(loaded, seconds=solved.seconds)


def horizon_of(
    c: Compiled,
    distributions: DistributionTable | LevelTable | None = None,
    *,
    directory: Path | None = None,
    use_cache: bool = True,
) -> Horizon | HorizonRows | None:
    """The horizon of the early rows of ``c`` (None: they are exact), reading ``distributions`` (the
    horizon level's, or a table that holds it); worked out as the distributions are built when not
    given (:func:`early_horizon`)."""
    level = horizon_level(c)
    if level is None:
        return None
    if distributions is None:
        return early_horizon(c, directory=directory, use_cache=use_cache)
    if isinstance(distributions, DistributionTable):
        distributions = LevelTable.of(distributions, level)
    if distributions.level != level:
        raise SituationError(
            f"the horizon is at level {level}, the distributions at {distributions.level} (boxes filled)"
        )
    return Horizon(distributions)


def early_horizon(
    c: Compiled,
    solution: Solution | None = None,
    *,
    directory: Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> HorizonRows | None:
    """The rows of the early rows' horizon (None: they have none), worked out as every level's
    distributions are built, the early distribution table cached on the way if ``use_cache``
    (:func:`kniffel.core.distribution.with_levels`): the horizon level's distributions are never held
    whole (Yahtzee's take 365 MB). ``solution``: the table of expected points they are played by (by
    default the cache's)."""
    from kniffel.core.distribution import with_levels

    level = horizon_level(c)
    if level is None:
        return None
    rows = HorizonRows(c, level, directory)
    with_levels(
        table(c.rules) if solution is None else solution,
        rows.tap,
        directory=directory,
        progress=progress,
        cancel=cancel,
        use_cache=use_cache,
    )
    return rows


def as_played_to_win(rows: TargetRows, early: TargetRows) -> TargetRows:
    """Every state's rows (``rows``: exact, the empty sheet's cone) with the early levels read from the
    early rows (``early``, :func:`early_rows`): what a game played to win reads, the early rows at first
    and the cones of later positions, exact, after them. The compiled games
    (:mod:`kniffel.core.winplay`) play by these, so that they decide as the planners do."""
    if early.horizon is None:
        return rows
    last = max(n for n in range(len(early.levels)) if early.levels[n] is not None)
    cut = int(early.layout.level_start[last + 1])
    if rows.root != early.root or not np.array_equal(
        rows.layout.level_start[: last + 2], early.layout.level_start[: last + 2]
    ):
        raise SituationError("the early rows and the rows of every state are not of one table")
    index = rows.index.copy()
    index[:cut] = early.index[:cut]
    levels = early.levels[: last + 1] + rows.levels[last + 1 :]
    return dataclasses.replace(rows, index=index, levels=levels, horizon=early.horizon)


def early_rows_ready(rules: RuleSet, directory: Path | None = None) -> bool:
    """Whether the early rows of ``rules`` are in the cache (cheap: only the descriptions are read)."""
    return all(described(path, table_key(rules)) for path in early_paths(rules, directory))


MAX_HELD_BYTES = 768 << 20
"""Target rows a process keeps in memory at once (the least recently used are given up)."""
_held = Held[TargetRows](MAX_HELD_BYTES)


def _held_key(c: Compiled, directory: Path | None) -> tuple[str, str]:
    return table_key(c.rules), str(directory or cache_dir())


def is_early(c: Compiled, state: SheetState, turn: bool) -> bool:
    """Whether the early rows hold ``state`` (between turns, or with ``turn`` for its options)."""
    return level_of(state.mask) + int(turn) <= early_rows_levels(c)


def answered(c: Compiled, first: int, last: int) -> tuple[int, int]:
    """The targets rows are asked for when a question is about ``first .. last``: none below 1 (at or
    below 0 a target is made already) and none past the limit, where the rows stop (a target past it is
    read at the limit, :meth:`TargetAdvisor.fold`): a question past the limit asks for the limit."""
    limit = default_limit(c)
    return min(max(first, 1), limit), min(max(last, 1), limit)


def read_at_limit(c: Compiled, state: SheetState, needed: int) -> bool:
    """Whether the chance of making ``needed`` more points from ``state`` is read at the limit (the rows
    stop there, and the state can make more): then it is an upper bound, not the chance."""
    limit = default_limit(c)
    return needed > limit and bool(points_left(c)[state.mask] > limit)


@dataclasses.dataclass(frozen=True)
class RowsQuestion:
    """Rows that answer targets ``first .. last`` from ``state`` (between turns, or with ``turn`` for its
    options), asked of the rows held in memory (:meth:`held`) or of those and of what is solved now
    (:meth:`rows`). The targets are those :func:`answered` asks for (past the limit, the limit)."""

    compiled: Compiled
    state: SheetState
    first: int
    last: int
    turn: bool
    """Whether the options of ``state``'s turn are asked (they read the next level's rows, in the window
    of ``state``), or ``state`` itself between turns."""
    directory: Path | None = None
    """The table cache's folder (None: the user's)."""
    early: bool = True
    """Whether an early state reads the early rows (play for points past their horizon: what a game to
    win reads, not an exact target question) rather than its own cone."""

    def __post_init__(self) -> None:
        first, last = answered(self.compiled, self.first, self.last)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "last", last)

    def held(self) -> TargetRows | None:
        """Rows that answer it without solving anything: with :attr:`early`, the early rows if they are on
        disk; rows held in memory; else None."""
        c, state, first, last, turn = self.compiled, self.state, self.first, self.last, self.turn
        key = _held_key(c, self.directory)
        if self.early and is_early(c, state, turn) and early_rows_ready(c.rules, self.directory):
            rows = _held.get((*key, "early"))
            if rows is None:
                loaded = _load_early(c, self.directory)
                rows = None if loaded is None else _held.put((*key, "early"), loaded)
            if rows is not None and rows.covers(state, first, last, turn=turn):
                return rows
        return _held.find(
            lambda k, rows: (
                k[:2] == key
                and (self.early or rows.horizon is None)
                and rows.covers(state, first, last, turn=turn)
            )
        )

    def rows(self, cancel: Cancel | None = None, progress: Progress | None = None) -> TargetRows:
        """Rows that answer it: those :meth:`held` finds; else for an early state (with :attr:`early`)
        the early rows, solved and kept on disk first; else the cone of :attr:`state` for its targets,
        exact, solved now and held for the rest of the game (its later states are in it, with the
        targets they can need)."""
        found = self.held()
        if found is not None:
            return found
        c, state, first, last, turn = self.compiled, self.state, self.first, self.last, self.turn
        key = _held_key(c, self.directory)
        # the options are asked next: on a first run a helper process compiles their kernel meanwhile
        with _option_kernel_helper(c) if turn else contextlib.nullcontext():
            if self.early and is_early(c, state, turn):
                solved = early_rows(c, directory=self.directory, progress=progress, cancel=cancel)
                rows = _held.put((*key, "early"), solved)
                if rows.covers(state, first, last, turn=turn):
                    return rows
            cone = solve_rows(c, root=state, low=first, high=last, progress=progress, cancel=cancel)
        return _held.put((*key, state, first, last), cone)


def game_rows(c: Compiled, target: int, progress: Progress | None = None) -> TargetRows:
    """The rows games played for ``target`` from the empty sheet read, at every level (what compiled
    play takes, :func:`kniffel.core.winplay.play_to_win`): the cone of the empty sheet for it, held in
    memory for the next games. Rows held for a question hold the levels it reads, perhaps not every one."""
    first, last = answered(c, target, target)
    key = (*_held_key(c, None), "game", first, last)
    rows = _held.get(key)
    if rows is None:
        cone = solve_rows(c, root=empty_state(c), low=first, high=last, progress=progress)
        rows = _held.put(key, cone)
    return rows


def _option_kernel_helper(c: Compiled) -> contextlib.AbstractContextManager[None]:
    """A helper process compiling the option kernel (:func:`~kniffel.core.kernels.jobs.option_jobs`) while
    this process solves rows, if it is not compiled yet."""
    from kniffel.core.kernels.jobs import option_jobs
    from kniffel.core.kernels.target import target_options
    from kniffel.core.runtime.precompile import helping

    return helping(option_jobs(c.kernel_tables), target_options)


def question_kernels() -> tuple[Any, ...]:
    """The kernels a target question runs before its answer: its rows' loop, the windows' cut, the runs
    of asked targets, the rows' trim, its option kernel and the check that the rows answer it (what
    :func:`target_needs_compiling` and the warm-up, :mod:`kniffel.core.warm`, ask about)."""
    from kniffel.core.kernels.spans import all_reached, cut_windows, reached_runs, trim_zeros
    from kniffel.core.kernels.target import solve_target, target_options

    return (
        solve_target,
        cut_windows,
        reached_runs,
        trim_zeros,
        target_options,
        all_reached,
    )


def target_needs_compiling() -> bool:
    """Whether a target question would compile kernels before it solves anything: one of
    :func:`question_kernels` is neither compiled in this process nor in the disk cache. What a front end
    says while it waits depends on it."""
    from kniffel.core.runtime.precompile import needs_compiling

    return any(needs_compiling(kernel) for kernel in question_kernels())


def cone_size(c: Compiled, state: SheetState, first: int, last: int) -> int:
    """How many probabilities the cone of ``state`` for targets ``first .. last`` holds (what solving it
    costs, near enough), without solving it."""
    layout = lane_layout(c, state.mask)
    _, sizes = windows(c, layout, default_limit(c), state, *answered(c, first, last))
    return int(sizes.sum())


# --- advice ---------------------------------------------------------------------------------------------


class TargetAdvisor:
    """Answers "what is the chance of reaching the target with each option": the rows for the values,
    an :class:`OptionRanker` for reading sheets and ranking options (the same states, checks and order as
    the points' :class:`Advisor`, which is one; no expected points are read)."""

    def __init__(self, ranker: OptionRanker, rows: TargetRows) -> None:
        if ranker.rules != rows.rules:
            raise SituationError("the advisor and the target rows are of different rules")
        self.ranker = ranker
        self.rows = rows
        self.rules = rows.rules
        self.compiled = rows.compiled

    @property
    def limit(self) -> int:
        return self.rows.limit

    def scored(self, filled: Mapping[str, int], extra_bonus: int = 0) -> int:
        """The points of a sheet so far: its boxes, the upper bonus once earned and the extra bonuses
        (not in ``filled``: give them)."""
        from kniffel.core.distribution import banked_points

        return banked_points(self.rules, filled, extra_bonus)

    def fold(self, state: SheetState, first: int, weights: F64) -> tuple[int, F64]:
        """The targets of ``weights`` that the rows answer from ``state``: past the limit, a state that
        can still make more reads them at the limit (an upper bound: their weights move onto it), and one
        that cannot makes none of them (their weights go)."""
        from kniffel.core.kernels.win import fold

        folded = np.array(weights, dtype=np.float64)
        first, count = fold(first, folded, len(folded), self.limit, self.rows.open_ended(state))
        return first, folded[:count]

    def upper_bound(self, state: SheetState, needed: int) -> bool:
        """Whether the chance of making ``needed`` more points from ``state`` is read at the limit:
        :func:`read_at_limit`."""
        return read_at_limit(self.compiled, state, needed)

    def worth(
        self, filled: Mapping[str, int], first: int, weights: F64, free_throws_left: int | None = None
    ) -> float:
        """From the start of a turn: ``sum(weights[i] * P(making at least first + i more points))``,
        each target played for on its own (with one weight of 1, the probability of that target)."""
        state = self.ranker.state(filled, free_throws_left)
        weights = np.asarray(weights, dtype=np.float64)
        return float(np.dot(weights, self.rows.curve(state, first, len(weights))))

    def probability(
        self, filled: Mapping[str, int], needed: int, free_throws_left: int | None = None
    ) -> float:
        """The probability of making at least ``needed`` more points from the start of a turn."""
        return self.worth(filled, needed, np.ones(1), free_throws_left)

    def option_values(self, position: ColumnPosition, first: int, weights: F64) -> list[Option]:
        """Every legal option of ``position``, best first as :meth:`Advisor.options` ranks them, valued
        by ``sum(weights[i] * P(making at least first + i more points, this turn's included))`` when the
        rest of the turn is played for that sum and later turns for each target on its own. With one
        weight of 1 that is the largest probability of making ``first`` more points; with the chances of
        the other players' best final score it is a chance of finishing first."""
        from kniffel.core.kernels.target import Reading, TargetOptions, target_options

        if len(weights) < 1:
            raise SituationError("weigh at least one target")
        row, free = position.encode(self.compiled)
        state = SheetState(row[0], row[2], row[1], row[3])
        first, folded = self.fold(state, first, np.asarray(weights, dtype=np.float64))
        level = level_of(state.mask)
        if not self.rows.covers(state, first, first + len(folded) - 1, turn=True):
            raise SituationError(f"{self.rules.id}: these target rows do not cover the situation")
        child_level = self.rows.levels[level + 1]
        assert child_level is not None
        situation = np.array([row], dtype=np.int64)
        boxes = np.empty((1, self.compiled.n_boxes))
        keeps = np.empty((1, self.ranker.lattice.first_roll))
        kt = self.compiled.kernel_tables
        read = Reading(child_level, self.rows.index, self.rows.layout.lane_base)
        firsts, widths = np.array([first], dtype=np.int64), np.array([len(folded)], dtype=np.int64)
        # the weighed sums are of float32, as a game played to win compiled sums them
        # (:func:`kniffel.core.kernels.target.weighted_sum`)
        weights_row = np.ascontiguousarray(folded, dtype=np.float32).reshape(1, -1)
        weighed = TargetOptions(read, kt.lanes, firsts, widths, weights_row)
        target_options(weighed, kt, situation, boxes, keeps)
        return self.ranker.ranked_options(situation, boxes, keeps, free)[0]

    def options(self, position: ColumnPosition, needed: int) -> list[Option]:
        """Every legal option with the largest probability of making at least ``needed`` more points
        (this turn's included) once it is taken, best first (ties as :meth:`Advisor.options`)."""
        return self.option_values(position, needed, np.ones(1))


__all__ = [
    "KIND",
    "MAX_HELD_BYTES",
    "RowsQuestion",
    "TargetAdvisor",
    "answered",
    "as_played_to_win",
    "cone_size",
    "early_horizon",
    "early_paths",
    "early_rows",
    "early_rows_ready",
    "game_rows",
    "horizon_of",
    "is_early",
    "question_kernels",
    "read_at_limit",
    "target_needs_compiling",
]
