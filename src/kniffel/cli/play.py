"""``kniffel play``: a game at the terminal for humans and bots, with undo, autosave and a score pad.

The session owns no rules: every question (is this allowed, where may these dice go, what do they
pay) goes to :class:`kniffel.Game`, whose error messages are shown as they are.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from kniffel.actions import Action, Announce, BoxAction, FreeThrow, Outcome, Roll, Score, Strike
from kniffel.bots import Bot
from kniffel.bots import make as make_bot
from kniffel.cli.errors import CliError, check_writable, message
from kniffel.cli.parsing import faces, parse_dice, parse_players, resolve_box
from kniffel.cli.render import dice_text, sheet_json, sheet_table
from kniffel.cli.reviewing import ESTIMATE_NOTE, decisions_table, hint_choices, hint_lines, summary_table
from kniffel.dice import validate_dice
from kniffel.errors import GameFormatError, IllegalActionError, KniffelError
from kniffel.game import DiceSource, Game, SecureDice, SeededDice
from kniffel.i18n import LANGUAGES, translate
from kniffel.rules import RuleSet

HINTS = 5
"""Options a hint lists unless told otherwise."""

SAVE_KEY = "cli"
"""Key of the command line's own data in a save file; :meth:`Game.from_json` ignores it."""

# Commands that the library reports as errors while the player types: shown, then re-prompted.
TYPING_ERRORS = (CliError, KniffelError, OSError)

HELP = """\
Commands (a box is its id, label or an unambiguous start of one: "s full", "s 2:ch", "s Dreierpasch";
every action as hints print it is understood too: "roll keep 3 3", "score 2:chance"):
  roll, r               throw all dice (first roll, or re-roll everything)
  keep 3 3 5, k 3 3 5   keep those faces (as shown under Dice) and throw the others (roll keep 3 3 5)
  score BOX, s BOX      enter the dice in BOX
  strike BOX, x BOX     enter 0 in BOX
  announce BOX, a BOX   announce the box of an announced column (right after the first roll)
  free [keep 6 6], f    a free throw after the regular rolls (Knöffel), keeping the faces given
  options, o            where the dice may go now and what they pay
  hint [N]              the N best options (default 5) with their values, from the solver
  review                every decision so far next to the best one, and what it cost
  sheet, t              show the score sheet
  undo, u               take back the last decision (score, strike, announce)
  save FILE             save the game to FILE (resume with: kniffel play --load FILE)
  help, h, ?            this text
  quit, q               leave (the game is saved first when --save was given)"""

PAD_HELP = """\
Score pad (--pad): you throw real dice and type what they show.
  1 3 3 5 6             the dice now showing; those that were showing before count as kept
  roll 1 3 3 5 6        all dice were thrown: type every face (also: roll = 1 3 3 5 6)
  keep 3 3              you kept 3 3: the program asks for the faces of the dice you threw
  roll keep 3 3 = 1 3 3 4 6   kept 3 3 and the throw gave 1 3 3 4 6
  free [keep 6 6]       likewise for a free throw
  undo                  also takes back a mistyped throw"""


ACTION_COMMANDS: dict[str, type[Action]] = {
    "roll": Roll,
    "r": Roll,
    "keep": Roll,
    "k": Roll,
    "free": FreeThrow,
    "f": FreeThrow,
    "score": Score,
    "s": Score,
    "strike": Strike,
    "x": Strike,
    "announce": Announce,
    "a": Announce,
}
"""The commands that are actions: the words of ``str(action)`` and their short forms."""


class CountingDice:
    """Passes throws through and counts the dice drawn, so a seeded game saved halfway resumes with
    the dice it would have had without the break."""

    def __init__(self, source: DiceSource, drawn: int = 0) -> None:
        self.source = source
        self.drawn = 0
        self.skip(drawn)

    def skip(self, n: int) -> None:
        if n:
            self.throw(n)

    def throw(self, n: int) -> tuple[int, ...]:
        self.drawn += n
        return self.source.throw(n)


def dice_source(seed: int | None, drawn: int = 0) -> CountingDice:
    return CountingDice(SecureDice() if seed is None else SeededDice(seed), drawn if seed is not None else 0)


def bot_seed(seed: int | None, index: int) -> int | None:
    """Each bot's own seed, derived from the game's so that ``--seed`` fixes the bots' choices too."""
    return None if seed is None else seed * 16 + index + 1


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` all at once: a crash leaves the old file or the new, never half.
    Errors name ``path``, not the temporary file written beside it."""
    check_writable(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    except OSError as error:
        raise type(error)(error.errno, error.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise type(error)(error.errno, error.strerror, str(path)) from None
        raise


@dataclass
class Settings:
    lang: str = "en"
    lang_given: str | None = None
    """The language asked for with ``--lang``, which beats the one a loaded game was saved in."""
    pad: bool = False
    json: bool = False
    save: Path | None = None
    seed: int | None = None


@dataclass
class Session:
    """A game in progress at the terminal: who is a bot, where it is saved, what to show."""

    game: Game
    dice: CountingDice
    bots: dict[int, Bot]
    specs: dict[int, str]
    """The spec each bot was made from, saved so that a resumed game has the same bots."""
    settings: Settings
    console: Console
    replay: list[tuple[int, Action]] = field(default_factory=list)
    """Bot actions taken back by an undo, applied again (same dice) when the bots' turns come."""
    _shown: tuple[int, int] | None = None
    _saved: tuple[Path, list[Action]] | None = None
    """Where the ``save`` command last wrote the game, and the moves it held."""
    _noted_estimate: bool = False
    """Whether the note that values are estimates was shown (once a game is enough)."""

    # --- setting up -----------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: RuleSet, players: Sequence[str], settings: Settings, console: Console) -> Session:
        specs = parse_players(players)
        dice = dice_source(settings.seed)
        game = Game(rules, [p.name for p in specs], dice=dice)
        chosen = {i: p.bot for i, p in enumerate(specs) if p.bot is not None}
        return cls(game, dice, cls._make_bots(chosen, settings.seed), chosen, settings, console)

    @classmethod
    def load(cls, path: Path, settings: Settings, console: Console) -> Session:
        text = path.read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise GameFormatError(f"{path}: not a saved game ({error})") from None
        if not isinstance(data, dict):
            raise GameFormatError(f"{path}: not a saved game")
        extra = data.get(SAVE_KEY) or {}
        names = data.get("players")
        if not isinstance(extra, dict) or not isinstance(names, list):
            raise GameFormatError(f"{path}: not a saved game")
        saved_seed, drawn, by_name = extra.get("seed"), extra.get("drawn", 0), extra.get("bots", {})
        saved_lang = extra.get("lang", settings.lang)
        if not (saved_seed is None or type(saved_seed) is int) or type(drawn) is not int or drawn < 0:
            raise GameFormatError(f"{path}: damaged dice record")
        if not isinstance(by_name, dict) or not all(isinstance(v, str) for v in by_name.values()):
            raise GameFormatError(f"{path}: damaged bot list")
        if settings.lang_given is None and saved_lang in LANGUAGES:
            settings.lang = saved_lang
        continues = settings.seed is None
        if continues:
            settings.seed = saved_seed
        dice = dice_source(settings.seed)
        settings.pad = settings.pad or bool(extra.get("pad", False))
        game = Game.from_json(data, dice=dice)
        if continues and saved_seed is not None:
            # Continue the saved dice stream where it stopped; a count no game can reach is damage, and
            # skipping it would take forever.
            most = len(game.players) * game.rules.turns * (game.rules.rolls + game.rules.free_throws_per_turn)
            if drawn > most * game.rules.dice:
                raise GameFormatError(
                    f"{path}: damaged dice record (drawn {drawn}, at most {most * game.rules.dice})"
                )
            dice.skip(drawn)
        specs = {i: by_name[name] for i, name in enumerate(game.players) if name in by_name}
        return cls(game, dice, cls._make_bots(specs, settings.seed), specs, settings, console)

    @staticmethod
    def _make_bots(specs: Mapping[int, str], seed: int | None) -> dict[int, Bot]:
        return {i: make_bot(spec, seed=bot_seed(seed, i)) for i, spec in specs.items()}

    def prepare_bots(self) -> None:
        """Load (or solve, once) the tables bots need before play starts, not in the middle of it."""
        for bot in self.bots.values():
            prepare = getattr(bot, "prepare", None)
            if callable(prepare):
                with self.console.status(self.t("Loading the tables of the {bot} bot...", bot=bot.name)):
                    prepare(self.game.rules)

    # --- saving ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data = self.game.to_json()
        data[SAVE_KEY] = {
            "bots": {self.game.players[i]: spec for i, spec in self.specs.items()},
            "seed": self.settings.seed,
            "drawn": self.dice.drawn,
            "pad": self.settings.pad,
            "lang": self.settings.lang,
        }
        return data

    def save(self, path: Path) -> None:
        write_atomically(path, json.dumps(self.to_json(), indent=1) + "\n")

    def autosave(self) -> None:
        if self.settings.save is not None:
            self.save(self.settings.save)

    # --- running --------------------------------------------------------------------------------

    @property
    def all_bots(self) -> bool:
        return len(self.bots) == len(self.game.players)

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
            self.say(self.t("{rules}: type help for the commands.", rules=self.game.rules.name))
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
        self.offer_review()
        return 0

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
        self.console.print(sheet_table(game, lang=self.settings.lang, title=self.t("Final score")))
        for standing in game.standings():
            self.say(f"{standing.rank}. {standing.name}  {standing.total}")
        winners = game.winners()
        best = game.standings()[0].total
        if len(winners) == 1:
            self.say(
                self.t("Winner: {player}, with {points} points.", player=winners[0], points=best),
                style="bold",
            )
        else:
            self.say(
                self.t(
                    "Tie: {players} share first place with {points} points.",
                    players=", ".join(winners),
                    points=best,
                ),
                style="bold",
            )

    def offer_review(self) -> None:
        """Ask humans whether they want the review of the game just finished (not with --json)."""
        if self.all_bots or self.settings.json:
            return
        try:
            answer = self.read(self.t("Review the game (y/N)? "))
        except (EOFError, KeyboardInterrupt):
            return
        if answer.strip().lower() in ("y", "yes", "j", "ja"):
            self.do_review([])

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
        index = game.current
        name = game.players[index]
        steps: list[str] = []
        while True:
            action = self._replayed(index) or self.bots[index].choose(game)
            try:
                outcome = self.apply(action)
            except IllegalActionError as error:
                raise CliError(f"{name} chose an illegal action ({action}): {error}") from None
            bonuses = [
                f"+{points} {self.t(kind)}"
                for points, kind in ((outcome.extra_bonus, "bonus"), (outcome.upper_bonus, "upper bonus"))
                if points
            ]
            steps.append(self.describe(outcome) + (f" ({', '.join(bonuses)})" if bonuses else ""))
            if outcome.ends_turn:
                break
        if not (self.settings.json and self.all_bots):
            self.say(f"{name}: " + " · ".join(steps))

    def _replayed(self, index: int) -> Action | None:
        if not self.replay:
            return None
        actor, action = self.replay[0]
        if actor != index or not self.game.can_apply(action):
            self.replay.clear()
            return None
        self.replay.pop(0)
        return action

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
        return self.t("{points} points in {box}", points=outcome.points, box=self.label(action.box))

    def label(self, key: str) -> str:
        column, box = self.game.rules.locate(key)
        text = box.label(self.settings.lang)
        return f"{text} ({column.id})" if self.game.rules.multi_column else text

    # --- humans -----------------------------------------------------------------------------------

    def show(self) -> None:
        game = self.game
        turn = game.turn
        self.console.print(sheet_table(game, lang=self.settings.lang, hints=game.placements()))
        if turn.dice is None:
            self.say(
                self.t(
                    "Round {round} of {turns}, {player} to play: roll (r) to throw.",
                    round=game.round,
                    turns=game.rules.turns,
                    player=game.player,
                )
            )
            return
        left = self.t("1 roll left" if game.rolls_left == 1 else "{n} rolls left", n=game.rolls_left)
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
            return False
        handler = self.commands().get(command)
        if handler is None and self.settings.pad and command.isdigit():
            # Score pad: bare dice are what the dice show now.
            command, args = "dice", words
            handler = self.do_pad_dice
        try:
            if handler is None:
                raise CliError(f"unknown command {command!r}; type help for the list")
            handler(args)
        except TYPING_ERRORS as error:
            self.error(error)
        return True

    def commands(self) -> dict[str, Callable[[list[str]], None]]:
        table: dict[str, Callable[[list[str]], None]] = {}
        for name in ACTION_COMMANDS:
            table[name] = functools.partial(self.do_action, name)
        for names, handler in (
            (("options", "o"), self.do_options),
            (("hint",), self.do_hint),
            (("review",), self.do_review),
            (("sheet", "t"), self.do_sheet),
            (("undo", "u"), self.do_undo),
            (("save",), self.do_save),
            (("help", "h", "?"), self.do_help),
        ):
            for name in names:
                table[name] = handler
        return table

    def apply(self, action: Action) -> Outcome:
        """Apply and autosave; what the action did."""
        outcome = self.game.apply(action)
        self.autosave()
        return outcome

    def act(self, action: Action) -> None:
        """A human's action: apply it and say what it did."""
        outcome = self.apply(action)
        if outcome.ends_turn or isinstance(outcome.action, Announce):
            self.say(f"{self.game.players[outcome.player]}: {self.describe(outcome)}.")
        if outcome.extra_bonus:
            self.say(self.t("Extra bonus: +{points}!", points=outcome.extra_bonus), style="bold")
        if outcome.upper_bonus:
            self.say(self.t("Upper bonus: +{points}!", points=outcome.upper_bonus), style="bold")

    def do_action(self, command: str, args: list[str]) -> None:
        action = self.typed_action(command, args)
        if isinstance(action, Roll):
            self._throw(action)
        else:
            self.act(action)

    def typed_action(self, command: str, args: Sequence[str]) -> Action:
        """The action a typed command names: any action as ``str(action)`` writes it (``roll keep 3 3``,
        ``free``, ``score 2:chance``, ``announce 3:full_house``) or a short form of it (``k 3 3``,
        ``s ch``, ``a 3:full``); box names are resolved by :func:`resolve_box`. A roll comes back without
        dice unless they were typed (score pad)."""
        kind = ACTION_COMMANDS[command]
        if issubclass(kind, Roll):
            return self._typed_throw(command, kind, list(args))
        legal = self.game.legal
        relevant = {
            Score: list(legal.placements),
            Strike: list(legal.strikeable),
            Announce: list(legal.announceable),
        }
        assert issubclass(kind, Score | Strike | Announce)
        return kind(self._box(args, relevant[kind]))

    def _typed_throw(self, command: str, kind: type[Roll], words: list[str]) -> Roll:
        typed: list[str] = []
        if "=" in words:  # roll keep 3 3 = 1 3 3 4 6: the throw's result, as actions are written
            at = words.index("=")
            words, typed = words[:at], words[at + 1 :]
            if not typed:
                raise CliError("after '=' come the dice the throw gave, e.g. roll keep 3 3 = 1 3 3 4 6")
        if command in ("keep", "k"):
            if not words:
                raise CliError("name the faces to keep, e.g. keep 6 6 (roll throws all dice)")
        elif words and words[0] == "keep":
            words = words[1:]
        elif words and kind is Roll:
            # roll 1 3 3 5 6 on a score pad: every die was thrown, these are the faces
            if typed:
                raise CliError("write the kept dice after 'keep': roll keep 3 3 = 1 3 3 4 6")
            words, typed = [], words
        keep = tuple(sorted(faces(words)))
        if typed and not self.settings.pad:
            raise CliError("the program rolls the dice; to keep some, type keep 3 3 (or play with --pad)")
        dice = parse_dice(typed, self.game.rules.dice) if typed else None
        return kind(keep=keep, dice=dice)

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
            line = self.read(self.t("Type the {n} dice you threw (empty line: cancel): ", n=count))
            if not line.strip():
                return None
            try:
                return parse_dice([line], count)
            except CliError as error:
                self.error(error)

    def _box(self, args: Sequence[str], relevant: Sequence[str]) -> str:
        if not args:
            raise CliError("name a box, e.g. 'score chance'; options lists where the dice may go")
        return resolve_box(self.game.rules, " ".join(args), relevant)

    def do_options(self, args: list[str]) -> None:
        game, legal = self.game, self.game.legal
        if game.turn.dice is None:
            raise CliError("roll the dice first")
        placements = legal.placements
        if placements:
            for key, placement in sorted(placements.items(), key=lambda kv: -kv[1].total):
                bonus = self.t(" + {points} bonus", points=placement.bonus) if placement.bonus else ""
                self.say(f"  score {key:<18} {placement.points:>4}{bonus}   {self.label(key)}")
        else:
            self.say("  " + self.t("no box takes these dice now"))
        strikes = [k for k in legal.strikeable if k not in placements]
        if strikes:
            self.say("  strike (0): " + ", ".join(strikes))
        if legal.announceable:
            self.say("  announce: " + ", ".join(legal.announceable))
        extra = []
        if game.rolls_left:
            extra.append(self.t("{n} roll(s) left: keep FACES or roll", n=game.rolls_left))
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
        with self.console.status(self.t("Loading the solver's tables...")):
            choices, exact = hint_choices(self.game, count)
        self.say(self.t("Situation: {situation}", situation=self.game.situation()))
        self.say(self.t("Best options (value: expected points still to come):"))
        for line in hint_lines(choices, self.settings.lang):
            self.say(line)
        if not exact:
            self.note_estimate()

    def note_estimate(self) -> None:
        if not self._noted_estimate:
            self._noted_estimate = True
            self.say(self.t(ESTIMATE_NOTE))

    def do_review(self, args: list[str]) -> None:
        from kniffel.review import review

        with self.console.status(self.t("Reviewing the game...")):
            result = review(self.game)
        if not result.decisions:
            self.say(self.t("No decisions to review yet."))
            return
        if not self.game.is_over:
            self.say(self.t("Situation: {situation}", situation=self.game.situation()))
        lang = self.settings.lang
        self.console.print(summary_table(result, lang))
        humans = [name for i, name in enumerate(self.game.players) if i not in self.bots]
        self.console.print(decisions_table(result, players=humans or None, lang=lang))
        if not result.exact:
            self.note_estimate()

    def do_sheet(self, args: list[str]) -> None:
        self._shown = None

    def do_help(self, args: list[str]) -> None:
        self.say(self.t(HELP))
        if self.settings.pad:
            self.say(self.t(PAD_HELP))

    def do_save(self, args: list[str]) -> None:
        if not args:
            raise CliError("save FILE: name the file")
        path = Path(" ".join(args)).expanduser()
        self.save(path)
        self._saved = (path, list(self.game.log))
        self.say(self.t("Saved to {path}; resume with: kniffel play --load {path}", path=path))

    def do_undo(self, args: list[str]) -> None:
        """Take back the last decision made at the keyboard.

        Bots' actions after it are taken back too and replayed with the same dice once the bots'
        turns come again; a human roll in between stops the undo, because virtual dice must not be
        thrown again (on a score pad the typed throw can be taken back and typed anew).
        """
        game = self.game
        taken: list[tuple[int, Action]] = []
        while game.log:
            action = game.undo()
            actor = game.current
            taken.append((actor, action))
            if actor in self.bots:
                continue
            if isinstance(action, Roll) and not self.settings.pad:
                self._redo(taken)
                raise CliError("dice can't be re-rolled: only a score, strike or announcement can be undone")
            self.replay = [*reversed(taken[:-1]), *self.replay]
            self.autosave()
            self.say(self.t("Undone for {player}: {action}.", player=game.players[actor], action=action))
            if len(taken) > 1:
                self.say(self.t("The bots' turns since then will be played again with the same dice."))
            return
        self._redo(taken)
        raise CliError("nothing to undo")

    def _redo(self, taken: list[tuple[int, Action]]) -> None:
        for _, action in reversed(taken):
            self.game.apply(action)


def make_console(settings: Settings) -> Console:
    """The game's display: stdout, or stderr when stdout is reserved for the JSON result."""
    return Console(file=sys.stderr if settings.json else sys.stdout, highlight=False)
