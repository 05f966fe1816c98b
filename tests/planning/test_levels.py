"""The levels bot:1 to bot:8: named for people, the same game for the same dice, the compiled games the
game's own, and a ladder in which each level scores more than the one below."""

from __future__ import annotations

import numpy as np
import pytest

from kniffel import FreeThrow, Game, Roll, Score, SeededDice, Strike, bots, rules
from kniffel.bots import LevelBot, OptimalBot, WinBot, level_of
from kniffel.core import play_games, trace
from kniffel.planning import POINTS
from kniffel.planning.exact import advisor_for
from kniffel.planning.ladder import LADDER, level
from kniffel.planning.levels import level_planner, seen_values
from kniffel.services.plans import Engine, Level, Optimal, Sheet, resolve
from kniffel.services.simulate import simulate
from kniffel.services.tournament import Tournament, compiled_roles, play_match

SINGLE_COLUMN = ["kniffel", "yahtzee", "yatzy", "yatzy-deluxe"]


class NoDice:
    """A replay gives every throw's dice; a throw without them is a bug in the test."""

    def throw(self, n: int) -> tuple[int, ...]:
        raise AssertionError("the replay asked for new dice")


def test_levels_are_named_for_people_in_english_and_german() -> None:
    assert [bots.default_name(f"bot:{n}") for n in (1, 7, 8)] == [
        "Newcomer (level 1)",
        "Master (level 7)",
        "Grandmaster (level 8)",
    ]
    assert bots.default_name("bot:1", "de") == "Anfänger (Stufe 1)"
    assert {f"bot:{n}" for n in range(1, 9)} <= set(bots.available())
    assert bots.default_name("bot:optimal") == "Bot (optimal)"  # the existing names stay


def test_level_seven_plays_for_points_and_eight_to_win() -> None:
    seven, eight, three = bots.make("bot:7"), bots.make("bot:8"), bots.make("bot:3")
    assert isinstance(seven, OptimalBot)
    assert bots.goal_of(seven) == bots.goal_of(bots.make("bot:optimal"))
    assert isinstance(eight, WinBot)
    assert str(bots.goal_of(eight)) == "win"
    assert isinstance(three, LevelBot)
    assert bots.goal_of(three) is None
    assert [found.number for found in LADDER] == list(range(1, 9))
    assert level_of(three) == level(3)
    assert level(7).mistakes is None
    assert level(1).mistakes is not None


def test_a_level_plays_the_same_game_for_the_same_dice_whatever_its_seed() -> None:
    def played(bot_seed: int) -> list[str]:
        game = Game(rules.get("yahtzee"), ["Ada"], dice=SeededDice(11))
        bots.play(game, [bots.make("bot:2", seed=bot_seed)])
        return [str(action) for action in game.log]

    assert played(1) == played(2)


def test_levels_play_every_rule_set_through_the_game() -> None:
    for rules_id in ("kniffel-3col", "knoeffel"):
        game = Game(rules.get(rules_id), ["Ada"], dice=SeededDice(3))
        assert bots.play(game, [bots.make("bot:1")]).is_over


@pytest.mark.parametrize("rules_id", ["yahtzee", "yatzy"])
def test_compiled_level_games_decide_as_the_level_planner(rules_id: str) -> None:
    rs = rules.get(rules_id)
    solution = advisor_for(rs).solution
    number = 2
    values = seen_values(solution, number)
    for game_no in range(3):
        records, final = trace(solution, 4, game_no, values=values)
        game = Game(rs, ["Ada"], dice=NoDice())
        for record in records:
            for i, throw in enumerate(record.throws):
                kind = FreeThrow if i >= rs.rolls else Roll
                game.apply(kind(keep=throw.keep, dice=throw.dice))
                choices = level_planner(rs, POINTS, number).choices(game)
                best = choices[0].value
                if i + 1 < len(record.throws):
                    chosen = [c for c in choices if c.action == Roll(keep=record.throws[i + 1].keep)]
                else:
                    chosen = [c for c in choices if getattr(c.action, "box", None) == record.box]
                assert chosen, (record, choices[:3])
                assert chosen[0].value == pytest.approx(best, abs=1e-9), (record, choices[:3])
            placement = game.placements().get(record.box)
            paid = placement is not None and placement.points == record.points
            game.apply(Score(record.box) if paid else Strike(record.box))
        assert game.sheet.total == final


def test_levels_play_compiled_where_optimal_play_does_and_through_the_game_elsewhere() -> None:
    assert isinstance(resolve(rules.get("yahtzee"), "bot:3"), Level)
    assert isinstance(resolve(rules.get("knoeffel"), "bot:3"), Level)  # one of its alike columns
    assert isinstance(resolve(rules.get("kniffel-3col"), "bot:3"), Sheet)
    assert isinstance(resolve(rules.get("yahtzee"), "bot:7"), Optimal)
    assert not isinstance(resolve(rules.get("kniffel-3col"), "bot:3"), Engine)
    yahtzee = rules.get("yahtzee")
    assert compiled_roles(yahtzee, ["bot:1", "bot:6", "bot:7"], (0, 1, 2)) is not None


def test_a_compiled_tournament_of_levels_plays_the_game_s_games() -> None:
    rs = rules.get("yahtzee")
    specs = ["bot:2", "bot:5"]
    request = Tournament(rs, specs, deals=2, seed=3)
    compiled = play_match(request, (0, 1), first_deal=0, deals=2)
    engine = play_match(request, (0, 1), first_deal=0, deals=2, compiled=False)
    assert np.array_equal(compiled.scores, engine.scores)


@pytest.mark.parametrize("rules_id", SINGLE_COLUMN)
def test_each_level_scores_more_than_the_one_below(rules_id: str) -> None:
    rs = rules.get(rules_id)
    means = [simulate(rs, strategy=f"bot:{n}", games=6000, seed=5).mean for n in range(1, 8)]
    gaps = np.diff(means)
    assert (gaps > 2.5).all(), means
    exact = advisor_for(rs).solution.expected_score
    assert means[-1] == pytest.approx(exact, abs=3.0)
    if rules_id == "yahtzee":
        assert exact - means[0] > 45, means


def test_a_level_s_view_leaves_the_solved_table_alone() -> None:
    rs = rules.get("kniffel")
    solution = advisor_for(rs).solution
    before = np.array(solution.values)
    values = seen_values(solution, 1)
    assert np.array_equal(solution.values, before)
    assert not np.array_equal(values, before)
    played = play_games(solution, 200, 1, values=values)
    assert played.scores.mean() < play_games(solution, 200, 1).scores.mean()
