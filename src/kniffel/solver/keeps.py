"""Keep multisets and the links between them, the dice tables the solver's kernels walk.

A *keep* is the multiset of dice held back before a throw: from none to all ``n`` dice, so 462 keeps for
five dice and 924 for six. Keeps are numbered by size, then in the lexicographic order of
:func:`kniffel.dice.sorted_rolls`, so the last ``len(sorted_rolls(n))`` keeps are the full rolls in roll
order: keep ``first_roll + r`` is roll ``r``.

Two links make the expectations cheap:

* **add one die**: ``child[k, f]`` is ``k`` plus a die showing ``f + 1``. Throwing the dice missing from a
  keep is the same as throwing them one at a time, so the expected value of a keep is the mean of its six
  children's (one die at a time instead of a table of outcome probabilities).
* **remove one die**: ``parent[k, j]`` is ``k`` less one die of its ``j``-th distinct face (-1 pads). The
  best keep within a roll is then a maximum over the sub-multiset lattice, taken size by size.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from kniffel.dice import FACES, Roll, roll_probabilities, sorted_rolls

IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True)
class KeepTables:
    """The keep lattice of ``n_dice`` dice (read-only arrays)."""

    n_dice: int
    keeps: tuple[Roll, ...]
    """Every keep, as an ascending tuple, smallest first."""
    size: IntArray
    child: IntArray
    """``[keep, face]``: the keep with one more die of that face; -1 for full keeps."""
    parent: IntArray
    """``[keep, j]``: the keep with one die of its ``j``-th distinct face removed; -1 pads."""
    padded_parent: IntArray
    """``[keep, j]``: ``parent`` with the pads replaced by the keep itself (``n_dice`` columns), for
    kernels that prefer a fixed number of links."""
    first_roll: int
    """Index of the first full keep (roll 0)."""
    roll_probs: npt.NDArray[np.float64]

    @property
    def n_keeps(self) -> int:
        return len(self.keeps)

    @property
    def n_rolls(self) -> int:
        return len(self.keeps) - self.first_roll

    def index(self, keep: Roll) -> int:
        """Position of the ascending tuple ``keep``."""
        return _index(self.n_dice)[tuple(keep)]


@cache
def _index(n_dice: int) -> dict[Roll, int]:
    return {keep: i for i, keep in enumerate(keep_tables(n_dice).keeps)}


def sub_keeps(roll: Roll) -> list[Roll]:
    """Every distinct multiset that can be held from ``roll`` (ascending tuples, smallest first)."""
    found = {tuple(c) for size in range(len(roll) + 1) for c in itertools.combinations(sorted(roll), size)}
    return sorted(found, key=lambda k: (len(k), k))


@cache
def keep_tables(n_dice: int) -> KeepTables:
    keeps: list[Roll] = [k for size in range(n_dice + 1) for k in sorted_rolls(size)]
    index = {k: i for i, k in enumerate(keeps)}
    n = len(keeps)
    size = np.array([len(k) for k in keeps], dtype=np.int32)
    child = np.full((n, FACES), -1, dtype=np.int32)
    parent = np.full((n, FACES), -1, dtype=np.int32)
    for i, keep in enumerate(keeps):
        if len(keep) < n_dice:
            for face in range(1, FACES + 1):
                child[i, face - 1] = index[tuple(sorted((*keep, face)))]
        for j, face in enumerate(sorted(set(keep))):
            smaller = list(keep)
            smaller.remove(face)
            parent[i, j] = index[tuple(smaller)]
    width = min(n_dice, FACES)
    padded = np.repeat(np.arange(n, dtype=np.int32)[:, None], width, axis=1)
    padded[:, :width] = np.where(parent[:, :width] >= 0, parent[:, :width], padded)
    for array in (size, child, parent, padded):
        array.flags.writeable = False
    first_roll = n - len(sorted_rolls(n_dice))
    return KeepTables(
        n_dice, tuple(keeps), size, child, parent, padded, first_roll, roll_probabilities(n_dice)
    )
