"""Situations: the position of the player to move as one line of text, and games made from one."""

from __future__ import annotations

import pytest
from hypothesis import given

from kniffel import (
    DiceError,
    Game,
    GameError,
    KniffelError,
    RulesError,
    ScoreSheet,
    SeededDice,
    SheetError,
    Situation,
    SituationError,
    rules,
)
from kniffel.engine import situation as situation_module
from kniffel.engine.actions import Announce, FreeThrow, Roll, Score
from support.games import new_game
from support.strategies import positions


@given(positions())
def test_text_round_trip_and_games_made_from_a_situation(game: Game) -> None:
    if game.is_over:
        with pytest.raises(GameError, match="the game is over"):
            game.situation()
        return
    situation = game.situation()
    text = str(situation)
    assert "\n" not in text
    again = Situation.parse(text)
    assert again == situation
    assert str(again) == text
    made = Game.from_situation(again)
    assert len(made.players) == len(game.players)
    assert made.player == "Player"
    assert made.situation() == situation
    assert made.legal == game.legal
    assert made.sheet.totals == game.sheet.totals
    assert made.rolls_left == game.rolls_left


EXAMPLES = [
    line.strip()
    for line in (situation_module.__doc__ or "").splitlines()
    if line.startswith("    ") and " | rolls left " in line and "RULES" not in line
]


def test_the_documented_examples_read_back_as_written() -> None:
    assert len(EXAMPLES) == 4
    for text in EXAMPLES:
        assert str(Situation.parse(text)) == text


def test_what_a_situation_says() -> None:
    situation = Situation.parse(
        "kniffel-4col | 1:ones=2 2:chance=24 | 1 3 3 3 6 | rolls left 2 | thrown at once | announced 3:threes"
    )
    assert situation.rules == rules.get("kniffel-4col")
    assert situation.sheet.entries == {"1:ones": 2, "2:chance": 24}
    assert (situation.dice, situation.rolls_left, situation.free_throws) == ((1, 3, 3, 3, 6), 2, 0)
    assert situation.thrown_at_once
    assert situation.announced == "3:threes"
    game = Game.from_situation(situation, player="Ada")
    assert game.players == ("Ada",)
    assert game.placements() == {"3:threes": game.placements()["3:threes"]}
    assert game.placements()["3:threes"].points == 9


def test_the_start_of_a_turn_and_free_throws() -> None:
    fresh = new_game("yahtzee", ["Ada"], joker="free")
    assert str(fresh.situation()) == "yahtzee joker=free | empty | no dice | rolls left 3"
    assert str(new_game("yahtzee").situation()) == "yahtzee | empty | no dice | rolls left 3 | others empty"
    assert Game.from_situation(fresh.situation()).legal_actions() == [Roll()]
    knoeffel = Situation.parse(
        "knoeffel | 1:knoeffel=20 2:free_throws_used=1 | 4 4 4 6 6 | rolls left 0 | free throws taken 1"
    )
    game = Game.from_situation(knoeffel)
    assert game.turn.free_throws == 1
    assert not any(isinstance(a, FreeThrow) for a in game.legal_actions())  # one a turn
    game.apply(Score("2:full_house"))
    assert game.sheet.free_throws_used == {"2": 2}


def test_parts_may_come_in_any_order_and_spacing() -> None:
    text = "kniffel  sharp=on |ones=3,  twos=6|  6 6 6 1 2 |announced 3:x| rolls left 1"
    with pytest.raises(SituationError, match="announced: no box '3:x' in kniffel"):
        Situation.parse(text)
    situation = Situation.parse(
        "kniffel sharp=on | ones=3, twos=6 | 6,6,6,1,2 | thrown at once | rolls left 1"
    )
    assert str(situation) == "kniffel sharp=on | ones=3 twos=6 | 1 2 6 6 6 | rolls left 1 | thrown at once"


def test_a_situation_keeps_its_own_copy_of_the_sheet() -> None:
    rs = rules.get("kniffel")
    sheet = ScoreSheet.parse(rs, "ones=3")
    situation = Situation(rs, sheet, (1, 2, 3, 4, 5), 1)
    sheet.entries["twos"] = 4
    assert situation.sheet.entries == {"ones": 3}
    game = Game.from_situation(situation)
    game.apply(Score("chance"))
    assert situation.sheet.entries == {"ones": 3}
    with pytest.raises(GameError, match="nothing to undo"):
        Game.from_situation(situation).undo()


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("kniffel", SituationError, r"a situation is RULES \| SHEET \| DICE \| rolls left N"),
        (" | empty | 1 2 3 4 5 | rolls left 1", SituationError, "starts with its rule set id"),
        ("kniffle | empty | 1 2 3 4 5 | rolls left 1", RulesError, "unknown rule set 'kniffle'"),
        ("kniffel joker=free | empty | 1 2 3 4 5 | rolls left 1", RulesError, "no option 'joker'"),
        ("kniffel | ones=9 | 1 2 3 4 5 | rolls left 1", SheetError, "ones cannot hold 9"),
        ("kniffel | empty | 1 2 3 4 | rolls left 1", DiceError, "expected 5 dice, got 4"),
        ("kniffel | empty | 1 2 3 4 x | rolls left 1", SituationError, "dice are faces 1 to 6"),
        ("kniffel | empty | 1 2 3 4 5", SituationError, "must say how many rolls are left"),
        ("kniffel | empty | 1 2 3 4 5 | rolls left 1 | rolls left 1", SituationError, "says this twice"),
        ("kniffel | empty | 1 2 3 4 5 | rolls left 1 | maybe", SituationError, "'maybe' is not a part"),
        ("kniffel | empty | 1 2 3 4 5 | rolls left 3", SituationError, "rolls left must be 0 to 2"),
        ("kniffel | empty | no dice | rolls left 2", SituationError, "before the first roll"),
        ("kniffel | empty | no dice | rolls left 3 | thrown at once", SituationError, "before the first"),
        (
            "kniffel | empty | 1 2 3 4 5 | rolls left 0 | free throws taken 1",
            SituationError,
            "no free throws",
        ),
        ("knoeffel | empty | 1 2 3 4 5 | rolls left 1 | free throws taken 1", SituationError, "after the"),
        ("knoeffel | empty | 1 2 3 4 5 | rolls left 0 | free throws taken 2", SituationError, "at most 1"),
        (
            "knoeffel | 1:free_throws_used=3 2:free_throws_used=3 | 1 2 3 4 5 | rolls left 0 "
            "| free throws taken 1",
            SituationError,
            r"no column with a free box can pay for the free throws taken \(1\)",
        ),
        (
            "kniffel | empty | 1 2 3 4 5 | rolls left 1 | announced chance",
            SituationError,
            "not in an announced",
        ),
        ("yams | empty | 1 2 3 4 5 | rolls left 1 | announced 4:nope", SituationError, "no box '4:nope'"),
        ("yams | 4:yams=50 | 1 2 3 4 5 | rolls left 1 | announced 4:yams", SituationError, "already filled"),
        (
            "kniffel strict=on | chance=20 | 1 2 3 4 5 | rolls left 1",
            SheetError,
            "chance cannot be filled yet",
        ),
    ],
)
def test_impossible_situations_are_refused(text: str, error: type[KniffelError], message: str) -> None:
    with pytest.raises(error, match=message):
        Situation.parse(text)


def test_a_full_sheet_leaves_no_situation() -> None:
    rs = rules.get("yatzy")
    full = " ".join(f"{key}=0" for key in rs.box_keys)
    with pytest.raises(SituationError, match="the sheet is full"):
        Situation.parse(f"yatzy | {full} | 1 2 3 4 5 | rolls left 0")


def test_a_situation_of_another_rule_sets_sheet_is_refused() -> None:
    with pytest.raises(SituationError, match="must be a sheet of yahtzee"):
        Situation(rules.get("yahtzee"), ScoreSheet(rules.get("kniffel")), (1, 2, 3, 4, 5), 1)


def test_an_announcement_made_in_a_game_is_part_of_its_situation() -> None:
    game = new_game("kniffel-3col", ["Ada"])
    game.apply(Roll(dice=(2, 2, 2, 5, 6)))
    game.apply(Announce("3:twos"))
    text = str(game.situation())
    assert text == "kniffel-3col | empty | 2 2 2 5 6 | rolls left 2 | thrown at once | announced 3:twos"
    assert Game.from_situation(Situation.parse(text)).legal == game.legal


def test_a_table_text_holds_every_players_sheet_and_seats_them_again() -> None:
    """The other players' sheets make the text a whole table (a FEN of the game): those still to move
    in the round come first, then those who have moved (a box more); a game made from it seats them so
    and reads back the same text."""
    yahtzee = rules.get("yahtzee")
    game = Game(yahtzee, ["Ada", "Bob", "Cy"], dice=SeededDice(4))
    for _ in range(4):  # Ada and Bob have had a turn of round 2, Cy is to move
        game.roll()
        game.apply(planner_choice(game))
    game.roll()
    assert game.player == "Bob"
    situation = game.situation()
    text = str(situation)
    assert " | others " in text
    assert [len(s.entries) for s in situation.others] == [1, 2]
    again = Situation.parse(text)
    assert again == situation
    made = Game.from_situation(again)
    assert made.current == 1
    assert [len(s.entries) for s in made.sheets] == [2, 1, 1]
    assert str(made.situation()) == text


def planner_choice(game: Game) -> Score:
    """The first box the dice may go in (a quick, legal entry)."""
    return Score(next(iter(game.placements())))


@pytest.mark.parametrize(
    ("others", "message"),
    [
        ("twos=6 ; ", "others are sheets separated by ';'"),
        ("twos=6 fours=8 threes=9", "other player 1: 3 filled, where"),
        ("twos=6 fours=8 ; twos=4", "in the order they move"),
        ("nonsense=3", "no box"),
    ],
)
def test_impossible_tables_are_refused(others: str, message: str) -> None:
    with pytest.raises(KniffelError, match=message):
        Situation.parse(f"yahtzee | ones=3 | 1 2 3 4 5 | rolls left 2 | others {others}")


@pytest.mark.parametrize(
    ("text", "written"),
    [
        (
            "kniffel | Einser=3 Große Straße=40 | 2 2 3 5 5 | noch 1 Wurf | andere Zweier=6 Dreier=9",
            "kniffel | ones=3 large_straight=40 | 2 2 3 5 5 | rolls left 1 | others twos=6 threes=9",
        ),
        (
            "kniffel | Full House=25 Three of a kind=20 | 1 3 3 3 6 | 2 rolls left | thrown at once",
            "kniffel | three_of_a_kind=20 full_house=25 | 1 3 3 3 6 | rolls left 2 | thrown at once",
        ),
        (
            "kniffel | Kl. Straße=30 | 6 6 6 6 6 | keine Würfe mehr | auf einmal geworfen",
            "kniffel | small_straight=30 | 6 6 6 6 6 | rolls left 0 | thrown at once",
        ),
        (
            "yams | empty | 1 2 3 4 5 | Würfe übrig 1 | angesagt Dreier (4)",
            "yams | empty | 1 2 3 4 5 | rolls left 1 | announced 4:threes",
        ),
        ("kniffel | leer | keine Würfel | noch 3 Würfe", "kniffel | empty | no dice | rolls left 3"),
    ],
)
def test_a_situation_reads_the_labels_a_sheet_prints_and_german_words(text: str, written: str) -> None:
    """What a German table shows reads back: box labels with their spaces in either language, the turn's
    parts in German; the text it writes is the one every front end reads."""
    assert str(Situation.parse(text)) == written
