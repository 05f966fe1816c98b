"""A rematch with the same seats: what a table offers once its game is over.

A rematch is a new game with the same rules, options, seats and flags, and the same tokens: each seat's
link of the finished game leads to that seat in the rematch (``/g/NEW#t=SAME_TOKEN``), so the pages build
everyone's links themselves and no token is ever stored in the clear. Whoever of the finished game asks
first starts it; everyone who asks later gets the same game. Spectators follow it with the new game's
watch link (``/g/NEW``, no token).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import String
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from kniffel.apps.web.database import create_tables
from kniffel.apps.web.dependencies import Allowed, service_of
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.guard import client_of
from kniffel.apps.web.schema import Base
from kniffel.apps.web.service import CreateRequest
from kniffel.apps.web.store import SeatSpec, Store
from kniffel.apps.web.tokens import token_of
from kniffel.base.i18n import N_


class RematchRow(Base):
    """A table of the one schema (:class:`kniffel.apps.web.schema.Base`), made where rematches are
    kept."""

    __tablename__ = "rematches"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """The finished game; one rematch each (the primary key settles a race between two processes)."""
    new_game_id: Mapped[str] = mapped_column(String(32))


class Rematches:
    """The rematch records of one database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        create_tables(store.engine, Base.metadata)
        self.lock = asyncio.Lock()
        """One rematch created at a time in this process: two players pressing at once get one game."""

    def find(self, game_id: str) -> str | None:
        with Session(self.store.engine) as session:
            row = session.get(RematchRow, game_id)
            return row.new_game_id if row is not None else None

    def record(self, game_id: str, new_game_id: str) -> str:
        """Record the rematch of a game; if another process recorded one first, that one is the
        rematch (the new game stays unplayed)."""
        try:
            with Session(self.store.engine) as session, session.begin():
                session.add(RematchRow(game_id=game_id, new_game_id=new_game_id))
        except IntegrityError:
            pass
        found = self.find(game_id)
        assert found is not None
        return found


async def _rematches(request: Request) -> Rematches:
    """This process's rematch records (the table is created on first use, off the event loop)."""
    state = request.app.state
    service = service_of(request)
    existing: Rematches | None = getattr(state, "rematches", None)
    if existing is None or existing.store is not service.store:
        existing = state.rematches = await asyncio.to_thread(Rematches, service.store)
    return existing


router = APIRouter()


@router.get("/api/games/{game_id}/rematch")
async def find_rematch(game_id: str, request: Request) -> Any:
    """The rematch of a game: its id, or null while nobody has started one (open to everyone, like the
    game itself). A table that is over asks now and then: an answer, not an error, every time."""
    service = service_of(request)
    await service.get(game_id)
    new_game_id = await asyncio.to_thread((await _rematches(request)).find, game_id)
    return {"id": new_game_id}


@router.post("/api/games/{game_id}/rematch")
async def start_rematch(game_id: str, request: Request, allowances: Allowed) -> Response:
    """Start the rematch (a player of the finished game) or join the one already started. Starting one
    spends a new game of the client's allowance, as creating any game does; joining is free."""
    service = service_of(request)
    live = await service.get(game_id)
    token = token_of(request)
    if not (live.seats_for(token) or live.is_host(token)):
        raise WebError("unauthorized", "a rematch is started by a player of the game: send your seat's token")
    if not live.game.is_over:
        raise WebError("illegal", "a rematch can be started when the game is over")
    rematches = await _rematches(request)
    async with rematches.lock:
        new_game_id = await asyncio.to_thread(rematches.find, game_id)
        if new_game_id is None:
            allowances.creations.spend(
                client_of(request), N_("too many new games from your address: wait a little")
            )
            old = live.stored
            seats = tuple(SeatSpec(seat.name, seat.kind) for seat in old.seats)
            new, _ = await service.create(
                CreateRequest(old.rules_id, dict(old.options), seats, old.hotseat, old.pad),
                same_tokens_as=old,
            )
            new_game_id = await asyncio.to_thread(rematches.record, game_id, new.id)
    return JSONResponse({"id": new_game_id}, status_code=201)
