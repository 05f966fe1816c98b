"""The web server from outside: real uvicorn processes on loopback, a real database, real WebSockets.

Every test here runs against SQLite; with ``KNIFFEL_TEST_POSTGRES_URL`` set (for example
``postgresql+psycopg://kniffel:kniffel@127.0.0.1:5432/kniffel_test``) the same tests run against
PostgreSQL too.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from kniffel import Game
from kniffel.apps.web.live import LOG_TAIL
from kniffel.services.record import bonus_share, kniffels_of
from support.clients import (
    AS_A_PROXY,
    Client,
    create,
    database_url,
    new_address,
    play_turn,
    read_until_closed,
    token,
)
from support.web import ServerProcess

# --- HTTP ------------------------------------------------------------------------------------------


def test_rule_sets_and_their_options_are_listed(server: ServerProcess) -> None:
    listed = httpx.get(f"{server.url}/api/rules", timeout=10).json()
    ids = [r["id"] for r in listed]
    assert ids[:3] == ["kniffel", "yahtzee", "yatzy"]
    assert {"yams", "kniffel-4col", "yatzy-deluxe", "knoeffel"} <= set(ids)
    yahtzee = listed[1]
    assert [o["key"] for o in yahtzee["options"]][:2] == ["joker", "bonus"]
    ones = {"id": "ones", "section": "upper", "en": "Ones", "de": "Einser", "values": [0, 1, 2, 3, 4, 5]}
    assert yahtzee["boxes"][0] == ones  # and what it can hold, for a position set up by tapping
    # offered where the rule book has them (Kniffel's article has sharp and strict, Yatzy's none), and
    # the house rule on ties at every table
    offered = {r["id"]: [o["key"] for o in r["options"]] for r in listed}
    assert offered["kniffel"] == ["extra", "sharp", "strict", "tie_wins_all"]
    assert offered["yahtzee"] == ["joker", "bonus", "five_full_house", "tie_wins_all"]
    assert offered["yatzy"] == ["tie_wins_all"]
    assert offered["yatzy-deluxe"] == ["tie_wins_all"]
    # each in one plain sentence
    assert all(o["plain"].endswith(".") and o["plain"].count(". ") == 0 for r in listed for o in r["options"])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_option_helps_speak_to_players_and_keep_their_sources_apart(server: ServerProcess, lang: str) -> None:
    """The rules cite where an option comes from in brackets, a maker in the middle ("the forced joker
    (Schmidt)") and a document at the end, brackets inside it ("(Kniffel article (English translation):
    the sharp variant)"): the home page shows the help without them and the sources apart."""
    listed = httpx.get(f"{server.url}/api/rules?lang={lang}", timeout=10).json()
    options = [o for r in listed for o in r["options"]]
    for option in options:
        assert not re.search(r"Schmidt|article|Artikel|\(|\)", option["help"]), option
    kniffel_extra = next(o for o in listed[0]["options"] if o["key"] == "extra")
    assert kniffel_extra["source"].startswith("Schmidt; Kniffel"), kniffel_extra
    sharp = next(o for o in listed[0]["options"] if o["key"] == "sharp")
    assert re.search(r"(article|Artikel).*: ", sharp["source"]), sharp  # whole, not cut at its inner bracket


def test_pages_are_served(server: ServerProcess) -> None:
    game = create(server, "Ada")
    for path in ("/", f"/g/{game['id']}", "/static/app.css", "/static/table.js"):
        response = httpx.get(server.url + path, timeout=10)
        assert response.status_code == 200, path
    assert "<html" in httpx.get(server.url + "/", timeout=10).text


def test_creating_a_game_gives_invite_links_for_human_seats_only(server: ServerProcess) -> None:
    game = create(server, "Ada", "bot:Robo", "Bob", rules="yahtzee", options={"joker": "free"})
    assert [s["kind"] for s in game["seats"]] == ["human", "bot", "human"]
    assert "token" not in game["seats"][1]
    assert game["seats"][2]["url"] == f"/g/{game['id']}#t={token(game, 2)}"
    state = httpx.get(f"{server.url}/api/games/{game['id']}", timeout=10).json()
    assert state["rules"]["id"] == "yahtzee"
    assert state["rules"]["options"] == {"joker": "free"}
    assert [p["name"] for p in state["players"]] == ["Ada", "Robo", "Bob"]
    assert state["seq"] == 0
    assert state["can_roll"] is True


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        (b"{not json", 400, "malformed"),
        (b"[]", 400, "malformed"),
        (b'{"seats": [{"name": "Ada"}], "rules": "chess"}', 422, "invalid"),
        (b'{"seats": [{"name": "' + b"x" * 20000 + b'"}]}', 413, "too_large"),
        (b"[" * 5000 + b"]" * 5000, 400, "malformed"),
        (b'{"seats": [{"name": "Ada", "kind": ' + b"[" * 900 + b"]" * 900 + b"}]}", 400, "malformed"),
        (b'{"seats": [{"name": "Ada"}], "hotseat": ' + b"7" * 5000 + b"}", 400, "malformed"),
        (b'{"seats": [{"name": "\\ud800"}]}', 400, "malformed"),
        (b'{"seats": [{"name": "Ada\\u0000"}]}', 400, "malformed"),
    ],
    ids=["not-json", "list", "rules", "large", "nested", "nested-seats", "huge-int", "surrogate", "nul"],
)
def test_bad_creation_requests_get_one_line_errors(
    server: ServerProcess, body: bytes, status: int, error: str
) -> None:
    response = httpx.post(f"{server.url}/api/games", content=body, headers=new_address(), timeout=10)
    assert response.status_code == status
    assert response.json()["error"] == error
    assert "\n" not in response.json()["message"]


GAME_PATHS = ("", "/export", "/rules", "/chances", "/hints", "/review", "/rematch")
"""What follows ``/api/games/ID`` in the API's addresses of one game."""


@pytest.mark.parametrize("game_id", ["%00", "ab%00cd", "%C3%A4", "a%20b", "a.b", "%FF", "x" * 33])
def test_ids_that_cannot_be_games_are_404_everywhere(server: ServerProcess, game_id: str) -> None:
    """On PostgreSQL a NUL in an id answered 500 on every endpoint (text cannot hold one), with a
    traceback and without the security headers, and the socket dropped without closing: every id is
    checked before the database is asked, the same on every database."""
    with httpx.Client(base_url=server.url, headers=new_address(), timeout=10) as http:
        responses = [http.get(f"/api/games/{game_id}{path}") for path in GAME_PATHS]
        responses.append(http.post(f"/api/games/{game_id}/rematch", headers={"x-kniffel-token": "t"}))
    for response in responses:
        assert response.status_code == 404, (response.url, response.text)
        assert response.json()["error"] == "not_found"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"], response.url
    with connect(f"{server.ws_url}/ws/{game_id}", additional_headers=new_address()) as ws:
        assert json.loads(ws.recv(10))["code"] == "not_found"
        with pytest.raises(ConnectionClosed):
            ws.recv(10)
        assert ws.close_code == 4404, "closed with a reason, not dropped"


def test_behind_a_proxy_the_client_is_the_address_the_proxy_saw(server: ServerProcess) -> None:
    """What a client writes into ``X-Forwarded-For`` stands left of what its proxy appends: the client
    is the right-most address that is not a trusted proxy, so forged values give no fresh allowance."""
    body = {"seats": [{"name": "Ada"}]}
    with httpx.Client(base_url=server.url, timeout=10) as http:
        statuses = [
            http.post(
                "/api/games", json=body, headers={"x-forwarded-for": f"10.200.{n}.1, 192.0.2.77"}
            ).status_code
            for n in range(25)
        ]
    assert statuses[:20] == [201] * 20
    assert statuses[20:] == [429] * 5, "one client: the address the proxy saw"


def test_unknown_games_are_404(server: ServerProcess) -> None:
    response = httpx.get(f"{server.url}/api/games/nope", timeout=10)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    with connect(f"{server.ws_url}/ws/nope") as ws:
        assert json.loads(ws.recv(10))["code"] == "not_found"
        with pytest.raises(ConnectionClosed):
            ws.recv(10)
        assert ws.close_code == 4404


# --- playing over WebSockets -----------------------------------------------------------------------


def test_every_client_of_a_game_sees_each_accepted_action(server: ServerProcess) -> None:
    game = create(server, "Ada", "Bob")
    ada, bob = Client(server, game["id"], token(game, 0)), Client(server, game["id"], token(game, 1))
    watcher = Client(server, game["id"])
    assert ada.welcome["seats"] == [0]
    state = ada.act({"action": "roll"})
    assert len(state["turn"]["dice"]) == 5
    assert state["turn"]["rolls_left"] == 2
    keep = state["turn"]["dice"][:2]
    state = ada.act({"action": "roll", "keep": keep})
    assert all(state["turn"]["dice"].count(d) >= keep.count(d) for d in keep), "kept dice stay"
    ada.act({"action": "score", "box": "chance"})
    for client in (bob, watcher):
        assert client.wait_for(3)["current"] == 1
        assert client.state["players"][0]["entries"] == {"chance": sum(state["turn"]["dice"])}
        assert [e["text"].split(" =")[0] for e in client.state["log"]] == [
            "roll",
            f"roll keep {' '.join(map(str, sorted(keep)))}",
            "score chance",
        ]
    for client in (ada, bob, watcher):
        client.close()


def test_changes_applied_by_a_client_give_the_whole_state_and_old_clients_get_whole_states(
    server: ServerProcess,
) -> None:
    """A client that asked for changes, applying each, holds what ``GET /api/games/{id}`` answers,
    log tail included; a client that did not ask (a page from before) receives whole states."""
    game = create(server, "Ada", "Bob")
    ada, bob = Client(server, game["id"], token(game, 0)), Client(server, game["id"], token(game, 1))
    old = Client(server, game["id"], changes=False)
    final = 0
    while final < LOG_TAIL + 10:  # past the log's tail: old lines must drop out
        for client in (ada, bob):
            client.wait_for(final)
        mover = ada if ada.state["current"] == 0 else bob
        mover.act({"action": "roll"})  # rolling twice makes a game long enough
        play_turn(mover)
        final = max(ada.state["seq"], bob.state["seq"])
    whole = httpx.get(f"{server.url}/api/games/{game['id']}", timeout=10).json()
    for client in (ada, bob, old):
        assert client.wait_for(final) == whole
    assert len(whole["log"]) == LOG_TAIL
    assert "change" in bob.kinds
    assert "change" in ada.kinds
    assert "change" not in old.kinds
    for client in (ada, bob, old):
        client.close()


def test_a_whole_game_against_a_bot_ends_with_the_ranking(server: ServerProcess) -> None:
    game = create(server, "Ada", "bot:Robo", rules="yatzy")
    ada = Client(server, game["id"], token(game, 0))
    assert ada.state["figures"] == [], "a game under way has no figures for the record yet"
    while not ada.state["over"]:
        if ada.state["current"] == 0:
            play_turn(ada)
        else:
            # the bot's first move may compile and solve Yatzy's table: on a loaded machine past 10 s
            ada.expect("state", timeout=120)
    standings = ada.state["standings"]
    assert sorted(s["name"] for s in standings) == ["Ada", "Robo"]
    totals = {p["name"]: p["total"] for p in ada.state["players"]}
    assert [s["total"] for s in standings] == sorted(totals.values(), reverse=True)
    saved = httpx.get(f"{server.url}/api/games/{game['id']}/export", timeout=10).json()
    finished = Game.from_json(saved)
    assert finished.totals == [totals["Ada"], totals["Robo"]]
    # what a player's record keeps besides the score, per seat, as the terminal's record counts it
    assert ada.state["figures"] == [
        {"kniffels": kniffels_of(finished, seat), "bonus": bonus_share(finished, seat)} for seat in (0, 1)
    ]
    ada.send({"type": "action", "seq": ada.state["seq"], "action": {"action": "roll"}})
    assert ada.error()["code"] == "game_over"
    ada.close()


def test_score_pad_games_take_the_dice_the_players_enter(server: ServerProcess) -> None:
    game = create(server, "Ada", pad=True)
    ada = Client(server, game["id"], token(game, 0))
    ada.send({"type": "action", "seq": 0, "action": {"action": "roll"}})
    assert "enter the dice" in ada.error()["message"]
    state = ada.act({"action": "roll", "dice": [6, 6, 6, 6, 6]})
    assert state["placements"]["kniffel"] == {"points": 50, "bonus": 0}
    ada.close()


def test_two_browsers_of_one_seat_acting_at_once_apply_one_action(server: ServerProcess) -> None:
    game = create(server, "Ada")
    tabs = [Client(server, game["id"], token(game, 0)) for _ in range(2)]
    barrier = threading.Barrier(2)

    def send(tab: Client) -> None:
        barrier.wait()
        tab.send({"type": "action", "seq": 0, "action": {"action": "roll"}})

    threads = [threading.Thread(target=send, args=(tab,)) for tab in tabs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = []
    for tab in tabs:
        with contextlib.suppress(TimeoutError):  # read everything the server sends within a second
            while True:
                message = tab.receive(timeout=1)
                if message["type"] == "error":
                    errors.append(message["code"])
        assert tab.state["seq"] == 1
    assert errors == ["stale"]
    assert tabs[0].state["turn"] == tabs[1].state["turn"]
    saved = httpx.get(f"{server.url}/api/games/{game['id']}/export", timeout=10).json()
    assert len(saved["actions"]) == 1


def test_hints_for_the_player_to_move_when_the_solver_covers_the_rules(server: ServerProcess) -> None:
    pytest.importorskip("kniffel.core", reason="the solver is not installed")
    game = create(server, "Ada", "Bob")
    ada = Client(server, game["id"], token(game, 0))
    assert ada.state["hints"] is True
    ada.act({"action": "roll"})
    url = f"{server.url}/api/games/{game['id']}/hints"
    refused = httpx.get(url, headers={"x-kniffel-token": token(game, 1)}, timeout=10)
    assert refused.status_code == 403, "hints are for the player to move"
    hints = httpx.get(url, headers={"x-kniffel-token": token(game, 0)}, timeout=60).json()
    deadline = time.monotonic() + 120
    while "preparing" in hints:  # the first time, the server's worker solves the table meanwhile
        assert hints["options"] == []
        assert time.monotonic() < deadline, "the table was not ready in two minutes"
        time.sleep(0.5)
        hints = httpx.get(url, headers={"x-kniffel-token": token(game, 0)}, timeout=60).json()
    assert hints["seq"] == 1
    values = [o["value"] for o in hints["options"]]
    assert values == sorted(values, reverse=True)
    # The advice is playable as it stands.
    best = hints["options"][0]["action"]
    words = best.split()
    action = {"action": words[0]} | (
        {"keep": [int(w) for w in words[2:]]} if words[0] in ("roll", "free") else {"box": words[1]}
    )
    assert ada.act(action)["seq"] == 2
    ada.close()
    multi = create(server, "Ada", rules="kniffel-3col")
    assert httpx.get(f"{server.url}/api/games/{multi['id']}", timeout=10).json()["hints"] is False


# --- hostile input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("x" * 5000, "too_large"),
        ("[" * 2000 + "]" * 2000, "malformed"),
        ('{"type": "ping", "n": ' + "1" * 3000 + "}", "malformed"),
        ("{oops", "malformed"),
        ("[1, 2, 3]", "malformed"),
        ('{"type": "dance"}', "malformed"),
        ('{"type": "action", "seq": 0, "action": {"action": "fly"}}', "malformed"),
        ('{"type": "action", "seq": 0, "action": {"action": ["roll"]}}', "malformed"),
        ('{"type": "action", "seq": 0, "action": {"action": "roll", "keep": "66"}}', "malformed"),
        ('{"type": "action", "seq": 0, "action": {"action": "score"}}', "malformed"),
        ('{"type": "action", "seq": "0", "action": {"action": "roll"}}', "malformed"),
        ('{"type": "action", "seq": 0, "action": {"action": "roll", "dice": [6,6,6,6,6]}}', "illegal"),
        ('{"type": "action", "seq": 0, "action": {"action": "roll", "keep": [7]}}', "illegal"),
        ('{"type": "action", "seq": 0, "action": {"action": "score", "box": "chance"}}', "illegal"),
        ('{"type": "action", "seq": 0, "action": {"action": "score", "box": "nothing"}}', "illegal"),
        ('{"type": "action", "seq": 3, "action": {"action": "roll"}}', "stale"),
        ('{"type": "action", "seq": 0, "action": {"action": "roll"}, "seat": 1}', "not_your_turn"),
        ('{"type": "hello", "token": "not-a-token"}', "unauthorized"),
        ('{"type": "hello", "token": 42}', "malformed"),
    ],
)
def test_bad_messages_get_a_clear_error_and_change_nothing(
    server: ServerProcess, message: str, code: str
) -> None:
    game = create(server, "Ada", "Bob")
    ada = Client(server, game["id"], token(game, 0))
    ada.ws.send(message)
    error = ada.error()
    assert error["code"] == code, error
    assert "\n" not in error["message"]
    assert ada.act({"action": "roll"})["seq"] == 1, "the connection still works"
    ada.close()


def test_binary_frames_are_refused(server: ServerProcess) -> None:
    game = create(server, "Ada")
    ada = Client(server, game["id"], token(game, 0))
    ada.ws.send(b"\x00\x01")
    assert ada.error()["code"] == "malformed"
    ada.close()


def test_only_the_seat_to_move_may_act(server: ServerProcess) -> None:
    game = create(server, "Ada", "Bob")
    bob = Client(server, game["id"], token(game, 1))
    spectator = Client(server, game["id"])
    bob.send({"type": "action", "seq": 0, "action": {"action": "roll"}})
    assert bob.error()["code"] == "not_your_turn"
    spectator.send({"type": "action", "seq": 0, "action": {"action": "roll"}})
    assert spectator.error()["code"] == "unauthorized"
    other = create(server, "Eve")
    eve_token_here = Client(server, game["id"])
    eve_token_here.send({"type": "hello", "token": token(other, 0)})
    assert eve_token_here.error()["code"] == "unauthorized", "a token of another game is no token here"
    for client in (bob, spectator, eve_token_here):
        client.close()


def test_an_oversized_frame_closes_only_that_connection(server: ServerProcess) -> None:
    game = create(server, "Ada")
    with connect(f"{server.ws_url}/ws/{game['id']}") as ws:
        ws.recv(10)
        ws.send("x" * 200_000)
        read_until_closed(ws)
        assert ws.close_code == 1009
    ada = Client(server, game["id"], token(game, 0))
    assert ada.act({"action": "roll"})["seq"] == 1
    ada.close()


def test_flooding_is_rate_limited_then_cut_off_and_other_games_play_on(server: ServerProcess) -> None:
    game, other = create(server, "Ada"), create(server, "Bob")
    bob = Client(server, other["id"], token(other, 0))
    flooder = new_address()
    # The server stops reading a flooder's frames once it hangs up, so the client's closing handshake
    # can only time out: keep that wait short.
    with connect(f"{server.ws_url}/ws/{game['id']}", close_timeout=1, additional_headers=flooder) as ws:
        ws.recv(10)
        # 1000 pings (22 KB) fit the socket buffers, so the sender never blocks on a closed peer.
        with contextlib.suppress(ConnectionClosed):
            for _ in range(1000):
                ws.send('{"type": "ping"}')
        codes = [message.get("code", message["type"]) for message in read_until_closed(ws)]
        assert ws.close_code == 1008
        assert "rate_limited" in codes
    for _ in range(10):  # the limit is the client's: reconnecting does not reset it, nor get a state
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{server.ws_url}/ws/{game['id']}", additional_headers=flooder)
        assert refused.value.response.status_code == 429
        assert json.loads(refused.value.response.body or b"")["error"] == "rate_limited"
    assert bob.act({"action": "roll"})["seq"] == 1
    assert server.alive()
    bob.close()


def test_a_cross_site_form_creates_no_game_and_pages_forbid_framing(server: ServerProcess) -> None:
    body = json.dumps({"seats": [{"name": "Ada"}]})
    headers = {"content-type": "text/plain", "origin": "https://evil.example", **new_address()}
    response = httpx.post(f"{server.url}/api/games", content=body, headers=headers, timeout=10)
    assert response.status_code == 403
    plain = httpx.post(
        f"{server.url}/api/games", content=body, headers={"content-type": "text/plain"}, timeout=10
    )
    assert plain.status_code == 415
    page = httpx.get(server.url + "/", timeout=10)
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"


def test_polls_during_play_see_committed_states_only(server: ServerProcess) -> None:
    """Reading a game while its player acts never fails and never shows a half-saved action."""
    game = create(server, "Ada")
    ada = Client(server, game["id"], token(game, 0))
    statuses: list[int] = []
    done = threading.Event()

    def poll() -> None:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            while not done.is_set():
                for path in (f"/api/games/{game['id']}", f"/api/games/{game['id']}/export"):
                    statuses.append(http.get(path).status_code)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        while not statuses:
            time.sleep(0.01)
        for turn in range(13):
            play_turn(ada)
            if turn >= 4 and len(statuses) >= 20:
                break
    finally:
        done.set()
        poller.join()
    assert statuses
    assert set(statuses) == {200}
    ada.close()


# --- restart ---------------------------------------------------------------------------------------


def test_a_killed_server_restarts_where_it_was(backend: str, tmp_path: Path) -> None:
    url = database_url(backend, tmp_path)
    server = ServerProcess(url, env=AS_A_PROXY, log_path=tmp_path / "server.log").start()
    try:
        game = create(server, "Ada", "Bob")
        ada, bob = Client(server, game["id"], token(game, 0)), Client(server, game["id"], token(game, 1))
        play_turn(ada)
        state = bob.act({"action": "roll"}, seq=2)
        server.kill()
        for client in (ada, bob):
            read_until_closed(client.ws)  # messages sent before the kill are still buffered
        server.start()
        ada, bob = Client(server, game["id"], token(game, 0)), Client(server, game["id"], token(game, 1))
        for client in (ada, bob):
            assert client.state["seq"] == 3
            assert client.state["turn"] == state["turn"]
            assert client.state["players"] == state["players"]
        bob.send({"type": "action", "seq": 2, "action": {"action": "roll"}})
        assert bob.error()["code"] == "stale", "an action replayed after the restart is not applied twice"
        box = next(iter(bob.state["placements"]))
        assert bob.act({"action": "score", "box": box})["current"] == 0
        ada.wait_for(4)
        ada.close()
        bob.close()
    finally:
        server.stop()
