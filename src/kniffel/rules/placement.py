"""Where a roll may be entered on a sheet and what it pays there.

This is the rule text of the family turned into one function, :func:`placements`: fill order of the
columns, announcements, the joker and extra-five-of-a-kind rules and the sharp doubling. The game
engine and the solver both ask it; neither has its own copy of these rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kniffel.base.dice import Roll, counts_of, roll_index
from kniffel.rules.builtin import five_alike_as_full_house
from kniffel.rules.model import Box, Column, Extra, Order, RuleSet, Section

STRICT_EXTRA = 100
"""What a further five of a kind counts in a column strict governs (the Kniffel article's strict Kniffel:
"only a Kniffel in chance can 100 count, if one had before a Kniffel")."""


@dataclass(frozen=True)
class Placement:
    """Entering the roll in a box: ``points`` go in the box, ``bonus`` is earned on top of it
    (an extra five of a kind) and does not count toward the upper bonus."""

    points: int
    bonus: int = 0

    @property
    def total(self) -> int:
        return self.points + self.bonus


def open_boxes(rules: RuleSet, filled: Mapping[str, int], column: Column) -> list[Box]:
    """The boxes of ``column`` that are still free, in sheet order."""
    return [box for box in rules.boxes if rules.key(column, box) not in filled]


def reachable_boxes(rules: RuleSet, filled: Mapping[str, int], column: Column) -> list[Box]:
    """Free boxes of ``column`` that the column's fill order allows now (announced columns: all)."""
    free = open_boxes(rules, filled, column)
    if not free:
        return []
    if column.order is Order.TOP_DOWN:
        return free[:1]
    if column.order is Order.BOTTOM_UP:
        return free[-1:]
    return free


def is_five_alike(rules: RuleSet, roll: Roll) -> bool:
    """All dice alike (five of five; for six dice, the box's own test decides)."""
    return rules.five_box is not None and len(set(roll)) == 1


def strict_governs(rules: RuleSet, column: Column) -> bool:
    """Whether the strict variant (option ``strict=on``) rules ``column``: the columns it fills top to
    bottom, the free ones it ordered and those already ordered so. Bottom-up and announced columns keep
    their own rules."""
    return column.order is Order.TOP_DOWN and rules.options.get("strict") == "on"


def _base_points(rules: RuleSet, box: Box, roll: Roll) -> int:
    return rules.score_rows[roll_index(rules.dice)[roll]][rules.box_index[box.id]]


def _strict_points(rules: RuleSet, box: Box, roll: Roll) -> int:
    """What five alike give in ``box`` of a strict column: what the box asks for, a full house too (the
    Kniffel article: "A Kniffel in fill House counts as fill House")."""
    return five_alike_as_full_house(box).score(counts_of(roll))


def placements(
    rules: RuleSet,
    filled: Mapping[str, int],
    roll: Roll,
    *,
    thrown_at_once: bool = False,
    announced: str | None = None,
) -> dict[str, Placement]:
    """Every box key the sorted ``roll`` may be scored in now, with what it pays.

    ``filled`` maps the keys of filled boxes to their points; ``thrown_at_once`` says the dice were
    all thrown together in the last throw (for the sharp variant); ``announced`` is the box announced
    this turn, which is then the only box that may be scored.
    """
    result: dict[str, Placement] = {}
    for column in rules.columns:
        if column.order is Order.ANNOUNCED:
            candidates = [
                box for box in open_boxes(rules, filled, column) if rules.key(column, box) == announced
            ]
        elif announced is not None:
            continue
        else:
            candidates = reachable_boxes(rules, filled, column)
        for box, placement in _column_placements(rules, filled, column, candidates, roll).items():
            if thrown_at_once and rules.sharp and box.figure:
                placement = Placement(placement.points * 2, placement.bonus)
            result[rules.key(column, box)] = placement
    return result


def strikeable(
    rules: RuleSet,
    filled: Mapping[str, int],
    roll: Roll,
    *,
    announced: str | None = None,
    scoreable: Iterable[str] | None = None,
) -> list[str]:
    """Box keys that may be struck (filled with 0) now.

    A box that may be scored may be struck instead. After an announcement, or in an announced column,
    the player may strike any box the fill order allows, in any column (seed 001). ``scoreable``: the
    keys of :func:`placements` for the same position, when the caller has them already.
    """
    keys = list(placements(rules, filled, roll, announced=announced) if scoreable is None else scoreable)
    for column in rules.columns:
        if announced is None and column.order is not Order.ANNOUNCED:
            continue
        boxes = (
            open_boxes(rules, filled, column)
            if column.order is Order.ANNOUNCED
            else reachable_boxes(rules, filled, column)
        )
        keys.extend(rules.key(column, box) for box in boxes)
    return list(dict.fromkeys(keys))


def _column_placements(
    rules: RuleSet, filled: Mapping[str, int], column: Column, candidates: list[Box], roll: Roll
) -> dict[Box, Placement]:
    if not candidates:
        return {}
    five_key = rules.key(column, rules.box(rules.five_box)) if rules.five_box else None
    if five_key is None or not is_five_alike(rules, roll):
        return {box: Placement(_base_points(rules, box, roll)) for box in candidates}
    strict = strict_governs(rules, column)
    if five_key not in filled:
        # A first five of a kind is an ordinary roll (in a strict column also a full house).
        points = _strict_points if strict else _base_points
        return {box: Placement(points(rules, box, roll)) for box in candidates}
    armed = filled[five_key] > 0
    bonus = rules.extra_bonus if armed else 0
    if strict and armed and bonus:
        # Strict order leaves only the boxes below the five-of-a-kind box (Kniffel: chance); a further
        # one counts 100 there, shown as extra=100 shows it: the bonus, with a lower box holding 0.
        return {
            box: Placement(
                _base_points(rules, box, roll) if box.section is Section.UPPER else 0, STRICT_EXTRA
            )
            for box in candidates
        }
    if rules.extra is Extra.NONE or (rules.extra is Extra.HUNDRED and not armed):
        # HUNDRED with the box struck: an ordinary roll, which its score table lets count as a full house.
        return {box: Placement(_base_points(rules, box, roll), bonus) for box in candidates}
    if rules.extra is Extra.HUNDRED:
        return {
            box: Placement(_base_points(rules, box, roll) if box.section is Section.UPPER else 0, bonus)
            for box in candidates
        }
    face = roll[0]
    if rules.extra is Extra.FREE_JOKER:
        upper_done = any(b.face == face and rules.key(column, b) in filled for b in rules.upper_boxes)
        return {
            box: Placement(
                box.joker_points
                if upper_done and box.joker_points is not None
                else _base_points(rules, box, roll),
                bonus,
            )
            for box in candidates
        }
    # Forced joker. In a column with a fill order or an announcement those decide where the roll goes;
    # in a free column it must go to the matching upper box if that is free, else to a free lower box,
    # else (0 points) to any free upper box.
    allowed = candidates
    if column.order is Order.FREE:
        matching = [b for b in candidates if b.face == face]
        lower = [b for b in candidates if b.section is Section.LOWER]
        allowed = matching or lower or candidates
    return {
        box: Placement(
            box.joker_points
            if box.section is Section.LOWER and box.joker_points is not None
            else _base_points(rules, box, roll),
            bonus,
        )
        for box in allowed
    }
