"""Taking back one's own last action over the WebSocket (``{"type": "undo", "seq": n}``), on SQLite and,
with ``KNIFFEL_TEST_POSTGRES_URL`` set, on PostgreSQL: committed before anyone sees it, refused once
someone else has acted, and only in games played at one screen."""

from __future__ import annotations

import time

import httpx

from kniffel.apps.web.store import Store
from support.web import ServerProcess
from test_web_api import Client, backend, create, server, token  # noqa: F401 - fixtures


def undo(client: Client, seq: int | None = None) -> dict[str, object]:
    """Ask to take the last action back; the whole state that follows, or the refusal."""
    client.send({"type": "undo", "seq": client.state["seq"] if seq is None else seq})
    while True:
        message = client.receive()
        if message["type"] in ("state", "error"):
            return message


def test_a_player_alone_takes_back_a_roll_and_a_box_and_the_database_forgets_them(
    server: ServerProcess,  # noqa: F811
) -> None:
    game = create(server, "Ada")
    with_seat = Client(server, game["id"], token(game, 0))
    rolled = with_seat.act({"action": "roll"})
    box = next(iter(rolled["placements"]))
    scored = with_seat.act({"action": "score", "box": box})
    assert scored["seq"] == 2
    assert box in scored["players"][0]["entries"]
    watcher = Client(server, game["id"])
    taken = undo(with_seat)
    assert taken["type"] == "state"
    state = with_seat.state
    assert state["seq"] == 1
    assert state["players"][0]["entries"] == {}
    assert state["turn"]["dice"] == rolled["turn"]["dice"], "the roll before the box stays as it was"
    assert [line["seq"] for line in state["log"]] == [1]
    assert watcher.expect("state")["state"]["seq"] == 1, "everyone watching sees the undo"
    # What the server answers from now on is the position after the undo, the database's too.
    assert httpx.get(f"{server.url}/api/games/{game['id']}", timeout=10).json()["seq"] == 1
    store = Store(server.database_url)
    try:
        stored = store.load(game["id"])
    finally:
        store.close()
    assert [action.seq for action in stored.actions] == [1]
    undo(with_seat)
    assert with_seat.state["seq"] == 0
    assert with_seat.state["turn"]["dice"] is None
    refused = undo(with_seat)
    assert refused["type"] == "error"
    assert "nothing to take back" in str(refused["message"])
    # The game goes on from there, at the positions freed.
    again = with_seat.act({"action": "roll"})
    assert again["seq"] == 1
    with_seat.close()
    watcher.close()


def test_stale_and_strangers_undo_nothing(server: ServerProcess) -> None:  # noqa: F811
    game = create(server, "Ada")
    with_seat = Client(server, game["id"], token(game, 0))
    with_seat.act({"action": "roll"})
    stale = undo(with_seat, seq=0)
    assert stale["type"] == "error"
    assert stale["code"] == "stale"
    stranger = Client(server, game["id"])
    refused = undo(stranger)
    assert refused["type"] == "error"
    assert refused["code"] == "unauthorized"
    assert with_seat.state["seq"] == 1
    with_seat.close()
    stranger.close()


def test_once_a_bot_has_acted_the_undo_is_refused(server: ServerProcess) -> None:  # noqa: F811
    game = create(server, "Ada", "bot:Robo")
    ada = Client(server, game["id"], token(game, 0))
    ada.act({"action": "roll"})
    state = ada.state
    box = next(iter(state["placements"]))
    ada.act({"action": "score", "box": box})
    deadline = time.monotonic() + 30
    while ada.state["current"] != 0 or ada.state["turn"]["dice"] is not None or ada.state["seq"] < 3:
        ada.expect("state", timeout=max(0.1, deadline - time.monotonic()))
    refused = undo(ada)
    assert refused["type"] == "error"
    assert "Robo has acted since" in str(refused["message"])
    assert box in ada.state["players"][0]["entries"]
    ada.close()


def test_players_at_their_own_screens_cannot_take_back(server: ServerProcess) -> None:  # noqa: F811
    game = create(server, "Ada", "Bob")
    ada = Client(server, game["id"], token(game, 0))
    ada.act({"action": "roll"})
    refused = undo(ada)
    assert refused["type"] == "error"
    assert "one screen" in str(refused["message"])
    assert ada.state["seq"] == 1
    ada.close()


def test_a_hot_seat_host_takes_back_the_last_players_action(server: ServerProcess) -> None:  # noqa: F811
    game = create(server, "Ada", "Bob", hotseat=True)
    host = Client(server, game["id"], game["host_token"])
    host.act({"action": "roll"})
    box = next(iter(host.state["placements"]))
    host.act({"action": "score", "box": box})
    host.act({"action": "roll"})  # Bob's roll
    undo(host)
    assert host.state["seq"] == 2
    assert host.state["current"] == 1
    assert host.state["turn"]["dice"] is None
    undo(host)  # Ada's box, taken back by the same screen
    assert host.state["current"] == 0
    assert host.state["players"][0]["entries"] == {}
    host.close()
