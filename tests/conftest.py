"""What every test of the run shares: the session's table cache and environment, the Hypothesis profiles,
and the order of a whole run.

Helpers live in the support package (``from support.rules import ruleset``): a ``conftest`` module is
pytest's to import, once per folder, and importing from one would pick whichever was imported last."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from kniffel.core import WARM_UP_ENV
from kniffel.core.runtime.pace import ENV as PACE_ENV
from kniffel.planning.winning import PREPARE_ENV
from support.warmup import prepare_for_servers

# Property tests run a modest number of examples by default so the core suite stays within seconds;
# HYPOTHESIS_PROFILE=thorough digs deeper when hunting a bug.
settings.register_profile(
    "default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# A test's clients are many people at one address, asking far more than a person: every server and app
# of the run gets a generous allowance of requests per address, and the tests of that allowance set
# their own (tests/apps/web/test_bounds.py).
os.environ.setdefault("KNIFFEL_REQUEST_RATE", "1000")
os.environ.setdefault("KNIFFEL_REQUEST_BURST", "100000")


# --- solver tables for the advisor, bot and review tests ------------------------------------------


SHARED_CACHE_ENV = "KNIFFEL_TEST_CACHE_DIR"
"""A table cache for the session that outlives it: ``scripts/test`` runs the browser tests in a second
session after the others, and with this set the second reads the tables the first solved."""


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One table cache for the whole session (``KNIFFEL_CACHE_DIR``), so each table is solved once and
    the user's own cache is neither read nor written. Set before the first test, so that every process
    a test starts (web servers, the CLI under pexpect) inherits it too."""
    shared = os.environ.get(SHARED_CACHE_ENV)
    if shared:
        directory = Path(shared)
        directory.mkdir(parents=True, exist_ok=True)
    elif os.environ.get("PYTEST_XDIST_WORKER"):
        # one cache for every worker of the run (beside the workers' own temporary directories): a
        # table is solved by one worker while the others wait for it (the cache's lock file), not by each
        directory = tmp_path_factory.getbasetemp().parent / "solver-cache"
        directory.mkdir(exist_ok=True)
    else:
        directory = tmp_path_factory.mktemp("solver-cache")
    before = os.environ.get("KNIFFEL_CACHE_DIR")
    os.environ["KNIFFEL_CACHE_DIR"] = str(directory)
    # A hint in any game of two would otherwise start solving that rule set's win tables in the
    # background (minutes of both cores); the tests of chances of winning solve theirs themselves.
    prepare = os.environ.get(PREPARE_ENV)
    os.environ[PREPARE_ENV] = "0"
    # Finished games go to a record of the session's own, never the user's (kniffel.services.record).
    record = os.environ.get("KNIFFEL_RECORD_DIR")
    os.environ["KNIFFEL_RECORD_DIR"] = str(tmp_path_factory.mktemp("record"))
    # Every server and full-screen game a test starts would start a warm-up compiling what the session
    # compiles anyway (kniffel.core.warm); tests/core/test_warm.py runs it itself.
    no_warm_up = os.environ.get(WARM_UP_ENV)
    os.environ[WARM_UP_ENV] = "0"
    # Estimates read the constants, not this machine's measured pace: whether a test's solve is waited
    # for must not follow the load of the machine (tests/core/test_pace.py turns it on for itself).
    paced = os.environ.get(PACE_ENV)
    os.environ[PACE_ENV] = "0"
    yield directory
    for name, value in (
        ("KNIFFEL_CACHE_DIR", before),
        (PREPARE_ENV, prepare),
        ("KNIFFEL_RECORD_DIR", record),
        (WARM_UP_ENV, no_warm_up),
        (PACE_ENV, paced),
    ):
        if value is None:
            del os.environ[name]
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def prepared_solver(solver_cache: Path) -> Path:
    """The session's table cache holding the tables the web servers of the tests use, with the solver's
    kernels compiled: a whole game is reviewed and a position hinted, as a server will
    (:func:`support.warmup.prepare_for_servers`).

    A page or a client waits a fixed time for each step. On a fresh checkout a server's first review of
    a Kniffel game would compile numba's kernels and solve the Kniffel table while the page waits, which
    has taken longer than any sensible wait on a busy machine. Done here once, before a server starts,
    the kernels land in numba's on-disk cache and the table in ``solver_cache``, which servers read."""
    prepare_for_servers()
    return solver_cache


# --- the order of a whole run, and the kernels compiled beside it ------------------------------------

WARMUP_ENV = "KNIFFEL_TEST_WARMUP"
"""``1`` starts :mod:`support.warmup` beside a run of at least :data:`WARMUP_FROM` tests; by default it
does not run: on a shared two-core machine (other work on the second core) whole runs with it took 868 s
and 770 s, without it 785 s, all with a cold kernel cache: no gain measured there. Worth measuring on a
quiet machine, where the second core idles while numba compiles on the first."""
WARMUP_FROM = 300
"""Tests in a run from which :mod:`support.warmup` starts: a file or two compiles what it needs itself,
and a warm-up process would only take the other processor from it."""

POSTGRES = "postgres"
"""The xdist group of every test of the PostgreSQL test database: a test whose id names it (a database
parameter, ``[postgres]``), and every test of a module that marks itself with the group (a module all of
whose tests use that database, ``tests/apps/web/test_cluster.py``). A run on several processes
(``scripts/test`` runs ``pytest -n``) gives the group to one worker (``--dist loadgroup``): they share one
database, and tests of two servers writing it at once were written for one server at a time."""


def _part(item: pytest.Item) -> int:
    if item.get_closest_marker("e2e") is not None:
        return 3
    if item.get_closest_marker("compiles_nothing") is not None:
        return 0
    return 1 if item.get_closest_marker("slow") is not None else 2


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups marked here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``compiles_nothing`` run first, so that :mod:`support.warmup` has compiled the kernels
    the next ones ask for by the time they do; then the tests marked ``slow`` (on several workers a long
    test started last keeps one worker busy after the others are done), then the rest; the browser tests
    (marked ``e2e`` by their folder's ``conftest.py``) run last: by then the other tests have compiled the
    kernels and solved the tables their servers read. Within each part the order is pytest's own.

    The marks are set where the tests are, never by a list of files here: a folder whose every test
    compiles nothing marks them in its own ``conftest.py`` (the layers below the core), a module elsewhere
    by its ``pytestmark``; so a file moved or renamed keeps its place. ``scripts/test`` runs the browser
    tests after the rest, the rest on a worker per processor."""
    for item in items:
        if POSTGRES in item.nodeid and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(POSTGRES))
    items.sort(key=_part)  # stable: each part keeps its order


_warmup: dict[str, Any] = {}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start :mod:`support.warmup` beside a run of many tests when asked to (see :data:`WARMUP_ENV`)."""
    if os.environ.get(WARMUP_ENV) != "1" or len(session.items) < WARMUP_FROM or os.cpu_count() == 1:
        return
    if session.config.option.collectonly:
        return
    directory = Path(tempfile.mkdtemp(prefix="kniffel-warmup-"))  # its tables and log; removed after
    _warmup["directory"] = directory
    with (directory / "log").open("w", encoding="utf-8") as out:
        _warmup["process"] = subprocess.Popen(
            [sys.executable, str(Path(__file__).parent / "support" / "warmup.py"), str(directory)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _stop_warmup() -> list[str]:
    """Stop the warm-up if it still runs, remove its directory; the lines of its log."""
    process: subprocess.Popen[bytes] | None = _warmup.pop("process", None)
    if process is not None and process.poll() is None:
        process.terminate()
        process.wait(30)
    directory: Path | None = _warmup.pop("directory", None)
    if directory is None:
        return []
    lines = (directory / "log").read_text(encoding="utf-8").splitlines()
    shutil.rmtree(directory, ignore_errors=True)
    return lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What the warm-up compiled and in how long, or why it failed (it stops when the run does)."""
    if "process" not in _warmup:
        return
    lines = _stop_warmup()
    terminalreporter.section("kernels compiled beside the run")
    for line in lines:
        terminalreporter.write_line(line)


def pytest_unconfigure(config: pytest.Config) -> None:
    _stop_warmup()
