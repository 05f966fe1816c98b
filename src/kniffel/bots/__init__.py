"""Computer players: each plays the best choice of a planner, made by name.

>>> from kniffel import Game, SeededDice, bots, rules
>>> game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
>>> bot = bots.make("bot")
>>> bots.play(game, [bot]).is_over
True

Bots read a :class:`~kniffel.game.Game` and answer with an action; they never change the game. The
thinking is the planners' (:mod:`kniffel.planning`): ``bot`` (``bot:heuristic``) plays the heuristic
planner, fast and without tables; ``bot:optimal`` plays optimally where the solver covers the rules and
by the column estimate elsewhere; ``bot:win`` plays to finish first (:mod:`kniffel.planning.goals`).
These names are also :func:`kniffel.simulate.simulate`'s strategies. A strategy from elsewhere joins
with :func:`register`, so front ends offer every bot through :func:`make` without knowing where it
lives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from kniffel.errors import KniffelError
from kniffel.game import Action, Game, IllegalActionError, Roll
from kniffel.planning import Planner, PlannerKind, Weights, planner_for
from kniffel.rules import RuleSet


class BotError(KniffelError):
    """A bot that cannot be made or cannot play (an unknown name, too few bots for the players)."""


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, game: Game) -> Action:
        """A legal action for the player to move in ``game`` (which is not over)."""
        ...


class PlannerBot:
    """Plays the best legal choice of its planner; deterministic for a given position."""

    name: str = "planner"
    kind: PlannerKind = "optimal"

    def __init__(
        self, *, seed: int | None = None, directory: Path | None = None, weights: Weights | None = None
    ) -> None:
        # Decisions never depend on chance; the seed is accepted so every bot is made alike.
        self.seed = seed
        self.directory = directory
        self.weights = weights
        self._planner: tuple[RuleSet, Planner] | None = None

    def prepare(self, rules: RuleSet) -> Planner:
        """The planner for ``rules``, its tables loaded or solved now rather than at the first decision."""
        if self._planner is None or self._planner[0] is not rules:
            planner = planner_for(rules, self.kind, directory=self.directory, weights=self.weights)
            self._planner = (rules, planner)
        return self._planner[1]

    def choose(self, game: Game) -> Action:
        if game.is_over:
            raise IllegalActionError("the game is over: there is nothing to choose")
        if game.turn.dice is None:
            return Roll()
        for choice in self.prepare(game.rules).choices(game):
            if game.can_apply(choice.action):
                return choice.action
        # Unreachable while planners list legal actions only; a bot must never stall a game.
        return game.legal_actions()[0]


class HeuristicBot(PlannerBot):
    """The heuristic planner's play: sensible on every rule set, fast, no tables."""

    name = "heuristic"
    kind = "heuristic"

    def __init__(self, *, seed: int | None = None, weights: Weights | None = None) -> None:
        super().__init__(seed=seed, weights=weights)


class OptimalBot(PlannerBot):
    """Optimal play of single-column rule sets; the column-table estimate on the other sheets."""

    name = "optimal"
    kind = "optimal"

    def __init__(self, *, seed: int | None = None, directory: Path | None = None) -> None:
        super().__init__(seed=seed, directory=directory)


class WinBot(PlannerBot):
    """Plays to finish first: the chance of winning where the solver covers the rules (2-8 players),
    optimal play for points elsewhere and alone."""

    name = "win"
    kind = "win"

    def __init__(self, *, seed: int | None = None, directory: Path | None = None) -> None:
        super().__init__(seed=seed, directory=directory)


BotFactory = Callable[..., Bot]
"""Called as ``factory(seed=seed)``."""

_REGISTRY: dict[str, BotFactory] = {"heuristic": HeuristicBot, "optimal": OptimalBot, "win": WinBot}
_DEFAULT = "heuristic"


def register(name: str, factory: BotFactory) -> None:
    """Make ``bot:NAME`` available to :func:`make`; registering a name again replaces it."""
    if not name or ":" in name or name != name.strip():
        raise BotError(f"a bot name is a word without ':', got {name!r}")
    _REGISTRY[name] = factory


def available() -> list[str]:
    """Every spec :func:`make` accepts."""
    return ["bot", *(f"bot:{name}" for name in _REGISTRY)]


def make(spec: str, *, seed: int | None = None) -> Bot:
    """The bot for ``spec``: ``bot`` (the default strategy) or ``bot:NAME``."""
    kind, _, name = spec.strip().partition(":")
    if kind == "bot" and (name or _DEFAULT) in _REGISTRY:
        return _REGISTRY[name or _DEFAULT](seed=seed)
    raise BotError(f"unknown bot {spec!r}; choose one of: {', '.join(available())}")


def play(game: Game, bots: Sequence[Bot], *, max_actions: int = 100_000) -> Game:
    """Let ``bots[i]`` play for player ``i`` until the game is over; returns the game.

    A bot that answers with an illegal action raises :class:`~kniffel.game.IllegalActionError`.
    """
    if len(bots) != len(game.players):
        raise BotError(f"{len(game.players)} players need {len(game.players)} bots, got {len(bots)}")
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(bots[game.current].choose(game))
    raise RuntimeError(f"the game did not end within {max_actions} actions")


__all__ = [
    "Bot",
    "BotError",
    "BotFactory",
    "HeuristicBot",
    "OptimalBot",
    "PlannerBot",
    "Weights",
    "WinBot",
    "available",
    "make",
    "play",
    "register",
]
