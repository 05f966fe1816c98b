"""The dynamic programme against published optima (tests/data/published_optima.json, with their sources)
and an independent brute force on reduced games.

Full solves take about a second each (plus numba's compilation on a cold cache), so each rule set is
solved once per session.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kniffel import rules
from kniffel.base.dice import multinomial, sorted_rolls
from kniffel.base.keeps import keep_lattice
from kniffel.core import (
    Solution,
    compile_rules,
    compiled_threads,
    solve,
    solve_compiled,
    use_threads,
)
from kniffel.rules import Box, Column, Extra, Order, Placement, RuleSet, Section, placements, single_column
from kniffel.rules.scoring import Pattern, Run, Upper


def solved(rules_id: str, options: tuple[tuple[str, str], ...] = ()) -> Solution:
    """The solution of a rule set (one column of a multi-column one), once per session."""
    return _solved(rules_id, tuple(sorted(options)))


@cache
def _solved(rules_id: str, options: tuple[tuple[str, str], ...]) -> Solution:
    return solve(single_column(rules.get(rules_id, dict(options))))


OPTIMA_FILE = Path(__file__).parent / "data" / "published_optima.json"
PUBLISHED: dict[str, dict[str, Any]] = {
    entry["name"]: entry for entry in json.loads(OPTIMA_FILE.read_text(encoding="utf-8"))["optima"]
}


def test_every_published_optimum_says_where_it_was_published() -> None:
    assert len(PUBLISHED) >= 4
    for entry in PUBLISHED.values():
        assert entry["source"].strip()
        # the values are published to four decimals: no looser than that
        assert 0 < entry["tolerance"] <= 5e-5


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_published_optimum(name: str) -> None:
    entry = PUBLISHED[name]
    options = tuple(entry["options"].items())
    assert solved(entry["rules"], options).expected_score == pytest.approx(
        entry["value"], abs=entry["tolerance"]
    )


def test_kniffel_is_yahtzee_with_a_smaller_extra_bonus() -> None:
    kniffel = solved("kniffel").expected_score
    no_bonus = PUBLISHED["yahtzee, no Yahtzee bonus"]["value"]
    forced_joker = PUBLISHED["yahtzee, forced joker"]["value"]
    assert no_bonus < kniffel < forced_joker


# --- brute force on reduced games -----------------------------------------------------------------

Sheet = frozenset[tuple[str, int]]

ROLLS_CACHE: dict[int, list[tuple[tuple[int, ...], float]]] = {}


def outcomes(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Every sorted throw of ``n`` dice with its probability (one empty throw for none)."""
    if n not in ROLLS_CACHE:
        ROLLS_CACHE[n] = [(roll, multinomial(roll) / 6**n) for roll in sorted_rolls(n)] if n else [((), 1.0)]
    return ROLLS_CACHE[n]


def gained(rules_: RuleSet, upper_points: int, box: str, placement: Placement) -> int:
    """What entering ``placement`` in ``box`` adds to the total, on a sheet whose upper boxes hold
    ``upper_points``: its points and bonus, and the upper bonus if this entry reaches the threshold."""
    threshold = rules_.upper_bonus_threshold
    added = placement.total
    if (
        rules_.box(box).section is Section.UPPER
        and upper_points < threshold <= upper_points + placement.points
    ):
        added += rules_.upper_bonus
    return added


def brute_force(rules_: RuleSet) -> float:
    """Expectimax straight from :func:`placements`: no keep lattice, no tables, no vectorisation."""
    boxes = [box.id for box in rules_.boxes]
    upper = {box.id for box in rules_.boxes if box.section is Section.UPPER}
    threshold = rules_.upper_bonus_threshold
    five = rules_.five_box

    @cache
    def turn_start(filled: Sheet, free: int) -> float:
        if len(filled) == len(boxes):
            return float(rules_.free_throw_points * free)
        return sum(
            p * after_throw(filled, free, roll, True, rules_.rolls - 1, 0)
            for roll, p in outcomes(rules_.dice)
        )

    @cache
    def best_score(filled: Sheet, free: int, roll: tuple[int, ...], at_once: bool) -> float:
        sheet = dict(filled)
        up = min(threshold, sum(points for key, points in sheet.items() if key in upper))
        best = -1.0
        for key, placement in placements(rules_, sheet, roll, thrown_at_once=at_once).items():
            # keep only what the future can depend on: the capped upper score, an armed five box
            if key in upper:
                points = min(placement.points, threshold - up)
            else:
                points = min(placement.points, 1) if key == five else 0
            best = max(best, gained(rules_, up, key, placement) + turn_start(filled | {(key, points)}, free))
        return best

    @cache
    def keep_value(filled: Sheet, free: int, keep: tuple[int, ...], left: int, used: int) -> float:
        """Hold ``keep`` and throw the rest, with ``left`` regular throws after it (a free throw when
        ``used`` went up)."""
        return sum(
            p * after_throw(filled, free, tuple(sorted(keep + rest)), not keep, left, used)
            for rest, p in outcomes(rules_.dice - len(keep))
        )

    @cache
    def after_throw(
        filled: Sheet, free: int, roll: tuple[int, ...], at_once: bool, left: int, used: int
    ) -> float:
        best = best_score(filled, free, roll, at_once)
        keeps = list(keep_lattice(len(roll)).keeps_of(roll)[:-1])
        if left > 0:
            best = max([best, *(keep_value(filled, free, keep, left - 1, used) for keep in keeps)])
        elif free > 0 and used < rules_.free_throws_per_turn:
            best = max([best, *(keep_value(filled, free - 1, keep, 0, used + 1) for keep in keeps)])
        return best

    return turn_start(frozenset(), rules_.free_throws)


def reduced(**changes: object) -> RuleSet:
    """A three-dice game of four boxes with a low upper bonus, so that every rule matters quickly."""
    boxes = (
        Box("twos", Section.UPPER, Upper(2), "Twos", "Zweier"),
        Box("fives", Section.UPPER, Upper(5), "Fives", "Fünfer"),
        Box("run", Section.LOWER, Run(3, 20), "Run", "Straße", joker_points=20, figure=True),
        Box("alike", Section.LOWER, Pattern(((3,),), 30), "Alike", "Gleiche", figure=True),
    )
    base = dataclasses.replace(
        rules.get("yahtzee"),
        id="reduced",
        boxes=boxes,
        dice=3,
        five_box="alike",
        upper_bonus_threshold=12,
        upper_bonus=35,
        extra=Extra.FORCED_JOKER,
        extra_bonus=100,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


REDUCED = {
    "forced joker": reduced(),
    "free joker": reduced(extra=Extra.FREE_JOKER),
    "hundred": reduced(extra=Extra.HUNDRED),
    "no joker, bonus": reduced(extra=Extra.NONE),
    "sharp": reduced(sharp=True),
    "top-down": reduced(columns=(Column("1", Order.TOP_DOWN),)),
    "bottom-up, two throws": reduced(columns=(Column("1", Order.BOTTOM_UP),), rolls=2),
    "free throws": reduced(free_throws=2, extra=Extra.NONE, extra_bonus=0),
    "two free throws a turn": reduced(free_throws=2, free_throws_per_turn=2, sharp=True),
}


@pytest.mark.parametrize("name", list(REDUCED))
def test_matches_brute_force_on_a_reduced_game(name: str) -> None:
    game = REDUCED[name]
    assert solve(game).expected_score == pytest.approx(brute_force(game), abs=1e-9)


# --- the tables the kernels read agree with the rules ------------------------------------------------


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [
        ("yahtzee", {}),
        ("yahtzee", {"joker": "free"}),
        ("yahtzee", {"joker": "none"}),
        ("kniffel", {"extra": "100"}),
        ("kniffel", {"sharp": "on"}),
        ("kniffel", {"strict": "on"}),
        ("yatzy", {}),
    ],
)
def test_every_special_placement_matches_the_rules(rules_id: str, options: Mapping[str, str]) -> None:
    compiled = compile_rules(rules.get(rules_id, options))
    states = compiled.all_states(alike_only=True)
    if len(states) > 30_000:
        states = states[::7]
    assert compiled.mismatches(states) == []
    assert compiled.mismatches(compiled.sample_states(500, seed=3)) == []


def test_single_column_of_a_multi_column_game() -> None:
    knoeffel = single_column(rules.get("knoeffel"))
    assert not knoeffel.multi_column
    assert knoeffel.free_throws == 3
    assert compile_rules(knoeffel).n_free == 4


def test_reduced_outcomes_sum_to_one() -> None:
    for n in range(4):
        assert sum(p for _, p in outcomes(n)) == pytest.approx(1.0)
    assert len(list(itertools.chain(outcomes(3)))) == 56


def test_the_dp_reports_its_progress_and_gives_the_same_values_in_one_thread() -> None:
    """Progress starts at (0, total) once the kernels are compiled or loaded, so that a display can say it
    is compiling until then, and counts every sheet; the levels' parts may run in any number of threads."""
    compiled = compile_rules(rules.get("yahtzee"))
    total = sum(len(level) for level in compiled.levels[:-1])
    calls: list[tuple[int, int]] = []
    threaded = solve_compiled(compiled, progress=lambda done, of: calls.append((done, of)))
    assert calls[0] == (0, total)
    assert calls[-1] == (total, total)
    assert [done for done, _ in calls] == sorted({done for done, _ in calls})
    before = compiled_threads()
    use_threads(1)
    try:
        alone = solve_compiled(compiled)
    finally:
        use_threads(before)
    assert np.array_equal(alone.values, threaded.values)
