"""Floods against one server, as ``kniffel serve`` runs it, and what an unrelated player meets meanwhile.

A player on an address of its own plays a hot-seat game at ten actions a second over a WebSocket; the
round trip of each action (from sending it to receiving the state that contains it) is measured while
one flood at a time runs from another process and other loopback addresses (Linux routes all of
127.0.0.0/8 to loopback, so each address is a client of its own, as an attacker's several addresses
would be):

- ``quiet``: no flood, for comparison;
- ``forged-headers``: from 127.0.0.1, new games, hints and WebSocket pings, each request naming another
  client in ``X-Forwarded-For`` (which uvicorn believes from 127.0.0.1 by default);
- ``idle-sockets``: one address opens as many WebSockets as it can (up to 1,000) and holds them;
- ``idle-sockets-many``: twenty addresses try 60 each, more than the server has room for;
- ``reconnect-storm``: an address floods until it is blocked, then reconnects without pause from 16
  connections at once;
- ``chances`` and ``hints``: 16 requests at a time, without pause, for the chances of winning of a
  two-player game and the hints of a seat of another (strict Kniffel, whose win tables are solved in
  a moment);
- ``chances-12`` and ``combinations``: twelve addresses asking a table's chances in bursts within their
  allowance, and 79 rule/option combinations' chances asked every 5 s from four addresses
  (``abuse_advice.py``);
- ``large-heads``, ``slow-readers``, ``silent-16``, ``silent-100``, ``health-20``, ``analyses-16``: what the
  server bounds besides its allowances of work, with a fresh client's page, new game and socket timed
  meanwhile (``abuse_bounds.py``, which says what each does; run only when named with ``--flood``).

Besides the player's moves, a seated player asks its own hints once a second (``hints p50/p95/max``
and how many were answered ``busy``), and at the end the solved tables on disk are summed (the server's
table cache is the usual one, or ``--cache-dir``; ``--cache-budget`` gives the server its budget).

The server gets the common limit of 1,024 open files (``--open-files``; 0 leaves the system's). For each
flood it reports the player's p50/p95/p99 in milliseconds and its actions lost (refused or never
answered; all actions acknowledged are checked against the saved games at the end), what the flood
achieved (answers by status, sockets held, states received), what someone arriving at its end meets
(the home page, a table's socket), the server's CPU share and the load average. The solver's tables
for hints and chances are read from (or first solved into) the usual cache; the first run may take a
minute before the floods start.

    .venv/bin/python benchmarks/web_abuse.py                       # every flood, 15 s each, SQLite
    .venv/bin/python benchmarks/web_abuse.py --flood idle-sockets --seconds 30 \\
        --database-url postgresql+psycopg://kniffel:kniffel@127.0.0.1:5432/kniffel_test
    .venv/bin/python benchmarks/web_abuse.py --server-source ../other/src      # another version's server

The floods run on the same two cores as the server and the player; ``--nice 10`` runs them at a lower
priority, as a remote attacker's CPU would not be the server's (they still send as fast as they can).

On 2 cores with the floods at nice 10, 15 s a flood, nothing is lost in any flood (every acknowledged
action saved, none refused or unanswered) and the player's p95 stays under 30 ms, SQLite or PostgreSQL.
What the floods get: forged headers one address's allowance whatever the header names (about 20 new
games and 22-25 hints in 15 s); one address holds 50 sockets; twenty addresses fill the sockets a
process with 1,024 open files keeps (783), the rest refused 503, pages still served; a blocked address
reconnecting from 16 connections is refused before anything is sent; ``chances`` is answered 37-62
times, ``hints`` 10-13 times. Without ``--nice`` the flood's own process takes the CPU the server and
the player share with it on such a machine (the player's p50 20-28 ms against 3-5 ms), while the
server's own CPU share stays the same.

Under the advice floods (40 s a flood, a fresh table cache, ``--cache-budget 300MB``) the seated
player's hints stay under 200 ms at p95 and none is answered ``busy``: under ``chances-12`` every answer
to the twelve addresses comes from memory, and under ``combinations`` all 79 games are made and their
chances say ``preparing`` while their tables are solved, the disk staying within the budget.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import httpx
import orjson
import tests_path  # noqa: F401  (puts tests/ on sys.path for the support package)
from abuse_advice import Hinted, flood_chances_many, flood_combinations
from abuse_bounds import FLOODS as BOUNDS
from abuse_bounds import Fresh
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus, WebSocketException

from kniffel.apps.web import guard
from support.web import ServerProcess

PLAYER = "127.0.0.2"
SETUP = "127.0.0.3"
NEWCOMER = "127.0.0.4"
PACE = 0.1
"""Seconds between the player's actions."""
WORKERS = 16
"""Requests or connections a flood keeps going at once."""


@dataclass
class Targets:
    """What the floods aim at: a game to watch, a two-player game whose chances they ask for and a
    seat whose hints they ask for (with its token)."""

    port: int
    watched: str
    chances: str
    hints: str
    hints_token: str

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


# --- floods (each in a process of its own) ---------------------------------------------------------


def client(address: str) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=WORKERS, max_keepalive_connections=WORKERS)
    return httpx.AsyncClient(
        transport=httpx.AsyncHTTPTransport(local_address=address, limits=limits), timeout=10
    )


def forged() -> dict[str, str]:
    return {"x-forwarded-for": f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(256)}"}


async def repeat(stop: Event, work: Callable[[], Awaitable[str]], outcomes: Counter[str]) -> None:
    """Run ``work`` again and again from :data:`WORKERS` tasks until ``stop``, counting what it says."""

    async def worker() -> None:
        while not stop.is_set():
            try:
                outcomes[await work()] += 1
            except (httpx.HTTPError, OSError, WebSocketException, TimeoutError) as error:
                outcomes[type(error).__name__] += 1

    await asyncio.gather(*(worker() for _ in range(WORKERS)))


async def open_socket(
    url: str, address: str, outcomes: Counter[str], **headers: str
) -> ClientConnection | None:
    """A WebSocket from ``address``, or ``None`` with the refusal counted."""
    try:
        ws = await connect(url, local_addr=(address, 0), additional_headers=headers, open_timeout=10)
    except InvalidStatus as refused:
        outcomes[f"refused {refused.response.status_code}"] += 1
        return None
    except (OSError, TimeoutError, WebSocketException) as error:
        outcomes[type(error).__name__] += 1
        return None
    outcomes["sockets opened"] += 1
    return ws


async def flood_forged_headers(targets: Targets, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    ready()
    async with client("127.0.0.1") as http:

        async def create() -> str:
            body = {"seats": [{"name": "Eve"}]}
            response = await http.post(f"{targets.http}/api/games", json=body, headers=forged())
            return f"new game {response.status_code}"

        async def hints() -> str:
            headers = forged() | {"x-kniffel-token": targets.hints_token}
            response = await http.get(f"{targets.http}/api/games/{targets.hints}/hints", headers=headers)
            return f"hints {response.status_code}"

        async def pings() -> str:
            url = f"{targets.ws}/ws/{targets.watched}"
            ws = await open_socket(url, "127.0.0.1", outcomes, **forged())
            if ws is None:
                return "pings refused"
            with contextlib.suppress(WebSocketException, TimeoutError):
                async with ws:
                    await ws.recv()
                    for _ in range(100):
                        await ws.send('{"type": "ping"}')
                    while not stop.is_set():
                        if b"pong" in (await asyncio.wait_for(ws.recv(decode=False), 1)):
                            outcomes["pongs"] += 1
            return "ping connections"

        await asyncio.gather(*(repeat(stop, work, outcomes) for work in (create, hints, pings)))
    return outcomes


async def hold_sockets(
    targets: Targets, stop: Event, ready: Callable[[], None], addresses: list[str], each: int
) -> Counter[str]:
    """From each address, open up to ``each`` sockets and hold them, as fast as the server lets: a
    refusal for opening too fast is waited out, one for holding too many (or a full server) ends the
    address's opening. Ready once every address is done or 30 s have passed."""
    guard.raise_file_limit()
    outcomes: Counter[str] = Counter()
    held: list[ClientConnection] = []
    url = f"{targets.ws}/ws/{targets.watched}"

    async def open_from(address: str) -> None:
        for _ in range(each):
            while True:
                try:
                    ws = await connect(url, local_addr=(address, 0), open_timeout=10)
                except InvalidStatus as refused:
                    body = orjson.loads(refused.response.body or b"{}")
                    outcomes[f"refused {refused.response.status_code} {body.get('error')}"] += 1
                    if refused.response.status_code == 429 and "too many connections" in body["message"]:
                        await asyncio.sleep(0.3)  # opening too fast: wait and go on
                        continue
                    return  # its share is held, or the server is full
                except (OSError, TimeoutError, WebSocketException) as error:
                    outcomes[type(error).__name__] += 1
                    return
                held.append(ws)
                break

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(30):
            await asyncio.gather(*(open_from(address) for address in addresses))
    outcomes["sockets held"] = len(held)
    ready()
    while not stop.is_set():
        await asyncio.sleep(0.1)
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)
    return outcomes


async def flood_idle_sockets(targets: Targets, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    return await hold_sockets(targets, stop, ready, ["127.0.0.60"], 1000)


async def flood_idle_sockets_many(targets: Targets, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    return await hold_sockets(targets, stop, ready, [f"127.0.1.{n}" for n in range(1, 21)], 60)


async def flood_reconnect_storm(targets: Targets, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    address, url = "127.0.0.61", f"{targets.ws}/ws/{targets.watched}"
    ws = await open_socket(url, address, outcomes)
    if ws is not None:  # get blocked first
        with contextlib.suppress(WebSocketException):
            async with ws:
                for _ in range(2000):
                    await ws.send('{"type": "ping"}')
                async for _ in ws:
                    pass
        outcomes["closed for flooding" if ws.close_code == 1008 else f"closed {ws.close_code}"] += 1
    ready()

    async def reconnect() -> str:
        ws = await open_socket(url, address, outcomes)
        if ws is None:
            return "attempts"
        async with ws:
            with contextlib.suppress(WebSocketException, TimeoutError):
                if b'"state"' in await asyncio.wait_for(ws.recv(decode=False), 5):
                    outcomes["states received"] += 1
        return "attempts"

    await repeat(stop, reconnect, outcomes)
    return outcomes


async def ask_without_pause(
    stop: Event, ready: Callable[[], None], address: str, url: str, what: str, **headers: str
) -> Counter[str]:
    """GET ``url`` from ``address`` again and again, :data:`WORKERS` at a time."""
    outcomes: Counter[str] = Counter()
    ready()
    async with client(address) as http:

        async def ask() -> str:
            return f"{what} {(await http.get(url, headers=headers)).status_code}"

        await repeat(stop, ask, outcomes)
    return outcomes


async def flood_chances(targets: Targets, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    url = f"{targets.http}/api/games/{targets.chances}/chances"
    return await ask_without_pause(stop, ready, "127.0.0.62", url, "chances")


async def flood_hints(targets: Targets, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    url = f"{targets.http}/api/games/{targets.hints}/hints"
    token = {"x-kniffel-token": targets.hints_token}
    return await ask_without_pause(stop, ready, "127.0.0.63", url, "hints", **token)


async def no_flood(targets: Targets, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    ready()
    while not stop.is_set():
        await asyncio.sleep(0.1)
    return Counter()


FLOODS: dict[str, Callable[[Targets, Event, Callable[[], None]], Awaitable[Counter[str]]]] = {
    "quiet": no_flood,
    "forged-headers": flood_forged_headers,
    "idle-sockets": flood_idle_sockets,
    "idle-sockets-many": flood_idle_sockets_many,
    "reconnect-storm": flood_reconnect_storm,
    "chances": flood_chances,
    "hints": flood_hints,
    "chances-12": flood_chances_many,
    "combinations": flood_combinations,
    **BOUNDS,
}


def run_flood(name: str, targets: Targets, stop: Event, results: Queue[Any], nice: int) -> None:
    os.nice(nice)

    async def main() -> Counter[str]:
        return await FLOODS[name](targets, stop, lambda: results.put("ready"))

    try:
        results.put(dict(asyncio.run(main())))
    except BaseException as error:
        results.put(f"the flood failed: {error!r}")
        raise


# --- the unrelated player ------------------------------------------------------------------------


@dataclass
class Player:
    """A hot-seat game of eight seats at :data:`PLAYER`, one action every :data:`PACE` seconds."""

    targets: Targets
    latencies: list[float] = field(default_factory=list)
    lost: Counter[str] = field(default_factory=Counter)
    acknowledged: int = 0
    games: list[str] = field(default_factory=list)
    token: str = ""
    ws: ClientConnection | None = None
    state: dict[str, Any] = field(default_factory=dict)

    async def sit_down(self) -> None:
        """Join a new game, or the current one again (each flood starts with a connection made before
        it, as a player who was there)."""
        if not self.games or self.state.get("over"):
            async with client(PLAYER) as http:
                body = {"seats": [{"name": f"P{n}"} for n in range(8)], "hotseat": True}
                response = await http.post(f"{self.targets.http}/api/games", json=body)
                response.raise_for_status()
                game = response.json()
            self.games.append(game["id"])
            self.token = game["host_token"]
        url = f"{self.targets.ws}/ws/{self.games[-1]}?changes=1"
        self.ws = await connect(url, local_addr=(PLAYER, 0), open_timeout=10)
        await self.ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
        while (message := orjson.loads(await self.ws.recv()))["type"] != "welcome":
            if message["type"] == "state":
                self.state = message["state"]
        self.state = orjson.loads(await self.ws.recv())["state"]

    def decide(self) -> dict[str, Any]:
        return self.decide_for(self.state)

    @staticmethod
    def decide_for(state: dict[str, Any]) -> dict[str, Any]:
        if state["turn"]["dice"] is None:
            return {"action": "roll"}
        if state["placements"]:
            return {
                "action": "score",
                "box": max(state["placements"], key=lambda k: state["placements"][k]["points"]),
            }
        return {"action": "strike", "box": state["strikeable"][0]}

    async def act(self) -> None:
        """One action and its round trip; a refusal, a lost connection or no answer in 10 s is an
        action lost (after a refusal the player asks for the state and goes on from there)."""
        if self.ws is None and not await self.rejoin():
            return
        assert self.ws is not None
        sent = self.state["seq"]
        started = time.monotonic()
        try:
            await self.ws.send(
                orjson.dumps({"type": "action", "seq": sent, "action": self.decide()}).decode()
            )
            async with asyncio.timeout(10):
                refused = False
                while True:
                    message = orjson.loads(await self.ws.recv())
                    if message["type"] == "error" and not refused:
                        self.lost[message["code"]] += 1
                        refused = True
                        await self.ws.send('{"type": "state"}')
                    elif message["type"] == "state":
                        self.state = message["state"]
                        if refused:
                            return
                    elif message["type"] == "change" and message["base"] == self.state["seq"]:
                        self.state = message["state"] | {"rules": self.state["rules"]}
                    elif message["type"] == "change":
                        await self.ws.send('{"type": "state"}')
                    if self.state["seq"] > sent and not refused:
                        self.latencies.append(time.monotonic() - started)
                        self.acknowledged += 1
                        return
        except TimeoutError:
            self.lost["no answer"] += 1
        except WebSocketException:
            self.lost["connection lost"] += 1
            self.ws = None

    async def rejoin(self) -> bool:
        try:
            await self.sit_down()
        except (OSError, TimeoutError, WebSocketException, httpx.HTTPError):
            self.lost["could not connect"] += 1
            self.ws = None
            return False
        return True

    async def play(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.state["over"]:
                await self.leave()
                await self.sit_down()
            await self.act()
            await asyncio.sleep(PACE)

    async def leave(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None


# --- the run ---------------------------------------------------------------------------------------


async def newcomer(targets: Targets) -> str:
    """What someone arriving during the flood meets: the home page, and a table's socket."""
    seen = []
    async with client(NEWCOMER) as http:
        try:
            seen.append(f"page {(await http.get(targets.http + '/')).status_code}")
        except httpx.HTTPError as error:
            seen.append(f"page {type(error).__name__}")
    try:
        url = f"{targets.ws}/ws/{targets.watched}"
        async with connect(url, local_addr=(NEWCOMER, 0), open_timeout=10) as ws:
            seen.append("socket " + orjson.loads(await asyncio.wait_for(ws.recv(), 10))["type"])
    except InvalidStatus as refused:
        seen.append(f"socket {refused.response.status_code}")
    except (OSError, TimeoutError, WebSocketException) as error:
        seen.append(f"socket {type(error).__name__}")
    return ", ".join(seen)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def play_on(port: int, game_id: str, token: str, actions: int) -> None:
    """Play ``actions`` actions of a hot-seat game (rolling once, then scoring or striking), within the
    allowance: a table's state then carries as many lines of its log as a state can (the socket floods
    are sent it, as they would be in the middle of a game)."""
    async with connect(f"ws://127.0.0.1:{port}/ws/{game_id}?changes=1", local_addr=(SETUP, 0)) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        while (message := orjson.loads(await ws.recv()))["type"] != "welcome":
            pass
        state = orjson.loads(await ws.recv())["state"]
        for _ in range(actions):
            action = Player.decide_for(state)
            await ws.send(orjson.dumps({"type": "action", "seq": state["seq"], "action": action}).decode())
            sent = state["seq"]
            while state["seq"] <= sent:
                message = orjson.loads(await ws.recv())
                assert message["type"] != "error", message
                if message["type"] == "change":
                    state = message["state"] | {"rules": state["rules"]}
            await asyncio.sleep(0.1)


async def prepare(port: int) -> Targets:
    """The floods' games, and the solver's answers for them ready (the first time: solved)."""
    async with client(SETUP) as http:
        base = f"http://127.0.0.1:{port}"

        async def new(body: dict[str, Any]) -> dict[str, Any]:
            response = await http.post(f"{base}/api/games", json=body)
            response.raise_for_status()
            game: dict[str, Any] = response.json()
            return game

        watched = await new({"seats": [{"name": f"P{n}"} for n in range(8)], "hotseat": True})
        chances = await new({"options": {"strict": "on"}, "seats": [{"name": "Ada"}, {"name": "Bob"}]})
        hinted = await new({"options": {"strict": "on"}, "seats": [{"name": "Ada"}, {"name": "Bob"}]})
        token = hinted["seats"][0]["token"]
        async with connect(f"ws://127.0.0.1:{port}/ws/{hinted['id']}", local_addr=(SETUP, 0)) as ws:
            await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
            await ws.send('{"type": "action", "seq": 0, "action": {"action": "roll"}}')
            while (orjson.loads(await ws.recv()).get("state") or {}).get("seq") != 1:
                pass
        await play_on(port, watched["id"], watched["host_token"], 60)
        targets = Targets(port, watched["id"], chances["id"], hinted["id"], token)
        print("preparing the solver's answers (the first time this solves tables)...", file=sys.stderr)
        hints = await http.get(
            f"{base}/api/games/{hinted['id']}/hints", headers={"x-kniffel-token": token}, timeout=600
        )
        hints.raise_for_status()
        for _ in range(300):
            answer = await http.get(f"{base}/api/games/{chances['id']}/chances", timeout=600)
            if answer.status_code == 200 and "chances" in answer.json():
                break
            await asyncio.sleep(2)
        else:
            raise RuntimeError("the chances of winning never came")
        return targets


def measure(
    name: str, targets: Targets, player: Player, seconds: float, server_pid: int, nice: int
) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    results: Queue[Any] = context.Queue()
    flood = context.Process(target=run_flood, args=(name, targets, stop, results, nice))

    async def window() -> dict[str, Any]:
        await player.sit_down()
        flood.start()
        loop = asyncio.get_running_loop()
        if (said := await loop.run_in_executor(None, results.get, True, 600)) != "ready":
            raise RuntimeError(said)
        before = len(player.latencies), sum(player.lost.values())
        load_before, cpu_before, started = os.getloadavg()[0], cpu_seconds(server_pid), time.monotonic()
        hinted = Hinted(f"{targets.http}/api/games/{targets.hints}/hints", targets.hints_token)
        fresh = Fresh(targets, server_pid)
        await asyncio.gather(player.play(seconds), hinted.ask(seconds), fresh.run(seconds))
        cpu = (cpu_seconds(server_pid) - cpu_before) / (time.monotonic() - started)
        arriving = await newcomer(targets)
        load_after = os.getloadavg()[0]
        stop.set()
        outcomes = await loop.run_in_executor(None, results.get, True, 120)
        if not isinstance(outcomes, dict):
            raise RuntimeError(outcomes)
        await player.leave()
        times = player.latencies[before[0] :]
        return {
            "flood": name,
            "actions": len(times),
            "p50": 1000 * statistics.median(times) if times else float("nan"),
            "p95": 1000 * percentile(times, 0.95),
            "p99": 1000 * percentile(times, 0.99),
            "lost": sum(player.lost.values()) - before[1],
            "server_cpu": cpu,
            "load": (load_before, load_after),
            "outcomes": outcomes,
            "newcomer": arriving,
            "fresh": fresh.figures(percentile),
            **hinted.figures(percentile),
        }

    try:
        return asyncio.run(window())
    finally:
        stop.set()
        flood.join(30)
        if flood.is_alive():
            flood.kill()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--flood", action="append", choices=list(FLOODS), help="this flood (repeat; default: all)"
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each flood (15)")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument(
        "--open-files", type=int, default=1024, help="the server's limit (1024; 0: the system's)"
    )
    parser.add_argument("--server-log", type=Path, default=None, help="keep the server's log here")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="run the floods at this niceness (e.g. 10: a remote attacker's CPU is not the server's)",
    )
    parser.add_argument(
        "--server-source",
        type=Path,
        default=None,
        help="run the server from this src folder (another checkout's, to compare with another version)",
    )
    parser.add_argument("--cache-dir", type=Path, default=None, help="the server's table cache (usual)")
    parser.add_argument("--cache-budget", default=None, help="the server's KNIFFEL_CACHE_BUDGET (1GB)")
    args = parser.parse_args()
    floods = args.flood or [name for name in FLOODS if name not in BOUNDS]
    with tempfile.TemporaryDirectory() as directory:
        url = args.database_url or f"sqlite:///{directory}/games.sqlite3"
        source = {"PYTHONPATH": str(args.server_source.resolve())} if args.server_source else {}
        if args.cache_budget:
            source["KNIFFEL_CACHE_BUDGET"] = args.cache_budget
        server = ServerProcess(
            url,
            bot_delay=0.6,
            env=source,
            open_files=args.open_files or None,
            log_path=args.server_log,
            cache_dir=args.cache_dir,
        ).start()
        try:
            assert server.process is not None
            targets = asyncio.run(prepare(server.port))
            player = Player(targets)
            print(
                f"{'flood':<18} {'actions':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'lost':>4} "
                f"{'hints p50/p95/max ms':>21} {'busy':>4} "
                f"{'server CPU':>10}  load       a newcomer meets       what the flood got"
            )
            for name in floods:
                row = measure(name, targets, player, args.seconds, server.process.pid, args.nice)
                got = ", ".join(f"{key} {n}" for key, n in sorted(row["outcomes"].items()))
                hints = f"{row['hints_p50']:.0f}/{row['hints_p95']:.0f}/{row['hints_max']:.0f}"
                print(
                    f"{name:<18} {row['actions']:>7} {row['p50']:>7.1f} {row['p95']:>7.1f} "
                    f"{row['p99']:>7.1f} {row['lost']:>4} {hints:>21} {row['hints_busy']:>4} "
                    f"{row['server_cpu']:>9.0%}  "
                    f"{row['load'][0]:.1f}-{row['load'][1]:.1f}   {row['newcomer']:<22} {got}; "
                    f"{row['fresh']}",
                    flush=True,
                )
            saved = 0
            with httpx.Client(transport=httpx.HTTPTransport(local_address=PLAYER), timeout=30) as http:
                for game_id in player.games:
                    saved += len(http.get(f"{server.url}/api/games/{game_id}/export").json()["actions"])
            print(
                f"the player's actions acknowledged {player.acknowledged}, saved {saved}"
                f"{'' if saved == player.acknowledged else '  (MISMATCH)'}; refused or unanswered: "
                f"{dict(player.lost) or 'none'}"
            )
        finally:
            server.stop()
        from kniffel.core import tables_size

        print(f"solved tables on disk at the end: {tables_size(args.cache_dir) / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
