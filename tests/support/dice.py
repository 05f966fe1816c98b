"""Dice a test hands a game, so that a game played elsewhere (a compiled one) is replayed throw by throw."""

from __future__ import annotations


class ScriptedDice:
    """Dice handed to a game in a given order (``queue``): what a compiled game threw, replayed."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, ...]] = []

    def throw(self, n: int) -> tuple[int, ...]:
        dice = self.queue.pop(0)
        assert len(dice) == n
        return dice
