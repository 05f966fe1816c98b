"""The position as text (``p``): the table text of :class:`kniffel.engine.situation.Situation` (the sheet of
the player to move, the dice, the rolls left and the other players' sheets), which ``kniffel advise
--situation`` reads, shown to copy; and a line to paste such a text into, which shows the advice for
every goal there is: the points to come, each option's chance of winning (with the other players'
sheets) and, given a score to reach, its chance of reaching it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from kniffel.apps.tui.common import translate_keys, wrapped_text
from kniffel.apps.tui.hints import HintsPanel
from kniffel.base.errors import KniffelError
from kniffel.base.i18n import N_, error_text, translate
from kniffel.engine.game import Game
from kniffel.engine.situation import Situation
from kniffel.planning import Choice
from kniffel.planning.goals import Target
from kniffel.services.advice import PAST_THE_LIMIT, Position, Preparing, hints, options, pruned
from kniffel.services.wording import thinking_text

Analysis = tuple[Game, list[Choice], bool, "Sequence[float | None] | Preparing | None", "list[float] | None"]


class PositionScreen(ModalScreen[None]):
    """The position's text to copy, and the advice for a pasted one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Back"),
        Binding("ctrl+y", "copy_text", "Copy the text"),
    ]
    DEFAULT_CSS = """
    PositionScreen { align: center middle; }
    #position { width: 100%; height: 100%; border: round $accent; padding: 0 1; background: $surface; }
    #position-text { height: auto; max-height: 6; margin-bottom: 1; }
    #position-line { height: 3; }
    #position-paste { width: 1fr; }
    #position-target { width: 16; }
    #position-note { height: auto; }
    #position-advice { height: 1fr; }
    """

    def __init__(self, text: str | None, lang: str) -> None:
        super().__init__()
        self.text, self.lang = text, lang
        self.analysed: Analysis | None = None
        self._thinking: Timer | None = None
        """While an analysis runs: what says "Thinking..." again each second (on a first use, with the
        seconds the solver has compiled so far)."""
        translate_keys(self, lang)

    def t(self, text: str, **fields: object) -> str:
        return translate(self.lang, text, **fields)

    def compose(self) -> ComposeResult:
        with Vertical(id="position") as box:
            box.border_title = self.t("The position as text (kniffel advise --situation reads it)")
            yield Static(id="position-text")
            with Horizontal(id="position-line"):
                yield Input(
                    placeholder=self.t("Paste a position's text, then enter: the advice for it"),
                    id="position-paste",
                )
                yield Input(placeholder=self.t("target score"), id="position-target", type="integer")
            yield Static(id="position-note")
            yield HintsPanel(self.lang, id="position-advice")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        shown = self.text if self.text is not None else self.t("The game is over: no position to play.")
        width = max(self.size.width - 4, 40)
        self.query_one("#position-text", Static).update(wrapped_text(shown, width, "bold"))
        paste = self.query_one("#position-paste", Input)
        paste.value = self.text or ""
        paste.focus()
        self.note(
            self.t(
                "Enter: the advice for this position, for every goal. The text names the boxes by their ids, "
                "which every kniffel program reads in any language; a pasted one may name them as the sheet "
                "does. ctrl+y copies the text."
            ),
            "dim",
        )

    def action_copy_text(self) -> None:
        text = self.query_one("#position-paste", Input).value or self.text or ""
        self.app.copy_to_clipboard(text)
        self.note(self.t("Copied to the clipboard (where the terminal lets programs copy)."))

    def note(self, text: str, style: str = "") -> None:
        width = max(self.app.size.width - 6, 40)
        self.query_one("#position-note", Static).update(wrapped_text(text, width, style))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = self.query_one("#position-paste", Input).value.strip()
        target = self.query_one("#position-target", Input).value.strip()
        try:
            situation = Situation.parse(text)
        except KniffelError as error:
            self.tell_error(self.t("error: {message}", message=error_text(self.lang, error)))
            return
        if situation.dice is None:
            self.note(self.t("No dice yet in this position: advice starts after the turn's first roll."))
            return
        self.think()
        self.analyse(situation, int(target) if target.isdecimal() else None)

    def think(self) -> None:
        """Say "Thinking..." until the advice comes, the compile of a first use counted."""
        self.stop_thinking()
        self.tell_thinking()
        self._thinking = self.set_interval(1.0, self.tell_thinking)

    def tell_thinking(self) -> None:
        self.note(thinking_text(self.lang), "dim")

    def stop_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.stop()
            self._thinking = None

    @work(thread=True, exclusive=True, group="position")
    def analyse(self, situation: Situation, target: int | None) -> None:
        game = Game.from_situation(situation)
        try:
            found = hints(game)
            choices, exact = pruned(found.points.options), found.points.exact
            wins = found.chances(choices)
            reach, bound = None, None
            if target is not None:
                toward = options(Position.of_game(game), Target(target))
                chances = {c.action: c.value for c in toward.options}
                reach = [chances.get(c.action, 0.0) for c in choices]
                bound = None if toward.reach is None else toward.reach.limit
        except KniffelError as error:
            message = self.t("error: {message}", message=error_text(self.lang, error))
            self.app.call_from_thread(self.tell_error, message)
            return
        self.app.call_from_thread(self.show_advice, (game, choices, exact, wins, reach), target, bound)

    def tell_error(self, message: str) -> None:
        self.stop_thinking()
        self.note(message, "red")

    def show_advice(self, analysis: Analysis, target: int | None, bound: int | None = None) -> None:
        self.stop_thinking()
        self.analysed = analysis
        game, choices, exact, found, reach = analysis
        chances: list[tuple[str, Sequence[float | None]]] = []
        if isinstance(found, list):
            chances.append((self.t("win"), found))
        if target is not None and reach is not None:
            chances.append((f"≥{target}", reach))
        said = self.t(
            "Points to come for every option; with the other players' sheets its chance of winning; "
            "with a target score (beside the text) its chance of reaching it."
        )
        if bound is not None:  # the target's chances are the limit's
            said = f"{said} {self.t(PAST_THE_LIMIT, limit=bound)}."
        self.note(said, "dim")
        self.query_one("#position-advice", HintsPanel).show(
            game,
            choices,
            exact,
            chances,
            every=True,
            preparing=found if isinstance(found, Preparing) else None,
            title=N_("Options in this position, best first for points"),
        )
