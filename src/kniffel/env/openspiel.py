"""The game engine as a game of OpenSpiel's (the ``openspiel`` extra: ``pip install 'kniffel[openspiel]'``):
importing this module registers ``python_kniffel``, every rule set for 1 to 8 players, with chance nodes
for the dice, so that OpenSpiel's algorithms (MCTS, expectiminimax on small positions, its random
simulation tests, learning) run on it.

>>> import pyspiel
>>> import kniffel.env.openspiel
>>> game = pyspiel.load_game("python_kniffel", {"rules": "yahtzee", "options": "joker=free", "players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # the first throw: 252 rolls of five dice
(True, 252)

Parameters: ``rules`` (a rule set id), ``options`` (``key=value`` words, as ``--option`` takes them) and
``players``. A state is a :class:`kniffel.Game` (:meth:`KniffelState.game`).

* **Actions** are those of :mod:`kniffel.env.encoding` (a throw by the bit mask of the sorted dice held,
  a score, a strike, an announcement), one per effect: a throw is held by its first matching dice, and a
  box the dice pay nothing in is entered by its strike.
* **Chance nodes** throw the dice: after the turn's start and every throw a player chooses, the chance
  outcome is the roll showing then (its number among the sorted rolls of the dice), each with its
  probability given the dice held.
* **Returns** (at the end, OpenSpiel's terminal reward model) are each player's final total less what the
  empty sheet is worth (Knöffel's unused free throws; nothing elsewhere), as the environments' episode
  returns are.
* **Observations** (:meth:`KniffelState.observation_tensor`, ``observation_string``) are the
  environments' vector of the player (:meth:`kniffel.env.Encoding.observe`) and the situation's table
  text; every die and sheet is public (perfect information).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from kniffel.base.keeps import keep_lattice
from kniffel.engine.actions import FreeThrow, Roll
from kniffel.engine.game import MAX_PLAYERS, Game
from kniffel.engine.sheet import ScoreSheet
from kniffel.env.encoding import Encoding
from kniffel.rules import RuleSet, parse_options
from kniffel.rules import get as get_rules

NAME = "python_kniffel"
DEFAULTS: dict[str, Any] = {"rules": "kniffel", "options": "", "players": 1}

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Kniffel, Yahtzee, Yatzy and friends (kniffel)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def rules_of(params: dict[str, Any]) -> RuleSet:
    """The rule set the game's parameters name."""
    return get_rules(str(params["rules"]), parse_options(str(params["options"]).split()))


@cache
def outcomes(dice: int, held: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """Every roll that throwing the dice not ``held`` can show, by its number among the sorted rolls of
    ``dice`` dice, with its probability."""
    lattice = keep_lattice(dice)
    thrown = dice - len(held)
    found = []
    for faces in itertools.combinations_with_replacement(range(1, 7), thrown):
        ways = math.factorial(thrown)
        for count in Counter(faces).values():
            ways //= math.factorial(count)
        roll = tuple(sorted(held + faces))
        found.append((lattice.roll_index(roll), ways / 6**thrown))
    return tuple(sorted(found))


class KniffelGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """A game of one rule set for ``players`` players (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.rules = rules_of(params)
        players = int(params["players"])
        self.encoding = Encoding(self.rules, players)
        self.empty_total = ScoreSheet(self.rules).total
        rules = self.rules
        decisions = rules.rolls + rules.free_throws_per_turn + 2  # throws, an announcement, the entry
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=self.encoding.n_actions,
                max_chance_outcomes=keep_lattice(rules.dice).n_rolls,
                num_players=players,
                min_utility=0.0,
                max_utility=float(self.encoding.highest_total - self.empty_total),
                utility_sum=None,
                max_game_length=2 * rules.turns * len(rules.columns) * players * decisions,
            ),
            params,
        )

    def new_initial_state(self) -> KniffelState:
        return KniffelState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KniffelObserver:
        if params:
            raise ValueError(f"the kniffel game takes no observation parameters, got {params}")
        return KniffelObserver(self.encoding)


class KniffelState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A position of the game: a :class:`kniffel.Game` and, between a throw chosen and its dice, the dice
    held for it."""

    def __init__(self, game: KniffelGame) -> None:
        super().__init__(game)
        self._game = Game(game.rules, [f"player_{i}" for i in range(game.num_players())])
        self._held: tuple[int, ...] | None = ()
        """The dice held for the throw whose dice come next (a chance node); None at a decision."""
        self._free = False
        """Whether that throw is a free throw."""

    def game(self) -> Game:
        """The position as a game of the engine: its sheets, dice and every action so far."""
        return self._game.copy()

    def current_player(self) -> int:
        if self._game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._held is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self._game.current

    def _legal_actions(self, player: int) -> list[int]:
        game, encoding = self._game, self.get_game().encoding
        mask = encoding.mask(game.legal)
        keeps = {encoding.index(Roll(keep=keep), game.dice) for keep in game.legal.keeps}
        return [int(a) for a in np.flatnonzero(mask) if a >= encoding.n_keeps or a in keeps]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._held is not None
        return list(outcomes(self._game.rules.dice, self._held))

    def _apply_action(self, action: int) -> None:
        game = self._game
        if self._held is not None:
            lattice = keep_lattice(game.rules.dice)
            dice = lattice.keeps[lattice.first_roll + action]
            game.apply((FreeThrow if self._free else Roll)(keep=self._held, dice=dice))
            self._held = None
            return
        move = self.get_game().encoding.action(action, game.dice, free=game.legal.free_throw)
        if isinstance(move, Roll):
            self._held, self._free = move.keep, isinstance(move, FreeThrow)
            return
        outcome = game.apply(move)
        if outcome.ends_turn and not game.is_over:
            self._held, self._free = (), False

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            lattice = keep_lattice(self._game.rules.dice)
            return "dice " + " ".join(map(str, lattice.keeps[lattice.first_roll + action]))
        encoding: Encoding = self.get_game().encoding
        return encoding.describe(action)

    def is_terminal(self) -> bool:
        return self._game.is_over

    def returns(self) -> list[float]:
        """Each player's final total less what the empty sheet is worth; 0 before the end."""
        if not self._game.is_over:
            return [0.0] * len(self._game.players)
        empty = self.get_game().empty_total
        return [float(total - empty) for total in self._game.totals]

    def __str__(self) -> str:
        game = self._game
        if game.is_over:
            return " ; ".join(
                f"{name}: {sheet}" for name, sheet in zip(game.players, game.sheets, strict=True)
            )
        return str(game.situation())


class KniffelObserver:
    """What a player observes (OpenSpiel's observer of Python games): the environments' vector and the
    situation's text."""

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.tensor = np.zeros(encoding.size, np.float32)
        self.dict = {name: self.tensor[part] for name, part in encoding.layout.items()}

    def set_from(self, state: KniffelState, player: int) -> None:
        self.tensor[:] = self.encoding.observe(state._game, player)

    def string_from(self, state: KniffelState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, KniffelGame)

__all__ = ["DEFAULTS", "GAME_TYPE", "NAME", "KniffelGame", "KniffelObserver", "KniffelState", "outcomes"]
