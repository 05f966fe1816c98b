"""Target probabilities (:mod:`kniffel.core.target`): what solving them costs, and (``--check``) that the
rows of every state (the cone of the empty sheet, which a target question at the start reads) answer the
early positions of ``tests/data/target_reference.json`` as its reference does: an independent exact
computation, the whole target tables (every state solved for every target, no cones); the suite checks the
late positions, from cones.

    .venv/bin/python benchmarks/target.py [--rules yahtzee kniffel yatzy] [--target 300] [--queries 200]
        [--repeat 3] [--check] [--json] [--builds native,avx2]

For each rule set, each step in a fresh process on a fresh cache holding the expected-score table, so
that memory is per step:

* ``early rows``: the rows a game to win reads at the early levels, every target up to the limit, solved
  once (the DP alone and the whole call, with the distributions they start from at their horizon) and
  kept on disk (what the win tables hold for targets), with the process's peak memory and the size on
  disk;
* ``load``: loading them in a fresh process (memory-mapped, checksum verified);
* ``cone, first roll``: the rows a question about one target needs from the empty sheet (``advise
  --goal target:T`` without the early rows), and ``cone, mid-game`` with six boxes filled;
* ``query``: every option of a random mid-turn situation valued for a random target from the early rows
  (ms), and a between-turn lookup.

The peer solver ``yatzy-solver`` has no target tables; the yardstick is a whole ``kniffel solve
--no-cache`` of the same rule set in the same run (best of ``--repeat``), and every time is also given as
a multiple of it. With ``--builds native,avx2`` it all runs once with kernels compiled for this
processor and once for AVX2 (:mod:`builds`), side by side. The machine, its caches and what numba
compiled for are printed first (:mod:`machine`).

Nothing here is a test: timings depend on the machine and its load, which is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import builds
import machine

PYTHON = sys.executable
ROOT = Path(__file__).resolve().parent.parent


def child(code: str, env: dict[str, str]) -> tuple[dict[str, Any], float]:
    """Run ``code`` in a fresh interpreter; it sets ``RESULT``. Returns it and the wall time."""
    wrapped = textwrap.dedent(code) + textwrap.dedent(
        """
        import json as _json, resource as _resource
        RESULT["maxrss_mb"] = _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss / 1024
        print(_json.dumps(RESULT))
        """
    )
    start = time.perf_counter()
    out = subprocess.run([PYTHON, "-c", wrapped], capture_output=True, text=True, env={**os.environ, **env})
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1]), time.perf_counter() - start


def measure(rules_id: str, target: int, queries: int, directory: Path, repeat: int = 3) -> dict[str, Any]:
    env = {"KNIFFEL_CACHE_DIR": str(directory)}
    # the value table and the compiled kernels first, so that the steps measure the target rows alone
    child(
        f"""
        from kniffel import rules
        from kniffel.core import table
        from kniffel.core import compile_rules
        from kniffel.core import solve_rows
        table(rules.get({rules_id!r}))
        solve_rows(compile_rules(rules.get("kniffel", {{"strict": "on"}})))
        RESULT = {{}}
        """,
        env,
    )
    solve = builds.solve_seconds(rules_id, repeat=repeat, env={**os.environ, **env})
    cone = """
        import time
        from kniffel import rules
        from kniffel.core import Advisor, table
        from kniffel.core import RowsQuestion
        r = rules.get({rules_id!r})
        advisor = Advisor(table(r))
        sheet = {sheet}
        state = advisor.state(sheet)
        start = time.perf_counter()
        rows = RowsQuestion(advisor.compiled, state, {target}, {target}, turn=True, early=False).rows()
        RESULT = {{"call": time.perf_counter() - start, "dp": rows.seconds,
                   "values": sum(int(a.size) for a in rows.levels if a is not None)}}
    """
    first, _ = child(cone.format(rules_id=rules_id, sheet="{}", target=target), env)
    mid_sheet = "{'ones': 2, 'twos': 6, 'threes': 9, 'fours': 12, 'fives': 15, 'chance': 22}"
    mid, _ = child(cone.format(rules_id=rules_id, sheet=mid_sheet, target=target - 66), env)
    built, build_wall = child(
        f"""
        import time
        from kniffel import rules
        from kniffel.core import early_rows
        start = time.perf_counter()
        rows = early_rows(rules.get({rules_id!r}))
        RESULT = {{"dp": rows.seconds, "call": time.perf_counter() - start, "limit": rows.limit}}
        """,
        env,
    )
    disk = sum(p.stat().st_size for p in directory.glob("*.win-early*"))
    loaded, _ = child(
        f"""
        import time
        start = time.perf_counter()
        from kniffel import rules
        from kniffel.core import early_rows
        early_rows(rules.get({rules_id!r}))
        RESULT = {{"load": time.perf_counter() - start}}
        """,
        env,
    )
    queried, _ = child(
        f"""
        import random, time
        import numpy as np
        from kniffel import rules
        from kniffel.planning.exact import advisor_for
        from kniffel.core import ColumnPosition
        from kniffel.core import TargetAdvisor, early_rows, early_rows_levels
        r = rules.get({rules_id!r})
        advisor = advisor_for(r)
        targets = TargetAdvisor(advisor, early_rows(r))
        deepest = early_rows_levels(advisor.compiled) - 1
        rng = random.Random(1)
        boxes = [b.id for b in r.boxes]
        def situation():
            filled = {{b: 0 for b in rng.sample(boxes, rng.randrange(0, deepest + 1))}}
            dice = sorted(rng.randint(1, 6) for _ in range(r.dice))
            return filled, dice, rng.randrange(r.rolls), rng.randrange(1, 300)
        cases = [situation() for _ in range({queries})]
        positions = [(ColumnPosition(filled, dice, left), needed) for filled, dice, left, needed in cases]
        targets.options(*positions[0])  # load the kernels
        start = time.perf_counter()
        for position, needed in positions:
            targets.options(position, needed)
        options = (time.perf_counter() - start) / len(cases)
        start = time.perf_counter()
        for filled, dice, left, needed in cases:
            targets.probability(filled, needed)
        lookup = (time.perf_counter() - start) / len(cases)
        RESULT = {{"query_ms": options * 1e3, "lookup_ms": lookup * 1e3}}
        """,
        env,
    )
    return {
        "rules": rules_id,
        "target": target,
        "solve_s": solve,
        "limit": built["limit"],
        "early_dp_s": built["dp"],
        "early_build_s": built["call"],
        "early_process_s": build_wall,
        "early_peak_mb": built["maxrss_mb"],
        "early_disk_mb": disk / 1e6,
        "load_s": loaded["load"],
        "cone_first_roll_s": first["call"],
        "cone_first_roll_values": first["values"],
        "cone_first_roll_peak_mb": first["maxrss_mb"],
        "cone_mid_game_s": mid["call"],
        "query_ms": queried["query_ms"],
        "lookup_ms": queried["lookup_ms"],
        "loadavg": os.getloadavg()[0],
    }


def check(rules_ids: list[str]) -> list[str]:
    """The early positions of the reference, from the rows of every state: the largest difference per
    rule set and option (the exact tables' answers to 1e-6 is the goal)."""
    from kniffel import rules
    from kniffel.core import Advisor, ColumnPosition, TargetAdvisor, solve_rows, table
    from kniffel.rules import single_column

    reference = json.loads((ROOT / "tests" / "data" / "target_reference.json").read_text(encoding="utf-8"))
    lines = []
    for variant in reference["variants"]:
        if variant["rules"] not in rules_ids or not variant["early_cases"]:
            continue
        found = rules.get(variant["rules"], variant["options"])
        ruleset = found if variant["column"] is None else single_column(found, variant["column"])
        advisor = Advisor(table(ruleset))
        start = time.perf_counter()
        targets = TargetAdvisor(advisor, solve_rows(advisor.compiled))
        worst = 0.0
        for case in variant["early_cases"]:
            position = ColumnPosition(
                case["sheet"], case["dice"], case["rolls_left"], thrown_at_once=case["thrown_at_once"],
                free_throws_left=case["free_throws_left"], free_throws_used=case["free_throws_used"],
            )  # fmt: skip
            options = targets.options(position, case["needed"])
            got = {str(o.action): o.value for o in options}
            worst = max([worst, *(abs(got[a] - v) for a, v in case["options"])])
            for u, p in case["between"]:
                worst = max(worst, abs(targets.probability(case["sheet"], u, case["free_throws_left"]) - p))
        named = " ".join(f"{k}={v}" for k, v in sorted(variant["options"].items()))
        lines.append(
            f"{variant['rules']} {named} {'' if variant['column'] is None else variant['column']}: "
            f"{len(variant['early_cases'])} early positions, largest difference {worst:.1e} "
            f"({time.perf_counter() - start:.0f} s)"
        )
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", default=["yahtzee"])
    parser.add_argument("--target", type=int, default=300)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="Whole solves (the yardstick), best taken.")
    parser.add_argument("--check", action="store_true", help="compare the reference's early positions")
    parser.add_argument("--json", action="store_true")
    builds.add_option(parser)
    args = parser.parse_args()
    if args.check and args.builds:
        parser.error("--check compares values, which do not depend on the build: leave out --builds")
    if builds.compare(args, __file__, figures):
        return
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    if args.check:
        check(args.rules)
        print(machine.footer(machine.finish(ran_on)))
        return
    rows = []
    for rules_id in args.rules:
        with tempfile.TemporaryDirectory(prefix="kniffel-target-bench-") as tmp:
            rows.append(measure(rules_id, args.target, args.queries, Path(tmp), args.repeat))
    machine.finish(ran_on)
    if args.json:
        print(json.dumps({"machine": ran_on, "results": rows}, indent=1))
        return
    for r in rows:
        print(f"{r['rules']} (limit {r['limit']}, target {r['target']}, load {r['loadavg']:.1f})")
        print(f"  whole solve (kniffel solve --no-cache, the yardstick): {r['solve_s']:.2f} s")
        print(
            f"  early rows: DP {r['early_dp_s']:.1f} s, call {r['early_build_s']:.1f} s, "
            f"peak {r['early_peak_mb']:.0f} MB, {r['early_disk_mb']:.0f} MB on disk; load {r['load_s']:.2f} s"
        )
        print(
            f"  cone of target {r['target']} from the first roll: {r['cone_first_roll_s']:.1f} s "
            f"({r['cone_first_roll_values']:,} values, peak {r['cone_first_roll_peak_mb']:.0f} MB); "
            f"mid-game: {r['cone_mid_game_s']:.2f} s"
        )
        print(f"  query {r['query_ms']:.2f} ms, lookup {r['lookup_ms']:.3f} ms")
        print(
            "  x solve: " + ", ".join(f"{label} {seconds / r['solve_s']:.1f}" for label, seconds in timed(r))
        )
    print(machine.footer(ran_on))


def timed(r: dict[str, Any]) -> list[tuple[str, float]]:
    """The steps' times (seconds) of one rule set's figures."""
    return [
        ("early rows DP", r["early_dp_s"]),
        ("early rows call", r["early_build_s"]),
        ("early rows process", r["early_process_s"]),
        ("early rows load", r["load_s"]),
        ("cone, first roll", r["cone_first_roll_s"]),
        ("cone, mid-game", r["cone_mid_game_s"]),
    ]


def figures(report: dict[str, Any]) -> list[builds.Row]:
    """A ``--json`` report's figures, times with their ratio to the rule set's whole solve."""
    rows: list[builds.Row] = []
    for r in report["results"]:
        rows.append((f"{r['rules']}: whole solve", r["solve_s"], "s", 1.0))
        rows.extend((f"{r['rules']}: {label}", s, "s", s / r["solve_s"]) for label, s in timed(r))
        rows.append((f"{r['rules']}: query", r["query_ms"], "ms", None))
        rows.append((f"{r['rules']}: lookup", r["lookup_ms"], "ms", None))
    return rows


if __name__ == "__main__":
    main()
