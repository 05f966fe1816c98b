"""The score sheet: entries, the totals rows of the seed's Spielblock, text and JSON forms."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from kniffel import Game, ScoreSheet, SheetError, UnknownBoxError, rules
from kniffel.engine.sheet import EXTRA_BONUS, FREE_THROWS_USED, ColumnTotals, possible_points, sheet_layout
from kniffel.rules.model import RESERVED_BOX_IDS
from support.rules import SEED_GAME_1, SPIELBLOCK, ruleset
from support.strategies import positions

ROWS = ("upper_sum", "upper_bonus", "upper_total", "lower_sum", "total")


@pytest.mark.parametrize(
    ("text", "upper_sum", "bonus", "upper_total", "lower_sum", "total"),
    [(game["sheet"], *(game["totals"][row] for row in ROWS)) for game in SPIELBLOCK],
)
def test_seed_spielblock(
    text: str, upper_sum: int, bonus: int, upper_total: int, lower_sum: int, total: int
) -> None:
    sheet = ScoreSheet.parse(rules.get("kniffel"), text)
    assert sheet.is_full
    assert sheet.free_keys == []
    (totals,) = sheet.totals
    assert totals == ColumnTotals(
        upper_sum=upper_sum,
        upper_bonus=bonus,
        upper_total=upper_total,
        lower_sum=lower_sum,
        extra_bonus=0,
        free_throws=0,
        lower_total=lower_sum,
        total=total,
    )
    assert sheet.total == total


def test_struck_boxes_hold_zero() -> None:
    sheet = ScoreSheet.parse(rules.get("kniffel"), SEED_GAME_1)
    assert sheet["ones"] == 0
    assert sheet["four_of_a_kind"] == 0
    assert sheet["kniffel"] == 50


def test_reading_boxes() -> None:
    sheet = ScoreSheet.parse(rules.get("kniffel"), "ones=3")
    assert sheet["ones"] == 3
    assert sheet["twos"] is None
    assert len(sheet.free_keys) == 12
    assert not sheet.is_full
    with pytest.raises(UnknownBoxError, match="no box 'pairs'"):
        sheet["pairs"]


@pytest.mark.parametrize(
    ("rules_id", "upper", "bonus"),
    [
        ("kniffel", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18", 35),  # 63: "im Soll"
        ("kniffel", "ones=2,twos=6,threes=9,fours=12,fives=15,sixes=18", 0),  # 62
        ("kniffel", "ones=0,twos=0,threes=0,fours=20,fives=25,sixes=30", 35),  # 75, with zeros (seed 003)
        ("yatzy", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18", 50),
        ("yatzy", "ones=2,twos=6,threes=9,fours=12,fives=15,sixes=18", 0),
        ("yatzy-deluxe", "ones=4,twos=8,threes=12,fours=16,fives=20,sixes=24", 50),  # 84: four of each
        ("yatzy-deluxe", "ones=3,twos=8,threes=12,fours=16,fives=20,sixes=24", 0),  # 83
    ],
)
def test_upper_bonus_threshold(rules_id: str, upper: str, bonus: int) -> None:
    sheet = ScoreSheet.parse(rules.get(rules_id), upper)
    (totals,) = sheet.totals
    assert totals.upper_bonus == bonus
    assert totals.upper_total == totals.upper_sum + bonus
    assert sheet.total == totals.upper_sum + bonus


def test_lower_total_includes_extra_bonuses() -> None:
    rs = rules.get("yahtzee")
    sheet = ScoreSheet.parse(rs, "yahtzee=50,threes=15,chance=20")
    sheet.extra_bonus["1"] = 200
    (totals,) = sheet.totals
    assert (totals.upper_sum, totals.lower_sum, totals.extra_bonus) == (15, 70, 200)
    assert totals.lower_total == 270
    assert sheet.total == 285


def test_knoeffel_two_columns_and_free_throw_boxes() -> None:
    """Seed 002: each column's free-throw box is 15, 10, 5 or 0; the two columns are added."""
    rs = rules.get("knoeffel")
    sheet = ScoreSheet.parse(rs, "1:chance=20,1:knoeffel=20,2:sixes=24")
    first, second = sheet.totals
    assert (first.free_throws, second.free_throws) == (15, 15)
    assert (first.lower_total, first.total) == (55, 55)
    assert (second.upper_sum, second.lower_total, second.total) == (24, 15, 39)
    assert sheet.total == 94
    for used, box in [(1, 10), (2, 5), (3, 0)]:
        sheet.free_throws_used["2"] = used
        assert sheet.column_totals(rs.columns[1]).free_throws == box
        assert sheet.free_throws_left(rs.columns[1]) == 3 - used
    assert sheet.total == 55 + 24


def test_games_without_free_throws_have_no_free_throw_box() -> None:
    (totals,) = ScoreSheet(rules.get("kniffel")).totals
    assert totals == ColumnTotals(0, 0, 0, 0, 0, 0, 0, 0)


def test_multi_column_bonus_per_column() -> None:
    rs = rules.get("super-kniffel")
    upper = ",".join(
        f"2:{b}={v}"
        for b, v in zip(
            ("ones", "twos", "threes", "fours", "fives", "sixes"), (3, 6, 9, 12, 15, 18), strict=True
        )
    )
    sheet = ScoreSheet.parse(rs, upper + ",1:ones=3,4:chance=30")
    totals = sheet.totals
    assert [t.upper_bonus for t in totals] == [0, 35, 0, 0]
    assert [t.total for t in totals] == [3, 98, 0, 30]
    assert sheet.total == 131


# --- text --------------------------------------------------------------------------------------


def test_parse_accepts_spaces_and_trailing_commas() -> None:
    sheet = ScoreSheet.parse(rules.get("kniffel"), " ones = 3 , chance=X,, ")
    assert sheet.entries == {"ones": 3, "chance": 0}
    assert ScoreSheet.parse(rules.get("kniffel"), "").entries == {}


@pytest.mark.parametrize(
    ("rules_id", "text", "message"),
    [
        ("kniffel", "ones", "a sheet entry is box=points, got 'ones'"),
        ("kniffel", "ones=", "a sheet entry is box=points"),
        ("kniffel", "=3", "a sheet entry is box=points"),
        ("kniffel", "ones=three", "points for ones must be a whole number, got 'three'"),
        ("kniffel", "ones=3,ones=2", "box ones is given twice"),
        ("kniffel", "pairs=3", "no box 'pairs' in kniffel"),
        ("kniffel", "2:chance=20", "no box '2:chance' in kniffel"),
        ("knoeffel", "chance=20", "'chance' could be 1:chance, 2:chance"),
        ("kniffel", "twos=3", "twos cannot hold 3 under kniffel"),
        ("kniffel", "ones=6", "ones cannot hold 6 under kniffel"),
        ("kniffel", "full_house=24", "full_house cannot hold 24"),
        ("kniffel", "kniffel=100", "kniffel cannot hold 100"),
        ("kniffel", "chance=4", "chance cannot hold 4"),
        ("kniffel", "chance=31", "chance cannot hold 31"),
        ("kniffel", "ones=-3", "ones cannot hold -3"),
        ("knoeffel", "1:knoeffel=50", "1:knoeffel cannot hold 50 under knoeffel"),
        ("yatzy", "small_straight=30", "small_straight cannot hold 30"),
        ("yatzy", "two_pairs=4", "two_pairs cannot hold 4"),
        ("yatzy-deluxe", "straight=40", "straight cannot hold 40"),
    ],
)
def test_parse_errors(rules_id: str, text: str, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        ScoreSheet.parse(rules.get(rules_id), text)


@pytest.mark.parametrize(
    ("rules_id", "options", "box", "values"),
    [
        ("kniffel", {}, "ones", {0, 1, 2, 3, 4, 5}),
        ("kniffel", {}, "full_house", {0, 25}),
        ("kniffel", {}, "small_straight", {0, 30}),
        ("kniffel", {}, "kniffel", {0, 50}),
        ("kniffel", {}, "chance", {0, *range(5, 31)}),
        ("kniffel", {"sharp": "on"}, "kniffel", {0, 50, 100}),
        ("kniffel", {"sharp": "on"}, "full_house", {0, 25, 50}),
        ("kniffel", {"sharp": "on"}, "chance", {0, *range(5, 31)}),
        ("kniffel", {"sharp": "on"}, "sixes", {0, 6, 12, 18, 24, 30}),
        ("knoeffel", {}, "knoeffel", {0, 20}),
        ("yatzy", {}, "small_straight", {0, 15}),
        ("yatzy", {}, "one_pair", {0, 2, 4, 6, 8, 10, 12}),
        ("yatzy-deluxe", {}, "yatzy", {0, 60}),
        ("yatzy-deluxe", {}, "ones", set(range(7))),
    ],
)
def test_possible_points(rules_id: str, options: dict[str, str], box: str, values: set[int]) -> None:
    assert possible_points(rules.get(rules_id, options), box) == values


def test_sharp_sheets_accept_doubled_figures() -> None:
    sheet = ScoreSheet.parse(ruleset("kniffel", sharp="on"), "kniffel=100,large_straight=80,chance=30")
    assert sheet.total == 210


# --- JSON --------------------------------------------------------------------------------------


def test_json_round_trip() -> None:
    rs = rules.get("knoeffel")
    sheet = ScoreSheet.parse(rs, "1:chance=20,2:knoeffel=20")
    sheet.free_throws_used["1"] = 2
    sheet.extra_bonus["2"] = 0
    again = ScoreSheet.from_json(rs, sheet.to_json())
    assert again == sheet
    assert again.total == sheet.total == 20 + 5 + 20 + 15


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a sheet is an object with 'entries'"),
        ({"entries": []}, "entries must be an object"),
        ({"entries": {"1:ones": "3"}}, "entries: '1:ones' must map to a whole number, got '3'"),
        ({"entries": {"1:ones": True}}, "must map to a whole number, got True"),
        ({"entries": {"1:ones": 7}}, "1:ones cannot hold 7"),
        ({"entries": {"ones": 3}}, "no box 'ones' in knoeffel"),
        ({"extra_bonus": {"3": 50}}, "extra_bonus: no column '3'"),
        ({"extra_bonus": {"1": -50}}, "extra_bonus: -50 is negative"),
        ({"free_throws_used": {"1": 4}}, "column 1: free throws taken 4, allowed 3"),
        ({"free_throws_used": {"1": 1.5}}, "free_throws_used: '1' must map to a whole number"),
    ],
)
def test_json_errors(data: Any, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        ScoreSheet.from_json(rules.get("knoeffel"), data)


def test_sheet_error_is_a_value_error() -> None:
    assert issubclass(SheetError, ValueError)


# --- the text form ----------------------------------------------------------------------------


@given(positions())
def test_text_round_trip_of_every_sheet_a_game_writes(game: Game) -> None:
    for sheet in game.sheets:
        text = str(sheet)
        assert "\n" not in text
        again = ScoreSheet.parse(game.rules, text)
        assert again == sheet
        assert str(again) == text


def test_text_lists_columns_extra_bonuses_and_free_throws() -> None:
    knoeffel = rules.get("knoeffel")
    sheet = ScoreSheet.parse(knoeffel, "2:chance=22 1:ones=0 1:free_throws_used=2 2:knoeffel=20")
    assert sheet.free_throws_used == {"1": 2}
    assert str(sheet) == "1:ones=0 1:free_throws_used=2 2:knoeffel=20 2:chance=22"
    yahtzee = ScoreSheet.parse(rules.get("yahtzee"), "yahtzee=50, extra_bonus=200, threes=-")
    assert (yahtzee.extra_bonus, yahtzee.entries["threes"]) == ({"1": 200}, 0)
    assert str(yahtzee) == "threes=0 yahtzee=50 extra_bonus=200"
    four = ScoreSheet.parse(rules.get("kniffel-4col"), "3:kniffel=50 3:extra_bonus=50")
    assert str(four) == "3:kniffel=50 3:extra_bonus=50"
    assert str(ScoreSheet(knoeffel)) == "empty"
    assert ScoreSheet.parse(knoeffel, "empty") == ScoreSheet.parse(knoeffel, " ") == ScoreSheet(knoeffel)


@pytest.mark.parametrize(
    ("rules_id", "text", "message"),
    [
        ("yahtzee", "yahtzee=50 extra_bonus=150", "150 is not possible under yahtzee .*steps of 100"),
        ("yahtzee", "yahtzee=0 extra_bonus=100", "only while yahtzee holds points"),
        ("yahtzee", "extra_bonus=100", "only while yahtzee holds points"),
        ("yatzy", "yatzy=50 extra_bonus=50", "the bonus is never earned"),
        ("yahtzee", "extra_bonus=x", "points for extra_bonus must be a whole number"),
        ("yahtzee", "yahtzee=50 extra_bonus=100 extra_bonus=100", "^extra_bonus is given twice"),
        ("kniffel", "free_throws_used=1", "free throws taken 1, allowed 0"),
        ("knoeffel", "1:free_throws_used=4", "column 1: free throws taken 4, allowed 3"),
        ("knoeffel", "free_throws_used=1", "no box 'free_throws_used' in knoeffel"),
        ("kniffel", "1:extra_bonus=50", "no box '1:extra_bonus' in kniffel"),
    ],
)
def test_text_errors_for_column_lines(rules_id: str, text: str, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        ScoreSheet.parse(rules.get(rules_id), text)


def test_the_words_of_column_lines_cannot_name_boxes() -> None:
    assert {EXTRA_BONUS, FREE_THROWS_USED} <= RESERVED_BOX_IDS


@pytest.mark.parametrize(
    ("rules_id", "text", "message"),
    [
        ("kniffel-3col", "1:ones=1 1:threes=3", "kniffel-3col fills column 1 top-down: 1:threes cannot"),
        ("kniffel-3col", "2:ones=1", "fills column 2 bottom-up: 2:ones cannot be filled yet"),
        ("super-kniffel", "1:twos=2", "fills column 1 top-down"),
    ],
)
def test_ordered_columns_are_filled_in_their_order(rules_id: str, text: str, message: str) -> None:
    sheet = ScoreSheet.parse(rules.get(rules_id), text)
    with pytest.raises(SheetError, match=message):
        sheet.check_fill_order()


def test_sheets_in_fill_order_pass() -> None:
    rs = rules.get("kniffel-4col")
    ScoreSheet.parse(rs, "1:ones=1 1:twos=2 2:chance=20 2:kniffel=0 3:fours=8 4:sixes=12").check_fill_order()


# --- one layout for every front end ------------------------------------------------------------------


def _sums(rules_id: str) -> list[str]:
    return [row.name for row in sheet_layout(rules.get(rules_id)) if row.kind != "box"]


def test_the_layout_of_the_seeds_spielblock_and_when_the_lower_total_shows() -> None:
    # Seed 000's Spielblock: Summe oben, Bonus, Gesamter oberer Teil, then below the lower boxes the lower
    # sum and the total. A sheet that adds more than its lower boxes (an extra bonus, free throws) shows
    # them and the lower total instead; a multi-column sheet ends with the grand total.
    assert _sums("yatzy") == ["upper_sum", "upper_bonus", "upper_total", "lower_sum", "total"]
    assert _sums("kniffel") == [
        "upper_sum",
        "upper_bonus",
        "upper_total",
        "extra_bonus",
        "lower_total",
        "total",
    ]
    assert _sums("knoeffel")[3:] == ["free_throws", "lower_total", "total", "grand_total"]
    layout = sheet_layout(rules.get("kniffel"))
    assert [row.name for row in layout if row.kind == "box"] == [b.id for b in rules.get("kniffel").boxes]
    assert [row.name for row in layout if row.ends_section] == ["upper_total", "lower_total"]
    assert all(row.label for row in layout if row.kind != "box")


@pytest.mark.parametrize("rules_id", ["kniffel", "yatzy", "knoeffel", "yams"])
def test_the_command_line_and_the_web_draw_the_sheet_from_the_layout(rules_id: str) -> None:
    from kniffel.apps.cli.render import sheet_table
    from kniffel.apps.web.live import layout_json
    from kniffel.base.i18n import translate

    game = Game(rules.get(rules_id), ["Ada", "Bob"])
    layout = sheet_layout(game.rules)
    for lang in ("en", "de"):
        rows = [str(cell) for cell in sheet_table(game, lang=lang).columns[0].cells]
        expected = [
            game.rules.box(row.name).label(lang) if row.kind == "box" else translate(lang, row.label)
            for row in layout
        ]
        assert rows == expected
    web = layout_json(game.rules)
    assert [(row["kind"], row["name"]) for row in web] == [(row.kind, row.name) for row in layout]
    assert [row["label"]["de"] for row in web if row["kind"] == "sum"][:3] == [
        "Summe oben",
        "Bonus",
        "Gesamter oberer Teil",
    ]


@pytest.mark.parametrize(
    ("rules_id", "text", "written"),
    [
        (
            "kniffel",
            "Große Straße=- Full House=25 Three of a kind=20",
            "three_of_a_kind=20 full_house=25 large_straight=0",
        ),
        (
            "kniffel",
            "Einser = 3, Dreierpasch=20; Kleine Straße=30",
            "ones=3 three_of_a_kind=20 small_straight=30",
        ),
        (
            "kniffel",
            "Kl. Straße=30 4er-Pasch=20 Gr. Straße=40",
            "four_of_a_kind=20 small_straight=30 large_straight=40",
        ),
        (
            "kniffel",
            "3 of a kind=20 Small str.=30 Extra bonus=50 Kniffel=50",
            "three_of_a_kind=20 small_straight=30 kniffel=50 extra_bonus=50",
        ),
        ("yatzy", "One pair=12 Zwei Paare=20 Große Straße=20", "one_pair=12 two_pairs=20 large_straight=20"),
        (
            "kniffel-4col",
            "Einser (1)=3 Chance (2)=20 3:Full House=25",
            "1:ones=3 2:chance=20 3:full_house=25",
        ),
    ],
)
def test_boxes_are_read_as_a_sheet_prints_them_spaces_included_in_either_language(
    rules_id: str, text: str, written: str
) -> None:
    """A sheet copied from a screen, in English or German, long or short labels: the same sheet as its
    ids write it."""
    assert str(ScoreSheet.parse(rules.get(rules_id), text)) == written


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ones twos=6", "a sheet entry is box=points, got 'ones'"),
        ("Full House Three of a kind=20", "a sheet entry is box=points, got 'Full House'"),
        ("Große Strasse Pasch=20", "no box 'Große Strasse Pasch' in kniffel"),
    ],
)
def test_words_that_name_no_box_are_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        ScoreSheet.parse(rules.get("kniffel"), text)
