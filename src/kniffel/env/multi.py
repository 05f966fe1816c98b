"""A PettingZoo AEC environment: 2 to 8 players of any rule set at one table, taking turns.

>>> from kniffel.env import KniffelAECEnv
>>> env = KniffelAECEnv("kniffel", players=3)                                     # doctest: +SKIP
>>> env.reset(seed=1)                                                             # doctest: +SKIP
>>> for agent in env.agent_iter():                                                # doctest: +SKIP
...     obs, reward, terminated, truncated, info = env.last()
...     env.step(None if terminated else obs["action_mask"].argmax())

The agents are ``player_0`` .. ``player_{n-1}`` in seat order. An observation is PettingZoo classic's
``{"observation": ..., "action_mask": ...}``: the vector of :class:`kniffel.env.KniffelEnv` with the
``opponents`` part added (each other player's total and boxes left, in seat order after the observer; the
dice shown only to the player to move) and the legal actions (zeros while another player is to move).
Actions and rewards (points gained by one's own moves) are those of :class:`kniffel.env.KniffelEnv`. The
game runs on :class:`kniffel.Game`, so every rule set plays; ``invalid_action`` works as in the
single-player environment, and so does ``optimal_action`` (with ``goal``, ``win`` among them), in the
info of the player to move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from kniffel.base.arrays import F32
from kniffel.base.errors import KniffelError
from kniffel.engine.actions import Roll
from kniffel.engine.dice import SeededDice
from kniffel.engine.game import MAX_PLAYERS, Game
from kniffel.env.encoding import Encoding, EnvActionError, Mask
from kniffel.env.optimal import OptimalActions
from kniffel.env.vector import check_invalid_action, refusal, rules_of
from kniffel.planning import POINTS, Goal
from kniffel.rules import RuleSet

Observation = dict[str, F32 | Mask]


class KniffelAECEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]  # pettingzoo is untyped
    """A game of ``players`` players (see the module docstring)."""

    metadata = {  # noqa: RUF012 (pettingzoo's convention)
        "name": "kniffel_v0",
        "render_modes": ["ansi"],
        "render_fps": 4,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | RuleSet = "kniffel",
        options: Mapping[str, str] | None = None,
        *,
        players: int = 2,
        invalid_action: str = "raise",
        penalty: float = 1.0,
        optimal_action: bool = False,
        goal: Goal | str = POINTS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
            raise KniffelError(f"a table has 2 to {MAX_PLAYERS} players, got {players!r}")
        if render_mode not in (None, "ansi"):
            raise KniffelError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.rules = rules_of(rules, options)
        self.encoding = Encoding(self.rules, players)
        self.invalid_action = check_invalid_action(invalid_action)
        self.penalty = float(penalty)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(self.encoding.low, self.encoding.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoding.n_actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.encoding.n_actions)
        self.optimal = OptimalActions(self.encoding, goal) if optimal_action else None
        self._mask: Mask = np.zeros(self.encoding.n_actions, dtype=np.int8)
        self._rng = np.random.default_rng()
        self.game = Game(self.rules, self.possible_agents)
        self.seed_used = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.seed_used = int(self._rng.integers(0, 2**63 - 1))
        self.game = Game(self.rules, self.possible_agents, dice=SeededDice(self.seed_used))
        self.game.apply(Roll())
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current]
        self._update_infos()

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        game = self.game
        if seat == game.current and not game.is_over:
            mask = self._mask
        else:
            mask = np.zeros(self.encoding.n_actions, dtype=np.int8)
        return {"observation": self.encoding.observe(game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        illegal = self._refusal(action)
        if illegal is not None:
            if self.invalid_action == "raise":
                raise EnvActionError(illegal)
            self.rewards[agent] = -self.penalty
            self.infos[agent]["illegal"] = True
            self._accumulate_rewards()
            return
        assert action is not None
        move = self.encoding.action(int(action), game.dice, free=game.legal.free_throw)
        taken = game.turn.free_throws
        outcome = game.apply(move)
        if outcome.ends_turn:
            self.rewards[agent] = float(outcome.total - taken * self.rules.free_throw_points)
            if game.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                game.apply(Roll())
        self.agent_selection = self.possible_agents[game.current]
        self._update_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        game = self.game
        sheets = "\n".join(f"{name}: {sheet}" for name, sheet in zip(game.players, game.sheets, strict=True))
        return sheets if game.is_over else f"{sheets}\n{game.player} to move: {game.situation()}"

    def close(self) -> None:
        pass

    def _refusal(self, action: object) -> str | None:
        """Why ``action`` is refused now (None if it is legal)."""
        game = self.game
        try:
            index = self.encoding.check_index(action)
        except EnvActionError as error:
            return str(error)
        if self._mask[index]:
            return None
        return refusal(self.encoding, game, index)

    def _update_infos(self) -> None:
        self._mask = self.encoding.mask(self.game.legal)
        self.infos = {agent: {} for agent in self.agents}
        if self.optimal is not None and not self.game.is_over:
            best, values = self.optimal.of_game(self.game, self._mask)
            self.infos[self.agent_selection] = {"optimal_action": best, "action_values": values}


__all__ = ["KniffelAECEnv"]
