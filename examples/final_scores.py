"""The exact distribution of the final score under optimal play, from the empty sheet or any position.

    .venv/bin/python examples/final_scores.py [--rules yahtzee] [--option joker=free]
                                              [--situation "yahtzee | ... | 2 3 4 5 5 | rolls left 2"]
                                              [--scores 200 250 300] [--plot scores.png]

Prints the mean, the spread and the percentiles of the final score, and the chance of reaching each of
``--scores``, playing for the most points (:func:`kniffel.final_scores`). From the empty sheet the first
run solves the rule set's early distribution table (a minute, kept on disk); from a later position its
own, in a moment. ``--plot`` draws the distribution (needs matplotlib, the ``plot`` extra).
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
    parser.add_argument("--plot", help="draw the distribution to this file (.png, .svg, .pdf)")
    args = parser.parse_args(argv)
    position: kniffel.Position = (
        kniffel.Situation.parse(args.situation)
        if args.situation
        else kniffel.rules.get(args.rules, parse_options(args.option))
    )
    scores = kniffel.final_scores(position)
    print(f"mean {scores.mean:.4f}, standard deviation {scores.std:.2f}")
    print(f"final scores {scores.low} to {scores.high}")
    print("percentiles:", ", ".join(f"{q}%: {scores.percentile(q)}" for q in (1, 10, 25, 50, 75, 90, 99)))
    for score in args.scores:
        print(f"P(final score >= {score}) = {scores.at_least(score):.4f}")
    if args.plot:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        figure = Figure(figsize=(8, 4.5))
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        axes.bar(scores.scores, scores.probabilities, width=1.0, color="#3b6ea8")
        axes.set_xlabel("final score")
        axes.set_ylabel("probability")
        figure.savefig(args.plot)
        print(f"plot written to {args.plot}")


if __name__ == "__main__":
    main()
