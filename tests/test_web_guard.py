"""The server's guard against hostile clients, in process (Starlette's test client, SQLite): hostile JSON,
limits per client that survive reconnecting, cross-site requests and the security headers.

The same requests against real server processes on both databases are in ``test_web_api.py``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from kniffel.web import guard
from kniffel.web.app import create_app
from kniffel.web.service import WebError

with warnings.catch_warnings():  # Starlette's client still works with httpx; it merely prefers httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Any]:
    clients: list[TestClient] = []

    def make(**settings: float) -> TestClient:
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


def test_the_flood_limit_belongs_to_the_client_not_the_connection(make_client: Any) -> None:
    client = make_client(rate=2, burst=5)
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.receive_json()
        for _ in range(200):
            ws.send_text('{"type": "ping"}')
        codes, close_code = read_until_closed(ws)
        assert close_code == 1008
        assert "rate_limited" in codes
    with client.websocket_connect(f"/ws/{game['id']}") as again:
        again.receive_json()
        again.send_text('{"type": "ping"}')
        codes, close_code = read_until_closed(again)
        assert codes == ["rate_limited"], "reconnecting gives no fresh allowance"
        assert close_code == 1008


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
