"""The full-screen game: ``kniffel play`` in a terminal.

Every player's sheet is on screen at once, narrowed to the terminal (:mod:`kniffel.apps.tui.sheet`). Dice
are held with the keys 1-6 (or a click) and thrown with space; the boxes are the letters a, b, c... top
to bottom, and the commands the letters after them and signs (:mod:`kniffel.apps.tui.keys`; ``?`` lists
them). Undo, saving, hints and the review at the end work as in the line interface, through the same
:class:`kniffel.services.session.Session`, so a game saved in one resumes in the other; ``p`` shows the
position as the table text ``kniffel advise --situation`` reads, and the advice for a pasted one.
"""

from __future__ import annotations

from kniffel.apps.tui.app import KniffelApp, play

__all__ = ["KniffelApp", "play"]
