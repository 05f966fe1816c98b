"""Sockets without a seat: capped per address, per table and in all, closed after a silence, and never
in a seated player's way (:mod:`kniffel.apps.web.watchers`).

Sixteen addresses holding fifty silent sockets each took every socket of a process, and a fresh player
could create a game and not play it. Here a server with 256 open files (112 sockets) meets a small-scale
version of that: sixteen addresses open silent sockets without pause while a fresh player sits down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from websockets.asyncio.client import connect as connect_async
from websockets.sync.client import ClientConnection, connect

from kniffel.apps.web.watchers import Watchers
from support.web import ServerProcess

IDLE = 3.0
"""Seconds a socket without a seat may stay silent on the test's server."""
SLACK = 10.0


class Socket:
    def __init__(self, name: str) -> None:
        self.name = name
        self.evicted = False

    def evict(self) -> None:
        self.evicted = True


def test_an_address_past_its_share_loses_its_oldest_watcher() -> None:
    watchers = Watchers(per_client=2, per_game=10, total=10)
    a = [Socket(f"a{n}") for n in range(3)]
    for sock in a:
        assert watchers.admit("a", "g", sock)
    assert [s.evicted for s in a] == [True, False, False]
    assert watchers.of("a") == 2
    assert watchers.closing == 1
    watchers.gone(a[0])
    assert watchers.closing == 0


def test_a_full_table_or_process_makes_the_busiest_address_give_way_never_a_seat() -> None:
    watchers = Watchers(per_client=5, per_game=4, total=6)
    a = [Socket(f"a{n}") for n in range(3)]
    b = Socket("b")
    for sock in a:
        assert watchers.admit("a", "g", sock)
    assert watchers.admit("b", "g", b)
    player = Socket("player")
    assert watchers.admit("p", "g", player), "the table is full: the busiest address gives way"
    assert [s.evicted for s in a] == [True, False, False]
    watchers.seated(player)  # its hello named a seat: the table has room again
    assert watchers.admit("a", "g", Socket("a3"))
    assert not watchers.admit("a", "g", Socket("a4")), "the busiest address's newcomer is refused"
    others = [Socket(f"c{n}") for n in range(2)]
    for sock in others:
        assert watchers.admit("c", "h", sock)
    assert len(watchers) == 6
    late = Socket("late")
    assert watchers.admit("d", "h", late, full=True), "every socket taken: an unseated one gives way"
    assert sum(s.evicted for s in [*a, b, *others]) == 2
    assert not player.evicted
    assert not late.evicted


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("watchers")
    env = {
        "KNIFFEL_WATCH_IDLE": str(IDLE),
        "KNIFFEL_WS_BURST": "1000",  # the attack meets the watchers' caps, not the messages' allowance
        "KNIFFEL_WS_RATE": "1000",
    }
    with ServerProcess(
        f"sqlite:///{directory / 'games.sqlite3'}", env=env, log_path=directory / "server.log", open_files=256
    ) as running:
        yield running
    log = (directory / "server.log").read_text()
    assert "Traceback" not in log, log[log.index("Traceback") - 500 :][:3000]


class SilentSockets:
    """``per_address`` sockets from each of ``addresses`` that say nothing (the client library answers
    pings), one opened again whenever one is closed, until stopped."""

    def __init__(self, url: str, addresses: list[str], per_address: int) -> None:
        self.url, self.addresses, self.per_address = url, addresses, per_address
        self.outcomes: Counter[str] = Counter()
        self.open_now = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    async def _hold(self, address: str) -> None:
        while not self._stop.is_set():
            try:
                async with connect_async(self.url, local_addr=(address, 0), open_timeout=10) as ws:
                    self.open_now += 1
                    try:
                        while not self._stop.is_set():
                            with contextlib.suppress(TimeoutError):
                                async with asyncio.timeout(0.5):
                                    await ws.recv()
                    finally:
                        self.open_now -= 1
                self.outcomes["ended"] += 1
            except Exception as error:
                self.outcomes[type(error).__name__] += 1
                await asyncio.sleep(0.2)

    async def _run(self) -> None:
        await asyncio.gather(*(self._hold(a) for a in self.addresses for _ in range(self.per_address)))

    def __enter__(self) -> SilentSockets:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(30)


def sit_down(server: ServerProcess, address: str) -> tuple[float, ClientConnection]:
    """A fresh player creates a game, opens its socket and says hello: the seconds the socket took to
    be welcomed, and the socket (still open)."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=20) as http:
        game = http.post(f"{server.url}/api/games", json={"seats": [{"name": "Ada"}, {"name": "Bo"}]}).json()
    started = time.monotonic()
    ws = connect(f"{server.ws_url}/ws/{game['id']}", open_timeout=20).__enter__()
    assert json.loads(ws.recv(20))["type"] == "state"
    ws.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
    welcome = json.loads(ws.recv(20))
    assert (welcome["type"], welcome["seats"]) == ("welcome", [0]), welcome
    return time.monotonic() - started, ws


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="clients from several loopback addresses")
def test_silent_sockets_of_many_addresses_leave_a_player_a_socket(server: ServerProcess) -> None:
    """Sixteen addresses keep twelve silent sockets each open on one table (more than the process's
    sockets without a seat); a fresh player still sits down at once, and stays seated however long
    it says nothing, while the silent ones are closed after their idle time or give way."""
    with httpx.Client(timeout=20) as http:
        watched = http.post(f"{server.url}/api/games", json={"seats": [{"name": "Cy"}]}).json()
    url = f"{server.ws_url}/ws/{watched['id']}"
    addresses = [f"127.0.9.{n}" for n in range(1, 17)]
    seated: list[ClientConnection] = []
    with SilentSockets(url, addresses, 12) as flood:
        deadline = time.monotonic() + 30
        while flood.open_now < 32 and time.monotonic() < deadline:
            time.sleep(0.2)
        for number in range(5):
            took, ws = sit_down(server, f"127.0.10.{number + 1}")
            seated.append(ws)
            assert took < SLACK, f"the player waited {took:.1f} s for a socket"
        time.sleep(IDLE + 2)
        for ws in seated:  # silent for longer than a watcher may be: still open
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(20))["type"] != "pong":
                pass
    for ws in seated:
        ws.close()
    assert flood.outcomes["ended"] > 0, f"silent sockets are closed: {flood.outcomes}"


def test_a_silent_watcher_is_told_why_it_is_closed(server: ServerProcess) -> None:
    with httpx.Client(timeout=20) as http:
        game = http.post(f"{server.url}/api/games", json={"seats": [{"name": "Di"}]}).json()
    started = time.monotonic()
    with connect(f"{server.ws_url}/ws/{game['id']}", open_timeout=20) as ws:
        assert json.loads(ws.recv(20))["type"] == "state"
        said = json.loads(ws.recv(IDLE + SLACK))
    assert (said["type"], said["code"]) == ("error", "timeout"), said
    assert IDLE - 0.5 < time.monotonic() - started < IDLE + SLACK
