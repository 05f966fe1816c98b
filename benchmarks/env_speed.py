"""Environment steps per second: ours (single and vectorised) against ``pyhtzee`` and ``gym-yahtzee``.

The peers are written for the retired ``gym`` and pin old packages, so they live in a throwaway virtual
environment of their own (first step, once)::

    python3 -m venv /tmp/kniffel-peers && /tmp/kniffel-peers/bin/pip install pyhtzee gym-yahtzee
    .venv/bin/pip install -e '.[rl]'
    .venv/bin/python benchmarks/env_speed.py [--seconds 3] [--rounds 3] [--games 8192]
                                             [--peers-python /tmp/kniffel-peers/bin/python] [--json]

Every side plays Yahtzee with the free-choice joker (the peers' default rules) with a uniformly random
legal action per step, chosen the same way (Python's ``random`` over the legal actions), and counts
every step an agent takes (the peers' and ours: throws and box choices; ours rolls the first throw of a
turn itself, as ``pyhtzee`` does). Measured, in one run:

* ``KniffelEnv`` as ``gymnasium.make`` gives it, on its compiled engine (the default for this rule
  set) and on the game engine (what multi-column rule sets use);
* ``VectorKniffelEnv`` with ``--games`` games, the actions of every game drawn by numpy from the masks
  (the policy's time excluded: ``step`` alone; and with the policy included);
* ``pyhtzee`` (its ``Pyhtzee`` game: ``get_possible_actions`` and ``take_action``) and ``gym-yahtzee``
  (``YahtzeeSingleEnv.step``), in the peers' interpreter, if it is there.

The sides take turns for ``--rounds`` rounds and each side's best round counts, so that a busy
machine slows them alike. Nothing here is a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import time
import warnings
from typing import Any

import machine
import numpy as np

RULES = ("yahtzee", {"joker": "free"})
PEERS_PYTHON = "/tmp/kniffel-peers/bin/python"

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


def single_rate(engine: str, seconds: float) -> float:
    import gymnasium

    import kniffel.env

    env = gymnasium.make(kniffel.env.ENV_ID, rules=RULES[0], options=RULES[1], engine=engine)
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


def vector_rate(games: int, seconds: float) -> tuple[float, float]:
    """Steps per second of ``step`` alone, and with the random policy drawing the actions."""
    from kniffel.env import VectorKniffelEnv

    envs = VectorKniffelEnv(games, RULES[0], RULES[1], copy=False)
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
    parser.add_argument("--peers-python", default=PEERS_PYTHON, help="the peers' interpreter")
    parser.add_argument("--json", action="store_true")
    machine.add_record_option(parser)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    vector = f"VectorKniffelEnv ({args.games} games"
    rates: dict[str, Any] = {}

    def record(name: str, rate: Any) -> None:
        best = rates.get(name)
        if isinstance(rate, float):
            rates[name] = max(rate, best) if isinstance(best, float) else rate
        elif best is None:
            rates[name] = rate

    # the sides take turns, round after round, so that a change of the machine's load hits them all
    for _ in range(args.rounds):
        record("KniffelEnv (compiled engine)", single_rate("compiled", args.seconds))
        record("KniffelEnv (game engine)", single_rate("game", args.seconds))
        step_only, with_policy = vector_rate(args.games, args.seconds)
        record(f"{vector}, step alone)", step_only)
        record(f"{vector}, with the policy)", with_policy)
        for name, rate in peer_rates(args.peers_python, args.seconds).items():
            record(name, rate)
    machine.finish(ran_on)
    if args.record:
        table = [[name, rate] for name, rate in rates.items()]
        machine.record("env_speed", ran_on, ["environment", "steps/s"], table, args.record)
    if args.json:
        report = {"machine": ran_on, "rules": RULES[0], "options": RULES[1], "steps_per_second": rates}
        print(json.dumps(report, indent=1))
        return
    print(
        f"steps per second (best of {args.rounds}), {RULES[0]} {RULES[1]}, random legal actions, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    for name, rate in rates.items():
        print(f"  {name:<48} {rate:>14,.0f}" if isinstance(rate, float) else f"  {name:<48} {rate}")
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
