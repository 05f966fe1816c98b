"""Where a game's dice come from: the operating system's secure dice for real play, seeded dice for
tests, bots and simulations, and the protocol a source of one's own follows."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from kniffel.base.dice import FACES


class DiceSource(Protocol):
    """Where new dice come from."""

    def throw(self, n: int) -> tuple[int, ...]: ...


@runtime_checkable
class RepeatableDice(DiceSource, Protocol):
    """Dice whose throws are decided by their state (a seed), which a copy takes along: what the copy
    throws next is what the source would throw next (:meth:`Game.copy`)."""

    def copy(self) -> RepeatableDice: ...


class SecureDice:
    """Dice from the operating system's secure random source, for real play."""

    def throw(self, n: int) -> tuple[int, ...]:
        return tuple(secrets.randbelow(FACES) + 1 for _ in range(n))


@dataclass
class SeededDice:
    """Reproducible dice for tests, bots and simulations: the same seed gives the same throws."""

    seed: int
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def throw(self, n: int) -> tuple[int, ...]:
        return tuple(self._rng.randint(1, FACES) for _ in range(n))

    def copy(self) -> SeededDice:
        """Dice of the same seed at the same point: they throw what these would throw next."""
        twin = SeededDice(self.seed)
        twin._rng.setstate(self._rng.getstate())
        return twin


__all__ = ["DiceSource", "RepeatableDice", "SecureDice", "SeededDice"]
