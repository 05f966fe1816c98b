"""The keep lattice: which dice a player can hold, and where throwing the rest leads.

A *keep* is the multiset of dice held back before a throw, written like a roll (an ascending tuple,
possibly empty): from none to all ``n`` dice, so 462 keeps for five dice and 924 for six. Keeps are
numbered by size, then in the lexicographic order of :func:`kniffel.base.dice.sorted_rolls`, so the last
``len(sorted_rolls(n))`` keeps are the full rolls in roll order: keep ``first_roll + r`` is roll ``r``.

Two links make expectations cheap:

* **add one die**: ``child[k, f]`` is ``k`` plus a die showing ``f + 1``. Throwing the dice missing from
  a keep is the same as throwing them one at a time, so the expected value of a keep is the mean of its
  six children's.
* **remove one die**: ``parent[k, j]`` is ``k`` less one die of its ``j``-th distinct face (-1 pads).
  The best keep within a roll is then a maximum over the sub-multiset lattice, taken size by size.

This module is the only place the lattice is built. The game lists a roll's keeps from it, the planners
sweep it with numpy (:meth:`KeepLattice.keep_values`), and the solver's compiled kernels walk the same
arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING

from kniffel.base.dice import FACES, Roll, roll_probabilities, sorted_rolls

if TYPE_CHECKING:  # numpy is imported where the lattice is built: a command that shows rules needs none
    import numpy as np
    import numpy.typing as npt

    from kniffel.base.arrays import F64, I32

    IntP = npt.NDArray[np.intp]


@dataclass(frozen=True, eq=False)
class KeepLattice:
    """The keep lattice of ``n_dice`` dice (read-only arrays); get it from :func:`keep_lattice`."""

    n_dice: int
    keeps: tuple[Roll, ...]
    """Every keep, as an ascending tuple, smallest first."""
    size: I32
    """``[keep]``: how many dice it holds."""
    child: I32
    """``[keep, face]``: the keep with one more die of that face; -1 for full keeps."""
    parent: I32
    """``[keep, j]``: the keep with one die of its ``j``-th distinct face removed; -1 pads."""
    padded_parent: I32
    """``[keep, j]``: ``parent`` with the pads replaced by the keep itself (``min(n_dice, 6)`` columns),
    for loops that prefer a fixed number of links."""
    first_roll: int
    """Index of the first full keep (roll 0)."""
    roll_probs: F64
    """``[roll]``: the probability of each sorted roll when all dice are thrown."""
    choices: I32
    """``[roll, j]``: the keeps a player holding roll ``r`` can throw from (every sub-multiset but the
    whole roll), ascending; -1 pads."""
    padded_choices: IntP
    """``[roll, j]``: ``choices`` with the pads replaced by the empty keep (always a choice), so that a
    row maximum over ``values[padded_choices]`` is the best throw."""

    @property
    def n_keeps(self) -> int:
        return len(self.keeps)

    @property
    def n_rolls(self) -> int:
        return len(self.keeps) - self.first_roll

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The sorted rolls, in :func:`kniffel.base.dice.sorted_rolls` order."""
        return self.keeps[self.first_roll :]

    @cached_property
    def _index(self) -> dict[Roll, int]:
        return {keep: i for i, keep in enumerate(self.keeps)}

    def index(self, keep: Roll) -> int:
        """Position of the ascending tuple ``keep``; ``KeyError`` if it is not a keep of these dice."""
        return self._index[tuple(keep)]

    def roll_index(self, roll: Roll) -> int:
        """Row of the sorted ``roll`` in every per-roll table."""
        return self._index[tuple(roll)] - self.first_roll

    @cached_property
    def by_size(self) -> tuple[IntP, ...]:
        """``[size]``: the keep indices of each size."""
        import numpy as np

        return tuple(np.flatnonzero(self.size == s) for s in range(self.n_dice + 1))

    def keeps_of(self, roll: Roll) -> tuple[Roll, ...]:
        """Every distinct multiset that can be held from the sorted ``roll``, smallest first, the whole
        roll included."""
        r = self.roll_index(roll)
        found = self._keeps_of.get(r)
        if found is None:
            keeps = self.keeps
            found = (*(keeps[k] for k in self._choice_lists[r] if k >= 0), keeps[self.first_roll + r])
            self._keeps_of[r] = found
        return found

    @cached_property
    def _keeps_of(self) -> dict[int, tuple[Roll, ...]]:
        return {}

    @cached_property
    def _choice_lists(self) -> list[list[int]]:
        return self.choices.tolist()  # type: ignore[no-any-return]

    # --- the numpy sweep ---------------------------------------------------------------------------

    def keep_values(self, after: F64, after_at_once: F64 | None = None) -> F64:
        """``[keep, ...]``: the expected value of holding each keep and throwing the other dice, when the
        throw leads to a position whose rolls are worth ``after`` (``[roll, ...]``; trailing axes are
        independent lanes). ``after_at_once``, if given, values the rolls of the empty keep instead (all
        dice thrown at once, which the sharp variant scores differently). Full keeps (nothing thrown)
        are ``-inf``."""
        import numpy as np

        ev = np.empty((self.n_keeps, *after.shape[1:]))
        ev[self.first_roll :] = after
        for keeps in reversed(self.by_size[:-1]):
            ev[keeps] = ev[self.child[keeps]].sum(axis=1) * (1.0 / FACES)
        if after_at_once is not None:
            ev[0] = np.tensordot(self.roll_probs, after_at_once, axes=1)
        ev[self.first_roll :] = -np.inf
        return ev

    def best_throw(self, keep_values: F64) -> F64:
        """``[roll, ...]``: for each roll, the value of the best keep to throw from (``keep_values`` as
        :meth:`keep_values` gives them)."""
        best: F64 = keep_values[self.padded_choices].max(axis=1)
        return best


@cache
def keep_lattice(n_dice: int) -> KeepLattice:
    """The keep lattice of ``n_dice`` dice, built once per process."""
    import numpy as np

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
    first_roll = n - len(sorted_rolls(n_dice))

    # every sub-multiset of every keep: itself and those of the keeps one die smaller (keeps come
    # smallest first, so those are known when a keep is reached)
    below: list[frozenset[int]] = []
    for k, links in enumerate(parent.tolist()):
        below.append(frozenset({k}).union(*(below[q] for q in links if q >= 0)))
    found = [sorted(below[first_roll + r] - {first_roll + r}) for r in range(n - first_roll)]
    choices = np.full((len(found), max(map(len, found))), -1, dtype=np.int32)
    for r, subs in enumerate(found):
        choices[r, : len(subs)] = subs
    padded_choices = np.where(choices >= 0, choices, 0).astype(np.intp)

    for array in (size, child, parent, padded, choices, padded_choices):
        array.flags.writeable = False
    return KeepLattice(
        n_dice,
        tuple(keeps),
        size,
        child,
        parent,
        padded,
        first_roll,
        roll_probabilities(n_dice),
        choices,
        padded_choices,
    )


__all__ = ["KeepLattice", "keep_lattice"]
