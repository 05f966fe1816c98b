"""The score sheet of every player, side by side, narrowed to the room it has: every player's column stays
on screen (names shortened, row labels abbreviated where needed), the mover's column marked.

Each free box of the player to move shows what the dice would pay there now; the cursor moves from box
to box (sums, bonuses and totals are passed over) and enter scores under it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from kniffel.apps.tui.common import points_text, shortened
from kniffel.base.i18n import translate
from kniffel.engine.game import Game
from kniffel.engine.sheet import SheetRow, sheet_layout
from kniffel.rules import Box, RuleSet

SHORT_LABEL = 11
"""A row label's width (without its key) where the sheet is narrow."""
FIGURE = 4
"""The narrowest column of figures: three digits and a space before them."""
MARK = "▶"
"""Before the name of the player to move."""


@dataclass(frozen=True)
class Layout:
    """How the sheet is drawn in the room it has: the labels' form and every column's width."""

    short: bool
    """Row labels abbreviated."""
    label: int
    """The width of the labels' column."""
    widths: tuple[int, ...]
    """Every column of figures' width, player by player, column by column."""
    names: tuple[tuple[str, str], ...]
    """Every player's name as it fits over the player's columns: on two lines (on one over a sheet of
    several columns, whose second line names them)."""


def plan(
    rules: RuleSet, names: list[str], full_labels: list[str], short_labels: list[str], room: int, figure: int
) -> Layout:
    """The widest layout that fits ``room`` columns: full labels and names if they fit (with room to
    spare, wider columns), else short labels, else names shortened to an equal share of the room (never
    to less than one character). A name spans its player's columns."""
    columns = len(rules.columns)
    rest = (columns - 1) * figure  # the player's other columns
    lines = 1 if rules.multi_column else 2
    # the mark (or a space) and the name, over the player's columns
    wanted = [max(figure, len(name) + 1 - rest) for name in names]

    def layout(short: bool, firsts: list[int]) -> Layout:
        label = max(len(text) for text in (short_labels if short else full_labels)) + 1
        widths: list[int] = []
        shown = []
        for name, first in zip(names, firsts, strict=True):
            widths += [first, *[figure] * (columns - 1)]
            shown.append(name_lines(name, first + rest - 1, lines))
        return Layout(short, label, tuple(widths), tuple(shown))

    for short in (False, True):
        candidate = layout(short, wanted)
        spare = room - candidate.label - sum(candidate.widths)
        if spare >= 0:
            if not short and spare >= 2 * len(names):  # a wide screen: a gap between the players
                candidate = layout(short, [w + 2 for w in wanted])
            return candidate
    label = layout(True, wanted).label
    share = max(figure, (room - label) // len(names) - rest)
    return layout(True, [max(figure, min(w, share)) for w in wanted])


def name_lines(name: str, width: int, lines: int) -> tuple[str, str]:
    """``name`` in ``width`` columns on up to two ``lines``: whole on the first if it fits, else its words
    that fit on the first and the rest shortened on the second, keeping the number that tells namesakes
    apart ("Bot (heuristic) 2" in five columns: "Bot" over "he. 2"). A word is never broken over the two
    lines: one too long for a line is shortened there with an ellipsis ("Alexandra" in six: "Alexa…")."""
    if len(name) <= width or lines == 1:
        return shortened(name, width), ""
    words = name.split()
    first = ""
    while words and len((first + " " + words[0]).strip()) <= width:
        first = (first + " " + words.pop(0)).strip()
    if not first:
        first = shortened(words.pop(0), width)
    rest = " ".join(words).replace("(", "").replace(")", "")
    second = shortened(rest, width) if rest else ""
    head, _, number = rest.rpartition(" ")
    room = width - len(number) - 1
    if number.isdecimal() and head and not second.endswith(number) and room >= 1:
        second = (shortened(head, room) if room >= 2 else head[:room]) + " " + number
    return first, second


class SheetView(DataTable[Text]):
    """Every player's sheet (a :class:`DataTable` whose cursor is on a box of the player to move)."""

    def __init__(
        self, rules: RuleSet, names: list[str], box_keys: dict[str, str], lang: str, *, id: str | None = None
    ) -> None:
        super().__init__(
            id=id,
            cursor_type="cell",
            fixed_columns=1,
            header_height=2,
            cell_padding=0,
            zebra_stripes=False,
        )
        self.rules, self.names, self.box_keys, self.lang = rules, names, box_keys, lang
        self.rows_of = sheet_layout(rules)
        self.cells: dict[Coordinate, tuple[int, str]] = {}
        """Cells that are boxes: the player and the box key."""
        self.drawn: Layout | None = None
        """The layout the sheet is drawn in."""
        self.room = 80
        """The columns the sheet may take (set by the app as the screen's size changes)."""
        self._cursor_was: Coordinate | None = None

    def t(self, text: str) -> str:
        return translate(self.lang, text)

    def label_of(self, row: SheetRow, short: bool) -> str:
        if row.kind == "box":
            key = self.box_keys.get(row.name)
            box = self.rules.box(row.name)
            label = box.label(self.lang)
            if short and row.short and len(label) > SHORT_LABEL:
                label = self.t(row.short)
            label = shortened(label, SHORT_LABEL) if short else label
            return f"{key or ' '} {label}"
        return shortened(self.t(row.short or row.label), SHORT_LABEL + 1) if short else self.t(row.label)

    # --- drawing ---------------------------------------------------------------------------------

    def plan(self, room: int, figure: int = FIGURE) -> Layout:
        full = [self.label_of(row, False) for row in self.rows_of]
        short = [self.label_of(row, True) for row in self.rows_of]
        return plan(self.rules, self.names, full, short, room, figure)

    def overflows(self) -> bool:
        """Whether the sheet is wider than its room (it scrolls sideways: a sheet of several columns
        for many players on a small screen)."""
        drawn = self.drawn
        return drawn is not None and drawn.label + sum(drawn.widths) > self.room

    def smallest(self) -> tuple[int, int]:
        """The columns and rows the sheet needs at least to show every player whole."""
        layout = self.plan(0)
        return layout.label + sum(layout.widths), len(self.rows_of) + 2

    def show(self, game: Game) -> None:
        """Every sheet as it stands, with what each free box of the player to move pays now; laid out
        again when the room or the widest figure changes."""
        rows, cells = self.figures(game)
        widest = max((len(text.plain) for row in rows for text in row), default=0)
        layout = self.plan(self.room, max(FIGURE, widest + 1))
        headers = self.headers(game, layout)
        if layout != self.drawn:
            cursor = self.cursor_coordinate
            self.clear(columns=True)
            self.drawn = layout
            self.add_column(Text(self.t("Box")), width=layout.label)
            for header, width in zip(headers, layout.widths, strict=True):
                self.add_column(header, width=width)
            for row, figures in zip(self.rows_of, rows, strict=True):
                self.add_row(Text(self.label_of(row, layout.short), style=self.row_style(row)), *figures)
            self.cells = cells
            if self.row_count:
                self.cursor_coordinate = cursor
            return
        for shown, header in zip(list(self.columns.values())[1:], headers, strict=True):
            shown.label = header
        for y, figures in enumerate(rows):
            for x, text in enumerate(figures, 1):
                old = self.get_cell_at(Coordinate(y, x))
                if not (isinstance(old, Text) and (old.plain, old.style) == (text.plain, text.style)):
                    self.update_cell_at(Coordinate(y, x), text)
        self.refresh()

    def row_style(self, row: SheetRow) -> str:
        if row.kind == "box":
            return ""
        return "bold " + ("bold" if row.strong else "cyan")

    def headers(self, game: Game, layout: Layout) -> list[Text]:
        headers = []
        count = len(self.rules.columns)
        for index, name in enumerate(layout.names):
            moving = index == game.current and not game.is_over
            style = "bold reverse" if moving else "bold"
            # The mark's place is kept when it moves on, so that the columns keep their width.
            mark = MARK if moving else " "
            widths = layout.widths[index * count : (index + 1) * count]
            if not self.rules.multi_column:
                headers.append(Text(f"{mark}{name[0]}\n{name[1]}", justify="right", style=style))
                continue
            # The name runs over the player's columns, a piece over each; their ids below.
            line = f"{mark}{name[0]}".ljust(sum(widths))
            at = 0
            for width, column in zip(widths, self.rules.columns, strict=True):
                piece, at = line[at : at + width], at + width
                headers.append(Text(f"{piece}\n{column.id:>{width}}", style=style, no_wrap=True))
        return headers

    def figures(self, game: Game) -> tuple[list[list[Text]], dict[Coordinate, tuple[int, str]]]:
        """The figures of every row (without its label), and which cells are boxes."""
        rules, legal = self.rules, game.legal
        moving = not game.is_over and game.turn.dice is not None
        rows: list[list[Text]] = []
        cells: dict[Coordinate, tuple[int, str]] = {}

        def box_row(box: Box) -> list[Text]:
            row: list[Text] = []
            for index, sheet in enumerate(game.sheets):
                for column in rules.columns:
                    key = rules.key(column, box)
                    cells[Coordinate(len(rows), len(row) + 1)] = (index, key)
                    points = sheet.entries.get(key)
                    if points is not None:
                        row.append(Text(points_text(points), justify="right"))
                    elif moving and index == game.current and key in legal.placements:
                        total = str(legal.placements[key].total)
                        row.append(Text(total, style="italic green", justify="right"))
                    elif moving and index == game.current and key in legal.strikeable:
                        row.append(Text("·", style="dim", justify="right"))
                    else:
                        row.append(Text(""))
            return row

        for layout_row in self.rows_of:
            if layout_row.kind == "box":
                rows.append(box_row(rules.box(layout_row.name)))
                continue
            style = "bold" if layout_row.strong else "cyan"
            row: list[Text] = []
            for sheet in game.sheets:
                if layout_row.kind == "grand_total":  # one figure per player, under the first column
                    row += [Text(str(sheet.total), style=style, justify="right")]
                    row += [Text("") for _ in rules.columns[1:]]
                    continue
                for column in rules.columns:
                    value = getattr(sheet.column_totals(column), layout_row.name)
                    row.append(Text(str(value), style=style, justify="right"))
            rows.append(row)
        return rows, cells

    # --- the cursor ------------------------------------------------------------------------------

    def box_at_cursor(self) -> tuple[int, str] | None:
        return self.cells.get(self.cursor_coordinate)

    def move_to(self, player: int, key: str) -> None:
        self.cursor_coordinate = next(c for c, cell in self.cells.items() if cell == (player, key))

    def place_cursor(self, game: Game, *, best: bool = False) -> None:
        """Put the cursor on a free box of the player to move, unless it is on one; with ``best`` (after a
        throw), on the free box these dice pay most in."""
        if game.is_over:
            return
        here = self.box_at_cursor()
        current = game.current
        if not best and here is not None and here[0] == current and here[1] not in game.sheet.entries:
            return
        free = [c for c, (p, key) in self.cells.items() if p == current and key not in game.sheet.entries]
        pays = game.placements() if best and game.turn.dice is not None else {}
        if free:
            self.cursor_coordinate = min(
                free,
                key=lambda c: (
                    -pays[self.cells[c][1]].points if self.cells[c][1] in pays else 1,
                    c.column,
                    c.row,
                ),
            )

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        """The cursor moves from box to box: sums, bonuses and totals are passed over (and the column
        of names is left for the boxes beside it)."""
        if not self.cells:
            return
        there = event.coordinate
        before, self._cursor_was = self._cursor_was, there
        if there in self.cells:
            return
        down = before is None or there.row >= before.row
        rows = range(there.row + 1, self.row_count) if down else range(there.row - 1, -1, -1)
        column = (
            there.column if any(c.column == there.column for c in self.cells) else (before or there).column
        )
        for row in rows:
            if Coordinate(row, column) in self.cells:
                self.cursor_coordinate = Coordinate(row, column)
                return
        if before is not None and before in self.cells:
            self.cursor_coordinate = before  # nothing further that way: stay
