"""A player's score sheet: what is entered in each box, and the totals as the printed sheet adds them.

The text of a sheet (``str(sheet)``, read back by :meth:`ScoreSheet.parse`) lists what is written on it,
column by column in sheet order, separated by spaces::

    ones=3 fives=15 yahtzee=50 extra_bonus=100
    1:ones=3 1:chance=22 1:free_throws_used=1 2:knoeffel=20

A box key is the box id, with its column in front on a multi-column sheet (``2:chance``); a struck box
holds 0 (``-``, ``x`` and the printed sheet's dash are read as 0 too). ``extra_bonus`` is a column's
bonus for further five-of-a-kind rolls, ``free_throws_used`` the free throws it has paid for (Knöffel),
written only when not 0 and prefixed with the column like a box. ``empty`` is a sheet with nothing on it.
The older form ``ones=3,kniffel=50`` (commas) is read as well.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kniffel.errors import SheetError, UnknownBoxError
from kniffel.rules import Column, RuleSet
from kniffel.rules.placement import reachable_boxes

EXTRA_BONUS = "extra_bonus"
FREE_THROWS_USED = "free_throws_used"
EMPTY = "empty"
STRUCK = ("-", "x", "\u2013", "\u2014")
"""What may stand for 0 in a box: a dash (also the printed sheet's en and em dashes) or an x."""

_ITEM_SEPARATORS = re.compile(r"[\s,]+")
_AROUND_EQUALS = re.compile(r"\s*=\s*")


@dataclass(frozen=True)
class ColumnTotals:
    """The sums at the foot of one column, named as on the seed's Spielblock."""

    upper_sum: int
    upper_bonus: int
    upper_total: int
    lower_sum: int
    extra_bonus: int
    """Bonuses for further five-of-a-kind rolls (Kniffel +50, Yahtzee +100)."""
    free_throws: int
    """Knöffel's free-throw box: the unused free throws' worth."""
    lower_total: int
    total: int


@dataclass
class ScoreSheet:
    """Entries of one player's sheet. The game changes it; everyone else only reads it."""

    rules: RuleSet
    entries: dict[str, int] = field(default_factory=dict)
    extra_bonus: dict[str, int] = field(default_factory=dict)
    """Per column id: the bonuses for further five-of-a-kind rolls."""
    free_throws_used: dict[str, int] = field(default_factory=dict)
    """Per column id: free throws taken."""

    # --- reading -------------------------------------------------------------------------------

    def __getitem__(self, key: str) -> int | None:
        """Points in the box ``key`` (None while it is free); ``UnknownBoxError`` for a key the rules
        do not have."""
        self.rules.locate(key)
        return self.entries.get(key)

    @property
    def free_keys(self) -> list[str]:
        return [key for key in self.rules.box_keys if key not in self.entries]

    @property
    def is_full(self) -> bool:
        return len(self.entries) == len(self.rules.box_keys)

    def free_throws_left(self, column: Column) -> int:
        return self.rules.free_throws - self.free_throws_used.get(column.id, 0)

    def column_totals(self, column: Column) -> ColumnTotals:
        rules = self.rules
        upper = sum(self.entries.get(rules.key(column, b), 0) for b in rules.upper_boxes)
        lower = sum(self.entries.get(rules.key(column, b), 0) for b in rules.lower_boxes)
        bonus = rules.upper_bonus if upper >= rules.upper_bonus_threshold else 0
        extra = self.extra_bonus.get(column.id, 0)
        free = self.free_throws_left(column) * rules.free_throw_points if rules.free_throws else 0
        lower_total = lower + extra + free
        return ColumnTotals(
            upper, bonus, upper + bonus, lower, extra, free, lower_total, upper + bonus + lower_total
        )

    @property
    def totals(self) -> list[ColumnTotals]:
        return [self.column_totals(c) for c in self.rules.columns]

    @property
    def total(self) -> int:
        return sum(t.total for t in self.totals)

    def check_fill_order(self) -> None:
        """``SheetError`` if a column filled top-down or bottom-up holds boxes its order cannot have
        reached yet (a gap before a filled box)."""
        rules = self.rules
        for column in rules.columns:
            if not column.order.sequential:
                continue
            filled: dict[str, int] = {}
            own = [rules.key(column, box) for box in rules.boxes if rules.key(column, box) in self.entries]
            while len(filled) < len(own):
                reachable = [rules.key(column, b) for b in reachable_boxes(rules, filled, column)]
                if not reachable or reachable[0] not in self.entries:
                    missing = ", ".join(k for k in own if k not in filled)
                    which = f"column {column.id}" if rules.multi_column else "its column"
                    raise SheetError(
                        f"{rules.id} fills {which} {column.order.value}: {missing} cannot be filled yet"
                    )
                filled[reachable[0]] = self.entries[reachable[0]]

    # --- text and JSON -------------------------------------------------------------------------

    def __str__(self) -> str:
        """The text :meth:`parse` reads (see the module docstring)."""
        rules = self.rules
        items: list[str] = []
        for column in rules.columns:
            for box in rules.boxes:
                key = rules.key(column, box)
                if key in self.entries:
                    items.append(f"{key}={self.entries[key]}")
            for name, values in ((EXTRA_BONUS, self.extra_bonus), (FREE_THROWS_USED, self.free_throws_used)):
                if values.get(column.id, 0):
                    items.append(f"{_column_word(rules, column, name)}={values[column.id]}")
        return " ".join(items) or EMPTY

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": dict(self.entries),
            "extra_bonus": dict(self.extra_bonus),
            "free_throws_used": dict(self.free_throws_used),
        }

    @classmethod
    def from_json(cls, rules: RuleSet, data: Mapping[str, Any]) -> ScoreSheet:
        """Rebuild a sheet, checking every value against the rules (``SheetError`` if impossible)."""
        if not isinstance(data, Mapping):
            raise SheetError("a sheet is an object with 'entries'")
        sheet = cls.from_entries(rules, _int_map(data.get("entries", {}), "entries"))
        columns = {c.id for c in rules.columns}
        for name in ("extra_bonus", "free_throws_used"):
            values = _int_map(data.get(name, {}), name)
            for column_id, value in values.items():
                if column_id not in columns:
                    raise SheetError(f"{name}: no column {column_id!r}")
                if value < 0:
                    raise SheetError(f"{name}: {value} is negative")
            getattr(sheet, name).update(values)
        for column_id, used in sheet.free_throws_used.items():
            if used > rules.free_throws:
                raise SheetError(
                    f"column {column_id}: {used} free throws taken, only {rules.free_throws} allowed"
                )
        for column in rules.columns:
            _check_extra_bonus(sheet, column)
        return sheet

    @classmethod
    def from_entries(cls, rules: RuleSet, entries: Mapping[str, int]) -> ScoreSheet:
        """A sheet with these boxes filled; each value must be one the box can hold."""
        sheet = cls(rules)
        for key, points in entries.items():
            try:
                _, box = rules.locate(key)
            except UnknownBoxError as error:
                raise SheetError(str(error)) from None
            if points not in possible_points(rules, box.id):
                raise SheetError(f"{key} cannot hold {points} points under {rules.id}")
            sheet.entries[key] = points
        return sheet

    @classmethod
    def parse(cls, rules: RuleSet, text: str) -> ScoreSheet:
        """The sheet written as ``text`` (see the module docstring): ``"ones=3 kniffel=50"``,
        ``"ones=3,kniffel=50"``, ``"1:chance=20 1:free_throws_used=2"``; ``SheetError`` says what is
        wrong."""
        column_words = {
            _column_word(rules, column, name): (name, column.id)
            for column in rules.columns
            for name in (EXTRA_BONUS, FREE_THROWS_USED)
        }
        data: dict[str, dict[str, int]] = {"entries": {}, EXTRA_BONUS: {}, FREE_THROWS_USED: {}}
        seen: set[str] = set()
        text = _AROUND_EQUALS.sub("=", text.strip())
        items = [] if text.lower() == EMPTY else [item for item in _ITEM_SEPARATORS.split(text) if item]
        for item in items:
            key, sep, value = item.partition("=")
            if not sep or not key or not value:
                raise SheetError(f"a sheet entry is box=points, got {item!r}")
            name, column_id = column_words.get(key, ("entries", key))
            if key in seen:
                raise SheetError(f"{'box ' if name == 'entries' else ''}{key} is given twice")
            seen.add(key)
            if name == "entries" and value.lower() in STRUCK:
                data[name][column_id] = 0
                continue
            try:
                data[name][column_id] = int(value)
            except ValueError:
                raise SheetError(f"points for {key} must be a whole number, got {value!r}") from None
        return cls.from_json(rules, data)


def _column_word(rules: RuleSet, column: Column, name: str) -> str:
    """How a column's own line (``extra_bonus``, ``free_throws_used``) is keyed in the text."""
    return f"{column.id}:{name}" if rules.multi_column else name


def _check_extra_bonus(sheet: ScoreSheet, column: Column) -> None:
    """Extra bonuses come in steps of the rules' bonus, and only while the five-of-a-kind box holds
    points."""
    rules = sheet.rules
    bonus = sheet.extra_bonus.get(column.id, 0)
    if not bonus:
        return
    where = f"{EXTRA_BONUS}: column {column.id}"
    if not rules.extra_bonus or bonus % rules.extra_bonus:
        step = f"comes in steps of {rules.extra_bonus}" if rules.extra_bonus else "is never earned"
        raise SheetError(f"{where}: {bonus} is not possible under {rules.id} (the bonus {step})")
    assert rules.five_box is not None  # a rule set with an extra bonus has a five-of-a-kind box
    five = rules.key(column, rules.box(rules.five_box))
    if not sheet.entries.get(five):
        raise SheetError(f"{where}: a bonus is earned only while {five} holds points")


def _int_map(value: object, name: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise SheetError(f"{name} must be an object of name: points")
    result: dict[str, int] = {}
    for key, points in value.items():
        if not isinstance(key, str) or isinstance(points, bool) or not isinstance(points, int):
            raise SheetError(f"{name}: {key!r} must map to a whole number, got {points!r}")
        result[key] = points
    return result


def possible_points(rules: RuleSet, box_id: str) -> frozenset[int]:
    """Every value a box can hold under ``rules``: what rolls score there, doubled figures with the
    sharp variant, and 0 (struck)."""
    box = rules.box(box_id)
    # Joker values (25/30/40) are values the boxes pay for their own figures anyway.
    values = {0, *np.unique(rules.score_table[:, rules.box_index[box_id]]).tolist()}
    if rules.sharp and box.figure:
        values |= {2 * v for v in values}
    return frozenset(values)


__all__ = ["ColumnTotals", "ScoreSheet", "SheetError", "possible_points"]
