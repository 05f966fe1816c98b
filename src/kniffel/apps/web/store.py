"""The queries of the games database: creating a game, reading it back, committing and taking back its
actions, and announcing each commit to the other server processes.

The ``actions`` table's primary key ``(game_id, seq)`` (:mod:`kniffel.apps.web.schema`) lets a position
be written once: of two writers racing for it, whichever process they run in, the loser gets
:class:`StaleError` and nothing changes. On PostgreSQL every commit is also announced on the channel
:data:`CHANNEL` (``NOTIFY``, delivered when the transaction commits), so several server processes can
share one database (:mod:`kniffel.apps.web.replication` listens).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, delete, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kniffel.apps.web.database import create_tables, default_database_url, make_engine
from kniffel.apps.web.schema import SEAT_KINDS, ActionRow, Base, GameRow, SeatRow, TakenBackRow
from kniffel.apps.web.tokens import hash_token, new_token
from kniffel.base.errors import KniffelError

CHANNEL = "kniffel_games"
"""PostgreSQL channel of the change announcements: one line ``"<game id> <seq> <origin> <seat> <action
JSON>"`` per committed action (several lines when several were committed together), so a process
holding the game can apply the action without reading it back."""


class StoreError(KniffelError):
    """A request the store cannot serve: unknown game, bad seat list."""


class StaleError(StoreError):
    """Another action was committed at this position first; reload and retry."""


# --- plain records handed to the service -----------------------------------------------------------


@dataclass(frozen=True)
class SeatSpec:
    name: str
    kind: str = "human"


@dataclass(frozen=True)
class StoredSeat:
    index: int
    name: str
    kind: str
    token_hash: str


@dataclass(frozen=True)
class StoredAction:
    seq: int
    seat: int
    action: dict[str, Any]


@dataclass(frozen=True)
class Write:
    """One action to commit: ``action`` is ``Action.to_json()`` as JSON text, ``status`` and
    ``to_move`` the game's after it, ``origin`` the writing process (see :data:`CHANNEL`)."""

    game_id: str
    seq: int
    seat: int
    action: str
    status: str
    to_move: int
    origin: str = ""

    def note(self) -> str:
        return f"{self.game_id} {self.seq} {self.origin} {self.seat} {self.action}"


@dataclass(frozen=True)
class StoredGame:
    id: str
    rules_id: str
    options: dict[str, str]
    created: datetime
    status: str
    hotseat: bool
    pad: bool
    host_token_hash: str
    seats: tuple[StoredSeat, ...]
    actions: tuple[StoredAction, ...]
    taken_back: tuple[StoredAction, ...] = ()
    """The actions players took back, in the order they did: ``seq`` is the number of actions before
    each (:attr:`kniffel.engine.actions.TakenBack.at`)."""


@dataclass(frozen=True)
class NewGame:
    """What the creator receives once (the tokens are stored only as hashes), and the game as it now
    stands in the database, so that the creating process need not read back what it just wrote."""

    id: str
    host_token: str
    seat_tokens: tuple[str, ...]
    stored: StoredGame


MAX_NOTE = 7000
"""Bytes of one announcement; PostgreSQL refuses payloads of 8000 and more."""

_GAME_CHANGE = (
    update(GameRow).where(GameRow.id == bindparam("g")).values(status=bindparam("s"), to_move=bindparam("m"))
)
_NOTIFY = text("select pg_notify(:channel, :note)")

NOTE_CHUNK = 3500
"""Bytes of announcement lines :data:`APPEND_STATEMENT` gathers into one payload before starting the next
(a payload ends within one line of this: a line is far below :data:`MAX_NOTE` - NOTE_CHUNK)."""

APPEND_STATEMENT = f"""
WITH t AS (
    SELECT * FROM json_to_recordset(%s::json)
        AS t(i int, game_id text, seq int, seat int, action text, status text, to_move int, note text)
), a AS (
    INSERT INTO actions (game_id, seq, seat, action, created)
    SELECT DISTINCT ON (game_id, seq) game_id, seq, seat, action, now() FROM t ORDER BY game_id, seq, i
    ON CONFLICT DO NOTHING
    RETURNING game_id, seq
), w AS (
    SELECT DISTINCT ON (t.game_id, t.seq) t.* FROM t JOIN a USING (game_id, seq)
    ORDER BY t.game_id, t.seq, t.i
), u AS (
    UPDATE games SET status = last.status, to_move = last.to_move, updated = now()
    FROM (SELECT DISTINCT ON (game_id) * FROM w ORDER BY game_id, seq DESC) AS last
    WHERE games.id = last.game_id
), n AS (
    SELECT pg_notify('{CHANNEL}', string_agg(note, E'\\n' ORDER BY i))
    FROM (SELECT note, i, sum(octet_length(note) + 1) OVER (ORDER BY i) AS upto FROM w) AS lines
    GROUP BY (upto - 1) / {NOTE_CHUNK}
)
SELECT ARRAY(SELECT i FROM w), (SELECT count(*) FROM n)
"""
"""A group of actions committed in one statement (PostgreSQL, autocommit): the positions not yet taken
are inserted, their games' status updated and the inserted ones announced, together or not at all. A
taken position is skipped (``ON CONFLICT DO NOTHING``) and is neither updated nor announced; the
answer lists the 1-based places ``i`` in the group of the actions written (the first of two for one
position). The group is one JSON parameter: psycopg dumps lists as text arrays in Python, escaping
every quote of every action with a regular expression (0.5 ms of a 15-action group). One round
trip, where a transaction of separate statements took five or more, each of them waiting for the
server's busy event loop to hand the writing thread the interpreter back."""


DEADLOCK_ATTEMPTS = 5
"""Tries of a group that PostgreSQL undoes to break a deadlock with another process's group."""

WRITTEN_STATEMENT = """
SELECT t.i FROM json_to_recordset(%s::json) AS t(i int, game_id text, seq int, seat int, action text)
JOIN actions a ON a.game_id = t.game_id AND a.seq = t.seq AND a.seat = t.seat AND a.action = t.action
"""
"""The places in a group (as :data:`APPEND_STATEMENT` takes it) whose position holds exactly that action:
after a connection was lost with the answer, what the group wrote, or the same action written by
another process, which leaves the game where this one would have."""


def _notes(items: Sequence[Write]) -> list[str]:
    """The announcements of a group of commits: one line per action, as few payloads as fit, because
    each announcement wakes every listening process once."""
    notes: list[str] = []
    lines: list[str] = []
    size = 0
    for item in items:
        line = item.note()
        if lines and size + len(line.encode()) + 1 > MAX_NOTE:
            notes.append("\n".join(lines))
            lines, size = [], 0
        lines.append(line)
        size += len(line.encode()) + 1
    if lines:
        notes.append("\n".join(lines))
    return notes


def _now() -> datetime:
    return datetime.now(UTC)


def _actions_after(connection: Connection, game_id: str, seq: int) -> list[StoredAction]:
    """A game's committed actions after position ``seq`` (0: all of them), in order."""
    rows = connection.execute(
        select(ActionRow.seq, ActionRow.seat, ActionRow.action)
        .where(ActionRow.game_id == game_id, ActionRow.seq > seq)
        .order_by(ActionRow.seq)
    )
    return [StoredAction(at, seat, json.loads(action)) for at, seat, action in rows]


def _taken_back(connection: Connection, game_id: str) -> list[StoredAction]:
    """The actions a game's players took back, in the order they did."""
    rows = connection.execute(
        select(TakenBackRow.at, TakenBackRow.seat, TakenBackRow.action)
        .where(TakenBackRow.game_id == game_id)
        .order_by(TakenBackRow.id)
    )
    return [StoredAction(at, seat, json.loads(action)) for at, seat, action in rows]


class Store:
    """Synchronous, thread-safe access to the games database (the service calls it from a thread pool)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_database_url()
        self.engine = make_engine(self.url)
        create_tables(self.engine, Base.metadata)
        # SQLite has one writer at a time; queueing writers here is far faster than letting them
        # collide and back off in SQLite's busy handler. Other databases take concurrent writers.
        self._write_lock: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if self.url.startswith("sqlite") else contextlib.nullcontext()
        )
        self._async_writer: Any = None
        """PostgreSQL: the psycopg ``AsyncConnection`` of :meth:`append_many_async` (opened on first use,
        on the event loop that uses it)."""

    @property
    def announces(self) -> bool:
        """Whether commits are announced to other processes (PostgreSQL); SQLite serves one process."""
        return self.engine.dialect.name == "postgresql"

    def listen_dsn(self) -> str:
        """The database as a libpq connection string, for a psycopg connection that listens."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def close(self) -> None:
        self.engine.dispose()

    def create_game(
        self,
        rules_id: str,
        options: Mapping[str, str],
        seats: Sequence[SeatSpec],
        *,
        hotseat: bool = False,
        pad: bool = False,
        token_hashes: tuple[str, Sequence[str]] | None = None,
    ) -> NewGame:
        """A new game; ``token_hashes`` (host, one per seat) gives it the tokens of an earlier game (a
        rematch), and the returned tokens are then empty: only their holders know them."""
        if not seats:
            raise StoreError("a game needs at least one seat")
        for seat in seats:
            if seat.kind not in SEAT_KINDS:
                raise StoreError(f"a seat is one of {', '.join(SEAT_KINDS)}, got {seat.kind!r}")
        game_id = secrets.token_urlsafe(9)
        host_token = new_token()
        tokens = tuple(new_token() for _ in seats)
        host_hash, seat_hashes = hash_token(host_token), [hash_token(token) for token in tokens]
        if token_hashes is not None:
            host_hash, seat_hashes = token_hashes[0], list(token_hashes[1])
            host_token, tokens = "", tuple("" for _ in seats)
            if len(seat_hashes) != len(seats):
                raise StoreError("a rematch has as many seats as its game")
        stored = StoredGame(
            id=game_id,
            rules_id=rules_id,
            options=dict(options),
            created=_now(),
            status="playing",
            hotseat=hotseat,
            pad=pad,
            host_token_hash=host_hash,
            seats=tuple(
                StoredSeat(index, seat.name, seat.kind, token_hash)
                for index, (seat, token_hash) in enumerate(zip(seats, seat_hashes, strict=True))
            ),
            actions=(),
        )
        # Two plain inserts in one transaction: the ORM's unit of work took as long again as the
        # round trips, and a burst of new games (every table of a tournament round ending at once)
        # is made of nothing else.
        with self._write_lock, self.engine.begin() as connection:
            connection.execute(
                insert(GameRow),
                {
                    "id": game_id,
                    "rules_id": rules_id,
                    "options": json.dumps(stored.options, sort_keys=True),
                    "created": stored.created,
                    "updated": stored.created,
                    "status": stored.status,
                    "to_move": 0,
                    "hotseat": hotseat,
                    "pad": pad,
                    "host_token_hash": host_hash,
                },
            )
            connection.execute(
                insert(SeatRow),
                [
                    {
                        "game_id": game_id,
                        "index": s.index,
                        "name": s.name,
                        "kind": s.kind,
                        "token_hash": s.token_hash,
                    }
                    for s in stored.seats
                ],
            )
        return NewGame(game_id, host_token, tokens, stored)

    def load(self, game_id: str) -> StoredGame:
        with self.engine.connect() as connection:
            row = connection.execute(select(GameRow.__table__).where(GameRow.id == game_id)).first()
            if row is None:
                raise StoreError(f"no game {game_id!r}")
            seat_rows = connection.execute(
                select(SeatRow.index, SeatRow.name, SeatRow.kind, SeatRow.token_hash)
                .where(SeatRow.game_id == game_id)
                .order_by(SeatRow.index)
            )
            return StoredGame(
                id=row.id,
                rules_id=row.rules_id,
                options=json.loads(row.options),
                # SQLite hands back the UTC time it was given without its zone.
                created=row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC),
                status=row.status,
                hotseat=row.hotseat,
                pad=row.pad,
                host_token_hash=row.host_token_hash,
                seats=tuple(StoredSeat(*seat) for seat in seat_rows),
                actions=tuple(_actions_after(connection, game_id, 0)),
                taken_back=tuple(_taken_back(connection, game_id)),
            )

    def actions_after(self, game_id: str, seq: int) -> list[StoredAction]:
        """The committed actions of a game after position ``seq``, in order."""
        with self.engine.connect() as connection:
            return _actions_after(connection, game_id, seq)

    def append(
        self,
        game_id: str,
        seq: int,
        seat: int,
        action: Mapping[str, Any],
        *,
        status: str,
        to_move: int,
        origin: str = "",
    ) -> None:
        """Commit the action at position ``seq`` (1-based); :class:`StaleError` if that position is
        already taken, in which case nothing was written. Where commits are announced, the announcement
        names ``origin`` so the process that wrote it can skip its own."""
        item = Write(game_id, seq, seat, json.dumps(dict(action)), status, to_move, origin)
        if not self.append_many([item])[0]:
            raise StaleError(f"action {seq} of game {game_id} was already taken")

    def append_many(self, items: Sequence[Write]) -> list[bool]:
        """Commit several games' actions together, one transaction (one flush to disk) for all, and
        say for each whether it was written (``False``: its position was already taken, and nothing
        of it was written). An action never depends on another of the same call, so one stale
        action must not cost the others their commit: the group is then written one by one."""
        if not items:
            return []
        now = _now()
        try:
            with self._write_lock, self.engine.begin() as connection:
                self._write(connection, items, now)
            return [True] * len(items)
        except IntegrityError:
            if len(items) == 1:
                return [False]
        written = []
        for item in items:
            try:
                with self._write_lock, self.engine.begin() as connection:
                    self._write(connection, [item], now)
                written.append(True)
            except IntegrityError:
                written.append(False)
        return written

    def _write(self, connection: Connection, items: Sequence[Write], now: datetime) -> None:
        rows = [
            {"game_id": i.game_id, "seq": i.seq, "seat": i.seat, "action": i.action, "created": now}
            for i in items
        ]
        games = [{"g": i.game_id, "s": i.status, "m": i.to_move} for i in items]
        connection.execute(insert(ActionRow), rows)
        connection.execute(_GAME_CHANGE.values(updated=now), games)
        if self.announces:
            for note in _notes(items):
                connection.execute(_NOTIFY, {"channel": CHANNEL, "note": note})

    async def append_many_async(self, items: Sequence[Write]) -> list[bool]:
        """:meth:`append_many` on PostgreSQL from the event loop itself: the whole group is one
        statement (:data:`APPEND_STATEMENT`) on a connection of its own in autocommit mode, so the
        answer means committed and announced.

        A connection is found dead only when used: after PostgreSQL restarted, failed over or cut an
        idle connection, the first group on it fails. That group goes again once on a new connection,
        and an action whose answer was lost with the old one counts as written if its position now
        holds it (:data:`WRITTEN_STATEMENT`), so no player sees the restart. Should the new connection
        fail too, the error is raised (nothing is known to be written) and the next call opens another."""
        import psycopg  # only databases that announce (PostgreSQL through psycopg 3) get here

        if not items:
            return []
        group = orjson.dumps(
            [
                {
                    "i": place,
                    "game_id": item.game_id,
                    "seq": item.seq,
                    "seat": item.seat,
                    "action": item.action,
                    "status": item.status,
                    "to_move": item.to_move,
                    "note": item.note(),
                }
                for place, item in enumerate(items, 1)
            ]
        ).decode()
        writer = await self._writer()
        try:
            written = await self._append_group(writer, group)
        except psycopg.OperationalError:
            await self.close_async()
            if not writer.broken:
                raise  # the statement failed, not the connection
            try:
                writer = await self._writer()
                written = await self._append_group(writer, group, again=True)
            except psycopg.OperationalError:
                await self.close_async()
                raise
        return [place in written for place in range(1, len(items) + 1)]

    async def _writer(self) -> Any:
        """The connection of :meth:`append_many_async`, opened if there is none."""
        import psycopg

        if self._async_writer is None or self._async_writer.closed:
            self._async_writer = await psycopg.AsyncConnection.connect(self.listen_dsn(), autocommit=True)
        return self._async_writer

    async def _append_group(self, writer: Any, group: str, *, again: bool = False) -> set[int]:
        """The places of the group's actions that :data:`APPEND_STATEMENT` wrote on ``writer``;
        ``again``: the group may have been written already, on a connection lost since, so count
        what the positions hold."""
        import psycopg

        for attempt in range(1, DEADLOCK_ATTEMPTS + 1):
            try:
                cursor = await writer.execute(APPEND_STATEMENT, (group,))
                row = await cursor.fetchone()
                break
            except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
                # Another process's group locked some of the same games in the other order and
                # PostgreSQL undid this statement: nothing of it was written, so it goes again.
                if attempt == DEADLOCK_ATTEMPTS:
                    raise
        assert row is not None
        if not again:
            return set(row[0])
        cursor = await writer.execute(WRITTEN_STATEMENT, (group,))
        return {place for (place,) in await cursor.fetchall()}

    async def close_async(self) -> None:
        """Close the connection of :meth:`append_many_async`, if open."""
        writer, self._async_writer = self._async_writer, None
        if writer is not None:
            with contextlib.suppress(Exception):
                await writer.close()

    def take_back(
        self, game_id: str, seq: int, seat: int, *, status: str, to_move: int, origin: str = ""
    ) -> bool:
        """Move the action at position ``seq`` (an undo) to the game's taken-back actions if it is
        ``seat``'s and the game's last, in one transaction with the game's new ``status`` and
        ``to_move``; ``False`` (nothing changed) if another action was committed after it, or it is not
        there. Where commits are announced, so is this: a line ``"<game id> <seq> <origin> undo"``
        (:data:`CHANNEL`), ``seq`` the position taken back."""
        later = select(ActionRow.seq).where(ActionRow.game_id == game_id, ActionRow.seq > seq).exists()
        mine = (ActionRow.game_id == game_id, ActionRow.seq == seq, ActionRow.seat == seat, ~later)
        with self._write_lock, self.engine.begin() as connection:
            if self.announces:  # one undo or append of this game's row at a time
                connection.execute(select(GameRow.id).where(GameRow.id == game_id).with_for_update())
            action = connection.execute(select(ActionRow.action).where(*mine)).scalar()
            if action is None or connection.execute(delete(ActionRow).where(*mine)).rowcount != 1:
                return False
            connection.execute(
                insert(TakenBackRow), [{"game_id": game_id, "at": seq - 1, "seat": seat, "action": action}]
            )
            connection.execute(
                _GAME_CHANGE.values(updated=_now()), [{"g": game_id, "s": status, "m": to_move}]
            )
            if self.announces:
                connection.execute(_NOTIFY, {"channel": CHANNEL, "note": f"{game_id} {seq} {origin} undo"})
        return True

    def games_waiting_for_bots(self) -> list[str]:
        """Games in play whose seat to move is a bot: a restarted server must make those moves."""
        with Session(self.engine) as session:
            query = (
                select(GameRow.id)
                .join(SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.index == GameRow.to_move))
                .where(GameRow.status == "playing", SeatRow.kind != "human")
            )
            return list(session.scalars(query))
