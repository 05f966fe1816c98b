"""The ``kniffel`` command line: ``rules``, ``score``, ``play``, ``solve``, ``review``, ``tournament`` and
``serve`` here; ``advise`` (:mod:`~kniffel.apps.cli.advising`), ``simulate``
(:mod:`~kniffel.apps.cli.simulating`), ``train`` (:mod:`~kniffel.apps.cli.training`), ``stats`` and ``cache``
in modules of their own, added in the order the help lists them.

Each command is a thin layer over the library: it reads its arguments, asks :mod:`kniffel.rules` or
:class:`kniffel.Game`, and prints a Rich table or JSON. Errors are turned into one line on stderr
and exit status 2 by :func:`kniffel.apps.cli.language.reports_errors` (``app`` is a
:class:`~kniffel.apps.cli.language.Commands`).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kniffel.apps.cli import advising, caching, language, simulating, stats, training
from kniffel.apps.cli.cluster import ClusterOption
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.language import Commands, LangOption
from kniffel.apps.cli.options import (
    ColumnOption,
    DiceOption,
    DiceWordsArgument,
    JsonOption,
    OptionsOption,
    PlainOption,
    RulesOption,
    SeedOption,
    SheetOption,
    chosen_rules,
    file_option,
)
from kniffel.base.i18n import number, translate

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
"""What ``kniffel serve --log-level`` takes (uvicorn's levels)."""

app = Commands(
    name="kniffel",
    help=(
        "Kniffel, Yahtzee, Yatzy and friends: play in the terminal (kniffel play) or in the browser "
        "(kniffel serve), get advice for any roll (kniffel advise), review a game, see your record "
        "(kniffel stats), look up rule sets and scores."
    ),
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(caching.cache_app)


def _version(show: bool) -> None:
    if show:
        from kniffel import __version__

        print(f"kniffel {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", help="Show the version and exit.", callback=_version, is_eager=True),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Kniffel, Yahtzee, Yatzy and friends: play in the terminal (kniffel play) or in the browser
    (kniffel serve), get advice for any roll (kniffel advise), review a game, see your record (kniffel
    stats), look up rule sets and scores."""
    language.set_default(None)  # nothing of an earlier run in the same process stays
    language.set_default(None if lang is None else language.choose(lang))


@app.command("rules")
def rules_command(
    rules_id: Annotated[
        str | None,
        typer.Argument(
            metavar="[ID]", help="A rule set to show in full (all are listed without).", show_default=False
        ),
    ] = None,
    option: OptionsOption = None,
    json_output: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """The built-in rule sets and their options; with an ID, that rule set in full: its sheet, how every
    box scores, bonuses, what a further five of a kind does, free throws and options."""
    from kniffel.apps.cli.render import rule_set_json, rule_set_view, rules_json, rules_tables
    from kniffel.rules import get as get_rules
    from kniffel.rules import parse_options

    words = language.choose(lang)
    if rules_id is None:
        if option:
            raise CliError("--option needs a rule set: kniffel rules ID --option key=value")
        if json_output:
            print(json.dumps(rules_json(), indent=1, ensure_ascii=False))
            return
        console = Console(highlight=False)
        for table in rules_tables(words):
            console.print(table)
        return
    rules = get_rules(rules_id, parse_options(option or []))
    if json_output:
        print(json.dumps(rule_set_json(rules), indent=1, ensure_ascii=False))
        return
    console = Console(highlight=False)
    for part in rule_set_view(rules, words):
        console.print(part)


@app.command("score")
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
        str | None,
        typer.Option("--announced", metavar="BOX", help="The box announced this turn.", show_default=False),
    ] = None,
    lang: LangOption = None,
    json_output: JsonOption = False,
) -> None:
    """Every box these dice may be scored in now, on this sheet, and what each pays.

    Boxes the rules forbid for this roll (the forced joker) are left out; "bonus" is what the roll
    earns on top in each box (an extra Kniffel).
    """
    from kniffel.apps.cli.parsing import given_dice, parse_sheet
    from kniffel.apps.cli.render import placements_table
    from kniffel.rules import Order, find_box, placements

    words = language.choose(lang)
    rules = chosen_rules(rules_id, option)
    filled = parse_sheet(rules, sheet)
    roll = given_dice(dice, dice_words, rules.dice)
    if filled.is_full:
        raise CliError("the sheet is full: no box is left to score in")
    announced_key = None
    if announced is not None:
        announced_key = find_box(rules, announced)
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
    console.print(translate(words, "{rules}, dice {dice}", rules=rules.name, dice=" ".join(map(str, roll))))
    if options:
        console.print(placements_table(rules, options, words))
    else:
        console.print(translate(words, "No box takes these dice now."))
    bonuses = {p.bonus for p in options.values()}
    if len(bonuses) == 1 and (bonus := bonuses.pop()):
        console.print(translate(words, "Extra bonus for this roll: {points}", points=bonus))


@app.command("play")
def play_command(
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            metavar="PLAYER",
            help="A player, in turn order: a name for a human, or a bot: 'bot' (a quick heuristic), "
            "'bot:optimal' (the most points), 'bot:win' (the best chance of winning), 'bot:target:T' "
            "(the best chance of T points) or a level from 'bot:1' (a newcomer) to 'bot:8'; NAME=BOT names "
            "a bot (Zoe=bot:win). Repeat for each player "
            "(1 to 8).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for reproducible dice (and bots).", show_default=False)
    ] = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the result as JSON on stdout; a game with a human is shown on stderr, "
            "a game of bots only is not shown.",
        ),
    ] = False,
    load: Annotated[
        Path | None,
        file_option(
            "--load", help="Resume a saved game (and keep saving to it unless --save names another file)."
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Save the game to this file after every move.", show_default=False),
    ] = None,
    lang: LangOption = None,
    pad: Annotated[
        bool, typer.Option("--pad", help="Score pad: roll real dice and type what they show.")
    ] = False,
    plain: PlainOption = False,
    bot_delay: Annotated[
        float,
        typer.Option("--bot-delay", min=0, help="Seconds between a bot's moves in the full-screen game."),
    ] = 0.7,
) -> None:
    """Play a game in the terminal: humans and bots, 1 to 8 players. The full-screen game shows its keys
    at the bottom (? explains them); the line game (--plain) lists its commands when you type help."""
    from kniffel.apps.cli.play import Session, Settings, make_console
    from kniffel.base.files import check_writable
    from kniffel.services.session import Session as GameSession

    settings = Settings(
        lang=language.choose(lang), lang_given=lang, pad=pad, json=json_output, save=save, seed=seed
    )
    if save is not None:
        check_writable(save)
    fullscreen = not (plain or json_output) and sys.stdin.isatty() and sys.stdout.isatty()
    console = make_console(settings)
    session_type: type[GameSession] = GameSession if fullscreen else Session
    fields = () if fullscreen else (console,)
    if load is not None:
        if rules_id or option or player:
            raise CliError(
                "--load takes the rules and players from the saved game; leave out --rules/--option/--player"
            )
        settings.save = settings.save or load
        game = session_type.load(load, settings, *fields)
    else:
        rules = chosen_rules(rules_id, option)
        game = session_type.new(rules, player or [], settings, *fields)
    if isinstance(game, Session):
        status = game.run()
    else:
        from kniffel.apps import tui
        from kniffel.core import start_warm_up

        start_warm_up()  # hints for a target or a win come sooner once the game has played a while
        status = tui.play(game, bot_delay=bot_delay)
    from kniffel.planning import worker

    if worker.busy():  # a table still being solved, a hint still thought about: not waited for
        worker.exit_now(status)
    if status:
        raise typer.Exit(status)


@app.command("solve")
def solve_command(
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    column: ColumnOption = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Solve afresh; neither read nor write the table cache.")
    ] = False,
    json_output: JsonOption = False,
    lang: LangOption = None,
    distribution: Annotated[
        bool,
        typer.Option(
            "--distribution",
            help="Also the exact distribution of the final score: percentiles and the chance of reaching "
            "each score (a table of every state, built once, then cached).",
        ),
    ] = False,
    plot: Annotated[
        Path | None,
        file_option(
            "--plot",
            metavar="FILE",
            help="Draw the distribution to FILE (.png, .svg, .pdf; implies --distribution).",
        ),
    ] = None,
) -> None:
    """The expected score of optimal play, solved exactly (one column of a multi-column sheet).

    Tables are cached on disk ($KNIFFEL_CACHE_DIR or the user cache directory); "seconds" is the time
    of the dynamic programme alone, and for a cached table the time it took when it was built.
    """
    from kniffel.apps.cli import solving

    words = language.choose(lang)
    rules = chosen_rules(rules_id, option)
    alone = solving.column_rules(rules, column)
    if distribution or plot is not None:
        from kniffel.apps.cli import distribution as distribution_cli

        distribution_cli.run(
            rules, alone, use_cache=not no_cache, json_output=json_output, plot_path=plot, lang=words
        )
        return
    solved = solving.solve(alone, use_cache=not no_cache, show_progress=not json_output, lang=words)
    if json_output:
        print(json.dumps(solving.solve_json(rules, alone, solved)))
        return
    what = solving.solved_what(rules, alone, words)
    how = translate(words, "cached table" if solved.cached else "solved")
    console = Console(highlight=False)
    console.print(
        translate(
            words,
            "{what}: expected score {score} ({how}, DP {seconds}\N{NO-BREAK SPACE}s)",
            what=what,
            score=number(words, solved.expected_score, 4),
            how=how,
            seconds=number(words, solved.seconds, 2),
        )
    )


app.registered_commands += advising.commands.registered_commands


@app.command("review")
def review_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A saved game (kniffel play --save FILE).")],
    everything: Annotated[
        bool, typer.Option("--all", help="List every decision, not only those that cost points.")
    ] = False,
    by_win: Annotated[
        bool,
        typer.Option(
            "--by-win",
            help="Grade the people by the chance of winning rather than points, and show every player's "
            "chance after each turn (several players, rules the exact solver covers).",
        ),
    ] = False,
    json_output: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """Every decision of a saved game next to the best one for its player's goal, what it cost, and a
    grade per player.

    Each player is graded by its own goal: a bot by what it plays for (points, a target, winning), a
    person by points (by the chance of winning with --by-win). Loss is in expected points or in chance;
    accuracy is 100 * exp(-loss / (5 * turns)): 100 for optimal play, 82 when a player gives away 1
    point a turn on average. Exact for the rule sets the solver covers; for the others the values are
    the optimal bot's estimates (the output says so).
    """
    from kniffel.apps.cli import reviewing

    reviewing.print_review(
        path, everything=everything, by_win=by_win, json_output=json_output, lang=language.choose(lang)
    )


app.registered_commands += simulating.commands.registered_commands


@app.command("tournament")
def tournament_command(
    player: Annotated[
        list[str],
        typer.Option(
            "--player",
            "-p",
            metavar="BOT",
            help="A bot (bot, bot:optimal, bot:win, bot:target:T, bot:1 to bot:8); repeat for each player, "
            "at least two.",
        ),
    ],
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per pairing, each played twice, seats swapped.")
    ] = 100,
    seed: SeedOption = 0,
    table: Annotated[
        bool, typer.Option("--table", help="All players at one table, the seats rotated, not in pairs.")
    ] = False,
    csv_path: Annotated[
        Path | None,
        file_option("--csv", help="Write the results to this CSV file."),
    ] = None,
    plot: Annotated[
        Path | None,
        file_option("--plot", help="Draw win rates and ratings to this file (.png, .svg)."),
    ] = None,
    json_output: JsonOption = False,
    lang: LangOption = None,
    cluster: ClusterOption = None,
) -> None:
    """Bots against bots on the same dice: win rates with intervals of 95 %, mean scores and a rating each."""
    from kniffel.apps.cli import tournament

    words = language.choose(lang)
    rules = chosen_rules(rules_id, option)
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
        lang=words,
    )


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on (1 to 65535).")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            envvar="KNIFFEL_DATABASE_URL",
            help="SQLAlchemy URL (default: SQLite in the per-user data directory).",
            show_default=False,
        ),
    ] = None,
    trusted_proxies: Annotated[
        str | None,
        typer.Option(
            "--trusted-proxies",
            envvar="KNIFFEL_TRUSTED_PROXIES",
            help="Addresses or networks of reverse proxies whose X-Forwarded-For names the client, "
            "comma-separated (default: none; see docs/how-to/deploy.md).",
            show_default=False,
        ),
    ] = None,
    allowed_hosts: Annotated[
        str | None,
        typer.Option(
            "--allowed-hosts",
            envvar="KNIFFEL_ALLOWED_HOSTS",
            help="Names the site answers to, comma-separated, e.g. kniffel.example.org "
            "(default: localhost and any IP address of this machine).",
            show_default=False,
        ),
    ] = None,
    cache_budget: Annotated[
        str | None,
        typer.Option(
            "--cache-budget",
            envvar="KNIFFEL_CACHE_BUDGET",
            help="Disk the solved tables may take, e.g. 500MB or 2GB (default: 1GB); the least recently "
            "used are removed first.",
            show_default=False,
        ),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option(
            "--bot-delay",
            envvar="KNIFFEL_BOT_DELAY",
            metavar="SECONDS",
            help="Seconds a bot waits before each action, so that people can follow (default: 0.6).",
            show_default=False,
        ),
    ] = None,
    log_level: Annotated[
        str, typer.Option("--log-level", help="critical, error, warning, info or debug.")
    ] = "info",
    lang: LangOption = None,
) -> None:
    """Play in the browser: online tables with invite links, bots, hot seat and score pad."""
    if not 1 <= port <= 65535:
        raise CliError(f"--port is a port number, 1 to 65535, got {port}")
    if bot_delay is not None and not 0 <= bot_delay <= 60:
        raise CliError(f"--bot-delay is 0 to 60 seconds, got {bot_delay}")
    if log_level not in LOG_LEVELS:
        raise CliError(f"--log-level is critical, error, warning, info or debug, got {log_level}")
    if cache_budget is not None:
        from kniffel.core import CACHE_BUDGET_ENV, parse_size

        try:
            os.environ[CACHE_BUDGET_ENV] = str(parse_size(cache_budget))
        except ValueError as error:
            raise CliError(f"--cache-budget: {error}") from None
    try:
        from kniffel.apps.web import serve
    except ImportError as error:  # the web extra is not installed
        raise CliError(f"the web app needs the web extra: pip install 'kniffel[web]' ({error})") from None
    from kniffel.apps.web import check_database

    check_database(database_url)
    from kniffel.core import start_warm_up

    start_warm_up()  # the first chances of winning and target hints then need nothing compiled
    serve(
        host,
        port,
        database_url,
        bot_delay=bot_delay,
        log_level=log_level,
        trusted_proxies=trusted_proxies,
        allowed_hosts=allowed_hosts,
    )


app.registered_commands += training.commands.registered_commands
app.registered_commands += stats.commands.registered_commands  # kniffel stats, after the others
