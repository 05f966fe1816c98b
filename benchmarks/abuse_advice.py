"""The advice floods of ``web_abuse.py`` and the seated player whose hints they must not hold up.

- ``chances-12``: twelve addresses each ask one table's ``/chances`` in bursts within their own allowance
  (the whole burst of 50 at once, then 5 at once every second, 5 a second being the allowance) for the
  length of the flood;
- ``combinations``: four addresses make a two-player game of each of 79 rule/option combinations of the
  rule sets with one column (every value of every option), and ask every one's ``/chances`` every 5 s
  (each combination's tables are solved the first time: the disk and the worker are what it is after).

Meanwhile a seated player on an address of its own (:data:`HINTED`) asks its hints once a second; its
p50/p95/max and the answers ``busy`` are what these floods are measured by (the targets: p95 < 200 ms,
max < 2 s, none busy).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from typing import Any, Protocol

import httpx

HINTED = "127.0.0.5"
FLOOD_ADDRESSES = [f"127.0.0.{100 + n}" for n in range(12)]
COMBINATION_ADDRESSES = [f"127.0.0.{120 + n}" for n in range(4)]
COMBINATIONS = 79
ASK_EVERY = 5.0
"""Seconds between two asks of one combination's chances."""


class Aim(Protocol):
    port: int
    chances: str

    @property
    def http(self) -> str: ...


def client(address: str, connections: int = 16) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx.AsyncClient(
        transport=httpx.AsyncHTTPTransport(local_address=address, limits=limits), timeout=30
    )


async def flood_chances_many(targets: Aim, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    """``chances-12`` (module docstring)."""
    outcomes: Counter[str] = Counter()
    url = f"{targets.http}/api/games/{targets.chances}/chances"

    async def one(http: httpx.AsyncClient) -> None:
        try:
            response = await http.get(url)
            status = (
                response.json().get("status", response.json().get("error", "")) if response.content else ""
            )
            outcomes[f"chances {response.status_code} {status}".strip()] += 1
        except httpx.HTTPError as error:
            outcomes[f"chances {type(error).__name__}"] += 1

    async def address(where: str) -> None:
        async with client(where, 10) as http:
            await asyncio.gather(*(one(http) for _ in range(50)))
            while not stop.is_set():
                started = time.monotonic()
                await asyncio.gather(*(one(http) for _ in range(5)))
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - started)))

    ready()
    await asyncio.gather(*(address(where) for where in FLOOD_ADDRESSES))
    return outcomes


def combinations() -> list[tuple[str, dict[str, str]]]:
    """The first :data:`COMBINATIONS` of every rule set the solver covers (one column) with every
    combination of its options' values (80 in all)."""
    from kniffel import rules

    found: list[tuple[str, dict[str, str]]] = []
    for rules_id in rules.available():
        if rules.get(rules_id).multi_column:
            continue
        options = rules.options_for(rules_id)
        for values in itertools.product(*(o.values for o in options)):
            found.append((rules_id, {o.key: v for o, v in zip(options, values, strict=True)}))
    return found[:COMBINATIONS]


async def flood_combinations(targets: Aim, stop: Event, ready: Callable[[], None]) -> Counter[str]:
    """``combinations`` (module docstring)."""
    outcomes: Counter[str] = Counter()
    wanted = combinations()
    games: dict[str, list[str]] = {where: [] for where in COMBINATION_ADDRESSES}
    for n, (rules_id, options) in enumerate(wanted):
        where = COMBINATION_ADDRESSES[n % len(COMBINATION_ADDRESSES)]
        async with client(where) as http:
            body = {"rules": rules_id, "options": options, "seats": [{"name": "Ada"}, {"name": "Bob"}]}
            response = await http.post(f"{targets.http}/api/games", json=body)
            outcomes[f"created {response.status_code}"] += 1
            if response.status_code == 201:
                games[where].append(response.json()["id"])

    async def address(where: str) -> None:
        async with client(where) as http:
            while not stop.is_set():
                started = time.monotonic()
                for game_id in games[where]:
                    try:
                        response = await http.get(f"{targets.http}/api/games/{game_id}/chances")
                        body = (
                            response.json()
                            if response.headers.get("content-type") == "application/json"
                            else {}
                        )
                        outcomes[
                            f"chances {response.status_code} {body.get('status', body.get('error'))}"
                        ] += 1
                    except httpx.HTTPError as error:
                        outcomes[f"chances {type(error).__name__}"] += 1
                await asyncio.sleep(max(0.0, ASK_EVERY - (time.monotonic() - started)))

    ready()
    await asyncio.gather(*(address(where) for where in COMBINATION_ADDRESSES))
    outcomes["combinations"] = len(wanted)
    return outcomes


@dataclass
class Hinted:
    """A seated player asking its own hints once a second from :data:`HINTED`."""

    url: str
    token: str
    latencies: list[float] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)

    async def ask(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        async with client(HINTED) as http:
            while time.monotonic() < deadline:
                started = time.monotonic()
                try:
                    response = await http.get(self.url, headers={"x-kniffel-token": self.token})
                    body = (
                        response.json() if response.headers.get("content-type") == "application/json" else {}
                    )
                    self.answers[f"{response.status_code} {body.get('status', body.get('error'))}"] += 1
                    if response.status_code == 200:
                        self.latencies.append(time.monotonic() - started)
                except httpx.HTTPError as error:
                    self.answers[type(error).__name__] += 1
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - started)))

    def figures(self, percentile: Callable[[list[float], float], float]) -> dict[str, Any]:
        times = self.latencies
        return {
            "hints": len(times),
            "hints_p50": 1000 * percentile(times, 0.5),
            "hints_p95": 1000 * percentile(times, 0.95),
            "hints_max": 1000 * max(times) if times else float("nan"),
            "hints_busy": sum(n for key, n in self.answers.items() if "busy" in key),
            "hints_answers": dict(self.answers),
        }
