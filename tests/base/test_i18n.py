"""German throughout: every word a user may see has a German form, and the catalogs that run are the ones
translators edit.

The messages are found by extraction (:mod:`kniffel.base.i18n.extract`, the same run as ``python -m
kniffel.base.i18n.extract``): every string the terminal front ends, the library's refusals and the web server
show, and every word of the web pages' scripts and HTML. A string added anywhere is found without anyone
listing it; this test fails until the catalogs are updated and it has German.
"""

from __future__ import annotations

import gettext
import io
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from kniffel import Game, SeededDice, rules
from kniffel.base.errors import GameFormatError, IllegalActionError
from kniffel.base.i18n import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    N_,
    WEB_DOMAIN,
    count_text,
    error_text,
    ngettext,
    number,
    percent,
    sentence,
    translate,
)
from kniffel.base.i18n.extract import DOMAINS, PACKAGE, po_path, template

FIELD = re.compile(r"\{(\w+)\}")


def joined(text: str | tuple[str, ...]) -> str:
    """A message, or a message with plural forms (ngettext) as one text."""
    return " ".join(text) if isinstance(text, tuple) else text


def done(text: str | tuple[str, ...]) -> bool:
    """Whether a translation is there (every plural form of it)."""
    return all(text) if isinstance(text, tuple) else bool(text)


@cache
def extracted(domain: str) -> Any:
    return template(domain)


def catalog(language: str, domain: str) -> Any:
    with po_path(language, domain).open("rb") as stream:
        return read_po(stream)


def forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    """A message's forms: one, or a singular and a plural (an entry with plural forms)."""
    return (text,) if isinstance(text, str) else tuple(text)


def fields(text: str) -> list[str]:
    return sorted(set(FIELD.findall(text)))


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_word_a_user_may_see_has_a_german_form(domain: str) -> None:
    german = {m.id: m for m in catalog("de", domain) if m.id}
    missing = [
        m.id
        for m in extracted(domain)
        if m.id and (m.id not in german or not all(forms(german[m.id].string)))
    ]
    assert missing == [], (
        f"no German yet (python -m kniffel.base.i18n.extract, then translate): {missing[:10]}"
    )
    unchecked = [m.id for m in german.values() if m.fuzzy]
    assert unchecked == [], f"German to check (marked fuzzy): {unchecked[:10]}"
    # each form keeps the fields of its English form (a singular may leave out the count: "the die")
    changed = [
        m.id
        for m in german.values()
        if any(
            fields(form) != fields(forms(m.id)[min(n, len(forms(m.id)) - 1)])
            for n, form in enumerate(forms(m.string))
        )
    ]
    assert changed == [], f"a translation must keep its message's fields: {changed[:10]}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_templates_are_what_the_sources_say(domain: str) -> None:
    with (LOCALE_DIR / f"{domain}.pot").open("rb") as stream:
        committed = {m.id for m in read_po(stream)}
    assert committed == {m.id for m in extracted(domain)}, "run python -m kniffel.base.i18n.extract"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogs_are_those_of_their_sources(domain: str) -> None:
    """The ``.mo`` files that run are committed beside their ``.po`` sources; a stale one fails here
    (``pybabel compile -d src/kniffel/locale -D "kniffel web"`` makes them again)."""
    compiled = io.BytesIO()
    write_mo(compiled, catalog("de", domain))
    compiled.seek(0)
    fresh = gettext.GNUTranslations(compiled)
    path = po_path("de", domain).with_suffix(".mo")
    with path.open("rb") as stream:
        shipped = gettext.GNUTranslations(stream)
    # The messages, not the header (which names the Babel version that compiled it).
    words = getattr(fresh, "_catalog", {})
    assert {k: v for k, v in getattr(shipped, "_catalog", {}).items() if k} == {
        k: v for k, v in words.items() if k
    }


def test_the_extractor_sees_every_call_in_the_pages_scripts() -> None:
    """Babel's script reader skips calls it cannot follow (an object inside a template string's
    ``${...}``); every literal the scripts give ``t`` (or ``nt``, with its plural) must be among the
    extracted words."""
    called: set[str | tuple[str, str]] = set()
    for script in (PACKAGE / "apps" / "web" / "static").glob("*.js"):
        text = script.read_text(encoding="utf-8")
        called |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', text))
        called |= set(re.findall(r'\bnt\("((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"', text))
    assert len(called) > 60
    assert any(isinstance(message, tuple) for message in called)
    assert sorted(map(str, called - {m.id for m in extracted(WEB_DOMAIN)})) == []


def test_messages_of_the_library_and_of_the_front_ends_are_found() -> None:
    """A sample of what extraction must find: a refusal written as an f-string (its fields named after
    what they hold), an option's help, a key of the terminal game, a command's help, a sheet's row."""
    found = {m.id for m in extracted(DOMAIN)}
    for message in (
        "no box {text} in {id}; did you mean {keys}?",  # rules/names.py, an f-string
        "{box} is already filled",  # a reason the game gives, marked N_
        "Upper sum",  # the sheet's layout
        "Score here",  # a key of the terminal game
        "Play a game in the terminal: humans and bots, 1 to 8 players. The full-screen game shows its keys "
        "at the bottom (? explains them); the line game (--plain) lists its commands when you type help.",
        "it is {player}'s turn",  # the web service
        "Yatzy (Scandinavian)",  # a rule set's name
    ):
        assert message in found, message


def test_refusals_read_back_in_german_with_their_fields() -> None:
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
    with pytest.raises(IllegalActionError) as refused:
        game.apply("score chance")
    assert error_text("de", refused.value) == "erst würfeln"
    nested = GameFormatError("action 3 (score chance) is illegal: chance is already filled")
    # The reason is a sentence of its own; the action stays as the saved game writes it.
    assert error_text("de", nested) == "Aktion 3 (score chance) ist nicht erlaubt: chance ist schon gefüllt"
    assert error_text("de", "something new") == "something new"
    assert error_text("en", nested) == str(nested)
    assert error_text("de", FileNotFoundError(2, "No such file or directory", "x.json")) == (
        "x.json: Datei oder Ordner nicht gefunden"
    )


def test_german_numbers_and_grammar() -> None:
    assert number("de", 247.94) == "247,9"
    assert number("en", 1234.5, 2) == "1,234.50"
    assert percent("de", 0.125) == "12,5\xa0%"
    assert percent("en", 0.125) == "12.5%"
    assert translate("de", "Round {round} of {turns}", round=2, turns=13) == "Runde 2 von 13"
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
    assert game.action_text("score ones", "de") == "Einser eintragen"
    assert game.action_text("roll keep 3 4 5 6", "de") == "3 4 5 6 halten"
    assert game.action_text("free keep 6 6", "de") == "Freiwurf, 6 6 halten"
    assert sentence("de", rules.get("yatzy").description).startswith("Skandinavisches Yatzy")


def test_numbers_are_written_as_babel_writes_them() -> None:
    """:func:`number` and :func:`percent` write without Babel what Babel writes: every sign, size, half
    and place, in both languages."""
    from babel import Locale
    from babel.numbers import format_decimal, format_percent

    rng = random.Random(7)
    values: list[float] = [0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 999.95, 1e15 - 0.5, 1e17, 123456789]
    values += [rng.uniform(-1, 1) * 10 ** rng.randint(-4, 12) for _ in range(1000)]
    values += [
        round(rng.uniform(-999, 999), rng.randint(0, 4)) + 5 * 10 ** -rng.randint(1, 5) for _ in range(1000)
    ]
    for language in LANGUAGES:
        for decimals in range(5):
            pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
            shown = Locale.parse(language).percent_formats[None].pattern
            if decimals:
                shown = re.sub(r"0(?=[^0]*$)", "0." + "0" * decimals, shown, count=1)
            for value in values:
                assert number(language, value, decimals) == format_decimal(value, pattern, locale=language)
                assert percent(language, value, decimals) == format_percent(value, shown, locale=language)


def test_the_locale_folder_holds_only_what_the_catalogs_need() -> None:
    files = {p.relative_to(LOCALE_DIR).as_posix() for p in LOCALE_DIR.rglob("*") if p.is_file()}
    assert files == {
        *(f"{domain}.pot" for domain in DOMAINS),
        *(f"de/LC_MESSAGES/{domain}.{suffix}" for domain in DOMAINS for suffix in ("po", "mo")),
    }
    assert Path(LOCALE_DIR).is_relative_to(PACKAGE), "the catalogs ship inside the package"


# --- counts ---------------------------------------------------------------------------------------


def plural_entries() -> list[Any]:
    return [m for m in extracted(DOMAIN) if m.id and m.pluralizable]


def test_messages_with_a_count_are_found_with_both_forms() -> None:
    """``ngettext`` and ``count_text`` calls are extracted as entries with plural forms; a count of
    nothing said in words (``count_text``'s first argument) is a message of its own."""
    ids = {m.id for m in plural_entries()}
    assert ("{n} roll left", "{n} rolls left") in ids  # kniffel play
    assert ("Cleared {n} table, {size}.", "Cleared {n} tables, {size}.") in ids  # kniffel cache clear
    assert ("Forgot {n} game.", "Forgot {n} games.") in ids  # kniffel stats --clear
    assert "no rolls left" in {m.id for m in extracted(DOMAIN)}
    assert len(ids) >= 8


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_message_with_a_count_reads_right_for_0_1_and_2(language: str) -> None:
    """Each message with a count, walked through 0, 1 and 2: 1 takes the singular, 0 and 2 the plural
    (in English and German alike), the count is written where the message writes it, and the two forms
    differ, as a noun after a count does."""
    german = {m.id: m for m in catalog("de", DOMAIN) if m.id}
    for entry in plural_entries():
        singular, plural = entry.id
        names = {name: "X" for name in FIELD.findall(singular + plural) if name != "n"}
        forms_now = {n: ngettext(singular, plural, n, language, **names) for n in (0, 1, 2)}
        expected = (singular, plural) if language == "en" else tuple(german[entry.id].string)
        assert len(expected) == 2
        assert forms_now[1] == expected[0].format(n=1, **names), entry.id
        for n in (0, 2):
            assert forms_now[n] == expected[1].format(n=n, **names), entry.id
        assert forms_now[1].replace("1", "#") != forms_now[2].replace("2", "#"), entry.id
        if "{n}" in plural:
            assert "2" in forms_now[2]
            assert "0" in forms_now[0]


def test_counts_in_german_and_english() -> None:
    def left(n: int, language: str) -> str:
        return count_text(N_("no rolls left"), "{n} roll left", "{n} rolls left", n, language)

    assert [left(n, "de") for n in (0, 1, 2)] == ["keine Würfe mehr", "noch 1 Wurf", "noch 2 Würfe"]
    assert [left(n, "en") for n in (0, 1, 2)] == ["no rolls left", "1 roll left", "2 rolls left"]
    assert ngettext("Forgot {n} game.", "Forgot {n} games.", 1, "de") == "1 Spiel vergessen."
    assert ngettext("{n}\N{NO-BREAK SPACE}day", "{n}\N{NO-BREAK SPACE}days", 3, "de") == "3\xa0Tage"
    # a language we do not speak reads as English, never fails
    assert ngettext("{n} roll left", "{n} rolls left", 2, "fr") == "2 rolls left"


# --- a count before the noun it counts --------------------------------------------------------------

COUNTED = re.compile(
    r"\{(\w+)\}(?:\s|\xa0)+(?:more\s+|free\s+)?(boxes|points|games|deals|seconds|players|seats|bytes|"
    r"connections|columns|entries|rolls|times|rounds|characters|faces|throws|dice|minutes|days|tables|"
    r"decisions|turns|pts|bots)\b"
)
"""A count written before the noun it counts, in an English message ("{n} boxes")."""
NEVER_ONE = {
    "expected {n_dice} dice, got {values}": "a rule set's dice: five or six",
    "expected {n_dice} dice, got {dice}": "a rule set's dice: five or six",
    "dice must be a list of {n_dice} faces, got {dice}": "a rule set's dice: five or six",
    "sum of {n} dice of one face (the highest face that has them)": "three, four or five of a kind",
    "at most {per_client} connections per address: close some tabs": "a server's allowance: dozens",
    "a turn timer is one of {choices} seconds, or none": "a list of the timers",
    "seats must be a list of 1 to {MAX_PLAYERS} seats": "the most players a table seats: eight",
    "a table seats at most {MAX_PLAYERS} players, got {specs}": "the most players a table seats: eight",
    "a table has at most {MAX_OTHERS} players, got {others}": "the most players a table seats: eight",
    "{id} has {columns} columns; solve single_column(rules, i)": "said of a sheet of several columns",
    "{n_boxes} boxes are too many for the exact solver": "past what the solver takes: more than 20",
    "say for each of the {players} players what it plays for": "said of a table of several players",
    "give a goal for each of the {n} players, got {given}": "said of a table of several players",
    "a table of {size} bytes does not fit the cache's budget of {limit} bytes": "a table's size: megabytes",
    "{size} more bytes do not fit the cache's budget of {limit} bytes": "a table's size: megabytes",
    "Past {limit} more points the tables stop: these are the chances of {limit} more, upper bounds": (
        "where the tables stop: hundreds of points"
    ),
    "{points}\xa0pts": "a figure with two decimals, the unit abbreviated",
    "{points} points to come": "a figure with a decimal",
    "{points} points": "a loss per decision: a figure with two decimals",
    "A name has at most {max} characters; this one has {n}": "the longest name: 24 characters",
    "Each turn roll the dice up to {rolls} times, keeping the ones you like between rolls (tap them), then "
    "enter them in one free box of your sheet, or strike a box for 0. After {turns} rounds the highest total "
    "wins.": "a rule set's rolls and rounds: three, and thirteen or more",
}
"""Messages whose count is never one, and why: only these write a count before its noun without the
noun's forms for one and for several."""


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_count_before_its_noun_has_the_nouns_forms(domain: str) -> None:
    """Walk every message of the front ends and the library: a count before the noun it counts ("{n}
    boxes") takes the noun's form for one and for several (``ngettext``, whose forms the test above walks
    in German: "1 Feld", "2 Felder", "mit 1 Punkt", "mit 2 Punkten"), unless the count is never one.
    Elsewhere a number stands where no noun follows it ("Felder gefüllt: 1")."""
    found = [m.id for m in extracted(domain) if m.id and not m.pluralizable and COUNTED.search(m.id)]
    unexplained = [text for text in found if text not in NEVER_ONE]
    assert unexplained == []
    if domain == list(DOMAINS)[-1]:
        every = {m.id for d in DOMAINS for m in extracted(d) if m.id and not m.pluralizable}
        assert set(NEVER_ONE) <= every, "a message listed here is gone: take it off the list"


def test_german_errors_with_a_count_read_right() -> None:
    """Refusals with a count read as German writes them, for one and for several."""
    from kniffel.base.errors import SituationError
    from kniffel.engine.situation import Situation

    with pytest.raises(SituationError) as refused:
        Situation.parse("kniffel | twos=6 | 1 2 3 4 5 | rolls left 1 | others twos=6 fours=8 threes=9")
    assert error_text("de", refused.value).startswith("Spieler 1 der anderen: 3 gefüllt, wo")
    assert ngettext(
        "Winner: {player}, with {n} point.", "Winner: {player}, with {n} points.", 1, "de", player="A"
    ) == ("Sieg: A, mit 1 Punkt.")
    assert ngettext(
        "Winner: {player}, with {n} point.", "Winner: {player}, with {n} points.", 2, "de", player="A"
    ) == ("Sieg: A, mit 2 Punkten.")
