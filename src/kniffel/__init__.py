"""kniffel: the Kniffel / Yahtzee / Yatzy family of dice games as a library.

The game engine (:class:`Game`, its actions, sheets and situations, the rule sets of :mod:`kniffel.rules`)
and, imported on first use, the questions a researcher asks of it: every option's value for a goal
(:func:`options`), the expected final score (:func:`expected_score`), the exact distribution of the final
score (:func:`final_scores`), the chance of reaching a score (:func:`chance`) and many games' statistics
(:func:`simulate`). ``docs/tutorials/library.md`` walks through them.

>>> import kniffel
>>> game = kniffel.Game(kniffel.rules.get("yahtzee"), ["Ada"], dice=kniffel.SeededDice(1))
>>> game.roll()
(1, 1, 2, 3, 5)
>>> str(kniffel.options(game)[0].action)
'roll keep 5'
>>> result = kniffel.simulate(game.rules, games=2_000, seed=1)
>>> result.games, round(result.boxes["yahtzee"].struck, 2)
(2000, 0.66)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kniffel.base.door import Door

if TYPE_CHECKING:
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
    from kniffel.core import ScoreDistribution, StreamDice
    from kniffel.engine.actions import Action, Announce, FreeThrow, LegalActions, Outcome, Roll, Score, Strike
    from kniffel.engine.dice import SecureDice, SeededDice
    from kniffel.engine.game import Game
    from kniffel.engine.sheet import ScoreSheet
    from kniffel.engine.situation import Situation
    from kniffel.rules import RuleSet
    from kniffel.services.research import Position, chance, expected_score, final_scores, options
    from kniffel.services.simulate import BoxStatistics, SimulationResult, simulate

__version__ = "0.2.0"

_OPENED = Door("kniffel", globals())
"""Where each name of the package lives, imported the first time it is asked for: importing ``kniffel``
(as every command of the command line does, through its modules) loads none of them, so that a command
answers before the rule sets, the engine or the solver are loaded where it needs none of them."""
_OPENED.open_modules("rules")
_OPENED.open(
    "base.errors",
    "DiceError",
    "GameError",
    "GameFormatError",
    "IllegalActionError",
    "KniffelError",
    "RulesError",
    "SheetError",
    "SituationError",
    "UnknownBoxError",
)
_OPENED.open("rules", "RuleSet")
_OPENED.open(
    "engine.actions", "Action", "Announce", "FreeThrow", "LegalActions", "Outcome", "Roll", "Score", "Strike"
)
_OPENED.open("engine.dice", "SecureDice", "SeededDice")
_OPENED.open("engine.game", "Game")
_OPENED.open("engine.sheet", "ScoreSheet")
_OPENED.open("engine.situation", "Situation")
_OPENED.open("core", "ScoreDistribution", "StreamDice")
_OPENED.open("services.research", "Position", "chance", "expected_score", "final_scores", "options")
_OPENED.open("services.simulate", "BoxStatistics", "SimulationResult", "simulate")


__all__ = [
    "Action",
    "Announce",
    "BoxStatistics",
    "DiceError",
    "FreeThrow",
    "Game",
    "GameError",
    "GameFormatError",
    "IllegalActionError",
    "KniffelError",
    "LegalActions",
    "Outcome",
    "Position",
    "Roll",
    "RuleSet",
    "RulesError",
    "Score",
    "ScoreDistribution",
    "ScoreSheet",
    "SecureDice",
    "SeededDice",
    "SheetError",
    "SimulationResult",
    "Situation",
    "SituationError",
    "StreamDice",
    "Strike",
    "UnknownBoxError",
    "chance",
    "expected_score",
    "final_scores",
    "options",
    "rules",
    "simulate",
]
