"""The games database itself: where it is, the engine that connects to it, and the tables made or
brought up to date when a server starts.

SQLite in a per-user data directory is the default; any SQLAlchemy URL works (``postgresql+psycopg://``).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, MetaData, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

from kniffel.apps.web.schema import KIND_WIDTH

DATABASE_ENV = "KNIFFEL_DATABASE_URL"


def default_database_url() -> str:
    """``KNIFFEL_DATABASE_URL`` if set, else an SQLite file in the per-user data directory."""
    url = os.environ.get(DATABASE_ENV, "").strip()
    if url:
        return url
    return f"sqlite:///{data_dir() / 'kniffel.sqlite3'}"


def data_dir() -> Path:
    """Where a user's data lives on this platform (created if missing)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    path = base / "kniffel"
    path.mkdir(parents=True, exist_ok=True)
    return path


CONNECT_TIMEOUT = 10
"""Seconds the pool's, the writer's and the listener's connections to PostgreSQL wait for an answer
(unless the URL sets ``connect_timeout``). Without it a server that drops packets, or is caught between
stopping and starting, holds a connect for psycopg's 130 s: for the listener, minutes in which no other
process's move reaches this one's players."""


def with_connect_timeout(url: URL) -> URL:
    """``url`` with :data:`CONNECT_TIMEOUT` as its ``connect_timeout`` if it names none."""
    if url.get_backend_name() != "postgresql" or "connect_timeout" in url.query:
        return url
    return url.update_query_dict({"connect_timeout": str(CONNECT_TIMEOUT)})


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            # WAL lets readers run beside the writer; NORMAL sync still survives a killed process
            # (only a power cut can lose the last commits), which is the failure the server must survive.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(
        with_connect_timeout(make_url(url)), pool_pre_ping=True, pool_size=10, max_overflow=20
    )


SCHEMA_LOCK = 0x6B6E6966  # "knif": the advisory lock of creating tables (any number, the same everywhere)


def create_tables(engine: Engine, metadata: MetaData, attempts: int = 10) -> None:
    """Create the tables of ``metadata`` that the database lacks. Several server processes starting on a
    new PostgreSQL database create them in turn (a transaction's advisory lock): otherwise two would
    both find a table missing and the second fail on PostgreSQL's catalogue ("duplicate key ...
    pg_type"), refusing to start. SQLite creates each table on its own, so a creation that meets
    another's (two processes started on one file) goes again, making what is still missing."""
    for attempt in range(attempts):
        try:
            with engine.begin() as connection:
                if connection.dialect.name == "postgresql":
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                metadata.create_all(connection)
                if connection.dialect.name == "postgresql":
                    _widen_seat_kinds(connection)
            return
        except (IntegrityError, OperationalError, ProgrammingError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.01 * (attempt + 1))


def _widen_seat_kinds(connection: Connection) -> None:
    """A database made before bots had strengths holds a seat's kind in 8 characters: widened once (not
    at every start, which would lock the seats of every game for a moment while other processes play)."""
    width = connection.execute(
        text(
            "SELECT character_maximum_length FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = 'seats' AND column_name = 'kind'"
        )
    ).scalar()
    if width is not None and width < KIND_WIDTH:
        connection.execute(text(f"ALTER TABLE seats ALTER COLUMN kind TYPE VARCHAR({KIND_WIDTH})"))
