"""How soon the commands that need no solver answer: ``kniffel --help``, ``rules``, ``score``, ``stats``
and ``cache``, each a whole process, against ``python -c "import typer, rich"`` measured in the same run.

    .venv/bin/python benchmarks/startup.py [--repeat 15] [--json]

The processes run in rounds, one of each per round, so that a change in the machine's load falls on all
of them alike; each figure is the best of ``--repeat`` rounds (the least disturbed), its ratio to the
yardstick's best beside it, and which of them imported numba or numpy (none should:
``tests/apps/cli/test_startup.py`` holds it). ``kniffel stats`` reads a record of one game and ``kniffel
cache`` lists a cache holding the expected-score table of Yahtzee, both made first in a folder of their
own, and beside them a kernels folder of their own holding this version's compiled kernels alone (a
link to them). ``kniffel cache, the user's kernels`` lists the user's kernels folder instead: with it
every earlier version's kernels still kept there (for a week after their last use), a row each, so
that its time says how many this machine keeps rather than how soon the command starts.

Nothing here is a test: timings depend on the machine and its load, which is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import machine

PYTHON = sys.executable
KNIFFEL = str(Path(PYTHON).parent / "kniffel")
YARDSTICK = "python -c 'import typer, rich'"
USERS_KERNELS = "kniffel cache, the user's kernels"

COMMANDS: dict[str, list[str]] = {
    YARDSTICK: [PYTHON, "-c", "import typer, rich"],
    "kniffel --help": [KNIFFEL, "--help"],
    "kniffel rules": [KNIFFEL, "rules"],
    "kniffel rules yahtzee": [KNIFFEL, "rules", "yahtzee"],
    "kniffel score": [KNIFFEL, "score", "--rules", "yahtzee", "--dice", "23455", "--sheet", "ones=3"],
    "kniffel stats": [KNIFFEL, "stats"],
    "kniffel cache": [KNIFFEL, "cache"],
    USERS_KERNELS: [KNIFFEL, "cache"],
}

PROBE = """
import runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
heavy = sorted(m for m in ("numba", "numpy") if m in sys.modules)
sys.stderr.write("\\nimported: " + " ".join(heavy) + "\\n")
"""


def prepared(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The environments the commands run in: a record of one finished game and a cache holding a table,
    with a kernels folder of their own (and with the user's, for :data:`USERS_KERNELS`)."""
    env = {**os.environ, "KNIFFEL_CACHE_DIR": str(folder / "cache"), "KNIFFEL_RECORD_DIR": str(folder)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a person's shell runs them: the compiled modules kept
    make = """
from kniffel import Game, SeededDice, bots, rules
from kniffel.core import kernels_cache_dir, table
from kniffel.services.record import record_finished_game
game = Game(rules.get("yahtzee"), ["Ada", "Bob"], dice=SeededDice(1))
bots.play(game, [bots.make("bot"), bots.make("bot")])
record_finished_game(game, [0], review_now=False)
table(rules.get("yahtzee"))
print(kernels_cache_dir())
"""
    done = subprocess.run([PYTHON, "-c", make], env=env, check=True, capture_output=True, text=True)
    kernels = Path(done.stdout.splitlines()[-1])
    own = folder / "numba"
    own.mkdir()
    (own / kernels.name).symlink_to(kernels, target_is_directory=True)
    return {**env, "NUMBA_CACHE_DIR": str(own)}, env


def seconds(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def imported(argv: list[str], env: dict[str, str]) -> list[str]:
    """What of numba and numpy the command imports (the yardstick: none asked)."""
    if argv[0] != KNIFFEL:
        return []
    done = subprocess.run([PYTHON, "-c", PROBE, *argv], env=env, capture_output=True, text=True, check=True)
    line = [text for text in done.stderr.splitlines() if text.startswith("imported:")][-1]
    return line.removeprefix("imported:").split()


def measure(repeat: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="kniffel-startup-"))
    try:
        own, users = prepared(folder)
        envs = {name: users if name == USERS_KERNELS else own for name in COMMANDS}
        for name, argv in COMMANDS.items():  # the files each reads, in the system's cache before timing
            seconds(argv, envs[name])
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for _ in range(repeat):
            for name, argv in COMMANDS.items():
                times[name].append(seconds(argv, envs[name]))
        yardstick = min(times[YARDSTICK])
        return {
            "repeat": repeat,
            "rows": {
                name: {
                    "seconds": min(found),
                    "median": sorted(found)[len(found) // 2],
                    "ratio": min(found) / yardstick,
                    "imported": imported(COMMANDS[name], envs[name]),
                }
                for name, found in times.items()
            },
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    machine.add_record_option(parser)
    args = parser.parse_args()
    ran_on = machine.describe(numba_info=False)
    if not args.json:
        print(machine.header(ran_on), flush=True)
    result = measure(args.repeat)
    machine.finish(ran_on)
    if args.record is not None:
        rows = [
            [name, row["seconds"], row["median"], row["ratio"], ", ".join(row["imported"]) or "-"]
            for name, row in result["rows"].items()
        ]
        columns = ["command", "seconds", "median s", "x import typer, rich", "numba, numpy imported"]
        machine.record("startup", ran_on, columns, rows, args.record, note=f"best of {args.repeat} rounds")
    if args.json:
        print(json.dumps({"machine": ran_on, "results": [result]}, indent=1))
        return
    print(f"best of {result['repeat']} rounds (load {os.getloadavg()[0]:.1f})")
    print(f"  {'command':<34} {'seconds':>8} {'median':>8} {'x yardstick':>12}  imports")
    for name, row in result["rows"].items():
        heavy = ", ".join(row["imported"]) or "-"
        print(f"  {name:<34} {row['seconds']:>8.3f} {row['median']:>8.3f} {row['ratio']:>12.2f}  {heavy}")
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
