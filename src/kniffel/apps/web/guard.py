"""What stands between the internet and the game service: hostile JSON, floods per client, sockets held
open, cross-site requests and foreign host names (the middleware that applies the last, and adds the
browser's security headers to every answer, is :mod:`kniffel.apps.web.middleware`).

A *client* is an address (:func:`client_of`: the connection's peer, or behind a proxy the operator
trusts the address that proxy saw, which uvicorn puts there; an IPv6 client is its /64 network, which
one machine gets whole). Limits belong to the client, not to one connection, so reconnecting or
opening more tabs gives no fresh allowance.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import json
import re
import sys
import time
from collections import Counter, OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from kniffel.apps.web.errors import WebError
from kniffel.apps.web.watchers import Watchers
from kniffel.base.i18n import N_

MAX_DEPTH = 8
"""Nesting of objects and lists in a request; a real one nests 3 deep (``{"seats": [{...}]}``)."""
MAX_INT_DIGITS = 18
"""Digits of a number in a request: positions and seats are small; no giant integers to convert."""
MAX_CLIENTS = 50_000
"""Clients whose allowances are remembered; the longest idle ones are forgotten first."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise WebError("malformed", f"numbers have at most {MAX_INT_DIGITS} digits")
    return int(text)


ASCII_DIGITS = frozenset("0123456789")


def whole_number(text: str, what: str, low: int, high: int) -> int:
    """A whole number a request carries as text (a query's ``target``), refused (``invalid``, 422) unless
    it is written in the ASCII digits alone and lies from ``low`` to ``high``: ``str.isdigit`` also
    accepts ``²`` (which ``int`` refuses) and ``int`` accepts ``١٢`` (Arabic-Indic digits), so neither
    decides what a number is here."""
    if not text or len(text) > MAX_INT_DIGITS or not ASCII_DIGITS.issuperset(text):
        raise WebError(
            "invalid", N_(f"{what} must be a whole number from {low} to {high}, in the digits 0-9")
        )
    number = int(text)
    if not low <= number <= high:
        raise WebError(
            "invalid", N_(f"{what} must be a whole number from {low} to {high}, in the digits 0-9")
        )
    return number


def ascii_numbers(text: str, what: str) -> str:
    """``text`` unchanged if every digit in it is an ASCII one; refused (``invalid``) if it holds another
    (``²``, an Arabic-Indic one, a full-width one): positions and actions typed as text carry their
    numbers in the digits 0-9, and the parsers behind them must never see a character that ``isdigit``
    accepts and ``int`` does not."""
    for char in text:
        if char not in ASCII_DIGITS and (char.isdigit() or char.isdecimal() or char.isnumeric()):
            raise WebError(
                "invalid",
                N_(f"{what} holds the character U+{ord(char):04X}: write numbers in the digits 0-9"),
            )
    return text


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings, counted without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_json(raw: str | bytes, what: str = "the request body") -> Any:
    """JSON from a client, refused with :class:`WebError` (``malformed``) unless it nests at most
    :data:`MAX_DEPTH` deep, its numbers are short and every string is encodable text (a lone surrogate
    cannot be stored, sent back or shown)."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise WebError("malformed", f"{what} is not UTF-8 text") from None
    if _depth(text) > MAX_DEPTH:
        raise WebError("malformed", f"{what} nests deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text, parse_int=_int)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        raise WebError("malformed", f"{what} is not JSON") from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise WebError("malformed", f"{what} holds a lone surrogate, which is no text") from None
    return data


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once. Refused messages
    fill a second bucket that drains at the same rate; when it overflows the client is flooding and
    everything it sends is refused for ``penalty`` seconds (by default while ten bursts would drain)."""

    def __init__(self, rate: float, burst: float, penalty: float | None = None) -> None:
        self.rate, self.burst = rate, burst
        self.penalty = penalty if penalty is not None else 10 * burst / max(rate, 1e-9)
        self.tokens = burst
        self.excess = 0.0
        self.stamp = time.monotonic()
        self.blocked_until = 0.0

    def allow(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        if now < self.blocked_until:
            return False
        elapsed, self.stamp = now - self.stamp, now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.excess = max(0.0, self.excess - elapsed * self.rate)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        self.excess += cost
        if self.excess > 10 * self.burst:
            self.blocked_until, self.excess = now + self.penalty, 0.0
        return False

    @property
    def flooding(self) -> bool:
        return time.monotonic() < self.blocked_until


class ClientLimits:
    """One :class:`RateLimit` per client, the least recently seen forgotten beyond :data:`MAX_CLIENTS`."""

    def __init__(self, rate: float, burst: float, max_clients: int = MAX_CLIENTS) -> None:
        self.rate, self.burst, self.max_clients = rate, burst, max_clients
        self._limits: OrderedDict[str, RateLimit] = OrderedDict()

    def of(self, client: str) -> RateLimit:
        limit = self._limits.get(client)
        if limit is None:
            limit = self._limits[client] = RateLimit(self.rate, self.burst)
            while len(self._limits) > self.max_clients:
                self._limits.popitem(last=False)
        else:
            self._limits.move_to_end(client)
        return limit

    def spend(self, client: str, refusal: str) -> None:
        """Spend one of ``client``'s allowance, or refuse (``rate_limited``, saying ``refusal``: a whole
        sentence, so that the catalogs translate it)."""
        if not self.of(client).allow():
            raise WebError("rate_limited", refusal)


def cross_site(headers: Mapping[str, str], host: str) -> bool:
    """Whether a state-changing request comes from another site's page: browsers name the page's origin
    (``Origin``) and, in newer ones, say so outright (``Sec-Fetch-Site``). Programs send neither."""
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    return origin == "null" or urlsplit(origin).netloc.lower() != host.lower()


def is_json(content_type: str | None) -> bool:
    """A body declared as JSON (``application/json``, any parameters). A missing type is accepted for
    programs; browsers always declare one, and may send ``text/plain`` across sites without asking."""
    if content_type is None:
        return True
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


def client_of(connection: HTTPConnection) -> str:
    """The client a request or socket comes from, whose allowances it spends."""
    return client_key(connection.client.host if connection.client is not None else "unknown")


@functools.lru_cache(maxsize=4096)
def client_key(host: str) -> str:
    """``host`` as a client: an IPv4 address as it is, an IPv6 address as its /64 network (a machine is
    given a whole /64 and may send from any address in it), an IPv4 address written as IPv6 as that
    IPv4 address, and anything else (a test client's name) as it is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return host


class OpenSockets:
    """The WebSockets open now, per client and in all: a client may hold ``per_client`` of them and the
    process ``total`` (:func:`connection_budget`), so that neither one address nor many use up the open
    files that the database and every other player need too."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client, self.total = per_client, total
        self._open: Counter[str] = Counter()
        self._all = 0

    def full(self, spare: int = 0) -> bool:
        """Whether every socket is taken, less ``spare`` ones being closed."""
        return self._all - spare >= self.total

    def admit(self, client: str, spare: int = 0) -> WebError | None:
        """Count a new socket of ``client``, or say why it is refused (then nothing is counted);
        ``spare``: sockets being closed to make room, counted open until they are."""
        if self._open[client] >= self.per_client:
            return WebError(
                "rate_limited", f"at most {self.per_client} connections per address: close some tabs"
            )
        if self.full(spare):
            return WebError("busy", "the server has no room for more connections: try again soon")
        self._open[client] += 1
        self._all += 1
        return None

    def release(self, client: str) -> None:
        """A socket :meth:`admit` counted has closed."""
        self._all -= 1
        self._open[client] -= 1
        if self._open[client] <= 0:
            del self._open[client]


FILE_RESERVE = 128
"""Open files kept for everything but the clients' connections: the database's pool (up to 30
connections, and an SQLite connection holds three files), PostgreSQL's listening and writing
connections, the listening socket, logs, static files being sent and solver tables being read."""
MAX_OPEN_FILES = 65536
"""The soft limit of open files the server asks for (:func:`raise_file_limit`), and what it assumes
where the system sets none."""


def open_files() -> int:
    """The process's limit of open files (its soft limit)."""
    if sys.platform == "win32":  # no such limit per process; sockets are bounded by memory
        return MAX_OPEN_FILES
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return MAX_OPEN_FILES if soft == resource.RLIM_INFINITY else soft


def raise_file_limit(wanted: int = MAX_OPEN_FILES) -> int:
    """Raise the process's soft limit of open files towards its hard limit (at most ``wanted``) and
    return the limit now. Many systems start processes with a soft limit of 1,024 and allow far more
    on request; a few hundred players' sockets would use up the 1,024."""
    if sys.platform != "win32":
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        if soft != resource.RLIM_INFINITY and soft < target:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return open_files()


@dataclass(frozen=True)
class ConnectionBudget:
    """How many connections a process with ``files`` open files takes: ``connections`` of every kind
    (uvicorn answers further requests 503) and ``sockets`` WebSockets of all clients, which leaves
    ``connections - sockets`` for pages and the API even when every socket is taken. Connections
    waiting for a request head give way to a new one once ``heads`` connections are open
    (:class:`kniffel.apps.web.connections.ArrivingHeads`): the last ``connections - heads`` are kept for
    requests whose head has arrived, so slow senders never make uvicorn answer 503."""

    files: int
    connections: int
    sockets: int
    heads: int


def connection_budget(files: int | None = None) -> ConnectionBudget:
    """The budget for ``files`` open files (default: the process's limit now): :data:`FILE_RESERVE`
    stay free, an eighth of the rest (at least 16) is kept from the WebSockets, and half of that (at
    least 16) from connections waiting for a request head."""
    files = open_files() if files is None else files
    connections = max(32, files - FILE_RESERVE)
    pages = max(16, connections // 8)
    return ConnectionBudget(files, connections, connections - pages, connections - max(16, pages // 2))


LOCAL_NAME = "localhost"
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?")
"""A ``Host`` header: a name or an address (IPv6 in brackets), and a port."""


def host_allowed(host_header: str | None, names: frozenset[str] | None) -> bool:
    """Whether a request's ``Host`` names this site. ``names``: the names it answers to (``*.example.org``
    covers that domain's subdomains, ``*`` anything); ``None``: ``localhost`` and any IP address.

    A page of another site whose name an attacker points at this server's address (DNS rebinding)
    sends its own name; a page reached by an address cannot be rebound, so by default a server answers
    every address it is reached by (on a laptop, the one a phone on the same network uses) and its
    name on this machine."""
    match = _HOST.fullmatch((host_header or "").lower())
    if match is None:
        return False
    host = match.group(1)
    if names is None:
        if host == LOCAL_NAME:
            return True
        try:
            ipaddress.ip_address(host.strip("[]"))
        except ValueError:
            return False
        return True
    return "*" in names or host in names or any(n[1:] and host.endswith(n[1:]) for n in names if n[0] == "*")


def host_names(setting: str | None) -> frozenset[str] | None:
    """The names of an allowed-hosts setting (``"kniffel.example.org, localhost"``) as
    :func:`host_allowed` takes them; ``None`` (the default: ``localhost`` and any address) for an empty
    setting. An IPv6 address is written as in a ``Host`` header, in brackets."""
    names = set()
    for name in (setting or "").lower().replace(" ", ",").split(","):
        if not name:
            continue
        try:
            if ipaddress.ip_address(name).version == 6:
                name = f"[{name}]"
        except ValueError:
            pass
        names.add(name)
    return frozenset(names) or None


@dataclass(frozen=True)
class Allowances:
    """Every client's allowances in one app (``app.state.allowances``): WebSocket messages and new
    sockets, requests of every kind, new games (rematches too), hints and reviews, chances of winning,
    and open sockets."""

    messages: ClientLimits
    requests: ClientLimits
    """Every request and new WebSocket (:class:`kniffel.apps.web.middleware.RequestAllowance`)."""
    creations: ClientLimits
    advice: ClientLimits
    chances: ClientLimits
    sockets: OpenSockets
    watchers: Watchers
    """The sockets without a seat (:mod:`kniffel.apps.web.watchers`)."""
