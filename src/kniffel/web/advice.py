"""The hook to the solver's advisor: hints during play and the review after a game.

The solver lands separately and may not be installed, may not cover a rule set (multi-column sheets),
or may need tables that are not computed yet. This module is the only place in the web package that
knows about it; when it cannot help, :func:`available` is false and the front end hides the panels.

The contract expected from the solver (``kniffel.solver.advisor``):

- ``covers(rules: RuleSet) -> bool``: whether advice exists for these rules, cheaply;
- ``advise(game: Game) -> Sequence[tuple[Action, float]]``: every option of the player to move with the
  expected final score it leads to, best first.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from kniffel.game import Action, Game, Roll
from kniffel.rules import RuleSet

log = logging.getLogger("kniffel.web")

MAX_OPTIONS = 12
"""Hints list this many options, best first; the rest are rarely worth reading."""


def _advisor() -> ModuleType | None:
    try:
        module = importlib.import_module("kniffel.solver.advisor")
    except Exception:  # not installed yet, or broken: the panels simply stay hidden
        return None
    if not callable(getattr(module, "covers", None)) or not callable(getattr(module, "advise", None)):
        return None
    return module


def available(rules: RuleSet) -> bool:
    module = _advisor()
    if module is None:
        return False
    try:
        return bool(module.covers(rules))
    except Exception:
        return False


def _advise(game: Game) -> list[tuple[Action, float]] | None:
    module = _advisor()
    if module is None or not available(game.rules):
        return None
    advise: Callable[[Game], Sequence[tuple[Action, float]]] = module.advise
    try:
        return [(action, float(value)) for action, value in advise(game)]
    except Exception:
        log.exception("the advisor failed")
        return None


def hints(game: Game) -> list[dict[str, Any]] | None:
    """The options of the player to move with their values, best first; ``None`` if no advice."""
    options = _advise(game)
    if options is None:
        return None
    return [{"action": str(a), "value": round(v, 2)} for a, v in options[:MAX_OPTIONS]]


@dataclass(frozen=True)
class Decision:
    seq: int
    player: str
    chosen: str
    best: str
    loss: float
    """Expected points given away by the choice (0 for the best)."""


def _same_choice(a: Action, b: Action) -> bool:
    # A roll is a choice of what to keep; its dice are chance, not a decision.
    if isinstance(a, Roll) and isinstance(b, Roll):
        return type(a) is type(b) and a.keep == b.keep
    return a == b


def review(game: Game) -> list[dict[str, Any]] | None:
    """Every decision of a finished game next to the advisor's best, replayed from the log."""
    if _advise(Game(game.rules, list(game.players))) is None:
        return None
    replay = Game(game.rules, list(game.players))
    decisions: list[Decision] = []
    for seq, action in enumerate(game.log, 1):
        is_choice = not (isinstance(action, Roll) and replay.turn.dice is None)
        if is_choice:
            options = _advise(replay) or []
            if options:
                best, best_value = options[0]
                chosen_value = next((v for a, v in options if _same_choice(a, action)), best_value)
                decisions.append(
                    Decision(seq, replay.player, str(action), str(best), round(best_value - chosen_value, 2))
                )
        replay.apply(action)
    return [vars(d) for d in decisions]
