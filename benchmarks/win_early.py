"""How far the early win tables' values lie from exact target play: at sampled early positions, every
option's chance of winning as :class:`kniffel.planning.WinPlanner` values it from the early rows on disk
(:func:`kniffel.solver.target.early_rows`: play to win until the horizon, for points after it) against
the same value from the exact rows of every state.

    .venv/bin/python benchmarks/win_early.py [--rules yahtzee kniffel] [--positions 1000] [--seed 1] [--json]

The positions are every decision (dice showing) of two-player games between ``bot:optimal`` players on
seeded dice, as long as the mover's decisions read the early rows (before the early rows' last level:
Yahtzee's and Kniffel's first four turns); each option is valued by ``sum over s of P(the other's best =
s) * P(making at least s - held more)`` from the other player's exact final-score distribution. Printed
per rule set: the largest and the mean difference over every option, the largest over the best option
(the chance a hint shows first), and how often the best option differs. The early rows' values are lower
bounds of the exact ones (the turns after the horizon are played for points instead of to win).

Nothing here is a test: it prints figures (the exact rows take about a minute to solve per rule set).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np


def measure(rules_id: str, positions: int, seed: int) -> dict[str, Any]:
    from kniffel import bots, rules
    from kniffel.game import Game, SeededDice
    from kniffel.planning.exact import advisor_for, column_position, free_throws_arg
    from kniffel.planning.winning import FinalScores, best_of, scored
    from kniffel.solver import distribution as dist
    from kniffel.solver.distribution import build_table
    from kniffel.solver.lanes import level_of
    from kniffel.solver.target import TargetAdvisor, early_rows, early_rows_levels, solve_rows

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
            found = dist.state_distribution(
                distributions, dict(other.entries), left, extra_bonus=other.extra_bonus.get(column.id, 0)
            )
            best = best_of([FinalScores(found.low, np.asarray(found.probabilities, dtype=np.float64))])
            first = best.first - scored(game.sheet)
            exact_values, early_values = (
                {
                    o.action: o.value
                    for o in by.option_values(at.sheet, at.dice, at.rolls_left, first, best.pmf, **at.turn)
                }
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
    return {
        "rules": rules_id,
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
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(r, args.positions, args.seed) for r in args.rules]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for r in rows:
        print(
            f"{r['rules']} (horizon at {r['horizon']} boxes filled; {r['positions']} positions, "
            f"{r['options']} options): largest difference {100 * r['largest']:.2f} points of percentage, "
            f"mean {100 * r['mean']:.3f}; best option's chance {100 * r['largest_best']:.2f} at most; "
            f"a better best option at {100 * r['best_differs']:.1f} % of the positions; "
            f"lower bounds: {'yes' if r['lower_bound'] else 'NO'}"
        )


if __name__ == "__main__":
    main()
