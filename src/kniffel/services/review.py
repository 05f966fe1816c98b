"""Game review: every decision of a game next to the best one for the goal its player is graded by, and
what it gave away of that goal.

A *decision* is anything a player chooses after seeing dice: what to keep before a throw (regular or
free), what to announce, where to score or what to strike. The first throw of a turn is not one. Each
player is graded by a goal (:mod:`kniffel.planning.goals`; by default the most points, a bot by what it
plays for: :func:`kniffel.bots.graded_goal`): each decision is valued for that goal, as every front end's
advice is (:func:`kniffel.services.advice.options`), in the goal's unit (expected points still to come,
or a chance); its *loss* is the best option's value less the chosen one's, so play for the goal loses 0,
and the best option shown is the best for that same goal.

A decision is *costly* when its loss shows as more than nothing at the precision front ends show it
(:data:`SHOWN`: hundredths of a point, tenths of a percent). :func:`listed` is the one list of decisions
every front end shows (the terminal game, the browser, ``kniffel review``); :func:`loss_text` writes a
loss as they all write it.

For rule sets the exact solver covers (one column that is not announced) the values are exact. For the
others (several columns, announced columns) they come from the column-table estimate ``bot:optimal``
plays by; such a review says ``exact: false`` and its losses measure the distance from that bot's play,
not from perfect play; goals other than points are played for points there.

With ``chances`` (games of several players on rules the exact solver covers) the review also records
every player's chance of winning before the game and after each turn, for a chart.

Each player's summary gives the total loss (in its goal's unit) and two grades:

* ``optimal_share``: the share of decisions that were not costly;
* ``accuracy`` (graded by points) = ``100 * exp(-loss / (ACCURACY_SCALE * turns))``, with ``turns`` the
  boxes the player filled in the reviewed part of the game. Optimal play scores 100; giving away 1 point
  a turn on average scores 82, 5 points a turn 37. It weighs how much was lost rather than how often.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kniffel.base.i18n import number as write_number
from kniffel.base.i18n import percent, translate
from kniffel.engine.actions import Action, Roll, Score, Strike
from kniffel.engine.game import Game
from kniffel.planning import POINTS, Goal, PlanningError, Unit, is_exact, parse_goal, win_chances
from kniffel.services.advice import Advice, Position, options

SHOWN: dict[str, float] = {Unit.POINTS: 0.005, Unit.PROBABILITY: 0.0005}
"""Front ends show a loss to hundredths of a point or tenths of a percent: a loss above these shows as
at least 0.01 points or 0.1 %, one up to them as nothing."""
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
    """The best action for :attr:`goal`."""
    best_value: float
    goal: str = str(POINTS)
    """The goal the decision is graded by (its text form, :func:`kniffel.planning.parse_goal`)."""
    unit: str = Unit.POINTS
    """The unit of the values and the loss: ``points`` or ``probability``."""

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen_value)

    @property
    def costly(self) -> bool:
        """Whether its loss shows as more than nothing (:data:`SHOWN`)."""
        return self.loss > SHOWN[self.unit]

    @property
    def optimal(self) -> bool:
        return not self.costly

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "round": self.round,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
            "goal": self.goal,
            "unit": self.unit,
            "chosen": self.chosen,
            "chosen_value": round(self.chosen_value, 6),
            "best": self.best,
            "best_value": round(self.best_value, 6),
            "loss": round(self.loss, 6),
            "costly": self.costly,
        }


def loss_text(loss: float, unit: str, lang: str = "en") -> str:
    """A loss as every front end shows it, with its unit: points to two places ("2.40 pts"), a chance to
    a tenth of a percent ("1.2 %"); the two never stand side by side without it."""
    if unit == Unit.POINTS:
        return translate(lang, "{points}\N{NO-BREAK SPACE}pts", points=write_number(lang, loss, 2))
    return percent(lang, loss, 1)


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    score: int
    decisions: int
    optimal: int
    turns: int
    loss: float
    goal: str = str(POINTS)
    unit: str = Unit.POINTS

    @property
    def optimal_share(self) -> float:
        return self.optimal / self.decisions if self.decisions else 1.0

    @property
    def accuracy(self) -> float | None:
        """The grade by points lost (see the module docstring); None for a player graded by a chance."""
        if self.unit != Unit.POINTS:
            return None
        # a turn under way counts as one: in the middle of the first turn a loss is a loss
        if not self.decisions:
            return 100.0
        return 100.0 * math.exp(-self.loss / (ACCURACY_SCALE * max(self.turns, 1)))

    def to_json(self) -> dict[str, Any]:
        accuracy = self.accuracy
        return {
            "name": self.name,
            "score": self.score,
            "goal": self.goal,
            "unit": self.unit,
            "decisions": self.decisions,
            "optimal": self.optimal,
            "optimal_share": round(self.optimal_share, 4),
            "turns": self.turns,
            "loss": round(self.loss, 6),
            **({} if accuracy is None else {"accuracy": round(accuracy, 1)}),
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
    """With ``chances``: every player's chance of finishing first before the game and after each turn
    (each playing for points from there), for a chart of the game."""

    def listed(self, *, everything: bool = False) -> list[Decision]:
        """:func:`listed`."""
        return listed(self, everything=everything)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "options": self.options,
            "exact": self.exact,
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.decisions],
            "listed": [d.number for d in listed(self)],
            **(
                {}
                if self.chances is None
                else {"chances": [[round(c, 6) for c in row] for row in self.chances]}
            ),
        }


def listed(review: Review, *, everything: bool = False) -> list[Decision]:
    """The decisions every front end lists, in the order played: the costly ones (each against the best
    for its own goal), all of them with ``everything``; everyone's, bots' too."""
    return [d for d in review.decisions if everything or d.costly]


def _undiced(action: Action) -> Action:
    # A roll is a choice of what to keep; the dice it brought are chance, not part of the decision.
    return dataclasses.replace(action, dice=None) if isinstance(action, Roll) else action


def can_review_by_win(game: Game) -> bool:
    """Whether :func:`review` can grade ``game`` by win chance (and record chances): several players,
    rules the exact solver covers."""
    return len(game.players) > 1 and is_exact(game.rules)


Goals = Goal | str | Sequence[Goal | str | None] | Mapping[int, Goal | str] | None
"""What :func:`review` grades by: one goal for everyone, or one per seat (a list, or a mapping of seats;
a seat left out or None is graded by points)."""


def seat_goals(game: Game, goals: Goals) -> list[Goal]:
    """Every seat's goal of ``goals`` (see :data:`Goals`); :class:`PlanningError` for an unknown one."""
    n = len(game.players)
    if goals is None:
        return [POINTS] * n
    if isinstance(goals, Goal | str):
        return [parse_goal(goals)] * n
    if isinstance(goals, Mapping):
        return [parse_goal(goals.get(seat) or POINTS) for seat in range(n)]
    given = list(goals)
    if len(given) != n:
        raise PlanningError(f"give a goal for each of the {n} players, got {len(given)}")
    return [parse_goal(goal or POINTS) for goal in given]


def player_goals(game: Game, bots: Mapping[int, str], people: Goal | str = POINTS) -> list[Goal]:
    """Every seat's goal by default: a bot's (``bots``: its spec by seat) what it plays for
    (:func:`kniffel.bots.graded_goal`), a person's ``people`` (points unless the chance of winning is
    asked for)."""
    from kniffel.bots import graded_goal, make

    person = parse_goal(people)
    return [
        graded_goal(make(bots[seat], seed=0)) if seat in bots else person for seat in range(len(game.players))
    ]


def _graded(advice: Advice) -> Goal:
    """What a player asked to be graded by a goal is graded by: the goal, unless its planner plays for
    something else where the rules leave no choice (the chance of winning on a sheet the solver does not
    cover is played for points)."""
    return advice.goal if advice.played.unit == advice.goal.unit else advice.played


def _advice(position: Position, goal: Goal, directory: Path | None, wait: bool) -> Advice:
    """The options of ``position`` for ``goal`` (:func:`kniffel.services.advice.options`); without
    ``wait``, :class:`kniffel.planning.NotReady` while their tables are solved."""
    found = options(position, goal, wait=wait, directory=directory)
    if found.preparing is not None and found.preparing.reason is not None:
        raise found.preparing.reason
    return found


def review(
    game: Game,
    *,
    goals: Goals = None,
    chances: bool = False,
    directory: Path | None = None,
    wait: bool = True,
) -> Review:
    """Review every decision in ``game``'s log (finished or not), each player's by its goal (``goals``,
    see :data:`Goals`; points by default). The first review of a rule set may solve tables (seconds; a
    goal played for a chance needs its tables: for winning 15-20 s the first time for a rule
    set; with ``wait`` false they go to the worker and :class:`kniffel.planning.NotReady` says so).

    ``chances`` records every player's chance of winning after each turn; it needs
    :func:`can_review_by_win` (``goals="win"`` grades everyone by that chance)."""
    rules = game.rules
    if chances and not can_review_by_win(game):
        raise PlanningError("a review by win chance needs several players and rules the exact solver covers")
    wanted = seat_goals(game, goals)
    # every goal asked about where there is nothing to decide: its planner made, its tables at hand
    start = Position.of_game(Game(rules, list(game.players)))
    graded = {goal: _advice(start, goal, directory, wait) for goal in dict.fromkeys(wanted)}
    decisions: list[Decision] = []
    turns = [0] * len(game.players)
    history = [win_chances(Game(rules, list(game.players)), directory, wait=wait)] if chances else None
    turn_ended = False
    for number, (replay, action) in enumerate(game.replay(), 1):
        if history is not None and turn_ended:
            history.append(win_chances(replay, directory, wait=wait))
        turn_ended = isinstance(action, Score | Strike)
        turn = replay.turn
        if isinstance(action, Score | Strike):
            turns[replay.current] += 1
        if turn.dice is None:
            continue
        found = _advice(Position.of_game(replay), wanted[replay.current], directory, wait)
        options = found.options
        chosen = _undiced(action)
        value = next((c.value for c in options if c.action == chosen), None)
        if options and value is not None:
            goal = _graded(found)
            decisions.append(
                Decision(
                    number,
                    replay.player,
                    replay.round,
                    turn.dice,
                    replay.rolls_left,
                    str(chosen),
                    value,
                    str(options[0].action),
                    options[0].value,
                    str(goal),
                    goal.unit,
                )
            )
    if history is not None and turn_ended:
        history.append(win_chances(game, directory, wait=wait))  # after the last turn: the game as it stands
    players = []
    for index, name in enumerate(game.players):
        own = [d for d in decisions if d.player == name]
        goal = _graded(graded[wanted[index]])
        players.append(
            PlayerSummary(
                name,
                game.sheets[index].total,
                len(own),
                sum(d.optimal for d in own),
                turns[index],
                sum(d.loss for d in own),
                str(goal),
                goal.unit,
            )
        )
    exact = all(advice.exact for advice in graded.values())
    return Review(rules.id, dict(rules.options), exact, decisions, players, history)
