"""Exact final-score distributions under optimal play: they sum to 1, their means are the solver's values
(at the start, between turns and partway through a turn, for every option), they agree with simulations
of the same policy, the table survives the cache, and ``kniffel solve --distribution`` reports them."""

from __future__ import annotations

import itertools
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from kniffel import core, rules
from kniffel.base.dice import sorted_rolls
from kniffel.base.errors import KniffelError, SituationError
from kniffel.core import (
    Advisor,
    ColumnPosition,
    DistributionTable,
    ScoreDistribution,
    Solution,
    banked_points,
    build_table,
    distribution_table,
    disttable,
    early_levels,
    option_distributions,
    situation_distribution,
    state_distribution,
    table,
    trace,
    with_level,
)
from kniffel.core.distribution import load_table, table_paths
from kniffel.core.disttable import LevelTable
from kniffel.rules import RuleSet, single_column
from kniffel.services.simulate import simulate

pytestmark = pytest.mark.usefixtures("solver_cache")

EXACT = 1e-9
"""How close a distribution's mean is to the solver's value (and its total to 1)."""


def column(rules_id: str, **options: str) -> RuleSet:
    ruleset = rules.get(rules_id, options)
    return single_column(ruleset, 0) if ruleset.multi_column else ruleset


# --- one distribution ------------------------------------------------------------------------------------


def two_dice() -> ScoreDistribution:
    ways = np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.float64)
    return ScoreDistribution(2, ways / 36)


def test_a_distribution_answers_from_its_probabilities() -> None:
    dist = two_dice()
    assert dist.mean == pytest.approx(7)
    assert dist.std == pytest.approx(math.sqrt(35 / 6))
    assert (dist.low, dist.high) == (2, 12)
    assert dist.at_least(7) == pytest.approx(21 / 36)
    assert dist.at_least(12) == pytest.approx(1 / 36)
    assert (dist.at_least(-3), dist.at_least(2), dist.at_least(13)) == (1.0, 1.0, 0.0)
    assert dist.survival[0] == pytest.approx(1)
    assert [dist.percentile(q) for q in (0, 50, 100)] == [2, 7, 12]
    assert dist.percentile(100 * 6 / 36) == 4  # exactly the cumulative probability of 4: no rounding up
    assert dist.shifted(10).at_least(17) == dist.at_least(7)
    data = dist.to_json()
    assert data["low"] == 2
    assert data["percentiles"]["50"] == 7
    assert sum(data["probabilities"]) == pytest.approx(1)
    with pytest.raises(ValueError, match="percentile"):
        dist.percentile(101)


# --- tables ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def yahtzee() -> DistributionTable:
    """The whole Yahtzee table, in memory: the cache is tested with a smaller table, and this one would
    leave 2 GB in the session's cache directory."""
    return build_table(table(rules.get("yahtzee")))


@pytest.fixture(scope="module")
def strict() -> DistributionTable:
    """Kniffel filled top-down: few sheets, so its whole table is small."""
    return distribution_table(rules.get("kniffel", {"strict": "on"}))


def start_of_a_game(dist: DistributionTable) -> ScoreDistribution:
    """The distribution of a game's final score from the empty sheet, checked: it sums to one, its mean
    is the solver's expected score, and its percentiles rise."""
    start = state_distribution(dist, {})
    assert start.total == pytest.approx(1, abs=EXACT)
    assert start.mean == pytest.approx(dist.solution.expected_score, abs=EXACT)
    assert (start.probabilities >= 0).all()
    assert start.percentile(1) < start.percentile(50) < start.percentile(99)
    return start


def test_the_start_of_a_game_sums_to_one_with_the_solvers_mean(strict: DistributionTable) -> None:
    """Yahtzee's start is checked by the million games below, the one test that needs its whole table:
    each worker of a run that reached it from two tests built the table (14 s) once more."""
    start_of_a_game(strict)


def thresholds(dist: ScoreDistribution) -> list[int]:
    qs = (0.5, 1, 5, 10, 25, 40, 50, 60, 75, 90, 95, 99, 99.5)
    return sorted({dist.percentile(q) for q in qs})


@pytest.mark.slow
@pytest.mark.parametrize("which", ["yahtzee", "strict"])
def test_a_million_simulated_games_agree_with_the_distribution(
    which: str, request: pytest.FixtureRequest
) -> None:
    dist: DistributionTable = request.getfixturevalue(which)
    exact = start_of_a_game(dist)
    games = 1_000_000
    scores = simulate(dist.rules, games=games, seed=11).scores
    points = thresholds(exact)
    assert len(points) >= 10
    for t in points:
        p = exact.at_least(t)
        assert 0 < p < 1
        seen = float((scores >= t).mean())
        standard_error = math.sqrt(p * (1 - p) / games)
        assert abs(seen - p) <= 4 * standard_error, (t, p, seen, standard_error)


# --- states and situations along optimal games -----------------------------------------------------------

RULE_SETS = {
    "yahtzee": column("yahtzee"),
    "kniffel": column("kniffel"),
    "yatzy": column("yatzy"),
    "kniffel sharp": column("kniffel", sharp="on"),
    "kniffel strict": column("kniffel", strict="on"),
    "knoeffel column": column("knoeffel"),
}


def situations(solution: Solution, seed: int, after: int) -> Iterator[dict[str, Any]]:
    """The situations of an optimal game from turn ``after`` on: each turn's start (without dice) and each
    throw (with dice), with the extra bonuses and free throws as they stood."""
    ruleset = solution.rules
    records, _ = trace(solution, seed)
    sheet: dict[str, int] = {}
    extra = 0
    free = ruleset.free_throws
    for turn, record in enumerate(records):
        if turn >= after:
            yield {"sheet": dict(sheet), "extra_bonus": extra, "free_throws_left": free}
            for i, throw in enumerate(record.throws):
                used = max(0, i + 1 - ruleset.rolls)
                yield {
                    "sheet": dict(sheet),
                    "extra_bonus": extra,
                    "dice": throw.dice,
                    "rolls_left": max(0, ruleset.rolls - 1 - i),
                    "thrown_at_once": not throw.keep,
                    "free_throws_left": free - used,
                    "free_throws_used": used,
                }
        sheet[record.box] = record.points
        extra += record.extra
        free -= max(0, len(record.throws) - ruleset.rolls)


def test_a_level_that_outgrows_its_room_loses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each level is written into one array sized from the level before; where that is short, the array
    grows and what was written is kept: the same table either way."""

    solution = table(RULE_SETS["knoeffel column"])
    sheet = {r.box: r.points for r in trace(solution, 3)[0][:4]}
    roomy = build_table(solution, within=sheet)
    monkeypatch.setattr(disttable, "_room", lambda lanes, children, child_lanes: 1)
    cramped = build_table(solution, within=sheet)
    assert np.array_equal(roomy.index, cramped.index)
    assert np.array_equal(roomy.pmf, cramped.pmf)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_situation_of_a_game_has_the_advisors_mean(name: str) -> None:
    ruleset = RULE_SETS[name]
    solution = table(ruleset)
    advisor = Advisor(solution)
    after = 6
    records, _ = trace(solution, 5)
    rest = build_table(solution, within={r.box: r.points for r in records[:after]})
    checked = 0
    for s in situations(solution, 5, after):
        free = s["free_throws_left"] if ruleset.free_throws else None
        banked = banked_points(ruleset, s["sheet"], s["extra_bonus"])
        if "dice" not in s:
            dist = state_distribution(rest, s["sheet"], free, extra_bonus=s["extra_bonus"])
            assert dist.total == pytest.approx(1, abs=EXACT)
            assert dist.mean == pytest.approx(banked + advisor.value(s["sheet"], free), abs=EXACT)
            continue
        how = {
            "thrown_at_once": s["thrown_at_once"],
            "free_throws_left": free,
            "free_throws_used": s["free_throws_used"],
        }
        options = option_distributions(
            rest, ColumnPosition(s["sheet"], s["dice"], s["rolls_left"], **how), extra_bonus=s["extra_bonus"]
        )
        for option, dist in options:
            assert dist.total == pytest.approx(1, abs=EXACT), option
            assert dist.mean == pytest.approx(banked + option.value, abs=EXACT), option
        now = situation_distribution(
            rest, ColumnPosition(s["sheet"], s["dice"], s["rolls_left"], **how), extra_bonus=s["extra_bonus"]
        )
        assert now.mean == pytest.approx(options[0][1].mean, abs=EXACT)
        checked += 1
    assert checked >= 2 * (len(ruleset.boxes) - after)


@pytest.mark.parametrize("name", ["yahtzee", "kniffel sharp"])
def test_a_turn_is_the_mixture_of_its_first_rolls(name: str) -> None:
    """Between turns, a state's stored distribution equals the first rolls' distributions (each a turn
    pushed through the policy from that roll) weighted by their probabilities."""
    ruleset = RULE_SETS[name]
    solution = table(ruleset)
    records, _ = trace(solution, 2)
    sheet = {r.box: r.points for r in records[:6]}
    rest = build_table(solution, within=sheet)
    whole = state_distribution(rest, sheet)
    mixed = np.zeros(len(whole.probabilities) + 2000)
    low = whole.low - 1000
    rolls = sorted_rolls(ruleset.dice)
    probabilities = Advisor(solution)._keeps.roll_probs
    for roll, p in zip(rolls, probabilities, strict=True):
        dist = situation_distribution(
            rest, ColumnPosition(sheet, roll, ruleset.rolls - 1, thrown_at_once=True)
        )
        at = dist.low - low
        mixed[at : at + len(dist.probabilities)] += p * dist.probabilities
    at = whole.low - low
    assert np.allclose(mixed[at : at + len(whole.probabilities)], whole.probabilities, rtol=0, atol=1e-13)
    assert mixed.sum() == pytest.approx(1, abs=EXACT)


def test_impossible_questions_are_refused_clearly(strict: DistributionTable) -> None:
    with pytest.raises(KniffelError, match="no box"):
        state_distribution(strict, {"sevens": 3})
    with pytest.raises(SituationError, match="cannot fill these boxes in this order"):
        state_distribution(strict, {"chance": 20})
    with pytest.raises(SituationError, match="rolls left"):
        situation_distribution(strict, ColumnPosition({}, [1, 2, 3, 4, 5], 7))
    solution = table(RULE_SETS["yahtzee"])
    rest = build_table(solution, within={"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15})
    with pytest.raises(SituationError, match="covers only sheets with"):
        state_distribution(rest, {"ones": 3})


# --- the cache ---------------------------------------------------------------------------------------------


def test_the_cached_table_is_checked_and_rebuilt_when_damaged(tmp_path: Path) -> None:
    solution = table(rules.get("kniffel", {"strict": "on"}))
    whole = build_table(solution)
    # built as the early win tables build it: the early table cached on the way to a later level's
    horizon = with_level(solution, 6, directory=tmp_path)
    expected = LevelTable.of(whole, 6)
    assert horizon.index.shape == expected.index.shape
    for lane in range(horizon.index.shape[1]):
        (at, low, count), (at_whole, low_whole, count_whole) = horizon.index[:, lane], expected.index[:, lane]
        assert (low, count) == (low_whole, count_whole)
        assert np.array_equal(horizon.pmf[at : at + count], whole.pmf[at_whole : at_whole + count])
    built = load_table(solution, tmp_path)
    assert built is not None
    assert built.seconds == 0
    for lane in range(built.layout.n_lanes):  # the early levels lie alike in both layouts
        kept, all_of_it = built.points_to_come(lane), whole.points_to_come(lane)
        assert kept.low == all_of_it.low
        assert np.array_equal(kept.probabilities, all_of_it.probabilities)
    original = np.array(built.pmf)  # the loaded table maps the file this test damages
    loaded = distribution_table(solution, directory=tmp_path)
    assert loaded.seconds == 0  # loaded, not built again
    assert np.array_equal(loaded.index, built.index)
    probabilities, index, meta = table_paths(solution.rules, tmp_path)
    raw = bytearray(probabilities.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    probabilities.write_bytes(bytes(raw))
    assert load_table(solution, tmp_path) is None
    rebuilt = distribution_table(solution, directory=tmp_path)
    assert rebuilt.seconds > 0
    assert np.array_equal(np.asarray(rebuilt.pmf), original)
    assert np.array_equal(rebuilt.index, built.index)
    index.write_bytes(index.read_bytes()[:-8])
    assert load_table(solution, tmp_path) is None
    meta.unlink()
    assert load_table(solution, tmp_path) is None


def test_levels_passed_through_files_are_those_held_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The early table built as the cache builds it, each level through a file of its own, its pages let
    go after every chunk of a few lanes (as a process over its allowance lets them go), is the table
    built in memory, bit for bit."""
    from kniffel.core.runtime import spill

    solution = table(rules.get("kniffel", {"strict": "on"}))
    held = build_table(solution, most_filled=early_levels(solution.compiled))
    relieved = []

    def relieve() -> None:
        if sys._getframe(1).f_code.co_name == "relieve":  # the allowance's, between chunks (not as it starts)
            relieved.append(True)

    monkeypatch.setattr(spill, "GROWTH", 0)
    monkeypatch.setattr(disttable, "SPILLED_CHUNK_LANES", 3)
    monkeypatch.setattr(spill, "relieve_mapped", relieve)
    spilled = distribution_table(solution, directory=tmp_path)
    assert len(relieved) > 10
    assert np.array_equal(spilled.index, held.index)
    assert np.array_equal(np.asarray(spilled.pmf), held.pmf)
    assert not list(tmp_path.glob("*.tmp")), "the levels' files leave nothing behind"


def test_a_build_starts_from_what_the_process_holds_once_freed_memory_is_handed_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A build's allowance counts from the process's memory once the mapped tables' pages are let go and
    the memory freed before (which the C library keeps for reuse) is handed back: else a server that
    solved other tables before starts the build above them."""
    from kniffel.core.runtime import spill

    steps: list[str] = []
    monkeypatch.setattr(spill, "relieve_mapped", lambda: steps.append("relieved"))
    monkeypatch.setattr(spill, "give_back", lambda: steps.append("given back"))

    def resident() -> int:
        steps.append("measured")
        return 100

    monkeypatch.setattr(spill, "resident", resident)
    allowance = spill.Allowance(growth=10)
    assert steps == ["relieved", "given back", "measured"]
    assert allowance.limit == 110


def test_a_process_may_give_its_builds_another_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a build may add is the process's setting (a server gives less), the command's when unset."""
    from kniffel.core.runtime import spill

    monkeypatch.setattr(spill, "resident", lambda: 100)
    monkeypatch.setattr(spill, "_growth", None)
    assert spill.Allowance().limit == 100 + spill.GROWTH
    core.allow_growth(7)
    assert spill.Allowance().limit == 107
    assert spill.Allowance(growth=3).limit == 103
    core.allow_growth(None)
    assert core.allowed_growth() == spill.GROWTH


def test_a_cone_kept_in_a_file_is_the_one_held_in_memory(tmp_path: Path) -> None:
    """A game's cone built through files and kept in one, mapped (what a process holds for the rest of a
    game is then the system's file cache), is the cone built in memory, bit for bit; its file has no
    name, so nothing stays behind."""
    solution = table(rules.get("kniffel", {"strict": "on"}))
    sheet = {"ones": 3, "twos": 6}
    held = build_table(solution, within=sheet)
    mapped = build_table(solution, within=sheet, spill=tmp_path)
    assert not np.asarray(mapped.pmf).flags.owndata
    assert np.array_equal(mapped.index, held.index)
    assert np.array_equal(np.asarray(mapped.pmf), held.pmf)
    assert state_distribution(mapped, sheet).probabilities.tolist() == (
        state_distribution(held, sheet).probabilities.tolist()
    )
    assert not list(tmp_path.iterdir())


# --- kniffel solve --distribution --------------------------------------------------------------------------

STRICT = ["solve", "--rules", "kniffel", "--option", "strict=on", "--distribution"]


def invoke(*args: str) -> Any:
    from kniffel.apps.cli import app

    return CliRunner().invoke(app, list(args))


def test_solve_distribution_json_has_every_probability(strict: DistributionTable) -> None:
    result = invoke(*STRICT, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    dist = data["distribution"]
    assert sum(dist["probabilities"]) == pytest.approx(1, abs=EXACT)
    scores = np.arange(dist["low"], dist["high"] + 1)
    assert float(np.dot(scores, dist["probabilities"])) == pytest.approx(data["expected_score"], abs=EXACT)
    assert dist["mean"] == pytest.approx(data["expected_score"], abs=EXACT)
    assert dist["probabilities"] == state_distribution(strict, {}).probabilities.tolist()
    reach = [(int(t), p) for t, p in dist["at_least"].items()]
    assert len(reach) >= 8
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(reach))
    assert list(dist["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]


def test_solve_distribution_prints_tables_and_plots(tmp_path: Path) -> None:
    plot = tmp_path / "scores.png"
    result = invoke(*STRICT, "--plot", str(plot))
    assert result.exit_code == 0, result.output
    assert "standard deviation" in result.stdout
    assert "P(≥)" in result.stdout
    assert plot.read_bytes().startswith(b"\x89PNG")
    german = invoke(*STRICT, "--lang", "de")
    assert german.exit_code == 0, german.output
    assert "Standardabweichung" in german.stdout
    assert "Chance, eine Punktzahl zu erreichen" in german.stdout


def test_solve_distribution_refuses_a_plot_it_cannot_draw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = invoke(*STRICT, "--plot", str(tmp_path / "scores.txt"))
    assert result.exit_code == 2
    assert ".png" in result.output
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = invoke(*STRICT, "--plot", str(tmp_path / "scores.png"))
    assert result.exit_code == 2
    assert "needs matplotlib" in result.output
    assert not (tmp_path / "scores.png").exists()
