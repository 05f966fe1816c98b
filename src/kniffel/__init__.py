"""kniffel: the Kniffel / Yahtzee / Yatzy family of dice games as a library.

>>> import kniffel
>>> game = kniffel.Game(kniffel.rules.get("yahtzee"), ["Ada"], dice=kniffel.SeededDice(1))
"""

from kniffel import rules
from kniffel.base.errors import (
    DiceError,
    GameError,
    GameFormatError,
    IllegalActionError,
    KniffelError,
    RulesError,
    SheetError,
    SituationError,
    UnknownBoxError,
)
from kniffel.engine.actions import Action, Announce, FreeThrow, LegalActions, Outcome, Roll, Score, Strike
from kniffel.engine.game import Game, SecureDice, SeededDice
from kniffel.engine.sheet import ScoreSheet
from kniffel.engine.situation import Situation
from kniffel.rules import RuleSet

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Announce",
    "DiceError",
    "FreeThrow",
    "Game",
    "GameError",
    "GameFormatError",
    "IllegalActionError",
    "KniffelError",
    "LegalActions",
    "Outcome",
    "Roll",
    "RuleSet",
    "RulesError",
    "Score",
    "ScoreSheet",
    "SecureDice",
    "SeededDice",
    "SheetError",
    "Situation",
    "SituationError",
    "Strike",
    "UnknownBoxError",
    "rules",
]
