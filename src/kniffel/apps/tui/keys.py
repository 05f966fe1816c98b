"""The keys of the game: one pattern (the boxes are the letters a, b, c... top to bottom, the commands are
the keys after them or signs), a key bar that names every key in two lines, and ``?``'s list.

The boxes take the letters from ``a`` in sheet order (15 at most, ``a`` to ``o``, in the rule sets
built in); the commands use the letters after them (``p`` position, ``q`` quit, ``r`` review, ``s``
save, ``t`` tips, ``u`` undo, ``w`` chances, ``x`` strike) and signs (space rolls, ``!`` announces,
``+`` takes a free throw, ``?`` lists the keys).
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from kniffel.apps.tui.common import translate_keys
from kniffel.base.i18n import N_, translate
from kniffel.rules import Order, RuleSet

BOX_KEYS = "abcdefghijklmno"
"""The keys of the sheet's boxes, top to bottom. A rule set of more boxes leaves the last without a key
(the cursor reaches them)."""

KEY_NAMES = {"space": N_("space"), "enter": "⏎", "escape": N_("esc")}
"""How the key bar and the key list write a key that is not one character."""


def box_keys(boxes: list[str]) -> dict[str, str]:
    """The key of each box (by its id), in sheet order."""
    return dict(zip(boxes, BOX_KEYS, strict=False))


def key_list(rules: RuleSet, letters: list[str]) -> list[tuple[str, str]]:
    """Every key of a game of ``rules`` and what it does, as ``?`` lists them (English: translate the
    second item; the first is a key, or a key word of :data:`KEY_NAMES`)."""
    first, last = (letters[0], letters[-1]) if letters else ("-", "-")
    keys = [
        ("space", N_("roll: throw the dice that are not held")),
        (f"1-{rules.dice}", N_("hold a die or let it go (a click on it does the same)")),
        (f"{first}-{last}", N_("score in the box of that letter (asking first where the dice pay 0)")),
        ("enter", N_("score in the box under the cursor; the arrow keys move the cursor")),
        ("x", N_("strike the box under the cursor (asking first)")),
    ]
    if any(column.order is Order.ANNOUNCED for column in rules.columns):
        keys.append(("!", N_("announce the box under the cursor (right after the first roll)")))
    if rules.free_throws:
        keys.append(("+", N_("take a free throw (space does once the rolls are used up)")))
    keys += [
        ("u", N_("undo your last entry (a throw stays: its dice are seen)")),
        ("t", N_("tips: the best options with their values (T: every option)")),
        ("w", N_("every player's chance of winning, after every move")),
        ("p", N_("the position as text, to copy; or paste one to analyse it")),
        ("r", N_("review the game: the decisions that cost points")),
        ("s", N_("save the game")),
        ("?", N_("this list of keys")),
        ("q", N_("quit, asking first if the game is not saved (ctrl+c too)")),
        ("escape", N_("close a panel or a question")),
    ]
    return keys


def key_name(key: str, lang: str) -> str:
    return translate(lang, KEY_NAMES[key]) if key in KEY_NAMES else key


class KeyBar(Static):
    """The keys a person can press now, each with its word, on up to two lines (the footer of the game:
    Textual's own footer holds one line, which 80 columns cannot fill with every key)."""

    DEFAULT_CSS = """
    KeyBar { height: auto; max-height: 2; background: $panel; color: $text-muted; }
    """

    def show_keys(self, keys: list[tuple[str, str]], width: int) -> None:
        """``keys`` (key, word) laid out in lines of ``width`` (at most two; what does not fit is in the
        ``?`` list, named last)."""
        lines: list[Text] = [Text()]
        for key, word in keys:
            item = Text.assemble((key, "bold"), " ", word)
            line = lines[-1]
            if line.cell_len and line.cell_len + 2 + item.cell_len > width:
                if len(lines) == 2:
                    break
                lines.append(Text())
                line = lines[-1]
            if line.cell_len:
                line.append("  ")
            line.append_text(item)
        self.update(Text("\n").join(lines))


class HelpScreen(ModalScreen[None]):
    """Every key and what it does, from the first (one page at 80x24; it scrolls from its start)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", "Back")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: 100%; max-width: 90; height: auto; max-height: 100%; border: round $accent;
            padding: 0 1; background: $surface; }
    """

    def __init__(self, rules: RuleSet, letters: list[str], lang: str) -> None:
        super().__init__()
        self.rules, self.letters, self.lang = rules, letters, lang
        translate_keys(self, lang)

    def table(self) -> Table:
        """A key and what it does on each line (the words wrap beside the key)."""
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, text in key_list(self.rules, self.letters):
            table.add_row(key_name(key, self.lang), translate(self.lang, text))
        return table

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help") as scroll:
            scroll.border_title = translate(self.lang, "Keys")
            scroll.border_subtitle = translate(self.lang, "esc: back")
            yield Static(self.table(), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help").scroll_home(animate=False)
