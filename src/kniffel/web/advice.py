"""The hook to the solver's advisor: hints during play and the review after a game.

The solver (:mod:`kniffel.solver`) may be missing from an installation and covers single-column rule
sets only; this module is the one place in the web package that knows about it. When it cannot help,
:func:`available` is false and the front end hides the hint and review panels.

The advisor values every option as the expected points still to come; a hint lists those values best
first, a review puts each decision of a finished game next to the best one.
"""

from __future__ import annotations

import importlib
import logging
import threading
from dataclasses import dataclass
from typing import Any

from kniffel.game import Action, FreeThrow, Game, Roll, Score, Strike
from kniffel.rules import RuleSet

log = logging.getLogger("kniffel.web")

MAX_OPTIONS = 12
"""Hints list this many options, best first; the rest are rarely worth reading."""

_lock = threading.Lock()
_covered: dict[tuple[str, tuple[tuple[str, str], ...]], bool] = {}
_advisors: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = {}


def _key(rules: RuleSet) -> tuple[str, tuple[tuple[str, str], ...]]:
    return rules.id, tuple(sorted(rules.options.items()))


def _solver() -> Any:
    try:
        return importlib.import_module("kniffel.solver")
    except Exception:  # not installed, or broken: the panels simply stay hidden
        return None


def available(rules: RuleSet) -> bool:
    """Whether hints and reviews exist for these rules (cheap after the first call per rule set)."""
    key = _key(rules)
    if key not in _covered:
        solver = _solver()
        covered = False
        if solver is not None and not rules.multi_column:
            try:
                solver.compile_rules(rules)
                covered = True
            except Exception:  # UnsupportedRulesError, or anything the solver cannot digest
                covered = False
        _covered[key] = covered
    return _covered[key]


def _advisor(rules: RuleSet) -> Any:
    """The advisor of a covered rule set; the first call may solve the table (seconds), so callers run
    this in a worker thread."""
    key = _key(rules)
    with _lock:
        if key not in _advisors:
            solver = _solver()
            table = importlib.import_module("kniffel.solver.cache").table(rules)
            _advisors[key] = solver.Advisor(table)
        return _advisors[key]


@dataclass(frozen=True)
class Choice:
    action: Action
    value: float


def options(game: Game) -> list[Choice] | None:
    """Every option of the player to move after a throw, best first; ``None`` without advice. Before the
    first throw of a turn there is nothing to decide (``[]``)."""
    rules = game.rules
    if not available(rules):
        return None
    turn = game.turn
    if game.is_over or turn.dice is None:
        return []
    sheet = game.sheet
    column = rules.columns[0]
    try:
        found = _advisor(rules).options(
            dict(sheet.entries),
            list(turn.dice),
            game.rolls_left,
            thrown_at_once=turn.thrown_at_once,
            free_throws_left=sheet.free_throws_left(column) if rules.free_throws else None,
            free_throws_used=turn.free_throws,
        )
    except Exception:
        log.exception("the advisor failed for game position %s", [str(a) for a in game.log[-3:]])
        return None
    placements = game.placements()
    result: list[Choice] = []
    for option in found:
        action: Action
        if option.box is not None:
            action = Score(option.box) if option.box in placements else Strike(option.box)
        else:
            keep = tuple(option.keep or ())
            action = FreeThrow(keep=keep) if option.free_throw else Roll(keep=keep)
        if game.can_apply(action):
            result.append(Choice(action, float(option.value)))
    return result


def hints(game: Game) -> list[dict[str, Any]] | None:
    """The options of the player to move with their values, best first; ``None`` if no advice."""
    found = options(game)
    if found is None:
        return None
    return [{"action": str(c.action), "value": round(c.value, 2)} for c in found[:MAX_OPTIONS]]


def _same_choice(a: Action, b: Action) -> bool:
    # A roll is a choice of what to keep; the dice it brought are chance, not a decision.
    if isinstance(a, Roll) and isinstance(b, Roll):
        return type(a) is type(b) and a.keep == b.keep
    return a == b


def review(game: Game) -> list[dict[str, Any]] | None:
    """Every decision of the game next to the advisor's best, replayed from the log; ``None`` if no
    advice for these rules. ``loss`` is the expected points the choice gave away (0 for the best)."""
    if not available(game.rules):
        return None
    replay = Game(game.rules, list(game.players))
    decisions: list[dict[str, Any]] = []
    for seq, action in enumerate(game.log, 1):
        found = options(replay)
        if found:
            best = found[0]
            chosen = next((c for c in found if _same_choice(c.action, action)), None)
            if chosen is not None:
                decisions.append(
                    {
                        "seq": seq,
                        "player": replay.player,
                        "chosen": str(chosen.action),
                        "best": str(best.action),
                        "loss": round(best.value - chosen.value, 2),
                    }
                )
        replay.apply(action)
    return decisions
