"""The trainer full-screen (``kniffel train`` in a terminal): a position of the series at a time, answered
with the game's keys, then the verdict; the figure of the series at the end.

The keys are the game's (:mod:`kniffel.apps.tui.keys`): ``1``-``6`` hold a die, space keeps the held dice
and rolls the others, a box's letter fills that box (or strikes it where the dice pay nothing), enter goes
on to the next position once the verdict is shown, ``q`` ends the series with its figure. Everything
fits 80 columns and 24 rows: the sheet on the left, the dice, the question and the verdict beside it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Static

from kniffel.apps.tui.common import translate_keys
from kniffel.apps.tui.dice import DiceBar
from kniffel.apps.tui.keys import BOX_KEYS, box_keys
from kniffel.apps.tui.sheet import SheetView
from kniffel.base.i18n import translate
from kniffel.engine.actions import Action, Roll, Score, Strike, action_text
from kniffel.engine.game import Game
from kniffel.engine.sheet import sheet_layout
from kniffel.rules import RuleSet
from kniffel.services import trainer

SHOWN_OPTIONS = 5
"""The options a verdict lists under its words (the best first, and the answer)."""


class TrainerApp(App[int]):
    """A series of positions answered one by one (see the module docstring)."""

    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #trainer { height: 1fr; }
    #sheet { width: auto; max-width: 40; height: 1fr; }
    #side { width: 1fr; padding: 0 1; }
    #heading { text-style: bold; height: auto; }
    #question { height: auto; margin-top: 1; }
    #verdict { height: auto; }
    #options { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"hold({n - 1})", "Hold", show=n == 1, key_display="1-6") for n in range(1, 7)),
        Binding("space", "keep", "Keep held, roll"),
        *(Binding(key, f"box({n})", "Box", show=n == 0, key_display="a-") for n, key in enumerate(BOX_KEYS)),
        Binding("enter", "next", "Next", priority=True),
        Binding("q", "quit_series", "End"),
        Binding("ctrl+c", "quit_series", "End", show=False, priority=True),
    ]

    def __init__(
        self, exercises: list[trainer.Exercise], rules: RuleSet, lang: str, *, seed: int = 0
    ) -> None:
        super().__init__()
        self.exercises, self.rules, self.lang, self.seed = exercises, rules, lang, seed
        self.at = 0
        self.verdicts: list[trainer.Verdict] = []
        self.answered: trainer.Verdict | None = None
        self.held: list[bool] = [False] * rules.dice
        self.over = False
        self.box_keys = box_keys([row.name for row in sheet_layout(rules) if row.kind == "box"])
        translate_keys(self, lang)

    def t(self, text: str, **fields: object) -> str:
        return translate(self.lang, text, **fields)

    @property
    def exercise(self) -> trainer.Exercise:
        return self.exercises[self.at]

    def game(self) -> Game:
        """The position as a game (the player to move is "You")."""
        return Game.from_situation(self.exercise.situation, player=self.t("You"))

    def names(self, game: Game) -> list[str]:
        mover = game.players[game.current]
        return [name if name == mover else self.t("Opponent") for name in game.players]

    def compose(self) -> ComposeResult:
        game = self.game()
        with Horizontal(id="trainer"):
            yield SheetView(self.rules, self.names(game), self.box_keys, self.lang, id="sheet")
            with Vertical(id="side"):
                yield Static(id="heading")
                yield DiceBar(self.rules.dice, id="dice")
                yield Static(id="question")
                yield Static(id="verdict")
                yield DataTable(id="options", cursor_type="none", show_cursor=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#sheet", SheetView).show_cursor = False  # a box is chosen by its letter
        self.show_position()

    # --- drawing ---------------------------------------------------------------------------------

    def show_position(self) -> None:
        game = self.game()
        sheet = self.query_one("#sheet", SheetView)
        sheet.names = self.names(game)
        sheet.room = 40
        sheet.show(game)
        self.held = [False] * self.rules.dice
        count = f"{self.at + 1}/{len(self.exercises)}"
        self.query_one("#heading", Static).update(f"{count} · {self.exercise.heading(self.lang)}")
        self.show_dice()
        rolls = self.t("rolls left: {n}", n=self.exercise.situation.rolls_left)
        keys = self.t("1-6 hold, space keeps them and rolls, a letter fills its box.")
        self.query_one("#question", Static).update(f"{self.exercise.question(self.lang)} ({rolls})\n{keys}")
        self.query_one("#verdict", Static).update("")
        options = self.query_one("#options", DataTable)
        options.clear(columns=True)
        options.display = False

    def show_dice(self) -> None:
        self.query_one("#dice", DiceBar).show(self.exercise.situation.dice, self.held, self.t("held"))

    def show_verdict(self, verdict: trainer.Verdict) -> None:
        lines = verdict.lines(self.lang)
        more = (
            self.t("enter: next position") if self.at + 1 < len(self.exercises) else self.t("enter: the end")
        )
        style = "green" if verdict.best_choice else "yellow"
        text = Text()
        text.append(lines[0], style=f"bold {style}")
        for line in lines[1:]:
            text.append("\n" + line)
        text.append("\n" + more, style="dim")
        self.query_one("#question", Static).update("")
        self.query_one("#verdict", Static).update(text)
        table = self.query_one("#options", DataTable)
        table.clear(columns=True)
        table.display = True
        probability = verdict.unit == "probability"
        table.add_columns(self.t("Choice"), self.t("Chance" if probability else "Points"), self.t("Loss"))
        for choice, loss in verdict.shown(SHOWN_OPTIONS):
            mark = "▶" if choice.action == verdict.chosen else " "
            table.add_row(
                f"{mark} {action_text(choice.action, self.rules, self.lang)}",
                verdict.value_text(choice.value, self.lang),
                "" if loss <= 0 else verdict.loss_text(loss, self.lang),
            )

    def show_summary(self) -> None:
        self.over = True
        done = trainer.result(self.verdicts)
        best = sum(v.best_choice for v in self.verdicts)
        lines = [
            self.t("Series {seed} done.", seed=self.seed),
            self.t("Best choices: {best} of {n}.", best=best, n=len(self.verdicts)),
        ]
        if self.verdicts:
            lines.append(done.proficiency.text(self.lang))
        lines.append(self.t("q: leave"))
        self.query_one("#heading", Static).update(self.t("The end of the series"))
        self.query_one("#question", Static).update("")
        self.query_one("#verdict", Static).update("\n".join(lines))
        self.query_one("#options", DataTable).display = False

    # --- the keys ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        waiting = not self.over and self.answered is None
        if action in ("hold", "keep"):
            return waiting and self.exercise.situation.rolls_left > 0
        if action == "box":
            return waiting and bool(parameters) and parameters[0] in range(len(self.box_keys))
        if action == "next":
            return self.answered is not None
        return True

    def action_hold(self, position: int) -> None:
        if position < self.rules.dice:
            self.held[position] = not self.held[position]
            self.show_dice()

    def action_keep(self) -> None:
        dice = self.exercise.situation.dice or ()
        self.give(Roll(keep=tuple(sorted(face for face, held in zip(dice, self.held, strict=True) if held))))

    def action_box(self, index: int) -> None:
        box = list(self.box_keys)[index]
        game = self.game()
        key = self.rules.key(self.rules.columns[0], self.rules.box(box))
        legal = game.legal
        if key in legal.placements:
            self.give(Score(key))
        elif key in legal.strikeable:
            self.give(Strike(key))
        else:
            self.notify(self.t("{box} is filled already", box=self.rules.box(box).label(self.lang)))

    def give(self, action: Action) -> None:
        try:
            verdict = trainer.answer(self.exercise, action)
        except trainer.TrainerError as error:
            self.notify(str(error), severity="warning")
            return
        self.answered = verdict
        self.verdicts.append(verdict)
        self.show_verdict(verdict)
        self.refresh_bindings()

    def action_next(self) -> None:
        if self.answered is None:
            return
        self.answered = None
        if self.at + 1 >= len(self.exercises):
            self.show_summary()
        else:
            self.at += 1
            self.show_position()
        self.refresh_bindings()

    def action_quit_series(self) -> None:
        if self.over or not self.verdicts:
            self.exit(0)
            return
        self.answered = None
        self.show_summary()
        self.refresh_bindings()


def train(exercises: list[trainer.Exercise], rules: RuleSet, lang: str, *, seed: int = 0) -> int:
    """Run the series full-screen; the exit status (0)."""
    return TrainerApp(exercises, rules, lang, seed=seed).run() or 0


__all__ = ["TrainerApp", "train"]
