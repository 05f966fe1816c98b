"""The exact best response to ``bot:optimal`` (``benchmarks/best_response.py``) on the tests' reduced game
(three dice, four boxes): its model of ``bot:optimal``'s turns is the project's (the expected score, the
final-score distribution, every decision ``bot:optimal`` takes in the engine), and played by its own
policy against ``bot:optimal`` through the engine it wins what it says it wins."""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np
import pytest

from kniffel.core import build_table, solve
from support.benchmarks import load
from support.solver import reduced

pytestmark = pytest.mark.usefixtures("solver_cache")


@pytest.fixture(scope="module")
def br() -> ModuleType:
    return load("best_response")


def test_the_smallest_game_is_the_tests_reduced_game(br: ModuleType) -> None:
    assert br.GAMES["3 dice, 4 boxes"]() == reduced()
    assert next(iter(br.GAMES)) == "3 dice, 4 boxes"


def test_its_model_of_bot_optimal_is_the_projects(br: ModuleType) -> None:
    """``bot:optimal``'s turns, pushed from the empty sheet, give the solver's expected score and the
    distribution table's final scores (whose turns the compiled simulator decides, ties and all)."""
    solution = solve(reduced())
    sheets = br.Sheets(solution).build()
    scores = sheets.final_scores()
    assert scores.sum() == pytest.approx(1.0, abs=1e-12)
    assert float(scores @ np.arange(len(scores))) == pytest.approx(solution.expected_score, abs=1e-10)
    table = build_table(solution)
    c = solution.compiled
    empty = table.points_to_come(table.lane(0, c.n_free - 1, 0, 0))
    assert empty.low == 0
    assert empty.probabilities.tolist() == pytest.approx(
        scores[: len(empty.probabilities)].tolist(), abs=1e-12
    )
    assert scores[len(empty.probabilities) :].sum() < 1e-14  # the table folds the last tail into its end


def test_the_best_response_wins_what_its_programme_says(br: ModuleType) -> None:
    """Played by its own policy in the engine's games, from both seats of 400 deals, against the engine's
    ``bot:optimal``, whose every decision the programme foresaw: the share it wins is the programme's
    value within four standard errors. The ladder's rungs are in order, and the figures are those the
    docs show."""
    programme = br.BestResponse(br.Sheets(solve(reduced())).build(), keep=True)
    first, second = programme.solve(True), programme.solve(False)
    value = 0.5 * (first + second)
    assert value == pytest.approx(0.52186, abs=5e-6)
    assert 0.5 < first < second  # moving second, the responder sees more of the opponent's game
    assert value < programme.clairvoyant() == pytest.approx(0.55537, abs=5e-6)
    shares, unforeseen = br.played(programme, deals=400, seed=3)
    assert unforeseen == 0
    error = float(shares.std(ddof=1)) / math.sqrt(len(shares))
    assert abs(float(shares.mean()) - value) < 4 * error
