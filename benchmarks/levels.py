"""The ladder of levels ``bot:1`` to ``bot:7``: each level's mean score, what it loses a game and a
decision against exact play, and how often it beats the levels beside it.

    .venv/bin/python benchmarks/levels.py [--rules kniffel yahtzee yatzy yatzy-deluxe] [--games 200000]
        [--reviewed 500] [--deals 20000] [--seed 1] [--win-deals 0] [--json] [--write]

For each rule set of one column and each level:

* **mean**: the mean final score of ``--games`` compiled games (:func:`kniffel.services.simulate.simulate`;
  every level plays the same dice, game by game);
* **loss a game** and **loss a decision**: ``--reviewed`` games through the engine, each reviewed against
  exact play (:func:`kniffel.services.review.review`, the review a person's game gets): the expected points
  each decision gave away, summed over the game, and that sum over the decisions made. The loss a decision
  is what a player's figure is compared with (:mod:`kniffel.services.proficiency`);
* **wins**: the share of games won against the level below and the level above, over ``--deals`` duplicate
  deals (:func:`kniffel.services.tournament.tournament`: every deal from both seats, a tie half a win).

``bot:8`` plays to win: ``--win-deals N`` plays it against ``bot:7`` too (its tables take minutes and
gigabytes to solve; ``benchmarks/win_rate.py`` measures that pairing at length). The speed is that of a
compiled tournament of ``bot:1`` to ``bot:7`` (every pairing, ``--deals`` deals each).

``--write`` keeps the figures in ``benchmarks/results/reports/levels.json`` and each level's loss a
decision in ``src/kniffel/services/ladder.json``, from which a player's figure finds the level it
matches.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

import machine

from kniffel import Game, SeededDice, bots, rules
from kniffel.core import MASK64, stream_base
from kniffel.planning.exact import advisor_for
from kniffel.planning.ladder import EXACT_LEVEL, LADDER
from kniffel.services.review import review
from kniffel.services.simulate import simulate
from kniffel.services.standings import TournamentResult
from kniffel.services.tournament import Prepared, Tournament, tournament

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "reports" / "levels.json"
LADDER_FILE = ROOT / "src" / "kniffel" / "services" / "ladder.json"
SINGLE_COLUMN = ("kniffel", "yahtzee", "yatzy", "yatzy-deluxe")


def reviewed(rules_id: str, level: int, games: int, seed: int) -> dict[str, float]:
    """The mean loss a game and a decision of ``games`` games of ``level`` through the engine."""
    rs = rules.get(rules_id)
    base = stream_base(seed)
    loss = 0.0
    decisions = 0
    for g in range(games):
        game = Game(rs, ["level"], dice=SeededDice((base + g) & MASK64))
        bots.play(game, [bots.make(f"bot:{level}")])
        summary = review(game).players[0]
        loss += summary.loss
        decisions += summary.decisions
    return {
        "loss_per_game": loss / games,
        "decisions_per_game": decisions / games,
        "loss_per_decision": loss / decisions,
    }


def share(result: TournamentResult, player: str, opponent: str) -> float:
    """The share of games ``player`` won against ``opponent`` (a tie half a win)."""
    for record in result.pairings():
        if record.player == player and record.opponent == opponent:
            return float(record.won / record.games)
        if record.player == opponent and record.opponent == player:
            return float(1 - record.won / record.games)
    raise KeyError((player, opponent))


def measure(rules_id: str, args: argparse.Namespace, say: Any) -> dict[str, Any]:
    rs = rules.get(rules_id)
    exact = advisor_for(rs).solution.expected_score
    prepared = Prepared(rs)
    levels: list[dict[str, Any]] = []
    for found in LADDER[:EXACT_LEVEL]:
        spec = f"bot:{found.number}"
        simulated = simulate(rs, strategy=spec, games=args.games, seed=args.seed)
        entry: dict[str, Any] = {
            "level": found.number,
            "name": found.name,
            "mean": simulated.mean,
            "stderr": simulated.stderr,
            "loss_against_mean": exact - simulated.mean,
        }
        entry.update(reviewed(rules_id, found.number, args.reviewed, args.seed))
        levels.append(entry)
        say(f"  {rules_id} {spec}: {entry['mean']:.2f}, {entry['loss_per_game']:.2f} a game")
    for below, above in itertools.pairwise(levels):
        specs = [f"bot:{below['level']}", f"bot:{above['level']}"]
        result = tournament(Tournament(rs, specs, deals=args.deals, seed=args.seed), prepared=prepared)
        below["wins_against_above"] = share(result, *specs)
        above["wins_against_below"] = share(result, specs[1], specs[0])
    if args.win_deals:
        specs = ["bot:7", "bot:8"]
        result = tournament(Tournament(rs, specs, deals=args.win_deals, seed=args.seed), prepared=prepared)
        levels[-1]["wins_against_above"] = share(result, *specs)
        won = share(result, "bot:8", "bot:7")
        levels.append({"level": 8, "name": LADDER[-1].name, "wins_against_below": won})
    specs = [f"bot:{n}" for n in range(1, EXACT_LEVEL + 1)]
    start = time.perf_counter()
    played = tournament(Tournament(rs, specs, deals=args.deals, seed=args.seed + 1), prepared=prepared)
    seconds = time.perf_counter() - start
    return {
        "rules": rules_id,
        "exact": exact,
        "levels": levels,
        "tournament": {"players": specs, "games": played.games, "seconds": seconds},
    }


def table(found: dict[str, Any]) -> str:
    rows = [
        f"{found['rules']} (exact play {found['exact']:.2f}; a tournament of bot:1 to bot:7: "
        f"{found['tournament']['games'] / found['tournament']['seconds']:,.0f} games/s)",
        "level  mean     loss/game  loss/decision  wins vs below  wins vs above",
    ]
    for entry in found["levels"]:
        if "mean" not in entry:
            rows.append(f"{entry['level']:>5}  (plays to win){'':31}{entry['wins_against_below']:>13.1%}")
            continue
        below = entry.get("wins_against_below")
        above = entry.get("wins_against_above")
        rows.append(
            f"{entry['level']:>5}  {entry['mean']:7.2f}  {entry['loss_per_game']:9.2f}  "
            f"{entry['loss_per_decision']:13.3f}  {'' if below is None else f'{below:.1%}':>13}  "
            f"{'' if above is None else f'{above:.1%}':>13}"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=list(SINGLE_COLUMN))
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--reviewed", type=int, default=500)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--win-deals", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    ran_on = machine.describe()

    def say(text: str) -> None:
        print(text, file=sys.stderr if args.json else sys.stdout, flush=True)

    if not args.json:
        print(machine.header(ran_on))
    measured = [measure(rules_id, args, say) for rules_id in args.rules]
    machine.finish(ran_on)
    settings = {key: getattr(args, key) for key in ("games", "reviewed", "deals", "win_deals", "seed")}
    report = {"machine": ran_on, "settings": settings, "rule_sets": measured}
    if args.write:
        RESULTS.parent.mkdir(exist_ok=True)
        RESULTS.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        ladder = json.loads(LADDER_FILE.read_text(encoding="utf-8")) if LADDER_FILE.exists() else {}
        ladder |= {
            found["rules"]: {
                str(entry["level"]): round(entry["loss_per_decision"], 4)
                for entry in found["levels"]
                if "loss_per_decision" in entry
            }
            for found in measured
        }
        LADDER_FILE.write_text(json.dumps(ladder, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report))
        return
    for found in measured:
        print()
        print(table(found))
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
