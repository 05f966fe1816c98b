"""The web application: pages, a small JSON API and one WebSocket per browser tab.

HTTP creates games and reads them (``GET /api/games/{id}``: the whole state); everything that changes
a game arrives over the WebSocket as ``{"type": "action", "seq": n, "action": {...}}``. A tab receives
the whole state (``{"type": "state", "state": {...}}``) when it connects, says hello or asks
(``{"type": "state"}``), and after every change the whole state again, or, if it connected to
``/ws/ID?changes=1``, a ``{"type": "change", "base": n, "state": {...}}``: the state without the
rules and with only the new lines of the log, to apply to the state of position ``n`` (a tab holding
another position asks for the whole state). Reconnecting stays
trivial: a tab that lost its connection (or a server that restarted) just receives the current state.

Words: what the server says to a person (refusals, rule sets, hints, reviews) comes in the request's
language (``?lang=de``, else the browser's ``Accept-Language``; a WebSocket's from ``?lang=`` or its
``hello``), and the pages fetch their own words once (``/words/LANG.json``, from the ``web`` catalog).
The state a table receives is the same for everyone: it carries a sheet's labels in every language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Collection, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from kniffel import rules as rules_module
from kniffel.apps.web import HOSTS_ENV, advice, analysis, guard, pages, rooms, undo
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.guard import Allowances, ClientLimits, OpenSockets, client_of
from kniffel.apps.web.live import LiveGame
from kniffel.apps.web.service import CreateRequest, GameService
from kniffel.apps.web.store import Store
from kniffel.apps.web.words import page_words
from kniffel.base.errors import GameFormatError
from kniffel.base.i18n import LANGUAGES, N_, sentence, translate
from kniffel.engine.actions import Action
from kniffel.rules.explain import explain

log = logging.getLogger("kniffel.apps.web")

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""Bytes of one WebSocket message; a real action is under 200."""
MAX_BODY = 16384
"""Bytes of an HTTP request body (creating a game with 8 seats is well under 1 KiB)."""
MAX_TOKEN = 64
CONNECT_COST = 5
"""A new WebSocket spends as many of its client's messages as this: it is sent the whole state, and a
client reconnecting without pause would otherwise have that sent again and again."""
QUEUE_LIMIT = 64
"""Messages waiting for a slow client; beyond this only the newest message is kept (a client that then
holds an older position than a change follows asks for the whole state)."""

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
    "cross_site": 403,
    "not_json": 415,
    "rate_limited": 429,
    "busy": 503,
    "wrong_host": 400,
    "timeout": 408,
    "internal": 500,
}


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def _setting(value: float | None, name: str, default: float) -> float:
    """A setting given to :func:`create_app`, else from the environment variable ``name``."""
    return value if value is not None else _env_float(name, default)


def sockets_per_client_setting(value: int | None = None) -> int:
    """WebSockets a client may hold open at once: ``value``, else ``KNIFFEL_SOCKETS_PER_CLIENT``, else 50
    (the plain connections a client may hold follow from it: :mod:`kniffel.apps.web.connections`)."""
    return int(_setting(value, "KNIFFEL_SOCKETS_PER_CLIENT", 50))


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


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float | None = None,
    rate: float | None = None,
    burst: float | None = None,
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
    """The app; ``None`` settings come from ``KNIFFEL_DATABASE_URL``, ``KNIFFEL_BOT_DELAY`` (seconds
    between bot actions, 0.6), ``KNIFFEL_WS_RATE`` and ``KNIFFEL_WS_BURST`` (WebSocket messages per
    client and second, 20 and 40; a new socket costs :data:`CONNECT_COST` of them),
    ``KNIFFEL_CREATE_RATE`` and ``KNIFFEL_CREATE_BURST`` (games a client may create per second, rematches
    included, 0.2 and 20), ``KNIFFEL_ADVICE_RATE`` and ``KNIFFEL_ADVICE_BURST`` (hints and reviews per
    client and second, 1 and 20), ``KNIFFEL_CHANCES_RATE`` and ``KNIFFEL_CHANCES_BURST`` (asks for the
    chances of winning per client and second, 5 and 50: a page asks once after each action),
    ``KNIFFEL_SOCKETS_PER_CLIENT`` (WebSockets a client may hold open at once, 50),
    ``KNIFFEL_BODY_TIMEOUT`` (seconds a request body may take to arrive, 10) and
    ``KNIFFEL_ALLOWED_HOSTS`` (the names the site answers to, comma-separated; by default ``localhost``
    and any IP address: :func:`guard.host_allowed`). ``max_sockets``, the WebSockets of all clients
    together, follows from the process's limit of open files (:func:`guard.connection_budget`).

    A client is an address (:func:`guard.client_of`): its allowance is shared by all its connections
    and survives reconnecting."""
    delay = _setting(bot_delay, "KNIFFEL_BOT_DELAY", 0.6)
    allowances = Allowances(
        messages=ClientLimits(_setting(rate, "KNIFFEL_WS_RATE", 20), _setting(burst, "KNIFFEL_WS_BURST", 40)),
        creations=ClientLimits(
            _setting(create_rate, "KNIFFEL_CREATE_RATE", 0.2),
            _setting(create_burst, "KNIFFEL_CREATE_BURST", 20),
        ),
        advice=ClientLimits(
            _setting(advice_rate, "KNIFFEL_ADVICE_RATE", 1),
            _setting(advice_burst, "KNIFFEL_ADVICE_BURST", 20),
        ),
        chances=ClientLimits(
            _setting(chances_rate, "KNIFFEL_CHANCES_RATE", 5),
            _setting(chances_burst, "KNIFFEL_CHANCES_BURST", 50),
        ),
        sockets=OpenSockets(
            sockets_per_client_setting(sockets_per_client),
            max_sockets if max_sockets is not None else guard.connection_budget().sockets,
        ),
    )
    wait_for_body = _setting(body_timeout, "KNIFFEL_BODY_TIMEOUT", 10)
    host_names = guard.host_names(allowed_hosts if allowed_hosts is not None else os.environ.get(HOSTS_ENV))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        service = GameService(store, bot_delay=delay)
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

    app = FastAPI(title="kniffel", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.allowances = allowances
    # The last added runs first: every answer, a refused host's too, gets the security headers.
    app.add_middleware(AllowedHosts, names=host_names)
    app.add_middleware(guard.SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    rooms.register(app, STATIC)
    analysis.register(app, allowances, language_of)

    def service_of(request: Request | WebSocket) -> GameService:
        service: GameService = request.app.state.service
        return service

    @app.exception_handler(WebError)
    async def refused(request: Request, error: WebError) -> Response:
        return error_response(error, language=language_of(request))

    @app.exception_handler(Exception)
    async def failed(_request: Request, _error: Exception) -> Response:
        # Answered outside every middleware (the server logs the error), so the headers are set here.
        error = WebError("internal", "something went wrong on the server: try again later")
        return error_response(error, headers=guard.SECURITY_HEADERS)

    @app.get("/")
    async def home() -> Response:
        return HTMLResponse(pages.html(pages.HOME))

    @app.get("/g/{game_id}")
    @app.get("/table")  # what the service worker keeps as the page of every table
    async def table(game_id: str = "") -> Response:
        return HTMLResponse(pages.html(pages.TABLE))

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/words/{lang}.json")
    async def words(lang: str) -> Response:
        """The pages' own words in ``lang`` (English text -> translation), from the ``web`` catalog."""
        if lang not in LANGUAGES:
            raise WebError("not_found", f"no words in {lang[:8]!r}; languages: {', '.join(LANGUAGES)}")
        return JSONResponse(page_words(lang), headers={"cache-control": "public, max-age=3600"})

    @app.get("/api/rules")
    async def rule_sets(request: Request) -> list[dict[str, Any]]:
        """The rule sets and their options, their words in the request's language."""
        lang = language_of(request)
        result = []
        makers = makers_of(translate(lang, rules_module.get(r).name) for r in rules_module.available())
        for rules_id in rules_module.available():
            ruleset = rules_module.get(rules_id)
            described = ruleset.describe()
            described |= {
                "name": translate(lang, ruleset.name),
                "source": translate(lang, ruleset.source),
                "description": sentence(lang, ruleset.description),
            }
            described["options"] = [
                {
                    "key": o.key,
                    "label": translate(lang, o.label) if o.label else o.key,
                    "values": list(o.values),
                    "value_labels": {value: translate(lang, value) for value in o.values},
                    "default": o.default,
                    **dict(
                        zip(("help", "source"), without_source(sentence(lang, o.help), makers), strict=True)
                    ),
                }
                for o in rules_module.options_for(rules_id)
            ]
            result.append(described)
        return result

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        if guard.cross_site(request.headers, request.headers.get("host", "")):
            raise WebError("cross_site", "games are created from this site's own pages")
        if not guard.is_json(request.headers.get("content-type")):
            raise WebError("not_json", "send the game as application/json")
        allowances.creations.spend(
            client_of(request), N_("too many new games from your address: wait a little")
        )
        data = await _read_json(request, wait_for_body)
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
        return Response(live.state_json(), media_type="application/json")

    @app.get("/api/games/{game_id}/export")
    async def export(game_id: str, request: Request) -> dict[str, Any]:
        """The game in the library's save format (``Game.loads`` / ``kniffel play --load``)."""
        service = service_of(request)
        return await service.export(await service.get(game_id))

    # The advice endpoints spend the client's allowance before anything else: a flood of them, of
    # games that exist or not, costs the server a lookup in memory each, not a database query or a
    # copy of the game.

    @app.get("/api/games/{game_id}/hints")
    async def hints(game_id: str, request: Request) -> Any:
        allowances.advice.spend(client_of(request), N_("too many hints from your address: wait a little"))
        service = service_of(request)
        live = await service.get(game_id)
        token = request.headers.get("x-kniffel-token", "")[:MAX_TOKEN]
        seq, game = await service.position(live)
        if game.current not in live.seats_for(token):
            raise WebError("unauthorized", "hints are for the player to move: send that seat's token")
        result = await service.advise(lambda: advice.hints(game), client_of(request))
        if result is None:
            raise WebError("no_advice", "no advice for these rules")
        lang = language_of(request)
        for option in result.get("estimate", []) if isinstance(result, dict) else result:
            option["text"] = game.action_text(option["action"], lang)
        if isinstance(result, dict):  # the table is being solved: ask again in a moment
            return {"seq": seq, "options": [], **result}
        return {"seq": seq, "status": advice.READY, "options": result}

    @app.get("/api/games/{game_id}/rules")
    async def how_to_play(game_id: str, request: Request) -> Any:
        """How the table's rules play, in the request's language, read from the rule set with its
        options (:func:`kniffel.rules.explain.explain`): for the table's "How to play"."""
        service = service_of(request)
        live = await service.get(game_id)
        explained = explain(live.game.rules, language_of(request))
        return {
            "name": explained.name,
            "description": explained.description,
            "facts": [list(fact) for fact in explained.facts],
            "boxes": [list(box) for box in explained.boxes],
            "upper_boxes": explained.upper_boxes,
            "turns": live.game.rules.turns,
        }

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request) -> Any:
        allowances.advice.spend(client_of(request), N_("too many reviews from your address: wait a little"))
        service = service_of(request)
        live = await service.get(game_id)
        _, game = await service.position(live)
        if not game.is_over:
            raise WebError("illegal", "the review is ready when the game is over")
        lang = language_of(request)
        seated = {seat.index: seat.kind for seat in live.seats if seat.kind != "human"}
        people = "win" if request.query_params.get("by") == "win" else "points"
        result = await service.advise(lambda: advice.review(game, seated, lang, people), client_of(request))
        if result is None:
            raise WebError("no_advice", "no advice for these rules")
        for decision in result["decisions"]:
            decision["chosen_text"] = game.action_text(decision["chosen"], lang)
            decision["best_text"] = game.action_text(decision["best"], lang)
        return result

    @app.get("/api/games/{game_id}/chances")
    async def chances(game_id: str, request: Request) -> Any:
        """Every player's chance of finishing first now (anyone who can see the table may ask). Counted
        against an allowance of its own, more generous than the hints': every page of a table asks
        after every action (and each position is weighed once, later asks answered from memory)."""
        allowances.chances.spend(
            client_of(request), N_("too many asks for the chances from your address: wait a little")
        )
        service = service_of(request)
        live = await service.get(game_id)
        seq, game = await service.position(live)
        # After an undo a position number may come back for another position: the key tells them apart.
        key = (f"{game_id}/{live.undos}" if live.undos else game_id, seq)
        result = await service.chances(game, key, client_of(request))
        if result is None:
            raise WebError("no_advice", "no chances of winning for this table")
        return {"seq": seq, **result}

    @app.websocket("/ws/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        """Refused before it is accepted, so that nothing of a game is sent, a socket of a client that
        is flooding, reconnecting without pause or holding its share of sockets already."""
        client = client_of(websocket)
        limit = allowances.messages.of(client)
        if not limit.allow(CONNECT_COST):
            await refuse_socket(websocket, WebError("rate_limited", "too many connections: wait a little"))
            return
        refusal = allowances.sockets.admit(client)
        if refusal is not None:
            await refuse_socket(websocket, refusal)
            return
        try:
            await converse(websocket, game_id, limit)
        finally:
            allowances.sockets.release(client)

    async def converse(websocket: WebSocket, game_id: str, limit: guard.RateLimit) -> None:
        """One accepted socket: the game's state, then the client's messages until it leaves."""
        await websocket.accept()
        service = service_of(websocket)
        try:
            live = await service.get(game_id)
        except WebError as error:
            await websocket.send_json(error.to_json(language_of(websocket)))
            await websocket.close(4404)
            return
        connection = Connection(
            websocket, changes=websocket.query_params.get("changes") == "1", lang=language_of(websocket)
        )
        writer = asyncio.create_task(connection.writer())
        service.subscribe(live, connection)
        warned = False
        try:
            while True:
                message = await websocket.receive()
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
        except WebSocketDisconnect:
            pass
        finally:
            service.unsubscribe(live, connection)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    return app


async def _read_json(request: Request, timeout: float) -> Any:
    """The request's JSON body, refused if it is too large or has not arrived within ``timeout``
    seconds (a client that never sends it would hold a connection and a task)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise WebError("too_large", f"a request body is at most {MAX_BODY} bytes")
    body = bytearray()
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise WebError("too_large", f"a request body is at most {MAX_BODY} bytes")
    except TimeoutError:
        raise WebError("timeout", f"the request body did not arrive within {timeout:g} s") from None
    return guard.parse_json(bytes(body))


def error_response(
    error: WebError, headers: dict[str, str] | None = None, *, language: str = "en"
) -> JSONResponse:
    """The HTTP answer to a refused request: the code for programs, the message for people (in
    ``language``)."""
    body = {"error": error.code, "message": error.to_json(language)["message"]}
    return JSONResponse(body, status_code=STATUS[error.code], headers=headers)


async def refuse_socket(websocket: WebSocket, error: WebError) -> None:
    """Refuse a socket before accepting it: an HTTP answer to its upgrade request that says why where
    the server can send one (uvicorn can), else a bare refusal. Either way nothing of a game is sent
    and the refusal costs no more than a page request."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(error_response(error, language=language_of(websocket)))
    else:
        await websocket.close(1008)


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


def without_source(text: str, makers: Collection[str] = ()) -> tuple[str, str]:
    """An option's help for players and, apart, the sources it cites: the home page shows the first and
    keeps the second out of sight (a tooltip). The rules cite a source in the bracket that ends the help
    ("... (Kniffel article (English translation): the sharp variant)", brackets inside it included), and
    name a maker as the rule sets' names do ("the forced joker (Schmidt)", as "Kniffel (Schmidt)"):
    ``makers`` are those names."""
    sources: list[str] = []
    if text.endswith(")"):
        depth = 0
        for at in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[at], 0)
            if depth == 0:
                sources.append(text[at + 1 : -1])
                text = text[:at].rstrip()
                break

    def maker(found: re.Match[str]) -> str:
        if found.group(1) not in makers:
            return found.group(0)
        sources.insert(0, found.group(1))
        return ""

    return re.sub(r" \(([^()]+)\)", maker, text), "; ".join(sources)


def makers_of(names: Iterable[str]) -> frozenset[str]:
    """What the brackets of rule sets' names name ("Schmidt" of "Kniffel (Schmidt)")."""
    return frozenset(found.group(1) for name in names if (found := re.search(r"\(([^()]+)\)$", name)))


def language_of(connection: Request | WebSocket) -> str:
    """The language a request or WebSocket asks for: ``?lang=``, else the first language of
    ``Accept-Language`` that we speak, else English."""
    asked = connection.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in connection.headers.get("accept-language", "").split(","):
        language = part.split(";")[0].strip().lower()[:2]
        if language in LANGUAGES:
            return language
    return "en"


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
            connection.send({"type": "welcome", "seats": sorted(connection.seats), "host": host})
            connection.push(live.state_text())
        elif kind == "action":
            sent = data.get("action")
            try:
                # An action as JSON ({"action": "score", "box": "chance"}) or as text ("score chance").
                action = sent if isinstance(sent, str) else Action.from_json(sent)
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
