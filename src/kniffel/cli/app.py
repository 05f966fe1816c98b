"""The ``kniffel`` commands: ``rules``, ``score``, ``play``, ``solve``, ``advise``, ``review`` and ``serve``.

Each command is a thin layer over the library: it reads its arguments, asks :mod:`kniffel.rules` or
:class:`kniffel.Game`, and prints a Rich table or JSON. Errors are turned into one line on stderr
and exit status 2 by :func:`kniffel.cli.errors.reports_errors`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kniffel.cli import reviewing, solving
from kniffel.cli.cluster import ClusterOption, Tally
from kniffel.cli.errors import CliError, reports_errors
from kniffel.cli.parsing import parse_dice, resolve_box
from kniffel.cli.play import Session, Settings, make_console
from kniffel.cli.render import (
    LANGUAGES,
    placements_table,
    rule_set_json,
    rule_set_view,
    rules_json,
    rules_tables,
)
from kniffel.rules import Order, parse_options, placements
from kniffel.rules import get as get_rules
from kniffel.sheet import ScoreSheet
from kniffel.situation import Situation

app = typer.Typer(
    name="kniffel",
    help="Kniffel, Yahtzee, Yatzy and friends: rule sets, scoring and terminal play.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

DEFAULT_RULES = "kniffel"

RulesOption = Annotated[
    str | None, typer.Option("--rules", "-r", help="Rule set id (see 'kniffel rules').", show_default=False)
]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="Rule option key=value, repeatable (e.g. sharp=on).", show_default=False
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
LangOption = Annotated[str, typer.Option("--lang", help="Language of the box labels: en or de.")]
DiceWordsArgument = Annotated[
    list[str] | None,
    typer.Argument(metavar="[DICE]...", help="The dice, if not given with --dice.", show_default=False),
]
DiceOption = Annotated[
    list[str] | None,
    typer.Option(
        "--dice",
        "-d",
        help="The dice: --dice 3 3 3 3 3, --dice 33333 or --dice 3,3,3,3,3.",
        show_default=False,
    ),
]
SheetOption = Annotated[
    str, typer.Option("--sheet", "-s", help="Filled boxes: box=points,... ('-' for struck).")
]


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise CliError(f"--lang is one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


@app.command("rules")
@reports_errors
def rules_command(
    rules_id: Annotated[
        str | None,
        typer.Argument(
            metavar="[ID]", help="A rule set to show in full (all are listed without).", show_default=False
        ),
    ] = None,
    option: OptionsOption = None,
    json_output: JsonOption = False,
) -> None:
    """The built-in rule sets and their options; with an ID, that rule set in full: its sheet, how every
    box scores, bonuses, what a further five of a kind does, free throws and options."""
    if rules_id is None:
        if option:
            raise CliError("--option needs a rule set: kniffel rules ID --option key=value")
        if json_output:
            print(json.dumps(rules_json(), indent=1, ensure_ascii=False))
            return
        console = Console(highlight=False)
        for table in rules_tables():
            console.print(table)
        return
    rules = get_rules(rules_id, parse_options(option or []))
    if json_output:
        print(json.dumps(rule_set_json(rules), indent=1, ensure_ascii=False))
        return
    console = Console(highlight=False)
    for part in rule_set_view(rules):
        console.print(part)


@app.command("score")
@reports_errors
def score_command(
    dice_words: DiceWordsArgument = None,
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    sheet: SheetOption = "",
    dice: DiceOption = None,
    thrown_at_once: Annotated[
        bool, typer.Option("--thrown-at-once", help="All dice came in one throw (the sharp option doubles).")
    ] = False,
    announced: Annotated[
        str | None, typer.Option("--announced", help="The box announced this turn.", show_default=False)
    ] = None,
    lang: LangOption = "en",
    json_output: JsonOption = False,
) -> None:
    """Every box these dice may be scored in now, on this sheet, and what each pays.

    Boxes the rules forbid for this roll (the forced joker) are left out; "bonus" is what the roll
    earns on top in each box (an extra Kniffel).
    """
    language = _language(lang)
    rules = get_rules(rules_id or DEFAULT_RULES, parse_options(option or []))
    filled = ScoreSheet.parse(rules, sheet)
    # Click reads "--dice 3 3 3" as one value for --dice and the rest as arguments: both are dice.
    roll = parse_dice([*(dice or []), *(dice_words or [])], rules.dice)
    if filled.is_full:
        raise CliError("the sheet is full: no box is left to score in")
    announced_key = None
    if announced is not None:
        announced_key = resolve_box(rules, announced)
        column, _ = rules.locate(announced_key)
        if column.order is not Order.ANNOUNCED:
            raise CliError(f"{announced_key} is not in an announced column")
        if announced_key in filled.entries:
            raise CliError(f"{announced_key} is already filled")
    options = placements(rules, filled.entries, roll, thrown_at_once=thrown_at_once, announced=announced_key)
    if json_output:
        # Each placement's own bonus: on a multi-column sheet one column's five-of-a-kind box may hold
        # points and another's not.
        scores = {k: p.points for k, p in options.items()}
        print(json.dumps({"scores": scores, "bonus": {k: p.bonus for k, p in options.items()}}))
        return
    console = Console(highlight=False)
    console.print(f"{rules.name}, dice {' '.join(map(str, roll))}")
    if options:
        console.print(placements_table(rules, options, language))
    else:
        console.print("No box takes these dice now.")
    bonuses = {p.bonus for p in options.values()}
    if len(bonuses) == 1 and (bonus := bonuses.pop()):
        console.print(f"Extra bonus for this roll: {bonus}")


@app.command("play")
@reports_errors
def play_command(
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            help="A player, in turn order: a name for a human, 'bot' (bot:heuristic) or 'bot:optimal' "
            "for a bot. Repeat for each player (1 to 8).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for reproducible dice (and bots).", show_default=False)
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON on stdout (the game itself on stderr).")
    ] = False,
    load: Annotated[
        Path | None,
        typer.Option(
            "--load",
            help="Resume a saved game (and keep saving to it unless --save names another file).",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Save the game to this file after every move.", show_default=False),
    ] = None,
    lang: LangOption = "en",
    pad: Annotated[
        bool, typer.Option("--pad", help="Score pad: roll real dice and type what they show.")
    ] = False,
) -> None:
    """Play a game in the terminal: humans and bots, 1 to 8 players. Type help during the game."""
    settings = Settings(lang=_language(lang), pad=pad, json=json_output, save=save, seed=seed)
    console = make_console(settings)
    if load is not None:
        if rules_id or option or player:
            raise CliError(
                "--load takes the rules and players from the saved game; leave out --rules/--option/--player"
            )
        settings.save = settings.save or load
        session = Session.load(load, settings, console)
    else:
        rules = get_rules(rules_id or DEFAULT_RULES, parse_options(option or []))
        session = Session.new(rules, player or [], settings, console)
    status = session.run()
    if status:
        raise typer.Exit(status)


ColumnOption = Annotated[
    str | None,
    typer.Option(
        "--column",
        help="Multi-column rule sets: the column to solve (id, e.g. 1); needed when the columns differ.",
        show_default=False,
    ),
]


@app.command("solve")
@reports_errors
def solve_command(
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    column: ColumnOption = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Solve afresh; neither read nor write the table cache.")
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """The expected score of optimal play, solved exactly (one column of a multi-column sheet).

    Tables are cached on disk ($KNIFFEL_CACHE_DIR or the user cache directory); "seconds" is the time
    of the dynamic programme alone, and for a cached table the time it took when it was built.
    """
    rules = get_rules(rules_id or DEFAULT_RULES, parse_options(option or []))
    alone = solving.column_rules(rules, column)
    solved = solving.solve(alone, use_cache=not no_cache, show_progress=not json_output)
    if json_output:
        print(json.dumps(solving.solve_json(rules, alone, solved)))
        return
    what = rules.id + "".join(f" {k}={v}" for k, v in sorted(rules.options.items()))
    if rules.multi_column:
        what += f", one {alone.columns[0].order.value} column"
    how = "cached table" if solved.cached else "solved"
    console = Console(highlight=False)
    console.print(f"{what}: expected score {solved.expected_score:.4f} ({how}, DP {solved.seconds:.2f} s)")


@app.command("advise")
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
            "--rolls-left", "-n", help="Regular throws still allowed this turn (0 to 2).", show_default=False
        ),
    ] = None,
    thrown_at_once: Annotated[
        bool | None,
        typer.Option(
            "--thrown-at-once/--not-thrown-at-once",
            help="Whether the last throw was of all dice (sharp); default: only on a turn's first throw.",
            show_default=False,
        ),
    ] = None,
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
        typer.Option(
            "--batch",
            help="Read one situation per line as JSON ('-' for stdin) and print one JSON line each.",
            show_default=False,
            dir_okay=False,
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
    json_output: JsonOption = False,
) -> None:
    """Every option in a situation with its value, best first.

    A value is the expected number of points still to come (this turn's included, the sheet's points
    excluded) when playing optimally from there. "roll keep D D" holds those dice and throws the others;
    "roll" throws all of them again ("free ..." for a free throw).
    """
    from kniffel.solver import Advisor, table

    if situation_text is not None:
        given = {
            "--rules": rules_id is not None,
            "--option": bool(option),
            "--column": column is not None,
            "--sheet": bool(sheet),
            "--dice": bool(dice or dice_words),
            "--rolls-left": rolls_left is not None,
            "--thrown-at-once": thrown_at_once is not None,
            "--free-throws-left": free_throws_left is not None,
            "--free-throws-used": bool(free_throws_used),
            "--batch": batch is not None,
        }
        if any(given.values()):
            clash = "/".join(name for name, present in given.items() if present)
            raise CliError(
                f"--situation gives the rules, sheet, dice and rolls left itself; leave out {clash}"
            )
        _advise_situation(Situation.parse(situation_text), json_output)
        return
    rules = get_rules(rules_id or DEFAULT_RULES, parse_options(option or []))
    alone = solving.column_rules(rules, column)
    if batch is not None:
        if sheet or dice or dice_words or rolls_left is not None:
            raise CliError(
                "--batch reads the situations from the file; leave out --sheet/--dice/--rolls-left"
            )
        stream = solving.open_batch(batch)
        advisor = Advisor(table(alone))
        errors = solving.run_batch(advisor, alone, stream, sys.stdout)
        if errors:
            raise typer.Exit(2)
        return
    if rolls_left is None:
        raise CliError("--rolls-left is needed (0 to 2: regular throws still allowed this turn)")
    situation = solving.ColumnSituation(
        dict(ScoreSheet.parse(alone, sheet).entries),
        parse_dice([*(dice or []), *(dice_words or [])], alone.dice),
        rolls_left,
        thrown_at_once,
        free_throws_left,
        free_throws_used,
    )
    solving.check_situation(alone, situation)
    with solving.solve_progress(not json_output, f"Solving {alone.id} (once, then cached)") as progress:
        advisor = Advisor(table(alone, progress=progress))
    options = solving.advise(advisor, alone, situation)
    if json_output:
        print(json.dumps({"options": options}))
        return
    Console(highlight=False).print(solving.options_table(options))


def _advise_situation(situation: Situation, json_output: bool) -> None:
    with solving.solve_progress(
        not json_output, f"Solving the tables of {situation.rules.id} (once, then cached)"
    ):
        options, exact = solving.advise_situation(situation)
    if json_output:
        print(json.dumps({"situation": str(situation), "exact": exact, "options": options}))
        return
    console = Console(highlight=False)
    console.print(f"Situation: {situation}", markup=False)
    console.print(solving.options_table(options))
    if not exact:
        console.print(reviewing.ESTIMATE_NOTE)


@app.command("review")
@reports_errors
def review_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A saved game (kniffel play --save FILE).")],
    everything: Annotated[
        bool, typer.Option("--all", help="List every decision, not only those that cost points.")
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Every decision of a saved game next to the best one, what it cost, and a grade per player.

    Loss is in expected points; accuracy is 100 * exp(-loss / (5 * turns)): 100 for optimal play, 82
    when a player gives away 1 point a turn on average. Exact for the rule sets the solver covers;
    for the others the values are the optimal bot's estimates (the output says so).
    """
    from kniffel.game import Game
    from kniffel.review import review

    game = Game.loads(path.read_text(encoding="utf-8"))
    result = review(game)
    if json_output:
        print(json.dumps(result.to_json()))
        return
    console = Console(highlight=False)
    console.print(reviewing.summary_table(result))
    console.print(reviewing.decisions_table(result, everything=everything))
    if not result.exact:
        console.print(reviewing.ESTIMATE_NOTE)


@app.command("simulate")
@reports_errors
def simulate_command(
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            help="bot:optimal (the solver's policy, compiled for single-column rule sets and Knoeffel), "
            "bot (the heuristic) or bot:NAME.",
        ),
    ] = "bot:optimal",
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games to play.", min=1)] = 10000,
    seed: Annotated[int, typer.Option("--seed", help="Seed; the same seed gives the same result.")] = 0,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            help="Draw a histogram of the final scores to this file (.png, .svg).",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
    json_output: JsonOption = False,
    cluster: ClusterOption = None,
) -> None:
    """Play many games with one strategy and report the distribution of final scores."""
    from kniffel.simulate import plot_histogram, simulate

    rules = get_rules(rules_id or DEFAULT_RULES, parse_options(option or []))
    with Tally(not json_output, f"Playing {rules.id}", games).running(cluster) as progress:
        if cluster is None:
            result = simulate(rules, strategy=strategy, games=games, seed=seed, progress=progress)
        else:
            from kniffel import cluster as ray_cluster

            result = ray_cluster.simulate(
                rules, strategy=strategy, games=games, seed=seed, address=cluster, progress=progress
            )
    if plot is not None:
        try:
            plot_histogram(result, plot)
        except RuntimeError as error:  # matplotlib is missing
            raise CliError(str(error)) from None
    if json_output:
        print(json.dumps(result.to_json()))
        return
    console = Console(highlight=False)
    console.print(
        f"{rules.id} ({strategy}): {result.games} games, mean {result.mean:.2f} "
        f"(± {result.stderr:.2f}), sd {result.std:.2f}, min {result.min}, max {result.max}, "
        f"{result.games_per_second:,.0f} games/s"
    )
    if plot is not None:
        console.print(f"Histogram written to {plot}")


@app.command("tournament")
@reports_errors
def tournament_command(
    player: Annotated[
        list[str],
        typer.Option(
            "--player", "-p", help="A bot (bot, bot:optimal, bot:NAME); repeat for each player, at least two."
        ),
    ],
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per pairing, each played twice, seats swapped.", min=1)
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed; the same seed gives the same result.")] = 0,
    table: Annotated[
        bool, typer.Option("--table", help="All players at one table, the seats rotated, not in pairs.")
    ] = False,
    csv_path: Annotated[
        Path | None,
        typer.Option("--csv", help="Write the results to this CSV file.", show_default=False, dir_okay=False),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot", help="Draw win rates and ratings to this file (.png, .svg).", show_default=False
        ),
    ] = None,
    json_output: JsonOption = False,
    cluster: ClusterOption = None,
) -> None:
    """Bots against bots on the same dice: win rates with 95 % intervals, mean scores and a rating each."""
    from kniffel.cli import tournament

    rules = get_rules(rules_id or DEFAULT_RULES, parse_options(option or []))
    tournament.run(
        rules,
        player,
        games=games,
        seed=seed,
        table=table,
        cluster=cluster,
        json_output=json_output,
        csv_path=csv_path,
        plot_path=plot,
    )


@app.command("serve")
@reports_errors
def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.", min=1, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            envvar="KNIFFEL_DATABASE_URL",
            help="SQLAlchemy URL (default: SQLite in the per-user data directory).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play in the browser: online tables with invite links, bots, hot seat and score pad."""
    try:
        from kniffel.web import serve
    except ImportError as error:  # the web extra is not installed
        raise CliError(f"the web app needs the web extra: pip install 'kniffel[web]' ({error})") from None
    serve(host, port, database_url)


def main() -> None:
    """Entry point of the ``kniffel`` console script."""
    app(prog_name="kniffel")
