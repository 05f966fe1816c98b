"""The route of a table's WebSocket, ``/ws/{game_id}``: it admits a socket within its client's
allowances and hands it to the protocol (:mod:`kniffel.apps.web.protocol`)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from kniffel.apps.web.dependencies import Allowed
from kniffel.apps.web.errors import WebError, refuse_socket
from kniffel.apps.web.guard import client_of
from kniffel.apps.web.protocol import Connection, converse
from kniffel.apps.web.words import language_of

CONNECT_COST = 5
"""A new WebSocket spends as many of its client's messages as this: it is sent the whole state, and a
client reconnecting without pause would otherwise have that sent again and again."""

router = APIRouter()


@router.websocket("/ws/{game_id}")
async def play(websocket: WebSocket, game_id: str, allowances: Allowed) -> None:
    """Refused before it is accepted, so that nothing of a game is sent, a socket of a client that
    is flooding, reconnecting without pause or holding its share of sockets already. Until its hello
    names a seat it is a watcher (:mod:`kniffel.apps.web.watchers`): admitting it may close the oldest
    watcher of the address with most of them, never a seated player's socket."""
    client = client_of(websocket)
    limit = allowances.messages.of(client)
    if not limit.allow(CONNECT_COST):
        await refuse_socket(websocket, WebError("rate_limited", "too many connections: wait a little"))
        return
    connection = Connection(
        websocket, changes=websocket.query_params.get("changes") == "1", lang=language_of(websocket)
    )
    sockets, watchers = allowances.sockets, allowances.watchers
    if not watchers.admit(client, game_id, connection, full=sockets.full(spare=watchers.closing)):
        await refuse_socket(websocket, WebError("busy", "too many watchers of this table: try again soon"))
        return
    refusal = sockets.admit(client, spare=watchers.closing)
    if refusal is not None:
        watchers.gone(connection)
        await refuse_socket(websocket, refusal)
        return
    try:
        await converse(websocket, connection, game_id, limit, watchers)
    finally:
        sockets.release(client)
        watchers.gone(connection)
