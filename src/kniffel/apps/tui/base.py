"""The table of the full-screen game: the sheets on the left, the status, dice, log and hints on the
right (below the sheet where the screen is narrow), the keys at the bottom, each a view of its own
(:mod:`~kniffel.apps.tui.sheet`, :mod:`~kniffel.apps.tui.dice`, :mod:`~kniffel.apps.tui.news`,
:mod:`~kniffel.apps.tui.hints`, :mod:`~kniffel.apps.tui.keys`); and the turns as they go: the bots' moves, and
a person's actions shown and passed on (a key pressed while a bot moves waits for the person's turn)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

from textual import events, work
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.timer import Timer
from textual.widgets import Input, Static

from kniffel.apps.tui.common import dice_text, translate_keys, wrapped_text
from kniffel.apps.tui.dice import DiceBar, arranged
from kniffel.apps.tui.hints import HintsPanel
from kniffel.apps.tui.keys import KeyBar, box_keys, key_name
from kniffel.apps.tui.news import NewsLog
from kniffel.apps.tui.review import ReviewScreen
from kniffel.apps.tui.sheet import SheetView
from kniffel.base.errors import GameError, KniffelError
from kniffel.base.i18n import NBSP, error_text, ngettext, percent, translate
from kniffel.engine.actions import Action, Announce, FreeThrow, Outcome, Roll, Score, Strike
from kniffel.engine.sheet import sheet_layout
from kniffel.planning import Choice
from kniffel.services.advice import Preparing
from kniffel.services.record import RECORDED
from kniffel.services.review import Review
from kniffel.services.session import Session, live_chances
from kniffel.services.wording import TIE_NOTE, needs_tie_note, renamed, result_line

BOT_DELAY = 0.7
"""Seconds between a bot's actions, so that a person can follow them."""

PLAYING_ACTIONS = frozenset(
    {"roll", "hold", "score", "box", "strike", "announce", "free", "hints", "all_hints", "undo", "save"}
)
"""The keys of a game going on, gone from the key bar (and doing nothing) once it is over (save stays,
under a key of its own: :data:`OVER_ACTIONS`; undo goes, as a finished game is final)."""
OVER_ACTIONS = frozenset({"review_over", "save_over"})
"""The keys shown once the game is over (the playing keys are gone)."""
SIDE = 42
"""The columns of the side panel (status, dice, log, hints) beside the sheet: a hint's columns fit."""
STACKED_BELOW = 12
"""The rows of the side panel where the screen is too narrow for it beside the sheet (it goes below)."""
NARROWEST = 30
"""The fewest columns of the side panel beside a sheet too wide for the screen."""


class GameBase(App[int]):
    """The table of a game played through a :class:`Session`: its views, kept up to date, and the turns
    as they go (the bots', and a person's actions shown and passed on); :class:`KniffelApp` adds the keys."""

    TITLE = "kniffel"
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #sheet { width: 1fr; height: 100%; }
    #side { width: 42; height: 100%; padding: 0 0 0 1; }
    #main.stacked { layout: vertical; }
    #main.stacked #sheet { width: 100%; height: 1fr; }
    #main.stacked #side { width: 100%; height: 12; }
    #status { height: auto; }
    #news { height: 1fr; border-top: solid $foreground 30%; scrollbar-size-vertical: 1; }
    #news.beside-hints { height: 3; }
    #hints { height: 1fr; border-top: solid $accent; }
    #question { height: auto; background: $warning 20%; text-style: bold; padding: 0 1; }
    """
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: Session, *, bot_delay: float = BOT_DELAY) -> None:
        super().__init__()
        self.session = session
        self.game = session.game
        self.rules = session.game.rules
        self.lang = session.settings.lang
        self.bot_delay = bot_delay
        self.places: list[int] | None = None
        """The dice in their places on the screen (:func:`~kniffel.apps.tui.dice.arranged`), None before
        a throw."""
        self.held: list[bool] = [False] * self.rules.dice
        """Which places hold their die through the next throw."""
        self._places_at: dict[int, tuple[list[int], list[bool]]] = {}
        """The places and holds of each position a person or bot acted in (by the number of actions
        before it): an undo brings them back."""
        self.names = session.names()
        """The players' names as shown (a bot's default name in the game's language)."""
        self.box_keys = box_keys([row.name for row in sheet_layout(self.rules) if row.kind == "box"])
        """The key of each box (by its id), shown beside its name."""
        self.chances_shown = False
        """Every player's chance of winning shows in the status (key w)."""
        self.chances: list[float] | None = None
        self.preparing: Preparing | None = None
        """What the chances of winning wait for (tables being solved), shown in the status."""
        self._preparing_timer: Timer | None = None
        self.chances_at = -1
        """The number of actions the shown (or coming) chances were weighed after."""
        self.asking: str | None = None
        """What the input line is asked for: ``dice`` (score pad), ``save`` (a file name)."""
        self.pending: Roll | None = None
        """The throw a score pad waits to be told the dice of."""
        self.bots_playing = False
        self.waiting: list[tuple[Callable[..., None], tuple[int, ...]]] = []
        """Keys pressed while a bot moved, acted on in order once a person is to move."""
        self.review_result: Review | None = None
        self.farewell = ""
        """What to tell the player after the screen closes (where the game was saved)."""
        self._saved: tuple[Path, int] | None = None
        self._all_hints = False
        """Whether the hints list every option (T) or the best few."""
        self._last_hints: tuple[Sequence[Choice], bool, int, Sequence[float | None] | Preparing | None] | None
        self._last_hints = None
        self._strike_asked: str | None = None
        """The box the player asked to strike or fill with 0: the same key again does it."""
        self._quit_asked: int | None = None
        """The number of actions when quitting an unsaved game was asked about: q again then quits."""
        self._thinking: int | None = None
        """The number of messages when "Thinking..." was said last (it goes once the hints come)."""
        self._thinking_said = ""
        """What that message says now (on a first use, that and how long the solver compiles)."""
        self._compile_timer: Timer | None = None
        self._hint_chances_timer: Timer | None = None
        """Asks again every second for the win column of the hints shown while its tables are solved."""
        self._estimate: tuple[Sequence[Choice], int] | None = None
        """The quick bot's order shown while the exact hints wait, and the moves of the game then."""
        self._reviewing: int | None = None
        """... and when "Reviewing the game..." was (it goes once the review shows)."""
        translate_keys(self, self.lang)
        keys = self._bindings.key_to_bindings
        keys["1"] = [dataclasses.replace(b, key_display=f"1-{self.rules.dice}") for b in keys["1"]]
        letters = list(self.box_keys.values()) or ["a"]
        keys["a"] = [dataclasses.replace(b, key_display=f"a-{letters[-1]}") for b in keys["a"]]

    def t(self, text: str, **fields: object) -> str:
        return translate(self.lang, text, **fields)

    def tn(self, singular: str, plural: str, n: int, **fields: object) -> str:
        return ngettext(singular, plural, n, self.lang, **fields)

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield SheetView(self.rules, self.names, self.box_keys, self.lang, id="sheet")
            with Vertical(id="side"):
                yield Static(id="status")
                yield DiceBar(self.rules.dice, id="dice")
                yield NewsLog(id="news")
                yield HintsPanel(self.lang, id="hints")
                yield Input(id="ask")
        yield Static(id="question")
        yield KeyBar(id="keys")

    @property
    def sheet(self) -> SheetView:
        return self.query_one("#sheet", SheetView)

    @property
    def news(self) -> NewsLog:
        return self.query_one("#news", NewsLog)

    @property
    def messages(self) -> list[str]:
        """Everything said in the log, in order."""
        return self.news.messages

    @property
    def cells(self) -> dict[Coordinate, tuple[int, str]]:
        return dict(self.sheet.cells)

    def on_mount(self) -> None:
        self.title = self.t(self.rules.name)
        self.query_one("#ask").display = False
        self.query_one("#question").display = False
        self.fit(self.size.width, self.size.height)
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
        self.sheet.place_cursor(self.game)
        self.sheet.focus()
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)
        self.refresh_all()

    def fit(self, width: int, height: int) -> None:
        """The side panel beside the sheet where both fit (wider on a wide screen), else below it where
        the screen is tall enough, else narrower beside it (at least :data:`NARROWEST`); the sheet
        narrows its columns to what is left (and scrolls sideways only if even that is too little)."""
        side = SIDE if width < 120 else max(SIDE, width * 35 // 100)
        columns, rows = self.sheet.smallest()
        stacked = width - side < columns and height >= rows + STACKED_BELOW + 3
        if width - side < columns and not stacked:
            side = max(NARROWEST, width - columns - 1)
        self.query_one("#main").set_class(stacked, "stacked")
        self.query_one("#side").styles.width = "100%" if stacked else side
        self.sheet.room = width - (0 if stacked else side) - 1

    # --- showing ---------------------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        self.news.say(text, style)

    def ask_once(self, text: str) -> None:
        """A question about the next key (a 0 to enter, a box to strike): in the log and on the line
        above the keys, where the eye is."""
        self.say(text, "bold")
        question = self.query_one("#question", Static)
        question.update(wrapped_text(text, max(self.size.width - 2, 20)))
        question.display = True

    def drop_question(self) -> None:
        self.query_one("#question").display = False

    def refresh_all(self) -> None:
        self.show_status()
        self.show_dice()
        self.sheet.show(self.game)
        self.show_keys()
        if self.chances_shown and self.chances_at != len(self.game.log):
            self.find_chances()

    def show_dice(self) -> None:
        """The dice in their places; places that no longer fit the game's dice (a game loaded in the
        middle of a turn, a position no places were kept for) give way to the dice in order."""
        dice = self.game.turn.dice
        if dice is None or self.places is None or sorted(self.places) != list(dice):
            self.places = None if dice is None else list(dice)
            self.held = [False] * self.rules.dice
        self.query_one("#dice", DiceBar).show(self.places, self.held, self.t("held"))

    def restore_places(self) -> None:
        """After an undo: the dice where they lay in the position it went back to, held as they were."""
        places, held = self._places_at.get(len(self.game.log), (None, [False] * self.rules.dice))
        self.places, self.held = (None if places is None else list(places)), list(held)

    def show_keys(self) -> None:
        keys = []
        for bindings in self._bindings.key_to_bindings.values():
            for binding in bindings:
                action, _, rest = binding.action.partition("(")
                parameters = tuple(int(p) for p in rest.rstrip(")").split(",") if p.strip())
                if binding.show and self.check_action(action, parameters):
                    keys.append(
                        (binding.key_display or key_name(binding.key, self.lang), binding.description)
                    )
        self.query_one("#keys", KeyBar).show_keys(keys, max(self.size.width, 40))

    def label(self, key: str) -> str:
        column, box = self.rules.locate(key)
        text = box.label(self.lang)
        return f"{text} ({column.id})" if self.rules.multi_column else text

    def show_status(self) -> None:
        game, turn = self.game, self.game.turn
        turns = self.t("Round {round} of {turns}", round=game.round, turns=self.rules.turns)
        lines = [f"{self.t(self.rules.name)} · {turns}"]
        if game.is_over:
            lines.append(self.t("Game over"))
            shown = self.session.shown()
            for standing in game.standings():
                lines.append(f"{standing.rank}. {shown[standing.name]}  {standing.total}")
        else:
            who = self.names[game.current]
            left = game.rolls_left
            bot = game.current in self.session.bots
            if bot:  # a key pressed now waits for a person's turn: none is offered
                lines.append(self.t("{player} is moving", player=who))
            elif turn.dice is None:
                lines.append(self.t("{player} to move: roll (space)", player=who))
            elif left == 0:
                lines.append(self.t("{player} to move: no rolls left", player=who))
            else:
                lines.append(
                    self.tn(
                        "{player} to move: {n} roll left",
                        "{player} to move: {n} rolls left",
                        left,
                        player=who,
                    )
                )
            if turn.announced:
                lines.append(self.t("Announced: {box}", box=self.label(turn.announced)))
            if turn.free_throws:
                lines.append(self.t("Free throws this turn: {n}", n=turn.free_throws))
            if not bot and self.game.legal.free_throw and self.game.legal.can_throw and turn.dice is not None:
                lines.append(self.t("A free throw is possible (+)"))
            if not bot and self.game.legal.announceable:
                lines.append(self.t("Announce a box (!) or roll on"))
        if self.sheet.overflows():  # part of the sheet is scrolled away: every total here
            totals = " · ".join(
                f"{name}{NBSP}{sheet.total}" for name, sheet in zip(self.names, game.sheets, strict=True)
            )
            lines.append(self.t("Totals: {totals}", totals=totals))
        if self.chances_shown:
            if self.chances is None and self.preparing is not None:
                lines.append(self.preparing.note(self.t))
            elif self.chances is None:
                lines.append(self.t("Chances of winning: weighing..."))
            else:
                shares = " · ".join(
                    f"{name}{NBSP}{percent(self.lang, chance, 0)}"
                    for name, chance in zip(self.names, self.chances, strict=True)
                )
                lines.append(self.t("Chances of winning: {shares}", shares=shares))
                if needs_tie_note(self.chances, 0):
                    lines.append(self.t(TIE_NOTE))
        status = self.query_one("#status", Static)
        status.update(wrapped_text("\n".join(lines), max(status.size.width, SIDE - 2)))

    # --- playing ---------------------------------------------------------------------------------

    def human_may_act(self) -> bool:
        if self.game.is_over or self.bots_playing or self.asking is not None:
            return False
        return self.game.current not in self.session.bots

    def bots_move(self, method: Callable[..., None], *parameters: int) -> bool:
        """Whether a bot is moving; if so, the key (``method`` with ``parameters``) waits for a person's
        turn, and the log says so once."""
        if not self.bots_playing:
            return False
        if not self.waiting:
            self.say(self.t("A bot is moving: your keys are acted on once it is your turn."), "dim")
        self.waiting.append((method, parameters))
        return True

    def act_on_waiting(self) -> None:
        """The keys pressed while the bots moved, in order, while a person is to move."""
        while self.waiting and not self.bots_playing and not self.game.is_over:
            method, parameters = self.waiting.pop(0)
            method(*parameters)
        if self.game.is_over:
            self.waiting.clear()

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
        """What an applied action did, in a few words (a dice list never broken across lines)."""
        action = outcome.action
        name = self.names[outcome.player]
        dice = dice_text(outcome.dice or ())
        if isinstance(action, FreeThrow):
            return self.t("{player}: free throw → {dice}", player=name, dice=dice)
        if isinstance(action, Roll):
            if action.keep:
                kept = dice_text(action.keep)
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
            self.sheet.place_cursor(self.game)
            self.advance()
        elif isinstance(outcome.action, Roll | FreeThrow):
            self.sheet.place_cursor(self.game, best=True)

    def record(self, outcome: Outcome, style: str = "") -> None:
        """Say what an action did, keep the places of the dice before it (for an undo) and carry the
        held dice through a throw in their places."""
        self.drop_question()
        self.say(self.describe(outcome), style)
        if outcome.extra_bonus:
            self.say(self.t("Extra bonus: +{points}!", points=outcome.extra_bonus), style="bold")
        if outcome.upper_bonus:
            self.say(self.t("Upper bonus: +{points}!", points=outcome.upper_bonus), style="bold")
        if self.places is not None:
            self._places_at[len(self.game.log) - 1] = (list(self.places), list(self.held))
        if isinstance(outcome.action, Roll):
            self.places, self.held = arranged(self.places, self.held, outcome.dice or (), outcome.action.keep)
        elif outcome.ends_turn:
            self.places, self.held = None, [False] * self.rules.dice

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
            self.bots_done()
        elif self.bot_delay > 0:
            self.think(len(self.game.log))
        else:
            self.bot_acts(self.session.bot_action(), len(self.game.log))

    def bots_done(self) -> None:
        """A person is to move (or the game is over): at once, not after a pause, so that no key is
        lost; the keys pressed meanwhile are acted on."""
        self.bots_playing = False
        self.refresh_all()
        self.sheet.place_cursor(self.game)
        if self.game.is_over:
            self.finish()
        else:
            self.act_on_waiting()

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
        if self.game.is_over or self.game.current not in self.session.bots:
            self.bots_done()
        elif self.bot_delay > 0:
            self.refresh_all()
            self.set_timer(self.bot_delay, self.bot_step)

    def finish(self) -> None:
        self.drop_question()
        self.refresh_bindings()  # the keys of a game that is over
        self.show_keys()
        self.say(result_line(self.game, self.lang, self.session.shown()), "bold")
        self.session.autosave()
        if not self.session.all_bots:
            self.say(self.t("r: the review of the game; q: quit."))
            self.action_review()

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

    def hide_hints(self) -> None:
        self._estimate = None  # hidden, it stays hidden until the exact hints come
        self.showing_hints(False)

    def showing_hints(self, shown: bool) -> None:
        """The hints under the log, which keeps its newest lines in view in a strip above them."""
        self.query_one("#hints").display = shown
        self.news.set_class(shown, "beside-hints")
        self.news.call_after_refresh(self.news.scroll_end, animate=False)

    def action_review(self) -> None:
        if self.bots_move(self.action_review) or self.asking is not None:
            return
        if not self.game.log:
            self.complain(GameError(self.t("No decisions to review yet.")))
            return
        self._reviewing = len(self.messages)
        self.say(self.t("Reviewing the game..."), style="dim")
        self.find_review(len(self.game.log))

    @work(thread=True, exclusive=True, group="review")
    def find_review(self, moves: int) -> None:
        result = self.session.review()  # each player graded by its own goal, as the other front ends do
        self.call_from_thread(self.show_review, result, moves)
        if self.game.is_over:
            self.keep_record(result)

    def keep_record(self, reviewed: Review | None) -> None:
        """Add the finished game to each human player's record on this device (on the review's worker
        thread, as reviewing it may be). A record that cannot be kept is said in a line; the game ends as
        it would."""
        try:
            added = self.session.record_game(reviewed)
        except (OSError, KniffelError) as error:
            self.call_from_thread(self.complain, error)
            return
        if added:
            self.call_from_thread(self.say, self.t(RECORDED), "dim")

    def show_review(self, result: Review, moves: int) -> None:
        at, self._reviewing = self._reviewing, None
        self.news.take_back(at, self.t("Reviewing the game..."))
        if moves != len(self.game.log):
            return
        self.review_result = result
        self.push_screen(ReviewScreen(renamed(result, self.session.shown()), self.rules, self.lang))
