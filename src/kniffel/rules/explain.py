"""A rule set explained in words, from its declaration: what the terminal's ``kniffel rules ID`` prints
and what the web table's "How to play" shows, in either language. Nothing here is written per rule set:
every sentence is read from the dice, the sheet's order, the bonuses, the free throws and each box's
scorer, so a rule set of one's own is explained as well as the built-in ones."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from kniffel.base.i18n import N_, ngettext, translate
from kniffel.rules.builtin import ORDER_TEXT, extra_text, scoring_text
from kniffel.rules.model import Extra, RuleSet

FREE_THROWS = N_("{n}{per_column}, at most {per_turn} a turn; each one unused is worth {points} at the end")


@dataclass(frozen=True)
class Explained:
    """A rule set in words: its facts (a label and a sentence each) and its boxes (a label and what the
    box scores), in one language."""

    name: str
    description: str
    facts: tuple[tuple[str, str], ...]
    boxes: tuple[tuple[str, str], ...]
    upper_boxes: int
    """How many of ``boxes`` are the upper section's (the bonus counts those)."""


def explain(rules: RuleSet, language: str = "en") -> Explained:
    """``rules`` in words, in ``language``."""
    t = functools.partial(translate, language)
    per_column = t(N_(" per column")) if rules.multi_column else ""
    facts = [
        (
            t(N_("Dice")),
            ngettext(
                "{dice} dice, {n} roll a turn",
                "{dice} dice, up to {n} rolls a turn",
                rules.rolls,
                language,
                dice=rules.dice,
            ),
        ),
        (
            t(N_("Sheet")),
            "; ".join(
                t(N_("column {column}: {order}"), column=c.id, order=t(ORDER_TEXT[c.order]))
                if rules.multi_column
                else t(ORDER_TEXT[c.order])
                for c in rules.columns
            ),
        ),
        (
            t(N_("Upper bonus")),
            t(
                N_("{bonus} when the upper boxes reach {threshold}{per_column}"),
                bonus=rules.upper_bonus,
                threshold=rules.upper_bonus_threshold,
                per_column=per_column,
            ),
        ),
        (t(N_("Five alike again")), extra_text(rules, language)),
    ]
    if rules.free_throws:
        facts.append(
            (
                t(N_("Free throws")),
                t(
                    FREE_THROWS,
                    n=rules.free_throws,
                    per_column=per_column,
                    per_turn=rules.free_throws_per_turn,
                    points=rules.free_throw_points,
                ),
            )
        )
    facts.append(
        (
            t(N_("Sharp")),
            t(N_("figures thrown with all dice in one throw score double")) if rules.sharp else t(N_("off")),
        )
    )
    boxes = []
    for box in rules.boxes:
        scores = scoring_text(box.score, language)
        if box.joker_points is not None and rules.extra in (Extra.FORCED_JOKER, Extra.FREE_JOKER):
            scores += t(N_(" (as a joker: {points})"), points=box.joker_points)
        boxes.append((box.label(language), scores))
    return Explained(t(rules.name), t(rules.description), tuple(facts), tuple(boxes), len(rules.upper_boxes))


__all__ = ["Explained", "explain"]
