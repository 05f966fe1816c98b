"""The hook to the solver's advisor: hints during play and the review after a game.

The exact solver covers single-column rule sets only; this module is the one place in the web package
that knows about it, and it asks the optimal planner (:mod:`kniffel.planning`) and
:mod:`kniffel.review`, which the terminal uses too. When they cannot help, :func:`available` is false
and the front end hides the hint and review panels.

The advisor values every option as the expected points still to come; a hint lists those values best
first, a review puts each decision of a finished game next to the best one.
"""

from __future__ import annotations

import logging
from typing import Any

from kniffel.game import Game, Score, Strike
from kniffel.planning import Choice, is_exact, planner_for
from kniffel.review import review as review_game
from kniffel.rules import RuleSet

log = logging.getLogger("kniffel.web")

MAX_OPTIONS = 12
"""Hints list this many options, best first; the rest are rarely worth reading. The best entry on the
sheet (score or strike) is listed too even when it ranks lower: the table marks its box."""

_covered: dict[RuleSet, bool] = {}


def available(rules: RuleSet) -> bool:
    """Whether hints and reviews exist for these rules: those the exact solver covers (cheap after the
    first call per rule set)."""
    if rules not in _covered:
        try:
            _covered[rules] = is_exact(rules)
        except Exception:  # a broken solver installation: the panels simply stay hidden
            log.exception("the solver cannot be used for %s", rules.id)
            _covered[rules] = False
    return _covered[rules]


def options(game: Game) -> list[Choice] | None:
    """Every option of the player to move after a throw, best first; ``None`` without advice. Before the
    first throw of a turn there is nothing to decide (``[]``). The first call per rule set may solve
    its table (seconds), so callers run this in a worker thread."""
    if not available(game.rules):
        return None
    try:
        return planner_for(game.rules).choices(game)
    except Exception:
        log.exception("the advisor failed for game position %s", [str(a) for a in game.log[-3:]])
        return None


def hints(game: Game) -> list[dict[str, Any]] | None:
    """The options of the player to move with their values, best first; ``None`` if no advice."""
    found = options(game)
    if found is None:
        return None
    shown = found[:MAX_OPTIONS]
    best_entry = next((c for c in found if isinstance(c.action, Score | Strike)), None)
    if best_entry is not None and best_entry not in shown:
        shown.append(best_entry)
    return [{"action": str(c.action), "value": round(c.value, 2)} for c in shown]


def review(game: Game) -> list[dict[str, Any]] | None:
    """Every decision of the game next to the best one (:func:`kniffel.review.review`); ``None`` if no
    advice for these rules. ``loss`` is the expected points the choice gave away (0 for the best)."""
    if not available(game.rules):
        return None
    return [
        {
            "seq": d.number,
            "player": d.player,
            "chosen": d.chosen,
            "best": d.best,
            "loss": round(d.loss, 2),
        }
        for d in review_game(game).decisions
    ]
