"""The value of every option in a situation, from a solved table: what exact planning and advice read.

A *situation* is a single-column sheet (box id -> points), the dice on the table, the throws left and,
where the rules need them, whether the last throw was of all dice at once (sharp) and the free throws
left (Knöffel). Values are the expected number of points still to come, the points of this turn included
and the points already on the sheet excluded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kniffel.dice import validate_dice
from kniffel.errors import SituationError, UnknownBoxError
from kniffel.game import FreeThrow, Roll, Score
from kniffel.keeps import keep_lattice
from kniffel.rules import Section, placements
from kniffel.solver import turn
from kniffel.solver.dp import Solution


@dataclass(frozen=True)
class Option:
    """One thing the player may do now, with its value: ``Score(box)``, ``Roll(keep=...)`` (hold those
    dice, throw the others) or ``FreeThrow(keep=...)`` (the same, paid from the free throws)."""

    action: Score | Roll
    value: float

    @property
    def box(self) -> str | None:
        """The box to score in, for a score."""
        return self.action.box if isinstance(self.action, Score) else None

    @property
    def keep(self) -> tuple[int, ...] | None:
        """The dice held, for a throw (ascending; ``()`` throws all)."""
        return self.action.keep if isinstance(self.action, Roll) else None

    @property
    def free_throw(self) -> bool:
        """The throw after this keep is a free throw (it costs one)."""
        return isinstance(self.action, FreeThrow)

    @property
    def is_score(self) -> bool:
        return isinstance(self.action, Score)

    def to_json(self) -> dict[str, object]:
        return {"action": str(self.action), "value": self.value}


@dataclass(frozen=True)
class State:
    """Where a single-column sheet stands, as the tables index it."""

    mask: int
    up: int
    armed: int
    free: int


class Advisor:
    """Answers "what is every option worth" for one solved single-column rule set."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.compiled = solution.compiled
        self.rules = solution.rules
        self._keeps = keep_lattice(self.rules.dice)
        self._turns = turn.Turns(self.compiled, solution.values)
        self._upper = {box.id for box in self.rules.boxes if box.section is Section.UPPER}

    # --- states ---------------------------------------------------------------------------------

    def state(self, filled: Mapping[str, int], free_throws_left: int | None = None) -> State:
        """Index the sheet ``filled``; ``ValueError`` for unknown boxes or an impossible upper score."""
        c = self.compiled
        index = self.rules.box_index
        mask = 0
        up = 0
        for key, points in filled.items():
            if key not in index:
                raise UnknownBoxError(f"no box {key!r} in {self.rules.id}; boxes: {', '.join(index)}")
            mask |= 1 << index[key]
            if key in self._upper:
                up += int(points)
        if up < 0:
            raise SituationError("the upper section cannot hold a negative score")
        if mask != c.full_mask and not c.allowed[mask]:
            # a column filled in order reaches only some sheets; the tables hold nothing for the others
            raise SituationError(f"{self.rules.id} cannot fill these boxes in this order")
        up = min(up, c.threshold)
        broadcast = mask & c.upper_mask == c.upper_mask
        if not broadcast and up >= c.nup[mask]:
            raise SituationError(f"an upper score of {up} cannot be reached with these boxes filled")
        armed = 0
        if c.n_armed == 2 and c.five >= 0 and mask >> c.five & 1:
            armed = int(filled[self.rules.boxes[c.five].id] > 0)
        free = c.n_free - 1 if free_throws_left is None else free_throws_left
        if not 0 <= free < c.n_free:
            raise SituationError(f"free throws left must be 0 to {c.n_free - 1}, got {free}")
        return State(mask, up if not broadcast else 0, armed, free)

    def value(self, filled: Mapping[str, int], free_throws_left: int | None = None) -> float:
        """Expected points still to come before the next turn starts."""
        s = self.state(filled, free_throws_left)
        if s.mask == self.compiled.full_mask:
            return float(self.compiled.free_points * s.free)
        return float(self.solution.values[self.compiled.aux(s.armed, s.free), s.mask, s.up])

    # --- options ---------------------------------------------------------------------------------

    def options(
        self,
        filled: Mapping[str, int],
        dice: Sequence[int],
        rolls_left: int,
        *,
        thrown_at_once: bool | None = None,
        free_throws_left: int | None = None,
        free_throws_used: int = 0,
    ) -> list[Option]:
        """Every legal option, best first (ties: scoring before throwing, boxes as listed by the rules,
        keeps smallest first).

        ``rolls_left`` counts the regular throws still allowed this turn; ``thrown_at_once`` defaults to
        "this is the turn's first throw"; ``free_throws_used`` are those already taken this turn.
        """
        rules = self.rules
        c = self.compiled
        roll = validate_dice(list(dice), rules.dice)
        if not 0 <= rolls_left < rules.rolls:
            raise SituationError(f"rolls left must be 0 to {rules.rolls - 1}, got {rolls_left}")
        if thrown_at_once is None:
            thrown_at_once = rolls_left == rules.rolls - 1
        s = self.state(filled, free_throws_left)
        if s.mask == c.full_mask:
            raise SituationError("the sheet is full")
        result = [
            Option(Score(key), value)
            for key, value in self._score_values(filled, s, roll, thrown_at_once).items()
        ]
        usable = max(0, min(c.free_per_turn - free_throws_used, s.free))
        keep_values: npt.NDArray[np.float64] | None = None
        throw: type[Roll] = Roll
        if rolls_left > 0:
            keep_values = self._keep_values(s, s.free, rolls_left - 1, usable)
        elif usable > 0:
            keep_values = self._keep_values(s, s.free - 1, 0, usable - 1)
            throw = FreeThrow
        if keep_values is not None:
            for keep in self._keeps.keeps_of(roll):
                if len(keep) == len(roll):
                    continue
                value = float(keep_values[self._keeps.index(keep)])
                result.append(Option(throw(keep=keep), value))
        result.sort(key=lambda o: -o.value)
        return result

    def _score_values(
        self, filled: Mapping[str, int], s: State, roll: tuple[int, ...], at_once: bool
    ) -> dict[str, float]:
        c = self.compiled
        values = self.solution.values
        index = self.rules.box_index
        up_total = sum(int(p) for key, p in filled.items() if key in self._upper)
        result: dict[str, float] = {}
        for key, placement in placements(self.rules, filled, roll, thrown_at_once=at_once).items():
            b = index[key]
            mask = s.mask | 1 << b
            gained = float(placement.total)
            up = s.up
            if key in self._upper:
                if up_total < c.threshold <= up_total + placement.points:
                    gained += c.upper_bonus
                up = min(c.threshold, up_total + placement.points)
            armed = s.armed
            if c.n_armed == 2 and b == c.five:
                armed = int(placement.points > 0)
            if mask & c.upper_mask == c.upper_mask:
                up = 0
            future = (
                c.free_points * s.free
                if mask == c.full_mask
                else float(values[c.aux(armed, s.free), mask, up])
            )
            result[key] = gained + future
        return result

    def _keep_values(self, s: State, free: int, stages: int, usable: int) -> npt.NDArray[np.float64]:
        return self._turns.keep_values(s.mask, s.armed, free, s.up, stages, usable)
