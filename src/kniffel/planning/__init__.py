"""Planning: the value of every legal action of a game position.

>>> from kniffel import Game, SeededDice, rules
>>> from kniffel.planning import planner_for
>>> game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
>>> game.roll()
(1, 1, 2, 3, 5)
>>> best = planner_for(game.rules).choices(game)[0]                      # doctest: +SKIP
>>> str(best.action), round(best.value, 2)                               # doctest: +SKIP
('roll keep 5', 245.9)

A *planner* answers :meth:`Planner.choices`: every legal action of the player to move with the
expected points still to come if it is taken, best first. Bots play the best choice, hints list them,
reviews price each decision against the best one. Three planners exist, made by :func:`planner_for`:

* ``exact`` (:class:`ExactPlanner`): the solver's tables, for the rule sets it covers (one column that
  is not announced); its best choice is optimal play.
* ``column`` (:class:`ColumnPlanner`): every other sheet, valued as the sum of its columns' tables.
* ``heuristic`` (:class:`HeuristicPlanner`): no tables, a fast estimate of what each box is worth.
* ``win`` (:class:`WinPlanner`): the chance of finishing first, where the exact solver covers the rules
  (:mod:`kniffel.planning.goals`; :class:`TargetPlanner` plays for a target score there).

``optimal`` (the default) is the exact planner where the solver covers the rules, else the column one.
The exact planner reads the solver's advice; the other two share one expectimax over the rest of the
turn and differ only in their :class:`Valuation` of the turn's end. On multi-column sheets without free
throws that search runs in compiled code (:mod:`kniffel.planning.compiled`, each planner's valuation as a
table per column); elsewhere in Python (:mod:`kniffel.planning.lookahead`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Literal

from kniffel.planning.columns import ORDERED_EXTRA_ROLLS, ColumnPlanner
from kniffel.planning.exact import ExactPlanner, advisor_for, is_exact, rules_key
from kniffel.planning.goals import TargetPlanner, WinPlanner, final_scores, win_chances
from kniffel.planning.heuristic import HeuristicPlanner, Weights
from kniffel.planning.interface import Choice, Planner, PlanningError
from kniffel.planning.lookahead import Lookahead, Valuation
from kniffel.rules import RuleSet

PlannerKind = Literal["optimal", "exact", "column", "heuristic", "win"]
KINDS: tuple[PlannerKind, ...] = ("optimal", "exact", "column", "heuristic", "win")

_lock = threading.RLock()
_planners: OrderedDict[tuple[object, ...], tuple[RuleSet, Planner]] = OrderedDict()
_MAX_PLANNERS = 16
"""Planners kept at once, the least recently used given up first: they hold solved tables (see
:data:`kniffel.planning.exact.MAX_TABLES`)."""


def planner_for(
    rules: RuleSet,
    kind: PlannerKind = "optimal",
    *,
    directory: Path | None = None,
    weights: Weights | None = None,
) -> Planner:
    """The planner of ``kind`` for ``rules``, made once per rule set (and per table ``directory`` and
    heuristic ``weights``) and shared: safe to call from several threads. The first call may solve
    tables (seconds). ``exact`` raises :class:`PlanningError` for rules the solver does not cover."""
    if kind not in KINDS:
        raise PlanningError(f"unknown planner {kind!r}; choose one of: {', '.join(KINDS)}")
    if weights is not None and kind != "heuristic":
        raise PlanningError(f"weights are for the heuristic planner, not the {kind} one")
    if kind == "heuristic":
        weights = weights or Weights()
    key = (kind, *rules_key(rules), directory, weights)
    with _lock:
        found = _planners.get(key)
        if found is not None and (found[0] is rules or found[0] == rules):
            _planners.move_to_end(key)
            if kind == "optimal":
                # the planner it stands for ages with it, so that both names keep giving one planner
                for concrete in ("exact", "column"):
                    if (concrete, *key[1:]) in _planners:
                        _planners.move_to_end((concrete, *key[1:]))
            return found[1]
        planner: Planner
        if kind == "optimal":
            planner = planner_for(rules, "exact" if is_exact(rules) else "column", directory=directory)
        elif kind == "exact":
            if not is_exact(rules):
                raise PlanningError(
                    f"{rules.id}: the exact solver covers one column that is not announced, not these rules"
                )
            planner = ExactPlanner(rules, advisor_for(rules, directory))
        elif kind == "win":
            # win play needs the exact tables; elsewhere it plays for points
            planner = (
                WinPlanner(rules, directory) if is_exact(rules) else planner_for(rules, directory=directory)
            )
        elif kind == "column":
            planner = ColumnPlanner(rules, directory)
        else:
            planner = HeuristicPlanner(rules, weights)
        _planners[key] = (rules, planner)
        while len(_planners) > _MAX_PLANNERS:
            _planners.popitem(last=False)
        return planner


__all__ = [
    "KINDS",
    "ORDERED_EXTRA_ROLLS",
    "Choice",
    "ColumnPlanner",
    "ExactPlanner",
    "HeuristicPlanner",
    "Lookahead",
    "Planner",
    "PlannerKind",
    "PlanningError",
    "TargetPlanner",
    "Valuation",
    "Weights",
    "WinPlanner",
    "final_scores",
    "is_exact",
    "planner_for",
    "win_chances",
]
