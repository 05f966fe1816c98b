"""The table of players as PettingZoo's own environments come: a module with ``env()`` and ``raw_env()``.

>>> from kniffel.env import kniffel_v0
>>> env = kniffel_v0.env(rules="yatzy", players=3)                                 # doctest: +SKIP
>>> env.reset(seed=1)                                                               # doctest: +SKIP

``raw_env`` is :class:`~kniffel.env.KniffelAECEnv` itself; ``env`` wraps it as PettingZoo wraps its
classic games: an action outside the action space is an assertion, and calls in the wrong order (a step
before the reset) are refused. An action the mask forbids is the environment's own to answer
(``invalid_action="raise"`` or ``"penalty"``).
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from kniffel.env.multi import KniffelAECEnv


def raw_env(**kwargs: Any) -> KniffelAECEnv:
    """The environment without wrappers (:class:`~kniffel.env.KniffelAECEnv`'s settings)."""
    return KniffelAECEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's own are (see the module docstring)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))


__all__ = ["env", "raw_env"]
