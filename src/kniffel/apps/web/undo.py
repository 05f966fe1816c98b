"""Taking back one's own last action over the network, as the game allows it.

The engine decides what may be taken back (:meth:`kniffel.Game.undo`): an entry or an announcement,
never a throw whose dice are seen (that would let a player throw again until the dice please), nothing
once the game is over. So every table may take back, at one screen or at several: a player takes back
their own last action while nobody else has acted since; a bot that has moved since, or an action
another process committed first, makes it refuse.

The undo is committed like an action (:meth:`kniffel.apps.web.store.Store.take_back`: the last position is
deleted only if it is still the last) before anyone sees it; then every subscriber receives the whole
state (:meth:`kniffel.apps.web.live.LiveGame.taken_back`), whose log shows what was taken back while the
game is in memory.
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
    async with live.lock:
        if seq != live.seq:
            raise WebError("stale", f"the game is at action {live.seq}, not {seq}: reload and retry")
        blocker = live.game.undo_blocker()
        if live.game.is_over and blocker is not None:
            raise WebError("illegal", blocker)  # a finished game is final, whoever asks
        if not live.game.log:
            raise WebError("illegal", "nothing to take back: no action yet")
        seat = live.seat_of_action[-1]
        if seat not in seats:
            name = live.seats[seat].name
            raise WebError("illegal", f"{name} has acted since: only your own last action can be taken back")
        if blocker is not None:
            raise WebError("illegal", blocker)
        after = live.game.copy()
        after.undo()
        try:
            written = await asyncio.to_thread(
                service.store.take_back,
                live.id,
                live.seq,
                seat,
                status="playing",  # a finished game is final: what an undo leaves is in play
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
