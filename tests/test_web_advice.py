"""The web's hook to the solver: which rule sets get hints, and that hints and reviews agree with the
engine (every suggested action is legal, the best comes first, a review prices each decision)."""

from __future__ import annotations

import time

import pytest

from kniffel import Game, SeededDice, rules
from kniffel.apps.web import advice
from kniffel.apps.web.service import fallback_move
from kniffel.engine.game import Roll, Score, Strike
from kniffel.services.review import listed, review

pytest.importorskip("kniffel.core", reason="the solver is not installed")


pytestmark = pytest.mark.usefixtures("prepared_solver")


def test_multi_column_sheets_get_no_advice() -> None:
    assert advice.available(rules.get("kniffel"))
    assert not advice.available(rules.get("kniffel-3col"))
    game = Game(rules.get("kniffel-3col"), ["Ada"], dice=SeededDice(1))
    game.roll()
    assert advice.hints(game) is None
    assert advice.review(game) is None


def test_hints_are_legal_and_best_first() -> None:
    game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(4))
    assert advice.hints(game) == [], "nothing to decide before the first throw"
    game.roll()
    found = advice.options(game)
    assert isinstance(found, list)
    assert found
    values = [c.value for c in found]
    assert values == sorted(values, reverse=True)
    assert all(game.can_apply(c.action) for c in found)
    assert {Roll, Score} <= {type(c.action) for c in found} <= {Roll, Score, Strike}
    listed = advice.hints(game)
    assert isinstance(listed, list)
    entries = [c for c in found if isinstance(c.action, Score | Strike)]
    entry_ranks_low = found.index(entries[0]) >= advice.MAX_OPTIONS
    assert len(listed) == min(advice.MAX_OPTIONS, len(found)) + entry_ranks_low
    assert listed[0] == {"action": str(found[0].action), "value": round(found[0].value, 2)}
    assert {"action": str(entries[0].action), "value": round(entries[0].value, 2)} in listed


def test_hints_always_name_the_best_box_for_the_roll() -> None:
    """Even when holding dice is far better than any entry, the best entry is listed (the table marks
    its box): over many rolls, some rank it beyond the first options."""
    low = 0
    for seed in range(12):
        game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(seed))
        game.roll()
        found = advice.options(game)
        listed = advice.hints(game)
        assert isinstance(found, list)
        assert isinstance(listed, list)
        best_entry = next(c for c in found if isinstance(c.action, Score | Strike))
        assert listed[-1 if found.index(best_entry) >= advice.MAX_OPTIONS else found.index(best_entry)] == {
            "action": str(best_entry.action),
            "value": round(best_entry.value, 2),
        }
        low += found.index(best_entry) >= advice.MAX_OPTIONS
    assert low > 0, "the seeds include a roll whose best entry ranks low"


def test_a_review_prices_every_decision_of_the_game() -> None:
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(9))
    while not game.is_over:
        game.apply(fallback_move(game))
    reviewed = advice.review(game)
    assert reviewed is not None
    assert reviewed["chances"] is None  # one player: no chances of winning
    decisions = reviewed["decisions"]
    # the decisions every front end lists: those whose loss shows, each against the best for points
    assert [d["seq"] for d in decisions] == [d.number for d in listed(review(game))]
    assert 0 < len(decisions) <= game.rules.turns, "the plain bot is not optimal"
    assert all(d["loss"] > 0.005 and d["chosen"] != d["best"] for d in decisions)
    assert all(d["chosen"].startswith(("score", "strike")) for d in decisions)
    assert all(d["goal"] == "points" and d["loss_text"] == f"{d['loss']:.2f}" for d in decisions)
    # each seat's choices and loss in all, for a player's record: those of the terminal's review
    graded = review(game).players[0]
    assert reviewed["players"] == [
        {
            "seat": 0,
            "name": "Ada",
            "unit": "points",
            "decisions": graded.decisions,
            "loss": round(graded.loss, 6),
        }
    ]
    assert graded.decisions >= game.rules.turns
    assert graded.loss >= sum(d["loss"] for d in decisions) - 1e-6


def test_a_review_by_win_chance_is_worked_out_on_the_worker_and_kept() -> None:
    """Past the early win tables each position needs a small table of its own: the review hands the
    whole game to the worker at once (points meanwhile) and then answers from memory."""
    strict = rules.get("kniffel", {"strict": "on"})
    game = Game(strict, ["Ada", "Bob"], dice=SeededDice(11))
    while not game.is_over:
        game.apply(fallback_move(game))
    deadline = time.monotonic() + 120
    reviewed = advice.review(game, people="win")
    while reviewed is not None and "win_preparing" in reviewed:
        assert {d["unit"] for d in reviewed["decisions"]} <= {"points"}  # graded by points meanwhile
        assert time.monotonic() < deadline
        time.sleep(0.1)
        reviewed = advice.review(game, people="win")
    assert reviewed is not None
    assert reviewed["decisions"]
    assert all(d["unit"] == "probability" and 0.0005 < d["loss"] <= 1 for d in reviewed["decisions"])
    chart = reviewed["chances"]
    assert len(chart) == 2 * strict.turns + 1  # before the game and after every turn
    assert sorted(chart[-1]) in ([0.0, 1.0], [1.0, 1.0])
    assert advice.review(game, people="win") == reviewed
