"""Environment steps per second: ours (single, vectorised, the table), each with and without
``optimal_action=True``, and against ``pyhtzee`` and ``gym-yahtzee``.

The peers are written for the retired ``gym`` and pin old packages, so they live in a throwaway virtual
environment of their own (first step, once)::

    python3 -m venv /tmp/kniffel-peers && /tmp/kniffel-peers/bin/pip install pyhtzee gym-yahtzee
    .venv/bin/pip install -e '.[rl]'
    .venv/bin/python benchmarks/env_speed.py [--seconds 3] [--rounds 3] [--games 8192] [--players 2]
                                             [--peers-python /tmp/kniffel-peers/bin/python] [--json]
                                             [--builds native,avx2] [--record]

Every side plays Yahtzee with the free-choice joker (the peers' default rules) with a uniformly random
legal action per step, chosen the same way (Python's ``random`` over the legal actions), and counts
every step an agent takes (the peers' and ours: throws and box choices; ours rolls the first throw of a
turn itself, as ``pyhtzee`` does). Measured, in one run:

* ``KniffelEnv`` as ``gymnasium.make`` gives it, on its compiled engine (the default for this rule
  set) and on the game engine (what multi-column rule sets use);
* ``VectorKniffelEnv`` with ``--games`` games, the actions of every game drawn by numpy from the masks
  (the policy's time excluded: ``step`` alone; and with the policy included);
* ``KniffelAECEnv``, PettingZoo's table of ``--players`` players, each agent's action drawn from the mask
  of ``last()``;
* each of ours once as it is and once with ``optimal_action=True`` (every step's info holds the optimal
  action and every legal action's value in expected points), the same games, and the cost of it: the
  steps a second without over the steps a second with;
* ``pyhtzee`` (its ``Pyhtzee`` game: ``get_possible_actions`` and ``take_action``) and ``gym-yahtzee``
  (``YahtzeeSingleEnv.step``), in the peers' interpreter, if it is there.

The sides take turns for ``--rounds`` rounds and each side's best round counts, so that a busy
machine slows them alike; an environment with and without ``optimal_action`` are measured one after the
other, in the other order each round. With ``--builds native,avx2`` the whole run is made once per build
of the kernels (:mod:`builds`: each in its own process and kernel cache; an AVX2 build's first run
compiles) and the figures are printed side by side; ``--record`` keeps them (the native build alone
without ``--builds``) in the machine's results file. Nothing here is a test: timings depend on the
machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import warnings
from typing import Any

import builds
import machine
import numpy as np

RULES = ("yahtzee", {"joker": "free"})
PEERS_PYTHON = "/tmp/kniffel-peers/bin/python"
MOST = 3.0
"""What ``optimal_action=True`` may cost an environment: its steps a second at most this many times fewer."""

PEER_CODE = r"""
import json, random, sys, time, warnings
warnings.simplefilter("ignore")
seconds = float(sys.argv[1])
out = {}
try:
    from pyhtzee import Pyhtzee
    rnd = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Pyhtzee(seed=rnd.randrange(1, 2**31))
        while not game.is_finished():
            game.take_action(rnd.choice(game.get_possible_actions()))
            steps += 1
    out["pyhtzee"] = steps / (time.perf_counter() - start)
except Exception as error:
    out["pyhtzee"] = f"failed: {error!r}"
try:
    from gym_yahtzee.envs import YahtzeeSingleEnv
    env = YahtzeeSingleEnv()
    rnd = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        done = False
        while not done:
            _, _, done, _ = env.step(rnd.choice(env.pyhtzee.get_possible_actions()))
            steps += 1
    out["gym-yahtzee"] = steps / (time.perf_counter() - start)
except Exception as error:
    out["gym-yahtzee"] = f"failed: {error!r}"
print(json.dumps(out))
"""


def single_rate(engine: str, seconds: float, optimal: bool) -> float:
    import gymnasium

    import kniffel.env

    env = gymnasium.make(
        kniffel.env.ENV_ID, rules=RULES[0], options=RULES[1], engine=engine, optimal_action=optimal
    )
    rnd = random.Random(0)
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # warm up (compiled kernels load)
    _, info = env.reset(seed=1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = info["action_mask"].nonzero()[0]
        _, _, terminated, _, info = env.step(legal[rnd.randrange(len(legal))])
        steps += 1
        if terminated:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def vector_rate(games: int, seconds: float, optimal: bool) -> tuple[float, float]:
    """Steps per second of ``step`` alone, and with the random policy drawing the actions."""
    from kniffel.env import VectorKniffelEnv

    envs = VectorKniffelEnv(games, RULES[0], RULES[1], copy=False, optimal_action=optimal)
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    noise = rng.random((16, games, envs.encoding.n_actions), dtype=np.float32)
    envs.step(np.argmax(noise[0] * info["action_mask"], axis=1))  # warm up
    stepping = 0.0
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = np.argmax(noise[calls % 16] * info["action_mask"], axis=1)
        before = time.perf_counter()
        _, _, _, _, info = envs.step(actions)
        stepping += time.perf_counter() - before
        calls += 1
    return calls * games / stepping, calls * games / (time.perf_counter() - start)


def table_rate(players: int, seconds: float, optimal: bool) -> float:
    """Steps per second of PettingZoo's table: each agent's action drawn from the mask ``last()`` gives."""
    from kniffel.env import KniffelAECEnv

    env = KniffelAECEnv(RULES[0], RULES[1], players=players, optimal_action=optimal)
    rnd = random.Random(0)
    env.reset(seed=1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.reset()
            continue
        legal = observation["action_mask"].nonzero()[0]
        env.step(int(legal[rnd.randrange(len(legal))]))
        steps += 1
    return steps / (time.perf_counter() - start)


def ours(args: argparse.Namespace, optimal: bool) -> dict[str, float]:
    """One round of our environments, with or without ``optimal_action``."""
    vector = f"VectorKniffelEnv ({args.games} games"
    step_only, with_policy = vector_rate(args.games, args.seconds, optimal)
    return {
        "KniffelEnv (compiled engine)": single_rate("compiled", args.seconds, optimal),
        "KniffelEnv (game engine)": single_rate("game", args.seconds, optimal),
        f"{vector}, step alone)": step_only,
        f"{vector}, with the policy)": with_policy,
        f"KniffelAECEnv ({args.players} players)": table_rate(args.players, args.seconds, optimal),
    }


def peer_rates(python: str, seconds: float) -> dict[str, Any]:
    if not os.path.exists(python):
        return {"pyhtzee": f"not installed at {python}", "gym-yahtzee": f"not installed at {python}"}
    done = subprocess.run(
        [python, "-c", PEER_CODE, str(seconds)], capture_output=True, text=True, timeout=30 * seconds + 60
    )
    if done.returncode:
        reason = f"failed: {done.stderr.strip().splitlines()[-1:]}"
        return {"pyhtzee": reason, "gym-yahtzee": reason}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements per side; the best counts")
    parser.add_argument("--games", type=int, default=8192, help="games of the vectorised environment")
    parser.add_argument("--players", type=int, default=2, help="players at PettingZoo's table")
    parser.add_argument("--peers-python", default=PEERS_PYTHON, help="the peers' interpreter")
    parser.add_argument("--json", action="store_true")
    builds.add_option(parser)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.builds or args.record is not None:
        side_by_side(args)
        return
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    rates: dict[str, Any] = {}
    optimal: dict[str, float] = {}

    def record(found: dict[str, Any], name: str, rate: Any) -> None:
        best = found.get(name)
        if isinstance(rate, float):
            found[name] = max(rate, best) if isinstance(best, float) else rate
        elif best is None:
            found[name] = rate

    # the sides take turns, round after round, so that a change of the machine's load hits them all;
    # with and without optimal_action in the other order each round
    for round_ in range(args.rounds):
        for with_optimal in (False, True) if round_ % 2 == 0 else (True, False):
            for name, rate in ours(args, with_optimal).items():
                record(optimal if with_optimal else rates, name, rate)
        for name, rate in peer_rates(args.peers_python, args.seconds).items():
            record(rates, name, rate)
    machine.finish(ran_on)
    cost = {name: rates[name] / rate for name, rate in optimal.items()}
    if args.json:
        report = {
            "machine": ran_on,
            "rules": RULES[0],
            "options": RULES[1],
            "rounds": args.rounds,
            "steps_per_second": rates,
            "with_optimal_action": optimal,
            "optimal_action_cost": cost,
        }
        print(json.dumps(report, indent=1))
        return
    print(
        f"steps per second (best of {args.rounds}), {RULES[0]} {RULES[1]}, random legal actions, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(f"  {'environment':<48} {'steps/s':>14} {'optimal_action':>15} {'cost':>6}")
    for name, rate in rates.items():
        if not isinstance(rate, float):
            print(f"  {name:<48} {rate}")
        elif name in optimal:
            print(f"  {name:<48} {rate:>14,.0f} {optimal[name]:>15,.0f} {cost[name]:>5.2f}x")
        else:
            print(f"  {name:<48} {rate:>14,.0f}")
    print(f"  cost: the steps a second without optimal_action over those with it (at most {MOST}x)")
    print(machine.footer(ran_on))


def side_by_side(args: argparse.Namespace) -> None:
    """The run once per build (the native one alone without ``--builds``), each in its own process, side
    by side; with ``--record`` kept in the machine's results file."""
    chosen = args.builds or ["native"]
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    results = builds.run(__file__, chosen, sys.argv[1:])
    machine.finish(ran_on)
    columns = ["environment"] + [
        name for build in chosen for name in (f"{build} steps/s", f"{build} optimal_action", f"{build} cost")
    ]
    names = list(dict.fromkeys(name for result in results.values() for name in result["steps_per_second"]))
    rows: list[list[Any]] = []
    for name in names:
        row: list[Any] = [name]
        for build in chosen:
            result = results[build]
            rate = result["steps_per_second"].get(name)
            row += [rate, result["with_optimal_action"].get(name), result["optimal_action_cost"].get(name)]
        rows.append(row)
    if args.record is not None:
        numba = {build: machine.target_line(result["machine"]["numba"]) for build, result in results.items()}
        rounds = results[chosen[0]]["rounds"]
        note = f"best of {rounds} rounds; cost: the steps a second without optimal_action over those with it"
        path = machine.record("env_speed", ran_on, columns, rows, args.record, numba=numba, note=note)
        print(f"recorded in {path}", file=sys.stderr)
    if args.json:
        print(json.dumps({"machine": ran_on, "builds": results}, indent=1))
        return
    for build, result in results.items():
        print(f"[{build}] {machine.target_line(result['machine']['numba'])}")
    print("  " + " ".join([f"{columns[0]:<48}", *(f"{column:>22}" for column in columns[1:])]))
    for row in rows:
        cells = [f"{row[0]:<48}"] + [f"{shown(value, i % 3 == 2):>22}" for i, value in enumerate(row[1:])]
        print("  " + " ".join(cells))
    print(machine.footer(ran_on))


def shown(value: Any, cost: bool) -> str:
    """A figure of the side-by-side table: a rate in steps a second, a cost as a factor."""
    if value is None or isinstance(value, str):
        return "-" if value is None else value
    return f"{value:.2f}x" if cost else f"{value:,.0f}"


if __name__ == "__main__":
    main()
