"""The rule-set declaration: boxes, columns, bonuses and the policies that make each game different.

A :class:`RuleSet` is plain, frozen data. Behaviour that depends on the state of a sheet (where a
roll may go and what it pays there) lives in :mod:`kniffel.rules.placement`, which reads only this
declaration and the score table derived from it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from kniffel.dice import counts_of, sorted_rolls
from kniffel.rules.scoring import Scorer


class Section(enum.Enum):
    UPPER = "upper"
    LOWER = "lower"


class Order(enum.Enum):
    """How the boxes of a column may be filled."""

    FREE = "free"
    TOP_DOWN = "top-down"
    BOTTOM_UP = "bottom-up"
    ANNOUNCED = "announced"
    """A box of this column can only be filled after announcing it right after the first roll."""


class Extra(enum.Enum):
    """What a further five of a kind does once the five-of-a-kind box is filled."""

    NONE = "none"
    """Nothing special: it scores like any other roll (Yatzy, Knöffel)."""
    FORCED_JOKER = "forced-joker"
    """Matching upper box if free, else any free lower box at full value, else 0 in a free upper box;
    ``extra_bonus`` while the five-of-a-kind box holds points (Schmidt Kniffel, Hasbro Yahtzee)."""
    FREE_JOKER = "free-joker"
    """Any free box; full house and straights pay their fixed value only if the matching upper box is
    already filled; ``extra_bonus`` while the five-of-a-kind box holds points (Hasbro's alternative)."""
    HUNDRED = "hundred"
    """While the five-of-a-kind box holds points: any free box, ``extra_bonus`` (100) on top of what the
    dice give in an upper box, instead of the box's value in a lower one (seed 001 house rule). With the
    box struck it behaves like FORCED_JOKER without a bonus."""


@dataclass(frozen=True)
class Box:
    """One line of a score sheet column."""

    id: str
    section: Section
    score: Scorer
    label_en: str
    label_de: str
    joker_points: int | None = None
    """What the box pays for a five of a kind used as a joker (full house 25, straights 30/40)."""
    figure: bool = False
    """A figure of the lower block: doubled by the sharp variant when thrown with all dice at once."""

    @property
    def face(self) -> int | None:
        """The face an upper box collects."""
        face: int | None = getattr(self.score, "face", None)
        return face

    def label(self, language: str = "en") -> str:
        return self.label_de if language == "de" else self.label_en


@dataclass(frozen=True)
class Column:
    id: str
    order: Order = Order.FREE


@dataclass(frozen=True)
class RuleSet:
    """Everything that makes one game of the Kniffel family what it is."""

    id: str
    name: str
    source: str
    """The seed document the rules come from."""
    description: str
    boxes: tuple[Box, ...]
    dice: int = 5
    rolls: int = 3
    columns: tuple[Column, ...] = (Column("1"),)
    upper_bonus_threshold: int = 63
    upper_bonus: int = 35
    five_box: str | None = None
    """Id of the box for all dice alike (``kniffel``, ``yahtzee``, ...), if the extra rules apply to it."""
    extra: Extra = Extra.NONE
    extra_bonus: int = 0
    free_throws: int = 0
    """Free throws (Knöffel's Freiwürfe) per column; each unused one is worth ``free_throw_points``."""
    free_throw_points: int = 5
    free_throws_per_turn: int = 1
    sharp: bool = False
    """Figures thrown with all dice in one throw score double (seed 001)."""
    options: Mapping[str, str] = field(default_factory=dict, hash=False)
    """The option values this rule set was built with (``{"extra": "100"}``)."""

    def __post_init__(self) -> None:
        ids = [box.id for box in self.boxes]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.id}: duplicate box ids")
        if self.five_box is not None and self.five_box not in ids:
            raise ValueError(f"{self.id}: five-of-a-kind box {self.five_box!r} is not a box")

    # --- layout -------------------------------------------------------------------------------

    @property
    def multi_column(self) -> bool:
        return len(self.columns) > 1

    @cached_property
    def box_keys(self) -> tuple[str, ...]:
        """Every box of the sheet: ``chance`` on one column, ``2:chance`` on several; sheet order."""
        return tuple(self.key(column, box) for column in self.columns for box in self.boxes)

    def key(self, column: Column, box: Box) -> str:
        return self._keys[column.id, box.id]

    @cached_property
    def _keys(self) -> dict[tuple[str, str], str]:
        # Built once: placement asks for keys in its innermost loops.
        prefix = len(self.columns) > 1
        return {(c.id, b.id): f"{c.id}:{b.id}" if prefix else b.id for c in self.columns for b in self.boxes}

    @cached_property
    def _by_key(self) -> dict[str, tuple[Column, Box]]:
        return {self.key(c, b): (c, b) for c in self.columns for b in self.boxes}

    def locate(self, key: str) -> tuple[Column, Box]:
        """Column and box of a box key; ``KeyError`` with the valid keys if it does not exist."""
        try:
            return self._by_key[key]
        except KeyError:
            raise KeyError(f"no box {key!r} in {self.id}; boxes: {', '.join(self.box_keys)}") from None

    def box(self, box_id: str) -> Box:
        for box in self.boxes:
            if box.id == box_id:
                return box
        raise KeyError(f"no box {box_id!r} in {self.id}")

    @cached_property
    def box_index(self) -> dict[str, int]:
        """Column of each box id in :attr:`score_table`."""
        return {box.id: i for i, box in enumerate(self.boxes)}

    @property
    def upper_boxes(self) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if b.section is Section.UPPER)

    @property
    def lower_boxes(self) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if b.section is Section.LOWER)

    @property
    def turns(self) -> int:
        """Turns per player: one box filled per turn."""
        return len(self.box_keys)

    # --- scoring --------------------------------------------------------------------------------

    @cached_property
    def score_table(self) -> npt.NDArray[np.int32]:
        """Points of every sorted roll (rows, :func:`kniffel.dice.sorted_rolls` order) in every box
        (columns, :attr:`boxes` order), before jokers and doubling. Read-only."""
        rolls = sorted_rolls(self.dice)
        table = np.zeros((len(rolls), len(self.boxes)), dtype=np.int32)
        for r, roll in enumerate(rolls):
            counts = counts_of(roll)
            for b, box in enumerate(self.boxes):
                table[r, b] = box.score(counts)
        table.flags.writeable = False
        return table

    def describe(self) -> dict[str, object]:
        """A JSON-ready summary (used by ``kniffel rules --json`` and the docs)."""
        return {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "description": self.description,
            "dice": self.dice,
            "rolls": self.rolls,
            "columns": [{"id": c.id, "order": c.order.value} for c in self.columns],
            "boxes": [
                {"id": b.id, "section": b.section.value, "en": b.label_en, "de": b.label_de}
                for b in self.boxes
            ],
            "upper_bonus": {"threshold": self.upper_bonus_threshold, "points": self.upper_bonus},
            "five_box": self.five_box,
            "extra": self.extra.value,
            "extra_bonus": self.extra_bonus,
            "free_throws": self.free_throws,
            "sharp": self.sharp,
            "options": dict(self.options),
        }
