"""Fair advice and readable logs: what the game service does under pressure
(:mod:`kniffel.apps.web.pressure`).

A seated player's hints never wait behind anyone's asks for the chances of winning (each has a lane, a
thread, of its own, and every client only its share of it); asks for chances beyond their lane's room are
answered ``preparing`` rather than queued. While the database is away each refused action is one line of
the log at most, a run of them is summarised, and only what nobody expected comes with a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from kniffel.apps.web import advice
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.pressure import AdviceLane, Refusals, is_outage
from kniffel.apps.web.service import GameService
from kniffel.apps.web.store import Store
from kniffel.engine.actions import Roll
from support.service import request, run

pytestmark = pytest.mark.compiles_nothing

# --- lanes ---------------------------------------------------------------------------------------------


def test_a_lane_gives_each_client_its_share_and_refuses_beyond_its_room() -> None:
    async def body() -> None:
        lane = AdviceLane("test-lane", max_waiting=3, per_client=2)
        release = threading.Event()
        held = [asyncio.ensure_future(lane.run(release.wait, client)) for client in ("a", "a", "b")]
        await asyncio.sleep(0.05)
        assert lane.waiting == 3
        assert not lane.admits("a"), "a holds its share"
        assert not lane.admits("c"), "the lane is full"
        release.set()
        assert await asyncio.gather(*held) == [True, True, True]
        assert lane.waiting == 0
        assert lane.admits("a")
        lane.close()

    run(body)


def test_hints_are_answered_while_the_chances_lane_is_stuck(tmp_path: Path) -> None:
    """The chances' lane is held by a slow ask; a player's hint still comes at once, and further asks for
    chances are answered ``preparing`` (the page asks again) rather than queued behind it."""

    async def body() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), max_chances_waiting=1)
        release = threading.Event()
        stuck = asyncio.ensure_future(service._on(service._chances, release.wait, "flood"))
        await asyncio.sleep(0.05)
        _, live = await service.create(request("Ada", "Bob", rules="kniffel"))
        _, game = await service.position(live)
        answer = await asyncio.wait_for(service.advise(lambda: "hint", "player"), 5)
        assert answer == "hint"
        for client in ("flood", "other", "player"):
            queued = await asyncio.wait_for(service.chances(game, (live.id, 99), client), 5)
            assert advice.is_preparing(queued)
            assert queued == advice.queued()
        release.set()
        assert await stuck is True
        await service.stop()

    run(body)


def test_chances_worked_out_before_are_answered_from_memory(tmp_path: Path) -> None:
    async def body() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), max_chances_waiting=0)
        key = ("memory-test", 3)
        with advice._chances_lock:
            advice._chances[key] = [0.25, 0.75]
        _, live = await service.create(request("Ada", "Bob"))
        _, game = await service.position(live)
        assert await service.chances(game, key, "anyone") == {"status": "ready", "chances": [0.25, 0.75]}
        await service.stop()

    run(body)


def test_a_client_beyond_its_share_of_hints_is_told_busy(tmp_path: Path) -> None:
    async def body() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), advice_per_client=1)
        release = threading.Event()
        held = asyncio.ensure_future(service.advise(release.wait, "greedy"))
        await asyncio.sleep(0.05)
        with pytest.raises(WebError) as refused:
            await service.advise(lambda: None, "greedy")
        assert refused.value.code == "busy"
        yours = asyncio.ensure_future(service.advise(lambda: "yours", "modest"))  # admitted: waits its turn
        await asyncio.sleep(0.05)
        assert not yours.done()
        release.set()
        assert await asyncio.wait_for(yours, 5) == "yours"
        await held
        await service.stop()

    run(body)


# --- logs ----------------------------------------------------------------------------------------------


def outage() -> OperationalError:
    refused = Exception("connection refused\nis the server running?")
    return OperationalError("INSERT INTO actions", {}, refused)


def test_an_outage_is_told_by_its_kind() -> None:
    assert is_outage(outage())
    assert is_outage(ConnectionRefusedError())
    assert not is_outage(ValueError("a bug"))
    assert not is_outage(KeyError("decisions"))
    psycopg = pytest.importorskip("psycopg")
    assert is_outage(psycopg.OperationalError("server closed the connection unexpectedly"))
    assert is_outage(psycopg.errors.AdminShutdown("terminating connection"))


def test_refused_actions_during_an_outage_are_one_line_and_a_summary(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """144 refusals in an outage were 147 tracebacks: now the first is one line, the rest are counted and
    summarised when saving works again, and nothing of it carries a traceback."""
    down = threading.Event()

    class FlakyStore(Store):
        def append_many(self, *args: Any, **kwargs: Any) -> list[bool]:
            if down.is_set():
                raise outage()
            return super().append_many(*args, **kwargs)

    async def body() -> None:
        service = GameService(FlakyStore(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
        new, live = await service.create(request("Ada"))
        seats = live.seats_for(new.seat_tokens[0])
        down.set()
        for _ in range(40):
            with pytest.raises(WebError) as refused:
                await service.act(live, seats, 0, Roll())
            assert refused.value.code == "unavailable"
        down.clear()
        await service.act(live, seats, 0, Roll())
        await service.stop()

    with caplog.at_level(logging.WARNING, logger="kniffel.apps.web"):
        run(body)
    lines = [r for r in caplog.records if r.name == "kniffel.apps.web"]
    assert not any(r.exc_info for r in lines), "an expected refusal has no traceback"
    texts = [r.getMessage() for r in lines]
    assert len(texts) == 3, texts
    assert "refused: the database is unavailable (OperationalError" in texts[0]
    assert "\n" not in texts[0], "one line, however many lines the driver's message has"
    assert "39 more refusals in the last" in texts[1]
    assert texts[2] == "saving an action works again"


def test_a_long_outage_is_summarised_every_few_seconds(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("kniffel.test-refusals")
    refusals = Refusals(log, "saving an action", every=0.0)
    with caplog.at_level(logging.WARNING, logger=log.name):
        for number in range(5):
            refusals.refused(outage(), f"game {number}")
    texts = [r.getMessage() for r in caplog.records]
    assert texts[0].startswith("saving an action of game 0 refused")
    assert len(texts) == 5
    assert all("1 more refusals in the last" in t for t in texts[1:])


def test_an_unexpected_failure_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("kniffel.test-refusals")
    refusals = Refusals(log, "saving an action")
    with caplog.at_level(logging.WARNING, logger=log.name):
        try:
            raise ValueError("a bug")
        except ValueError as error:
            refusals.refused(error, "game X")
    (record,) = caplog.records
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None
