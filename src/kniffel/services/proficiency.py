"""How well a person plays, as one figure to compare across games: the average loss a decision and the
level of play it matches ("plays like level 5").

The loss a decision is the review's (:mod:`kniffel.services.review`): the expected points each decision
gave away against exact play, over the decisions made. The levels' own losses a decision were measured the
same way, by reviewing games of every level (``benchmarks/levels.py``, kept in ``ladder.json`` beside this
module for each rule set of one column); a person's figure matches the level whose loss is nearest on a
scale of ratios (:func:`matched_level`), so half a point a decision is as far from a quarter as from one.
A trainer's series is matched against the levels' choices on the very same positions
(:mod:`kniffel.services.trainer`), the same way.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kniffel.base.i18n import N_, number, percent, translate
from kniffel.planning import Unit
from kniffel.planning.ladder import level

if TYPE_CHECKING:  # a record's figures are read without the reviewer: kniffel stats imports no solver
    from kniffel.services.review import PlayerSummary, Review

LADDER_FILE = Path(__file__).with_name("ladder.json")
"""Each level's loss a decision on each rule set of one column, as measured."""

FIGURE = N_("Average loss a decision: {loss}")
PLAYS_LIKE = N_("plays like level {level} ({name})")


@functools.cache
def _measured() -> dict[str, dict[int, float]]:
    data: dict[str, dict[str, float]] = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    return {rules: {int(n): float(loss) for n, loss in levels.items()} for rules, levels in data.items()}


def ladder(rules_id: str) -> dict[int, float] | None:
    """Each level's measured loss a decision (points) on the rule set ``rules_id``; None where it was
    not measured (sheets of several columns, which the exact solver does not value)."""
    found = _measured().get(rules_id)
    return dict(found) if found else None


def matched_level(loss: float, losses: Mapping[int, float]) -> int:
    """The level whose loss a decision (``losses``: by level) is nearest to ``loss`` on a scale of ratios
    (a small share of the largest loss added to each, so that no loss is nearer to 0 than to another
    small one by more than that); of levels equally near, the best."""
    largest = max(losses.values(), default=0.0)
    floor = max(largest * 0.02, 1e-9)

    def distance(found: float) -> float:
        return abs(math.log((loss + floor) / (found + floor)))

    return min(sorted(losses, reverse=True), key=lambda n: distance(losses[n]))


@dataclass(frozen=True)
class Proficiency:
    """A player's figure: ``loss`` given away over ``decisions`` (in ``unit``) and the level it matches
    (None where no level was measured to compare with)."""

    decisions: int
    loss: float
    unit: str = Unit.POINTS
    level: int | None = None

    @property
    def per_decision(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    def loss_text(self, lang: str = "en") -> str:
        """The loss a decision as people read it: ``0.42 points``, ``1.3 %``."""
        if self.unit == Unit.PROBABILITY:
            return percent(lang, self.per_decision, 1)
        return translate(lang, "{points} points", points=number(lang, self.per_decision, 2))

    def level_text(self, lang: str = "en") -> str | None:
        """``plays like level 5 (Skilled player)``, None without a level."""
        if self.level is None:
            return None
        return translate(lang, PLAYS_LIKE, level=self.level, name=level(self.level).title(lang))

    def text(self, lang: str = "en") -> str:
        """The figure in a sentence: ``Average loss a decision: 0.42 points; plays like level 4
        (Regular).``"""
        figure = translate(lang, FIGURE, loss=self.loss_text(lang))
        like = self.level_text(lang)
        return f"{figure}; {like}." if like else f"{figure}."

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "loss": round(self.loss, 6),
            "per_decision": round(self.per_decision, 6),
            "unit": self.unit,
            "level": self.level,
        }


def level_of(rules_id: str, per_decision: float) -> int | None:
    """The level a loss a decision in games of ``rules_id`` matches, None where no ladder was measured."""
    levels = ladder(rules_id)
    return matched_level(per_decision, levels) if levels else None


def measured(rules_id: str, loss: float, decisions: int) -> Proficiency:
    """The figure of ``loss`` points given away over ``decisions`` in games of ``rules_id``, with the
    level of the measured ladder it matches where there is one."""
    found = level_of(rules_id, loss / decisions) if decisions else None
    return Proficiency(decisions, loss, Unit.POINTS, found)


def of_player(rules_id: str, player: PlayerSummary) -> Proficiency | None:
    """The figure of a player's reviewed game, graded by points; None for a player graded by a chance
    or with no decision yet."""
    if player.unit != Unit.POINTS or not player.decisions:
        return None
    return measured(rules_id, player.loss, player.decisions)


def of_review(review: Review) -> dict[str, Proficiency]:
    """Each player's figure in a review, by name (the players graded by points with a decision)."""
    found = {p.name: of_player(review.rules, p) for p in review.players}
    return {name: figure for name, figure in found.items() if figure is not None}


def player_json(rules_id: str, player: PlayerSummary, lang: str = "en") -> dict[str, Any]:
    """What a front end shows of a reviewed player's figure (its JSON and its sentence in ``lang``), in
    an object of its own under ``proficiency``; nothing for a player without one."""
    figure = of_player(rules_id, player)
    return {} if figure is None else {"proficiency": figure.to_json() | {"text": figure.text(lang)}}


def review_lines(review: Review, lang: str = "en") -> list[str]:
    """A line a player of a review: ``Ada: Average loss a decision: 0.42 points; plays like level 4
    (Regular).``"""
    return [f"{name}: {figure.text(lang)}" for name, figure in of_review(review).items()]


def over_time(games: Iterable[tuple[float, int]], rules_id: str, *, spans: int = 4) -> list[Proficiency]:
    """How the figure went over time: ``games`` (each reviewed game's loss and decisions, oldest first)
    cut into up to ``spans`` runs of about as many games, each run's figure."""
    kept = [(loss, decisions) for loss, decisions in games if decisions]
    if not kept:
        return []
    count = min(spans, len(kept))
    runs = [kept[len(kept) * i // count : len(kept) * (i + 1) // count] for i in range(count)]
    return [measured(rules_id, sum(g[0] for g in run), sum(g[1] for g in run)) for run in runs]


__all__ = [
    "FIGURE",
    "LADDER_FILE",
    "PLAYS_LIKE",
    "Proficiency",
    "ladder",
    "level_of",
    "matched_level",
    "measured",
    "of_player",
    "of_review",
    "over_time",
    "player_json",
    "review_lines",
]
