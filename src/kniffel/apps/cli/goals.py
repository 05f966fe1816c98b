"""``kniffel advise --goal``: advice for another goal than the most points.

``--goal points`` (or ``mean``, the default) values every option by the expected points still to come.
``--goal target:T`` values it by the largest probability of finishing with at least ``T`` points, playing
for exactly that (:mod:`kniffel.core.target`): the probabilities are solved for the states the question
can reach (the cone of the situation, for that target), which late in a game takes a moment and from an
empty sheet some seconds; nothing is written to disk. ``--goal win`` values it by the chance of
finishing first, given the other players' sheets (a table text: ``advise --situation``). They cover the
rule sets the exact solver covers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import IO, Any

from rich.table import Table

from kniffel.apps.cli import solving
from kniffel.apps.cli.errors import CliError
from kniffel.base.i18n import N_, NBSP, translate
from kniffel.engine.situation import Situation
from kniffel.planning import PlanningError
from kniffel.planning.goals import Target, parse_goal
from kniffel.planning.interface import Goal, Unit
from kniffel.rules import RuleSet
from kniffel.services.advice import TargetOptions, situation_options

COMPILE_SECONDS = 20
"""About how long the target kernels take to compile the first time (10 to 17 s measured on a 2-core Zen 4
with other work beside it; benchmarks/cold_start.py on a fresh kernel cache says it for a machine)."""


def goal_of(text: str) -> Goal:
    """The goal ``--goal`` names (:func:`kniffel.planning.goals.parse_goal`), as a command error."""
    try:
        return parse_goal(text)
    except PlanningError as error:
        raise CliError(str(error)) from None


def cone_note(rules: RuleSet, target: int, sheet: Mapping[str, int] | None, lang: str) -> str:
    """What solving a target's probabilities costs, said before it starts."""
    from kniffel.core.distribution import banked_points
    from kniffel.core.target import cone_size
    from kniffel.planning.exact import ranker_for
    from kniffel.planning.winning import seconds_per_value
    from kniffel.services.session import about

    ranker = ranker_for(rules)
    state = ranker.state(sheet or {})
    needed = target - banked_points(rules, sheet or {})
    seconds = cone_size(ranker.compiled, state, needed, needed) * seconds_per_value()
    return translate(
        lang,
        "Solving the chances of reaching {target} in {rules} (about {time}, in memory)",
        target=target,
        rules=rules.id,
        time=about(seconds),
    )


def target_options(
    rules: RuleSet, target: int, *, show_progress: bool, lang: str, sheet: Mapping[str, int] | None = None
) -> TargetOptions:
    """:class:`TargetOptions` for one situation's sheet (or, None, for a batch), with a progress bar."""
    label = partial(cone_note, rules, target, sheet, lang)
    # nothing is shown without progress, so the kernel cache is not asked then
    waiting = cone_waiting(lang) if show_progress else None
    with solving.solve_progress(
        show_progress, label, unit=N_("states"), lang=lang, waiting=waiting
    ) as progress:
        return TargetOptions(rules, target, sheet, progress)


def cone_waiting(lang: str) -> str:
    """Said until a cone's first sheet is solved: compiling on a first use, else cutting the sheets'
    windows."""
    from kniffel.core.target import needs_compiling
    from kniffel.services.session import about

    if needs_compiling():
        first_use = N_("compiling the target kernels, first use only (about {time})...")
        return translate(lang, first_use, time=about(COMPILE_SECONDS))
    return translate(lang, "preparing...")


def advise_situation(situation: Situation, goal: Goal) -> list[dict[str, Any]]:
    """Every option of a whole situation (a table text: the other players' sheets too) valued for
    ``goal``, best first."""
    return situation_options(situation, goal)[0]


def options_table(options: list[dict[str, Any]], goal: Goal, lang: str = "en") -> Table:
    """The options with their chance of reaching the goal, best first."""
    if isinstance(goal, Target):
        title = translate(
            lang, "Options, best first (chance of finishing with at least {target})", target=goal.score
        )
    else:
        title = translate(lang, "Options, best first (chance of winning)")
    return solving.ranked_table(
        title, translate(lang, "Chance"), options, lang, scale=100, places=3, unit=f"{NBSP}%"
    )


def run_batch(advisor: TargetOptions, rules: RuleSet, stream: IO[str], out: IO[str]) -> int:
    """``advise --batch`` for a target: as :func:`kniffel.services.advice.run_batch`."""
    return solving.run_batch(advisor, rules, stream, out)


__all__ = [
    "TargetOptions",
    "Unit",
    "advise_situation",
    "cone_waiting",
    "goal_of",
    "options_table",
    "run_batch",
    "target_options",
]
