"""The dice bar: the dice showing, each with its pips and number, held ones marked; a click holds one.

The dice lie as on a table: a throw leaves the dice it kept where they were (held still), and the
thrown ones fill the other places (:func:`arranged`), so that a die's key names the same die all turn.
The game itself knows the dice only as a sorted list."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from kniffel.apps.tui.common import PIP_FACES


def arranged(
    places: Sequence[int] | None, held: Sequence[bool], dice: Sequence[int], keep: Sequence[int]
) -> tuple[list[int], list[bool]]:
    """Where the ``dice`` of a throw that kept ``keep`` lie, and which are held: each kept die stays in
    its place and stays held (the held places are taken first, then any showing a kept face: a bot
    keeps faces, not places), and the thrown dice fill the other places in order. ``places`` are the
    faces in their places before the throw (None before the turn's first); where they cannot have given
    ``dice``, the dice lie in order with the kept ones held."""
    order = sorted(dice)
    left = list(keep)
    stay = [False] * len(order)
    if places is not None and len(places) == len(order) == len(held):
        for i in sorted(range(len(order)), key=lambda i: not held[i]):
            if places[i] in left:
                left.remove(places[i])
                stay[i] = True
    if places is None or left or len(places) != len(order):
        left = list(keep)
        stay = []
        for face in order:
            stay.append(face in left)
            if face in left:
                left.remove(face)
        return order, stay
    thrown = list(order)
    for i, face in enumerate(places):
        if stay[i]:
            thrown.remove(face)
    return [face if stay[i] else thrown.pop(0) for i, face in enumerate(places)], stay


class Die(Static):
    """One die; a click holds it or lets it go."""

    DEFAULT_CSS = """
    Die { width: 5; height: 3; border: round $foreground 40%; content-align: center middle; margin-right: 1; }
    Die.held { border: heavy $accent; background: $accent 25%; text-style: bold; }
    """

    def __init__(self, position: int) -> None:
        super().__init__("·", id=f"die-{position}")
        self.position = position

    async def on_click(self) -> None:
        await self.app.run_action(f"hold({self.position})")


class DiceBar(Vertical):
    """The dice in a row and, under each, its key or "held"."""

    DEFAULT_CSS = """
    DiceBar { height: 4; width: auto; }
    DiceBar > Horizontal { height: 3; width: auto; }
    DiceBar > #holds { height: 1; }
    """

    def __init__(self, count: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = count

    def compose(self) -> ComposeResult:
        with Horizontal():
            for position in range(self.count):
                yield Die(position)
        yield Static(id="holds")

    def show(self, dice: Sequence[int] | None, held: Sequence[bool], held_word: str) -> None:
        marks = []
        for position in range(self.count):
            die = self.query_one(f"#die-{position}", Die)
            die.update("·" if dice is None else f"{PIP_FACES[dice[position] - 1]} {dice[position]}")
            shown = dice is not None and held[position]
            die.set_class(shown, "held")
            marks.append(held_word[:5] if shown else str(position + 1))
        self.query_one("#holds", Static).update("".join(f"{m:^6}" for m in marks))
