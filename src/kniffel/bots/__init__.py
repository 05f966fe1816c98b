"""Computer players: strategies behind one small protocol, made by name.

>>> from kniffel import Game, SeededDice, bots, rules
>>> game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
>>> bot = bots.make("bot")
>>> bots.play(game, [bot]).is_over
True

Bots read a :class:`~kniffel.game.Game` and answer with an action; they never change the game. A
strategy from another package (the optimal solver) joins with :func:`register`, so front ends can
offer every bot through :func:`make` without knowing where it lives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from kniffel.bots.heuristic import HeuristicBot, Weights
from kniffel.game import Action, Game


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, game: Game) -> Action:
        """A legal action for the player to move in ``game`` (which is not over)."""
        ...


BotFactory = Callable[..., Bot]
"""Called as ``factory(seed=seed)``."""


def _optimal(*, seed: int | None = None) -> Bot:
    # Imported on first use: the solver pulls in numba and its tables, which the heuristic bot and
    # the rest of the package do without.
    from kniffel.bots.optimal import OptimalBot

    return OptimalBot(seed=seed)


_REGISTRY: dict[str, BotFactory] = {"heuristic": HeuristicBot, "optimal": _optimal}
_DEFAULT = "heuristic"


def register(name: str, factory: BotFactory) -> None:
    """Make ``bot:NAME`` available to :func:`make`; registering a name again replaces it."""
    if not name or ":" in name or name != name.strip():
        raise ValueError(f"a bot name is a word without ':', got {name!r}")
    _REGISTRY[name] = factory


def available() -> list[str]:
    """Every spec :func:`make` accepts."""
    return ["bot", *(f"bot:{name}" for name in _REGISTRY)]


def make(spec: str, *, seed: int | None = None) -> Bot:
    """The bot for ``spec``: ``bot`` (the default strategy) or ``bot:NAME``."""
    kind, _, name = spec.strip().partition(":")
    if kind == "bot" and (name or _DEFAULT) in _REGISTRY:
        return _REGISTRY[name or _DEFAULT](seed=seed)
    raise ValueError(f"unknown bot {spec!r}; choose one of: {', '.join(available())}")


def play(game: Game, bots: Sequence[Bot], *, max_actions: int = 100_000) -> Game:
    """Let ``bots[i]`` play for player ``i`` until the game is over; returns the game.

    A bot that answers with an illegal action raises :class:`~kniffel.game.IllegalActionError`.
    """
    if len(bots) != len(game.players):
        raise ValueError(f"{len(game.players)} players need {len(game.players)} bots, got {len(bots)}")
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(bots[game.current].choose(game))
    raise RuntimeError(f"the game did not end within {max_actions} actions")


__all__ = ["Bot", "BotFactory", "HeuristicBot", "Weights", "available", "make", "play", "register"]
