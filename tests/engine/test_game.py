"""The game engine: players and turns, rolling and keeping, scoring, the special rules in play, end of
game and winners, undo, saving and loading, and the action records."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from kniffel import (
    Action,
    Announce,
    DiceError,
    FreeThrow,
    Game,
    GameError,
    GameFormatError,
    IllegalActionError,
    KniffelError,
    Outcome,
    Roll,
    RulesError,
    Score,
    ScoreSheet,
    SecureDice,
    SeededDice,
    SheetError,
    Situation,
    SituationError,
    Strike,
    UnknownBoxError,
    rules,
)
from kniffel.base.dice import validate_dice
from kniffel.engine.actions import TakenBack
from kniffel.engine.game import Turn
from kniffel.engine.sheet import ColumnTotals
from kniffel.rules import Placement
from support.games import new_game, score, state, strike
from support.rules import SEED_GAME_1, SEED_GAME_2


def refused(game: Game, action: Action, message: str) -> None:
    """``action`` is refused with ``message``, and refusing it changes nothing."""
    before = state(game)
    assert not game.can_apply(action)
    with pytest.raises(IllegalActionError, match=message) as info:
        game.apply(action)
    assert "\n" not in str(info.value)
    assert action not in game.legal_actions()
    assert state(game) == before


# --- the seed's example sheet, played -----------------------------------------------------------

# Seed 000's Spielblock, two games, as a score pad would record them: each turn the dice thrown (kept
# dice included) and the box chosen. Ada plays the first column of the block, Bob the second.
SEED_TURNS: list[tuple[list[str], list[str]]] = [
    (
        ["roll = 2 3 3 5 6", "roll keep 3 3 = 1 3 3 3 4", "roll keep 3 3 3 = 2 3 3 3 6", "score threes"],
        ["roll = 1 1 1 4 6", "score ones"],
    ),
    (["roll = 1 2 3 4 6", "score small_straight"], ["roll = 2 2 2 3 5", "score twos"]),
    (
        ["roll = 1 2 4 6 6", "roll keep 6 6 = 3 5 6 6 6", "roll keep 6 6 6 = 1 6 6 6 6", "score sixes"],
        ["roll = 1 3 3 5 6", "roll keep 3 3 = 3 3 3 3 5", "score threes"],
    ),
    (["roll = 2 5 5 5 6", "score three_of_a_kind"], ["roll = 1 2 4 4 6", "score fours"]),
    (
        ["roll = 2 3 3 4 5", "roll keep 3 3 = 2 2 3 3 3", "score full_house"],
        ["roll = 1 1 5 5 5", "score fives"],
    ),
    (["roll = 1 2 4 4 4", "score fours"], ["roll = 1 2 6 6 6", "score sixes"]),
    (["roll = 2 3 4 5 6", "score large_straight"], ["roll = 3 4 4 4 6", "score three_of_a_kind"]),
    (
        ["roll = 1 2 4 4 4", "roll keep 4 4 4 = 2 4 4 4 4", "roll keep 4 4 4 4 = 4 4 4 4 4", "score kniffel"],
        ["roll = 3 6 6 6 6", "score four_of_a_kind"],
    ),
    (["roll = 1 2 5 5 5", "score fives"], ["roll = 5 5 6 6 6", "score full_house"]),
    (["roll = 2 2 2 5 6", "score twos"], ["roll = 3 4 5 6 6", "score small_straight"]),
    (["roll = 1 3 5 6 6", "score chance"], ["roll = 1 2 4 6 6", "score chance"]),
    (
        ["roll = 1 1 2 3 5", "strike four_of_a_kind"],
        ["roll = 1 1 2 2 6", "roll = 1 1 2 3 6", "strike large_straight"],
    ),
    (["roll = 2 2 4 5 6", "strike ones"], ["roll = 1 2 3 3 6", "strike kniffel"]),
]


def test_seed_spielblock_played_as_two_games() -> None:
    """Seed 000: grand totals 290 and 184, with every total row of the printed sheet."""
    game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(0))
    for ada_turn, bob_turn in SEED_TURNS:
        for player, lines in (("Ada", ada_turn), ("Bob", bob_turn)):
            assert game.player == player
            for line in lines:
                game.apply(Action.parse(line))
    assert game.is_over
    ada, bob = game.sheets
    assert ada.entries == ScoreSheet.parse(game.rules, SEED_GAME_1).entries
    assert bob.entries == ScoreSheet.parse(game.rules, SEED_GAME_2).entries
    assert ada.totals == [ColumnTotals(66, 35, 101, 189, 0, 0, 189, 290)]
    assert bob.totals == [ColumnTotals(62, 0, 62, 122, 0, 0, 122, 184)]
    assert game.totals == [290, 184]
    assert game.winners() == ["Ada"]
    assert [(s.name, s.total, s.rank) for s in game.standings()] == [("Ada", 290, 1), ("Bob", 184, 2)]
    # The log records the game exactly as typed and replays to it.
    typed = [line for ada_lines, bob_lines in SEED_TURNS for line in ada_lines + bob_lines]
    assert [str(a) for a in game.log] == typed
    assert state(Game.loads(game.dumps())) == state(game)


def test_seed_spielblock_running_totals_after_the_upper_block() -> None:
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(0))
    for box, dice in [
        ("twos", (2, 2, 2, 5, 6)),
        ("threes", (2, 3, 3, 3, 6)),
        ("fours", (1, 2, 4, 4, 4)),
        ("fives", (1, 2, 5, 5, 5)),
        ("sixes", (1, 6, 6, 6, 6)),
    ]:
        score(game, dice, box)
    (totals,) = game.sheet.totals
    assert (totals.upper_sum, totals.upper_bonus, totals.upper_total) == (66, 35, 101)
    assert game.sheet.total == 101


# --- players and turns ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [["Solo"], [f"P{i}" for i in range(1, 9)]])
def test_one_to_eight_players(players: list[str]) -> None:
    game = Game(rules.get("yatzy"), players, dice=SeededDice(3))
    while not game.is_over:
        game.roll()
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Score)))
    assert all(s.is_full for s in game.sheets)
    assert len(game.log) == 2 * 15 * len(players)
    assert set(game.winners()) <= set(players)
    assert game.winners()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([], "a game has 1 to 8 players, got 0"),
        ([f"P{i}" for i in range(9)], "a game has 1 to 8 players, got 9"),
        (["Ada", "Ada"], "player names must differ"),
        (["Ada", " "], "every player needs a name"),
    ],
)
def test_bad_player_lists(players: list[str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        Game(rules.get("kniffel"), players)


def test_a_fresh_game() -> None:
    game = new_game("kniffel")
    assert (game.current, game.player, game.turn, game.dice, game.rolls_left) == (0, "Ada", Turn(), None, 3)
    assert game.sheet is game.sheets[0]
    assert game.placements() == {}
    assert game.legal_actions() == [Roll()]
    assert game.winners() == []
    assert game.round == 1
    assert not game.is_over


def test_turn_order_cycles_through_the_players() -> None:
    game = new_game("kniffel", ["Ada", "Bob", "Cy"])
    seen = []
    for _ in range(7):
        seen.append(game.player)
        game.roll()
        game.apply(Strike(game.sheet.free_keys[0]))
    assert seen == ["Ada", "Bob", "Cy", "Ada", "Bob", "Cy", "Ada"]
    assert game.round == 3


def test_rolls_up_to_three_then_score() -> None:
    game = new_game("kniffel")
    for left in (2, 1, 0):
        game.roll()
        assert game.rolls_left == left
    assert game.turn.rolls == 3
    refused(game, Roll(), r"no rolls left \(3 per turn\): score or strike a box")
    assert not any(isinstance(a, Roll) for a in game.legal_actions())
    game.apply(Score("chance"))
    assert (game.player, game.turn, game.rolls_left) == ("Bob", Turn(), 3)


def test_legal_actions_after_a_roll() -> None:
    game = new_game("kniffel")
    assert game.apply(Roll(dice=(2, 2, 3, 5, 6))) == Outcome(Roll(dice=(2, 2, 3, 5, 6)), player=0)
    actions = game.legal_actions()
    rolls = [a for a in actions if isinstance(a, Roll)]
    # Every distinct choice of dice to keep, from none to all but one: 3*2*2*2 = 24 sub-multisets
    # of 2 2 3 5 6, without the five-dice one.
    assert len(rolls) == 23
    assert len(set(rolls)) == 23
    assert Roll() in rolls
    assert Roll(keep=(2, 2)) in rolls
    assert Roll(keep=(2, 2, 3, 5, 6)) not in rolls
    assert {a.box for a in actions if isinstance(a, Score)} == set(game.rules.box_keys)
    assert {a.box for a in actions if isinstance(a, Strike)} == set(game.rules.box_keys)
    assert all(game.can_apply(a) for a in actions)


def test_placements_follow_the_dice() -> None:
    game = new_game("kniffel")
    game.apply(Roll(dice=(2, 2, 5, 5, 5)))
    offered = game.placements()
    assert offered["full_house"] == Placement(25)
    assert offered["fives"] == Placement(15)
    assert offered["kniffel"] == Placement(0)


def test_rolls_keep_the_kept_dice() -> None:
    game = new_game("kniffel", ["Ada"], seed=11)
    while not game.is_over:
        kept = game.roll()[:2]
        after = game.roll(kept)
        assert len(after) == 5
        assert list(after) == sorted(after)
        assert all(after.count(face) >= kept.count(face) for face in kept)
        game.apply(Strike(game.sheet.free_keys[0]))


def test_dice_kept_earlier_may_be_picked_up_again() -> None:
    """Seed 000: "Nach dem zweiten Wurf dürfen Würfel, die beim ersten Wurf behalten wurden, wieder
    aufgenommen werden"."""
    game = new_game("kniffel")
    game.apply(Roll(dice=(1, 2, 3, 3, 5)))
    game.apply(Roll(keep=(3, 3), dice=(3, 3, 4, 4, 6)))
    game.apply(Roll(keep=(4, 4), dice=(1, 1, 4, 4, 4)))
    assert game.dice == (1, 1, 4, 4, 4)
    assert game.placements()["full_house"] == Placement(25)


@pytest.mark.parametrize(
    ("setup", "action", "message"),
    [
        ([], Roll(keep=(3,)), "nothing to keep before the first roll"),
        ([], Score("chance"), "roll the dice first"),
        ([], Strike("chance"), "roll the dice first"),
        (["roll = 1 2 3 3 5"], Roll(keep=(4,)), "can only keep dice that are showing: 1 2 3 3 5"),
        (["roll = 1 2 3 3 5"], Roll(keep=(3, 3, 3)), "can only keep dice that are showing"),
        (["roll = 1 2 3 3 5"], Roll(keep=(1, 2, 3, 3, 5)), "keeping every die leaves nothing to roll"),
        (
            ["roll = 1 2 3 3 5"],
            Roll(keep=(3, 3), dice=(1, 2, 3, 4, 5)),
            "the rolled dice must include the kept",
        ),
        ([], Roll(dice=(1, 2, 3, 4)), "expected 5 dice, got 4"),
        ([], Roll(dice=(1, 2, 3, 4, 7)), "a die shows 1 to 6, got 7"),
        ([], Roll(dice=(0, 2, 3, 4, 5)), "a die shows 1 to 6, got 0"),
        (["roll = 1 2 3 3 5"], Score("pairs"), "no box 'pairs' in kniffel"),
        (["roll = 1 2 3 3 5"], Strike("1:chance"), "no box '1:chance' in kniffel"),
        (
            ["roll = 1 2 3 3 5", "score chance", "roll = 1 2 3 3 5"],
            Score("chance"),
            "chance is already filled",
        ),
        (["roll = 1 2 3 3 5", "strike ones", "roll = 1 2 3 3 5"], Strike("ones"), "ones is already filled"),
        (
            ["roll = 1 2 3 3 5", "roll = 1 2 3 3 5", "roll = 1 2 3 3 5"],
            FreeThrow(),
            "kniffel has no free throws",
        ),
        (["roll = 1 2 3 3 5"], Announce("chance"), "chance is not in an announced column"),
        (
            ["roll = 4 4 4 4 4", "score kniffel", "roll = 3 3 3 3 3"],
            Score("chance"),
            "the joker rule sends these dice elsewhere: threes",
        ),
        (
            ["roll = 4 4 4 4 4", "score kniffel", "roll = 3 3 3 3 3"],
            Strike("chance"),
            "chance cannot be struck now; allowed: threes",
        ),
    ],
)
def test_illegal_actions_are_refused_with_the_reason(setup: list[str], action: Action, message: str) -> None:
    game = new_game("kniffel", ["Ada"])
    for line in setup:
        game.apply(Action.parse(line))
    refused(game, action, message)


def test_check_raises_and_errors_are_value_errors() -> None:
    game = new_game("kniffel")
    game.check(Roll())
    with pytest.raises(IllegalActionError, match="roll the dice first"):
        game.check(Score("chance"))
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(GameFormatError, ValueError)


# --- the special rules in play ------------------------------------------------------------------


def test_extra_kniffel_bonus_is_booked_to_the_sheet() -> None:
    game = new_game("kniffel", ["Ada"])
    score(game, (4, 4, 4, 4, 4), "kniffel")
    game.apply(Roll(dice=(4, 4, 4, 4, 4)))
    assert game.placements() == {"fours": Placement(20, 50)}
    game.apply(Score("fours"))
    score(game, (6, 6, 6, 6, 6), "sixes")
    (totals,) = game.sheet.totals
    assert game.sheet.extra_bonus == {"1": 100}
    assert (totals.upper_sum, totals.lower_sum, totals.extra_bonus, totals.lower_total) == (50, 50, 100, 150)
    assert game.sheet.total == 200


def test_struck_kniffel_box_earns_no_bonus_but_still_forces() -> None:
    game = new_game("kniffel", ["Ada"])
    strike(game, (1, 2, 3, 4, 6), "kniffel")
    score(game, (5, 5, 5, 5, 5), "fives")
    game.apply(Roll(dice=(5, 5, 5, 5, 5)))
    assert game.placements()["full_house"] == Placement(25)
    assert "fives" not in game.placements()
    game.apply(Score("full_house"))
    assert game.sheet.extra_bonus == {}
    assert game.sheet.total == 50


def test_yahtzee_bonus_100_and_forced_joker() -> None:
    game = new_game("yahtzee", ["Ada"])
    score(game, (2, 2, 2, 2, 2), "yahtzee")
    score(game, (2, 2, 2, 2, 2), "twos")
    game.apply(Roll(dice=(2, 2, 2, 2, 2)))
    assert set(game.placements()) == {
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "chance",
    }
    game.apply(Score("large_straight"))
    assert game.sheet.entries == {"yahtzee": 50, "twos": 10, "large_straight": 40}
    assert game.sheet.extra_bonus == {"1": 200}
    assert game.sheet.total == 300


def test_extra_100_does_not_count_toward_the_upper_bonus() -> None:
    """Seed 001: "under collecting with 100 + the cubes ... whereby the 100 points are not taken in
    account however with the computation of the bonus"."""
    game = new_game("kniffel", ["Ada"], extra="100")
    score(game, (6, 6, 6, 6, 6), "kniffel")
    for box, dice in [
        ("ones", (1, 1, 2, 3, 5)),
        ("twos", (2, 2, 3, 4, 6)),
        ("threes", (3, 3, 1, 2, 5)),
        ("fours", (4, 4, 1, 2, 6)),
        ("fives", (5, 5, 1, 2, 3)),
    ]:
        score(game, dice, box)
    game.apply(Roll(dice=(6, 6, 6, 6, 6)))
    assert game.placements()["sixes"] == Placement(30, 100)
    assert game.placements()["full_house"] == Placement(0, 100)
    game.apply(Score("sixes"))
    (totals,) = game.sheet.totals
    # 60 without the 100: no upper bonus.
    assert (totals.upper_sum, totals.upper_bonus) == (2 + 4 + 6 + 8 + 10 + 30, 0)
    assert totals.extra_bonus == 100
    assert game.sheet.total == 60 + 50 + 100


def test_sharp_only_when_every_die_was_in_the_last_throw() -> None:
    game = new_game("kniffel", ["Ada"], sharp="on")
    game.apply(Roll(dice=(6, 6, 6, 6, 6)))
    assert game.turn.thrown_at_once
    assert game.placements()["kniffel"] == Placement(100)
    game.apply(Roll(keep=(6, 6, 6, 6), dice=(6, 6, 6, 6, 6)))
    assert not game.turn.thrown_at_once
    assert game.placements()["kniffel"] == Placement(50)
    # "whether one ... then in the third puts all dice again in the cup": sharp again.
    game.apply(Roll(dice=(6, 6, 6, 6, 6)))
    assert game.turn.thrown_at_once
    game.apply(Score("kniffel"))
    assert game.sheet["kniffel"] == 100


def test_strict_order_in_play() -> None:
    game = new_game("kniffel", ["Ada"], strict="on")
    game.apply(Roll(dice=(2, 3, 4, 5, 6)))
    refused(game, Score("large_straight"), "column 1 is filled top-down: large_straight is not next")
    refused(game, Strike("chance"), "chance cannot be struck now; allowed: ones")
    assert {a.box for a in game.legal_actions() if isinstance(a, Score | Strike)} == {"ones"}


# --- multi-column sheets -----------------------------------------------------------------------------


def test_column_orders_in_play() -> None:
    game = new_game("kniffel-4col", ["Ada"])
    game.apply(Roll(dice=(1, 2, 3, 4, 5)))
    refused(game, Score("1:twos"), "column 1 is filled top-down: 1:twos is not next")
    refused(game, Score("2:ones"), "column 2 is filled bottom-up: 2:ones is not next")
    refused(game, Score("3:large_straight"), "3:large_straight can only be filled after announcing it")
    game.apply(Score("1:ones"))
    game.apply(Roll(dice=(1, 2, 3, 4, 5)))
    game.apply(Score("2:chance"))
    game.apply(Roll(dice=(2, 2, 3, 4, 5)))
    offered = game.placements()
    assert offered["1:twos"] == Placement(4)
    assert offered["2:kniffel"] == Placement(0)
    assert "1:threes" not in offered
    assert "2:large_straight" not in offered


def test_announcing_in_play() -> None:
    game = new_game("kniffel-4col", ["Ada", "Bob"])
    game.apply(Roll(dice=(1, 2, 3, 4, 6)))
    announce = [a for a in game.legal_actions() if isinstance(a, Announce)]
    assert [a.box for a in announce] == [f"3:{b.id}" for b in game.rules.boxes]
    game.apply(Announce("3:large_straight"))
    assert game.turn.announced == "3:large_straight"
    assert not any(isinstance(a, Announce) for a in game.legal_actions())
    refused(game, Announce("3:chance"), "3:large_straight is already announced")
    refused(game, Score("4:chance"), "3:large_straight is announced: score it or strike a box")
    # Rolling on keeps the announcement; only the announced box may be scored.
    game.apply(Roll(keep=(1, 2, 3, 4), dice=(1, 2, 3, 4, 5)))
    assert game.turn.announced == "3:large_straight"
    assert game.placements() == {"3:large_straight": Placement(40)}
    game.apply(Score("3:large_straight"))
    assert game.sheets[0]["3:large_straight"] == 40
    # Bob announces, fails, and strikes a box of another column instead.
    game.apply(Roll(dice=(1, 1, 2, 3, 6)))
    game.apply(Announce("3:kniffel"))
    game.apply(Roll(keep=(1, 1), dice=(1, 1, 1, 4, 5)))
    game.apply(Roll(keep=(1, 1, 1), dice=(1, 1, 1, 2, 6)))
    assert game.placements() == {"3:kniffel": Placement(0)}
    game.apply(Strike("4:kniffel"))
    assert game.sheets[1].entries == {"4:kniffel": 0}


def test_announce_only_right_after_the_first_roll() -> None:
    game = new_game("yams", ["Ada"])
    game.roll()
    game.roll()
    refused(game, Announce("4:chance"), "announce right after the first roll")
    refused(game, Announce("1:chance"), "1:chance is not in an announced column")


def test_unannounced_boxes_of_the_announced_column_may_be_struck() -> None:
    game = new_game("yams", ["Ada"])
    game.apply(Roll(dice=(1, 2, 3, 4, 6)))
    game.apply(Strike("4:yams"))
    assert game.sheets[0].entries == {"4:yams": 0}


# --- Knöffel's free throws (seed 002) -----------------------------------------------------------


def _three_rolls(game: Game) -> None:
    for _ in range(3):
        game.apply(Roll(dice=(1, 2, 3, 3, 6)))


def test_free_throw_after_the_regular_rolls_charged_to_the_column_scored() -> None:
    game = new_game("knoeffel", ["Ada"])
    game.apply(Roll(dice=(1, 2, 3, 3, 6)))
    refused(game, FreeThrow(), "a free throw comes after the regular rolls")
    game.apply(Roll(dice=(1, 2, 3, 3, 6)))
    game.apply(Roll(dice=(1, 2, 3, 3, 6)))
    assert FreeThrow() in game.legal_actions()
    game.apply(FreeThrow(keep=(3, 3), dice=(3, 3, 3, 3, 5)))
    assert (game.turn.rolls, game.turn.free_throws) == (3, 1)
    refused(game, FreeThrow(), "free throws a turn: at most 1")
    refused(game, Roll(), "no rolls left")
    game.apply(Score("2:four_of_a_kind"))
    assert game.sheet.free_throws_used == {"2": 1}
    first, second = game.sheet.totals
    assert (first.free_throws, second.free_throws) == (15, 10)
    assert (second.lower_sum, second.lower_total) == (17, 27)
    assert game.sheet.total == 15 + 27


def test_two_free_throws_per_turn_with_the_option() -> None:
    game = new_game("knoeffel", ["Ada"], free_throws_per_turn="2")
    _three_rolls(game)
    game.apply(FreeThrow(dice=(1, 2, 3, 4, 6)))
    game.apply(FreeThrow(keep=(1, 2, 3, 4), dice=(1, 2, 3, 4, 5)))
    refused(game, FreeThrow(), "free throws a turn: at most 2")
    game.apply(Score("1:large_straight"))
    assert game.sheet.free_throws_used == {"1": 2}
    assert game.sheet.totals[0].free_throws == 5


def test_after_a_free_throw_only_columns_with_free_throws_left_may_be_filled() -> None:
    game = new_game("knoeffel", ["Ada"])
    for box in ("ones", "twos", "threes"):
        _three_rolls(game)
        game.apply(FreeThrow(dice=(1, 2, 3, 3, 6)))
        game.apply(Score(f"1:{box}"))
    assert game.sheet.free_throws_used == {"1": 3}
    assert game.sheet.totals[0].free_throws == 0
    _three_rolls(game)
    game.apply(FreeThrow(dice=(1, 2, 3, 3, 6)))
    assert all(key.startswith("2:") for key in game.placements())
    refused(game, Score("1:chance"), "column 1 has no free throws left")
    refused(game, Strike("1:chance"), "column 1 has no free throws left")
    game.apply(Score("2:chance"))


def test_no_free_throws_left_at_all() -> None:
    game = new_game("knoeffel", ["Ada"])
    for column in ("1", "2"):
        for box in ("ones", "twos", "threes"):
            _three_rolls(game)
            game.apply(FreeThrow(dice=(1, 2, 3, 3, 6)))
            game.apply(Score(f"{column}:{box}"))
    _three_rolls(game)
    refused(game, FreeThrow(), "no free throws left")
    assert game.sheet.total == 2 * (1 + 2 + 6)


# --- end of game, winners, ties ---------------------------------------------------------------------


def _strike_all_but_chance(game: Game, chance_dice: dict[str, tuple[int, ...]]) -> None:
    while not game.is_over:
        free = game.sheet.free_keys
        if free == ["chance"]:
            score(game, chance_dice[game.player], "chance")
        else:
            strike(game, (1, 2, 3, 4, 6), next(k for k in free if k != "chance"))


def test_end_of_game_and_ties() -> None:
    game = new_game("kniffel", ["Ada", "Bob", "Cy"])
    _strike_all_but_chance(game, {"Ada": (5, 6, 6, 6, 6), "Bob": (5, 6, 6, 6, 6), "Cy": (1, 1, 2, 3, 4)})
    assert game.is_over
    assert game.legal_actions() == []
    assert game.placements() == {}
    refused(game, Roll(), "the game is over")
    refused(game, Score("chance"), "the game is over")
    assert game.totals == [29, 29, 11]
    assert game.winners() == ["Ada", "Bob"]
    assert [(s.name, s.total, s.rank) for s in game.standings()] == [
        ("Ada", 29, 1),
        ("Bob", 29, 1),
        ("Cy", 11, 3),
    ]


def test_standings_are_sorted_by_total() -> None:
    game = new_game("kniffel", ["Ada", "Bob", "Cy"])
    _strike_all_but_chance(game, {"Ada": (1, 1, 2, 3, 4), "Bob": (5, 6, 6, 6, 6), "Cy": (2, 2, 3, 4, 6)})
    assert [(s.name, s.rank) for s in game.standings()] == [("Bob", 1), ("Cy", 2), ("Ada", 3)]
    assert game.winners() == ["Bob"]


def test_no_winner_while_playing() -> None:
    game = new_game("kniffel")
    score(game, (6, 6, 6, 6, 6), "kniffel")
    assert game.winners() == []
    assert game.standings()[0].name == "Ada"


# --- undo ---------------------------------------------------------------------------------------------


def test_a_throw_stays_once_its_dice_are_seen_and_undo_after_it_keeps_them() -> None:
    game = new_game("kniffel", ["Ada"], seed=3)
    first = game.roll()
    assert not game.can_undo
    with pytest.raises(GameError, match="dice can't be re-rolled"):
        game.undo()
    assert game.dice == first, "no new dice"
    assert game.log == [Roll(dice=first)]
    assert game.taken_back == []
    kept = first[:2]
    second = game.roll(kept)
    box = next(iter(game.legal.placements))
    game.score(box)
    assert game.can_undo
    assert game.undo() == Score(box)
    assert game.dice == second, "the dice of the last throw come back, not new ones"
    assert game.rolls_left == game.rules.rolls - 2
    with pytest.raises(GameError, match="dice can't be re-rolled"):
        game.undo()
    assert game.log == [Roll(dice=first), Roll(keep=kept, dice=second)]


def test_a_finished_game_is_final() -> None:
    game = new_game("kniffel", ["Ada"])
    for box in game.rules.box_keys:
        score(game, (1, 2, 3, 4, 6), box)
    assert game.is_over
    assert game.undo_blocker() == "the game is over: a finished game stays as it ended"
    with pytest.raises(GameError, match="a finished game stays as it ended"):
        game.undo()
    assert game.is_over
    assert len(game.log) == 2 * len(game.rules.box_keys)


def test_the_game_keeps_what_was_taken_back_and_saves_it() -> None:
    game = new_game("kniffel")
    score(game, (1, 2, 3, 4, 6), "chance")
    assert game.undo() == Score("chance")
    game.apply(Score("small_straight"))
    score(game, (2, 2, 3, 3, 3), "full_house")
    assert game.undo() == Score("full_house")
    assert game.taken_back == [TakenBack(1, 0, Score("chance")), TakenBack(3, 1, Score("full_house"))]
    assert game.log[1] == Score("small_straight"), "the log holds what came instead"
    data = json.loads(game.dumps())
    assert data["taken_back"] == [
        {"at": 1, "player": 0, "action": {"action": "score", "box": "chance"}},
        {"at": 3, "player": 1, "action": {"action": "score", "box": "full_house"}},
    ]
    loaded = Game.loads(game.dumps())
    assert state(loaded) == state(game)
    assert loaded.taken_back == game.taken_back
    assert game.copy().taken_back == game.taken_back
    del data["taken_back"]  # a save from before: nothing was taken back
    assert Game.from_json(data).taken_back == []
    assert "taken_back" not in new_game("kniffel").to_json()


def test_a_score_pad_takes_back_a_typed_throw() -> None:
    game = Game(rules.get("kniffel"), ["Ada"], pad=True)
    game.apply(Roll(dice=(1, 2, 3, 3, 5)))
    game.apply(Roll(keep=(3, 3), dice=(3, 3, 4, 4, 6)))
    assert game.undo() == Roll(keep=(3, 3), dice=(3, 3, 4, 4, 6))
    assert game.turn == Turn(dice=(1, 2, 3, 3, 5), rolls=1, thrown_at_once=True)
    assert game.taken_back == [TakenBack(1, 0, Roll(keep=(3, 3), dice=(3, 3, 4, 4, 6)))]
    assert game.copy().pad
    assert Game.loads(game.dumps(), pad=True).can_undo
    assert not Game.loads(game.dumps()).can_undo, "the same throw in a game of thrown dice stays"


def test_retract_withdraws_any_action_and_keeps_nothing_of_it() -> None:
    game = new_game("kniffel")
    game.apply(Roll(dice=(1, 2, 3, 3, 5)))
    game.apply(Roll(keep=(3, 3), dice=(3, 3, 4, 4, 6)))
    assert game.last_player == 0
    assert game.retract() == Roll(keep=(3, 3), dice=(3, 3, 4, 4, 6))
    assert game.turn == Turn(dice=(1, 2, 3, 3, 5), rolls=1, thrown_at_once=True)
    assert game.retract() == Roll(dice=(1, 2, 3, 3, 5))
    assert game.turn == Turn()
    assert game.taken_back == []
    assert game.last_player is None
    with pytest.raises(GameError, match="nothing to undo"):
        game.retract()


@pytest.mark.parametrize(
    ("taken_back", "message"),
    [
        ("chance", "taken_back must be a list"),
        ([3], "taken-back action 1 must be an object"),
        ([{"at": -1, "player": 0, "action": {"action": "score", "box": "chance"}}], "at must be a place"),
        ([{"at": 99, "player": 0, "action": {"action": "score", "box": "chance"}}], "at must be a place"),
        ([{"at": True, "player": 0, "action": {"action": "score", "box": "chance"}}], "at must be a place"),
        ([{"at": 0, "player": 2, "action": {"action": "score", "box": "chance"}}], "player must be a seat"),
        ([{"at": 0, "player": "Ada", "action": {"action": "score"}}], "player must be a seat"),
        ([{"at": 0, "player": 0, "action": {"action": "fly"}}], "not an action"),
        ([{"at": 0, "player": 0}], "not an action"),
    ],
)
def test_a_damaged_record_of_taken_back_actions_is_refused(taken_back: object, message: str) -> None:
    data = _saved()
    data["taken_back"] = taken_back
    with pytest.raises(GameFormatError, match=message):
        Game.from_json(data)


def test_undo_a_score_restores_the_sheet_and_the_player() -> None:
    game = new_game("yahtzee")
    score(game, (2, 2, 2, 2, 2), "yahtzee")
    score(game, (1, 2, 3, 4, 6), "chance")
    score(game, (1, 2, 2, 3, 4), "twos")
    strike(game, (1, 2, 3, 4, 6), "ones")
    game.apply(Roll(dice=(2, 2, 2, 2, 2)))
    game.apply(Score("full_house"))
    assert game.sheets[0].extra_bonus == {"1": 100}
    assert game.player == "Bob"
    assert game.undo() == Score("full_house")
    assert game.player == "Ada"
    assert game.turn.dice == (2, 2, 2, 2, 2)
    assert game.sheet.entries == {"yahtzee": 50, "twos": 4}
    assert game.sheet.extra_bonus == {}
    game.apply(Score("large_straight"))
    assert game.sheets[0].entries == {"yahtzee": 50, "twos": 4, "large_straight": 40}
    assert game.sheets[0].extra_bonus == {"1": 100}


def test_undo_restores_free_throws_and_announcements() -> None:
    game = new_game("knoeffel", ["Ada"])
    _three_rolls(game)
    game.apply(FreeThrow(dice=(1, 2, 3, 3, 6)))
    game.apply(Score("1:chance"))
    assert game.sheet.free_throws_used == {"1": 1}
    game.undo()
    assert game.sheet.free_throws_used == {}
    assert game.turn.free_throws == 1
    four = new_game("kniffel-4col", ["Ada"])
    four.roll()
    four.apply(Announce("3:chance"))
    assert four.undo() == Announce("3:chance")
    assert four.turn.announced is None
    assert four.can_apply(Announce("3:ones"))


def test_retract_walks_back_to_the_very_start() -> None:
    game = new_game("kniffel-4col", ["Ada", "Bob"], seed=5)
    fresh = state(new_game("kniffel-4col", ["Ada", "Bob"], seed=5))
    for i in range(6):
        game.roll()
        game.apply(Announce(f"3:{game.rules.boxes[i // 2].id}"))
        game.roll()
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Score | Strike)))
    assert len(game.log) == 24
    undone = [game.retract() for _ in range(24)]
    assert state(game) == fresh
    assert game.sheets[0].entries == {}
    assert isinstance(undone[0], Score | Strike)
    assert undone[-1] == game.apply(undone[-1]).action
    with pytest.raises(GameError, match="nothing to undo"):
        new_game("kniffel").undo()


# --- saving and loading -----------------------------------------------------------------------------


def _some_game(rules_id: str = "kniffel", **options: str) -> Game:
    game = new_game(rules_id, ["Ada", "Bob"], seed=9, **options)
    for _ in range(5):
        game.roll()
        game.roll(game.dice[:2] if game.dice else ())
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Score)))
    game.roll()
    return game


def test_json_shape() -> None:
    game = _some_game(extra="100")
    data = json.loads(game.dumps())
    assert data["format"] == 1
    assert (data["rules"], data["options"], data["players"]) == ("kniffel", {"extra": "100"}, ["Ada", "Bob"])
    assert data["totals"] == game.totals
    assert len(data["actions"]) == len(game.log) == 16
    assert all("dice" in a for a in data["actions"] if a["action"] == "roll")
    assert data["actions"][-1] == {"action": "roll", "keep": [], "dice": list(game.dice or ())}


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [("kniffel", {"sharp": "on"}), ("yahtzee", {"joker": "free"}), ("knoeffel", {}), ("yatzy-deluxe", {})],
)
def test_json_round_trip_mid_turn(rules_id: str, options: dict[str, str]) -> None:
    game = _some_game(rules_id, **options)
    loaded = Game.loads(game.dumps())
    assert state(loaded) == state(game)
    assert loaded.rules == game.rules
    assert loaded.totals == game.totals
    assert Game.from_json(game.to_json()).legal_actions() == game.legal_actions()


def test_a_loaded_game_plays_on_with_its_new_dice() -> None:
    game = _some_game()
    loaded = Game.loads(game.dumps(), dice=SeededDice(1))
    game.dice_source = SeededDice(1)
    assert loaded.roll(()) == game.roll(())


def _saved() -> dict[str, Any]:
    data = _some_game().to_json()
    assert isinstance(data, dict)
    return data


def _tamper(change: dict[str, Any], *, declared: bool = True) -> dict[str, Any]:
    """A saved game with ``change`` made; ``declared=False`` drops the rule set's declaration, as in
    saves that only name a built-in rule set."""
    data = _saved()
    if not declared:
        del data["ruleset"]
    data.update(change)
    return data


def _tamper_action(index: int, action: Any) -> dict[str, Any]:
    data = _saved()
    data["actions"][index] = action
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a saved game is a JSON object"),
        (_tamper({"format": 2}), "unsupported save format 2"),
        (_tamper({"format": None}), "unsupported save format None"),
        (_tamper({"totals": [1, 2]}), "the saved totals do not match the replayed game"),
        (_tamper({"rules": "kniffle"}, declared=False), "unknown rule set 'kniffle'"),
        (_tamper({"options": {"sharp": "maybe"}}, declared=False), "option sharp must be one of off, on"),
        (_tamper({"options": {"joker": "free"}}, declared=False), "kniffel has no option 'joker'"),
        (_tamper({"rules": "yahtzee"}), r"the saved rule set is kniffel \{\}, but the save names yahtzee"),
        (_tamper({"options": {"sharp": "on"}}), "the saved rule set is kniffel"),
        (
            _tamper({"ruleset": {"id": "kniffel"}}),
            "the saved rule set is damaged: a rule set needs name, boxes",
        ),
        (_tamper({"ruleset": []}), "the saved rule set is damaged: a rule set is a JSON object"),
        (_tamper({"players": "Ada"}), "players and actions must be lists"),
        (_tamper({"actions": {}}), "players and actions must be lists"),
        (_tamper({"players": [f"P{i}" for i in range(9)]}), "a game has 1 to 8 players"),
        (_tamper({"players": ["Ada", "Ada"]}), "player names must differ"),
        (_tamper_action(0, {"action": "roll", "keep": []}), "action 1: a saved roll must record its dice"),
        (
            _tamper_action(0, {"action": "roll", "dice": [1, 2, 3, 4, 7]}),
            "action 1 .* is illegal: a die shows",
        ),
        (_tamper_action(0, {"action": "roll", "dice": [1, 2, 3, 4]}), "is illegal: expected 5 dice, got 4"),
        (_tamper_action(0, {"action": "roll", "dice": "12345"}), "dice must be a list of faces"),
        (_tamper_action(0, {"action": "jump"}), "not an action"),
        (_tamper_action(0, "roll"), "not an action"),
        (
            _tamper_action(0, {"action": "score", "box": "chance"}),
            r"action 1 \(score chance\) is illegal: roll the dice",
        ),
        (_tamper_action(2, {"action": "score"}), "incomplete action"),
        (_tamper_action(2, {"action": "score", "box": 3}), "box must be a box name, got 3"),
        (_tamper_action(2, {"action": "score", "box": "pairs"}), "no box 'pairs' in kniffel"),
        (_tamper_action(2, {"action": "roll", "dice": [1, 2, 3, 4, 5]}), "no rolls left"),
    ],
)
def test_damaged_saves_are_refused(data: Any, message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        Game.from_json(data)


def test_a_save_that_lacks_a_field() -> None:
    for field in ("rules", "players", "actions"):
        data = _saved()
        del data[field]
        if field == "rules":  # the declaration names the rules as well
            del data["ruleset"]
        with pytest.raises(GameFormatError, match=f"saved game lacks '{field}'"):
            Game.from_json(data)


def test_an_illegal_score_in_the_log() -> None:
    data = _saved()
    # Bob's first score repeated as his second: the box is full by then.
    scores = [i for i, a in enumerate(data["actions"]) if a["action"] == "score"]
    data["actions"][scores[3]] = data["actions"][scores[1]]
    box = data["actions"][scores[1]]["box"]
    data.pop("totals")
    with pytest.raises(
        GameFormatError, match=f"action {scores[3] + 1} \\(score {box}\\) is illegal: {box} is already filled"
    ):
        Game.from_json(data)


def test_totals_are_optional_but_checked_when_present() -> None:
    data = _saved()
    del data["totals"]
    assert Game.from_json(data).totals == _some_game().totals


@pytest.mark.parametrize("text", ["", "{", "not json", "[1, 2"])
def test_text_that_is_not_json(text: str) -> None:
    with pytest.raises(GameFormatError, match="not JSON"):
        Game.loads(text)


def test_options_that_are_not_an_object() -> None:
    with pytest.raises(GameFormatError):
        Game.from_json(_tamper({"options": ["sharp=on"]}))


def test_an_action_name_that_is_not_a_string() -> None:
    with pytest.raises(GameFormatError, match="not an action"):
        Game.from_json(_tamper_action(0, {"action": ["roll"], "dice": [1, 2, 3, 4, 5]}))


def test_a_boolean_kept_die() -> None:
    data = _saved()
    data["actions"][:2] = [
        {"action": "roll", "dice": [1, 2, 3, 4, 6]},
        {"action": "roll", "keep": [True], "dice": [1, 1, 2, 3, 4]},
    ]
    data.pop("totals")
    with pytest.raises(GameFormatError, match="keep must be a list of faces"):
        Game.from_json(data)


def test_player_names_that_are_not_strings() -> None:
    with pytest.raises(GameFormatError, match="player"):
        Game.from_json(_tamper({"players": [1, None]}))


# --- action records -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Roll(), "roll"),
        (Roll(keep=(3, 3)), "roll keep 3 3"),
        (Roll(dice=(1, 2, 3, 4, 5)), "roll = 1 2 3 4 5"),
        (Roll(keep=(3, 3, 5), dice=(1, 3, 3, 4, 5)), "roll keep 3 3 5 = 1 3 3 4 5"),
        (FreeThrow(), "free"),
        (FreeThrow(keep=(6, 6)), "free keep 6 6"),
        (FreeThrow(keep=(6, 6), dice=(1, 2, 6, 6, 6)), "free keep 6 6 = 1 2 6 6 6"),
        (Announce("3:full_house"), "announce 3:full_house"),
        (Score("chance"), "score chance"),
        (Score("2:chance"), "score 2:chance"),
        (Strike("ones"), "strike ones"),
    ],
)
def test_action_text_and_json_round_trip(action: Action, text: str) -> None:
    assert str(action) == text
    assert Action.parse(text) == action
    assert Action.parse(str(action)) == action
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action


def test_action_parse_is_forgiving_about_order_and_spaces() -> None:
    assert Action.parse("  roll   keep 5 3  =  6 5 3 1 2 ") == Roll(keep=(3, 5), dice=(1, 2, 3, 5, 6))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "unknown action ''"),
        ("jump", "unknown action 'jump'; actions: roll, free, announce, score, strike"),
        ("roll hold 3", "expected 'keep' after 'roll', got 'hold'"),
        ("roll 3 3", "expected 'keep' after 'roll', got '3'"),
        ("roll keep a", "dice are numbers 1-6, got 'a'"),
        ("roll = 1 2 x", "dice are numbers 1-6"),
        ("score", "score takes one box, e.g. 'score chance'"),
        ("strike ones twos", "strike takes one box"),
    ],
)
def test_action_parse_errors(text: str, message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        Action.parse(text)


def test_actions_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Score("chance").box = "ones"  # type: ignore[misc]
    assert hash(Roll(keep=(1,))) == hash(Roll(keep=(1,)))


def test_roll_keeps_are_multisets() -> None:
    action = Roll(keep=(5, 3), dice=(6, 5, 3, 1, 2))
    assert action == Roll(keep=(3, 5), dice=(1, 2, 3, 5, 6))
    assert Action.parse(str(action)) == action


def test_score_pad_dice_in_any_order() -> None:
    game = new_game("kniffel")
    game.apply(Roll(dice=(6, 1, 3, 2, 2)))
    assert game.dice == (1, 2, 2, 3, 6)
    assert game.placements()["twos"] == Placement(4)


# --- dice sources -------------------------------------------------------------------------------------


def test_seeded_dice_repeat_and_secure_dice_are_dice() -> None:
    assert SeededDice(42).throw(5) == SeededDice(42).throw(5)
    throws = {SeededDice(seed).throw(5) for seed in range(20)}
    assert len(throws) > 1
    secure = SecureDice()
    for _ in range(50):
        dice = secure.throw(6)
        assert len(dice) == 6
        assert all(1 <= d <= 6 for d in dice)


def test_the_same_seed_gives_the_same_game() -> None:
    def play(seed: int) -> list[Action]:
        game = new_game("yatzy", seed=seed)
        while not game.is_over:
            game.roll()
            game.roll(game.dice[-2:] if game.dice else ())
            game.apply(max((a for a in game.legal_actions() if isinstance(a, Score)), key=str))
        return game.log

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_rolls_without_dice_use_the_game_dice_source() -> None:
    game = new_game("yatzy-deluxe", seed=8)
    completed = game.apply(Roll()).action
    assert isinstance(completed, Roll)
    assert completed.dice == game.dice
    assert completed.dice == tuple(sorted(SeededDice(8).throw(6)))
    assert game.log == [completed]


# --- what an action did ---------------------------------------------------------------------------


def test_apply_says_what_a_score_earned() -> None:
    game = new_game("yahtzee", ["Ada"])
    roll = game.apply(Roll(dice=(6, 6, 6, 6, 6)))
    assert roll == Outcome(Roll(dice=(6, 6, 6, 6, 6)), player=0)
    assert (roll.dice, roll.box, roll.ends_turn, roll.total) == ((6, 6, 6, 6, 6), None, False, 0)
    scored = game.score("yahtzee")
    assert scored == Outcome(Score("yahtzee"), 0, "yahtzee", 50)
    assert scored.ends_turn
    game.apply(Roll(dice=(6, 6, 6, 6, 6)))
    extra = game.score("sixes")
    assert (extra.points, extra.extra_bonus, extra.upper_bonus, extra.total) == (30, 100, 0, 130)
    for box, dice in (("ones", (1, 1, 1, 2, 3)), ("twos", (2, 2, 2, 3, 4)), ("threes", (3, 3, 3, 1, 2))):
        game.apply(Roll(dice=dice))
        assert game.score(box).upper_bonus == 0
    game.apply(Roll(dice=(4, 4, 4, 1, 2)))
    done = game.score("fours")  # 30 + 3 + 6 + 9 + 12 = 60: not yet
    assert done.upper_bonus == 0
    game.apply(Roll(dice=(5, 1, 1, 2, 3)))
    done = game.score("fives")  # 65
    assert (done.points, done.upper_bonus, done.total) == (5, 35, 40)
    game.apply(Roll(dice=(1, 2, 3, 4, 6)))
    struck = game.strike("chance")
    assert struck == Outcome(Strike("chance"), 0, "chance", 0)
    assert game.sheet.total == 50 + 130 + 3 + 6 + 9 + 12 + 5 + 35


def test_outcomes_name_the_player_who_acted() -> None:
    game = new_game("kniffel", ["Ada", "Bob"])
    game.apply(Roll(dice=(1, 2, 3, 4, 5)))
    assert game.score("large_straight").player == 0
    assert game.apply(Roll(dice=(1, 2, 3, 4, 5))).player == 1


# --- one error hierarchy ----------------------------------------------------------------------------


def test_every_refusal_is_a_kniffel_error() -> None:
    game = new_game("kniffel")
    refusals: list[tuple[type[KniffelError], Callable[[], object]]] = [
        (RulesError, lambda: rules.get("kniffle")),
        (UnknownBoxError, lambda: game.rules.locate("pairs")),
        (UnknownBoxError, lambda: game.rules.box("pairs")),
        (UnknownBoxError, lambda: game.sheet["pairs"]),
        (DiceError, lambda: validate_dice([1, 2, 3], 5)),
        (GameError, lambda: Game(game.rules, [])),
        (GameError, game.undo),
        (IllegalActionError, lambda: game.apply(Score("chance"))),
        (GameFormatError, lambda: Game.loads("{")),
        (GameFormatError, lambda: Action.parse("jump")),
        (SheetError, lambda: ScoreSheet.parse(game.rules, "ones=9")),
        (SituationError, lambda: Situation.parse("kniffel")),
    ]
    for error, attempt in refusals:
        assert issubclass(error, KniffelError)
        with pytest.raises(error):
            attempt()


# --- the library as python-chess users expect it: text in, text out, copies and replays --------------


def test_apply_takes_action_text_and_says_what_to_pass_otherwise() -> None:
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(7))
    assert game.apply("roll").dice == (1, 2, 3, 4, 6)
    assert game.apply("k 1 2 3 4").action == Roll(keep=(1, 2, 3, 4), dice=game.dice)
    outcome = game.apply("score Große Straße" if game.dice == (1, 2, 3, 4, 5) else "s chance")
    assert outcome.box is not None
    with pytest.raises(GameFormatError, match=r"apply takes an action \(Roll\(\), Score\('chance'\)"):
        game.apply(3)  # type: ignore[arg-type]
    with pytest.raises(GameFormatError, match=r"'dance' is no action: type e\.g\. 'roll'"):
        game.apply("dance")
    with pytest.raises(IllegalActionError, match="roll the dice first"):
        game.apply("score chance")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("r", Roll()),
        ("roll", Roll()),
        ("würfeln", Roll()),
        ("k 3 3", Roll(keep=(3, 3))),
        ("keep 33", Roll(keep=(3, 3))),
        ("3 3", Roll(keep=(3, 3))),
        ("3 3 halten", Roll(keep=(3, 3))),
        ("roll keep 3 3 = 1 3 3 4 6", Roll(keep=(3, 3), dice=(1, 3, 3, 4, 6))),
        ("s full", Score("full_house")),
        ("chance", Score("chance")),
        ("Kleine Straße eintragen", Score("small_straight")),
        ("x Einser", Strike("ones")),
        ("Einser streichen", Strike("ones")),
        ("score Three of a kind", Score("three_of_a_kind")),
    ],
)
def test_parse_action_reads_short_and_shown_forms(text: str, action: Action) -> None:
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
    game.apply(Roll(dice=(1, 3, 3, 5, 6)))
    assert game.parse_action(text) == action


def test_parse_action_prefers_the_legal_box_and_names_what_it_cannot_read() -> None:
    game = Game(rules.get("kniffel-4col"), ["Ada"], dice=SeededDice(1))
    game.apply(Roll(dice=(1, 3, 3, 5, 6)))
    # Column 1 is filled top-down, 2 bottom-up, 3 is announced: only column 4's fives take the dice.
    assert game.parse_action("s fives") == Score("4:fives")
    with pytest.raises(UnknownBoxError, match="'chance' could be 2:chance, 4:chance"):
        game.parse_action("s chance")
    assert game.parse_action("Chance (2) streichen") == Strike("2:chance")
    assert game.parse_action("f") == FreeThrow()
    with pytest.raises(UnknownBoxError, match="no box 'zzz' in kniffel-4col"):
        game.parse_action("x zzz")
    with pytest.raises(GameFormatError, match="names several actions"):
        game.parse_action("score strike chance")
    with pytest.raises(GameFormatError, match="name the faces to keep"):
        game.parse_action("keep")


def test_copy_is_independent_and_keeps_the_history() -> None:
    game = Game(rules.get("yahtzee"), ["Ada", "Bob"], dice=SeededDice(4))
    game.apply("r")
    game.apply("s chance")
    copy = game.copy(dice=SeededDice(9))
    assert copy.dumps() == game.dumps()
    copy.apply("r")
    copy.apply("x ones")
    assert len(game.log) == 2
    assert "ones" not in game.sheets[1].entries
    assert copy.undo() == Strike("ones")
    copy.retract()  # the copy's own throw
    assert copy.log == game.log, "undo works on the copied history"
    assert copy.to_json()["actions"] == game.to_json()["actions"]
    assert copy.taken_back == [TakenBack(3, 1, Strike("ones"))]
    assert game.taken_back == []


def test_a_seeded_games_copies_stay_seeded_unless_asked_otherwise() -> None:
    """A copy of a game with seeded dice throws what the game would throw next, the two apart from then
    on; secure dice stay secure, and dice given to the copy are its own."""
    game = Game(rules.get("yahtzee"), ["Ada"], dice=SeededDice(4))
    game.apply("r")
    twin = game.copy()
    assert isinstance(twin.dice_source, SeededDice)
    assert twin.dice_source is not game.dice_source
    ahead = [twin.roll(), twin.roll()]
    assert [game.roll(), game.roll()] == ahead
    assert (
        Game(rules.get("yahtzee"), ["Ada"], dice=SeededDice(4)).copy().roll()
        == Game(rules.get("yahtzee"), ["Ada"], dice=SeededDice(4)).roll()
    )
    assert isinstance(Game(rules.get("yahtzee"), ["Ada"]).copy().dice_source, SecureDice)
    assert isinstance(game.copy(dice=SecureDice()).dice_source, SecureDice)


def test_a_game_pickles_and_deep_copies() -> None:
    """A game goes through pickle (to another process) and ``copy.deepcopy`` (a copy with the seeded
    dice at the same point) and plays on alike."""
    import copy
    import pickle

    game = Game(rules.get("yahtzee"), ["Ada", "Bob"], dice=SeededDice(4))
    game.apply("r")
    assert game.legal  # worked out, then left behind by pickle
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert twin.to_json() == game.to_json()
        assert twin.legal_actions() == game.legal_actions()
        assert twin.copy().roll() == game.copy().roll()


def test_replay_yields_every_position_with_its_action() -> None:
    game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(2))
    for _ in range(3):
        game.apply("r")
        game.apply(
            next(iter(game.legal.placements)) if game.legal.placements else f"x {game.legal.strikeable[0]}"
        )
    seen = [(position.player, position.round, action) for position, action in game.replay()]
    assert [action for _, _, action in seen] == game.log
    assert [(player, turn) for player, turn, _ in seen[:4]] == [
        ("Ada", 1),
        ("Ada", 1),
        ("Bob", 1),
        ("Bob", 1),
    ]
    positions = [position.copy() for position, _ in game.replay()]
    assert positions[0].dice is None
    assert positions[1].dice == game.log[0].dice  # type: ignore[attr-defined]


def test_str_of_a_game_is_its_sheets_and_whose_turn() -> None:
    game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(7))
    game.apply("r")
    game.apply("s chance")
    text = str(game)
    assert (
        text.splitlines()[0] == "Kniffel (Schmidt), round 1 of 13: Bob to move, not rolled yet, 3 rolls left"
    )
    assert text.splitlines()[1].split() == ["Box", "Ada", "Bob"]
    assert re.search(r"^Chance +16$", text, re.MULTILINE)
    assert [line.split()[-1] for line in text.splitlines() if line.startswith("Total")] == ["0"]
    assert repr(game) == "<Game kniffel ['Ada', 'Bob'], 2 actions>"
