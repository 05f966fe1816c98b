"""The ladder of levels of play, from a newcomer (1) to the best for points (7) and to win (8): each level's
number, its name for people and the mistakes it makes (:class:`Mistakes`), grown with its *strength*.

How a level below 7 plays by its mistakes is :mod:`kniffel.planning.levels`; this module needs neither
the solver nor numpy, so that a record's figures name their level at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from kniffel.base.i18n import N_, translate
from kniffel.planning.interface import PlanningError

BOT_TITLE = N_("{name} (level {level})")
"""A level's bot's default name."""
CHASE = 30.0
"""Points a newcomer adds to points in the five-of-a-kind box, where the sheet tracks them."""
HOPE = 15.0
"""Points a newcomer adds to the five-of-a-kind box left open, where the sheet does not track them."""
DOUBT = 12.0
"""Points a newcomer adds to a straight box filled (scored or struck)."""
HASTE = 10.0
"""Points a newcomer adds to the chance box filled."""


@dataclass(frozen=True)
class Level:
    """A level of play: its number, its name for people and its strength of mistakes (:class:`Mistakes`;
    0 for levels 7 and 8, which make none)."""

    number: int
    name: str
    """English, marked for the catalogs: :meth:`title` says it in a language."""
    strength: float
    to_win: bool = False

    def title(self, lang: str = "en") -> str:
        """The level's name in ``lang``: ``Newcomer``, ``Anfänger``."""
        return translate(lang, self.name)

    def bot_name(self, lang: str = "en") -> str:
        """The default name of the level's bot in ``lang``: ``Newcomer (level 1)``, ``Anfänger (Stufe
        1)``."""
        return translate(lang, BOT_TITLE, name=self.title(lang), level=self.number)

    @property
    def mistakes(self) -> Mistakes | None:
        """What the level gets wrong; None for a level that plays exactly (7 and 8)."""
        return Mistakes.of(self.strength) if self.strength > 0 else None


LADDER: tuple[Level, ...] = (
    Level(1, N_("Newcomer"), 1.1),
    Level(2, N_("Casual player"), 0.85),
    Level(3, N_("Hobby player"), 0.72),
    Level(4, N_("Regular"), 0.6),
    Level(5, N_("Skilled player"), 0.44),
    Level(6, N_("Expert"), 0.25),
    Level(7, N_("Master"), 0.0),
    Level(8, N_("Grandmaster"), 0.0, to_win=True),
)
"""Every level, weakest first; level ``n`` is ``LADDER[n - 1]``."""

EXACT_LEVEL = 7
"""The level that plays exactly for points."""
LEVELS = len(LADDER)


def level(number: int) -> Level:
    """Level ``number`` (1 to 8); :class:`PlanningError` for another number."""
    if not 1 <= number <= LEVELS:
        raise PlanningError(f"a level is 1 to {LEVELS}, got {number}")
    return LADDER[number - 1]


@dataclass(frozen=True)
class Mistakes:
    """How far a player's view of the game is off (:mod:`kniffel.planning.levels` tells how)."""

    foresight: float
    """The share of the future a player weighs (1: all of it)."""
    chase: float
    """Points too many that points in the five-of-a-kind box seem worth, where the sheet tracks them."""
    hope: float
    """Points too many that the five-of-a-kind box left open seems worth, where it does not."""
    straights: float
    """Points too many that filling a straight box seems worth."""
    chance: float
    """Points too many that filling the chance box seems worth."""

    @classmethod
    def of(cls, strength: float) -> Mistakes:
        """The mistakes of a player of ``strength`` (0 none, 1 a newcomer's, more a newcomer's with the
        boxes misjudged more)."""
        return cls(
            foresight=max(0.0, 1.0 - strength),
            chase=CHASE * strength,
            hope=HOPE * strength,
            straights=DOUBT * strength,
            chance=HASTE * strength,
        )


__all__ = [
    "BOT_TITLE",
    "CHASE",
    "DOUBT",
    "EXACT_LEVEL",
    "HASTE",
    "HOPE",
    "LADDER",
    "LEVELS",
    "Level",
    "Mistakes",
    "level",
]
