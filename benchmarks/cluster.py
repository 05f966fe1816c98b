"""What Ray costs and gives: the same games in-process and as Ray tasks on 1 and on 2 workers.

    .venv/bin/pip install -e '.[cluster]'
    .venv/bin/python benchmarks/cluster.py [--games 200000] [--deals 10] [--rules kniffel] [--json]

Two workloads, each run with the same seed everywhere (the scores are checked to be identical):

- optimal simulation (``bot:optimal`` in compiled code): ``--games`` games;
- a tournament ``bot`` against ``bot:optimal`` (games through the engine): ``--deals`` deals, each played
  twice.

Each is timed in-process (numba on every core for the compiled games; bot games are single-threaded
Python), in-process on one thread, and on a local Ray with 1 and with 2 CPUs (one worker per CPU, one
thread each). The Ray figures are wall time of the whole call after the same call with another seed
(workers started, kernels and tables loaded), so they include Ray's scheduling and the transfer of the
results; starting Ray itself is reported apart. Nothing here is a test: timings depend on the machine
and its load (see ``uptime``). The per-core rate of the 1-CPU Ray run is what docs/how-to/cluster.md scales
to a billion games.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import machine

BILLION = 1_000_000_000


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def measure(games: int, deals: int, rules_id: str, seed: int) -> dict[str, Any]:
    import numba
    import numpy as np
    import ray

    from kniffel import core as solver
    from kniffel import rules
    from kniffel.services import cluster
    from kniffel.services.simulate import simulate
    from kniffel.services.tournament import Tournament, tournament

    ruleset = rules.get(rules_id)
    solver.table(ruleset)
    specs = ["bot", "bot:optimal"]
    tournament_games = 2 * deals
    report: dict[str, Any] = {
        "rules": rules_id,
        "games": games,
        "tournament_games": tournament_games,
        "cores": os.cpu_count(),
        "load": os.getloadavg()[0],
    }

    def simulation(seed: int = seed) -> Any:
        return simulate(ruleset, games=games, seed=seed)

    def matches(seed: int = seed) -> Any:
        return tournament(Tournament(ruleset, specs, deals=deals, seed=seed))

    # Warm-ups play other games (another seed): the planners remember positions they have valued, so
    # replaying the measured games would time their memory, not their play.
    other = seed + 1
    simulation(other)  # compile or load the kernels
    threads = numba.get_num_threads()
    seconds, reference = timed(simulation)
    report["simulate"] = {"in_process": {"threads": threads, "seconds": seconds}}
    numba.set_num_threads(1)
    seconds, _ = timed(simulation)
    report["simulate"]["in_process_1_thread"] = {"threads": 1, "seconds": seconds}
    numba.set_num_threads(threads)
    matches(other)
    seconds, reference_tournament = timed(matches)
    report["tournament"] = {"in_process": {"threads": 1, "seconds": seconds}}

    warm_up = Tournament(ruleset, specs, deals=deals, seed=other)
    measured = Tournament(ruleset, specs, deals=deals, seed=seed)
    for cpus in (1, 2):
        started, _ = timed(partial(cluster.connect, cluster.LOCAL, cpus=cpus))
        report[f"ray_start_{cpus}_cpu"] = started
        # the same call once untimed: every worker started, its kernels and tables loaded
        cluster.simulate(ruleset, games=games, seed=other)
        seconds, result = timed(lambda: cluster.simulate(ruleset, games=games, seed=seed))
        assert np.array_equal(result.scores, reference.scores), "Ray played other games"
        report["simulate"][f"ray_{cpus}_cpu"] = {"workers": cpus, "seconds": seconds}
        cluster.tournament(warm_up)
        seconds, outcome = timed(partial(cluster.tournament, measured))
        assert outcome.to_json()["players"] == reference_tournament.to_json()["players"], "other games"
        report["tournament"][f"ray_{cpus}_cpu"] = {"workers": cpus, "seconds": seconds}
        ray.shutdown()

    for workload, count in (("simulate", games), ("tournament", tournament_games)):
        runs = report[workload]
        for run in runs.values():
            run["games_per_second"] = count / run["seconds"]
        base = runs["in_process"]["seconds"]
        for run in runs.values():
            run["relative_to_in_process"] = base / run["seconds"]
        if runs["ray_1_cpu"]["seconds"] > 0:
            runs["speedup_2_over_1_worker"] = runs["ray_1_cpu"]["seconds"] / runs["ray_2_cpu"]["seconds"]
    per_core = report["simulate"]["ray_1_cpu"]["games_per_second"]
    core_hours = BILLION / per_core / 3600
    report["billion_optimal_games"] = {
        "games_per_second_per_core": per_core,
        "core_hours": core_hours,
        "hours_on_100_cores": core_hours / 100,
    }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="optimal games to simulate")
    parser.add_argument("--deals", type=int, default=10, help="tournament deals (each played twice)")
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    report = measure(args.games, args.deals, args.rules, args.seed)
    report["machine"] = machine.finish(ran_on)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{args.rules}, {report['cores']} cores, load {report['load']:.1f}")
    starts = report["ray_start_1_cpu"], report["ray_start_2_cpu"]
    print(f"starting a local Ray: {starts[0]:.1f} s (1 CPU), {starts[1]:.1f} s (2 CPUs)")
    for workload in ("simulate", "tournament"):
        runs = report[workload]
        count = args.games if workload == "simulate" else report["tournament_games"]
        print(f"\n{workload}: {count:,} games")
        for name, run in runs.items():
            if isinstance(run, dict):
                print(
                    f"  {name:22} {run['seconds']:8.2f} s {run['games_per_second']:12,.1f} games/s "
                    f"({run['relative_to_in_process']:.2f}x in-process)"
                )
        print(f"  2 workers against 1: {runs['speedup_2_over_1_worker']:.2f}x")
    billion = report["billion_optimal_games"]
    print(
        f"\na billion optimal games at {billion['games_per_second_per_core']:,.0f} games/s per core: "
        f"{billion['core_hours']:,.0f} core-hours, {billion['hours_on_100_cores']:.1f} h on 100 cores"
    )
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
