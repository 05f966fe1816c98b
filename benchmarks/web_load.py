"""Load test of the web server: hundreds of simulated players over WebSocket on loopback.

Starts ``--processes`` servers (``kniffel serve``) on one database (a fresh SQLite file for one
process; several processes need PostgreSQL: ``--database-url postgresql+psycopg://...``), or uses
``--url``. Players sit at two-player tables; a table plays one game after another until the time is
up, each game created over HTTP like a browser would. The two players of a table connect to different
processes, so with several processes every action travels from one process to the other through the
database's announcements. Players roll, keep the most common face and roll again once, then score the
best-paying box. The round trip of an action is the time from sending it to receiving the state that
contains it: checking, committing to the database and broadcasting.

    .venv/bin/python benchmarks/web_load.py --players 300 --duration 20             # saturated
    .venv/bin/python benchmarks/web_load.py --players 300 --duration 20 --think 1   # human pace
    .venv/bin/python benchmarks/web_load.py --players 2000 --think 1 --processes 3 \\
        --database-url postgresql+psycopg://kniffel:kniffel@127.0.0.1:5432/kniffel_test

``--bot-games 1000`` adds that many watched all-bot games (the bots move every ``--bot-delay`` seconds,
0.6 as served) to see what they leave the people: their moves share a small pool of workers.

Reports actions per second, the p50/p99 round trip, the games finished and every error by code. A
player never acts on a finished game and waits for the next state after an error, so the counts are
honest: an error is a refusal the server really sent. Without ``--think`` every player acts the moment
it may, so the server is saturated and the latency is mostly queueing; ``--think`` pauses each player
before each action, as people do. It also reports the CPU time the started servers and the generator
spent while the clock ran (per action) and how late the generator's own event loop woke: one asyncio
process gets at most one core, less when others keep the machine busy, so ``--generators 3`` spreads
the players over three processes that start together.

Each table's first game is played at full speed to a random round before the clock starts, so that
at any moment some tables end a game and create the next, as on a real server; with ``--together``
every table starts a new game at the clock, all of them end it within the same few seconds (about 78
s in, at 1 s of thought), and the creation of a thousand games and two thousand connections at once
shows as a burst. Besides the whole run's p99, each 10 s of it gets its own (and so does the
generator's own lag), which tells a steady tail from one moment's.

On 2 cores with nothing else running (the servers, PostgreSQL and the generators share them),
PostgreSQL, ``--duration 90``:

    .venv/bin/python benchmarks/web_load.py --players 2000 --think 1 --processes 3 --generators 3 \\
        --duration 90 --database-url postgresql+psycopg://kniffel:kniffel@127.0.0.1:5432/kniffel_load

2,000 players at 1 s of thought across three processes make about 985 actions a second with a p99
under the goal of 50 ms (26-45 ms), single 10 s stretches up to about 80 ms while PostgreSQL's
autovacuum and autoanalyze (each action updates its game's row) share the cores; on one process the
p99 is about 11 ms. Saturated (300 players without thought) one server makes about 3,200 actions a
second, three about 2,500. With ``--together`` the play itself keeps a p99 of 12-16 ms and the burst
of a thousand new games takes 170-320 ms.

Where the time goes: with several servers an action costs about twice the CPU, because the two seats
of a table sit on different processes and each action is applied and sent by both; an action waits
for its group commit (one transaction for the actions arriving meanwhile); the cycle collector's
pauses hold every action of their process, which is why the server paces it
(:func:`kniffel.apps.web.pace_collections`); and on a machine shared with other work the servers and
the generators wait for a core, which the generator's own lag shows.
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
from collections.abc import Coroutine
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any, TypeVar

import httpx
import machine
import orjson
import tests_path  # noqa: F401  (puts tests/ on sys.path for the support package)
from websockets.asyncio.client import ClientConnection, connect

from kniffel.apps.web import pace_collections
from support.web import ServerProcess

T = TypeVar("T")


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    """When each of ``latencies`` was sent (the system's monotonic clock, shared by the generators)."""
    started: float = 0.0
    """When the clock started (same clock)."""
    errors: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    games_started: int = 0
    bot_states: int = 0
    resyncs: int = 0
    """Changes that did not follow the position a player held (each made it ask for the whole state)."""
    cpu_servers: float = 0.0
    """CPU seconds the started servers used while the clock ran (0 for servers given by ``--url``)."""
    cpu_generator: float = 0.0
    """CPU seconds this load generator used while the clock ran."""
    lags: list[float] = field(default_factory=list)
    lagged: list[float] = field(default_factory=list)
    """When each of ``lags`` was taken."""
    """How late the generator's own event loop woke up, sampled while the clock ran: a round trip
    includes this much of the generator's own waiting."""


class Player:
    """One seat of one game, on one server process."""

    def __init__(
        self, ws_url: str, game_id: str, seat: int, token: str, results: Results, think: float
    ) -> None:
        self.think = think
        self.url = f"{ws_url}/ws/{game_id}?changes=1"
        self.seat = seat
        self.token = token
        self.results = results
        self.state: dict[str, Any] | None = None
        self.errors = 0
        self.changed = asyncio.Event()
        self.turns = 0
        """Turns a player has in a game, from the first whole state."""

    async def read(self, ws: ClientConnection) -> None:
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "change":
                # A player needs neither the rules nor the log a change leaves out, so it keeps the
                # change as its state; one that follows another position than ours means a message
                # went missing, and the whole state is asked for.
                if self.state is None or message["base"] != self.state["seq"]:
                    self.results.resyncs += 1
                    await ws.send('{"type": "state"}')
                    continue
                self.state = message["state"]
            elif message["type"] == "state":
                self.state = message["state"]
                self.turns = self.state["rules"]["turns"]
            elif message["type"] == "error":
                self.results.errors[message["code"]] += 1
                self.errors += 1
            self.changed.set()

    def seq(self) -> int:
        return -1 if self.state is None else int(self.state["seq"])

    async def next_change(self, deadline: float) -> None:
        # asyncio.timeout rather than wait_for: no task per wait, and the generator shares the cores
        # with the servers it measures.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.01, deadline - time.monotonic())):
                await self.changed.wait()
        self.changed.clear()

    def decide(self, state: dict[str, Any]) -> dict[str, Any]:
        turn = state["turn"]
        if turn["dice"] is None:
            return {"action": "roll"}
        face, count = Counter(turn["dice"]).most_common(1)[0]
        if turn["rolls"] < 2 and state["can_roll"] and count < len(turn["dice"]):
            return {"action": "roll", "keep": [face] * count}
        if state["placements"]:
            box = max(state["placements"], key=lambda k: state["placements"][k]["points"])
            return {"action": "score", "box": box}
        return {"action": "strike", "box": state["strikeable"][0]}

    async def play(self, start: float, deadline: float, until: float = 1.0) -> bool:
        """Play this seat from ``start`` until the game is over (``True``) or the time is up (``False``);
        with ``until`` below 1, only until that share of the game's rounds has been played."""
        async with connect(self.url, max_size=2**22, open_timeout=60) as ws:
            reader = asyncio.create_task(self.read(ws))
            await ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            first_round: int | None = None
            try:
                while time.monotonic() < deadline:
                    state = self.state
                    if state is not None and state["over"]:
                        return True
                    if state is not None and until < 1:
                        first_round = state["round"] if first_round is None else first_round
                        if state["round"] - first_round >= int(until * self.turns):
                            return False
                    if state is None or state["current"] != self.seat:
                        await self.next_change(deadline)
                        continue
                    if self.think:
                        await asyncio.sleep(random.uniform(0.5, 1.5) * self.think)
                    sent, errors = state["seq"], self.errors
                    message = {"type": "action", "seq": sent, "action": self.decide(state)}
                    sent_at = time.monotonic()
                    await ws.send(orjson.dumps(message).decode())
                    while self.seq() <= sent and self.errors == errors and time.monotonic() < deadline:
                        await self.next_change(deadline)
                    if self.seq() > sent:
                        self.results.latencies.append(time.monotonic() - sent_at)
                        self.results.sent.append(sent_at)
                    elif self.errors != errors:
                        await self.next_change(min(deadline, time.monotonic() + 1))  # the fresh state
                return False
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await reader


async def create_game(client: httpx.AsyncClient, rules: str, results: Results) -> dict[str, Any] | None:
    body = {"rules": rules, "seats": [{"name": "A"}, {"name": "B"}]}
    response = await client.post("/api/games", json=body)
    if response.status_code != 201:
        results.errors[f"create {response.status_code}"] += 1
        return None
    results.games_started += 1
    game: dict[str, Any] = response.json()
    return game


async def advance(number: int, urls: list[str], game: dict[str, Any] | None, until: float) -> None:
    """Play ``game`` at full speed until ``until`` of its rounds are over, before the clock starts: the
    tables of a real server are at every point of their games, and would not all end them (and
    create the next) within the same few seconds."""
    if game is None or until <= 0:
        return
    now = time.monotonic()
    players = seated(number, urls, game, Results(), think=0.0)
    await asyncio.gather(*(p.play(now, now + 600, until) for p in players))


def seated(
    number: int, urls: list[str], game: dict[str, Any], results: Results, think: float
) -> list[Player]:
    """The players of table ``number``'s ``game``: seat ``i`` on process ``number + i`` (mod the
    number of processes)."""
    return [
        Player(
            urls[(number + seat["index"]) % len(urls)].replace("http", "ws", 1),
            game["id"],
            seat["index"],
            seat["token"],
            results,
            think,
        )
        for seat in game["seats"]
    ]


async def table(
    number: int,
    urls: list[str],
    client: httpx.AsyncClient,
    first: dict[str, Any] | None,
    rules: str,
    think: float,
    results: Results,
    start: float,
    deadline: float,
) -> None:
    """Two players playing one game after another until ``deadline``, the first one from ``start``;
    seat ``i`` connects to process ``number + i`` (mod the number of processes), games are created
    through ``client`` (one per process: each new HTTP client costs milliseconds of CPU)."""
    game = first
    while time.monotonic() < deadline:
        if game is None:
            await asyncio.sleep(1)
            game = await create_game(client, rules, results)
            continue
        players = seated(number, urls, game, results, think)
        over = await asyncio.gather(*(p.play(start, deadline) for p in players))
        if not all(over):
            return  # the time is up
        results.games_finished += 1
        game = await create_game(client, rules, results)


async def watch(ws_url: str, game_id: str, deadline: float, results: Results) -> None:
    """Watch a bot game (bots move only in watched games) until ``deadline``, counting its moves."""
    async with connect(f"{ws_url}/ws/{game_id}", max_size=2**22, open_timeout=60) as ws:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                async for _ in ws:
                    results.bot_states += 1


async def meter(pids: list[int], start: float, deadline: float, results: Results) -> None:
    """The CPU time the servers and this generator spend from ``start`` to ``deadline``: setting up
    games and connections before the clock starts is not part of serving actions."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    servers, own = sum(map(cpu_seconds, pids)), time.process_time()
    while (now := time.monotonic()) < deadline:
        await asyncio.sleep(0.01)
        results.lags.append(time.monotonic() - now - 0.01)
        results.lagged.append(now)
    results.cpu_servers = sum(map(cpu_seconds, pids)) - servers
    results.cpu_generator = time.process_time() - own


async def run(
    urls: list[str],
    players: int,
    duration: float,
    rules: str,
    think: float,
    bot_games: int = 0,
    pids: tuple[int, ...] = (),
    together: bool = False,
    *,
    part: int = 0,
    parts: int = 1,
    ready: Barrier | None = None,
) -> tuple[Results, float]:
    """Create the first game of every ``parts``-th table from ``part`` on (and as many of the
    ``bot_games`` watched all-bot games), wait at ``ready`` for the other parts, connect everybody, then
    play for ``duration`` seconds; ``pids`` are the server processes whose CPU time is measured."""
    results = Results()
    tables = range(part, (players + 1) // 2, parts)
    gate = asyncio.Semaphore(32)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=60)) for url in urls
        ]

        async def first_game(number: int) -> dict[str, Any] | None:
            async with gate:
                return await create_game(clients[number % len(urls)], rules, results)

        firsts = dict(zip(tables, await asyncio.gather(*(first_game(n) for n in tables)), strict=True))

        async def bot_game(number: int) -> str:
            async with gate:
                body = {"rules": rules, "seats": [{"name": "R", "kind": "bot"}, {"name": "M", "kind": "bot"}]}
                response = await clients[number % len(urls)].post("/api/games", json=body)
                response.raise_for_status()
                game_id: str = response.json()["id"]
                return game_id

        bots = await asyncio.gather(*(bot_game(n) for n in range(part, bot_games, parts)))
        if not together:
            phases = random.Random(part)
            await asyncio.gather(*(advance(n, urls, firsts[n], phases.random()) for n in tables))
        if ready is not None:
            await asyncio.to_thread(ready.wait)  # every part starts its clock together (one system clock)
        # Time to connect every player before the clock starts (a few hundred connections a second).
        start = time.monotonic() + 2.0 + players / 300
        deadline = start + duration
        results.started = start
        await asyncio.gather(
            meter(list(pids), start, deadline, results),
            *(
                table(n, urls, clients[n % len(urls)], firsts[n], rules, think, results, start, deadline)
                for n in tables
            ),
            *(
                watch(urls[n % len(urls)].replace("http", "ws", 1), game_id, deadline, results)
                for n, game_id in enumerate(bots)
            ),
        )
    return results, deadline - start


def play_out(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on uvloop where it is installed (uvicorn's ``standard`` extra brings it on
    Linux and macOS): the generator shares the cores with the servers it measures, and asyncio's own
    loop spent a fifth of its time scheduling callbacks and timers."""
    # The generator holds a thousand players' states and as many connections: unpaced, its own cycle
    # collector walked all of them every few seconds, and that pause counted as the servers' latency.
    pace_collections()
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def generate(
    queue: Queue[tuple[Results, float]], ready: Barrier, part: int, parts: int, *arguments: Any
) -> None:
    """One of ``--generators`` processes: play its part of the tables and hand back what it measured."""
    queue.put(play_out(run(*arguments, part=part, parts=parts, ready=ready)))


def run_parts(parts: int, *arguments: Any) -> tuple[Results, float]:
    """:func:`run` in ``parts`` processes, merged; only the first one meters the servers' CPU time. One
    asyncio process gets about one core at most (less on a machine others keep busy), so a single
    generator can become what limits the figures."""
    if parts == 1:
        return play_out(run(*arguments))
    context = multiprocessing.get_context("spawn")
    queue: Queue[tuple[Results, float]] = context.Queue()
    ready = context.Barrier(parts)
    urls, players, duration, rules, think, bot_games, pids, together = arguments
    workers = [
        context.Process(
            target=generate,
            args=(
                queue,
                ready,
                n,
                parts,
                urls,
                players,
                duration,
                rules,
                think,
                bot_games,
                pids if n == 0 else (),
                together,
            ),
        )
        for n in range(parts)
    ]
    for worker in workers:
        worker.start()
    gathered = [queue.get() for _ in workers]
    for worker in workers:
        worker.join()
    merged, elapsed = Results(started=gathered[0][0].started), gathered[0][1]
    for results, _ in gathered:
        merged.latencies += results.latencies
        merged.sent += results.sent
        merged.errors += results.errors
        merged.games_finished += results.games_finished
        merged.games_started += results.games_started
        merged.bot_states += results.bot_states
        merged.resyncs += results.resyncs
        merged.cpu_servers += results.cpu_servers
        merged.cpu_generator += results.cpu_generator
        merged.lags += results.lags
        merged.lagged += results.lagged
    return merged, elapsed


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) a process has used so far; 0 where ``/proc`` is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


UNLIMITED = {
    # The limits per client protect against floods, not against one machine playing many players.
    "KNIFFEL_WS_RATE": "1000000",
    "KNIFFEL_WS_BURST": "1000000",
    "KNIFFEL_CREATE_RATE": "1000000",
    "KNIFFEL_CREATE_BURST": "1000000",
    "KNIFFEL_SOCKETS_PER_CLIENT": "1000000",
}


WINDOW = 10.0
"""Seconds of each part of the run whose p99 is shown on its own: a tail that comes from one moment
(every table of a run ends its first game at about the same time) shows as one high part."""


def windowed_p99(times: list[float], values: list[float], started: float, elapsed: float) -> str:
    """The p99 in ms of the ``values`` taken at ``times`` in each :data:`WINDOW` of the run."""
    parts: list[list[float]] = [[] for _ in range(max(1, round(elapsed / WINDOW)))]
    for at, value in zip(times, values, strict=True):
        parts[min(len(parts) - 1, max(0, int((at - started) / WINDOW)))].append(value)
    return " ".join(f"{percentile(part, 0.99) * 1000:.0f}" if part else "-" for part in parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play (bounded)")
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--think", type=float, default=0.0, help="mean pause before each action (s)")
    parser.add_argument("--processes", type=int, default=1, help="server processes on one database")
    parser.add_argument("--bot-games", type=int, default=0, help="watched all-bot games alongside")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="the servers' pause between bot moves")
    parser.add_argument("--generators", type=int, default=1, help="load generator processes (1)")
    parser.add_argument("--url", action="append", help="an already running server (repeatable)")
    parser.add_argument("--database-url", default=None, help="database of the started servers")
    parser.add_argument("--server-logs", type=Path, default=None, help="keep the servers' logs in FOLDER")
    parser.add_argument(
        "--together",
        action="store_true",
        help="every table starts a new game when the clock starts (by default each first game is played "
        "at full speed to a random round beforehand, so that games end and begin all the time)",
    )
    args = parser.parse_args()
    print(machine.header(machine.describe()), flush=True)
    if args.processes > 1 and not args.url and not (args.database_url or "").startswith("postgresql"):
        sys.exit(
            "several processes share a PostgreSQL database: pass --database-url postgresql+psycopg://..."
        )
    servers: list[ServerProcess] = []
    with tempfile.TemporaryDirectory() as directory:
        urls = args.url
        if not urls:
            database = args.database_url or f"sqlite:///{Path(directory) / 'load.sqlite3'}"
            for n in range(args.processes):
                servers.append(
                    ServerProcess(
                        database,
                        bot_delay=args.bot_delay,
                        env=UNLIMITED,
                        log_path=(args.server_logs or Path(directory)) / f"server{n}.log",
                    ).launch()
                )
            try:
                urls = [server.wait().url for server in servers]
            except RuntimeError:
                for server in servers:  # one that failed to start must not leave the others running
                    server.stop()
                raise
        pids = tuple(server.process.pid for server in servers if server.process is not None)
        try:
            results, elapsed = run_parts(
                args.generators,
                urls,
                args.players,
                args.duration,
                args.rules,
                args.think,
                args.bot_games,
                pids,
                args.together,
            )
        finally:
            for server in servers:
                server.stop()
    latencies = results.latencies or [float("nan")]
    tables = (args.players + 1) // 2
    print(
        f"players          {args.players} at {tables} two-player tables of {args.rules}, think {args.think} s"
    )
    print(f"processes        {len(urls)} serving, {args.generators} generating")
    print(f"first games      {'all new at the start' if args.together else 'each from a random round'}")
    print(f"duration         {elapsed:.1f} s")
    print(f"actions          {len(results.latencies)}")
    print(f"actions/s        {len(results.latencies) / elapsed:.0f}")
    print(f"round trip p50   {percentile(latencies, 0.50) * 1000:.1f} ms")
    print(f"round trip p99   {percentile(latencies, 0.99) * 1000:.1f} ms")
    print(f"round trip mean  {statistics.fmean(latencies) * 1000:.1f} ms")
    print(
        f"p99 by {WINDOW:.0f} s      "
        f"{windowed_p99(results.sent, results.latencies, results.started, elapsed)} ms"
    )
    lags = [lag * 1000 for lag in results.lags] or [float("nan")]
    print(f"generator lag    p50 {percentile(lags, 0.5):.1f} ms, p99 {percentile(lags, 0.99):.1f} ms")
    lagged = windowed_p99(results.lagged, results.lags, results.started, elapsed)
    print(f"lag p99 by {WINDOW:.0f} s  {lagged} ms")
    print(f"games            {results.games_finished} finished of {results.games_started} started")
    if args.bot_games:
        print(f"bot games        {args.bot_games} watched, {results.bot_states} bot states sent")
    print(f"errors           {dict(results.errors) or 0}")
    print(f"resyncs          {results.resyncs}")
    # While the clock ran: how much of the 2 cores each side took, and what one action cost.
    per_action = 1000 / max(1, len(results.latencies))
    print(
        f"cpu while timed  servers {results.cpu_servers:.1f} s ({results.cpu_servers * per_action:.2f} ms "
        f"an action), load generator {results.cpu_generator:.1f} s "
        f"({results.cpu_generator * per_action:.2f} ms an action)"
    )
    print(f"load average     {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    if not results.latencies:
        sys.exit("no action completed")


if __name__ == "__main__":
    main()
