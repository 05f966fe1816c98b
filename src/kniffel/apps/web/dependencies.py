"""What a route takes from its app (``app.state``, set by :func:`kniffel.apps.web.app.create_app` and its
lifespan): the game service, the clients' allowances and the settings. The routers are shared by every
app of the process (tests make several), so nothing of one app is captured when they are defined.

The service is read by a plain call (:func:`service_of`), as the WebSocket's conversation needs it too,
once the socket is accepted. What a route only consults, the allowances and the body's deadline, are
FastAPI dependencies named among its parameters (:data:`Allowed`, :data:`BodyTimeout`); each is a
coroutine so that FastAPI calls it on the event loop, not on a thread of its pool.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from kniffel.apps.web.guard import Allowances
from kniffel.apps.web.service import GameService
from kniffel.apps.web.settings import Settings


def service_of(connection: HTTPConnection) -> GameService:
    """The process's game service (the app's lifespan starts it)."""
    service: GameService = connection.app.state.service
    return service


async def allowances_of(connection: HTTPConnection) -> Allowances:
    allowances: Allowances = connection.app.state.allowances
    return allowances


async def body_timeout_of(connection: HTTPConnection) -> float:
    settings: Settings = connection.app.state.settings
    return settings.body_timeout


Allowed = Annotated[Allowances, Depends(allowances_of)]
"""Every client's allowances in this app (:class:`kniffel.apps.web.guard.Allowances`)."""
BodyTimeout = Annotated[float, Depends(body_timeout_of)]
"""Seconds a request body may take to arrive."""
