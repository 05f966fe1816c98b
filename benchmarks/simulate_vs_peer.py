"""Optimal-policy simulation speed against the peer package ``yatzy-solver``, in the same run.

    .venv/bin/pip install -e '.[bench]'          # or: pip install yatzy-solver
    .venv/bin/python benchmarks/simulate_vs_peer.py [--variants yahtzee yatzy] [--peer-games 20000]
                                                    [--games 20000 100000 1000000] [--json]
                                                    [--repeat 3] [--builds native,avx2]
                                                    [--command-games 1000000]

For each variant (Yahtzee with the free joker = the peer's ``american``; Scandinavian Yatzy = its
``yatzy-scandinavian``) both sides first get their solved table (not timed: ours from the disk cache,
the peer's built in memory), then play optimal games with a seed; games per second count the playing
alone, on all cores for both. Ours is measured at several game counts because games in the same state
share their turn tables, so larger runs go faster; the ratio is given at the peer's game count and at
each of ours. The means are printed beside the exact expectation as a sanity check. Nothing here is a
test: timings depend on the machine and its load (printed before and after, with the machine: :mod:`machine`).

The whole command is measured too: ``kniffel simulate --games N --json`` in a process of its own (the
table already on disk, the kernels compiled), its wall time from start to exit (starting Python, loading
the table, playing, summing up), against the peer's playing alone: a ratio that counts against us.

Each variant's yardstick is also measured: a whole ``kniffel solve --no-cache`` (best of ``--repeat``).
With ``--builds native,avx2`` it all runs once with kernels compiled for this processor and once for
AVX2 (:mod:`builds`), side by side: games a second with how many fit in the time of one solve, and our
rate as a multiple of the peer's in the same build.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import time
from typing import Any

import builds
import machine

VARIANTS: dict[str, tuple[str, dict[str, str], str]] = {
    "yahtzee": ("yahtzee", {"joker": "free"}, "american"),
    "yatzy": ("yatzy", {}, "yatzy-scandinavian"),
}


def peer_rate(variant: str, games: int, seed: int) -> dict[str, float]:
    import yatzy_solver as ys  # type: ignore[import-untyped]  # the peer ships no type hints

    solver = ys.Solver.build(ys.Variant(variant))
    solver.simulate(100, seed=seed)  # warm up the thread pool
    start = time.perf_counter()
    result = solver.simulate(games, seed=seed)
    seconds = time.perf_counter() - start
    return {"games": games, "seconds": seconds, "games_per_second": games / seconds, "mean": result["mean"]}


def our_rate(rules_id: str, options: dict[str, str], games: int, seed: int) -> dict[str, float]:
    from kniffel import core as solver
    from kniffel import rules
    from kniffel.services.simulate import simulate

    ruleset = rules.get(rules_id, options)
    table = solver.table(ruleset)
    result = simulate(ruleset, games=games, seed=seed, solution=table)
    return {
        "games": games,
        "seconds": result.seconds,
        "games_per_second": result.games_per_second,
        "mean": result.mean,
        "stderr": result.stderr,
        "expected": table.expected_score,
    }


def our_command(rules_id: str, options: dict[str, str], games: int, seed: int) -> dict[str, float]:
    """``kniffel simulate`` as a person runs it, in a process of its own: games over its whole wall time."""
    command = ["simulate", "--games", str(games), "--seed", str(seed), "--json"]
    seconds = builds.command_seconds(command, rules_id, options)
    return {"games": games, "seconds": seconds, "games_per_second": games / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", nargs="+", default=["yahtzee", "yatzy"], choices=list(VARIANTS))
    parser.add_argument("--peer-games", type=int, default=20_000)
    parser.add_argument("--games", type=int, nargs="+", default=[20_000, 100_000, 1_000_000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="Whole solves (the yardstick), best taken.")
    parser.add_argument(
        "--command-games", type=int, default=1_000_000, help="Games of the whole command (0: not run)."
    )
    parser.add_argument("--json", action="store_true")
    builds.add_option(parser)
    args = parser.parse_args()
    if importlib.util.find_spec("yatzy_solver") is None:
        sys.exit("yatzy-solver is not installed: pip install -e '.[bench]'")
    if builds.compare(args, __file__, figures):
        return
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    report: dict[str, Any] = {"machine": ran_on}
    for name in args.variants:
        rules_id, options, variant = VARIANTS[name]
        peer = peer_rate(variant, args.peer_games, args.seed)
        counts = sorted({args.peer_games, *args.games})
        ours = [our_rate(rules_id, options, n, args.seed) for n in counts]
        for row in ours:
            row["ratio"] = row["games_per_second"] / peer["games_per_second"]
        command = None
        if args.command_games > 0:
            command = our_command(rules_id, options, args.command_games, args.seed)
            command["ratio"] = command["games_per_second"] / peer["games_per_second"]
        solve = builds.solve_seconds(rules_id, options, repeat=args.repeat)
        report[name] = {"peer": peer, "ours": ours, "command": command, "solve_s": solve}
    machine.finish(ran_on)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name in args.variants:
        peer = report[name]["peer"]
        print(f"== {name} (whole solve, the yardstick: {report[name]['solve_s']:.2f} s)")
        print(
            f"  peer  {peer['games']:>9,} games  {peer['seconds']:7.3f} s  "
            f"{peer['games_per_second']:>10,.0f} games/s  mean {peer['mean']:.3f}"
        )
        for row in report[name]["ours"]:
            z = (row["mean"] - row["expected"]) / row["stderr"] if row["stderr"] else math.nan
            print(
                f"  ours  {row['games']:>9,} games  {row['seconds']:7.3f} s  "
                f"{row['games_per_second']:>10,.0f} games/s  mean {row['mean']:.3f} "
                f"(exact {row['expected']:.3f}, z {z:+.1f})  ratio {row['ratio']:.1f}x"
            )
        command = report[name]["command"]
        if command is not None:
            print(
                f"  ours  {command['games']:>9,} games  {command['seconds']:7.3f} s  "
                f"{command['games_per_second']:>10,.0f} games/s  the whole command (kniffel simulate)  "
                f"ratio {command['ratio']:.1f}x"
            )
    print(machine.footer(ran_on))


def figures(report: dict[str, Any]) -> list[builds.Row]:
    """A ``--json`` report's rates (with the games in the time of one solve) and ratios to the peer."""
    rows: list[builds.Row] = []
    for name, r in report.items():
        if name == "machine":
            continue
        solve, peer = r["solve_s"], r["peer"]
        rows.append((f"{name}: whole solve", solve, "s", 1.0))
        rate = peer["games_per_second"]
        rows.append((f"{name}: peer, {peer['games']:,} games", rate, "/s", rate * solve))
        for row in r["ours"]:
            rate = row["games_per_second"]
            rows.append((f"{name}: ours, {row['games']:,} games", rate, "/s", rate * solve))
            rows.append((f"{name}: ours/peer, {row['games']:,} games", row["ratio"], "x", None))
        command = r.get("command")
        if command is not None:
            rate = command["games_per_second"]
            label = f"{name}: kniffel simulate, {command['games']:,} games"
            rows.append((label, rate, "/s", rate * solve))
            rows.append((f"{name}: kniffel simulate/peer", command["ratio"], "x", None))
    return rows


if __name__ == "__main__":
    main()
