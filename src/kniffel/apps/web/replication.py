"""Several server processes on one PostgreSQL database: each commit is announced with ``NOTIFY``
(:data:`kniffel.apps.web.store.CHANNEL`), and every process that holds the game in memory applies it, or
catches up from the database, and tells its own subscribers. Whoever commits a position first wins it
(the primary key on ``(game_id, seq)``); the other copy takes its action back and catches up, so a bot's
turn is played exactly once. A copy that cannot follow is dropped, and its watchers move to one read
afresh.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from kniffel.apps.web.errors import WebError
from kniffel.apps.web.live import LiveGame, Subscriber
from kniffel.apps.web.pressure import Refusals
from kniffel.apps.web.store import CHANNEL, Store
from kniffel.base.errors import KniffelError
from kniffel.engine.actions import Action

log = logging.getLogger("kniffel.apps.web")


class Replication:
    """The part of :class:`kniffel.apps.web.service.GameService` that follows the other processes'
    commits (the service is one object: it catches up before an action that names a newer position,
    and listens from :meth:`kniffel.apps.web.service.GameService.start`)."""

    # The service's own and the bot pool's, declared without a value (so as not to shadow them).
    store: Store
    _live: OrderedDict[str, LiveGame]
    _closing: bool
    get: Callable[[str], Awaitable[LiveGame]]
    subscribe: Callable[[LiveGame, Subscriber], None]
    _schedule_bots: Callable[[LiveGame], None]

    def _init_replication(self) -> None:
        self.origin = secrets.token_hex(6)
        """This process's name in change announcements, to skip its own."""
        self._errands: set[asyncio.Task[None]] = set()
        """Short tasks (following another process's changes, moving watchers to a fresh copy), held
        here until done: the event loop keeps only a weak reference to a task."""
        self._catch_up_refusals = Refusals(log, "reading the new actions")

    async def _catch_up(self, live: LiveGame) -> None:
        """Apply the actions other processes committed after this copy's position (``live.lock``
        held) and tell the subscribers."""
        try:
            newer = await asyncio.to_thread(self.store.actions_after, live.id, live.seq)
        except Exception as error:
            self._catch_up_refusals.refused(error, live.id)
            return
        self._catch_up_refusals.recovered()
        applied = False
        for item in newer:
            if item.seq != live.seq + 1:
                break
            try:
                outcome = live.game.apply(Action.from_json(item.action))
            except KniffelError:
                log.exception("game %s cannot replay action %d; dropping the copy", live.id, item.seq)
                self._drop(live)
                return
            live.seat_of_action.append(item.seat)
            live.outcomes.append(outcome)
            applied = True
        if applied:
            live.changed()

    def announced(
        self, game_id: str, seq: int, origin: str, seat: int | None = None, action: str | None = None
    ) -> None:
        """Another process committed position ``seq`` of ``game_id`` (``seat``'s ``action``, as JSON):
        if we hold that game, apply it at once when it is the next one and nothing else is under way,
        else catch up from the database."""
        live = self._live.get(game_id)
        if live is None or origin == self.origin or seq <= live.seq:
            return
        if seq == live.seq + 1 and seat is not None and action is not None and not live.lock.locked():
            try:
                outcome = live.game.apply(Action.from_json(json.loads(action)))
            except (KniffelError, ValueError):
                log.warning("game %s: announced action %d does not apply; reading it back", game_id, seq)
            else:
                live.seat_of_action.append(seat)
                live.outcomes.append(outcome)
                live.changed()
                self._schedule_bots(live)
                return
        live.announced_seq = max(live.announced_seq, seq)
        live.announcements += 1
        if not live.following:
            live.following = True
            self._errand(self._follow(live))

    def heard_undo(self, game_id: str, seq: int, origin: str) -> None:
        """Another process took back position ``seq`` of ``game_id``: so does our copy, or, if it is
        elsewhere, it is dropped and read again when next asked for."""
        live = self._live.get(game_id)
        if live is None or origin == self.origin:
            return
        if live.seq == seq and not live.lock.locked():
            live.taken_back()
        else:
            self._drop(live)

    def heard_seats(self, game_id: str, origin: str) -> None:
        """Another process handed a seat of ``game_id`` over or back, or set its timer: our copy is read
        again when next asked for (its watchers move to the fresh one)."""
        live = self._live.get(game_id)
        if live is not None and origin != self.origin:
            self._drop(live)

    def _drop(self, live: LiveGame) -> None:
        """Forget this copy of a game; whoever watches it is moved to a copy read afresh (a spectator
        sends nothing that would make its connection look for one)."""
        if self._live.get(live.id) is live:
            del self._live[live.id]
        if live.subscribers and not self._closing:
            self._errand(self._move_subscribers(live))

    def _errand(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._errands.add(task)
        task.add_done_callback(self._errands.discard)

    async def _move_subscribers(self, live: LiveGame) -> None:
        try:
            fresh = await self.get(live.id)
        except WebError as error:
            log.warning("game %s could not be read again for its watchers: %s", live.id, error.message)
            return
        for subscriber in list(live.subscribers):
            live.subscribers.discard(subscriber)
            self.subscribe(fresh, subscriber)

    async def _follow(self, live: LiveGame) -> None:
        try:
            while live.announced_seq > live.seq:
                async with live.lock:
                    before, heard = live.seq, live.announcements
                    await self._catch_up(live)
                if live.seq == before and live.announcements == heard:
                    # Announced but not visible (yet): the next announcement retries. One heard while
                    # the database was read may have come after the read's snapshot, even one of the
                    # position the read was for (a listener connecting again announces the next
                    # position of every copy before the real announcement arrives): read again.
                    break
        finally:
            live.following = False
        self._schedule_bots(live)

    async def _listen(self, listening: asyncio.Event) -> None:
        """Hear every commit of the other processes (PostgreSQL ``LISTEN``), reconnecting as needed."""
        import psycopg  # only databases that announce (PostgreSQL through psycopg 3) get here

        while not self._closing:
            try:
                connection = await psycopg.AsyncConnection.connect(self.store.listen_dsn(), autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    listening.set()
                    for live in list(self._live.values()):  # changes made while nobody listened
                        self.announced(live.id, live.seq + 1, "")
                    async for notice in connection.notifies():
                        for line in notice.payload.split("\n"):
                            game_id, seq, origin, seat, action = (line.split(" ", 4) + [""] * 4)[:5]
                            if seat == "undo" and seq.isdecimal():
                                self.heard_undo(game_id, int(seq), origin)
                            elif seat == "seats":
                                self.heard_seats(game_id, origin)
                            elif seq.isdecimal():
                                self.announced(
                                    game_id,
                                    int(seq),
                                    origin,
                                    int(seat) if seat.isdecimal() else None,
                                    action or None,
                                )
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a lost connection: listen again shortly
                log.warning("listening for other processes' changes failed: %s", error)
                await asyncio.sleep(1)
