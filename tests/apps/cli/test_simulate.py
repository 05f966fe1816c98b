"""``kniffel simulate``: the statistics of many games, reproducible by seed, with a histogram."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import kniffel.apps.cli.simulating
import kniffel.services.simulate
from kniffel import rules
from kniffel.apps.cli import app
from kniffel.services.simulate import (
    MAX_GAMES,
    SimulationInterrupted,
    SimulationResult,
    combine,
    play_chunk,
)

pytestmark = pytest.mark.usefixtures("solver_cache")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["simulate", *args])


def run_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_optimal_yahtzee_games_average_the_solved_expectation() -> None:
    data = run_json("--rules", "yahtzee", "--option", "joker=free", "--games", "20000", "--seed", "5")
    assert data["games"] == 20000
    assert {"mean", "std", "min", "max"} <= data.keys()
    assert isinstance(data["min"], int)
    assert isinstance(data["max"], int)
    assert data["min"] <= data["mean"] <= data["max"]
    # 254.5896 is the published optimum; the mean of 20,000 games lies within 4 standard errors.
    assert abs(data["mean"] - 254.5896) < 4 * data["std"] / math.sqrt(20000)


def test_the_json_holds_each_boxs_statistics() -> None:
    """``--json`` gives every box's mean, strike rate and distribution of points, beside the rates of
    the upper bonus and the extra bonuses."""
    data = run_json("--rules", "yahtzee", "--games", "2000", "--seed", "3")
    boxes = data["boxes"]
    assert list(boxes) == [box.id for box in rules.get("yahtzee").boxes]
    house = boxes["full_house"]
    assert set(house["distribution"]) == {"0", "25"}
    assert house["mean"] == pytest.approx(25 * house["distribution"]["25"])
    assert house["struck"] == house["distribution"]["0"]
    assert sum(boxes["chance"]["distribution"].values()) == pytest.approx(1)
    assert 0 < data["upper_bonus_rate"] < 1
    assert data["extra_bonuses_per_game"] > 0


def test_the_same_seed_gives_the_same_result_and_another_seed_does_not() -> None:
    args = ("--rules", "kniffel", "--games", "3000")
    first = run_json(*args, "--seed", "11")
    again = run_json(*args, "--seed", "11")
    other = run_json(*args, "--seed", "12")
    for key in ("mean", "std", "min", "max"):
        assert first[key] == again[key]
    assert first["mean"] != other["mean"]


def test_the_heuristic_bot_plays_multi_column_sheets() -> None:
    data = run_json("--rules", "kniffel-3col", "--strategy", "bot", "--games", "2", "--seed", "1")
    assert data["games"] == 2
    assert data["min"] > 300, "three columns of a sensible bot score far above chance"


def test_the_default_plays_multi_column_sheets_through_the_game() -> None:
    data = run_json("--rules", "kniffel-3col", "--games", "1", "--seed", "1")
    assert (data["strategy"], data["columns"], data["games"]) == ("bot:optimal", 3, 1)
    assert "expected" not in data
    assert data["min"] > 300


def test_plot_writes_a_png_histogram(tmp_path: Path) -> None:
    plot = tmp_path / "scores.png"
    result = run("--rules", "yatzy", "--games", "2000", "--seed", "3", "--plot", str(plot))
    assert result.exit_code == 0, result.output
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert "mean" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rules", "nope"), "unknown rule set"),
        (("--strategy", "perfect"), "unknown strategy"),
        (("--strategy", "optimal"), "unknown strategy"),
        (("--plot", "/nonexistent-dir/x.png", "--games", "10"), "nonexistent-dir"),
    ],
)
def test_bad_requests_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    result = run(*args, "--json")
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_help_says_the_simulators_own_limit() -> None:
    """The help names the most games without importing the simulator: the number it gives is the
    simulator's."""
    assert kniffel.apps.cli.simulating.GAMES_AT_MOST == MAX_GAMES
    assert f"{MAX_GAMES:,}" in " ".join(run("--help").stdout.split())


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_reports_the_games_played_as_a_partial_result(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, as_json: bool
) -> None:
    yatzy = rules.get("yatzy")
    partial = combine(yatzy, "bot:optimal", 4, [play_chunk(yatzy, "bot:optimal", 4, 0, 300)], asked=1000)

    def interrupted(*args: object, **kwargs: object) -> SimulationResult:
        raise SimulationInterrupted(partial)

    monkeypatch.setattr(kniffel.services.simulate, "simulate", interrupted)
    scores = tmp_path / "scores.csv"
    args = ("--rules", "yatzy", "--games", "1000", "--seed", "4", "--scores", str(scores))
    result = run(*args, *(["--json"] if as_json else []))
    assert result.exit_code == 130
    assert result.stderr.strip() == "kniffel: interrupted after 300 of 1,000 games, stopped"
    assert len(scores.read_text(encoding="utf-8").splitlines()) == 301, "the scores of the games played"
    if as_json:
        data = json.loads(result.stdout)
        assert (data["partial"], data["games"], data["games_asked"]) == (True, 300, 1000)
        assert data["mean"] == partial.mean
    else:
        assert "Partial result: played 300 of 1,000 before the run was interrupted." in result.stdout
        assert "300 games, mean" in result.stdout


def test_ctrl_c_before_any_game_is_done_stops_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> SimulationResult:
        raise SimulationInterrupted(None)

    monkeypatch.setattr(kniffel.services.simulate, "simulate", interrupted)
    result = run("--rules", "yatzy", "--games", "1000", "--json")
    assert result.exit_code == 130
    assert result.output.strip() == "kniffel: interrupted after 0 of 1,000 games, stopped"


def test_a_player_for_a_score_is_simulated_from_its_cone() -> None:
    """bot:target:T plays in compiled code from the cone of the empty sheet, solved first (in view) and
    then read by every block: the command's games are the library's."""
    from kniffel.services.simulate import simulate

    strict = ("--rules", "kniffel", "--option", "strict=on")
    data = run_json(*strict, "--strategy", "bot:target:150", "-n", "500", "--seed", "2")
    library = simulate(rules.get("kniffel", {"strict": "on"}), strategy="bot:target:150", games=500, seed=2)
    assert (data["strategy"], data["games"]) == ("bot:target:150", 500)
    assert data["mean"] == pytest.approx(library.mean)
    assert data["upper_bonus_rate"] == pytest.approx(library.upper_bonus_rate)
