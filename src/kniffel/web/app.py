"""The web application: pages, a small JSON API and one WebSocket per browser tab.

HTTP creates games and reads them; everything that changes a game arrives over the WebSocket as
``{"type": "action", "seq": n, "action": {...}}`` and every change goes out to all tabs watching that
game as a full ``{"type": "state", ...}`` snapshot. Snapshots make reconnecting trivial: a tab that
lost its connection (or a server that restarted) just receives the current one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from kniffel import rules as rules_module
from kniffel.actions import Action
from kniffel.errors import GameFormatError
from kniffel.web import advice, rooms
from kniffel.web.service import CreateRequest, GameService, LiveGame, WebError, game_state
from kniffel.web.store import Store

log = logging.getLogger("kniffel.web")

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""Bytes of one WebSocket message; a real action is under 200."""
MAX_BODY = 16384
"""Bytes of an HTTP request body (creating a game with 8 seats is well under 1 KiB)."""
MAX_TOKEN = 64
QUEUE_LIMIT = 64
"""Messages waiting for a slow client; beyond this only the newest snapshot is kept."""

STATUS = {
    "malformed": 400,
    "too_large": 413,
    "invalid": 422,
    "unauthorized": 403,
    "not_your_turn": 409,
    "stale": 409,
    "illegal": 409,
    "game_over": 409,
    "not_found": 404,
    "unavailable": 503,
    "corrupt": 500,
    "no_advice": 404,
}


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once. Refused messages
    fill a second bucket that drains at the same rate; when it overflows the client is flooding."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.excess = 0.0
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        elapsed, self.stamp = now - self.stamp, now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.excess = max(0.0, self.excess - elapsed * self.rate)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.excess += 1
        return False

    @property
    def flooding(self) -> bool:
        return self.excess > 10 * self.burst


class Connection:
    """One WebSocket watching one game; messages go out through a queue so a slow reader cannot stall
    the broadcast to everyone else."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_LIMIT)
        self.seats: frozenset[int] = frozenset()

    def push(self, text: str) -> None:
        if self.queue.full():
            # States are full snapshots: a client this far behind only needs the newest one.
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(text)

    def send(self, message: dict[str, Any]) -> None:
        self.push(json.dumps(message))

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            await self.websocket.send_text(text)


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float | None = None,
    rate: float | None = None,
    burst: float | None = None,
) -> FastAPI:
    """The app; ``None`` settings come from ``KNIFFEL_DATABASE_URL``, ``KNIFFEL_BOT_DELAY`` (seconds
    between bot actions, 0.6), ``KNIFFEL_WS_RATE`` and ``KNIFFEL_WS_BURST`` (messages per connection and
    second, 20 and 40)."""
    delay = bot_delay if bot_delay is not None else _env_float("KNIFFEL_BOT_DELAY", 0.6)
    ws_rate = rate if rate is not None else _env_float("KNIFFEL_WS_RATE", 20)
    ws_burst = burst if burst is not None else _env_float("KNIFFEL_WS_BURST", 40)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        service = GameService(store, bot_delay=delay)
        app.state.service = service
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            store.close()

    app = FastAPI(title="kniffel", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    rooms.register(app, STATIC)

    def service_of(request: Request | WebSocket) -> GameService:
        service: GameService = request.app.state.service
        return service

    @app.exception_handler(WebError)
    async def refused(_request: Request, error: WebError) -> Response:
        return JSONResponse({"error": error.code, "message": error.message}, status_code=STATUS[error.code])

    @app.get("/")
    async def home() -> Response:
        return FileResponse(STATIC / "index.html")

    @app.get("/g/{game_id}")
    async def table(game_id: str) -> Response:
        return FileResponse(STATIC / "table.html")

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/rules")
    async def rule_sets() -> list[dict[str, Any]]:
        result = []
        for rules_id in rules_module.available():
            described = rules_module.get(rules_id).describe()
            described["options"] = [
                {"key": o.key, "values": list(o.values), "default": o.default, "help": o.help}
                for o in rules_module.options_for(rules_id)
            ]
            result.append(described)
        return result

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        data = await _read_json(request)
        new, live = await service_of(request).create(CreateRequest.parse(data))
        seats: list[dict[str, Any]] = []
        for seat, token in zip(live.seats, new.seat_tokens, strict=True):
            seats.append({"index": seat.index, "name": seat.name, "kind": seat.kind})
            if seat.kind == "human":  # a bot's token would let a person move for the bot
                seats[-1] |= {"token": token, "url": f"/g/{new.id}#t={token}"}
        body = {
            "id": new.id,
            "host_token": new.host_token,
            "host_url": f"/g/{new.id}#t={new.host_token}",
            "seats": seats,
        }
        return JSONResponse(body, status_code=201)

    @app.get("/api/games/{game_id}")
    async def state(game_id: str, request: Request) -> Response:
        live = await service_of(request).get(game_id)
        return JSONResponse(game_state(live))

    @app.get("/api/games/{game_id}/export")
    async def export(game_id: str, request: Request) -> dict[str, Any]:
        """The game in the library's save format (``Game.loads`` / ``kniffel play --load``)."""
        live = await service_of(request).get(game_id)
        return live.game.to_json()

    @app.get("/api/games/{game_id}/hints")
    async def hints(game_id: str, request: Request) -> Any:
        live = await service_of(request).get(game_id)
        token = request.headers.get("x-kniffel-token", "")[:MAX_TOKEN]
        if live.game.current not in live.seats_for(token):
            raise WebError("unauthorized", "hints are for the player to move: send that seat's token")
        async with live.lock:
            result = await asyncio.to_thread(advice.hints, live.game)
        if result is None:
            raise WebError("no_advice", "no advice for these rules")
        return {"seq": live.seq, "options": result}

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request) -> Any:
        live = await service_of(request).get(game_id)
        if not live.game.is_over:
            raise WebError("illegal", "the review is ready when the game is over")
        result = await asyncio.to_thread(advice.review, live.game)
        if result is None:
            raise WebError("no_advice", "no advice for these rules")
        return {"decisions": result}

    @app.websocket("/ws/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        service = service_of(websocket)
        try:
            live = await service.get(game_id)
        except WebError as error:
            await websocket.send_json(error.to_json())
            await websocket.close(4404)
            return
        connection = Connection(websocket)
        writer = asyncio.create_task(connection.writer())
        service.subscribe(live, connection)
        limit = RateLimit(ws_rate, ws_burst)
        warned = False
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not limit.allow():
                    if limit.flooding:
                        await websocket.close(1008, "flooding")
                        break
                    if not warned:
                        connection.send(WebError("rate_limited", "too many messages: slow down").to_json())
                        warned = True
                    continue
                warned = False
                live = await _handle(service, live, connection, message)
        except WebSocketDisconnect:
            pass
        finally:
            service.unsubscribe(live, connection)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    return app


async def _read_json(request: Request) -> Any:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise WebError("too_large", f"a request body is at most {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise WebError("too_large", f"a request body is at most {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise WebError("malformed", "the request body is not JSON") from None


async def _handle(service: GameService, live: LiveGame, connection: Connection, message: Any) -> LiveGame:
    """Answer one client message; returns the game object the connection now watches."""
    text = message.get("text")
    if text is None:
        connection.send(WebError("malformed", "send JSON text messages").to_json())
        return live
    if len(text) > MAX_MESSAGE:
        connection.send(WebError("too_large", f"a message is at most {MAX_MESSAGE} bytes").to_json())
        return live
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        connection.send(WebError("malformed", "a message is a JSON object").to_json())
        return live
    kind = data.get("type") if isinstance(data, dict) else None
    try:
        live = await _follow(service, live, connection)
        if kind == "hello":
            token = data.get("token", "")
            if not isinstance(token, str) or len(token) > MAX_TOKEN:
                raise WebError("malformed", "token must be a short string")
            seats, host = live.seats_for(token), live.is_host(token)
            if token and not seats and not host:
                raise WebError("unauthorized", "this token belongs to no seat of this game")
            connection.seats = seats
            connection.send({"type": "welcome", "seats": sorted(connection.seats), "host": host})
            connection.push(live.state_text())
        elif kind == "action":
            try:
                action = Action.from_json(data.get("action"))
            except GameFormatError as error:
                raise WebError("malformed", str(error)) from None
            await service.act(live, connection.seats, data.get("seq"), action, seat=data.get("seat"))
        elif kind == "ping":
            connection.send({"type": "pong"})
        elif kind == "state":
            connection.push(live.state_text())
        else:
            raise WebError("malformed", "message type must be hello, action, state or ping")
    except WebError as error:
        connection.send(error.to_json())
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
