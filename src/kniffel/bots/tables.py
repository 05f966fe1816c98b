"""Keep-and-reroll tables for one-turn lookahead: which kept dice lead to which roll, how likely.

A *keep* is the multiset of dice set aside before a roll, written like a roll (an ascending tuple,
possibly empty). With ``n`` dice there are 462 keeps for five dice and 924 for six, counting the
empty keep (throw everything) and the full keep (stop rolling). Everything here is built once per
number of dice with numpy and shared read-only, so a decision costs a few matrix products.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from kniffel.dice import Roll, roll_index, roll_probabilities, sorted_rolls

Matrix = npt.NDArray[np.float64]
IndexMatrix = npt.NDArray[np.intp]


@dataclass(frozen=True)
class DiceTables:
    """Rolls and keeps of ``n_dice`` dice and the transitions between them."""

    n_dice: int
    rolls: tuple[Roll, ...]
    """Sorted rolls, in :func:`kniffel.dice.sorted_rolls` order (the rows of every value vector)."""
    keeps: tuple[Roll, ...]
    """Every keep of 0 to ``n_dice`` dice."""
    keep_index: dict[Roll, int]
    transition: Matrix
    """``transition[k, r]``: probability that keeping ``keeps[k]`` and throwing the rest gives
    ``rolls[r]``."""
    sub_keeps: IndexMatrix
    """``sub_keeps[r]``: indices of the keeps a player holding ``rolls[r]`` may choose, the full keep
    (stop) included; rows are padded by repeating an entry, so a row maximum is the best choice."""
    full_keep: npt.NDArray[np.intp]
    """``full_keep[r]``: index of keeping all of ``rolls[r]``."""
    empty_keep: int
    """Index of the empty keep (all dice thrown at once)."""


@cache
def dice_tables(n_dice: int) -> DiceTables:
    rolls = sorted_rolls(n_dice)
    r_index = roll_index(n_dice)
    keeps = tuple(k for size in range(n_dice + 1) for k in sorted_rolls(size))
    k_index = {k: i for i, k in enumerate(keeps)}

    transition = np.zeros((len(keeps), len(rolls)), dtype=np.float64)
    for k, keep in enumerate(keeps):
        thrown = n_dice - len(keep)
        for outcome, p in zip(sorted_rolls(thrown), roll_probabilities(thrown), strict=True):
            transition[k, r_index[tuple(sorted(keep + outcome))]] += p

    width = 2**n_dice
    sub_keeps = np.zeros((len(rolls), width), dtype=np.intp)
    full_keep = np.zeros(len(rolls), dtype=np.intp)
    for r, roll in enumerate(rolls):
        chosen = (c for size in range(n_dice + 1) for c in itertools.combinations(range(n_dice), size))
        subs = sorted({k_index[tuple(roll[i] for i in c)] for c in chosen})
        sub_keeps[r] = subs + [subs[0]] * (width - len(subs))
        full_keep[r] = k_index[roll]

    for array in (transition, sub_keeps, full_keep):
        array.flags.writeable = False
    return DiceTables(n_dice, rolls, keeps, k_index, transition, sub_keeps, full_keep, k_index[()])


def best_keep_values(tables: DiceTables, after_roll: Matrix, after_full_roll: Matrix | None = None) -> Matrix:
    """Expected value of each keep when the next roll is followed by ``after_roll`` (per roll).

    ``after_full_roll``, if given, is used instead for the empty keep: the sharp variant values a roll
    thrown with all dice at once differently. The full keep (no throw) is left at ``-inf``; callers
    put the value of stopping there.
    """
    values = tables.transition @ after_roll
    if after_full_roll is not None:
        values[tables.empty_keep] = tables.transition[tables.empty_keep] @ after_full_roll
    values[tables.full_keep] = -np.inf
    return values
