"""Simulation: optimal games follow the rules (replayed through the game engine), decide as the advisor
does, average to the solved expectation, and repeat exactly for a seed; the bot strategy and the plot."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numba
import numpy as np
import pytest

import kniffel.services.plans
import kniffel.services.simulate
from kniffel import Game, bots, rules
from kniffel.core import Advisor, ColumnPosition, Solution, play_games, solve, trace
from kniffel.core.kernels.play import key_order
from kniffel.engine.actions import FreeThrow, Roll, Score, Strike
from kniffel.rules import RuleSet
from kniffel.services.plans import Chunk, compiled_rules, heuristic_search, plays_for_points, target_aim
from kniffel.services.simulate import (
    SimulationError,
    SimulationInterrupted,
    blocks,
    play_chunk,
    plot_histogram,
    simulate,
)
from support.solver import REDUCED, solved


class NoDice:
    """Replays give every throw's dice; a throw without them is a bug in the test."""

    def throw(self, n: int) -> tuple[int, ...]:
        raise AssertionError("the replay asked for new dice")


def replay(rs: RuleSet, solution: Solution, seed: int, game_no: int, *, check_advice: bool = True) -> None:
    """Play traced game ``game_no`` through :class:`Game`: every throw, keep and entry must be legal,
    every decision must be one the advisor rates best, and the totals must agree."""
    records, final = trace(solution, seed, game_no)
    assert len(records) == len(rs.boxes)
    game = Game(rs, ["optimal"], dice=NoDice())
    advisor = Advisor(solution)
    column = rs.columns[0]
    for record in records:
        for i, throw in enumerate(record.throws):
            kind = FreeThrow if i >= rs.rolls else Roll
            game.apply(kind(keep=throw.keep, dice=throw.dice))
            if not check_advice:
                continue
            options = advisor.options(
                ColumnPosition(
                    dict(game.sheet.entries),
                    throw.dice,
                    game.rolls_left,
                    thrown_at_once=game.turn.thrown_at_once,
                    free_throws_left=game.sheet.free_throws_left(column) - game.turn.free_throws,
                    free_throws_used=game.turn.free_throws,
                )
            )
            if i + 1 < len(record.throws):
                chosen = [o for o in options if o.keep == record.throws[i + 1].keep]
            else:
                chosen = [o for o in options if o.box == record.box]
            assert len(chosen) == 1, (record, options[:3])
            assert chosen[0].value == pytest.approx(options[0].value, abs=1e-9), (record, options[:3])
        placement = game.placements().get(record.box)
        paid = placement is not None and placement.points == record.points
        game.apply(Score(record.box) if paid else Strike(record.box))
        assert game.sheet.entries[record.box] == record.points
    assert game.is_over
    assert game.sheet.total == final
    assert play_games(solution, game_no + 1, seed).scores[game_no] == final


@pytest.mark.parametrize("name", list(REDUCED))
def test_reduced_games_replay_and_average_to_the_solved_value(name: str) -> None:
    rs = REDUCED[name]
    solution = solve(rs)
    for game_no in range(12):
        replay(rs, solution, seed=5, game_no=game_no)
    played = play_games(solution, 200_000, seed=1)
    se = played.scores.std() / math.sqrt(played.scores.size)
    assert abs(played.scores.mean() - solution.expected_score) < 4 * se


@pytest.mark.parametrize(("rules_id", "options"), [("yahtzee", ()), ("kniffel", (("sharp", "on"),))])
def test_per_box_statistics_are_those_of_the_traced_games(
    rules_id: str, options: tuple[tuple[str, str], ...]
) -> None:
    """Each box's counts, mean, distribution and strike rate, and the bonus and extra rates, are what
    the same games traced one by one (:func:`kniffel.core.trace`, the same seed) entered and earned; the
    boxes' points and the bonuses add up to the final scores."""
    solution = solved(rules_id, options)
    rs = solution.rules
    games, seed = 400, 31
    result = simulate(rs, games=games, seed=seed, solution=solution)
    assert result.boxes is not None
    assert list(result.boxes) == [box.id for box in rs.boxes]
    entered: dict[str, list[int]] = {box.id: [] for box in rs.boxes}
    bonuses = extras = 0
    for g in range(games):
        records, final = trace(solution, seed, g)
        assert final == result.scores[g]
        for record in records:
            entered[record.box].append(record.points)
            extras += record.extra > 0
        upper = sum(r.points for r in records if rs.box(r.box).section.value == "upper")
        bonuses += upper >= rs.upper_bonus_threshold
    for box, points in entered.items():
        stats = result.boxes[box]
        assert stats.entries == games
        assert np.array_equal(stats.counts, np.bincount(points, minlength=len(stats.counts)))
        assert stats.mean == pytest.approx(np.mean(points))
        assert stats.struck == points.count(0) / games
        assert stats.distribution == {p: points.count(p) / games for p in sorted(set(points))}
    assert result.upper_bonus_rate == bonuses / games
    assert result.extra_bonuses == extras / games
    box_points = sum(int(stats.counts @ np.arange(len(stats.counts))) for stats in result.boxes.values())
    extra_points = sum(r.extra for g in range(games) for r in trace(solution, seed, g)[0])
    assert box_points + bonuses * rs.upper_bonus + extra_points == int(result.scores.sum())
    data = result.to_json()
    assert data["boxes"][rs.boxes[0].id]["mean"] == result.boxes[rs.boxes[0].id].mean


def test_per_box_statistics_of_games_through_the_engine_count_every_column() -> None:
    """Games played through the engine (Knöffel's two columns with free throws, by the quick bot) count
    each box of every column; the compiled turn search of several columns counts none."""
    knoeffel = rules.get("knoeffel")
    result = simulate(knoeffel, strategy="bot", games=3, seed=2)
    assert result.boxes is not None
    assert {stats.entries for stats in result.boxes.values()} == {3 * len(knoeffel.columns)}
    assert simulate(rules.get("kniffel-3col"), strategy="bot", games=1, seed=1).boxes is None


@pytest.mark.parametrize("rules_id", ["yahtzee", "kniffel"])
def test_the_quick_bot_on_one_column_plays_its_own_games_all_at_once(
    rules_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On one column the quick bot's simulated games are played all at once by its own table, as
    tournaments play them (about forty times as fast as its turn search played them one turn at a
    time): each is a game through the engine whose every decision the bot rates best, and the
    simulation's score is that game's."""
    from kniffel.planning import planner_for

    ruleset = rules.get(rules_id)
    search = heuristic_search(ruleset, bots.make("bot", seed=0))
    assert search is not None
    monkeypatch.setattr(kniffel.services.plans, "sheet_search", None)  # not one turn at a time
    result = simulate(ruleset, strategy="bot", games=5, seed=4)
    monkeypatch.undo()
    assert result.expected is None  # its table's values are no expected score
    planner = planner_for(ruleset, method="heuristic")
    for g in range(5):
        records, final = trace(search.compiled[0], 4, g, values=search.values[0])
        game = Game(ruleset, ["bot"], dice=NoDice())
        for record in records:
            for i, throw in enumerate(record.throws):
                game.apply(Roll(keep=throw.keep, dice=throw.dice))
                placement = game.placements().get(record.box)
                paid = placement is not None and placement.points == record.points
                entry = Score(record.box) if paid else Strike(record.box)
                chosen = Roll(record.throws[i + 1].keep) if i + 1 < len(record.throws) else entry
                values = {c.action: c.value for c in planner.choices(game)}
                assert values[chosen] == pytest.approx(max(values.values()), abs=1e-9), (g, record)
            game.apply(entry)
        assert game.sheet.total == final == result.scores[g]


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [("yahtzee", (("joker", "free"),)), ("yahtzee", ()), ("yatzy", ())],
)
def test_full_games_replay_through_the_engine(rules_id: str, options: tuple[tuple[str, str], ...]) -> None:
    solution = solved(rules_id, options)
    for game_no in range(4):
        replay(solution.rules, solution, seed=2024, game_no=game_no)


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [("kniffel", (("sharp", "on"),)), ("kniffel", (("extra", "100"), ("strict", "on"))), ("knoeffel", ())],
)
def test_rule_variants_replay_through_the_engine(rules_id: str, options: tuple[tuple[str, str], ...]) -> None:
    solution = solved(rules_id, options)
    for game_no in range(3):
        replay(solution.rules, solution, seed=7, game_no=game_no, check_advice=game_no == 0)


def test_optimal_mean_converges_to_the_expected_score() -> None:
    result = simulate(
        rules.get("yahtzee", {"joker": "free"}),
        games=20_000,
        seed=12345,
        solution=solved("yahtzee", (("joker", "free"),)),
    )
    assert result.expected == pytest.approx(254.5896, abs=1e-4)
    assert result.strategy == "bot:optimal"
    assert abs(result.mean - 254.5896) < 3 * result.stderr
    assert 0.6 < result.upper_bonus_rate < 0.75  # about 68% with optimal play
    assert result.five_rate is not None
    assert 0.3 < result.five_rate < 0.37
    data = result.to_json()
    assert {"games", "mean", "std", "min", "max"} <= data.keys()
    assert data["games"] == 20_000
    assert data["min"] <= data["mean"] <= data["max"]


def test_same_seed_same_games_whatever_the_batching_or_threads() -> None:
    solution = solved("yahtzee", (("joker", "free"),))
    first = play_games(solution, 3_000, seed=99).scores
    assert np.array_equal(first, play_games(solution, 3_000, seed=99, batch=700).scores)
    parts = [
        play_games(solution, 1_800, seed=99).scores,
        play_games(solution, 1_200, seed=99, first_game=1_800).scores,
    ]
    assert np.array_equal(first, np.concatenate(parts))
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        assert np.array_equal(first, play_games(solution, 3_000, seed=99).scores)
    finally:
        numba.set_num_threads(threads)
    assert not np.array_equal(first, play_games(solution, 3_000, seed=100).scores)


@pytest.mark.parametrize(
    ("count", "top"),
    [(0, 1), (1, 1), (5_000, 1), (5_000, 30_000), (5_000, 1 << 20), (5_000, 1 << 31), (5_000, 1 << 40)],
    ids=["none", "one", "all-alike", "one-pass", "two-passes", "highest-counted", "past-counting"],
)
def test_games_are_ordered_by_their_keys(count: int, top: int) -> None:
    """The grouping's sort, whichever way it takes (one counting pass, two, or ``np.argsort``)."""
    keys = np.random.default_rng(count + top).integers(0, top, size=count, dtype=np.int64)
    order, ordered = key_order(keys)
    assert sorted(order.tolist()) == list(range(count))
    assert np.array_equal(ordered, keys[order])
    assert np.array_equal(ordered, np.sort(keys))


def test_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    simulate(
        rules.get("yahtzee", {"joker": "free"}),
        games=500,
        seed=1,
        progress=lambda done, total: seen.append((done, total)),
        solution=solved("yahtzee", (("joker", "free"),)),
    )
    assert seen[-1] == (500, 500)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_bot_strategy_plays_whole_games_reproducibly() -> None:
    knoeffel = rules.get("knoeffel")  # free throws: through the game, game by game
    calls: list[int] = []
    a = simulate(knoeffel, strategy="bot", games=2, seed=4, progress=lambda d, t: calls.append(d))
    b = simulate(knoeffel, strategy="bot", games=2, seed=4)
    assert calls == [1, 2]
    assert np.array_equal(a.scores, b.scores)
    assert a.columns == 2
    assert a.strategy == "bot"
    assert all(100 < s < 1500 for s in a.scores)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0, "seed": 1}, "positive"),
        ({"games": 10, "seed": 1.5}, "seed"),
        ({"games": 10, "seed": 1, "strategy": "random"}, "unknown strategy"),
        ({"games": 10, "seed": 1, "strategy": "optimal"}, r"unknown strategy .*bot:optimal"),
        ({"games": 10, "seed": 1, "strategy": "bot:nobody"}, "unknown bot"),
    ],
)
def test_bad_requests_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        simulate(rules.get("yatzy"), **kwargs)  # type: ignore[arg-type]


def test_bot_optimal_is_compiled_where_the_solver_covers_the_rules() -> None:
    yatzy = rules.get("yatzy")
    assert compiled_rules(yatzy) is yatzy
    knoeffel = compiled_rules(rules.get("knoeffel"))
    assert knoeffel is not None
    assert not knoeffel.multi_column
    assert knoeffel.free_throws == 3
    assert compiled_rules(rules.get("kniffel-3col")) is None  # fill orders and an announced column
    assert compiled_rules(rules.get("kniffel-4col")) is None


def test_bot_optimal_on_several_columns_has_no_exact_expectation(solver_cache: Path) -> None:
    # played by the column estimate's compiled sheet search, not the solver
    # (tests/planning/test_sheet_search.py)
    result = simulate(rules.get("kniffel-3col"), strategy="bot:optimal", games=1, seed=2)
    assert (result.strategy, result.columns, result.games, result.expected) == ("bot:optimal", 3, 1, None)
    assert result.min > 300, "three columns of a sensible bot score far above chance"
    with pytest.raises(SimulationError, match="of no use"):
        simulate(rules.get("kniffel-3col"), games=1, seed=2, solution=solved("yahtzee", ()))


def test_histogram_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = simulate(
        rules.get("yahtzee", {"joker": "free"}),
        games=1_000,
        seed=3,
        solution=solved("yahtzee", (("joker", "free"),)),
    )
    path = plot_histogram(result, tmp_path / "scores.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 5_000


def test_bot_win_alone_plays_for_points_in_compiled_code() -> None:
    """Alone at the table the win bot plays for points (:class:`kniffel.planning.WinPlanner`): its
    simulation is bot:optimal's compiled games, each decision one the bot rates best through the
    engine."""
    strict = rules.get("kniffel", {"strict": "on"})
    assert plays_for_points("bot:win")
    win = simulate(strict, strategy="bot:win", games=300, seed=6)
    optimal = simulate(strict, strategy="bot:optimal", games=300, seed=6)
    assert (win.strategy, win.expected) == ("bot:win", optimal.expected)
    assert np.array_equal(win.scores, optimal.scores)
    bot = bots.make("bot:win", seed=0)
    assert isinstance(bot, bots.WinBot)
    records, final = trace(solved("kniffel", (("strict", "on"),)), 6, 0)
    game = Game(strict, ["bot:win"], dice=NoDice())

    def assert_best(action: Roll | Score | Strike) -> None:
        choices = bot.choices(game)
        assert [c.value for c in choices if c.action == action] == pytest.approx([choices[0].value], abs=1e-9)

    for record in records:
        for throw in record.throws:
            if game.turn.dice is not None:
                assert_best(Roll(keep=throw.keep))
            game.apply(Roll(keep=throw.keep, dice=throw.dice))
        placement = game.placements().get(record.box)
        paid = placement is not None and placement.points == record.points
        entry = Score(record.box) if paid else Strike(record.box)
        assert_best(entry)
        game.apply(entry)
    assert game.sheet.total == final == win.scores[0]


def test_a_player_for_a_score_alone_plays_the_tournaments_games_all_at_once() -> None:
    """``bot:target:T`` alone at its table is played in compiled code as tournaments play it: its game
    ``i`` is deal ``i`` of a compiled table (the other seat's play changes none of its dice), in blocks of
    any size, and it makes its score as often as the target rows say. Through the engine it played 51
    games a second here; all at once, 30,000."""
    from kniffel.core import AIM_POINTS, empty_state, play_to_win, solve_rows

    strict = rules.get("kniffel", {"strict": "on"})
    assert target_aim(strict, "bot:target:150") == 150
    assert target_aim(strict, "bot:optimal") is None
    assert target_aim(rules.get("kniffel-3col"), "bot:target:150") is None
    alone = simulate(strict, strategy="bot:target:150", games=20_000, seed=4)
    table = play_to_win(
        solved("kniffel", (("strict", "on"),)), players=2, deals=300, seed=4, aims=[150, AIM_POINTS]
    )
    assert alone.scores[:300].tolist() == table.by_deal()[:, 0, 0].tolist()
    blocks = [play_chunk(strict, "bot:target:150", 4, first, n) for first, n in ((0, 120), (120, 180))]
    assert np.concatenate([block.scores for block in blocks]).tolist() == alone.scores[:300].tolist()
    c = solved("kniffel", (("strict", "on"),)).compiled
    chance = solve_rows(c, root=empty_state(c), low=150, high=150).value(empty_state(c), 150)
    made = float((alone.scores >= 150).mean())
    assert abs(made - chance) <= 4 * math.sqrt(chance * (1 - chance) / alone.games), (made, chance)
    assert 0 < alone.upper_bonus_rate < 1


def test_blocks_cover_the_count_at_the_pace_of_the_one_before(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(kniffel.services.simulate, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    spans = []
    for first, size in blocks(1000, seconds=1.0, smallest=4, largest=300):
        spans.append((first, size))
        clock[0] += size / 100  # 100 items a second
    assert [first for first, _ in spans] == [sum(size for _, size in spans[:i]) for i in range(len(spans))]
    # the first is the smallest, the next at most eight times it, then a second's worth each
    assert [size for _, size in spans] == [4, 32, *[100] * 9, 64]
    # no time taken at all: eight times the one before, up to the largest
    sizes = [size for _, size in blocks(1000, seconds=1.0, smallest=4, largest=300)]
    assert sizes == [4, 32, 256, 300, 300, 108]


def test_ctrl_c_keeps_the_games_of_the_blocks_played(monkeypatch: pytest.MonkeyPatch) -> None:
    yatzy = rules.get("yatzy")
    whole = simulate(yatzy, games=30, seed=2)
    play_chunk = kniffel.services.simulate.play_chunk
    calls: list[int] = []
    stop_at = [3]

    def stopped(*args: Any, **kwargs: Any) -> Chunk:
        calls.append(args[3])
        if len(calls) == stop_at[0]:
            raise KeyboardInterrupt
        return play_chunk(*args, **kwargs)

    def in_tens(count: int, **_: object) -> list[tuple[int, int]]:
        return [(first, min(10, count - first)) for first in range(0, count, 10)]

    monkeypatch.setattr(kniffel.services.simulate, "play_chunk", stopped)
    monkeypatch.setattr(kniffel.services.simulate, "blocks", in_tens)
    with pytest.raises(SimulationInterrupted) as caught:
        simulate(yatzy, games=35, seed=2)
    assert calls == [0, 10, 20]
    partial = caught.value.result
    assert partial is not None
    assert isinstance(caught.value, KeyboardInterrupt)
    assert (partial.partial, partial.games, partial.games_asked) == (True, 20, 35)
    assert np.array_equal(partial.scores, whole.scores[:20])
    data = partial.to_json()
    assert (data["partial"], data["games"], data["games_asked"]) == (True, 20, 35)
    assert whole.to_json()["partial"] is False
    assert "games_asked" not in whole.to_json()
    calls.clear()
    stop_at[0] = 1
    with pytest.raises(SimulationInterrupted) as early:
        simulate(yatzy, games=25, seed=2)
    assert early.value.result is None, "nothing played: no result"
