"""The tables of the games database: a game is its rules, its seats and the log of accepted actions.

Nothing else is stored. A position is rebuilt by replaying the log through :class:`kniffel.Game`, so
the database can never hold a state the engine would not reach. The ``actions`` table has the primary
key ``(game_id, seq)``: two writers racing for the same position cannot both commit, whichever process
they run in. Other modules add tables of their own to the one schema (:class:`Base`): the rematches
(:mod:`kniffel.apps.web.rooms`).
"""

from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

SEAT_KINDS = ("human", "bot", "bot:optimal", "bot:win", *(f"bot:{level}" for level in range(1, 9)))
"""Who sits at a seat: a person, or a bot of a strength (:func:`kniffel.bots.make`: the quick heuristic,
the solver's play for points, play for the win, or a level of play from a newcomer to the best,
:mod:`kniffel.planning.levels`)."""


KIND_WIDTH = 16
"""Characters a seat's kind is stored in (``bot:optimal`` is 11)."""


def is_bot(kind: str) -> bool:
    """Whether a seat of ``kind`` is played by the server."""
    return kind != "human"


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a game id can be: :meth:`kniffel.apps.web.store.Store.create_game` makes them with
``secrets.token_urlsafe`` (12 of these characters), and the column holds 32."""


def is_game_id(text: str) -> bool:
    """Whether ``text`` can be a game's id; anything else (a NUL, which PostgreSQL refuses in text, or
    any other character a URL can carry) names no game and is never sent to the database."""
    return GAME_ID.fullmatch(text) is not None


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules_id: Mapped[str] = mapped_column(String(40))
    options: Mapped[str] = mapped_column(Text, default="{}")
    """JSON object of the rule options (only non-default values)."""
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    to_move: Mapped[int] = mapped_column(Integer, default=0)
    """Seat whose turn it is, kept so a restarted server finds bots that must move without replaying
    every game."""
    hotseat: Mapped[bool] = mapped_column(Boolean, default=False)
    pad: Mapped[bool] = mapped_column(Boolean, default=False)
    host_token_hash: Mapped[str] = mapped_column(String(64))


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(KIND_WIDTH))
    token_hash: Mapped[str] = mapped_column(String(64))


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the first action of the game; the primary key makes a position writable once."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    """``Action.to_json()`` of the completed action (rolls carry their dice)."""
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TakenBackRow(Base):
    """An action a player took back (an undo): its row left :class:`ActionRow`, and is kept here, so
    that every process, and the game read back after a restart, shows what was changed."""

    __tablename__ = "taken_back"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[int] = mapped_column(Integer)
    """The number of actions before it (:attr:`kniffel.engine.actions.TakenBack.at`)."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
