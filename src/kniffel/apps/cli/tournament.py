"""``kniffel tournament``: bots against bots, as tables of win rates, scores and ratings.

The games are those of :func:`kniffel.services.tournament.tournament` (its description says how dice, ties,
intervals and ratings are worked out); ``--cluster`` plays them as Ray tasks (:mod:`kniffel.services.cluster`)
with the same result. Ctrl-C on this machine keeps the games played (whole blocks of deals): their
results are reported as usual, said to be partial (text, JSON, CSV and plot alike), after the line that
the run was interrupted, and the command still ends with the status of an interrupted program.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from rich.console import Console
from rich.table import Table

from kniffel.apps.cli.cluster import Tally
from kniffel.apps.cli.simulating import PARTIAL, check_plot
from kniffel.base.files import check_writable
from kniffel.base.i18n import N_, number, percent, translate
from kniffel.core import Progress
from kniffel.planning.worker import Work
from kniffel.rules import RuleSet
from kniffel.services.standings import CSV_COLUMNS, Record, TournamentResult
from kniffel.services.tournament import Tournament

NOTE = (
    "W/T/L: games won, tied for first place, lost; points: the player's mean score less the opponent's. "
    "Each game is played once from every seat with the same dice (twice in a pairing, seats swapped). "
    "A shared first place counts as an equal share of a win (half a win each of two). Win rates with "
    "95 % Wilson intervals; ratings on the Elo scale (400 points = 10:1 odds), fitted by Bradley-Terry "
    "maximum likelihood, mean 1500, ± one standard error."
)


def run(
    rules: RuleSet,
    specs: Sequence[str],
    *,
    games: int,
    seed: int,
    table: bool,
    cluster: str | None,
    json_output: bool,
    csv_path: Path | None,
    plot_path: Path | None,
    lang: str = "en",
) -> None:
    request = Tournament(rules, specs, deals=games, seed=seed, table=table)
    # the files the results go to, before the games: a typo found after an hour of play loses the hour
    if csv_path is not None:
        check_writable(csv_path)
    if plot_path is not None:
        check_plot(plot_path)
    tally = Tally(not json_output, translate(lang, "Tournament {rules}", rules=rules.id), request.games, lang)

    def here() -> TournamentResult:
        from kniffel.services.tournament import Prepared, tournament

        prepared = Prepared(rules)
        # the tables of compiled play first, each named with what it costs, rather than under the games'
        # empty bar
        prepared.prepare(request.aims(), lambda work: solving_bar(work, json_output, lang))
        return tournament(request, progress=tally, prepared=prepared)

    def on_cluster(address: str) -> TournamentResult:
        from kniffel.services import cluster as ray_cluster

        return ray_cluster.tournament(request, on=ray_cluster.Cluster(address), progress=tally)

    tally.play(
        cluster,
        here,
        on_cluster,
        lambda result: report(
            result, json_output=json_output, csv_path=csv_path, plot_path=plot_path, lang=lang
        ),
    )


def solving_bar(work: Work, json_output: bool, lang: str) -> AbstractContextManager[Progress | None]:
    """A progress bar on stderr naming a table compiled play needs and, where known, its cost."""
    from kniffel.apps.cli import solving
    from kniffel.services.advice import about, megabytes

    label = translate(lang, work.template, **dict(work.fields))
    if work.seconds >= 1:
        cost = about(work.seconds)
        if work.bytes:
            cost = translate(lang, "{time}, {size}", time=cost, size=megabytes(work.bytes))
        label = translate(lang, "{what}: about {cost}", what=label, cost=cost)
    return solving.solve_progress(not json_output, label, N_("steps"), lang=lang)


def report(
    result: TournamentResult, *, json_output: bool, csv_path: Path | None, plot_path: Path | None, lang: str
) -> None:
    """The result as JSON or tables (a partial one said to be), and the files asked for."""
    if csv_path is not None:
        write_csv(result, csv_path)
    if plot_path is not None:
        from kniffel.services.standings import plot

        plot(result, plot_path)  # without matplotlib: a one-line error naming how to install it
    if json_output:
        print(json.dumps(result.to_json()))
        return
    console = Console(highlight=False)
    if result.partial:
        games, total = number(lang, result.games, 0), number(lang, result.games_asked, 0)
        console.print(translate(lang, PARTIAL, games=games, total=total), style="bold")
    console.print(standings_table(result, lang))
    console.print(pairings_table(result, lang))
    console.print(translate(lang, NOTE), style="dim")
    for path, written in (
        (csv_path, N_("Table written to {path}")),
        (plot_path, N_("Plot written to {path}")),
    ):
        if path is not None:
            console.print(translate(lang, written, path=path))


def write_csv(result: TournamentResult, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(result.csv_rows())


def _rate(record: Record, lang: str) -> tuple[str, str]:
    rate = record.win_rate
    return percent(lang, rate.value), f"{number(lang, 100 * rate.low)}-{percent(lang, rate.high)}"


def _signed(lang: str, value: float) -> str:
    return ("+" if value >= 0 else "-") + number(lang, abs(value), 2)


def standings_table(result: TournamentResult, lang: str = "en") -> Table:
    title = translate(
        lang,
        "{rules}: games {games} (one table, deals {deals}, seed {seed})"
        if result.table
        else "{rules}: games {games} (every pairing, deals {deals}, seed {seed})",
        rules=result.rules_id,
        games=number(lang, result.games, 0),
        deals=number(lang, result.deals, 0),
        seed=result.seed,
    )
    rows = [
        (
            record.player,
            f"{number(lang, record.rating or 0.0, 0)} ± {number(lang, record.rating_stderr or 0.0, 0)}",
            number(lang, record.games, 0),
            f"{record.wins}/{record.ties}/{record.losses}",
            *_rate(record, lang),
            number(lang, record.mean_score, 2),
        )
        for record in result.standings()
    ]
    headers = (N_("player"), N_("rating"), N_("games"), N_("W/T/L"), N_("win rate"), N_("95 %"), N_("mean"))
    return _fitting(Table(title=title), headers, rows, lang)


def _fitting(table: Table, headers: Sequence[str], rows: Sequence[Sequence[str]], lang: str) -> Table:
    """``table`` with its columns and rows, numbers never cut short in a narrow terminal: the names (the
    first columns, left-aligned) fold and the headers wrap instead."""
    table.collapse_padding = True
    table.pad_edge = False
    names = sum(1 for header in headers if header in ("player", "opponent"))
    for c, header in enumerate(headers):
        widest = max((len(row[c]) for row in rows), default=0)
        if c < names:
            table.add_column(translate(lang, header), overflow="fold", min_width=min(widest, 8))
        else:
            table.add_column(translate(lang, header), justify="right", min_width=widest)
    for row in rows:
        table.add_row(*row)
    return table


def pairings_table(result: TournamentResult, lang: str = "en") -> Table:
    rows = [
        (
            record.player,
            record.opponent or "",
            number(lang, record.games, 0),
            f"{record.wins}/{record.ties}/{record.losses}",
            *_rate(record, lang),
            _signed(lang, record.mean_score - (record.opponent_mean_score or 0)),
        )
        for record in result.pairings()
    ]
    headers = (
        N_("player"),
        N_("opponent"),
        N_("games"),
        N_("W/T/L"),
        N_("win rate"),
        N_("95 %"),
        N_("points"),
    )
    return _fitting(Table(title=translate(lang, "Pairings")), headers, rows, lang)
