"""A player's score sheet: what is entered in each box, and the totals as the printed sheet adds them.

The text of a sheet (``str(sheet)``, read back by :meth:`ScoreSheet.parse`) lists what is written on it,
column by column in sheet order, separated by spaces::

    ones=3 fives=15 yahtzee=50 extra_bonus=100
    1:ones=3 1:chance=22 1:free_throws_used=1 2:knoeffel=20

A box key is the box id, with its column in front on a multi-column sheet (``2:chance``); a struck box
holds 0 (``-``, ``x`` and the printed sheet's dash are read as 0 too). Reading back, a box may also be
named as a sheet prints it, in either language and with its spaces (``Große Straße=- Full House=25``,
``Chance (2)=20``; :func:`kniffel.rules.find_box`). ``extra_bonus`` is a column's
bonus for further five-of-a-kind rolls, ``free_throws_used`` the free throws it has paid for (Knöffel),
written only when not 0 and prefixed with the column like a box. ``empty`` is a sheet with nothing on it.
The older form ``ones=3,kniffel=50`` (commas) is read as well.

:func:`sheet_layout` is the one definition of how a sheet is drawn (its rows: the boxes, and the sums
between and below them); the terminal front ends and the web page draw from it, and ``str(game)`` too.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from kniffel.base.errors import SheetError, UnknownBoxError
from kniffel.base.i18n import N_
from kniffel.rules import Column, Order, RuleSet, Section, find_box
from kniffel.rules.names import SHORT_LABELS, fold
from kniffel.rules.placement import reachable_boxes

EXTRA_BONUS = "extra_bonus"
FREE_THROWS_USED = "free_throws_used"
EMPTY = "empty"
EMPTY_WORDS = (EMPTY, "leer")
"""A sheet with nothing on it, in the words of every language a table shows."""
STRUCK = ("-", "x", "\u2013", "\u2014")
"""What may stand for 0 in a box: a dash (also the printed sheet's en and em dashes) or an x."""

_VALUE = re.compile(r"[^\s,;=]*")
_BETWEEN = " \t\r\n,;"
"""What may stand between a sheet's items: spaces, commas, semicolons."""


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
                    raise SheetError(_fill_order_refusal(rules, column, missing))
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
                raise SheetError(f"column {column_id}: free throws taken {used}, allowed {rules.free_throws}")
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
                raise SheetError(f"{key} cannot hold {points} under {rules.id}")
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
        items = [] if text.strip().lower() in EMPTY_WORDS else sheet_items(text)
        for name, value in items:
            key = sheet_key(rules, name, column_words)
            kind, column_id = column_words.get(key, ("entries", key))
            if key in seen:
                raise SheetError(
                    f"box {key} is given twice" if kind == "entries" else f"{key} is given twice"
                )
            seen.add(key)
            if kind == "entries" and value.lower() in STRUCK:
                data[kind][column_id] = 0
                continue
            try:
                data[kind][column_id] = int(value)
            except ValueError:
                raise SheetError(f"points for {key} must be a whole number, got {value!r}") from None
        return cls.from_json(rules, data)


def sheet_items(text: str) -> list[tuple[str, str]]:
    """The ``name=points`` items of a sheet's text, in order: a name as typed (a key, an id, a label with
    its spaces: ``Große Straße=-``), the points as written; items stand apart by spaces, commas or
    semicolons. ``SheetError`` for a part that is not ``name=points``."""
    items: list[tuple[str, str]] = []
    rest = text.strip(_BETWEEN)
    while rest:
        name, equals, after = rest.partition("=")
        after = after.lstrip()
        match = _VALUE.match(after)
        value = match.group() if match is not None else ""
        name = " ".join(name.replace(",", " ").replace(";", " ").split())
        if not equals or not name or not value:
            item = f"{name}{equals}{value}" if equals else " ".join(rest.split())
            raise SheetError(f"a sheet entry is box=points, got {item!r}")
        items.append((name, value))
        rest = after[len(value) :].lstrip(_BETWEEN)
    return items


def sheet_key(rules: RuleSet, name: str, own_words: Collection[str] = ()) -> str:
    """The key a sheet's item names (:func:`sheet_items`): a box key, one of ``own_words`` (a column's
    ``extra_bonus`` line, say), or a box named as people name it (:func:`kniffel.rules.find_box`).
    Words before a name that are no part of it were items without points: ``SheetError`` says so, as
    for any name that names nothing."""
    if name in rules.box_keys or name in own_words:
        return name
    folded = {fold(word): word for word in own_words}
    if fold(name) in folded:
        return folded[fold(name)]
    try:
        return find_box(rules, name)
    except UnknownBoxError as error:
        words = name.split()
        for start in range(1, len(words)):
            try:
                find_box(rules, " ".join(words[start:]))
            except UnknownBoxError:
                continue
            item = " ".join(words[:start])
            raise SheetError(f"a sheet entry is box=points, got {item!r}") from None
        raise SheetError(str(error)) from None


# --- how a sheet is drawn --------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetRow:
    """A row of the sheet as every front end draws it: a box, a sum of :class:`ColumnTotals` per column,
    or the grand total of a multi-column sheet (one figure per player)."""

    kind: Literal["box", "sum", "grand_total"]
    name: str
    """The box id, the :class:`ColumnTotals` field, or ``grand_total``."""
    label: str = ""
    """A sum's name in English (front ends translate it); a box row shows the box's own label."""
    short: str = ""
    """The row's name where the sheet is narrow (at most 10 characters in every language), in English;
    for a box, the usual short name of the box (:data:`kniffel.rules.names.SHORT_LABELS`), where it has
    one, to be shown where the rules name the box as usual and its label is long."""
    strong: bool = False
    """A total that stands out (bold)."""
    ends_section: bool = False
    """A line follows the row."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "strong": self.strong,
            "ends_section": self.ends_section,
        }


def sheet_layout(rules: RuleSet) -> tuple[SheetRow, ...]:
    """The rows of a sheet of ``rules``, top to bottom, as the seed's Spielblock adds them up: the upper
    boxes, their sum, the bonus and the upper total; the lower boxes; where the rules have them the extra
    bonus and the free throws' worth, and then the lower total, which adds them to the boxes (without
    them the lower boxes' sum, "Lower sum", is the lower total); the total; and on a multi-column sheet
    the grand total. (The printed sheet carries the upper total down once more, to add by hand; a
    screen adds for you, and every row less keeps a phone's or a terminal's sheet on one screen.)"""

    def boxes(section: Section) -> list[SheetRow]:
        return [
            SheetRow("box", b.id, short=SHORT_LABELS.get(b.id, ""))
            for b in rules.boxes
            if b.section is section
        ]

    rows = boxes(Section.UPPER)
    rows += [
        SheetRow("sum", "upper_sum", N_("Upper sum"), N_("Up. sum")),
        SheetRow("sum", "upper_bonus", N_("Bonus"), N_("Bonus")),
        SheetRow("sum", "upper_total", N_("Upper total"), N_("Up. total"), strong=True, ends_section=True),
    ]
    rows += boxes(Section.LOWER)
    if rules.extra_bonus:
        rows.append(SheetRow("sum", "extra_bonus", N_("Extra bonus"), N_("Extra b.")))
    if rules.free_throws:
        rows.append(SheetRow("sum", "free_throws", N_("Free throws"), N_("Free thr.")))
    if rules.extra_bonus or rules.free_throws:
        rows.append(
            SheetRow(
                "sum", "lower_total", N_("Lower total"), N_("Low. total"), strong=True, ends_section=True
            )
        )
    else:
        rows.append(
            SheetRow("sum", "lower_sum", N_("Lower sum"), N_("Low. sum"), strong=True, ends_section=True)
        )
    rows.append(SheetRow("sum", "total", N_("Total"), N_("Total"), strong=True))
    if rules.multi_column:
        rows.append(SheetRow("grand_total", "grand_total", N_("Grand total"), N_("Grand t."), strong=True))
    return tuple(rows)


def sheet_text(rules: RuleSet, players: Sequence[str], sheets: Sequence[ScoreSheet]) -> str:
    """The sheets of ``players`` side by side as plain text (a column per player and sheet column), laid
    out by :func:`sheet_layout`; a struck box shows a dash."""
    header = [["Box"], [""]] if rules.multi_column else [["Box"]]
    for name in players:
        for number, column in enumerate(rules.columns):
            header[0].append(name if number == 0 else "")
            if rules.multi_column:
                header[1].append(column.id)
    lines = list(header)
    for row in sheet_layout(rules):
        if row.kind == "grand_total":
            cells = [
                str(sheet.total) if c == 0 else "" for sheet in sheets for c in range(len(rules.columns))
            ]
            lines.append([row.label, *cells])
            continue
        line = [rules.box(row.name).label_en if row.kind == "box" else row.label]
        for sheet in sheets:
            for column in rules.columns:
                if row.kind == "sum":
                    line.append(str(getattr(sheet.column_totals(column), row.name)))
                    continue
                points = sheet.entries.get(rules.key(column, rules.box(row.name)))
                line.append("" if points is None else "-" if points == 0 else str(points))
        lines.append(line)
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join(
        "  ".join(
            [line[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(line[1:], widths[1:], strict=True))]
        ).rstrip()
        for line in lines
    )


def _fill_order_refusal(rules: RuleSet, column: Column, missing: str) -> str:
    if column.order is Order.TOP_DOWN:
        if rules.multi_column:
            return N_(f"{rules.id} fills column {column.id} top-down: {missing} cannot be filled yet")
        return N_(f"{rules.id} fills its column top-down: {missing} cannot be filled yet")
    if rules.multi_column:
        return N_(f"{rules.id} fills column {column.id} bottom-up: {missing} cannot be filled yet")
    return N_(f"{rules.id} fills its column bottom-up: {missing} cannot be filled yet")


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
    column = rules.box_index[box_id]
    values = {0, *(row[column] for row in rules.score_rows)}
    if rules.sharp and box.figure:
        values |= {2 * v for v in values}
    return frozenset(values)


__all__ = [
    "EMPTY_WORDS",
    "ColumnTotals",
    "ScoreSheet",
    "SheetRow",
    "possible_points",
    "sheet_items",
    "sheet_key",
    "sheet_layout",
    "sheet_text",
]
