"""Boxes by the names people type: an id, a label in any language (also the short one a narrow sheet
prints), a column in front or behind, an unambiguous start of the name or of each of its words.

>>> from kniffel import rules
>>> find_box(rules.get("kniffel"), "Große Straße")
'large_straight'
>>> find_box(rules.get("kniffel"), "Kl. Straße")
'small_straight'
>>> find_box(rules.get("kniffel-4col"), "2:ch")
'2:chance'
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Collection

from kniffel.base.errors import UnknownBoxError
from kniffel.base.i18n import LANGUAGES, N_, translate
from kniffel.rules.model import RuleSet

SHORT_LABELS = {
    "three_of_a_kind": N_("3 of a kind"),
    "four_of_a_kind": N_("4 of a kind"),
    "small_straight": N_("Small str."),
    "large_straight": N_("Large str."),
}
"""The usual short names of the boxes that have one, as a narrow sheet prints them where the rules name
the box as usual ("Small str." for "Small straight"); English, translated where shown, and read back in
every language."""
FIVE_ALIKE = {
    "kniffel": N_("Kniffels"),
    "yahtzee": N_("Yahtzees"),
    "yatzy": N_("Yatzys"),
    "knoeffel": N_("Knöffels"),
    "yams": N_("Yams"),
}
"""What a count of five alike is called under each rule set ("3 Yahtzees"), by its five-of-a-kind box:
English, translated where shown."""


def five_alike_name(rules: RuleSet) -> str:
    """The name of a count of ``rules``' five alike (:data:`FIVE_ALIKE`, English), its box's label for a
    box not listed there, "Five alike" for rules without one."""
    box = rules.five_box
    if box is None:
        return N_("Five alike")
    return FIVE_ALIKE.get(box, rules.box(box).label_en)


def fold(text: str) -> str:
    """Lower case, German letters spelled out, words joined by ``_``: "Große Straße" -> "grosse_strasse"."""
    text = text.strip().lower()
    for letter, spelled in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(letter, spelled)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "_".join(re.findall(r"[a-z0-9]+", text))


def box_names(rules: RuleSet) -> dict[str, set[str]]:
    """Every name a box key answers to: its id and its labels; on a multi-column sheet with the column
    in front (``2:chance``) or behind (``Chance (2)``, as labels are shown)."""
    names: dict[str, set[str]] = {}
    for key in rules.box_keys:
        column, box = rules.locate(key)
        plain = {fold(box.id), fold(box.label_en), fold(box.label_de)}
        if box.id in SHORT_LABELS:
            plain |= {fold(translate(language, SHORT_LABELS[box.id])) for language in LANGUAGES}
        aliases = set(plain)
        if rules.multi_column:
            aliases |= {f"{column.id}_{name}" for name in plain} | {f"{name}_{column.id}" for name in plain}
        names[key] = aliases
    return names


def starts(wanted: str, name: str) -> bool:
    """Whether the folded ``wanted`` begins the folded ``name``, as a whole or word by word ("kl_strasse"
    begins "kleine_strasse", as "Kl. Straße" shortens "Kleine Straße")."""
    if name.startswith(wanted):
        return True
    words, parts = wanted.split("_"), name.split("_")
    return len(words) == len(parts) and all(
        part.startswith(word) for word, part in zip(words, parts, strict=True)
    )


def find_box(rules: RuleSet, text: str, among: Collection[str] = ()) -> str:
    """The box key meant by ``text``: a key, an id or a label (English or German, long or short), or an
    unambiguous start of one or of each of its words. ``2:ch`` names column 2's chance; ``chance`` alone on
    a multi-column sheet is read as whichever column's chance is ``among`` the boxes that could be used
    now, if only one is. :class:`~kniffel.base.errors.UnknownBoxError` says what is wrong (with the closest
    names)."""
    wanted = fold(text)
    if not wanted:
        raise UnknownBoxError("name a box, e.g. 'chance'")
    names = box_names(rules)
    exact = [key for key, aliases in names.items() if wanted in aliases]
    matches = exact or [key for key, aliases in names.items() if any(starts(wanted, a) for a in aliases)]
    if not matches:
        by_alias = {alias: key for key, aliases in names.items() for alias in aliases}
        close = difflib.get_close_matches(wanted, by_alias, n=6, cutoff=0.6)
        keys = list(dict.fromkeys(by_alias[alias] for alias in close))[:3]
        if keys:
            raise UnknownBoxError(f"no box {text.strip()!r} in {rules.id}; did you mean {' or '.join(keys)}?")
        raise UnknownBoxError(f"no box {text.strip()!r} in {rules.id}; 'kniffel rules ID' lists the boxes")
    if len(matches) > 1:
        usable = [key for key in matches if key in among]
        if len(usable) == 1:
            return usable[0]
        shown = ", ".join((usable or matches)[:8])
        raise UnknownBoxError(f"{text.strip()!r} could be {shown}; type more of the name")
    return matches[0]


__all__ = ["FIVE_ALIKE", "SHORT_LABELS", "box_names", "find_box", "five_alike_name", "fold", "starts"]
