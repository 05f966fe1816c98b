"""``kniffel rules ID``: one rule set in full, in the terminal and as JSON; what users see names the
documents the rules come from, never the seed files; ``kniffel score --json`` gives each box its bonus."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from kniffel import rules
from kniffel.apps.cli import app
from kniffel.rules.builtin import scoring_text

pytestmark = pytest.mark.compiles_nothing


def invoke(args: Sequence[str]) -> Result:
    return CliRunner().invoke(app, list(args))


def shown(*args: str) -> dict[str, Any]:
    result = invoke(["rules", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def text(*args: str) -> str:
    result = invoke(["rules", *args])
    assert result.exit_code == 0, result.output
    # Rich wraps long cells; the words are what matters.
    return " ".join(result.stdout.replace("│", " ").split())


# --- one rule set in full -------------------------------------------------------------------------


def test_kniffel_in_full() -> None:
    data = shown("kniffel")
    assert (data["id"], data["name"], data["source"]) == (
        "kniffel",
        "Kniffel (Schmidt)",
        "German Wikipedia, “Kniffel” (2017)",
    )
    assert (data["dice"], data["rolls"]) == (5, 3)
    assert data["columns"] == [{"id": "1", "order": "free", "fills": "any order"}]
    boxes = {b["id"]: b for b in data["boxes"]}
    assert list(boxes) == [b.id for b in rules.get("kniffel").boxes]
    assert boxes["fives"]["scores"] == "sum of the fives"
    assert boxes["fives"]["section"] == "upper"
    assert boxes["full_house"]["scores"] == "25 for three of one face and two of another"
    assert boxes["full_house"]["joker_points"] == 25
    assert boxes["three_of_a_kind"]["scores"] == "sum of all dice for at least three alike"
    assert boxes["small_straight"]["scores"] == "30 for four consecutive faces"
    assert boxes["kniffel"]["scores"] == "50 for five alike"
    assert boxes["chance"]["scores"] == "sum of all dice"
    assert (boxes["kniffel"]["de"], boxes["three_of_a_kind"]["de"]) == ("Kniffel", "Dreierpasch")
    assert data["upper_bonus"] == {"threshold": 63, "points": 35}
    assert "matching upper box" in data["extra_rule"]
    assert "+50 while the Kniffel box holds points" in data["extra_rule"]
    assert (data["free_throws"], data["sharp"]) == (0, False)
    options = {o["key"]: o for o in data["options"]}
    assert list(options) == ["extra", "sharp", "strict", "five_full_house", "tie_wins_all"]
    assert options["extra"] == {
        "key": "extra",
        "values": ["50", "100"],
        "default": "50",
        "help": rules.options_for("kniffel")[0].help,
        "value": "50",
    }


def test_options_change_what_is_shown() -> None:
    data = shown("kniffel-4col", "--option", "strict=on", "-o", "extra=100")
    assert [c["fills"] for c in data["columns"]] == [
        "top to bottom",
        "bottom to top",
        "announced after the first roll",
        "top to bottom",
    ]
    options = {o["key"]: o["value"] for o in data["options"]}
    assert (options["strict"], options["extra"], options["sharp"]) == ("on", "100", "off")
    boxes = {b["id"]: b for b in data["boxes"]}
    # extra=100: five alike is a full house in every column.
    assert boxes["full_house"]["scores"] == "25 for three of one face and two of another, or five alike"
    assert "100 instead of a lower box's value" in data["extra_rule"]
    assert "a further one counts 100" in data["extra_rule"]


@pytest.mark.parametrize(
    ("rules_id", "box", "scores"),
    [
        ("yatzy", "one_pair", "sum of the highest pair"),
        ("yatzy", "two_pairs", "sum of the two highest pairs of different faces"),
        ("yatzy", "three_of_a_kind", "sum of three dice of one face (the highest face that has them)"),
        ("yatzy", "small_straight", "sum of all dice for exactly 1-2-3-4-5"),
        ("yatzy", "full_house", "sum of all dice for three of one face and two of another"),
        ("knoeffel", "knoeffel", "20 for five alike"),
        ("yatzy-deluxe", "two_triples", "30 for three of one face and three of another, or six alike"),
        ("yatzy-deluxe", "full_house", "40 for four of one face and two of another, or six alike"),
        ("yatzy-deluxe", "five_straight", "sum of all dice for five consecutive faces"),
        ("yatzy-deluxe", "straight", "50 for six consecutive faces"),
    ],
)
def test_every_kind_of_box_in_words(rules_id: str, box: str, scores: str) -> None:
    assert {b["id"]: b["scores"] for b in shown(rules_id)["boxes"]}[box] == scores


def test_the_joker_rule_a_rule_set_plays_by_default_and_what_each_is_worth() -> None:
    """``kniffel rules`` says Yahtzee plays the forced joker unless told otherwise, and what optimal
    play scores with each joker (the literature's 254.5896 is the free joker's)."""
    listing = text()
    assert "joker = forced|free|none default forced · yahtzee · expected scores: forced 254.5877, " in listing
    assert "free 254.5896, none 253.9702" in listing
    joker = next(o for o in shown("yahtzee")["options"] if o["key"] == "joker")
    assert (joker["default"], joker["value"]) == ("forced", "forced")
    assert joker["expected_scores"] == {"forced": 254.5877, "free": 254.5896, "none": 253.9702}
    assert "erwartete Punkte: forced 254,5877, free 254,5896" in text("yahtzee", "--lang", "de")


@pytest.mark.parametrize(
    ("rules_id", "key"),
    [(rules_id, option.key) for rules_id in rules.available() for option in rules.options_for(rules_id)],
)
def test_the_expected_scores_shown_are_the_solvers(rules_id: str, key: str) -> None:
    from kniffel.core import table

    option = next(o for o in rules.options_for(rules_id) if o.key == key)
    for value, score in option.scores.items():
        solved = table(rules.get(rules_id, {key: value})).expected_score
        assert round(solved, 4) == score, (rules_id, key, value)


@pytest.mark.parametrize("rules_id", rules.available())
def test_every_box_of_every_rule_set_is_described_from_its_scorer(rules_id: str) -> None:
    """No scorer falls through to its class name: a new kind of box needs its words."""
    for box in rules.get(rules_id).boxes:
        words = scoring_text(box.score)
        assert words != type(box.score).__name__
        assert words[:1].islower() or words[:1].isdigit(), words


def test_free_throws_and_columns_of_knoeffel() -> None:
    data = shown("knoeffel", "-o", "free_throws_per_turn=2")
    assert (data["free_throws"], data["free_throw_points"], data["free_throws_per_turn"]) == (3, 5, 2)
    assert len(data["columns"]) == 2
    words = text("knoeffel")
    assert "Free throws 3 per column, at most 1 a turn; each one unused is worth 5 at the end" in words
    assert "column 1: any order; column 2: any order" in words


def test_the_terminal_view() -> None:
    words = text("kniffel-4col")
    assert words.startswith("Kniffel, four columns (kniffel-4col)")
    for part in (
        "Source Kniffel article (English translation)",
        "Dice 5 dice, up to 3 rolls a turn",
        "column 1: top to bottom; column 2: bottom to top; column 3: announced after the first roll; "
        "column 4: any order",
        "Upper bonus 35 when the upper boxes reach 63 per column",
        "sum of the fives",
        "25 for three of one face and two of another (as a joker: 25)",
        "Sharp off",
    ):
        assert part in words, part
    # Every option with its values, its default, the value chosen and its meaning as a paragraph.
    assert "strict = off|on default off · here off fill every free column top to bottom" in words
    chosen = text("kniffel-4col", "-o", "strict=on")
    assert "kniffel-4col strict=on" in chosen
    assert "strict = off|on default off · here on" in chosen


def at_80_columns(*args: str) -> list[str]:
    result = CliRunner().invoke(app, ["rules", *args], env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("args", [[], ["kniffel"], ["knoeffel"], ["yahtzee"]], ids=" ".join)
def test_the_rules_read_at_80_columns(args: list[str], lang: str) -> None:
    """Every line within 80 columns and nothing cut short; an option's meaning wraps as a paragraph,
    not in a narrow column of its own."""
    lines = at_80_columns(*args, "--lang", lang)
    assert all(len(line) <= 80 for line in lines)
    assert not any("…" in line for line in lines)
    meanings = [line for line in lines if line.startswith("    ") and line.strip()]
    assert meanings
    assert max(len(line.rstrip()) for line in meanings) > 70  # the full width is used


def test_the_list_names_boxes_as_people_do() -> None:
    listing = " ".join(" ".join(at_80_columns()).split())
    assert "Three of a kind, Four of a kind, Full house" in listing
    assert "three_of_a_kind" not in listing  # ids are for --sheet and JSON
    assert "strict = off|on default off · all rule sets" in listing
    assert "joker = forced|free|none default forced · yahtzee" in listing
    german = " ".join(" ".join(at_80_columns("--lang", "de")).split())
    # a value in German words, with what is typed for it beside them
    assert "joker = forced|free|none Standard Pflicht (forced) · yahtzee" in german
    assert "strict = off|on Standard aus (off) · alle Regelsätze" in german
    assert "Felder: Einser, Zweier, Dreier" in german
    assert "Dreierpasch, Viererpasch, Full House" in german


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "kniffle"], "unknown rule set 'kniffle'; did you mean 'kniffel'? Choose one of: kniffel"),
        (["rules", "yatzy", "-o", "extra=100"], "yatzy has no option 'extra'"),
        (["rules", "kniffel", "-o", "strict"], "an option is key=value"),
        (["rules", "-o", "strict=on"], "--option needs a rule set"),
    ],
)
def test_bad_rules_arguments_are_one_line_errors(args: list[str], message: str) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_rules_without_id_still_lists_every_rule_set() -> None:
    listed = json.loads(invoke(["rules", "--json"]).stdout)
    assert [entry["id"] for entry in listed] == rules.available()
    assert listed[0] == shown("kniffel")
    words = text()
    for rules_id in rules.available():
        assert rules_id in words
    assert "German Wikipedia, “Kniffel” (2017) 5 dice, up to 3 rolls a turn" in words


# --- what users see names documents, not files ------------------------------------------------------

SEED_FILE_MARKS = (".txt", "000_", "001_", "002_", "003_", "004_", "seed 0", "seed0")


def _assert_no_seed_files(output: str) -> None:
    for mark in SEED_FILE_MARKS:
        assert mark not in output, mark


def test_no_seed_file_names_in_any_rules_output() -> None:
    _assert_no_seed_files(invoke(["rules"]).stdout)
    _assert_no_seed_files(invoke(["rules", "--json"]).stdout)
    for rules_id in rules.available():
        _assert_no_seed_files(invoke(["rules", rules_id]).stdout)
        _assert_no_seed_files(invoke(["rules", rules_id, "--json"]).stdout)
        # The web app lists describe() and the option help.
        _assert_no_seed_files(json.dumps(rules.get(rules_id).describe(), ensure_ascii=False))
        for option in rules.options_for(rules_id):
            _assert_no_seed_files(option.help)


# --- kniffel score --json: a bonus per placement ----------------------------------------------------


def score(*args: str) -> dict[str, Any]:
    result = invoke(["score", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_score_json_gives_each_placement_its_own_bonus() -> None:
    """Column 4's Kniffel box holds 50, column 1's is free: only the column-4 placement earns the 50."""
    data = score("--rules", "kniffel-4col", "--sheet", "4:kniffel=50", "--dice", "33333")
    assert data["scores"]["4:threes"] == 15
    assert data["bonus"]["4:threes"] == 50
    assert (data["scores"]["1:ones"], data["bonus"]["1:ones"]) == (0, 0)
    assert (data["scores"]["2:chance"], data["bonus"]["2:chance"]) == (15, 0)
    assert set(data["bonus"]) == set(data["scores"]) == {"1:ones", "2:chance", "4:threes"}


def test_score_table_shows_the_bonus_per_box_when_they_differ() -> None:
    result = invoke(["score", "--rules", "kniffel-4col", "--sheet", "4:kniffel=50", "--dice", "33333"])
    assert result.exit_code == 0
    assert "Extra bonus for this roll" not in result.stdout
    rows = {line.split("│")[1].strip(): line for line in result.stdout.splitlines() if line.count("│") > 3}
    assert rows["4:threes"].split("│")[4].strip() == "50"
    assert rows["1:ones"].split("│")[4].strip() == ""
