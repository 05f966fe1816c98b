"""Playing to win: the win planner against target play where the others have finished, every player's
chance of winning against simulated games, bot:win in games, and hints and reviews by win chance. A tie
among k players is worth 1/k of a win, or a whole win for each under the house rule ``tie_wins_all``.

Strict Kniffel fills its boxes top to bottom, so its tables are solved in a moment; the planners do not
know that, so what holds there holds on any single-column rule set.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from kniffel import Game, SeededDice, bots, rules
from kniffel.core import ScoreDistribution, bar, best_of, chance_at_least
from kniffel.planning import WIN, Target, TargetPlanner, WinPlanner, final_scores, planner_for, win_chances
from kniffel.planning.winning import scored
from kniffel.services.advice import Position, hints, options, plays_to_win, pruned
from kniffel.services.review import listed, player_goals, review
from kniffel.services.session import live_chances
from kniffel.services.simulate import simulate

pytestmark = pytest.mark.usefixtures("solver_cache")

STRICT = rules.get("kniffel", {"strict": "on"})
TIES_WIN = rules.get("kniffel", {"strict": "on", "tie_wins_all": "on"})
"""Strict Kniffel where a tie is a win for every tied player."""


def played(
    players: int, seed: int, until: int | None = None, specs: tuple[str, ...] = (), ruleset: Any = STRICT
) -> Game:
    """A game of strict Kniffel played by ``bot:optimal`` (or ``specs``) for ``until`` actions (all)."""
    game = Game(ruleset, [f"P{i}" for i in range(players)], dice=SeededDice(seed))
    players_bots = [bots.make(specs[i] if specs else "bot:optimal") for i in range(players)]
    count = 0
    while not game.is_over and (until is None or count < until):
        game.apply(players_bots[game.current].choose(game))
        count += 1
    return game


def last_turns(seeds: Iterable[int]) -> Iterator[Game]:
    """Two-player games of ``bot:optimal`` replayed: every position of the second player's last turn
    after a throw (the first player has finished), for each seed."""
    for seed in seeds:
        game = played(2, seed=seed)
        replay = Game(STRICT, list(game.players), dice=SeededDice(seed))
        for action in game.log:
            if replay.current == 1 and replay.turn.dice is not None and replay.sheets[0].is_full:
                yield replay
            replay.apply(action)


def test_the_best_of_independent_scores() -> None:
    a = ScoreDistribution(10, np.array([0.5, 0.5]))  # 10 or 11
    b = ScoreDistribution(11, np.array([0.25, 0.75]))  # 11 or 12
    best = best_of([a, b])
    assert best.low == 11
    assert best.probabilities.tolist() == pytest.approx([0.25, 0.75])
    assert best_of([a]).probabilities.tolist() == pytest.approx([0.5, 0.5])
    assert bar([a, b], shared=False).probabilities.tolist() == best.probabilities.tolist()


def test_the_bar_counts_a_tie_among_k_players_as_1_over_k_of_a_win() -> None:
    """Against one other player a tie is half a win: the bar is their score or one more, half and half.
    Against several, every player's chance against the bar of the others is its share of the win,
    counted over every combination of scores, and the shares add up to 1."""
    one = bar([ScoreDistribution.certain(20)])
    assert (one.low, one.probabilities.tolist()) == (20, [0.5, 0.5])
    assert chance_at_least(ScoreDistribution.certain(20), one) == 0.5
    rng = np.random.default_rng(3)
    for k in (2, 3, 4):
        scores = []
        for _ in range(k):
            p = rng.random(int(rng.integers(1, 5)))
            scores.append(ScoreDistribution(int(rng.integers(0, 3)), p / p.sum()))
        shares = [0.0] * k
        for combination in itertools.product(
            *(list(zip(s.scores, s.probabilities, strict=True)) for s in scores)
        ):
            chance = math.prod(p for _, p in combination)
            points = [int(x) for x, _ in combination]
            tied = points.count(max(points))
            for player, x in enumerate(points):
                shares[player] += chance / tied if x == max(points) else 0.0
        chances = [
            chance_at_least(own, bar([s for q, s in enumerate(scores) if q != player]))
            for player, own in enumerate(scores)
        ]
        assert chances == pytest.approx(shares, abs=1e-12)
        assert sum(chances) == pytest.approx(1.0, abs=1e-12)


def test_final_scores_of_a_player_between_turns_and_in_a_turn() -> None:
    game = played(2, seed=3, until=25)
    for player in range(2):
        found = final_scores(game, player)
        assert found.probabilities.sum() == pytest.approx(1.0, abs=1e-9)
        assert found.low >= scored(game.sheets[player])
        mean = found.low + float(np.dot(np.arange(len(found.probabilities)), found.probabilities))
        advisor = planner_for(STRICT, method="exact").advisor  # type: ignore[attr-defined]
        if player != game.current or game.turn.dice is None:
            expected = scored(game.sheets[player]) + advisor.value(dict(game.sheets[player].entries))
            assert mean == pytest.approx(expected, abs=1e-6)


def test_a_finished_game_has_certain_chances() -> None:
    game = played(3, seed=5)
    winners = set(game.winners())
    assert win_chances(game) == [1.0 if name in winners else 0.0 for name in game.players]
    # a tie for first among three: a third of a win each, or a whole one under the house rule
    for ruleset, share in ((STRICT, 1 / 3), (TIES_WIN, 1.0)):
        tied = Game(ruleset, ["A", "B", "C"], dice=SeededDice(4))
        while not tied.is_over:
            tied.roll()
            tied.strike(next(key for key in ruleset.box_keys if key not in tied.sheet.entries))
        assert tied.winners() == ["A", "B", "C"]
        assert win_chances(tied) == [share] * 3


def test_chances_of_two_players_add_up_to_one_or_with_the_house_rule_to_one_and_the_ties() -> None:
    for ruleset in (STRICT, TIES_WIN):
        game = played(2, seed=8, until=30, ruleset=ruleset)
        a, b = win_chances(game)
        first, second = final_scores(game, 0), final_scores(game, 1)
        tie = sum(
            p * second.probabilities[s - second.low]
            for s, p in zip(first.scores, first.probabilities, strict=True)
            if 0 <= s - second.low < len(second.probabilities)
        )
        assert tie > 0.001
        assert a + b == pytest.approx(1.0 + (tie if ruleset is TIES_WIN else 0.0), abs=1e-9)


def test_chances_of_three_players_add_up_to_one() -> None:
    game = played(3, seed=2, until=40)
    assert sum(win_chances(game)) == pytest.approx(1.0, abs=1e-9)


def test_the_chance_at_the_start_agrees_with_simulated_games() -> None:
    """Two players who play for points: the first's share of the win (a tie is half a win), from the
    exact distributions, against 40,000 simulated pairs of games."""
    game = Game(STRICT, ["A", "B"])
    predicted = win_chances(game)[0]
    scores = simulate(STRICT, games=80_000, seed=11).scores
    a, b = scores[:40_000], scores[40_000:]
    observed = float(np.mean(a > b) + 0.5 * np.mean(a == b))
    error = math.sqrt(predicted * (1 - predicted) / len(a))
    assert abs(observed - predicted) < 4 * error


@pytest.mark.parametrize("ruleset", [STRICT, TIES_WIN], ids=["a tie is half a win", "a tie wins for all"])
def test_once_the_others_have_finished_winning_is_reaching_their_best(ruleset: Any) -> None:
    """The last player's last turn: the win planner's values are target play's for the others' best
    (a tie wins for all), or the mean of the chances of reaching it and of passing it (a tie is half a
    win)."""
    game = played(2, seed=21, ruleset=ruleset)
    # replay up to the last player's last turn, after its first throw
    last = Game(ruleset, list(game.players), dice=SeededDice(21))
    for action in game.log:
        if last.current == 1 and len(last.sheets[1].entries) == len(STRICT.boxes) - 1 and last.turn.dice:
            break
        last.apply(action)
    assert last.sheets[0].is_full
    assert last.turn.dice is not None
    best = last.sheets[0].total
    wins = {c.action: c.value for c in WinPlanner(ruleset, WIN).choices(last)}
    level = {c.action: c.value for c in TargetPlanner(ruleset, Target(best)).choices(last)}
    past = {c.action: c.value for c in TargetPlanner(ruleset, Target(best + 1)).choices(last)}
    assert wins.keys() == level.keys()
    for action, value in wins.items():
        expected = level[action] if ruleset is TIES_WIN else 0.5 * (level[action] + past[action])
        assert value == pytest.approx(expected, abs=1e-6)


def test_bot_win_plays_whole_games_of_two_to_four_players() -> None:
    for players in (2, 4):
        specs = ("bot:win", *("bot:optimal",) * (players - 1))
        game = played(players, seed=players, specs=specs)
        assert game.is_over


def test_the_win_planner_behind_takes_the_long_shot() -> None:
    """Far behind in the last round, the bot gives up points on average for a chance of catching up:
    its choice is never worse for winning than the expected-score choice, and sometimes different."""
    different = 0
    for replay in last_turns(range(40)):
        wins = WinPlanner(STRICT, WIN).choices(replay)
        points = planner_for(STRICT, method="exact").choices(replay)
        by_action = {c.action: c.value for c in wins}
        assert wins[0].value >= by_action[points[0].action] - 1e-9
        different += wins[0].action != points[0].action
    assert different > 0


def test_hints_and_live_chances_beside_play() -> None:
    game = played(2, seed=4, until=9)
    if game.turn.dice is None:
        game.apply(bots.make("bot:optimal").choose(game))
    assert plays_to_win(game)
    options(Position.of_game(game), WIN)  # the tables of the chances solved, as a front end waits for them
    found = hints(game)
    choices = pruned(found.points.options, 5)
    wins = found.chances(choices)
    assert isinstance(wins, list)
    assert len(wins) == len(choices)
    assert all(w is None or 0.0 <= w <= 1.0 for w in wins)
    chances = live_chances(game, wait=True)
    assert isinstance(chances, list)
    assert len(chances) == 2
    solo = Game(STRICT, ["Ada"], dice=SeededDice(1))
    assert not plays_to_win(solo)
    assert live_chances(solo) is None


def test_a_review_by_win_chance() -> None:
    game = played(2, seed=6, specs=("bot:win", "bot:optimal"))
    result = review(game, goals="win", chances=True)
    assert result.chances is not None
    assert len(result.chances) == 1 + 2 * len(STRICT.boxes)
    assert result.chances[-1] == win_chances(game)
    assert {(d.goal, d.unit) for d in result.decisions} == {("win", "probability")}
    # bot:win's own decisions give nothing away by its own measure: none of them is listed
    assert all(d.loss == pytest.approx(0.0, abs=1e-9) for d in result.decisions if d.player == "P0")
    assert not [d for d in listed(result) if d.player == "P0"]
    data: dict[str, Any] = result.to_json()
    assert "chances" in data
    assert data["players"][0]["goal"] == "win"
    # by default each bot is graded by its own goal: the same list for bot:win's decisions
    own = review(game, goals=player_goals(game, {0: "bot:win", 1: "bot:optimal"}))
    assert [d.goal for d in own.players] == ["win", "points"]
    assert not [d for d in listed(own) if d.player in ("P0", "P1")]


def test_review_by_win_from_the_command_line(tmp_path: Any) -> None:
    from kniffel.apps.cli import app

    game = Game(STRICT, ["P0", "P1"], dice=SeededDice(7))
    game.roll()
    game.roll(keep=[])  # throwing a whole first roll away gives some of the chance of winning away
    players = [bots.make("bot:optimal"), bots.make("bot:optimal")]
    while not game.is_over:
        game.apply(players[game.current].choose(game))
    path = tmp_path / "game.json"
    path.write_text(game.dumps(), encoding="utf-8")
    result = CliRunner().invoke(app, ["review", str(path), "--by-win", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["chances"]) == 1 + 2 * len(STRICT.boxes)
    shown = CliRunner().invoke(app, ["review", str(path), "--by-win"], env={"COLUMNS": "120"})
    assert "Chances of winning after each round" in " ".join(shown.stdout.split())
    # each decision that gave something away, with the chance of winning it gave away and the best
    # decision for winning
    assert {d["goal"] for d in data["decisions"]} == {"win"}
    costly = [d for d in data["decisions"] if d["costly"]]
    assert [d["number"] for d in costly] == data["listed"]
    rows = [line for line in shown.stdout.splitlines() if line.count("%") == 1 and "│" in line]
    assert len(rows) >= len(costly) > 0
    solo = Game(STRICT, ["Ada"], dice=SeededDice(2))
    solo_path = tmp_path / "solo.json"
    solo_path.write_text(solo.dumps(), encoding="utf-8")
    refused = CliRunner().invoke(app, ["review", str(solo_path), "--by-win"])
    assert refused.exit_code == 2
    assert "several players" in refused.output


def test_bot_win_alone_plays_for_points() -> None:
    game = Game(STRICT, ["Ada"], dice=SeededDice(9))
    game.roll()
    bot = bots.make("bot:win")
    best = planner_for(STRICT, method="exact").choices(game)[0].action
    assert bot.choose(game) == best


def test_options_equally_likely_to_win_go_by_their_points() -> None:
    """The last player's last turn with the win certain or out of reach whatever it does: every option
    has the same chance, and the options come in the order of their points."""
    decided = 0
    for replay in last_turns(range(30)):
        wins = WinPlanner(STRICT, WIN).choices(replay)
        if {c.value for c in wins} in ({0.0}, {1.0}):
            decided += 1
            points = planner_for(STRICT, method="exact").choices(replay)
            assert [c.action for c in wins] == [c.action for c in points]
    assert decided > 0


def test_before_the_others_finish_winning_weighs_each_target_by_the_others_bar() -> None:
    """Mid-game, the win planner values each option by ``sum over s of P(the others' bar = s) * P(at
    least s)``: the target planner's values weighted by the bar of the other player's final-score
    distribution, a tie half a win (the sums run over many lanes and windows of the target rows at once;
    here one target at a time)."""
    game = played(2, seed=8)
    replay = Game(STRICT, list(game.players), dice=SeededDice(8))
    for action in game.log:
        if replay.current == 1 and replay.turn.dice is not None and len(replay.sheets[1].entries) == 10:
            break
        replay.apply(action)
    assert not replay.sheets[0].is_full
    others = bar([final_scores(replay, 0)])
    assert len(others.probabilities) > 20
    wins = {c.action: c.value for c in WinPlanner(STRICT, WIN).choices(replay)}
    weighted = dict.fromkeys(wins, 0.0)
    for i, p in enumerate(others.probabilities):
        if p == 0:
            continue
        for c in TargetPlanner(STRICT, Target(others.low + i)).choices(replay):
            weighted[c.action] += p * c.value
    for action, value in wins.items():
        assert value == pytest.approx(weighted[action], abs=1e-6)
