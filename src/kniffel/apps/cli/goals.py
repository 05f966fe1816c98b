"""``kniffel advise --goal``: the goal a command plays for, read once, and how its answers are shown.

``--goal points`` (or ``mean``, the default) values every option by the expected points still to come.
``--goal target:T`` values it by the largest probability of finishing with at least ``T`` points, playing
for exactly that (:mod:`kniffel.core.target`): the probabilities are solved for the states the question
can reach (the cone of the situation, for that target), which late in a game takes a moment and from an
empty sheet some seconds; nothing is written to disk. ``--goal win`` values it by the chance of
finishing first, given the other players' sheets (a table text: ``advise --situation``). They cover the
rule sets the exact solver covers. The goal is parsed here once (:func:`goal_of`) and handed to the advice
service as it is; what is shown follows the answer's unit, never the goal's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from rich.table import Table

from kniffel.apps.cli import solving
from kniffel.apps.cli.errors import CliError
from kniffel.base.i18n import N_, NBSP, translate
from kniffel.planning import PlanningError
from kniffel.planning.goals import parse_goal
from kniffel.planning.interface import Goal, Reach, Unit
from kniffel.rules import RuleSet
from kniffel.services.advice import about

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
    """What solving a target's probabilities costs, said before it starts (a simulation of a player
    for that score solves its rows first)."""
    from kniffel.core import banked_points, cone_size
    from kniffel.planning.exact import ranker_for
    from kniffel.planning.winning import seconds_per_value

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


@contextmanager
def solving_for(
    rules: RuleSet, goal: Goal, *, show: bool, lang: str, table: bool = False
) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar (:func:`kniffel.apps.cli.solving.solve_progress`) while the tables a question for
    ``goal`` needs are solved: the points table of ``rules`` (``table``: of a whole table's rules), or the
    chances of the goal, counted in states."""
    if goal.unit is Unit.POINTS:
        label = (
            N_("Solving the tables of {rules} (once, then cached)")
            if table
            else N_("Solving {rules} (once, then cached)")
        )
        with solving.solve_progress(show, translate(lang, label, rules=rules.id), lang=lang) as progress:
            yield progress
        return
    label = translate(lang, "Solving the chances of {goal} in {rules}", goal=goal, rules=rules.id)
    # nothing is shown without progress, so the kernel cache is not asked then
    waiting = cone_waiting(lang) if show else None
    with solving.solve_progress(show, label, unit=N_("states"), lang=lang, waiting=waiting) as progress:
        yield progress


def cone_waiting(lang: str) -> str:
    """Said until a cone's first sheet is solved: compiling on a first use, else cutting the sheets'
    windows."""
    from kniffel.core import target_needs_compiling

    if target_needs_compiling():
        first_use = N_("compiling the target kernels, first use only (about {time})...")
        return translate(lang, first_use, time=about(COMPILE_SECONDS))
    return translate(lang, "preparing...")


def options_table(options: list[dict[str, Any]], reach: Reach | None, lang: str = "en") -> Table:
    """The options with their chance, best first: of finishing with at least the score ``reach`` names,
    or (None) of winning."""
    if reach is not None:
        title = translate(
            lang, "Options, best first (chance of finishing with at least {target})", target=reach.target
        )
    else:
        title = translate(lang, "Options, best first (chance of winning)")
    return solving.ranked_table(
        title, translate(lang, "Chance"), options, lang, scale=100, places=3, unit=f"{NBSP}%"
    )


__all__ = ["COMPILE_SECONDS", "cone_note", "cone_waiting", "goal_of", "options_table", "solving_for"]
