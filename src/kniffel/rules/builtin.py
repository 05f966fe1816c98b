"""The built-in rule sets and their options: short declarations, read by the registry.

Each rule set names the seed document it comes from; every decision where a seed is silent or two
seeds disagree is recorded in ``docs/rules.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from kniffel.rules.model import Box, Column, Extra, Order, RuleSet, Section
from kniffel.rules.scoring import (
    AllEven,
    Chance,
    Faces,
    OfAKindOnly,
    OfAKindSum,
    Pairs,
    Pattern,
    Run,
    Scorer,
    Upper,
)

UPPER = (
    Box("ones", Section.UPPER, Upper(1), "Ones", "Einser"),
    Box("twos", Section.UPPER, Upper(2), "Twos", "Zweier"),
    Box("threes", Section.UPPER, Upper(3), "Threes", "Dreier"),
    Box("fours", Section.UPPER, Upper(4), "Fours", "Vierer"),
    Box("fives", Section.UPPER, Upper(5), "Fives", "Fünfer"),
    Box("sixes", Section.UPPER, Upper(6), "Sixes", "Sechser"),
)

FULL_HOUSE = ((3, 2),)
FIVE_ALIKE = ((5,),)


def figure(box_id: str, score: Scorer, en: str, de: str, joker: int | None = None) -> Box:
    """A lower-block figure (doubled by the sharp variant)."""
    return Box(box_id, Section.LOWER, score, en, de, joker_points=joker, figure=True)


CHANCE = Box("chance", Section.LOWER, Chance(), "Chance", "Chance")


def kniffel_boxes(five_box: str, five_label: str, five_points: int = 50) -> tuple[Box, ...]:
    """The 13 boxes of Kniffel / Yahtzee, with the five-of-a-kind box named after the game."""
    return (
        *UPPER,
        figure("three_of_a_kind", OfAKindSum(3), "Three of a kind", "Dreierpasch"),
        figure("four_of_a_kind", OfAKindSum(4), "Four of a kind", "Viererpasch"),
        figure("full_house", Pattern(FULL_HOUSE, 25), "Full house", "Full House", joker=25),
        figure("small_straight", Run(4, 30), "Small straight", "Kleine Straße", joker=30),
        figure("large_straight", Run(5, 40), "Large straight", "Große Straße", joker=40),
        figure(five_box, Pattern(FIVE_ALIKE, five_points), five_label, five_label),
        CHANCE,
    )


YATZY_BOXES = (
    *UPPER,
    figure("one_pair", Pairs(1), "One pair", "Ein Paar"),
    figure("two_pairs", Pairs(2), "Two pairs", "Zwei Paare"),
    figure("three_of_a_kind", OfAKindOnly(3), "Three of a kind", "Drilling"),
    figure("four_of_a_kind", OfAKindOnly(4), "Four of a kind", "Vierling"),
    figure("small_straight", Faces((1, 2, 3, 4, 5)), "Small straight", "Kleine Straße"),
    figure("large_straight", Faces((2, 3, 4, 5, 6)), "Large straight", "Große Straße"),
    figure("full_house", Pattern(FULL_HOUSE), "Full house", "Full House"),
    CHANCE,
    figure("yatzy", Pattern(FIVE_ALIKE, 50), "Yatzy", "Yatzy"),
)

DELUXE_BOXES = (
    *UPPER,
    figure("three_pairs", AllEven(20), "Three pairs", "Drei Paare"),
    figure("two_triples", Pattern(((3, 3), (6,)), 30), "Two triples", "Zwei Drillinge"),
    figure("full_house", Pattern(((4, 2), (6,)), 40), "Full house (4+2)", "Full House (4+2)"),
    figure("straight", Run(6, 50), "Straight 1-6", "Straße"),
    figure("yatzy", Pattern(((6,),), 60), "Yatzy (six alike)", "Yatzy"),
    figure("five_straight", Run(5), "Five straight", "5er-Straße"),
    figure("five_yatzy", Pattern(((5, 1), (6,))), "Five alike", "5er-Yatzy"),
    CHANCE,
)

KNIFFEL = RuleSet(
    id="kniffel",
    name="Kniffel (Schmidt)",
    source="000_f68cfa16f36bc351.txt",
    description="Kniffel as Schmidt prints it: 13 boxes, 35 bonus at 63, a further Kniffel earns 50 "
    "and must go to the matching upper box if free (forced joker).",
    boxes=kniffel_boxes("kniffel", "Kniffel"),
    five_box="kniffel",
    extra=Extra.FORCED_JOKER,
    extra_bonus=50,
)

YAHTZEE = dataclasses.replace(
    KNIFFEL,
    id="yahtzee",
    name="Yahtzee (Hasbro)",
    source="003_60d3f611d1f4e391.txt",
    description="Hasbro Yahtzee: 13 boxes, 35 bonus at 63, 100 per extra Yahtzee while the Yahtzee box "
    "holds 50, official forced joker.",
    boxes=kniffel_boxes("yahtzee", "Yahtzee"),
    five_box="yahtzee",
    extra_bonus=100,
)

YATZY = RuleSet(
    id="yatzy",
    name="Yatzy (Scandinavian)",
    source="000_f68cfa16f36bc351.txt",
    description="Scandinavian Yatzy: 15 boxes with one pair and two pairs, only the matching dice count, "
    "straights 1-5 and 2-6, 50 bonus at 63, no extra-Yatzy rules.",
    boxes=YATZY_BOXES,
    upper_bonus=50,
    five_box="yatzy",
)

KNOEFFEL = RuleSet(
    id="knoeffel",
    name="Knöffel",
    source="002_184141bde6a1b974.txt",
    description="Two columns added up; the Knöffel (five alike) is worth 20 and counts once per column; "
    "three free throws (fourth rolls) per column, each costing 5 of the column's 15-point box.",
    boxes=kniffel_boxes("knoeffel", "Knöffel", five_points=20),
    columns=(Column("1"), Column("2")),
    five_box="knoeffel",
    free_throws=3,
)

YATZY_DELUXE = RuleSet(
    id="yatzy-deluxe",
    name="Yatzy-Deluxe (six dice)",
    source="004_97cf465ee7456b81.txt",
    description="Six dice: three pairs 20, two triples 30, full house 4+2 40, straight 1-6 50, "
    "six alike 60, five-straight and five alike score the sum; 50 bonus at 84.",
    boxes=DELUXE_BOXES,
    dice=6,
    upper_bonus_threshold=84,
    upper_bonus=50,
)

KNIFFEL_4COL = dataclasses.replace(
    KNIFFEL,
    id="kniffel-4col",
    name="Kniffel, four columns",
    source="001_10490be358b91b66.txt",
    description="Four Kniffel columns: 1 top-down, 2 bottom-up, 3 announced after the first roll, 4 free.",
    columns=(
        Column("1", Order.TOP_DOWN),
        Column("2", Order.BOTTOM_UP),
        Column("3", Order.ANNOUNCED),
        Column("4", Order.FREE),
    ),
)

KNIFFEL_3COL = dataclasses.replace(
    KNIFFEL_4COL,
    id="kniffel-3col",
    name="Kniffel, three columns",
    description="Three Kniffel columns: 1 top-down, 2 bottom-up, 3 announced after the first roll "
    "(the four-column game without its free column).",
    columns=KNIFFEL_4COL.columns[:3],
)

SUPER_KNIFFEL = dataclasses.replace(
    KNIFFEL,
    id="super-kniffel",
    name="Super Kniffel",
    source="003_60d3f611d1f4e391.txt",
    description="Four Kniffel columns, 52 boxes; column 1 strictly top to bottom, 35 bonus per column.",
    columns=(Column("1", Order.TOP_DOWN), Column("2"), Column("3"), Column("4")),
)

YAMS = dataclasses.replace(
    KNIFFEL,
    id="yams",
    name="Yams",
    source="000_f68cfa16f36bc351.txt",
    description="Four columns: free, in order, in reverse order, announced after the first roll.",
    boxes=kniffel_boxes("yams", "Yams"),
    five_box="yams",
    columns=(
        Column("1", Order.FREE),
        Column("2", Order.TOP_DOWN),
        Column("3", Order.BOTTOM_UP),
        Column("4", Order.ANNOUNCED),
    ),
)

BUILTIN: tuple[RuleSet, ...] = (
    KNIFFEL,
    YAHTZEE,
    YATZY,
    KNOEFFEL,
    YATZY_DELUXE,
    KNIFFEL_3COL,
    KNIFFEL_4COL,
    SUPER_KNIFFEL,
    YAMS,
)


# --- options ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """A ``key=value`` switch that turns a rule set into a variant of itself."""

    key: str
    values: tuple[str, ...]
    default: str
    help: str
    apply: Callable[[RuleSet, str], RuleSet]


def _sharp(rules: RuleSet, value: str) -> RuleSet:
    return dataclasses.replace(rules, sharp=value == "on")


def _five_full_house(rules: RuleSet, value: str) -> RuleSet:
    if value != "on" or rules.dice != 5:
        return rules
    boxes = tuple(
        dataclasses.replace(box, score=Pattern((*box.score.patterns, *FIVE_ALIKE), box.score.points))
        if box.id == "full_house" and isinstance(box.score, Pattern)
        else box
        for box in rules.boxes
    )
    return dataclasses.replace(rules, boxes=boxes)


def _strict(rules: RuleSet, value: str) -> RuleSet:
    if value != "on":
        return rules
    columns = tuple(
        dataclasses.replace(c, order=Order.TOP_DOWN) if c.order is Order.FREE else c for c in rules.columns
    )
    return _five_full_house(dataclasses.replace(rules, columns=columns), "on")


def _kniffel_extra(rules: RuleSet, value: str) -> RuleSet:
    if value == "100":
        return dataclasses.replace(rules, extra=Extra.HUNDRED, extra_bonus=100)
    return rules


def _joker(rules: RuleSet, value: str) -> RuleSet:
    extra = {"forced": Extra.FORCED_JOKER, "free": Extra.FREE_JOKER, "none": Extra.NONE}[value]
    return dataclasses.replace(rules, extra=extra)


def _yahtzee_bonus(rules: RuleSet, value: str) -> RuleSet:
    return dataclasses.replace(rules, extra_bonus=100 if value == "on" else 0)


def _free_throws_per_turn(rules: RuleSet, value: str) -> RuleSet:
    return dataclasses.replace(rules, free_throws_per_turn=int(value))


ON_OFF = ("off", "on")

COMMON_OPTIONS = (
    Option(
        "sharp", ON_OFF, "off", "figures thrown with all dice in one throw score double (seed 001)", _sharp
    ),
    Option(
        "strict",
        ON_OFF,
        "off",
        "fill every free column top to bottom; five alike before the five-of-a-kind box counts as what "
        "the box asks for, as a full house too (seed 001)",
        _strict,
    ),
    Option(
        "five_full_house",
        ON_OFF,
        "off",
        "five alike is always a valid full house (seed 003: 'some players count a Yahtzee as a Full House')",
        _five_full_house,
    ),
)

KNIFFEL_EXTRA = Option(
    "extra",
    ("50", "100"),
    "50",
    "a further Kniffel: 50 on the back and the forced joker (Schmidt), or 100 in any free box, "
    "100 + dice in an upper box (seed 001 house rule)",
    _kniffel_extra,
)

SPECIFIC_OPTIONS: dict[str, tuple[Option, ...]] = {
    "kniffel": (KNIFFEL_EXTRA,),
    "kniffel-3col": (KNIFFEL_EXTRA,),
    "kniffel-4col": (KNIFFEL_EXTRA,),
    "super-kniffel": (KNIFFEL_EXTRA,),
    "yams": (KNIFFEL_EXTRA,),
    "yahtzee": (
        Option(
            "joker",
            ("forced", "free", "none"),
            "forced",
            "where an extra Yahtzee may go: the official forced joker, the free-choice joker, or no joker",
            _joker,
        ),
        Option("bonus", ON_OFF, "on", "100 per extra Yahtzee while the Yahtzee box holds 50", _yahtzee_bonus),
    ),
    "knoeffel": (
        Option(
            "free_throws_per_turn",
            ("1", "2", "3"),
            "1",
            "how many free throws may be taken in one turn (1: the fourth roll of seed 002)",
            _free_throws_per_turn,
        ),
    ),
}
