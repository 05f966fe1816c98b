"""The web application: pages, a small JSON API and one WebSocket per browser tab.

:func:`create_app` puts it together from its routers, each a module of its own: the pages
(:mod:`~kniffel.apps.web.pages`), the JSON API (:mod:`~kniffel.apps.web.api`), the rematch
(:mod:`~kniffel.apps.web.rooms`), the analysis (:mod:`~kniffel.apps.web.analysis`) and the table's
WebSocket (:mod:`~kniffel.apps.web.websocket`, speaking :mod:`~kniffel.apps.web.protocol`); around them the
middleware (:mod:`~kniffel.apps.web.middleware`). The routes reach the game service, the allowances and
the settings through ``app.state`` (:mod:`~kniffel.apps.web.dependencies`); the lifespan opens the
database and runs the service.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import Response

from kniffel.apps.web import analysis, api, guard, handover, pages, rooms, trainer, websocket
from kniffel.apps.web.errors import WebError, error_response
from kniffel.apps.web.guard import Allowances, ClientLimits, OpenSockets
from kniffel.apps.web.middleware import SECURITY_HEADERS, AllowedHosts, RequestAllowance, SecurityHeaders
from kniffel.apps.web.pages import STATIC, StaticInMemory
from kniffel.apps.web.service import GameService
from kniffel.apps.web.settings import HOSTS_ENV, Settings, setting, sockets_per_client_setting
from kniffel.apps.web.store import Store
from kniffel.apps.web.watchers import SEAT_SHARE, WATCH_IDLE, WATCHERS_PER_CLIENT, WATCHERS_PER_GAME, Watchers
from kniffel.apps.web.words import language_of


def client_limits(
    kind: str, given: tuple[float | None, float | None], defaults: tuple[float, float]
) -> ClientLimits:
    """An allowance of one kind per client: the rate and burst ``given`` to :func:`create_app`, else
    ``KNIFFEL_{kind}_RATE`` and ``KNIFFEL_{kind}_BURST``, else the ``defaults``."""
    (rate, burst), (default_rate, default_burst) = given, defaults
    return ClientLimits(
        setting(rate, f"KNIFFEL_{kind}_RATE", default_rate),
        setting(burst, f"KNIFFEL_{kind}_BURST", default_burst),
    )


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float | None = None,
    rate: float | None = None,
    burst: float | None = None,
    request_rate: float | None = None,
    request_burst: float | None = None,
    create_rate: float | None = None,
    create_burst: float | None = None,
    advice_rate: float | None = None,
    advice_burst: float | None = None,
    chances_rate: float | None = None,
    chances_burst: float | None = None,
    sockets_per_client: int | None = None,
    max_sockets: int | None = None,
    body_timeout: float | None = None,
    allowed_hosts: str | None = None,
) -> FastAPI:
    """The app; ``None`` settings come from ``KNIFFEL_DATABASE_URL``, ``KNIFFEL_BOT_DELAY`` (seconds between
    bot actions, 0.6), ``KNIFFEL_WS_RATE`` and ``KNIFFEL_WS_BURST`` (WebSocket messages per client and second,
    20 and 40; a new socket costs :data:`kniffel.apps.web.websocket.CONNECT_COST` of them),
    ``KNIFFEL_REQUEST_RATE`` and ``KNIFFEL_REQUEST_BURST`` (requests of every kind per client and second,
    pages, static files, the health check and new WebSockets included, 10 and 200),
    ``KNIFFEL_CREATE_RATE`` and ``KNIFFEL_CREATE_BURST`` (games a client may create per second, rematches
    included, 0.2 and 20), ``KNIFFEL_ADVICE_RATE`` and ``KNIFFEL_ADVICE_BURST`` (hints and reviews per client
    and second, 1 and 20), ``KNIFFEL_CHANCES_RATE`` and ``KNIFFEL_CHANCES_BURST`` (asks for the chances of
    winning per client and second, 5 and 50: a page asks once after each action),
    ``KNIFFEL_SOCKETS_PER_CLIENT`` (WebSockets a client may hold open at once, 50),
    ``KNIFFEL_WATCHERS_PER_CLIENT``, ``KNIFFEL_WATCHERS_PER_GAME`` and ``KNIFFEL_WATCH_IDLE`` (sockets
    without a seat per client and per table, 8 and 32, and the seconds they may stay silent, 300: see
    :mod:`kniffel.apps.web.watchers`; a quarter of all sockets is kept for seats), ``KNIFFEL_BODY_TIMEOUT``
    (seconds a request body may take to arrive, 10) and ``KNIFFEL_ALLOWED_HOSTS`` (the names the site answers
    to, comma-separated; by default ``localhost`` and any IP address: :func:`guard.host_allowed`).
    ``max_sockets``, the WebSockets of all clients together, follows from the process's limit of open files
    (:func:`guard.connection_budget`).

    A client is an address (:func:`guard.client_of`): its allowance is shared by all its connections
    and survives reconnecting."""
    sockets = OpenSockets(
        sockets_per_client_setting(sockets_per_client),
        max_sockets if max_sockets is not None else guard.connection_budget().sockets,
    )
    allowances = Allowances(
        messages=client_limits("WS", (rate, burst), (20, 40)),
        requests=client_limits("REQUEST", (request_rate, request_burst), (10, 200)),
        creations=client_limits("CREATE", (create_rate, create_burst), (0.2, 20)),
        advice=client_limits("ADVICE", (advice_rate, advice_burst), (1, 20)),
        chances=client_limits("CHANCES", (chances_rate, chances_burst), (5, 50)),
        sockets=sockets,
        watchers=Watchers(
            int(setting(None, "KNIFFEL_WATCHERS_PER_CLIENT", WATCHERS_PER_CLIENT)),
            int(setting(None, "KNIFFEL_WATCHERS_PER_GAME", WATCHERS_PER_GAME)),
            sockets.total - sockets.total // SEAT_SHARE,
            setting(None, "KNIFFEL_WATCH_IDLE", WATCH_IDLE),
        ),
    )
    host_names = guard.host_names(allowed_hosts if allowed_hosts is not None else os.environ.get(HOSTS_ENV))

    app = FastAPI(
        title="kniffel",
        lifespan=lifespan,
        exception_handlers={WebError: refused, Exception: failed},
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.allowances = allowances
    app.state.settings = Settings(
        database_url,
        bot_delay=setting(bot_delay, "KNIFFEL_BOT_DELAY", 0.6),
        body_timeout=setting(body_timeout, "KNIFFEL_BODY_TIMEOUT", 10),
    )
    # The last added runs first: every answer, a refused host's and request's too, gets the security
    # headers, and a request past its allowance costs no more than the allowance's look-up.
    app.add_middleware(AllowedHosts, names=host_names)
    app.add_middleware(RequestAllowance, limits=allowances.requests)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticInMemory(directory=STATIC), name="static")
    for router in (
        rooms.router,
        handover.router,
        analysis.router,
        trainer.router,
        pages.router,
        api.router,
        websocket.router,
    ):
        app.include_router(router)
    return app


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The game service of one app while it serves: the database opened, the bot workers started and,
    where other processes share the database, their commits followed."""
    settings: Settings = app.state.settings
    allowances: Allowances = app.state.allowances
    store = Store(settings.database_url)
    service = GameService(store, bot_delay=settings.bot_delay)
    app.state.service = service
    await service.start()
    # The server's own log (uvicorn's), so that whoever starts it sees how many players fit.
    logging.getLogger("uvicorn.error").info(
        "WebSockets: at most %d in all, %d per client (open files: %d)",
        allowances.sockets.total,
        allowances.sockets.per_client,
        guard.open_files(),
    )
    try:
        yield
    finally:
        await service.stop()
        store.close()


async def refused(request: Request, error: WebError) -> Response:
    return error_response(error, language=language_of(request))


async def failed(_request: Request, _error: Exception) -> Response:
    # Answered outside every middleware (the server logs the error), so the headers are set here.
    error = WebError("internal", "something went wrong on the server: try again later")
    return error_response(error, headers=SECURITY_HEADERS)
