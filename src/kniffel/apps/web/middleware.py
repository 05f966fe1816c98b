"""The ASGI middleware around the app: every answer carries the browser's security headers, a request or
socket whose ``Host`` is not this site's is refused before the app sees it, and so is one past its
client's allowance of requests."""

from __future__ import annotations

import time

from fastapi import WebSocket
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kniffel.apps.web import guard
from kniffel.apps.web.errors import WebError, error_response, refuse_socket
from kniffel.apps.web.guard import ClientLimits, client_of
from kniffel.apps.web.settings import HOSTS_ENV

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
"""Sent with every HTTP answer, errors included: only this site's own scripts run, they talk to this
site alone (``'self'`` covers its WebSockets in current browsers, where ``ws:`` allowed any host), and
no other site may frame a table (the invite tokens live in the page's address)."""


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every answer that passes through it, the
    refusals of the middleware inside it included (a foreign host name, a refused WebSocket)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class AllowedHosts:
    """ASGI middleware refusing (400) requests and sockets whose ``Host`` is not this site's
    (:func:`guard.host_allowed`): a defence against DNS rebinding. Starlette's ``TrustedHostMiddleware``
    takes names only, and the default here is any address the server is reached by."""

    def __init__(self, app: ASGIApp, names: frozenset[str] | None) -> None:
        self.app, self.names = app, names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host")
        if guard.host_allowed(host, self.names):
            await self.app(scope, receive, send)
            return
        shown = "localhost and its IP addresses" if self.names is None else ", ".join(sorted(self.names))
        error = WebError(
            "wrong_host",
            f"this server answers to {shown}, not {str(host)[:60]!r} (see {HOSTS_ENV} or --allowed-hosts)",
        )
        if scope["type"] == "websocket":
            await refuse_socket(WebSocket(scope, receive, send), error)
        else:
            await error_response(error)(scope, receive, send)


CUT_OFF = 1.0
"""Seconds a client past its allowance of requests finds its new connections closed at once."""


class RequestAllowance:
    """ASGI middleware spending one of the client's request allowance (:class:`ClientLimits`) on every
    request and WebSocket, the health check and static files included: the app's own allowances count
    only what costs the server work (new games, advice), and twenty addresses asking ``/api/health``
    without pause slowed everyone's new game. A request past the allowance is answered 429 and its
    connection closed (a client pipelining requests sends no more on it); one cut off for flooding
    finds its new connections closed before anything is read (:mod:`kniffel.apps.web.connections`).

    The client is the address after uvicorn's proxy headers, so behind a trusted proxy each person
    counts, not the proxy. Past the allowance the client is cut off for :data:`CUT_OFF` seconds (longer
    once it floods: :class:`kniffel.apps.web.guard.RateLimit`)."""

    def __init__(self, app: ASGIApp, limits: ClientLimits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        limit = self.limits.of(client_of(HTTPConnection(scope)))
        if limit.allow():
            await self.app(scope, receive, send)
            return
        # Past its allowance a client is cut off a moment: its next connections are closed before
        # anything is read, which costs far less than answering each of its requests 429.
        limit.blocked_until = max(limit.blocked_until, time.monotonic() + CUT_OFF)
        error = WebError("rate_limited", "too many requests from your address: wait a little")
        if scope["type"] == "websocket":
            await refuse_socket(WebSocket(scope, receive, send), error)
        else:
            await error_response(error, headers={"connection": "close"})(scope, receive, send)
