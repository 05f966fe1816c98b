"""Questions about positions, answered exactly: every option's value for any goal, the expected final
score, the distribution of the final score, the chance of reaching a score. The package's face names
them (``kniffel.options``, ``kniffel.expected_score``, ``kniffel.final_scores``, ``kniffel.chance``),
beside ``kniffel.simulate`` (:func:`kniffel.services.simulate.simulate`) for many games' statistics.

A *position* is a :class:`kniffel.Game` (its player to move, or ``player``), a :class:`kniffel.Situation`
(a table text, :meth:`kniffel.Situation.parse`) or a :class:`kniffel.RuleSet` (its empty sheet before
the first throw). The answers are exact where the solver covers the rules (one column that is not
announced: Kniffel, Yahtzee, Yatzy and their options, one column of Knöffel, ...); each solves or loads
what it reads once per process (a rule set's table: a second or two; a target from the empty sheet:
half a minute; a late position's questions: a moment).

>>> from kniffel import Situation, chance, expected_score, final_scores, options
>>> late = Situation.parse(
...     "yahtzee | ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=20 "
...     "four_of_a_kind=0 full_house=25 small_straight=30 | 2 3 4 5 5 | rolls left 2"
... )
>>> best = options(late)[0]               # for the most points: hold the straight, throw the other 5
>>> str(best.action), round(best.value, 2)
('roll keep 2 3 4 5', 54.63)
>>> round(expected_score(late), 2)        # the 173 on the sheet and the 54.63 still to come
227.63
>>> scores = final_scores(late)           # every final score's chance under that play
>>> round(scores.mean, 2), round(scores.at_least(250), 4)
(227.63, 0.0344)
>>> round(chance(late, 250), 4)           # playing for 250 instead
0.0577
>>> round(options(late, "target:250")[0].value, 4)
0.0577
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kniffel.engine.game import Game
from kniffel.engine.situation import Situation
from kniffel.planning import POINTS, Choice, Goal, PlanningError, Target, is_exact, parse_goal, planner_for
from kniffel.planning.exact import advisor_for, free_throws_arg
from kniffel.planning.winning import final_scores as final_scores_of
from kniffel.planning.winning import scored, win_tables
from kniffel.rules import RuleSet

if TYPE_CHECKING:
    from kniffel.core import ScoreDistribution

Position = Game | Situation | RuleSet
"""What the questions are asked about (see the module docstring)."""


def game_of(position: Position) -> Game:
    """The game a position stands for: a game itself, a situation's game (:meth:`Game.from_situation`),
    a rule set's game of one player before the first throw."""
    if isinstance(position, Game):
        return position
    if isinstance(position, Situation):
        return Game.from_situation(position)
    if isinstance(position, RuleSet):
        return Game(position, ["Player"])
    raise TypeError(f"a position is a Game, a Situation or a RuleSet, got {position!r}")


def exact(rules: RuleSet) -> None:
    """:class:`~kniffel.planning.PlanningError` unless the solver covers ``rules``."""
    if not is_exact(rules):
        raise PlanningError(
            f"{rules.id}: the exact solver covers one column that is not announced, not these rules"
        )


def options(position: Position, goal: Goal | str = POINTS) -> list[Choice]:
    """Every legal action of the player to move with its value for ``goal``, best first: for
    ``"points"`` (the default) the expected points still to come (this turn's included, those on the
    sheet not), for ``"target:T"`` the largest chance of finishing with at least ``T``, for ``"win"`` the
    chance of finishing first. Exact where the solver covers the rules; for points on other sheets the
    column planner's estimate. ``[]`` before the turn's first throw and once the game is over: there is
    nothing to decide.

    >>> from kniffel import SeededDice, rules
    >>> game = Game(rules.get("yahtzee"), ["Ada"], dice=SeededDice(3))
    >>> game.roll()
    (2, 2, 3, 5, 5)
    >>> [(str(option.action), round(option.value, 2)) for option in options(game)[:2]]
    [('roll keep 5 5', 253.02), ('roll keep 3 5 5', 251.07)]
    """
    from kniffel.services import advice

    asked = parse_goal(goal) if isinstance(goal, str) else goal
    return list(advice.options(advice.Position.of_game(game_of(position)), asked).options)


def expected_score(position: Position, player: int | None = None) -> float:
    """The expected final score of ``player`` (default: the one to move) playing for the most points
    from the position on: what the sheet holds and the expected points still to come.

    >>> from kniffel import rules
    >>> round(expected_score(rules.get("yahtzee", {"joker": "free"})), 4)
    254.5896
    """
    game = game_of(position)
    exact(game.rules)
    seat = game.current if player is None else player
    sheet = game.sheets[seat]
    if sheet.is_full:
        return float(sheet.total)
    if seat == game.current and game.dice is not None:
        return scored(sheet) + planner_for(game.rules, method="exact").choices(game)[0].value
    left = free_throws_arg(game.rules, sheet.free_throws_left(game.rules.columns[0]))
    return scored(sheet) + advisor_for(game.rules).value(dict(sheet.entries), left)


def final_scores(
    position: Position, player: int | None = None, directory: Path | None = None
) -> ScoreDistribution:
    """The exact distribution of ``player``'s final score (default: the one to move) playing for the
    most points from the position on (:class:`kniffel.core.ScoreDistribution`: ``mean``,
    ``percentile(q)``, ``at_least(score)``, every score's probability).

    >>> between = Situation.parse(
    ...     "yahtzee | ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=20 "
    ...     "four_of_a_kind=0 full_house=25 small_straight=30 | no dice | rolls left 3"
    ... )
    >>> scores = final_scores(between)
    >>> round(scores.mean, 2), scores.percentile(50), round(scores.at_least(250), 4)
    (220.5, 234, 0.0275)
    """
    game = game_of(position)
    exact(game.rules)
    return final_scores_of(game, game.current if player is None else player, directory)


def chance(position: Position, score: int, player: int | None = None) -> float:
    """The largest chance that ``player`` (default: the one to move) finishes with at least ``score``
    points, playing for exactly that from the position on (not for the most points: that play's chance
    is ``final_scores(position).at_least(score)``, lower). A score the tables cannot tell apart from a
    higher one (beyond what a game makes with one extra five of a kind) is read at their limit: an upper
    bound (:func:`kniffel.core.read_at_limit`).

    >>> between = Situation.parse(
    ...     "yahtzee | ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=20 "
    ...     "four_of_a_kind=0 full_house=25 small_straight=30 | no dice | rolls left 3"
    ... )
    >>> round(chance(between, 250), 4), round(final_scores(between).at_least(250), 4)
    (0.0504, 0.0275)
    """
    game = game_of(position)
    exact(game.rules)
    seat = game.current if player is None else player
    sheet = game.sheets[seat]
    needed = score - scored(sheet)
    if sheet.is_full or needed <= 0:
        return 1.0 if sheet.total >= score else 0.0
    if seat == game.current and game.dice is not None:
        return planner_for(game.rules, Target(score)).choices(game)[0].value
    tables = win_tables(game.rules)
    left = free_throws_arg(game.rules, sheet.free_throws_left(game.rules.columns[0]))
    state = tables.ranker.state(dict(sheet.entries), left)
    rows = tables.rows(state, needed, needed, turn=False, wait=True, early=False)
    return rows.value(state, needed)


__all__ = ["Position", "chance", "exact", "expected_score", "final_scores", "game_of", "options"]
