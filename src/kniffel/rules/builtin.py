"""The built-in rule sets and their options: short declarations, read by the registry.

Each rule set names the document it comes from (:data:`SOURCES`); every decision where a document is silent or
two disagree is recorded in ``docs/explanation/rules.md``, which also names the seed files behind them.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

from kniffel.base.i18n import N_, translate
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

# The documents the rules come from, by what they are (users see these names; docs/explanation/rules.md
# maps them to the seed files).
WIKIPEDIA = N_("German Wikipedia, “Kniffel” (2017)")
"""The German Wikipedia article (2017): the boxes, the Spielblock example, Schmidt's and Hasbro's extra
Kniffel rules, and the variants Yatzy and Yams come from."""
WIKIPEDIA_VARIANTS = N_("German Wikipedia, “Kniffel” (2017): its variants")
"""The same article where a rule set is one of the variants it describes (Yatzy's pairs, Yams' four
columns), not Kniffel itself."""
KNIFFEL_ARTICLE_EN = N_("Kniffel article (English translation)")
"""An English machine translation of an older Kniffel article: the 100-point extra Kniffel, the sharp and
strict variants, three and four columns."""
KNOEFFEL_RULES = N_("Knöffel rules")
SUPER_KNIFFEL_RULES = N_("Super Kniffel / Yahtzee rules")
"""Yahtzee's rules in English (the official and the alternative joker) and the four-column Super Kniffel."""
YATZY_DELUXE_RULES = N_("Yatzy-Deluxe rules")
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
    name=N_("Kniffel (Schmidt)"),
    source=WIKIPEDIA,
    description=N_(
        "Kniffel as Schmidt prints it: 13 boxes, 35 bonus at 63, a further Kniffel earns 50 "
        "and must go to the matching upper box if free (forced joker)."
    ),
    boxes=kniffel_boxes("kniffel", "Kniffel"),
    five_box="kniffel",
    extra=Extra.FORCED_JOKER,
    extra_bonus=50,
)

YAHTZEE = dataclasses.replace(
    KNIFFEL,
    id="yahtzee",
    name=N_("Yahtzee (Hasbro)"),
    source=SUPER_KNIFFEL_RULES,
    description=N_(
        "Hasbro Yahtzee: 13 boxes, 35 bonus at 63, 100 per extra Yahtzee while the Yahtzee box "
        "holds 50, official forced joker."
    ),
    boxes=kniffel_boxes("yahtzee", "Yahtzee"),
    five_box="yahtzee",
    extra_bonus=100,
)

YATZY = RuleSet(
    id="yatzy",
    name=N_("Yatzy (Scandinavian)"),
    source=WIKIPEDIA_VARIANTS,
    description=N_(
        "Scandinavian Yatzy: 15 boxes with one pair and two pairs, only the matching dice count, "
        "straights 1-5 and 2-6, 50 bonus at 63, no extra-Yatzy rules."
    ),
    boxes=YATZY_BOXES,
    upper_bonus=50,
    five_box="yatzy",
)

KNOEFFEL = RuleSet(
    id="knoeffel",
    name=N_("Knöffel"),
    source=KNOEFFEL_RULES,
    description=N_(
        "Two columns added up; the Knöffel (five alike) is worth 20 and counts once per column; "
        "three free throws (fourth rolls) per column, each costing 5 of the column's 15-point box."
    ),
    boxes=kniffel_boxes("knoeffel", "Knöffel", five_points=20),
    columns=(Column("1"), Column("2")),
    five_box="knoeffel",
    free_throws=3,
)

YATZY_DELUXE = RuleSet(
    id="yatzy-deluxe",
    name=N_("Yatzy-Deluxe (six dice)"),
    source=YATZY_DELUXE_RULES,
    description=N_(
        "Six dice: three pairs 20, two triples 30, full house 4+2 40, straight 1-6 50, "
        "six alike 60, five-straight and five alike score the sum; 50 bonus at 84."
    ),
    boxes=DELUXE_BOXES,
    dice=6,
    upper_bonus_threshold=84,
    upper_bonus=50,
)

KNIFFEL_4COL = dataclasses.replace(
    KNIFFEL,
    id="kniffel-4col",
    name=N_("Kniffel, four columns"),
    source=KNIFFEL_ARTICLE_EN,
    description=N_(
        "Four Kniffel columns: 1 top-down, 2 bottom-up, 3 announced after the first roll, 4 free."
    ),
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
    name=N_("Kniffel, three columns"),
    description=N_(
        "Three Kniffel columns: 1 top-down, 2 bottom-up, 3 announced after the first roll "
        "(the four-column game without its free column)."
    ),
    columns=KNIFFEL_4COL.columns[:3],
)

SUPER_KNIFFEL = dataclasses.replace(
    KNIFFEL,
    id="super-kniffel",
    name=N_("Super Kniffel"),
    source=SUPER_KNIFFEL_RULES,
    description=N_("Four Kniffel columns, 52 boxes; column 1 strictly top to bottom, 35 bonus per column."),
    columns=(Column("1", Order.TOP_DOWN), Column("2"), Column("3"), Column("4")),
)

YAMS = dataclasses.replace(
    KNIFFEL,
    id="yams",
    name=N_("Yams"),
    source=WIKIPEDIA_VARIANTS,
    description=N_("Four columns: free, in order, in reverse order, announced after the first roll."),
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
    label: str = ""
    """The option's name in plain words (English; front ends translate it and :data:`VALUE_WORDS`)."""
    plain: str = ""
    """What it does in one plain sentence, for people choosing it (English; front ends translate it);
    :attr:`help` says it in full, with the document it comes from."""
    books: tuple[str, ...] = ()
    """The rule sets whose rule books have it (empty: its own rule set's, or every one's): a front end
    offers it only there, though every rule set takes it."""
    scores: Mapping[str, float] = field(default_factory=dict)
    """The expected score of optimal play with each value, the rule set's other options at their
    defaults (the exact solver's, to four places; ``kniffel rules`` shows them, a test solves them
    again): what choosing a value is worth."""
    scoring: bool = True
    """Whether it changes what a sheet scores, and so the solver's tables; a house rule of who wins
    (:data:`TIE_WINS_ALL`) does not."""


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


def _recorded(rules: RuleSet, value: str) -> RuleSet:
    """An option that leaves the declaration as it is: :attr:`RuleSet.options` records it."""
    return rules


ON_OFF = ("off", "on")
VALUE_WORDS = (N_("off"), N_("on"), N_("forced"), N_("free"), N_("none"))
"""The options' values that are words (the others are numbers), marked for the catalogs."""

TIE_WINS_ALL = Option(
    "tie_wins_all",
    ON_OFF,
    "off",
    N_(
        "a tie for first is a win for every tied player, in the chances of winning shown and for the bot "
        "that plays to win (off: a tie among k players is worth 1/k of a win)"
    ),
    _recorded,
    N_("A tie wins for all"),
    scoring=False,
    plain=N_("Players tied for first all count as winners, instead of sharing the win."),
)


def tie_wins_all(rules: RuleSet) -> bool:
    """Whether a tie for first is a win for every tied player (the house rule :data:`TIE_WINS_ALL`);
    by default a tie among ``k`` players is worth ``1/k`` of a win, to whoever plays to win and in every
    chance of winning shown, so that the chances of a game add up to 1."""
    return rules.options.get(TIE_WINS_ALL.key) == "on"


COMMON_OPTIONS = (
    Option(
        "sharp",
        ON_OFF,
        "off",
        N_(
            "figures thrown with all dice in one throw score double "
            f"({KNIFFEL_ARTICLE_EN}: the sharp variant)"
        ),
        _sharp,
        N_("Sharp: figures at one throw count double"),
        N_("A figure thrown with all the dice at once scores double."),
        ("kniffel", "kniffel-3col", "kniffel-4col"),
    ),
    Option(
        "strict",
        ON_OFF,
        "off",
        N_(
            "fill every free column top to bottom; in the top-down columns five alike before the "
            "five-of-a-kind box counts as what the box asks for, as a full house too, and a further one "
            f"counts 100 ({KNIFFEL_ARTICLE_EN}: strict Kniffel)"
        ),
        _strict,
        N_("Strict: top to bottom"),
        N_("The boxes are filled in order, from the top of the sheet down."),
        ("kniffel", "kniffel-3col", "kniffel-4col"),
    ),
    Option(
        "five_full_house",
        ON_OFF,
        "off",
        N_(
            f"five alike is always a valid full house ({SUPER_KNIFFEL_RULES}: 'Some players count a Yahtzee "
            "as being a valid Full House')"
        ),
        _five_full_house,
        N_("Five alike is a full house"),
        N_("Five of a kind may also be entered as a full house."),
        ("yahtzee", "super-kniffel"),
    ),
    TIE_WINS_ALL,
)

KNIFFEL_EXTRA = Option(
    "extra",
    ("50", "100"),
    "50",
    N_(
        "a further Kniffel: 50 on the back and the forced joker (Schmidt), or 100 in any free box, "
        f"100 + dice in an upper box, and any other Kniffel is also a full house ({KNIFFEL_ARTICLE_EN})"
    ),
    _kniffel_extra,
    N_("A further Kniffel earns"),
    N_("A further Kniffel earns 50 on the back of the sheet, or 100 and any free box."),
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
            N_(
                "where an extra Yahtzee may go: the official forced joker, the free-choice joker, or no joker"
            ),
            _joker,
            N_("Joker for an extra Yahtzee"),
            scores={"forced": 254.5877, "free": 254.5896, "none": 253.9702},
            plain=N_(
                "Where a further Yahtzee may be entered: as the official rules say, in any box, or nowhere."
            ),
        ),
        Option(
            "bonus",
            ON_OFF,
            "on",
            N_("100 per extra Yahtzee while the Yahtzee box holds 50"),
            _yahtzee_bonus,
            N_("Yahtzee bonus"),
            scores={"on": 254.5877, "off": 246.0863},
            plain=N_("Every further Yahtzee earns 100 extra."),
        ),
    ),
    "knoeffel": (
        Option(
            "free_throws_per_turn",
            ("1", "2", "3"),
            "1",
            N_(f"how many free throws may be taken in one turn (1: the fourth roll of the {KNOEFFEL_RULES})"),
            _free_throws_per_turn,
            N_("Free throws per turn"),
            N_("How many free throws may be taken in one turn."),
        ),
    ),
}


# --- the rules in words (kniffel rules ID) ----------------------------------------------------------

FACE_SUMS = (
    N_("sum of the ones"),
    N_("sum of the twos"),
    N_("sum of the threes"),
    N_("sum of the fours"),
    N_("sum of the fives"),
    N_("sum of the sixes"),
)
NUMBERS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"))

ORDER_TEXT = {
    Order.FREE: N_("any order"),
    Order.TOP_DOWN: N_("top to bottom"),
    Order.BOTTOM_UP: N_("bottom to top"),
    Order.ANNOUNCED: N_("announced after the first roll"),
}


def _number(n: int, language: str) -> str:
    return translate(language, NUMBERS[n])


def _shape_text(shape: tuple[int, ...], language: str) -> str:
    """``(3, 2)``: "three of one face and two of another"."""
    if len(shape) == 1:
        return translate(language, N_("{n} alike"), n=_number(shape[0], language))
    first, *rest = shape
    parts = [translate(language, N_("{n} of one face"), n=_number(first, language))]
    parts += [
        translate(language, N_("one of another"))
        if n == 1
        else translate(language, N_("{n} of another"), n=_number(n, language))
        for n in rest
    ]
    return translate(language, N_(" and ")).join(parts)


def _pays(points: int | None, condition: str, language: str) -> str:
    if points is None:
        return translate(language, N_("sum of all dice for {condition}"), condition=condition)
    return translate(language, N_("{points} for {condition}"), points=points, condition=condition)


def scoring_text(score: Scorer, language: str = "en") -> str:
    """What a box pays, in words, read from its scorer: "sum of the fives", "25 for three of one face
    and two of another"."""
    t = functools.partial(translate, language)
    if isinstance(score, Upper):
        return t(FACE_SUMS[score.face - 1])
    if isinstance(score, Chance):
        return t(N_("sum of all dice"))
    if isinstance(score, OfAKindSum):
        return t(N_("sum of all dice for at least {n} alike"), n=_number(score.n, language))
    if isinstance(score, OfAKindOnly):
        return t(
            N_("sum of {n} dice of one face (the highest face that has them)"), n=_number(score.n, language)
        )
    if isinstance(score, Pairs):
        if score.n == 1:
            return t(N_("sum of the highest pair"))
        return t(N_("sum of the {n} highest pairs of different faces"), n=_number(score.n, language))
    if isinstance(score, Pattern):
        either = t(N_(", or ")).join(_shape_text(shape, language) for shape in score.patterns)
        return _pays(score.points, either, language)
    if isinstance(score, AllEven):
        return t(
            N_(
                "{points} for every face showing an even number of times (three pairs, four and two, or "
                "six alike)"
            ),
            points=score.points,
        )
    if isinstance(score, Run):
        return _pays(
            score.points, t(N_("{n} consecutive faces"), n=_number(score.length, language)), language
        )
    if isinstance(score, Faces):
        return _pays(None, t(N_("exactly {faces}"), faces="-".join(map(str, score.faces))), language)
    doc = (type(score).__doc__ or "").strip().splitlines()
    return doc[0] if doc else type(score).__name__


def extra_text(rules: RuleSet, language: str = "en") -> str:
    """What a further five of a kind does (the :class:`Extra` policy and the strict variant), in words."""
    t = functools.partial(translate, language)
    if rules.five_box is None:
        return t(N_("no five-of-a-kind box: a roll of all dice alike scores like any other"))
    five = rules.box(rules.five_box).label(language)
    if rules.extra_bonus:
        per_column = t(N_(" (each column its own)")) if rules.multi_column else ""
        bonus = t(
            N_("+{bonus} while the {five} box{per_column} holds points, none once it is struck"),
            bonus=rules.extra_bonus,
            five=five,
            per_column=per_column,
        )
    else:
        bonus = t(N_("no bonus"))
    if rules.extra is Extra.NONE:
        text = t(N_("a further five alike is an ordinary roll; {bonus}"), bonus=bonus)
    elif rules.extra is Extra.FORCED_JOKER:
        text = t(
            N_(
                "once the {five} box is filled, a further five alike must go to the matching upper box "
                "if it is free, else to any free lower box at full value (full house 25, straights 30 and "
                "40), else for 0 to a free upper box (forced joker; fill orders and announcements decide "
                "first); {bonus}"
            ),
            five=five,
            bonus=bonus,
        )
    elif rules.extra is Extra.FREE_JOKER:
        text = t(
            N_(
                "once the {five} box is filled, a further five alike may go to any free box; full house and "
                "straights pay 25, 30 and 40 only once the matching upper box is filled (free joker); {bonus}"
            ),
            five=five,
            bonus=bonus,
        )
    else:
        text = t(
            N_(
                "while the {five} box holds points, a further five alike may go to any free box: {hundred} "
                "instead of a lower box's value, {hundred} on top of the dice in an upper box (not counting "
                "toward the upper bonus); any other five alike is an ordinary roll, also a full house"
            ),
            five=five,
            hundred=rules.extra_bonus,
        )
    if rules.options.get("strict") == "on":
        text += t(
            N_("; strict, in the top-down columns: five alike before the {five} box is also a full house"),
            five=five,
        )
        if rules.extra_bonus:
            text += t(N_(", and a further one counts 100 in the boxes after the {five} box"), five=five)
    return text
