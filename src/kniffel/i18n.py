"""Words a user sees, in the user's language.

Front ends write their messages in English, with ``{name}`` fields, and pass them through
:func:`translate`; a language's catalog maps the English text to its translation. Catalogs are registered
by the modules that own the words (:func:`register`), so each front end keeps its own.

>>> register("de", {"{player} to move": "{player} ist am Zug"})
>>> translate("de", "{player} to move", player="Ada")
'Ada ist am Zug'
>>> translate("en", "{player} to move", player="Ada")
'Ada to move'
"""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGUAGES = ("en", "de")
"""The languages the product speaks; English is the source language of every message."""

_CATALOGS: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}


def register(language: str, catalog: Mapping[str, str]) -> None:
    """Add translations (English text -> text in ``language``).

    Every front end's catalog lands in one table, so the same English words must read the same in all of
    them: a second, different translation of a text is refused (an English text that means two things
    needs two English texts)."""
    if language not in _CATALOGS:
        raise ValueError(f"unknown language {language!r}; languages: {', '.join(LANGUAGES)}")
    known = _CATALOGS[language]
    clashes = [text for text, translated in catalog.items() if known.get(text, translated) != translated]
    if clashes:
        raise ValueError(f"{language}: a second translation of {clashes[0]!r} (and {len(clashes) - 1} more)")
    known.update(catalog)


def translate(language: str, text: str, /, **fields: object) -> str:
    """``text`` in ``language`` (English where no translation is known), with ``fields`` filled in."""
    chosen = _CATALOGS.get(language, {}).get(text, text)
    return chosen.format(**fields) if fields else chosen


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The user's language from the locale variables (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``de`` for a
    German locale, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


__all__ = ["LANGUAGES", "language_from_environment", "register", "translate"]
