"""Load test of the web server: hundreds of simulated players over WebSocket on loopback.

Starts ``python -m kniffel.web`` on a fresh SQLite file (or uses ``--url``), creates two-player games,
connects every player with their own token and lets them play as fast as the server answers: roll,
keep the most common face and roll again once, then score the best-paying box. The round trip of an
action is the time from sending it to receiving the state that contains it, so it includes checking,
committing to the database and broadcasting to both players.

    .venv/bin/python benchmarks/web_load.py --players 300 --duration 20             # saturated
    .venv/bin/python benchmarks/web_load.py --players 300 --duration 20 --think 1   # human pace

Reports actions per second and the p50/p99 round-trip latency. Without ``--think`` every player acts the
moment it may, so the server is saturated and the latency is mostly queueing; ``--think`` pauses each
player before each action, as people do.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from kniffel.web.testing import ServerProcess


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0


class Player:
    def __init__(
        self, ws_url: str, game_id: str, seat: int, token: str, results: Results, think: float
    ) -> None:
        self.think = think
        self.url = f"{ws_url}/ws/{game_id}"
        self.seat = seat
        self.token = token
        self.results = results
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()

    async def read(self, ws: ClientConnection) -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "state":
                self.state = message["state"]
            elif message["type"] == "error":
                self.results.errors[message["code"]] += 1
            self.changed.set()

    def seq(self) -> int:
        return -1 if self.state is None else int(self.state["seq"])

    async def next_change(self) -> None:
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

    async def play(self, deadline: float) -> None:
        async with connect(self.url, max_size=2**22) as ws:
            reader = asyncio.create_task(self.read(ws))
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            try:
                while time.monotonic() < deadline:
                    state = self.state
                    if state is None or state["current"] != self.seat:
                        if state is not None and state["over"]:
                            if self.seat == 0:
                                self.results.games_finished += 1
                            return
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self.next_change(), max(0.01, deadline - time.monotonic()))
                        continue
                    if self.think:
                        await asyncio.sleep(random.uniform(0.5, 1.5) * self.think)
                    sent = state["seq"]
                    message = {"type": "action", "seq": sent, "action": self.decide(state)}
                    start = time.perf_counter()
                    await ws.send(json.dumps(message))
                    errors = sum(self.results.errors.values())
                    while self.seq() <= sent and sum(self.results.errors.values()) == errors:
                        await self.next_change()
                    if self.seq() > sent:
                        self.results.latencies.append(time.perf_counter() - start)
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await reader


async def run(url: str, players: int, duration: float, rules: str, think: float) -> tuple[Results, float]:
    results = Results()
    ws_url = url.replace("http", "ws", 1)
    seats: list[Player] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for _ in range((players + 1) // 2):
            body = {"rules": rules, "seats": [{"name": "A"}, {"name": "B"}]}
            response = await client.post("/api/games", json=body)
            response.raise_for_status()
            game = response.json()
            for seat in game["seats"]:
                seats.append(Player(ws_url, game["id"], seat["index"], seat["token"], results, think))
    start = time.monotonic()
    await asyncio.gather(*(p.play(start + duration) for p in seats[:players]))
    return results, time.monotonic() - start


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play (bounded)")
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--think", type=float, default=0.0, help="mean pause before each action (s)")
    parser.add_argument("--url", default=None, help="an already running server (default: start one)")
    parser.add_argument("--database-url", default=None, help="database of the started server")
    args = parser.parse_args()
    server = None
    with tempfile.TemporaryDirectory() as directory:
        url = args.url
        if url is None:
            database = args.database_url or f"sqlite:///{Path(directory) / 'load.sqlite3'}"
            # The per-connection rate limit protects against floods, not against this benchmark.
            env = {"KNIFFEL_WS_RATE": "10000", "KNIFFEL_WS_BURST": "10000"}
            server = ServerProcess(database, env=env, log_path=Path(directory) / "server.log").start()
            url = server.url
        try:
            results, elapsed = asyncio.run(run(url, args.players, args.duration, args.rules, args.think))
        finally:
            if server is not None:
                server.stop()
    latencies = results.latencies
    if not latencies:
        sys.exit("no action completed")
    games = (args.players + 1) // 2
    print(f"players          {args.players} ({games} two-player games of {args.rules}, think {args.think} s)")
    print(f"duration         {elapsed:.1f} s")
    print(f"actions          {len(latencies)}")
    print(f"actions/s        {len(latencies) / elapsed:.0f}")
    print(f"round trip p50   {percentile(latencies, 0.50) * 1000:.1f} ms")
    print(f"round trip p99   {percentile(latencies, 0.99) * 1000:.1f} ms")
    print(f"round trip mean  {statistics.fmean(latencies) * 1000:.1f} ms")
    print(f"games finished   {results.games_finished}")
    print(f"errors           {dict(results.errors) or 0}")


if __name__ == "__main__":
    main()
