"""Who sits at a table: the players a front end is given (people and bots), the bots' names and seeds.

A player is a name, or a bot's spec (``bot``, ``bot:optimal``, ``Zoe=bot:win``) that
:func:`kniffel.bots.make` reads. A bot keeps the English name of its kind in the game (the names of its
players are its data, and a saved game is read in any language); front ends show it in theirs
(:func:`shown_names`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kniffel.base.errors import GameError
from kniffel.bots import default_name as default_bot_name

BOT_PREFIX = "bot"


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    bot: str | None = None
    """The bot spec handed to ``kniffel.bots.make`` (``bot``, ``bot:heuristic``), None for a human."""


def is_bot_spec(text: str) -> bool:
    word = text.strip().lower()
    return word == BOT_PREFIX or word.startswith(BOT_PREFIX + ":")


def bot_name(spec: str, taken: Sequence[str] = ()) -> str:
    """A bot's name by what it plays for (:func:`kniffel.bots.default_name`): ``Bot (optimal)``, ``Bot
    (win)``, ``Bot (target 250)``; a second of a kind ``Bot (optimal) 2``. The game keeps it in English, as
    the names of its players are its data (a saved game is read in any language): front ends show it in
    theirs (:func:`shown_names`)."""
    name = default_bot_name(spec)
    count = 1
    chosen = name
    while chosen in taken:
        count += 1
        chosen = f"{name} {count}"
    return chosen


def bot_name_in(spec: str, lang: str) -> str:
    """The default name of a bot of ``spec`` in ``lang``: ``Bot (Heuristik)``, ``Bot (Ziel 250)``."""
    return default_bot_name(spec, lang)


def shown_names(names: Sequence[str], specs: Mapping[int, str], lang: str) -> list[str]:
    """The players' ``names`` as a front end in ``lang`` shows them: a bot (``specs``: its spec by seat)
    that bears its default name (:func:`bot_name`, ``Bot (heuristic) 2``) is named in ``lang``; every
    other name is shown as it was given. A translation that would be taken for another player's name is
    not used."""
    shown = list(names)
    for index, spec in specs.items():
        default = re.fullmatch(rf"{re.escape(bot_name(spec))}( \d+)?", names[index])
        if default is None:
            continue
        translated = bot_name_in(spec, lang) + (default[1] or "")
        if translated == names[index] or translated not in names:
            shown[index] = translated
    return shown


def parse_players(specs: Sequence[str]) -> list[PlayerSpec]:
    """``["Ada", "bot", "bot:optimal", "bot"]`` -> Ada and bots named by kind: "Bot (heuristic)", "Bot
    (optimal)" and "Bot (heuristic) 2"; ``"Zoe=bot:win"`` is a bot named Zoe (a saved game keeps the
    name)."""
    if not specs:
        raise GameError("name the players: --player NAME for a human, --player bot for a bot (1 to 8)")
    players: list[PlayerSpec] = []
    for spec in specs:
        name, named, bot = spec.rpartition("=")
        if named and name.strip() and is_bot_spec(bot):
            players.append(PlayerSpec(name.strip(), bot.strip().lower()))
        elif is_bot_spec(spec):
            name = bot_name(spec, [p.name for p in players])
            players.append(PlayerSpec(name, spec.strip().lower()))
        else:
            players.append(PlayerSpec(spec.strip()))
    return players


def bot_seed(seed: int | None, index: int) -> int | None:
    """Each bot's own seed, derived from the game's so that ``--seed`` fixes the bots' choices too."""
    return None if seed is None else seed * 16 + index + 1


__all__ = [
    "BOT_PREFIX",
    "PlayerSpec",
    "bot_name",
    "bot_name_in",
    "bot_seed",
    "is_bot_spec",
    "parse_players",
    "shown_names",
]
