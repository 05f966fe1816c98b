"""Online with friends, on the server: the host hands an absent player's seat to a bot (saved, read back
by a server started again) and the player takes it back; a turn timer that runs out lets the quick bot
finish the person's turn; who may do which. In process, over a real SQLite file, and PostgreSQL too with
``KNIFFEL_TEST_POSTGRES_URL`` set."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.apps.web.app import create_app
from kniffel.apps.web.service import GameService
from kniffel.apps.web.store import Store
from support.service import Watcher, request, run, until
from support.testclient import create, hello, next_state


def seats_seen(client: TestClient, game_id: str, token: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{game_id}/seats", headers={"x-kniffel-token": token})
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


def test_the_host_hands_an_absent_players_seat_to_a_bot_and_the_player_takes_it_back(
    client: TestClient,
) -> None:
    game = create(client, ("Ada", "human"), ("Bob", "human"))
    host, ada, bob = game["host_token"], game["seats"][0]["token"], game["seats"][1]["token"]
    url = f"/api/games/{game['id']}/seats/1/stand-in"
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        hello(ws, ada)
        with client.websocket_connect(f"/ws/{game['id']}") as bob_ws:
            hello(bob_ws, bob)
            here = seats_seen(client, game["id"], host)
            assert [(s["present"], s["stand_in"]) for s in here] == [(True, None), (True, None)]
            refused = client.post(url, json={}, headers={"x-kniffel-token": host})
            assert refused.status_code == 409, "Bob is at the table"
            assert "Bob is at the table" in refused.json()["message"]
        # Bob has left: only the host may hand his seat over
        assert seats_seen(client, game["id"], host)[1]["present"] is False
        assert client.post(url, json={}, headers={"x-kniffel-token": ada}).status_code == 403
        assert (
            client.get(f"/api/games/{game['id']}/seats", headers={"x-kniffel-token": ada}).status_code == 403
        )
        handed = client.post(url, json={"kind": "bot"}, headers={"x-kniffel-token": host})
        assert handed.status_code == 200, handed.text
        state = next_state(ws)
        bob_seat = state["players"][1]
        assert (bob_seat["kind"], bob_seat["stand_in"]) == ("bot", "away")
        # Ada's turn, then the bot plays Bob's at once
        ws.send_json({"type": "action", "seq": 0, "action": {"action": "roll"}})
        state = next_state(ws)
        box = next(iter(state["placements"]))
        ws.send_json({"type": "action", "seq": 1, "action": {"action": "score", "box": box}})
        while (state := next_state(ws))["current"] != 0 or state["seq"] <= 2:
            pass
        assert any(line["seat"] == 1 for line in state["log"]), "the bot played Bob's turn"
    # Bob, back, takes his seat back with his own link; it is his to play again
    back = client.delete(url, headers={"x-kniffel-token": bob})
    assert back.status_code == 200, back.text
    state = client.get(f"/api/games/{game['id']}").json()
    assert (state["players"][1]["kind"], state["players"][1]["stand_in"]) == ("human", None)


def test_a_seat_handed_over_is_read_back_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0, rate=1000, burst=1000, allowed_hosts="testserver")) as first:
        game = create(first, ("Ada", "human"), ("Bob", "human"))
        host = {"x-kniffel-token": game["host_token"]}
        assert (
            first.post(f"/api/games/{game['id']}/seats/1/stand-in", json={}, headers=host).status_code == 200
        )
        assert (
            first.put(f"/api/games/{game['id']}/timer", json={"seconds": 60}, headers=host).status_code == 200
        )
    with TestClient(create_app(url, bot_delay=0, rate=1000, burst=1000, allowed_hosts="testserver")) as again:
        state = again.get(f"/api/games/{game['id']}").json()
        assert state["players"][1]["stand_in"] == "away"
        assert state["timer"]["seconds"] == 60
        assert state["timer"]["deadline"] > time.time() * 1000


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("seats/2/stand-in", {}, "seat must be a whole number from 0 to 1"),
        ("seats/x/stand-in", {}, "seat must be a whole number from 0 to 1"),
        ("seats/\u00b2/stand-in", {}, "seat must be a whole number from 0 to 1"),
        ("seats/1/stand-in", {"kind": "human"}, "a seat is handed to one of bot, bot:optimal, bot:win"),
        ("timer", {"seconds": 45}, "a turn timer is one of 30, 60, 120, 300 seconds, or none"),
        ("timer", {"seconds": True}, "a turn timer is one of"),
    ],
)
def test_what_cannot_be_decided_is_refused_with_the_reason(
    client: TestClient,
    path: str,
    body: dict[str, Any],
    message: str,
) -> None:
    game = create(client, ("Ada", "human"), ("Bob", "human"))
    method = client.put if path == "timer" else client.post
    answer = method(
        f"/api/games/{game['id']}/{path}", json=body, headers={"x-kniffel-token": game["host_token"]}
    )
    assert answer.status_code in (400, 422), answer.text
    assert message in answer.json()["message"]


def test_a_bots_seat_is_not_handed_over(client: TestClient) -> None:
    game = create(client, ("Ada", "human"), ("Robo", "bot"))
    answer = client.post(
        f"/api/games/{game['id']}/seats/1/stand-in", json={}, headers={"x-kniffel-token": game["host_token"]}
    )
    assert answer.status_code == 422
    assert answer.json()["message"] == "a bot's seat is played by its bot already"


def test_a_turn_that_runs_out_of_time_is_finished_by_the_quick_bot(tmp_path: Path) -> None:
    """A second a turn (the host's route offers half a minute at least; the service takes any): the
    person to move does nothing, the quick bot finishes the turn, and the next turn is the next
    person's own, its count started afresh; an action of the person whose time ran out is refused."""

    async def body() -> list[dict[str, Any]]:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), bot_delay=0)
        _, live = await service.create(request("Ada", "Bob"))
        watcher = Watcher()
        service.subscribe(live, watcher)
        await service.set_timer(live, 1)
        first = live.turn_deadline
        assert first is not None
        # Ada's turn played out by the bot, committed, and Bob's count started afresh
        await until(lambda: live.game.current == 1 and live.turn_deadline != first, timeout=30)
        assert live.game.sheets[0].entries, "the bot entered Ada's dice"
        assert live.turn_deadline is not None
        assert live.turn_deadline > first
        assert live.kind_of(1) == "human"
        await service.stop()
        return [json.loads(text)["state"] for text in watcher.states if text.startswith('{"type":"state"')]

    states = run(body)
    assert any(player["stand_in"] == "overdue" for state in states for player in state["players"])


def test_an_overdue_turn_refuses_its_persons_action(tmp_path: Path) -> None:
    async def body() -> str:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), bot_delay=5)
        _, live = await service.create(request("Ada", "Bob"))
        service.subscribe(live, Watcher())
        live.overdue = live.turn()
        try:
            await service.act(live, frozenset({0}), 0, "roll")
        except Exception as error:  # the service's refusal
            return str(error)
        finally:
            await service.stop()
        return ""

    assert run(body) == "the time for this turn is up: the quick bot finishes it"


def test_nothing_is_timed_without_a_timer(tmp_path: Path) -> None:
    async def body() -> tuple[float | None, Any]:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), bot_delay=0)
        _, live = await service.create(request("Ada", "Bob"))
        await asyncio.sleep(0)
        deadline = live.turn_deadline
        await service.stop()
        return deadline, json.loads(live.state_json())["timer"]

    assert run(body) == (None, None)


def test_another_process_reads_a_seat_handed_over_once_it_hears_of_it(tmp_path: Path) -> None:
    """Two server processes share the database: one hands a seat to a bot and sets the timer, the other,
    told so (PostgreSQL's announcement, delivered here by hand), reads the game afresh with them."""

    async def body() -> tuple[str | None, int | None]:
        url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
        one, two = GameService(Store(url)), GameService(Store(url))
        new, live_one = await one.create(request("Ada", "Bob"))
        before = await two.get(new.id)
        await one.stand_in(live_one, 1, "bot")
        await one.set_timer(live_one, 60)
        two.heard_seats(new.id, one.origin)
        after = await two.get(new.id)
        assert after is not before, "the copy was read again"
        await one.stop()
        await two.stop()
        return after.stand_ins.get(1), after.turn_seconds

    assert run(body) == ("bot", 60)
