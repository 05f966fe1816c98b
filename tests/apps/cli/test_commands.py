"""``kniffel rules`` and ``kniffel score``, bad input on every command, and how typed text is read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from kniffel import rules
from kniffel.apps.cli import app
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.parsing import dice_words, parse_dice
from kniffel.base.errors import UnknownBoxError
from kniffel.services.players import parse_players


def invoke(args: Sequence[str], stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


def score(*args: str) -> dict[str, Any]:
    result = invoke(["score", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# --- rules -----------------------------------------------------------------------------------------


def test_rules_json_lists_every_rule_set_with_its_options() -> None:
    result = invoke(["rules", "--json"])
    assert result.exit_code == 0
    listed = {entry["id"]: entry for entry in json.loads(result.stdout)}
    assert list(listed) == rules.available()
    kniffel = listed["kniffel"]
    assert kniffel["name"] == "Kniffel (Schmidt)"
    assert kniffel["source"] == "German Wikipedia, “Kniffel” (2017)"
    assert [b["id"] for b in kniffel["boxes"]][-2:] == ["kniffel", "chance"]
    options = {o["key"]: o for o in kniffel["options"]}
    assert options["extra"]["values"] == ["50", "100"]
    assert options["extra"]["default"] == "50"
    assert "Kniffel article (English translation)" in options["sharp"]["help"]
    assert "joker" in {o["key"] for o in listed["yahtzee"]["options"]}
    assert "joker" not in options
    assert len(listed["yatzy-deluxe"]["boxes"]) == 14
    assert [c["order"] for c in listed["yams"]["columns"]] == ["free", "top-down", "bottom-up", "announced"]


def test_rules_table_names_every_rule_set_and_option() -> None:
    result = invoke(["rules"], stdin=None)
    assert result.exit_code == 0
    for rules_id in rules.available():
        assert rules_id in result.stdout
    for key in ("sharp", "strict", "extra", "joker", "free_throws_per_turn"):
        assert key in result.stdout


# --- score -----------------------------------------------------------------------------------------


def test_score_on_an_empty_sheet_lists_every_box() -> None:
    data = score("--rules", "kniffel", "--dice", "3", "3", "3", "4", "4")
    assert data["bonus"] == dict.fromkeys(data["scores"], 0)
    assert list(data["scores"]) == list(rules.get("kniffel").box_keys)
    assert data["scores"]["full_house"] == 25
    assert data["scores"]["three_of_a_kind"] == 17
    assert data["scores"]["threes"] == 9
    assert data["scores"]["fours"] == 8
    assert data["scores"]["small_straight"] == 0


@pytest.mark.parametrize(
    "dice_args",
    [
        ["--dice", "4", "3", "4", "3", "3"],
        ["--dice", "43433"],
        ["--dice", "4,3,4,3,3"],
        ["--dice", "4 3 4 3 3"],
        ["-d", "4", "-d", "3", "-d", "4", "-d", "3", "-d", "3"],
        ["4", "3", "4", "3", "3"],
    ],
)
def test_dice_may_be_written_in_several_ways(dice_args: list[str]) -> None:
    assert score("--rules", "kniffel", *dice_args) == score("--rules", "kniffel", "--dice", "33344")


def test_score_leaves_out_filled_boxes() -> None:
    data = score("--sheet", "chance=20,full_house=25,ones=-", "--dice", "33344")
    assert {"chance", "full_house", "ones"}.isdisjoint(data["scores"])
    assert len(data["scores"]) == 10


def test_extra_kniffel_is_forced_into_the_matching_upper_box_with_50_bonus() -> None:
    data = score("--rules", "kniffel", "--sheet", "kniffel=50", "--dice", "66666")
    assert data == {"scores": {"sixes": 30}, "bonus": {"sixes": 50}}


def test_forced_joker_pays_full_value_in_lower_boxes_once_the_upper_box_is_filled() -> None:
    data = score("--rules", "kniffel", "--sheet", "kniffel=50,sixes=24,chance=20", "--dice", "66666")
    assert data["bonus"] == dict.fromkeys(data["scores"], 50)
    assert data["scores"] == {
        "three_of_a_kind": 30,
        "four_of_a_kind": 30,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
    }


def test_struck_kniffel_box_still_forces_the_joker_but_earns_no_bonus() -> None:
    data = score("--rules", "kniffel", "--sheet", "kniffel=0", "--dice", "22222")
    assert data == {"scores": {"twos": 10}, "bonus": {"twos": 0}}


def test_extra_yahtzee_earns_100() -> None:
    data = score("--rules", "yahtzee", "--sheet", "yahtzee=50", "--dice", "55555")
    assert data == {"scores": {"fives": 25}, "bonus": {"fives": 100}}


def test_house_rule_extra_100_lets_a_kniffel_go_anywhere() -> None:
    data = score("--rules", "kniffel", "--option", "extra=100", "--sheet", "kniffel=50", "--dice", "44444")
    assert data["bonus"] == dict.fromkeys(data["scores"], 100)
    assert len(data["scores"]) == 12
    assert data["scores"]["fours"] == 20


def test_yatzy_pairs_and_six_dice_deluxe() -> None:
    yatzy = score("--rules", "yatzy", "--dice", "22335")["scores"]
    assert (yatzy["one_pair"], yatzy["two_pairs"], yatzy["full_house"]) == (6, 10, 0)
    deluxe = score("--rules", "yatzy-deluxe", "--dice", "123456")["scores"]
    # seed 004: a five-straight scores all six dice (1, 2, 2, 3, 4, 5 makes 17)
    assert (deluxe["straight"], deluxe["five_straight"]) == (50, 21)


def test_sharp_variant_doubles_figures_thrown_at_once() -> None:
    args = ("--rules", "kniffel", "--option", "sharp=on", "--dice", "22333")
    assert score(*args)["scores"]["full_house"] == 25
    assert score(*args, "--thrown-at-once")["scores"]["full_house"] == 50


def test_advise_reads_whether_the_last_throw_was_of_all_dice() -> None:
    """--thrown-at-once and --not-thrown-at-once (the latter named in the former's help only) both still
    reach the solver; without either, a later throw counts as not of all dice."""

    def full_house(*flags: str) -> float:
        args = ["advise", "-o", "sharp=on", "-d", "22233", "--rolls-left", "1", "--json", *flags]
        result = invoke(args)
        assert result.exit_code == 0, result.output
        values = {o["action"]: o["value"] for o in json.loads(result.stdout)["options"]}
        return float(values["score full_house"])

    doubled, plain = full_house("--thrown-at-once"), full_house("--not-thrown-at-once")
    assert doubled == pytest.approx(plain + 25)  # the sharp full house: 50 rather than 25
    assert full_house() == plain


def test_multi_column_sheet_follows_each_column_order_and_announcements() -> None:
    keys = score("--rules", "kniffel-4col", "--dice", "12345")["scores"]
    # Column 1 top-down, 2 bottom-up, 3 only after an announcement, 4 free.
    assert {k for k in keys if not k.startswith("4:")} == {"1:ones", "2:chance"}
    assert sum(k.startswith("4:") for k in keys) == 13
    announced = score("--rules", "kniffel-4col", "--dice", "12345", "--announced", "3:large")
    assert announced == {"scores": {"3:large_straight": 40}, "bonus": {"3:large_straight": 0}}


def test_score_table_output() -> None:
    result = invoke(["score", "--rules", "yahtzee", "--sheet", "yahtzee=50,sixes=30", "--dice", "66666"])
    assert result.exit_code == 0
    assert "Large straight" in result.stdout
    assert "Sixes" not in result.stdout
    assert "Extra bonus for this roll: 100" in result.stdout


# --- bad input -------------------------------------------------------------------------------------

BAD_INPUT = [
    (["score", "--rules", "parcheesi", "--dice", "12345"], "unknown rule set 'parcheesi'"),
    (["score", "--option", "loud=on", "--dice", "12345"], "kniffel has no option 'loud'"),
    (["score", "--option", "sharp=maybe", "--dice", "12345"], "option sharp must be one of off, on"),
    (["score", "--option", "sharp", "--dice", "12345"], "an option is key=value"),
    (["score", "--dice", "1", "2", "3", "4"], "expected 5 dice, got 4"),
    (["score", "--rules", "yatzy-deluxe", "--dice", "12345"], "expected 6 dice, got 5"),
    (["score"], "expected 5 dice, got 0"),
    (["score", "--dice", "1", "2", "3", "4", "7"], "a die shows 1 to 6, got 7"),
    (["score", "--dice", "0,1,2,3,4"], "a die shows 1 to 6, got 0"),
    (["score", "--dice", "1", "2", "x", "4", "5"], "dice are numbers 1 to 6, got 'x'"),
    (["score", "--sheet", "ones3", "--dice", "12345"], "a sheet entry is box=points"),
    (["score", "--sheet", "ones=7", "--dice", "12345"], "ones cannot hold 7 under kniffel"),
    (["score", "--sheet", "bananas=3", "--dice", "12345"], "no box 'bananas'"),
    (["score", "--sheet", "ones=1,ones=2", "--dice", "12345"], "box ones is given twice"),
    (
        [
            "score",
            "--rules",
            "kniffel-3col",
            "--sheet",
            "3:ones=3",
            "--announced",
            "3:ones",
            "--dice",
            "11112",
        ],
        "3:ones is already filled",
    ),
    (["score", "--rules", "kniffel-3col", "--announced", "1:ones", "--dice", "12345"], "not in an announced"),
    (
        [
            "score",
            "--sheet",
            ",".join(f"{key}=0" for key in rules.get("kniffel").box_keys),
            "--dice",
            "12345",
        ],
        "the sheet is full",
    ),
    (["score", "--dice", "12345", "--lang", "fr"], "--lang is one of en, de"),
    (["play", "--rules", "parcheesi", "-p", "bot"], "unknown rule set"),
    (["play", "-p", "bot:nope"], "unknown bot 'bot:nope'"),
    (["play"], "name the players"),
    (["play", *[arg for _ in range(9) for arg in ("-p", "bot")]], "1 to 8 players, got 9"),
    (["play", "-p", "Ada", "-p", "Ada"], "player names must differ"),
    (["play", "--load", "no/such/file.json"], "No such file or directory"),
    (["play", "--load", "x.json", "-p", "Ada"], "--load takes the rules and players from the saved game"),
    (["play", "-p", "bot", "--save", "no/such/dir/game.json"], "the folder no/such/dir does not exist"),
]


@pytest.mark.parametrize(("args", "expected"), BAD_INPUT)
def test_bad_input_exits_2_with_one_line(args: list[str], expected: str) -> None:
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("kniffel: error: ")
    assert expected in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{", "not a saved game"),
        ("[1, 2]", "not a saved game"),
        (
            '{"format": 1, "rules": "kniffel", "players": ["Ada"], "actions": [{"action": "score"}]}',
            "incomplete",
        ),
        (
            '{"format": 1, "rules": "kniffel", "players": ["Ada"], '
            '"actions": [{"action": "roll", "keep": [], "dice": [1, 2, 3, 4, 9]}]}',
            "a die shows 1 to 6",
        ),
        (
            '{"format": 1, "rules": "kniffel", "players": ["Ada"], "actions": [], "cli": {"drawn": -1}}',
            "damaged",
        ),
        (
            '{"format": 1, "rules": "kniffel", "options": [1], "players": ["Ada"], "actions": []}',
            "options must be an object",
        ),
        (
            '{"format": 1, "rules": "kniffel", "players": ["Ada"], "actions": [{"action": []}]}',
            "not an action",
        ),
    ],
)
def test_unreadable_save_file_exits_2(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(content, encoding="utf-8")
    result = invoke(["play", "--load", str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert expected in result.stderr


def test_unknown_flag_is_a_usage_error() -> None:
    result = invoke(["score", "--dice", "12345", "--frobnicate"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# --- reading typed text ----------------------------------------------------------------------------


def test_dice_words() -> None:
    assert dice_words(["33344"]) == ["3", "3", "3", "4", "4"]
    assert dice_words(["3,3", "3 4;4"]) == ["3", "3", "3", "4", "4"]
    # A run of digits among other dice is a (wrong) face, not several dice.
    assert dice_words(["10", "2"]) == ["10", "2"]
    assert parse_dice(["5", "1", "3"], 3) == (1, 3, 5)
    with pytest.raises(CliError, match="got 10"):
        parse_dice(["10", "2", "3", "4", "5"], 5)


@pytest.mark.parametrize(
    ("rules_id", "text", "relevant", "key"),
    [
        ("kniffel", "chance", (), "chance"),
        ("kniffel", "ch", (), "chance"),
        ("kniffel", "Full House", (), "full_house"),
        ("kniffel", "Große Straße", (), "large_straight"),
        ("kniffel", "grosse", (), "large_straight"),
        ("kniffel", "Dreierpasch", (), "three_of_a_kind"),
        ("kniffel", "knif", (), "kniffel"),
        ("kniffel", "f", ("fives",), "fives"),
        ("kniffel-4col", "2:ch", (), "2:chance"),
        ("kniffel-4col", "chance", ("2:chance", "4:ones"), "2:chance"),
        ("knoeffel", "Knöffel", ("1:knoeffel",), "1:knoeffel"),
    ],
)
def test_box_names(rules_id: str, text: str, relevant: tuple[str, ...], key: str) -> None:
    assert rules.find_box(rules.get(rules_id), text, relevant) == key


@pytest.mark.parametrize(
    ("text", "message"),
    [("f", "could be fours, fives, four_of_a_kind, full_house"), ("xyz", "no box 'xyz'"), ("", "name a box")],
)
def test_box_names_that_are_wrong(text: str, message: str) -> None:
    with pytest.raises(UnknownBoxError, match=message):
        rules.find_box(rules.get("kniffel"), text)


def test_bots_get_distinct_names() -> None:
    players = parse_players(["Ada", "bot", "bot:heuristic"])
    assert [(p.name, p.bot) for p in players] == [
        ("Ada", None),
        ("Bot (heuristic)", "bot"),
        ("Bot (heuristic) 2", "bot:heuristic"),
    ]
    assert [p.name for p in parse_players(["bot:win", "bot:target:250", "bot:points"])] == [
        "Bot (win)",
        "Bot (target 250)",
        "Bot (optimal)",
    ]
