"""The web's hook to the solver: which rule sets get hints, and that hints and reviews agree with the
engine (every suggested action is legal, the best comes first, a review prices each decision)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kniffel import Game, SeededDice, rules
from kniffel.apps.web import advice
from kniffel.apps.web.botpool import fallback_move
from kniffel.engine.actions import Roll, Score, Strike
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


def table_pending(monkeypatch: pytest.MonkeyPatch, compiling: float) -> None:
    """As on a first use: the advice service says its points table is being solved (its kernels
    compiling for ``compiling`` seconds so far)."""
    from kniffel.planning.interface import Goal
    from kniffel.planning.worker import Work
    from kniffel.services import advice as road

    work = Work("Solving the table of {rules}", 2.0, 10**6, (("rules", "kniffel"),))

    def preparing(position: road.Position, goal: Goal, **asked: object) -> road.Advice:
        return road.Advice(goal, goal, preparing=road.Preparing(work, None, compiling=compiling))

    monkeypatch.setattr(road, "options", preparing)


def test_while_the_table_is_solved_hints_give_the_quick_bots_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a first use the points table takes half a minute (its kernels compile): meanwhile the hints
    answer ``preparing`` with the quick bot's order of the options, the best entry on the sheet among
    them, actions only (its figures are not points to come); it never waits for a compile."""
    from kniffel.planning import planner_for

    table_pending(monkeypatch, compiling=12.0)
    game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(4))
    game.roll()
    answer = advice.hints(game)
    assert isinstance(answer, dict)
    assert advice.is_preparing(answer)
    assert answer["preparing"]["compiling"] == 12.0
    quick = planner_for(game.rules, method="heuristic", wait=False).choices(game)
    estimate = [o["action"] for o in answer["estimate"]]
    assert estimate[: advice.MAX_OPTIONS] == [str(c.action) for c in quick[: advice.MAX_OPTIONS]]
    assert any(a.startswith(("score", "strike")) for a in estimate), "the box to fill is named"
    assert all(set(o) == {"action"} for o in answer["estimate"])
    assert all(game.can_apply(game.parse_action(a)) for a in estimate)


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
    assert all(
        d["goal"] == "points" and d["loss_text"] == f"{d['loss']:.2f}\N{NO-BREAK SPACE}pts" for d in decisions
    )
    # each seat's choices and loss in all, for a player's record: those of the terminal's review
    graded = review(game).players[0]
    players = [{k: v for k, v in player.items() if k != "proficiency"} for player in reviewed["players"]]
    assert players == [
        {
            "seat": 0,
            "name": "Ada",
            "unit": "points",
            "decisions": graded.decisions,
            "loss": round(graded.loss, 6),
        }
    ]
    # and the figure a player compares across games: the loss a decision and the level it matches
    figure = reviewed["players"][0]["proficiency"]
    assert figure["decisions"] == graded.decisions
    assert figure["per_decision"] == round(graded.loss / graded.decisions, 6)
    assert 1 <= figure["level"] <= 7
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
    assert sorted(chart[-1]) in ([0.0, 1.0], [0.5, 0.5])
    assert all(sum(row) == pytest.approx(1.0, abs=1e-9) for row in chart)  # a tie is half a win each
    assert advice.review(game, people="win") == reviewed


def test_the_hints_route_names_the_estimates_options_in_the_asked_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from fastapi.testclient import TestClient

    from kniffel.apps.web.app import create_app

    table_pending(monkeypatch, compiling=3.0)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", bot_delay=0, allowed_hosts="testserver")
    with TestClient(app) as client:
        seats = [{"name": "Ada", "kind": "human"}, {"name": "Bob", "kind": "human"}]
        created = client.post("/api/games", json={"rules": "kniffel", "seats": seats, "seed": 5}).json()
        token = created["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            while ws.receive_json()["type"] != "welcome":
                pass
            ws.send_json({"type": "action", "seq": 0, "action": {"action": "roll"}})
            while (message := ws.receive_json())["type"] != "state" or message["state"]["seq"] < 1:
                assert message["type"] != "error", message
        answer = client.get(
            f"/api/games/{created['id']}/hints?lang=de", headers={"x-kniffel-token": token}
        ).json()
    assert answer["status"] == "preparing"
    assert answer["options"] == []
    assert answer["seq"] == 1
    assert answer["estimate"]
    for option in answer["estimate"]:  # as the exact hints name them: "3 4 5 halten", "Einser eintragen"
        words = option["action"].split()
        if words[0] == "roll":
            assert option["text"] == (" ".join(words[2:]) + " halten" if len(words) > 2 else "würfeln")
        else:
            assert option["text"].endswith(" eintragen" if words[0] == "score" else " streichen"), option


def test_pages_ask_about_a_preparing_solve_before_the_server_gives_it_up() -> None:
    """The pages' longest pause between asks while the server says "preparing" (``ask.js``) is well
    under the time after which the server cancels a solve nobody asks about."""
    import re

    from kniffel.apps.web.pages import STATIC

    found = re.search(r"const PREPARING_PAUSE = (\d+);", (STATIC / "ask.js").read_text())
    assert found is not None
    assert int(found.group(1)) / 1000 <= advice.ABANDON_AFTER / 5


def test_the_chances_shown_share_a_tie_unless_the_table_makes_it_a_win_for_all() -> None:
    """The table's chances of winning (``/chances``): a tie is half a win for each of two, so they add
    up to 1 (to the four decimals sent); under the house rule a tie wins for both, and they add up to
    more."""
    from kniffel.planning.winning import prepare_tables

    sums = {}
    for house in ("off", "on"):
        strict = rules.get("kniffel", {"strict": "on", "tie_wins_all": house})
        prepare_tables(strict)
        game = Game(strict, ["Ada", "Bob"], dice=SeededDice(5))
        for _ in range(6):
            game.apply(fallback_move(game))
        deadline = time.monotonic() + 120
        found = advice.chances(game, (f"ties-{house}", len(game.log)))
        while found is not None and found["status"] != "ready":
            assert time.monotonic() < deadline
            time.sleep(0.1)
            found = advice.chances(game, (f"ties-{house}", len(game.log)))
        assert found is not None
        sums[house] = sum(found["chances"])
    assert sums["off"] == pytest.approx(1.0, abs=2e-4)
    assert sums["on"] > 1.002
