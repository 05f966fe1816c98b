"""Target tables (:mod:`kniffel.solver.target`): build time, peak memory, disk size, load time and query
time, each in a fresh process so that memory is per step.

    .venv/bin/python benchmarks/target.py [--rules yahtzee kniffel yatzy] [--queries 200] [--json]

For each rule set it measures

* the build: the DP alone (:attr:`TargetTable.seconds`, compiled kernels warm) and the whole call, with
  the peak resident memory of the process, and the size of the table on disk;
* loading the cached table (memory-mapped, checksum verified) in a fresh process;
* one target query: every option of a random mid-turn situation with its probability of reaching a
  random target (:meth:`TargetAdvisor.options`), and a between-turn lookup.

The peer solver ``yatzy-solver`` has no target tables, so there is no ratio. Nothing here is a test:
timings depend on the machine and its load, which is printed beside them.
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

PYTHON = sys.executable


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


def measure(rules_id: str, queries: int, directory: Path) -> dict[str, Any]:
    env = {"KNIFFEL_CACHE_DIR": str(directory)}
    # the value table and the compiled kernels first, so the build measures the target table alone
    child(
        f"""
        from kniffel import rules
        from kniffel.solver import table
        from kniffel.solver.target import solve_target, target_table
        from kniffel.solver.compile import compile_rules
        table(rules.get({rules_id!r}))
        solve_target(compile_rules(rules.get("kniffel", {{"strict": "on"}})))
        RESULT = {{}}
        """,
        env,
    )
    built, build_wall = child(
        f"""
        import time
        from kniffel import rules
        from kniffel.solver.target import target_table
        start = time.perf_counter()
        t = target_table(rules.get({rules_id!r}))
        RESULT = {{"dp": t.seconds, "call": time.perf_counter() - start, "limit": t.limit,
                   "values": int(t.prob.size)}}
        """,
        env,
    )
    disk = sum(p.stat().st_size for p in directory.glob("*.target-*"))
    loaded, _ = child(
        f"""
        import time
        start = time.perf_counter()
        from kniffel import rules
        from kniffel.solver.target import target_table
        t = target_table(rules.get({rules_id!r}))
        RESULT = {{"load": time.perf_counter() - start}}
        """,
        env,
    )
    queried, _ = child(
        f"""
        import random, time
        from kniffel import rules
        from kniffel.planning.exact import advisor_for
        from kniffel.solver.target import TargetAdvisor, target_table
        r = rules.get({rules_id!r})
        advisor = TargetAdvisor(advisor_for(r), target_table(r))
        rng = random.Random(1)
        boxes = [b.id for b in r.boxes]
        def situation():
            filled = {{b: 0 for b in rng.sample(boxes, rng.randrange(0, len(boxes) - 1))}}
            dice = sorted(rng.randint(1, 6) for _ in range(r.dice))
            return filled, dice, rng.randrange(r.rolls), rng.randrange(1, 300)
        advisor.options(*situation()[:3], 100)  # compile or load the kernels
        cases = [situation() for _ in range({queries})]
        start = time.perf_counter()
        for filled, dice, left, needed in cases:
            advisor.options(filled, dice, left, needed)
        options = (time.perf_counter() - start) / len(cases)
        start = time.perf_counter()
        for filled, dice, left, needed in cases:
            advisor.probability(filled, needed)
        lookup = (time.perf_counter() - start) / len(cases)
        RESULT = {{"query_ms": options * 1e3, "lookup_ms": lookup * 1e3}}
        """,
        env,
    )
    return {
        "rules": rules_id,
        "limit": built["limit"],
        "values": built["values"],
        "dp_s": built["dp"],
        "build_s": built["call"],
        "build_process_s": build_wall,
        "peak_rss_mb": built["maxrss_mb"],
        "disk_mb": disk / 1e6,
        "load_s": loaded["load"],
        "query_ms": queried["query_ms"],
        "lookup_ms": queried["lookup_ms"],
        "loadavg": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", default=["yahtzee"])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for rules_id in args.rules:
        with tempfile.TemporaryDirectory(prefix="kniffel-target-bench-") as tmp:
            rows.append(measure(rules_id, args.queries, Path(tmp)))
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(
        f"{'rules':<10} {'limit':>5} {'values':>12} {'DP s':>7} {'build s':>8} {'peak MB':>8} {'disk MB':>8}"
        f" {'load s':>7} {'query ms':>9} {'lookup ms':>9} {'load avg':>8}"
    )
    for r in rows:
        print(
            f"{r['rules']:<10} {r['limit']:>5} {r['values']:>12,} {r['dp_s']:>7.1f} {r['build_s']:>8.1f}"
            f" {r['peak_rss_mb']:>8.0f} {r['disk_mb']:>8.0f} {r['load_s']:>7.2f} {r['query_ms']:>9.2f}"
            f" {r['lookup_ms']:>9.3f} {r['loadavg']:>8.2f}"
        )


if __name__ == "__main__":
    main()
