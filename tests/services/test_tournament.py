"""Tournaments: duplicate dice, seats swapped, ties shared, Wilson intervals, Bradley-Terry ratings, the
command line."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner, Result

import kniffel.services.tournament
from kniffel import Game, rules
from kniffel.apps.cli import app
from kniffel.base.errors import KniffelError
from kniffel.core import AIM_POINTS, AIM_WIN
from kniffel.engine.actions import Roll, Score
from kniffel.services.plans import HEURISTIC
from kniffel.services.standings import Match, Rate, TournamentResult, bradley_terry
from kniffel.services.tournament import (
    DealDice,
    Tournament,
    TournamentError,
    TournamentInterrupted,
    combine,
    compiled_roles,
    play_match,
    tournament,
)
from support.solver import REDUCED

KNIFFEL = rules.get("kniffel")


def result_of(players: int, matches: list[Match], *, table: bool = False) -> TournamentResult:
    deals = matches[0].deals
    return combine(Tournament(KNIFFEL, ["bot"] * players, deals=deals, seed=0, table=table), matches)


# --- dice ----------------------------------------------------------------------------------------------


def test_a_throw_of_fewer_dice_takes_the_first_of_the_same_five() -> None:
    game = Game(KNIFFEL, ["a", "b"])
    five, two = DealDice(7), DealDice(7)
    five.follow(game)
    two.follow(game)
    assert five.throw(5)[:2] == two.throw(2)
    other = DealDice(8)
    other.follow(game)
    assert [other.throw(5) for _ in range(3)] != [five.throw(5) for _ in range(3)]


def test_a_seats_dice_do_not_depend_on_how_the_other_seat_played() -> None:
    def second_seats_first_roll(rolls_of_first_seat: int) -> tuple[int, ...]:
        dice = DealDice(3)
        game = Game(KNIFFEL, ["a", "b"], dice=dice)
        dice.follow(game)
        for _ in range(rolls_of_first_seat):
            game.apply(Roll())
        game.apply(Score("chance"))
        game.apply(Roll())
        assert game.dice is not None
        return game.dice

    assert second_seats_first_roll(1) == second_seats_first_roll(3)


def test_the_dice_follow_the_seat_turn_and_throw() -> None:
    dice = DealDice(3)
    game = Game(KNIFFEL, ["a", "b"], dice=dice)
    dice.follow(game)
    first = dice.throw(5)
    assert dice.throw(5) != first, "the second throw of a turn draws new dice"
    game.apply(Roll())
    again = DealDice(3)
    again.follow(Game(KNIFFEL, ["a", "b"]))
    assert again.throw(5) == first
    game.apply(Score("chance"))
    assert dice.throw(5) != first, "the other seat has dice of its own"


# --- playing -------------------------------------------------------------------------------------------


def test_a_bot_against_itself_wins_exactly_half_with_the_seats_swapped() -> None:
    result = tournament(Tournament(KNIFFEL, ["bot", "bot"], deals=2, seed=5))
    (match,) = result.matches
    assert match.scores.shape == (2, 2, 2)
    # seating 1 puts the second player on the first seat's dice: it scores what the first did there
    assert np.array_equal(match.scores[:, 1, :], match.scores[:, 0, ::-1])
    (pair,) = result.pairings()
    assert (pair.player, pair.opponent, pair.games) == ("bot", "bot #2", 4)
    assert pair.won == 2.0
    assert pair.wins == pair.losses
    first, second = result.standings()
    assert first.rating == pytest.approx(1500)
    assert second.rating == pytest.approx(1500)


def test_at_one_table_every_player_plays_every_seats_dice() -> None:
    result = tournament(Tournament(KNIFFEL, ["bot", "bot", "bot"], deals=1, seed=2, table=True))
    (match,) = result.matches
    assert match.players == (0, 1, 2)
    scores = match.scores[0]
    for seating in range(3):
        assert sorted(scores[seating]) == sorted(scores[0])
        assert np.array_equal(scores[seating], np.roll(scores[0], seating))
    assert sum(record.won for record in result.standings()) == pytest.approx(3)


def test_chunks_of_deals_are_the_same_games_in_any_order() -> None:
    specs = ["bot", "bot:heuristic"]
    request = Tournament(KNIFFEL, specs, deals=2, seed=9)
    whole = play_match(request, (0, 1), 0, 2)
    later = play_match(request, (0, 1), 1, 1)
    assert np.array_equal(whole.scores[1:], later.scores)
    parts = [later, play_match(request, (0, 1), 0, 1)]
    assert np.array_equal(combine(request, parts).matches[0].scores, whole.scores)
    with pytest.raises(TournamentError, match="deal 0"):
        combine(request, [later])
    with pytest.raises(TournamentError, match="more than the 1 asked"):
        combine(Tournament(KNIFFEL, specs, deals=1, seed=9), [whole])


STRICT = rules.get("kniffel", {"strict": "on"})


@pytest.mark.usefixtures("solver_cache")
def test_tables_of_optimal_win_and_heuristic_bots_play_compiled_the_engines_games() -> None:
    """Players for points and the heuristic bot play the engine's very games; a player to win plays the
    compiled win games (:mod:`kniffel.core.winplay`, whose decisions tests/core/test_winplay.py checks
    against the planners)."""
    from kniffel.core import play_to_win, solve

    specs = ["bot:optimal", "bot:win", "bot:optimal", "bot"]
    request = Tournament(STRICT, specs, deals=4, seed=3)
    for players in ((0, 2), (0, 1), (1, 0, 2), (3, 0), (1, 3), (3, 1, 0)):
        fast = play_match(request, players, first_deal=1, deals=3)
        roles = tuple(specs[p] == "bot:win" for p in players)
        if "bot" not in [specs[p] for p in players]:
            played = play_to_win(
                solve(STRICT), players=len(players), deals=3, seed=3, first_deal=1, to_win=roles
            )
            assert fast.scores.tolist() == played.by_deal().tolist()
        engine = play_match(request, players, first_deal=1, deals=3, compiled=False)
        for k, wins in enumerate(roles):
            if not wins:
                assert fast.scores[:, :, k].tolist() == engine.scores[:, :, k].tolist()


@pytest.mark.parametrize("rules_id", ["kniffel", "yahtzee"])
def test_heuristic_bots_play_compiled_the_engines_games(rules_id: str) -> None:
    """A table of heuristic bots plays compiled (nothing solved: the bot's own table) the games it plays
    through the engine. (The two may part at an exact tie between two options that rounding puts one
    bit apart, about one game in several hundred; tests/core/test_winplay.py checks every decision of such
    games against the heuristic planner.)"""
    ruleset = rules.get(rules_id)
    specs = ["bot", "bot:heuristic"]
    assert compiled_roles(ruleset, specs, (0, 1)) == (HEURISTIC, HEURISTIC)
    request = Tournament(ruleset, specs, deals=4, seed=5)
    fast = play_match(request, (0, 1), first_deal=0, deals=4)
    engine = play_match(request, (0, 1), first_deal=0, deals=4, compiled=False)
    assert fast.scores.tolist() == engine.scores.tolist()


def test_which_tables_play_compiled() -> None:
    """Bots playing for goals and the heuristic bot, on rules the exact solver covers; the heuristic
    where its compiled search covers the sheet too (no free throws)."""
    specs = ["bot:optimal", "bot:win", "bot", "bot:target:250", "bot:points", "bot:heuristic"]
    assert compiled_roles(STRICT, specs, (1, 0)) == (AIM_WIN, AIM_POINTS)
    assert compiled_roles(STRICT, specs, (3, 4)) == (250, AIM_POINTS)
    assert compiled_roles(STRICT, specs, (0, 2, 5)) == (AIM_POINTS, HEURISTIC, HEURISTIC)
    assert compiled_roles(rules.get("kniffel-3col"), specs, (0, 1)) is None
    assert compiled_roles(rules.get("kniffel-3col"), specs, (2, 5)) is None
    with_free_throws = REDUCED["free throws"]
    assert compiled_roles(with_free_throws, specs, (0, 4)) == (AIM_POINTS, AIM_POINTS)
    assert compiled_roles(with_free_throws, specs, (0, 2)) is None


def test_ctrl_c_keeps_the_blocks_every_table_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    specs = ["bot", "bot", "bot"]
    whole = tournament(Tournament(KNIFFEL, specs, deals=2, seed=1))
    play = kniffel.services.tournament.play_match
    calls: list[int] = []
    stop_at = [5]

    def stopped(*args: Any, **kwargs: Any) -> Match:
        calls.append(args[2])
        if len(calls) == stop_at[0]:
            raise KeyboardInterrupt
        return play(*args, **kwargs)

    def in_twos(count: int, **_: object) -> list[tuple[int, int]]:
        return [(first, min(2, count - first)) for first in range(0, count, 2)]

    monkeypatch.setattr(kniffel.services.tournament, "play_match", stopped)
    monkeypatch.setattr(kniffel.services.tournament, "blocks", in_twos)
    with pytest.raises(TournamentInterrupted) as caught:
        tournament(Tournament(KNIFFEL, specs, deals=7, seed=1))
    # three pairings a block: Ctrl-C comes in the second block's second pairing, whose first is given up
    assert calls == [0, 0, 0, 2, 2]
    partial = caught.value.result
    assert partial is not None
    assert isinstance(caught.value, KeyboardInterrupt)
    assert (partial.partial, partial.deals, partial.deals_asked) == (True, 2, 7)
    assert (partial.games, partial.games_asked) == (12, 42)
    assert [m.scores.tolist() for m in partial.matches] == [m.scores.tolist() for m in whole.matches]
    data = partial.to_json()
    assert (data["partial"], data["games"], data["games_asked"], data["deals_asked"]) == (True, 12, 42, 7)
    assert whole.to_json()["partial"] is False
    calls.clear()
    stop_at[0] = 1
    with pytest.raises(TournamentInterrupted) as early:
        tournament(Tournament(KNIFFEL, specs, deals=3, seed=1, table=True))
    assert early.value.result is None  # nothing finished: no result


def test_progress_counts_every_game() -> None:
    calls: list[tuple[int, int]] = []
    three = Tournament(KNIFFEL, ["bot", "bot", "bot"], deals=1, seed=1)
    tournament(three, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (6, 6)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


@pytest.mark.parametrize(
    ("specs", "deals", "table", "message"),
    [
        (["bot"], 1, False, "at least 2 players"),
        (["bot", "bot:nobody"], 1, False, "unknown bot"),
        (["bot"] * 9, 1, True, "at most 8"),
        (["bot", "bot"], 0, False, "positive whole number"),
    ],
)
def test_bad_requests_are_refused(specs: list[str], deals: int, table: bool, message: str) -> None:
    with pytest.raises(TournamentError, match=message) as caught:
        Tournament(KNIFFEL, specs, deals=deals, seed=0, table=table)
    assert isinstance(caught.value, KniffelError)


# --- counting ------------------------------------------------------------------------------------------


def test_ties_count_half_a_win_each() -> None:
    scores = np.array([[[200, 200], [250, 180]]], dtype=np.int64)  # deal 0: a tie, then player 0 wins
    result = result_of(2, [Match((0, 1), 0, scores, 0.0)])
    (pair,) = result.pairings()
    assert (pair.wins, pair.ties, pair.losses, pair.won) == (1, 1, 0, 1.5)
    assert pair.win_rate.value == 0.75
    records = {record.player: record for record in result.standings()}
    assert (records["bot #2"].wins, records["bot #2"].ties, records["bot #2"].won) == (0, 1, 0.5)


def test_a_shared_first_place_at_a_table_is_an_equal_share() -> None:
    scores = np.array([[[240, 240, 100], [240, 100, 240], [100, 240, 240]]], dtype=np.int64)
    result = result_of(3, [Match((0, 1, 2), 0, scores, 0.0)], table=True)
    for record in result.standings():
        assert (record.wins, record.ties, record.losses) == (0, 2, 1)
        assert record.won == pytest.approx(1.0)
        assert record.rating == pytest.approx(1500)


def test_wilson_intervals_match_the_textbook() -> None:
    half = Rate.wilson(5, 10)
    assert (half.value, round(half.low, 4), round(half.high, 4)) == (0.5, 0.2366, 0.7634)
    none = Rate.wilson(0, 10)
    assert (none.low, round(none.high, 4)) == (0.0, 0.2775)
    assert math.isnan(Rate.wilson(0, 0).value)


def test_bradley_terry_recovers_the_ratings_behind_exact_win_rates() -> None:
    truth = np.array([1700.0, 1500.0, 1300.0])
    p = 1 / (1 + 10 ** ((truth[None, :] - truth[:, None]) / 400))
    games = np.full((3, 3), 1000.0) - np.diag([1000.0] * 3)
    ratings, errors = bradley_terry(p * games, games)
    assert ratings == pytest.approx(truth, abs=1e-6)
    assert np.all(errors > 0)
    assert np.all(errors < 20)
    two, _ = bradley_terry(np.array([[0.0, 3.0], [1.0, 0.0]]), np.array([[0.0, 4.0], [4.0, 0.0]]))
    assert two[0] - two[1] == pytest.approx(400 * math.log10(3))


def test_a_player_who_never_loses_still_gets_a_finite_rating() -> None:
    scores = np.array([[[300, 100], [300, 100]]] * 3, dtype=np.int64)
    ratings, _ = result_of(2, [Match((0, 1), 0, scores, 0.0)]).ratings()
    assert np.all(np.isfinite(ratings))
    assert ratings[0] > ratings[1]


# --- the command ---------------------------------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["tournament", *args])


def test_the_command_writes_json_csv_and_a_plot(tmp_path: Path) -> None:
    table, picture = tmp_path / "t.csv", tmp_path / "t.png"
    args = ("-p", "bot", "-p", "bot:heuristic", "-n", "1", "--seed", "3")
    result = run(*args, "--json", "--csv", str(table), "--plot", str(picture))
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert (data["rules"], data["deals"], data["games"], data["format"]) == ("kniffel", 1, 2, "pairings")
    assert {p["player"] for p in data["players"]} == {"bot", "bot:heuristic"}
    assert data["pairings"][0]["games"] == 2
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [row["opponent"] for row in rows] == ["", "", "bot:heuristic"]
    assert picture.read_bytes().startswith(b"\x89PNG")
    again = json.loads(run(*args, "--json").stdout)
    assert again["players"] == data["players"]


@pytest.mark.parametrize(
    ("option", "name", "message"),
    [
        ("--plot", "t.gif", "the file name ends in one of .png, .svg, .pdf"),
        ("--csv", "missing/t.csv", "missing"),
    ],
)
def test_the_command_refuses_a_file_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, name: str, message: str
) -> None:
    """A results file that could not be written is refused before the first game, not after the last."""
    from kniffel.services import tournament as service

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("games were played")

    monkeypatch.setattr(service, "tournament", never)
    result = run("-p", "bot", "-p", "bot", "-n", "1", option, str(tmp_path / name))
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_the_command_prints_tables() -> None:
    result = run("-p", "bot", "-p", "bot", "-n", "1", "--table")
    assert result.exit_code == 0, result.output
    assert "one table" in result.output
    assert "Pairings" in result.output
    assert "Wilson" in result.output


def test_the_command_refuses_a_lone_player_in_one_line() -> None:
    result = run("-p", "bot")
    assert result.exit_code == 2
    assert result.output.strip() == "kniffel: error: a tournament needs at least 2 players, got 1"


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_prints_the_games_played_as_a_partial_result(
    monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    played = tournament(Tournament(KNIFFEL, ["bot", "bot"], deals=2, seed=3))
    partial = combine(Tournament(KNIFFEL, ["bot", "bot"], deals=5, seed=3), played.matches)

    def interrupted(*args: object, **kwargs: object) -> TournamentResult:
        raise TournamentInterrupted(partial)

    monkeypatch.setattr(kniffel.services.tournament, "tournament", interrupted)
    result = run("-p", "bot", "-p", "bot", "-n", "5", "--seed", "3", *(["--json"] if as_json else []))
    assert result.exit_code == 130
    assert result.stderr.strip() == "kniffel: interrupted after 4 of 10 games, stopped"
    if as_json:
        data = json.loads(result.stdout)
        assert (data["partial"], data["games"], data["games_asked"], data["deals"]) == (True, 4, 10, 2)
        assert data["players"] == played.to_json()["players"]
    else:
        assert "Partial result: played 4 of 10 before the run was interrupted." in result.stdout
        assert "Pairings" in result.stdout


def test_ctrl_c_stops_the_command_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> TournamentResult:
        raise KeyboardInterrupt

    monkeypatch.setattr(kniffel.services.tournament, "tournament", interrupted)
    result = run("-p", "bot", "-p", "bot", "-n", "3")
    assert result.exit_code == 130
    assert result.output.strip() == "kniffel: interrupted after 0 of 6 games, stopped"
