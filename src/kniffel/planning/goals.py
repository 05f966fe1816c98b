"""Playing for a target score and playing to win, on the rule sets the exact solver covers.

* :class:`TargetPlanner` values every legal action by the largest probability of finishing with at
  least ``target`` points (:mod:`kniffel.solver.target`); its best choice is optimal play for that goal.
* :class:`WinPlanner` values every legal action by the chance of finishing first: the player's own
  target probabilities (:class:`~kniffel.solver.target.TargetAdvisor`) weighed by the distribution of
  the best final score among the others (each playing for points, :mod:`kniffel.solver.distribution`);
  the rest of the turn is played for that weighted sum, later turns by each target's own table, so the
  chance is a slight overestimate while others still play. A tie for first counts as a win, as the rules
  name every tied player a winner. Once every other player has finished, their best score is known and
  the chance is exact: it is target play.
* :func:`win_chances` gives every player's chance of finishing first, each playing for points from
  where they stand.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kniffel.game import Game
from kniffel.planning.exact import (
    ExactPlanner,
    advisor_for,
    column_position,
    free_throws_arg,
    legal_choices,
    rules_key,
)
from kniffel.planning.interface import Choice, PlanningError
from kniffel.rules import RuleSet
from kniffel.sheet import ScoreSheet
from kniffel.solver.target import TargetAdvisor, target_table

F64 = npt.NDArray[np.float64]
log = logging.getLogger("kniffel.planning")

_lock = threading.RLock()
_targets: OrderedDict[tuple[object, ...], tuple[RuleSet, TargetAdvisor]] = OrderedDict()
MAX_TARGET_TABLES = 4
"""Target tables kept in memory at once (each is several hundred megabytes, mapped from the cache)."""


def target_advisor_for(rules: RuleSet, directory: Path | None = None) -> TargetAdvisor:
    """The target advisor of a single-column rule set, its table loaded from the cache or solved once
    per process (minutes the first time)."""
    key = (*rules_key(rules), directory)
    with _lock:
        found = _targets.get(key)
        if found is not None and found[0] == rules:
            _targets.move_to_end(key)
            return found[1]
        advisor = TargetAdvisor(advisor_for(rules, directory), target_table(rules, directory=directory))
        _targets[key] = (rules, advisor)
        while len(_targets) > MAX_TARGET_TABLES:
            _targets.popitem(last=False)
        return advisor


_preparing: set[tuple[object, ...]] = set()


def tables_ready(rules: RuleSet, directory: Path | None = None) -> bool:
    """Whether the tables that win play reads (target probabilities, score distributions) can be had
    without solving: in memory, or described on disk. Cheap: nothing is read but the descriptions."""
    from kniffel.solver import cache
    from kniffel.solver import distribution as dist
    from kniffel.solver.target import KIND, default_limit

    key = (*rules_key(rules), directory)
    with _lock:
        held = key in _targets
    try:
        compiled = advisor_for(rules, directory).compiled
        described = [
            cache.derived_path(rules, f"{KIND}-{default_limit(compiled)}", directory).with_suffix(".json")
        ]
        described.append(dist.table_paths(rules, directory)[2])
        table_key = cache.table_key(rules)
        for path in described[0 if not held else 1 :]:
            meta = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(meta, dict) or meta.get("key") != table_key:
                return False
    except (OSError, ValueError):
        return False
    return True


def prepare_tables(rules: RuleSet, directory: Path | None = None) -> None:
    """Load or solve the tables win play reads (minutes the first time for a full rule set)."""
    from kniffel.solver import distribution as dist

    target_advisor_for(rules, directory)
    dist.distribution_table(advisor_for(rules, directory).solution, directory=directory)


PREPARE_ENV = "KNIFFEL_PREPARE_WIN_TABLES"
"""Set to 0, nothing solves win tables in the background: chances of winning then show only for rule sets
whose tables were solved before (``kniffel advise --goal target:T``, ``kniffel review --by-win``), as a
server short of memory may want (a full rule set's tables take a gigabyte or two while solved)."""


def preparing_allowed() -> bool:
    """Whether win tables may be solved in the background (see :data:`PREPARE_ENV`)."""
    return os.environ.get(PREPARE_ENV, "1").strip() != "0"


def prepare_in_background(rules: RuleSet, directory: Path | None = None) -> None:
    """Start :func:`prepare_tables` on a thread of its own, once per rule set at a time, so that a front
    end can go on and offer chances of winning once they are there (not with :data:`PREPARE_ENV` = 0)."""
    if not preparing_allowed():
        return
    key = (*rules_key(rules), directory)
    with _lock:
        if key in _preparing:
            return
        _preparing.add(key)

    def run() -> None:
        try:
            prepare_tables(rules, directory)
        except Exception:  # a front end asks again later; a broken table is rebuilt then
            log.exception("preparing the win tables of %s failed", rules.id)
        finally:
            with _lock:
                _preparing.discard(key)

    threading.Thread(target=run, name=f"kniffel-win-tables-{rules.id}", daemon=True).start()


def scored(sheet: ScoreSheet) -> int:
    """The points a sheet holds now: boxes, upper bonuses and extra bonuses, not the unused free throws
    (those are still to come in the solver's tables)."""
    return sum(t.total - t.free_throws for t in sheet.totals)


class TargetPlanner:
    """Every legal action valued by the largest probability of finishing with at least ``target``."""

    exact = True

    def __init__(self, rules: RuleSet, target: int, directory: Path | None = None) -> None:
        if rules.multi_column:
            raise PlanningError(f"{rules.id}: target play covers the rule sets of one column")
        self.rules = rules
        self.target = target
        self.advisor = target_advisor_for(rules, directory)

    def choices(self, game: Game) -> list[Choice]:
        at = column_position(game)
        if at is None:
            return []
        needed = self.target - scored(game.sheet)
        options = self.advisor.options(at.entries, at.dice, at.rolls_left, needed, **at.turn)
        return legal_choices(
            game,
            {o.action: o.value for o in options},
            lambda box: self.advisor.probability({**at.entries, box: 0}, needed, at.free_throws_left),
        )


@dataclass(frozen=True)
class FinalScores:
    """A distribution of final scores: ``pmf[i]`` is the probability of finishing with ``first + i``."""

    first: int
    pmf: F64

    @classmethod
    def certain(cls, score: int) -> FinalScores:
        return cls(score, np.ones(1))


def best_of(scores: Sequence[FinalScores]) -> FinalScores:
    """The distribution of the highest of independent final scores."""
    from kniffel.solver import winkernels

    if not scores:
        raise PlanningError("the best of no scores")
    counts = np.array([len(s.pmf) for s in scores], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    lows = np.array([s.first for s in scores], dtype=np.int64)
    out = np.empty(int(counts.max()))
    pmf = np.concatenate([np.asarray(s.pmf, dtype=np.float64) for s in scores])
    first, length = winkernels.best_of(lows, offsets, counts, pmf, out)
    return FinalScores(first, out[:length])


def chance_at_least(own: FinalScores, best: FinalScores) -> float:
    """``P(own >= best)`` for independent final scores (a tie is a win for each tied player)."""
    from kniffel.solver import winkernels

    return float(winkernels.at_least(own.first, own.pmf, best.first, best.pmf))


def final_scores(game: Game, player: int, directory: Path | None = None) -> FinalScores:
    """The distribution of ``player``'s final score when playing for points from where they stand (the
    exact distribution of optimal expected-score play, :mod:`kniffel.solver.distribution`)."""
    from kniffel.solver import distribution

    sheet = game.sheets[player]
    if sheet.is_full:
        return FinalScores.certain(sheet.total)
    rules = game.rules
    column = rules.columns[0]
    solution = advisor_for(rules, directory).solution
    extra = sheet.extra_bonus.get(column.id, 0)
    if player == game.current and game.turn.dice is not None:
        at = column_position(game)
        assert at is not None
        found = distribution.situation_distribution(
            solution, at.entries, at.dice, at.rolls_left, **at.turn, extra_bonus=extra
        )
    else:
        left = free_throws_arg(rules, sheet.free_throws_left(column))
        found = distribution.state_distribution(solution, dict(sheet.entries), left, extra_bonus=extra)
    return FinalScores(found.low, np.asarray(found.probabilities, dtype=np.float64))


def win_chances(game: Game, directory: Path | None = None) -> list[float]:
    """Every player's chance of finishing first (a tie counts for each tied player), each playing for
    points from where they stand. Single-column rule sets the solver covers."""
    scores = [final_scores(game, p, directory) for p in range(len(game.players))]
    chances = []
    for p, own in enumerate(scores):
        others = [s for q, s in enumerate(scores) if q != p]
        if not others:
            chances.append(1.0)
            continue
        chances.append(chance_at_least(own, best_of(others)))
    return chances


class WinPlanner:
    """Every legal action valued by the chance of finishing first (see the module docstring). Alone at
    the table, or on rules the solver does not cover, it is the optimal planner."""

    exact = False

    def __init__(self, rules: RuleSet, directory: Path | None = None) -> None:
        self.rules = rules
        self.directory = directory

    @cached_property
    def targets(self) -> TargetAdvisor:
        return target_advisor_for(self.rules, self.directory)

    @cached_property
    def fallback(self) -> ExactPlanner:
        return ExactPlanner(self.rules, advisor_for(self.rules, self.directory))

    def others(self, game: Game) -> FinalScores:
        """The best final score among the players other than the one to move."""
        return best_of(
            [final_scores(game, p, self.directory) for p in range(len(game.players)) if p != game.current]
        )

    def choices(self, game: Game) -> list[Choice]:
        at = column_position(game)
        if at is None:
            return []
        if len(game.players) == 1:
            return self.fallback.choices(game)
        others = self.others(game)
        # I win when my final score is at least the others' best: P(win) = sum over their best s of
        # P(best = s) * P(I make at least s - what I have)
        first = others.first - scored(game.sheet)
        options = self.targets.option_values(at.entries, at.dice, at.rolls_left, first, others.pmf, **at.turn)
        choices = legal_choices(
            game,
            {o.action: o.value for o in options},
            lambda box: self.targets.worth({**at.entries, box: 0}, first, others.pmf, at.free_throws_left),
        )
        if len({c.value for c in choices}) < len(choices):
            # options equally likely to win (a game won or lost whatever happens, say) go by their points
            by_points = {c.action: rank for rank, c in enumerate(self.fallback.choices(game))}
            choices.sort(key=lambda c: by_points.get(c.action, len(by_points)))
            choices.sort(key=lambda c: -c.value)
        return choices
