"""Many games of one player stepped at once in compiled code, for training speed.

>>> from kniffel.env import VectorKniffelEnv
>>> envs = VectorKniffelEnv(4096, rules="yahtzee")                               # doctest: +SKIP
>>> obs, info = envs.reset(seed=1)                                               # doctest: +SKIP
>>> obs, rewards, terminated, truncated, info = envs.step(actions)               # doctest: +SKIP

Actions, observations and masks are those of :mod:`kniffel.env.encoding` (``info["action_mask"]``,
``[game, action]``), rewards the points each move gained. A game that ends starts again in the same step
(Gymnasium's same-step autoreset): its row of the observation is already the new game's, ``terminated``
is set and ``info["final_total"]`` holds the total it ended with (NaN in the rows of games that go on).
``gymnasium.make_vec("kniffel/Kniffel-v0", num_envs=N, rules=...)`` makes it. With ``optimal_action=True``
``info["optimal_action"]`` (``[game]``) and ``info["action_values"]`` (``[game, action]``) hold every
game's optimal action and its legal actions' values for ``goal`` (:mod:`kniffel.env.optimal`; for
points all games' in one compiled call a step).

It covers the rule sets whose tables :func:`kniffel.core.compile_rules` builds: one column that is not
announced (Kniffel, Yahtzee and its options, Yatzy, Yatzy-Deluxe, one column of Knöffel, ...). Other
sheets raise :class:`~kniffel.core.UnsupportedRulesError`; play them with
:class:`kniffel.env.KniffelEnv`, which runs on the game engine. Each game draws its dice from its own
stream derived from the seed, so a seed gives the same games whatever else runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from kniffel.base.errors import GameError, KniffelError
from kniffel.core import MASK64, Compiled, VectorGames, compile_rules
from kniffel.engine.actions import Score
from kniffel.engine.game import Game
from kniffel.engine.sheet import ScoreSheet
from kniffel.engine.situation import Situation
from kniffel.env.encoding import Encoding, EnvActionError
from kniffel.env.optimal import OptimalActions
from kniffel.planning import POINTS, Goal
from kniffel.planning.exact import rules_key
from kniffel.rules import RuleSet
from kniffel.rules import get as get_rules

INVALID_ACTIONS = ("raise", "penalty")


def rules_of(rules: str | RuleSet, options: Mapping[str, str] | None) -> RuleSet:
    """A rule set given by id (with ``options``) or as itself."""
    if isinstance(rules, RuleSet):
        if options:
            raise KniffelError("options go with a rule set id, not with a RuleSet")
        return rules
    return get_rules(rules, options)


def check_invalid_action(mode: str) -> str:
    if mode not in INVALID_ACTIONS:
        raise KniffelError(f"invalid_action must be one of {', '.join(INVALID_ACTIONS)}, got {mode!r}")
    return mode


_tables: dict[tuple[object, ...], tuple[RuleSet, Compiled]] = {}
_tables_lock = threading.Lock()


def compiled_tables(rules: RuleSet) -> Compiled:
    """The solver's compiled tables of ``rules``, built once per process (some take seconds)."""
    key = rules_key(rules)
    with _tables_lock:
        found = _tables.get(key)
        if found is None or found[0] != rules:
            found = _tables[key] = (rules, compile_rules(rules))
        return found[1]


class CompiledGames(VectorGames):
    """The state of ``n`` single-column games of ``rules`` in arrays, the compiled step that moves them,
    and the observation's layout (:class:`~kniffel.env.encoding.Encoding`)."""

    def __init__(self, rules: RuleSet, n: int) -> None:
        self.rules = rules
        self.encoding = Encoding(rules)
        layout = self.encoding.layout
        super().__init__(compiled_tables(rules), n, {name: layout[name].start for name in layout})

    def situation(self, g: int) -> Situation:
        """The position of game ``g`` (between its moves, the game not over)."""
        rules = self.rules
        column = rules.columns[0].id
        filled = int(self.filled[g])
        entries = {box.id: int(self.points[g, b]) for b, box in enumerate(rules.boxes) if filled >> b & 1}
        extra = {column: int(self.extra[g])} if self.extra[g] else {}
        used = rules.free_throws - int(self.free_left[g])
        return Situation(
            rules,
            ScoreSheet(rules, entries, extra, {column: used} if used else {}),
            tuple(int(d) for d in self.dice[g]),
            rules.rolls - int(self.rolls[g]),
            free_throws=int(self.taken[g]),
            thrown_at_once=bool(self.at_once[g]),
        )

    def why_not(self, g: int, action: object) -> str:
        """Why ``action`` is refused in game ``g``, naming it (the game engine's reason)."""
        return refusal(self.encoding, Game.from_situation(self.situation(g)), action)


def refusal(encoding: Encoding, game: Game, action: object) -> str:
    """Why ``action`` (an index, or anything else) is refused in ``game``, naming it."""
    try:
        index = encoding.check_index(action)
    except EnvActionError as error:
        return str(error)
    move = encoding.action(index, game.dice, free=game.legal.free_throw)
    try:
        game.check(move)
        reason = "not allowed now"
        if isinstance(move, Score):
            strike = encoding.index(move, game.dice, game.legal)
            reason = f"the dice pay nothing there: its strike (action {strike}) enters the 0"
    except GameError as error:
        reason = str(error)
    return f"action {index} ({encoding.describe(index)}) is refused: {reason}"


class VectorKniffelEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of one player of a single-column rule set, stepped at once (see the module
    docstring). ``invalid_action="penalty"`` answers an illegal action with ``-penalty`` and no change
    instead of an :class:`~kniffel.env.EnvActionError`. With ``copy=False`` the arrays returned are the
    environment's own buffers, overwritten by the next step."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        rules: str | RuleSet = "kniffel",
        options: Mapping[str, str] | None = None,
        *,
        invalid_action: str = "raise",
        penalty: float = 1.0,
        copy: bool = True,
        optimal_action: bool = False,
        goal: Goal | str = POINTS,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise KniffelError(f"num_envs must be a positive whole number, got {num_envs!r}")
        self.games = CompiledGames(rules_of(rules, options), num_envs)
        self.rules = self.games.rules
        self.encoding = self.games.encoding
        self.invalid_action = check_invalid_action(invalid_action)
        self.penalty = float(penalty)
        self.copy = copy
        self.num_envs = num_envs
        encoding = self.encoding
        self.single_observation_space = spaces.Box(encoding.low, encoding.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(encoding.n_actions)
        self.observation_space = spaces.Box(
            np.tile(encoding.low, (num_envs, 1)), np.tile(encoding.high, (num_envs, 1)), dtype=np.float32
        )
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, encoding.n_actions))
        self._obs = np.zeros((num_envs, encoding.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, encoding.n_actions), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._done = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._final = np.zeros(num_envs, dtype=np.float64)
        self._legal = np.zeros(num_envs, dtype=np.bool_)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._step = self.games.stepper(
            self._actions, self._masks, self._obs, penalty=self.penalty, rewards=self._rewards,
            done=self._done, final=self._final, legal=self._legal,
        )  # fmt: skip
        self.optimal = OptimalActions(encoding, goal) if optimal_action else None
        self._values = np.zeros((num_envs, encoding.n_actions), dtype=np.float64)
        self._best = np.zeros(num_envs, dtype=np.int64)
        self._value: Callable[[], Any] | None = None
        if self.optimal is not None and self.optimal.values is not None:
            self._value = self.games.valuer(self.optimal.values, self._masks, self._values, self._best)
        self._started = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if isinstance(seed, list):
            raise KniffelError("one seed seeds every game of a VectorKniffelEnv")
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) & MASK64
        self.games.new(seed)
        self.games.observe(self._obs, self._masks)
        self._started = True
        return self._out(self._obs), self._optimal({"action_mask": self._out(self._masks)})

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if not self._started:
            raise KniffelError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise EnvActionError(
                f"actions must be {self.num_envs} integers, got shape {acts.shape} {acts.dtype}"
            )
        acts = acts.astype(np.int64, copy=False)
        penalize = self.invalid_action == "penalty"
        if not penalize:
            inside = (acts >= 0) & (acts < self.encoding.n_actions)
            allowed = inside & (self._masks[np.arange(self.num_envs), np.where(inside, acts, 0)] == 1)
            if not allowed.all():
                bad = int(np.argmin(allowed))
                raise EnvActionError(f"game {bad}: {self.games.why_not(bad, int(acts[bad]))}")
        self._final[:] = np.nan
        self._actions[:] = acts
        self._step()
        info = {"action_mask": self._out(self._masks), "final_total": self._out(self._final)}
        if penalize:
            info["legal"] = self._out(self._legal)
        self._optimal(info)
        return (
            self._out(self._obs),
            self._out(self._rewards),
            self._out(self._done),
            self._out(self._truncated),
            info,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``[game, action]``: the legal actions now (as sb3-contrib's maskable algorithms ask)."""
        return self._masks.astype(np.bool_)

    def _optimal(self, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` with the optimal actions and the action values, if asked for."""
        optimal = self.optimal
        if optimal is None:
            return info
        if self._value is not None:
            self._value()
        else:
            self._values[:] = np.nan
            for g in range(self.num_envs):
                game = Game.from_situation(self.games.situation(g))
                best, _ = optimal.of_choices(game, self._values[g])
                self._best[g] = best
        info["optimal_action"] = self._out(self._best)
        info["action_values"] = self._out(self._values)
        return info

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array


__all__ = [
    "INVALID_ACTIONS",
    "CompiledGames",
    "VectorKniffelEnv",
    "check_invalid_action",
    "refusal",
    "rules_of",
]
