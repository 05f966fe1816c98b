"""Rule sets and the boxes a roll may go to, as the rules' tables read them; the seeds' own examples."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kniffel import ScoreSheet, rules
from kniffel.rules import RuleSet
from support.paths import DATA


def ruleset(rules_id: str, **options: str) -> RuleSet:
    """``ruleset("yahtzee", joker="free")``."""
    return rules.get(rules_id, options)


def where(
    rs: RuleSet,
    sheet: str,
    dice: Sequence[int],
    *,
    at_once: bool = False,
    announced: str | None = None,
) -> dict[str, tuple[int, int]]:
    """Every box the dice may be scored in on the sheet ``sheet`` (``"kniffel=50,threes=9"``), as
    ``{box: (points, bonus)}``."""
    filled = ScoreSheet.parse(rs, sheet).entries
    options = rules.placements(rs, filled, tuple(sorted(dice)), thrown_at_once=at_once, announced=announced)
    return {key: (p.points, p.bonus) for key, p in options.items()}


def fill_except(rs: RuleSet, keep_free: Iterable[str], points: Mapping[str, int] | None = None) -> str:
    """Sheet text with every box struck except ``keep_free``; ``points`` overrides single entries."""
    free = set(keep_free)
    points = dict(points or {})
    items = [f"{key}={points.pop(key, 0)}" for key in rs.box_keys if key not in free]
    assert not points, f"entries for boxes left free: {points}"
    return ",".join(items)


@functools.cache
def seed_examples() -> dict[str, Any]:
    """``tests/data/seed_examples.json``: the seeds' own examples, each with its seed file and words."""
    data: dict[str, Any] = json.loads((DATA / "seed_examples.json").read_text(encoding="utf-8"))
    return data


def seed_sheet(rs: RuleSet, case: Mapping[str, Any]) -> str:
    """The sheet of a seed example as text: its ``sheet``, and with ``all_other_boxes_struck_but`` every
    other box struck except those."""
    sheet: str = case["sheet"]
    if "all_other_boxes_struck_but" not in case:
        return sheet
    return fill_except(rs, case["all_other_boxes_struck_but"], ScoreSheet.parse(rs, sheet).entries)


SPIELBLOCK: list[dict[str, Any]] = seed_examples()["spielblock"]
"""Seed 000, "Spielblock": the template filled in for two games (its dashes are struck boxes: "-" or "x"),
each with the totals it prints."""
SEED_GAME_1, SEED_GAME_2 = (str(game["sheet"]) for game in SPIELBLOCK)
"""The two games of :data:`SPIELBLOCK` as sheet text."""
