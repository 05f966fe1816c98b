"""``bot:optimal``: exact play of single-column rule sets, the column-table planner on the others."""

from __future__ import annotations

import statistics

import pytest

from kniffel import Game, SeededDice, bots, rules
from kniffel.bots import OptimalBot
from kniffel.engine.actions import Announce, FreeThrow, Roll
from kniffel.planning import POINTS, ColumnPlanner, ExactPlanner, planner_for
from kniffel.rules import RuleSet, single_column
from kniffel.services.review import review

pytestmark = pytest.mark.usefixtures("solver_cache")


def solo(rs: RuleSet, bot: bots.Bot, seed: int) -> Game:
    return bots.play(Game(rs, ["A"], dice=SeededDice(seed)), [bot])


def test_optimal_is_registered_and_made_by_name() -> None:
    assert "bot:optimal" in bots.available()
    bot = bots.make("bot:optimal", seed=3)
    assert isinstance(bot, OptimalBot)
    assert bot.name == "optimal"


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [
        ("yahtzee", {"joker": "free"}),
        ("kniffel", {}),
        ("knoeffel", {}),
        ("kniffel", {"sharp": "on"}),
        ("kniffel", {"strict": "on"}),
    ],
)
def test_the_column_planner_reproduces_the_exact_solver_on_one_column(
    rules_id: str, options: dict[str, str]
) -> None:
    """The lookahead over a turn with the table's values at its ends is the solver's own recursion:
    on a single column the estimate must be exact (forced joker, free throws, the sharp variant's
    throws at once and a fill order included)."""
    rs = single_column(rules.get(rules_id, options))
    exact = planner_for(rs)
    assert isinstance(exact, ExactPlanner)
    estimate = ColumnPlanner(rs, POINTS)
    game = Game(rs, ["A"], dice=SeededDice(11))
    bot = OptimalBot()
    compared = 0
    while not game.is_over:
        if game.turn.dice is not None:
            want = {str(c.action): c.value for c in exact.choices(game)}
            got = {str(c.action): c.value for c in estimate.choices(game)}
            assert want.keys() == got.keys()
            for action, value in want.items():
                assert got[action] == pytest.approx(value, abs=1e-7), action
            compared += 1
        game.apply(bot.choose(game))
    assert compared > 20


def test_optimal_play_beats_the_heuristic() -> None:
    """Scored in expectation (the review's losses), so chance cannot flip it: optimal play gives
    nothing away, the heuristic does; the dice-dependent totals of a few games agree."""
    rs = rules.get("yahtzee", {"joker": "free"})
    optimal = [solo(rs, bots.make("bot:optimal"), seed) for seed in range(4)]
    heuristic = [solo(rs, bots.make("bot:heuristic"), seed) for seed in range(4)]
    assert all(review(g).players[0].loss == pytest.approx(0, abs=1e-9) for g in optimal)
    losses = [review(g).players[0].loss for g in heuristic]
    assert min(losses) > 0
    assert statistics.mean(g.sheet.total for g in optimal) > statistics.mean(g.sheet.total for g in heuristic)


def test_the_first_action_of_a_turn_is_a_roll_and_a_finished_game_is_refused() -> None:
    rs = rules.get("yahtzee", {"joker": "free"})
    bot = OptimalBot()
    game = Game(rs, ["A"], dice=SeededDice(2))
    assert bot.choose(game) == Roll()
    solo_game = solo(rs, bot, 2)
    with pytest.raises(ValueError, match="game is over"):
        bot.choose(solo_game)


@pytest.mark.parametrize("rules_id", ["kniffel-3col", "knoeffel"])
def test_multi_column_games_are_legal_and_use_the_special_moves(rules_id: str) -> None:
    rs = rules.get(rules_id)
    game = bots.play(Game(rs, ["A", "B"], dice=SeededDice(4)), [OptimalBot(), OptimalBot()])
    assert game.is_over
    assert all(sheet.is_full for sheet in game.sheets)
    if rules_id == "kniffel-3col":
        assert sum(isinstance(a, Announce) for a in game.log) >= 10  # 13 announced boxes per player
    else:
        assert any(isinstance(a, FreeThrow) for a in game.log)
    planner = planner_for(rs)
    assert not planner.exact
