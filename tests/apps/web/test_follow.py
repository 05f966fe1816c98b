"""A server's copy of a game follows what other processes commit, even when their announcements arrive
at awkward moments: while the copy is reading the database, or after it has fallen behind an undo.

Two services share one SQLite file and the test delivers their announcements by hand (PostgreSQL's
``LISTEN`` does it in a cluster, ``tests/apps/web/test_cluster.py``), so each race is played out exactly.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import orjson

from kniffel.apps.web import undo
from kniffel.apps.web.live import LiveGame
from kniffel.apps.web.service import GameService
from kniffel.apps.web.store import Store
from kniffel.engine.actions import Roll, Score
from support.service import request, run, until


class Spectator:
    """A connection that only watches: it sends nothing, so it never asks for a fresh copy itself."""

    changes = False

    def __init__(self) -> None:
        self.seen: list[int] = []

    def push(self, text: str) -> None:
        self.seen.append(json.loads(text)["state"]["seq"])


def last_action(live: LiveGame) -> str:
    """The newest action of ``live`` as another process announces it."""
    return orjson.dumps(live.outcomes[-1].action.to_json()).decode()


class FirstReadHeld:
    """A service's reads of the actions after a position, the first held once it has read (its
    snapshot taken) until :attr:`release` is set: the commits made meanwhile are not in what it found."""

    def __init__(self, service: GameService) -> None:
        self.reading, self.release = threading.Event(), threading.Event()
        self.reads = 0
        self._read = service.store.actions_after
        service.store.actions_after = self  # type: ignore[method-assign]

    def __call__(self, game_id: str, seq: int) -> Any:
        self.reads += 1
        found = self._read(game_id, seq)
        if self.reads == 1:
            self.reading.set()
            self.release.wait(20)
        return found


def test_an_announcement_heard_while_the_database_is_read_is_read_again(url: str) -> None:
    """The copy starts reading the database, the other process commits two actions and announces them
    while the read (its snapshot taken before the commits) is under way: the copy reads again rather
    than waiting for an announcement that will not come."""

    async def body() -> None:
        one, two = GameService(Store(url)), GameService(Store(url))
        new, live_one = await one.create(request("Ada"))
        live_two = await two.get(new.id)
        seats = live_one.seats_for(new.seat_tokens[0])
        held = FirstReadHeld(two)
        two.announced(new.id, 1, "elsewhere")  # a change it has no details of: read the database
        assert await asyncio.to_thread(held.reading.wait, 20)
        await one.act(live_one, seats, 0, Roll())
        two.announced(new.id, 1, one.origin, 0, last_action(live_one))
        await one.act(live_one, seats, 1, Score("chance"))
        two.announced(new.id, 2, one.origin, 0, last_action(live_one))
        assert live_two.seq == 0, "the copy is reading: the announcements wait"
        held.release.set()
        await until(lambda: live_two.seq == 2)
        assert live_two.game.sheets[0].entries == live_one.game.sheets[0].entries
        assert held.reads == 2
        await one.stop()
        await two.stop()

    run(body)


def test_the_same_position_announced_again_while_the_database_is_read_is_read_again(url: str) -> None:
    """A listener that connects again announces the next position of every copy it holds (changes made
    while nobody listened) and the copy reads the database; the other process commits that very
    position and announces it during the read: the read, whose snapshot came before the commit, is
    made again, though the announced position is the one the copy was already reading for."""

    async def body() -> None:
        one, two = GameService(Store(url)), GameService(Store(url))
        new, live_one = await one.create(request("Ada"))
        live_two = await two.get(new.id)
        seats = live_one.seats_for(new.seat_tokens[0])
        held = FirstReadHeld(two)
        two.announced(new.id, 1, "")  # listening again: whatever came while nobody listened
        assert await asyncio.to_thread(held.reading.wait, 20)
        await one.act(live_one, seats, 0, Roll())
        two.announced(new.id, 1, one.origin, 0, last_action(live_one))
        held.release.set()
        await until(lambda: live_two.seq == 1)
        assert held.reads == 2
        await one.stop()
        await two.stop()

    run(body)


def test_an_undo_heard_out_of_step_moves_the_spectators_to_a_fresh_copy(url: str) -> None:
    """A copy that hears of an undo at a position it is not at is forgotten; whoever watched it now
    watches a copy read afresh and hears of the play that goes on elsewhere."""

    async def body() -> None:
        one, two = GameService(Store(url)), GameService(Store(url))
        new, live_one = await one.create(request("Ada"))
        live_two = await two.get(new.id)
        spectator = Spectator()
        two.subscribe(live_two, spectator)
        seats = live_one.seats_for(new.seat_tokens[0])
        await one.act(live_one, seats, 0, Roll())
        two.announced(new.id, 1, one.origin, 0, last_action(live_one))
        await one.act(live_one, seats, 1, Score("chance"))  # its announcement is still on the way ...
        await undo.take_back(one, live_one, seats, 2)
        two.heard_undo(new.id, 2, one.origin)  # ... when the undo of position 2 arrives
        assert live_two.seq == 1

        await until(lambda: two._live.get(new.id) not in (None, live_two))
        fresh = await two.get(new.id)
        await until(lambda: spectator in fresh.subscribers)
        assert not live_two.subscribers
        assert fresh.seq == 1
        assert spectator.seen[-1] == 1
        assert fresh.game.sheets[0].entries == {}

        await one.act(live_one, seats, 1, Score("ones"))
        two.announced(new.id, 2, one.origin, 0, last_action(live_one))
        assert spectator.seen[-1] == 2
        assert fresh.game.sheets[0].entries == live_one.game.sheets[0].entries

        two.unsubscribe(live_two, spectator)  # the connection still holds the copy it started with
        assert spectator not in fresh.subscribers
        await one.stop()
        await two.stop()

    run(body)
