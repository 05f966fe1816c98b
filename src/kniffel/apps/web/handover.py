"""The host's routes of a table under way (:mod:`kniffel.apps.web.seating` says what they decide): hand an
absent person's seat to a bot and back, set the turn timer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kniffel.apps.web.dependencies import service_of
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.guard import whole_number
from kniffel.apps.web.live import LiveGame
from kniffel.apps.web.schema import SEAT_KINDS, is_bot
from kniffel.apps.web.tokens import token_of

TIMER_SECONDS = (30, 60, 120, 300)
"""The turn timers a host may set (seconds a person's turn may take)."""

router = APIRouter()


def _seat(live: LiveGame, index: str) -> int:
    """The seat a path names, a person's seat of the game; ``invalid`` otherwise."""
    seat = whole_number(index, "seat", 0, len(live.seats) - 1)
    if is_bot(live.seats[seat].kind):
        raise WebError("invalid", "a bot's seat is played by its bot already")
    return seat


async def _json(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise WebError("malformed", "send a JSON object")
    return data


@router.get("/api/games/{game_id}/seats")
async def seats(game_id: str, request: Request) -> list[dict[str, Any]]:
    """For the host: every seat, whether its player is at the table (a tab of this server holds its
    link) and the bot standing in for its person, if any: whose seat may go to a bot."""
    live = await service_of(request).get(game_id)
    if not live.is_host(token_of(request)):
        raise WebError("unauthorized", "only the host of the table sees who is at it")
    here = live.present()
    return [
        {
            "index": seat.index,
            "person": seat.kind == "human",
            "present": seat.index in here,
            "stand_in": live.stand_ins.get(seat.index),
        }
        for seat in live.seats
    ]


@router.post("/api/games/{game_id}/seats/{index}/stand-in")
async def hand_over(game_id: str, index: str, request: Request) -> dict[str, Any]:
    """The host hands an absent person's seat to a bot (``{"kind": "bot"}``, the quick one by default)
    until it is taken back."""
    service = service_of(request)
    live = await service.get(game_id)
    if not live.is_host(token_of(request)):
        raise WebError("unauthorized", "only the host of the table hands a seat to a bot")
    seat = _seat(live, index)
    kind = (await _json(request)).get("kind", "bot")
    if kind not in SEAT_KINDS or not is_bot(str(kind)):
        bots = ", ".join(SEAT_KINDS[1:])
        raise WebError("malformed", f"a seat is handed to one of {bots}")
    if live.game.is_over:
        raise WebError("game_over", "the game is over")
    if seat in live.present() and not live.stored.hotseat:
        raise WebError(
            "illegal",
            f"{live.seats[seat].name} is at the table: a seat goes to a bot only while its player is away",
        )
    await service.stand_in(live, seat, str(kind))
    return {"seat": seat, "kind": kind}


@router.delete("/api/games/{game_id}/seats/{index}/stand-in")
async def take_back(game_id: str, index: str, request: Request) -> dict[str, Any]:
    """The seat's player (or the host) takes the seat back from the bot that played it."""
    service = service_of(request)
    live = await service.get(game_id)
    seat = _seat(live, index)
    token = token_of(request)
    if not (live.is_host(token) or seat in live.seats_for(token)):
        raise WebError("unauthorized", "a seat is taken back by its player or the host")
    await service.stand_in(live, seat, None)
    return {"seat": seat, "kind": None}


@router.put("/api/games/{game_id}/timer")
async def set_timer(game_id: str, request: Request) -> dict[str, Any]:
    """The host sets the turn timer: ``{"seconds": 60}`` (one of :data:`TIMER_SECONDS`), or null for none."""
    service = service_of(request)
    live = await service.get(game_id)
    if not live.is_host(token_of(request)):
        raise WebError("unauthorized", "only the host of the table sets the turn timer")
    seconds = (await _json(request)).get("seconds")
    if seconds is not None and (isinstance(seconds, bool) or seconds not in TIMER_SECONDS):
        choices = ", ".join(map(str, TIMER_SECONDS))
        raise WebError("malformed", f"a turn timer is one of {choices} seconds, or none")
    await service.set_timer(live, seconds)
    return {"seconds": seconds}


__all__ = ["TIMER_SECONDS", "router"]
