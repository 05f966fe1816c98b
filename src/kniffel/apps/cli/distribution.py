"""``kniffel solve --distribution``: the exact distribution of the final score under optimal play.

The distribution of the start of a game comes from the solver's table of every state's distribution
(:mod:`kniffel.core.distribution`), built once per rule set and cached beside the solved values. The
command prints the mean, percentiles and the chance of reaching a range of scores; ``--json`` adds every
probability at full precision and ``--plot FILE`` draws the probabilities and the chance of reaching
each score.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from kniffel.apps.cli import simulating, solving
from kniffel.base.i18n import number, percent, translate
from kniffel.rules import RuleSet

if TYPE_CHECKING:
    from kniffel.core import ScoreDistribution

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
SMALLEST_SHOWN = 1e-4
"""Thresholds are listed while the chance of reaching them is at least this (a 1-in-10,000 game)."""


def thresholds(dist: ScoreDistribution) -> list[int]:
    """Round scores from about the 1st percentile up to where reaching them becomes rarer than
    :data:`SMALLEST_SHOWN`, about a dozen of them."""
    low = dist.percentile(1)
    high = low
    while high < dist.high and dist.at_least(high + 1) >= SMALLEST_SHOWN:
        high += 1
    raw = max(1.0, (high - low) / 12)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    first = math.ceil(low / step) * step
    return list(range(first, high + 1, step))


def distribution_json(dist: ScoreDistribution) -> dict[str, Any]:
    data = dist.to_json(PERCENTILES)
    data["at_least"] = {str(t): dist.at_least(t) for t in thresholds(dist)}
    return data


def percentiles_table(dist: ScoreDistribution, lang: str) -> Table:
    table = Table(title=translate(lang, "Final score under optimal play: percentiles"), header_style="bold")
    cells = [(percent(lang, q / 100, 0), str(dist.percentile(q))) for q in PERCENTILES]
    for name, _ in cells:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_row(*(value for _, value in cells))
    return table


def reach_table(dist: ScoreDistribution, lang: str) -> Table:
    table = Table(title=translate(lang, "Chance of reaching a score"), header_style="bold", min_width=40)
    table.add_column(translate(lang, "Score"), justify="right")
    table.add_column("P(≥)", justify="right")
    for t in thresholds(dist):
        p = dist.at_least(t)
        # Two significant digits for the rare scores (0.0023 %), hundredths of a percent for the rest.
        digits = 2 if p >= 0.0001 else max(2, 1 - math.floor(math.log10(max(p, 1e-300))) - 2)
        table.add_row(str(t), percent(lang, p, digits))
    return table


def plot(dist: ScoreDistribution, path: Path, title: str, lang: str) -> None:
    """The probability of every final score (bars) and the chance of reaching it (line, right axis)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    shown = [i for i, p in enumerate(dist.probabilities) if p >= 1e-7]
    a, b = (shown[0], shown[-1]) if shown else (0, len(dist.probabilities) - 1)
    scores = dist.scores[a : b + 1]
    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.bar(scores, dist.probabilities[a : b + 1], width=1.0, color="#3b6ea8", edgecolor="none")
    axes.axvline(
        dist.mean,
        color="#c0392b",
        linewidth=1.2,
        label=f"{translate(lang, 'mean')} {number(lang, dist.mean, 2)}",
    )
    axes.set_xlabel(translate(lang, "final score"))
    axes.set_ylabel(translate(lang, "probability"))
    reach = axes.twinx()
    reach.plot(scores, dist.survival[a : b + 1], color="#222222", linewidth=1)
    reach.set_ylabel(translate(lang, "chance of at least this score"))
    reach.set_ylim(0, 1.02)
    axes.set_title(title)
    axes.legend(loc="upper right")
    figure.tight_layout()
    figure.savefig(path)


def run(
    rules: RuleSet,
    alone: RuleSet,
    *,
    use_cache: bool,
    json_output: bool,
    plot_path: Path | None,
    lang: str,
) -> None:
    """The ``solve --distribution`` command: solve, build or load the distributions, report."""
    from kniffel.core import distribution_table, state_distribution, table

    if plot_path is not None:
        simulating.check_plot(plot_path)
    solved = solving.solve(alone, use_cache=use_cache, show_progress=not json_output, lang=lang)
    label = translate(lang, "Score distributions of {rules} (once, then cached)", rules=alone.id)
    with solving.solve_progress(not json_output, label, lang=lang) as progress:
        dist_table = distribution_table(
            table(alone, use_cache=use_cache), use_cache=use_cache, progress=progress
        )
    dist = state_distribution(dist_table, {})
    what = solving.solved_what(rules, alone, lang)
    if plot_path is not None:
        plot(dist, plot_path, translate(lang, "{what}: final score under optimal play", what=what), lang)
    if json_output:
        data = solving.solve_json(rules, alone, solved)
        data["distribution"] = distribution_json(dist)
        if plot_path is not None:
            data["plot"] = str(plot_path)
        print(json.dumps(data))
        return
    console = Console(highlight=False)
    console.print(
        translate(
            lang,
            "{what}: expected score {score}, standard deviation {std} (exact, optimal play)",
            what=what,
            score=number(lang, dist.mean, 4),
            std=number(lang, dist.std, 2),
        )
    )
    console.print(percentiles_table(dist, lang))
    console.print(reach_table(dist, lang))
    if plot_path is not None:
        console.print(translate(lang, "Plot written to {path}", path=plot_path))
