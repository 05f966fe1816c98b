"""A Gymnasium environment for one player of any rule set.

>>> import gymnasium, kniffel.env
>>> env = gymnasium.make("kniffel/Kniffel-v0", rules="yatzy")                    # doctest: +SKIP
>>> obs, info = env.reset(seed=1)                                                # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = env.step(info["action_mask"].argmax())  # doctest: +SKIP

Actions and observations are those of :mod:`kniffel.env.encoding`; ``info["action_mask"]`` marks the
legal actions (also :meth:`KniffelEnv.action_masks`, as sb3-contrib asks). The reward is the points a move
gained (box points, extra and upper bonuses, less the free throws it paid for), so an episode's return is
the final total less what the empty sheet is worth (Knöffel's unused free throws). An episode is one
game; the environment makes the first throw of every turn itself.

Settings besides the rules (an id and its ``options``, or a :class:`~kniffel.RuleSet`):

* ``invalid_action``: ``"raise"`` (default): an action outside the space, or one the mask forbids,
  raises :class:`~kniffel.env.EnvActionError` naming it and why, and changes nothing. ``"penalty"``:
  for agents trained without masks, such an action earns ``-penalty`` (default 1), changes nothing, and
  ``info["illegal"]`` is True.
* ``optimal_action``: True puts the optimal action's index in ``info["optimal_action"]`` and every
  legal action's value in ``info["action_values"]`` (NaN for the others) for ``goal`` (``"points"``, the
  default, ``"target:T"``; :mod:`kniffel.env.optimal`), where the exact solver covers the rules (one
  column that is not announced): imitation learning, or a critic's target. It solves or loads the rule
  set's table; for points the values cost one compiled call a step.
* ``engine``: ``"compiled"`` plays on the solver's compiled tables (the rule sets
  :class:`~kniffel.env.VectorKniffelEnv` covers, several times faster), ``"game"`` on
  :class:`kniffel.Game` (every rule set); ``"auto"`` (default) takes the compiled one where it can. Both
  give the same observations, masks and rewards, and with the same seed the same dice: the game engine
  throws the compiled games' dice streams (:class:`kniffel.core.StreamDice`). :meth:`KniffelEnv.to_game`
  is the episode as a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from kniffel.base.arrays import F32
from kniffel.base.errors import GameError, KniffelError
from kniffel.core import StreamDice
from kniffel.engine.actions import Roll
from kniffel.engine.game import Game
from kniffel.engine.situation import Situation
from kniffel.env.encoding import Encoding, EnvActionError, Mask
from kniffel.env.optimal import OptimalActions
from kniffel.env.vector import CompiledGames, check_invalid_action, refusal, rules_of
from kniffel.planning import POINTS, Goal, is_exact
from kniffel.rules import RuleSet

Engine = Literal["auto", "compiled", "game"]
PLAYER = "player"


class KniffelEnv(gymnasium.Env[F32, np.int64]):
    """One player's game of any rule set (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium's convention)

    def __init__(
        self,
        rules: str | RuleSet = "kniffel",
        options: Mapping[str, str] | None = None,
        *,
        invalid_action: str = "raise",
        penalty: float = 1.0,
        optimal_action: bool = False,
        goal: Goal | str = POINTS,
        engine: Engine = "auto",
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules_of(rules, options)
        self.encoding = Encoding(self.rules)
        self.invalid_action = check_invalid_action(invalid_action)
        self.penalty = float(penalty)
        if render_mode not in (None, "ansi"):
            raise KniffelError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.render_mode = render_mode
        exact = is_exact(self.rules)
        self.optimal_action = optimal_action
        self.optimal = OptimalActions(self.encoding, goal) if optimal_action else None
        if engine not in ("auto", "compiled", "game"):
            raise KniffelError(f"engine must be auto, compiled or game, got {engine!r}")
        if engine == "compiled" and not exact:
            raise KniffelError(
                f"{self.rules.id}: the compiled engine covers one column that is not announced"
            )
        self.engine: Literal["compiled", "game"] = "compiled" if engine != "game" and exact else "game"
        self.observation_space = spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.encoding.n_actions)
        self._compiled = CompiledGames(self.rules, 1) if self.engine == "compiled" else None
        self._buffers = (
            np.zeros((1, self.encoding.size), dtype=np.float32),
            np.zeros((1, self.encoding.n_actions), dtype=np.int8),
            np.zeros(1, dtype=np.float64),
            np.zeros(1, dtype=np.bool_),
            np.zeros(1, dtype=np.float64),
            np.zeros(1, dtype=np.bool_),
        )
        self._action = np.zeros(1, dtype=np.int64)
        self._step_call: Callable[[], Any] | None = None
        self._observe_call: Callable[[], Any] | None = None
        self._values = np.zeros((1, self.encoding.n_actions), dtype=np.float64)
        self._best = np.zeros(1, dtype=np.int64)
        self._value_call: Callable[[], Any] | None = None
        if self._compiled is not None:
            obs, masks, rewards, done, final, legal = self._buffers
            self._step_call = self._compiled.stepper(
                self._action, masks, obs, penalty=0.0, rewards=rewards, done=done, final=final,
                legal=legal, autoreset=False,
            )  # fmt: skip
            self._observe_call = self._compiled.observer(obs, masks)
            if self.optimal is not None and self.optimal.values is not None:
                self._value_call = self._compiled.valuer(self.optimal.values, masks, self._values, self._best)
        self._game: Game | None = None
        self._log: list[tuple[int, bytes]] = []
        self._first_dice = b""
        self._over = True
        self.seed_used = 0
        """The seed of the episode's dice: game 0 of the compiled games of this seed
        (:class:`kniffel.core.StreamDice`), whichever engine plays it."""

    # --- the Gymnasium API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[F32, dict[str, Any]]:
        super().reset(seed=seed)
        self.seed_used = int(self.np_random.integers(0, 2**63 - 1))
        self._over = False
        if self._compiled is not None:
            self._compiled.new(self.seed_used)
            assert self._observe_call is not None
            self._observe_call()
            self._first_dice = self._compiled.dice[0].tobytes()
            self._log = []
        else:
            self._game = Game(self.rules, [PLAYER], dice=StreamDice(self.seed_used))
            self._game.apply(Roll())
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[F32, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise GameError("the game is over: call reset()")
        penalize = self.invalid_action == "penalty"
        try:
            index = self.encoding.check_index(action)
        except EnvActionError:
            if not penalize:
                raise
            return self._observe(), -self.penalty, False, False, self._info(illegal=True)
        if self._compiled is not None:
            reward, legal = self._step_compiled(index, penalize)
        else:
            reward, legal = self._step_game(index, penalize)
        if not legal:
            return self._observe(), -self.penalty, False, False, self._info(illegal=True)
        return self._observe(), reward, self._over, False, self._info(illegal=False if penalize else None)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        game = self.to_game()
        return str(game.sheet) if game.is_over else str(game.situation())

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (as sb3-contrib's maskable algorithms ask)."""
        return self._mask().astype(np.bool_)

    # --- the game ------------------------------------------------------------------------------

    def to_game(self) -> Game:
        """The episode so far as a :class:`kniffel.Game` (every throw with its dice): to save, review or
        check it."""
        if self._game is not None:
            return self._game.copy()
        game = Game(self.rules, [PLAYER])
        if not self._first_dice:
            return game
        game.apply(Roll(dice=_faces(self._first_dice)))
        for index, dice in self._log:
            action = self.encoding.action(index, game.dice, free=game.legal.free_throw)
            if isinstance(action, Roll):
                game.apply(type(action)(keep=action.keep, dice=_faces(dice)))
                continue
            game.apply(action)
            if not game.is_over:
                game.apply(Roll(dice=_faces(dice)))
        return game

    def situation(self) -> Situation:
        """The position of the player (``GameError`` once the game is over)."""
        if self._game is not None:
            return self._game.situation()
        c = self._compiled
        assert c is not None
        if self._over:
            raise GameError("the game is over: no player is to move")
        return c.situation(0)

    # --- inside --------------------------------------------------------------------------------

    def _step_compiled(self, index: int, penalize: bool) -> tuple[float, bool]:
        c = self._compiled
        assert c is not None
        assert self._step_call is not None
        _, masks, rewards, done, _, _ = self._buffers
        if not masks[0, index]:
            if penalize:
                return 0.0, False
            raise EnvActionError(self._why_not(index))
        self._action[0] = index
        self._step_call()
        self._log.append((index, c.dice[0].tobytes()))
        self._over = bool(done[0])
        return float(rewards[0]), True

    def _step_game(self, index: int, penalize: bool) -> tuple[float, bool]:
        game = self._game
        assert game is not None
        action = self.encoding.action(index, game.dice, free=game.legal.free_throw)
        if not self.encoding.mask(game.legal)[index]:
            if penalize:
                return 0.0, False
            raise EnvActionError(self._why_not(index))
        taken = game.turn.free_throws
        outcome = game.apply(action)
        reward = 0.0
        if outcome.ends_turn:
            reward = float(outcome.total - taken * self.rules.free_throw_points)
            if game.is_over:
                self._over = True
            else:
                game.apply(Roll())
        return reward, True

    def _why_not(self, index: int) -> str:
        game = self._game if self._game is not None else Game.from_situation(self.situation())
        return refusal(self.encoding, game, index)

    def _observe(self) -> F32:
        if self._game is not None:
            return self.encoding.observe(self._game)
        # the compiled games' buffers hold the observation of the last reset or step
        observed: F32 = self._buffers[0][0].copy()
        return observed

    def _mask(self) -> Mask:
        if self._game is not None:
            return self.encoding.mask(self._game.legal)
        mask: Mask = self._buffers[1][0].copy()
        return mask

    def _info(self, illegal: bool | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if illegal is not None:
            info["illegal"] = illegal
        if self.optimal is not None and not self._over:
            info["optimal_action"], info["action_values"] = self._optimal(self.optimal, info["action_mask"])
        return info

    def _optimal(self, optimal: OptimalActions, mask: Mask) -> tuple[int, npt.NDArray[np.float64]]:
        if self._value_call is not None:
            self._value_call()
            return int(self._best[0]), self._values[0].copy()
        game = self._game if self._game is not None else Game.from_situation(self.situation())
        return optimal.of_game(game, mask)


def _faces(raw: bytes) -> tuple[int, ...]:
    return tuple(int(b) for b in raw)


__all__ = ["KniffelEnv"]
