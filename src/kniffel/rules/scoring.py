"""How a roll scores in each kind of box: the one place where scoring rules are written.

Every scorer is a pure function of the face counts of a roll (``counts[0]`` is the number of ones).
Box declarations in :mod:`kniffel.rules.builtin` pick scorers from here, and
:func:`kniffel.rules.score_table` turns them into the ``[roll, box]`` table that the game and the
solver both read.

The scorers are small frozen dataclasses that check their parameters, so a rule set can be written down
as JSON and read back (:func:`scorer_to_json`, :func:`scorer_from_json`): ``{"kind": "run", "length": 4,
"points": 30}`` is Kniffel's small straight.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from kniffel.base.dice import FACES, Counts
from kniffel.base.errors import RulesError

Scorer = Callable[[Counts], int]


def _require(condition: bool, scorer: object, what: str) -> None:
    if not condition:
        raise RulesError(f"{type(scorer).__name__}: {what}")


def _check_points(scorer: object, points: int | None) -> None:
    _require(
        points is None or (_is_int(points) and points >= 0),
        scorer,
        f"points must be 0 or more, got {points!r}",
    )


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


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

    def __post_init__(self) -> None:
        _require(
            _is_int(self.face) and 1 <= self.face <= FACES,
            self,
            f"face must be 1 to {FACES}, got {self.face!r}",
        )

    def __call__(self, counts: Counts) -> int:
        return self.face * counts[self.face - 1]


@dataclass(frozen=True)
class _Counted:
    """A scorer that asks for ``n`` (1 or more) of something: alike dice, pairs."""

    n: int

    def __post_init__(self) -> None:
        _require(_is_int(self.n) and self.n >= 1, self, f"n must be 1 or more, got {self.n!r}")


@dataclass(frozen=True)
class OfAKindSum(_Counted):
    """At least ``n`` alike: the sum of all dice (Kniffel's Dreierpasch/Viererpasch)."""

    def __call__(self, counts: Counts) -> int:
        return _total(counts) if max(counts) >= self.n else 0


@dataclass(frozen=True)
class OfAKindOnly(_Counted):
    """At least ``n`` alike: only those ``n`` dice count, the highest face that qualifies (Yatzy)."""

    def __call__(self, counts: Counts) -> int:
        for face in range(6, 0, -1):
            if counts[face - 1] >= self.n:
                return self.n * face
        return 0


@dataclass(frozen=True)
class Pairs(_Counted):
    """``n`` pairs of *different* faces, the highest ones: one pair, two pairs (Yatzy)."""

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

    def __post_init__(self) -> None:
        _require(isinstance(self.patterns, tuple) and bool(self.patterns), self, "patterns must not be empty")
        for pattern in self.patterns:
            _require(
                isinstance(pattern, tuple)
                and bool(pattern)
                and all(_is_int(c) and c >= 1 for c in pattern)
                and list(pattern) == sorted(pattern, reverse=True),
                self,
                f"a pattern is counts of alike dice, largest first, e.g. (3, 2); got {pattern!r}",
            )
        _check_points(self, self.points)

    def __call__(self, counts: Counts) -> int:
        if tuple(_pattern(counts)) not in self.patterns:
            return 0
        return _total(counts) if self.points is None else self.points


@dataclass(frozen=True)
class AllEven:
    """Every face present an even number of times: Yatzy-Deluxe's three pairs (4+2 and six alike count)."""

    points: int

    def __post_init__(self) -> None:
        _require(
            _is_int(self.points) and self.points >= 0, self, f"points must be 0 or more, got {self.points!r}"
        )

    def __call__(self, counts: Counts) -> int:
        return self.points if all(c % 2 == 0 for c in counts) else 0


@dataclass(frozen=True)
class Run:
    """At least ``length`` consecutive faces; scores ``points`` or, if None, the sum of all dice."""

    length: int
    points: int | None = None

    def __post_init__(self) -> None:
        _require(
            _is_int(self.length) and 1 <= self.length <= FACES,
            self,
            f"length must be 1 to {FACES}, got {self.length!r}",
        )
        _check_points(self, self.points)

    def __call__(self, counts: Counts) -> int:
        if _longest_run(counts) < self.length:
            return 0
        return _total(counts) if self.points is None else self.points


@dataclass(frozen=True)
class Faces:
    """Exactly these faces are showing (Yatzy's small straight 1-5 and large straight 2-6); the sum."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        _require(
            isinstance(self.faces, tuple)
            and bool(self.faces)
            and all(_is_int(f) and 1 <= f <= FACES for f in self.faces)
            and list(self.faces) == sorted(set(self.faces)),
            self,
            f"faces must be different faces 1 to {FACES}, ascending; got {self.faces!r}",
        )

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


# --- as JSON ---------------------------------------------------------------------------------------

SCORERS: dict[str, Callable[..., Scorer]] = {
    "upper": Upper,
    "of_a_kind_sum": OfAKindSum,
    "of_a_kind_only": OfAKindOnly,
    "pairs": Pairs,
    "pattern": Pattern,
    "all_even": AllEven,
    "run": Run,
    "faces": Faces,
    "chance": Chance,
}
"""The scorers a declaration can name, by their ``kind``."""

_KINDS: dict[object, str] = {cls: kind for kind, cls in SCORERS.items()}


def scorer_to_json(scorer: Scorer) -> dict[str, Any]:
    """``{"kind": "run", "length": 4, "points": 30}``; ``RulesError`` for a scorer that is not one of
    :data:`SCORERS` (a function written in Python cannot be saved)."""
    kind = _KINDS.get(type(scorer))
    if kind is None:
        raise RulesError(
            f"the scorer {scorer!r} cannot be written down; use one of {', '.join(SCORERS)} "
            "(kniffel.rules.scoring)"
        )
    data: dict[str, Any] = {"kind": kind}
    for f in dataclasses.fields(scorer):  # type: ignore[arg-type]
        data[f.name] = _plain(getattr(scorer, f.name))
    return data


def _plain(value: object) -> object:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _tuples(value: object) -> object:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def scorer_from_json(data: object) -> Scorer:
    """The scorer :func:`scorer_to_json` wrote; ``RulesError`` saying what is wrong with a bad one."""
    if not isinstance(data, Mapping) or data.get("kind") not in SCORERS:
        raise RulesError(f"a scorer is {{'kind': one of {', '.join(SCORERS)}, ...}}, got {data!r}")
    cls = SCORERS[data["kind"]]
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = set(data) - set(fields) - {"kind"}
    if unknown:
        raise RulesError(f"scorer {data['kind']} has no parameter(s) {', '.join(sorted(unknown))}")
    missing = [name for name, f in fields.items() if name not in data and f.default is dataclasses.MISSING]
    if missing:
        raise RulesError(f"scorer {data['kind']} needs {', '.join(missing)}")
    kwargs = {name: _tuples(data[name]) for name in fields if name in data}
    scorer: Scorer = cls(**kwargs)  # the scorer's own checks name what is wrong
    return scorer
