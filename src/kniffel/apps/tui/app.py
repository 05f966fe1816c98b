"""The full-screen game as a Textual app: the keys a person plays with (one pattern: the boxes are the
letters from ``a``, the commands the letters after them and signs; :mod:`kniffel.apps.tui.keys`), the hints,
the chances of winning, the input line, saving and leaving; :class:`~kniffel.apps.tui.base.GameBase` is the
table they act on."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.console import Console
from textual import work
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Input

from kniffel.apps.tui.base import BOT_DELAY, OVER_ACTIONS, PLAYING_ACTIONS, GameBase
from kniffel.apps.tui.hints import HintsPanel
from kniffel.apps.tui.keys import BOX_KEYS, HelpScreen, key_name
from kniffel.apps.tui.position import PositionScreen
from kniffel.base.dice import validate_dice
from kniffel.base.errors import GameError, KniffelError
from kniffel.base.i18n import translate
from kniffel.engine.actions import Announce, FreeThrow, Roll, Score, Strike
from kniffel.engine.game import Game
from kniffel.planning import Choice, quick_choices
from kniffel.services.advice import Preparing, hints, plays_to_win, points_table_pending, pruned
from kniffel.services.session import Session
from kniffel.services.wording import result_line, thinking_text


def hint_chances(game: Game, choices: Sequence[Choice]) -> list[float | None] | Preparing | None:
    """The hints' win column: each listed choice's chance of winning (:func:`kniffel.services.advice.hints`),
    or what is solved meanwhile; never waited for."""
    return hints(game, wait=False).chances(choices)


class KniffelApp(GameBase):
    """A game of any rule set for 1 to 8 players, people and bots: the table and the keys."""

    # One pattern: the boxes are the letters from a, top to bottom; the commands are the letters after
    # them and signs (kniffel.apps.tui.keys). The key bar names every key shown here; ? lists every key.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Keys", key_display="?"),
        Binding("q", "quit_game", "Quit"),
        Binding("space", "roll", "Roll"),
        *(Binding(str(n), f"hold({n - 1})", "Hold", show=n == 1, key_display="1-6") for n in range(1, 7)),
        *(Binding(key, f"box({n})", "Box", show=n == 0) for n, key in enumerate(BOX_KEYS)),
        Binding("enter", "score", "Score here", key_display="⏎", priority=True),
        Binding("x", "strike", "Strike"),
        Binding("exclamation_mark", "announce", "Announce", key_display="!"),
        Binding("plus", "free", "Free throw", key_display="+"),
        Binding("u", "undo", "Undo"),
        Binding("t", "hints", "Tips"),
        Binding("T", "all_hints", "All tips", show=False),
        Binding("w", "chances", "Chances"),
        Binding("p", "position", "Position"),
        Binding("r", "review", "Review"),
        Binding("s", "save", "Save"),
        # the same keys once the game is over (the playing keys are gone then, undo too: the end is final)
        Binding("r", "review_over", "Review"),
        Binding("s", "save_over", "Save"),
        Binding("ctrl+c", "quit_game", "Quit", show=False, priority=True),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    # --- the player's keys -----------------------------------------------------------------------

    def held_faces(self) -> tuple[int, ...]:
        if self.places is None:
            return ()
        return tuple(face for face, held in zip(self.places, self.held, strict=True) if held)

    def action_hold(self, position: int) -> None:
        if self.bots_move(self.action_hold, position):
            return
        if not self.human_may_act() or self.places is None or position >= self.rules.dice:
            return
        self.held[position] = not self.held[position]
        self.show_dice()

    def action_roll(self) -> None:
        if not self.bots_move(self.action_roll):
            self.throw(Roll)

    def action_free(self) -> None:
        if not self.bots_move(self.action_free):
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
            self.ask(
                "dice",
                self.tn(
                    "Type the {n} die you threw (esc: cancel)",
                    "Type the {n} dice you threw (esc: cancel)",
                    count,
                ),
            )
            return
        self.try_apply(action)

    def box_under_cursor(self) -> str | None:
        here = self.sheet.box_at_cursor()
        if here is None or here[0] != self.game.current:
            self.complain(
                GameError(
                    self.t("move the cursor to a free box of {player}", player=self.names[self.game.current])
                )
            )
            return None
        return here[1]

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        if event.data_table is self.sheet:
            self.action_score()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter submits the input line while it is open, and selects rows on the review screen; the
        # letters are the review screen's and the input line's there.
        if action in ("score", "box") and (self.asking is not None or len(self.screen_stack) > 1):
            return False
        if action == "box" and parameters and parameters[0] not in range(len(self.box_keys)):
            return False  # a letter no box of these rules has
        if action == "announce" and not any(c.order.value == "announced" for c in self.rules.columns):
            return False
        if action == "free" and not self.rules.free_throws:
            return False
        # Once the game is over the key bar offers what is left to do: the review, save, undo, quit.
        over = self.game.is_over
        if action in PLAYING_ACTIONS or action == "review":
            return not over
        if action in OVER_ACTIONS:
            return over
        return True

    def action_score(self) -> None:
        """Enter the dice in the box under the cursor."""
        if self.bots_move(self.action_score) or not self.human_may_act():
            return
        if self.game.turn.dice is None:
            self.complain(GameError(self.t("roll first (space)")))
            return
        key = self.box_under_cursor()
        if key is None:
            return
        placement = self.game.legal.placements.get(key)
        if placement is None and key in self.game.legal.strikeable:
            self.complain(
                GameError(self.t("{box} does not take these dice; x strikes it", box=self.label(key)))
            )
            return
        if (
            placement is not None
            and placement.total == 0
            and not self.answered(key, key_name("enter", self.lang))
        ):
            return
        self.try_apply(Score(key))

    def answered(self, key: str, letter: str) -> bool:
        """Whether this key answers the question about a 0 in box ``key`` asked by the key before (the
        same key, or x); else it asks it (``letter`` is the key that answers)."""
        if self._strike_asked == (asked := f"{len(self.game.log)}:{key}"):
            self._strike_asked = None
            return True
        self._strike_asked = asked  # x asks the same, so either key enters the 0
        self.ask_once(
            self.t(
                "{box} pays 0 with these dice: press {key} again (or x) to enter 0 there.",
                box=self.label(key),
                key=letter,
            )
        )
        return False

    def action_box(self, index: int) -> None:
        """A box's own key: the dice go there (in the column of the cursor, which moves there). A box
        they pay nothing in is filled only when asked twice, as ``x`` strikes: the same key again (or
        ``x``) enters the 0; a box that cannot be used now is refused with the reason."""
        if self.bots_move(self.action_box, index) or not self.human_may_act() or index >= len(self.box_keys):
            return
        if self.game.turn.dice is None:
            self.complain(GameError(self.t("roll first (space)")))
            return
        box, letter = list(self.box_keys.items())[index]
        here = self.sheet.box_at_cursor()
        current = self.game.current
        column = self.rules.locate(here[1])[0] if here is not None and here[0] == current else None
        key = self.rules.key(column or self.rules.columns[0], self.rules.box(box))
        self.sheet.move_to(current, key)
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
        if self.answered(key, letter):
            self.try_apply(Score(key) if placement is not None else Strike(key))

    def action_strike(self) -> None:
        """Striking gives a box away for good: the first ``x`` asks, a second on the same box strikes."""
        if self.bots_move(self.action_strike):
            return
        if not (self.human_may_act() and (key := self.box_under_cursor()) is not None):
            return
        if self._strike_asked != (asked := f"{len(self.game.log)}:{key}"):
            self._strike_asked = asked
            self.ask_once(self.t("Strike {box} for 0? Press x again to strike it.", box=self.label(key)))
            return
        self._strike_asked = None
        self.try_apply(Strike(key))

    def action_announce(self) -> None:
        if self.bots_move(self.action_announce):
            return
        if self.human_may_act() and (key := self.box_under_cursor()) is not None:
            self.try_apply(Announce(key))

    def action_undo(self) -> None:
        """Take back the last entry or announcement (and the bots' turns since); a throw stays once its
        dice are seen, and the refusal says so. The dice come back where they lay, held as they were."""
        if self.bots_move(self.action_undo) or self.asking is not None:
            return
        try:
            undone = self.session.undo()
        except KniffelError as error:
            self.complain(error)
            return
        self.drop_question()
        self.say(
            self.t(
                "Undone: {action} ({player}).",
                player=self.names[undone.player],
                action=self.game.action_text(undone.action, self.lang),
            )
        )
        if undone.bot_actions:
            self.say(self.t("The bots' turns since then will be played again with the same dice."))
        self.restore_places()
        self.hide_hints()
        self.refresh_all()
        self.sheet.place_cursor(self.game)

    def action_save_over(self) -> None:
        self.action_save()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.rules, list(self.box_keys.values()), self.lang))

    def action_position(self) -> None:
        """The position as text, to copy, and a line to paste one into and see its advice."""
        text = None if self.game.is_over else str(self.game.situation())
        self.push_screen(PositionScreen(text, self.lang))

    def action_hints(self) -> None:
        if self.query_one("#hints").display:
            self.hide_hints()
            return
        if self.game.is_over or self.game.turn.dice is None:
            self.complain(GameError(self.t("roll first: there is nothing to decide before the first throw")))
            return
        self._thinking, self._thinking_said = len(self.messages), thinking_text(self.lang)
        self.say(self._thinking_said, style="dim")
        if self._compile_timer is None:
            self._compile_timer = self.set_interval(1.0, self.tell_compiling)
        self.find_hints()

    def tell_compiling(self) -> None:
        """While the hints wait for a first use's compile, "Thinking..." says so, and for how long."""
        text = thinking_text(self.lang)
        if text != self._thinking_said and self.news.replace(self._thinking, self._thinking_said, text):
            self._thinking_said = text
            self.draw_estimate()

    @work(thread=True, exclusive=True, group="hints")
    def find_hints(self) -> None:
        if points_table_pending(self.game.rules):  # a first use: the quick bot's order meanwhile
            self.call_from_thread(self.show_estimate, quick_choices(self.game), len(self.game.log))
        found = hints(self.game)
        choices = pruned(found.points.options)
        self.call_from_thread(
            self.show_hints, choices, found.points.exact, len(self.game.log), hint_chances(self.game, choices)
        )

    def show_hints(
        self,
        choices: Sequence[Choice],
        exact: bool,
        moves: int,
        found: Sequence[float | None] | Preparing | None = None,
    ) -> None:
        if moves != len(self.game.log):
            return  # the game moved on while the planner thought
        at, self._thinking = self._thinking, None
        self._estimate = None
        if self._compile_timer is not None:
            self._compile_timer.stop()
            self._compile_timer = None
        self.news.take_back(at, self._thinking_said)
        self._last_hints = (choices, exact, moves, found)
        chances = [(self.t("win"), found)] if isinstance(found, list) else []
        self.showing_hints(True)
        self.query_one("#hints", HintsPanel).show(
            self.game,
            choices,
            exact,
            chances,
            self._all_hints,
            preparing=found if isinstance(found, Preparing) else None,
        )
        waiting = isinstance(found, Preparing) and found.solving
        if waiting and self._hint_chances_timer is None:
            self._hint_chances_timer = self.set_interval(1.0, self.check_hint_chances)
        elif not waiting:
            self.stop_hint_chances()

    def check_hint_chances(self) -> None:
        """While the win tables the hints' win column waits for are solved, ask again every second: the
        panel's note follows the solve, and the column fills in once they are there."""
        shown = self._last_hints
        if shown is None or not self.query_one("#hints").display or shown[2] != len(self.game.log):
            self.stop_hint_chances()
            return
        self.find_hint_chances(self.game.copy(), shown[0], shown[1], shown[2])

    @work(thread=True, exclusive=True, group="hint-chances")
    def find_hint_chances(self, game: Game, choices: Sequence[Choice], exact: bool, moves: int) -> None:
        found = hint_chances(game, choices)
        self.call_from_thread(self.hint_chances_found, choices, exact, moves, found)

    def hint_chances_found(
        self,
        choices: Sequence[Choice],
        exact: bool,
        moves: int,
        found: Sequence[float | None] | Preparing | None,
    ) -> None:
        if self.query_one("#hints").display and self._last_hints is not None and self._last_hints[2] == moves:
            self.show_hints(choices, exact, moves, found)

    def stop_hint_chances(self) -> None:
        if self._hint_chances_timer is not None:
            self._hint_chances_timer.stop()
            self._hint_chances_timer = None

    def show_estimate(self, choices: Sequence[Choice], moves: int) -> None:
        """The quick bot's order of the options while the exact hints wait for their table, with what
        "Thinking..." says (the news it stands in are hidden by the hints)."""
        self._estimate = (choices, moves)
        self.draw_estimate()

    def draw_estimate(self) -> None:
        if self._estimate is None:
            return
        choices, moves = self._estimate
        if moves != len(self.game.log) or self._thinking is None:
            self._estimate = None  # the game moved on, or the exact hints came
            return
        self.showing_hints(True)
        panel = self.query_one("#hints", HintsPanel)
        panel.show(self.game, choices, True, [], self._all_hints, order_only=True, note=self._thinking_said)

    def action_all_hints(self) -> None:
        """Every option rather than the best few (T again: the best few)."""
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

    def action_review_over(self) -> None:
        self.action_review()

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
            self.drop_question()

    def stop_asking(self) -> None:
        self.asking = None
        self.pending = None
        self.query_one("#ask").display = False
        self.sheet.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.asking == "dice" and self.pending is not None:
            pending = self.pending
            thrown = [int(c) for c in text if c.isdecimal()]
            count = self.rules.dice - len(pending.keep)
            if len(thrown) != count or any(c.isalpha() for c in text):
                example = " ".join("65432"[:count])
                self.complain(
                    GameError(
                        self.tn(
                            "expected {n} die, e.g. {example}",
                            "expected {n} dice, e.g. {example}",
                            count,
                            example=example,
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
        elif self._quit_asked != len(self.game.log):
            # q sits beside w and the letters of the boxes: one key must not throw a long game away.
            self._quit_asked = len(self.game.log)
            self.ask_once(
                self.t("The game is not saved: press q again to quit and lose it, or s to save it.")
            )
            return
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
        console.print(result_line(session.game, app.lang, session.shown()), markup=False, highlight=False)
    if app.farewell:
        console.print(app.farewell, markup=False, highlight=False)
    return status or 0
