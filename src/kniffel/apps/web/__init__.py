"""Kniffel in the browser: online tables with invite links, hot seat, bots and a score pad.

``kniffel serve`` calls :func:`serve`; tests and embedders use :func:`kniffel.apps.web.app.create_app`.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from kniffel.apps.web.database import default_database_url, make_engine
from kniffel.apps.web.settings import PROXIES_ENV
from kniffel.base.errors import KniffelError

if TYPE_CHECKING:
    from kniffel.apps.web.connections import Deadlines
    from kniffel.apps.web.guard import ConnectionBudget

MAX_WS_MESSAGE = 65536
"""Frames above this are refused by the WebSocket layer itself (the app answers anything above 4 KiB
with a clear error; this bounds the memory a hostile client can make the server buffer)."""


class DatabaseError(KniffelError):
    """A database the server cannot use: a URL that is not one, a driver that is missing, a server that
    does not answer, an SQLite file in a folder that does not exist."""


def check_database(database_url: str | None = None) -> None:
    """Connect once to the database :func:`serve` would use and raise :class:`DatabaseError` saying in
    one line what is wrong, so that a bad ``--database-url`` is not a traceback from inside the server."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    url_text = database_url or default_database_url()
    try:
        url = make_url(url_text)
    except ArgumentError:
        raise DatabaseError(
            f"{url_text!r} is not a database URL (e.g. sqlite:///games.sqlite3 or "
            "postgresql+psycopg://user@host/kniffel)"
        ) from None
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        folder = Path(url.database).expanduser().parent
        if not folder.is_dir():
            raise DatabaseError(f"{shown}: the folder {folder} does not exist")
    try:
        engine = make_engine(url_text)  # the server's own engine: a silent host costs CONNECT_TIMEOUT
    except NoSuchModuleError:
        raise DatabaseError(f"{shown}: unknown kind of database {url.drivername!r}") from None
    except ImportError as error:
        raise DatabaseError(f"{shown}: the database driver is not installed ({error})") from None
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise DatabaseError(f"{shown}: cannot connect ({reason})") from None
    finally:
        engine.dispose()


FREEZE_EVERY = 1.0
"""Seconds between moving every object out of the collector's sight (``gc.freeze``)."""
COLLECT_EVERY = 600.0
"""Seconds between full collections, which free the cycles frozen meanwhile."""
COLLECT_AFTER = 5_000_000
"""Objects made since the last full collection (counted generously) that call for the next one early."""


def pace_collections(
    freeze_every: float = FREEZE_EVERY,
    collect_every: float = COLLECT_EVERY,
    collect_after: int = COLLECT_AFTER,
) -> None:
    """Keep Python's cycle collector from stopping the server while people wait for their dice.

    A server holds a few hundred thousand long-lived objects (every live game's turns, outcomes and
    sheets). Full collections walked all of them: with 2,000 players, 270-540 ms every 5-10 s, during
    which no action was answered. Freezing what had lived 5 s left the young collections: each of
    them walks every object made since the last freeze that is still alive, because the count that
    triggers them falls whenever an old object is freed, so they came every second or two at 20-70
    ms each and still set the p99. Refcounting frees everything but cycles, and the server makes few
    of them (a few hundred objects a minute under that load). So the collector is switched off,
    everything alive is frozen once a second (which costs nothing: a list splice), and a full
    collection every ``collect_every`` seconds frees the cycles frozen meanwhile, one pause of a few
    hundred milliseconds. Should something make cycles fast (errors under attack leave tracebacks),
    the full collection comes early once ``collect_after`` objects were made since the last one;
    the count (allocations minus frees per second, never below zero) overstates what was made, so
    this errs towards collecting."""

    def run() -> None:
        last = time.monotonic()
        made = 0
        while True:
            time.sleep(freeze_every)
            made += gc.get_count()[0]
            if made >= collect_after or time.monotonic() - last >= collect_every:
                gc.unfreeze()
                gc.collect()
                last = time.monotonic()
                made = 0
            gc.freeze()

    gc.collect()
    gc.freeze()
    gc.disable()
    threading.Thread(target=run, name="kniffel-gc-pacing", daemon=True).start()


class RefusalIsNoError(logging.Filter):
    """Drops uvicorn's "ASGI callable returned without completing handshake" line. Its websockets-sansio
    protocol logs it at ERROR after every socket the app refuses with an HTTP answer (the denial
    response extension), though the answer was sent (uvicorn pull request #3138). The app returns
    without a handshake only after such a refusal, so the line says nothing, and under a reconnect
    storm it came thousands of times a second."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "ASGI callable returned without completing handshake."


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    *,
    bot_delay: float | None = None,
    log_level: str = "info",
    trusted_proxies: str | None = None,
    allowed_hosts: str | None = None,
    build_allowance: int | None = None,
) -> None:
    """Run the web app until interrupted. ``database_url`` defaults to ``KNIFFEL_DATABASE_URL``, else an
    SQLite file in the per-user data directory.

    ``trusted_proxies`` (default ``KNIFFEL_TRUSTED_PROXIES``, else none): the addresses or networks of
    reverse proxies whose ``X-Forwarded-For`` names the client, comma-separated. A client is then the
    right-most address in that header that is not one of them (uvicorn's proxy headers): whatever a
    client writes there itself stands left of what its proxy added. Without trusted proxies the header
    is ignored, so that no one gets a fresh allowance per value of it. ``allowed_hosts`` (default
    ``KNIFFEL_ALLOWED_HOSTS``): the names the site answers to (:func:`kniffel.apps.web.app.create_app`).
    ``build_allowance`` (default ``KNIFFEL_BUILD_ALLOWANCE``, else
    :data:`~kniffel.apps.web.settings.BUILD_ALLOWANCE`): the bytes a build of tables in this process may
    add to its memory before it lets the pages of its files go (:func:`kniffel.core.allow_growth`).

    The process's soft limit of open files is raised towards its hard limit, and the connections
    taken stay within it (:func:`kniffel.apps.web.guard.connection_budget`); each client (a trusted proxy
    apart) holds at most a few more plain connections than WebSockets, a connection that sends
    nothing is closed, every request head and body has a deadline however it trickles, and the heads
    arriving at once are budgeted per client and in all (:mod:`kniffel.apps.web.connections`,
    :func:`deadlines`)."""
    import uvicorn

    from kniffel.apps.web import connections, guard
    from kniffel.apps.web.app import create_app
    from kniffel.apps.web.settings import build_allowance_setting
    from kniffel.core import allow_growth

    allow_growth(build_allowance_setting(build_allowance))

    proxies = trusted_proxies if trusted_proxies is not None else os.environ.get(PROXIES_ENV, "")
    proxies = ",".join(p.strip() for p in proxies.replace(" ", ",").split(",") if p.strip())
    budget = guard.connection_budget(guard.raise_file_limit())
    app = create_app(
        database_url, bot_delay=bot_delay, allowed_hosts=allowed_hosts, max_sockets=budget.sockets
    )
    pace_collections()
    logging.getLogger("uvicorn.error").addFilter(RefusalIsNoError())
    # No per-message compression: deflating every state for every tab took a sixth of the server's
    # time under load, to save a few kilobytes a second per player.
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_WS_MESSAGE,
        ws_per_message_deflate=False,
        log_level=log_level,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        server_header=False,
        limit_concurrency=budget.connections,
        http=connections.guarded_http(
            deadlines(budget),
            connections.is_trusted(proxies),
            lambda client: app.state.allowances.requests.of(client).flooding,
        ),
    )


def deadlines(budget: ConnectionBudget) -> Deadlines:
    """What :func:`serve`'s connections are allowed (:class:`kniffel.apps.web.connections.Deadlines`), from
    the environment: ``KNIFFEL_HEAD_TIMEOUT`` (seconds for a request head, 10), ``KNIFFEL_BODY_TIMEOUT``
    (the app's, 10; the connection is closed a second after it), ``KNIFFEL_HEADS_PER_CLIENT`` (heads
    one client may have begun at once, 8) and ``KNIFFEL_MAX_HEADS`` (connections waiting for a head in
    all, by default ``budget.heads``, the open connections past which they give way),
    ``KNIFFEL_MAX_HEAD`` (bytes of a request head, 32 KiB) and ``KNIFFEL_SEND_TIMEOUT`` (seconds an
    answer may wait for its client to read it, 20); a client holds
    ``KNIFFEL_SOCKETS_PER_CLIENT`` + :data:`kniffel.apps.web.connections.MARGIN` connections at most."""
    from kniffel.apps.web import connections
    from kniffel.apps.web.settings import setting, sockets_per_client_setting

    return connections.Deadlines(
        per_client=sockets_per_client_setting() + connections.MARGIN,
        head=setting(None, "KNIFFEL_HEAD_TIMEOUT", connections.HEAD_TIMEOUT),
        body=setting(None, "KNIFFEL_BODY_TIMEOUT", 10),
        heads_per_client=max(1, int(setting(None, "KNIFFEL_HEADS_PER_CLIENT", connections.HEADS_PER_CLIENT))),
        heads_total=max(1, int(setting(None, "KNIFFEL_MAX_HEADS", budget.heads))),
        room=budget.heads,
        max_head=max(1024, int(setting(None, "KNIFFEL_MAX_HEAD", connections.MAX_HEAD))),
        send=setting(None, "KNIFFEL_SEND_TIMEOUT", connections.SEND_TIMEOUT),
    )


__all__ = ["DatabaseError", "check_database", "deadlines", "serve"]
