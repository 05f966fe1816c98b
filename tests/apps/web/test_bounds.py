"""What a server as ``kniffel serve`` starts it bounds besides time: the size of a request head, how long
an answer waits for a client that does not read it, and how many requests of any kind one address may
send. Small-scale versions of the attacks ``benchmarks/web_abuse.py`` and ``benchmarks/web_slow.py``
run at full size: large heads, pipelined requests never read, a flood of the cheapest route.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.trickle import outcome
from support.web import ServerProcess

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="clients from several loopback addresses and /proc need Linux",
)

SEND_TIMEOUT = 1.0
SLACK = 5.0
"""Seconds a deadline may be late on a machine busy with other work."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("bounds")
    env = {
        "KNIFFEL_SEND_TIMEOUT": str(SEND_TIMEOUT),
        "KNIFFEL_REQUEST_RATE": "5",
        "KNIFFEL_REQUEST_BURST": "40",
    }
    with ServerProcess(
        f"sqlite:///{directory / 'games.sqlite3'}", env=env, log_path=directory / "server.log", open_files=512
    ) as running:
        yield running
    log = (directory / "server.log").read_text()
    assert "Traceback" not in log, "the server logged a crash"
    assert "Too many open files" not in log


def memory(server: ServerProcess) -> int:
    """The server's resident memory in bytes."""
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def open_files(server: ServerProcess) -> list[str]:
    """What the server's open files are (sockets as ``socket:[...]``)."""
    assert server.process is not None
    found = []
    for fd in Path(f"/proc/{server.process.pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            found.append(os.readlink(fd))
    return found


def fresh_client_works(server: ServerProcess, address: str, patience: float = 0.0) -> None:
    """A fresh client loads the page and creates a game; with ``patience`` it may be told "busy, try
    again soon" (503) for that many seconds first, as a page that retries would be, while the server
    makes room."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=20) as fresh:
        deadline = time.monotonic() + patience
        while (page := fresh.get(server.url + "/")).status_code == 503 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert page.status_code == 200
        created = fresh.post(f"{server.url}/api/games", json={"seats": [{"name": "Ada"}]})
        assert created.status_code == 201, created.text


def send_until_closed(sock: socket.socket, head: bytes, filler: bytes, most: int) -> tuple[int, bytes]:
    """Send ``head``, then ``filler`` until the server closes the connection or ``most`` bytes went;
    the bytes sent and what the server answered."""
    sent = 0
    sock.settimeout(10)
    with contextlib.suppress(OSError):
        sock.sendall(head)
        while sent < most:
            sock.sendall(filler)
            sent += len(filler)
    answer = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(4096):
            answer += chunk
    return sent, answer


@pytest.mark.parametrize(
    ("where", "head", "status"),
    [
        ("a header", b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ", "431"),
        ("the URL", b"GET /api/health?", "414"),
        ("many headers", b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n", "431"),
    ],
)
def test_a_large_head_is_refused_at_once_and_takes_no_memory(
    server: ServerProcess, where: str, head: bytes, status: str
) -> None:
    """16 connections of 64 MB heads from 2 addresses stalled the server and took a gigabyte: here 4
    connections from 2 addresses each try to send 8 MB of head; each is answered 431 (414 for a URL)
    after a few tens of KiB and closed, the server's memory barely moves, and a fresh client is served."""
    before = memory(server)
    filler = b"X-A: b\r\n" * 512 if where == "many headers" else b"a" * 4096
    answers = []
    for number in range(4):
        with socket.create_connection(
            ("127.0.0.1", server.port), source_address=(f"127.0.4.{number % 2 + 1}", 0)
        ) as sock:
            sent, answer = send_until_closed(sock, head, filler, 8 * 1024 * 1024)
            answers.append((sent, answer))
    for sent, answer in answers:
        assert outcome(answer) == status, answer[:120]
        assert b'"error": "too_large"' in answer
        assert sent < 4 * 1024 * 1024, "refused after a few tens of KiB, not at the end"
    assert memory(server) - before < 50 * 1024 * 1024
    fresh_client_works(server, "127.0.4.9")


def test_a_head_of_ordinary_size_is_served(server: ServerProcess) -> None:
    """A cookie-laden browser's head of 20 KiB is not refused."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.4.20"), timeout=20) as client:
        answer = client.get(server.url + "/api/health", headers={"cookie": "c=" + "x" * 20_000})
    assert answer.status_code == 200


def test_answers_nobody_reads_are_given_up_and_release_their_files(server: ServerProcess) -> None:
    """Connections that pipeline requests for the table's script and never read the answers held their
    connection and the script's file open until the process ran out of files. Now no file of the site
    is held open for them, and each is dropped once its answer has waited ``KNIFFEL_SEND_TIMEOUT``."""
    request = f"GET /static/table.js HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()
    baseline = sum(name.startswith("socket:") for name in open_files(server))
    sockets = []
    for number in range(24):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a reader that takes nothing
        sock.bind((f"127.0.5.{number + 1}", 0))
        sock.connect(("127.0.0.1", server.port))
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.send(request * 35)  # within the address's allowance; megabytes of answers
        sockets.append(sock)
    try:
        time.sleep(0.5)
        files = open_files(server)
        assert [name for name in files if "/static/" in name] == [], "the site's files come from memory"
        assert sum(name.startswith("socket:") for name in files) >= baseline + 20, "the answers wait"
        deadline = time.monotonic() + SEND_TIMEOUT + SLACK + 10
        while sum(name.startswith("socket:") for name in open_files(server)) > baseline + 2:
            assert time.monotonic() < deadline, "the unread answers' connections were held"
            time.sleep(0.2)
    finally:
        for sock in sockets:
            sock.close()
    fresh_client_works(server, "127.0.5.20")


def test_every_route_is_under_an_allowance_per_address(server: ServerProcess) -> None:
    """Twenty addresses pipelining ``/api/health`` slowed everyone's new game: the health check and the
    static files spend the address's request allowance too (here 40 at once, 5 a second). Past it a
    request is answered 429 and its connection closed; another address is served as before."""
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    statuses: list[str] = []
    for path in ("/api/health", "/static/app.css"):
        with socket.create_connection(("127.0.0.1", server.port), source_address=("127.0.6.1", 0)) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\n{host}\r\n".encode() * 60)
            answer = b""
            sock.settimeout(10)
            with contextlib.suppress(OSError):
                while chunk := sock.recv(65536):
                    answer += chunk
        statuses += [part[:3].decode() for part in answer.split(b"HTTP/1.1 ")[1:]]
    assert statuses.count("200") <= 45, statuses
    assert statuses[-1] == "429", "past the allowance: 429, and the connection is closed"
    assert "429" in statuses[:61], "the static files count against the same allowance"
    fresh_client_works(server, "127.0.6.2")


@pytest.mark.slow
def test_unread_answers_past_the_open_files_give_way_to_a_fresh_client(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """With 256 open files uvicorn takes 128 connections: 160 that pipeline requests and read nothing
    (four addresses, each within its cap) could take them all for as long as they liked and leave a fresh
    client 503; waiting for their clients to read, they give way as slow heads do."""
    directory = tmp_path_factory.mktemp("unread")
    env = {"KNIFFEL_SEND_TIMEOUT": "60", "KNIFFEL_REQUEST_BURST": "1000"}
    with ServerProcess(
        f"sqlite:///{directory / 'games.sqlite3'}", env=env, log_path=directory / "server.log", open_files=256
    ) as server:
        request = f"GET /static/table.js HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()
        held = []
        try:
            for number in range(160):
                sock = socket.socket()
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.bind((f"127.0.7.{number % 4 + 1}", 0))
                sock.settimeout(10)
                with contextlib.suppress(OSError):
                    sock.connect(("127.0.0.1", server.port))
                    sock.setblocking(False)
                    sock.send(request * 30)
                held.append(sock)
                time.sleep(0.01)
            time.sleep(1)
            for round_ in range(3):  # room is made as the unread answers give way, not before
                fresh_client_works(server, f"127.0.7.{20 + round_}", patience=5)
        finally:
            for sock in held:
                sock.close()
    log = (directory / "server.log").read_text()
    assert "Traceback" not in log
    assert "Too many open files" not in log
