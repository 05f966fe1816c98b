"""The keep lattice: sizes, links, and the one-die-at-a-time expectation against direct enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from kniffel.base.dice import multinomial, roll_index, sorted_rolls
from kniffel.base.keeps import keep_lattice


@pytest.mark.parametrize(("n_dice", "n_keeps"), [(3, 84), (5, 462), (6, 924)])
def test_sizes_and_roll_order(n_dice: int, n_keeps: int) -> None:
    k = keep_lattice(n_dice)
    assert k.n_keeps == n_keeps
    assert k.keeps[k.first_roll :] == sorted_rolls(n_dice)
    assert list(k.size) == sorted(k.size)


def test_links_add_and_remove_one_die() -> None:
    k = keep_lattice(5)
    for i, keep in enumerate(k.keeps):
        for face in range(1, 7):
            j = k.child[i, face - 1]
            if len(keep) == 5:
                assert j == -1
            else:
                assert k.keeps[j] == tuple(sorted((*keep, face)))
        parents = {k.keeps[q] for q in k.parent[i] if q >= 0}
        expected = set()
        for face in set(keep):
            smaller = list(keep)
            smaller.remove(face)
            expected.add(tuple(smaller))
        assert parents == expected
        assert {k.keeps[q] for q in k.padded_parent[i]} <= parents | {keep}


def test_one_die_at_a_time_equals_throwing_them_together() -> None:
    """The mean over six children, applied recursively, is the multinomial expectation."""
    k = keep_lattice(5)
    rng = np.random.default_rng(7)
    w = rng.random(len(sorted_rolls(5)))
    e = np.zeros(k.n_keeps)
    e[k.first_roll :] = w
    for i in range(k.first_roll - 1, -1, -1):
        e[i] = e[k.child[i]].mean()
    index = roll_index(5)
    for i, keep in enumerate(k.keeps[: k.first_roll]):
        m = 5 - len(keep)
        direct = sum(
            multinomial(rest) / 6**m * w[index[tuple(sorted(keep + rest))]]
            for rest in itertools.combinations_with_replacement(range(1, 7), m)
        )
        assert e[i] == pytest.approx(direct, rel=1e-12)


def test_keeps_of_a_roll_are_its_distinct_sub_multisets() -> None:
    lattice = keep_lattice(3)
    assert lattice.keeps_of((3, 3, 5)) == ((), (3,), (5,), (3, 3), (3, 5), (3, 3, 5))
    assert len(keep_lattice(5).keeps_of((1, 2, 3, 4, 5))) == 32
    assert len(keep_lattice(5).keeps_of((6, 6, 6, 6, 6))) == 6


@pytest.mark.parametrize("n_dice", [1, 2, 5, 6])
def test_keeps_of_every_roll_equal_choosing_dice_by_position(n_dice: int) -> None:
    lattice = keep_lattice(n_dice)
    for roll in sorted_rolls(n_dice):
        chosen = {
            tuple(roll[i] for i in positions)
            for size in range(n_dice + 1)
            for positions in itertools.combinations(range(n_dice), size)
        }
        assert lattice.keeps_of(roll) == tuple(sorted(chosen, key=lambda k: (len(k), k)))
        row = lattice.choices[lattice.roll_index(roll)]
        assert [lattice.keeps[k] for k in row if k >= 0] == list(lattice.keeps_of(roll)[:-1])


def test_numpy_sweep_is_the_expectation_and_the_best_throw() -> None:
    lattice = keep_lattice(5)
    rng = np.random.default_rng(3)
    after = rng.random((lattice.n_rolls, 2))
    values = lattice.keep_values(after)
    index = roll_index(5)
    for i, keep in enumerate(lattice.keeps[: lattice.first_roll]):
        m = 5 - len(keep)
        direct = sum(
            multinomial(rest) / 6**m * after[index[tuple(sorted(keep + rest))]]
            for rest in itertools.combinations_with_replacement(range(1, 7), m)
        )
        assert values[i] == pytest.approx(direct, rel=1e-12)
    assert np.all(values[lattice.first_roll :] == -np.inf)
    best = lattice.best_throw(values)
    for r, roll in enumerate(lattice.rolls):
        expected = max(values[lattice.index(k)][0] for k in lattice.keeps_of(roll)[:-1])
        assert best[r, 0] == expected
