"""Everything the library refuses, in one hierarchy.

Bad input (an unknown rule set or box, an illegal action, a damaged save, a situation the solver does not
cover) raises a subclass of :class:`KniffelError` whose message says what is wrong in one sentence. Front
ends catch :class:`KniffelError` and show the message; anything else that escapes is a bug and keeps its
traceback.

The classes live here, below every other module, so that each layer raises the one that fits without
importing a higher layer; the modules they belong to re-export them (``kniffel.rules.RulesError``,
``kniffel.engine.sheet.SheetError``, ``kniffel.engine.game.IllegalActionError``, ...).

``KniffelError`` derives from :class:`ValueError` as well, so code written against the earlier exceptions
(all of them value errors) keeps working.
"""

from __future__ import annotations


class KniffelError(ValueError):
    """Something the library refuses; the message says what and why, in one line."""


class RulesError(KniffelError):
    """An unknown rule set, a bad option, or a rule-set declaration that cannot be; the message says what
    is allowed."""


class UnknownBoxError(RulesError):
    """A box key or box id the rule set does not have; the message lists those it has."""


class DiceError(KniffelError):
    """Dice that cannot be: the wrong number of them, or a face that is not 1 to 6."""


class SheetError(KniffelError):
    """A sheet that cannot exist under the rules: unknown box, impossible points, malformed text."""


class GameError(KniffelError):
    """A game that cannot be set up this way (the players), or a request it cannot answer now (nothing
    to undo, the situation of a finished game)."""


class IllegalActionError(GameError):
    """An action the rules do not allow now; the message says why."""


class GameFormatError(KniffelError):
    """A saved game or an action text that cannot be read."""


class SituationError(KniffelError):
    """A situation that cannot arise under the rules (rolls left out of range, dice before the first
    roll, a free throw no column can pay for), or a situation text that cannot be read."""


class PlottingUnavailableError(KniffelError):
    """A plot was asked for but matplotlib is not installed (:func:`plotting_unavailable` says how to add
    it)."""


def plotting_unavailable() -> PlottingUnavailableError:
    """The refusal of a plot without matplotlib: how to add it to the very Python that runs kniffel (the
    README's virtual environment, say), as the ``[plot]`` extra would."""
    import sys

    python = sys.executable
    return PlottingUnavailableError(
        f"plotting needs matplotlib (kniffel's [plot] extra): {python} -m pip install 'matplotlib>=3.8'"
    )


__all__ = [
    "DiceError",
    "GameError",
    "GameFormatError",
    "IllegalActionError",
    "KniffelError",
    "PlottingUnavailableError",
    "RulesError",
    "SheetError",
    "SituationError",
    "UnknownBoxError",
    "plotting_unavailable",
]
