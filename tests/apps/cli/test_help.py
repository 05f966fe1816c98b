"""``--help`` at 80 columns, in English and German: paragraphs wrap where the terminal ends (not where a
docstring's source line did), and nothing but the help is shown."""

from __future__ import annotations

import contextlib
import io
import itertools
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

pytestmark = pytest.mark.compiles_nothing

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
    ["stats"],
    ["cache"],
    ["cache", "clear"],
    ["cache", "prepare"],
)


def help_text(args: list[str], lang: str) -> str:
    """What ``kniffel --lang LANG ARGS --help`` prints at 80 columns, through the console script's entry
    point (which puts the help into the language asked for)."""
    from kniffel.apps.cli import main

    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(io.StringIO()) as out:
        patch.setenv("COLUMNS", "80")
        patch.setenv("NO_COLOR", "1")
        with pytest.raises(SystemExit) as ended:
            main(["--lang", lang, *args, "--help"])
    assert ended.value.code in (0, None), out.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "kniffel")
def test_help_fits_80_columns_and_wraps_whole_paragraphs(args: list[str], lang: str) -> None:
    text = help_text(args, lang)
    assert "Project-Id-Version" not in text  # an empty text once fetched the catalog's header
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "…" not in text, "an option's name or value cut short"  # advise's long names once were
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


def test_the_help_is_in_the_language_asked_for() -> None:
    assert "Aufruf: kniffel advise" in help_text(["advise"], "de")
    assert "Usage: kniffel advise" in help_text(["advise"], "en")


def test_advise_keeps_its_long_option_names() -> None:
    """advise's options keep their names (--not-thrown-at-once works, named in --thrown-at-once's help
    rather than in a column of its own, which squeezed every name at 80 columns)."""
    text = " ".join(help_text(["advise"], "en").replace("│", " ").split())
    for name in ("--thrown-at-once", "--free-throws-left", "--free-throws-used", "--rolls-left"):
        assert name in text
    assert "--not-thrown-at-once: it was not" in text
    runner = CliRunner()
    from kniffel.apps.cli import app

    both = runner.invoke(app, ["advise", "-d", "12345", "--thrown-at-once", "--not-thrown-at-once"])
    assert both.exit_code == 2
    assert "give --thrown-at-once or --not-thrown-at-once, not both" in both.output
    situation = "kniffel | empty | 1 2 3 4 5 | rolls left 2"
    clash = runner.invoke(app, ["advise", "--situation", situation, "--not-thrown-at-once"])
    assert clash.exit_code == 2
    assert "leave out --not-thrown-at-once" in clash.output


def test_the_overview_names_the_browser_game_advice_and_the_record() -> None:
    for lang, words in (
        ("en", ("in the browser (kniffel serve)", "advice for any roll (kniffel advise)", "kniffel stats")),
        ("de", ("im Browser (kniffel serve)", "Rat zu jedem Wurf (kniffel advise)", "kniffel stats")),
    ):
        text = " ".join(help_text([], lang).replace("│", " ").split())
        for word in words:
            assert word in text, (lang, word)


def test_play_says_what_is_true_of_both_of_its_faces() -> None:
    text = " ".join(help_text(["play"], "en").replace("│", " ").split())
    assert "Type help during the game" not in text  # only the line game has a help command
    assert "the full-screen game shows its keys at the bottom" in text.lower()
    assert "(--plain) lists its commands when you type help" in text
    assert "NAME=BOT names a bot (Zoe=bot:win)" in text


def error_of(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int | str | None, str, str]:
    from kniffel.apps.cli import main

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "80")
        with pytest.raises(SystemExit) as ended:
            main(args)
    captured = capsys.readouterr()
    return ended.value.code, captured.out, captured.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--games", "0"], "kniffel: error: --games is at least 1, got 0"),
        (["serve", "--port", "0"], "kniffel: error: --port is a port number, 1 to 65535, got 0"),
        (["serve", "--port", "70000"], "kniffel: error: --port is a port number, 1 to 65535, got 70000"),
        (["serve", "--bot-delay", "-1"], "kniffel: error: --bot-delay is 0 to 60 seconds, got -1.0"),
        (
            ["serve", "--log-level", "loud"],
            "kniffel: error: --log-level is critical, error, warning, info or debug, got loud",
        ),
        (
            ["score", "--bogus"],
            "kniffel: error: No such option: --bogus (see kniffel score --help)",
        ),
        (
            ["simulate", "--games", "many"],
            "kniffel: error: Invalid value for '--games' / '-n': 'many' is not a valid integer. "
            "(see kniffel simulate --help)",
        ),
        (
            ["--lang", "de", "simulate", "--games", "²"],
            "kniffel: Fehler: Ungültiger Wert für '--games' / '-n': '²' ist keine ganze Zahl. "
            "(siehe kniffel simulate --help)",
        ),
        (
            ["train", "--count", "0"],
            "kniffel: error: Invalid value for '--count' / '-n': 0 is not in the range x>=1. "
            "(see kniffel train --help)",
        ),
        (
            ["--lang", "de", "play", "--bot-delay", "soon"],
            "kniffel: Fehler: Ungültiger Wert für '--bot-delay': 'soon' ist keine Zahl. "
            "(siehe kniffel play --help)",
        ),
        (
            ["--lang", "de", "score", "--bogus"],
            "kniffel: Fehler: Unbekannte Option: --bogus (siehe kniffel score --help)",
        ),
    ],
)
def test_every_usage_error_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Click's own refusals (an unknown option, a value that is no number) and the commands' (a count
    out of range) alike: one line on stderr, exit status 2, no usage block, no box."""
    code, out, err = error_of(args, capsys)
    assert code == 2
    assert out == ""
    assert err.splitlines() == [message]


FRESH_PROCESS = """
import sys
from kniffel.apps.cli.entry import main
try:
    main(sys.argv[1:])
except SystemExit as ended:
    print("exit", ended.code, "typer.rich_utils" in sys.modules, file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("args", "last_lines"),
    [
        (["rules", "--json"], ["exit 0 False"]),
        (
            ["score", "--bogus"],
            ["kniffel: error: No such option: --bogus (see kniffel score --help)", "exit 2 True"],
        ),
    ],
)
def test_a_fresh_process_formats_usage_errors_only_when_there_is_one(
    args: list[str], last_lines: list[str]
) -> None:
    """Typer's error formatting (Rich's Markdown: 33 ms of every command) is imported only for an error,
    and is one line then, as in a process that had imported it before."""
    ended = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS, *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert ended.stderr.splitlines()[-len(last_lines) :] == last_lines
