"""``kniffel play``: a game at the terminal for humans and bots, with undo, autosave and a score pad.

The session owns no rules: every question (is this allowed, where may these dice go, what do they
pay) goes to :class:`kniffel.Game`, whose error messages are shown as they are.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from kniffel.apps.cli.errors import CliError, message
from kniffel.apps.cli.parsing import parse_dice
from kniffel.apps.cli.render import dice_text, sheet_json, sheet_table
from kniffel.apps.cli.reviewing import ESTIMATE_NOTE, decisions_table, hint_lines, summary_table
from kniffel.base.dice import validate_dice
from kniffel.base.errors import GameFormatError, IllegalActionError, KniffelError
from kniffel.base.i18n import N_, count_text, ngettext, percent, translate
from kniffel.engine.actions import (
    SHORT_FORMS,
    Action,
    Announce,
    BoxAction,
    FreeThrow,
    Outcome,
    Roll,
    Score,
    Strike,
    action_words,
)
from kniffel.planning import quick_choices
from kniffel.services import session
from kniffel.services.advice import Preparing, hints, plays_to_win, points_table_pending, pruned
from kniffel.services.proficiency import review_lines
from kniffel.services.session import live_chances
from kniffel.services.wording import (
    QUICK_ORDER,
    TIE_NOTE,
    needs_tie_note,
    renamed,
    result_line,
    thinking_text,
)

if TYPE_CHECKING:
    from kniffel.services.review import Review

HINTS = 5
"""Options a hint lists unless told otherwise."""

# Commands that the library reports as errors while the player types: shown, then re-prompted.
TYPING_ERRORS = (CliError, KniffelError, OSError)

HELP = N_("""\
Commands (a box is its id, label or an unambiguous start of one: "s full", "s 2:ch", "s Dreierpasch";
every action as hints and reviews show it is understood too: "keep 3 3", "score Chance (2)"):
  roll, r               throw all dice (first roll, or re-roll everything)
  keep 3 3 5, k 3 3 5   keep those faces (as shown under Dice) and throw the others (roll keep 3 3 5)
  score BOX, s BOX      enter the dice in BOX
  strike BOX, x BOX     enter 0 in BOX
  announce BOX, a BOX   announce the box of an announced column (right after the first roll)
  free [keep 6 6], f    a free throw after the regular rolls (Knöffel), keeping the faces given
  options, o            where the dice may go now and what they pay
  hint [N]              the N best options (default 5) with their values, from the solver
                        (and with several players each one's chance of winning)
  chances, c            every player's chance of winning from here (several players)
  review                every decision so far next to the best one, and what it cost
  sheet, t              show the score sheet
  undo, u               take back the last decision (score, strike, announce)
  save FILE             save the game to FILE (resume with: kniffel play --load FILE)
  help, h, ?            this text
  quit, q               leave (the game is saved first when --save was given; an unsaved game
                        asks first)""")

SITUATION = N_("Situation (for kniffel advise --situation): {situation}")
"""The line above a hint: where the game stands, as ``kniffel advise --situation`` reads it."""

PAD_HELP = N_("""\
Score pad (--pad): you throw real dice and type what they show.
  1 3 3 5 6             the dice now showing; those that were showing before count as kept
  roll 1 3 3 5 6        all dice were thrown: type every face (also: roll = 1 3 3 5 6)
  keep 3 3              you kept 3 3: the program asks for the faces of the dice you threw
  roll keep 3 3 = 1 3 3 4 6   kept 3 3 and the throw gave 1 3 3 4 6
  free [keep 6 6]       likewise for a free throw
  undo                  also takes back a mistyped throw""")


_HELP_ROW = re.compile(r" {1,3}(\S(?:.*?\S)?) {2,}(\S.*)")


def help_view(text: str) -> RenderableType:
    """A help text (:data:`HELP`, :data:`PAD_HELP`: an introduction, then a command and its meaning a
    line, a meaning going on in lines indented under it) laid out to the terminal's width: the
    introduction wraps as a paragraph and each meaning beside its command, so no line is wider than
    the terminal, in either language."""
    intro: list[str] = []
    rows: list[list[str]] = []
    for line in text.splitlines():
        row = _HELP_ROW.fullmatch(line)
        if rows and line.startswith(" " * 8) and line.strip():
            rows[-1][1] += " " + line.strip()  # a meaning going on under the one above
        elif row is not None:
            rows.append([row.group(1), row.group(2)])
        elif line.strip():
            intro.append(line.strip())
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for command, meaning in rows:
        grid.add_row(Text(command), Text(meaning))
    return Group(Text(" ".join(intro)), Padding(grid, (0, 0, 0, 2)))


@dataclass
class Settings(session.Settings):
    json: bool = False


@dataclass
class Session(session.Session):
    """A game in progress at the terminal: what to show, and how."""

    settings: Settings
    console: Console
    _shown: tuple[int, int] | None = None
    _saved: tuple[Path, list[Action]] | None = None
    """Where the ``save`` command last wrote the game, and the moves it held."""
    _noted_estimate: bool = False
    """Whether the note that values are estimates was shown (once a game is enough)."""

    # --- running --------------------------------------------------------------------------------

    def prepare_bots(self) -> None:
        """Load (or solve, once) the tables bots need before play starts, not in the middle of it."""
        for bot in self.bots_to_prepare():
            with self.console.status(self.t("Loading the tables of the {bot} bot...", bot=bot.name)):
                self.prepare(bot)

    def t(self, text: str, **fields: object) -> str:
        """``text`` in the game's language."""
        return translate(self.settings.lang, text, **fields)

    def say(self, text: str, **style: Any) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True, **style)

    def error(self, error: BaseException) -> None:
        self.say(self.t("error: {message}", message=message(error, self.settings.lang)), style="red")

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit status."""
        self.autosave()  # a save path that cannot be written is reported before anyone plays
        self.prepare_bots()
        if not self.game.is_over and not self.all_bots:
            self.say(self.t("{rules}: type help for the commands.", rules=self.t(self.game.rules.name)))
        try:
            while not self.game.is_over:
                if self.game.current in self.bots:
                    self.bot_turn()
                elif not self.human_step():
                    return self.leave(self.t("Bye."))
        except EOFError:
            return self.leave(self.t("End of input."))
        except KeyboardInterrupt:
            self.leave(self.t("Interrupted."))
            return 130
        self.finish()
        self.keep_record(self.offer_review())
        return 0

    def is_kept(self) -> bool:
        """Whether the game as it stands is saved: by --save, or by a save since its last move."""
        return self.settings.save is not None or (self._saved is not None and self._saved[1] == self.game.log)

    def keeps_playing(self) -> bool:
        """Asked to quit: an unsaved game is lost for good, so the player says so first (the end of the
        input quits, as it would have)."""
        if self.is_kept():
            return False
        try:
            answer = self.read(self.t("The game is not saved and would be lost: quit anyway (y/N)? "))
        except EOFError:
            return False
        if answer.strip().lower() in ("y", "yes", "j", "ja"):
            return False
        self.say(self.t("Playing on; save FILE keeps the game."))
        return True

    def leave(self, why: str) -> int:
        if self.settings.save is not None:
            self.autosave()
            where = self.settings.save
            self.say(
                why
                + " "
                + self.t("Game saved to {path}; resume with: kniffel play --load {path}", path=where)
            )
        elif self._saved is not None and self._saved[1] == self.game.log:
            self.say(why + " " + self.t("The game is saved in {path}.", path=self._saved[0]))
        else:
            self.say(why + " " + self.t("The game was not saved (play with --save FILE to keep it)."))
        return 0

    def finish(self) -> None:
        self.autosave()
        game = self.game
        if self.settings.json:
            print(json.dumps(self.result_json()))
            if self.all_bots:
                return
        names = self.shown()
        self.console.print(
            sheet_table(game, lang=self.settings.lang, title=self.t("Final score"), names=self.names())
        )
        for standing in game.standings():
            self.say(f"{standing.rank}. {names[standing.name]}  {standing.total}")
        self.say(result_line(game, self.settings.lang, names), style="bold")

    def offer_review(self) -> Review | None:
        """Ask humans whether they want the review of the game just finished (not with --json); the
        review if it was made."""
        if self.all_bots or self.settings.json:
            return None
        try:
            answer = self.read(self.t("Review the game (y/N)? "))
        except (EOFError, KeyboardInterrupt):
            return None
        if answer.strip().lower() in ("y", "yes", "j", "ja"):
            return self.do_review([])
        return None

    def keep_record(self, reviewed: Review | None) -> None:
        """Add the finished game to each human player's record on this device (:meth:`record_game`); a
        record that cannot be kept is said in a line, and the game ends as it would."""
        from kniffel.services.record import RECORDED

        try:
            with self.console.status(self.t("Keeping the record of the game...")):
                added = self.record_game(reviewed)
        except (OSError, KniffelError) as error:
            self.error(error)
            return
        if added and not self.settings.json:
            self.say(self.t(RECORDED), style="dim")

    def result_json(self) -> dict[str, Any]:
        game = self.game
        return {
            "players": [
                {"name": name, **sheet_json(s)} for name, s in zip(game.players, game.sheets, strict=True)
            ],
            "winners": game.winners(),
            "rules": game.rules.id,
            "options": dict(game.rules.options),
            "seed": self.settings.seed,
            "actions": len(game.log),
        }

    # --- bots -------------------------------------------------------------------------------------

    def bot_turn(self) -> None:
        game = self.game
        name = self.names()[game.current]
        steps: list[str] = []
        while True:
            action = self.bot_action()
            try:
                outcome = self.apply(action)
            except IllegalActionError as error:
                raise CliError(f"{name} chose an illegal action ({action}): {error}") from None
            bonuses = [
                f"+{points} {self.t(kind)}"
                for points, kind in (
                    (outcome.extra_bonus, N_("bonus")),
                    (outcome.upper_bonus, N_("upper bonus")),
                )
                if points
            ]
            steps.append(self.describe(outcome) + (f" ({', '.join(bonuses)})" if bonuses else ""))
            if outcome.ends_turn:
                break
        if not (self.settings.json and self.all_bots):
            self.say(f"{name}: " + " · ".join(steps))

    def describe(self, outcome: Outcome) -> str:
        """What an applied action did, in a few words that read well after any name and a colon."""
        action = outcome.action
        if isinstance(action, Roll):
            dice = " ".join(map(str, outcome.dice or ()))
            kept = " ".join(map(str, action.keep))
            if isinstance(action, FreeThrow):
                if action.keep:
                    return self.t("free throw, keep {kept} → {dice}", kept=kept, dice=dice)
                return self.t("free throw {dice}", dice=dice)
            return (
                self.t("keep {kept} → {dice}", kept=kept, dice=dice)
                if action.keep
                else self.t("roll {dice}", dice=dice)
            )
        assert isinstance(action, BoxAction)
        if isinstance(action, Announce):
            return self.t("{box} announced", box=self.label(action.box))
        if isinstance(action, Strike):
            return self.t("{box} struck", box=self.label(action.box))
        return self.t("scores {points} in {box}", points=outcome.points, box=self.label(action.box))

    def label(self, key: str) -> str:
        column, box = self.game.rules.locate(key)
        text = box.label(self.settings.lang)
        return f"{text} ({column.id})" if self.game.rules.multi_column else text

    # --- humans -----------------------------------------------------------------------------------

    def show(self) -> None:
        game = self.game
        turn = game.turn
        self.console.print(
            sheet_table(game, lang=self.settings.lang, hints=game.placements(), names=self.names())
        )
        if turn.dice is None:
            self.say(
                self.t(
                    "Round {round} of {turns}, {player} to play: roll (r) to throw.",
                    round=game.round,
                    turns=game.rules.turns,
                    player=self.names()[game.current],
                )
            )
            return
        left = count_text(
            N_("no rolls left"), "{n} roll left", "{n} rolls left", game.rolls_left, self.settings.lang
        )
        if turn.free_throws:
            left += self.t(", free throws this turn: {n}", n=turn.free_throws)
        if turn.announced:
            left += self.t(", announced: {box}", box=self.label(turn.announced))
        self.say(f"{self.t('Dice')}  {dice_text(turn.dice)}   ({left})", style="bold")

    def do_pad_dice(self, args: list[str]) -> None:
        """Score pad: the faces the dice show now. Before the turn's first throw every die was thrown;
        after it, the dice still showing from before count as kept (the largest keep that fits)."""
        shown = parse_dice(args, self.game.rules.dice)
        before = list(self.game.turn.dice or ())
        kept = []
        for face in shown:
            if face in before:
                before.remove(face)
                kept.append(face)
        if len(kept) == len(shown):
            # The thrown dice came up as they were: some die was thrown, though not all at once.
            kept.pop()
        if self.game.turn.dice is not None and not self.game.rolls_left and self.game.legal.free_throw:
            self.act(FreeThrow(keep=tuple(kept), dice=shown))
            return
        self.act(Roll(keep=tuple(kept) if self.game.turn.dice is not None else (), dice=shown))

    def prompt(self) -> str:
        game = self.game
        if game.turn.dice is None:
            return f"{game.player}> "
        return f"{game.player} [{' '.join(map(str, game.turn.dice))}]> "

    def read(self, prompt: str) -> str:
        """One line from stdin; EOFError at the end. Piped input is echoed so transcripts read well."""
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        if sys.stdin.isatty():
            return input()
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        self.console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line

    def human_step(self) -> bool:
        """Show what changed, read one command and carry it out; False when the player quits."""
        state = (len(self.game.log), self.game.current)
        if self._shown != state:
            self._shown = state
            self.show()
        words = self.read(self.prompt()).split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        if command in ("quit", "q", "exit"):
            return self.keeps_playing()
        handler = self.commands().get(command)
        try:
            if handler is not None:
                handler(args)
            elif self.settings.pad and all(word.isdecimal() for word in words):
                self.do_pad_dice(words)  # score pad: bare dice are what the dice show now
            else:
                self.do_action(" ".join(words))
        except TYPING_ERRORS as error:
            self.error(error)
        return True

    def commands(self) -> dict[str, Callable[[list[str]], object]]:
        """The commands that are not actions (actions are read by :meth:`kniffel.Game.parse_action`)."""
        table: dict[str, Callable[[list[str]], object]] = {}
        for names, handler in (
            (("options", "o"), self.do_options),
            (("hint",), self.do_hint),
            (("chances", "c"), self.do_chances),
            (("review",), self.do_review),
            (("sheet", "t"), self.do_sheet),
            (("undo", "u"), self.do_undo),
            (("save",), self.do_save),
            (("help", "h", "?"), self.do_help),
        ):
            for name in names:
                table[name] = handler
        return table

    def act(self, action: Action) -> None:
        """A human's action: apply it and say what it did."""
        outcome = self.apply(action)
        if outcome.ends_turn or isinstance(outcome.action, Announce):
            self.say(f"{self.names()[outcome.player]}: {self.describe(outcome)}.")
        if outcome.extra_bonus:
            self.say(self.t("Extra bonus: +{points}!", points=outcome.extra_bonus), style="bold")
        if outcome.upper_bonus:
            self.say(self.t("Upper bonus: +{points}!", points=outcome.upper_bonus), style="bold")

    def do_action(self, text: str) -> None:
        """Carry out an action typed as :meth:`kniffel.Game.parse_action` reads it: its text form
        (``roll keep 3 3``), a short form (``k 3 3``, ``s ch``) or the form hints show in the game's
        language (``3 3 halten``)."""
        try:
            action = self.game.parse_action(text)
        except GameFormatError:
            first = text.split()[0].casefold()
            if first in action_words() or first in SHORT_FORMS or first.isdecimal():
                raise
            raise CliError(f"unknown command {text.split()[0]!r}; type help for the list") from None
        if isinstance(action, Roll):
            if action.dice is not None and not self.settings.pad:
                raise CliError("the program rolls the dice; to keep some, type keep 3 3 (or play with --pad)")
            self._throw(action)
        else:
            self.act(action)

    def _throw(self, action: Roll) -> None:
        """Roll, or on a score pad ask for what the real dice show (unless they were typed)."""
        self.game.check(action)
        if self.settings.pad and action.dice is None:
            n = self.game.rules.dice
            thrown = self.ask_dice(n - len(action.keep))
            if thrown is None:
                self.say(self.t("Nothing thrown."))
                return
            action = type(action)(keep=action.keep, dice=validate_dice([*action.keep, *thrown], n))
        self.act(action)

    def ask_dice(self, count: int) -> tuple[int, ...] | None:
        """The faces of ``count`` dice thrown by hand; None if the player gives up (empty line)."""
        while True:
            line = self.read(
                ngettext(
                    "Type the die you threw (empty line: cancel): ",
                    "Type the {n} dice you threw (empty line: cancel): ",
                    count,
                    self.settings.lang,
                )
            )
            if not line.strip():
                return None
            try:
                return parse_dice([line], count)
            except CliError as error:
                self.error(error)

    def do_options(self, args: list[str]) -> None:
        game, legal = self.game, self.game.legal
        if game.turn.dice is None:
            raise CliError("roll the dice first")
        placements = legal.placements
        lang = self.settings.lang
        if placements:
            for key, placement in sorted(placements.items(), key=lambda kv: -kv[1].total):
                bonus = self.t(" + {points} bonus", points=placement.bonus) if placement.bonus else ""
                self.say(f"  {game.action_text(Score(key), lang):<30} {placement.points:>4}{bonus}")
        else:
            self.say("  " + self.t("no box takes these dice now"))
        strikes = [self.label(k) for k in legal.strikeable if k not in placements]
        if strikes:
            self.say("  " + self.t("strike (0): {boxes}", boxes=", ".join(strikes)))
        if legal.announceable:
            self.say("  " + self.t("announce: {boxes}", boxes=", ".join(map(self.label, legal.announceable))))
        extra = []
        if game.rolls_left:
            extra.append(
                ngettext(
                    "{n} roll left: keep FACES or roll",
                    "{n} rolls left: keep FACES or roll",
                    game.rolls_left,
                    self.settings.lang,
                )
            )
        if legal.can_throw and legal.free_throw:
            extra.append(self.t("a free throw is possible: free [keep FACES]"))
        if extra:
            self.say("  " + "; ".join(extra))

    def do_hint(self, args: list[str]) -> None:
        if self.game.turn.dice is None:
            raise CliError("roll first: there is nothing to decide before the first throw")
        try:
            count = int(args[0]) if args else HINTS
        except ValueError:
            raise CliError(f"hint N: N is a number of options, got {args[0]!r}") from None
        if count < 1:
            raise CliError("hint N: N is at least 1")
        if points_table_pending(self.game.rules):  # a first use: the quick bot's order while it is solved
            self.say(self.t(QUICK_ORDER))
            for choice in quick_choices(self.game)[:count]:
                self.say("  " + self.game.action_text(choice.action, self.settings.lang))
        with self.thinking():
            found_hints = hints(self.game)
        choices, exact = pruned(found_hints.points.options, count), found_hints.points.exact
        found = found_hints.chances(choices)
        wins = found if isinstance(found, list) else None
        # The position in the form 'kniffel advise --situation' reads (not translated: a command's
        # input), labelled as such, so that a hint can be looked into further at the command line.
        self.say(self.t(SITUATION, situation=self.game.situation()))
        if wins is None:
            self.say(self.t("Best options (value: expected points still to come):"))
        else:
            self.say(self.t("Best options (value: expected points still to come; chance of winning):"))
        for line in hint_lines(self.game, choices, self.settings.lang, wins):
            self.say(line)
        if isinstance(found, Preparing):
            self.say(found.note(self.t))
        if not exact:
            self.note_estimate()

    @contextmanager
    def thinking(self) -> Iterator[None]:
        """A spinner saying "Thinking..." while the advice is worked out, and on a first use that the
        solver compiles and for how long so far (told again every second)."""
        lang = self.settings.lang
        with self.console.status(thinking_text(lang)) as status:
            done = threading.Event()

            def tell() -> None:
                while not done.wait(1.0):
                    status.update(thinking_text(lang))

            threading.Thread(target=tell, daemon=True).start()
            try:
                yield
            finally:
                done.set()

    def do_chances(self, args: list[str]) -> None:
        if not plays_to_win(self.game):
            raise CliError("chances of winning need several players and rules the exact solver covers")
        with self.console.status(self.t("Weighing the chances of winning...")):
            chances = live_chances(self.game)
            if isinstance(chances, Preparing) and chances.solving and not chances.work.big:
                chances = live_chances(self.game, wait=True)  # a second or two: worth waiting for
        if isinstance(chances, Preparing):
            self.say(chances.note(self.t))
            self.say(self.t("Type 'chances' again later."))
            return
        assert chances is not None
        self.say(self.t("Chances of winning, each playing for points from here:"))
        for name, chance in zip(self.names(), chances, strict=True):
            self.say(f"  {name:<20} {percent(self.settings.lang, chance):>7}")
        if needs_tie_note(chances, 1):
            self.say(self.t(TIE_NOTE))

    def note_estimate(self) -> None:
        if not self._noted_estimate:
            self._noted_estimate = True
            self.say(self.t(ESTIMATE_NOTE))

    def do_review(self, args: list[str]) -> Review:
        with self.console.status(self.t("Reviewing the game...")):
            reviewed = self.review()
        if not reviewed.decisions:
            self.say(self.t("No decisions to review yet."))
            return reviewed
        result = reviewed
        lang = self.settings.lang
        result = renamed(result, self.shown())
        self.console.print(summary_table(result, lang))
        for line in review_lines(result, lang):
            self.console.print(line)
        self.console.print(decisions_table(result, self.game.rules, lang=lang))
        if not result.exact:
            self.note_estimate()
        return reviewed

    def do_sheet(self, args: list[str]) -> None:
        self._shown = None

    def do_help(self, args: list[str]) -> None:
        self.console.print(help_view(self.t(HELP)))
        if self.settings.pad:
            self.console.print(help_view(self.t(PAD_HELP)))

    def do_save(self, args: list[str]) -> None:
        if not args:
            raise CliError("save FILE: name the file")
        path = Path(" ".join(args)).expanduser()
        self.save(path)
        self._saved = (path, list(self.game.log))
        self.say(self.t("Saved to {path}; resume with: kniffel play --load {path}", path=path))

    def do_undo(self, args: list[str]) -> None:
        """Take back the last decision made at the keyboard
        (:meth:`kniffel.services.session.Session.undo`)."""
        undone = self.undo()
        player = self.names()[undone.player]
        self.say(self.t("Undone for {player}: {action}.", player=player, action=undone.action))
        if undone.bot_actions:
            self.say(self.t("The bots' turns since then will be played again with the same dice."))


def make_console(settings: Settings) -> Console:
    """The game's display: stdout, or stderr when stdout is reserved for the JSON result."""
    return Console(file=sys.stderr if settings.json else sys.stdout, highlight=False)
