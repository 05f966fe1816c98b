"""What the table of exact final-score distributions costs: build time, peak memory, disk, load and lookups.

    .venv/bin/python benchmarks/py [--rules yahtzee --rules kniffel --rules yatzy] [--json]

Each rule set is measured in a process of its own (so that its peak resident memory is its own), with
the solved values taken from the usual cache (``$KNIFFEL_CACHE_DIR``) and the distribution table built
into a fresh temporary directory that is removed afterwards:

- build: seconds of the table's computation (``DistributionTable.seconds``: every turn pushed through the
  policy and mixed, written level by level), and the wall time of the whole ``distribution_table`` call;
- peak RSS of the process (the mapped table pages read while checksumming count too);
- disk: the size of the table's files;
- load: reading the description, checksumming the probabilities and mapping them;
- lookup: the mean time of ``state_distribution`` over random between-turn sheets (the live question:
  where does a player stand now);
- situation: the mean time of ``situation_distribution`` over random mid-turn situations (one turn
  pushed through the policy, then mixed from the table).

Nothing here is a test: timings depend on the machine and its load (reported beside the figures).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import machine

DEFAULT_RULES = ("yahtzee", "kniffel", "yatzy")


def random_sheet(rules: Any, rng: random.Random, filled: int) -> dict[str, int]:
    """A sheet with ``filled`` random boxes holding points they can hold (for the upper boxes, a multiple
    of the face up to three of it, so the upper score stays reachable)."""
    from kniffel.engine.sheet import possible_points

    keys = list(rules.box_keys)
    rng.shuffle(keys)
    sheet = {}
    for key in keys[:filled]:
        box = rules.boxes[rules.box_index[key]]
        if box.face:
            sheet[key] = box.face * rng.randrange(4)
        else:
            sheet[key] = rng.choice(sorted(possible_points(rules, key)))
    return sheet


def child(rules_id: str, directory: str) -> dict[str, Any]:
    from kniffel import core as solver
    from kniffel import rules
    from kniffel.base.dice import sorted_rolls
    from kniffel.core import (
        ColumnPosition,
        distribution_table,
        early_levels,
        situation_distribution,
        state_distribution,
    )
    from kniffel.core.distribution import load_table

    ruleset = rules.get(rules_id)
    if ruleset.multi_column:
        ruleset = solver.single_column(ruleset)
    solution = solver.table(ruleset)
    start = time.perf_counter()
    built = distribution_table(solution, directory=Path(directory))
    wall = time.perf_counter() - start
    files = [p for p in Path(directory).iterdir() if ".dist" in p.name]
    disk = sum(p.stat().st_size for p in files)
    start = time.perf_counter()
    loaded = load_table(solution, Path(directory))
    load = time.perf_counter() - start
    assert loaded is not None, "the table just written does not load"

    rng = random.Random(1)
    sheets: list[dict[str, int]] = []
    while len(sheets) < 2000:
        # the table on disk holds the early sheets (later ones are cones, solved when asked)
        sheet = random_sheet(ruleset, rng, rng.randrange(early_levels(solution.compiled) + 1))
        try:
            loaded.advisor.state(sheet)
        except Exception:  # an order the column cannot reach, an impossible upper score
            continue
        sheets.append(sheet)
    state_distribution(loaded, sheets[0])
    start = time.perf_counter()
    for sheet in sheets:
        state_distribution(loaded, sheet)
    lookup = (time.perf_counter() - start) / len(sheets)
    rolls = sorted_rolls(ruleset.dice)
    situations = [
        ColumnPosition(sheet, rng.choice(rolls), rng.randrange(ruleset.rolls)) for sheet in sheets[:200]
    ]
    situation_distribution(loaded, situations[0])
    start = time.perf_counter()
    for position in situations:
        situation_distribution(loaded, position)
    situation = (time.perf_counter() - start) / len(situations)
    return {
        "rules": rules_id,
        "lanes": loaded.layout.n_lanes,
        "probabilities": int(loaded.pmf.shape[0]),
        "build_seconds": built.seconds,
        "build_wall_seconds": wall,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "disk_mb": disk / 1e6,
        "load_seconds": load,
        "lookup_ms": lookup * 1e3,
        "situation_ms": situation * 1e3,
        "start_mean": state_distribution(loaded, {}).mean,
        "expected_score": solution.expected_score,
    }


def measure(rules_id: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kniffel-dist-bench-") as directory:
        load_before = os.getloadavg()
        done = subprocess.run(
            [sys.executable, __file__, "--child", rules_id, directory],
            check=True,
            capture_output=True,
            text=True,
        )
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        result["load_before"] = load_before[0]
        result["load_after"] = os.getloadavg()[0]
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", action="append", help="rule set id (repeatable)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    machine.add_record_option(parser)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    results = [measure(rules_id) for rules_id in args.rules or DEFAULT_RULES]
    machine.finish(ran_on)
    if args.record:
        named = {"lanes": "lanes", "build_seconds": "build s", "peak_rss_mb": "peak RSS MB"}
        named |= {"disk_mb": "disk MB", "load_seconds": "load s", "lookup_ms": "lookup ms"}
        named |= {"situation_ms": "situation ms"}
        columns = ["rules", *named.values()]
        table = [[r["rules"], *(r[key] for key in named)] for r in results]
        machine.record("distribution", ran_on, columns, table, args.record)
    if args.json:
        print(json.dumps({"machine": ran_on, "cores": os.cpu_count(), "results": results}))
        return
    print(f"{os.cpu_count()} cores; load average before / after each rule set in the last column")
    header = "rules      lanes   build s  peak RSS MB  disk MB  load s  lookup ms  situation ms  load avg"
    print(header)
    for r in results:
        print(
            f"{r['rules']:<9} {r['lanes']:>8,} {r['build_seconds']:>8.1f} {r['peak_rss_mb']:>12,.0f} "
            f"{r['disk_mb']:>8,.0f} {r['load_seconds']:>7.2f} {r['lookup_ms']:>10.3f} "
            f"{r['situation_ms']:>13.2f}  {r['load_before']:.2f} / {r['load_after']:.2f}"
        )
    for r in results:
        print(f"{r['rules']}: start mean {r['start_mean']:.10f}, solver {r['expected_score']:.10f}")
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
