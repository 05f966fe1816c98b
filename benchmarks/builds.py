"""Kernels compiled for this processor and for another instruction set, side by side in one run.

``--builds native,avx2`` (the scripts that take it call :func:`add_option` and :func:`compare`) runs the
script once per build, each in a fresh process with ``--json``, and prints the figures side by side,
each with its ratio to the yardstick measured in the same build: a whole ``kniffel solve --no-cache``
(:func:`solve_seconds`). A build is an environment for numba (:data:`BUILDS`):

* ``native``: numba's default, the host's processor and features (``NUMBA_CPU_NAME`` and
  ``NUMBA_CPU_FEATURES`` removed);
* ``avx2``: ``NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES=`` (the name alone keeps the host's features;
  the empty list takes the named processor's: AVX2 and FMA, no AVX-512).

Each build keeps its compiled kernels in its own directory (``NUMBA_CACHE_DIR``, under which
:mod:`kniffel.core.runtime.kernelcache` keeps one directory per version of the kernels' sources): ``native``
the usual one (``$NUMBA_CACHE_DIR`` or the user's cache), another build the same path with ``-<build>``
appended, kept between runs so that only the first run of a build compiles. numba keys its cached
kernels by the target processor too; the separate directories keep the builds from ever sharing files.

Each build's figures come with what numba compiled for in that build (asked inside the build's own
process: :mod:`machine`), so a run shows that the ``avx2`` kernels were compiled for ``haswell``.

``--record`` (added with ``--builds``) keeps the side-by-side figures in the machine's results file
(:func:`machine.record`, under the script's name); without ``--builds`` it measures the ``native`` build
alone the same way, in a process of its own.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import machine

BUILDS: dict[str, dict[str, str]] = {
    "native": {},
    "avx2": {"NUMBA_CPU_NAME": "haswell", "NUMBA_CPU_FEATURES": ""},
}
"""Each build's settings for numba; ``native`` removes any ``NUMBA_CPU_*`` of the environment."""

Row = tuple[str, float, str, float | None]
"""One figure of a build: its label, value, unit and ratio to the build's yardstick (``None``: none).
A ratio of seconds is ``value / solve`` ("x solve"); of a rate, ``value * solve`` (how many in the time
of one solve)."""


def parse(text: str) -> list[str]:
    """``native,avx2`` as a list of known builds (an ``argparse`` type)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BUILDS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown build {', '.join(unknown) or '(none given)'}; the builds are {', '.join(BUILDS)}"
        )
    return list(dict.fromkeys(names))


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--builds",
        type=parse,
        default=None,
        metavar="native,avx2",
        help="Run the measurements once per build of the kernels (each in its own process and kernel "
        "cache) and print them side by side.",
    )
    machine.add_record_option(parser)


def cache_root(build: str) -> Path:
    """The kernel cache of ``build`` (see the module's description)."""
    from kniffel.core.runtime.kernelcache import kernels_cache_dir

    usual = kernels_cache_dir().parent
    return usual if build == "native" else usual.with_name(f"{usual.name}-{build}")


def environment(build: str) -> dict[str, str]:
    """This process's environment with ``build``'s settings for numba and its kernel cache."""
    env = {k: v for k, v in os.environ.items() if k not in machine.OVERRIDES}
    env.update(BUILDS[build])
    env["NUMBA_CACHE_DIR"] = str(cache_root(build))
    return env


def without_builds(argv: list[str]) -> list[str]:
    """``argv`` without its ``--builds`` and ``--record`` options (and with ``--json``): what each build's
    process is given (the figures are recorded once, side by side, by the process that ran the builds)."""
    kept: list[str] = []
    skip = False
    for arg in machine.without_record(argv):
        if skip:
            skip = False
        elif arg == "--builds":
            skip = True
        elif not arg.startswith("--builds="):
            kept.append(arg)
    return kept if "--json" in kept else [*kept, "--json"]


def run(script: str, builds: list[str], argv: list[str]) -> dict[str, dict[str, Any]]:
    """``script`` once per build with ``argv`` (made ``--json``; its messages on stderr pass through):
    the JSON each printed, by build."""
    results: dict[str, dict[str, Any]] = {}
    for build in builds:
        print(f"[{build}] running {Path(script).name} ...", file=sys.stderr, flush=True)
        done = subprocess.run(
            [sys.executable, script, *without_builds(argv)],
            stdout=subprocess.PIPE,
            text=True,
            env=environment(build),
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"the {build} build of {Path(script).name} failed (exit {done.returncode})")
        results[build] = json.loads(done.stdout)
    return results


def table(rows: dict[str, list[Row]]) -> str:
    """The builds' figures side by side (rows matched by label, in the first build's order), with each
    figure's ratio to its build's yardstick and, for two builds or more, each build's value against
    the first build's."""
    builds = list(rows)
    by_label = {build: {row[0]: row for row in rows[build]} for build in builds}
    labels = list(dict.fromkeys(label for build in builds for label, *_ in rows[build]))
    width = max([len(label) for label in labels] + [6])
    head = f"  {'figure':<{width}}" + "".join(f" {b:>12} {'vs solve':>9}" for b in builds)
    head += "".join(f" {b + '/' + builds[0]:>12}" for b in builds[1:])
    lines = [head]
    for label in labels:
        line = f"  {label:<{width}}"
        first = by_label[builds[0]].get(label)
        for build in builds:
            found = by_label[build].get(label)
            if found is None or math.isnan(found[1]):  # not measured in this build
                line += f" {'-':>12} {'':>9}"
                continue
            _, value, unit, ratio = found
            shown = "" if ratio is None else _number(ratio) + ("" if unit.startswith("/") else "x")
            line += f" {_number(value) + ' ' + unit:>12} {shown:>9}"
        for build in builds[1:]:
            found = by_label[build].get(label)
            against = f"{found[1] / first[1]:.2f}" if first and found and first[1] else ""
            line += f" {'' if against == 'nan' else against:>12}"
        lines.append(line)
    lines.append(
        "  vs solve: times as multiples of the build's whole EV solve (kniffel solve --no-cache), rates"
        " as counts in the time of one"
    )
    return "\n".join(lines)


def recorded(rows: dict[str, list[Row]]) -> tuple[list[str], list[list[Any]]]:
    """The builds' figures as a results table (:func:`machine.record`): a row per figure (matched by label,
    in the first build's order) with its unit, then each build's value and its ratio to the build's
    yardstick (``None`` where there is none)."""
    builds = list(rows)
    by_label = {build: {row[0]: row for row in rows[build]} for build in builds}
    labels = list(dict.fromkeys(label for build in builds for label, *_ in rows[build]))
    columns = ["figure", "unit"] + [name for build in builds for name in (build, f"{build} vs solve")]
    cells: list[list[Any]] = []
    for label in labels:
        unit = next(by_label[build][label][2] for build in builds if label in by_label[build])
        line: list[Any] = [label, unit]
        for build in builds:
            found = by_label[build].get(label)
            line += [None, None] if found is None else [found[1], found[3]]
        cells.append(line)
    return columns, cells


def _number(value: float) -> str:
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def compare(args: argparse.Namespace, script: str, rows: Callable[[dict[str, Any]], list[Row]]) -> bool:
    """If ``--builds`` or ``--record`` was given: run ``script`` per build (``native`` alone without
    ``--builds``), print (or with ``--json``, dump) the builds side by side, with ``--record`` keep them
    in the machine's results file, and return True; else False (the script measures in its own
    process)."""
    record = getattr(args, "record", None)
    if not args.builds and record is None:
        return False
    chosen = args.builds or ["native"]
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    results = run(script, chosen, sys.argv[1:])
    machine.finish(ran_on)
    if record is not None:
        columns, cells = recorded({build: rows(result) for build, result in results.items()})
        numba = {build: machine.target_line(result["machine"]["numba"]) for build, result in results.items()}
        note = "vs solve: times as multiples of the build's whole EV solve, rates as counts in its time"
        path = machine.record(Path(script).stem, ran_on, columns, cells, record, numba=numba, note=note)
        print(f"recorded in {path}", file=sys.stderr)
    if args.json:
        print(json.dumps({"machine": ran_on, "builds": results}, indent=1))
        return True
    for build, result in results.items():
        print(f"[{build}] {machine.target_line(result['machine']['numba'])}")
    print(table({build: rows(result) for build, result in results.items()}))
    print(machine.footer(ran_on))
    return True


def command_seconds(
    command: list[str],
    rules_id: str,
    options: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
) -> float:
    """The wall time of one whole ``kniffel COMMAND... --rules R [--option K=V]...`` in a process of its
    own, from start to exit (starting Python, loading the kernels and tables, the work)."""
    argv = [str(Path(sys.executable).parent / "kniffel"), *command, "--rules", rules_id]
    for key, value in (options or {}).items():
        argv += ["--option", f"{key}={value}"]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


def solve_seconds(
    rules_id: str, options: dict[str, str] | None = None, repeat: int = 3, env: dict[str, str] | None = None
) -> float:
    """The yardstick: the wall time of a whole ``kniffel solve --rules R --no-cache`` (a fresh process:
    starting Python, loading the kernels, the DP), best of ``repeat``."""
    solve = ["solve", "--no-cache", "--json"]
    return min(command_seconds(solve, rules_id, options, env) for _ in range(max(1, repeat)))
