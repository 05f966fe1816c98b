"""``kniffel advise --goal``: advice for another goal than the most points.

``--goal mean`` (the default) values every option by the expected points still to come. ``--goal
target:T`` values it by the largest probability of finishing with at least ``T`` points, playing for
exactly that (:mod:`kniffel.solver.target`); the target table is solved once per rule set (a few
minutes) and cached beside the value table. It covers the rule sets the exact solver covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

from rich.table import Table

from kniffel.cli import solving
from kniffel.cli.errors import CliError
from kniffel.game import Game
from kniffel.i18n import translate
from kniffel.rules import RuleSet
from kniffel.situation import Situation

TARGET = "target:"


@dataclass(frozen=True)
class Goal:
    """What the advice plays for: ``target`` None for the most points, else that final score."""

    target: int | None = None

    def __str__(self) -> str:
        return "mean" if self.target is None else f"{TARGET}{self.target}"


def parse_goal(text: str) -> Goal:
    """``mean`` or ``target:T`` (``T`` a whole number of points, at least 0)."""
    cleaned = text.strip().lower()
    if cleaned == "mean":
        return Goal()
    if cleaned.startswith(TARGET):
        number = cleaned[len(TARGET) :].strip()
        if number.isdigit() and len(number) <= 6:
            return Goal(int(number))
        raise CliError(f"a target is a whole number of points, as in target:250; got {text!r}")
    raise CliError(f"unknown goal {text!r}; choose mean or target:T (T the final score to reach)")


class TargetOptions:
    """The advisor that ``advise`` and ``advise --batch`` ask, playing for a final score: every option's
    probability of reaching it. A sheet's points so far are its boxes and upper bonus (extra bonuses
    earned are not part of a box-by-box sheet)."""

    def __init__(self, rules: RuleSet, target: int, progress: Any = None) -> None:
        from kniffel.planning.exact import advisor_for
        from kniffel.solver.target import TargetAdvisor, target_table

        self.target = target
        self.advisor = TargetAdvisor(advisor_for(rules), target_table(rules, progress=progress))

    def needed(self, sheet: dict[str, int]) -> int:
        return self.target - self.advisor.scored(sheet)

    def options(self, sheet: dict[str, int], dice: tuple[int, ...], rolls_left: int, **details: Any) -> Any:
        return self.advisor.options(sheet, dice, rolls_left, self.needed(sheet), **details)


def target_options(rules: RuleSet, target: int, *, show_progress: bool, lang: str) -> TargetOptions:
    label = translate(lang, "Solving the target table of {rules} (once, then cached)", rules=rules.id)
    with solving.solve_progress(show_progress, label, lang=lang) as progress:
        return TargetOptions(rules, target, progress)


def advise_situation(situation: Situation, goal: Goal) -> list[dict[str, Any]]:
    """Every option of a whole situation valued for ``goal`` (a target), best first."""
    from kniffel.planning import TargetPlanner, is_exact

    if situation.dice is None:
        raise CliError("the situation has no dice yet: advice starts after the turn's first roll")
    if not is_exact(situation.rules):
        raise CliError(
            f"{situation.rules.id}: playing for a target covers the rule sets the exact solver solves "
            "(one column, not announced)"
        )
    assert goal.target is not None
    planner = TargetPlanner(situation.rules, goal.target)
    return [
        {"action": str(c.action), "value": c.value} for c in planner.choices(Game.from_situation(situation))
    ]


def options_table(options: list[dict[str, Any]], goal: Goal, lang: str = "en") -> Table:
    """The options with their chance of reaching the target, best first."""
    table = Table(
        title=translate(
            lang, "Options, best first (chance of finishing with at least {target})", target=goal.target
        )
    )
    table.add_column("#", justify="right")
    table.add_column(translate(lang, "Action"))
    table.add_column(translate(lang, "Chance"), justify="right")
    table.add_column(translate(lang, "Loss"), justify="right")
    best = options[0]["value"] if options else 0.0
    for n, option in enumerate(options, 1):
        table.add_row(
            str(n),
            option["action"],
            f"{100 * option['value']:.3f} %",
            f"{100 * (best - option['value']):.3f}",
        )
    return table


def run_batch(advisor: TargetOptions, rules: RuleSet, stream: IO[str], out: IO[str]) -> int:
    """``advise --batch`` for a target: as :func:`kniffel.cli.solving.run_batch`."""
    return solving.run_batch(advisor, rules, stream, out)
