"""Train a small agent with masked PPO and compare its mean score with optimal play.

Not part of the library or its tests; it needs PyTorch, Stable-Baselines3 and sb3-contrib besides the
``rl`` extra::

    .venv/bin/pip install -e '.[rl]' torch stable-baselines3 sb3-contrib
    .venv/bin/python examples/train_ppo.py [--rules yahtzee] [--option joker=free]
                                           [--timesteps 300000] [--envs 8] [--eval-games 500] [--seed 0]

The agent sees :class:`kniffel.env.KniffelEnv`'s observation (normalised by ``VecNormalize``) and
chooses only legal actions (sb3-contrib's ``MaskablePPO`` reads the env's ``action_masks``). Its reward
is the points each move gains, undiscounted, so it learns to maximise the final score. At the end it
plays ``--eval-games`` games and prints its mean score beside ``bot:optimal``'s over as many games
(:func:`kniffel.simulate.simulate`; the first run solves the rule set's table, about a minute).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecNormalize

from kniffel.env import KniffelEnv
from kniffel.rules import get as get_rules
from kniffel.rules import parse_options
from kniffel.services.simulate import simulate


def evaluate(model: MaskablePPO, envs: VecNormalize, games: int) -> float:
    """Mean final score of ``games`` games, the agent taking its most likely legal action."""
    envs.training = False
    totals: list[float] = []
    running = np.zeros(envs.num_envs)
    obs: Any = envs.reset()
    while len(totals) < games:
        actions, _ = model.predict(obs, action_masks=get_action_masks(envs), deterministic=True)
        obs, _, dones, _ = envs.step(actions)
        running += envs.get_original_reward()
        for i, done in enumerate(dones):
            if done:
                totals.append(float(running[i]))
                running[i] = 0.0
    return float(np.mean(totals[:games]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--option", action="append", default=[], help="a rule option, e.g. joker=free")
    parser.add_argument("--timesteps", type=int, default=300_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)  # a small network: more threads only contend for the cores
    options = parse_options(args.option)
    rules = get_rules(args.rules, options)

    envs = VecNormalize(
        make_vec_env(KniffelEnv, n_envs=args.envs, seed=args.seed, env_kwargs={"rules": rules}),
        norm_obs=True,
        norm_reward=True,
        gamma=1.0,
    )
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=512,
        batch_size=512,
        gamma=1.0,
        gae_lambda=0.95,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    trained = time.perf_counter() - start
    mean = evaluate(model, envs, args.eval_games)
    optimal = simulate(rules, strategy="bot:optimal", games=args.eval_games, seed=args.seed)
    print(f"rules {rules.id} {dict(rules.options)}: {args.timesteps:,} steps in {trained / 60:.1f} min")
    print(f"  agent (MaskablePPO)  mean score {mean:7.2f} over {args.eval_games} games")
    print(f"  bot:optimal          mean score {optimal.mean:7.2f} (exact expectation {optimal.expected:.2f})")


if __name__ == "__main__":
    main()
