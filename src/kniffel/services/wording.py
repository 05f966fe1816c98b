"""What front ends say about a game, in the same words whichever shows it: its result, a review's summary,
the wait for advice ("Thinking..."), the note while chances of winning are solved, the note on ties.

Texts are English templates marked for the catalogs (:func:`kniffel.base.i18n.N_`); each front end
translates them into its player's language.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from kniffel.base.i18n import N_, ngettext, number, percent, translate
from kniffel.engine.game import Game
from kniffel.planning import NotReady, PlanningError, parse_goal, win_tables
from kniffel.planning.worker import Work
from kniffel.rules import RulesError, RuleSet
from kniffel.rules import get as get_rules
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


def compiling_seconds() -> float | None:
    """How long this process has been compiling kernels, if it is (:func:`kniffel.core.runtime.kernelcache.
    compiling`)."""
    from kniffel.core import compiling

    found = compiling()
    return None if found is None else found.seconds


@dataclass(frozen=True)
class Preparing:
    """Chances of winning are not there yet: the worker solves what they need (:mod:`kniffel.planning.
    worker`). What a front end says meanwhile (it shows points)."""

    work: Work
    """What is solved and what it costs (its sentence is a template for the front end to translate)."""
    fraction: float | None
    """How much is done, 0 to 1 (None: not started)."""
    solving: bool = True
    """False when nothing solves it (win tables are not prepared in the background here)."""
    compiling: float | None = field(default_factory=compiling_seconds)
    """Seconds this process has been compiling kernels (a first use), when it is: until they are
    compiled the solve cannot start or stands still, and its estimate leaves them out."""
    elapsed: float | None = None
    """Seconds since the solve started (None: it waits for its turn)."""

    @classmethod
    def of(cls, not_ready: NotReady, rules: RuleSet | None = None) -> Preparing:
        """What ``not_ready`` waits for; with ``rules``, missing early win tables are started first (a
        front end that shows chances of winning says so: this note)."""
        job = not_ready.job
        if job is None and not_ready.early and rules is not None:
            job = win_tables(rules).prepare()
        if job is None:
            return cls(not_ready.work, None, solving=False)
        elapsed = None if job.started is None else max(0.0, time.monotonic() - job.started)
        return cls(job.work, job.fraction, elapsed=elapsed)

    def left(self) -> float | None:
        """Seconds the solve still takes at the pace it has kept so far (its time over the share done),
        once enough of it is done to tell; None before."""
        done, spent = self.fraction, self.elapsed
        if done is None or spent is None or done < MEASURED or spent < 1:
            return None
        return spent * (1 - done) / done

    def note(self, translate: Callable[..., str]) -> str:
        """What a front end says meanwhile, translated by ``translate(english, **fields)``: what is
        solved, roughly how long and how big (before it starts, as this machine solved such work
        before; once it runs, at the pace it keeps), how far it is, and that points are shown
        meanwhile. The rule set is named as people know it."""
        fields = dict(self.work.fields)
        if "rules" in fields:
            fields["rules"] = rules_name(fields["rules"], translate)
        what = translate(self.work.template, **fields)
        if not self.solving:
            return translate(
                "Chances of winning show once the win tables are solved ({what}: kniffel cache prepare "
                "--rules {rules}).",
                what=what,
                rules=dict(self.work.fields).get("rules", ""),
            )
        if self.compiling is not None:
            return translate(
                "{what}: compiling the solver first, only on its first use ({time} so far). Points "
                "meanwhile.",
                what=what,
                time=about(self.compiling),
            )
        done = (
            ""
            if self.fraction is None
            else translate(", {percent} percent done", percent=round(100 * self.fraction))
        )
        left = self.left()
        if left is not None:
            return translate(
                "{what}: about {time} left{done}. Points meanwhile.", what=what, time=about(left), done=done
            )
        if self.elapsed is not None and self.elapsed > self.work.seconds:  # slower than expected
            return translate(
                "{what}: {time} so far{done}. Points meanwhile.",
                what=what,
                time=about(self.elapsed),
                done=done,
            )
        cost = about(self.work.seconds)
        if self.work.bytes:
            cost = translate("{time}, {size} on disk", time=cost, size=megabytes(self.work.bytes))
        return translate("{what}: about {cost}{done}. Points meanwhile.", what=what, cost=cost, done=done)


MEASURED = 0.03
"""The share of a solve done past which its own pace tells how long the rest takes."""


def rules_name(rules_id: str, translate: Callable[..., str]) -> str:
    """A rule set as people know it ("Kniffel (Schmidt)"), translated by ``translate``; an id that names
    no built-in rule set as it is."""
    try:
        return translate(get_rules(rules_id).name)
    except RulesError:
        return rules_id


def about(seconds: float) -> str:
    """A rough duration: ``5 s``, ``90 s``, ``3 min``."""
    if seconds < 120:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"


def megabytes(size: int) -> str:
    return f"{max(1, round(size / 1e6))} MB"


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
    "Preparing",
    "about",
    "accuracy_text",
    "compiling_seconds",
    "goal_text",
    "listed_decisions",
    "megabytes",
    "needs_tie_note",
    "renamed",
    "result_line",
    "rules_name",
    "summary_cells",
    "summary_notes",
    "thinking_text",
]
