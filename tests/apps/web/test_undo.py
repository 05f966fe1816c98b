"""Taking back one's own last action over the WebSocket (``{"type": "undo", "seq": n}``), on SQLite and,
with ``KNIFFEL_TEST_POSTGRES_URL`` set, on PostgreSQL: an entry or announcement, never a throw whose dice
are seen, nothing once the game is over; committed before anyone sees it, refused once someone else has
acted; at one screen and at several; what was taken back stays in the log."""

from __future__ import annotations

import time

import httpx

from kniffel.apps.web.store import Store
from support.clients import Client, create, play_turn, token
from support.web import ServerProcess

RE_ROLL = "dice can't be re-rolled"


def undo(client: Client, seq: int | None = None) -> dict[str, object]:
    """Ask to take the last action back; the whole state that follows, or the refusal."""
    client.send({"type": "undo", "seq": client.state["seq"] if seq is None else seq})
    while True:
        message = client.receive()
        if message["type"] in ("state", "error"):
            return message


def stored_positions(running: ServerProcess, game_id: str) -> list[int]:
    store = Store(running.database_url)
    try:
        return [action.seq for action in store.load(game_id).actions]
    finally:
        store.close()


def test_undo_after_a_roll_keeps_the_dice_and_takes_back_the_box_before_it(
    server: ServerProcess,
) -> None:
    game = create(server, "Ada")
    with_seat = Client(server, game["id"], token(game, 0))
    rolled = with_seat.act({"action": "roll"})
    dice = rolled["turn"]["dice"]
    assert rolled["can_undo"] is False
    refused = undo(with_seat)
    assert refused["type"] == "error"
    assert RE_ROLL in str(refused["message"]), "the dice are seen: the throw stays"
    assert with_seat.state["turn"]["dice"] == dice
    box = next(iter(rolled["placements"]))
    scored = with_seat.act({"action": "score", "box": box})
    assert scored["seq"] == 2
    assert scored["can_undo"] is True
    watcher = Client(server, game["id"])
    taken = undo(with_seat)
    assert taken["type"] == "state"
    state = with_seat.state
    assert state["seq"] == 1
    assert state["players"][0]["entries"] == {}
    assert state["turn"]["dice"] == dice, "the roll before the box stays as it was"
    assert [line["seq"] for line in state["log"]] == [1]
    assert state["taken_back"] == [{"seq": 2, "seat": 0, "text": f"score {box}"}], "the log keeps it"
    assert watcher.expect("state")["state"]["seq"] == 1, "everyone watching sees the undo"
    assert watcher.state["taken_back"] == state["taken_back"]
    # What the server answers from now on is the position after the undo, the database's too.
    assert httpx.get(f"{server.url}/api/games/{game['id']}", timeout=10).json()["seq"] == 1
    assert stored_positions(server, game["id"]) == [1]
    store = Store(server.database_url)
    try:  # what was taken back is kept with the game: a process that reads it afresh shows it too
        assert [(a.seq, a.seat, a.action) for a in store.load(game["id"]).taken_back] == [
            (1, 0, {"action": "score", "box": box})
        ]
    finally:
        store.close()
    refused = undo(with_seat)
    assert RE_ROLL in str(refused["message"])
    assert with_seat.state["turn"]["dice"] == dice
    # The game goes on from there, at the position freed, with the dice it had.
    other = next(key for key in rolled["placements"] if key != box)
    again = with_seat.act({"action": "score", "box": other})
    assert again["seq"] == 2
    assert other in again["players"][0]["entries"]
    assert [line["text"] for line in again["log"]] == [f"roll = {' '.join(map(str, dice))}", f"score {other}"]
    assert again["taken_back"] == [{"seq": 2, "seat": 0, "text": f"score {box}"}]
    with_seat.close()
    watcher.close()


def test_a_finished_game_is_final(server: ServerProcess) -> None:
    game = create(server, "Ada")
    ada = Client(server, game["id"], token(game, 0))
    while not ada.state["over"]:
        play_turn(ada)
    assert ada.state["can_undo"] is False
    refused = undo(ada)
    assert refused["type"] == "error"
    assert "a finished game stays as it ended" in str(refused["message"])
    assert ada.state["over"]
    assert httpx.get(f"{server.url}/api/games/{game['id']}", timeout=10).json()["over"]
    ada.close()


def test_stale_and_strangers_undo_nothing(server: ServerProcess) -> None:
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


def test_once_a_bot_has_acted_the_undo_is_refused(server: ServerProcess) -> None:
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


def test_players_at_their_own_screens_take_back_their_own_entry(server: ServerProcess) -> None:
    game = create(server, "Ada", "Bob")
    ada = Client(server, game["id"], token(game, 0))
    bob = Client(server, game["id"], token(game, 1))
    rolled = ada.act({"action": "roll"})
    assert RE_ROLL in str(undo(ada)["message"]), "no new throw at one's own screen either"
    box = next(iter(rolled["placements"]))
    ada.act({"action": "score", "box": box})
    bob.wait_for(2)
    refused = undo(bob)
    assert "Ada has acted since" in str(refused["message"]), "only one's own action"
    assert undo(ada)["type"] == "state"
    while bob.state["seq"] != 1:
        bob.expect("state")
    back = bob.state
    assert back["current"] == 0
    assert back["turn"]["dice"] == rolled["turn"]["dice"]
    assert back["taken_back"] == [{"seq": 2, "seat": 0, "text": f"score {box}"}], "Bob sees what changed"
    ada.close()
    bob.close()


def test_a_hot_seat_host_takes_back_the_last_players_entry(server: ServerProcess) -> None:
    game = create(server, "Ada", "Bob", hotseat=True)
    host = Client(server, game["id"], game["host_token"])
    host.act({"action": "roll"})
    box = next(iter(host.state["placements"]))
    host.act({"action": "score", "box": box})
    host.act({"action": "roll"})  # Bob's roll: it stays
    assert RE_ROLL in str(undo(host)["message"])
    bob_box = next(iter(host.state["placements"]))
    host.act({"action": "score", "box": bob_box})
    undo(host)  # Bob's box, taken back by the same screen
    assert host.state["seq"] == 3
    assert host.state["current"] == 1
    assert host.state["players"][1]["entries"] == {}
    assert RE_ROLL in str(undo(host)["message"])
    assert host.state["players"][0]["entries"] != {}, "Ada's box stays behind Bob's throw"
    host.close()
