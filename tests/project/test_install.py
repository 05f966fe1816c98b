"""An editable install compiles the kernels of a new user's first commands (``tools/kniffel_build.py``,
:mod:`kniffel.services.install`)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kniffel import core
from kniffel.services import install
from support.kernels import kernels_compiled_after
from support.paths import ROOT

INSTALL = """
from kniffel.services import install

install.play_and_advise()
install.questions()
"""

FIRST_COMMANDS = """
import io
from kniffel import rules
from kniffel.core import play_games
from kniffel.core import ColumnPosition
from kniffel.core import TargetAdvisor, solve_rows
from kniffel.planning.exact import advisor_for
from kniffel.services.batch import run_batch
from kniffel.services.simulate import simulate
from kniffel.services.tournament import Tournament, tournament

yahtzee = rules.get("yahtzee")
advisor = advisor_for(yahtzee)  # a new user's first commands: a solve, ...
advisor.options(ColumnPosition({"ones": 3}, (6, 6, 6, 2, 1), 1))  # ... advice, one position and a batch
line = '{"sheet": {}, "dice": [1, 2, 3, 4, 5], "rolls_left": 2}'
run_batch(advisor, yahtzee, io.StringIO(line), io.StringIO())
sheet = {"ones": 3, "twos": 6, "chance": 22, "full_house": 25, "yahtzee": 50, "sixes": 24}
rows = solve_rows(advisor.compiled, root=advisor.state(sheet), low=120, high=120)  # a target question
TargetAdvisor(advisor, rows).options(ColumnPosition(sheet, (2, 2, 3, 5, 5), 2), 120)
play_games(advisor.solution, 100, seed=3)  # optimal games, and the quick bot's on four columns
simulate(rules.get("kniffel-4col"), strategy="bot", games=2, seed=5)
# compiled games with a player for a target and none to win (a small cone: the strict order)
strict = rules.get("kniffel", {"strict": "on"})
tournament(Tournament(strict, ["bot:target:150", "bot:optimal"], deals=2, seed=1))
"""


def test_after_the_install_compiled_the_first_commands_compile_nothing(solver_cache: Any) -> None:
    """The install's work is on rule sets of its own (strict Kniffel, three columns) with made-up
    situations; a new user's first commands (another rule set, solved values, other positions) must run
    the very kernels it compiled, in a fresh process: numba compiles again for an argument of another
    type, and a kernel the install never called would be compiled by the command."""
    assert kernels_compiled_after(INSTALL, FIRST_COMMANDS) == []


def test_the_install_writes_no_table_into_the_users_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Its tables go to a directory of its own, gone afterwards; the user's setting is back."""

    seen: list[str] = []
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(core, "processors", lambda: 1)  # both parts in this process
    monkeypatch.setattr(install, "play_and_advise", lambda: seen.append(os.environ["KNIFFEL_CACHE_DIR"]))
    monkeypatch.setattr(install, "questions", lambda: seen.append(os.environ["KNIFFEL_CACHE_DIR"]))
    assert install.main([]) == 0
    assert len(seen) == 2
    assert seen[0] == seen[1] != str(tmp_path)
    assert not Path(seen[0]).exists()
    assert os.environ["KNIFFEL_CACHE_DIR"] == str(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_install_compiles_nothing_when_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(install.SKIP_ENV, "0")
    monkeypatch.setattr(install, "compile_kernels", lambda: pytest.fail("compiled"))
    assert install.main([]) == 0


@pytest.fixture
def backend() -> ModuleType:
    """``tools/kniffel_build.py``, the build backend pip runs (with setuptools, as the build requires)."""
    pytest.importorskip("setuptools")
    spec = importlib.util.spec_from_file_location("kniffel_build", ROOT / "tools" / "kniffel_build.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_editable_build_compiles_the_kernels_after_setuptools_built_it(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the sources the install points at first on the path, and the wheel setuptools built."""
    done: list[Any] = []
    monkeypatch.delenv(backend.SKIP_ENV, raising=False)

    def build_editable(*args: Any) -> str:
        done.append("wheel")
        return "k.whl"

    monkeypatch.setattr(backend.build_meta, "build_editable", build_editable)

    def run(argv: list[str], env: dict[str, str], timeout: int) -> subprocess.CompletedProcess[str]:
        done.append((argv[1:], env["PYTHONPATH"].split(os.pathsep)[0]))
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(backend.subprocess, "run", run)
    assert backend.build_editable("dist") == "k.whl"
    assert done == ["wheel", (["-m", "kniffel.services.install"], str(ROOT / "src"))]
    # the other hooks are setuptools' own
    assert backend.build_wheel is backend.build_meta.build_wheel
    assert backend.get_requires_for_build_editable is backend.build_meta.get_requires_for_build_editable


@pytest.mark.parametrize(
    "outcome",
    [subprocess.CompletedProcess([], 1), subprocess.TimeoutExpired("python", 1800), OSError("no python")],
)
def test_an_install_whose_compiling_fails_goes_on(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], outcome: Any
) -> None:
    """The kernels then compile at their first use; the install says so and succeeds."""
    monkeypatch.delenv(backend.SKIP_ENV, raising=False)

    def run(*args: Any, **kwargs: Any) -> Any:
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    monkeypatch.setattr(backend.subprocess, "run", run)
    assert backend.compile_kernels() is False
    assert "will be at their first use" in capsys.readouterr().err


def test_an_install_told_not_to_compile_runs_nothing(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(backend.SKIP_ENV, "0")
    monkeypatch.setattr(backend.subprocess, "run", lambda *args, **kwargs: pytest.fail("ran"))
    assert backend.compile_kernels() is False


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "The solver is compiled (42 s)."), ("de", "Der Löser ist vorbereitet (42 s).")]
)
def test_kniffel_cache_compile_does_what_an_editable_install_does(
    monkeypatch: pytest.MonkeyPatch, lang: str, said: str
) -> None:
    """For an install that did not (another numba, a wheel, the variable set): the same work, its time."""
    from typer.testing import CliRunner

    from kniffel.apps.cli import app

    monkeypatch.setattr(install, "compile_kernels", lambda: 42.0)
    done = CliRunner().invoke(app, ["cache", "compile", "--lang", lang], env={"COLUMNS": "120"})
    assert done.exit_code == 0, done.output
    assert said in done.output


def test_the_second_process_ends_with_a_failed_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where this process's part fails (or is interrupted), the other part does not go on alone."""

    started: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def popen(argv: list[str]) -> subprocess.Popen[bytes]:
        started.append(real_popen([sys.executable, "-c", "import time; time.sleep(600)"]))
        return started[0]

    def questions() -> None:
        raise RuntimeError("a kernel failed")

    monkeypatch.setattr(core, "processors", lambda: 2)
    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.setattr(install, "questions", questions)
    with pytest.raises(RuntimeError, match="a kernel failed"):
        install.compile_kernels()
    assert started[0].poll() is not None


def test_the_second_process_does_its_part_whatever_the_install_variable_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``kniffel cache compile`` compiles with ``KNIFFEL_COMPILE_AT_INSTALL=0`` set too."""
    done: list[str] = []
    monkeypatch.setenv(install.SKIP_ENV, "0")
    monkeypatch.setattr(install, "play_and_advise", lambda: done.append("played"))
    assert install.main(["--part", "play"]) == 0
    assert done == ["played"]


def test_kniffel_cache_compile_says_what_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from kniffel.apps.cli import app

    def failing() -> float:
        raise RuntimeError("compiling the kernels of play failed (exit status 1)")

    monkeypatch.setattr(install, "compile_kernels", failing)
    done = CliRunner().invoke(app, ["cache", "compile"], env={"COLUMNS": "120"})
    assert done.exit_code != 0
    assert "compiling the kernels of play failed (exit status 1)" in done.output
    assert "Traceback" not in done.output
