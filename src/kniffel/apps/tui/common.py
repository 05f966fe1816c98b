"""What every view of the full-screen game shares: translated key descriptions, the text of figures and
dice, and wrapping that never breaks a dice list or a number from its unit."""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Iterable

from rich.text import Text
from textual.dom import DOMNode

from kniffel.base.i18n import NBSP, translate

PIP_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"
"""The dice faces with their pips (⚀ to ⚅), drawn beside the number."""


def translate_keys(node: DOMNode, lang: str) -> None:
    """Show the descriptions of ``node``'s keys in ``lang``."""
    # Textual reads a key's description from the binding itself; bindings are immutable, so each is
    # replaced by a translated copy.
    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [dataclasses.replace(b, description=translate(lang, b.description)) for b in bindings]


def points_text(points: int) -> str:
    # A struck box and a zero look alike on paper: the seed's sheet writes a dash for both.
    return "\N{EN DASH}" if points == 0 else str(points)


def dice_text(dice: Iterable[int]) -> str:
    """Faces as one unbreakable word: ``1 1 5 5`` with no-break spaces."""
    return NBSP.join(map(str, dice))


def wrapped(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` at its ordinary spaces only (Rich would break at a
    no-break space too: a dice list or "34 %" stays whole here); a line of its own stays one."""
    lines: list[str] = []
    for line in text.split("\n"):
        lines += textwrap.wrap(line, max(width, 8), break_on_hyphens=False) or [""]
    return lines


def wrapped_text(text: str, width: int, style: str = "") -> Text:
    """:func:`wrapped` as one Rich text (lines that Rich will not wrap again)."""
    return Text("\n".join(wrapped(text, width)), style=style, no_wrap=True, overflow="crop")


def shortened(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters (at least one of its own): whole if it fits; a name with a
    part in brackets keeps as much of that part as fits ("Bot (heuristic) 2" -> "Bot heu 2"); words
    abbreviated from the first ("Kleine Straße" -> "Kl. Straße"); else cut with an ellipsis."""
    width = max(width, 2)
    if len(text) <= width:
        return text
    head, bracket, rest = text.partition("(")
    inside, closed, tail = rest.partition(")")
    if bracket and closed and head.strip():
        head, tail = head.strip() + " ", " ".join(tail.split())
        tail = " " + tail if tail else ""
        room = width - len(head) - len(tail)
        if room >= 1:
            return head + inside[:room].rstrip() + tail
    words = text.split()
    for n in range(len(words) - 1):
        if len(words[n]) > 3:
            words[n] = words[n][:2] + "."
        if len(short := " ".join(words)) <= width:
            return short
    return text[: width - 1].rstrip() + "…"
