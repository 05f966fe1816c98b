"""How a roll scores in each kind of box: the one place where scoring rules are written.

Every scorer is a pure function of the face counts of a roll (``counts[0]`` is the number of ones).
Box declarations in :mod:`kniffel.rules.builtin` pick scorers from here, and
:func:`kniffel.rules.score_table` turns them into the ``[roll, box]`` table that the game and the
solver both read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kniffel.dice import Counts

Scorer = Callable[[Counts], int]


def _total(counts: Counts) -> int:
    return sum((face + 1) * c for face, c in enumerate(counts))


def _pattern(counts: Counts) -> list[int]:
    """The non-zero counts, largest first: ``[3, 2]`` for a full house."""
    return sorted((c for c in counts if c), reverse=True)


def _longest_run(counts: Counts) -> int:
    best = run = 0
    for c in counts:
        run = run + 1 if c else 0
        best = max(best, run)
    return best


@dataclass(frozen=True)
class Upper:
    """Sum of the dice showing ``face``."""

    face: int

    def __call__(self, counts: Counts) -> int:
        return self.face * counts[self.face - 1]


@dataclass(frozen=True)
class OfAKindSum:
    """At least ``n`` alike: the sum of all dice (Kniffel's Dreierpasch/Viererpasch)."""

    n: int

    def __call__(self, counts: Counts) -> int:
        return _total(counts) if max(counts) >= self.n else 0


@dataclass(frozen=True)
class OfAKindOnly:
    """At least ``n`` alike: only those ``n`` dice count, the highest face that qualifies (Yatzy)."""

    n: int

    def __call__(self, counts: Counts) -> int:
        for face in range(6, 0, -1):
            if counts[face - 1] >= self.n:
                return self.n * face
        return 0


@dataclass(frozen=True)
class Pairs:
    """``n`` pairs of *different* faces, the highest ones: one pair, two pairs (Yatzy)."""

    n: int

    def __call__(self, counts: Counts) -> int:
        faces = [face for face in range(6, 0, -1) if counts[face - 1] >= 2]
        return 2 * sum(faces[: self.n]) if len(faces) >= self.n else 0


@dataclass(frozen=True)
class Pattern:
    """The roll's non-zero counts match one of ``patterns``; scores ``points`` or, if None, the sum.

    ``Pattern(((3, 2),), 25)`` is Kniffel's full house; adding ``(5,)`` lets five alike count too.
    """

    patterns: tuple[tuple[int, ...], ...]
    points: int | None = None

    def __call__(self, counts: Counts) -> int:
        if tuple(_pattern(counts)) not in self.patterns:
            return 0
        return _total(counts) if self.points is None else self.points


@dataclass(frozen=True)
class AllEven:
    """Every face present an even number of times: Yatzy-Deluxe's three pairs (4+2 and six alike count)."""

    points: int

    def __call__(self, counts: Counts) -> int:
        return self.points if all(c % 2 == 0 for c in counts) else 0


@dataclass(frozen=True)
class Run:
    """At least ``length`` consecutive faces; scores ``points`` or, if None, the sum of all dice."""

    length: int
    points: int | None = None

    def __call__(self, counts: Counts) -> int:
        if _longest_run(counts) < self.length:
            return 0
        return _total(counts) if self.points is None else self.points


@dataclass(frozen=True)
class Faces:
    """Exactly these faces are showing (Yatzy's small straight 1-5 and large straight 2-6); the sum."""

    faces: tuple[int, ...]

    def __call__(self, counts: Counts) -> int:
        present = tuple(face for face in range(1, 7) if counts[face - 1])
        return _total(counts) if present == self.faces and all(c == 1 for c in counts if c) else 0


@dataclass(frozen=True)
class Chance:
    """Any roll: the sum of the dice."""

    def __call__(self, counts: Counts) -> int:
        return _total(counts)


def total(counts: Counts) -> int:
    """Sum of the dice."""
    return _total(counts)
