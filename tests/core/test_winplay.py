"""The compiled games of playing to win (:mod:`kniffel.core.winplay`) replayed through the engine: every
decision of the player to win is the best the win planner (:class:`kniffel.planning.WinPlanner`) sees,
every decision of the others the best the exact planner sees (or the heuristic planner, for a player
played by the heuristic's table), the scores are the engine's, and the chances recorded before every turn
are :func:`kniffel.planning.win_chances` of the replayed game.

Reduced games (three dice, four boxes; :mod:`support.solver`) and strict Kniffel have tables solved
in moments and cover the joker rules, free throws and the sharp rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from kniffel import Game, KniffelError, bots, rules
from kniffel.base.keeps import keep_lattice
from kniffel.core import AIM_POINTS, AIM_WIN, Matches, play_to_win, solve
from kniffel.engine.actions import FreeThrow, Roll, Score, Strike
from kniffel.planning import HeuristicPlanner, TargetPlanner, WinPlanner, goals, planner_for, win_chances
from kniffel.planning.compiled import SheetSearch
from kniffel.planning.interface import Planner
from kniffel.rules import RuleSet
from kniffel.services.plans import heuristic_search
from kniffel.services.tournament import Tournament, play_match
from support.dice import ScriptedDice
from support.solver import REDUCED

pytestmark = pytest.mark.usefixtures("solver_cache")

STRICT = rules.get("kniffel", {"strict": "on"})
CASES = {
    "strict kniffel": STRICT,
    "forced joker": REDUCED["forced joker"],
    "free joker": REDUCED["free joker"],
    "hundred": REDUCED["hundred"],
}
CASES.update({name: game for name, game in REDUCED.items() if "free throw" in name or "sharp" in name})
# three dice tie often: where a tie is a win for every tied player, the player to win values it so
CASES["forced joker, a tie wins for all"] = dataclasses.replace(
    REDUCED["forced joker"], options={"tie_wins_all": "on"}
)


def logged(
    ruleset: RuleSet, players: int, deals: int, seed: int, **options: Any
) -> tuple[Matches, npt.NDArray[np.int32]]:
    """Compiled games of ``ruleset`` with every decision logged, as :func:`replay` reads them."""
    steps = ruleset.rolls + ruleset.free_throws_per_turn + 1
    log = np.full((players, deals * players, len(ruleset.boxes), steps, 3), -1, dtype=np.int32)
    matches = play_to_win(solve(ruleset), players=players, deals=deals, seed=seed, log=log, **options)
    return matches, log


def assert_best(planner: Planner, game: Game, action: object) -> None:
    choices = planner.choices(game)
    taken = [c.value for c in choices if c.action == action]
    assert taken, f"{action} is not among the planner's choices"
    assert taken[0] == pytest.approx(max(c.value for c in choices), abs=1e-7)


def replay(
    ruleset: RuleSet,
    matches: Matches,
    log: npt.NDArray[np.int32],
    g: int,
    *,
    predicted: bool = True,
    played_by: Mapping[int, Planner] | None = None,
) -> Game:
    """Game ``g`` through the engine, every decision and (if ``predicted``) every recorded chance
    checked: a role's against the planner of its aim, or of ``played_by[role]``."""
    lattice = keep_lattice(ruleset.dice)
    players = matches.players
    to_win = WinPlanner(ruleset, goals.WIN)
    for_points = planner_for(ruleset, method="exact")
    targets = {aim: TargetPlanner(ruleset, goals.Target(aim)) for aim in matches.aims if aim >= 0}
    planners = {
        aim: to_win if aim == AIM_WIN else for_points if aim == AIM_POINTS else targets[aim]
        for aim in matches.aims
    }
    played_by = played_by or {}
    dice = ScriptedDice()
    game = Game(ruleset, [f"P{s}" for s in range(players)], dice=dice)
    for turn in range(log.shape[2]):
        for mover in range(players):
            assert game.current == mover
            if predicted:
                assert matches.predictions is not None
                expected = win_chances(game)
                assert matches.predictions[g, turn, mover].tolist() == pytest.approx(expected, abs=1e-6)
            role = (mover + int(matches.seating[g])) % players
            planner = played_by.get(role, planners[matches.aims[role]])
            for keep_index, second, third in log[mover, g, turn].tolist():
                if keep_index == -2:
                    key = ruleset.boxes[second].id
                    placement = game.placements().get(key)
                    points = third >> 16
                    action: Score | Strike = (
                        Score(key) if placement is not None and placement.points == points else Strike(key)
                    )
                    assert_best(planner, game, action)
                    game.apply(action)
                    break
                keep = lattice.keeps[keep_index]
                thrown = list(lattice.keeps[lattice.first_roll + second])
                for die in keep:
                    thrown.remove(die)
                throw = Roll(keep)
                if game.turn.dice is not None:
                    if game.rolls_left == 0:
                        throw = FreeThrow(keep)
                    assert_best(planner, game, throw)
                dice.queue.append(tuple(thrown))
                game.apply(throw)
    assert game.is_over
    return game


def test_compiled_target_play_replays_through_the_engine() -> None:
    """A role playing for a target decides as :class:`TargetPlanner` does, every decision checked (an
    exact tie between options equally likely to make it may go either way)."""
    matches, log = logged(STRICT, 2, 3, seed=12, aims=(200, AIM_POINTS))
    for g in range(matches.games):
        game = replay(STRICT, matches, log, g, predicted=False)
        assert [sheet.total for sheet in game.sheets] == matches.scores[g].tolist()


@pytest.mark.parametrize("name", list(CASES))
def test_compiled_games_replay_through_the_engine(name: str) -> None:
    ruleset = CASES[name]
    players = 3 if name == "free joker" else 2
    deals = 3
    matches, log = logged(ruleset, players, deals, seed=11, predict=True)
    assert matches.games == deals * players
    for g in range(matches.games):
        game = replay(ruleset, matches, log, g)
        assert [sheet.total for sheet in game.sheets] == matches.scores[g].tolist()
        winners = set(game.winners())
        assert matches.winners[g].tolist() == [f"P{s}" in winners for s in range(players)]


def test_duplicate_deals_give_every_seat_the_same_first_throws() -> None:
    ruleset = REDUCED["forced joker"]
    players, deals = 2, 4
    _, log = logged(ruleset, players, deals, seed=5)
    for seat in range(players):
        for deal in range(deals):
            # the opening throw of the first turn does not depend on anyone's decisions
            assert log[seat, deal, 0, 0, 1] == log[seat, deals + deal, 0, 0, 1]


def test_shares_of_a_tie_and_the_roles() -> None:
    matches = Matches(
        players=2,
        deals=2,
        aims=(AIM_WIN, AIM_POINTS),
        scores=np.array([[200, 200], [150, 180], [190, 170], [100, 120]]),
        predictions=None,
        seconds=1.0,
    )
    assert matches.to_win == (True, False)
    # seating 0 (the first two games): role 0 in seat 0; seating 1: role 0 in seat 1
    assert matches.shares()[:, 0].tolist() == [0.5, 0.0, 0.0, 1.0]
    assert matches.outcomes(shared=True)[0].tolist() == [0.5, 0.5]
    assert matches.outcomes(shared=False)[:2].tolist() == [[1.0, 1.0], [0.0, 1.0]]
    assert matches.role_scores()[:, 0].tolist() == [200, 150, 170, 120]
    assert matches.by_deal().tolist() == [[[200, 200], [170, 190]], [[150, 180], [120, 100]]]


def test_the_deals_are_the_tournaments() -> None:
    """Players for points meet the same dice as in :mod:`kniffel.services.tournament` through the engine, and
    play the same games whatever the others do; the players to win there break exact ties their own way."""
    deals = 3
    for to_win in ((False, False), (True, False), (False, True)):
        specs = ["bot:win" if x else "bot:optimal" for x in to_win]
        request = Tournament(STRICT, specs, deals=deals, seed=4)
        engine = play_match(request, (0, 1), first_deal=0, deals=deals, compiled=False).scores
        compiled = play_to_win(solve(STRICT), players=2, deals=deals, seed=4, to_win=to_win).by_deal()
        for role, wins in enumerate(to_win):
            if not wins:
                assert compiled[:, :, role].tolist() == engine[:, :, role].tolist()


def test_a_table_of_one_plays_for_points_or_a_score_but_not_to_win() -> None:
    one = play_to_win(solve(STRICT), players=1, deals=5, seed=1, aims=[150])
    assert one.scores.shape == (5, 1)
    assert one.flags is not None
    assert one.flags.shape == (5, 1)
    with pytest.raises(KniffelError, match="playing to win needs 2"):
        play_to_win(solve(STRICT), players=1, deals=5, seed=1, aims=[AIM_WIN])


def test_three_players_two_of_them_to_win_replay() -> None:
    ruleset = REDUCED["forced joker"]
    matches, log = logged(ruleset, 3, 2, seed=2, to_win=(True, False, True), predict=True)
    for g in range(matches.games):
        game = replay(ruleset, matches, log, g)
        assert [sheet.total for sheet in game.sheets] == matches.scores[g].tolist()


def heuristic(ruleset: RuleSet) -> SheetSearch:
    """The heuristic bot's compiled search on ``ruleset``, whose table compiled play plays it by."""
    search = heuristic_search(ruleset, bots.make("bot", seed=0))
    assert search is not None
    return search


HEURISTIC_CASES = {"strict kniffel": STRICT}
HEURISTIC_CASES.update({name: REDUCED[name] for name in REDUCED if "free throw" not in name})


@pytest.mark.parametrize("name", list(HEURISTIC_CASES))
def test_a_player_by_the_heuristics_table_decides_as_the_heuristic_planner(name: str) -> None:
    """Played by the heuristic's table, the points player's turn is the heuristic bot's: every decision
    the best the heuristic planner sees in the engine (up to exact ties), against players for points and
    to win, who see it as the engine shows it to them (their chances of winning)."""
    ruleset = HEURISTIC_CASES[name]
    values = (heuristic(ruleset).values[0], None, None)
    matches, log = logged(
        ruleset, 3, 2, seed=8, aims=(AIM_POINTS, AIM_POINTS, AIM_WIN), values=values, predict=True
    )
    planner = planner_for(ruleset, method="heuristic")
    assert isinstance(planner, HeuristicPlanner)
    for g in range(matches.games):
        game = replay(ruleset, matches, log, g, played_by={0: planner})
        assert [sheet.total for sheet in game.sheets] == matches.scores[g].tolist()


def test_heuristic_players_alone_need_no_solved_table() -> None:
    search = heuristic(STRICT)
    table = search.values[0]
    alone = play_to_win(
        search.compiled[0], players=2, deals=4, seed=4, aims=(AIM_POINTS, AIM_POINTS), values=[table] * 2
    )
    solved = play_to_win(
        solve(STRICT), players=2, deals=4, seed=4, aims=(AIM_POINTS, AIM_POINTS), values=[table] * 2
    )
    assert alone.scores.tolist() == solved.scores.tolist()
    optimal = play_to_win(solve(STRICT), players=2, deals=4, seed=4, aims=(AIM_POINTS, AIM_POINTS))
    assert alone.scores.tolist() != optimal.scores.tolist(), "the table is what the players play by"
    with pytest.raises(ValueError, match="solved table"):
        play_to_win(
            search.compiled[0],
            players=2,
            deals=1,
            seed=4,
            aims=(AIM_POINTS, AIM_POINTS),
            values=[table, None],
        )
    with pytest.raises(ValueError, match="for a player for points"):
        play_to_win(
            solve(STRICT), players=2, deals=1, seed=4, aims=(AIM_WIN, AIM_POINTS), values=[table, None]
        )
    with pytest.raises(ValueError, match="for a player for points"):
        play_to_win(
            solve(STRICT),
            players=2,
            deals=1,
            seed=4,
            aims=(AIM_POINTS, AIM_POINTS),
            values=[table[:, :1], None],
        )


@pytest.mark.parametrize(
    ("players", "said"), [(1, "playing to win needs 2 to 8 players"), (9, "1 to 8 players")]
)
def test_the_number_of_players_is_checked(players: int, said: str) -> None:
    with pytest.raises(KniffelError, match=said):
        play_to_win(solve(STRICT), players=players, deals=1, seed=1)


def test_every_player_is_said_to_play_to_win_or_not() -> None:
    with pytest.raises(KniffelError, match="each of the 2 players"):
        play_to_win(solve(STRICT), players=2, deals=1, seed=1, to_win=(True,))


def test_a_negative_number_of_deals_is_refused() -> None:
    with pytest.raises(KniffelError, match="at least 0"):
        play_to_win(solve(STRICT), players=2, deals=-1, seed=1)
