"""What a smaller memory allowance costs a build of early win tables: the build as a server's worker runs
it, once per allowance, each in a fresh process on a fresh copy of a cache that holds only the table of
expected points.

    .venv/bin/python benchmarks/build_allowance.py [--rules yatzy] [--allowances 192 96] [--repeat 2]
        [--json]

An allowance (:func:`kniffel.core.allow_growth`, MiB) is what a build may add to the process's memory
before it lets the pages of the files its levels pass through go; they stay in the system's file cache
and are read from there again when the build next reads them. ``kniffel serve`` gives its builds 96 MiB
(``KNIFFEL_BUILD_ALLOWANCE``), the commands and the library 192 MiB. Each build runs on one thread, as a
server's worker runs it on a machine of two processors, and reports its wall time, its processor time
(user and system, the process's own: what a loaded machine changes least), the minor page faults (pages
mapped again from the file cache, the price of letting them go), and its peak of memory (``VmHWM``) less
what the process held when the build started.

Nothing here is a test: the times depend on the machine and its load, which is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import machine

PYTHON = sys.executable

BUILD = textwrap.dedent(
    """
    import json, resource, sys, time
    from kniffel import core, rules
    from kniffel.planning.winning import win_tables

    def status(field):
        return int(open("/proc/self/status").read().split(field + ":")[1].split()[0]) * 1024

    core.allow_growth(int(sys.argv[2]) << 20)
    core.use_threads(1)
    tables = win_tables(rules.get(sys.argv[1]))
    core.give_back()
    start = status("VmRSS")
    before = resource.getrusage(resource.RUSAGE_SELF)
    began = time.perf_counter()
    tables.solve_early()
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({
        "seconds": wall,
        "cpu_seconds": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "minor_faults": after.ru_minflt - before.ru_minflt,
        "start_mb": start / 1e6,
        "peak_mb": status("VmHWM") / 1e6,
    }))
    """
)


def build(rules_id: str, allowance: int, seeded: Path) -> dict[str, Any]:
    """One build of the early win tables of ``rules_id`` under ``allowance`` MiB, on a copy of ``seeded``."""
    cache = Path(tempfile.mkdtemp(dir=seeded.parent))
    try:
        shutil.copytree(seeded, cache, dirs_exist_ok=True)
        env = {**os.environ, "KNIFFEL_CACHE_DIR": str(cache)}
        out = subprocess.run(
            [PYTHON, "-c", BUILD, rules_id, str(allowance)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        found: dict[str, Any] = json.loads(out.stdout.splitlines()[-1])
        return found
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def measure(rules_id: str, allowances: list[int], repeat: int) -> dict[str, Any]:
    base = Path(tempfile.mkdtemp(prefix="kniffel-allowance-"))
    try:
        seeded = base / "seeded"
        seeded.mkdir()
        env = {**os.environ, "KNIFFEL_CACHE_DIR": str(seeded)}
        kniffel = str(Path(PYTHON).parent / "kniffel")
        subprocess.run([kniffel, "solve", "--rules", rules_id], capture_output=True, env=env, check=True)
        runs: dict[int, list[dict[str, Any]]] = {allowance: [] for allowance in allowances}
        for _ in range(repeat):  # the allowances in turn, so that each meets the machine's changing load
            for allowance in allowances:
                runs[allowance].append(build(rules_id, allowance, seeded))
        return {"rules": rules_id, "runs": {str(allowance): found for allowance, found in runs.items()}}
    finally:
        shutil.rmtree(base, ignore_errors=True)


def rows_of(result: dict[str, Any]) -> list[list[Any]]:
    """One row per build: the allowance, its seconds, processor seconds, faults and memory."""
    return [
        [
            int(allowance),
            run["seconds"],
            run["cpu_seconds"],
            run["minor_faults"],
            run["start_mb"],
            run["peak_mb"],
            run["peak_mb"] - run["start_mb"],
        ]
        for allowance, runs in result["runs"].items()
        for run in runs
    ]


COLUMNS = ["allowance MiB", "seconds", "processor s", "minor faults", "start MB", "peak MB", "added MB"]


def show(rules_id: str, rows: list[list[Any]]) -> None:
    print(f"the early win tables of {rules_id}, one thread")
    print("  " + " ".join(f"{column:>14}" for column in COLUMNS))
    for row in rows:
        print(f"  {row[0]:>14} " + " ".join(f"{value:>14.1f}" for value in row[1:]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    machine.add_record_option(parser)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--allowances", type=int, nargs="+", default=[192, 96])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    result = measure(args.rules, args.allowances, args.repeat)
    machine.finish(ran_on)
    rows = rows_of(result)
    if args.json:
        print(json.dumps({"machine": ran_on, "results": [result]}, indent=1))
    else:
        show(args.rules, rows)
        print(machine.footer(ran_on))
    if args.record is not None:
        note = f"the early win tables of {args.rules}, one thread, each build in a process of its own"
        machine.record("build_allowance", ran_on, COLUMNS, rows, args.record, note=note)


if __name__ == "__main__":
    main()
