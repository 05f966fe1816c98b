"""How fast each built-in bot plays: games a second in a simulation (one bot alone) and in tournaments
(against itself, and against ``bot:optimal``, on the same dice), on Yahtzee and Kniffel.

    .venv/bin/python benchmarks/bots_speed.py [--rules yahtzee kniffel] [--seconds 10] [--json]
        [--bots bot bot:optimal bot:win] [--repeat 3] [--builds native,avx2]

Each figure is the best of two runs after a warm-up run (the kernels compiled or loaded, the tables
solved; for ``bot:win`` in tournaments the win tables, built once per rule set in about a minute and a
half and kept for all its runs: :class:`kniffel.services.tournament.Prepared`), with as many games as fit in
about ``--seconds``. The goal is 1,000 games a second for every built-in bot on 2 cores. Everything here
plays compiled: in simulations ``bot`` by its own table, all games at once as tournaments play it
(:func:`kniffel.services.plans.own_table`, many times faster than its turn search one turn at a
time, :func:`kniffel.services.plans.sheet_search`), ``bot:optimal`` and ``bot:win`` (which alone plays
for points) by the solver's policy (:mod:`kniffel.core.play`); in tournaments every table of these bots,
mixed as they come, at once (:func:`kniffel.core.winplay.play_to_win`; the heuristic by its own table of
values).

Each rule set's yardstick is a whole ``kniffel solve --no-cache`` in the same run (best of ``--repeat``):
beside games a second, the games played in the time of one such solve. With ``--builds native,avx2``
it all runs once with kernels compiled for this processor and once for AVX2 (:mod:`builds`), side by
side. The machine, its caches and what numba compiled for are printed first (:mod:`machine`).

``bot:win`` at a table spends most of its time in the win turn (:func:`kniffel.core.kernels.win.win_turn`:
the weighted sums of its entries, up to 64 games swept at once; ``docs/explanation/kernels.md``, "Compiled
games"). With ``--record`` the figures are kept in ``benchmarks/results/`` (:func:`machine.record`), which
the documentation's performance page shows.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import builds
import machine

from kniffel import RuleSet, rules
from kniffel.services.simulate import simulate
from kniffel.services.tournament import Prepared, Tournament, tournament

BOTS = ("bot", "bot:optimal", "bot:win")
HEADER = f"    {'rules':8} {'bot':12} {'simulate':>8} {'vs itself':>10} {'vs bot:optimal':>15}  load"


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


def measure(ruleset: RuleSet, bot: str, prepared: Prepared, seconds: float) -> dict[str, Any]:
    """One row: ``bot`` alone, against itself and against ``bot:optimal`` on ``ruleset``."""

    def simulated(n: int) -> int:
        return simulate(ruleset, strategy=bot, games=n, seed=1).games

    def against(opponent: str) -> Callable[[int], int]:
        def matched(n: int) -> int:
            deals = max(1, n // 2)
            result = tournament(Tournament(ruleset, [bot, opponent], deals=deals, seed=1), prepared=prepared)
            return result.games

        return matched

    return {
        "rules": ruleset.id,
        "bot": bot,
        "simulate": rate(simulated, seconds),
        "itself": rate(against(bot), seconds),
        "optimal": rate(against("bot:optimal"), seconds),
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", nargs="+", default=["yahtzee", "kniffel"])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--bots", nargs="+", default=list(BOTS), choices=BOTS)
    parser.add_argument("--repeat", type=int, default=3, help="Whole solves (the yardstick), best taken.")
    parser.add_argument("--json", action="store_true")
    builds.add_option(parser)
    args = parser.parse_args()
    if builds.compare(args, __file__, figures):
        return
    ran_on = machine.describe()
    rows: list[dict[str, Any]] = []
    solves = {rules_id: builds.solve_seconds(rules_id, repeat=args.repeat) for rules_id in args.rules}
    if not args.json:
        print(machine.header(ran_on))
        print(f"games a second, {os.cpu_count()} cores; goal: 1,000 for every built-in bot")
        print("whole solve (the yardstick): " + ", ".join(f"{r} {s:.2f} s" for r, s in solves.items()))
        print(HEADER, flush=True)
    for rules_id in args.rules:
        ruleset = rules.get(rules_id)
        prepared = Prepared(ruleset)  # the win tables: built at bot:win's first tournament, then kept
        for bot in args.bots:
            row = measure(ruleset, bot, prepared, args.seconds)
            rows.append(row)
            if not args.json:
                print(line(row), flush=True)
    machine.finish(ran_on)
    if args.json:
        print(json.dumps({"machine": ran_on, "solve_s": solves, "rows": rows}))
    else:
        print(machine.footer(ran_on))


def figures(report: dict[str, Any]) -> list[builds.Row]:
    """A ``--json`` report's rates, each with the games played in the time of its rule set's solve."""
    found: list[builds.Row] = []
    for row in report["rows"]:
        solve = report["solve_s"][row["rules"]]
        for key, what in (("simulate", "simulate"), ("itself", "vs itself"), ("optimal", "vs bot:optimal")):
            found.append((f"{row['rules']} {row['bot']}: {what}", row[key], "/s", row[key] * solve))
    found += [(f"{rules_id}: whole solve", s, "s", 1.0) for rules_id, s in report["solve_s"].items()]
    return found


def line(row: dict[str, Any]) -> str:
    return (
        f"    {row['rules']:8} {row['bot']:12} {row['simulate']:>8,.0f} {row['itself']:>10,.0f}"
        f" {row['optimal']:>15,.0f}  {row['load']:.1f}"
    )


if __name__ == "__main__":
    main()
