"""What front ends say about a game, in the same words whichever shows it: its result, a review's summary,
the wait for advice ("Thinking..."), the note while chances of winning are solved, the note on ties.

Texts are English templates marked for the catalogs (:func:`kniffel.base.i18n.N_`); each front end
translates them into its player's language.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

from kniffel.base.i18n import N_, ngettext, number, percent, translate
from kniffel.engine.game import Game
from kniffel.planning import PlanningError, parse_goal
from kniffel.services.advice import about, compiling_seconds
from kniffel.services.review import ACCURACY_SCALE, Decision, PlayerSummary, Review, listed, loss_text

SUMMARY_HEADERS = (N_("Player"), N_("Score"), N_("Decisions"), N_("Optimal"), N_("Loss"), N_("Accuracy"))
"""The columns of a review's summary, one row a player (English: front ends translate them)."""


def result_line(game: Game, lang: str = "en", names: Mapping[str, str] | None = None) -> str:
    """Who won with how many points (or who share first place), in ``lang``, the players named as
    ``names`` shows them (:meth:`kniffel.services.session.Session.shown`): what the terminal game shows at
    the end and prints on leaving."""
    best = game.standings()[0].total
    winners = [(names or {}).get(name, name) for name in game.winners()]
    if len(winners) == 1:
        return ngettext(
            "Winner: {player}, with {n} point.",
            "Winner: {player}, with {n} points.",
            best,
            lang,
            player=winners[0],
        )
    return ngettext(
        "Tie: {players} share first place with {n} point.",
        "Tie: {players} share first place with {n} points.",
        best,
        lang,
        players=", ".join(winners),
    )


def renamed(result: Review, names: Mapping[str, str]) -> Review:
    """``result`` with its players named as ``names`` shows them
    (:meth:`kniffel.services.session.Session.shown`)."""
    return dataclasses.replace(
        result,
        players=[dataclasses.replace(p, name=names.get(p.name, p.name)) for p in result.players],
        decisions=[dataclasses.replace(d, player=names.get(d.player, d.player)) for d in result.decisions],
    )


def listed_decisions(review: Review, *, everything: bool = False) -> list[Decision]:
    """The decisions a review lists (:func:`kniffel.services.review.listed`: the costly ones, each against the
    best for its player's goal; all of them with ``everything``)."""
    return listed(review, everything=everything)


def summary_cells(player: PlayerSummary, lang: str = "en") -> tuple[str, ...]:
    """A player's row of a review's summary, under :data:`SUMMARY_HEADERS`, with numbers as ``lang``
    writes them and every figure with its unit (a loss in points or as a chance, the accuracy out of
    100). What the player is graded by is :func:`goal_text` of :attr:`PlayerSummary.goal`."""
    if not player.decisions:  # nothing decided yet: nothing to grade
        return (player.name, str(player.score), "0", "\N{EN DASH}", "\N{EN DASH}", "\N{EN DASH}")
    accuracy = player.accuracy
    return (
        player.name,
        str(player.score),
        str(player.decisions),
        f"{player.optimal} ({percent(lang, player.optimal_share, 0)})",
        loss_text(player.loss, player.unit, lang),
        "\N{EN DASH}" if accuracy is None else accuracy_text(accuracy, lang),
    )


def accuracy_text(accuracy: float, lang: str = "en") -> str:
    """An accuracy as every front end shows it: out of 100 ("89.9/100")."""
    return translate(lang, "{accuracy}/100", accuracy=number(lang, accuracy, 1))


def summary_notes(lang: str = "en") -> list[str]:
    """What the columns of a review's summary mean, in ``lang``: said where the summary is shown."""
    one, five = (round(100 * math.exp(-points / ACCURACY_SCALE)) for points in (1, 5))
    return [
        translate(lang, LOSS_NOTE),
        translate(lang, ACCURACY_NOTE, one=one, five=five),
    ]


LOSS_NOTE = N_(
    "Optimal: the decisions that gave nothing away. Loss: what the decisions gave away of the player's goal, "
    "in expected points (pts) or as a chance (%)."
)
ACCURACY_NOTE = N_(
    "Accuracy: 100 for perfect play, {one} for a point given away a turn on average, {five} for five; it "
    "weighs how much was lost, not how often."
)


def goal_text(goal: str, lang: str = "en") -> str:
    """What a review grades by, for people in ``lang`` (:meth:`kniffel.planning.Goal.describe`)."""
    try:
        return parse_goal(goal).describe(lang)
    except PlanningError:  # a goal no longer registered: its text
        return goal


def thinking_text(lang: str) -> str:
    """ "Thinking...", and while a first use compiles the solver, that and for how long so far: what a
    front end says while the advice waits (a person should not take the silence for a hang)."""
    found = compiling_seconds()
    if found is None:
        return translate(lang, "Thinking...")
    first_use = N_("Thinking... compiling the solver first, only on its first use ({time} so far).")
    return translate(lang, first_use, time=about(found))


QUICK_ORDER = N_("The quick bot's order of the options, best first, until the exact values are solved.")
"""What a front end says above :func:`kniffel.planning.quick_choices`' options."""


TIE_NOTE = N_("A tie counts as a win for each tied player: the chances can add up to more than 100 %.")
"""Said beside chances of winning whose shown figures add up to more than 100 %."""


def needs_tie_note(chances: Sequence[float], decimals: int) -> bool:
    """Whether ``chances``, shown as percents with ``decimals``, add up to more than 100 (ties count for
    every tied player: :data:`TIE_NOTE` says so)."""
    shown = sum(round(100 * float(c), decimals) for c in chances)
    return bool(shown > 100 + 0.5 * 10.0**-decimals)


__all__ = [
    "ACCURACY_NOTE",
    "LOSS_NOTE",
    "QUICK_ORDER",
    "SUMMARY_HEADERS",
    "TIE_NOTE",
    "accuracy_text",
    "goal_text",
    "listed_decisions",
    "needs_tie_note",
    "renamed",
    "result_line",
    "summary_cells",
    "summary_notes",
    "thinking_text",
]
