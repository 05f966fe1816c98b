"""An unrelated player's hints while every single-column rule set and option asks for advice at once.

One server (``kniffel serve``, SQLite, a fresh table cache) answers a player on a Kniffel table whose
tables are ready: the player rolls, asks for hints, scores, over and over, and each hint's round trip is
timed. Meanwhile 80 tables, one for each combination of options of the single-column rule sets (Kniffel
16, Yahtzee 48, Yatzy 8, Yatzy-Deluxe 8), each from an address of its own, roll and ask for hints and for
every player's chance of winning as fast as their allowances let them. None of their tables is on disk:
the server's one worker solves them one at a time, and every answer says ``preparing`` until its table is
there. What the player meets is what counts: the p50/p95/p99 of its hints (the goal is a p95 under
200 ms), and what the 80 tables got meanwhile.

    .venv/bin/python benchmarks/web_advice.py [--seconds 60] [--keep-cache DIR]

Nothing here is a test: timings depend on the machine and its load, which is printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import machine
import orjson
import tests_path  # noqa: F401  (puts tests/ on sys.path for the support package)
from websockets.asyncio.client import connect

from kniffel import rules
from support.web import ServerProcess

PLAYER = "127.0.0.2"


def combinations() -> list[tuple[str, dict[str, str]]]:
    """Every combination of options of the rule sets the exact solver covers."""
    found = []
    for rules_id in ("kniffel", "yahtzee", "yatzy", "yatzy-deluxe"):
        options = rules.options_for(rules_id)
        for values in itertools.product(*(option.values for option in options)):
            found.append((rules_id, {o.key: v for o, v in zip(options, values, strict=True)}))
    return found


async def new_table(
    http: httpx.AsyncClient, base: str, rules_id: str, options: dict[str, str], seats: int = 2
) -> dict[str, Any]:
    names = ["Ada", "Bob"][:seats]
    body = {"rules": rules_id, "options": options, "seats": [{"name": name} for name in names]}
    response = await http.post(f"{base}/api/games", json=body, timeout=60)
    response.raise_for_status()
    game: dict[str, Any] = response.json()
    return game


async def receive(ws: Any) -> dict[str, Any]:
    """The next message; an error the server sends, or a minute of silence, ends the table's run."""
    message: dict[str, Any] = orjson.loads(await asyncio.wait_for(ws.recv(), 60))
    if message["type"] == "error":
        raise RuntimeError(f"{message.get('code')}: {message.get('message')}")
    return message


async def roll(ws_base: str, game: dict[str, Any], seq: int, address: str) -> None:
    token = game["seats"][0]["token"]
    async with connect(f"{ws_base}/ws/{game['id']}", local_addr=(address, 0), open_timeout=30) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        await ws.send(orjson.dumps({"type": "action", "seq": seq, "action": {"action": "roll"}}).decode())
        while ((await receive(ws)).get("state") or {}).get("seq") != seq + 1:
            pass


async def asker(
    base: str, ws_base: str, combo: tuple[str, dict[str, str]], address: str, stop: asyncio.Event,
    got: Counter[str],
) -> None:  # fmt: skip
    """One of the 80 tables: roll, then ask for hints and chances until the answers come or time is up."""
    async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address)) as http:
        game = await new_table(http, base, *combo)
        await roll(ws_base, game, 0, address)
        headers = {"x-kniffel-token": game["seats"][0]["token"]}
        hinted = chanced = False
        while not stop.is_set() and not (hinted and chanced):
            for what, done in (("hints", hinted), ("chances", chanced)):
                if done:
                    continue
                answer = await http.get(f"{base}/api/games/{game['id']}/{what}", headers=headers, timeout=60)
                if answer.status_code != 200:
                    got[f"{what} {answer.status_code}"] += 1
                    continue
                body = answer.json()
                if "preparing" in body:
                    got[f"{what} preparing"] += 1
                    continue
                got[f"{what} answered"] += 1
                if what == "hints":
                    hinted = True
                else:
                    chanced = True
            await asyncio.sleep(1.0)  # within the allowances, as a table's page asks


async def player(
    base: str, ws_base: str, stop: asyncio.Event, latencies: list[float], actions: list[float]
) -> None:
    """Roll, ask for hints (timed), score, on Kniffel tables whose tables are ready: a one-seat game
    (every turn is the player's), then the next."""
    async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=PLAYER)) as http:
        while not stop.is_set():
            game = await new_table(http, base, "kniffel", {}, seats=1)
            token = game["seats"][0]["token"]
            headers = {"x-kniffel-token": token}
            async with connect(f"{ws_base}/ws/{game['id']}?changes=1", local_addr=(PLAYER, 0)) as ws:
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                while (await receive(ws))["type"] != "welcome":
                    pass
                state = (await receive(ws))["state"]
                while not stop.is_set() and not state["over"]:
                    if state["current"] != 0 or state["turn"]["dice"] is None:
                        action: dict[str, Any] = {"action": "roll"}
                    else:
                        start = time.perf_counter()
                        answer = await http.get(
                            f"{base}/api/games/{game['id']}/hints", headers=headers, timeout=60
                        )
                        answer.raise_for_status()
                        latencies.append(time.perf_counter() - start)
                        options = [o for o in answer.json()["options"] if o["action"].startswith("score ")]
                        box = options[0]["action"].split()[1] if options else next(iter(state["placements"]))
                        action = {"action": "score", "box": box}
                    start = time.perf_counter()
                    await ws.send(
                        orjson.dumps({"type": "action", "seq": state["seq"], "action": action}).decode()
                    )
                    sent = state["seq"]
                    while state["seq"] <= sent:
                        message = await receive(ws)
                        if message["type"] == "change":
                            state = message["state"] | {"rules": state["rules"]}
                        elif message["type"] == "state":
                            state = message["state"]
                    actions.append(time.perf_counter() - start)
                    await asyncio.sleep(0.6)  # within the allowance of hints (one a second)


async def run(port: int, seconds: float) -> dict[str, Any]:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=PLAYER)) as http:
        # the player's own table solved before the flood (as it is for a table in play)
        game = await new_table(http, base, "kniffel", {})
        await roll(ws_base, game, 0, PLAYER)
        headers = {"x-kniffel-token": game["seats"][0]["token"]}
        while "preparing" in (await http.get(f"{base}/api/games/{game['id']}/hints", headers=headers)).json():
            await asyncio.sleep(0.5)
    stop = asyncio.Event()
    latencies: list[float] = []
    actions: list[float] = []
    got: Counter[str] = Counter()
    combos = combinations()
    load_before = os.getloadavg()[0]
    tasks = [
        asyncio.create_task(asker(base, ws_base, combo, f"127.0.1.{n + 1}", stop, got))
        for n, combo in enumerate(combos)
    ]
    tasks.append(asyncio.create_task(player(base, ws_base, stop, latencies, actions)))
    await asyncio.sleep(seconds)
    stop.set()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException):
            got[f"failed: {type(outcome).__name__}: {outcome}"[:120]] += 1
    ordered = sorted(latencies)

    def at(q: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    return {
        "combinations": len(combos),
        "hints": len(latencies),
        "p50": 1000 * statistics.median(ordered) if ordered else float("nan"),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": 1000 * ordered[-1] if ordered else float("nan"),
        "actions": len(actions),
        "actions p50": 1000 * statistics.median(actions) if actions else float("nan"),
        "actions max": 1000 * max(actions) if actions else float("nan"),
        "outcomes": dict(got),
        "load": (load_before, os.getloadavg()[0]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--keep-cache", type=Path, default=None, help="use (and keep) this table cache")
    args = parser.parse_args()
    ran_on = machine.describe()
    print(machine.header(ran_on), flush=True)
    with tempfile.TemporaryDirectory(prefix="kniffel-web-advice-") as tmp:
        cache = args.keep_cache or Path(tmp) / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        env = {"KNIFFEL_PREPARE_WIN_TABLES": "1"}
        with ServerProcess(
            f"sqlite:///{Path(tmp) / 'games.sqlite3'}",
            cache_dir=cache,
            env=env,
            log_path=Path(tmp) / "server.log",
        ) as server:
            result = asyncio.run(run(server.port, args.seconds))
    print(
        f"{result['combinations']} rule/option combinations asking at once; the unrelated player's "
        f"{result['hints']} hints: p50 {result['p50']:.1f} ms, p95 {result['p95']:.1f} ms, "
        f"p99 {result['p99']:.1f} ms, max {result['max']:.1f} ms (load {result['load'][0]:.1f} -> "
        f"{result['load'][1]:.1f})"
    )
    print(
        f"  its {result['actions']} actions (roll, score): p50 {result['actions p50']:.1f} ms, "
        f"max {result['actions max']:.1f} ms"
    )
    for what, count in sorted(result["outcomes"].items()):
        print(f"  the 80 tables: {what}: {count}")
    print(machine.footer(machine.finish(ran_on)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
