"""Advice at the terminal: hints during play and the review of a game, as Rich tables.

Both ask the optimal planner (:mod:`kniffel.planning`), so they cover every rule set: exactly where the
solver does, else with the estimate ``bot:optimal`` plays by (and they say so). Actions are printed in
the game's text form (``roll keep 3 3``), which the prompt takes as typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.table import Table

from kniffel.planning import Choice

if TYPE_CHECKING:
    from kniffel.review import Review

ESTIMATE_NOTE = (
    "Values for this rule set are estimates built from single-column tables (bot:optimal's view), not exact."
)
MISTAKE = 0.005
"""Decisions that lost less than this (in expected points) are not listed as mistakes."""


def hint_lines(choices: Sequence[Choice]) -> list[str]:
    if not choices:
        return []
    best = choices[0].value
    lines = []
    for n, choice in enumerate(choices, 1):
        loss = best - choice.value
        cost = "best" if n == 1 else f"-{loss:.2f}"
        lines.append(f"  {n}. {choice.action!s:<28} {choice.value:8.2f}  {cost}")
    return lines


def summary_table(review: Review) -> Table:
    table = Table(title="Review: expected points lost against the best decision")
    for header, justify in (
        ("Player", "left"),
        ("Score", "right"),
        ("Decisions", "right"),
        ("Optimal", "right"),
        ("Loss", "right"),
        ("Accuracy", "right"),
    ):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    for p in review.players:
        table.add_row(
            p.name,
            str(p.score),
            str(p.decisions),
            f"{p.optimal} ({100 * p.optimal_share:.0f}%)",
            f"{p.loss:.2f}",
            f"{p.accuracy:.1f}",
        )
    return table


def decisions_table(
    review: Review, *, everything: bool = False, players: Sequence[str] | None = None
) -> Table:
    """The decisions that cost points (all of them with ``everything``), of ``players`` (default all)."""
    title = "Every decision" if everything else "Decisions that cost points"
    table = Table(title=title)
    for header in ("#", "Player", "Round", "Dice", "Left", "Chosen", "Best", "Loss"):
        # Everything but the name stays on one line; names give way on a narrow terminal.
        table.add_column(
            header,
            justify="right" if header in ("#", "Round", "Left", "Loss") else "left",
            no_wrap=header != "Player",
        )
    for d in review.decisions:
        if players is not None and d.player not in players:
            continue
        if not everything and d.loss < MISTAKE:
            continue
        table.add_row(
            str(d.number),
            d.player,
            str(d.round),
            " ".join(map(str, d.dice)),
            str(d.rolls_left),
            d.chosen,
            d.best,
            f"{d.loss:.2f}",
        )
    return table
