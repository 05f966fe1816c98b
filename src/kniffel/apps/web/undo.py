"""Taking back one's own last action, as the terminal game allows, in games played at one screen.

A table whose every person's seat is the asker's (alone, against bots, or passed round as a hot seat)
may take back its last action while nobody else has acted since: a bot that has moved since, or an
action another process committed first, makes it refuse. Where several people play at their own
screens an undo would let one of them throw again at will, so it is refused there.

The undo is committed like an action (:meth:`kniffel.apps.web.store.Store.take_back`: the last position is
deleted only if it is still the last) before anyone sees it; then every subscriber receives the whole
state (:meth:`kniffel.apps.web.live.LiveGame.taken_back`).
"""

from __future__ import annotations

import asyncio
import logging

from kniffel.apps.web.errors import WebError
from kniffel.apps.web.live import LiveGame
from kniffel.apps.web.service import GameService

log = logging.getLogger("kniffel.apps.web")


async def take_back(service: GameService, live: LiveGame, seats: frozenset[int], seq: object) -> None:
    """Take back the last action of ``live`` for one of ``seats``, the client having seen position
    ``seq``; :class:`WebError` says why not."""
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise WebError("malformed", "seq must be the number of actions the client has seen")
    if not seats:
        raise WebError("unauthorized", "send a valid seat token (hello) before taking an action back")
    people = frozenset(seat.index for seat in live.seats if seat.kind == "human")
    if not people <= seats:
        raise WebError(
            "illegal", "only a game played at one screen can take an action back: the others play at theirs"
        )
    async with live.lock:
        if seq != live.seq:
            raise WebError("stale", f"the game is at action {live.seq}, not {seq}: reload and retry")
        if not live.game.log:
            raise WebError("illegal", "nothing to take back: no action yet")
        seat = live.seat_of_action[-1]
        if seat not in seats:
            name = live.seats[seat].name
            raise WebError("illegal", f"{name} has acted since: only your own last action can be taken back")
        after = live.game.copy()
        after.undo()
        try:
            written = await asyncio.to_thread(
                service.store.take_back,
                live.id,
                live.seq,
                seat,
                status="over" if after.is_over else "playing",
                to_move=after.current,
                origin=service.origin,
            )
        except Exception:
            log.exception("taking back action %d of game %s failed", live.seq, live.id)
            raise WebError(
                "unavailable", "the action could not be taken back; nothing changed, try again"
            ) from None
        if not written:
            raise WebError("stale", "another action was saved first: reload and retry")
        live.taken_back()
