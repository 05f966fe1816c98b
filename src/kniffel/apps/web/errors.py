"""A refused request, as the client is told it: a code for programs and a one-line message for people
(in the language the request asks for), answered over HTTP with the code's status, or to a WebSocket
refused before it is accepted."""

from __future__ import annotations

from fastapi import WebSocket
from fastapi.responses import JSONResponse

from kniffel.apps.web.words import language_of
from kniffel.base.i18n import error_text


class WebError(Exception):
    """A refused request: ``code`` for programs, ``message`` (one line) for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self, language: str = "en") -> dict[str, str]:
        """The refusal as the client is told it, its message in ``language``."""
        return {"type": "error", "code": self.code, "message": error_text(language, self.message)}


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
