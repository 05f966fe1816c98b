"""The dynamic programme against published optima (tests/data/published_optima.json, with their sources)
and an independent brute force on reduced games.

Full solves take about a second each (plus numba's compilation on a cold cache), so each rule set is
solved once per session.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from kniffel import rules
from kniffel.core import (
    compile_rules,
    compiled_threads,
    solve,
    solve_compiled,
    use_threads,
)
from kniffel.rules import single_column
from support.bruteforce import brute_force, outcomes
from support.paths import DATA
from support.solver import REDUCED, solved

OPTIMA_FILE = DATA / "published_optima.json"
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
