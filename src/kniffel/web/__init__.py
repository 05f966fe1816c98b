"""Kniffel in the browser: online tables with invite links, hot seat, bots and a score pad.

``kniffel serve`` calls :func:`serve`; tests and embedders use :func:`create_app`.
"""

from __future__ import annotations

from kniffel.web.store import DATABASE_ENV, default_database_url

MAX_WS_MESSAGE = 65536
"""Frames above this are refused by the WebSocket layer itself (the app answers anything above 4 KiB
with a clear error; this bounds the memory a hostile client can make the server buffer)."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    *,
    bot_delay: float | None = None,
    log_level: str = "info",
) -> None:
    """Run the web app until interrupted. ``database_url`` defaults to ``KNIFFEL_DATABASE_URL``, else an
    SQLite file in the per-user data directory."""
    import uvicorn

    from kniffel.web.app import create_app

    app = create_app(database_url, bot_delay=bot_delay)
    uvicorn.run(app, host=host, port=port, ws_max_size=MAX_WS_MESSAGE, log_level=log_level)


__all__ = ["DATABASE_ENV", "default_database_url", "serve"]
