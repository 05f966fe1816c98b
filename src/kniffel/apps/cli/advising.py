"""``kniffel advise``: every option of a situation with its value for a goal, best first (a single
column's situation from the options, a whole table's from ``--situation``, or a batch of them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from kniffel.apps.cli import language
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.language import LangOption, reports_errors
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
from kniffel.apps.cli.parsing import given_dice, parse_sheet
from kniffel.apps.cli.render import named_actions
from kniffel.base.i18n import translate
from kniffel.engine.situation import Situation

if TYPE_CHECKING:  # the solver is imported by the commands that ask it: kniffel --help imports no numba
    from kniffel.planning.goals import Goal

commands = typer.Typer()
"""The command, added to ``kniffel``'s own (:mod:`kniffel.apps.cli.app`)."""


@commands.command("advise")
@reports_errors
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
    from kniffel.core import Advisor, ColumnPosition, table
    from kniffel.planning.goals import AIM_WIN, Target
    from kniffel.services.advice import PAST_THE_LIMIT

    words = language.choose(lang)
    goal = goals.goal_of(goal_text)
    # a goal says how it is played (its aim): for points, for a final score, or against the others
    aim = goal.aim()
    if aim == AIM_WIN and situation_text is None:
        raise CliError(f"--goal {goal} needs the other players' sheets: give the table with --situation")
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
        if aim < 0:
            label = translate(words, "Solving {rules} (once, then cached)", rules=alone.id)
            with solving.solve_progress(True, label, lang=words) as progress:
                advisor = Advisor(table(alone, progress=progress))
                solving.prepare_batch(advisor, alone)
            errors = solving.run_batch(advisor, alone, stream, sys.stdout)
        else:
            target = goals.target_options(alone, aim, show_progress=True, lang=words)
            errors = goals.run_batch(target, alone, stream, sys.stdout)
        if errors:
            raise typer.Exit(2)
        return
    if thrown_at_once and not_thrown_at_once:
        raise CliError("give --thrown-at-once or --not-thrown-at-once, not both")
    at_once = True if thrown_at_once else False if not_thrown_at_once else None
    if rolls_left is None:
        rolls_left = alone.rolls - 1
    situation = ColumnPosition(
        dict(parse_sheet(alone, sheet, whole=rules, column=column).entries),
        given_dice(dice, dice_words, alone.dice),
        rolls_left,
        at_once,
        free_throws_left,
        free_throws_used,
    )
    solving.check_situation(alone, situation)
    if aim >= 0:
        target = goals.target_options(
            alone, aim, show_progress=not json_output, lang=words, sheet=situation.sheet
        )
        options = solving.advise(target, alone, situation)
        needed, bound = target.needed(situation.sheet), target.upper_bound(situation)
        if json_output:
            print(json.dumps({"goal": str(goal), "needed": needed, "upper_bound": bound, "options": options}))
            return
        # the table names the final score played for (a goal's own name is in the JSON)
        console = Console(highlight=False)
        console.print(goals.options_table(named_actions(options, alone, words), Target(aim), words))
        if bound:
            console.print(translate(words, PAST_THE_LIMIT, limit=target.advisor.limit), markup=False)
        return
    label = translate(words, "Solving {rules} (once, then cached)", rules=alone.id)
    with solving.solve_progress(not json_output, label, lang=words) as progress:
        advisor = Advisor(table(alone, progress=progress))
        advisor.prepare()
    options = solving.advise(advisor, alone, situation)
    if json_output:
        print(json.dumps({"options": options}))
        return
    Console(highlight=False).print(solving.options_table(named_actions(options, alone, words), words))


def _advise_situation(situation: Situation, json_output: bool, words: str, goal: Goal) -> None:
    from kniffel.apps.cli import goals, reviewing, solving
    from kniffel.engine.game import Game
    from kniffel.planning.goals import AIM_POINTS, AIM_WIN, Target
    from kniffel.services.advice import PAST_THE_LIMIT, past_the_limit

    aim = goal.aim()
    if aim == AIM_WIN and not situation.others:
        raise CliError(
            f"--goal {goal} needs the other players' sheets: end the situation with "
            "'others SHEET ; SHEET ...'"
        )
    if aim != AIM_POINTS:
        label = translate(
            words, "Solving the chances of {goal} in {rules}", goal=goal, rules=situation.rules.id
        )
        with solving.solve_progress(not json_output, label, lang=words):
            options = goals.advise_situation(situation, goal)
        bound = past_the_limit(Game.from_situation(situation), aim) if aim >= 0 else None
        if json_output:
            answer: dict[str, Any] = {"situation": str(situation), "goal": str(goal), "options": options}
            if aim >= 0:
                answer["upper_bound"] = bound is not None
            print(json.dumps(answer))
            return
        console = Console(highlight=False)
        console.print(translate(words, "Situation: {situation}", situation=situation), markup=False)
        named = named_actions(options, situation.rules, words)
        console.print(goals.options_table(named, Target(aim) if aim >= 0 else goal, words))
        if bound is not None:
            console.print(translate(words, PAST_THE_LIMIT, limit=bound), markup=False)
        return
    label = translate(words, "Solving the tables of {rules} (once, then cached)", rules=situation.rules.id)
    with solving.solve_progress(not json_output, label, lang=words):
        options, exact = solving.advise_situation(situation)
    if json_output:
        print(json.dumps({"situation": str(situation), "exact": exact, "options": options}))
        return
    console = Console(highlight=False)
    console.print(translate(words, "Situation: {situation}", situation=situation), markup=False)
    console.print(solving.options_table(named_actions(options, situation.rules, words), words))
    if not exact:
        console.print(translate(words, reviewing.ESTIMATE_NOTE))


__all__ = ["advise_command", "commands"]
