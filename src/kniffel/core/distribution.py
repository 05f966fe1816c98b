"""Exact distributions of the final score under optimal (expected-score) play, not simulations.

The policy is the one the solver's table defines and :mod:`kniffel.core.play` plays: every decision
maximises the expected final score, ties broken as the simulator breaks them. Under it each turn is a
Markov chain over keeps and rolls (:mod:`kniffel.core.kernels.distribution` pushes the probability
through it),
so the distribution of the points still to come from a between-turn state is the mixture of its turn's
outcomes, each the distribution of the state it leads to shifted by the points it gained. Computed from
the full sheet back to the empty one, that is one table for every state: a
:class:`DistributionTable`, cached on disk like the solved values (checksummed, locked while built,
rebuilt when damaged). A between-turn state's distribution is then a lookup
(:func:`state_distribution`), and a situation partway through a turn one turn's push and a mixture of
looked-up rows (:func:`situation_distribution`, :func:`option_distributions`).

>>> from kniffel import rules
>>> from kniffel.core.distribution import state_distribution
>>> start = state_distribution(rules.get("yahtzee"), {})          # doctest: +SKIP
>>> round(start.mean, 4), start.percentile(50), round(start.at_least(300), 4)  # doctest: +SKIP
(254.5877, 248, 0.1433)

The distributions, the table and how it is built are in :mod:`kniffel.core.disttable` (their names are
importable from here too), with how the long tail of each distribution is cut (:data:`TAIL`); this
module caches the tables and answers questions with them.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kniffel.base.arrays import F64, I64
from kniffel.base.errors import SituationError
from kniffel.base.files import atomic_stream, atomic_write
from kniffel.base.keeps import keep_lattice
from kniffel.core.advisor import Advisor, Option
from kniffel.core.disttable import (
    TAIL,
    DistributionTable,
    LevelTable,
    ScoreDistribution,
    Tap,
    build_levels,
    build_table,
)
from kniffel.core.early import early_levels
from kniffel.core.lanes import lane_layout, level_of
from kniffel.core.points import Solution, table
from kniffel.core.position import ColumnPosition, SheetState
from kniffel.core.runtime.memo import Held
from kniffel.core.runtime.spill import map_file
from kniffel.core.runtime.store import (
    SOLVER_VERSION,
    cache_dir,
    checksum,
    solving,
    spill_folder,
    table_key,
    table_path,
)
from kniffel.core.runtime.work import Cancel, Progress
from kniffel.engine.actions import Score
from kniffel.engine.sheet import ScoreSheet
from kniffel.rules import RuleSet, placements

FORMAT = "kniffel-score-distributions"
VERSION = 3
"""Bumped whenever the stored distributions or their layout change; part of the cache's description."""

# --- the cache ----------------------------------------------------------------------------------------------


KIND = "dist-early"
"""What the cache calls the early distribution table (:func:`distribution_table`)."""


def table_paths(rules: RuleSet, directory: Path | None = None) -> tuple[Path, Path, Path]:
    """The probabilities (raw float64), the index (``.npy``) and the description (JSON, written last) of
    a rule set's cached early distribution table, beside its solved values."""
    base = table_path(rules, directory)
    return (
        base.with_suffix(f".{KIND}.bin"),
        base.with_suffix(f".{KIND}-index.npy"),
        base.with_suffix(f".{KIND}.json"),
    )


def _file_checksum(path: Path) -> str:
    """CRC-32 of a file, as :func:`_save` computes it while writing: it finds damage five times as fast
    as BLAKE2, which is most of what loading a table of a gigabyte or two costs."""
    crc = 0
    with path.open("rb") as stream:
        while block := stream.read(1 << 24):
            crc = zlib.crc32(block, crc)
    return f"crc32:{crc:08x}"


def load_table(solution: Solution, directory: Path | None = None) -> DistributionTable | None:
    """The cached distribution table of ``solution``'s rules if a sound one exists, else None."""
    rules = solution.rules
    pmf_path, index_path, meta_path = table_paths(rules, directory)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        most_filled = early_levels(solution.compiled)
        layout = lane_layout(solution.compiled, 0, most_filled)
        if (
            not isinstance(meta, dict)
            or meta.get("format") != FORMAT
            or meta.get("version") != VERSION
            or meta.get("solver_version") != SOLVER_VERSION
            or meta.get("key") != table_key(rules)
            or meta.get("lanes") != layout.n_lanes
            or meta.get("tail") != TAIL
            or meta.get("most_filled") != most_filled
        ):
            return None
        count = int(meta["probabilities"])
        if pmf_path.stat().st_size != count * 8 or _file_checksum(pmf_path) != meta.get("checksum"):
            return None
        index = np.load(index_path, allow_pickle=False)
        if index.shape != (3, layout.n_lanes) or index.dtype != np.int64:
            return None
        if checksum(index.view(np.float64)) != meta.get("index_checksum"):
            return None
        if (index[0] < 0).any() or (index[2] < 1).any() or (index[0] + index[2] > count).any():
            return None
        with pmf_path.open("rb") as stream:  # mapped among the tables whose pages the process lets go
            pmf = np.frombuffer(map_file(stream.fileno(), count * 8), dtype="<f8") if count else np.zeros(0)
        return DistributionTable(solution, layout, pmf, index, 0.0)
    except Exception:  # any damage counts as a missing table, as for the solved values
        return None


def _save(
    solution: Solution,
    directory: Path | None,
    progress: Progress | None,
    cancel: Cancel | None,
    tap: Tap | None = None,
) -> tuple[float, dict[str, Any]]:
    """Build the early table straight into the cache's files, every level on its way through a file of
    its own beside them (:func:`build_levels`' ``spill``: a level of the whole table is up to half a
    gigabyte); ``tap`` sees every level, piece by piece, as :func:`build_levels` hands it."""
    rules = solution.rules
    pmf_path, index_path, meta_path = table_paths(rules, directory)
    pmf_path.parent.mkdir(parents=True, exist_ok=True)
    meta_path.unlink(missing_ok=True)
    crc = 0
    count = 0
    most_filled = early_levels(solution.compiled)
    with atomic_stream(pmf_path) as stream:

        def write(level: F64) -> None:
            nonlocal count, crc
            data = np.ascontiguousarray(level, dtype="<f8").data.cast("B")
            stream.write(data)
            crc = zlib.crc32(data, crc)
            count += len(level)

        layout, index, seconds = build_levels(
            solution, write, progress, 0, most_filled, cancel, tap, spill=pmf_path.parent
        )
    with atomic_stream(index_path) as stream:
        np.save(stream, index, allow_pickle=False)
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "solver_version": SOLVER_VERSION,
        "key": table_key(rules),
        "rules": rules.id,
        "options": dict(rules.options),
        "lanes": layout.n_lanes,
        "most_filled": most_filled,
        "tail": TAIL,
        "probabilities": count,
        "checksum": f"crc32:{crc:08x}",
        "index_checksum": checksum(index.view(np.float64)),
        "seconds": seconds,
    }
    atomic_write(meta_path, json.dumps(meta, indent=1))
    return seconds, meta


def distribution_table(
    source: RuleSet | Solution,
    *,
    use_cache: bool = True,
    directory: Path | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> DistributionTable:
    """The early distribution table of a single-column rule set (or of a solved one): the sheets with at
    most :func:`~kniffel.core.early.early_levels` boxes filled, whose cones are too large to solve
    when asked. From the cache when a sound copy is there, else built (all levels are computed, the early
    ones kept) and cached if ``use_cache`` (processes sharing the directory build it once). A cache that
    cannot be written is not an error. Later sheets are answered by cones (:func:`table_for`)."""
    solution = source if isinstance(source, Solution) else table(source, use_cache=use_cache)
    most_filled = early_levels(solution.compiled)
    if not use_cache:
        return build_table(solution, progress, most_filled=most_filled, cancel=cancel)
    found = load_table(solution, directory)
    if found is not None:
        return found
    pmf_path, index_path, _ = table_paths(solution.rules, directory)
    with solving(pmf_path, also=(index_path,)):
        found = load_table(solution, directory)
        if found is not None:
            return found
        try:
            seconds, _ = _save(solution, directory, progress, cancel)
        except OSError:
            return build_table(solution, progress, most_filled=most_filled, cancel=cancel)
    saved = load_table(solution, directory)
    if saved is None:  # written but unreadable (a full disk, a foreign process): keep it in memory
        return build_table(solution, progress, most_filled=most_filled, cancel=cancel)
    return DistributionTable(solution, saved.layout, saved.pmf, saved.index, seconds)


def with_levels(
    solution: Solution,
    tap: Tap,
    *,
    directory: Path | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    use_cache: bool = True,
) -> None:
    """Compute every level's distributions, handing each to ``tap`` piece by piece as it is computed
    (:data:`~kniffel.core.disttable.Tap`), and cache the early table on the way if ``use_cache`` (as
    :func:`distribution_table` caches it; one solve for both). Only a piece is held at a time beyond
    what the build holds (a level of the whole table is up to half a gigabyte)."""
    if use_cache:
        pmf_path, index_path, _ = table_paths(solution.rules, directory)
        with solving(pmf_path, also=(index_path,)):
            try:
                _save(solution, directory, progress, cancel, tap)
                return
            except OSError:  # a cache that cannot be written is not an error: solved in memory
                pass
    for spill in _spills(directory):
        try:
            build_levels(
                solution,
                lambda _: None,
                progress,
                0,
                early_levels(solution.compiled),
                cancel,
                tap,
                spill=spill,
            )
            return
        except OSError:
            if spill is None:
                raise


def _spills(directory: Path | None) -> tuple[Path | None, ...]:
    """Where the levels of a build pass, in the order tried: files beside the cache's (unnamed: nothing
    stays), then memory (None)."""
    folder = spill_folder(directory)
    return (None,) if folder is None else (folder, None)


def with_level(
    solution: Solution,
    level: int,
    *,
    directory: Path | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    use_cache: bool = True,
) -> LevelTable:
    """The distributions of every state with ``level`` boxes filled (held in memory: hundreds of
    megabytes for a middle level of a whole rule set), and the early table cached on the way if
    ``use_cache`` (:func:`with_levels`)."""
    if not 0 <= level < len(solution.compiled.levels) - 1:
        raise SituationError(
            f"{solution.rules.id}: no sheets to follow at this level (boxes filled: {level})"
        )
    pieces: list[F64] = []
    indexes: list[I64] = []
    stored = 0

    def keep(n: int, first_lane: int, probabilities: F64, index: I64) -> None:
        nonlocal stored
        if n == level:
            if first_lane == start:  # a solve begun again after a failed write: from the start
                pieces.clear()
                indexes.clear()
                stored = 0
            placed = index.copy()
            placed[0] += stored
            pieces.append(probabilities.copy())
            indexes.append(placed)
            stored += len(probabilities)

    start = int(lane_layout(solution.compiled).level_start[level])
    with_levels(solution, keep, directory=directory, progress=progress, cancel=cancel, use_cache=use_cache)
    pmf = np.concatenate(pieces) if pieces else np.zeros(0)
    return LevelTable(level, pmf, np.concatenate(indexes, axis=1) if indexes else np.zeros((3, 0), np.int64))


def early_table_ready(rules: RuleSet, directory: Path | None = None) -> bool:
    """Whether the early table of ``rules`` is in the cache (cheap: only its description is read)."""
    try:
        meta = json.loads(table_paths(rules, directory)[2].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("key") == table_key(rules) and meta.get("version") == VERSION


MAX_HELD_BYTES = 512 << 20
"""Cones and early tables a process keeps in memory at once (the least recently used are given up)."""
_held = Held[DistributionTable](MAX_HELD_BYTES)


def _held_key(solution: Solution, directory: Path | None) -> tuple[str, str]:
    return table_key(solution.rules), str(directory or cache_dir())


def held_table(
    source: RuleSet | Solution, state: SheetState, *, turn: bool = False, directory: Path | None = None
) -> DistributionTable | None:
    """A table covering ``state`` (with ``turn``, also the sheets its turn leads to) without solving
    anything: the early table if it is on disk, or a cone held in memory; else None."""
    solution = source if isinstance(source, Solution) else table(source)
    key = _held_key(solution, directory)
    if level_of(state.mask) + int(turn) <= early_levels(solution.compiled):
        found = _held.get((*key, "early"))
        if found is None and early_table_ready(solution.rules, directory):
            loaded = load_table(solution, directory)
            found = None if loaded is None else _held.put((*key, "early"), loaded)
        return found
    return _held.find(lambda k, table: k[:2] == key and k[2] != "early" and table.covers(state.mask))


def table_for(
    source: RuleSet | Solution | DistributionTable,
    sheet: Mapping[str, int] | None = None,
    free_throws_left: int | None = None,
    *,
    turn: bool = False,
    directory: Path | None = None,
    cancel: Cancel | None = None,
) -> DistributionTable:
    """A table that covers ``sheet`` (the empty sheet if None) between turns, or with ``turn`` also the
    sheets its turn leads to: ``source`` itself if it is a table, one :func:`held_table` finds, the early
    table for an early sheet (built and cached first if need be), else the cone of the sheet (solved in
    memory, a second or two, and held for the rest of the game: the sheet's later states are in it).
    Tables are held per process (:data:`MAX_HELD_BYTES`)."""
    if isinstance(source, DistributionTable):
        return source
    solution = source if isinstance(source, Solution) else table(source)
    state = Advisor(solution).state(dict(sheet or {}), free_throws_left)
    found = held_table(solution, state, turn=turn, directory=directory)
    if found is not None:
        return found
    key = _held_key(solution, directory)
    if level_of(state.mask) + int(turn) <= early_levels(solution.compiled):
        return _held.put((*key, "early"), distribution_table(solution, directory=directory, cancel=cancel))
    # kept in a file, mapped: a game holds a cone a player (a fifth of a GB for Yatzy's first ones)
    for spill in _spills(directory):
        try:
            cone = build_table(solution, within=dict(sheet or {}), cancel=cancel, spill=spill)
            break
        except OSError:
            if spill is None:
                raise
    return _held.put((*key, state.mask), cone)


# --- questions about situations ---------------------------------------------------------------------------


def banked_points(rules: RuleSet, sheet: Mapping[str, int], extra_bonus: int = 0) -> int:
    """The points a single-column sheet already holds: its boxes, the upper bonus once reached, and the
    extra bonuses earned (``extra_bonus``; a box->points sheet does not record them). Unused free throws
    are not counted: the distributions count them at the end."""
    totals = ScoreSheet(rules, dict(sheet)).column_totals(rules.columns[0])
    return totals.upper_total + totals.lower_sum + int(extra_bonus)


def state_distribution(
    source: RuleSet | Solution | DistributionTable,
    sheet: Mapping[str, int],
    free_throws_left: int | None = None,
    *,
    extra_bonus: int = 0,
) -> ScoreDistribution:
    """The distribution of the final score of a single-column sheet (box id -> points) before its next
    turn, under optimal play: a lookup in the cached table (built on first use, then loaded once per
    process). ``free_throws_left`` defaults to all (Knöffel); ``extra_bonus`` is the extra bonuses
    already on the sheet."""
    dist = table_for(source, sheet, free_throws_left)
    state = dist.advisor.state(sheet, free_throws_left)
    to_come = dist.points_to_come(dist.lane(state.armed, state.free, state.mask, state.up))
    return to_come.shifted(banked_points(dist.rules, sheet, extra_bonus))


def situation_distribution(
    source: RuleSet | Solution | DistributionTable, position: ColumnPosition, *, extra_bonus: int = 0
) -> ScoreDistribution:
    """The distribution of the final score from a single-column position under optimal play, with its
    dice showing (:func:`state_distribution` before a turn); ``extra_bonus`` is the extra bonuses already
    on the sheet."""
    dist = table_for(source, position.sheet, position.free_throws_left, turn=True)
    turn = _TurnOutcomes.of(dist, position)
    lanes, gains, probs = turn.outcomes(keep=-1)
    return turn.mixture(lanes, gains, probs).shifted(banked_points(dist.rules, position.sheet, extra_bonus))


def option_distributions(
    source: RuleSet | Solution | DistributionTable, position: ColumnPosition, *, extra_bonus: int = 0
) -> list[tuple[Option, ScoreDistribution]]:
    """Every option of a position (as :meth:`kniffel.core.Advisor.options` lists them, best first)
    with the distribution of the final score if it is taken and optimal play follows."""
    dist = table_for(source, position.sheet, position.free_throws_left, turn=True)
    turn = _TurnOutcomes.of(dist, position)
    banked = banked_points(dist.rules, position.sheet, extra_bonus)
    lattice = keep_lattice(dist.rules.dice)
    result = []
    for option in dist.advisor.options(position):
        if isinstance(option.action, Score):
            lanes, gains, probs = turn.entry(option.action.box)
        else:
            lanes, gains, probs = turn.outcomes(keep=lattice.index(option.action.keep))
        result.append((option, turn.mixture(lanes, gains, probs).shifted(banked)))
    return result


@dataclass(frozen=True)
class _TurnOutcomes:
    """The outcomes of a position's turn, from a table that covers it: the position, its row
    (:meth:`ColumnPosition.encode`) and the free throws still usable counted from the roll showing."""

    dist: DistributionTable
    at: ColumnPosition
    row: list[int]
    usable: int

    @classmethod
    def of(cls, dist: DistributionTable, at: ColumnPosition) -> _TurnOutcomes:
        """Checked and laid out as the advisor does it (the same refusals, the same turn fields)."""
        row, free_throw = at.encode(dist.compiled)
        mask, armed, up, free, _, _, _, usable, throws = row
        dist.lane(armed, free, mask, up)  # refuses a sheet the table does not cover
        # the row counts from the next throw: back to the throws the roll showing leaves
        return cls(dist, at, row, usable + 1 if free_throw else (usable if throws >= 0 else 0))

    def outcomes(self, keep: int) -> tuple[I64, I64, F64]:
        """The turn's outcomes from the roll showing (``keep`` < 0), or from holding keep number ``keep``
        and throwing the rest."""
        from kniffel.core.kernels.distribution import TurnState, situation_outcomes

        c = self.dist.compiled
        mask, armed, up, free, roll, at_once = self.row[:6]
        pos = self.at.rolls_left + self.usable - (0 if keep < 0 else 1)
        state = TurnState(mask, armed, up, free - self.usable)
        found: tuple[I64, I64, F64] = situation_outcomes(
            state, self.usable, self.dist.solution.values, c.kernel_tables, self.dist.layout.lane_base, pos,
            keep, roll, at_once,
        )  # fmt: skip
        return found

    def entry(self, box: str) -> tuple[I64, I64, F64]:
        """Scoring the roll showing in ``box``: one outcome for certain (the free throws still usable stay
        unused)."""
        from kniffel.core.kernels.common import scoring, settle

        c = self.dist.compiled
        mask, armed, up, free, _, at_once = self.row[:6]
        roll = tuple(sorted(self.at.dice))
        placement = placements(c.rules, dict(self.at.sheet), roll, thrown_at_once=bool(at_once))[box]
        b = c.rules.box_index[box]
        extra = placement.total - placement.points
        n = scoring(c.kernel_tables)
        child, armed, up, gain, _ = settle(n, mask, armed, b, placement.points, up, extra)
        lane = self.dist.lane(armed, free, child, up)
        return np.array([lane]), np.array([gain]), np.array([1.0])

    def mixture(self, lanes: I64, gains: I64, probs: F64) -> ScoreDistribution:
        from kniffel.core.kernels.distribution import situation_distribution

        d = self.dist
        low, pmf = situation_distribution(lanes, gains, probs, d.pmf, d.index[0], d.index[1], d.index[2])
        return ScoreDistribution(int(low), pmf)


__all__ = [
    "KIND",
    "banked_points",
    "distribution_table",
    "early_table_ready",
    "held_table",
    "load_table",
    "option_distributions",
    "situation_distribution",
    "state_distribution",
    "table_for",
    "table_paths",
    "with_level",
    "with_levels",
]
