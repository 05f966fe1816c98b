"""Slow requests against a server as ``kniffel serve`` starts it (no proxy): heads and bodies sent a byte
at a time, half-sent requests, and many of them from several addresses while others play.

uvicorn's one timer (keep-alive) is stopped by every byte, so a head trickled a byte every 2 s stayed
open for as long as its sender liked, and 12 addresses x 82 such connections made the server answer
503 to a fresh client. Here the deadlines are short (1.5 s for a head, 1 s for a body) so that the file
runs in seconds; ``benchmarks/web_slow.py`` runs the attack at full size.
"""

from __future__ import annotations

import contextlib
import json
import selectors
import socket
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from websockets.sync.client import connect

from kniffel.apps.web.connections import ArrivingHeads
from support.trickle import KeepAlive, Trickle, outcome
from support.web import ServerProcess

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="clients from several loopback addresses need Linux"
)

HEAD_TIMEOUT = 1.5
BODY_TIMEOUT = 1.0
SLACK = 3.0
"""Seconds a deadline may be late on a machine busy with other work."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("slow")
    env = {
        "KNIFFEL_HEAD_TIMEOUT": str(HEAD_TIMEOUT),
        "KNIFFEL_BODY_TIMEOUT": str(BODY_TIMEOUT),
        "KNIFFEL_HEADS_PER_CLIENT": "4",
        "KNIFFEL_MAX_HEADS": "40",
    }
    with ServerProcess(
        f"sqlite:///{directory / 'games.sqlite3'}", env=env, log_path=directory / "server.log"
    ) as running:
        yield running
    log = (directory / "server.log").read_text()
    assert "Traceback" not in log, "the server logged a crash"


class Shed:
    def __init__(self, name: str) -> None:
        self.name = name
        self.shed_as: str | None = None

    def shed(self, crowded: bool) -> None:
        self.shed_as = "crowded" if crowded else "own"


def test_a_client_past_its_begun_heads_loses_its_oldest() -> None:
    heads = ArrivingHeads(per_client=3, total=100, room=1000)
    a = [Shed(f"a{n}") for n in range(5)]
    for connection in a:
        assert heads.make_room("a", len(heads))
        heads.waits("a", connection)
    assert heads.of("a") == (5, 0), "silent connections are the keep-alive timer's"
    for connection in a[:4]:
        heads.begins("a", connection)
    assert a[0].shed_as == "own", "past its budget a client loses its oldest begun head"
    assert [c.shed_as for c in a[1:]] == [None] * 4
    assert heads.of("a") == (4, 3)
    heads.begins("a", a[1])  # a head counts once however many bytes it sends
    assert heads.of("a") == (4, 3)


def test_when_connections_run_short_the_busiest_client_gives_way() -> None:
    heads = ArrivingHeads(per_client=3, total=5, room=8)
    a = [Shed(f"a{n}") for n in range(3)]
    b = [Shed(f"b{n}") for n in range(2)]
    for client, connections in (("a", a), ("b", b)):
        for connection in connections:
            assert heads.make_room(client, len(heads))
            heads.waits(client, connection)
    assert len(heads) == 5
    assert all(c.shed_as is None for c in a + b)
    fresh = Shed("c")
    assert heads.make_room("c", 5)
    heads.waits("c", fresh)
    assert a[0].shed_as == "crowded", "past the total the busiest client loses its oldest"
    assert (heads.of("a"), heads.of("b"), heads.of("c"), len(heads)) == ((2, 0), (2, 0), (1, 0), 5)
    heads.gone("a", a[0])
    heads.arrived("c", fresh)  # its head is complete: it no longer waits
    heads.arrived("c", fresh)
    assert len(heads) == 4
    later = Shed("d")
    assert heads.make_room("d", 9)  # WebSockets and requests fill the room: waiting ones give way
    heads.waits("d", later)
    assert [c.shed_as for c in (a[1], b[0])] == ["crowded", "crowded"]
    assert (later.shed_as, fresh.shed_as) == (None, None), "a newcomer is never the one closed"
    assert len(heads) == 3
    assert not heads.make_room("b", 11), "the busiest client's newcomer is closed, not its older ones"
    assert b[1].shed_as is None
    alone = ArrivingHeads(per_client=3, total=5, room=8)
    assert alone.make_room("e", 100)  # nobody waits: nothing to close, the newcomer is let in
    alone.waits("e", Shed("e"))
    assert len(alone) == 1


def wait_closed(sock: socket.socket, seconds: float) -> tuple[bytes, float]:
    """What the server sends until it closes ``sock`` and how long that took (at most ``seconds``)."""
    started = time.monotonic()
    sock.settimeout(seconds)
    answer = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := sock.recv(4096):
            answer += chunk
    return answer, time.monotonic() - started


def test_half_sent_heads_are_closed_by_the_deadline_however_they_trickle(server: ServerProcess) -> None:
    """Half a request line, a whole one, a request line and ``Host`` without the blank line, and a head
    that goes on sending a byte every 0.2 s: each was held past 60 s; now each is answered 408 at its
    deadline, counted from its start (the trickle's bytes do not put it off)."""
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    halves = {
        "half a request line": b"GET /api/hea",
        "a request line": b"GET /api/health HTTP/1.1\r\n",
        "a line and its host": f"GET /api/health HTTP/1.1\r\n{host}".encode(),
        "a trickling head": f"GET /api/health HTTP/1.1\r\n{host}X-Slow: ".encode(),
    }
    selector = selectors.DefaultSelector()
    sockets: dict[str, socket.socket] = {}
    closed: dict[str, tuple[bytes, float]] = {}
    started = time.monotonic()
    for number, (name, start) in enumerate(halves.items()):
        sock = socket.create_connection(
            ("127.0.0.1", server.port), source_address=(f"127.0.1.{number + 1}", 0)
        )
        sock.sendall(start)
        sockets[name] = sock
        selector.register(sock, selectors.EVENT_READ, name)
    try:
        while sockets and time.monotonic() - started < HEAD_TIMEOUT + SLACK + 5:
            for key, _ in selector.select(0.2):
                sock = sockets.pop(key.data)
                selector.unregister(sock)
                closed[key.data] = wait_closed(sock, 5)[0], time.monotonic() - started
                sock.close()
            if "a trickling head" in sockets:
                sockets["a trickling head"].send(b"a")
    finally:
        for sock in sockets.values():
            sock.close()
    assert set(closed) == set(halves), f"held open: {set(halves) - set(closed)}"
    for name, (answer, after) in closed.items():
        assert outcome(answer) == "408", (name, answer[:80])
        assert b'"error": "timeout"' in answer
        assert HEAD_TIMEOUT - 0.3 < after < HEAD_TIMEOUT + SLACK, (name, after)


def test_a_body_is_closed_by_its_deadline(server: ServerProcess) -> None:
    """A body that stops after a byte (``Content-Length: 100``) was held 15 s, and one trickled a byte at
    a time longer: a route reading it answers 408 at ``KNIFFEL_BODY_TIMEOUT``, and the connection is
    closed a second later, whether the route read the body or answered without it. The four are sent at
    once, each from an address of its own."""
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    requests = {
        "a new game": f"POST /api/games HTTP/1.1\r\n{host}Content-Type: application/json\r\n",
        "the health": f"GET /api/health HTTP/1.1\r\n{host}",
    }
    cases = [
        (name, head, trickle, f"127.0.1.{10 + 2 * number + trickle}")
        for number, (name, head) in enumerate(requests.items())
        for trickle in (False, True)
    ]
    with ThreadPoolExecutor(len(cases)) as pool:
        answers = list(pool.map(lambda case: body_stopped(server, *case[1:]), cases))
    for (name, _, trickle, _), (answer, waited) in zip(cases, answers, strict=True):
        expected = "408" if name == "a new game" else "200"
        assert outcome(answer) == expected, (name, trickle, answer[:80])
        assert waited < BODY_TIMEOUT + 1 + SLACK, (name, trickle, waited)


def body_stopped(server: ServerProcess, head: str, trickle: bool, address: str) -> tuple[bytes, float]:
    """``head`` with a body of 100 bytes of which one is sent (then, ``trickle``, a byte every 0.2 s):
    what comes back until the connection is closed, and after how many seconds."""
    with socket.create_connection(("127.0.0.1", server.port), source_address=(address, 0)) as sock:
        sock.sendall(f"{head}Content-Length: 100\r\n\r\n{{".encode())
        started = time.monotonic()
        answer = b""
        sock.settimeout(0.2)
        while time.monotonic() - started < BODY_TIMEOUT + SLACK + 5:
            try:
                chunk = sock.recv(4096)
            except TimeoutError:
                if trickle:
                    with contextlib.suppress(OSError):
                        sock.send(b" ")
                continue
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
        return answer, time.monotonic() - started


@pytest.mark.slow
def test_trickling_addresses_starve_nobody_and_drop_no_player(server: ServerProcess) -> None:
    """Six addresses keep ten connections each sending a head a byte every 0.2 s, opening
    another whenever one is closed. Each address may have 4 heads begun, and 40 connections in all may
    wait for a head: past either the oldest of that address, or of the busiest one, is closed (429 or
    503), and no slow head lives past its deadline. Meanwhile a fresh client loads the page, creates
    games and opens their WebSockets, all answered; a player's socket opened before plays on, and a
    keep-alive client asking between pauses keeps its one connection."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.2.1"), timeout=10) as http:
        game = http.post(f"{server.url}/api/games", json={"seats": [{"name": "Ada"}, {"name": "Bo"}]}).json()
    with contextlib.ExitStack() as held:
        player_sock = held.enter_context(
            socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.2.1", 0))
        )
        player = held.enter_context(
            connect(f"{server.ws_url}/ws/{game['id']}", sock=player_sock, open_timeout=10)
        )
        assert json.loads(player.recv(10))["type"] == "state"
        player.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        between = KeepAlive(server.port, "127.0.2.2")
        held.callback(between.close)
        assert between.ask() == 200
        flood = Trickle(
            server.port, [f"127.0.3.{n}" for n in range(1, 7)], 10, interval=0.2, seconds=60, reopen=True
        )
        with flood:
            time.sleep(2)
            answered = []
            for round_ in range(8):
                with httpx.Client(
                    transport=httpx.HTTPTransport(local_address="127.0.2.3"), timeout=10
                ) as fresh:
                    answered.append(fresh.get(server.url + "/").status_code)
                    created = fresh.post(f"{server.url}/api/games", json={"seats": [{"name": "Cy"}]})
                    answered.append(created.status_code)
                sock = held.enter_context(
                    socket.create_connection(
                        ("127.0.0.1", server.port), timeout=10, source_address=("127.0.2.3", 0)
                    )
                )
                with connect(f"{server.ws_url}/ws/{created.json()['id']}", sock=sock, open_timeout=10) as ws:
                    answered.append(json.loads(ws.recv(10))["type"])
                assert between.ask() == 200, f"the keep-alive connection was closed in round {round_}"
                time.sleep(0.3)
            # A busy machine opens the flood's connections slowly: give it the time to run into both
            # budgets (the flood runs for 60 s) before it stops.
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline and not (flood.closed["429"] and flood.closed["503"]):
                time.sleep(0.2)
        assert answered == [200, 201, "state"] * 8
        player.send(json.dumps({"type": "action", "seq": 0, "action": {"action": "roll"}}))
        while (message := json.loads(player.recv(10))).get("state", {}).get("seq") != 1:
            assert message["type"] != "error", message
    assert flood.opened > 2 * 60, "the flood opened another connection for each one closed"
    assert flood.closed["429"] > 0, f"an address past its budget loses its oldest heads: {flood.closed}"
    assert flood.closed["503"] > 0, "all addresses past the budget in all lose their oldest heads"
    assert max(flood.lifetimes) < HEAD_TIMEOUT + SLACK, "no trickling head outlives its deadline"


@pytest.mark.slow
def test_slow_connections_past_the_open_files_give_way_to_a_fresh_client(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """With 256 open files uvicorn takes 128 connections: 150 slow ones of six addresses (each within
    its own caps here) could take them all and leave a fresh client 503; once 112 are open, the oldest
    waiting connection of the busiest address gives way to each new one."""
    directory = tmp_path_factory.mktemp("crowded")
    env = {"KNIFFEL_HEADS_PER_CLIENT": "100", "KNIFFEL_HEAD_TIMEOUT": "60"}
    with ServerProcess(
        f"sqlite:///{directory / 'games.sqlite3'}", env=env, log_path=directory / "server.log", open_files=256
    ) as server:
        flood = Trickle(server.port, [f"127.0.7.{n}" for n in range(1, 7)], 25, interval=0.5, seconds=60)
        with flood:
            time.sleep(2)
            answered = []
            for _ in range(5):
                with httpx.Client(
                    transport=httpx.HTTPTransport(local_address="127.0.8.1"), timeout=10
                ) as fresh:
                    answered.append(fresh.get(server.url + "/").status_code)
                    answered.append(
                        fresh.post(f"{server.url}/api/games", json={"seats": [{"name": "Di"}]}).status_code
                    )
                time.sleep(0.3)
        assert answered == [200, 201] * 5
        assert flood.closed["503"] + flood.closed["silent"] > 0, (
            f"the busiest addresses gave way: {flood.closed}"
        )
    assert "Traceback" not in (directory / "server.log").read_text()
