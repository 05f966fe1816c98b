"""The full-screen game as a Textual app: the sheets on the left, dice, news and hints on the right."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.console import Console
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, RichLog, Static

from kniffel.actions import Action, Announce, FreeThrow, Outcome, Roll, Score, Strike, action_text
from kniffel.dice import validate_dice
from kniffel.errors import GameError, KniffelError
from kniffel.i18n import N_, error_text, number, percent, translate
from kniffel.planning import Choice
from kniffel.review import Review, review
from kniffel.rules import Box, RuleSet
from kniffel.session import (
    SUMMARY_HEADERS,
    TIE_NOTE,
    Preparing,
    Session,
    hint_choices,
    hint_win_chances,
    listed_decisions,
    live_chances,
    needs_tie_note,
    plays_to_win,
    renamed,
    result_line,
    summary_cells,
)
from kniffel.sheet import sheet_layout

BOT_DELAY = 0.7
"""Seconds between a bot's actions, so that a person can follow them."""
KEYS = N_(
    "Keys: space rolls (the held dice stay), 1-{n} or a click hold a die or let it go, the letter beside "
    "a box ({first} to {last}) scores there (in the cursor's column), asking first where the dice pay "
    "0, the arrows move on the sheet, enter scores there, x strikes (asking first), a announces, f takes "
    "a free throw, u undoes, h shows the best options with their values (H every one), w shows every "
    "player's chance of winning, r reviews the game, s saves, q or ctrl+c leaves."
)
"""What ``?`` says."""

BOX_KEYS = "bcdegijklmnoptvyz"
"""The keys of the sheet's boxes, top to bottom, shown beside their names: the letters no other key
takes (a announces, f throws free, h and H hint, q quits, r reviews, s saves, u undoes, w weighs the
chances, x strikes). A rule set of more boxes leaves the last without a key (the cursor reaches them)."""


def translate_keys(node: DOMNode, lang: str) -> None:
    """Show the descriptions of ``node``'s keys (in the footer) in ``lang``."""
    # Textual reads a key's description from the binding itself; bindings are immutable, so each is
    # replaced by a translated copy.
    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [dataclasses.replace(b, description=translate(lang, b.description)) for b in bindings]


def points_text(points: int) -> str:
    # A struck box and a zero look alike on paper: the seed's sheet writes a dash for both.
    return "\N{EN DASH}" if points == 0 else str(points)


def held_after(dice: Sequence[int], keep: Sequence[int]) -> list[bool]:
    """Which of the (sorted) ``dice`` stand for the ``keep`` held through a throw: they stay held."""
    left = list(keep)
    held = []
    for face in dice:
        held.append(face in left)
        if face in left:
            left.remove(face)
    return held


PLAYING_ACTIONS = frozenset(
    {"roll", "hold", "score", "box", "strike", "announce", "free", "hints", "all_hints", "undo", "save"}
)
"""The keys of a game going on, gone from the footer (and doing nothing) once it is over (undo and save
stay, under keys of their own: :data:`OVER_ACTIONS`)."""
OVER_ACTIONS = frozenset({"review_over", "undo_over", "save_over"})
"""The keys shown in the footer once the game is over (the playing keys are gone)."""

HINTS_SHOWN = 5
"""Options the hints list, best first (H lists them all)."""

PIP_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"
"""The dice faces with their pips (⚀ to ⚅), drawn beside the number."""


class Die(Static):
    """One die; a click holds it or lets it go."""

    DEFAULT_CSS = """
    Die { width: 5; height: 3; border: round $foreground 40%; content-align: center middle; margin-right: 1; }
    Die.held { border: heavy $accent; background: $accent 25%; text-style: bold; }
    """

    def __init__(self, position: int) -> None:
        super().__init__("·", id=f"die-{position}")
        self.position = position

    async def on_click(self) -> None:
        await self.app.run_action(f"hold({self.position})")


class ReviewScreen(ModalScreen[None]):
    """Every player's summary and the decisions that cost points."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r", "dismiss", "Back"),
    ]
    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    #review { width: 100%; height: 100%; border: round $accent; padding: 0 1; background: $surface; }
    #review-summary { height: auto; max-height: 11; }
    #review-decisions { height: 1fr; }
    """

    def __init__(self, result: Review, rules: RuleSet, lang: str) -> None:
        super().__init__()
        self.result, self.rules, self.lang = result, rules, lang
        translate_keys(self, lang)

    def t(self, text: str, **fields: object) -> str:
        return translate(self.lang, text, **fields)

    def compose(self) -> ComposeResult:
        with Vertical(id="review"):
            yield Static(self.t("Review: expected points lost against the best decision"), id="review-title")
            yield DataTable(id="review-summary", cursor_type="none")
            yield Static(self.note(), id="review-note")
            yield DataTable(id="review-decisions", cursor_type="row")
        yield Footer(compact=True)

    def note(self) -> str:
        lines = []
        if not self.result.exact:
            lines.append(self.t("Values are estimates from single-column tables, not exact."))
        if not self.shown():  # indices: the first decision is 0
            lines.append(self.t("No decision cost points."))
        else:
            lines.append(self.t("Decisions that cost points:"))
        return "\n".join(lines)

    def shown(self) -> list[int]:
        listed = {d.number for d in listed_decisions(self.result)}
        return [n for n, d in enumerate(self.result.decisions) if d.number in listed]

    def on_mount(self) -> None:
        summary = self.query_one("#review-summary", DataTable)
        for header in SUMMARY_HEADERS:
            summary.add_column(self.t(header))
        for p in self.result.players:
            summary.add_row(*summary_cells(p, self.lang))
        decisions = self.query_one("#review-decisions", DataTable)
        for header in (N_("#"), N_("Player"), N_("Round"), N_("Dice"), N_("Chosen"), N_("Best"), N_("Loss")):
            decisions.add_column(self.t(header))
        for n in self.shown():
            d = self.result.decisions[n]
            dice = "".join(map(str, d.dice))
            chosen, best = (
                action_text(Action.parse(text), self.rules, self.lang) for text in (d.chosen, d.best)
            )
            decisions.add_row(
                str(d.number), d.player, str(d.round), dice, chosen, best, number(self.lang, d.loss, 2)
            )


class KniffelApp(App[int]):
    """A game of any rule set for 1 to 8 players, people and bots, played through a :class:`Session`."""

    TITLE = "kniffel"
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #sheet { width: 1fr; height: 100%; }
    #side { width: 40%; min-width: 38; height: 100%; padding: 0 1; }
    #status { height: auto; }
    #dice { height: 3; margin-top: 1; }
    #holds { height: 1; }
    #news { height: 1fr; border-top: solid $foreground 30%; scrollbar-size-vertical: 1; }
    #hints { height: 1fr; border-top: solid $accent; }
    """
    ENABLE_COMMAND_PALETTE = False

    # The footer shows what 80 columns hold in German too: the keys of a turn, the key help and quit.
    # Undo and save are in the key help while the game goes on, and in the footer once it is over.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "roll", "Roll"),
        *(Binding(str(n), f"hold({n - 1})", "Hold", show=n == 1, key_display="1-6") for n in range(1, 7)),
        Binding("enter", "score", "Fill box", key_display="⏎", priority=True),
        *(Binding(key, f"box({n})", "Box", show=False) for n, key in enumerate(BOX_KEYS)),
        Binding("x", "strike", "Strike"),
        Binding("a", "announce", "Announce", show=False),
        Binding("f", "free", "Free throw", show=False),
        Binding("u", "undo", "Undo", show=False),
        Binding("h", "hints", "Hints"),
        Binding("H", "all_hints", "All hints", show=False),
        Binding("w", "chances", "Chances", show=False),
        Binding("s", "save", "Save", show=False),
        Binding("r", "review", "Review", show=False),
        # the same keys once the game is over, shown in the footer then (the playing keys are gone)
        Binding("r", "review_over", "Review"),
        Binding("s", "save_over", "Save"),
        Binding("u", "undo_over", "Undo"),
        Binding("question_mark", "help", "Keys", key_display="?"),
        Binding("q", "quit_game", "Quit"),
        Binding("ctrl+c", "quit_game", "Quit", show=False, priority=True),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    def __init__(self, session: Session, *, bot_delay: float = BOT_DELAY) -> None:
        super().__init__()
        self.session = session
        self.game = session.game
        self.rules = session.game.rules
        self.lang = session.settings.lang
        self.bot_delay = bot_delay
        self.held: list[bool] = [False] * self.rules.dice
        self.names = session.names()
        """The players' names as shown (a bot's default name in the game's language)."""
        boxes = [row.name for row in sheet_layout(self.rules) if row.kind == "box"]
        self.box_keys = dict(zip(boxes, BOX_KEYS, strict=False))
        """The key of each box (by its id), shown beside its name."""
        self.chances_shown = False
        """Every player's chance of winning shows under the status (key w)."""
        self.chances: list[float] | None = None
        self.preparing: Preparing | None = None
        """What the chances of winning wait for (tables being solved), shown in the status."""
        self._preparing_timer: Timer | None = None
        self.chances_at = -1
        """The number of actions the shown (or coming) chances were weighed after."""
        self.cells: dict[Coordinate, tuple[int, str]] = {}
        """Sheet cells that are boxes: the player and the box key."""
        self.asking: str | None = None
        """What the input line is asked for: ``dice`` (score pad), ``save`` (a file name)."""
        self.pending: Roll | None = None
        """The throw a score pad waits to be told the dice of."""
        self.bots_playing = False
        self.review_result: Review | None = None
        self.farewell = ""
        """What to tell the player after the screen closes (where the game was saved)."""
        self._saved: tuple[Path, int] | None = None
        self.messages: list[str] = []
        """Everything said in the news column, in order."""
        self._styles: list[str] = []
        """... and how each was shown."""
        self._cursor_was: Coordinate | None = None
        """Where the sheet's cursor was before its last move (which way it goes)."""
        self._all_hints = False
        """Whether the hints list every option (H) or the best :data:`HINTS_SHOWN`."""
        self._last_hints: tuple[Sequence[Choice], bool, int, Sequence[float | None] | Preparing | None] | None
        self._last_hints = None
        self._strike_asked: str | None = None
        """The box the player asked to strike: a second ``x`` on it strikes it."""
        self._thinking: int | None = None
        """The number of messages when "Thinking..." was said last (it goes once the hints come)."""
        self._reviewing: int | None = None
        """... and when "Reviewing the game..." was (it goes once the review shows)."""
        translate_keys(self, self.lang)
        keys = self._bindings.key_to_bindings
        keys["1"] = [dataclasses.replace(b, key_display=f"1-{self.rules.dice}") for b in keys["1"]]

    def t(self, text: str, **fields: object) -> str:
        return translate(self.lang, text, **fields)

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        multi = self.rules.multi_column
        with Horizontal(id="main"):
            yield DataTable(
                id="sheet",
                cursor_type="cell",
                fixed_columns=1,
                header_height=2 if multi else 1,
                cell_padding=1 if len(self.game.players) * len(self.rules.columns) <= 4 else 0,
                zebra_stripes=False,
            )
            with Vertical(id="side"):
                yield Static(id="status")
                with Horizontal(id="dice"):
                    for position in range(self.rules.dice):
                        yield Die(position)
                yield Static(id="holds")
                yield RichLog(id="news", wrap=True, markup=False, auto_scroll=True, min_width=20)
                yield RichLog(id="hints", wrap=False, markup=False, auto_scroll=False, min_width=20)
                yield Input(id="ask")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.title = self.rules.name
        self.query_one("#ask").display = False
        self.hide_hints()
        if self.game.is_over:
            self.refresh_all()
            self.finish()
            return
        self.say(
            self.t(
                "Space rolls, 1-{n} hold dice, the letter beside a box scores there, ? lists the keys.",
                n=self.rules.dice,
            )
        )
        self.refresh_all()
        self.place_cursor()
        self.query_one("#sheet", DataTable).focus()
        self.advance()

    # --- showing ---------------------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        self.messages.append(text)
        self._styles.append(style)
        self.query_one("#news", RichLog).write(Text(text, style=style))

    def redraw_news(self) -> None:
        """Write the news again: lines written while it was hidden were wrapped to no width at all (a
        column of twenty characters once it showed again), and a "Thinking..." taken back goes."""
        news = self.query_one("#news", RichLog)
        news.clear()
        for text, style in list(zip(self.messages, self._styles, strict=True))[-200:]:
            news.write(Text(text, style=style))

    def refresh_all(self) -> None:
        self.show_status()
        self.show_dice()
        self.show_sheet()
        if self.chances_shown and self.chances_at != len(self.game.log):
            self.find_chances()

    def label(self, key: str) -> str:
        column, box = self.rules.locate(key)
        text = box.label(self.lang)
        return f"{text} ({column.id})" if self.rules.multi_column else text

    def show_status(self) -> None:
        game, turn = self.game, self.game.turn
        lines = [
            self.rules.name,
            self.t("Round {round} of {turns}", round=game.round, turns=self.rules.turns),
        ]
        if game.is_over:
            lines.append(self.t("Game over"))
            shown = self.session.shown()
            for standing in game.standings():
                lines.append(f"{standing.rank}. {shown[standing.name]}  {standing.total}")
        else:
            who = self.names[game.current]
            if turn.dice is None:
                lines.append(self.t("{player} to move: roll (space)", player=who))
            else:
                left = game.rolls_left
                lines.append(
                    self.t("{player} to move: {n} rolls left", player=who, n=left)
                    if left != 1
                    else self.t("{player} to move: 1 roll left", player=who)
                )
            if turn.announced:
                lines.append(self.t("Announced: {box}", box=self.label(turn.announced)))
            if turn.free_throws:
                lines.append(self.t("Free throws this turn: {n}", n=turn.free_throws))
            if self.game.legal.free_throw and self.game.legal.can_throw and turn.dice is not None:
                lines.append(self.t("A free throw is possible (f)"))
            if self.game.legal.announceable:
                lines.append(self.t("Announce a box (a) or roll on"))
        if self.chances_shown:
            if self.chances is None and self.preparing is not None:
                lines.append(self.preparing.note(self.t))
            elif self.chances is None:
                lines.append(self.t("Chances of winning: weighing..."))
            else:
                shares = " · ".join(
                    f"{name} {percent(self.lang, chance, 0)}"
                    for name, chance in zip(self.names, self.chances, strict=True)
                )
                lines.append(self.t("Chances of winning: {shares}", shares=shares))
                if needs_tie_note(self.chances, 0):
                    lines.append(self.t(TIE_NOTE))
        self.query_one("#status", Static).update("\n".join(lines))

    def show_dice(self) -> None:
        dice = self.game.turn.dice
        marks = []
        for position in range(self.rules.dice):
            die = self.query_one(f"#die-{position}", Die)
            die.update("·" if dice is None else f"{PIP_FACES[dice[position] - 1]} {dice[position]}")
            held = dice is not None and self.held[position]
            die.set_class(held, "held")
            marks.append(self.t("held") if held else str(position + 1))
        self.query_one("#holds", Static).update("".join(f"{m:^6}" for m in marks))

    def show_sheet(self) -> None:
        """Every player's sheet, with what each free box of the player to move would pay now.

        The table is laid out once; later only the cells that changed are written again."""
        game, rules = self.game, self.rules
        table = self.query_one("#sheet", DataTable)
        legal = game.legal
        moving = not game.is_over and game.turn.dice is not None
        headers: list[Text] = []
        for index, name in enumerate(self.names):
            # The marker's place is kept when it moves on, so that the columns keep their width.
            marker = "▶" if index == game.current and not game.is_over else " "
            for place, column in enumerate(rules.columns):
                title = f"{marker}{name}" if place == 0 else ""
                if rules.multi_column:
                    title += f"\n{column.id:>3}"
                headers.append(Text(title, justify="right"))
        rows: list[list[Text]] = []
        cells: dict[Coordinate, tuple[int, str]] = {}

        def box_row(box: Box) -> None:
            key = self.box_keys.get(box.id)
            label = Text(box.label(self.lang))
            row = [Text.assemble((key, "bold"), " ", label) if key else Text.assemble("  ", label)]
            for index, sheet in enumerate(game.sheets):
                for column in rules.columns:
                    key = rules.key(column, box)
                    cells[Coordinate(len(rows), len(row))] = (index, key)
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
            rows.append(row)

        for layout_row in sheet_layout(rules):
            if layout_row.kind == "box":
                box_row(rules.box(layout_row.name))
                continue
            style = "bold" if layout_row.strong else "cyan"
            row = [Text(self.t(layout_row.label), style="bold " + style)]
            for sheet in game.sheets:
                if layout_row.kind == "grand_total":  # one figure per player, under the first column
                    row += [Text(str(sheet.total), style=style, justify="right")]
                    row += [Text("") for _ in rules.columns[1:]]
                    continue
                for column in rules.columns:
                    value = getattr(sheet.column_totals(column), layout_row.name)
                    row.append(Text(str(value), style=style, justify="right"))
            rows.append(row)

        if not table.columns:
            table.add_column(self.t("Box"))
            for header in headers:
                table.add_column(header)
            for row in rows:
                table.add_row(*row)
            self.cells = cells
        else:
            for shown, header in zip(list(table.columns.values())[1:], headers, strict=True):
                shown.label = header
            for y, row in enumerate(rows):
                for x, text in enumerate(row):
                    old = table.get_cell_at(Coordinate(y, x))
                    if not (isinstance(old, Text) and (old.plain, old.style) == (text.plain, text.style)):
                        table.update_cell_at(Coordinate(y, x), text)

    def place_cursor(self, *, best: bool = False) -> None:
        """Put the sheet's cursor on a free box of the player to move, unless it is on one; with
        ``best`` (after a throw), on the free box these dice pay most in."""
        if self.game.is_over:
            return
        table = self.query_one("#sheet", DataTable)
        here = self.cells.get(table.cursor_coordinate)
        current = self.game.current
        if not best and here is not None and here[0] == current and here[1] not in self.game.sheet.entries:
            return
        free = [
            c for c, (p, key) in self.cells.items() if p == current and key not in self.game.sheet.entries
        ]
        pays = self.game.placements() if best and self.game.turn.dice is not None else {}
        if free:
            target = min(
                free,
                key=lambda c: (
                    -pays[self.cells[c][1]].points if self.cells[c][1] in pays else 1,
                    c.column,
                    c.row,
                ),
            )
            table.cursor_coordinate = target
            # The player's columns start at the left edge where the sheet is wider than the screen.
            first = min(c.column for c, (p, _) in self.cells.items() if p == current)
            columns = list(table.columns.values())[1:first]
            x = sum(column.get_render_width(table) for column in columns)
            self.call_after_refresh(table.scroll_to, x=x, animate=False)

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        """The cursor moves from box to box: sums, bonuses and totals are passed over (and the column
        of names is left for the boxes beside it)."""
        if event.data_table.id != "sheet" or not self.cells:
            return
        table, there = event.data_table, event.coordinate
        before, self._cursor_was = self._cursor_was, there
        if there in self.cells:
            return
        down = before is None or there.row >= before.row
        rows = range(there.row + 1, table.row_count) if down else range(there.row - 1, -1, -1)
        column = (
            there.column if any(c.column == there.column for c in self.cells) else (before or there).column
        )
        for row in rows:
            if Coordinate(row, column) in self.cells:
                table.cursor_coordinate = Coordinate(row, column)
                return
        if before is not None and before in self.cells:
            table.cursor_coordinate = before  # nothing further that way: stay

    # --- playing ---------------------------------------------------------------------------------

    def human_may_act(self) -> bool:
        if self.game.is_over or self.bots_playing or self.asking is not None:
            return False
        return self.game.current not in self.session.bots

    def try_apply(self, action: Action) -> Outcome | None:
        try:
            outcome = self.session.apply(action)
        except (KniffelError, OSError) as error:
            self.complain(error)
            return None
        self.after(outcome)
        return outcome

    def complain(self, error: BaseException) -> None:
        self.say(self.t("error: {message}", message=error_text(self.lang, error)), style="red")
        self.bell()

    def describe(self, outcome: Outcome) -> str:
        """What an applied action did, in a few words."""
        action = outcome.action
        name = self.names[outcome.player]
        dice = " ".join(map(str, outcome.dice or ()))
        if isinstance(action, FreeThrow):
            return self.t("{player}: free throw → {dice}", player=name, dice=dice)
        if isinstance(action, Roll):
            if action.keep:
                kept = " ".join(map(str, action.keep))
                return self.t("{player}: keeps {kept} → {dice}", player=name, kept=kept, dice=dice)
            return self.t("{player}: rolls {dice}", player=name, dice=dice)
        assert isinstance(action, Score | Strike | Announce)
        box = self.label(action.box)
        if isinstance(action, Announce):
            return self.t("{player}: announces {box}", player=name, box=box)
        if isinstance(action, Strike):
            return self.t("{player}: strikes {box}", player=name, box=box)
        return self.t("{player}: scores {points} in {box}", player=name, points=outcome.points, box=box)

    def after(self, outcome: Outcome) -> None:
        """Show what a person's action did and go on to whoever moves next."""
        self.record(outcome)
        self.hide_hints()
        self.refresh_all()
        if outcome.ends_turn:
            self.place_cursor()
            self.advance()
        elif isinstance(outcome.action, Roll | FreeThrow):
            self.place_cursor(best=True)

    def record(self, outcome: Outcome, style: str = "") -> None:
        """Say what an action did, and carry the held dice through a throw."""
        self.say(self.describe(outcome), style)
        if outcome.extra_bonus:
            self.say(self.t("Extra bonus: +{points}!", points=outcome.extra_bonus), style="bold")
        if outcome.upper_bonus:
            self.say(self.t("Upper bonus: +{points}!", points=outcome.upper_bonus), style="bold")
        if isinstance(outcome.action, Roll):
            self.held = held_after(outcome.dice or (), outcome.action.keep)
        elif outcome.ends_turn:
            self.held = [False] * self.rules.dice

    def advance(self) -> None:
        """Let the bots play their turns, then end the game or wait for a person."""
        if self.game.is_over:
            self.finish()
        elif self.game.current in self.session.bots and not self.bots_playing:
            self.bots_playing = True
            if self.bot_delay > 0:
                self.set_timer(self.bot_delay, self.bot_step)
            else:
                while self.bots_playing:
                    self.bot_step()

    def bot_step(self) -> None:
        """One action of the bot to move; the next after a pause, until a person is to move. With a
        pause the bot thinks on a thread, so that the screen answers meanwhile (a bot playing to win may
        wait a second or two for its tables)."""
        if self.game.is_over or self.game.current not in self.session.bots:
            self.bots_playing = False
            self.refresh_all()
            self.place_cursor()
            if self.game.is_over:
                self.finish()
            return
        if self.bot_delay > 0:
            self.think(len(self.game.log))
        else:
            self.bot_acts(self.session.bot_action(), len(self.game.log))

    @work(thread=True, exclusive=True, group="bot")
    def think(self, moves: int) -> None:
        action = self.session.bot_action()
        self.call_from_thread(self.bot_acts, action, moves)

    def bot_acts(self, action: Action, moves: int) -> None:
        if moves != len(self.game.log) or not self.bots_playing:
            return  # the game moved on (an undo) while the bot thought
        try:
            outcome = self.session.apply(action)
        except (KniffelError, OSError) as error:
            self.bots_playing = False
            self.complain(error)
            return
        self.record(outcome, style="dim" if isinstance(outcome.action, Roll) else "")
        if self.bot_delay > 0:
            self.refresh_all()
            self.set_timer(self.bot_delay, self.bot_step)

    def finish(self) -> None:
        self.refresh_bindings()  # the footer of a game that is over
        self.say(result_line(self.game, self.t, self.session.shown()), "bold")
        self.session.autosave()
        if not self.session.all_bots:
            self.say(self.t("r: the review of the game; q: quit."))
            self.action_review()

    # --- the player's keys -----------------------------------------------------------------------

    def held_faces(self) -> tuple[int, ...]:
        dice = self.game.turn.dice
        if dice is None:
            return ()
        return tuple(face for face, held in zip(dice, self.held, strict=True) if held)

    def action_hold(self, position: int) -> None:
        if not self.human_may_act() or self.game.turn.dice is None or position >= self.rules.dice:
            return
        self.held[position] = not self.held[position]
        self.show_dice()

    def action_roll(self) -> None:
        self.throw(Roll)

    def action_free(self) -> None:
        self.throw(FreeThrow)

    def throw(self, kind: type[Roll]) -> None:
        if not self.human_may_act():
            return
        if kind is Roll and self.game.legal.free_throw:
            kind = FreeThrow  # the regular rolls are used up: space takes the free throw
        action = kind(keep=self.held_faces() if self.game.turn.dice is not None else ())
        try:
            self.game.check(action)
        except KniffelError as error:
            self.complain(error)
            return
        if self.session.settings.pad:
            self.pending = action
            count = self.rules.dice - len(action.keep)
            self.ask("dice", self.t("Type the {n} dice you threw (esc: cancel)", n=count))
            return
        self.try_apply(action)

    def box_under_cursor(self) -> str | None:
        table = self.query_one("#sheet", DataTable)
        here = self.cells.get(table.cursor_coordinate)
        if here is None or here[0] != self.game.current:
            self.complain(
                GameError(
                    self.t("move the cursor to a free box of {player}", player=self.names[self.game.current])
                )
            )
            return None
        return here[1]

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        if event.data_table.id == "sheet":
            self.action_score()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter submits the input line while it is open, and selects rows on the review screen; the
        # letters are the review screen's and the input line's there.
        if action in ("score", "box") and (self.asking is not None or len(self.screen_stack) > 1):
            return False
        if action == "box" and parameters and parameters[0] not in range(len(self.box_keys)):
            return False  # a letter no box of these rules has
        # Once the game is over the footer offers what is left to do: the review, save, undo, quit.
        over = self.game.is_over
        if action in PLAYING_ACTIONS or action == "review":
            return not over
        if action in OVER_ACTIONS:
            return over
        return True

    def action_score(self) -> None:
        """Enter the dice in the box under the cursor."""
        if not self.human_may_act():
            return
        if self.game.turn.dice is None:
            self.complain(GameError(self.t("roll first (space)")))
            return
        key = self.box_under_cursor()
        if key is None:
            return
        if key not in self.game.legal.placements and key in self.game.legal.strikeable:
            self.complain(
                GameError(self.t("{box} does not take these dice; x strikes it", box=self.label(key)))
            )
            return
        self.try_apply(Score(key))

    def action_box(self, index: int) -> None:
        """A box's own key: the dice go there (in the column of the cursor, which moves there). A box
        they pay nothing in is filled only when asked twice, as ``x`` strikes: the same key again (or
        ``x``) enters the 0; a box that cannot be used now is refused with the reason."""
        if not self.human_may_act() or index >= len(self.box_keys):
            return
        if self.game.turn.dice is None:
            self.complain(GameError(self.t("roll first (space)")))
            return
        box, letter = list(self.box_keys.items())[index]
        table = self.query_one("#sheet", DataTable)
        here = self.cells.get(table.cursor_coordinate)
        current = self.game.current
        column = self.rules.locate(here[1])[0] if here is not None and here[0] == current else None
        key = self.rules.key(column or self.rules.columns[0], self.rules.box(box))
        table.cursor_coordinate = next(c for c, cell in self.cells.items() if cell == (current, key))
        legal = self.game.legal
        placement = legal.placements.get(key)
        if placement is not None and placement.total > 0:
            self.try_apply(Score(key))
            return
        if placement is None and key not in legal.strikeable:
            try:
                self.game.check(Score(key))
            except KniffelError as error:
                self.complain(error)
                return
        if self._strike_asked != (asked := f"{len(self.game.log)}:{key}"):
            self._strike_asked = asked  # x asks the same, so either key enters the 0
            self.say(
                self.t(
                    "{box} pays 0 with these dice: press {key} again (or x) to enter 0 there.",
                    box=self.label(key),
                    key=letter,
                ),
                "bold",
            )
            return
        self._strike_asked = None
        self.try_apply(Score(key) if placement is not None else Strike(key))

    def action_strike(self) -> None:
        """Striking gives a box away for good: the first ``x`` asks, a second on the same box strikes."""
        if not (self.human_may_act() and (key := self.box_under_cursor()) is not None):
            return
        if self._strike_asked != (asked := f"{len(self.game.log)}:{key}"):
            self._strike_asked = asked
            self.say(self.t("Strike {box} for 0? Press x again to strike it.", box=self.label(key)), "bold")
            return
        self._strike_asked = None
        self.try_apply(Strike(key))

    def action_announce(self) -> None:
        if self.human_may_act() and (key := self.box_under_cursor()) is not None:
            self.try_apply(Announce(key))

    def action_undo(self) -> None:
        if self.bots_playing or self.asking is not None:
            return
        try:
            undone = self.session.undo()
        except KniffelError as error:
            self.complain(error)
            return
        self.say(
            self.t(
                "Undone: {action} ({player}).",
                player=self.names[undone.player],
                action=str(undone.action),
            )
        )
        if undone.bot_actions:
            self.say(self.t("The bots' turns since then will be played again with the same dice."))
        self.held = [False] * self.rules.dice
        if isinstance(undone.action, Roll) and self.game.turn.dice is not None:
            self.held = held_after(self.game.turn.dice, undone.action.keep)
        self.hide_hints()
        self.refresh_all()
        self.refresh_bindings()  # an undone last box: the game goes on
        self.place_cursor()

    def action_undo_over(self) -> None:
        self.action_undo()

    def action_save_over(self) -> None:
        self.action_save()

    def action_help(self) -> None:
        self.hide_hints()
        letters = list(self.box_keys.values()) or ["-"]
        self.say(self.t(KEYS, n=self.rules.dice, first=letters[0], last=letters[-1]))

    # --- hints and review ------------------------------------------------------------------------

    def action_hints(self) -> None:
        if self.query_one("#hints").display:
            self.hide_hints()
            return
        if self.game.is_over or self.game.turn.dice is None:
            self.complain(GameError(self.t("roll first: there is nothing to decide before the first throw")))
            return
        self._thinking = len(self.messages)
        self.say(self.t("Thinking..."), style="dim")
        self.find_hints()

    @work(thread=True, exclusive=True, group="hints")
    def find_hints(self) -> None:
        choices, exact = hint_choices(self.game)
        found = hint_win_chances(self.game, choices)
        self.call_from_thread(self.show_hints, choices, exact, len(self.game.log), found)

    def show_hints(
        self,
        choices: Sequence[Choice],
        exact: bool,
        moves: int,
        found: Sequence[float | None] | Preparing | None = None,
    ) -> None:
        if moves != len(self.game.log):
            return  # the game moved on while the planner thought
        self.drop_thinking()
        wins = found if isinstance(found, list) else None
        hints = self.query_one("#hints", RichLog)
        hints.clear()
        title = (
            N_("Options (expected points to come)")
            if wins is None
            else N_("Options (points to come, win chance)")
        )
        hints.write(Text(self.t(title), style="bold"))
        self._last_hints = (choices, exact, moves, found)
        best = choices[0].value if choices else 0.0
        listed = len(choices) if self._all_hints else min(len(choices), HINTS_SHOWN)
        for n, choice in enumerate(choices[:listed]):
            cost = self.t("best") if n == 0 else "-" + number(self.lang, best - choice.value, 2)
            shown = self.game.action_text(choice.action, self.lang)
            line = f"{shown:<21}{number(self.lang, choice.value, 1):>7} {cost:>5}"
            if wins is not None and wins[n] is not None:
                line += f" {percent(self.lang, wins[n] or 0.0):>6}"
            hints.write(line)
        if listed < len(choices):
            hints.write(Text(self.t("{n} more: H lists them all", n=len(choices) - listed), style="dim"))
        if not exact:
            hints.write(
                Text(self.t("Values are estimates from single-column tables, not exact."), style="dim")
            )
        if isinstance(found, Preparing):
            hints.write(Text(found.note(self.t), style="dim"))
            self.watch_preparing(found)
        self.showing_hints(True)

    def action_all_hints(self) -> None:
        """Every option rather than the best few (H again: the best few)."""
        self._all_hints = not self._all_hints
        if self._last_hints is not None and self.query_one("#hints").display:
            self.show_hints(*self._last_hints)
        elif not self.query_one("#hints").display:
            self.action_hints()

    def action_chances(self) -> None:
        """Show or hide every player's chance of winning, weighed again after every action."""
        if not plays_to_win(self.game):
            self.complain(
                GameError(self.t("chances of winning need several players and rules the exact solver covers"))
            )
            return
        self.chances_shown = not self.chances_shown
        self.chances = None
        self.chances_at = -1
        self.refresh_all()

    @work(thread=True, exclusive=True, group="chances")
    def find_chances(self) -> None:
        moves = len(self.game.log)
        self.chances_at = moves
        found = live_chances(self.game)
        self.call_from_thread(self.show_chances, found, moves)

    def show_chances(self, found: list[float] | Preparing | None, moves: int) -> None:
        if moves != len(self.game.log):
            return  # a newer weighing is on its way
        if isinstance(found, Preparing):
            self.chances = None
            self.preparing = found
            self.chances_at = -1  # weighed again once the tables are there
            self.watch_preparing(found)
        else:
            self.chances = found
            self.preparing = None
        self.show_status()

    def watch_preparing(self, preparing: Preparing) -> None:
        """While tables are solved for the chances of winning, look again every second: the status shows
        how far the solve is, and the chances once it is done."""
        if preparing.solving and self._preparing_timer is None:
            self._preparing_timer = self.set_interval(1.0, self.check_preparing)

    def check_preparing(self) -> None:
        if self.preparing is None or not self.chances_shown:
            if self._preparing_timer is not None:
                self._preparing_timer.stop()
                self._preparing_timer = None
            return
        self.find_chances()

    def drop_thinking(self) -> None:
        """Take back the "Thinking..." line once the hints it announced are shown (whatever was said
        after it stays)."""
        at, self._thinking = self._thinking, None
        self.take_back(at, self.t("Thinking..."))

    def take_back(self, at: int | None, text: str) -> None:
        """Take back the news line ``text`` said as message ``at``, if it is still there."""
        if at is None or at >= len(self.messages) or self.messages[at] != text:
            return
        del self.messages[at], self._styles[at]
        if self._thinking is not None and self._thinking > at:
            self._thinking -= 1
        if self._reviewing is not None and self._reviewing > at:
            self._reviewing -= 1
        self.redraw_news()

    def hide_hints(self) -> None:
        self.showing_hints(False)

    def showing_hints(self, shown: bool) -> None:
        news = self.query_one("#news")
        again = not shown and not news.display
        self.query_one("#hints").display = shown
        news.display = not shown
        if again:
            self.call_after_refresh(self.redraw_news)  # at the width it has once shown

    def action_review(self) -> None:
        if self.asking is not None or self.bots_playing:
            return
        if not self.game.log:
            self.complain(GameError(self.t("No decisions to review yet.")))
            return
        self._reviewing = len(self.messages)
        self.say(self.t("Reviewing the game..."), style="dim")
        self.find_review(len(self.game.log))

    def action_review_over(self) -> None:
        self.action_review()

    @work(thread=True, exclusive=True, group="review")
    def find_review(self, moves: int) -> None:
        result = review(self.game)
        self.call_from_thread(self.show_review, result, moves)

    def show_review(self, result: Review, moves: int) -> None:
        at, self._reviewing = self._reviewing, None
        self.take_back(at, self.t("Reviewing the game..."))
        if moves != len(self.game.log):
            return
        self.review_result = result
        self.push_screen(ReviewScreen(renamed(result, self.session.shown()), self.rules, self.lang))

    # --- the input line: score-pad dice, a file to save to ----------------------------------------

    def ask(self, what: str, placeholder: str, value: str = "") -> None:
        self.asking = what
        line = self.query_one("#ask", Input)
        line.placeholder = placeholder
        line.value = value
        line.display = True
        line.focus()

    def action_cancel(self) -> None:
        if self.asking is not None:
            self.stop_asking()
        else:
            self.hide_hints()

    def stop_asking(self) -> None:
        self.asking = None
        self.pending = None
        self.query_one("#ask").display = False
        self.query_one("#sheet", DataTable).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.asking == "dice" and self.pending is not None:
            pending = self.pending
            thrown = [int(c) for c in text if c.isdigit()]
            count = self.rules.dice - len(pending.keep)
            if len(thrown) != count or any(c.isalpha() for c in text):
                self.complain(
                    GameError(
                        self.t(
                            "expected {n} dice, e.g. {example}", n=count, example=" ".join("65432"[:count])
                        )
                    )
                )
                return
            try:
                dice = validate_dice([*pending.keep, *thrown], self.rules.dice)
            except KniffelError as error:
                self.complain(error)
                return
            self.stop_asking()
            self.try_apply(type(pending)(keep=pending.keep, dice=dice))
        elif self.asking == "save":
            if not text:
                return
            self.stop_asking()
            self.save_to(Path(text).expanduser())

    def action_save(self) -> None:
        if self.asking is not None:
            return
        if self.session.settings.save is not None:
            self.save_to(self.session.settings.save)
        else:
            self.ask("save", self.t("Save the game to this file (esc: cancel)"), "kniffel-game.json")

    def save_to(self, path: Path) -> None:
        try:
            self.session.save(path)
        except (KniffelError, OSError) as error:
            self.complain(error)
            return
        self._saved = (path, len(self.game.log))
        self.say(self.t("Saved to {path}; resume with: kniffel play --load {path}", path=path), "bold")

    def action_quit_game(self) -> None:
        if self.asking is not None:
            return
        settings = self.session.settings
        if self.game.is_over:
            self.farewell = ""
        elif settings.save is not None:
            try:
                self.session.autosave()
            except OSError as error:
                self.complain(error)
                return
            self.farewell = self.t(
                "Game saved to {path}; resume with: kniffel play --load {path}", path=settings.save
            )
        elif self._saved is not None and self._saved[1] == len(self.game.log):
            self.farewell = self.t("The game is saved in {path}.", path=self._saved[0])
        else:
            self.farewell = self.t("The game was not saved (play with --save FILE to keep it).")
        self.exit(0)


def play(session: Session, *, bot_delay: float = BOT_DELAY) -> int:
    """Play ``session`` full-screen until the game ends and the player leaves; the exit status."""
    console = Console(highlight=False)
    session.autosave()  # a save path that cannot be written is reported before anyone plays
    for bot in session.bots_to_prepare():
        with console.status(
            translate(session.settings.lang, "Loading the tables of the {bot} bot...", bot=bot.name)
        ):
            session.prepare(bot)
    app = KniffelApp(session, bot_delay=bot_delay)
    status = app.run()
    if session.game.is_over:  # the screen is gone: who won stays in the terminal
        console.print(result_line(session.game, app.t, session.shown()), markup=False, highlight=False)
    if app.farewell:
        console.print(app.farewell, markup=False, highlight=False)
    return status or 0
