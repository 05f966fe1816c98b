"""The server's guard against hostile clients, in process (Starlette's test client, SQLite): hostile JSON,
limits per client that survive reconnecting, cross-site requests and the security headers.

The same requests against real server processes on both databases are in ``test_api.py``.
"""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from kniffel.apps.web import guard
from kniffel.apps.web.app import create_app
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.service import GameService
from kniffel.apps.web.websocket import CONNECT_COST

with warnings.catch_warnings():  # Starlette's client still works with httpx; it merely prefers httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketDenialResponse


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Any]:
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        """An app with ``settings``; it answers to the test client's name (``testserver``) unless
        ``allowed_hosts`` says otherwise (``None``: the default, as ``kniffel serve`` runs)."""
        settings.setdefault("allowed_hosts", "testserver")
        app = create_app(f"sqlite:///{tmp_path / f'games{len(clients)}.sqlite3'}", bot_delay=0, **settings)
        client = TestClient(app).__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def new_game(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"seats": [{"name": "Ada"}]})
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "]" * 5000,
        '{"seats": [{"name": ' + "[" * 900 + "]" * 900 + "}]}",
        '{"seats": [{"name": "Ada"}], "pad": ' + "9" * 5000 + "}",
        '{"seats": [{"name": "\\ud800"}]}',
        '{"seats": [{"name": "Ada\\u0000"}]}',
        '{"seats": [{"name": "Ada"}], "rules": "\\udfff"}',
    ],
    ids=["nested", "nested-in-seats", "huge-integer", "surrogate", "nul", "surrogate-in-rules"],
)
def test_hostile_json_gets_a_reason_not_a_crash(make_client: Any, text: str) -> None:
    client = make_client()
    response = client.post("/api/games", content=text, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "malformed"
    assert "\n" not in response.json()["message"]


def test_a_deeply_nested_message_gets_an_error_and_the_socket_stays(make_client: Any) -> None:
    client = make_client()
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text("[" * 2000 + "]" * 2000)
        assert ws.receive_json()["code"] == "malformed"
        ws.send_text('{"type": "ping", "n": ' + "1" * 4000 + "}")
        assert ws.receive_json()["code"] == "malformed"
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}


def test_the_depth_scan_ignores_brackets_in_strings() -> None:
    assert guard.parse_json('{"name": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"{{{{{{{{{{{{{"}') == {
        "name": '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["{{{{{{{{{{{{{'
    }
    with pytest.raises(WebError, match="deeper"):
        guard.parse_json("[" * 9 + "]" * 9)


def test_every_answer_carries_the_security_headers(make_client: Any) -> None:
    client = make_client()
    for path in ("/", "/api/rules", "/static/app.css", "/api/games/nope"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize(
    "headers",
    [
        {"content-type": "text/plain"},
        {"content-type": "application/x-www-form-urlencoded"},
        {"content-type": "application/json", "origin": "https://evil.example"},
        {"content-type": "application/json", "sec-fetch-site": "cross-site"},
        {"origin": "null"},
    ],
)
def test_cross_site_requests_create_no_game(make_client: Any, headers: dict[str, str]) -> None:
    client = make_client()
    body = json.dumps({"seats": [{"name": "Ada"}]})
    response = client.post("/api/games", content=body, headers=headers)
    assert response.status_code in (403, 415), response.text
    assert response.json()["error"] in ("cross_site", "not_json")


def test_the_own_pages_and_programs_create_games(make_client: Any) -> None:
    client = make_client()
    body = json.dumps({"seats": [{"name": "Ada"}]})
    same_site = {"content-type": "application/json", "origin": "http://testserver"}
    assert client.post("/api/games", content=body, headers=same_site).status_code == 201
    assert client.post("/api/games", content=body).status_code == 201, "no content type: a program"


def test_creating_games_is_limited_per_client(make_client: Any) -> None:
    client = make_client(create_rate=0.001, create_burst=3)
    for _ in range(3):
        new_game(client)
    refused = client.post("/api/games", json={"seats": [{"name": "Ada"}]})
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"


def read_until_closed(ws: Any) -> tuple[list[str], int]:
    """The error codes the server sent before it closed the socket, and the close code."""
    codes = []
    try:
        while True:
            codes.append(ws.receive_json().get("code"))
    except WebSocketDisconnect as closed:
        return codes, closed.code


def refusal(client: TestClient, url: str) -> tuple[int, dict[str, Any]]:
    """The status and body with which the server refuses to open the socket ``url``."""
    with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(url):
        pytest.fail("the socket was accepted")
    body: dict[str, Any] = refused.value.json()
    assert "frame-ancestors 'none'" in refused.value.headers["content-security-policy"]
    return refused.value.status_code, body


def test_the_flood_limit_belongs_to_the_client_and_a_blocked_one_gets_nothing(make_client: Any) -> None:
    """A flooding client is cut off, and while it is blocked every new socket is refused before it is
    accepted: no state is sent, however often it reconnects (each cost the server a whole state)."""
    client = make_client(rate=2, burst=5)
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.receive_json()
        for _ in range(200):
            ws.send_text('{"type": "ping"}')
        codes, close_code = read_until_closed(ws)
        assert close_code == 1008
        assert "rate_limited" in codes
    for _ in range(20):
        status, body = refusal(client, f"/ws/{game['id']}")
        assert (status, body["error"]) == (429, "rate_limited"), "reconnecting gives no fresh allowance"


def test_reconnecting_without_pause_spends_the_allowance(make_client: Any) -> None:
    client = make_client(rate=0.001, burst=2 * CONNECT_COST)
    game = new_game(client)
    for _ in range(2):
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            assert ws.receive_json()["type"] == "state"
    status, body = refusal(client, f"/ws/{game['id']}")
    assert (status, body["error"]) == (429, "rate_limited")


def test_a_client_holds_a_few_sockets_and_all_of_them_fit_the_open_files(make_client: Any) -> None:
    client = make_client(sockets_per_client=3)
    game = new_game(client)
    url = f"/ws/{game['id']}"
    with contextlib.ExitStack() as held:
        for _ in range(3):
            held.enter_context(client.websocket_connect(url)).receive_json()
        status, body = refusal(client, url)
        assert (status, body["error"]) == (429, "rate_limited")
        assert "at most 3 connections" in body["message"]
    with client.websocket_connect(url) as again:  # closed sockets are counted no more
        assert again.receive_json()["type"] == "state"
    crowded = make_client(max_sockets=2)
    game = new_game(crowded)
    with crowded.websocket_connect(f"/ws/{game['id']}"), crowded.websocket_connect(f"/ws/{game['id']}"):
        status, body = refusal(crowded, f"/ws/{game['id']}")
        assert (status, body["error"]) == (503, "busy")
        assert crowded.get(f"/api/games/{game['id']}").status_code == 200, "pages and the API still answer"


def test_the_budget_leaves_files_for_the_database_and_connections_for_pages() -> None:
    for files in (256, 1024, 20000):
        budget = guard.connection_budget(files)
        assert budget.connections <= files - guard.FILE_RESERVE
        assert budget.connections - budget.sockets >= 16
    assert guard.connection_budget(1024).sockets > 700, "a common limit still seats hundreds of players"


def test_hints_are_limited_per_client(make_client: Any, prepared_solver: Path) -> None:
    client = make_client(advice_rate=0.001, advice_burst=1)
    game = new_game(client)
    token = game["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "hello", "token": token})
        ws.send_json({"type": "action", "seq": 0, "action": {"action": "roll"}})
        while ws.receive_json().get("state", {}).get("seq") != 1:
            pass
    url = f"/api/games/{game['id']}/hints"
    assert client.get(url, headers={"x-kniffel-token": token}).status_code == 200
    refused = client.get(url, headers={"x-kniffel-token": token})
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"


def test_asking_for_the_chances_is_limited_per_client(make_client: Any) -> None:
    """Anyone who sees a table may ask for the chances of winning, and every page asks after every
    action; a client asking without pause is refused like one asking for hints."""
    client = make_client(chances_rate=0.001, chances_burst=3)
    game = new_game(client)
    url = f"/api/games/{game['id']}/chances"
    assert [client.get(url).status_code for _ in range(3)] == [404] * 3  # one player: no chances to tell
    refused = client.get(url)
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"


SITE = "127.0.0.1:8000"
"""The address ``kniffel serve`` serves by default."""


@pytest.mark.parametrize("host", [SITE, "localhost:8000", "[::1]:8000", "192.168.1.20:8000", "127.0.0.1"])
def test_the_site_answers_to_its_addresses(make_client: Any, host: str) -> None:
    client = make_client(allowed_hosts=None)
    body = {"seats": [{"name": "Ada"}]}
    headers = {"host": host, "origin": f"http://{host}"}
    assert client.post("/api/games", json=body, headers=headers).status_code == 201


def test_another_sites_name_is_refused_dns_rebinding(make_client: Any) -> None:
    """A page of evil.example whose name an attacker points at this server sends its own name: it
    creates no game, reads none and opens no socket."""
    client = make_client(allowed_hosts=None)
    game = client.post("/api/games", json={"seats": [{"name": "Ada"}]}, headers={"host": SITE}).json()
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    for response in (
        client.post("/api/games", json={"seats": [{"name": "Eve"}]}, headers=evil),
        client.get(f"/api/games/{game['id']}", headers={"host": "evil.example:8000"}),
        client.get("/", headers={"host": "127.0.0.1.evil.example"}),
    ):
        assert response.status_code == 400
        assert response.json()["error"] == "wrong_host"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    status, body = refusal(client, f"ws://evil.example/ws/{game['id']}")
    assert (status, body["error"]) == (400, "wrong_host")
    named = make_client(allowed_hosts="kniffel.example.org")
    assert named.get("/", headers={"host": "kniffel.example.org"}).status_code == 200
    assert named.get("/", headers={"host": SITE}).status_code == 400, "named hosts are all it answers to"


def test_pages_may_talk_to_their_own_site_only(make_client: Any) -> None:
    policy = make_client().get("/").headers["content-security-policy"]
    assert "connect-src 'self';" in policy
    assert "ws:" not in policy
    assert "wss:" not in policy


def test_a_failure_inside_the_server_is_answered_with_the_security_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(GameService, "get", broken)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", allowed_hosts="testserver")
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/games/abc")
    assert response.status_code == 500
    assert response.json()["error"] == "internal"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("host", "client"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("testclient", "testclient"),
    ],
)
def test_an_ipv6_client_is_its_network(host: str, client: str) -> None:
    """A machine is given a whole /64 and may send from any address in it."""
    assert guard.client_key(host) == client


def test_the_table_page_offers_no_move_before_its_game_is_there(make_client: Any) -> None:
    """The table's roll and strike buttons come disabled and are enabled by the page once it has the
    game's state: a button that did nothing when pressed early misled people (and a browser test that
    waited for an enabled roll button clicked before the game was there)."""
    from html.parser import HTMLParser

    class Buttons(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.disabled: dict[str, bool] = {}

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            named = dict(attrs)
            if tag == "button" and named.get("id"):
                self.disabled[str(named["id"])] = "disabled" in named

    page = Buttons()
    page.feed(make_client().get("/table").text)
    assert page.disabled["roll"]
    assert page.disabled["strike-mode"]
