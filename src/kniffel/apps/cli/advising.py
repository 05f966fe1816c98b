"""``kniffel advise``: every option of a situation with its value for a goal, best first (a single
column's situation from the options, a whole table's from ``--situation``, or a batch of them)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from kniffel.apps.cli import language
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.language import Commands, LangOption
from kniffel.apps.cli.options import (
    ColumnOption,
    DiceOption,
    DiceWordsArgument,
    JsonOption,
    OptionsOption,
    RulesOption,
    SheetOption,
    chosen_rules,
    file_option,
)
from kniffel.base.i18n import translate

if TYPE_CHECKING:  # the solver is imported by the commands that ask it: kniffel --help imports no numba
    from kniffel.engine.situation import Situation
    from kniffel.planning.interface import Goal
    from kniffel.services.advice import Advice

commands = Commands()
"""The command, added to ``kniffel``'s own (:mod:`kniffel.apps.cli.app`)."""


@commands.command("advise")
def advise_command(
    dice_words: DiceWordsArgument = None,
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    column: ColumnOption = None,
    sheet: SheetOption = "",
    dice: DiceOption = None,
    rolls_left: Annotated[
        int | None,
        typer.Option(
            "--rolls-left",
            help="Regular throws still allowed this turn (0 to 2; default: all but the first, as right "
            "after a turn's first roll).",
            show_default=False,
        ),
    ] = None,
    thrown_at_once: Annotated[
        bool,
        typer.Option(
            "--thrown-at-once",
            help="The last throw was of all dice (sharp); --not-thrown-at-once: it was not; default: "
            "only a turn's first throw is.",
        ),
    ] = False,
    not_thrown_at_once: Annotated[
        # Hidden: its name beside --thrown-at-once took a column of the help to itself, which squeezed
        # every option's name at 80 columns. The help of --thrown-at-once names it.
        bool,
        typer.Option("--not-thrown-at-once", hidden=True),
    ] = False,
    free_throws_left: Annotated[
        int | None,
        typer.Option(
            "--free-throws-left",
            help="Knöffel: free throws the column can still pay for, after those taken this turn "
            "(default: all).",
            show_default=False,
        ),
    ] = None,
    free_throws_used: Annotated[
        int, typer.Option("--free-throws-used", help="Knöffel: free throws already taken this turn.")
    ] = 0,
    batch: Annotated[
        Path | None,
        file_option(
            "--batch",
            help="Read one situation per line, as JSON or as a situation's text ('-' for stdin), and "
            "print one JSON line each; a bad line gets an error line and the batch goes on (exit 2).",
        ),
    ] = None,
    situation_text: Annotated[
        str | None,
        typer.Option(
            "--situation",
            help="A whole situation as hints print it, of any rule set, e.g. "
            "'yahtzee | ones=3 yahtzee=50 | 2 2 3 5 5 | rolls left 1'.",
            show_default=False,
        ),
    ] = None,
    goal_text: Annotated[
        str,
        typer.Option(
            "--goal",
            help="What to play for: points (the most points on average; also: mean), target:T (the best "
            "chance of finishing with at least T points) or win (the best chance of finishing first, "
            "with --situation giving the other players' sheets).",
            metavar="GOAL",
        ),
    ] = "points",
    json_output: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """Every option in a situation with its value, best first.

    A value is the expected number of points still to come (this turn's included, the sheet's points
    excluded) when playing optimally from there, with --goal target:T the chance of finishing with at
    least T points, with --goal win the chance of finishing first. Actions are named as in the game:
    "keep D D" holds those dice and throws the others; "roll" throws all of them again ("free throw"
    for a free throw); --json gives their text form ("roll keep D D").
    """
    from kniffel.apps.cli import goals, solving
    from kniffel.apps.cli.parsing import given_dice, parse_sheet
    from kniffel.apps.cli.render import named_actions
    from kniffel.core import ColumnPosition
    from kniffel.engine.situation import Situation
    from kniffel.planning.interface import Unit
    from kniffel.services.advice import Position, options
    from kniffel.services.batch import batch_advisor, prepare_batch, run_batch

    words = language.choose(lang)
    goal = goals.goal_of(goal_text)
    if situation_text is not None:
        given = {
            "--rules": rules_id is not None,
            "--option": bool(option),
            "--column": column is not None,
            "--sheet": bool(sheet),
            "--dice": bool(dice or dice_words),
            "--rolls-left": rolls_left is not None,
            "--thrown-at-once": thrown_at_once,
            "--not-thrown-at-once": not_thrown_at_once,
            "--free-throws-left": free_throws_left is not None,
            "--free-throws-used": bool(free_throws_used),
            "--batch": batch is not None,
        }
        if any(given.values()):
            clash = "/".join(name for name, present in given.items() if present)
            raise CliError(
                f"--situation gives the rules, sheet, dice and rolls left itself; leave out {clash}"
            )
        _advise_situation(Situation.parse(situation_text), json_output, words, goal)
        return
    rules = chosen_rules(rules_id, option)
    alone = solving.column_rules(rules, column)
    if batch is not None:
        if sheet or dice or dice_words or rolls_left is not None:
            raise CliError(
                "--batch reads the situations from the file; leave out --sheet/--dice/--rolls-left"
            )
        stream = solving.open_batch(batch)
        with (
            goals.solving_for(alone, goal, show=True, lang=words) as progress,
            _with_others(goal, table=False),
        ):
            advisor = batch_advisor(alone, goal, progress)
            prepare_batch(advisor, alone)
        if run_batch(advisor, alone, stream, sys.stdout):
            raise typer.Exit(2)
        return
    if thrown_at_once and not_thrown_at_once:
        raise CliError("give --thrown-at-once or --not-thrown-at-once, not both")
    at_once = True if thrown_at_once else False if not_thrown_at_once else None
    if rolls_left is None:
        rolls_left = alone.rolls - 1
    position = Position.of_column(
        alone,
        ColumnPosition(
            dict(parse_sheet(alone, sheet, whole=rules, column=column).entries),
            given_dice(dice, dice_words, alone.dice),
            rolls_left,
            at_once,
            free_throws_left,
            free_throws_used,
        ),
    )
    with (
        goals.solving_for(alone, goal, show=not json_output, lang=words) as progress,
        _with_others(goal, table=False),
    ):
        advice = options(position, goal, progress=progress, strict=True)
    found = [{"action": str(c.action), "value": c.value} for c in advice.options]
    if advice.unit is Unit.POINTS:
        if json_output:
            print(json.dumps({"options": found}))
            return
        Console(highlight=False).print(solving.options_table(named_actions(found, alone, words), words))
        return
    if json_output:
        needed = None if advice.reach is None else advice.reach.needed
        answer = {"goal": str(goal), "needed": needed, "upper_bound": advice.upper_bound, "options": found}
        print(json.dumps(answer))
        return
    # the table names the final score played for (a goal's own name is in the JSON)
    console = Console(highlight=False)
    console.print(goals.options_table(named_actions(found, alone, words), advice.reach, words))
    _say_bound(console, advice, words)


@contextmanager
def _with_others(goal: Goal, *, table: bool) -> Iterator[None]:
    """Say how to give the other players' sheets when ``goal`` needs them and the question (a table
    text, or a column's sheet) has none."""
    from kniffel.planning.interface import OthersNeeded

    try:
        yield
    except OthersNeeded:
        if table:
            raise CliError(
                f"--goal {goal} needs the other players' sheets: end the situation with "
                "'others SHEET ; SHEET ...'"
            ) from None
        raise CliError(
            f"--goal {goal} needs the other players' sheets: give the table with --situation"
        ) from None


def _say_bound(console: Console, advice: Advice, words: str) -> None:
    """Say under chances read at the tables' limit that they are upper bounds."""
    from kniffel.services.advice import PAST_THE_LIMIT

    if advice.reach is not None and advice.reach.limit is not None:
        console.print(translate(words, PAST_THE_LIMIT, limit=advice.reach.limit), markup=False)


def _advise_situation(situation: Situation, json_output: bool, words: str, goal: Goal) -> None:
    from kniffel.apps.cli import goals, reviewing, solving
    from kniffel.apps.cli.render import named_actions
    from kniffel.planning.interface import Unit
    from kniffel.services.advice import Position, options

    position = Position.of_situation(situation)
    with (
        goals.solving_for(situation.rules, goal, show=not json_output, lang=words, table=True) as progress,
        _with_others(goal, table=True),
    ):
        advice = options(position, goal, progress=progress, strict=True)
    found = [{"action": str(c.action), "value": c.value} for c in advice.options]
    answer: dict[str, Any] = {"situation": str(situation)}
    if advice.unit is Unit.POINTS:
        answer |= {"exact": advice.exact, "options": found}
    else:
        answer |= {"goal": str(goal), "options": found}
        if advice.reach is not None:
            answer["upper_bound"] = advice.upper_bound
    if json_output:
        print(json.dumps(answer))
        return
    console = Console(highlight=False)
    console.print(translate(words, "Situation: {situation}", situation=situation), markup=False)
    named = named_actions(found, situation.rules, words)
    if advice.unit is Unit.POINTS:
        console.print(solving.options_table(named, words))
    else:
        console.print(goals.options_table(named, advice.reach, words))
        _say_bound(console, advice, words)
    if not advice.exact:
        console.print(translate(words, reviewing.ESTIMATE_NOTE))


__all__ = ["advise_command", "commands"]
