"""The bots of the levels ``bot:1`` (a newcomer) to ``bot:8`` (the best player to win), named for people.

Levels 1 to 6 play their level's planner (:class:`kniffel.planning.levels.LevelPlanner`: the exact
policy through a view of the game that people's is like); level 7 is ``bot:optimal`` and level 8
``bot:win`` under a level's name. Their mistakes are in their tables, never drawn by chance: the same
dice bring the same game whatever the seed.

>>> from kniffel import bots
>>> bots.default_name("bot:1"), bots.default_name("bot:1", "de")
('Newcomer (level 1)', 'Anfänger (Stufe 1)')
"""

from __future__ import annotations

from pathlib import Path

from kniffel.base.i18n import N_, translate
from kniffel.bots import Bot, OptimalBot, PlannerBot, WinBot
from kniffel.planning import Method, Planner
from kniffel.planning.levels import EXACT_LEVEL, LADDER, Level, level, level_planner
from kniffel.rules import RuleSet

TITLE = N_("{name} (level {level})")
"""A level's bot's default name: ``Newcomer (level 1)``."""


def level_title(number: int, lang: str = "en") -> str:
    """The default name of the bot of level ``number`` in ``lang``."""
    found = level(number)
    return translate(lang, TITLE, name=found.title(lang), level=found.number)


class LevelBot(PlannerBot):
    """A level below 7: the best choice by its level's view of the game
    (:func:`kniffel.planning.levels.level_planner`)."""

    # not the best method: a level's games are its own plan's (:func:`kniffel.bots.goal_of` says None)
    method: Method = "exact"

    def __init__(
        self, number: int, *, seed: int | None = None, directory: Path | None = None, live: bool = False
    ) -> None:
        super().__init__(seed=seed, directory=directory, live=live)
        self.level: Level = level(number)
        self.name = str(number)

    def prepare(self, rules: RuleSet) -> Planner:
        """The level's planner on ``rules`` (made once per rule set and shared by every bot of the level)."""
        return level_planner(rules, self.level.number, self.directory, wait=not self.live)

    def title(self, lang: str = "en") -> str:
        return level_title(self.level.number, lang)


class MasterBot(OptimalBot):
    """Level 7: ``bot:optimal`` under its level's name."""

    level = LADDER[EXACT_LEVEL - 1]

    def __init__(self, *, seed: int | None = None, directory: Path | None = None, live: bool = False) -> None:
        super().__init__(seed=seed, directory=directory, live=live)
        self.name = str(self.level.number)

    def title(self, lang: str = "en") -> str:
        return level_title(self.level.number, lang)


class GrandmasterBot(WinBot):
    """Level 8: ``bot:win`` under its level's name."""

    level = LADDER[EXACT_LEVEL]

    def __init__(self, *, seed: int | None = None, directory: Path | None = None, live: bool = False) -> None:
        super().__init__(seed=seed, directory=directory, live=live)
        self.name = str(self.level.number)

    def title(self, lang: str = "en") -> str:
        return level_title(self.level.number, lang)


def level_bot(number: int, *, seed: int | None = None, live: bool = False) -> Bot:
    """The bot of level ``number`` (1 to 8)."""
    if number == EXACT_LEVEL:
        return MasterBot(seed=seed, live=live)
    if number == EXACT_LEVEL + 1:
        return GrandmasterBot(seed=seed, live=live)
    return LevelBot(number, seed=seed, live=live)


def level_of(bot: Bot) -> Level | None:
    """The level a bot plays at, None for a bot that is not a level's."""
    found = getattr(bot, "level", None)
    return found if isinstance(found, Level) else None


__all__ = [
    "TITLE",
    "GrandmasterBot",
    "LevelBot",
    "MasterBot",
    "level_bot",
    "level_of",
    "level_title",
]
