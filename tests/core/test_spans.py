"""A cone of one target solves only the targets games from its root can ask for: those are the same to
the last bit as in rows of every target, and the rows refuse the others."""

from __future__ import annotations

import numpy as np
import pytest

from kniffel import rules
from kniffel.core import SheetState, TargetRows, compile_rules, level_of, solve_rows
from kniffel.core.spans import terms_of

# late sheets (small cones), with and without the five of a kind scored, an upper section part filled
ROOTS: list[tuple[str, dict[str, str], dict[str, int], int]] = [
    ("yahtzee", {}, {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "full_house": 25, "chance": 20}, 110),
    ("yahtzee", {}, {"sixes": 24, "yahtzee": 50, "chance": 22, "small_straight": 30, "ones": 3}, 160),
    ("kniffel", {}, {"threes": 9, "fours": 16, "kniffel": 50, "large_straight": 40, "twos": 4}, 150),
    ("yatzy", {}, {"ones": 3, "twos": 4, "threes": 9, "one_pair": 10, "chance": 20, "yatzy": 50}, 120),
]


def states_of(rows: TargetRows) -> list[SheetState]:
    """Every state of the rows' levels that fills the root's boxes (each upper-score lane, each armed
    variant), with the root's free throws."""
    from kniffel.core.targetrows import _lanes_of

    c = rows.compiled
    found = []
    for level in range(level_of(rows.root.mask), len(c.levels) - 1):
        masks = c.levels[level]
        masks = masks[masks & rows.root.mask == rows.root.mask]
        mask, armed, _, ups = _lanes_of(c, masks)
        found += [
            SheetState(int(m), int(u), int(a), rows.root.free)
            for m, a, u in zip(mask, armed, ups, strict=True)
        ]
    return found


@pytest.mark.parametrize(("rules_id", "options", "sheet", "target"), ROOTS)
def test_the_targets_a_cone_answers_are_those_of_the_rows_of_every_target(
    rules_id: str, options: dict[str, str], sheet: dict[str, int], target: int
) -> None:
    c = compile_rules(rules.get(rules_id, options))
    root = SheetState.of(c, sheet)
    cone = solve_rows(c, root=root, low=target, high=target)
    every = solve_rows(c, root=root)  # every target: no target left unsolved
    assert cone.asked is not None
    assert every.asked is None
    answered = refused = 0
    found = states_of(cone)
    # a few hundred states of every level: each question below works out its state's terms
    for state in [found[i] for i in np.random.default_rng(1).permutation(len(found))[:300]]:
        if cone.lane(state) is None:
            continue
        first, row = cone.row(state)
        for u in range(max(first, 1), first + len(row)):
            if cone.covers(state, u, u, turn=False):
                answered += 1
                assert cone.value(state, u) == every.value(state, u), (state, u)
            else:
                refused += 1
    assert answered > 1000
    assert refused > 0  # some targets of the windows no game asks for: not solved, and refused


def test_a_target_no_game_asks_is_refused_and_the_rest_of_the_window_answered() -> None:
    """A cone of 100 from a sheet with the upper section and the full house open: once the full house
    holds 25, the sheet is asked for 75, never for 73 (its new box holds 0 or 25, and its upper score is
    known). A question about 73 is answered from a cone of its own, as any the rows do not cover."""
    c = compile_rules(rules.get("yahtzee"))
    lower = {"three_of_a_kind": 20, "four_of_a_kind": 0, "small_straight": 30, "large_straight": 40}
    root = {**lower, "yahtzee": 0, "chance": 20}
    cone = solve_rows(c, root=SheetState.of(c, root), low=100, high=100)
    after = SheetState.of(c, {**root, "full_house": 25})
    assert cone.covers(after, 75, 75, turn=False)
    assert not cone.covers(after, 73, 73, turn=False)
    assert cone.covers(after, 70, 80, turn=False) is False  # a range answered only if all of it is
    least, new_lower, extras = terms_of(c, cone.root, np.array([[after.mask, 0, 0]]))[0]
    assert (least, extras) == (0, 0)
    assert new_lower > 0
    own = solve_rows(c, root=after, low=73, high=73)
    assert own.covers(after, 73, 73, turn=False)
    assert 0 < own.value(after, 73) < 1
