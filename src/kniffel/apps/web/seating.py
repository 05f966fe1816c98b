"""Who plays a seat while its person is away, and how long a turn may take: what the host of an online
table decides once the game is under way.

* A person's seat can be handed to a bot (the quick one, or a stronger one) while the person is away, so
  that the table does not stall; the host hands it over, and the host or the seat's own player takes it
  back (the player on returning). The bot plays through the same path as any bot
  (:meth:`kniffel.apps.web.live.LiveGame.kind_of`).
* The host may set a turn timer: a person's turn not finished in time is finished by the quick bot, and
  the next turn is the person's again.

Both are stored beside the game, in tables of their own in the one schema (the game's log stays the only
record of what was played), so that a server started again, or another process of the same database,
reads them back; on PostgreSQL a change is announced as a line ``"<game id> 0 <origin> seats"`` on the
games' channel, and the other processes read the game afresh. The host's routes are
:mod:`kniffel.apps.web.handover`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, String, delete, insert, select, text
from sqlalchemy.orm import Mapped, mapped_column

from kniffel.apps.web.database import create_tables
from kniffel.apps.web.schema import KIND_WIDTH, Base
from kniffel.apps.web.store import CHANNEL, Store


class StandInRow(Base):
    """A person's seat a bot plays for now."""

    __tablename__ = "stand_ins"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(KIND_WIDTH))


class TimerRow(Base):
    """A game's turn timer."""

    __tablename__ = "turn_timers"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seconds: Mapped[int] = mapped_column(Integer)


@dataclass
class Seating:
    """What a game's host decided: the stand-ins by seat, the turn timer."""

    stand_ins: dict[int, str] = field(default_factory=dict)
    seconds: int | None = None


class SeatingStore:
    """The stand-ins and timers of one database (the tables are made where they are missing)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        create_tables(store.engine, Base.metadata)

    def load(self, game_id: str) -> Seating:
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(StandInRow.index, StandInRow.kind).where(StandInRow.game_id == game_id)
            )
            stand_ins = {int(index): str(kind) for index, kind in rows}
            seconds = connection.execute(select(TimerRow.seconds).where(TimerRow.game_id == game_id)).scalar()
        return Seating(stand_ins, seconds)

    def stand_in(self, game_id: str, seat: int, kind: str | None, origin: str = "") -> None:
        """Hand ``seat`` to a bot of ``kind``, or (None) back to its person."""
        with self.store.engine.begin() as connection:
            connection.execute(
                delete(StandInRow).where(StandInRow.game_id == game_id, StandInRow.index == seat)
            )
            if kind is not None:
                connection.execute(insert(StandInRow), {"game_id": game_id, "index": seat, "kind": kind})
            self._announce(connection, game_id, origin)

    def timer(self, game_id: str, seconds: int | None, origin: str = "") -> None:
        """Set the game's turn timer (None: none)."""
        with self.store.engine.begin() as connection:
            connection.execute(delete(TimerRow).where(TimerRow.game_id == game_id))
            if seconds is not None:
                connection.execute(insert(TimerRow), {"game_id": game_id, "seconds": seconds})
            self._announce(connection, game_id, origin)

    def _announce(self, connection: Any, game_id: str, origin: str) -> None:
        """Tell the other processes of the database to read the game afresh (PostgreSQL)."""
        if self.store.announces:
            note = f"{game_id} 0 {origin} seats"
            connection.execute(text("select pg_notify(:channel, :note)"), {"channel": CHANNEL, "note": note})


__all__ = ["Seating", "SeatingStore", "StandInRow", "TimerRow"]
