"""Which language a request asks for (:func:`language_of`), and the pages' own words in one language, as
``/words/LANG.json`` hands them out.

What the server says to a person (refusals, rule sets, hints, reviews) comes in the request's language
(``?lang=de``, else the browser's ``Accept-Language``; a WebSocket's from ``?lang=`` or its ``hello``),
and the pages fetch their own words once. The state a table receives is the same for everyone: it
carries a sheet's labels in every language.

The words are every translation of the ``web`` catalog (English text -> translation), and under
:data:`PLURALS` what the pages' ``nt`` (their ``ngettext``, ``static/i18n.js``) needs for a text with a
count: each such message's forms (``{"{n} roll left": ["Noch {n} Wurf", "Noch {n} Würfe"]}``) and which
form the counts 0 to 199 take by the language's plural rule (the page needs no code of the catalog's to
run: its Content-Security-Policy forbids ``eval``; beyond 199 the last two digits decide).
"""

from __future__ import annotations

import gettext
from typing import Any

from starlette.requests import HTTPConnection

from kniffel.base.i18n import LANGUAGES, LOCALE_DIR, WEB_DOMAIN, catalog_words

PLURALS = "@plurals"
"""The key of the plural forms; no English text starts with ``@``."""
COUNTS = 200


def page_words(language: str) -> dict[str, Any]:
    """The ``web`` catalog's words in ``language`` with its plural forms (both empty for English)."""
    words: dict[str, Any] = dict(catalog_words(language, WEB_DOMAIN))
    if language == "en":
        return words
    catalog = gettext.translation(WEB_DOMAIN, LOCALE_DIR, [language], fallback=True)
    found: dict[str, dict[int, str]] = {}
    for key, text in getattr(catalog, "_catalog", {}).items():
        if isinstance(key, tuple) and isinstance(text, str) and text:
            singular, index = key
            found.setdefault(singular, {})[index] = text
    forms = {singular: [texts[i] for i in sorted(texts)] for singular, texts in found.items()}
    rule = getattr(catalog, "plural", lambda n: int(n != 1))
    words[PLURALS] = {"forms": forms, "index": [rule(n) for n in range(COUNTS)]}
    return words


def language_of(connection: HTTPConnection) -> str:
    """The language a request or WebSocket asks for: ``?lang=``, else the first language of
    ``Accept-Language`` that we speak, else English."""
    asked = connection.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in connection.headers.get("accept-language", "").split(","):
        language = part.split(";")[0].strip().lower()[:2]
        if language in LANGUAGES:
            return language
    return "en"
