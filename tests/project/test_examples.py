"""The examples of the research API run and print what they say (the PPO one needs PyTorch and is not
run here)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from support.paths import ROOT

EXAMPLES = ROOT / "examples"
LATE = (
    "yahtzee | ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=20 four_of_a_kind=0 "
    "full_house=25 small_straight=30 | 2 3 4 5 5 | rolls left 2"
)


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_final_scores(capsys: pytest.CaptureFixture[str]) -> None:
    example("final_scores").main(["--situation", LATE, "--scores", "250"])
    out = capsys.readouterr().out
    assert "mean 227.6295" in out
    assert "P(final score >= 250) = 0.0344" in out


def test_chance_of_a_score(capsys: pytest.CaptureFixture[str]) -> None:
    example("chance_of_a_score").main(["--situation", LATE, "--scores", "250", "300"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["250", "0.0577", "0.0344", "roll", "keep", "2", "3", "4", "5"]
    assert lines[2].split() == ["300", "0.0047", "0.0007", "roll", "keep", "5", "5"]


def test_simulate_boxes(capsys: pytest.CaptureFixture[str]) -> None:
    example("simulate_boxes").main(["--games", "2000", "--seed", "7"])
    out = capsys.readouterr().out
    assert out.startswith("2,000 games of yahtzee by bot:optimal: mean ")
    assert "exact 254.5877" in out
    assert any(line.split()[:1] == ["full_house"] for line in out.splitlines())
