"""``kniffel train``: a series of positions that teach (:mod:`kniffel.services.trainer`), answered one at a
time: full-screen in a terminal (:mod:`kniffel.apps.tui.trainer`), as lines (``--plain``, and always in
scripts and pipes), or as JSON lines (``--json``: a position, the answer read as a line, the verdict; the
figure of the series at the end)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from kniffel.apps.cli import language
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.language import Commands, LangOption
from kniffel.apps.cli.options import OptionsOption, PlainOption, RulesOption, chosen_rules
from kniffel.base.i18n import translate

if TYPE_CHECKING:  # the trainer is imported by the command: kniffel --help imports no solver
    from kniffel.rules import RuleSet
    from kniffel.services import trainer

commands = Commands()
"""The command, added to ``kniffel``'s own (:mod:`kniffel.apps.cli.app`)."""

SHOWN_OPTIONS = 6
"""The options a verdict lists (the best first; the answer's own is always among them)."""
QUIT_WORDS = ("q", "quit", "exit", "beenden")


@commands.command("train")
def train_command(
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    count: Annotated[
        int | None,
        typer.Option("--count", "-n", min=1, help="Positions in the series.", show_default=False),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="The series of this seed (default: a new one each time).", show_default=False
        ),
    ] = None,
    daily: Annotated[
        bool, typer.Option("--daily", help="Today's series: the same for everyone on a date and rule set.")
    ] = False,
    day: Annotated[
        str | None,
        typer.Option(
            "--date", metavar="YYYY-MM-DD", help="The daily series of that date.", show_default=False
        ),
    ] = None,
    goal_text: Annotated[
        str,
        typer.Option(
            "--goal",
            metavar="GOAL",
            help="points (the most points) or win (two players' positions, valued by the chance of winning).",
        ),
    ] = "points",
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help="JSON lines: each position, then the answer read as a line, then the verdict."
        ),
    ] = False,
    plain: PlainOption = False,
    lang: LangOption = None,
) -> None:
    """Train: positions from real games that teach, one at a time. Answer with the dice to keep or the
    box to fill; then see the best choice, every option's value and what your answer cost. At the end:
    your average loss a decision and the level it matches."""
    from kniffel.planning import PlanningError, parse_goal
    from kniffel.services import trainer

    words = language.choose(lang)
    rules = chosen_rules(rules_id, option)
    try:
        goal = parse_goal(goal_text)
    except PlanningError as error:
        raise CliError(str(error)) from None
    if seed is not None and (daily or day):
        raise CliError("--seed names a series of its own; leave out --daily/--date")
    when: date | None = None
    if day is not None:
        try:
            when = date.fromisoformat(day)
        except ValueError:
            raise CliError(f"--date takes a date as YYYY-MM-DD, got {day!r}") from None
    elif daily:
        when = date.today()
    chosen = trainer.daily_seed(rules, when, goal) if when else seed if seed is not None else _new_seed()
    fullscreen = not (plain or json_output) and sys.stdin.isatty() and sys.stdout.isatty()
    console = Console(highlight=False, stderr=json_output)
    with console.status(translate(words, "Finding positions that teach..."), spinner="dots"):
        exercises = trainer.series(
            rules, count=trainer.SERIES if count is None else count, seed=chosen, goal=goal
        )
    if fullscreen:
        from kniffel.apps.tui.trainer import train

        raise typer.Exit(train(exercises, rules, words, seed=chosen))
    if json_output:
        _json_dialogue(exercises, chosen)
        return
    _plain_dialogue(exercises, rules, words, console, chosen)


def _new_seed() -> int:
    import secrets

    return secrets.randbits(31)


def _lines() -> Callable[[], str | None]:
    def read() -> str | None:
        line = sys.stdin.readline()
        return None if not line else line.strip()

    return read


def _json_dialogue(exercises: list[trainer.Exercise], seed: int) -> None:
    from kniffel.services import trainer

    read = _lines()
    verdicts: list[trainer.Verdict] = []
    for number, exercise in enumerate(exercises, 1):
        print(
            json.dumps({"seed": seed, "number": number, "of": len(exercises), "position": exercise.to_json()})
        )
        sys.stdout.flush()
        while True:
            line = read()
            if line is None or line.lower() in QUIT_WORDS:
                print(json.dumps({"result": trainer.result(verdicts).to_json()}))
                return
            try:
                verdict = trainer.answer(exercise, line)
            except trainer.TrainerError as error:
                print(json.dumps({"error": str(error)}))
                sys.stdout.flush()
                continue
            verdicts.append(verdict)
            print(json.dumps({"verdict": verdict.to_json()}))
            break
    print(json.dumps({"result": trainer.result(verdicts).to_json()}))


def position_view(exercise: trainer.Exercise, rules: RuleSet, lang: str) -> list[object]:
    """What the line trainer shows of a position: where it is, the sheets, the dice, the question."""
    from kniffel.apps.cli.render import dice_text, sheet_table
    from kniffel.engine.game import Game

    situation = exercise.situation
    game = Game.from_situation(situation, player=translate(lang, "You"))
    names = [
        name if name == game.players[game.current] else translate(lang, "Opponent") for name in game.players
    ]
    rolls = translate(lang, "rolls left: {n}", n=situation.rolls_left)
    return [
        sheet_table(game, lang=lang, names=names, hints=game.placements()),
        f"{dice_text(situation.dice, lang)}   {rolls}",
        exercise.question(lang),
    ]


def verdict_table(verdict: trainer.Verdict, rules: RuleSet, lang: str) -> Table:
    """The best options and the answer's, each with its value and what it gives away."""
    from kniffel.engine.actions import action_text

    probability = verdict.unit == "probability"
    heading = translate(lang, "Chance of winning" if probability else "Points to come")
    table = Table(header_style="bold", padding=(0, 1))
    table.add_column(translate(lang, "Choice"))
    table.add_column(heading, justify="right")
    table.add_column(translate(lang, "Loss"), justify="right")
    for choice, loss in verdict.shown(SHOWN_OPTIONS):
        mark = "▶ " if choice.action == verdict.chosen else "  "
        table.add_row(
            mark + action_text(choice.action, rules, lang),
            verdict.value_text(choice.value, lang),
            "" if loss <= 0 else verdict.loss_text(loss, lang),
            style="bold" if choice.action == verdict.best.action else "",
        )
    return table


def _plain_dialogue(
    exercises: list[trainer.Exercise], rules: RuleSet, lang: str, console: Console, seed: int
) -> None:
    from kniffel.services import trainer

    read = _lines()
    console.print(
        translate(lang, "Series {seed}: {n} positions. Type q to stop.", seed=seed, n=len(exercises))
    )
    verdicts: list[trainer.Verdict] = []
    for number, exercise in enumerate(exercises, 1):
        console.rule(f"{number}/{len(exercises)} · {exercise.heading(lang)}")
        for part in position_view(exercise, rules, lang):
            console.print(part)
        while True:
            console.print("> ", end="")
            line = read()
            if line is None or line.lower() in QUIT_WORDS:
                _summary(verdicts, lang, console)
                return
            try:
                verdict = trainer.answer(exercise, line)
            except trainer.TrainerError as error:
                console.print(str(error), style="red")
                continue
            break
        verdicts.append(verdict)
        for text in verdict.lines(lang):
            console.print(text)
        console.print(verdict_table(verdict, rules, lang))
    _summary(verdicts, lang, console)


def _summary(verdicts: list[trainer.Verdict], lang: str, console: Console) -> None:
    from kniffel.services import trainer

    if not verdicts:
        return
    done = trainer.result(verdicts)
    best = sum(v.best_choice for v in verdicts)
    console.rule()
    console.print(translate(lang, "Best choices: {best} of {n}.", best=best, n=len(verdicts)))
    console.print(done.proficiency.text(lang))


__all__ = ["commands", "position_view", "train_command", "verdict_table"]
