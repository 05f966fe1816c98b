"""A server as ``kniffel serve`` starts it, facing clients directly (no proxy it trusts), on a system
that allows it few open files: what an attacker on several addresses meets.

Every client here comes from an address of its own on loopback (Linux routes all of 127.0.0.0/8 to
it), as an attacker with several addresses would; none is given by a forwarding header, which such a
server must not believe.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from kniffel.apps.web import guard
from support.web import ServerProcess

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="clients from several loopback addresses need Linux"
)

OPEN_FILES = 256
"""The server's limit of open files: small, so that a few hundred sockets reach it."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("exposed")
    env = {
        "KNIFFEL_CREATE_BURST": "3",  # a forged header's fresh allowance shows after three games
        "KNIFFEL_BODY_TIMEOUT": "1",
        # Many sockets a second from one address: what is tested here is how many it may hold.
        "KNIFFEL_WS_RATE": "1000",
        "KNIFFEL_WS_BURST": "1000",
    }
    with ServerProcess(
        f"sqlite:///{directory / 'games.sqlite3'}",
        env=env,
        log_path=directory / "server.log",
        open_files=OPEN_FILES,
    ) as running:
        yield running
    log = (directory / "server.log").read_text()
    assert "Traceback" not in log, "the server logged a crash"
    assert "Too many open files" not in log
    assert "without completing handshake" not in log, "a refused socket is no error of the server's"


def http_from(address: str) -> httpx.Client:
    """HTTP from ``address`` (127.x.y.z)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def socket_from(
    address: str, server: ServerProcess, game_id: str, held: contextlib.ExitStack
) -> ClientConnection:
    """A game's WebSocket from ``address``, open until ``held`` closes; :class:`InvalidStatus` if the
    server refuses it."""
    sock = held.enter_context(
        socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(address, 0))
    )
    return held.enter_context(
        connect(f"{server.ws_url}/ws/{game_id}", sock=sock, open_timeout=10, close_timeout=1)
    )


def create(http: httpx.Client, server: ServerProcess, **headers: str) -> httpx.Response:
    return http.post(f"{server.url}/api/games", json={"seats": [{"name": "Ada"}]}, headers=headers)


def test_forged_forwarding_headers_give_no_fresh_allowance(server: ServerProcess) -> None:
    """uvicorn believes ``X-Forwarded-For`` from 127.0.0.1 by default: a local process (or a proxy
    passing the client's header on) got a fresh allowance per value of it, 60 of 60 creations."""
    with http_from("127.0.0.1") as http:
        statuses = [
            create(http, server, **{"x-forwarded-for": f"10.0.0.{n}"}).status_code for n in range(1, 7)
        ]
    assert statuses == [201] * 3 + [429] * 3


def test_no_banner_and_another_sites_name_is_refused(server: ServerProcess) -> None:
    with http_from("127.0.0.12") as http:
        page = http.get(server.url + "/")
        assert page.status_code == 200
        assert "server" not in page.headers, "no banner naming the software"
        assert http.get(server.url + "/", headers={"host": f"localhost:{server.port}"}).status_code == 200
        foreign = create(http, server, host="evil.example", origin="http://evil.example")
        assert foreign.status_code == 400
        assert foreign.json()["error"] == "wrong_host"
        assert "server" not in foreign.headers


def test_a_request_body_that_never_arrives_times_out(server: ServerProcess) -> None:
    request = (
        f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    ).encode()
    with socket.create_connection(("127.0.0.1", server.port), source_address=("127.0.0.13", 0)) as sock:
        sock.settimeout(10)
        sock.sendall(request)
        started = time.monotonic()
        answer = sock.recv(4096).decode()
        waited = time.monotonic() - started
        while "}" not in answer and (more := sock.recv(4096)):
            answer += more.decode()
    assert answer.startswith("HTTP/1.1 408"), answer
    assert '"error":"timeout"' in answer
    assert waited < 5


def open_files_of(server: ServerProcess) -> int:
    assert server.process is not None
    return len(os.listdir(f"/proc/{server.process.pid}/fd"))


def test_idle_sockets_of_many_addresses_stay_within_the_open_files(server: ServerProcess) -> None:
    """Without a limit, about a thousand idle sockets of one address used up the common limit of 1,024
    open files: the server could then answer nobody (failed upgrades, requests reset). Here five
    addresses open 60 sockets each without a seat against a limit of 256: those give way to each other
    (:mod:`kniffel.apps.web.watchers`) or are refused with a reason, the server's open files stay well
    within the limit, and a player who was there before plays on, pages load and new games are made
    (the database has its files)."""
    assert open_files_of(server) < guard.FILE_RESERVE, "an idle server holds few files"
    with http_from("127.0.0.31") as http, contextlib.ExitStack() as held:
        game = create(http, server).json()
        player = socket_from("127.0.0.31", server, game["id"], held)
        assert json.loads(player.recv(10))["type"] == "state"
        player.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        outcomes: Counter[Any] = Counter()
        for number in range(5):
            address = f"127.0.0.{40 + number}"
            for _ in range(60):
                try:
                    socket_from(address, server, game["id"], held)
                except InvalidStatus as refused:
                    code = json.loads(refused.response.body or b"")["error"]
                    outcomes[refused.response.status_code, code] += 1
                else:
                    outcomes["admitted"] += 1  # an older one of its address or table may give way
        assert outcomes["admitted"] > 0
        assert set(outcomes) <= {"admitted", (429, "rate_limited"), (503, "busy")}, outcomes
        assert open_files_of(server) < OPEN_FILES - guard.FILE_RESERVE // 2

        player.send(json.dumps({"type": "action", "seq": 0, "action": {"action": "roll"}}))
        while (message := json.loads(player.recv(10))).get("state", {}).get("seq") != 1:
            assert message["type"] != "error", message
        assert http.get(server.url + "/").status_code == 200
        other = create(http, server).json()
        assert http.get(f"{server.url}/api/games/{other['id']}").status_code == 200


def test_silent_connections_of_one_address_are_capped_and_closed(server: ServerProcess) -> None:
    """A connection that never sends a request reaches no allowance of the app: uvicorn kept each open for
    ever, and 200 of them from one address made the server answer 503 to everyone. Now an address holds
    at most its WebSockets' worth and a few more (the rest are refused at once with a reason), others are
    served meanwhile, and a silent connection is closed as an idle keep-alive one is."""
    from kniffel.apps.web.connections import MARGIN

    cap = 50 + MARGIN
    with contextlib.ExitStack() as held:
        silent = [
            held.enter_context(
                socket.create_connection(
                    ("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.71", 0)
                )
            )
            for _ in range(cap + 20)
        ]
        refused = []
        for sock in silent[cap:]:
            answer = sock.recv(4096).decode()
            refused.append(answer)
        assert all(a.startswith("HTTP/1.1 429") and '"rate_limited"' in a for a in refused), refused[:1]
        with http_from("127.0.0.72") as http:
            assert http.get(server.url + "/").status_code == 200
        started = time.monotonic()
        for sock in silent[:cap]:
            assert sock.recv(4096) == b"", "a silent connection is closed without an answer"
        assert time.monotonic() - started < 15
    with http_from("127.0.0.71") as http:
        assert http.get(server.url + "/").status_code == 200, "the address is served again once they are gone"
