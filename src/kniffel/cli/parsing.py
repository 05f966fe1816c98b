"""Reading what people type: dice, box names, player lists."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Collection, Sequence

from kniffel.cli.errors import CliError
from kniffel.dice import FACES, validate_dice
from kniffel.rules import RuleSet
from kniffel.session import PlayerSpec as PlayerSpec  # the players are read below the front ends
from kniffel.session import parse_players as parse_players
from kniffel.sheet import ScoreSheet

_SEPARATORS = re.compile(r"[\s,;]+")


def dice_words(tokens: Sequence[str]) -> list[str]:
    """Split what was typed for dice into one word per die.

    Dice come as separate words (``3 3 5``), as one list (``3,3,5``) or as one run of digits
    (``335``); the last form is only read that way when it is the only word, so ``10`` among other
    dice stays a (wrong) face rather than becoming ``1 0``.
    """
    words = [w for token in tokens for w in _SEPARATORS.split(token) if w]
    if len(words) == 1 and len(words[0]) > 1 and words[0].isdigit():
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


# --- box names -------------------------------------------------------------------------------------


def _fold(text: str) -> str:
    """Lower case, German letters spelled out, words joined by ``_``: "Große Straße" -> "grosse_strasse"."""
    text = text.strip().lower()
    for letter, spelled in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(letter, spelled)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "_".join(re.findall(r"[a-z0-9]+", text))


def box_names(rules: RuleSet) -> dict[str, set[str]]:
    """Every name a box key answers to: its id and both labels, with and without the column."""
    names: dict[str, set[str]] = {}
    for key in rules.box_keys:
        column, box = rules.locate(key)
        plain = {_fold(box.id), _fold(box.label_en), _fold(box.label_de)}
        aliases = set(plain)
        if rules.multi_column:
            aliases |= {f"{column.id}_{name}" for name in plain}
        names[key] = aliases
    return names


def resolve_box(rules: RuleSet, text: str, relevant: Collection[str] = ()) -> str:
    """The box key meant by ``text``: a key, an id or a label (English or German), or an unambiguous
    start of one. ``2:ch`` names column 2's chance; ``chance`` alone on a multi-column sheet is read
    as whichever column's chance is in ``relevant`` (the boxes the command could use now), if only one
    is.
    """
    wanted = _fold(text)
    if not wanted:
        raise CliError("name a box, e.g. 'chance'")
    names = box_names(rules)
    exact = [key for key, aliases in names.items() if wanted in aliases]
    matches = exact or [key for key, aliases in names.items() if any(a.startswith(wanted) for a in aliases)]
    if not matches:
        raise CliError(f"no box {text.strip()!r} in {rules.id}{_closest(names, wanted)}")
    if len(matches) > 1:
        usable = [key for key in matches if key in relevant]
        if len(usable) == 1:
            return usable[0]
        shown = ", ".join((usable or matches)[:8])
        raise CliError(f"{text.strip()!r} could be {shown}; type more of the name")
    return matches[0]


def _closest(names: dict[str, set[str]], wanted: str) -> str:
    """``; did you mean ...?`` naming the boxes closest to what was typed, or the way to list them."""
    by_alias = {alias: key for key, aliases in names.items() for alias in aliases}
    close = difflib.get_close_matches(wanted, by_alias, n=6, cutoff=0.6)
    keys = list(dict.fromkeys(by_alias[alias] for alias in close))[:3]
    if not keys:
        return "; 'kniffel rules ID' lists the boxes"
    return f"; did you mean {' or '.join(keys)}?"


_SHEET_ITEM = re.compile(r"\s*=\s*")


def parse_sheet(
    rules: RuleSet, text: str, *, whole: RuleSet | None = None, column: str | None = None
) -> ScoreSheet:
    """A sheet as ``--sheet`` takes it: ``box=points`` items where a box is named as everywhere else
    (key, id or label, see :func:`resolve_box`). ``rules`` may be one column of ``whole`` (``advise
    --column``): a box may then be named as on the whole sheet (``1:twos``) when it is in that column."""
    items = [item for item in re.split(r"[\s,;]+", _SHEET_ITEM.sub("=", text.strip())) if item]
    if len(items) == 1 and items[0].lower() == "empty":
        return ScoreSheet.parse(rules, text)
    named: list[str] = []
    for item in items:
        name, sep, points = item.partition("=")
        if sep and name and name not in rules.box_keys and not _is_sheet_word(rules, name):
            name = _sheet_box(rules, name, whole, column)
        named.append(f"{name}{sep}{points}")
    return ScoreSheet.parse(rules, " ".join(named))


def _is_sheet_word(rules: RuleSet, name: str) -> bool:
    """The sheet's own words besides boxes (``extra_bonus``, ``free_throws_used``, maybe per column)."""
    return name.split(":")[-1] in ("extra_bonus", "free_throws_used")


def _sheet_box(rules: RuleSet, name: str, whole: RuleSet | None, column: str | None) -> str:
    if whole is not None and whole.multi_column:
        key = resolve_box(whole, name)
        chosen, box = whole.locate(key)
        if column is not None and chosen.id != column:
            raise CliError(f"{key} is not in column {column}")
        return box.id
    return resolve_box(rules, name)
