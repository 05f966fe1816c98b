"""Plain connections per client, held below the app: the HTTP protocol ``kniffel serve`` runs.

The app's allowances count requests and WebSockets, but a connection that never sends a request
reaches no app: uvicorn kept it open for ever, and each one took an open file and a place under the
connection limit. From one address, a few hundred of them made the server answer 503 to everyone
(and a thousand used up the open files). This protocol

* caps the connections one client holds at once (WebSockets included: an upgraded connection keeps
  its transport), refusing more by closing them at once, before anything is read;
* closes a connection that says nothing for as long as an idle keep-alive connection may stay
  (uvicorn arms that timer only after a first answer, so a silent connection had none).

A reverse proxy the operator trusts (``--trusted-proxies``) is not capped: every player comes through
it, and it is the proxy's job to time out slow clients (``docs/deploy.md``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable
from typing import Any

from kniffel.web.guard import SECURITY_HEADERS, client_key

MARGIN = 32
"""Connections a client may hold beyond its WebSockets: a browser opens about six to a site for pages
and requests, and several players may share an address (a family, a school)."""


def refusal(per_client: int) -> bytes:
    """The answer a connection past the cap gets before it is closed: the app's refusal, as the app
    would send it (429, a JSON reason, the security headers)."""
    body = json.dumps(
        {"error": "rate_limited", "message": f"at most {per_client} connections per address: close some tabs"}
    ).encode()
    headers = {
        "content-type": "application/json",
        "content-length": str(len(body)),
        "connection": "close",
        **SECURITY_HEADERS,
    }
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"HTTP/1.1 429 Too Many Requests\r\n{head}\r\n".encode() + body


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


def guarded_http(per_client: int, trusted: Callable[[str], bool]) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools where installed, as uvicorn's own choice, else h11) with
    connections capped per client and silent connections timed out (see the module docstring)."""
    base: Any
    try:
        from uvicorn.protocols.http import httptools_impl

        base = httptools_impl.HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
        from uvicorn.protocols.http import h11_impl

        base = h11_impl.H11Protocol

    connections = OpenConnections(per_client)
    refused = refusal(per_client)

    class GuardedHttp(base):  # type: ignore[misc]
        _client: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if host is not None and not trusted(host):
                self._client = client_key(host)
                if not connections.admit(self._client, transport):
                    transport.write(refused)
                    transport.close()
                    return
            # a connection that says nothing goes like an idle keep-alive one; the first byte it sends
            # stops this timer (uvicorn's own data_received)
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            if self._client is not None:
                connections.forget(self._client)

    return GuardedHttp


__all__ = ["MARGIN", "OpenConnections", "guarded_http", "is_trusted", "refusal"]
