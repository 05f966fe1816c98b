"""The full-screen game: ``kniffel play`` in a terminal.

Dice are held with the keys 1-6 (or a click) and thrown with space; the sheets of every player show what
each free box would pay now; the arrow keys move on the sheet, enter scores, ``x`` strikes, ``a``
announces, ``f`` throws a free throw. Undo, saving, hints and the review at the end work as in the line
interface, through the same :class:`kniffel.session.Session`, so a game saved in one resumes in the other.
"""

from __future__ import annotations

from kniffel.tui.app import KniffelApp, play

__all__ = ["KniffelApp", "play"]
