"""The floods of ``web_abuse.py`` that test what a server bounds besides its allowances of work, and the
fresh client they must not hold up.

- ``large-heads``: 16 connections from 2 addresses each send a 64 MB header value, opening another when
  one is closed (the server answers 431 after 32 KiB);
- ``slow-readers``: 12 addresses x 82 connections each pipeline requests for ``/static/table.js`` and
  never read the answers, opening another when one is closed;
- ``silent-16`` and ``silent-100``: 16 and 100 addresses x 50 WebSockets on one table that say nothing
  (the client library answers the server's pings), one opened again whenever one is closed;
- ``health-20``: 20 addresses pipelining ``GET /api/health`` without pause, 4 connections each;
- ``analyses-16``: 16 addresses asking an analysis of a pasted position without pause, 2 at a time each
  (the anonymous lane, which the finished games' reviews share).

Meanwhile a fresh client (:class:`Fresh`, a new address each round) loads the home page, creates a game
and opens its WebSocket up to its first state twice a second: its p95 in ms for each, and the server's
memory at the start and at its highest, are what these floods are measured by (p95 under 200 ms, memory
up less than 100 MB); the seated player's hints (``web_abuse.py``) must never wait more than 1 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

import httpx
import orjson
from websockets.asyncio.client import connect

from kniffel.apps.web import guard

SITUATION = "kniffel | ones=3 kniffel=50 | 2 2 3 5 5 | rolls left 1 | others twos=6 fives=15"


class Aim(Protocol):
    port: int
    watched: str

    @property
    def http(self) -> str: ...

    @property
    def ws(self) -> str: ...


async def _raw(port: int, address: str, window: int | None = None) -> tuple[Any, Any]:
    sock = socket.socket()
    if window is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, window)
    sock.setblocking(False)
    sock.bind((address, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def _each(
    stop: Event, addresses: list[str], per_address: int, one: Callable[[str], Awaitable[str]]
) -> Counter[str]:
    """``one(address)`` again and again from ``per_address`` tasks of each address until ``stop``."""
    guard.raise_file_limit()
    outcomes: Counter[str] = Counter()

    async def again(address: str) -> None:
        while not stop.is_set():
            try:
                outcomes[await one(address)] += 1
            except (OSError, TimeoutError, httpx.HTTPError) as error:
                outcomes[type(error).__name__] += 1
                await asyncio.sleep(0.2)

    await asyncio.gather(*(again(a) for a in addresses for _ in range(per_address)))
    return outcomes


def _status(answer: bytes) -> str:
    return answer[9:12].decode() if answer.startswith(b"HTTP/1.1 ") else "closed"


async def flood_large_heads(targets: Aim, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    chunk = b"a" * 65536

    async def one(address: str) -> str:
        reader, writer = await _raw(targets.port, address)
        try:
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
            with contextlib.suppress(OSError):
                for _ in range(1024):  # 64 MB
                    if stop.is_set() or reader.at_eof():
                        break
                    writer.write(chunk)
                    await writer.drain()
            async with asyncio.timeout(10):
                return f"head {_status(await reader.read(4096))}"
        finally:
            writer.close()

    ready()
    return await _each(stop, ["127.0.3.1", "127.0.3.2"], 8, one)


async def flood_slow_readers(targets: Aim, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    request = b"GET /static/table.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 40

    async def one(address: str) -> str:
        reader, writer = await _raw(targets.port, address, window=4096)
        try:
            writer.write(request)
            started = time.monotonic()
            while not stop.is_set() and not reader.at_eof():  # reads nothing; waits to be dropped
                await asyncio.sleep(0.5)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.01):
                        if not await reader.read(1):  # end of stream: dropped
                            break
            return f"held {min(60, int(time.monotonic() - started)) // 10 * 10}s+"
        finally:
            writer.close()

    ready()
    return await _each(stop, [f"127.0.4.{n}" for n in range(1, 13)], 82, one)


def _silent(addresses: int) -> Callable[[Aim, Event, Callable[[], None]], Awaitable[Counter[str]]]:
    async def flood(targets: Aim, stop: Event, ready: Callable[[], None]) -> Counter[str]:
        url = f"{targets.ws}/ws/{targets.watched}"

        async def one(address: str) -> str:
            try:
                async with connect(url, local_addr=(address, 0), open_timeout=10) as ws:
                    while not stop.is_set():
                        with contextlib.suppress(TimeoutError):
                            async with asyncio.timeout(1):
                                await ws.recv()
            except Exception as error:  # refused, or closed by the server
                await asyncio.sleep(0.5)
                return type(error).__name__
            return "held to the end"

        ready()
        return await _each(stop, [f"127.1.{n // 250}.{n % 250 + 1}" for n in range(addresses)], 50, one)

    return flood


async def flood_health(targets: Aim, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    request = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 100

    async def one(address: str) -> str:
        reader, writer = await _raw(targets.port, address)
        try:
            writer.write(request)
            answer = b""
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(10):
                    while chunk := await reader.read(65536):
                        answer += chunk
                        if answer.count(b"HTTP/1.1 ") >= 100:
                            break
            return f"{answer.count(b'HTTP/1.1 200')} ok, {answer.count(b'HTTP/1.1 429')} refused per 100"
        finally:
            writer.close()

    ready()
    return await _each(stop, [f"127.0.5.{n}" for n in range(1, 21)], 4, one)


async def flood_analyses(targets: Aim, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    url = f"{targets.http}/api/analysis?{urlencode({'situation': SITUATION, 'target': '200'})}"
    clients: dict[str, httpx.AsyncClient] = {}

    async def one(address: str) -> str:
        if address not in clients:
            clients[address] = httpx.AsyncClient(
                transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30
            )
        return f"analysis {(await clients[address].get(url)).status_code}"

    ready()
    try:
        return await _each(stop, [f"127.0.6.{n}" for n in range(1, 17)], 2, one)
    finally:
        for http in clients.values():
            await http.aclose()


FLOODS = {
    "large-heads": flood_large_heads,
    "slow-readers": flood_slow_readers,
    "silent-16": _silent(16),
    "silent-100": _silent(100),
    "health-20": flood_health,
    "analyses-16": flood_analyses,
}


def memory(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


@dataclass
class Fresh:
    """A client from a new address each round (:data:`ADDRESSES`) loading the home page, creating a game
    and opening its socket to its first state, twice a second; and the server's memory meanwhile."""

    targets: Aim
    pid: int
    times: dict[str, list[float]] = field(default_factory=lambda: {"page": [], "game": [], "socket": []})
    failed: Counter[str] = field(default_factory=Counter)
    memory: tuple[int, int] = (0, 0)

    async def run(self, seconds: float) -> None:
        start = peak = memory(self.pid)
        deadline = time.monotonic() + seconds
        round_ = 0
        while time.monotonic() < deadline:
            round_ += 1
            began = time.monotonic()
            await self.once(f"127.2.{round_ // 250}.{round_ % 250 + 1}")
            peak = max(peak, memory(self.pid))
            await asyncio.sleep(max(0.0, 0.5 - (time.monotonic() - began)))
        self.memory = (start, peak)

    async def once(self, address: str) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(transport=transport, timeout=15) as http:
            asks: list[tuple[str, Callable[[], Awaitable[httpx.Response]]]] = [
                ("page", lambda: http.get(self.targets.http + "/")),
                (
                    "game",
                    lambda: http.post(self.targets.http + "/api/games", json={"seats": [{"name": "F"}]}),
                ),
            ]
            for what, ask in asks:
                started = time.monotonic()
                try:
                    response = await ask()
                except httpx.HTTPError as error:
                    self.failed[f"{what} {type(error).__name__}"] += 1
                    return
                if response.status_code >= 400:
                    self.failed[f"{what} {response.status_code}"] += 1
                    return
                self.times[what].append(time.monotonic() - started)
        game = response.json()["id"]
        started = time.monotonic()
        try:
            async with connect(
                f"{self.targets.ws}/ws/{game}", local_addr=(address, 0), open_timeout=15
            ) as ws:
                async with asyncio.timeout(15):
                    assert orjson.loads(await ws.recv())["type"] == "state"
            self.times["socket"].append(time.monotonic() - started)
        except Exception as error:
            self.failed[f"socket {type(error).__name__}"] += 1

    def figures(self, percentile: Callable[[list[float], float], float]) -> str:
        shown = " ".join(f"{what} {1000 * percentile(times, 0.95):.0f}" for what, times in self.times.items())
        grown = (self.memory[1] - self.memory[0]) / 1e6
        failed = f", failed {dict(self.failed)}" if self.failed else ""
        return f"fresh p95 ms: {shown}; memory +{grown:.0f} MB{failed}"
