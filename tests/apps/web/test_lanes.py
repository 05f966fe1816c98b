"""The service's advice lanes: what anyone may ask without a seat (an analysis, a finished game's review)
waits on a lane of its own, so a flood of it from many addresses never holds up the player to move."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from kniffel.apps.web.errors import WebError
from kniffel.apps.web.service import GameService
from kniffel.apps.web.store import Store

HINT_WAIT = 1.0
"""The longest a seated player's hint may wait behind the flood (generous: the flood's work sleeps)."""


def test_a_flood_of_analyses_never_holds_up_a_players_hint(tmp_path: Path) -> None:
    """Sixteen addresses keep the analysis lane full with work that takes as long as the test likes
    (a cold review); a hint asked meanwhile is answered at once, and the flood beyond the lane's
    shares is refused ``busy`` rather than queued."""
    release = threading.Event()

    def slow_review() -> str:
        release.wait(30)
        return "reviewed"

    async def body() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), bot_delay=0)
        try:
            flood = [
                asyncio.create_task(service.analyse(slow_review, f"10.0.0.{n}"))
                for n in range(16)
                for _ in range(3)
            ]
            await asyncio.sleep(0.2)
            refused = [task for task in flood if task.done() and isinstance(task.exception(), WebError)]
            assert refused, "past its shares the flood is refused, not queued without bound"
            assert all(task.exception().code == "busy" for task in refused)  # type: ignore[union-attr]
            started = time.monotonic()
            hint = await asyncio.wait_for(service.advise(lambda: "hint", "10.1.0.1"), 10)
            assert hint == "hint"
            assert time.monotonic() - started < HINT_WAIT, "the hint waited behind the analyses"
            with pytest.raises(WebError) as busy:
                await service.analyse(lambda: "more", "10.2.0.1")
            assert busy.value.code == "busy", "a fresh address too finds the full lane busy, not a queue"
            release.set()
            done = await asyncio.gather(*flood, return_exceptions=True)
            assert "reviewed" in done
        finally:
            release.set()
            await service.stop()

    asyncio.run(body())
