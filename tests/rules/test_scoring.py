"""What a roll scores in each box of each rule set, before any joker or extra rule.

The cases are the seeds' own examples (``tests/data/seed_examples.json``, each with its source) and the
Yatzy rule book's; the exhaustive tests at the end compare the whole score table of each rule set with
scorers written independently from the seed texts, so a wrong entry anywhere in the 252 (462) rows is
caught.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from kniffel import rules
from kniffel.base.dice import multinomial, roll_index, roll_probabilities, sorted_rolls, validate_dice
from kniffel.rules import RuleSet
from support.rules import ruleset, seed_examples, where


def table_points(rs: RuleSet, dice: tuple[int, ...], box: str) -> int:
    return int(rs.score_table[roll_index(rs.dice)[tuple(sorted(dice))], rs.box_index[box]])


Case = tuple[str, tuple[int, ...], str, int]
OptionCase = tuple[str, dict[str, str], tuple[int, ...], str, int]

# The seeds' own examples (tests/data/seed_examples.json), each with the seed file and the words it
# comes from: the score tables of the Kniffel article, Yatzy-Deluxe's examples and the substitutions it
# allows, straights, full houses and the Knöffel.
SEED_CASES: list[Case] = [
    (c["rules"], tuple(c["dice"]), c["box"], c["points"])
    for c in seed_examples()["box_scores"]
    if "options" not in c
]
WITH_OPTIONS: list[OptionCase] = [
    (c["rules"], c["options"], tuple(c["dice"]), c["box"], c["points"])
    for c in seed_examples()["box_scores"]
    if "options" in c
]

# Scandinavian Yatzy: pairs of different faces, only the matching dice count, fixed straights. The seeds
# only name Yatzy's extra boxes; the scoring is the Scandinavian rule book's (docs/explanation/rules.md).
YATZY: list[Case] = [
    ("yatzy", (1, 1, 2, 3, 4), "ones", 2),
    ("yatzy", (2, 2, 2, 2, 5), "twos", 8),
    ("yatzy", (3, 4, 5, 6, 6), "threes", 3),
    ("yatzy", (4, 4, 4, 1, 1), "fours", 12),
    ("yatzy", (1, 2, 3, 4, 6), "fives", 0),
    ("yatzy", (5, 5, 5, 2, 1), "fives", 15),
    ("yatzy", (6, 6, 6, 6, 6), "sixes", 30),
    ("yatzy", (3, 3, 5, 5, 1), "one_pair", 10),
    ("yatzy", (6, 6, 6, 6, 6), "one_pair", 12),
    ("yatzy", (1, 2, 3, 4, 6), "one_pair", 0),
    ("yatzy", (4, 4, 2, 2, 6), "two_pairs", 12),
    ("yatzy", (1, 1, 6, 6, 6), "two_pairs", 14),
    ("yatzy", (4, 4, 4, 4, 2), "two_pairs", 0),
    ("yatzy", (3, 3, 3, 3, 3), "two_pairs", 0),
    ("yatzy", (5, 5, 1, 2, 3), "two_pairs", 0),
    ("yatzy", (3, 3, 3, 4, 5), "three_of_a_kind", 9),
    ("yatzy", (4, 4, 4, 4, 2), "three_of_a_kind", 12),
    ("yatzy", (2, 2, 5, 5, 6), "three_of_a_kind", 0),
    ("yatzy", (2, 2, 2, 2, 5), "four_of_a_kind", 8),
    ("yatzy", (6, 6, 6, 6, 6), "four_of_a_kind", 24),
    ("yatzy", (3, 3, 3, 5, 5), "four_of_a_kind", 0),
    ("yatzy", (1, 2, 3, 4, 5), "small_straight", 15),
    ("yatzy", (2, 3, 4, 5, 6), "small_straight", 0),
    ("yatzy", (1, 2, 3, 4, 4), "small_straight", 0),
    ("yatzy", (2, 3, 4, 5, 6), "large_straight", 20),
    ("yatzy", (1, 2, 3, 4, 5), "large_straight", 0),
    ("yatzy", (2, 3, 4, 5, 5), "large_straight", 0),
    ("yatzy", (2, 2, 3, 3, 3), "full_house", 13),
    ("yatzy", (6, 6, 6, 5, 5), "full_house", 28),
    ("yatzy", (6, 6, 6, 6, 6), "full_house", 0),
    ("yatzy", (2, 2, 2, 2, 3), "full_house", 0),
    ("yatzy", (1, 2, 3, 4, 6), "chance", 16),
    ("yatzy", (4, 4, 4, 4, 4), "yatzy", 50),
    ("yatzy", (4, 4, 4, 4, 3), "yatzy", 0),
]

ALL_CASES = SEED_CASES + YATZY


def _case_id(case: Case) -> str:
    rules_id, dice, box, points = case
    return f"{rules_id}-{''.join(map(str, dice))}-{box}-{points}"


@pytest.mark.parametrize("case", ALL_CASES, ids=_case_id)
def test_box_scores(case: Case) -> None:
    rules_id, dice, box, points = case
    assert table_points(rules.get(rules_id), dice, box) == points


def _option_case_id(case: OptionCase) -> str:
    rules_id, options, dice, box, points = case
    chosen = "-".join(f"{k}={v}" for k, v in options.items())
    return f"{rules_id}-{chosen}-{''.join(map(str, dice))}-{box}-{points}"


@pytest.mark.parametrize(
    ("rules_id", "options", "dice", "box", "points"),
    WITH_OPTIONS,
    ids=[_option_case_id(c) for c in WITH_OPTIONS],
)
def test_box_scores_with_option(
    rules_id: str, options: dict[str, str], dice: tuple[int, ...], box: str, points: int
) -> None:
    assert table_points(rules.get(rules_id, options), dice, box) == points


@pytest.mark.parametrize("case", ALL_CASES, ids=_case_id)
def test_an_empty_sheet_offers_the_table_value(case: Case) -> None:
    """On an empty single-column sheet nothing but the box's own rule decides what it pays."""
    rules_id, dice, box, points = case
    rs = rules.get(rules_id)
    if rs.multi_column:
        box = f"1:{box}"
    assert where(rs, "", dice)[box] == (points, 0)


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "yatzy", "knoeffel", "yatzy-deluxe", "yams"])
def test_every_box_has_a_scoring_and_a_failing_example(rules_id: str) -> None:
    """Guards the tables above: a box added to a rule set must come with its examples."""
    rs = rules.get(rules_id)
    scoring = {box for r, _, box, p in ALL_CASES if r == rules_id and p > 0}
    failing = {box for r, _, box, p in ALL_CASES if r == rules_id and p == 0}
    if rules_id in ("yahtzee", "knoeffel", "yams"):
        # Their other boxes are Kniffel's (checked by the score-table comparisons below).
        assert scoring >= {rs.five_box}
        assert failing >= {rs.five_box}
        return
    assert scoring == {b.id for b in rs.boxes}
    # Chance scores every roll: there is no failing example to give.
    assert failing >= {b.id for b in rs.lower_boxes} - {"chance"}


@pytest.mark.parametrize("rules_id", ["yahtzee", "kniffel-3col", "kniffel-4col", "super-kniffel", "yams"])
def test_kniffel_family_scores_like_kniffel(rules_id: str) -> None:
    assert np.array_equal(rules.get(rules_id).score_table, rules.get("kniffel").score_table)


def test_knoeffel_differs_from_kniffel_only_in_the_five_box() -> None:
    knoeffel, kniffel = rules.get("knoeffel").score_table, rules.get("kniffel").score_table
    five = rules.get("kniffel").box_index["kniffel"]
    differs = {int(c) for c in np.argwhere(knoeffel != kniffel)[:, 1]}
    assert differs == {five}
    assert set(knoeffel[:, five].tolist()) == {0, 20}


# --- the score tables against scorers written from the seed texts ----------------------------------


def _runs(dice: tuple[int, ...]) -> int:
    faces = set(dice)
    return max(n for n in range(1, 7) for start in range(1, 8 - n) if set(range(start, start + n)) <= faces)


def _kniffel_reference(dice: tuple[int, ...], box: str) -> int:
    count = Counter(dice)
    most = max(count.values())
    upper = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    if box in upper:
        return upper[box] * count[upper[box]]
    return {
        "three_of_a_kind": sum(dice) if most >= 3 else 0,
        "four_of_a_kind": sum(dice) if most >= 4 else 0,
        "full_house": 25 if sorted(count.values()) == [2, 3] else 0,
        "small_straight": 30 if any({s, s + 1, s + 2, s + 3} <= set(dice) for s in (1, 2, 3)) else 0,
        "large_straight": 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0,
        "kniffel": 50 if most == 5 else 0,
        "chance": sum(dice),
    }[box]


def _yatzy_reference(dice: tuple[int, ...], box: str) -> int:
    count = Counter(dice)
    pairs = sorted((f for f, c in count.items() if c >= 2), reverse=True)
    if box == "one_pair":
        return 2 * pairs[0] if pairs else 0
    if box == "two_pairs":
        return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
    if box in ("three_of_a_kind", "four_of_a_kind"):
        n = 3 if box == "three_of_a_kind" else 4
        return max((n * f for f, c in count.items() if c >= n), default=0)
    if box == "small_straight":
        return 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if box == "large_straight":
        return 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if box == "full_house":
        return sum(dice) if sorted(count.values()) == [2, 3] else 0
    if box == "yatzy":
        return 50 if len(count) == 1 else 0
    return _kniffel_reference(dice, box)


def _deluxe_reference(dice: tuple[int, ...], box: str) -> int:
    shape = sorted(Counter(dice).values())
    if box == "three_pairs":
        return 20 if shape in ([2, 2, 2], [2, 4], [6]) else 0
    if box == "two_triples":
        return 30 if shape in ([3, 3], [6]) else 0
    if box == "full_house":
        return 40 if shape in ([2, 4], [6]) else 0
    if box == "straight":
        return 50 if shape == [1] * 6 else 0
    if box == "yatzy":
        return 60 if shape == [6] else 0
    if box == "five_straight":
        return sum(dice) if _runs(dice) >= 5 else 0
    if box == "five_yatzy":
        return sum(dice) if shape[-1] >= 5 else 0
    return _kniffel_reference(dice, box)


@pytest.mark.parametrize(
    ("rules_id", "reference"),
    [("kniffel", _kniffel_reference), ("yatzy", _yatzy_reference), ("yatzy-deluxe", _deluxe_reference)],
)
def test_whole_score_table_matches_the_rule_text(
    rules_id: str, reference: Callable[[tuple[int, ...], str], int]
) -> None:
    rs = rules.get(rules_id)
    expected = np.array([[reference(roll, box.id) for box in rs.boxes] for roll in sorted_rolls(rs.dice)])
    mismatches = [
        (sorted_rolls(rs.dice)[r], rs.boxes[b].id, int(rs.score_table[r, b]), int(expected[r, b]))
        for r, b in np.argwhere(rs.score_table != expected)
    ]
    assert not mismatches, f"(roll, box, table, expected): {mismatches[:5]}"


@pytest.mark.parametrize("rules_id", rules.available())
def test_score_table_shape_and_read_only(rules_id: str) -> None:
    rs = rules.get(rules_id)
    table = rs.score_table
    assert table.shape == (len(sorted_rolls(rs.dice)), len(rs.boxes))
    assert table.min() >= 0
    with pytest.raises(ValueError, match="read-only"):
        table[0, 0] = 1


def test_sharp_doubles_figures_thrown_at_once_on_an_empty_sheet() -> None:
    """Every figure of the lower block doubles; chance and the upper boxes never do (seed 001)."""
    plain, sharp = ruleset("kniffel"), ruleset("kniffel", sharp="on")
    for roll in sorted_rolls(5):
        normal = where(plain, "", roll)
        assert where(sharp, "", roll) == normal, "not thrown at once: nothing doubles"
        doubled = where(sharp, "", roll, at_once=True)
        for key, (points, bonus) in normal.items():
            factor = 1 if key == "chance" or sharp.box(key).face is not None else 2
            assert doubled[key] == (factor * points, bonus), (roll, key)


# --- the dice combinatorics the tables are indexed by ---------------------------------------------


@pytest.mark.parametrize(("n", "count"), [(1, 6), (5, 252), (6, 462)])
def test_sorted_rolls(n: int, count: int) -> None:
    rolls = sorted_rolls(n)
    assert len(rolls) == count
    assert len(set(rolls)) == count
    assert all(list(r) == sorted(r) for r in rolls)
    assert list(rolls) == sorted(rolls)
    assert all(rolls[roll_index(n)[r]] == r for r in rolls)


@pytest.mark.parametrize("n", [5, 6])
def test_roll_probabilities_count_every_ordered_throw(n: int) -> None:
    probs = roll_probabilities(n)
    assert probs.sum() == pytest.approx(1.0)
    ordered = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    assert all(multinomial(r) == ordered[r] for r in sorted_rolls(n))
    assert probs[roll_index(n)[(1,) * n]] == pytest.approx(6.0**-n)


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ((1, 2, 3, 4), "expected 5 dice, got 4"),
        ((1, 2, 3, 4, 5, 6), "expected 5 dice, got 6"),
        ((0, 2, 3, 4, 5), "a die shows 1 to 6, got 0"),
        ((1, 2, 3, 4, 7), "a die shows 1 to 6, got 7"),
        ((1, 2, 3, 4, True), "a die shows 1 to 6, got True"),
        ("12345", "dice must be a list"),
    ],
)
def test_validate_dice_names_the_problem(dice: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_dice(dice, 5)


def test_validate_dice_sorts() -> None:
    assert validate_dice([6, 1, 3, 1, 2], 5) == (1, 1, 2, 3, 6)
