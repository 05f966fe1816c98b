"""``bot:win`` against ``bot:optimal``: its win rate, and how well the predicted chances of winning are
calibrated.

    .venv/bin/python benchmarks/win_rate.py --rules kniffel --deals 100000 [--players 2] [--seed 1] [--json]

The games run compiled (:func:`kniffel.core.winplay.play_to_win`: the win planner's values, the
simulator's turns; ``tests/core/test_winplay.py`` replays them through the engine and the planners).
``--engine python`` plays them with the bots through the engine instead (about 11 games/s), a cross-check.

Every deal is played from every seat (duplicate play on seat-bound dice: the tournament's
:mod:`kniffel.services.tournament` through the engine, :func:`~kniffel.core.winplay.seat_streams` compiled),
so luck is shared out alike. A tie for first is half a win between two players
(a third among three...), as the tournament counts it; the win rate comes with a 95 % Wilson interval.
``--players 3`` or ``4`` seats ``bot:win`` against that many less one ``bot:optimal``: an even share is
then 1/3 or 1/4.

Calibration: before every turn of every game, each player's predicted chance of winning
(:func:`kniffel.planning.win_chances`: every player playing for points from there) is recorded with
what that player's game came to, a tie counted as the chances count it: its share of the win (1/k in a
tie of k), or under the house rule ``--option tie_wins_all=on`` a whole win for every tied player. The
predictions are binned by tenths; in each bin the observed frequency should lie within the bin (the
reliability table), and the Brier score is the mean squared error of the predictions. ``bot:win`` plays to
win rather than for points, so its own chances are a little underestimated; ``--calibrate-optimal`` plays
``bot:optimal`` against itself instead, where the model is exact.

With a tie worth its share, and under the house rule ``tie_wins_all=on`` (a tie a whole win, as ``bot:win``
valued it before), on Kniffel and Yahtzee, 100,000 deals each: ``benchmarks/results/reports/win_rate-RULES-
tie_wins_all-OFF_OR_ON.json`` (``--option tie_wins_all=off|on --deals 100000 --json``), shown in
``docs/explanation/winning.md``; with two players the JSON also holds the clairvoyant ceiling's bound
(``clairvoyant_bound``: the exact rows' chance at the start of reaching the others' bar, a policy per
bar). The figures below valued a tie as a whole win.

With three and four players (compiled, seed 1, 2 cores, a game a role; bot:win reads the early rows'
horizon for its first four turns as the planner does):

    rules    players  games    games/s  bot:win's share (95 %)   even   means win / optimal  Brier
    kniffel  2        200,000  509      51.33 % (51.11-51.55)    50 %   241.9 / 249.8        0.1695
    yahtzee  2        200,000  494      51.56 % (51.34-51.78)    50 %   245.2 / 254.3        0.1694
    kniffel  3         75,000  486      34.73 % (34.39-35.07)    33.3   240.1 / 249.8        0.1531
    yahtzee  3         60,000  370      34.85 % (34.47-35.24)    33.3   242.7 / 254.2        0.1531
    kniffel  4         60,000  384      26.47 % (26.12-26.82)    25 %   238.0 / 249.7        0.1296
    yahtzee  4         48,000  289      26.75 % (26.36-27.15)    25 %   240.4 / 254.3        0.1293

With the early rows' horizon at eight boxes open (an AMD EPYC Zen 1, 1,021 and 1,071 games/s): Kniffel 51.34 %
(51.12-51.56), means 241.93 / 249.80, Brier 0.1695; Yahtzee 51.59 % (51.38-51.81), means 245.17 / 254.32,
Brier 0.1694 (two players, 200,000 games each, as above).

In every tenth of predicted chance the observed frequency of winning lies inside that tenth (Kniffel, two
players, 10.4 million predictions: 0.028 predicted / 0.030 observed in the lowest tenth, 0.972 / 0.971 in
the highest). Through the engine (``--engine python``) the same games run at about 11 a second.

Nothing here is a test: it prints figures. ``--processes N`` splits the Python engine's deals over N
processes (the compiled games use every core already).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import machine
import numpy as np

from kniffel import bots, rules
from kniffel.core import deal_seed
from kniffel.engine.game import Game
from kniffel.planning import win_chances
from kniffel.rules import parse_options, tie_wins_all
from kniffel.services.tournament import DealDice

Z95 = 1.959963984540054


def wilson(won: float, games: int) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p = won / games
    centre = (p + Z95**2 / (2 * games)) / (1 + Z95**2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / (1 + Z95**2 / games)
    return centre - half, centre + half


def play_deals(args: tuple[str, dict[str, str], list[str], int, int, int]) -> dict[str, Any]:
    """Deals ``first .. first + count - 1``, each from every seat rotation: the win shares of every spec,
    and (prediction, outcome) pairs for calibration."""
    rules_id, options, specs, seed, first, count = args
    ruleset = rules.get(rules_id, options)
    players = len(specs)
    # by role: role 0 is the bot under test, whatever seat it has in a rotation
    shares = [0.0] * players
    scores: list[list[int]] = [[] for _ in specs]
    predictions: list[float] = []
    outcomes: list[float] = []
    made = [bots.make(spec) for spec in specs]
    for deal in range(first, first + count):
        for rotation in range(players):
            seated = [(i + rotation) % players for i in range(players)]
            dice = DealDice(deal_seed(seed, deal))
            game = Game(ruleset, [f"P{i}" for i in range(players)], dice=dice)
            dice.follow(game)
            pending: list[list[float]] = []
            while not game.is_over:
                if game.turn.dice is None and game.rolls_left == ruleset.rolls:
                    pending.append(win_chances(game))
                game.apply(made[seated[game.current]].choose(game))
            winners = set(game.winners())
            won = 1.0 if tie_wins_all(ruleset) else 1.0 / len(winners)
            for row in pending:
                for seat, chance in enumerate(row):
                    predictions.append(chance)
                    outcomes.append(won if f"P{seat}" in winners else 0.0)
            for seat, role in enumerate(seated):
                scores[role].append(game.sheets[seat].total)
                if f"P{seat}" in winners:
                    shares[role] += 1.0 / len(winners)
    return {"shares": shares, "scores": scores, "predictions": predictions, "outcomes": outcomes}


def play_compiled(
    rules_id: str, options: dict[str, str], players: int, seed: int, deals: int, batch: int
) -> dict[str, Any]:
    """The same figures from the compiled games, ``batch`` deals at a time."""
    from kniffel.core import (
        bar,
        build_table,
        compile_rules,
        early_rows,
        empty_state,
        play_to_win,
        solve,
        solve_rows,
    )

    ruleset = rules.get(rules_id, options)
    solution = solve(ruleset)
    # every state's target rows and final scores, in memory (the games reach every state), and the early
    # rows bot:win reads from disk at first
    begin = time.perf_counter()
    targets = solve_rows(compile_rules(ruleset))
    distributions = build_table(solution)
    early = early_rows(solution.compiled, use_cache=False, distributions=distributions)
    print(
        f"  tables of every state solved in {time.perf_counter() - begin:.0f} s", file=sys.stderr, flush=True
    )
    # the clairvoyant ceiling's bound: knowing the others' final scores, the best chance of reaching their
    # bar, each bar its own policy (as the exact rows tell it at the start, a tie counted as the rules do)
    c = solution.compiled
    start = empty_state(c)
    other = distributions.points_to_come(distributions.lane(0, c.n_free - 1, 0, 0))
    others = bar([other] * (players - 1), shared=not tie_wins_all(ruleset))
    ceiling = float(others.probabilities @ targets.curve(start, others.low, len(others.probabilities)))
    shares = [0.0] * players
    scores: list[list[int]] = [[] for _ in range(players)]
    predictions: list[np.ndarray] = []
    outcomes: list[np.ndarray] = []
    for first in range(0, deals, batch):
        count = min(batch, deals - first)
        matches = play_to_win(
            solution, players=players, deals=count, seed=seed, first_deal=first, predict=True,
            targets=targets, distributions=distributions, early=early,
        )  # fmt: skip
        for role, share in enumerate(matches.shares().sum(axis=0)):
            shares[role] += float(share)
        for role, column in enumerate(matches.role_scores().T):
            scores[role].extend(column.tolist())
        assert matches.predictions is not None
        predictions.append(matches.predictions.reshape(-1))
        came = matches.outcomes(shared=not tie_wins_all(ruleset))
        outcomes.append(np.broadcast_to(came[:, None, None, :], matches.predictions.shape).reshape(-1))
        print(f"  {first + count} of {deals} deals", file=sys.stderr, flush=True)
    return {
        "shares": shares,
        "scores": scores,
        "predictions": np.concatenate(predictions).astype(np.float64),
        "outcomes": np.concatenate(outcomes),
        "clairvoyant_bound": ceiling,
    }


def reliability(predictions: np.ndarray, outcomes: np.ndarray) -> list[dict[str, Any]]:
    rows = []
    for low in np.arange(0.0, 1.0, 0.1):
        high = low + 0.1
        inside = (predictions >= low) & ((predictions < high) | (high >= 1.0) & (predictions <= 1.0))
        n = int(inside.sum())
        if not n:
            continue
        observed = float(outcomes[inside].mean())
        rows.append(
            {
                "bin": f"{low:.1f}-{high:.1f}",
                "count": n,
                "predicted": float(predictions[inside].mean()),
                "observed": observed,
                "observed_95": wilson(observed * n, n),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--engine", choices=("compiled", "python"), default="compiled")
    parser.add_argument("--batch", type=int, default=20000, help="deals at a time, compiled")
    parser.add_argument("--calibrate-optimal", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = parse_options(args.option)
    tested = "bot:optimal" if args.calibrate_optimal else "bot:win"
    specs = [tested] + ["bot:optimal"] * (args.players - 1)
    if args.engine == "compiled" and args.calibrate_optimal:
        parser.error("--calibrate-optimal plays through the engine: add --engine python")
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    start = time.perf_counter()
    if args.engine == "compiled":
        parts = [play_compiled(args.rules, options, args.players, args.seed, args.deals, args.batch)]
    else:
        chunks = max(1, args.processes)
        size = math.ceil(args.deals / chunks)
        work = [
            (args.rules, options, specs, args.seed, first, min(size, args.deals - first))
            for first in range(0, args.deals, size)
        ]
        if chunks > 1:
            with ProcessPoolExecutor(chunks) as pool:
                parts = list(pool.map(play_deals, work))
        else:
            parts = [play_deals(w) for w in work]
    seconds = time.perf_counter() - start
    won = sum(p["shares"][0] for p in parts)
    games = sum(len(p["scores"][0]) for p in parts)
    means = {
        f"{spec} (role {role})": float(np.mean([s for p in parts for s in p["scores"][role]]))
        for role, spec in enumerate(specs)
    }
    predictions = np.concatenate([np.asarray(p["predictions"], dtype=np.float64) for p in parts])
    outcomes = np.concatenate([np.asarray(p["outcomes"], dtype=np.float64) for p in parts])
    first = tested
    low, high = wilson(won, games)
    result = {
        "rules": args.rules,
        "options": options,
        "players": args.players,
        "specs": specs,
        "engine": args.engine,
        "games": games,
        "seconds": seconds,
        "games_per_second": games / seconds,
        "win_rate": won / games,
        "win_rate_95": [low, high],
        "even_share": 1 / args.players,
        "mean_scores": means,
        "brier": float(np.mean((predictions - outcomes) ** 2)) if len(predictions) else None,
        "clairvoyant_bound": parts[0].get("clairvoyant_bound"),
        "reliability": reliability(predictions, outcomes),
        "loadavg": os.getloadavg()[0],
        "machine": machine.finish(ran_on),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"{args.rules} {options or ''}: {games} games of {args.players} players ({args.engine}) in "
        f"{seconds:.0f} s ({games / seconds:.1f} games/s, load {result['loadavg']:.1f})"
    )
    print(
        f"{first}: win rate {100 * result['win_rate']:.2f} % (95 %: {100 * low:.2f}-{100 * high:.2f} %; "
        f"an even share is {100 / args.players:.1f} %)"
    )
    print("mean scores: " + ", ".join(f"{spec} {mean:.2f}" for spec, mean in means.items()))
    print(f"Brier score of the predicted chances: {result['brier']:.4f} over {len(predictions)} predictions")
    print(f"{'bin':>9} {'count':>8} {'predicted':>10} {'observed':>9} {'95 %':>15}")
    for row in result["reliability"]:
        lo, hi = row["observed_95"]
        print(
            f"{row['bin']:>9} {row['count']:>8} {row['predicted']:>10.3f} {row['observed']:>9.3f} "
            f"{lo:>7.3f}-{hi:.3f}"
        )
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
