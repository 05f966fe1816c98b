"""Words a user sees, in the user's language: gettext catalogs, compiled with Babel.

Everything is written in English, the source language, and every front end passes what it shows
through :func:`translate` (``{name}`` fields are filled in after translating)::

    >>> translate("de", "Round {round} of {turns}", round=2, turns=13)
    'Runde 2 von 13'
    >>> translate("en", "Round {round} of {turns}", round=2, turns=13)
    'Round 2 of 13'

The translations are gettext catalogs in ``kniffel/locale``: a template per domain (``kniffel.pot``,
extracted from the sources by Babel with :mod:`kniffel.base.i18n.extract`), a ``.po`` file per language that
translators edit, and the ``.mo`` file Babel compiles from it, which is what runs. ``kniffel`` holds
the words of the library and of the terminal front ends, and the words the web server sends; ``web``
holds the words of the web pages' own scripts, which the server hands to the browser as JSON
(:func:`catalog_words`). ``docs/how-to/translating.md`` says how to update them.

The compiled ``.mo`` files are committed beside their ``.po`` sources, as Django and many other packages
ship them: every way of installing (a wheel, an sdist, an editable install from a clone) finds them
without a build step and without Babel's parser at run time, and a test fails when one is stale against
its ``.po``.

The library writes its refusals (:class:`kniffel.base.errors.KniffelError`) as plain English f-strings, so
they read well in a traceback and need no language where they are raised. The extractor turns each such
f-string into a message with named fields (``no box {key} in {id}; boxes: {index}``), and
:func:`error_text` reads a finished message back against those: the matched fields go into the
translated sentence, and a field that is itself a sentence (the reason in "action 3 (score x) is
illegal: ...") is translated too.
"""

from __future__ import annotations

import functools
import gettext
import os
import re
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path

LANGUAGES = ("en", "de")
"""The languages the product speaks; English is the source language of every message."""

DOMAIN = "kniffel"
"""The catalog of the library, the terminal front ends and the web server."""
WEB_DOMAIN = "web"
"""The catalog of the web pages' own words (their scripts and HTML)."""
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
"""Where the templates, ``.po`` sources and compiled ``.mo`` catalogs live."""

_FIELD = re.compile(r"\{(\w+)\}")


def N_(text: str) -> str:  # noqa: N802 - gettext's name for "mark for translation, translate later"
    """Mark ``text`` for the catalogs without translating it here (it is translated where it is shown)."""
    return text


@functools.cache
def _catalog(language: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE_DIR, [language], fallback=True)


def catalog_words(language: str, domain: str = DOMAIN) -> dict[str, str]:
    """Every translation of a domain (English text -> text in ``language``); empty for English."""
    entries: Mapping[str, str] = getattr(_catalog(language, domain), "_catalog", {})
    return {english: text for english, text in entries.items() if english and isinstance(english, str)}


def translate(language: str, text: str, /, **fields: object) -> str:
    """``text`` in ``language`` (English where no translation is known), with ``fields`` filled in."""
    # gettext answers "" with the catalog's header: an empty text (a metavar, say) stays empty
    chosen = _catalog(language).gettext(text) if text and language in LANGUAGES else text
    return chosen.format(**fields) if fields else chosen


def ngettext(singular: str, plural: str, n: int, /, language: str = "en", **fields: object) -> str:
    """The form of a message with a count that ``n`` takes in ``language`` (gettext's plural forms, from
    the catalog's ``Plural-Forms``), with ``fields`` filled in; ``{n}`` is ``n`` unless given::

        >>> ngettext("{n} roll left", "{n} rolls left", 1, language="de")
        'noch 1 Wurf'
        >>> ngettext("{n} roll left", "{n} rolls left", 2, language="de")
        'noch 2 Würfe'

    Where a count of nothing reads better in words ("no rolls left"), the caller says so with a
    message of its own (:func:`count_text`)."""
    catalog = _catalog(language) if language in LANGUAGES else gettext.NullTranslations()
    chosen = catalog.ngettext(singular, plural, n)
    return chosen.format(**{"n": n, **fields})


def count_text(
    zero: str, singular: str, plural: str, n: int, /, language: str = "en", **fields: object
) -> str:
    """A count as people say it: ``zero`` (a message of its own, "no rolls left") for nothing, else the
    plural form :func:`ngettext` chooses."""
    if n == 0:
        return translate(language, zero, **fields)
    return ngettext(singular, plural, n, language, **fields)


NBSP = "\N{NO-BREAK SPACE}"
"""The space between a figure and its unit (``34\N{NO-BREAK SPACE}%``, ``5\N{NO-BREAK SPACE}min``):
a line is never broken between them."""


def translations(text: str) -> dict[str, str]:
    """``text`` in every language (English first): what a client that switches languages needs."""
    return {language: translate(language, text) for language in LANGUAGES}


# --- messages written in English elsewhere --------------------------------------------------------


@functools.cache
def _patterns(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The catalog's messages with fields, as patterns that match the English text they produce."""
    found: list[tuple[re.Pattern[str], str]] = []
    for english in catalog_words(language):
        literal = _FIELD.sub("", english)
        if english == literal or len(literal.strip()) < 4:
            continue  # without fields there is nothing to match; a bare field would match anything
        pattern: list[str] = []
        seen: set[str] = set()
        at = 0
        for field in _FIELD.finditer(english):
            pattern.append(re.escape(english[at : field.start()].replace("{{", "{").replace("}}", "}")))
            name = field.group(1)
            pattern.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
            at = field.end()
        pattern.append(re.escape(english[at:].replace("{{", "{").replace("}}", "}")))
        found.append((re.compile("".join(pattern), re.DOTALL), english))
    # Longer sentences first: "a is b: c" must not be read by a shorter "a: c".
    found.sort(key=lambda item: -len(_FIELD.sub("", item[1])))
    return tuple(found)


def sentence(language: str, text: str, *, words: int = 1) -> str:
    """Text written in English from parts (a refusal, a rule's help with its source) in ``language``:
    exactly as catalogued, or read back against a catalogued message with fields (of at least ``words``
    words besides its fields); else unchanged."""
    if language == "en" or language not in LANGUAGES:
        return text
    known = catalog_words(language)
    if text in known:
        return known[text]
    for pattern, english in _patterns(language):
        if len(_FIELD.sub("", english).split()) < words:
            continue
        match = pattern.fullmatch(text)
        if match:
            # A field of one word is a name (a box, a player); one of several words may be a sentence
            # of its own (the reason in "action 3 (score x) is illegal: ..."), but not a short form such
            # as an action's ("score chance"), which is read as it was typed.
            fields = {
                name: sentence(language, value, words=2) if " " in value.strip() else value
                for name, value in match.groupdict().items()
            }
            return known[english].format(**fields)
    return text


OS_WORDS = (
    N_("No such file or directory"),
    N_("Permission denied"),
    N_("Is a directory"),
    N_("Not a directory"),
    N_("File exists"),
    N_("No space left on device"),
    N_("Read-only file system"),
)
"""The operating system's reasons a file cannot be used (``OSError.strerror``), for the catalogs."""


def error_text(language: str, error: BaseException | str) -> str:
    """What went wrong, in one line in ``language``: a library refusal, a front end's own, a file that
    cannot be read or written (its name first), a file that is not UTF-8 text. Every front end shows
    errors through this."""
    if isinstance(error, UnicodeDecodeError):
        byte = error.object[error.start : error.start + 1].hex()
        text = sentence(language, N_(f"the file is not UTF-8 text (byte 0x{byte} at {error.start})"))
    elif isinstance(error, OSError) and error.strerror:
        where = f"{error.filename}: " if error.filename else ""
        text = where + sentence(language, error.strerror)
    elif isinstance(error, BaseException):
        text = sentence(language, str(error) or type(error).__name__)
    else:
        text = sentence(language, error)
    return " ".join(text.split())


# --- numbers ------------------------------------------------------------------------------------


def number(language: str, value: float, decimals: int = 1) -> str:
    """``value`` with ``decimals`` places as ``language`` writes numbers: ``247.9``, ``247,9``."""
    written = _written(language, value, decimals)
    if written is not None:
        return written
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return format_decimal(value, format=pattern, locale=_locale(language))


def percent(language: str, share: float, decimals: int = 1) -> str:
    """A share (0 to 1) as a percentage the way ``language`` writes it: ``12.5%``, ``12,5 %``."""
    written = _written(language, Decimal(str(share)).scaleb(2), decimals)
    if written is not None:
        return written + _PERCENT_SIGN[_locale(language)]
    from babel import Locale
    from babel.numbers import format_percent

    pattern = Locale.parse(_locale(language)).percent_formats[None].pattern
    if decimals > 0:
        pattern = re.sub(r"0(?=[^0]*$)", "0." + "0" * decimals, pattern, count=1)
    return format_percent(share, format=pattern, locale=_locale(language))


_SEPARATORS = {"en": (",", "."), "de": (".", ",")}
"""How each language groups thousands and marks the decimals (CLDR's, as Babel writes them)."""
_PERCENT_SIGN = {"en": "%", "de": "\N{NO-BREAK SPACE}%"}
"""What follows a percentage in each language (CLDR's percent pattern)."""


def _written(language: str, value: float | Decimal, decimals: int) -> str | None:
    """``value`` as Babel's ``format_decimal`` writes it with the pattern ``#,##0.0…`` (``decimals``
    places, halves rounded to even), without loading Babel's locale data, which took a short command
    longer than its own work; None for what is left to Babel (a value too long or not finite). A test
    holds the two equal."""
    exact = value if isinstance(value, Decimal) else Decimal(str(value))
    if not exact.is_finite() or exact.adjusted() > 15:
        return None
    group, point = _SEPARATORS[_locale(language)]
    rounded = abs(exact).normalize().quantize(Decimal(10) ** -decimals)
    whole, _, places = f"{rounded:f}".partition(".")
    grouped = f"{int(whole):,}".replace(",", group)
    return ("-" if exact.is_signed() else "") + grouped + (point + places if decimals > 0 else "")


def _locale(language: str) -> str:
    return language if language in LANGUAGES else "en"


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The user's language from the locale variables (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``de`` for a
    German locale, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "NBSP",
    "N_",
    "WEB_DOMAIN",
    "catalog_words",
    "count_text",
    "error_text",
    "language_from_environment",
    "ngettext",
    "number",
    "percent",
    "sentence",
    "translate",
    "translations",
]
