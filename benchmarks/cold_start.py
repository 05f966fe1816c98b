"""What a person meets the first time they play to win: each first answer from a cache that holds only the
expected-score table and the compiled kernels, against a whole ``kniffel solve --no-cache`` in the same
run.

    .venv/bin/python benchmarks/cold_start.py [--rules yahtzee] [--target 300] [--repeat 3] [--json]
        [--builds native,avx2]

Each step runs in a fresh process on a fresh copy of that cache; it reports the wall time and the
process's peak memory (the largest resident set of it and of the processes it waited for), each with its
ratio to the whole solve's, and what it wrote to disk (beside the early win tables' estimate):

* ``solve``: ``kniffel solve --rules R --no-cache`` (best of ``--repeat``), the yardstick.
* ``target, first roll``: ``kniffel advise --goal target:T`` on the empty sheet after the first roll: the
  cone of that target from the empty sheet (nothing written).
* ``target, mid-game``: the same with six boxes filled.
* ``win chance, late``: every player's chance of winning with eight boxes filled (cones of the players'
  positions).
* ``win tables``: ``kniffel cache prepare``: the early win tables a front end solves in the background the
  first time (then chances of winning, bot:win and target advice early in a game read them from disk).
* ``win chance, start``: every player's chance at the start of a game once the win tables are there.
* ``bot:win game, first``: a whole game of ``bot:win`` against ``bot:optimal`` (``kniffel play --plain``):
  until the win tables are there it plays for points where a position's cone would be the whole table,
  and to win from where it is a second or two (the win tables are solved in the background meanwhile,
  and given up when the game ends).
* ``bot:win game, with tables``: the same game once the win tables are on disk.

With ``--builds native,avx2`` every step runs once with kernels compiled for this processor and once for
AVX2 (:mod:`builds`), each build against its own whole solve, side by side. The machine, its caches and
what numba compiled for are printed first (:mod:`machine`).

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
import textwrap
from pathlib import Path
from typing import Any

import builds
import machine

PYTHON = sys.executable
KNIFFEL = str(Path(PYTHON).parent / "kniffel")


def size_of(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


def run(argv: list[str], cache: Path, stdin: str | None = None) -> dict[str, Any]:
    """One process on ``cache``: wall time, peak memory (MB) and bytes it added to the cache."""
    before = size_of(cache)
    wrapper = textwrap.dedent(
        """
        import resource, subprocess, sys, time
        start = time.perf_counter()
        done = subprocess.run(sys.argv[1:], input=sys.stdin.read(), text=True, capture_output=True)
        wall = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(done.returncode, wall, peak)
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        """
    )
    env = {**os.environ, "KNIFFEL_CACHE_DIR": str(cache), "KNIFFEL_PREPARE_WIN_TABLES": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a person's shell runs them: the compiled modules kept
    out = subprocess.run(
        [PYTHON, "-c", wrapper, *argv],
        input=stdin or "",
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    code, wall, peak = out.stdout.split()
    if int(code) != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{out.stderr}")
    return {"seconds": float(wall), "peak_mb": float(peak), "written_mb": (size_of(cache) - before) / 1e6}


def estimated(rules_id: str) -> int:
    """What the early win tables of ``rules_id`` were estimated to write before they were solved (what
    the server checks against its budget)."""
    out = subprocess.run(
        [PYTHON, "-c", f"from kniffel import rules, core; "
         f"print(core.early_tables(core.compile_rules(rules.get({rules_id!r}))).bytes)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(out.stdout)


def library(code: str) -> list[str]:
    return [PYTHON, "-c", textwrap.dedent(code)]


def measure(rules_id: str, target: int, repeat: int) -> dict[str, Any]:
    base = Path(tempfile.mkdtemp(prefix="kniffel-cold-"))
    try:
        seeded = base / "seeded"
        seeded.mkdir()
        # the expected-score table and every kernel compiled (numba's cache is the user's, shared)
        run([KNIFFEL, "solve", "--rules", rules_id], seeded)
        warm = base / "warm"
        shutil.copytree(seeded, warm)
        # every kernel the steps below use, compiled (or loaded) on a rule set of its own, whose tables
        # stay in "warm": strict Kniffel, a few states a level, solved in a moment. Without the option
        # kernels and the chances of winning, an AVX2 build's first target answer and chances of winning
        # included their compiles (the native build's were compiled by earlier runs)
        strict = ["--rules", "kniffel", "--option", "strict=on"]
        run([KNIFFEL, "cache", "prepare", *strict], warm)
        filled = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18"
        advice = ["--goal", "target:150", "--sheet", filled, "--dice", "2 2 3 5 5"]
        run([KNIFFEL, "advise", *strict, *advice], warm)
        chances = """
            from kniffel import Game, SeededDice, bots, rules
            from kniffel.planning import win_chances
            game = Game(rules.get("kniffel", {"strict": "on"}), ["A", "B"], dice=SeededDice(7))
            game.roll()
            print(win_chances(game))
            players = [bots.make("bot:optimal"), bots.make("bot:optimal")]
            while len(game.sheets[1].entries) < 8:
                game.apply(players[game.current].choose(game))
            print(win_chances(game))
        """
        run(library(chances), warm)

        def fresh() -> Path:
            path = Path(tempfile.mkdtemp(dir=base))
            shutil.copytree(seeded, path, dirs_exist_ok=True)
            return path

        rows: dict[str, dict[str, Any]] = {}
        solves = [run([KNIFFEL, "solve", "--rules", rules_id, "--no-cache"], fresh()) for _ in range(repeat)]
        rows["solve"] = min(solves, key=lambda r: r["seconds"])
        advise = [KNIFFEL, "advise", "--rules", rules_id, "--goal", f"target:{target}", "--json"]
        rows["target, first roll"] = run([*advise, "--dice", "1 2 3 4 5"], fresh())
        mid = "ones=2,twos=6,threes=9,fours=12,fives=15,chance=22"
        rows["target, mid-game"] = run([*advise, "--sheet", mid, "--dice", "2 2 3 5 5"], fresh())
        late = f"""
            from kniffel import Game, SeededDice, bots, rules
            from kniffel.planning import win_chances
            game = Game(rules.get({rules_id!r}), ["A", "B"], dice=SeededDice(7))
            players = [bots.make("bot:optimal"), bots.make("bot:optimal")]
            while len(game.sheets[1].entries) < 8:
                game.apply(players[game.current].choose(game))
            print(win_chances(game))
        """
        rows["win chance, late"] = run(library(late), fresh())
        tables = fresh()
        rows["win tables"] = run([KNIFFEL, "cache", "prepare", "--rules", rules_id], tables)
        start = f"""
            from kniffel import Game, SeededDice, rules
            from kniffel.planning import win_chances
            game = Game(rules.get({rules_id!r}), ["A", "B"], dice=SeededDice(7))
            game.roll()
            print(win_chances(game))
        """
        rows["win chance, start"] = run(library(start), tables)
        game = [
            KNIFFEL,
            "play",
            "--plain",
            "-r",
            rules_id,
            "-p",
            "bot:win",
            "-p",
            "bot:optimal",
            "--seed",
            "1",
        ]
        rows["bot:win game, first"] = run(game, fresh(), stdin="n\n")
        rows["bot:win game, with tables"] = run(game, tables, stdin="n\n")
        yardstick, memory = rows["solve"]["seconds"], rows["solve"]["peak_mb"]
        for row in rows.values():
            row["ratio"] = row["seconds"] / yardstick
            row["peak_ratio"] = row["peak_mb"] / memory
        disk = size_of(tables) - size_of(seeded)
        return {
            "rules": rules_id,
            "target": target,
            "rows": rows,
            "win_tables_mb": disk / 1e6,
            "estimated_mb": estimated(rules_id) / 1e6,
        }
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", default=["yahtzee"])
    parser.add_argument("--target", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    builds.add_option(parser)
    args = parser.parse_args()
    if builds.compare(args, __file__, figures):
        return
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    results = [measure(rules_id, args.target, args.repeat) for rules_id in args.rules]
    machine.finish(ran_on)
    if args.json:
        print(json.dumps({"machine": ran_on, "results": results}, indent=1))
        return
    for result in results:
        print(f"{result['rules']} (target {result['target']}; load {os.getloadavg()[0]:.1f})")
        print(
            f"  {'step':<28} {'seconds':>8} {'x solve':>8} {'peak MB':>8} {'x solve':>8} {'written MB':>11}"
        )
        for name, row in result["rows"].items():
            print(
                f"  {name:<28} {row['seconds']:>8.2f} {row['ratio']:>8.1f} {row['peak_mb']:>8.0f}"
                f" {row['peak_ratio']:>8.1f} {row['written_mb']:>11.1f}"
            )
        print(
            f"  win and target data on disk: {result['win_tables_mb']:.0f} MB"
            f" (estimated before: {result['estimated_mb']:.0f} MB)"
        )
    print(machine.footer(ran_on))


def figures(report: dict[str, Any]) -> list[builds.Row]:
    """The steps' times and peaks of memory of a ``--json`` report, each with its ratio to the solve of its
    rule set."""
    return [
        row
        for result in report["results"]
        for name, step in result["rows"].items()
        for row in (
            (f"{result['rules']}: {name}", step["seconds"], "s", step["ratio"]),
            (f"{result['rules']}: {name}, peak", step["peak_mb"], "MB", step["peak_ratio"]),
        )
    ]


if __name__ == "__main__":
    main()
