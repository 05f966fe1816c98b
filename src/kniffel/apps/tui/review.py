"""The review at the end (or on ``r``): every player's summary and the decisions that cost points."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from kniffel.apps.tui.common import translate_keys
from kniffel.base.i18n import N_, translate
from kniffel.engine.actions import Action, action_text
from kniffel.rules import RuleSet
from kniffel.services.proficiency import review_lines
from kniffel.services.review import Review, loss_text
from kniffel.services.wording import SUMMARY_HEADERS, listed_decisions, summary_cells, summary_notes


class ReviewScreen(ModalScreen[None]):
    """Every player's summary and the decisions that cost points."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r", "dismiss", "Back"),
    ]
    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    #review { width: 100%; height: 100%; border: round $accent; padding: 0 1; background: $surface; }
    #review-summary { height: auto; max-height: 11; }
    #review-figures { height: auto; }
    #review-note { color: $text-muted; }
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
            yield Static(
                self.t("Review: what each decision gave away of its player's goal"), id="review-title"
            )
            yield DataTable(id="review-summary", cursor_type="none")
            # each player's figure: the average loss a decision and the level it matches
            yield Static("\n".join(review_lines(self.result, self.lang)), id="review-figures")
            yield Static(self.note(), id="review-note")
            yield DataTable(id="review-decisions", cursor_type="row")
        yield Footer(compact=True)

    def note(self) -> str:
        """What the summary's figures mean, whether the values are exact, and the decisions' heading."""
        lines = summary_notes(self.lang)
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
                str(d.number),
                d.player,
                str(d.round),
                dice,
                chosen,
                best,
                loss_text(d.loss, d.unit, self.lang),
            )
