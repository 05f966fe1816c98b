"""Playing for a target: the largest probability of finishing with at least so many points.

Maximising the expected score is not what a player behind wants: 40 points short with two turns left, the
long shot is right. A *target table* holds, for every state between turns, ``P(u)``: the probability of
still making at least ``u`` more points when every decision is taken to make exactly that probability as
large as possible (a different policy for each ``u``). It is the expected-score DP with a vector over
``u`` (:mod:`kniffel.solver.targetkernels`), solved once per rule set and cached beside the value tables.

The vector of a state stops where its open boxes cannot pay more, and every vector stops at the table's
*limit* (:func:`default_limit`: the most a game can score with at most one extra five of a kind): a
target further away than that is answered with the probability at the limit, an upper bound that
is flagged (:attr:`TargetAnswer.beyond`). Probabilities are stored as float32 (7 significant digits).

>>> from kniffel import rules
>>> from kniffel.solver.target import target_table
>>> table = target_table(rules.get("yahtzee"))              # doctest: +SKIP
>>> round(table.probability({}, 250), 4)                    # doctest: +SKIP
0.5...
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kniffel.dice import validate_dice
from kniffel.errors import SituationError
from kniffel.game import FreeThrow, Roll, Score
from kniffel.keeps import keep_lattice
from kniffel.rules import RuleSet, Section, placements
from kniffel.solver import cache
from kniffel.solver.advisor import Advisor, Option, State
from kniffel.solver.compile import Compiled, compile_rules

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

KIND = "target"


def default_limit(c: Compiled) -> int:
    """The most points a game of these rules can make with at most one extra five of a kind: every box
    at its best, the upper bonus, every free throw unused, and one extra five of a kind's worth. Targets
    beyond it are out of the table's reach (one game in many millions gets there)."""
    best = sum(int(c.base[:, :, b].max()) for b in range(c.n_boxes))
    extra = 0
    if c.joker and c.jpts.shape[0] > 1:
        extra = int(c.jbonus.max()) + max(0, int(c.jpts.max()) - int(c.base.max()))
    return best + c.upper_bonus + c.free_points * (c.n_free - 1) + extra


@dataclass(frozen=True, eq=False)
class Layout:
    """Where each state's vector lies in the flat probability array (see :mod:`targetkernels`)."""

    starts: I64
    """``[aux, mask]``: the first row of the state; -1 where no such state is reachable."""
    widths: I64
    """``[mask]``: how many values a row holds (``u = 0 .. width - 1``)."""
    reach: I64
    """``[mask]``: the most points the open boxes can still pay (bonuses and free throws included): the
    row stops there, or at the limit if that is less."""
    size: int
    """Values in all."""


def layout(c: Compiled, limit: int) -> Layout:
    """Rows for every reachable state: the upper scores the DP computes, each free-throw level, the armed
    variants where the five-of-a-kind box is filled; a row as long as the open boxes can pay."""
    most = np.zeros(c.n_boxes, dtype=np.int64)
    for b in range(c.n_boxes):
        most[b] = int(c.base[:, :, b].max())
        if c.joker and c.jpts.shape[0] > 1:
            most[b] = max(most[b], int(c.jpts[..., b].max()))
    extra = int(c.jbonus.max()) if c.joker and c.jpts.shape[0] > 1 else 0
    masks = np.arange(c.n_masks, dtype=np.int64)
    open_bits = 1 - ((masks[:, None] >> np.arange(c.n_boxes)) & 1)
    upper_open = (open_bits * c.upper[None, :]).any(axis=1)
    bound = (
        open_bits @ most
        + np.where(upper_open, c.upper_bonus, 0)
        + open_bits.sum(axis=1) * extra
        + c.free_points * (c.n_free - 1)
    )
    widths = np.minimum(bound, limit) + 1
    starts = np.full((c.n_aux, c.n_masks), -1, dtype=np.int64)
    size = 0
    for level in c.levels:
        for mask in level.tolist():
            rows = 1 if mask & c.upper_mask == c.upper_mask else int(c.lanes[mask, 1] - c.lanes[mask, 0])
            armed = c.n_armed if c.five >= 0 and mask >> c.five & 1 else 1
            for a in range(armed):
                for f in range(c.n_free):
                    starts[c.aux(a, f), mask] = size
                    size += rows * int(widths[mask])
    return Layout(starts, widths.astype(np.int64), bound.astype(np.int64), size)


def _items(c: Compiled, level: I64) -> I64:
    """The rows ``(mask, armed, up)`` of one level that the DP computes (free-throw levels together)."""
    items: list[tuple[int, int, int]] = []
    for mask in level.tolist():
        lo, hi = (
            (0, 1) if mask & c.upper_mask == c.upper_mask else (int(c.lanes[mask, 0]), int(c.lanes[mask, 1]))
        )
        armed = c.n_armed if c.five >= 0 and mask >> c.five & 1 else 1
        items.extend((mask, a, up) for a in range(armed) for up in range(lo, hi))
    return np.array(items, dtype=np.int64).reshape(-1, 3)


@dataclass(frozen=True, eq=False)
class TargetTable:
    """The solved target table of a single-column rule set: ``row(state)[u]`` is the largest probability
    of making at least ``u`` more points from the start of a turn in ``state``."""

    compiled: Compiled
    limit: int
    layout: Layout
    prob: F32
    seconds: float
    """Time of the DP alone; 0 for a table loaded from disk."""

    @property
    def rules(self) -> RuleSet:
        return self.compiled.rules

    def row(self, state: State) -> F32:
        """``[u]``: the probability of making at least ``u`` more points (1 below the row, 0 past it
        unless the row reaches the limit; see :meth:`open_ended`)."""
        c = self.compiled
        start = int(self.layout.starts[c.aux(state.armed, state.free), state.mask])
        if start < 0:
            raise SituationError(f"{self.rules.id}: no such state in the target table")
        lo = int(c.lanes[state.mask, 0])
        index = 0 if state.mask & c.upper_mask == c.upper_mask else max(state.up, lo) - lo
        width = int(self.layout.widths[state.mask])
        return self.prob[start + index * width : start + (index + 1) * width]

    def open_ended(self, state: State) -> bool:
        """Whether the state's row stops at the limit rather than where the open boxes stop paying: then
        a target past it is read at the limit, an upper bound."""
        return bool(self.layout.reach[state.mask] > self.limit)


def shifted(row: F32, open_ended: bool, first: int, count: int) -> F64:
    """``row`` read at ``first .. first + count - 1``: 1 at or below 0, past the row 0, or the value at
    its end if it is ``open_ended`` (cut at the table's limit: an upper bound)."""
    u = np.arange(first, first + count)
    past = float(row[-1]) if open_ended else 0.0
    padded = np.concatenate([row.astype(np.float64), [past]])
    out: F64 = np.where(u <= 0, 1.0, padded[np.clip(u, 0, len(row))])
    return out


def solve_target(
    c: Compiled, limit: int | None = None, progress: Callable[[int, int], None] | None = None
) -> TargetTable:
    """Solve the target table of ``c`` up to ``limit`` points to come (:func:`default_limit`)."""
    import numba

    from kniffel.solver import targetkernels

    limit = default_limit(c) if limit is None else limit
    if limit < 0:
        raise SituationError(f"a target table's limit is a number of points, got {limit}")
    places = layout(c, limit)
    prob = np.zeros(places.size, dtype=np.float32)
    full = c.full_mask
    for aux in range(c.n_aux):
        start = int(places.starts[aux, full])
        if start >= 0:  # only unused free throws are left to come
            free = aux % c.n_free
            prob[start : start + min(int(places.widths[full]), c.free_points * free + 1)] = 1.0
    levels = [level for level in reversed(c.levels[:-1]) if len(level)]
    total = sum(len(level) for level in levels)
    kt = c.kernel_tables
    empty = np.zeros((0, 3), dtype=np.int64)
    targetkernels.solve_level(empty, prob, places.starts, places.widths, kt)  # compile or load now
    done = 0
    seconds = 0.0
    chunk = numba.set_parallel_chunksize(1)  # rows differ in width: threads take one at a time
    try:
        for level in levels:
            items = _items(c, level)
            begin = time.perf_counter()
            targetkernels.solve_level(items, prob, places.starts, places.widths, kt)
            seconds += time.perf_counter() - begin
            done += len(level)
            if progress is not None:
                progress(done, total)
    finally:
        numba.set_parallel_chunksize(chunk)
    prob.flags.writeable = False
    return TargetTable(c, limit, places, prob, seconds)


def target_table(
    rules: RuleSet,
    *,
    limit: int | None = None,
    use_cache: bool = True,
    directory: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TargetTable:
    """The target table of a single-column rule set, from the cache when a sound copy is there, else
    solved (and cached if ``use_cache``; a cache that cannot be written is not an error)."""
    c = compile_rules(rules)
    limit = default_limit(c) if limit is None else limit
    places = layout(c, limit)
    solved: list[TargetTable] = []

    def build() -> tuple[npt.NDArray[np.float32], dict[str, object]]:
        solved.append(solve_target(c, limit, progress))
        return solved[0].prob, {"rules": rules.id, "options": dict(rules.options), "limit": limit}

    path = cache.derived_path(rules, f"{KIND}-{limit}", directory)
    prob, _ = cache.cached_array(
        path, cache.table_key(rules), (places.size,), np.float32, build, use_cache=use_cache
    )
    seconds = solved[0].seconds if solved else 0.0
    return TargetTable(c, limit, places, np.asarray(prob, dtype=np.float32), seconds)


class TargetAdvisor:
    """Answers "what is the chance of reaching the target with each option" for one rule set: the target
    table for the values, an :class:`Advisor` for reading sheets (the same states and checks)."""

    def __init__(self, advisor: Advisor, table: TargetTable) -> None:
        if advisor.rules != table.rules:
            raise SituationError("the advisor and the target table are of different rules")
        self.advisor = advisor
        self.table = table
        self.rules = table.rules
        self.compiled = table.compiled
        self._keeps = keep_lattice(self.rules.dice)
        self._upper = {box.id for box in self.rules.boxes if box.section is Section.UPPER}

    @property
    def limit(self) -> int:
        return self.table.limit

    def scored(self, filled: Mapping[str, int], extra_bonus: int = 0) -> int:
        """The points of a sheet so far: its boxes, the upper bonus once earned and the extra bonuses
        (not in ``filled``: give them)."""
        from kniffel.solver.distribution import banked_points

        return banked_points(self.rules, filled, extra_bonus)

    def fold(self, state: State, first: int, weights: F64) -> tuple[int, F64]:
        """The targets of ``weights`` that the table answers from ``state``: past the limit, a state that
        can still make more reads them at the limit (an upper bound: their weights move onto it), and one
        that cannot makes none of them (their weights go)."""
        from kniffel.solver import winkernels

        folded = np.array(weights, dtype=np.float64)
        first, count = winkernels.fold(first, folded, len(folded), self.limit, self.table.open_ended(state))
        return first, folded[:count]

    def worth(
        self, filled: Mapping[str, int], first: int, weights: F64, free_throws_left: int | None = None
    ) -> float:
        """From the start of a turn: ``sum(weights[i] * P(making at least first + i more points))``,
        each target played for on its own (with one weight of 1, the probability of that target)."""
        state = self.advisor.state(filled, free_throws_left)
        weights = np.asarray(weights, dtype=np.float64)
        curve = shifted(self.table.row(state), self.table.open_ended(state), first, len(weights))
        return float(np.dot(weights, curve))

    def probability(
        self, filled: Mapping[str, int], needed: int, free_throws_left: int | None = None
    ) -> float:
        """The probability of making at least ``needed`` more points from the start of a turn."""
        return self.worth(filled, needed, np.ones(1), free_throws_left)

    def option_values(
        self,
        filled: Mapping[str, int],
        dice: Sequence[int],
        rolls_left: int,
        first: int,
        weights: F64,
        *,
        thrown_at_once: bool | None = None,
        free_throws_left: int | None = None,
        free_throws_used: int = 0,
    ) -> list[Option]:
        """Every legal option of a situation (as :meth:`Advisor.options` lists them), best first, valued
        by ``sum(weights[i] * P(making at least first + i more points, this turn's included))`` when the
        rest of the turn is played for that sum and later turns for each target on its own. With one
        weight of 1 that is the largest probability of making ``first`` more points; with the chances of
        the other players' best final score it is a chance of finishing first."""
        rules = self.rules
        c = self.compiled
        roll = validate_dice(list(dice), rules.dice)
        if not 0 <= rolls_left < rules.rolls:
            raise SituationError(f"rolls left must be 0 to {rules.rolls - 1}, got {rolls_left}")
        if len(weights) < 1:
            raise SituationError("weigh at least one target")
        if thrown_at_once is None:
            thrown_at_once = rolls_left == rules.rolls - 1
        s = self.advisor.state(filled, free_throws_left)
        if s.mask == c.full_mask:
            raise SituationError("the sheet is full")
        weights = np.asarray(weights, dtype=np.float64)
        result: list[Option] = []
        up_total = sum(int(p) for key, p in filled.items() if key in self._upper)
        for key, placement in placements(rules, filled, roll, thrown_at_once=thrown_at_once).items():
            b = rules.box_index[key]
            gained = placement.total
            up = s.up
            if key in self._upper:
                if up_total < c.threshold <= up_total + placement.points:
                    gained += c.upper_bonus
                up = min(c.threshold, up_total + placement.points)
            armed = int(placement.points > 0) if c.n_armed == 2 and b == c.five else s.armed
            after = State(s.mask | 1 << b, up, armed, s.free)
            curve = shifted(self.table.row(after), self.table.open_ended(after), first - gained, len(weights))
            result.append(Option(Score(key), float(np.dot(weights, curve))))
        usable = max(0, min(c.free_per_turn - free_throws_used, s.free))
        throw: type[Roll] = Roll
        if rolls_left > 0:
            keep_values = self._keep_values(s, s.free, rolls_left - 1, usable, first, weights)
        elif usable > 0:
            keep_values = self._keep_values(s, s.free - 1, 0, usable - 1, first, weights)
            throw = FreeThrow
        else:
            keep_values = None
        if keep_values is not None:
            for keep in self._keeps.keeps_of(roll):
                if len(keep) < len(roll):
                    result.append(Option(throw(keep=keep), float(keep_values[self._keeps.index(keep)])))
        result.sort(key=lambda o: -o.value)
        return result

    def options(
        self,
        filled: Mapping[str, int],
        dice: Sequence[int],
        rolls_left: int,
        needed: int,
        *,
        thrown_at_once: bool | None = None,
        free_throws_left: int | None = None,
        free_throws_used: int = 0,
    ) -> list[Option]:
        """Every legal option with the largest probability of making at least ``needed`` more points
        (this turn's included) once it is taken, best first (ties as :meth:`Advisor.options`)."""
        return self.option_values(
            filled,
            dice,
            rolls_left,
            needed,
            np.ones(1),
            thrown_at_once=thrown_at_once,
            free_throws_left=free_throws_left,
            free_throws_used=free_throws_used,
        )

    def _keep_values(self, s: State, free: int, stages: int, usable: int, first: int, weights: F64) -> F64:
        """``[keep]``: the weighted value of holding each keep (not full rolls) and throwing the rest,
        with ``stages`` regular and ``usable`` free throws after that one."""
        from kniffel.solver import targetkernels

        c = self.compiled
        first, weights = self.fold(s, first, weights)
        table = np.empty((1, self._keeps.first_roll, 1))
        sv = np.empty((usable + 1, 2 if c.rules.sharp else 1, self._keeps.n_rolls, 1))
        targetkernels.turn_probabilities(
            s.mask, s.armed, s.up, free, usable, usable + stages + 1, first, len(weights),
            self.table.prob, self.table.layout.starts, self.table.layout.widths, c.kernel_tables,
            np.ascontiguousarray(weights), table, sv, None, None,
        )  # fmt: skip
        values: F64 = table[0, :, 0]
        return values
