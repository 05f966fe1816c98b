"""Optimal play of the rule sets the solver covers (one column that is not announced): its tables' values.

Values follow :class:`kniffel.core.Advisor`: the expected points still to come, points already on the
sheet excluded, bonuses and unused free throws to come included.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from kniffel.base.i18n import N_
from kniffel.core import (
    Advisor,
    ColumnPosition,
    Memo,
    OptionRanker,
    Progress,
    UnsupportedRulesError,
    compile_rules,
    table,
)
from kniffel.engine.actions import Action, Score, Strike
from kniffel.engine.game import Game
from kniffel.planning.interface import Choice, Goal, Reach, best_first
from kniffel.planning.worker import Job, NotReady, Work, worker
from kniffel.rules import RuleSet

MAX_TABLES = 128
"""Solved tables kept in memory at once, the least recently used given up first (a server that is asked
about every rule set and option would otherwise keep them all; 8 MB each for Yahtzee, mapped from the
cache, so only what is read takes memory)."""
_advisors: Memo[tuple[object, ...], tuple[RuleSet, Advisor]] = Memo(MAX_TABLES)


def rules_key(rules: RuleSet) -> tuple[object, ...]:
    """A hashable stand-in for ``rules`` (rule sets hold a dict); equal rule sets have equal keys."""
    return (rules.id, tuple(sorted(rules.options.items())), tuple((c.id, c.order) for c in rules.columns))


def advisor_for(rules: RuleSet, directory: Path | None = None) -> Advisor:
    """The advisor of a single-column rule set, its table loaded from the cache or solved once per
    process (``UnsupportedRulesError`` if the solver does not handle it)."""
    key = (*rules_key(rules), directory)
    return _advisors.get_or_make(
        key, lambda: (rules, Advisor(table(rules, directory=directory))), lambda found: found[0] == rules
    )[1]


def advisor_job(rules: RuleSet) -> Job[Advisor] | None:
    """None when the advisor of ``rules`` can be had without solving (:func:`held_advisor`, loaded
    now); else the worker's job that solves its table (a second or two; on a first use its kernels
    compile first, half a minute): one job however many ask, which a front end shows while it waits
    and a live bot plays around."""
    if held_advisor(rules) is not None:
        return None
    return worker().submit(
        ("advisor", rules.id, tuple(sorted(rules.options.items()))),
        Work(N_("Solving the table of {rules}"), 2.0, 0, (("rules", rules.id),)),
        lambda cancel, progress: advisor_for(rules),
    )


def held_advisor(rules: RuleSet, directory: Path | None = None) -> Advisor | None:
    """The advisor of a single-column rule set if it can be had without solving: in memory, or its
    table in the cache (loaded now, a few milliseconds); else None."""
    from kniffel.core import load_solution, table_path

    key = (*rules_key(rules), directory)
    found = _advisors.get(key, lambda found: found[0] == rules)
    if found is not None:
        return found[1]
    if not table_path(rules, directory).with_suffix(".json").is_file():
        return None  # not solved yet: nothing to compile the rules for
    loaded = load_solution(compile_rules(rules), directory)
    if loaded is None:
        return None
    return _advisors.put(key, (rules, Advisor(loaded)))[1]


_rankers: Memo[tuple[object, ...], tuple[RuleSet, OptionRanker]] = Memo(MAX_TABLES)


def ranker_for(rules: RuleSet, directory: Path | None = None) -> OptionRanker:
    """What reads a sheet of a single-column rule set and ranks its options, without solving its table:
    the advisor if it can be had without solving (:func:`held_advisor`), else the compiled rules alone.
    Advice for a target or to win reads chances, not expected points: a first target question on a
    fresh install does not wait for a table it never reads."""
    held = held_advisor(rules, directory)
    if held is not None:
        return held
    return _rankers.get_or_make(
        rules_key(rules), lambda: (rules, OptionRanker(compile_rules(rules))), lambda found: found[0] == rules
    )[1]


_exact: dict[tuple[object, ...], tuple[RuleSet, bool]] = {}


def is_exact(rules: RuleSet) -> bool:
    """Whether the exact solver covers ``rules`` (cheap: no table is built, and the answer is kept per
    rule set: front ends ask before every hint)."""
    if rules.multi_column:
        return False
    key = rules_key(rules)
    found = _exact.get(key)
    if found is not None and found[0] == rules:
        return found[1]
    try:
        compile_rules(rules, check=0)
        covered = True
    except UnsupportedRulesError:
        covered = False
    if len(_exact) > 1024:  # custom rule sets made on the fly: keep the cache bounded
        _exact.clear()
    _exact[key] = (rules, covered)
    return covered


def free_throws_arg(rules: RuleSet, left: int) -> int | None:
    """The advisor's ``free_throws_left`` argument: only rule sets with free throws have that state."""
    return left if rules.free_throws else None


column_position = ColumnPosition.of_game
"""The position of the player to move in a single-column game (:meth:`ColumnPosition.of_game`)."""


def legal_choices(game: Game, values: Mapping[Action, float], struck: Callable[[str], float]) -> list[Choice]:
    """The legal actions of ``game`` valued by an advisor's ``values`` of its options, best first. The
    advisors list no strike of a box that would pay (a waste they never advise): ``struck(box)`` values
    one (a strike of a box that pays nothing is the same as scoring it)."""
    found = game.placements()
    result: list[Choice] = []
    for action in game.legal_actions():
        value = values.get(action)
        if value is None and isinstance(action, Strike):
            placement = found.get(action.box)
            if placement is not None and placement.total == 0:
                value = values.get(Score(action.box))
            else:
                value = struck(action.box)
        if value is not None:
            result.append(Choice(action, value))
    return best_first(result)


def optimal_choices(game: Game | ColumnPosition, advisor: Advisor) -> list[Choice]:
    """The legal actions of the player to move in a single-column ``game`` (or of a column's position)
    valued by optimal play for points (``advisor``'s table); ``[]`` when there is nothing to decide."""
    if not isinstance(game, Game):
        return [Choice(o.action, o.value) for o in advisor.options(game)]
    at = column_position(game)
    if at is None:
        return []
    options = advisor.options(at)
    return legal_choices(
        game,
        {o.action: o.value for o in options},
        lambda box: advisor.value({**at.sheet, box: 0}, at.free_throws_left),
    )


class ExactPlanner:
    """Optimal play for points of a single-column rule set: the advisor's options are the game's actions.
    Made without ``wait``, it never solves its table itself: until the table is in memory or on disk the
    worker solves it (:func:`advisor_job`; the tables of the default store) and :class:`NotReady` says
    so."""

    exact = True

    def __init__(
        self, rules: RuleSet, goal: Goal, directory: Path | None = None, *, wait: bool = True
    ) -> None:
        self.rules = rules
        self.goal = goal
        self.directory = directory
        solve = wait or directory is not None
        self._advisor = advisor_for(rules, directory) if solve else held_advisor(rules, directory)

    @property
    def advisor(self) -> Advisor:
        """The advisor of the table; :class:`NotReady` while the worker solves it."""
        if self._advisor is None:
            job = advisor_job(self.rules)
            if job is not None:
                raise NotReady(job, job.work)
            self._advisor = held_advisor(self.rules)
        assert self._advisor is not None  # advisor_job found it held
        return self._advisor

    def choices(self, at: Game | ColumnPosition, progress: Progress | None = None) -> list[Choice]:
        return optimal_choices(at, self.advisor)

    def reach(self, at: Game | ColumnPosition) -> Reach | None:
        return None

    def column_advisor(self, progress: Progress | None = None) -> Advisor:
        return self.advisor


__all__ = [
    "ExactPlanner",
    "advisor_for",
    "column_position",
    "free_throws_arg",
    "held_advisor",
    "is_exact",
    "legal_choices",
    "optimal_choices",
    "ranker_for",
    "rules_key",
]
