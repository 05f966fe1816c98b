"""``kniffel stats``: each player's record of finished games on this device
(:mod:`kniffel.services.record`)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from kniffel.apps.cli import language
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.language import Commands, LangOption
from kniffel.apps.cli.options import file_option
from kniffel.apps.cli.simulating import check_plot
from kniffel.base.i18n import N_, ngettext, number, percent, translate

if TYPE_CHECKING:  # the record and the rule sets are imported by kniffel stats: kniffel --help does not
    from kniffel.rules import RuleSet
    from kniffel.services import record

commands = Commands()
"""The command, added to ``kniffel``'s own (:mod:`kniffel.apps.cli.app`)."""


def record_tables(found: list[record.Summary], lang: str) -> list[Table]:
    """A table per rule set (named as people know it), a row per player: games, wins, average, best,
    five alike (in the rule set's word: Kniffels, Yahtzees, Yatzys), bonus rate and the loss per choice
    with how many games it is from."""
    from kniffel.rules.names import five_alike_name

    t = functools.partial(translate, lang)
    tables: dict[str, Table] = {}
    for s in found:
        table = tables.get(s.ruleset)
        if table is None:
            rules = ruleset_of(s.ruleset)
            title = t("Your record on this device: {rules}", rules=ruleset_text(s.ruleset, rules, lang))
            table = tables[s.ruleset] = Table(
                title=title, header_style="bold", box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False
            )
            # A name is shortened where the columns need the room, never to nothing.
            longest = max(len(other.player) for other in found if other.ruleset == s.ruleset)
            table.add_column(t("Player"), min_width=min(longest, 12), max_width=24)
            for heading in HEADINGS:
                shown = five_alike_name(rules) if heading == FIVE_ALIKE_HEADING and rules else heading
                table.add_column(t(shown), justify="right", no_wrap=True)
        reviewed = f"{s.reviewed}/{s.games}"
        table.add_row(
            s.player,
            str(s.games),
            str(s.won),
            number(lang, s.average, 1),
            str(s.best),
            str(s.kniffels),
            percent(lang, s.bonus_rate, 0),
            "-" if s.loss_per_choice is None else number(lang, s.loss_per_choice, 2),
            _level(s),
            reviewed,
        )
    return list(tables.values())


def _level(summary: record.Summary) -> str:
    """The level the summary's loss per choice matches (:mod:`kniffel.services.proficiency`), or a dash."""
    from kniffel.services import proficiency

    if summary.loss_per_choice is None:
        return "-"
    found = proficiency.level_of(summary.ruleset.split()[0], summary.loss_per_choice)
    return "-" if found is None else str(found)


def progress_lines(games: list[record.GameRecord], lang: str) -> list[str]:
    """For each player and rule set with reviewed games, the level its games matched over time, oldest
    first (:func:`kniffel.services.proficiency.over_time`)."""
    from kniffel.services import proficiency

    groups: dict[tuple[str, str], list[record.GameRecord]] = {}
    for game in games:
        if game.loss is not None and game.decisions:
            groups.setdefault((game.player, game.ruleset), []).append(game)
    lines = []
    for (player, ruleset), found in groups.items():
        runs = proficiency.over_time([(g.loss or 0.0, g.decisions or 0) for g in found], found[0].rules)
        levels = [str(run.level) for run in runs if run.level is not None]
        if levels:
            shown = " \N{RIGHTWARDS ARROW} ".join(levels)
            lines.append(
                translate(
                    lang,
                    "Level over time, {player} ({rules}): {levels}",
                    player=player,
                    rules=ruleset,
                    levels=shown,
                )
            )
    return lines


FIVE_ALIKE_HEADING = N_("Five alike")
HEADINGS = (
    N_("Games"),
    N_("Won"),
    N_("Average"),
    N_("Best"),
    FIVE_ALIKE_HEADING,
    N_("Bonus"),
    N_("Loss"),
    N_("Level"),
    N_("Reviewed"),
)
"""The figures of a row of the record, after the player's name (five alike in the rule set's word)."""


def ruleset_of(ruleset: str) -> RuleSet | None:
    """The rule set a record's games were played by (``yahtzee joker=free``); None for one this version
    does not know."""
    from kniffel.rules import RulesError, parse_options
    from kniffel.rules import get as get_rules

    words = ruleset.split()
    try:
        return get_rules(words[0], parse_options(words[1:])) if words else None
    except RulesError:
        return None


def ruleset_text(ruleset: str, rules: RuleSet | None, lang: str) -> str:
    """A record's rule set as people know it: its name, and the options that differ from its defaults."""
    if rules is None:
        return ruleset
    chosen = ", ".join(f"{key}={value}" for key, value in sorted(rules.options.items()))
    name = translate(lang, rules.name)
    return f"{name} ({chosen})" if chosen else name


@commands.command("stats")
def stats_command(
    player: Annotated[
        str | None,
        typer.Option("--player", "-p", metavar="NAME", help="Only this player's games.", show_default=False),
    ] = None,
    plot: Annotated[
        Path | None,
        file_option(
            "--plot",
            help="Draw the scores over time to FILE (.png, .svg, .pdf; needs the plot extra).",
            metavar="FILE",
        ),
    ] = None,
    clear: Annotated[
        bool, typer.Option("--clear", help="Forget the recorded games (with --player: only that player's).")
    ] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    lang: LangOption = None,
) -> None:
    """Your record: every human player's finished games on this device, per rule set.

    Games, wins, average and best score, five alike, how often the upper bonus was reached and the
    average loss per choice in expected points, from the games' reviews; --plot draws the scores over
    time. The record is a private file on this device ($KNIFFEL_RECORD_DIR or the user data directory);
    KNIFFEL_RECORD=off keeps none.
    """
    from kniffel.services import record

    words = language.choose(lang)
    console = Console(highlight=False)
    if clear:
        if plot is not None:
            raise CliError("--clear forgets the games; leave out --plot")
        gone = record.clear(player)
        console.print(ngettext("Forgot {n} game.", "Forgot {n} games.", gone, words))
        return
    if plot is not None:
        check_plot(plot)
    games = [r for r in record.load() if player is None or r.player == player]
    found = record.summaries(games)
    if json_output:
        # allow_nan=False: the record's numbers are checked finite as it is read, so this never raises;
        # were one to slip through, an error is better than JSON that no other program reads
        shown = [s.to_json() | {"level": _level(s) if s.loss_per_choice is not None else None} for s in found]
        print(json.dumps({"path": str(record.record_path()), "summaries": shown}, allow_nan=False))
    elif not found:
        where = record.record_path()
        if player is not None:
            console.print(translate(words, "No finished games of {player} on this device.", player=player))
        else:
            console.print(translate(words, "No finished games on this device yet ({path}).", path=where))
    else:
        for table in record_tables(found, words):
            console.print(table)
        for line in progress_lines(games, words):
            console.print(line)
        console.print(
            translate(
                words,
                "Bonus: games with the upper bonus. Loss: expected points given away per choice, over the "
                "reviewed games; Level: the level of play that loses as much. Kept in {path}; forget it "
                "with: kniffel stats --clear",
                path=record.record_path(),
            ),
            style="dim",
        )
    if plot is not None:
        record.plot_record(games, plot, words=functools.partial(translate, words))
        if not json_output:
            console.print(translate(words, "Plot written to {path}", path=plot))
