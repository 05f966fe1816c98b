"""The largest chance of reaching a final score, played for exactly that, against optimal play for points.

    .venv/bin/python examples/chance_of_a_score.py [--rules yahtzee] [--option joker=free]
        [--situation "yahtzee | ones=3 ... | 2 3 4 5 5 | rolls left 2"] [--scores 200 250 300]

For each of ``--scores``: the chance of finishing with at least that many points when every decision
plays for it (:func:`kniffel.chance`), beside the chance optimal play for the most points has of it
(:func:`kniffel.final_scores`), and with the position's dice showing, the best option for it
(:func:`kniffel.options` with the goal ``target:T``). Playing for a score from the empty sheet solves
that score's tables first (half a minute each); from a late position, a moment.
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
    parser.add_argument("--situation", help="a position as kniffel shows it (else the empty sheet)")
    parser.add_argument("--scores", type=int, nargs="*", default=[200, 250, 300])
    args = parser.parse_args(argv)
    position: kniffel.Position = (
        kniffel.Situation.parse(args.situation)
        if args.situation
        else kniffel.rules.get(args.rules, parse_options(args.option))
    )
    for_points = kniffel.final_scores(position)
    print(f"{'score':>6} {'for it':>8} {'for points':>11}  best option for it")
    for score in args.scores:
        best = ""
        if isinstance(position, kniffel.Situation) and position.dice is not None:
            option = kniffel.options(position, f"target:{score}")[0]
            best = str(option.action)
        chance = kniffel.chance(position, score)
        print(f"{score:>6} {chance:>8.4f} {for_points.at_least(score):>11.4f}  {best}")


if __name__ == "__main__":
    main()
