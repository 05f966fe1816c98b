"""Slow requests against one server as ``kniffel serve`` runs it (SQLite, one process, no proxy), and
what a fresh client and the players already there meet meanwhile.

The attack: 12 addresses x 82 connections (the most one address may hold), each sending a
request head one byte every 2 s, for 60 s; a connection the server closes is opened again 2 s later
(as slowloris does). It
runs in a process of its own (``tests/support/trickle.py``) on loopback addresses 127.0.4.1-12 (Linux
routes all of 127.0.0.0/8 to loopback, so each is a client of its own). Meanwhile, from addresses of
their own:

- a fresh client, every ``--pace`` seconds, loads the page (``GET /``), creates a game
  (``POST /api/games``) and opens its WebSocket until the first state, each on a new connection; the
  p50/p95/max of each, in milliseconds, and any failure;
- a player, seated before the attack, acts every 2 s over its WebSocket (a roll, then scoring);
- a keep-alive client asks ``/api/health`` every 2 s on one connection, the pause between two requests
  within uvicorn's keep-alive time.

It reports how the server closed the attack's connections (408 its head's deadline, 429 its address's
budget of arriving heads, 503 the budget of all, ``silent`` a connection closed before it sent
anything), how long they lived at most, and the server's open files at their peak. The server gets the
common limit of 1,024 open files (``--open-files``; 0 leaves the system's), under which the attack's
984 connections are more than uvicorn takes (896): without the deadlines and budgets, the fresh client
is answered 503.

    .venv/bin/python benchmarks/web_slow.py                      # the attack, 60 s
    .venv/bin/python benchmarks/web_slow.py --seconds 20 --addresses 4
    .venv/bin/python benchmarks/web_slow.py --server granian --granian-path /tmp/granian-pkg

With the deadlines and budgets the fresh client's p95 stays under 200 ms under the attack, and the
player and the keep-alive client lose nothing; the figures, beside Granian's and an attack of 14
addresses, are in ``docs/how-to/deploy.md`` (Slow requests).

``--attack large-heads`` and ``--attack slow-readers`` run two of ``abuse_bounds.py``'s floods instead
of the trickle (64 MB heads from 2 addresses; 12 addresses x 82 connections pipelining requests for a
script they never read), with the same fresh client, player and keep-alive client.

``--server granian`` runs the same app under Granian (``pip install granian``; its own head deadline,
``--http1-header-read-timeout``, set to our 10 s) for the comparison in ``docs/how-to/deploy.md``;
``--server-source DIR`` runs the ``kniffel serve`` of another source tree (``DIR`` holding its ``kniffel``
package), to compare two versions side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any, Self

import httpx
import tests_path  # noqa: F401  (puts tests/ on sys.path for the support package)
from abuse_bounds import FLOODS as BOUNDS
from web_abuse import Player as AbusePlayer  # the same decisions as the flood benchmark's player
from websockets.sync.client import connect

from support.trickle import KeepAlive, Trickle
from support.web import ServerProcess

PLAYER = "127.0.5.2"
BETWEEN = "127.0.5.3"


class GranianProcess(ServerProcess):
    """The app under Granian (one worker), as a ``ServerProcess``."""

    granian_path = ""

    def launch(self) -> Self:
        env = {
            **self.env,
            "KNIFFEL_DATABASE_URL": self.database_url,
            "KNIFFEL_BOT_DELAY": str(self.bot_delay),
            "PYTHONPATH": os.pathsep.join(p for p in (self.granian_path, self.env.get("PYTHONPATH")) if p),
        }
        command = [
            sys.executable,
            "-m",
            "granian",
            "--interface",
            "asgi",
            "--factory",
            "kniffel.apps.web.app:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--http1-header-read-timeout",
            "10000",
            "--log-level",
            "warning",
        ]
        output = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        limit = self.open_files or 0

        def limit_files() -> None:  # in the child, as ServerProcess does for uvicorn
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        self.process = subprocess.Popen(
            command, env=env, stdout=output, stderr=output, preexec_fn=limit_files if limit else None
        )
        return self


@dataclass
class Aim:
    """Where the floods of ``abuse_bounds.py`` aim: this server (they need no game of their own)."""

    port: int
    watched: str = "AAAAAAAAAAAA"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def bounded(port: int, attack: str, seconds: float, nice: int, results: Queue[Any]) -> None:
    """One of ``abuse_bounds.py``'s floods (``large-heads``, ``slow-readers``) for ``seconds``."""
    os.nice(nice)
    stop = multiprocessing.Event()
    threading.Timer(seconds, stop.set).start()

    async def attacking() -> Counter[str]:
        return await BOUNDS[attack](Aim(port), stop, lambda: None)

    outcomes = asyncio.run(attacking())
    results.put(
        {"opened": sum(outcomes.values()), "refused": 0, "closed": dict(outcomes), "longest": 0.0, "open": 0}
    )


def flood(
    port: int, addresses: list[str], per_address: int, seconds: float, nice: int, results: Queue[Any]
) -> None:
    os.nice(nice)
    trickle = Trickle(port, addresses, per_address, interval=2.0, seconds=seconds)
    with trickle:
        samples = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(1)
            samples.append(trickle.open_now)
    results.put(
        {
            "opened": trickle.opened,
            "refused": trickle.refused,
            "closed": dict(trickle.closed),
            "longest": max(trickle.lifetimes, default=0.0),
            "open": statistics.median(samples) if samples else 0,
        }
    )


def fresh_address(n: int) -> str:
    """Each fresh round comes from an address of its own (so that no allowance for new games runs out)."""
    return f"127.0.6.{1 + n % 250}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def open_files(server: ServerProcess) -> int:
    assert server.process is not None
    try:
        return len(os.listdir(f"/proc/{server.process.pid}/fd"))
    except OSError:
        return 0


class Player:
    """A seated player acting every 2 s on one WebSocket; counts what was acknowledged and what failed."""

    def __init__(self, server: ServerProcess) -> None:
        with httpx.Client(transport=httpx.HTTPTransport(local_address=PLAYER), timeout=10) as http:
            self.game = http.post(f"{server.url}/api/games", json={"seats": [{"name": "Ada"}]}).json()
        self.server = server
        self.acknowledged = 0
        self.failure: str | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        import socket

        try:
            sock = socket.create_connection(
                ("127.0.0.1", self.server.port), timeout=10, source_address=(PLAYER, 0)
            )
            with connect(f"{self.server.ws_url}/ws/{self.game['id']}", sock=sock, open_timeout=10) as ws:
                state = json.loads(ws.recv(10))["state"]
                ws.send(json.dumps({"type": "hello", "token": self.game["seats"][0]["token"]}))
                while not self.stop.wait(2.0):
                    action = AbusePlayer.decide_for(state)
                    ws.send(json.dumps({"type": "action", "seq": state["seq"], "action": action}))
                    while True:
                        message = json.loads(ws.recv(10))
                        if message["type"] == "error":
                            raise RuntimeError(message)
                        if message.get("state", {}).get("seq", -1) > state["seq"]:
                            state = message["state"]
                            break
                    self.acknowledged += 1
                    if state.get("over"):
                        break
        except Exception as error:
            self.failure = repr(error)


def fresh_round(
    server: ServerProcess, address: str, times: dict[str, list[float]], failures: Counter[str]
) -> None:
    """A fresh client at ``address``: the page, a new game and its WebSocket, each on a new connection
    (the clients are made before the clock starts: what is timed is the server's part)."""
    import socket

    def timed(kind: str, call: Any) -> Any:
        started = time.perf_counter()
        try:
            result = call()
        except httpx.HTTPStatusError as error:
            failures[f"{kind}: {error.response.status_code}"] += 1
            return None
        except Exception as error:
            failures[f"{kind}: {type(error).__name__}"] += 1
            return None
        times[kind].append(1000 * (time.perf_counter() - started))
        return result

    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=10, headers={"connection": "close"}) as http:
        page = timed("GET /", lambda: http.get(server.url + "/").raise_for_status())
        created = timed(
            "POST /api/games",
            lambda: http.post(f"{server.url}/api/games", json={"seats": [{"name": "Cy"}]}).raise_for_status(),
        )
    if page is None or created is None:
        return
    game_id = created.json()["id"]

    def socket_state() -> None:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(address, 0))
        with connect(f"{server.ws_url}/ws/{game_id}", sock=sock, open_timeout=10) as ws:
            if json.loads(ws.recv(10))["type"] != "state":
                raise RuntimeError("no state")

    timed("WebSocket", socket_state)


class Between:
    """A keep-alive client asking every 2 s on one connection; counts the connections it lost."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.asked = self.lost = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        between = KeepAlive(self.server.port, BETWEEN)
        while True:
            try:
                between.ask()
                self.asked += 1
            except OSError:
                self.lost += 1
                between.close()
                between = KeepAlive(self.server.port, BETWEEN)
            if self.stop.wait(2.0):
                break
        between.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--addresses", type=int, default=12)
    parser.add_argument("--per-address", type=int, default=82)
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a fresh client's rounds")
    parser.add_argument(
        "--open-files", type=int, default=1024, help="the server's limit of open files (0: the system's)"
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="run the attack at this niceness (e.g. 10: a remote attacker's CPU is not the server's)",
    )
    parser.add_argument(
        "--attack",
        choices=("trickle", "large-heads", "slow-readers"),
        default="trickle",
        help="heads a byte every 2 s (the default), 64 MB heads from 2 addresses, or 12 addresses x 82 "
        "connections pipelining requests they never read (abuse_bounds.py)",
    )
    parser.add_argument("--server", choices=("uvicorn", "granian"), default="uvicorn")
    parser.add_argument(
        "--granian-path", default="", help="a folder where granian is installed (pip --target)"
    )
    parser.add_argument("--server-source", default=None, help="another version's src folder (before/after)")
    args = parser.parse_args()

    directory = Path(tempfile.mkdtemp(prefix="kniffel-slow-"))
    env = {"PYTHONPATH": args.server_source} if args.server_source else {}
    kind = GranianProcess if args.server == "granian" else ServerProcess
    GranianProcess.granian_path = args.granian_path
    server = kind(
        f"sqlite:///{directory / 'games.sqlite3'}",
        env=env,
        log_path=directory / "server.log",
        open_files=args.open_files or None,
    )
    with server:
        quiet_times: dict[str, list[float]] = {"GET /": [], "POST /api/games": [], "WebSocket": []}
        quiet_failures: Counter[str] = Counter()
        for n in range(10):
            fresh_round(server, fresh_address(n), quiet_times, quiet_failures)
        player = Player(server)
        player.thread.start()
        between = Between(server)
        between.thread.start()
        results: Queue[Any] = multiprocessing.Queue()
        addresses = [f"127.0.4.{n}" for n in range(1, args.addresses + 1)]
        attacker = multiprocessing.Process(
            target=flood, args=(server.port, addresses, args.per_address, args.seconds, args.nice, results)
        )
        if args.attack != "trickle":
            attacker = multiprocessing.Process(
                target=bounded, args=(server.port, args.attack, args.seconds, args.nice, results)
            )
        attacker.start()
        time.sleep(min(10.0, args.seconds / 4))  # every slow connection open and trickling
        times: dict[str, list[float]] = {"GET /": [], "POST /api/games": [], "WebSocket": []}
        failures: Counter[str] = Counter()
        peak_files = 0
        end = time.monotonic() + args.seconds - min(10.0, args.seconds / 4) - 2
        rounds = 10
        while time.monotonic() < end:
            fresh_round(server, fresh_address(rounds), times, failures)
            rounds += 1
            peak_files = max(peak_files, open_files(server))
            time.sleep(args.pace)
        attack = results.get(timeout=60)
        attacker.join(30)
        for helper in (player, between):
            helper.stop.set()
            helper.thread.join(15)
    log = (directory / "server.log").read_text(errors="replace")

    print(
        f"server: {args.server}{' from ' + args.server_source if args.server_source else ''}; attack: "
        f"{args.attack}: {args.addresses} addresses x {args.per_address} connections (trickle: a head "
        "byte every 2 s), "
        f"{args.seconds:g} s at nice {args.nice}; "
        f"the server's limit of open files: {args.open_files or 'the system default'}"
    )
    print(
        f"{'fresh client':18}{'quiet p50':>10}{'p95':>8}{'max':>8}"
        f"{'attack p50':>12}{'p95':>8}{'max':>8}{'failed':>8}"
    )
    for name in times:
        q, a = quiet_times[name], times[name]
        failed = sum(n for key, n in failures.items() if key.startswith(name))
        print(
            f"{name:18}{percentile(q, 0.5):10.1f}{percentile(q, 0.95):8.1f}{max(q, default=0):8.1f}"
            f"{percentile(a, 0.5):12.1f}{percentile(a, 0.95):8.1f}{max(a, default=0):8.1f}"
            f"{failed:>5}/{len(a) + failed}"
        )
    if failures:
        print("failures:", dict(failures))
    print(
        f"attack: {attack['opened']} connections opened ({attack['refused']} refused by the kernel), "
        f"a median of {attack['open']:.0f} open at once; closed by the server: {attack['closed']}; "
        f"the longest lived {attack['longest']:.1f} s"
    )
    print(f"server's open files at their peak: {peak_files}")
    print(
        f"player: {player.acknowledged} actions acknowledged, dropped: {player.failure or 'no'}; "
        f"keep-alive client: {between.asked} answers, {between.lost} connections lost"
    )
    print(
        f"server log: {log.count('Traceback')} tracebacks, {log.count('Too many open files')} times too many "
        f"open files, {len(log.splitlines())} lines ({directory})"
    )


if __name__ == "__main__":
    main()
