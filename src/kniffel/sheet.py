"""A player's score sheet: what is entered in each box, and the totals as the printed sheet adds them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kniffel.errors import KniffelError
from kniffel.rules import Column, RuleSet


class SheetError(KniffelError):
    """A sheet that cannot exist under the rules: unknown box, impossible points, malformed text."""


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

    # --- text and JSON -------------------------------------------------------------------------

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
        return sheet

    @classmethod
    def from_entries(cls, rules: RuleSet, entries: Mapping[str, int]) -> ScoreSheet:
        """A sheet with these boxes filled; each value must be one the box can hold."""
        sheet = cls(rules)
        for key, points in entries.items():
            try:
                _, box = rules.locate(key)
            except KeyError as error:
                raise SheetError(error.args[0]) from None
            if points not in possible_points(rules, box.id):
                raise SheetError(f"{key} cannot hold {points} points under {rules.id}")
            sheet.entries[key] = points
        return sheet

    @classmethod
    def parse(cls, rules: RuleSet, text: str) -> ScoreSheet:
        """``"ones=3,kniffel=50"`` (``-``, ``x`` or the dash of the printed sheet for a struck box)."""
        entries: dict[str, int] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, sep, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key or not value:
                raise SheetError(f"a sheet entry is box=points, got {item!r}")
            if key in entries:
                raise SheetError(f"box {key} is given twice")
            if value.lower() in ("-", "x", "\u2013", "\u2014"):
                entries[key] = 0
                continue
            try:
                entries[key] = int(value)
            except ValueError:
                raise SheetError(f"points for {key} must be a whole number, got {value!r}") from None
        return cls.from_entries(rules, entries)


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
    values = {0, *(int(v) for v in rules.score_table[:, rules.box_index[box_id]])}
    if rules.sharp and box.figure:
        values |= {2 * v for v in values}
    return frozenset(values)
