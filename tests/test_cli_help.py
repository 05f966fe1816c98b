"""``--help`` at 80 columns, in English and German: paragraphs wrap where the terminal ends (not where a
docstring's source line did), and nothing but the help is shown."""

from __future__ import annotations

import itertools
import re

import pytest
from typer.testing import CliRunner

COMMANDS: tuple[list[str], ...] = (
    [],
    ["rules"],
    ["score"],
    ["play"],
    ["solve"],
    ["advise"],
    ["review"],
    ["simulate"],
    ["tournament"],
    ["serve"],
    ["cache"],
    ["cache", "clear"],
    ["cache", "prepare"],
)


def help_text(args: list[str], lang: str) -> str:
    from kniffel.cli import app

    result = CliRunner().invoke(
        app, ["--lang", lang, *args, "--help"], env={"COLUMNS": "80", "NO_COLOR": "1"}
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "kniffel")
def test_help_fits_80_columns_and_wraps_whole_paragraphs(args: list[str], lang: str) -> None:
    text = help_text(args, lang)
    assert "Project-Id-Version" not in text  # an empty text once fetched the catalog's header
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    # a line of a description that stops well short of the panel's edge although its sentence goes on
    # is a docstring's own line break
    for line, following in itertools.pairwise(lines):
        inner, rest = line.strip("│ "), following.strip("│ ")
        if inner and rest and rest[0].islower() and not inner.endswith((".", ":", ",", ";")):
            assert len(line.rstrip(" │")) > 58, f"broken mid-sentence:\n{line}\n{following}"


def test_the_rules_command_reads_as_one_sentence() -> None:
    text = help_text([], "en")
    joined = re.sub(r"\s*│\s*", " ", text)
    assert "with an ID, that rule set in full: its sheet, how every box scores, bonuses" in " ".join(
        joined.split()
    )
