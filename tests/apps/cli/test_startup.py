"""Commands that need no solver start at once: ``kniffel --help``, ``rules``, ``score``, ``stats`` and
``cache`` import neither numba nor the solver's kernels, nor numpy or Pydantic (each alone takes about
as long as Typer), nor Babel (numbers are written without its locale data), and each imports no more of
the library than it uses (:data:`UNUSED`), checked in a fresh interpreter as the console script runs
them. ``benchmarks/startup.py`` times them against ``python -c "import typer, rich"``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kniffel import Game, SeededDice, bots, rules
from kniffel.services.record import record_finished_game

LIGHT = (
    ("--help",),
    ("rules",),
    ("rules", "yahtzee"),
    ("score", "--rules", "yahtzee", "--dice", "23455", "--sheet", "ones=3"),
    ("stats",),
    ("cache",),
)
"""The commands, as people type them."""

HEAVY = ("numba", "llvmlite", "numpy", "kniffel.core.kernels", "markdown_it", "pygments", "pydantic", "babel")
"""What none of them imports (nor anything under it): the solver and numpy, what Typer's help
formatting imports from Rich for Markdown help and pretty tracebacks, which this command line never
shows (:data:`kniffel.apps.cli.language.DEFERRED`), Pydantic, through which Typer would read the
values (:mod:`kniffel.apps.cli.values` reads them), and Babel, whose locale data took longer to load
than a short command's work (:func:`kniffel.base.i18n.number` writes English and German without it)."""

UNUSED = {
    "--help": ("kniffel.rules", "kniffel.engine", "kniffel.planning", "kniffel.services", "kniffel.core"),
    "rules": ("kniffel.engine", "kniffel.planning", "kniffel.services", "kniffel.core"),
    "score": ("kniffel.planning", "kniffel.services", "kniffel.core"),
    "stats": ("kniffel.core",),
    "cache": ("kniffel.engine", "kniffel.planning", "kniffel.services"),
}
"""What of the library each command does not use, so does not import: the modules that declare the
commands import what a command needs where it runs (only the invoked one's parameters are built,
:mod:`kniffel.apps.cli.lazy`)."""

RUN = """
import json, sys
from kniffel.apps.cli import main
sys.argv = ["kniffel", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\n" + json.dumps(sorted(sys.modules)) + "\\n")
"""


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A record holding a finished game, so that ``kniffel stats`` shows a table."""
    directory = tmp_path_factory.mktemp("record")
    game = Game(rules.get("yahtzee"), ["Ada", "Bob"], dice=SeededDice(1))
    bots.play(game, [bots.make("bot"), bots.make("bot")])
    record_finished_game(game, [0], review_now=False, path=directory / "record.json")
    return directory


@pytest.mark.parametrize("argv", LIGHT, ids=" ".join)
def test_a_command_without_the_solver_imports_none_of_it(
    argv: tuple[str, ...], record: Path, solver_cache: Path
) -> None:
    # the session's table cache holds tables by now or soon: listing them reads their keys
    env = {**os.environ, "KNIFFEL_RECORD_DIR": str(record), "KNIFFEL_CACHE_DIR": str(solver_cache)}
    done = subprocess.run(
        [sys.executable, "-c", RUN, *argv], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the command printed what it shows"
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    unused = (*HEAVY, *UNUSED[argv[0]])
    heavy = [name for name in loaded if any(name == h or name.startswith(h + ".") for h in unused)]
    assert not heavy, f"kniffel {' '.join(argv)} imported {heavy[:5]}"


HELP = """
import sys
if sys.argv[1] == "real":
    import rich.markdown, rich.traceback
from kniffel.apps.cli import main
asked = (["--help"], ["advise", "--help"], ["--lang", "de", "play", "--help"], ["cache", "prepare", "--help"])
for args in asked:
    try:
        main(args)
    except SystemExit:
        pass
"""


def test_the_help_is_the_same_without_what_it_never_shows() -> None:
    """The help formatted while Rich's Markdown and Traceback are stand-ins is the help formatted with
    them."""
    shown = [
        subprocess.run(
            [sys.executable, "-c", HELP, way],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1"},
            timeout=120,
            check=True,
        ).stdout
        for way in ("stand-ins", "real")
    ]
    assert "Usage: kniffel advise" in shown[0]
    assert shown[0] == shown[1]
