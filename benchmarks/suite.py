"""How long the README's test command takes on a fresh clone: ``.ci/run`` in a clone of this repository's
last commit, as the landing check runs it, timed as a whole and by phase.

    .venv/bin/python benchmarks/suite.py [--runs 2] [--cold] [--record]

Each run clones the commit afresh and runs ``CI=true bash .ci/run`` in it; its output is read as it comes,
so the phases are timed where ``scripts/test`` moves on: installing (the virtual environment and the test
extra), the tests (every test but the browser's, on a worker per processor), the browser tests, and the
checks (ruff, mypy, the documentation's build).

* ``--runs N``: N runs one after the other (2 by default). The first run of a commit solves the tables
  its tests need (kept in the user's cache, named by the solver's sources); the next runs read them.
  Compiled kernels, mypy's cache and the peer's tables are kept there too, by their own keys.
* ``--cold``: the runs get a cache directory of their own (``XDG_CACHE_HOME`` in a new temporary
  folder), so the first is a machine's first run: every kernel compiled, every file checked by mypy,
  every table solved. pip's and uv's caches stay the user's, so no download is timed.

Nothing here is a test: timings depend on the machine and its load, which is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import machine

ROOT = Path(__file__).resolve().parent.parent
PHASES = ("install", "tests", "browser tests", "checks")
SUMMARY = re.compile(r"\d+ (?:passed|failed)\b.* in [\d.]+s")
"""The last line of a pytest session (``2820 passed, 2 warnings in 451.63s``)."""


def one_run(commit: str, folder: Path, env: dict[str, str], log: Path) -> dict[str, Any]:
    """Clone ``commit`` into ``folder`` and run its ``.ci/run``; the phases' seconds and what pytest said."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "checkout", "--quiet", commit], check=True)
    marks: dict[str, float] = {"install": start}
    sessions: list[str] = []
    with log.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(
            ["bash", ".ci/run"],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert process.stdout is not None
        for line in process.stdout:
            out.write(line)
            now = time.perf_counter()
            if line.startswith("bringing up nodes"):  # pytest-xdist starts the first session's workers
                marks.setdefault("tests", now)
            elif line.startswith("ruff, mypy"):
                marks["checks"] = now
            elif found := SUMMARY.search(line):
                sessions.append(found.group(0))
                if len(sessions) == 1:  # the browser tests' session begins as the first ends
                    marks["browser tests"] = now
        code = process.wait()
    end = time.perf_counter()
    edges = [marks.get(phase) for phase in PHASES]
    seconds: dict[str, float | None] = {}
    for i, phase in enumerate(PHASES):
        begun = edges[i]
        later = [edge for edge in edges[i + 1 :] if edge is not None]
        seconds[phase] = None if begun is None else (later[0] if later else end) - begun
    return {
        "seconds": end - start,
        "phases": seconds,
        "exit": code,
        "sessions": sessions,
        "load": load,
    }


def measure(runs: int, cold: bool) -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="kniffel-suite-"))
    env = {**os.environ, "CI": "true", "PYTHONUNBUFFERED": "1"}  # each line as it is written
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "KNIFFEL_TEST_CACHE_DIR", "NUMBA_CACHE_DIR"):
        env.pop(name, None)
    if cold:
        pip_cache = subprocess.run(
            [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True
        ).stdout.strip()
        uv_cache = os.environ.get("UV_CACHE_DIR") or str(
            Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "uv"
        )
        env["XDG_CACHE_HOME"] = str(folder / "cache")
        if pip_cache:
            env["PIP_CACHE_DIR"] = pip_cache
        env["UV_CACHE_DIR"] = uv_cache
    done = []
    try:
        for number in range(runs):
            log = folder / f"run-{number + 1}.log"
            clone = folder / f"clone-{number + 1}"
            result = one_run(commit, clone, env, log)
            done.append(result)
            if result["exit"] != 0:  # its output and the snapshot tests' report outlive the clone
                kept = Path(tempfile.mkdtemp(prefix=f"kniffel-suite-run-{number + 1}-failed-"))
                shutil.copy(log, kept)
                if (clone / "snapshot_report.html").exists():
                    shutil.copy(clone / "snapshot_report.html", kept)
                print(f"run {number + 1} failed (exit {result['exit']}); see {kept}", file=sys.stderr)
            shutil.rmtree(clone, ignore_errors=True)
            if result["exit"] != 0:
                break
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"commit": commit, "cold": cold, "runs": done}


def rows_of(result: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for number, run in enumerate(result["runs"], start=1):
        name = f"run {number}" + (", a machine's first" if result["cold"] and number == 1 else "")
        phases = [run["phases"][phase] for phase in PHASES]
        rows.append([name, run["seconds"], *phases, run["load"], run["exit"]])
    return rows


COLUMNS = ["run", "seconds", *(f"{phase} s" for phase in PHASES), "load at start", "exit"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="runs one after the other (default 2)")
    parser.add_argument("--cold", action="store_true", help="a cache directory of the runs' own")
    parser.add_argument("--json", action="store_true")
    machine.add_record_option(parser)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs is at least 1")
    ran_on = machine.describe(numba_info=False)
    if not args.json:
        print(machine.header(ran_on), flush=True)
    result = measure(args.runs, args.cold)
    machine.finish(ran_on)
    rows = rows_of(result)
    if args.record is not None:
        note = "each run a fresh clone of one commit, one after the other" + (
            ", with a cache directory of their own" if args.cold else ", with the user's cache directory"
        )
        machine.record("suite", ran_on, COLUMNS, rows, args.record, note=note)
    if args.json:
        print(json.dumps({"machine": ran_on, "results": [result]}, indent=1))
        return
    print(f"{'run':<28} {'total':>8} " + " ".join(f"{phase:>14}" for phase in PHASES) + "   load  exit")
    for row in rows:
        cells = " ".join(f"{value:>14.0f}" if value is not None else f"{'-':>14}" for value in row[2:6])
        print(f"{row[0]:<28} {row[1]:>8.0f} {cells}   {row[6]:>4.1f}  {row[7]}")
    for number, run in enumerate(result["runs"], start=1):
        print(f"run {number}: " + "; ".join(run["sessions"]))


if __name__ == "__main__":
    main()
