"""The built-in rule sets and their options: short declarations, read by the registry.

Each rule set names the document it comes from (:data:`SOURCES`); every decision where a document is
silent or two disagree is recorded in ``docs/rules.md``, which also names the seed files behind them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

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

# The documents the rules come from, by what they are (users see these names; docs/rules.md maps them
# to the seed files).
WIKIPEDIA = "Wikipedia: Kniffel"
"""The German Wikipedia article (2017): the boxes, the Spielblock example, Schmidt's and Hasbro's extra
Kniffel rules, Yatzy and Yams."""
KNIFFEL_ARTICLE_EN = "Kniffel article (English translation)"
"""An English machine translation of an older Kniffel article: the 100-point extra Kniffel, the sharp and
strict variants, three and four columns."""
KNOEFFEL_RULES = "Knöffel rules"
SUPER_KNIFFEL_RULES = "Super Kniffel / Yahtzee rules"
"""Yahtzee's rules in English (the official and the alternative joker) and the four-column Super Kniffel."""
YATZY_DELUXE_RULES = "Yatzy-Deluxe rules"
SOURCES = (WIKIPEDIA, KNIFFEL_ARTICLE_EN, KNOEFFEL_RULES, SUPER_KNIFFEL_RULES, YATZY_DELUXE_RULES)


@cache
def five_alike_as_full_house(box: Box) -> Box:
    """``box`` taking five alike as a full house too, if it is the full house of five dice (three of one
    face and two of another); any other box as it is."""
    score = box.score
    if box.id != "full_house" or not isinstance(score, Pattern) or FULL_HOUSE[0] not in score.patterns:
        return box
    if FIVE_ALIKE[0] in score.patterns:
        return box
    return dataclasses.replace(box, score=Pattern((*score.patterns, *FIVE_ALIKE), score.points))


def with_five_alike_full_house(rules: RuleSet) -> RuleSet:
    """``rules`` with five alike counting as a full house in every column (Yatzy-Deluxe's full house,
    four and two of six dice, stays as it is)."""
    return dataclasses.replace(rules, boxes=tuple(five_alike_as_full_house(box) for box in rules.boxes))


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
    source=WIKIPEDIA,
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
    source=SUPER_KNIFFEL_RULES,
    description="Hasbro Yahtzee: 13 boxes, 35 bonus at 63, 100 per extra Yahtzee while the Yahtzee box "
    "holds 50, official forced joker.",
    boxes=kniffel_boxes("yahtzee", "Yahtzee"),
    five_box="yahtzee",
    extra_bonus=100,
)

YATZY = RuleSet(
    id="yatzy",
    name="Yatzy (Scandinavian)",
    source=WIKIPEDIA,
    description="Scandinavian Yatzy: 15 boxes with one pair and two pairs, only the matching dice count, "
    "straights 1-5 and 2-6, 50 bonus at 63, no extra-Yatzy rules.",
    boxes=YATZY_BOXES,
    upper_bonus=50,
    five_box="yatzy",
)

KNOEFFEL = RuleSet(
    id="knoeffel",
    name="Knöffel",
    source=KNOEFFEL_RULES,
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
    source=YATZY_DELUXE_RULES,
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
    source=KNIFFEL_ARTICLE_EN,
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
    source=SUPER_KNIFFEL_RULES,
    description="Four Kniffel columns, 52 boxes; column 1 strictly top to bottom, 35 bonus per column.",
    columns=(Column("1", Order.TOP_DOWN), Column("2"), Column("3"), Column("4")),
)

YAMS = dataclasses.replace(
    KNIFFEL,
    id="yams",
    name="Yams",
    source=WIKIPEDIA,
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
    return with_five_alike_full_house(rules) if value == "on" else rules


def _strict(rules: RuleSet, value: str) -> RuleSet:
    if value != "on":
        return rules
    columns = tuple(
        dataclasses.replace(c, order=Order.TOP_DOWN) if c.order is Order.FREE else c for c in rules.columns
    )
    strict = dataclasses.replace(rules, columns=columns)
    # Placement applies strict's full house column by column (kniffel.rules.placement.strict_governs);
    # on a sheet that strict governs entirely the score table says it too, so that the solver, which
    # reads the table, sees the same points.
    if all(c.order is Order.TOP_DOWN for c in columns):
        return with_five_alike_full_house(strict)
    return strict


def _kniffel_extra(rules: RuleSet, value: str) -> RuleSet:
    if value == "100":
        # "If one no Kniffel under Kniffel registered (z. B. Kniffel painted), one can use a Kniffel
        # also as fill House (25 points)": a Kniffel that is not an extra one is also a full house.
        hundred = dataclasses.replace(rules, extra=Extra.HUNDRED, extra_bonus=100)
        return with_five_alike_full_house(hundred)
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
        "sharp",
        ON_OFF,
        "off",
        f"figures thrown with all dice in one throw score double ({KNIFFEL_ARTICLE_EN}: the sharp variant)",
        _sharp,
    ),
    Option(
        "strict",
        ON_OFF,
        "off",
        "fill every free column top to bottom; in the top-down columns five alike before the five-of-a-kind "
        "box counts as what the box asks for, as a full house too, and a further one counts 100 "
        f"({KNIFFEL_ARTICLE_EN}: strict Kniffel)",
        _strict,
    ),
    Option(
        "five_full_house",
        ON_OFF,
        "off",
        f"five alike is always a valid full house ({SUPER_KNIFFEL_RULES}: 'Some players count a Yahtzee "
        "as being a valid Full House')",
        _five_full_house,
    ),
)

KNIFFEL_EXTRA = Option(
    "extra",
    ("50", "100"),
    "50",
    "a further Kniffel: 50 on the back and the forced joker (Schmidt), or 100 in any free box, "
    "100 + dice in an upper box, and any other Kniffel is also a full house "
    f"({KNIFFEL_ARTICLE_EN})",
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
            f"how many free throws may be taken in one turn (1: the fourth roll of the {KNOEFFEL_RULES})",
            _free_throws_per_turn,
        ),
    ),
}


# --- the rules in words (kniffel rules ID) ----------------------------------------------------------

FACE_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")
NUMBERS = ("no", "one", "two", "three", "four", "five", "six")

ORDER_TEXT = {
    Order.FREE: "any order",
    Order.TOP_DOWN: "top to bottom",
    Order.BOTTOM_UP: "bottom to top",
    Order.ANNOUNCED: "announced after the first roll",
}


def _shape_text(shape: tuple[int, ...]) -> str:
    """``(3, 2)``: "three of one face and two of another"."""
    if len(shape) == 1:
        return f"{NUMBERS[shape[0]]} alike"
    first, *rest = shape
    return f"{NUMBERS[first]} of one face and " + " and ".join(f"{NUMBERS[n]} of another" for n in rest)


def _pays(points: int | None, condition: str) -> str:
    return f"{points} for {condition}" if points is not None else f"sum of all dice for {condition}"


def scoring_text(score: Scorer) -> str:
    """What a box pays, in words, read from its scorer: "sum of the fives", "25 for three of one face
    and two of another"."""
    if isinstance(score, Upper):
        return f"sum of the {FACE_NAMES[score.face - 1]}"
    if isinstance(score, Chance):
        return "sum of all dice"
    if isinstance(score, OfAKindSum):
        return f"sum of all dice for at least {NUMBERS[score.n]} alike"
    if isinstance(score, OfAKindOnly):
        return f"sum of {NUMBERS[score.n]} dice of one face (the highest face that has them)"
    if isinstance(score, Pairs):
        if score.n == 1:
            return "sum of the highest pair"
        return f"sum of the {NUMBERS[score.n]} highest pairs of different faces"
    if isinstance(score, Pattern):
        return _pays(score.points, ", or ".join(_shape_text(shape) for shape in score.patterns))
    if isinstance(score, AllEven):
        return (
            f"{score.points} for every face showing an even number of times "
            "(three pairs, four and two, or six alike)"
        )
    if isinstance(score, Run):
        return _pays(score.points, f"{NUMBERS[score.length]} consecutive faces")
    if isinstance(score, Faces):
        return _pays(None, "exactly " + "-".join(map(str, score.faces)))
    doc = (type(score).__doc__ or "").strip().splitlines()
    return doc[0] if doc else type(score).__name__


def extra_text(rules: RuleSet) -> str:
    """What a further five of a kind does (the :class:`Extra` policy and the strict variant), in words."""
    if rules.five_box is None:
        return "no five-of-a-kind box: a roll of all dice alike scores like any other"
    five = rules.box(rules.five_box).label_en
    per_column = " (each column its own)" if rules.multi_column else ""
    bonus = (
        f"+{rules.extra_bonus} while the {five} box{per_column} holds points, none once it is struck"
        if rules.extra_bonus
        else "no bonus"
    )
    if rules.extra is Extra.NONE:
        text = f"a further five alike is an ordinary roll; {bonus}"
    elif rules.extra is Extra.FORCED_JOKER:
        text = (
            f"once the {five} box is filled, a further five alike must go to the matching upper box if it is "
            "free, else to any free lower box at full value (full house 25, straights 30 and 40), else for 0 "
            f"to a free upper box (forced joker; fill orders and announcements decide first); {bonus}"
        )
    elif rules.extra is Extra.FREE_JOKER:
        text = (
            f"once the {five} box is filled, a further five alike may go to any free box; full house and "
            f"straights pay 25, 30 and 40 only once the matching upper box is filled (free joker); {bonus}"
        )
    else:
        hundred = rules.extra_bonus
        text = (
            f"while the {five} box holds points, a further five alike may go to any free box: {hundred} "
            f"instead of a lower box's value, {hundred} on top of the dice in an upper box (not counting "
            "toward the upper bonus); any other five alike is an ordinary roll, also a full house"
        )
    if rules.options.get("strict") == "on":
        text += f"; strict, in the top-down columns: five alike before the {five} box is also a full house"
        if rules.extra_bonus:
            text += f", and a further one counts 100 in the boxes after the {five} box"
    return text
