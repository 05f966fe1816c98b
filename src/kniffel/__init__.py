"""kniffel: the Kniffel / Yahtzee / Yatzy family of dice games as a library.

>>> import kniffel
>>> game = kniffel.Game(kniffel.rules.get("yahtzee"), ["Ada"], dice=kniffel.SeededDice(1))
"""

from kniffel import rules
from kniffel.errors import KniffelError
from kniffel.game import (
    Action,
    Announce,
    FreeThrow,
    Game,
    GameFormatError,
    IllegalActionError,
    Roll,
    Score,
    SecureDice,
    SeededDice,
    Strike,
)
from kniffel.rules import RulesError, RuleSet
from kniffel.sheet import ScoreSheet, SheetError

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Announce",
    "FreeThrow",
    "Game",
    "GameFormatError",
    "IllegalActionError",
    "KniffelError",
    "Roll",
    "RuleSet",
    "RulesError",
    "Score",
    "ScoreSheet",
    "SecureDice",
    "SeededDice",
    "SheetError",
    "Strike",
    "rules",
]
