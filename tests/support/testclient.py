"""The web app in process through Starlette's test client: games made by its API and the states its
WebSocket sends."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession


def create(client: TestClient, *seats: tuple[str, str], **flags: Any) -> dict[str, Any]:
    body = {"rules": "kniffel", "seats": [{"name": n, "kind": k} for n, k in seats], **flags}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def next_state(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "state":
            state: dict[str, Any] = message["state"]
            return state


def hello(ws: WebSocketTestSession, token: str) -> tuple[list[int], dict[str, Any]]:
    ws.send_json({"type": "hello", "token": token})
    while (message := ws.receive_json())["type"] != "welcome":
        assert message["type"] == "state"
    return message["seats"], next_state(ws)
