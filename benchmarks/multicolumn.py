"""Multi-column play: games through the engine against whole games in the compiled sheet search.

    .venv/bin/python benchmarks/multicolumn.py [--before 4] [--after 20000] [--best-of 3] [--json]
        [--rules kniffel-3col kniffel-4col super-kniffel]

For each rule set and each of ``bot`` (the heuristic) and ``bot:optimal`` (the column estimate):

- *before*: ``--before`` games through :class:`~kniffel.engine.game.Game`, one decision at a time by the bot
  (the path every rule set can take; its planner asks the compiled search for each decision);
- *after*: ``--after`` games in :class:`~kniffel.planning.compiled.SheetSearch` (what ``kniffel simulate``
  plays on these sheets), on numba's threads.

The two paths draw their dice differently (the engine's seeded dice, the kernels' per-game streams), so
their games differ: the means agree within noise, not game by game (``tests/planning/test_sheet_search.py``
replays compiled games through the engine). Each figure is the best of ``--best-of`` runs with the same
seed (the games, and so the mean, are the same every run), after a warm-up run that loads the tables and
compiled kernels. The load average is printed
with the table: the machine may be shared, and timings follow its load. Nothing here is a test.

``--record`` keeps the table in ``benchmarks/results/<machine>.json``. With ``--before 3 --after 10000
--best-of 3`` on 2 cores and 2 numba threads, load average 1.7-1.9 (compiled games/s, mean score of the
10,000 games):

    rules          bot            bot:optimal
    kniffel-3col   2691  586.0    2304  612.1
    kniffel-4col   1908  885.3    1579  930.2
    super-kniffel  2346  993.0    2429  1073.3

A turn's lanes go through one sweep, and the announced boxes' entries are kept from one turn to the
next: on the same games that makes the sheets with an announced column about twice as fast as a sweep
per lane with the entries made anew (kniffel-4col ``bot`` 1,919 against 1,043 games/s, ``bot:optimal``
1,683 against 733), and changes nothing for super-kniffel, which has none. Of a kniffel-4col turn about
half the time is the sweep of its lanes, the rest entering the rolls in the changed column and the
announced boxes.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import machine

RULES = ("kniffel-3col", "kniffel-4col", "super-kniffel")
STRATEGIES = ("bot", "bot:optimal")


def best_of(runs: int, play: Any) -> Any:
    """The fastest of ``runs`` calls of ``play`` (a chunk of games)."""
    return min((play() for _ in range(runs)), key=lambda chunk: chunk.seconds)


def measure(rules_ids: list[str], before: int, after: int, runs: int, seed: int) -> list[dict[str, Any]]:
    from kniffel import rules
    from kniffel.services.plans import Engine, Sheet, resolve

    rows = []
    for rules_id in rules_ids:
        ruleset = rules.get(rules_id)
        for strategy in STRATEGIES:
            sheet = resolve(ruleset, strategy)
            if not isinstance(sheet, Sheet):
                raise SystemExit(f"{rules_id}: {strategy} has no compiled sheet search")
            engine = Engine(rules=ruleset, strategy=strategy)
            engine.play(seed, 0, 1)  # tables, kernels
            slow = best_of(runs, lambda: engine.play(seed, 0, before))  # noqa: B023
            fast = best_of(runs, lambda: sheet.play(seed, 0, after))  # noqa: B023
            slow_rate = before / slow.seconds
            fast_rate = after / fast.seconds
            rows.append(
                {
                    "rules": rules_id,
                    "strategy": strategy,
                    "before_games": before,
                    "before_games_per_s": slow_rate,
                    "before_mean": float(slow.scores.mean()),
                    "after_games": after,
                    "after_games_per_s": fast_rate,
                    "after_mean": float(fast.scores.mean()),
                    "after_stderr": float(fast.scores.std(ddof=1) / fast.scores.shape[0] ** 0.5),
                    "ratio": fast_rate / slow_rate,
                    "load": os.getloadavg()[0],
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=int, default=4, help="games through the engine")
    parser.add_argument("--after", type=int, default=20_000, help="games in the compiled search")
    parser.add_argument("--best-of", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=list(RULES))
    parser.add_argument("--json", action="store_true")
    machine.add_record_option(parser)
    args = parser.parse_args()
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    import numba

    rows = measure(args.rules, args.before, args.after, args.best_of, args.seed)
    machine.finish(ran_on)
    if args.record:
        columns = ["rules", "bot", "engine games/s", "compiled games/s", "compiled / engine", "mean score"]
        keys = ("rules", "strategy", "before_games_per_s", "after_games_per_s", "ratio", "after_mean")
        table = [[row[key] for key in keys] for row in rows]
        machine.record("multicolumn", ran_on, columns, table, args.record)
    if args.json:
        report = {"machine": ran_on, "threads": numba.get_num_threads(), "rows": rows}
        print(json.dumps(report, indent=2))
        return
    print(f"numba threads {numba.get_num_threads()}, cores {os.cpu_count()}")
    header = (
        f"{'rules':<14} {'strategy':<12} {'before/s':>9} {'after/s':>9} {'ratio':>7} "
        f"{'mean before':>11} {'mean after':>14} {'load':>5}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['rules']:<14} {row['strategy']:<12} {row['before_games_per_s']:>9.2f} "
            f"{row['after_games_per_s']:>9.0f} {row['ratio']:>7.0f} {row['before_mean']:>11.1f} "
            f"{row['after_mean']:>8.1f} ±{row['after_stderr']:<4.1f} {row['load']:>5.1f}"
        )
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
