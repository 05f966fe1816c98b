"""Many games by one strategy, with every box's statistics: its mean, how often it is struck, its points.

    .venv/bin/python examples/simulate_boxes.py [--rules yahtzee] [--option joker=free]
                                                [--strategy bot:optimal] [--games 100000] [--seed 1]

Plays ``--games`` games (:func:`kniffel.simulate`: optimal play in compiled code, some hundred thousand
games a second where the solver covers the rules) and prints the mean score beside the exact
expectation where it is known, the upper bonus and extra bonus rates, and a line per box. The same seed
gives the same games.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import kniffel
from kniffel.rules import parse_options


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--option", action="append", default=[], help="a rule option, e.g. joker=free")
    parser.add_argument("--strategy", default="bot:optimal")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = kniffel.rules.get(args.rules, parse_options(args.option))
    result = kniffel.simulate(rules, strategy=args.strategy, games=args.games, seed=args.seed)
    exact = f", exact {result.expected:.4f}" if result.expected is not None else ""
    print(
        f"{result.games:,} games of {rules.id} by {result.strategy}: mean {result.mean:.2f} "
        f"(± {result.stderr:.2f}){exact}, {result.games_per_second:,.0f} games a second"
    )
    print(f"upper bonus in {result.upper_bonus_rate:.2%} of columns")
    print(f"extra bonuses: {result.extra_bonuses:.4f} a game")
    if result.boxes is None:
        print("(this strategy's games report no box statistics)")
        return
    print(f"{'box':<16} {'mean':>7} {'struck':>7}  most frequent points")
    for box, stats in result.boxes.items():
        common = sorted(stats.distribution.items(), key=lambda item: -item[1])[:3]
        shares = ", ".join(f"{points}: {share:.1%}" for points, share in common)
        print(f"{box:<16} {stats.mean:>7.2f} {stats.struck:>7.1%}  {shares}")


if __name__ == "__main__":
    main()
