"""The web server's memory through two-player games with chances of winning, on a cache that holds
nothing: what a family's server on a small machine goes through the first time each rule set is played.

    .venv/bin/python benchmarks/serve_memory.py [--rules kniffel yahtzee yatzy] [--bot-delay 0.3] [--json]

Starts ``kniffel serve`` on a fresh table cache and database, and for each rule set in turn creates a
game of ``bot:win`` against ``bot:optimal`` (as a page does, over HTTP), watches it (over the WebSocket,
as a page does: the bots play only in games someone watches) and asks for the players' chances of
winning after every action until the game is over, as the table's page does: the
server solves the table of expected points, prepares the early win tables in the background while the
bots play (the early turns' chances say "preparing" meanwhile), and solves the cones of later positions.
Games follow each other until the chances have been told both in a game's first turns (from the early
tables) and in its later ones (past them).

The server's memory is sampled every 50 ms from ``/proc/PID/status`` (``VmRSS``; Linux only), and its
peak is also the kernel's own (``VmHWM``, resident set high-water mark) read at the end. Of the resident
set, the anonymous part (``RssAnon``: what the server allocated) is sampled apart: the rest is files
mapped (the tables, numba's and LLVM's libraries), pages the kernel drops under pressure and reads again
when they are used, which on a small machine costs time, not the server's life. The processes
the server starts (the warm-up's compiler, a compile helper) are sampled too, each on its own and all
together, but they are not the server. Reported per rule set: the seconds until the chances were first
told, the seconds the game took, the peak of the server while it was played; and the peak of the whole
run, against the 600 MB a server on a machine of 1 GB may take.

Nothing here is a test: what the server solves depends on the machine's pace, printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import machine

PYTHON = sys.executable
KNIFFEL = str(Path(PYTHON).parent / "kniffel")
LIMIT_MB = 600
"""What a server on a machine of 1 GB may take (the system, a database and a proxy beside it)."""


def statuses(pid: int) -> dict[str, int]:
    """The sizes of ``/proc/PID/status`` in bytes by field, none if the process is gone."""
    found: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            field, _, value = line.partition(":")
            if value.strip().endswith(" kB"):
                found[field] = int(value.split()[0]) * 1024
    except (OSError, ValueError):
        pass
    return found


def status(pid: int, field: str) -> int:
    """A ``/proc/PID/status`` field in bytes, 0 if the process is gone."""
    return statuses(pid).get(field, 0)


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            children = [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
        for child in children:
            found += [child, *descendants(child)]
    return found


class Sampler(threading.Thread):
    """Samples the server's resident memory (and its helpers') every 50 ms; ``mark`` starts a new
    stretch whose peak is kept apart."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self.anonymous_peak = 0
        self.helpers_peak = 0
        self.together_peak = 0
        self.stretch = 0
        self.anonymous_stretch = 0
        self.running = True

    def mark(self) -> tuple[int, int]:
        """The peaks since the last mark (resident, anonymous), and a new stretch."""
        peaks = self.stretch, self.anonymous_stretch
        self.stretch = self.anonymous_stretch = 0
        return peaks

    def run(self) -> None:
        while self.running:
            found = statuses(self.pid)
            server = found.get("VmRSS", 0)
            anonymous = found.get("RssAnon", 0) + found.get("RssShmem", 0)
            helpers = [status(child, "VmRSS") for child in descendants(self.pid)]
            self.peak = max(self.peak, server)
            self.stretch = max(self.stretch, server)
            self.anonymous_peak = max(self.anonymous_peak, anonymous)
            self.anonymous_stretch = max(self.anonymous_stretch, anonymous)
            self.helpers_peak = max([self.helpers_peak, *helpers])
            self.together_peak = max(self.together_peak, server + sum(helpers))
            time.sleep(0.05)


def call(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def play(base: str, rules_id: str) -> dict[str, Any]:
    """Games of ``bot:win`` against ``bot:optimal`` watched (the bots play only in games someone watches)
    with the chances asked after every action, until the chances were told from the early tables (in a
    game's first turns) and past them (in its later turns), and the game is over."""
    from websockets.sync.client import connect

    start = time.perf_counter()
    first_told: float | None = None
    told_early = told_late = False
    games = 0
    while not (told_early and told_late):
        games += 1
        seats = [{"name": "Ada", "kind": "bot:win"}, {"name": "Bob", "kind": "bot:optimal"}]
        created = call(base, "POST", "/api/games", {"rules": rules_id, "seats": seats})
        with connect(f"{base.replace('http', 'ws', 1)}/ws/{created['id']}") as watcher:
            while True:
                message = json.loads(watcher.recv(timeout=600))
                if message.get("type") != "state":
                    continue
                state = message["state"]
                chances = call(base, "GET", f"/api/games/{created['id']}/chances")
                if chances.get("status") == "ready":
                    first_told = first_told or time.perf_counter() - start
                    told_early = told_early or state["round"] <= 3
                    told_late = told_late or state["round"] >= 7
                if state["over"]:
                    break
    return {"told_after_s": first_told, "seconds": time.perf_counter() - start, "games": games}


def measure(rules: list[str], bot_delay: float) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="kniffel-serve-"))
    port = free_port()
    env = {
        **os.environ,
        "KNIFFEL_CACHE_DIR": str(folder / "cache"),
        "KNIFFEL_RECORD_DIR": str(folder),
        "KNIFFEL_PREPARE_WIN_TABLES": "1",
        # the watcher here sends nothing, and a game whose bots rest long (a loaded machine) outlasts the
        # silence a watching socket is allowed (a page reconnects; this one would stop the run)
        "KNIFFEL_WATCH_IDLE": "3600",
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    log = (folder / "server.log").open("w")
    server = subprocess.Popen(
        [KNIFFEL, "serve", "--port", str(port), "--database-url", f"sqlite:///{folder / 'games.db'}",
         "--bot-delay", str(bot_delay), "--log-level", "warning"],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    sampler = Sampler(server.pid)
    sampler.start()
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                call(base, "GET", "/api/health")
                break
            except OSError:
                time.sleep(0.1)
        started, _ = sampler.mark()
        rows = {}
        for rules_id in rules:
            row = play(base, rules_id)
            peak, anonymous = sampler.mark()
            row["peak_mb"], row["anonymous_peak_mb"] = peak / 1e6, anonymous / 1e6
            rows[rules_id] = row
        hwm = status(server.pid, "VmHWM")
    finally:
        sampler.running = False
        server.terminate()
        server.wait(timeout=30)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "rules": rules,
        "bot_delay": bot_delay,
        "started_mb": started / 1e6,
        "rows": rows,
        "peak_mb": sampler.peak / 1e6,
        "anonymous_peak_mb": sampler.anonymous_peak / 1e6,
        "hwm_mb": hwm / 1e6,
        "helpers_peak_mb": sampler.helpers_peak / 1e6,
        "together_peak_mb": sampler.together_peak / 1e6,
        "limit_mb": LIMIT_MB,
        "sampled": "VmRSS and RssAnon of /proc/PID/status every 50 ms; VmHWM at the end",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", default=["kniffel", "yahtzee", "yatzy"])
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--json", action="store_true")
    machine.add_record_option(parser)
    args = parser.parse_args()
    ran_on = machine.describe(numba_info=False)
    if not args.json:
        print(machine.header(ran_on), flush=True)
    result = measure(args.rules, args.bot_delay)
    machine.finish(ran_on)
    if args.record is not None:
        rows: list[list[Any]] = [["started", None, None, None, result["started_mb"], None]]
        rows += [
            [
                rules_id,
                row["told_after_s"],
                row["seconds"],
                row["games"],
                row["peak_mb"],
                row["anonymous_peak_mb"],
            ]
            for rules_id, row in result["rows"].items()
        ]
        rows.append(["whole run (VmHWM)", None, None, None, result["hwm_mb"], result["anonymous_peak_mb"]])
        columns = [
            "rules",
            "chances told after s",
            "played s",
            "games",
            "server's peak MB",
            "anonymous peak MB",
        ]
        note = f"against {LIMIT_MB} MB; the helpers' peak {result['helpers_peak_mb']:.0f} MB"
        machine.record("serve_memory", ran_on, columns, rows, args.record, note=note)
    if args.json:
        print(json.dumps({"machine": ran_on, "results": [result]}, indent=1))
        return
    print(f"kniffel serve, bots moving every {result['bot_delay']} s ({result['sampled']})")
    print(f"  started: {result['started_mb']:.0f} MB")
    print(
        f"  {'rules':<10} {'chances told after s':>21} {'played s':>9} {'games':>6} {'peak MB':>8} "
        f"{'anonymous MB':>13}"
    )
    for rules_id, row in result["rows"].items():
        told = "-" if row["told_after_s"] is None else f"{row['told_after_s']:.1f}"
        print(
            f"  {rules_id:<10} {told:>21} {row['seconds']:>9.1f} {row['games']:>6} {row['peak_mb']:>8.0f} "
            f"{row['anonymous_peak_mb']:>13.0f}"
        )
    print(
        f"  server's peak {result['peak_mb']:.0f} MB sampled, {result['hwm_mb']:.0f} MB by the kernel "
        f"(VmHWM), against {result['limit_mb']} MB; of it anonymous at most "
        f"{result['anonymous_peak_mb']:.0f} MB (the rest: files mapped, which the kernel drops under "
        f"pressure); its "
        f"helpers' peak {result['helpers_peak_mb']:.0f} MB, all together {result['together_peak_mb']:.0f} MB"
    )
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
