"""The chances of winning ``bot:win`` gives its options early in a game, from the early rows on disk
(:func:`kniffel.core.target.early_rows`: played to win until the horizon, for points after it), against
the same values from the exact rows of every state (played to win to the end, solved here for the
comparison), and against what happens.

    .venv/bin/python benchmarks/win_early.py [--rules yahtzee kniffel] [--positions 1000] [--deals 50000]
        [--seed 1] [--json]

The positions are every decision (dice showing) of two-player games between ``bot:optimal`` players on
seeded dice, as long as the mover's decisions read the early rows (before the early rows' last level:
Yahtzee's and Kniffel's first four turns); each option is valued by ``sum over s of P(the other's best =
s) * P(making at least s - held more)`` from the other player's exact final-score distribution. Printed
per rule set: the largest and the mean difference over every option, the largest over the best option
(the chance a hint shows first), and how often the best option differs. The early rows' values are lower
bounds of the exact ones (the turns after the horizon are played for points instead of to win).

Which is nearer the truth: at the start of a game the first player's chance of winning is one number
from each (the empty sheet against the other's whole final-score distribution), and ``--deals`` deals
of compiled games (:func:`kniffel.core.winplay.play_to_win`, ``bot:win`` first in one seating) say how
often it wins moving first, with a 95 % interval. The exact rows overstate it: they take a policy of its
own for every score the other may end with, and no one game can follow them all.

Nothing here is a test: it prints figures (the exact rows take about a minute to solve per rule set).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import machine
import numpy as np


def measure(rules_id: str, positions: int, deals: int, seed: int) -> dict[str, Any]:
    from kniffel import bots, rules
    from kniffel.core import (
        TargetAdvisor,
        build_table,
        early_rows,
        early_rows_levels,
        empty_state,
        level_of,
        play_to_win,
        solve_rows,
        state_distribution,
    )
    from kniffel.engine.dice import SeededDice
    from kniffel.engine.game import Game
    from kniffel.planning.exact import advisor_for, column_position, free_throws_arg
    from kniffel.planning.winning import scored

    ruleset = rules.get(rules_id)
    advisor = advisor_for(ruleset)
    c = advisor.compiled
    begin = time.perf_counter()
    exact = solve_rows(c)
    distributions = build_table(advisor.solution)
    early = early_rows(c, use_cache=False, distributions=distributions)
    solved = time.perf_counter() - begin
    by_exact, by_early = TargetAdvisor(advisor, exact), TargetAdvisor(advisor, early)
    column = ruleset.columns[0]
    last = early_rows_levels(c) - 1  # the deepest level whose decisions read the early rows
    worst = worst_best = total = 0.0
    options = differ = counted = 0
    lower = True
    player = bots.make("bot:optimal")
    game_seed = seed
    while counted < positions:
        game = Game(ruleset, ["A", "B"], dice=SeededDice(game_seed))
        game_seed += 1
        while counted < positions and any(
            level_of(advisor.state(dict(s.entries)).mask) <= last for s in game.sheets
        ):
            at = column_position(game)
            if at is None or level_of(advisor.state(at.sheet).mask) > last:
                game.apply(player.choose(game))
                continue
            other = game.sheets[1 - game.current]
            left = free_throws_arg(ruleset, other.free_throws_left(column))
            found = state_distribution(
                distributions, dict(other.entries), left, extra_bonus=other.extra_bonus.get(column.id, 0)
            )
            # one other player: their best is their own final score
            weights = np.asarray(found.probabilities, dtype=np.float64)
            first = found.low - scored(game.sheet)
            exact_values, early_values = (
                {o.action: o.value for o in by.option_values(at, first, weights)}
                for by in (by_exact, by_early)
            )
            for action, value in exact_values.items():
                gap = value - early_values[action]
                lower &= gap >= -1e-6
                worst = max(worst, abs(gap))
                total += abs(gap)
                options += 1
            top_exact = max(exact_values, key=exact_values.__getitem__)
            top_early = max(early_values, key=early_values.__getitem__)
            worst_best = max(worst_best, abs(exact_values[top_exact] - early_values[top_early]))
            # the early rows' best option is worse by the exact values
            differ += exact_values[top_exact] - exact_values[top_early] > 1e-9
            counted += 1
            game.apply(player.choose(game))
    # at the start: the first player's chance from each, and how often bot:win wins moving first
    root = empty_state(c)
    start = distributions.points_to_come(distributions.lane(root.armed, root.free, root.mask, root.up))
    predicted = [
        float(np.dot(start.probabilities, rows.curve(root, start.low, len(start.probabilities))))
        for rows in (exact, early)
    ]
    matches = play_to_win(
        advisor.solution, players=2, deals=deals, seed=seed, targets=exact, distributions=distributions,
        early=early,
    )  # fmt: skip
    first_mover = matches.shares()[:deals, 0]
    return {
        "rules": rules_id,
        "start_exact": predicted[0],
        "start_early": predicted[1],
        "start_won": float(first_mover.mean()),
        "start_interval": float(1.96 * first_mover.std() / np.sqrt(max(deals, 1))),
        "deals": deals,
        "positions": counted,
        "options": options,
        "largest": worst,
        "mean": total / max(options, 1),
        "largest_best": worst_best,
        "best_differs": differ / max(counted, 1),
        "lower_bound": lower,
        "horizon": early.horizon,
        "tables_s": solved,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", default=["yahtzee", "kniffel"])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    rows = [measure(r, args.positions, args.deals, args.seed) for r in args.rules]
    machine.finish(ran_on)
    if args.json:
        print(json.dumps({"machine": ran_on, "results": rows}, indent=1))
        return
    for r in rows:
        print(
            f"{r['rules']} (horizon at {r['horizon']} boxes filled; {r['positions']} positions, "
            f"{r['options']} options): largest difference {100 * r['largest']:.2f} points of percentage, "
            f"mean {100 * r['mean']:.3f}; best option's chance {100 * r['largest_best']:.2f} at most; "
            f"a better best option at {100 * r['best_differs']:.1f} % of the positions; "
            f"lower bounds: {'yes' if r['lower_bound'] else 'NO'}"
        )
        print(
            f"  at the start, bot:win moving first: {100 * r['start_early']:.2f} % from the early rows, "
            f"{100 * r['start_exact']:.2f} % from the exact ones; won {100 * r['start_won']:.2f} % "
            f"(+- {100 * r['start_interval']:.2f}) of {r['deals']:,} games"
        )
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
