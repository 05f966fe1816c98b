"""What stands between the internet and the game service: hostile JSON, floods per client, cross-site
requests and the browser's security headers.

A *client* is an address (``request.client.host``; behind a trusted proxy uvicorn puts the forwarded
address there). Limits belong to the client, not to one connection, so reconnecting or opening more
tabs gives no fresh allowance.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from kniffel.web.service import WebError

MAX_DEPTH = 8
"""Nesting of objects and lists in a request; a real one nests 3 deep (``{"seats": [{...}]}``)."""
MAX_INT_DIGITS = 18
"""Digits of a number in a request: positions and seats are small; no giant integers to convert."""
MAX_CLIENTS = 50_000
"""Clients whose allowances are remembered; the longest idle ones are forgotten first."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
"""Sent with every HTTP answer: only this site's own scripts run, and no other site may frame a table
(the invite tokens live in the page's address)."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise WebError("malformed", f"numbers have at most {MAX_INT_DIGITS} digits")
    return int(text)


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
