"""One benchmark on two versions of the code, alternating in one sitting: is the newer one slower?

    .venv/bin/python benchmarks/commits.py BASE [--head REV] [--rounds 2] [--builds native,avx2]
        [--tolerance 3] [--json] -- SCRIPT.py [the script's own options]

for example ``benchmarks/commits.py v0.1.0 -- cold_start.py --rules kniffel --repeat 1``. Each version
is a tree of its own: ``BASE`` (and ``--head`` if given) checked out as a detached git worktree under
the user's cache directory (``benchmark-trees/<commit>``, kept for the next comparison so that its
compiled kernels stay valid), the head by default this checkout as it is, uncommitted changes included.
Every run is the version's own ``benchmarks/SCRIPT.py --builds ... --json`` with that version's
``src`` first on ``PYTHONPATH``, in the same interpreter and virtual environment, so the versions share
their dependencies and differ in their code alone.

Before the rounds each version compiles its kernels for every build (``kniffel cache compile``), so that
no round pays for compiling unless the script measures it on purpose. Then ``--rounds`` rounds, the
versions' order swapped each round (base-head, head-base, ...) so that a machine getting busier or
quieter in the sitting weighs on both alike. Each figure (the script's own rows, as its ``--builds``
table shows them) is taken at its best over the rounds (the least time or memory, the highest rate),
and head/base is printed beside it with the same ratio of the rounds' medians; a figure worse by more
than ``--tolerance`` percent by both is marked. Each figure's ratio to its version's whole EV solve in
the same run is shown too, which the machine's load moves less than the raw figures.

Nothing here is a test: timings depend on the machine and its load, which is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import builds
import machine

ROOT = Path(__file__).resolve().parent.parent
ROWS = """
import json, sys
sys.path.insert(0, "benchmarks")
import builds
script = __import__(sys.argv[1])
report = json.load(sys.stdin)
print(json.dumps({build: script.figures(result) for build, result in report["builds"].items()}))
"""
"""Asked of a version's own tree: its script's rows (``figures``) for the JSON that script printed."""
COMPILE = """
import subprocess, sys
sys.path.insert(0, "benchmarks")
import builds
for build in sys.argv[2:]:
    subprocess.run([sys.argv[1], "cache", "compile"], env=builds.environment(build), check=True,
                   stdout=subprocess.DEVNULL)
"""
"""Asked of a version's own tree: compile its kernels for each build, in that build's kernel cache."""


def tree(rev: str) -> Path:
    """A detached worktree of ``rev`` under the user's cache directory, made the first time."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if commit.returncode != 0:
        raise SystemExit(f"{rev} is not a commit of {ROOT}: {commit.stderr.strip()}")
    from kniffel.core.runtime.kernelcache import user_cache_dir

    folder = user_cache_dir() / "benchmark-trees" / commit.stdout.strip()
    if not (folder / "src").is_dir():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=True)
        folder.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--quiet", "--detach", "--force", str(folder), rev],
            check=True,
        )
    return folder


def environment(folder: Path) -> dict[str, str]:
    """This process's environment with ``folder``'s sources first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(folder / "src"), *filter(None, [env.get("PYTHONPATH")])])
    return env


def python(folder: Path, *args: str, **options: Any) -> subprocess.CompletedProcess[Any]:
    """This interpreter run with ``args`` in ``folder``, its sources first on the path (``options`` go to
    :func:`subprocess.run`)."""
    return subprocess.run([sys.executable, *args], cwd=folder, env=environment(folder), **options)


def run_once(folder: Path, script: str, argv: list[str], chosen: list[str]) -> dict[str, list[Any]]:
    """``script`` of ``folder`` for the builds ``chosen``: its rows by build."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        done = python(
            folder, f"benchmarks/{script}", *argv, "--builds", ",".join(chosen), "--json", stdout=out
        )
        if done.returncode != 0:
            raise SystemExit(f"{script} failed in {folder} (exit {done.returncode})")
        out.seek(0)
        rows = python(folder, "-c", ROWS, Path(script).stem, stdin=out, capture_output=True, text=True)
    if rows.returncode != 0:
        raise SystemExit(f"reading the figures of {script} in {folder} failed:\n{rows.stderr[-2000:]}")
    found: dict[str, list[Any]] = json.loads(rows.stdout)
    return found


def better(unit: str) -> str:
    """Which way a figure of ``unit`` improves: ``up`` for a rate and for ours against the peer's rate
    (``x``), ``down`` for time, memory and sizes."""
    return "up" if unit.startswith("/") or unit.endswith("/s") or unit == "x" else "down"


def best(values: list[float], unit: str) -> float:
    kept = [value for value in values if value == value]  # NaN: not measured in that run
    if not kept:
        return float("nan")
    return max(kept) if better(unit) == "up" else min(kept)


def median(values: list[float]) -> float:
    """The median of the rounds that measured the figure (NaN: a round that did not)."""
    kept = [value for value in values if value == value]
    return statistics.median(kept) if kept else float("nan")


def ratio(head: float, base: float) -> float:
    return head / base if base else float("nan")


def compare(
    runs: dict[str, list[dict[str, list[Any]]]], chosen: list[str], tolerance: float
) -> list[dict[str, Any]]:
    """Each figure of each build at its best over the rounds, per version, and head against base."""
    figures: list[dict[str, Any]] = []
    for build in chosen:
        labels = list(dict.fromkeys(row[0] for run in runs["base"] for row in run.get(build, [])))
        for label in labels:
            seen: dict[str, list[list[Any]]] = {
                side: [row for run in runs[side] for row in run.get(build, []) if row[0] == label]
                for side in ("base", "head")
            }
            if not seen["head"]:
                continue
            unit = seen["base"][0][2]
            entry: dict[str, Any] = {"build": build, "figure": label, "unit": unit}
            for side, rows in seen.items():
                entry[side] = best([row[1] for row in rows], unit)
                entry[f"{side} rounds"] = [row[1] for row in rows]
                ratios = [row[3] for row in rows if row[3] is not None]
                entry[f"{side} vs solve"] = best(ratios, unit) if ratios else None
            entry["head/base"] = ratio(entry["head"], entry["base"])
            entry["medians head/base"] = ratio(median(entry["head rounds"]), median(entry["base rounds"]))
            # marked only where the medians agree with the best rounds: one lucky round of a version
            # on a shared machine would mark a figure, or hide it, on its own
            entry["worse"] = all(
                100 * ((r - 1) if better(unit) == "down" else (1 - r)) > tolerance
                for r in (entry["head/base"], entry["medians head/base"])
            )
            figures.append(entry)
    return figures


def table(figures: list[dict[str, Any]], tolerance: float) -> str:
    width = max([len(entry["figure"]) for entry in figures] + [6])
    lines = [
        f"  {'build':<6} {'figure':<{width}} {'base':>12} {'head':>12} {'head/base':>9} {'medians':>7}"
        f" {'base vs solve':>13} {'head vs solve':>13}  rounds (base | head)"
    ]
    for entry in figures:
        unit = entry["unit"]
        mark = f"  <- worse by more than {tolerance:g} %" if entry["worse"] else ""
        solve = [
            "" if entry[f"{side} vs solve"] is None else f"{entry[f'{side} vs solve']:.3g}"
            for side in ("base", "head")
        ]
        spread = " ".join(f"{value:.4g}" for value in entry["base rounds"])
        spread += " | " + " ".join(f"{value:.4g}" for value in entry["head rounds"])
        lines.append(
            f"  {entry['build']:<6} {entry['figure']:<{width}} {entry['base']:>9.4g} {unit:<2}"
            f" {entry['head']:>9.4g} {unit:<2} {entry['head/base']:>9.3f} {entry['medians head/base']:>7.3f}"
            f" {solve[0]:>13} {solve[1]:>13}"
            f"  {spread}{mark}"
        )
    lines.append(
        "  best of the rounds (least time or memory, highest rate); medians: head/base of the rounds'"
        " medians; vs solve: the figure against its version's whole EV solve in the same run"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("base", help="The older version: a commit, tag or branch of this repository.")
    parser.add_argument("--head", default=None, help="The newer version (default: this checkout as it is).")
    parser.add_argument("--rounds", type=int, default=2, help="Runs of each version, alternating.")
    parser.add_argument("--builds", type=builds.parse, default=["native"], metavar="native,avx2")
    parser.add_argument("--tolerance", type=float, default=3.0, help="Percent worse that is marked.")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("script", help="The benchmark, e.g. cold_start.py; its own options follow.")
    parser.add_argument("options", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    script = args.script if args.script.endswith(".py") else f"{args.script}.py"
    options = [option for option in args.options if option != "--"]
    trees = {"base": tree(args.base), "head": tree(args.head) if args.head else ROOT}
    for side, folder in trees.items():
        if not (folder / "benchmarks" / script).is_file():
            raise SystemExit(f"the {side} version has no benchmarks/{script}")
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
        print(f"base: {trees['base']}\nhead: {trees['head']}", flush=True)
    kniffel = str(Path(sys.executable).parent / "kniffel")
    for side, folder in trees.items():
        print(f"[{side}] compiling the kernels for {', '.join(args.builds)} ...", file=sys.stderr, flush=True)
        python(folder, "-c", COMPILE, kniffel, *args.builds, check=True)
    runs: dict[str, list[dict[str, list[Any]]]] = {"base": [], "head": []}
    for round_number in range(args.rounds):
        order = ("base", "head") if round_number % 2 == 0 else ("head", "base")
        for side in order:
            start = time.perf_counter()
            print(f"[round {round_number + 1}, {side}] {script} ...", file=sys.stderr, flush=True)
            runs[side].append(run_once(trees[side], script, options, args.builds))
            print(f"  {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    machine.finish(ran_on)
    figures = compare(runs, args.builds, args.tolerance)
    if args.json:
        print(
            json.dumps(
                {"machine": ran_on, "script": script, "options": options, "figures": figures}, indent=1
            )
        )
        return
    print(table(figures, args.tolerance))
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
