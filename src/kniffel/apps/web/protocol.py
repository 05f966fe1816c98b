"""The WebSocket protocol of a table: one socket per browser tab, watching one game.

Everything that changes a game arrives over the WebSocket as ``{"type": "action", "seq": n, "action":
{...}}`` (or ``{"type": "undo", "seq": n}``). A tab receives the whole state (``{"type": "state",
"state": {...}}``) when it connects, says hello or asks (``{"type": "state"}``), and after every change
the whole state again, or, if it connected to ``/ws/ID?changes=1``, a ``{"type": "change", "base": n,
"state": {...}}``: the state without the rules and with only the new lines of the log, to apply to the
state of position ``n`` (a tab holding another position asks for the whole state). Reconnecting stays
trivial: a tab that lost its connection (or a server that restarted) just receives the current state.

A socket is admitted (or refused before it is accepted) by its route, :mod:`kniffel.apps.web.websocket`.
Until its hello names a seat it is a watcher (:mod:`kniffel.apps.web.watchers`): closed after a silence, or
to make room for others; a seated socket stays for as long as its player likes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import WebSocket
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from kniffel.apps.web import guard, undo
from kniffel.apps.web.dependencies import service_of
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.live import LiveGame
from kniffel.apps.web.service import GameService
from kniffel.apps.web.tokens import MAX_TOKEN
from kniffel.apps.web.watchers import Watchers
from kniffel.apps.web.words import language_of
from kniffel.base.errors import GameFormatError
from kniffel.base.i18n import LANGUAGES, N_
from kniffel.engine.actions import Action

MAX_MESSAGE = 4096
"""Bytes of one WebSocket message; a real action is under 200."""
QUEUE_LIMIT = 64
"""Messages waiting for a slow client; beyond this only the newest message is kept (a client that then
holds an older position than a change follows asks for the whole state)."""


class Connection:
    """One WebSocket watching one game; messages go out through a queue so a slow reader cannot stall
    the broadcast to everyone else."""

    def __init__(self, websocket: WebSocket, *, changes: bool = False, lang: str = "en") -> None:
        self.websocket = websocket
        self.lang = lang
        """The language of the refusals this tab is sent."""
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_LIMIT)
        self.seats: frozenset[int] = frozenset()
        self.changes = changes
        """The client asked for ``change`` messages (``/ws/ID?changes=1``) rather than whole states."""
        self.seated = False
        """A hello named a seat or the host: the socket is a player's (never closed to make room)."""
        self.evicted = False
        """Closed to make room for others (:meth:`evict`)."""
        self._waiting: asyncio.Timeout | None = None
        """The deadline of the message awaited now (a watcher's silence)."""

    def evict(self) -> None:
        """Make room: the conversation stops waiting for the client's next message and ends."""
        self.evicted = True
        if self._waiting is not None and not self._waiting.expired():
            # a deadline that has just run out is ending the wait already: nothing to change
            with contextlib.suppress(RuntimeError):
                self._waiting.reschedule(asyncio.get_running_loop().time())

    async def next_message(self, websocket: WebSocket, idle: float | None) -> Message | None:
        """The client's next message; None once it was silent for ``idle`` seconds or evicted."""
        if self.evicted:
            return None
        try:
            async with asyncio.timeout(idle) as self._waiting:
                return await websocket.receive()
        except TimeoutError:
            return None
        finally:
            self._waiting = None

    def push(self, text: str) -> None:
        if self.queue.full():
            # A client this far behind needs only the newest state: a whole one, or a change whose
            # base it lacks, which makes it ask for the whole state.
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(text)

    def send(self, message: dict[str, Any]) -> None:
        self.push(json.dumps(message))

    def refuse(self, error: WebError) -> None:
        self.send(error.to_json(self.lang))

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            await self.websocket.send_text(text)


async def converse(
    websocket: WebSocket, connection: Connection, game_id: str, limit: guard.RateLimit, watchers: Watchers
) -> None:
    """One socket, counted among ``watchers`` until its hello names a seat: accepted, the game's
    state, then the client's messages until it leaves (or, unseated, is silent too long or gives way)."""
    await websocket.accept()
    service = service_of(websocket)
    try:
        live = await service.get(game_id)
    except WebError as error:
        await websocket.send_json(error.to_json(language_of(websocket)))
        await websocket.close(4404)
        return
    writer = asyncio.create_task(connection.writer())
    service.subscribe(live, connection)
    warned = False
    try:
        while True:
            message = await connection.next_message(websocket, None if connection.seated else watchers.idle)
            if message is None:
                await _send_off(websocket, connection, writer, watchers.idle)
                break
            if message["type"] == "websocket.disconnect":
                break
            if not limit.allow():
                if limit.flooding:
                    # Say why before hanging up: stop the writer, whose queue may be far behind.
                    writer.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await writer
                    refusal = WebError("rate_limited", "too many messages: the connection is closed")
                    with contextlib.suppress(Exception):
                        await websocket.send_text(json.dumps(refusal.to_json(connection.lang)))
                    await websocket.close(1008, "flooding")
                    break
                if not warned:
                    connection.refuse(WebError("rate_limited", "too many messages: slow down"))
                    warned = True
                continue
            warned = False
            live = await _handle(service, live, connection, message)
            if connection.seated:
                watchers.seated(connection)
    except WebSocketDisconnect:
        pass
    finally:
        service.unsubscribe(live, connection)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _send_off(
    websocket: WebSocket, connection: Connection, writer: asyncio.Task[None], idle: float
) -> None:
    """Close a socket without a seat, saying why: it gave way to others, or was silent ``idle`` s."""
    writer.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await writer
    if connection.evicted:
        why = WebError("busy", "too many watchers: this connection makes room for players")
    else:
        why = WebError("timeout", f"a connection without a seat is closed after {idle:g} s without a message")
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(why.to_json(connection.lang)))
        await websocket.close(1013 if connection.evicted else 1000)


async def _handle(service: GameService, live: LiveGame, connection: Connection, message: Any) -> LiveGame:
    """Answer one client message; returns the game object the connection now watches."""
    text = message.get("text")
    if text is None:
        connection.refuse(WebError("malformed", "send JSON text messages"))
        return live
    if len(text) > MAX_MESSAGE:
        connection.refuse(WebError("too_large", f"a message is at most {MAX_MESSAGE} bytes"))
        return live
    try:
        data = guard.parse_json(text, "a message")
    except WebError as error:
        connection.refuse(error)
        return live
    kind = data.get("type") if isinstance(data, dict) else None
    try:
        live = await _follow(service, live, connection)
        if kind == "hello":
            token = data.get("token", "")
            if not isinstance(token, str) or len(token) > MAX_TOKEN:
                raise WebError("malformed", "token must be a short string")
            if data.get("lang") in LANGUAGES:
                connection.lang = data["lang"]
            seats, host = live.seats_for(token), live.is_host(token)
            if token and not seats and not host:
                raise WebError("unauthorized", "this token belongs to no seat of this game")
            connection.seats = seats
            connection.seated = connection.seated or bool(seats) or host
            connection.send({"type": "welcome", "seats": sorted(connection.seats), "host": host})
            connection.push(live.state_text())
        elif kind == "action":
            sent = data.get("action")
            try:
                # An action as JSON ({"action": "score", "box": "chance"}) or as text ("score chance").
                action = (
                    guard.ascii_numbers(sent, N_("an action"))
                    if isinstance(sent, str)
                    else Action.from_json(sent)
                )
            except GameFormatError as error:
                raise WebError("malformed", str(error)) from None
            await service.act(live, connection.seats, data.get("seq"), action, seat=data.get("seat"))
        elif kind == "undo":
            await undo.take_back(service, live, connection.seats, data.get("seq"))
        elif kind == "ping":
            connection.send({"type": "pong"})
        elif kind == "state":
            connection.push(live.state_text())
        else:
            raise WebError("malformed", "message type must be hello, action, undo, state or ping")
    except WebError as error:
        connection.refuse(error)
        if error.code == "stale":
            with contextlib.suppress(WebError):
                followed = await _follow(service, live, connection)
                if followed is live:
                    connection.push(live.state_text())
                live = followed
    return live


async def _follow(service: GameService, live: LiveGame, connection: Connection) -> LiveGame:
    """The game object to use now: the cached one may have been reloaded because another process saved
    first; the connection then moves to the fresh copy (and receives its state)."""
    current = await service.get(live.id)
    if current is not live:
        service.unsubscribe(live, connection)
        service.subscribe(current, connection)
    return current
