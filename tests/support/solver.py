"""Solved tables the tests share, once per session, and the reduced games (three dice, four boxes) on
which the solver is checked against a brute force and the compiled games against the engine."""

from __future__ import annotations

import dataclasses
from functools import cache

from kniffel import rules
from kniffel.core import Solution, solve
from kniffel.rules import Box, Column, Extra, Order, RuleSet, Section, single_column
from kniffel.rules.scoring import Pattern, Run, Upper


def solved(rules_id: str, options: tuple[tuple[str, str], ...] = ()) -> Solution:
    """The solution of a rule set (one column of a multi-column one), once per session."""
    return _solved(rules_id, tuple(sorted(options)))


@cache
def _solved(rules_id: str, options: tuple[tuple[str, str], ...]) -> Solution:
    return solve(single_column(rules.get(rules_id, dict(options))))


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
"""The reduced game and its variants, one for each rule the solver treats apart."""
