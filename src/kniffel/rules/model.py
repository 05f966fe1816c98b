"""The rule-set declaration: boxes, columns, bonuses and the policies that make each game different.

A :class:`RuleSet` is plain, frozen data, checked when it is made (:class:`~kniffel.base.errors.RulesError`
says what is wrong), and written down as JSON by :meth:`RuleSet.to_json`, so a saved game carries the
rules it was played by. Behaviour that depends on the state of a sheet (where a roll may go and what it
pays there) lives in :mod:`kniffel.rules.placement`, which reads only this declaration and the score
table derived from it.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from kniffel.base.dice import counts_of, sorted_rolls
from kniffel.base.errors import RulesError, UnknownBoxError
from kniffel.rules.scoring import Scorer, scorer_from_json, scorer_to_json

if TYPE_CHECKING:  # numpy is imported where the table is built: a command that shows rules needs none
    import numpy as np
    import numpy.typing as npt

RULES_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
"""A rule set id: one word, as situation texts and file names need it."""
BOX_ID = re.compile(r"[a-z][a-z0-9_]*")
COLUMN_ID = re.compile(r"[A-Za-z0-9_]+")
RESERVED_BOX_IDS = frozenset({"extra_bonus", "free_throws_used"})
"""Words of the sheet text (:meth:`kniffel.engine.sheet.ScoreSheet.parse`) that cannot name a box."""
MAX_DICE = 10
MAX_ROLLS = 10

E = TypeVar("E", bound=enum.Enum)


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

    @property
    def sequential(self) -> bool:
        """Top-down or bottom-up: one box is next, the sheet's order says which."""
        return self in (Order.TOP_DOWN, Order.BOTTOM_UP)


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
    dice give in an upper box, instead of the box's value in a lower one (the house rule of the Kniffel
    article's English translation). While the box holds no Kniffel (free or struck), a five of a kind is an
    ordinary roll that also counts as a full house (25): see ``docs/explanation/rules.md``."""


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

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "section": self.section.value,
            "score": scorer_to_json(self.score),
            "label_en": self.label_en,
            "label_de": self.label_de,
            "joker_points": self.joker_points,
            "figure": self.figure,
        }

    @staticmethod
    def from_json(data: object) -> Box:
        fields = _fields(data, "a box", Box, required=("id", "section", "score", "label_en", "label_de"))
        fields["section"] = _enum(Section, fields["section"], "section")
        fields["score"] = scorer_from_json(fields["score"])
        return Box(**fields)

    def _check(self, rules_id: str) -> None:
        where = f"{rules_id}: box {self.id!r}"
        if not isinstance(self.id, str) or not BOX_ID.fullmatch(self.id) or self.id in RESERVED_BOX_IDS:
            reserved = ", ".join(sorted(RESERVED_BOX_IDS))
            raise RulesError(f"{where}: a box id is lower-case letters, digits and _ (not {reserved})")
        if not isinstance(self.section, Section):
            raise RulesError(f"{where}: section must be upper or lower, got {self.section!r}")
        if not callable(self.score):
            raise RulesError(f"{where}: score must be a scorer, got {self.score!r}")
        for name in ("label_en", "label_de"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise RulesError(f"{where}: {name} must be a non-empty text")
        if self.joker_points is not None and not _is_count(self.joker_points):
            raise RulesError(f"{where}: joker_points must be 0 or more, got {self.joker_points!r}")
        if not isinstance(self.figure, bool):
            raise RulesError(f"{where}: figure must be true or false, got {self.figure!r}")


@dataclass(frozen=True)
class Column:
    id: str
    order: Order = Order.FREE

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "order": self.order.value}

    @staticmethod
    def from_json(data: object) -> Column:
        fields = _fields(data, "a column", Column, required=("id",))
        if "order" in fields:
            fields["order"] = _enum(Order, fields["order"], "order")
        return Column(**fields)


@dataclass(frozen=True)
class RuleSet:
    """Everything that makes one game of the Kniffel family what it is."""

    id: str
    name: str
    source: str
    """The document the rules come from, named for people ("German Wikipedia, “Kniffel” (2017)");
    ``docs/explanation/rules.md`` traces every decision to it."""
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
        self._check()

    def _check(self) -> None:
        """Refuse a declaration that cannot be played, saying what is wrong (``RulesError``)."""
        if not isinstance(self.id, str) or not RULES_ID.fullmatch(self.id):
            raise RulesError(
                f"a rule set id is one word of letters, digits, '-', '_' or '.', got {self.id!r}"
            )
        where = self.id
        for name in ("name", "source", "description"):
            if not isinstance(getattr(self, name), str):
                raise RulesError(f"{where}: {name} must be a text")
        if not self.name.strip():
            raise RulesError(f"{where}: the rule set needs a name")
        if not isinstance(self.boxes, tuple) or not self.boxes:
            raise RulesError(f"{where}: a rule set needs at least one box")
        for box in self.boxes:
            if not isinstance(box, Box):
                raise RulesError(f"{where}: boxes must be Box declarations, got {box!r}")
            box._check(where)
        ids = [box.id for box in self.boxes]
        if len(set(ids)) != len(ids):
            raise RulesError(f"{where}: duplicate box ids")
        if not isinstance(self.columns, tuple) or not self.columns:
            raise RulesError(f"{where}: a rule set needs at least one column")
        for column in self.columns:
            if not isinstance(column, Column) or not isinstance(column.order, Order):
                raise RulesError(f"{where}: columns must be Column declarations, got {column!r}")
            if not isinstance(column.id, str) or not COLUMN_ID.fullmatch(column.id):
                raise RulesError(f"{where}: a column id is letters, digits and _, got {column.id!r}")
        if len({c.id for c in self.columns}) != len(self.columns):
            raise RulesError(f"{where}: duplicate column ids")
        for name, low, high in (
            ("dice", 1, MAX_DICE),
            ("rolls", 1, MAX_ROLLS),
            ("free_throws_per_turn", 1, None),
        ):
            value = getattr(self, name)
            if not _is_count(value) or value < low or (high is not None and value > high):
                bounds = f"{low} to {high}" if high is not None else f"{low} or more"
                raise RulesError(f"{where}: {name} must be {bounds}, got {value!r}")
        for name in (
            "upper_bonus_threshold",
            "upper_bonus",
            "extra_bonus",
            "free_throws",
            "free_throw_points",
        ):
            if not _is_count(getattr(self, name)):
                raise RulesError(f"{where}: {name} must be 0 or more, got {getattr(self, name)!r}")
        if self.five_box is not None and self.five_box not in ids:
            raise RulesError(f"{where}: five-of-a-kind box {self.five_box!r} is not a box")
        if not isinstance(self.extra, Extra):
            raise RulesError(f"{where}: extra must be one of {', '.join(e.value for e in Extra)}")
        if self.five_box is None and (self.extra is not Extra.NONE or self.extra_bonus):
            raise RulesError(f"{where}: the extra five-of-a-kind rules need a five_box")
        if not isinstance(self.sharp, bool):
            raise RulesError(f"{where}: sharp must be true or false, got {self.sharp!r}")
        if not isinstance(self.options, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.options.items()
        ):
            raise RulesError(f"{where}: options must map option names to values")

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
        """Column and box of a box key; :class:`~kniffel.base.errors.UnknownBoxError` listing the valid keys
        if it does not exist."""
        try:
            return self._by_key[key]
        except (KeyError, TypeError):
            raise UnknownBoxError(f"no box {key!r} in {self.id}; boxes: {', '.join(self.box_keys)}") from None

    def box(self, box_id: str) -> Box:
        """The box with this id (on any column); :class:`~kniffel.base.errors.UnknownBoxError` if none."""
        for box in self.boxes:
            if box.id == box_id:
                return box
        raise UnknownBoxError(f"no box {box_id!r} in {self.id}; boxes: {', '.join(b.id for b in self.boxes)}")

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
    def score_rows(self) -> tuple[tuple[int, ...], ...]:
        """Points of every sorted roll (rows, :func:`kniffel.base.dice.sorted_rolls` order) in every box
        (columns, :attr:`boxes` order), before jokers and doubling: what placing a roll reads
        (:func:`kniffel.rules.placements`), without numpy."""
        return tuple(
            tuple(box.score(counts_of(roll)) for box in self.boxes) for roll in sorted_rolls(self.dice)
        )

    @cached_property
    def score_table(self) -> npt.NDArray[np.int32]:
        """:attr:`score_rows` as an array, what the solver and the heuristics read. Read-only."""
        import numpy as np

        table = np.array(self.score_rows, dtype=np.int32).reshape(len(self.score_rows), len(self.boxes))
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

    # --- as JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole declaration, as :meth:`from_json` reads it: boxes with their scorers, columns and
        their orders, bonuses, the extra five-of-a-kind policy, free throws, sharp, the options it was
        built with, name, source and description. ``RulesError`` if a box has a scorer that cannot be
        written down (one not from :mod:`kniffel.rules.scoring`)."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("boxes", "columns"):
                value = [item.to_json() for item in value]
            elif isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, Mapping):
                value = dict(value)
            data[f.name] = value
        return data

    @staticmethod
    def from_json(data: object) -> RuleSet:
        """The rule set :meth:`to_json` wrote. Every field is checked; fields left out take their
        defaults except ``id``, ``name`` and ``boxes``. ``RulesError`` says what is wrong."""
        fields = _fields(data, "a rule set", RuleSet, required=("id", "name", "boxes"))
        for name in ("boxes", "columns"):
            if name in fields:
                if not isinstance(fields[name], list):
                    raise RulesError(f"{name} must be a list, got {fields[name]!r}")
                read = Box.from_json if name == "boxes" else Column.from_json
                fields[name] = tuple(read(item) for item in fields[name])
        if "extra" in fields:
            fields["extra"] = _enum(Extra, fields["extra"], "extra")
        fields.setdefault("source", "")
        fields.setdefault("description", "")
        return RuleSet(**fields)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _fields(data: object, what: str, cls: type, *, required: tuple[str, ...]) -> dict[str, Any]:
    """The fields of a JSON object declaring ``cls``: unknown and missing ones refused by name."""
    if not isinstance(data, Mapping):
        raise RulesError(f"{what} is a JSON object, got {data!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(str(k) for k in data if k not in names)
    if unknown:
        raise RulesError(f"{what} has no field(s) {', '.join(unknown)}")
    missing = [name for name in required if name not in data]
    if missing:
        raise RulesError(f"{what} needs {', '.join(missing)}")
    return dict(data)


def _enum(cls: type[E], value: object, name: str) -> E:
    for member in cls:
        if member.value == value:
            return member
    raise RulesError(f"{name} must be one of {', '.join(m.value for m in cls)}, got {value!r}")
