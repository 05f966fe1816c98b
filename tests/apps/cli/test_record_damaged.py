"""``kniffel stats`` on a damaged record file: a one-line error or the figures, never a traceback, the
file left as it was, and ``--json`` valid JSON only (no ``NaN``, no ``Infinity``).

A record is damaged here every way a file on disk can be: a value of the wrong kind in any field, numbers
too large for a float or that are no number (NaN, Infinity), lists or objects nested thousands deep, the
games not a list. Hypothesis draws them from a real record.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from kniffel.apps.cli import app
from kniffel.services import record

GOOD = {
    "game": "f" * 16,
    "player": "Ada",
    "finished": "2026-05-01T12:00:00+00:00",
    "rules": "kniffel",
    "options": {},
    "score": 231,
    "players": 2,
    "rank": 1,
    "kniffels": 1,
    "bonus": 1.0,
    "decisions": 40,
    "loss": 12.5,
}
"""One recorded game as :func:`kniffel.services.record.save` writes it."""

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A record's text with one or more things wrong (or, by chance, nothing: then it reads)."""
    games: list[Any] = [dict(GOOD) for _ in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(1, 3))):
        game = draw(st.sampled_from(games))
        field = draw(st.sampled_from(sorted(GOOD)))
        how = draw(st.sampled_from(["value", "missing", "deep"]))
        if how == "value":
            game[field] = draw(ODD_VALUES)
        elif how == "missing":
            game.pop(field, None)
        else:
            game[field] = "DEEP"
    text = json.dumps({"format": record.FORMAT, "games": games}, allow_nan=True)
    text = text.replace('"DEEP"', nested(draw(st.sampled_from([5, 3000, 100_000]))))
    whole = draw(st.sampled_from(["as is", "games not a list", "not an object", "deep"]))
    if whole == "games not a list":
        text = json.dumps({"format": record.FORMAT, "games": draw(ODD_VALUES)}, allow_nan=True)
    elif whole == "not an object":
        text = json.dumps(draw(ODD_VALUES), allow_nan=True)
    elif whole == "deep":
        text = nested(200_000)
    return text


def stats(directory: Path, *args: str) -> Any:
    return CliRunner().invoke(
        app,
        ["stats", *args],
        env={"COLUMNS": "80", "NO_COLOR": "1", record.DIRECTORY_ENV: str(directory)},
    )


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("record")


@given(text=damaged(), lang=st.sampled_from(["en", "de"]))
def test_stats_on_a_damaged_record_says_so_in_one_line_and_changes_nothing(
    directory: Path, text: str, lang: str
) -> None:
    path = directory / record.FILE
    path.write_text(text, encoding="utf-8")
    for args in ([], ["--json"], ["--player", "Ada", "--clear"]):
        result = stats(directory, *args, "--lang", lang)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        assert "Traceback" not in result.output + result.stderr
        if result.exit_code == 0:
            if args == ["--json"]:
                data = json.loads(result.stdout, parse_constant=pytest.fail)  # no NaN, no Infinity
                for summary in data["summaries"]:
                    assert all(
                        math.isfinite(value)
                        for value in summary.values()
                        if isinstance(value, float | int) and not isinstance(value, bool)
                    )
            continue
        assert result.exit_code == 2, (args, result.output, result.stderr)
        error = result.stderr.strip()
        assert error.startswith(("kniffel: error: ", "kniffel: Fehler: ")), error
        assert "\n" not in error, error
        assert len(error) < 600
        if "--clear" not in args:
            assert path.read_text(encoding="utf-8") == text, "a damaged record is never written"
    if path.exists() and path.read_text(encoding="utf-8") != text:
        # --clear forgot Ada's games of a record that reads: the rest is a record that reads too
        assert all(game.player != "Ada" for game in record.load(path))


def test_a_record_with_no_number_where_a_number_goes_is_refused_naming_it(tmp_path: Path) -> None:
    games = {"NaN is no number": dict(GOOD, loss=float("nan")), "game 2: score": dict(GOOD, score=10**400)}
    german = {"NaN is no number": "NaN ist keine Zahl", "game 2: score": "Spiel 2: score"}
    for said, game in games.items():
        path = tmp_path / record.FILE
        path.write_text(json.dumps({"format": record.FORMAT, "games": [GOOD, game]}), encoding="utf-8")
        result = stats(tmp_path, "--json")
        assert result.exit_code == 2
        assert result.stdout == "", "nothing but the error: no half-written JSON"
        assert said in result.stderr, result.stderr
        in_german = stats(tmp_path, "--lang", "de")
        assert german[said] in in_german.stderr, in_german.stderr
