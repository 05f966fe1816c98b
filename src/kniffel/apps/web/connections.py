"""Plain connections per client, held below the app: the HTTP protocol ``kniffel serve`` runs.

The app's allowances count requests and WebSockets, but a connection whose request never arrives
reaches no app. uvicorn kept such a connection open for ever (its one timer, the keep-alive one, is
stopped by every byte), and each one took an open file and a place under the connection limit: from
one address, a few hundred silent ones made the server answer 503 to everyone, and twelve addresses
sending a header byte every 2 s held a thousand connections for as long as they liked. This protocol

* caps the connections one client holds at once (WebSockets included: an upgraded connection keeps
  its transport), refusing more by closing them at once, before anything is read, and while the
  server is short of connections (past :attr:`Deadlines.room`) refuses a new one of a client that
  holds :data:`CROWDED_SHARE` already, so that the last ones go to clients holding few;
* closes a connection that says nothing for as long as an idle keep-alive connection may stay
  (uvicorn arms that timer only after a first answer, so a silent connection had none);
* gives every request head a deadline however it trickles (:attr:`Deadlines.head`, counted from the
  connection's start for its first request and from a request's first byte for the next ones, and
  never put off by a byte), and every body one (:attr:`Deadlines.body`), as nginx's
  ``client_header_timeout`` and ``client_body_timeout`` do;
* keeps a budget of connections waiting for a head, per client (heads begun) and in all
  (:class:`ArrivingHeads`): past it, the client's oldest, or the oldest of the client that has most
  of them, is closed, or a newcomer of that client. Only connections waiting for a head are ever
  closed so; an open WebSocket, a request being answered or a keep-alive connection between two
  requests never is;
* bounds a request head's size (:attr:`Deadlines.max_head`, its URL :attr:`Deadlines.max_url`):
  httptools gathers a header's value and uvicorn the URL in memory however long they grow (h11 has
  ``h11_max_incomplete_event_size``, httptools nothing), so 16 connections sending 64 MB header values
  took a gigabyte; a longer head is answered 431 (a URL 414) and closed at once;
* gives an answer the client does not read a deadline (:attr:`Deadlines.send`): while the transport's
  buffer is full uvicorn waits for it to drain for ever, and a static file being answered stays open
  meanwhile, so connections pipelining requests they never read used up the open files; past the
  deadline the connection is dropped and its answer ends, and until then it counts among the
  connections waiting (for its client to read) that give way when the server runs short;
* closes at once, before anything is read, a new connection of a client its request allowance has
  cut off for flooding (:class:`kniffel.apps.web.middleware.RequestAllowance` counts the requests).

A reverse proxy the operator trusts (``--trusted-proxies``) is neither capped nor budgeted: every
player comes through it, and it is the proxy's job to time out slow clients (``docs/how-to/deploy.md``). The
deadlines hold for it too.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from kniffel.apps.web.guard import client_key
from kniffel.apps.web.middleware import SECURITY_HEADERS

MARGIN = 32
"""Connections a client may hold beyond its WebSockets: a browser opens about six to a site for pages
and requests, and several players may share an address (a family, a school)."""

CROWDED_SHARE = 8
"""Connections a client may hold and still open another while the server is short of them: a browser
opens about six to a site. Twelve addresses holding eighty each took every connection, and a fresh
client's page was answered 503."""
HEAD_TIMEOUT = 10.0
"""Seconds a request head may take to arrive (``KNIFFEL_HEAD_TIMEOUT``); a browser sends one in a
single packet."""
HEADS_PER_CLIENT = 8
"""Request heads one client may have arriving at once (``KNIFFEL_HEADS_PER_CLIENT``). A browser's head
arrives in one packet, so its heads are arriving for a moment only, even with several people behind
one address; a client that keeps more of them open is sending them slowly on purpose."""
MAX_HEAD = 32 * 1024
"""Bytes of a request head (its request line and headers; ``KNIFFEL_MAX_HEAD``): a browser's is under
2 KiB with its cookies, nginx's default buffers hold 1 KiB and four of 8 KiB."""
MAX_URL = 8 * 1024
"""Bytes of a request's URL: a pasted position for the analysis is under 2,000 characters."""
SEND_TIMEOUT = 20.0
"""Seconds an answer may wait for a client to read it (``KNIFFEL_SEND_TIMEOUT``): the longest a full
buffer may stay full, which a phone on a bad line gets through (it reads in bursts), and a client that
pipelines requests and never reads does not."""
FEED = 4096
"""Bytes handed to the parser at a time while a head arrives in a large piece, so that its size is
known within this much."""
BODY_GRACE = 1.0
"""Seconds a body's deadline below the app waits beyond the app's own (``KNIFFEL_BODY_TIMEOUT``), so
that a route reading a body answers 408 itself before the connection is closed."""


def answer(status: str, error: str, message: str) -> bytes:
    """An answer written below the app, as the app would write it: a JSON reason, the security
    headers, and the connection closed after it."""
    body = json.dumps({"error": error, "message": message}).encode()
    headers = {
        "content-type": "application/json",
        "content-length": str(len(body)),
        "connection": "close",
        **SECURITY_HEADERS,
    }
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"HTTP/1.1 {status}\r\n{head}\r\n".encode() + body


def refusal(per_client: int) -> bytes:
    """The answer a connection past the cap gets before it is closed: the app's refusal (429)."""
    return answer(
        "429 Too Many Requests",
        "rate_limited",
        f"at most {per_client} connections per address: close some tabs",
    )


class OpenConnections:
    """The transports each client holds open. Closed ones are forgotten when their client connects
    again, so that nothing has to be told when a connection ends (an upgraded connection changes its
    protocol without telling the old one)."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._open: dict[str, list[asyncio.BaseTransport]] = {}

    def admit(self, client: str, transport: asyncio.BaseTransport) -> bool:
        """Count ``transport`` as ``client``'s, or say no (then nothing is counted)."""
        held = self.forget(client)
        if len(held) >= self.per_client:
            return False
        self._open[client] = [*held, transport]
        return True

    def forget(self, client: str) -> list[asyncio.BaseTransport]:
        """Drop ``client``'s closed transports (their list, once nothing of it is open); those still open."""
        held = [t for t in self._open.get(client, ()) if not t.is_closing()]
        if held:
            self._open[client] = held
        else:
            self._open.pop(client, None)
        return held


class Shed(Protocol):
    """A connection :class:`ArrivingHeads` may close."""

    def shed(self, crowded: bool) -> None:
        """Close the connection; ``crowded``: because the server is running out of connections (else:
        because its own client has too many heads arriving)."""


class ArrivingHeads:
    """The connections waiting for a request head, per client, oldest first: a new connection from its
    start, a keep-alive one from the first byte of its next request, each until its head is complete.
    An open WebSocket, a request being answered and a keep-alive connection between two requests are
    not waiting for a head, and are never closed here.

    * A client may have ``per_client`` heads *begun* (some of their bytes arrived) at once: past that,
      its oldest begun head is closed. A browser's head arrives in one packet, so only a client
      sending heads slowly on purpose keeps several begun.
    * In all, at most ``total`` connections may be waiting, and while any are the server's open
      connections of every kind stay at most ``room`` (:meth:`make_room`): past either, the oldest
      waiting connection of the client with most of them is closed. So a fresh client always gets in: it
      never has most of them, and each of a slow client's closed makes room for one."""

    def __init__(self, per_client: int, total: int, room: int | None = None) -> None:
        self.per_client, self.total = per_client, total
        self.room = total if room is None else room
        self._waiting: dict[str, dict[Shed, None]] = {}
        self._begun: dict[str, dict[Shed, None]] = {}
        self._count = 0
        self._closing: set[Shed] = set()
        """Connections closed here whose end the server has not seen yet (they are still open)."""

    def __len__(self) -> int:
        return self._count

    def of(self, client: str) -> tuple[int, int]:
        """``client``'s connections waiting for a head now, and of those the heads begun."""
        return len(self._waiting.get(client, ())), len(self._begun.get(client, ()))

    def make_room(self, client: str, connections: int) -> bool:
        """Before a new connection of ``client`` waits: with ``connections`` open now (of every kind),
        close as many waiting ones of the busiest clients as keep the waiting within ``total`` and the
        open within ``room``, the new one counted. False if the new one is to be closed instead: its
        client would have most of them (an attacker opening another as soon as one is closed then
        meets a closed door, rather than making the server close its older ones in a loop)."""
        open_now = connections - len(self._closing) + 1
        for _ in range(max(self._count + 1 - self.total, open_now - self.room)):
            if not self._waiting:
                return True
            # the client with most waiting (a scan over the clients waiting for anything now; each
            # holds a few at most, so an attacker's many addresses are a few hundred)
            busiest = max(self._waiting, key=lambda name: len(self._waiting[name]))
            if len(self._waiting.get(client, ())) + 1 >= len(self._waiting[busiest]):
                return False
            self._shed(busiest, next(iter(self._waiting[busiest])), crowded=True)
        return True

    def waits(self, client: str, connection: Shed) -> None:
        """``connection`` of ``client`` waits for a head (call :meth:`make_room` first)."""
        waiting = self._waiting.setdefault(client, {})
        if connection not in waiting:
            waiting[connection] = None
            self._count += 1

    def begins(self, client: str, connection: Shed) -> None:
        """A byte of ``connection``'s head has arrived: close ``client``'s oldest begun head if it has
        too many begun now."""
        self.waits(client, connection)
        begun = self._begun.setdefault(client, {})
        begun[connection] = None
        if len(begun) > self.per_client:
            self._shed(client, next(iter(begun)), crowded=False)

    def arrived(self, client: str, connection: Shed) -> None:
        """``connection``'s head is complete, or it is closed (nothing happens if it was not waiting)."""
        waiting = self._waiting.get(client)
        if waiting is None or connection not in waiting:
            return
        del waiting[connection]
        self._count -= 1
        if not waiting:
            del self._waiting[client]
        begun = self._begun.get(client)
        if begun is not None:
            begun.pop(connection, None)
            if not begun:
                del self._begun[client]

    def gone(self, client: str, connection: Shed) -> None:
        """``connection`` is closed, and the server has seen it end."""
        self.arrived(client, connection)
        self._closing.discard(connection)

    def _shed(self, client: str, connection: Shed, *, crowded: bool) -> None:
        self.arrived(client, connection)
        self._closing.add(connection)
        connection.shed(crowded)


def is_trusted(proxies: str) -> Callable[[str], bool]:
    """Whether an address is one of ``proxies`` (comma-separated addresses or networks, ``*`` for any),
    as uvicorn's ``forwarded_allow_ips`` names them."""
    names = [p.strip() for p in proxies.split(",") if p.strip()]
    if "*" in names:
        return lambda host: True
    networks = []
    for name in names:
        try:
            networks.append(ipaddress.ip_network(name, strict=False))
        except ValueError:
            continue  # a socket path or a name: uvicorn matches those itself, nothing to cap here

    def trusted(host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return host in names
        return any(address in network for network in networks)

    return trusted


@dataclass(frozen=True)
class Deadlines:
    """What :func:`guarded_http` allows a connection: ``per_client`` connections of one client at once,
    ``head`` seconds for a request head, ``body`` seconds for its body (after its head), and
    ``heads_per_client`` heads of one client begun at once, ``heads_total`` connections waiting for a
    head in all, and ``room`` open connections of every kind past which they give way
    (:class:`ArrivingHeads`); ``max_head`` and ``max_url`` bytes of a head and its URL, and ``send``
    seconds for an answer the client does not read."""

    per_client: int
    head: float
    body: float
    heads_per_client: int
    heads_total: int
    room: int
    max_head: int = MAX_HEAD
    max_url: int = MAX_URL
    send: float = SEND_TIMEOUT


def guarded_http(
    deadlines: Deadlines, trusted: Callable[[str], bool], flooding: Callable[[str], bool] = lambda _: False
) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol (uvicorn's own choice wherever httptools is installed, as
    ``uvicorn[standard]`` installs it) with connections capped per client, silent connections timed
    out, deadlines for heads, bodies and unread answers, heads bounded in size and a budget of arriving
    heads (see the module docstring). ``flooding(client)``: whether the client's request allowance has
    cut it off now (its new connections are closed at once)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    connections = OpenConnections(deadlines.per_client)
    heads = ArrivingHeads(deadlines.heads_per_client, deadlines.heads_total, deadlines.room)
    refused = refusal(deadlines.per_client)
    late = answer(
        "408 Request Timeout",
        "timeout",
        f"a request must arrive within {deadlines.head:g} seconds",
    )
    shed = answer(
        "429 Too Many Requests",
        "rate_limited",
        f"at most {deadlines.heads_per_client} requests per address may be arriving at once",
    )
    crowded = answer(
        "503 Service Unavailable", "busy", "too many requests are arriving at once: try again soon"
    )
    too_large = answer(
        "431 Request Header Fields Too Large",
        "too_large",
        f"a request head is at most {deadlines.max_head // 1024} KiB",
    )
    too_long = answer("414 URI Too Long", "too_large", f"a URL is at most {deadlines.max_url // 1024} KiB")
    cut_off = answer(
        "429 Too Many Requests", "rate_limited", "too many requests from your address: wait a little"
    )
    base: Any = HttpToolsProtocol

    class GuardedHttp(base):  # type: ignore[misc]
        _client: str | None = None
        """The client whose budgets this connection counts in (none for a trusted proxy)."""
        _deadline: asyncio.TimerHandle | None = None
        """The head's deadline while one arrives, then its body's until that is complete."""
        _begun = False
        """Bytes of a request head have arrived (the deadline then answers 408 before closing)."""
        _in_head = True
        """The parser is reading a request head (or waiting for the next one), not a body."""
        _head_bytes = 0
        """Bytes of the head being read, known within :data:`FEED`."""
        _unread: asyncio.TimerHandle | None = None
        """The deadline of an answer the client does not read (while the transport's buffer is full)."""
        _cycles: tuple[Any, ...] = ()
        """The requests parsed and not yet answered in full: the one being answered and those pipelined
        behind it (uvicorn's ``cycle`` is only the last one parsed)."""

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if host is not None and not trusted(host):
                self._client = client_key(host)
                if not connections.admit(self._client, transport):
                    transport.write(refused)
                    transport.close()
                    return
                if flooding(self._client):
                    transport.write(cut_off)
                    transport.close()
                    return
                crowded_now = len(self.connections) - 1 > deadlines.room
                if crowded_now and len(connections.forget(self._client)) > CROWDED_SHARE:
                    # the server is running short: a client holding many already waits, so that the
                    # last connections go to those holding few (a fresh client's page and new game)
                    transport.write(refused)
                    transport.close()
                    return
                if not heads.make_room(self._client, len(self.connections) - 1):  # less this one
                    transport.close()
                    return
                heads.waits(self._client, self)
            # a connection that says nothing goes like an idle keep-alive one; the first byte it sends
            # stops this timer (uvicorn's own data_received), but not the head's deadline
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )
            self._arm(deadlines.head, self._head_late)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disconnect()
            super().connection_lost(exc)
            self._disarm()
            self._read()
            if self._client is not None:
                heads.gone(self._client, self)
                connections.forget(self._client)

        def data_received(self, data: bytes) -> None:
            if not self._in_head or self._head_bytes + len(data) <= deadlines.max_head:
                self._feed(data)  # nearly always: a whole head, a body, or a head's next piece
                return
            # A large piece while a head is read: a little at a time, to stop where the head grows too
            # large (a head that ends in it goes on to its body or the next request as usual).
            for at in range(0, len(data), FEED):
                if self.transport.is_closing():
                    return
                if self.transport.get_protocol() is not self:  # upgraded: the rest is the socket's
                    self.transport.get_protocol().data_received(data[at:])
                    return
                self._feed(data[at : at + FEED])

        def _feed(self, data: bytes) -> None:
            if self._in_head:
                self._head_bytes += len(data)
            super().data_received(data)
            if not self._in_head or self.transport.is_closing():
                return
            if len(getattr(self, "url", b"")) > deadlines.max_url:  # uvicorn sets it as a request begins
                self._refuse(too_long)
            elif self._head_bytes > deadlines.max_head:
                self._refuse(too_large)

        def _refuse(self, last_words: bytes) -> None:
            self._disarm()
            self._arrived()
            self.transport.write(last_words)
            self.transport.close()

        # An answer the client does not read: uvicorn pauses writing while the buffer is full.

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._unread is None:
                self._unread = self.loop.call_later(deadlines.send, self._unread_late)
                if self._client is not None:  # waiting for its client, as a head does: it may give way
                    heads.waits(self._client, self)

        def resume_writing(self) -> None:
            super().resume_writing()
            self._read()

        def _read(self) -> None:
            if self._unread is not None:
                self._unread.cancel()
                self._unread = None
                if self._client is not None and not self._begun:
                    heads.arrived(self._client, self)

        def _unread_late(self) -> None:
            self._unread = None
            self._drop()

        def _drop(self) -> None:
            """Drop the connection now (close() would wait for the buffer to drain, which it never
            does). Its answers are over: uvloop lets a writer waiting for the buffer go on at once, before
            the server has seen the connection end, and writing to it then raised in the app."""
            self._disconnect()
            self.transport.abort()

        def _disconnect(self) -> None:
            """Every request of the connection not answered in full is told its client is gone. uvicorn
            tells the last one parsed only: one pipelined before it, waiting to write into a full buffer,
            wrote into the closed transport when it woke, and uvloop raised in the app."""
            for cycle in self._cycles:
                if not cycle.response_complete:
                    cycle.disconnected = True

        # The parser's callbacks mark where a head and a body begin and end.

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._begun = True
            if self._deadline is None:  # a later request: its deadline counts from its first byte
                self._arm(deadlines.head, self._head_late)
            if self._client is not None:
                heads.begins(self._client, self)

        def on_headers_complete(self) -> None:
            self._disarm()
            self._arrived()
            self._begun = False
            self._in_head, self._head_bytes = False, 0
            super().on_headers_complete()
            if self.cycle is not None and self.cycle not in self._cycles:
                self._cycles = (*(c for c in self._cycles if not c.response_complete), self.cycle)
            if not (self.parser.should_upgrade() and self._should_upgrade()):
                self._arm(deadlines.body + BODY_GRACE, self._body_late)

        def on_message_complete(self) -> None:
            self._disarm()
            self._in_head = True
            super().on_message_complete()

        # The deadlines and the budget.

        def _arm(self, seconds: float, late: Callable[[], None]) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, late)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _arrived(self) -> None:
            if self._client is not None:
                heads.arrived(self._client, self)

        def _close(self, last_words: bytes | None) -> None:
            self._deadline = None
            self._arrived()
            if not self.transport.is_closing():
                if last_words is not None and (self.cycle is None or self.cycle.response_complete):
                    self.transport.write(last_words)
                self.transport.close()

        def _head_late(self) -> None:
            self._close(late if self._begun else None)

        def _body_late(self) -> None:
            self._close(None)  # the app has answered 408 if it was reading the body

        def shed(self, crowded_out: bool) -> None:
            if self._unread is not None:  # an answer its client does not read: nothing more to say
                self._read()
                self._drop()
                return
            self._disarm()
            self._close((crowded if crowded_out else shed) if self._begun else None)

    return GuardedHttp


__all__ = [
    "CROWDED_SHARE",
    "MARGIN",
    "ArrivingHeads",
    "Deadlines",
    "OpenConnections",
    "answer",
    "guarded_http",
    "is_trusted",
    "refusal",
]
