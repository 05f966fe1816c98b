"""``kniffel simulate``: many games by one strategy, their score distribution, a histogram and a CSV.

Every file the command will write is checked before the games are played (a simulation can take
minutes, and its result should not be lost to a typo in a file name). Ctrl-C on this machine keeps the
games played (whole blocks of games): their statistics and files are reported as usual, said to be
partial, after the line that the run was interrupted, and the command still ends with the status of an
interrupted program.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from kniffel.apps.cli import language
from kniffel.apps.cli.cluster import ClusterOption, Tally
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.language import Commands, LangOption
from kniffel.apps.cli.options import (
    JsonOption,
    OptionsOption,
    RulesOption,
    SeedOption,
    chosen_rules,
    file_option,
)
from kniffel.base.errors import plotting_unavailable
from kniffel.base.i18n import N_, ngettext, number, percent, translate

if TYPE_CHECKING:  # the simulator is imported when games are played: kniffel --help imports no numba
    from kniffel.rules import RuleSet
    from kniffel.services.simulate import SimulationResult

commands = Commands()
"""The command, added to ``kniffel``'s own (:mod:`kniffel.apps.cli.app`)."""

PLOT_FORMATS = ("png", "svg", "pdf")
"""Histogram formats that matplotlib's Agg canvas writes without further libraries."""
PARTIAL = N_("Partial result: played {games} of {total} before the run was interrupted.")
"""Said above the result of a run that Ctrl-C stopped (``kniffel simulate`` and ``kniffel tournament``)."""
GAMES_AT_MOST = 10_000_000
"""What ``--games`` takes at most, as its help says: the simulator's own limit
(:data:`kniffel.services.simulate.MAX_GAMES`, which a test holds equal), written here so that the help
is shown without importing the simulator."""

__all__ = [
    "PARTIAL",
    "PLOT_FORMATS",
    "check_plot",
    "commands",
    "percentiles_table",
    "simulate_command",
    "write_scores",
]


def check_plot(path: Path) -> None:
    """Refuse a histogram that could not be drawn: no matplotlib, an unknown format, an unwritable file."""
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        raise CliError(
            f"--plot {path}: the file name ends in one of {', '.join('.' + f for f in PLOT_FORMATS)}"
        )
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise plotting_unavailable() from None
    from kniffel.base.files import check_writable

    check_writable(path)


def write_scores(result: SimulationResult, path: Path) -> None:
    """Every game's final score, one row a game: ``game,score`` (games numbered from 1)."""
    import csv

    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["game", "score"])
        writer.writerows(enumerate(result.scores.tolist(), 1))


def percentiles_table(result: SimulationResult, lang: str = "en") -> Table:
    """The spread of the final scores: the extremes and the percentiles, in one row."""
    # Eleven columns of up to five characters (176.5) fit 80 columns with one space between them; a
    # figure is never cut short ("259…"): its column is as wide as it is.
    table = Table(
        title=translate(lang, "Final scores: percentiles"),
        header_style="bold",
        collapse_padding=True,
        pad_edge=False,
    )
    cells = [(translate(lang, N_("min")), number(lang, result.min, 0))]
    for p, v in result.percentiles.items():
        cells.append((percent(lang, p / 100, 0), number(lang, v, 0 if float(v).is_integer() else 1)))
    cells.append((translate(lang, N_("max")), number(lang, result.max, 0)))
    for name, value in cells:
        table.add_column(name, justify="right", no_wrap=True, min_width=max(len(name), len(value)))
    table.add_row(*(value for _, value in cells))
    return table


@commands.command("simulate")
def simulate_command(
    rules_id: RulesOption = None,
    option: OptionsOption = None,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            metavar="BOT",
            help="bot:optimal (the solver's policy), bot (the heuristic), bot:win (alone it plays for "
            "points), bot:target:T (for a final score of at least T) or bot:NAME; bot:optimal, bot:win and "
            "bot:target:T play in compiled code where the solver covers the rules, and so does bot on "
            "sheets without free throws.",
        ),
    ] = "bot:optimal",
    games: Annotated[
        int,
        typer.Option("--games", "-n", help=f"Number of games to play (1 to {GAMES_AT_MOST:,})."),
    ] = 10000,
    seed: SeedOption = 0,
    plot: Annotated[
        Path | None,
        file_option(
            "--plot",
            help="Draw a histogram of the final scores to this file (.png, .svg, .pdf).",
            metavar="FILE",
        ),
    ] = None,
    scores: Annotated[
        Path | None,
        file_option(
            "--scores",
            help="Write every game's final score to this CSV file (game, score).",
            metavar="FILE.csv",
        ),
    ] = None,
    json_output: JsonOption = False,
    lang: LangOption = None,
    cluster: ClusterOption = None,
) -> None:
    """Play many games with one strategy and report the distribution of final scores."""
    from kniffel.base.files import check_writable
    from kniffel.services.plans import target_aim
    from kniffel.services.simulate import MAX_GAMES, check_request, simulate

    words = language.choose(lang)
    rules = chosen_rules(rules_id, option)
    if games < 1:
        raise CliError(f"--games is at least 1, got {games:,}")
    if games > MAX_GAMES:
        raise CliError(f"--games is at most {MAX_GAMES:,}, got {games:,}")
    if plot is not None:
        check_plot(plot)
    if scores is not None:
        check_writable(scores)
    check_request(strategy, games, seed)  # a bad strategy is named as simulate names it, before any solve
    aim = target_aim(rules, strategy)
    if aim is not None and cluster is None:
        # a player for a score plays from the chances of the empty sheet's cone: solved first, in view
        from kniffel.apps.cli import goals, solving
        from kniffel.core import game_rows, table

        note = partial(goals.cone_note, rules, aim, None, words)
        waiting = goals.cone_waiting(words) if not json_output else None
        with solving.solve_progress(
            not json_output, note, unit=N_("states"), lang=words, waiting=waiting
        ) as progress:
            game_rows(table(rules).compiled, aim, progress)
    label = translate(words, "Playing {rules}", rules=rules.id)
    tally = Tally(not json_output, label, games, words)

    def on_cluster(address: str) -> SimulationResult:
        from kniffel.services import cluster as ray_cluster

        on = ray_cluster.Cluster(address)
        return ray_cluster.simulate(rules, strategy=strategy, games=games, seed=seed, on=on, progress=tally)

    tally.play(
        cluster,
        lambda: simulate(rules, strategy=strategy, games=games, seed=seed, progress=tally),
        on_cluster,
        lambda result: report(result, rules, plot=plot, scores=scores, json_output=json_output, lang=words),
    )


def report(
    result: SimulationResult,
    rules: RuleSet,
    *,
    plot: Path | None,
    scores: Path | None,
    json_output: bool,
    lang: str,
) -> None:
    """The statistics as JSON or text (a partial result said to be), and the files asked for."""
    from kniffel.services.simulate import plot_histogram

    if plot is not None:
        plot_histogram(result, plot)
    if scores is not None:
        write_scores(result, scores)
    if json_output:
        print(json.dumps(result.to_json()))
        return
    console = Console(highlight=False)
    if result.partial:
        games, total = number(lang, result.games, 0), number(lang, result.games_asked or 0, 0)
        console.print(translate(lang, PARTIAL, games=games, total=total), style="bold")
    console.print(
        ngettext(
            "{rules} ({strategy}): {games} game, mean {mean} (± {stderr}), sd {std}, {speed} games/s",
            "{rules} ({strategy}): {games} games, mean {mean} (± {stderr}), sd {std}, {speed} games/s",
            result.games,
            lang,
            rules=rules.id,
            strategy=result.strategy,
            games=number(lang, result.games, 0),
            mean=number(lang, result.mean, 2),
            stderr=number(lang, result.stderr, 2),
            std=number(lang, result.std, 2),
            speed=number(lang, result.games_per_second, 0),
        )
    )
    console.print(percentiles_table(result, lang))
    if plot is not None:
        console.print(translate(lang, "Histogram written to {path}", path=plot))
    if scores is not None:
        console.print(translate(lang, "Scores written to {path}", path=scores))
