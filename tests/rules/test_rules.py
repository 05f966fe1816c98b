"""The rule sets as declared, their options, and where a roll may go: fill orders, announcements,
the joker and extra-Kniffel rules, the sharp and strict variants (``kniffel.rules.placements``)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Iterable
from typing import Any

import pytest

from kniffel import rules
from kniffel.base.dice import roll_index
from kniffel.rules import Order, RulesError, RuleSet, Section, UnknownBoxError
from support.paths import ROOT
from support.rules import fill_except, ruleset, seed_examples, seed_sheet, where


def table_points(rs: RuleSet, dice: tuple[int, ...], box: str) -> int:
    return int(rs.score_table[roll_index(rs.dice)[dice], rs.box_index[box]])


KNIFFEL_BOXES = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
]
UPPER = KNIFFEL_BOXES[:6]

# --- the registry ----------------------------------------------------------------------------------


def test_available_lists_every_rule_set() -> None:
    assert rules.available() == [
        "kniffel",
        "yahtzee",
        "yatzy",
        "knoeffel",
        "yatzy-deluxe",
        "kniffel-3col",
        "kniffel-4col",
        "super-kniffel",
        "yams",
    ]


@pytest.mark.parametrize(
    ("rules_id", "boxes"),
    [
        ("kniffel", [*KNIFFEL_BOXES, "kniffel", "chance"]),
        ("yahtzee", [*KNIFFEL_BOXES, "yahtzee", "chance"]),
        ("knoeffel", [*KNIFFEL_BOXES, "knoeffel", "chance"]),
        ("yams", [*KNIFFEL_BOXES, "yams", "chance"]),
        ("kniffel-3col", [*KNIFFEL_BOXES, "kniffel", "chance"]),
        ("kniffel-4col", [*KNIFFEL_BOXES, "kniffel", "chance"]),
        ("super-kniffel", [*KNIFFEL_BOXES, "kniffel", "chance"]),
        (
            "yatzy",
            [
                *UPPER,
                "one_pair",
                "two_pairs",
                "three_of_a_kind",
                "four_of_a_kind",
                "small_straight",
                "large_straight",
                "full_house",
                "chance",
                "yatzy",
            ],
        ),
        (
            "yatzy-deluxe",
            [
                *UPPER,
                "three_pairs",
                "two_triples",
                "full_house",
                "straight",
                "yatzy",
                "five_straight",
                "five_yatzy",
                "chance",
            ],
        ),
    ],
)
def test_boxes_in_sheet_order(rules_id: str, boxes: list[str]) -> None:
    rs = rules.get(rules_id)
    assert [b.id for b in rs.boxes] == boxes
    assert [b.id for b in rs.upper_boxes] == UPPER
    assert all(b.section is Section.LOWER for b in rs.lower_boxes)
    assert [b.face for b in rs.upper_boxes] == [1, 2, 3, 4, 5, 6]


WIKIPEDIA = "German Wikipedia, “Kniffel” (2017)"
VARIANTS = "German Wikipedia, “Kniffel” (2017): its variants"
ARTICLE_EN = "Kniffel article (English translation)"
SUPER_KNIFFEL = "Super Kniffel / Yahtzee rules"


@pytest.mark.parametrize(
    ("rules_id", "dice", "keys", "threshold", "bonus", "five_box", "source"),
    [
        ("kniffel", 5, 13, 63, 35, "kniffel", WIKIPEDIA),
        ("yahtzee", 5, 13, 63, 35, "yahtzee", SUPER_KNIFFEL),
        ("yatzy", 5, 15, 63, 50, "yatzy", VARIANTS),
        ("knoeffel", 5, 26, 63, 35, "knoeffel", "Knöffel rules"),
        ("yatzy-deluxe", 6, 14, 84, 50, None, "Yatzy-Deluxe rules"),
        ("kniffel-3col", 5, 39, 63, 35, "kniffel", ARTICLE_EN),
        ("kniffel-4col", 5, 52, 63, 35, "kniffel", ARTICLE_EN),
        ("super-kniffel", 5, 52, 63, 35, "kniffel", SUPER_KNIFFEL),
        ("yams", 5, 52, 63, 35, "yams", VARIANTS),
    ],
)
def test_rule_set_essentials(
    rules_id: str, dice: int, keys: int, threshold: int, bonus: int, five_box: str | None, source: str
) -> None:
    rs = rules.get(rules_id)
    assert (rs.dice, rs.rolls, len(rs.box_keys), rs.turns) == (dice, 3, keys, keys)
    assert (rs.upper_bonus_threshold, rs.upper_bonus, rs.five_box) == (threshold, bonus, five_box)
    assert rs.source == source, "every rule set names the document it comes from"


def test_sources_are_named_for_people_and_traced_in_the_docs() -> None:
    """Users see the documents by name; docs/explanation/rules.md maps each name to its seed file."""
    sources: dict[str, str] = seed_examples()["sources"]
    assert sorted(sources.values()) == sorted(rules.SOURCES)
    for rules_id in rules.available():  # a document, or a part of one
        assert rules.get(rules_id).source.startswith(tuple(rules.SOURCES)), rules_id
    docs = (ROOT / "docs" / "explanation" / "rules.md").read_text(encoding="utf-8")
    for file, name in sources.items():
        assert f"`{file}`" in docs, file
        assert name in docs, name
    for rules_id in rules.available():
        for option in rules.options_for(rules_id):
            assert ".txt" not in option.help, option.key
            assert "seed" not in option.help.lower(), option.key


@pytest.mark.parametrize(
    ("rules_id", "extra", "bonus"),
    [
        ("kniffel", rules.Extra.FORCED_JOKER, 50),
        ("yahtzee", rules.Extra.FORCED_JOKER, 100),
        ("yatzy", rules.Extra.NONE, 0),
        ("knoeffel", rules.Extra.NONE, 0),
        ("yatzy-deluxe", rules.Extra.NONE, 0),
    ],
)
def test_extra_five_alike_policy(rules_id: str, extra: rules.Extra, bonus: int) -> None:
    rs = rules.get(rules_id)
    assert (rs.extra, rs.extra_bonus) == (extra, bonus)


def test_knoeffel_free_throws() -> None:
    rs = rules.get("knoeffel")
    assert (rs.free_throws, rs.free_throw_points, rs.free_throws_per_turn) == (3, 5, 1)
    assert rules.get("knoeffel", {"free_throws_per_turn": "2"}).free_throws_per_turn == 2


@pytest.mark.parametrize(
    ("rules_id", "orders"),
    [
        ("knoeffel", ["free", "free"]),
        ("kniffel-3col", ["top-down", "bottom-up", "announced"]),
        ("kniffel-4col", ["top-down", "bottom-up", "announced", "free"]),
        ("super-kniffel", ["top-down", "free", "free", "free"]),
        ("yams", ["free", "top-down", "bottom-up", "announced"]),
    ],
)
def test_column_orders(rules_id: str, orders: list[str]) -> None:
    rs = rules.get(rules_id)
    assert [c.order.value for c in rs.columns] == orders
    assert [c.id for c in rs.columns] == [str(i) for i in range(1, len(orders) + 1)]


def test_box_keys_and_locate() -> None:
    single, multi = rules.get("kniffel"), rules.get("kniffel-4col")
    assert single.box_keys[0] == "ones"
    assert multi.box_keys[:2] == ("1:ones", "1:twos")
    assert multi.box_keys[13] == "2:ones"
    assert multi.box_keys[-1] == "4:chance"
    column, box = multi.locate("2:chance")
    assert (column.id, column.order, box.id) == ("2", Order.BOTTOM_UP, "chance")
    assert single.locate("chance")[1].id == "chance"
    with pytest.raises(UnknownBoxError, match="no box 'chance' in kniffel-4col"):
        multi.locate("chance")
    with pytest.raises(UnknownBoxError, match="no box '1:chance' in kniffel"):
        single.locate("1:chance")
    with pytest.raises(UnknownBoxError, match="no box '5:chance'"):
        multi.locate("5:chance")


@pytest.mark.parametrize(
    ("box", "en", "de"),
    [
        ("ones", "Ones", "Einser"),
        ("three_of_a_kind", "Three of a kind", "Dreierpasch"),
        ("four_of_a_kind", "Four of a kind", "Viererpasch"),
        ("small_straight", "Small straight", "Kleine Straße"),
        ("large_straight", "Large straight", "Große Straße"),
        ("chance", "Chance", "Chance"),
    ],
)
def test_labels_in_both_languages(box: str, en: str, de: str) -> None:
    b = rules.get("kniffel").box(box)
    assert (b.label(), b.label("en"), b.label("de")) == (en, en, de)


@pytest.mark.parametrize("rules_id", rules.available())
def test_every_box_has_both_labels(rules_id: str) -> None:
    for box in rules.get(rules_id).boxes:
        assert box.label("en")
        assert box.label("de")


@pytest.mark.parametrize("rules_id", rules.available())
def test_describe_is_json_and_complete(rules_id: str) -> None:
    rs = rules.get(rules_id, {"sharp": "on"})
    data = json.loads(json.dumps(rs.describe()))
    assert data["id"] == rules_id
    assert [b["id"] for b in data["boxes"]] == [b.id for b in rs.boxes]
    assert data["options"] == {"sharp": "on"}
    assert data["sharp"] is True
    assert len(data["columns"]) == len(rs.columns)


def test_unknown_rule_set() -> None:
    with pytest.raises(
        RulesError,
        match=re.escape(
            "unknown rule set 'kniffle'; did you mean 'kniffel'? Choose one of: kniffel, yahtzee"
        ),
    ):
        rules.get("kniffle")
    with pytest.raises(RulesError, match="unknown rule set 'parcheesi'; choose one of: kniffel, yahtzee"):
        rules.get("parcheesi")
    assert rules.get("Yahtzee") is rules.get("yahtzee")  # ids are not case sensitive
    assert rules.get(" Kniffel", {"strict": "on"}).options == {"strict": "on"}
    with pytest.raises(RulesError, match="unknown rule set"):
        rules.options_for("kniffle")
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize(
    ("rules_id", "options", "message"),
    [
        ("kniffel", {"joker": "free"}, "kniffel has no option 'joker'; options: extra, sharp, strict"),
        ("yatzy", {"extra": "100"}, "yatzy has no option 'extra'"),
        ("kniffel", {"sharp": "maybe"}, "option sharp must be one of off, on, got 'maybe'"),
        ("kniffel", {"extra": "75"}, "option extra must be one of 50, 100, got '75'"),
        ("yahtzee", {"joker": "wild"}, "option joker must be one of forced, free, none"),
        ("knoeffel", {"free_throws_per_turn": "4"}, "option free_throws_per_turn must be one of 1, 2, 3"),
    ],
)
def test_bad_options(rules_id: str, options: dict[str, str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules.get(rules_id, options)


def test_option_values_are_normalised_and_defaults_not_recorded() -> None:
    assert rules.get("kniffel", {"sharp": " ON "}).sharp
    assert rules.get("kniffel", {"sharp": "off"}) == rules.get("kniffel")
    assert rules.get("kniffel", {"sharp": "off"}).options == {}
    assert rules.get("kniffel", {"sharp": "on", "strict": "off"}).options == {"sharp": "on"}


@pytest.mark.parametrize("rules_id", rules.available())
def test_every_option_combination_rebuilds_from_its_record(rules_id: str) -> None:
    """``get(r.id, r.options)`` is how a saved game finds its rules again."""
    options = rules.options_for(rules_id)
    for values in itertools.product(*(o.values for o in options)):
        chosen = {o.key: v for o, v in zip(options, values, strict=True)}
        rs = rules.get(rules_id, chosen)
        assert rules.get(rs.id, rs.options) == rs
        assert dict(rs.options) == {o.key: v for o, v in zip(options, values, strict=True) if v != o.default}


def test_options_for_lists_own_options_first() -> None:
    assert [o.key for o in rules.options_for("yahtzee")] == [
        "joker",
        "bonus",
        "sharp",
        "strict",
        "five_full_house",
        "tie_wins_all",
    ]
    assert next(o.key for o in rules.options_for("kniffel")) == "extra"
    assert [o.key for o in rules.options_for("yatzy")] == [
        "sharp",
        "strict",
        "five_full_house",
        "tie_wins_all",
    ]
    for rules_id in rules.available():
        for option in rules.options_for(rules_id):
            assert option.default in option.values
            assert option.help


def test_parse_options() -> None:
    assert rules.parse_options(["sharp=on", " extra = 100 "]) == {"sharp": "on", "extra": "100"}
    assert rules.parse_options([]) == {}
    for bad in ("sharp", "=on", "sharp=", "  =  "):
        with pytest.raises(RulesError, match="an option is key=value"):
            rules.parse_options([bad])


def test_rule_sets_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.get("kniffel").rolls = 4  # type: ignore[misc]


# --- the Kniffel joker (seed 000, Schmidt) --------------------------------------------------------

LOWER_KNIFFEL = [
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
]


SEED_PLACEMENTS: list[dict[str, Any]] = seed_examples()["placements"]


def _placement_id(case: dict[str, Any]) -> str:
    options = "".join(f"-{k}={v}" for k, v in case.get("options", {}).items())
    return f"{case['rules']}{options}-{''.join(map(str, case['dice']))}-{case['source'][:3]}"


@pytest.mark.parametrize("case", SEED_PLACEMENTS, ids=[_placement_id(c) for c in SEED_PLACEMENTS])
def test_seed_placements(case: dict[str, Any]) -> None:
    """The seeds' own words on where a roll may go and what it pays (tests/data/seed_examples.json):
    the extra Kniffel of the Wikipedia article and of the Kniffel article, the sharp and strict variants,
    Hasbro's free joker."""
    rs = rules.get(case["rules"], case.get("options"))
    offered = where(
        rs,
        seed_sheet(rs, case),
        case["dice"],
        at_once=case.get("thrown_at_once", False),
        announced=case.get("announced"),
    )
    if "offered" in case:
        assert offered == {key: tuple(value) for key, value in case["offered"].items()}
    else:
        expected = {key: tuple(value) for key, value in case["includes"].items()}
        assert {key: offered.get(key) for key in expected} == expected


@pytest.mark.parametrize(("rules_id", "bonus"), [("kniffel", 50), ("yahtzee", 100)])
@pytest.mark.parametrize("box_value", [50, 0])
def test_forced_joker(rules_id: str, bonus: int, box_value: int) -> None:
    rs = ruleset(rules_id)
    five = rs.five_box
    bonus = bonus if box_value else 0
    # 1. The matching upper box, if free, is the only place.
    assert where(rs, f"{five}={box_value}", [3] * 5) == {"threes": (15, bonus)}
    # 2. Else any free lower box at full value.
    assert where(rs, f"{five}={box_value},threes=9", [3] * 5) == {
        "three_of_a_kind": (15, bonus),
        "four_of_a_kind": (15, bonus),
        "full_house": (25, bonus),
        "small_straight": (30, bonus),
        "large_straight": (40, bonus),
        "chance": (15, bonus),
    }
    partly = where(rs, f"{five}={box_value},threes=9,full_house=25,chance=22", [3] * 5)
    assert set(partly) == {"three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight"}
    # 3. Else 0 in any free upper box.
    sheet = fill_except(rs, ["ones", "sixes"], {rules_id: box_value})
    assert where(rs, sheet, [3] * 5) == {"ones": (0, bonus), "sixes": (0, bonus)}


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee"])
def test_striking_under_the_forced_joker_is_restricted_too(rules_id: str) -> None:
    assert rules.strikeable(ruleset(rules_id), {rules_id: 50}, (3,) * 5) == ["threes"]


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee"])
def test_a_first_five_alike_is_an_ordinary_roll(rules_id: str) -> None:
    rs = ruleset(rules_id)
    offered = where(rs, "", [4] * 5)
    assert set(offered) == set(rs.box_keys)
    assert offered[rs.five_box or ""] == (50, 0)
    assert offered["full_house"] == (0, 0)
    assert offered["fours"] == (20, 0)
    assert all(bonus == 0 for _, bonus in offered.values())


def test_no_joker_without_five_alike() -> None:
    rs = ruleset("yahtzee")
    assert where(rs, "yahtzee=50", [3, 3, 3, 3, 2])["full_house"] == (0, 0)
    assert len(where(rs, "yahtzee=50", [3, 3, 3, 3, 2])) == 12


def test_yahtzee_bonus_off() -> None:
    rs = ruleset("yahtzee", bonus="off")
    assert where(rs, "yahtzee=50", [3] * 5) == {"threes": (15, 0)}


# --- Hasbro's free joker (seed 003; its own words are in the data file) --------------------------


def test_no_joker() -> None:
    rs = ruleset("yahtzee", joker="none")
    offered = where(rs, "yahtzee=50,threes=9", [3] * 5)
    assert set(offered) == set(rs.box_keys) - {"yahtzee", "threes"}
    assert offered["full_house"] == (0, 100)
    assert offered["large_straight"] == (0, 100)
    assert offered["three_of_a_kind"] == (15, 100)
    no_bonus = ruleset("yahtzee", joker="none", bonus="off")
    assert where(no_bonus, "yahtzee=50", [3] * 5)["threes"] == (15, 0)


# --- the Kniffel article's extra Kniffel (option extra=100); its own words are in the data file -------


def test_extra_100_with_the_kniffel_box_struck_is_an_ordinary_roll_that_is_also_a_full_house() -> None:
    """No forced joker: a Kniffel that earns no 100 may go wherever the dice could, at their value, and
    in the full house for 25 (the article's words are in tests/data/seed_examples.json)."""
    rs = ruleset("kniffel", extra="100")
    offered = where(rs, "kniffel=0", [6] * 5)
    assert set(offered) == set(rs.box_keys) - {"kniffel"}
    assert offered["sixes"] == (30, 0)
    assert offered["full_house"] == (25, 0)
    assert (offered["small_straight"], offered["large_straight"]) == ((0, 0), (0, 0))
    assert all(bonus == 0 for _, bonus in offered.values())
    # Without the option five alike is never a full house, and a struck box still forces the joker.
    assert where(ruleset("kniffel"), "", [6] * 5)["full_house"] == (0, 0)
    assert where(ruleset("kniffel"), "kniffel=0", [6] * 5) == {"sixes": (30, 0)}


def test_extra_100_full_house_in_every_column() -> None:
    rs = ruleset("kniffel-4col", extra="100")
    offered = where(rs, "", [5] * 5, announced="3:full_house")
    assert offered == {"3:full_house": (25, 0)}
    assert where(rs, "2:chance=20,2:kniffel=50,2:large_straight=0,2:small_straight=0", [5] * 5)[
        "2:full_house"
    ] == (0, 100)


# --- the sharp variant (seed 001; its own words are in the data file) -------------------------------


def test_sharp_doubles_the_joker_but_not_its_bonus() -> None:
    rs = ruleset("yahtzee", sharp="on")
    offered = where(rs, "yahtzee=50,sixes=18", [6] * 5, at_once=True)
    assert offered["full_house"] == (50, 100)
    assert offered["three_of_a_kind"] == (60, 100)
    assert offered["chance"] == (30, 100)


def test_sharp_off_ignores_thrown_at_once() -> None:
    assert where(ruleset("kniffel"), "", [6] * 5, at_once=True)["kniffel"] == (50, 0)


@pytest.mark.parametrize(("rules_id", "dice", "box", "points"), [
    ("yatzy", (3, 3, 5, 5, 1), "one_pair", 20),
    ("yatzy", (1, 2, 3, 4, 5), "small_straight", 30),
    ("yatzy", (1, 2, 3, 4, 5), "chance", 15),
    ("yatzy-deluxe", (1, 2, 3, 4, 5, 6), "straight", 100),
    ("yatzy-deluxe", (1, 2, 3, 4, 5, 6), "chance", 21),
    ("yatzy-deluxe", (6, 6, 6, 6, 1, 2), "sixes", 24),
])  # fmt: skip
def test_sharp_in_the_other_games(rules_id: str, dice: tuple[int, ...], box: str, points: int) -> None:
    assert where(ruleset(rules_id, sharp="on"), "", dice, at_once=True)[box] == (points, 0)


# --- strict Kniffel (seed 001) ----------------------------------------------------------------------


def test_strict_fills_top_to_bottom() -> None:
    rs = ruleset("kniffel", strict="on")
    assert set(where(rs, "", [1, 2, 3, 4, 5])) == {"ones"}
    assert set(where(rs, "ones=3", [1, 2, 3, 4, 5])) == {"twos"}
    upper_done = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18"
    assert set(where(rs, upper_done, [1, 2, 3, 4, 5])) == {"three_of_a_kind"}
    assert rules.strikeable(rs, {}, (1, 2, 3, 4, 5)) == ["ones"]
    assert set(where(rs, fill_except(rs, ["chance"]), [1, 2, 3, 4, 5])) == {"chance"}


@pytest.mark.parametrize(
    ("rules_id", "options", "five", "chance"),
    [
        ("kniffel", {}, "kniffel", (0, 100)),
        ("kniffel", {"extra": "100"}, "kniffel", (0, 100)),
        ("yahtzee", {}, "yahtzee", (0, 100)),
        ("yahtzee", {"joker": "free"}, "yahtzee", (0, 100)),
        ("yahtzee", {"joker": "none"}, "yahtzee", (0, 100)),
        # No reward for a further five of a kind: chance takes the dice.
        ("yahtzee", {"bonus": "off"}, "yahtzee", (25, 0)),
        ("kniffel-4col", {}, "4:kniffel", (0, 100)),
    ],
)
def test_strict_a_further_five_of_a_kind_counts_100_in_chance(
    rules_id: str, options: dict[str, str], five: str, chance: tuple[int, int]
) -> None:
    """The article's "only a Kniffel in chance can 100 count" for every rule set that rewards a further
    five of a kind, shown as extra=100 shows it (the bonus, the box holding 0)."""
    rs = ruleset(rules_id, strict="on", **options)
    chance_key = five.replace(rs.five_box or "", "chance")
    sheet = fill_except(rs, [chance_key], {five: 50})
    assert where(rs, sheet, [5] * 5) == {chance_key: chance}


def test_strict_full_house_only_in_the_columns_strict_orders() -> None:
    """kniffel-4col: strict orders columns 1 and 4 top to bottom; the bottom-up column 2 and the
    announced column 3 keep the plain full house (the data file has the placements)."""
    rs = ruleset("kniffel-4col", strict="on")
    assert [rules.strict_governs(rs, c) for c in rs.columns] == [True, False, False, True]
    assert not any(rules.strict_governs(ruleset("kniffel-4col"), c) for c in rs.columns)
    # The sheet's score table is the plain one (placement decides column by column); each column alone
    # says in its own table what placement gives in that column.
    assert (rs.score_table == rules.get("kniffel-4col").score_table).all()
    assert table_points(rs, (3,) * 5, "full_house") == 0
    alone = [table_points(rules.single_column(rs, i), (3,) * 5, "full_house") for i in range(4)]
    assert alone == [25, 0, 0, 25]
    assert table_points(rules.single_column(ruleset("kniffel-4col"), 0), (3,) * 5, "full_house") == 0


def test_strict_on_a_sheet_it_orders_entirely_says_it_in_the_score_table() -> None:
    for rules_id in ("kniffel", "yahtzee", "knoeffel", "super-kniffel"):
        rs = ruleset(rules_id, strict="on")
        assert all(rules.strict_governs(rs, c) for c in rs.columns)
        assert table_points(rs, (4,) * 5, "full_house") == 25, rules_id
        assert rules.single_column(rs, -1) == rules.single_column(rs, 0)


def test_strict_on_multi_column_sheets_orders_only_free_columns() -> None:
    assert [c.order.value for c in ruleset("knoeffel", strict="on").columns] == ["top-down", "top-down"]
    assert [c.order.value for c in ruleset("kniffel-4col", strict="on").columns] == [
        "top-down",
        "bottom-up",
        "announced",
        "top-down",
    ]
    assert set(where(ruleset("knoeffel", strict="on"), "", [1, 2, 3, 4, 5])) == {"1:ones", "2:ones"}


# --- multi-column sheets (seeds 000, 001, 003) ----------------------------------------------------


def _column(keys: Iterable[str], column: str) -> set[str]:
    """The box ids of one column among box keys."""
    return {k.split(":")[1] for k in keys if k.startswith(column + ":")}


def test_four_columns_each_with_its_order() -> None:
    rs = ruleset("kniffel-4col")
    every = {rs.boxes[i].id for i in range(13)}
    offered = where(rs, "", [1, 2, 3, 4, 5])
    assert _column(offered, "1") == {"ones"}
    assert _column(offered, "2") == {"chance"}
    assert _column(offered, "3") == set(), "the announced column needs an announcement"
    assert _column(offered, "4") == every
    assert offered["1:ones"] == (1, 0)
    assert offered["2:chance"] == (15, 0)
    assert offered["4:large_straight"] == (40, 0)
    later = where(rs, "1:ones=1,1:twos=0,2:chance=20,2:kniffel=0", [1, 2, 3, 4, 5])
    assert _column(later, "1") == {"threes"}
    assert _column(later, "2") == {"large_straight"}


@pytest.mark.parametrize(
    ("rules_id", "expected"),
    [
        ("kniffel-3col", {"1:ones", "2:chance"}),
        ("yams", {"2:ones", "3:chance"} | {f"1:{b}" for b in [*KNIFFEL_BOXES, "yams", "chance"]}),
        (
            "super-kniffel",
            {"1:ones"} | {f"{c}:{b}" for c in "234" for b in [*KNIFFEL_BOXES, "kniffel", "chance"]},
        ),
    ],
)
def test_first_roll_on_an_empty_multi_column_sheet(rules_id: str, expected: set[str]) -> None:
    assert set(where(ruleset(rules_id), "", [2, 2, 3, 3, 3])) == expected


def test_announced_box_is_the_only_place() -> None:
    rs = ruleset("kniffel-4col")
    assert where(rs, "", [1, 2, 3, 4, 5], announced="3:large_straight") == {"3:large_straight": (40, 0)}
    # Whatever the dice give, even nothing.
    assert where(rs, "", [1, 2, 3, 4, 6], announced="3:kniffel") == {"3:kniffel": (0, 0)}
    assert where(ruleset("yams"), "", [6] * 5, announced="4:yams") == {"4:yams": (50, 0)}


def test_striking_with_and_without_an_announcement() -> None:
    """Seed 001: after an unsatisfying announced turn "one must either register the throw or strike a
    field of one's choice in one of the columns"; the fill orders still hold."""
    rs = ruleset("kniffel-4col")
    column3 = {f"3:{b.id}" for b in rs.boxes}
    column4 = {f"4:{b.id}" for b in rs.boxes}
    expected = {"1:ones", "2:chance"} | column3 | column4
    assert set(rules.strikeable(rs, {}, (1, 2, 3, 4, 6), announced="3:kniffel")) == expected
    assert set(rules.strikeable(rs, {}, (1, 2, 3, 4, 6))) == expected
    filled = {"1:ones": 0, "3:chance": 20}
    after = set(rules.strikeable(rs, filled, (1, 2, 3, 4, 6), announced="3:kniffel"))
    assert "1:twos" in after
    assert "1:ones" not in after
    assert "3:chance" not in after


def test_joker_rules_are_per_column() -> None:
    rs = ruleset("kniffel-4col")
    offered = where(rs, "4:kniffel=50", [3] * 5)
    # Column 4 (free) holds a Kniffel: forced to its threes. Column 1 (its Kniffel box free): next box.
    assert _column(offered, "4") == {"threes"}
    assert offered["4:threes"] == (15, 50)
    assert offered["1:ones"] == (0, 0)
    assert offered["2:chance"] == (15, 0)


def test_joker_in_ordered_and_announced_columns_follows_the_order() -> None:
    rs = ruleset("kniffel-4col")
    bottom_up = where(rs, "2:chance=20,2:kniffel=50", [3] * 5)
    assert bottom_up["2:large_straight"] == (40, 50)
    yams = ruleset("yams")
    assert where(yams, "4:yams=50", [3] * 5, announced="4:full_house") == {"4:full_house": (25, 50)}


def test_a_full_sheet_offers_nothing() -> None:
    rs = ruleset("kniffel")
    full = fill_except(rs, [])
    assert where(rs, full, [1, 2, 3, 4, 5]) == {}
    assert rules.strikeable(rs, dict.fromkeys(rs.box_keys, 0), (1, 2, 3, 4, 5)) == []


def test_reachable_boxes() -> None:
    rs = ruleset("kniffel-4col")
    top_down, bottom_up, announced, free = rs.columns
    assert [b.id for b in rules.reachable_boxes(rs, {}, top_down)] == ["ones"]
    assert [b.id for b in rules.reachable_boxes(rs, {}, bottom_up)] == ["chance"]
    assert len(rules.reachable_boxes(rs, {}, announced)) == 13
    assert len(rules.reachable_boxes(rs, {"4:ones": 3}, free)) == 12
    assert rules.reachable_boxes(rs, {f"1:{b.id}": 0 for b in rs.boxes}, top_down) == []


def test_the_house_rule_that_a_tie_wins_for_all_changes_nothing_on_the_sheet() -> None:
    """``tie_wins_all=on`` says who wins, not what a sheet scores: the declaration is the rule set's own,
    the option is recorded (a saved game keeps it), and it is the one option that does not score."""
    for rules_id in rules.available():
        plain = rules.get(rules_id)
        house = rules.get(rules_id, {"tie_wins_all": "on"})
        assert house.options == {"tie_wins_all": "on"}
        assert dataclasses.replace(house, options={}) == plain
        assert rules.tie_wins_all(house)
        assert not rules.tie_wins_all(plain)
        assert [o.key for o in rules.options_for(rules_id) if not o.scoring] == ["tie_wins_all"]
