"""Reading what people type: dice and sheets (player lists: :mod:`kniffel.services.players`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kniffel.apps.cli.errors import CliError
from kniffel.base.dice import FACES, validate_dice
from kniffel.engine.sheet import EMPTY_WORDS, ScoreSheet, sheet_items
from kniffel.rules import RuleSet, find_box

_SEPARATORS = re.compile(r"[\s,;]+")


def dice_words(tokens: Sequence[str]) -> list[str]:
    """Split what was typed for dice into one word per die.

    Dice come as separate words (``3 3 5``), as one list (``3,3,5``) or as one run of digits
    (``335``); the last form is only read that way when it is the only word, so ``10`` among other
    dice stays a (wrong) face rather than becoming ``1 0``.
    """
    words = [w for token in tokens for w in _SEPARATORS.split(token) if w]
    if len(words) == 1 and len(words[0]) > 1 and words[0].isdecimal():
        return list(words[0])
    return words


def faces(tokens: Sequence[str]) -> tuple[int, ...]:
    """Faces typed as numbers, in any of the forms of :func:`dice_words`; unsorted, unchecked count."""
    result: list[int] = []
    for word in dice_words(tokens):
        try:
            face = int(word)
        except ValueError:
            raise CliError(f"dice are numbers 1 to {FACES}, got {word!r}") from None
        if not 1 <= face <= FACES:
            raise CliError(f"a die shows 1 to {FACES}, got {face}")
        result.append(face)
    return tuple(result)


def parse_dice(tokens: Sequence[str], n_dice: int) -> tuple[int, ...]:
    """Exactly ``n_dice`` faces, sorted; ``CliError`` naming what is wrong."""
    values = faces(tokens)
    if len(values) != n_dice:
        raise CliError(f"expected {n_dice} dice, got {len(values)}")
    return validate_dice(list(values), n_dice)


def given_dice(dice: Sequence[str] | None, words: Sequence[str] | None, n_dice: int) -> tuple[int, ...]:
    """The dice of ``--dice`` and of the words after the options together (:func:`parse_dice`): Click
    reads "--dice 3 3 3" as one value for --dice and the rest as arguments, and both are dice."""
    return parse_dice([*(dice or []), *(words or [])], n_dice)


def parse_sheet(
    rules: RuleSet, text: str, *, whole: RuleSet | None = None, column: str | None = None
) -> ScoreSheet:
    """A sheet as ``--sheet`` takes it: ``box=points`` items where a box is named as everywhere else
    (key, id or label in either language, spaces included: :func:`kniffel.engine.sheet.sheet_items`,
    :func:`kniffel.rules.find_box`). ``rules`` may be one column of ``whole`` (``advise --column``): a box
    may then be named as on the whole sheet (``1:twos``) when it is in that column."""
    if whole is None or not whole.multi_column or text.strip().lower() in EMPTY_WORDS:
        return ScoreSheet.parse(rules, text)
    named: list[str] = []
    for name, points in sheet_items(text):
        if name not in rules.box_keys and not _is_sheet_word(name):
            name = _column_box(whole, name, column)
        named.append(f"{name}={points}")
    return ScoreSheet.parse(rules, " ".join(named))


def _is_sheet_word(name: str) -> bool:
    """The sheet's own words besides boxes (``extra_bonus``, ``free_throws_used``, maybe per column)."""
    return name.split(":")[-1] in ("extra_bonus", "free_throws_used")


def _column_box(whole: RuleSet, name: str, column: str | None) -> str:
    """The box of one column of ``whole`` that ``name`` names on the whole sheet (``1:twos``)."""
    key = find_box(whole, name)
    chosen, box = whole.locate(key)
    if column is not None and chosen.id != column:
        raise CliError(f"{key} is not in column {column}")
    return box.id
