"""Game review: every decision of a game next to the best one, and the points it cost in expectation.

A *decision* is anything a player chooses after seeing dice: what to keep before a throw (regular or
free), what to announce, where to score or what to strike. The first throw of a turn is not one. Each
decision is valued by the optimal planner (:func:`kniffel.planning.planner_for`) as the expected points
still to come; its *loss* is the best option's value less the chosen one's, so optimal play loses 0.

For rule sets the exact solver covers (one column that is not announced) the values are exact. For the
others (several columns, announced columns) they come from the column-table estimate ``bot:optimal``
plays by; such a review says ``exact: false`` and its losses measure the distance from that bot's play,
not from perfect play.

With ``by_win`` (games of several players on rules the exact solver covers) each decision is also
valued by the chance of finishing first it leaves (:class:`kniffel.planning.WinPlanner`), its *win loss*
being the best chance less the chosen one's, and the review records every player's chance of winning
after each turn.

Each player's summary gives the total expected loss and two grades:

* ``optimal_share``: the share of decisions that were optimal (loss at most :data:`TOLERANCE`);
* ``accuracy`` = ``100 * exp(-loss / (ACCURACY_SCALE * turns))``, with ``turns`` the boxes the player
  filled in the reviewed part of the game. Optimal play scores 100; giving away 1 point a turn on
  average scores 82, 5 points a turn 37. It weighs how much was lost rather than how often.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kniffel.game import Action, Game, Roll, Score, Strike
from kniffel.planning import WIN, PlanningError, is_exact, planner_for, win_chances

TOLERANCE = 1e-6
"""A decision within this many expected points of the best counts as optimal (rounding noise)."""
ACCURACY_SCALE = 5.0
"""Expected points lost per turn at which :attr:`PlayerSummary.accuracy` falls to 100/e."""


@dataclass(frozen=True)
class Decision:
    number: int
    """Position of the action in the game's log (1-based)."""
    player: str
    round: int
    dice: tuple[int, ...]
    rolls_left: int
    chosen: str
    """The action as written by the game (``roll keep 3 3``, ``score chance``), without its dice."""
    chosen_value: float
    best: str
    best_value: float
    chosen_win: float | None = None
    """With a review by win chance: the chance of finishing first after the chosen action ..."""
    best_win: float | None = None
    """... and after the action that gives the best chance (not always the best for points)."""
    best_for_win: str | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen_value)

    @property
    def win_loss(self) -> float | None:
        """The chance of finishing first the decision gave away (None without a review by win chance)."""
        if self.chosen_win is None or self.best_win is None:
            return None
        return max(0.0, self.best_win - self.chosen_win)

    @property
    def optimal(self) -> bool:
        return self.loss <= TOLERANCE

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "round": self.round,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
            "chosen": self.chosen,
            "chosen_value": round(self.chosen_value, 4),
            "best": self.best,
            "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4),
            **(
                {}
                if self.win_loss is None
                else {
                    "chosen_win": round(self.chosen_win or 0.0, 6),
                    "best_for_win": self.best_for_win,
                    "best_win": round(self.best_win or 0.0, 6),
                    "win_loss": round(self.win_loss, 6),
                }
            ),
        }


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    score: int
    decisions: int
    optimal: int
    turns: int
    loss: float
    win_loss: float | None = None
    """With a review by win chance: the chance of finishing first given away over the game."""

    @property
    def optimal_share(self) -> float:
        return self.optimal / self.decisions if self.decisions else 1.0

    @property
    def accuracy(self) -> float:
        # a turn under way counts as one: in the middle of the first turn a loss is a loss
        if not self.decisions:
            return 100.0
        return 100.0 * math.exp(-self.loss / (ACCURACY_SCALE * max(self.turns, 1)))

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "score": self.score,
            "decisions": self.decisions,
            "optimal": self.optimal,
            "optimal_share": round(self.optimal_share, 4),
            "turns": self.turns,
            "loss": round(self.loss, 4),
            "accuracy": round(self.accuracy, 1),
            **({} if self.win_loss is None else {"win_loss": round(self.win_loss, 6)}),
        }


@dataclass(frozen=True)
class Review:
    rules: str
    options: dict[str, str]
    exact: bool
    """Whether the values are those of optimal play (see the module docstring)."""
    decisions: list[Decision]
    players: list[PlayerSummary]
    chances: list[list[float]] | None = None
    """With a review by win chance: every player's chance of finishing first before the game and after
    each turn (each playing for points from there), for a chart of the game."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "options": self.options,
            "exact": self.exact,
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.decisions],
            **(
                {}
                if self.chances is None
                else {"chances": [[round(c, 6) for c in row] for row in self.chances]}
            ),
        }


def _undiced(action: Action) -> Action:
    # A roll is a choice of what to keep; the dice it brought are chance, not part of the decision.
    return dataclasses.replace(action, dice=None) if isinstance(action, Roll) else action


def can_review_by_win(game: Game) -> bool:
    """Whether :func:`review` can grade ``game`` by win chance: several players, rules the exact
    solver covers."""
    return len(game.players) > 1 and is_exact(game.rules)


def review(game: Game, *, directory: Path | None = None, by_win: bool = False, wait: bool = True) -> Review:
    """Review every decision in ``game``'s log (finished or not). The first review of a rule set may
    solve tables (seconds; a review ``by_win`` also needs the win tables, half a minute or so the first
    time for a rule set; with ``wait`` false they go to the worker and :class:`kniffel.planning.NotReady`
    says so).

    ``by_win`` also values each decision by the chance of finishing first (:mod:`kniffel.planning.winning`)
    and records every player's chance after each turn; it needs :func:`can_review_by_win`."""
    rules = game.rules
    if by_win and not can_review_by_win(game):
        raise PlanningError("a review by win chance needs several players and rules the exact solver covers")
    planner = planner_for(rules, directory=directory)
    winning = planner_for(rules, WIN, directory=directory, wait=wait) if by_win else None
    decisions: list[Decision] = []
    turns = [0] * len(game.players)
    chances = [win_chances(Game(rules, list(game.players)), directory, wait=wait)] if by_win else None
    turn_ended = False
    for number, (replay, action) in enumerate(game.replay(), 1):
        if chances is not None and turn_ended:
            chances.append(win_chances(replay, directory, wait=wait))
        turn_ended = isinstance(action, Score | Strike)
        turn = replay.turn
        if isinstance(action, Score | Strike):
            turns[replay.current] += 1
        if turn.dice is not None:
            choices = planner.choices(replay)
            chosen = _undiced(action)
            value = next((c.value for c in choices if c.action == chosen), None)
            if choices and value is not None:
                wins = winning.choices(replay) if winning is not None else []
                win = next((c.value for c in wins if c.action == chosen), None)
                decisions.append(
                    Decision(
                        number,
                        replay.player,
                        replay.round,
                        turn.dice,
                        replay.rolls_left,
                        str(chosen),
                        value,
                        str(choices[0].action),
                        choices[0].value,
                        win,
                        wins[0].value if wins and win is not None else None,
                        str(wins[0].action) if wins and win is not None else None,
                    )
                )
    if chances is not None and turn_ended:
        chances.append(win_chances(game, directory, wait=wait))  # after the last turn: the game as it stands
    players = []
    for index, name in enumerate(game.players):
        own = [d for d in decisions if d.player == name]
        players.append(
            PlayerSummary(
                name,
                game.sheets[index].total,
                len(own),
                sum(d.optimal for d in own),
                turns[index],
                sum(d.loss for d in own),
                sum(d.win_loss or 0.0 for d in own) if by_win else None,
            )
        )
    return Review(rules.id, dict(rules.options), planner.exact, decisions, players, chances)
