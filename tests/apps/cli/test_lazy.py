"""The command line builds only the invoked command's parameters (:mod:`kniffel.apps.cli.lazy`), and what
it shows is what Typer's command, every subcommand built, shows: the help, in both languages, and the
errors."""

from __future__ import annotations

import pytest
import typer

from kniffel.apps.cli import app, entry, main
from kniffel.apps.cli.lazy import LazyGroup, command_of

ASKED = [
    [],
    ["--help"],
    ["--lang", "de"],
    ["--lang", "de", "--help"],
    ["rules", "--help"],
    ["--lang", "de", "advise", "--help"],
    ["simulate", "--lang", "de", "--help"],
    ["cache", "--help"],
    ["--lang", "de", "cache", "prepare", "--help"],
    ["cache", "clear", "--bogus"],
    ["--lang", "de", "score", "--bogus"],
    ["nosuch"],
    ["--lang", "de", "score", "-r", "nosuch", "12345"],
    ["simulate", "--games", "x"],
    ["rules", "yahtzee", "--json"],
    ["score", "--rules", "yahtzee", "--dice", "23455", "--sheet", "ones=3"],
]


def shown(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    code = None
    try:
        main(args)
    except SystemExit as end:
        code = end.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args", ASKED, ids=" ".join)
def test_what_is_shown_is_what_the_whole_command_shows(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LANG", "C")
    lazy = shown(args, capsys)
    with monkeypatch.context() as whole:
        whole.setattr(entry, "command_of", typer.main.get_command)
        built = shown(args, capsys)
    assert lazy == built
    assert lazy[1] or lazy[2]


def test_only_the_invoked_command_is_built() -> None:
    group = command_of(app)
    assert isinstance(group, LazyGroup)
    assert "score" in group.later
    assert not group.commands["score"].params
    context = group.make_context("kniffel", ["score", "--help"], resilient_parsing=True)
    name, command, _ = group.resolve_command(context, ["score", "--help"])
    assert name == "score"
    assert command is group.commands["score"]
    assert "score" not in group.later
    assert command.params
    assert "rules" in group.later
    assert not group.commands["rules"].params
    cache = group.commands["cache"]
    assert isinstance(cache, LazyGroup)
    assert set(cache.later) == {"clear", "prepare", "compile"}
