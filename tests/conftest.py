"""Shared helpers for the core tests: building rule sets, asking where dice may go, driving games.

The helpers are plain functions (imported as ``from conftest import ...``) rather than fixtures, so
that parametrised tables can call them directly and mypy sees their signatures.
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from kniffel import Game, ScoreSheet, SeededDice, rules
from kniffel.core import WARM_UP_ENV
from kniffel.core.runtime.pace import ENV as PACE_ENV
from kniffel.engine.actions import Action, Roll, Score, Strike
from kniffel.planning.winning import PREPARE_ENV
from kniffel.rules import RuleSet
from warmup import prepare_for_servers

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
# their own (tests/test_web_bounds.py).
os.environ.setdefault("KNIFFEL_REQUEST_RATE", "1000")
os.environ.setdefault("KNIFFEL_REQUEST_BURST", "100000")


def ruleset(rules_id: str, **options: str) -> RuleSet:
    """``ruleset("yahtzee", joker="free")``."""
    return rules.get(rules_id, options)


def where(
    rs: RuleSet,
    sheet: str,
    dice: Sequence[int],
    *,
    at_once: bool = False,
    announced: str | None = None,
) -> dict[str, tuple[int, int]]:
    """Every box the dice may be scored in on the sheet ``sheet`` (``"kniffel=50,threes=9"``), as
    ``{box: (points, bonus)}``."""
    filled = ScoreSheet.parse(rs, sheet).entries
    options = rules.placements(rs, filled, tuple(sorted(dice)), thrown_at_once=at_once, announced=announced)
    return {key: (p.points, p.bonus) for key, p in options.items()}


def fill_except(rs: RuleSet, keep_free: Iterable[str], points: Mapping[str, int] | None = None) -> str:
    """Sheet text with every box struck except ``keep_free``; ``points`` overrides single entries."""
    free = set(keep_free)
    points = dict(points or {})
    items = [f"{key}={points.pop(key, 0)}" for key in rs.box_keys if key not in free]
    assert not points, f"entries for boxes left free: {points}"
    return ",".join(items)


DATA = Path(__file__).parent / "data"


@functools.cache
def seed_examples() -> dict[str, Any]:
    """``tests/data/seed_examples.json``: the seeds' own examples, each with its seed file and words."""
    data: dict[str, Any] = json.loads((DATA / "seed_examples.json").read_text(encoding="utf-8"))
    return data


def seed_sheet(rs: RuleSet, case: Mapping[str, Any]) -> str:
    """The sheet of a seed example as text: its ``sheet``, and with ``all_other_boxes_struck_but`` every
    other box struck except those."""
    sheet: str = case["sheet"]
    if "all_other_boxes_struck_but" not in case:
        return sheet
    return fill_except(rs, case["all_other_boxes_struck_but"], ScoreSheet.parse(rs, sheet).entries)


def batch_situation(rs: RuleSet, rng: random.Random) -> dict[str, Any]:
    """A situation of a one-column rule set the advisor takes, as a batch line's object: a sheet with
    points its boxes can hold (a prefix of the boxes where the column is filled in order), any number of
    throws left, thrown at once or not, free throws left and used where the rules have them."""
    from kniffel.engine.sheet import possible_points

    boxes = [box.id for box in rs.boxes]
    if rs.columns[0].order.sequential:
        chosen = boxes[: rng.randrange(len(boxes))]
    else:
        chosen = [b for b in boxes if rng.random() < 0.5][: len(boxes) - 1]
    data: dict[str, Any] = {
        "sheet": {b: rng.choice(sorted(possible_points(rs, b))) for b in chosen},
        "dice": [rng.randint(1, 6) for _ in range(rs.dice)],
        "rolls_left": rng.randrange(rs.rolls),
    }
    if rng.random() < 0.3:
        data["thrown_at_once"] = rng.random() < 0.5
    if rs.free_throws and rng.random() < 0.7:
        data["free_throws_left"] = rng.randrange(rs.free_throws + 1)
        if data["rolls_left"] == 0:
            data["free_throws_used"] = rng.randrange(rs.free_throws_per_turn + 1)
    return data


def compiled_kernels() -> dict[str, Any]:
    """Every compiled function of ``kniffel.core.kernels`` (its numba dispatcher), by the module that
    defines it and its name, as the tests of the kernels' rules read them. A loop an objective makes
    from a template (``solve_points``) is named by the module that makes it."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import kniffel.core.kernels

    found: dict[str, Any] = {}
    seen: set[int] = set()
    modules = [
        importlib.import_module(f"kniffel.core.kernels.{info.name}")
        for info in pkgutil.iter_modules(kniffel.core.kernels.__path__)
    ]
    for own in (True, False):  # first where a kernel is written, then where a template is made into one
        for module in modules:
            for name, value in vars(module).items():
                if not isinstance(value, CPUDispatcher) or id(value) in seen:
                    continue
                written = value.py_func.__module__ == module.__name__ and value.py_func.__name__ == name
                made = value.py_func.__name__ == name
                if (own and written) or (not own and made):
                    seen.add(id(value))
                    found[f"{module.__name__}.{name}"] = value
    return found


def kernels_compiled_after(prepare: str, ask: str) -> list[str]:
    """The kernels (of :func:`compiled_kernels`) that the Python statements ``ask`` compile or load for
    argument types that ``prepare`` had not, both run in that order in a fresh process: what a front end's
    first use compiles after a warm-up or an install has prepared the kernels."""
    script = "\n".join(
        [
            "import sys",
            f"sys.path.insert(0, {str(Path(__file__).parent)!r})",
            "from conftest import compiled_kernels",
            "def signatures():",
            "    return {name: set(kernel.signatures) for name, kernel in compiled_kernels().items()}",
            prepare,
            "before = signatures()",
            ask,
            "after = signatures()",
            "import json",
            "print(json.dumps(sorted(name for name in after if after[name] - before.get(name, set()))))",
        ]
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found


def new_game(rules_id: str, players: Sequence[str] = ("Ada", "Bob"), seed: int = 1, **options: str) -> Game:
    return Game(ruleset(rules_id, **options), list(players), dice=SeededDice(seed))


def turn(game: Game, *throws: Sequence[int], keep: Sequence[Sequence[int]] = (), then: Action) -> None:
    """Play one score-pad turn: the given throws in order (the n-th roll keeps ``keep[n-1]`` of the
    previous dice; ``throws`` are the full dice after each roll), then ``then`` (a Score or Strike)."""
    keeps = [(), *keep]
    assert len(keeps) == len(throws), "one keep per roll after the first"
    for kept, dice in zip(keeps, throws, strict=True):
        game.apply(Roll(keep=tuple(sorted(kept)), dice=tuple(sorted(dice))))
    assert isinstance(then, Score | Strike)
    game.apply(then)


def score(game: Game, dice: Sequence[int], box: str) -> None:
    """One-roll turn: throw ``dice`` and score them in ``box``."""
    turn(game, dice, then=Score(box))


def strike(game: Game, dice: Sequence[int], box: str) -> None:
    turn(game, dice, then=Strike(box))


def state(game: Game) -> tuple[object, ...]:
    """Everything that makes up a position, comparable with ``==``."""
    return (
        game.rules,
        game.players,
        game.current,
        game.turn,
        tuple(game.log),
        tuple((s.entries, s.extra_bonus, s.free_throws_used) for s in game.sheets),
    )


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
    # compiles anyway (kniffel.core.warm); tests/test_warm.py runs it itself.
    no_warm_up = os.environ.get(WARM_UP_ENV)
    os.environ[WARM_UP_ENV] = "0"
    # Estimates read the constants, not this machine's measured pace: whether a test's solve is waited
    # for must not follow the load of the machine (tests/test_pace.py turns it on for itself).
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
    (:func:`warmup.prepare_for_servers`).

    A page or a client waits a fixed time for each step. On a fresh checkout a server's first review of
    a Kniffel game would compile numba's kernels and solve the Kniffel table while the page waits, which
    has taken longer than any sensible wait on a busy machine. Done here once, before a server starts,
    the kernels land in numba's on-disk cache and the table in ``solver_cache``, which servers read."""
    prepare_for_servers()
    return solver_cache


# --- the order of a whole run, and the kernels compiled beside it ------------------------------------

E2E = Path(__file__).parent / "e2e"
WARMUP_ENV = "KNIFFEL_TEST_WARMUP"
"""``1`` starts :mod:`warmup` beside a run of at least :data:`WARMUP_FROM` tests; by default it does not
run: on a shared two-core machine (other work on the second core) whole runs with it took 868 s and
770 s, without it 785 s, all with a cold kernel cache: no gain measured there. Worth measuring on a
quiet machine, where the second core idles while numba compiles on the first."""
WARMUP_FROM = 300
"""Tests in a run from which :mod:`warmup` starts: a file or two compiles what it needs itself, and a
warm-up process would only take the other processor from it."""


FIRST = frozenset(
    f"test_{name}.py"
    for name in (
        "quality", "layers", "rules", "rules_json", "game", "scoring", "sheet", "legal_actions", "i18n",
        "properties", "session", "cli_help", "cli_rules", "situation", "web_fair", "benchmarks_machine",
    )
)  # fmt: skip
"""Files whose tests compile no kernel (mypy and ruff among them): a whole run starts with them, so
that :mod:`warmup` has compiled the kernels the next files ask for by the time they do."""


POSTGRES_ONLY = frozenset({"test_web_cluster.py"})
"""Files whose every test uses the PostgreSQL test database (the others name their PostgreSQL cases
``[...postgres...]``). A run on several processes (``scripts/test`` runs ``pytest -n``) gives all of
them to one worker (``--dist loadgroup``): they share one database, and tests of two servers writing it
at once were written for one server at a time."""


ONE_WORKER = frozenset({"test_env.py"})
"""Files whose tests all run on one worker: the first of them compiles kernels that nothing else the
suite runs needs (the environments' step, observation and reset, some 8 s of a core), which two workers
starting the file at once both compiled."""


def _part(item: pytest.Item) -> int:
    if E2E in item.path.parents:
        return 3
    if item.path.name in FIRST:
        return 0
    return 1 if item.get_closest_marker("slow") is not None else 2


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups marked here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Files that compile nothing run first (:data:`FIRST`), then the tests marked ``slow`` (on several
    workers a long test started last keeps one worker busy after the others are done), then the rest;
    the browser tests are marked ``e2e`` and run last (``-m "not e2e"`` leaves them out): by then the
    other tests have compiled the kernels and solved the tables their servers read. Within each part
    the order is pytest's own. ``scripts/test`` runs the browser tests after the rest, the rest on a
    worker per processor."""
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.e2e)
        if "postgres" in item.nodeid or item.path.name in POSTGRES_ONLY:
            item.add_marker(pytest.mark.xdist_group("postgres"))
        elif item.path.name in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
    items.sort(key=_part)  # stable: each part keeps its order


_warmup: dict[str, Any] = {}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start :mod:`warmup` beside a run of many tests when asked to (see :data:`WARMUP_ENV`)."""
    if os.environ.get(WARMUP_ENV) != "1" or len(session.items) < WARMUP_FROM or os.cpu_count() == 1:
        return
    if session.config.option.collectonly:
        return
    directory = Path(tempfile.mkdtemp(prefix="kniffel-warmup-"))  # its tables and log; removed after
    _warmup["directory"] = directory
    with (directory / "log").open("w", encoding="utf-8") as out:
        _warmup["process"] = subprocess.Popen(
            [sys.executable, str(Path(__file__).parent / "warmup.py"), str(directory)],
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


class ScriptedDice:
    """Dice handed to a game in a given order (``queue``): what a compiled game threw, replayed."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, ...]] = []

    def throw(self, n: int) -> tuple[int, ...]:
        dice = self.queue.pop(0)
        assert len(dice) == n
        return dice
