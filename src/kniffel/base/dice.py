"""Dice combinatorics shared by every layer: sorted rolls, their face counts and probabilities.

A *roll* is a multiset of faces, written as an ascending tuple (``(1, 3, 3, 5, 6)``). Every table in
this package that is indexed by a roll uses the order of :func:`sorted_rolls`, so the game, the
solver and the simulator agree on what row 17 means.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import TYPE_CHECKING

from kniffel.base.errors import DiceError

if TYPE_CHECKING:  # numpy is imported where probabilities are asked for: showing rules needs none
    import numpy as np
    import numpy.typing as npt

FACES = 6

Roll = tuple[int, ...]
Counts = tuple[int, ...]


@cache
def sorted_rolls(n_dice: int) -> tuple[Roll, ...]:
    """Every multiset of ``n_dice`` faces, ascending, in lexicographic order (252 for five dice)."""
    return tuple(itertools.combinations_with_replacement(range(1, FACES + 1), n_dice))


@cache
def roll_index(n_dice: int) -> dict[Roll, int]:
    """Position of each sorted roll in :func:`sorted_rolls`."""
    return {roll: i for i, roll in enumerate(sorted_rolls(n_dice))}


def counts_of(roll: Roll) -> Counts:
    """Face counts of a roll: ``counts_of((2, 2, 5))[1] == 2`` (index 0 is face 1)."""
    counts = [0] * FACES
    for face in roll:
        counts[face - 1] += 1
    return tuple(counts)


def multinomial(roll: Roll) -> int:
    """Number of ordered outcomes that sort to ``roll``."""
    result = math.factorial(len(roll))
    for c in counts_of(roll):
        result //= math.factorial(c)
    return result


@cache
def roll_probabilities(n_dice: int) -> npt.NDArray[np.float64]:
    """Probability of each sorted roll when ``n_dice`` fair dice are thrown (read-only)."""
    import numpy as np

    probs = np.array([multinomial(r) for r in sorted_rolls(n_dice)], dtype=np.float64)
    probs /= FACES**n_dice
    probs.flags.writeable = False
    return probs


def validate_dice(dice: object, n_dice: int) -> Roll:
    """Check that ``dice`` are ``n_dice`` faces from 1 to 6 and return them sorted.

    Raises :class:`~kniffel.base.errors.DiceError` with a message that names what is wrong.
    """
    if not isinstance(dice, list | tuple):
        raise DiceError(f"dice must be a list of {n_dice} faces, got {dice!r}")
    if len(dice) != n_dice:
        raise DiceError(f"expected {n_dice} dice, got {len(dice)}")
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= FACES:
            raise DiceError(f"a die shows 1 to {FACES}, got {face!r}")
    return tuple(sorted(dice))
