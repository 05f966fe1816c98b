"""Expectimax straight from the rules' placements, the reference the solver's tables are checked against
on reduced games: no keep lattice, no tables, no vectorisation."""

from __future__ import annotations

from functools import cache

from kniffel.base.dice import multinomial, sorted_rolls
from kniffel.base.keeps import keep_lattice
from kniffel.rules import Placement, RuleSet, Section, placements

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
