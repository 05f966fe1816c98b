"""Clients of a real server (:mod:`support.web`): requests and WebSockets as pages send them, each from
an address of its own, and the databases the servers of the tests run on."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kniffel.apps.web.live import LOG_TAIL
from support.web import ServerProcess

POSTGRES_ENV = "KNIFFEL_TEST_POSTGRES_URL"
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgres",
        marks=pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set"),
    ),
]


def database_url(backend: str, directory: Path) -> str:
    if backend == "postgres":
        return os.environ[POSTGRES_ENV]
    return f"sqlite:///{directory / 'games.sqlite3'}"


AS_A_PROXY = {"KNIFFEL_TRUSTED_PROXIES": "127.0.0.1"}
"""The tests stand in for a reverse proxy on loopback: each client's requests name its own address in
``X-Forwarded-For`` (:func:`new_address`), and the server's limits belong to that address."""


_addresses = itertools.count(1)


def new_address() -> dict[str, str]:
    """Headers that make a request come from an address of its own: the server trusts the forwarding
    header from loopback (:data:`AS_A_PROXY`), and its limits belong to the client's address."""
    number = next(_addresses)
    return {"x-forwarded-for": f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"}


class Client:
    """A WebSocket client that reads the server's messages by type, with timeouts; each client comes
    from an address of its own unless given ``address`` headers. Like the table page it asks for
    ``change`` messages (``changes``) and applies each to the state it holds, which must be the
    position the change follows; the new state then counts as a ``state`` message."""

    def __init__(
        self,
        server: ServerProcess,
        game_id: str,
        token: str | None = None,
        address: dict[str, str] | None = None,
        *,
        changes: bool = True,
    ) -> None:
        self._exit = contextlib.ExitStack()
        self.ws: ClientConnection = self._exit.enter_context(
            connect(
                f"{server.ws_url}/ws/{game_id}" + ("?changes=1" if changes else ""),
                open_timeout=10,
                additional_headers=address or new_address(),
            )
        )
        self.kinds: list[str] = []
        """The type of every message received, in order."""
        self.state: dict[str, Any] = self.expect("state")["state"]
        if token is not None:
            self.send({"type": "hello", "token": token})
            self.welcome = self.expect("welcome")
            self.state = self.expect("state")["state"]

    def send(self, message: object) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout))
        self.kinds.append(message["type"])
        if message["type"] == "change":
            base, state = message["base"], message["state"]
            assert base == self.state["seq"], f"a change of position {base} reached a client at {self.state}"
            assert "rules" not in state
            earlier = [line for line in self.state["log"] if line["seq"] <= base]
            state["log"] = (earlier + state["log"])[-LOG_TAIL:]
            message = {"type": "state", "state": {"rules": self.state["rules"]} | state}
        if message["type"] == "state":
            self.state = message["state"]
        return message

    def expect(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind:
                return message
            if message["type"] == "error" and kind != "error":
                raise AssertionError(f"expected {kind}, got {message}")

    def error(self) -> dict[str, Any]:
        return self.expect("error")

    def act(self, action: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        """Send an action at the current position and return the state that follows it."""
        before = self.state["seq"] if seq is None else seq
        self.send({"type": "action", "seq": before, "action": action})
        while True:
            self.expect("state")
            if self.state["seq"] > before:
                return self.state

    def wait_for(self, seq: int) -> dict[str, Any]:
        while self.state["seq"] < seq:
            self.expect("state")
        return self.state

    def close(self) -> None:
        self._exit.close()


def read_until_closed(ws: ClientConnection) -> list[dict[str, Any]]:
    """Every message still buffered or sent before the server closed the connection."""
    messages = []
    try:
        while True:
            messages.append(json.loads(ws.recv(10)))
    except ConnectionClosed:
        return messages


def create(server: ServerProcess, *seats: str, **body: Any) -> dict[str, Any]:
    """``create(server, "Ada", "bot:Robo", rules="yatzy")``."""
    specs = [
        {"name": s.removeprefix("bot:"), "kind": "bot" if s.startswith("bot:") else "human"} for s in seats
    ]
    response = httpx.post(
        f"{server.url}/api/games", json={"seats": specs, **body}, headers=new_address(), timeout=10
    )
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def token(game: dict[str, Any], seat: int) -> str:
    value: str = game["seats"][seat]["token"]
    return value


def play_turn(client: Client) -> None:
    """Roll once and score the best-paying box (or strike the first box allowed)."""
    state = client.act({"action": "roll"})
    if state["placements"]:
        box = max(state["placements"], key=lambda k: state["placements"][k]["points"])
        client.act({"action": "score", "box": box})
    else:
        client.act({"action": "strike", "box": state["strikeable"][0]})
