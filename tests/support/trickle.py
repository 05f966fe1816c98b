"""Slow clients, for the tests and ``benchmarks/web_slow.py``: connections that send a request head a
byte at a time from several addresses, as the slow-request attack on a bare ``kniffel serve`` did.

Every address is a client of its own on Linux's loopback (all of 127.0.0.0/8 reaches the machine).
A :class:`Trickle` runs in a thread of its own until it is stopped, and stops by itself after
``seconds``: it never sends anywhere but the server's port on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Sequence
from typing import Self

from support.web import Started

HEAD = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
"""What a slow connection sends, a byte at a time, and then ``a`` for ever: a head never complete."""


def outcome(answer: bytes) -> str:
    """How the server closed a connection: the status of its last words (``"408"``), or ``"silent"``."""
    if answer.startswith(b"HTTP/1.1 "):
        return answer[9:12].decode("ascii", "replace")
    return "silent"


class Trickle(Started):
    """``per_address`` connections from each of ``addresses`` to ``port``, each sending :data:`HEAD` one
    byte every ``interval`` seconds. A connection the server closes is opened again at the next byte's
    time (as slowloris does), and how it was closed is counted in :attr:`closed`. Connections are opened
    ``interval`` apart in ``ramp`` steps, so that the server sees a stream, not a burst."""

    def __init__(
        self,
        port: int,
        addresses: Sequence[str],
        per_address: int,
        *,
        interval: float = 2.0,
        seconds: float = 60.0,
        reopen: bool = True,
    ) -> None:
        self.port, self.addresses, self.per_address = port, list(addresses), per_address
        self.interval, self.seconds, self.reopen = interval, seconds, reopen
        self.closed: Counter[str] = Counter()
        """How the server closed connections: ``"408"``, ``"429"``, ``"503"``, ``"silent"``."""
        self.opened = 0
        self.refused = 0
        """Connections the server's kernel did not accept (its backlog full)."""
        self.lifetimes: list[float] = []
        """Seconds each closed connection was open."""
        self._sent: dict[socket.socket, tuple[str, int, float]] = {}
        self._selector = selectors.DefaultSelector()  # epoll: select() stops at 1,024 files
        self._reopen: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="trickle", daemon=True)

    @property
    def open_now(self) -> int:
        return len(self._sent)

    def _open(self, address: str) -> None:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((address, 0))
        try:
            sock.connect(("127.0.0.1", self.port))
        except BlockingIOError:
            pass
        except OSError:
            self.refused += 1
            sock.close()
            return
        self._sent[sock] = (address, 0, time.monotonic())
        self._selector.register(sock, selectors.EVENT_READ)
        self.opened += 1

    def _close(self, sock: socket.socket, answer: bytes) -> None:
        address, _, since = self._sent.pop(sock)
        self._selector.unregister(sock)
        self.closed[outcome(answer)] += 1
        self.lifetimes.append(time.monotonic() - since)
        sock.close()
        if self.reopen:
            self._reopen.append(address)

    def _run(self) -> None:
        end = time.monotonic() + self.seconds
        for address in self.addresses:
            for _ in range(self.per_address):
                self._open(address)
        next_byte = time.monotonic()
        while not self._stop.is_set() and time.monotonic() < end:
            for key, _ in self._selector.select(max(0.0, next_byte - time.monotonic())):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    answer = sock.recv(4096)
                except OSError:
                    answer = b""
                self._close(sock, answer)
            if time.monotonic() < next_byte:
                continue
            next_byte += self.interval
            reopen, self._reopen = self._reopen, []
            for address in reopen:
                self._open(address)
            for sock, (address, sent, since) in list(self._sent.items()):
                byte = HEAD[sent : sent + 1] or b"a"
                try:
                    sock.send(byte)
                except BlockingIOError:  # not connected yet: the byte goes next time
                    continue
                except OSError:
                    self._close(sock, b"")
                    continue
                self._sent[sock] = (address, sent + 1, since)
        for sock in list(self._sent):
            self._selector.unregister(sock)
            sock.close()
        self._sent.clear()
        self._selector.close()

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)


class KeepAlive:
    """One keep-alive connection from ``address`` that asks ``/api/health`` on the same socket again and
    again: a client between two requests, which no budget may close."""

    def __init__(self, port: int, address: str, timeout: float = 10.0) -> None:
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=timeout, source_address=(address, 0)
        )

    def ask(self) -> int:
        """One request on the same connection; its status (``ConnectionError`` if the server closed it)."""
        self.sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the server closed a keep-alive connection")
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        length = next(
            (
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            ),
            0,
        )
        while len(body) < length:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the server closed a keep-alive connection mid-answer")
            body += chunk
        return int(head[9:12])

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


__all__ = ["HEAD", "KeepAlive", "Trickle", "outcome"]
