"""The compiled turn search of multi-column sheets (:mod:`kniffel.planning.compiled`).

Its games are replayed through :class:`~kniffel.engine.game.Game`: every action must be legal, be the
planner's best choice in that position, and the final scores must agree. Its values are compared with the
Python lookahead's (:mod:`kniffel.planning.lookahead`), which plays the sheets it does not cover.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from kniffel import Game, SeededDice, bots, rules
from kniffel.base.keeps import keep_lattice
from kniffel.core import MASK64, stream_base
from kniffel.engine.actions import Announce, Roll, Score, Strike
from kniffel.planning import HeuristicPlanner, planner_for
from kniffel.planning.compiled import SearchPlanner, SheetSearch, covers, new_log
from kniffel.planning.lookahead import Lookahead
from kniffel.rules import RuleSet
from kniffel.services.plans import sheet_search
from kniffel.services.simulate import play_chunk, simulate
from support.dice import ScriptedDice

SHEETS = ("kniffel-3col", "kniffel-4col", "super-kniffel", "yams")
KINDS = ("column", "heuristic")


def planner(rules_id: str, kind: str) -> SearchPlanner:
    found = planner_for(rules.get(rules_id), method="column" if kind == "column" else "heuristic")
    assert isinstance(found, SearchPlanner)
    return found


def search_of(found: SearchPlanner) -> SheetSearch:
    assert found.search is not None
    return found.search


def assert_best(found: SearchPlanner, game: Game, action: object) -> None:
    choices = found.choices(game)
    taken = [c.value for c in choices if c.action == action]
    assert taken, f"{action} is not among the planner's choices"
    assert taken[0] == pytest.approx(choices[0].value, abs=1e-9)


def replay(ruleset: RuleSet, found: SearchPlanner, log: npt.NDArray[np.int32], g: int) -> Game:
    """Game ``g`` of ``log`` through the engine, each decision checked against the planner."""
    lattice = keep_lattice(ruleset.dice)
    dice = ScriptedDice()
    game = Game(ruleset, ["bot"], dice=dice)
    for turn in range(log.shape[1]):
        for keep_index, second, third in log[g, turn].tolist():
            if keep_index == -2:
                key = ruleset.key(ruleset.columns[second], ruleset.boxes[third >> 16])
                placement = game.placements().get(key)
                points = third & 0xFFFF
                action: Score | Strike = (
                    Score(key) if placement is not None and placement.points == points else Strike(key)
                )
                assert_best(found, game, action)
                game.apply(action)
                break
            if keep_index == -3:
                announce = Announce(ruleset.key(ruleset.columns[second], ruleset.boxes[third]))
                assert_best(found, game, announce)
                game.apply(announce)
                continue
            keep = lattice.keeps[keep_index]
            thrown = list(lattice.keeps[lattice.first_roll + second])
            for die in keep:
                thrown.remove(die)
            if game.turn.dice is not None:
                assert_best(found, game, Roll(keep))
            dice.queue.append(tuple(thrown))
            game.apply(Roll(keep))
    assert game.is_over
    return game


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rules_id", SHEETS)
def test_compiled_games_replay_through_the_game(rules_id: str, kind: str) -> None:
    ruleset = rules.get(rules_id)
    found = planner(rules_id, kind)
    games = 3
    log = new_log(ruleset, games)
    played = search_of(found).play(games, stream_base(7), log=log)
    for g in range(games):
        game = replay(ruleset, found, log, g)
        assert game.sheet.total == played.scores[g]
        for c, column in enumerate(ruleset.columns):
            totals = game.sheet.column_totals(column)
            assert (totals.upper_bonus > 0) == bool(played.totals[g, c, 1])


def positions(ruleset: RuleSet, count: int, seed: int) -> list[Game]:
    """Positions after a throw, met in games of the heuristic bot (each its own game, a copy)."""
    found: list[Game] = []
    bot = bots.make("bot", seed=seed)
    game = Game(ruleset, ["bot"], dice=SeededDice(seed))
    step = 0
    while len(found) < count:
        if game.is_over:
            seed += 1
            game = Game(ruleset, ["bot"], dice=SeededDice(seed))
        if game.turn.dice is not None and step % 5 == 0:
            found.append(copy.deepcopy(game))
        game.apply(bot.choose(game))
        step += 1
    return found


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rules_id", SHEETS)
def test_compiled_values_equal_the_python_lookahead(rules_id: str, kind: str) -> None:
    """Every choice of the compiled search is valued as the Python lookahead values it, with one
    exception where the lookahead knows more: after an announcement, a further five alike that the
    forced joker would send elsewhere may still go in the announced box (the compiled search, whose
    tables are a free column's, strikes instead); those choices are compared only for rule sets without
    announced columns."""
    ruleset = rules.get(rules_id)
    found = planner(rules_id, kind)
    announced = any(c.order.name == "ANNOUNCED" for c in ruleset.columns)
    for game in positions(ruleset, 40, seed=3):
        expected = {c.action: c.value for c in Lookahead(game, found.valuation(game)).choices()}
        got = {c.action: c.value for c in found.choices(game)}
        assert got.keys() == expected.keys()
        for action, value in got.items():
            if announced and (isinstance(action, Announce) or game.turn.announced is not None):
                continue
            assert value == pytest.approx(expected[action], rel=1e-9, abs=1e-9), action


@pytest.mark.parametrize("strategy", ["bot", "bot:optimal"])
def test_simulation_is_reproducible_and_splits(strategy: str) -> None:
    ruleset = rules.get("super-kniffel")
    assert sheet_search(ruleset, strategy) is not None
    whole = simulate(ruleset, strategy=strategy, games=40, seed=5)
    again = simulate(ruleset, strategy=strategy, games=40, seed=5)
    assert (whole.scores == again.scores).all()
    assert whole.columns == 4
    parts = [play_chunk(ruleset, strategy, 5, 0, 15), play_chunk(ruleset, strategy, 5, 15, 25)]
    assert (np.concatenate([p.scores for p in parts]) == whole.scores).all()
    other = simulate(ruleset, strategy=strategy, games=40, seed=6)
    assert not (other.scores == whole.scores).all()


def test_sheets_with_free_throws_fall_back_to_the_game() -> None:
    knoeffel = rules.get("knoeffel")
    assert knoeffel.free_throws
    assert not covers(knoeffel)
    assert sheet_search(knoeffel, "bot") is None
    heuristic = planner_for(knoeffel, method="heuristic")
    assert isinstance(heuristic, HeuristicPlanner)
    assert heuristic.search is None
    with_free = dataclasses.replace(rules.get("super-kniffel"), free_throws=2)
    assert sheet_search(with_free, "bot") is None
    result = simulate(knoeffel, strategy="bot", games=2, seed=1)
    assert result.games == 2
    assert result.columns == len(knoeffel.columns)
    # the same games as the bot plays them one by one through the engine
    for g, score in enumerate(result.scores.tolist()):
        game_seed = (stream_base(1) + g) & MASK64
        game = bots.play(
            Game(knoeffel, ["bot"], dice=SeededDice(game_seed)), [bots.make("bot", seed=game_seed)]
        )
        assert game.sheet.total == score


def test_which_games_the_sheet_search_plays() -> None:
    """The heuristic bot on every sheet without free throws, one column too (thousands of games a second
    rather than dozens through the engine); bot:optimal on several columns (one is the solver's), and
    bot:win alone there too (playing to win needs the exact tables, so it plays the column estimate)."""
    assert sheet_search(rules.get("kniffel"), "bot") is not None
    assert sheet_search(rules.get("kniffel"), "bot:optimal") is None
    assert sheet_search(rules.get("kniffel-4col"), "bot:optimal") is not None
    assert sheet_search(rules.get("kniffel-4col"), "bot:win") is not None


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee", "yatzy"])
def test_one_column_heuristic_games_replay_through_the_game(rules_id: str) -> None:
    """The compiled heuristic on a sheet of one column: its games through the engine, each decision
    the Python lookahead's best (up to exact ties), and its values the lookahead's."""
    test_compiled_games_replay_through_the_game(rules_id, "heuristic")
    test_compiled_values_equal_the_python_lookahead(rules_id, "heuristic")


def test_sheets_of_any_number_of_columns_share_one_compiled_kernel() -> None:
    """numba compiles a kernel once for every typing of its arguments, and a tuple of one table per
    column is typed apart by its length: the columns come as one table and what their fill orders change
    in it, so that the first game of each sheet does not compile the turn search again (20-25 s each);
    a column's own tables put together in the kernels are the ones it was given."""
    import numba

    from kniffel.core import compile_rules
    from kniffel.core.kernels.sheet import column_of, sheet_tables
    from kniffel.planning.compiled import column_rules

    typeof: Any = numba.typeof
    searches = [sheet_search(rules.get(rules_id), "bot") for rules_id in ("kniffel", "kniffel-3col", *SHEETS)]
    assert None not in searches
    assert len({typeof(s.tables) for s in searches if s is not None}) == 1
    assert [len(s.announced) for s in searches if s is not None] == [1, 3, 3, 4, 4, 4]
    four = rules.get("kniffel-4col")
    own = [compile_rules(column_rules(four, c)).kernel_tables for c in range(4)]
    together = sheet_tables(own)
    for c, t in enumerate(own):
        built = column_of.py_func(together, c)
        assert typeof(built) == typeof(t)
        for name in t._fields:
            assert np.array_equal(getattr(built, name), getattr(t, name)), (c, name)
    with pytest.raises(ValueError, match="at least one column"):
        sheet_tables([])
    yatzy = compile_rules(rules.get("yatzy")).kernel_tables
    with pytest.raises(ValueError, match="differs from the first in n_boxes"):
        sheet_tables([own[0], yatzy])


@pytest.mark.parametrize(("rules_id", "method"), [("kniffel", "heuristic"), ("kniffel-3col", "column")])
def test_a_player_people_wait_for_plays_the_lookahead_until_the_search_is_compiled(
    rules_id: str, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled search's first compile takes half a minute; a fresh install's first game against the
    quick bot waited that long for its first keep. A planner that may not wait (a live bot's) plays the
    Python lookahead meanwhile, with the same values, and the compiled search once it is there."""
    ruleset = rules.get(rules_id)
    waiting = planner_for(ruleset, method=method)  # type: ignore[arg-type]
    live = planner_for(ruleset, method=method, wait=False)  # type: ignore[arg-type]
    assert live is not waiting
    game = Game(ruleset, ["Ada", "Bob"], dice=SeededDice(11))
    positions: list[Game] = []
    while len(positions) < 8:
        if game.turn.dice is None:
            game.apply(Roll())
        positions.append(game.copy())
        game.apply(waiting.choices(game)[0].action)
    expected = [waiting.choices(at) for at in positions]
    searched: list[Game] = []
    search_choices = SheetSearch.choices

    def compiled(search: SheetSearch, game: Game, valuation: Any) -> Any:
        searched.append(game)
        return search_choices(search, game, valuation)

    monkeypatch.setattr(SheetSearch, "choices", compiled)
    monkeypatch.setattr(SheetSearch, "ready", lambda search: False)
    for at, choices in zip(positions, expected, strict=True):
        found = live.choices(at)
        assert [str(c.action) for c in found[:1]] == [str(choices[0].action)]
        assert {str(c.action): round(c.value, 9) for c in found} == {
            str(c.action): round(c.value, 9) for c in choices
        }
    assert not searched
    assert waiting.choices(positions[0]) == expected[0]  # a planner that may wait compiles
    assert searched
    monkeypatch.setattr(SheetSearch, "ready", lambda search: True)
    searched.clear()
    assert live.choices(positions[0]) == expected[0]
    assert searched
