"""Planners: every legal action valued once and best first, one shared planner per rule set and kind,
and one turn lookahead that takes any valuation of the turn's end."""

from __future__ import annotations

import itertools
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pytest

from kniffel import Game, SeededDice, bots, rules
from kniffel.base.keeps import keep_lattice
from kniffel.engine.actions import Action, Announce, FreeThrow, Roll, Score, Strike
from kniffel.planning import (
    Choice,
    ColumnPlanner,
    ExactPlanner,
    HeuristicPlanner,
    Lookahead,
    Method,
    PlanningError,
    Weights,
    is_exact,
    planner_for,
)
from kniffel.planning.interface import best_first
from kniffel.planning.lookahead import Matrix
from kniffel.rules import Column, Placement

pytestmark = pytest.mark.usefixtures("solver_cache")

TIE_RANK: dict[type[Action], int] = {Score: 0, Strike: 1, Roll: 2, FreeThrow: 2, Announce: 3}


def positions(rules_id: str, seed: int, options: dict[str, str] | None = None) -> list[Game]:
    """Positions after a throw from a game of random play (odd keeps, announcements, free throws)."""
    rng = random.Random(seed)
    game = Game(rules.get(rules_id, options), ["A", "B"], dice=SeededDice(seed))
    found: list[Game] = []
    while not game.is_over and len(found) < 12:
        if game.turn.dice is not None and rng.random() < 0.3:
            found.append(Game.loads(game.dumps()))
        game.apply(rng.choice(game.legal_actions()))
    return found


@pytest.mark.parametrize(
    ("kind", "rules_id", "options"),
    [
        ("best", "yahtzee", None),
        ("best", "knoeffel", None),
        ("best", "kniffel-3col", None),
        ("heuristic", "kniffel", {"sharp": "on"}),
        ("heuristic", "knoeffel", {"free_throws_per_turn": "3"}),
        ("heuristic", "kniffel-4col", None),
    ],
)
def test_every_legal_action_is_valued_once_best_first(
    kind: Method, rules_id: str, options: dict[str, str] | None
) -> None:
    rs = rules.get(rules_id, options)
    planner = planner_for(rs, method=kind)
    seen: set[type[Action]] = set()
    for game in positions(rules_id, 7, options):
        choices = planner.choices(game)
        actions = [c.action for c in choices]
        assert len(actions) == len(set(actions))
        assert set(actions) == set(game.legal_actions())
        for first, second in itertools.pairwise(choices):
            assert first.value >= second.value
            if first.value == second.value:
                assert TIE_RANK[type(first.action)] <= TIE_RANK[type(second.action)]
        seen.update(type(a) for a in actions)
    assert {Roll, Score, Strike} <= seen


def test_ties_go_to_scores_then_strikes_then_throws_then_announcements() -> None:
    given = [
        Choice(Announce("3:chance"), 1.0),
        Choice(Roll(keep=(2,)), 1.0),
        Choice(Strike("ones"), 1.0),
        Choice(Roll(keep=(1,)), 1.0),
        Choice(Score("twos"), 1.0),
        Choice(Score("chance"), 2.0),
    ]
    ordered = [c.action for c in best_first(list(given))]
    assert ordered == [
        Score("chance"),
        Score("twos"),
        Strike("ones"),
        Roll(keep=(2,)),
        Roll(keep=(1,)),
        Announce("3:chance"),
    ]


@pytest.mark.parametrize("kind", ["best", "exact", "column", "heuristic"])
def test_nothing_to_choose_before_a_throw_or_after_the_game(kind: Method) -> None:
    rs = rules.get("yatzy")
    planner = planner_for(rs, method=kind)
    game = Game(rs, ["A"], dice=SeededDice(3))
    assert planner.choices(game) == []
    game.roll()
    assert planner.choices(game)
    bots.play(game, [bots.make("bot")])
    assert planner.choices(game) == []


# --- making planners ---------------------------------------------------------------------------------


def test_one_planner_per_rule_set_and_kind() -> None:
    kniffel = rules.get("kniffel")
    assert planner_for(kniffel) is planner_for(rules.get("kniffel"))
    assert isinstance(planner_for(kniffel), ExactPlanner)
    assert planner_for(kniffel) is planner_for(kniffel, method="exact")
    assert planner_for(kniffel).exact
    three = rules.get("kniffel-3col")
    assert isinstance(planner_for(three), ColumnPlanner)
    assert not planner_for(three).exact
    heuristic = planner_for(kniffel, method="heuristic")
    assert isinstance(heuristic, HeuristicPlanner)
    assert not heuristic.exact
    assert planner_for(kniffel, method="heuristic", weights=Weights()) is heuristic
    eager = planner_for(kniffel, method="heuristic", weights=Weights(announce_margin=2.0))
    assert eager is not heuristic
    assert planner_for(rules.get("kniffel", {"sharp": "on"})) is not planner_for(kniffel)


def test_only_the_most_recently_used_tables_stay_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.planning import exact

    monkeypatch.setattr(exact, "_advisors", type(exact._advisors)(2))
    kniffel, yahtzee, yatzy = (rules.get(name) for name in ("kniffel", "yahtzee", "yatzy"))
    first = exact.advisor_for(kniffel)
    exact.advisor_for(yahtzee)
    assert exact.advisor_for(kniffel) is first  # used again: now the most recent
    exact.advisor_for(yatzy)
    held = [found[0].id for found in exact._advisors.values()]
    assert held == ["kniffel", "yatzy"]  # yahtzee, the least recently used, was given up
    assert exact.advisor_for(kniffel) is first


def test_planner_for_is_safe_from_several_threads() -> None:
    rs = rules.get("yatzy", {"strict": "on"})
    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda _: planner_for(rs, method="heuristic"), range(16)))
    assert all(p is made[0] for p in made)


def test_bad_requests_are_refused() -> None:
    kniffel = rules.get("kniffel")
    with pytest.raises(PlanningError, match="unknown goal 'clever'"):
        planner_for(kniffel, "clever")
    with pytest.raises(PlanningError, match="unknown method 'clever'"):
        planner_for(kniffel, method="clever")  # type: ignore[arg-type]
    with pytest.raises(PlanningError, match="heuristic play is for points, not for win"):
        planner_for(kniffel, "win", method="heuristic")
    with pytest.raises(PlanningError, match="weights are for the heuristic"):
        planner_for(kniffel, method="best", weights=Weights())
    with pytest.raises(PlanningError, match="exact solver"):
        planner_for(rules.get("kniffel-3col"), method="exact")


def test_is_exact_where_the_solver_covers_the_rules() -> None:
    assert is_exact(rules.get("kniffel"))
    assert is_exact(rules.get("yatzy-deluxe"))
    assert not is_exact(rules.get("knoeffel"))  # two columns
    assert not is_exact(rules.get("kniffel-3col"))


# --- the lookahead takes any valuation -----------------------------------------------------------


@dataclass
class ChanceOnly:
    """Only the chance box is worth anything: its points. Every die is then best kept when it shows 5
    or more with two throws left, 4 or more with one, which gives values to check by hand."""

    before: float = 100.0
    free_throw_cost: float = 0.0
    announce_margin: float = 0.0

    def roll_values(self, column: Column, used: int, at_once: bool, announced: str | None) -> Matrix:
        return np.array([float(sum(roll)) for roll in keep_lattice(5).rolls])

    def entry(self, key: str, placement: Placement, used: int) -> float:
        return float(placement.points) if key == "chance" else -100.0


def test_the_lookahead_takes_any_valuation() -> None:
    game = Game(rules.get("kniffel"), ["A"], dice=SeededDice(1))
    game.apply(Roll(dice=(1, 2, 5, 6, 6)))
    values = {c.action: c.value for c in Lookahead(game, ChanceOnly()).choices()}
    assert values.keys() == set(game.legal_actions())
    one_left = 3.5 + 0.75  # a die with one throw left: keep 4, 5, 6, else throw
    assert values[Roll(keep=())] == pytest.approx(100 + 5 * one_left)
    assert values[Roll(keep=(6, 6))] == pytest.approx(100 + 12 + 3 * one_left)
    # a 2 held now is thrown again on the last throw: it is worth 3.5 then
    assert values[Roll(keep=(2, 5, 6, 6))] == pytest.approx(100 + 17 + 3.5 + one_left)
    assert values[Score("chance")] == 100 + 20
    assert values[Score("ones")] == 100 - 100
    best = next(iter(values))
    assert best == Roll(keep=(5, 6, 6))  # keep what beats the expected value of a throw
    game.apply(Roll(keep=(5, 6, 6), dice=(2, 3, 5, 6, 6)))
    last = {c.action: c.value for c in Lookahead(game, ChanceOnly()).choices()}
    assert last[Roll(keep=(5, 6, 6))] == pytest.approx(100 + 17 + 2 * 3.5)


# --- the heuristic's knobs -------------------------------------------------------------------------


def test_the_announce_margin_lowers_announcements_only() -> None:
    game = Game(rules.get("kniffel-4col"), ["A"], dice=SeededDice(5))
    game.roll()
    plain = {c.action: c.value for c in planner_for(game.rules, method="heuristic").choices(game)}
    weights = Weights(announce_margin=4.0)
    shy = {
        c.action: c.value for c in planner_for(game.rules, method="heuristic", weights=weights).choices(game)
    }
    assert plain.keys() == shy.keys()
    assert any(isinstance(a, Announce) for a in plain)
    for action, value in plain.items():
        assert shy[action] == pytest.approx(value - 4.0 if isinstance(action, Announce) else value)


def test_a_free_throw_costs_its_margin() -> None:
    rs = rules.get("knoeffel")
    game = Game(rs, ["A"], dice=SeededDice(2))
    game.roll()
    game.apply(Roll(keep=()))
    game.apply(Roll(keep=()))
    assert game.rolls_left == 0
    plain = {c.action: c.value for c in planner_for(rs, method="heuristic").choices(game)}
    weights = Weights(free_throw_margin=10.0)
    dear = {c.action: c.value for c in planner_for(rs, method="heuristic", weights=weights).choices(game)}
    assert any(isinstance(a, FreeThrow) for a in plain)
    for action, value in plain.items():
        if isinstance(action, FreeThrow):  # a free throw, and nothing after it is worth another
            assert dear[action] <= value - 7.0 + 1e-9
        else:
            assert dear[action] == value


def test_bots_play_their_planners_best_choice() -> None:
    game = Game(rules.get("kniffel-4col"), ["A"], dice=SeededDice(8))
    game.roll()
    heuristic = planner_for(game.rules, method="heuristic").choices(game)[0].action
    assert bots.make("bot").choose(game) == heuristic
    assert bots.make("bot:optimal").choose(game) == planner_for(game.rules).choices(game)[0].action
