"""The compiled turn (the kernels the DP and the simulator share) against its numpy twin in solver/turn.py.

The advisor values a situation with :class:`kniffel.solver.turn.Turns`, in numpy, so that it need not load
numba; the DP and the optimal games use :func:`kernels.score_values` and :func:`kernels.sweep`. Both must
give the same scoring values and keep values in every state, for every rule that changes them. Neither
needs solved values for that: random ones, differing in every state, show any disagreement at once.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import pytest

from kniffel import rules
from kniffel.solver import compile_rules, kernels, single_column
from kniffel.solver.compile import Compiled
from kniffel.solver.turn import Turns

I64 = npt.NDArray[np.int64]

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
        rows, strike_box = kernels.entry_rows(t, c.n_free, width)
        choice = np.zeros((c.n_free, n_s, n_rolls, width), dtype=np.int32)
        for f in range(start, free + 1):
            kernels.score_values(segments, f, values, t, rows[f], strike_box[f], sv[f], choice[f])
        table = np.full((positions, t.first_roll, width), np.nan)
        kernels.sweep(sv, free, positions, t, table)
        turn_start = np.full((1, 1, width), np.nan)
        kernels.sweep(sv, free, positions, t, turn_start)
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
    rows, strike_box = kernels.entry_rows(t, 1, len(lanes))
    choice = np.zeros((1, n_s, n_rolls, len(lanes)), dtype=np.int32)
    free = c.n_free - 1
    kernels.score_values(segments, free, values, t, rows[0], strike_box[0], sv[0], choice[0])
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
