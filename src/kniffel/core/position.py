"""A single-column position, the one shape of a situation below the game: one :class:`ColumnPosition`,
many as one :class:`Positions`.

A *position* is a single-column sheet (box id -> points), the dice showing, the regular throws left and,
where the rules need them, whether the last throw was of all dice at once (sharp) and the free throws left
(Knöffel). Planners take it from a game (:meth:`ColumnPosition.of_game`), the command line and batch lines
from their options and texts, and every advisor (points, targets, distributions) is asked about it. Its
text is the table text :class:`kniffel.engine.situation.Situation` (:meth:`ColumnPosition.situation`,
:meth:`ColumnPosition.of_situation`): a position has no text of its own.

The solver's tables index a position in two parts, both here: the sheet's state between turns
(:class:`SheetState`: the filled boxes, the upper score, whether the five-of-a-kind box holds points, the
free throws left) and the state of the turn, together one row of :data:`ROW` whole numbers
(:meth:`ColumnPosition.encode`). :class:`Positions` is many rows as one array, with whether each one's
next throw is a free one: what the compiled advisors, the batch reader and the compiled games read.

The encoding reads the compiled rules (:class:`kniffel.core.tables.Compiled`), so this module stands
in the solver's layer; it holds no kernel (the checks it asks are those the compiled batch reader asks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import I64
from kniffel.base.dice import validate_dice
from kniffel.base.errors import SituationError, UnknownBoxError
from kniffel.base.keeps import keep_lattice
from kniffel.core.kernels.batch import (
    FREE_RANGE,
    NEGATIVE_UP,
    UNREACHABLE,
    UPPER,
    state_fields,
    turn_fields,
)
from kniffel.engine.sheet import ScoreSheet
from kniffel.engine.situation import Situation
from kniffel.rules import RuleSet

if TYPE_CHECKING:
    from kniffel.core.tables import Compiled
    from kniffel.engine.game import Game

ROW = 9
"""Numbers in a position's row (:meth:`ColumnPosition.encode`): the state's ``mask, armed, up, free``,
then ``roll, at_once, sweep_free, usable, throws``."""


@dataclass(frozen=True)
class SheetState:
    """Where a single-column sheet stands between turns, as the tables index it: the filled boxes (bit
    ``b`` for box ``b``), the upper score (capped at the bonus threshold), whether the five-of-a-kind box
    holds points (where that matters) and the free throws left."""

    mask: int
    up: int
    armed: int
    free: int

    @classmethod
    def of(
        cls, compiled: Compiled, filled: Mapping[str, int], free_throws_left: int | None = None
    ) -> SheetState:
        """The state of the sheet ``filled`` (box id -> points) with ``free_throws_left`` (None: all);
        :class:`~kniffel.base.errors.KniffelError` for unknown boxes or a sheet the rules cannot reach."""
        c = compiled
        rules = c.rules
        index = rules.box_index
        upper = c.upper_mask
        mask = 0
        up = 0
        for key, points in filled.items():
            if key not in index:
                raise UnknownBoxError(f"no box {key!r} in {rules.id}; boxes: {', '.join(index)}")
            b = index[key]
            mask |= 1 << b
            if upper >> b & 1:
                up += int(points)
        five = c.five
        five_points = filled[rules.boxes[five].id] if five >= 0 and mask >> five & 1 else 0
        problem, up, armed, free = state_fields.py_func(
            mask, up, five_points, free_throws_left is not None,
            0 if free_throws_left is None else free_throws_left, c.sheet_rules,
        )  # fmt: skip
        if problem == NEGATIVE_UP:
            raise SituationError("the upper section cannot hold a negative score")
        if problem == UNREACHABLE:
            raise SituationError(f"{rules.id} cannot fill these boxes in this order")
        if problem == UPPER:
            raise SituationError(f"an upper score of {up} cannot be reached with these boxes filled")
        if problem == FREE_RANGE:
            raise SituationError(f"free throws left must be 0 to {c.n_free - 1}, got {free}")
        return cls(mask, up, armed, free)

    @classmethod
    def empty(cls, compiled: Compiled) -> SheetState:
        """The empty sheet, every free throw left."""
        return cls(0, 0, 0, compiled.n_free - 1)


@dataclass(frozen=True)
class ColumnPosition:
    """A single-column position (see the module docstring): the sheet (box id -> points), the dice
    showing, the regular throws left and, where the rules need them, whether the last throw was of all
    dice at once (sharp; None: "this is the turn's first throw"), the free throws left after those taken
    this turn (Knöffel; None: all) and those taken this turn."""

    sheet: Mapping[str, int]
    dice: Sequence[int]
    rolls_left: int
    thrown_at_once: bool | None = None
    free_throws_left: int | None = None
    """The free throws still to be paid for (those taken this turn are charged when the box is filled,
    so they are not left any more); None for rules without free throws, or all of them."""
    free_throws_used: int = 0

    @classmethod
    def of_game(cls, game: Game) -> ColumnPosition | None:
        """The position of the player to move in a single-column game; None before the turn's first
        throw and when the game is over (there is nothing to decide)."""
        turn = game.turn
        if game.is_over or turn.dice is None:
            return None
        rules = game.rules
        left = game.sheet.free_throws_left(rules.columns[0]) - turn.free_throws
        return cls(
            dict(game.sheet.entries),
            turn.dice,
            game.rolls_left,
            turn.thrown_at_once,
            left if rules.free_throws else None,
            turn.free_throws,
        )

    @classmethod
    def of_situation(cls, situation: Situation) -> ColumnPosition:
        """The position of a table text's player to move (its first column: the position of a
        single-column rule set), as :meth:`of_game` has it in the game the text describes (the free
        throws taken this turn are no longer left); ``SituationError`` before the turn's first roll."""
        if situation.dice is None:
            raise SituationError("the situation has no dice yet: advice starts after the turn's first roll")
        rules, sheet, taken = situation.rules, situation.sheet, situation.free_throws
        return cls(
            dict(sheet.entries),
            situation.dice,
            situation.rolls_left,
            situation.thrown_at_once,
            sheet.free_throws_left(rules.columns[0]) - taken if rules.free_throws else None,
            taken,
        )

    def situation(self, rules: RuleSet) -> Situation:
        """This position as the table text has it (``str()`` of it is the text), of the single-column
        rule set ``rules``."""
        column = rules.columns[0].id
        paid = {}
        if self.free_throws_left is not None:  # those taken this turn are paid when the box is filled
            paid[column] = rules.free_throws - self.free_throws_left - self.free_throws_used
        sheet = ScoreSheet(rules, dict(self.sheet), free_throws_used=paid)
        return Situation(
            rules,
            sheet,
            tuple(self.dice),
            self.rolls_left,
            free_throws=self.free_throws_used,
            thrown_at_once=bool(self.thrown_at_once),
        )

    def state(self, compiled: Compiled) -> SheetState:
        """The sheet's state between turns (:meth:`SheetState.of`)."""
        return SheetState.of(compiled, self.sheet, self.free_throws_left)

    def encode(self, compiled: Compiled) -> tuple[list[int], bool]:
        """This position as the tables index it: its row of :data:`ROW` numbers and whether its next
        throw is a free one; ``KniffelError`` if it is impossible."""
        rules = compiled.rules
        dice = self.dice
        roll = validate_dice(dice if isinstance(dice, list | tuple) else list(dice), rules.dice)
        if not 0 <= self.rolls_left < rules.rolls:
            raise SituationError(f"rolls left must be 0 to {rules.rolls - 1}, got {self.rolls_left}")
        s = self.state(compiled)
        if s.mask == compiled.full_mask:
            raise SituationError("the sheet is full")
        at_once, sweep_free, usable, throws, free = turn_fields.py_func(
            self.rolls_left, self.thrown_at_once is not None, bool(self.thrown_at_once), s.free,
            self.free_throws_used, rules.rolls, compiled.n_at_once, compiled.free_per_turn,
        )  # fmt: skip
        roll_index = keep_lattice(rules.dice).roll_index(roll)
        return [s.mask, s.armed, s.up, s.free, roll_index, at_once, sweep_free, usable, throws], free


@dataclass(frozen=True)
class Positions:
    """Many positions as arrays (struct of arrays): ``rows[i]`` the row of position ``i``
    (:meth:`ColumnPosition.encode`) and ``free[i]`` whether its next throw is a free one."""

    rows: I64
    free: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, compiled: Compiled, positions: Iterable[ColumnPosition]) -> Positions:
        """The rows of ``positions`` (each checked as :meth:`ColumnPosition.encode` checks it)."""
        encoded = [p.encode(compiled) for p in positions]
        return cls.from_rows([row for row, _ in encoded], [free for _, free in encoded])

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]] | I64, free: Sequence[bool] | None = None) -> Positions:
        """Rows made elsewhere (a compiled reader), as positions; ``free`` defaults to no free throws."""
        array = np.asarray(rows, dtype=np.int64).reshape(-1, ROW)
        flags = np.zeros(len(array), dtype=np.bool_) if free is None else np.asarray(free, dtype=np.bool_)
        return cls(np.ascontiguousarray(array), flags)

    @classmethod
    def empty(cls, n: int) -> Positions:
        """Room for ``n`` positions, to be filled row by row."""
        return cls(np.empty((n, ROW), dtype=np.int64), np.zeros(n, dtype=np.bool_))

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, which: slice | npt.NDArray[np.bool_] | I64) -> Positions:
        return Positions(self.rows[which], self.free[which])

    def states(self) -> list[SheetState]:
        """The sheets' states between turns."""
        return [SheetState(int(m), int(u), int(a), int(f)) for m, a, u, f in self.rows[:, :4].tolist()]


__all__ = ["ROW", "ColumnPosition", "Positions", "SheetState"]
