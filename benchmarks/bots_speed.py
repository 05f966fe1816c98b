"""How fast each built-in bot plays: games a second in a simulation (one bot alone) and in a tournament
(every bot against ``bot:optimal`` on the same dice), on Yahtzee and Kniffel.

    .venv/bin/python benchmarks/bots_speed.py [--rules yahtzee kniffel] [--seconds 10] [--json]

Each figure is the best of two runs after a warm-up run (the kernels compiled or loaded, the tables
solved), with as many games as fit in about ``--seconds``. The goal is 1,000 games a second for every
built-in bot on 2 cores. ``bot`` (the heuristic) plays compiled on sheets without free throws
(:func:`kniffel.simulate.sheet_search`), ``bot:optimal`` compiled everywhere the solver covers, and goal
bots compiled in tournaments (:mod:`kniffel.solver.winplay`); a tournament table that mixes the
heuristic with a goal bot goes through the engine, one decision at a time.

Nothing here is a test: timings depend on the machine and its load, which is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

from kniffel import RuleSet, rules
from kniffel.simulate import simulate
from kniffel.tournament import tournament

BOTS = ("bot", "bot:optimal", "bot:win")


def rate(play: Callable[[int], int], seconds: float) -> float:
    """Games a second of ``play(n)`` (which plays about ``n`` games and returns how many), sized to take
    about ``seconds``: a warm-up (compiling, loading, solving tables), a run of 400 games to size the
    runs, then the best of two."""
    play(20)
    start = time.perf_counter()
    best = play(400) / (time.perf_counter() - start)
    for _ in range(2):
        count = int(min(max(best * seconds / 2, 400), 400_000))
        start = time.perf_counter()
        best = max(best, play(count) / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", nargs="+", default=["yahtzee", "kniffel"])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for rules_id in args.rules:
        ruleset = rules.get(rules_id)
        for bot in BOTS:

            def simulated(n: int, bot: str = bot, ruleset: RuleSet = ruleset) -> int:
                return simulate(ruleset, strategy=bot, games=n, seed=1).games

            def matched(n: int, bot: str = bot, ruleset: RuleSet = ruleset) -> int:
                deals = max(1, n // 2)
                result = tournament(ruleset, [bot, "bot:optimal"], deals=deals, seed=1)
                return result.games

            sim = rate(simulated, args.seconds) if bot != "bot:win" else None
            match = rate(matched, args.seconds) if bot != "bot:optimal" else None
            rows.append({"rules": rules_id, "bot": bot, "simulate": sim, "tournament": match})
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"load": load, "rows": rows}))
        return
    print(f"games a second (2 cores, load {load:.1f}); goal: 1,000 for every built-in bot")
    print(f"  {'rules':8} {'bot':12} {'simulate':>10} {'vs bot:optimal':>15}")
    for row in rows:
        alone = "-" if row["simulate"] is None else f"{row['simulate']:,.0f}"
        paired = "-" if row["tournament"] is None else f"{row['tournament']:,.0f}"
        print(f"  {row['rules']:8} {row['bot']:12} {alone:>10} {paired:>15}")


if __name__ == "__main__":
    main()
