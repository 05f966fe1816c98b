"""The pages' own words in one language, as ``/words/LANG.json`` hands them out.

Every translation of the ``web`` catalog (English text -> translation), and under :data:`PLURALS` what
the pages' ``nt`` (their ``ngettext``, ``static/i18n.js``) needs for a text with a count: each such
message's forms (``{"{n} roll left": ["Noch {n} Wurf", "Noch {n} Würfe"]}``) and which form the counts
0 to 199 take by the language's plural rule (the page needs no code of the catalog's to run: its
Content-Security-Policy forbids ``eval``; beyond 199 the last two digits decide).
"""

from __future__ import annotations

import gettext
from typing import Any

from kniffel.base.i18n import LOCALE_DIR, WEB_DOMAIN, catalog_words

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
