"""Situations as ``kniffel advise --batch`` reads them, drawn at random for the batch readers' tests."""

from __future__ import annotations

import random
from typing import Any

from kniffel.rules import RuleSet


def batch_situation(rs: RuleSet, rng: random.Random) -> dict[str, Any]:
    """A situation of a one-column rule set the advisor takes, as a batch line's object: a sheet with
    points its boxes can hold (a prefix of the boxes where the column is filled in order), any number of
    throws left, thrown at once or not, free throws left and used where the rules have them."""
    from kniffel.engine.sheet import possible_points

    boxes = [box.id for box in rs.boxes]
    if rs.columns[0].order.sequential:
        chosen = boxes[: rng.randrange(len(boxes))]
    else:
        chosen = [b for b in boxes if rng.random() < 0.5][: len(boxes) - 1]
    data: dict[str, Any] = {
        "sheet": {b: rng.choice(sorted(possible_points(rs, b))) for b in chosen},
        "dice": [rng.randint(1, 6) for _ in range(rs.dice)],
        "rolls_left": rng.randrange(rs.rolls),
    }
    if rng.random() < 0.3:
        data["thrown_at_once"] = rng.random() < 0.5
    if rs.free_throws and rng.random() < 0.7:
        data["free_throws_left"] = rng.randrange(rs.free_throws + 1)
        if data["rolls_left"] == 0:
            data["free_throws_used"] = rng.randrange(rs.free_throws_per_turn + 1)
    return data
