"""Kniffel in the browser: online tables with invite links, hot seat, bots and a score pad.

``kniffel serve`` calls :func:`serve`; tests and embedders use :func:`create_app`.
"""

from __future__ import annotations

from pathlib import Path

from kniffel.errors import KniffelError
from kniffel.web.store import DATABASE_ENV, default_database_url, make_engine

MAX_WS_MESSAGE = 65536
"""Frames above this are refused by the WebSocket layer itself (the app answers anything above 4 KiB
with a clear error; this bounds the memory a hostile client can make the server buffer)."""


CONNECT_TIMEOUT = 10
"""Seconds :func:`check_database` waits for a database server to answer."""


class DatabaseError(KniffelError):
    """A database the server cannot use: a URL that is not one, a driver that is missing, a server that
    does not answer, an SQLite file in a folder that does not exist."""


def check_database(database_url: str | None = None) -> None:
    """Connect once to the database :func:`serve` would use and raise :class:`DatabaseError` saying in
    one line what is wrong, so that a bad ``--database-url`` is not a traceback from inside the server."""
    from sqlalchemy import create_engine
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
        if url.get_backend_name() == "postgresql":
            # A host that drops packets would otherwise keep the command waiting for minutes.
            engine = create_engine(url, connect_args={"connect_timeout": CONNECT_TIMEOUT})
        else:
            engine = make_engine(url_text)
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
    # No per-message compression: deflating every state for every tab took a sixth of the server's
    # time under load, to save a few kilobytes a second per player.
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_WS_MESSAGE,
        ws_per_message_deflate=False,
        log_level=log_level,
    )


__all__ = ["DATABASE_ENV", "DatabaseError", "check_database", "default_database_url", "serve"]
