"""What ``optimal_action=True`` adds to an environment's info: the optimal action and the value of every
legal action for a goal (:mod:`kniffel.planning.goals`: ``points``, ``target:T``, ``win``), in the
environments' action layout (:mod:`kniffel.env.encoding`).

``info["optimal_action"]`` is the best action's index (ties broken as the exact planner breaks them, a
throw held by its first matching dice) and ``info["action_values"]`` a ``float64`` array with the value
of every action the mask allows (every index holding the same dice has the same value) and NaN for the
others, in the goal's unit: expected points still to come (this turn's included, the sheet's points
excluded) for ``points``, a probability for ``target:T`` and ``win``. The values are the exact planner's
(:func:`kniffel.planning.planner_for`), so the rules must be ones the exact solver covers (one column that
is not announced); they come from its solved table, solved or loaded when the environment is made.

For points they are read in one compiled call a step (:class:`kniffel.core.ActionValues`: a vector
environment's games all at once); the other goals ask their planner about each game in Python, which
takes milliseconds a step and solves the chances of a target first (a target from the empty sheet: half
a minute or more).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.base.errors import KniffelError
from kniffel.core import ActionValues, ColumnPosition
from kniffel.engine.actions import Roll, Score, Strike
from kniffel.engine.game import Game
from kniffel.env.encoding import Encoding, Mask
from kniffel.planning import POINTS, Goal, Planner, is_exact, parse_goal, planner_for
from kniffel.planning.exact import advisor_for

F64 = npt.NDArray[np.float64]


class OptimalActions:
    """The optimal action and every legal action's value for ``goal`` in positions of ``encoding``'s
    rules (see the module docstring); :class:`~kniffel.base.errors.KniffelError` for rules the exact
    solver does not cover."""

    def __init__(self, encoding: Encoding, goal: Goal | str = POINTS) -> None:
        rules = encoding.rules
        if not is_exact(rules):
            raise KniffelError(
                f"{rules.id}: the optimal action needs rules the exact solver covers "
                "(one column that is not announced)"
            )
        self.encoding = encoding
        self.goal = parse_goal(goal)
        played = self.goal.alone() if encoding.players == 1 else self.goal
        self.values: ActionValues | None = None
        self.planner: Planner | None = None
        if played == POINTS:
            self.values = ActionValues(advisor_for(rules).solution)
        else:
            self.planner = planner_for(rules, played)
        self._row = np.zeros((1, 9), dtype=np.int64)
        self._best = np.zeros(1, dtype=np.int64)

    def of_game(self, game: Game, mask: Mask) -> tuple[int, F64]:
        """The best action's index and every action's value (NaN where ``mask``, the player to move's
        legal actions, has 0) in ``game``."""
        out = np.full((1, self.encoding.n_actions), np.nan)
        if self.values is not None:
            at = ColumnPosition.of_game(game)
            assert at is not None, "no position to value: the game is over or its turn has no dice"
            row, _ = at.encode(self.values.solution.compiled)
            self._row[0] = row
            self.values.of_rows(self._row, mask.reshape(1, -1), out, self._best)
            return int(self._best[0]), out[0]
        assert self.planner is not None
        return self.of_choices(game, out[0])

    def of_choices(self, game: Game, out: F64) -> tuple[int, F64]:
        """:meth:`of_game` by the planner's choices, into ``out`` (NaN where no action is legal)."""
        assert self.planner is not None
        encoding, legal, dice = self.encoding, game.legal, game.dice
        choices = self.planner.choices(game)
        throws: dict[tuple[int, ...], float] = {}
        for choice in choices:
            action = choice.action
            if isinstance(action, Roll):
                throws[action.keep] = choice.value
            elif isinstance(action, Score | Strike):
                out[encoding.index(action, dice, legal)] = choice.value
        if throws and dice is not None:
            for bits in range(encoding.n_keeps):
                held = tuple(face for i, face in enumerate(dice) if bits >> i & 1)
                value = throws.get(held)
                if value is not None:
                    out[bits] = value
        return encoding.index(choices[0].action, dice, legal), out


__all__ = ["OptimalActions"]
