"""A single-column rule set turned into the integer tables the solver's kernels read.

Nothing here scores a roll: the points come from :attr:`RuleSet.score_table` and the rule declaration, and
every table is checked against :func:`kniffel.rules.placements` (the one statement of where a roll may go
and what it pays) before it is used: a sample of states at build time, every state in the tests. A rule
set whose placements the fast derivation does not reproduce is asked state by state instead.

A *state* between turns is ``(mask, armed, free, up)``: the filled boxes as a bit mask (bit ``b`` for box
``b`` of :attr:`RuleSet.boxes`), whether the five-of-a-kind box holds points (only tracked when it changes
what a later five of a kind pays), the free throws left (Knöffel) and the upper-section score capped at
the bonus threshold.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import I32, I64, read_only
from kniffel.base.dice import FACES, Roll, roll_index, sorted_rolls
from kniffel.base.errors import KniffelError
from kniffel.base.keeps import keep_lattice
from kniffel.rules import Column, Extra, Order, RuleSet, Section, placements, reachable_boxes

if TYPE_CHECKING:
    from kniffel.core.kernels.batch import SheetRules
    from kniffel.core.kernels.records import KernelTables


class UnsupportedRulesError(KniffelError):
    """A rule set (or column) the exact solver does not handle."""


@dataclass(frozen=True, eq=False)
class Compiled:
    """Integer tables of one single-column rule set (see the module docstring for the state)."""

    rules: RuleSet
    n_boxes: int
    threshold: int
    upper_bonus: int
    upper: I32
    """``[box]``: 1 for the upper section."""
    n_at_once: int
    """2 when the sharp doubling makes "thrown with all dice at once" matter, else 1."""
    base: I32
    """``[at_once, roll, box]``: points of a roll in a box outside the five-of-a-kind special cases."""
    alike: I32
    """``[roll]``: face - 1 of an all-alike roll that the extra rules may treat specially, else -1."""
    five: int
    """Index of the five-of-a-kind box, -1 if none."""
    n_armed: int
    """2 if the state tracks whether the five-of-a-kind box holds points, else 1."""
    n_free: int
    """Free-throw levels (free throws per column + 1)."""
    free_points: int
    free_per_turn: int
    allowed: I64
    """``[mask]``: bit mask of the boxes a roll may go in (before the special cases); 0 if unreachable."""
    joker: bool
    """Whether ``jpts``/``jbonus`` apply (an all-alike roll once the five-of-a-kind box is filled)."""
    jpts: npt.NDArray[np.int16]
    """``[mask, armed, at_once, face, box]``: points in each box, -1 where the roll may not go."""
    jbonus: npt.NDArray[np.int16]
    """``[mask, armed, face]``: the extra bonus earned on top."""
    levels: tuple[I64, ...]
    """Reachable masks by number of filled boxes (``levels[n]``)."""
    nup: I32
    """``[mask]``: upper scores that can occur, 0..nup-1 (all reachable ones, capped)."""
    lanes: I32
    """``[mask, 0 or 1]``: the upper scores the DP computes, ``lo .. hi - 1``. Scores below ``lo`` can no
    longer reach the bonus, so their values equal the value at ``lo``."""

    @property
    def n_masks(self) -> int:
        return 1 << self.n_boxes

    @property
    def n_aux(self) -> int:
        return self.n_armed * self.n_free

    @property
    def full_mask(self) -> int:
        return (1 << self.n_boxes) - 1

    @cached_property
    def upper_mask(self) -> int:
        return sum(1 << b for b in range(self.n_boxes) if self.upper[b])

    @cached_property
    def box_points(self) -> tuple[I64, ...]:
        """``[box]``: every number of points an entry can put in the box (a joker's included)."""
        found = []
        for b in range(self.n_boxes):
            points = self.base[:, :, b].ravel()
            if self.joker and self.jpts.shape[0] > 1:
                points = np.concatenate([points, self.jpts[..., b].ravel()])
            # a joker's table marks "not here" with -1; counted rather than np.unique'd, which imports
            # numpy.ma (13 ms of every process that loads a table)
            found.append(read_only(np.flatnonzero(np.bincount(points[points >= 0])).astype(np.int64)))
        return tuple(found)

    @cached_property
    def box_most(self) -> I64:
        """``[box]``: the most points one entry can put in each box (a joker's included)."""
        return read_only(np.array([int(p.max(initial=0)) for p in self.box_points], dtype=np.int64))

    @cached_property
    def extra_most(self) -> int:
        """The largest extra bonus one entry can earn."""
        return int(self.jbonus.max()) if self.joker and self.jpts.shape[0] > 1 else 0

    def upper_subsets(self, masks: I64) -> I64:
        """The upper boxes each of ``masks`` holds, as an index of :attr:`upper_sums` (bit ``j`` for the
        ``j``-th upper box)."""
        return _subsets(masks, np.flatnonzero(self.upper))

    @cached_property
    def upper_sums(self) -> npt.NDArray[np.bool_]:
        """``[k, score]``: whether the upper boxes of subset ``k`` (:meth:`upper_subsets`) can hold
        ``score`` points in all, the last score standing for the threshold or more."""
        return read_only(self._sums(np.flatnonzero(self.upper), self.threshold))

    def lower_subsets(self, masks: I64) -> I64:
        """The other boxes (not upper) each of ``masks`` holds, as an index of :attr:`lower_sums` (bit
        ``j`` for the ``j``-th such box)."""
        return _subsets(masks, np.flatnonzero(self.upper == 0))

    @cached_property
    def lower_sums(self) -> I64:
        """``[k, points]``: how many sums of points the other boxes of subset ``k`` (:meth:`lower_subsets`)
        can hold in all that are less than ``points`` (jokers included): subset ``k`` can hold ``p``
        points when ``lower_sums[k, p + 1] > lower_sums[k, p]``."""
        boxes = np.flatnonzero(self.upper == 0)
        sums = self._sums(boxes, int(self.box_most[boxes].sum()))
        counts = np.zeros((len(sums), sums.shape[1] + 1), dtype=np.int64)
        np.cumsum(sums, axis=1, out=counts[:, 1:])
        return read_only(counts)

    def _sums(self, boxes: I64, top: int) -> npt.NDArray[np.bool_]:
        """``[k, points]``: whether the ``boxes`` of subset ``k`` (bit ``j`` for ``boxes[j]``) can hold
        ``points`` in all (jokers included), the last, ``top``, standing for ``top`` or more."""
        sums = np.zeros((1 << len(boxes), top + 1), dtype=np.bool_)
        sums[0, 0] = True
        for k in range(1, len(sums)):
            j = k.bit_length() - 1
            before = sums[k & ~(1 << j)]
            for p in np.minimum(self.box_points[int(boxes[j])], top):
                sums[k, p:] |= before[: top + 1 - p]
                sums[k, top] |= bool(before[top - p :].any())
        return sums

    @cached_property
    def pairs(self) -> tuple[I32, I32, I32]:
        """The distinct ``(box, points > 0)`` pairs of the base table, as ``pair_box``, ``pair_pts``, and
        ``nonzero[at_once, roll, i]``: the pairs a roll scores in (-1 pads)."""
        found: dict[tuple[int, int], int] = {}
        n_s, n_rolls, n_boxes = self.base.shape
        lists: list[list[list[int]]] = [[[] for _ in range(n_rolls)] for _ in range(n_s)]
        for s in range(n_s):
            for r in range(n_rolls):
                for b in range(n_boxes):
                    p = int(self.base[s, r, b])
                    if p > 0:
                        lists[s][r].append(found.setdefault((b, p), len(found)))
        width = max(1, max(len(row) for per_s in lists for row in per_s))
        nonzero = np.full((n_s, n_rolls, width), -1, dtype=np.int32)
        for s in range(n_s):
            for r in range(n_rolls):
                nonzero[s, r, : len(lists[s][r])] = lists[s][r]
        pair_box = np.array([b for b, _ in found], dtype=np.int32)
        pair_pts = np.array([p for _, p in found], dtype=np.int32)
        return pair_box, pair_pts, nonzero

    @cached_property
    def sheet_rules(self) -> SheetRules:
        """What a sheet's state is read with, as the compiled readers take it (made once: every position
        a query encodes reads it)."""
        from kniffel.core.kernels.batch import SheetRules

        # plain ints: a compiled reader takes one signature whatever integer types the rules hold
        return SheetRules(
            int(self.full_mask), self.allowed, int(self.threshold), int(self.upper_mask), self.nup,
            int(self.n_armed), int(self.five), int(self.n_free),
        )  # fmt: skip

    def aux(self, armed: int, free: int) -> int:
        return armed * self.n_free + free

    @cached_property
    def kernel_tables(self) -> KernelTables:
        """These tables and the keep lattice of the rule set's dice, as the compiled kernels take them."""
        from kniffel.core.kernels.records import KernelTables

        lattice = keep_lattice(self.rules.dice)
        pair_box, pair_pts, nonzero = self.pairs
        return KernelTables(
            n_boxes=self.n_boxes,
            five=int(self.five),
            n_armed=int(self.n_armed),
            n_free=int(self.n_free),
            free_points=int(self.free_points),
            per_turn=int(self.free_per_turn),
            rolls=int(self.rules.rolls),
            joker=bool(self.joker),
            threshold=int(self.threshold),
            upper_bonus=int(self.upper_bonus),
            upper_mask=int(self.upper_mask),
            allowed=self.allowed,
            alike=self.alike,
            jpts=self.jpts,
            jbonus=self.jbonus,
            lanes=self.lanes,
            pair_box=pair_box,
            pair_pts=pair_pts,
            nonzero=nonzero,
            first_roll=lattice.first_roll,
            size=lattice.size,
            child=lattice.child,
            parent=lattice.parent,
            roll_probs=lattice.roll_probs,
            choices=lattice.choices,
        )

    # --- the solver's view of a placement, for checks against the rules -------------------------

    def view(self, mask: int, armed: int, at_once: int, roll: int) -> dict[str, tuple[int, int]]:
        """Where roll number ``roll`` may go in state ``mask``/``armed`` and what it pays, as the
        kernels see it: ``{box id: (points, bonus)}``."""
        s = min(at_once, self.n_at_once - 1)
        face = int(self.alike[roll])
        boxes = self.rules.boxes
        if self.joker and face >= 0 and self.five >= 0 and mask >> self.five & 1:
            a = min(armed, self.n_armed - 1)
            row = self.jpts[mask, a, s, face]
            bonus = int(self.jbonus[mask, a, face])
            return {boxes[b].id: (int(row[b]), bonus) for b in range(self.n_boxes) if row[b] >= 0}
        allowed = int(self.allowed[mask])
        return {boxes[b].id: (int(self.base[s, roll, b]), 0) for b in range(self.n_boxes) if allowed >> b & 1}

    def filled_of(self, mask: int, armed: int) -> dict[str, int]:
        """A sheet with the boxes of ``mask`` filled (0 points, or 1 in an armed five-of-a-kind box)."""
        filled = {box.id: 0 for b, box in enumerate(self.rules.boxes) if mask >> b & 1}
        if armed and self.five >= 0:
            filled[self.rules.boxes[self.five].id] = 1
        return filled

    def mismatches(self, states: list[tuple[int, int, int, int]]) -> list[str]:
        """States ``(mask, armed, at_once, roll)`` where the tables disagree with the rules."""
        rolls = sorted_rolls(self.rules.dice)
        problems = []
        for mask, armed, at_once, roll in states:
            expected = {
                key: (p.points, p.bonus)
                for key, p in placements(
                    self.rules, self.filled_of(mask, armed), rolls[roll], thrown_at_once=bool(at_once)
                ).items()
            }
            got = self.view(mask, armed, at_once, roll)
            if got != expected:
                problems.append(
                    f"mask={mask:b} armed={armed} at_once={at_once} roll={rolls[roll]}: "
                    f"rules {expected}, solver {got}"
                )
        return problems

    def sample_states(self, count: int, seed: int = 0) -> list[tuple[int, int, int, int]]:
        """Random reachable states, half of them with an all-alike roll."""
        rng = random.Random(seed)
        masks = self._sample_masks
        alike = [r for r in range(len(self.alike)) if self.alike[r] >= 0] or [0]
        states = []
        for i in range(count):
            mask = int(masks[rng.randrange(len(masks))])
            armed = rng.randrange(self.n_armed) if self.five >= 0 and mask >> self.five & 1 else 0
            roll = rng.choice(alike) if i % 2 else rng.randrange(len(self.alike))
            states.append((mask, armed, rng.randrange(self.n_at_once), roll))
        return states

    @cached_property
    def _sample_masks(self) -> I64:
        return np.concatenate(self.levels[:-1])

    def all_states(self, alike_only: bool = False) -> list[tuple[int, int, int, int]]:
        """Every reachable state (with ``alike_only``, only the all-alike rolls)."""
        rolls = [r for r in range(len(self.alike)) if not alike_only or self.alike[r] >= 0]
        return [
            (int(mask), armed, s, r)
            for level in self.levels[:-1]
            for mask in level
            for armed in range(self.n_armed if self.five >= 0 and int(mask) >> self.five & 1 else 1)
            for s in range(self.n_at_once)
            for r in rolls
        ]


def _subsets(masks: I64, boxes: I64) -> I64:
    """The ``boxes`` each of ``masks`` holds, as a subset index (bit ``j`` for ``boxes[j]``)."""
    masks = np.asarray(masks, dtype=np.int64)
    found: I64 = np.zeros(masks.shape, dtype=np.int64)
    for j, b in enumerate(boxes):
        found |= ((masks >> int(b)) & 1) << j
    return found


def compile_rules(rules: RuleSet, *, check: int = 64) -> Compiled:
    """Tables for a single-column rule set; ``check`` random states are compared with the rules."""
    if rules.multi_column:
        raise UnsupportedRulesError(
            f"{rules.id} has {len(rules.columns)} columns; solve single_column(rules, i)"
        )
    column = rules.columns[0]
    if column.order is Order.ANNOUNCED:
        raise UnsupportedRulesError("an announced column is not solved exactly")
    n_boxes = len(rules.boxes)
    if n_boxes > 20:
        raise UnsupportedRulesError(f"{n_boxes} boxes are too many for the exact solver")
    rolls = sorted_rolls(rules.dice)
    n_rolls = len(rolls)
    table = rules.score_table.astype(np.int32)
    upper = np.array([box.section is Section.UPPER for box in rules.boxes], dtype=np.int32)
    figure = np.array([box.figure for box in rules.boxes], dtype=bool)
    n_at_once = 2 if rules.sharp else 1
    base = np.repeat(table[None], n_at_once, axis=0)
    if rules.sharp:
        base[1][:, figure] *= 2
    five = rules.box_index[rules.five_box] if rules.five_box is not None else -1
    alike = np.full(n_rolls, -1, dtype=np.int32)
    if five >= 0:
        for r, roll in enumerate(rolls):
            if len(set(roll)) == 1:
                alike[r] = roll[0] - 1
    track_armed = five >= 0 and (rules.extra_bonus != 0 or rules.extra is Extra.HUNDRED)
    n_armed = 2 if track_armed else 1

    full = (1 << n_boxes) - 1
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    allowed = np.zeros(1 << n_boxes, dtype=np.int64)
    if column.order is Order.FREE:
        allowed[:] = full & ~masks
        reach = masks
    else:
        reach = _reachable(rules, column, allowed)
    counts = ((masks[:, None] >> np.arange(n_boxes)) & 1).sum(axis=1)
    levels = tuple(np.sort(reach[counts[reach] == n]) for n in range(n_boxes + 1))

    jpts = np.full((1, 1, 1, 1, 1), -1, dtype=np.int16)
    jbonus = np.zeros((1, 1, 1), dtype=np.int16)
    joker = five >= 0
    compiled = Compiled(
        rules,
        n_boxes,
        rules.upper_bonus_threshold,
        rules.upper_bonus,
        upper,
        n_at_once,
        base,
        alike,
        five,
        n_armed,
        rules.free_throws + 1,
        rules.free_throw_points,
        rules.free_throws_per_turn,
        allowed,
        joker,
        jpts,
        jbonus,
        levels,
        np.zeros(1 << n_boxes, dtype=np.int32),
        np.zeros((1 << n_boxes, 2), dtype=np.int32),
    )
    if joker:
        fast = column.order is Order.FREE and rules.extra in _FAST_EXTRAS
        if fast:
            jpts, jbonus = _joker_tables_free(rules, table, base, upper, five, n_armed)
            compiled = dataclasses.replace(compiled, jpts=jpts, jbonus=jbonus)
            states = compiled.sample_states(check) + compiled.sample_states(check, seed=1)
            if check and compiled.mismatches(states):
                fast = False
        if not fast:
            jpts, jbonus = _joker_tables_asked(compiled)
            compiled = dataclasses.replace(compiled, jpts=jpts, jbonus=jbonus)
    if check:
        problems = compiled.mismatches(compiled.sample_states(check, seed=2))
        if problems:
            raise UnsupportedRulesError(
                f"{rules.id}: the solver's tables disagree with the rules: {problems[0]}"
            )
    nup, lanes = _upper_lanes(compiled)
    return dataclasses.replace(compiled, nup=nup, lanes=lanes)


_FAST_EXTRAS = (Extra.NONE, Extra.FORCED_JOKER, Extra.FREE_JOKER, Extra.HUNDRED)


def _reachable(rules: RuleSet, column: Column, allowed: I64) -> I64:
    """Masks reachable from the empty sheet under the column's fill order; fills ``allowed``."""
    index = rules.box_index
    seen = {0}
    frontier = [0]
    while frontier:
        nxt = []
        for mask in frontier:
            filled = {box.id: 0 for b, box in enumerate(rules.boxes) if mask >> b & 1}
            bits = 0
            for box in reachable_boxes(rules, filled, column):
                bits |= 1 << index[box.id]
            allowed[mask] = bits
            for b in range(len(rules.boxes)):
                if bits >> b & 1 and mask | 1 << b not in seen:
                    seen.add(mask | 1 << b)
                    nxt.append(mask | 1 << b)
        frontier = nxt
    return np.array(sorted(seen), dtype=np.int64)


def _joker_tables_free(
    rules: RuleSet, table: I32, base: I32, upper: I32, five: int, n_armed: int
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """All-alike rolls in a free column once the five-of-a-kind box is filled, per the :class:`Extra`
    policy (checked against :func:`placements` by the caller)."""
    n_boxes = len(rules.boxes)
    n_at_once = base.shape[0]
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    filled = (masks[:, None] >> np.arange(n_boxes)) & 1 == 1
    free = ~filled
    is_upper = upper == 1
    faces = np.array([box.face or 0 for box in rules.boxes])
    joker_pts = np.array([-1 if box.joker_points is None else box.joker_points for box in rules.boxes])
    figure = np.array([box.figure for box in rules.boxes], dtype=bool)
    index = roll_index(rules.dice)
    jpts = np.full((1 << n_boxes, n_armed, n_at_once, FACES, n_boxes), -1, dtype=np.int16)
    jbonus = np.zeros((1 << n_boxes, n_armed, FACES), dtype=np.int16)
    for armed in range(n_armed):
        bonus = rules.extra_bonus if armed else 0
        for f in range(FACES):
            roll: Roll = (f + 1,) * rules.dice
            pts = np.broadcast_to(table[index[roll]], free.shape).copy()
            allow = free.copy()
            match = faces == f + 1
            if rules.extra is Extra.HUNDRED and armed:
                pts[:, ~is_upper] = 0
            elif rules.extra is Extra.FREE_JOKER:
                upper_done = (filled & match).any(axis=1)
                use = upper_done[:, None] & (joker_pts >= 0)
                pts = np.where(use, joker_pts, pts)
            elif rules.extra in (Extra.FORCED_JOKER, Extra.HUNDRED):
                matching = free & match
                lower = free & ~is_upper
                has_match = matching.any(axis=1, keepdims=True)
                has_lower = lower.any(axis=1, keepdims=True)
                allow = np.where(has_match, matching, np.where(has_lower, lower, free))
                pts = np.where(~is_upper & (joker_pts >= 0), joker_pts, pts)
            for s in range(n_at_once):
                row = np.where(figure, pts * 2, pts) if s == 1 else pts
                jpts[:, armed, s, f, :] = np.where(allow, row, -1)
            jbonus[:, armed, f] = bonus
    return jpts, jbonus


def _joker_tables_asked(c: Compiled) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The same tables, asking :func:`placements` for every reachable state (slow, fully general)."""
    rules = c.rules
    jpts = np.full((c.n_masks, c.n_armed, c.n_at_once, FACES, c.n_boxes), -1, dtype=np.int16)
    jbonus = np.zeros((c.n_masks, c.n_armed, FACES), dtype=np.int16)
    index = rules.box_index
    for mask, armed, s, r in c.all_states(alike_only=True):
        if not mask >> c.five & 1:
            continue
        roll: Roll = sorted_rolls(rules.dice)[r]
        f = roll[0] - 1
        found = placements(rules, c.filled_of(mask, armed), roll, thrown_at_once=bool(s))
        for key, placement in found.items():
            jpts[mask, armed, s, f, index[key]] = placement.points
            jbonus[mask, armed, f] = placement.bonus
    return jpts, jbonus


def _upper_lanes(c: Compiled) -> tuple[I32, I32]:
    """For each mask, how many capped upper scores (from 0) can occur: the most its filled upper boxes
    can hold, capped at the threshold, plus one; and the range the DP computes (see
    :attr:`Compiled.lanes`): from the highest score that can no longer reach the bonus with the most the
    open upper boxes can add (or with no bonus at all, only the highest score)."""
    most = np.where(c.upper, c.box_most, 0)
    masks = np.arange(c.n_masks, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(c.n_boxes)) & 1
    reach = bits @ most
    nup: I32 = (np.minimum(reach, c.threshold) + 1).astype(np.int32)
    still = (1 - bits) @ most
    dead = c.threshold - still - 1 if c.upper_bonus else np.full(c.n_masks, c.threshold)
    lo = np.clip(dead, 0, nup - 1)
    lanes: I32 = np.stack([lo, nup], axis=1).astype(np.int32)
    return nup, lanes
