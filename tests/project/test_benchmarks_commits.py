"""How ``benchmarks/commits.py`` weighs one benchmark's figures on two versions of the code: each figure
at its best over the rounds in the direction it improves, head against base, and which are marked as
worse. No timings are measured."""

from __future__ import annotations

import math

import pytest

from support.benchmarks import load

pytestmark = pytest.mark.compiles_nothing

load("machine"), load("builds")  # imported by their bare names, as the scripts do
commits = load("commits")


def test_times_and_memory_improve_down_rates_and_ratios_against_the_peer_up() -> None:
    assert [commits.better(unit) for unit in ("s", "ms", "MB", "ns/lane")] == ["down"] * 4
    assert [commits.better(unit) for unit in ("/s", "games/s", "x")] == ["up"] * 3


def test_each_figure_is_marked_worse_only_where_its_best_and_its_median_rounds_agree() -> None:
    def run(solve: float, rate: float, peak: float) -> dict[str, list[list[object]]]:
        return {
            "native": [
                ["yahtzee: solve", solve, "s", 1.0],
                ["yahtzee: games", rate, "/s", rate * solve],
                ["yahtzee: peak", peak, "MB", None],
            ]
        }

    runs = {
        "base": [run(1.00, 1000.0, 100.0), run(1.10, 900.0, float("nan"))],
        "head": [run(1.02, 950.0, 120.0), run(1.05, 960.0, 104.0)],
    }
    figures = {entry["figure"]: entry for entry in commits.compare(runs, ["native"], 3.0)}
    solve, games, peak = figures["yahtzee: solve"], figures["yahtzee: games"], figures["yahtzee: peak"]
    assert (solve["base"], solve["head"]) == (1.00, 1.02)  # the least time of each side's rounds
    assert solve["head/base"] == pytest.approx(1.02)
    assert not solve["worse"]
    assert (games["base"], games["head"]) == (1000.0, 960.0)  # the highest rate
    assert games["medians head/base"] == pytest.approx(955.0 / 950.0)
    assert not games["worse"]  # 4 % fewer at best, but not by the medians: one lucky round of the base
    assert games["base vs solve"] == pytest.approx(1000.0)
    assert games["head vs solve"] == pytest.approx(1008.0)
    assert peak["base"] == 100.0  # a round that did not measure it is left out
    assert peak["medians head/base"] == pytest.approx(1.12)  # the medians of what was measured
    assert peak["worse"]
    assert peak["base vs solve"] is None
    assert math.isnan(commits.best([float("nan")], "s"))
    assert "worse by more than 3 %" in commits.table(list(figures.values()), 3.0)
    assert commits.median([3.0, float("nan"), 1.0, 2.0]) == 2.0
