"""The compiled turn (the kernels the DP, the optimal games and the advisor share) against a numpy twin.

:class:`Turns` below computes the values of one turn in one state with whole-array numpy operations over
the keep lattice's own numpy sweep (:meth:`kniffel.base.keeps.KeepLattice.keep_values`), written independently
of the kernels' loops; :func:`score_values`, :func:`sweep` and the advisor
(:data:`kniffel.core.kernels.points.points_options`) must give the same scoring values, keep values and option
values in every state, for every rule that changes them. Neither needs solved values for that: random ones,
differing in every state, show any disagreement at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kniffel import rules
from kniffel.base.dice import sorted_rolls
from kniffel.base.keeps import keep_lattice
from kniffel.core import Advisor, ColumnPosition, Compiled, Solution, compile_rules
from kniffel.core.kernels.common import entry_rows, score_values, sweep
from kniffel.rules import single_column

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


class Turns:
    """Turn values of one solved rule set (what does not depend on the state is prepared once)."""

    def __init__(self, c: Compiled, values: F64) -> None:
        self.c = c
        self.values = values
        top = int(c.base.max())
        if c.joker and c.jpts.shape[0] > 1:
            top = max(top, int(c.jpts.max()))
        self.points = np.arange(top + 1, dtype=np.int64)
        """Every number of points a box can pay, 0 included."""
        self.boxes = np.arange(c.n_boxes, dtype=np.int64)
        self.alike = np.flatnonzero(c.alike >= 0)
        self.faces = c.alike[self.alike].astype(np.int64)

    def entry_values(self, mask: int, armed: int, free: int, up: int) -> F64:
        """``[box, points]``: entering that many points in each box in state ``mask`` / ``armed`` at
        upper score ``up`` (with ``free`` free throws left after the turn): the points, the upper bonus
        if the score crosses the threshold, and the value of the state after; ``-inf`` for filled
        boxes."""
        c = self.c
        pts = self.points[None, :]
        upper = (c.upper == 1)[:, None]
        new_up = np.where(upper, np.minimum(up + pts, c.threshold), up)
        bonus = np.where(upper & (up < c.threshold) & (up + pts >= c.threshold), c.upper_bonus, 0)
        five = ((c.n_armed == 2) & (self.boxes == c.five))[:, None]
        new_armed = np.where(five, (pts > 0).astype(np.int64), armed)
        children = (mask | (1 << self.boxes))[:, None]
        lut: F64 = pts + bonus + self.values[new_armed * c.n_free + free, children, new_up]
        lut[(mask >> self.boxes) & 1 == 1] = -np.inf
        return lut

    def score_values(self, mask: int, armed: int, free: int, up: int) -> F64:
        """``[at_once, roll]``: the best points-now-plus-future of entering each roll: a box's points, or
        a strike for 0 (as :func:`kniffel.core.kernels.common.score_values`)."""
        c = self.c
        lut = self.entry_values(mask, armed, free, up)
        allowed = np.flatnonzero((int(c.allowed[mask]) >> self.boxes) & 1)
        n_s, n_rolls, _ = c.base.shape
        out = np.full((n_s, n_rolls), -np.inf)
        if len(allowed):
            # a strike is 0 points in any allowed box (disarming the five-of-a-kind box)
            strike = float(lut[allowed, 0].max())
            for s in range(n_s):
                best = lut[allowed[None, :], c.base[s][:, allowed]].max(axis=1)
                out[s] = np.maximum(best, strike)
        if c.joker and c.five >= 0 and mask >> c.five & 1 and len(self.alike):
            # a further five of a kind: where the extra rules send it, and what they pay
            extra = c.jbonus[mask, armed, self.faces].astype(np.float64)
            for s in range(n_s):
                pts = c.jpts[mask, armed, s][self.faces].astype(np.int64)
                paid = np.where(pts >= 0, lut[self.boxes[None, :], np.maximum(pts, 0)], -np.inf)
                out[s, self.alike] = paid.max(axis=1) + extra
        return out

    def keep_values(self, mask: int, armed: int, free: int, up: int, stages: int, usable: int) -> F64:
        """``[keep]``: the value of holding each keep and throwing the rest, when that throw leaves
        ``stages`` regular throws and ``usable`` free throws of the ``free`` left (as the kernels'
        :func:`~kniffel.core.kernels.common.sweep`); full keeps (nothing thrown) are ``-inf``."""
        lattice = keep_lattice(self.c.rules.dice)
        sharp = self.c.n_at_once == 2
        start = free - usable
        scores = {f: self.score_values(mask, armed, f, up) for f in range(start, free + 1)}
        after = scores[start]
        for step in range(usable + stages):
            # a throw earlier: the best of entering the roll (with one free throw more left after the turn
            # while the turn's free throws are being counted back) and throwing again from the best keep
            level = start + step + 1 if step < usable else free
            best = lattice.best_throw(lattice.keep_values(after[0], after[-1] if sharp else None))
            after = np.maximum(scores[level], best)
        return lattice.keep_values(after[0], after[-1] if sharp else None)


CASES: list[tuple[str, Mapping[str, str]]] = [
    ("yahtzee", {"joker": "free"}),
    ("yahtzee", {"joker": "forced"}),
    ("kniffel", {"extra": "100"}),
    ("yatzy", {}),
    ("yatzy-deluxe", {}),
    ("kniffel", {"sharp": "on"}),
    ("kniffel", {"strict": "on"}),
    ("knoeffel", {}),
    ("knoeffel", {"free_throws_per_turn": "2", "sharp": "on"}),
]


def random_segments(c: Compiled, rng: np.random.Generator, count: int) -> I64:
    """Random states side by side, ``(mask, armed, lo, nl)``: half of them with the five-of-a-kind box
    filled (where the extra rules place a further five of a kind), a few upper scores each."""
    masks = np.concatenate(c.levels[1:-1])
    with_five = masks[(masks >> c.five) & 1 == 1] if c.five >= 0 else masks
    rows = []
    for i in range(count):
        pool = with_five if i % 2 and len(with_five) else masks
        mask = int(pool[rng.integers(len(pool))])
        armed = int(rng.integers(c.n_armed)) if c.five >= 0 and mask >> c.five & 1 else 0
        top = min(int(c.nup[mask]) - 1, c.threshold)
        lo = int(rng.integers(top + 1))
        nl = int(rng.integers(1, min(3, c.threshold - lo + 1) + 1))
        rows.append((mask, armed, lo, nl))
    return np.array(rows, dtype=np.int64)


def lanes_of(segments: I64) -> list[tuple[int, int, int]]:
    """``(mask, armed, up)`` of every lane, in order."""
    return [
        (int(mask), int(armed), int(lo) + lane) for mask, armed, lo, nl in segments for lane in range(int(nl))
    ]


@pytest.mark.parametrize(("rules_id", "options"), CASES, ids=[f"{r}{dict(o)}" for r, o in CASES])
def test_compiled_turn_equals_the_numpy_twin(rules_id: str, options: Mapping[str, str]) -> None:
    c = compile_rules(single_column(rules.get(rules_id, options)))
    t = c.kernel_tables
    rng = np.random.default_rng(11)
    values = rng.normal(150.0, 40.0, (c.n_aux, c.n_masks, c.threshold + 1))
    turns = Turns(c, values)
    segments = random_segments(c, rng, 8)
    lanes = lanes_of(segments)
    width = len(lanes)
    n_s, n_rolls, _ = c.base.shape
    for free in range(c.n_free):
        usable = min(c.free_per_turn, free)
        start = free - usable
        positions = usable + c.rules.rolls  # every throw of the turn, the first included
        sv = np.full((c.n_free, n_s, n_rolls, width), np.nan)
        rows, strike_box = entry_rows(t, c.n_free, width)
        choice = np.zeros((c.n_free, n_s, n_rolls, width), dtype=np.int32)
        for f in range(start, free + 1):
            score_values(segments, f, values, t, rows[f], strike_box[f], sv[f], choice[f])
        table = np.full((positions, t.first_roll, width), np.nan)
        sweep(sv, free, positions, t, table)
        turn_start = np.full((1, 1, width), np.nan)
        sweep(sv, free, positions, t, turn_start)
        for lane, (mask, armed, up) in enumerate(lanes):
            for f in range(start, free + 1):
                expected = turns.score_values(mask, armed, f, up)
                np.testing.assert_allclose(sv[f, :, :, lane], expected, rtol=0, atol=1e-9)
            for q in range(positions):
                if q <= usable:
                    twin = turns.keep_values(mask, armed, start + q, up, 0, q)
                else:
                    twin = turns.keep_values(mask, armed, free, up, q - usable, usable)
                np.testing.assert_allclose(table[q, :, lane], twin[: t.first_roll], rtol=0, atol=1e-9)
            # the DP asks for the empty keep alone, which the sweep sums straight from the rolls
            assert turn_start[0, 0, lane] == pytest.approx(table[-1, 0, lane], abs=1e-9)


@pytest.mark.parametrize(("rules_id", "options"), CASES, ids=[f"{r}{dict(o)}" for r, o in CASES])
def test_the_chosen_entry_pays_the_scoring_value(rules_id: str, options: Mapping[str, str]) -> None:
    """The box the simulator enters a roll in comes from the entries the scoring value is the best of:
    entering it (as the numpy twin values an entry) is worth exactly that value."""
    c = compile_rules(single_column(rules.get(rules_id, options)))
    t = c.kernel_tables
    rng = np.random.default_rng(5)
    values = rng.normal(150.0, 40.0, (c.n_aux, c.n_masks, c.threshold + 1))
    turns = Turns(c, values)
    segments = random_segments(c, rng, 6)
    lanes = lanes_of(segments)
    n_s, n_rolls, _ = c.base.shape
    pair_box, pair_pts, _ = c.pairs
    sv = np.empty((1, n_s, n_rolls, len(lanes)))
    rows, strike_box = entry_rows(t, 1, len(lanes))
    choice = np.zeros((1, n_s, n_rolls, len(lanes)), dtype=np.int32)
    free = c.n_free - 1
    score_values(segments, free, values, t, rows[0], strike_box[0], sv[0], choice[0])
    strike = rows.shape[1] - 2
    for lane, (mask, armed, up) in enumerate(lanes):
        entries = turns.entry_values(mask, armed, free, up)
        for s in range(n_s):
            for r in range(n_rolls):
                j = int(choice[0, s, r, lane])
                if j < 0:
                    box, face = -1 - j, int(c.alike[r])
                    points = int(c.jpts[mask, armed, s, face, box])
                    extra = int(c.jbonus[mask, armed, face])
                elif j == strike:
                    box, points, extra = int(strike_box[0, lane]), 0, 0
                else:
                    box, points, extra = int(pair_box[j]), int(pair_pts[j]), 0
                assert c.allowed[mask] >> box & 1 or j < 0
                assert entries[box, points] + extra == pytest.approx(sv[0, s, r, lane], abs=1e-9)


def solution_of_random_values(c: Compiled, seed: int) -> Solution:
    """A "solved" table of random values, but a full sheet worth its unused free throws, as the DP has
    it (the advisor reads the full sheet's values from the table)."""
    values = np.random.default_rng(seed).normal(150.0, 40.0, (c.n_aux, c.n_masks, c.threshold + 1))
    for armed in range(c.n_armed):
        for free in range(c.n_free):
            values[c.aux(armed, free), c.full_mask] = c.free_points * free
    values.flags.writeable = False
    return Solution(c, values, 0.0)


@pytest.mark.parametrize(("rules_id", "options"), CASES, ids=[f"{r}{dict(o)}" for r, o in CASES])
def test_the_advisor_values_every_option_as_the_numpy_twin(rules_id: str, options: Mapping[str, str]) -> None:
    """Every option of situations in random states: a score is its points and bonuses (as the tables,
    checked against the rules, pay them) plus the twin's value of the state after; a throw is the twin's
    value of the keep, with the regular throws left or, after the last, a free throw."""
    c = compile_rules(single_column(rules.get(rules_id, options)))
    solution = solution_of_random_values(c, 3)
    advisor = Advisor(solution)
    turns = Turns(c, solution.values)
    lattice = keep_lattice(c.rules.dice)
    rolls = sorted_rolls(c.rules.dice)
    rng = np.random.default_rng(9)
    upper_boxes = [box.id for b, box in enumerate(c.rules.boxes) if c.upper[b]]
    for mask, armed, up, _ in random_segments(c, rng, 6):
        filled = c.filled_of(int(mask), int(armed))
        holder = next((key for key in upper_boxes if key in filled), None)
        if holder is not None:
            filled[holder] = int(up)
        for free in range(c.n_free):
            for rolls_left in range(c.rules.rolls):
                for used in range(c.free_per_turn + 1 if rolls_left == 0 else 1):
                    r = int(rng.integers(len(rolls)))
                    at_once = bool(rng.integers(2))
                    s = advisor.state(filled, free)
                    got = advisor.options(
                        ColumnPosition(
                            filled,
                            rolls[r],
                            rolls_left,
                            thrown_at_once=at_once,
                            free_throws_left=free,
                            free_throws_used=used,
                        )
                    )
                    entries = turns.entry_values(s.mask, s.armed, free, s.up)
                    want = {
                        f"score {key}": entries[c.rules.box_index[key], points] + bonus
                        for key, (points, bonus) in c.view(s.mask, s.armed, int(at_once), r).items()
                    }
                    usable = max(0, min(c.free_per_turn - used, free))
                    if rolls_left > 0:
                        keeps = turns.keep_values(s.mask, s.armed, free, s.up, rolls_left - 1, usable)
                        word = "roll"
                    elif usable > 0:
                        keeps = turns.keep_values(s.mask, s.armed, free - 1, s.up, 0, usable - 1)
                        word = "free"
                    for keep in lattice.keeps_of(rolls[r])[:-1] if rolls_left > 0 or usable > 0 else ():
                        text = word + (" keep " + " ".join(map(str, keep)) if keep else "")
                        want[text] = float(keeps[lattice.index(keep)])
                    assert {str(o.action) for o in got} == set(want)
                    for option in got:
                        assert option.value == pytest.approx(want[str(option.action)], abs=1e-9)
                    assert [o.value for o in got] == sorted((o.value for o in got), reverse=True)


@given(
    widths=st.lists(st.integers(min_value=0, max_value=300), max_size=60),
    least=st.integers(min_value=1, max_value=300),
)
def test_bundles_take_states_in_order_until_they_hold_enough_lanes(widths: list[int], least: int) -> None:
    """The one bundling of a level's states (the DP, the distributions and the target rows use it):
    every state in exactly one bundle, in order; every bundle but the last holds at least ``least``
    lanes and would hold fewer without its last state (a greedy cut, so no bundle is split early)."""
    from kniffel.core.kernels.loop import bundle_starts

    lanes = np.array(widths, dtype=np.int64)
    starts = bundle_starts(lanes, least).tolist()
    bundles = list(itertools.pairwise(starts))
    assert starts[0] == 0
    assert starts[-1] == len(widths)
    assert all(first < last for first, last in bundles)
    for i, (first, last) in enumerate(bundles):
        held = int(lanes[first:last].sum())
        assert held - int(lanes[last - 1]) < least  # it closed as soon as it held enough
        if i < len(bundles) - 1:
            assert held >= least


@pytest.mark.parametrize(
    ("loops", "functions"),
    [
        (("solve_points", "solve_target"), {"score": ("score_points", "score_target")}),
        (("points_options", "target_options"), {"enter_box": ("enter", "target_box")}),
    ],
    ids=["level loop", "option kernel"],
)
def test_each_objective_has_its_loops_and_caches_of_its_own(
    loops: tuple[str, str], functions: dict[str, tuple[str, str]]
) -> None:
    """Each loop is compiled once per objective, under the objective's name: the points' and the
    target's copies are kept in different cache files, and each reads its own objective's functions."""

    from kniffel.core.kernels import common
    from kniffel.core.kernels import points as points_kernels
    from kniffel.core.kernels import target as target_kernels

    points, target = getattr(points_kernels, loops[0]), getattr(target_kernels, loops[1])
    assert points.py_func.__code__ is target.py_func.__code__
    for name, (of_points, of_target) in functions.items():
        own = points_kernels if hasattr(points_kernels, of_points) else common
        assert points.py_func.__globals__[name] is getattr(own, of_points)
        assert target.py_func.__globals__[name] is getattr(target_kernels, of_target)
    assert points._cache._cache_file._index_name != target._cache._cache_file._index_name
