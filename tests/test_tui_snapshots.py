"""Pictures of the full-screen game's main screens, at 80x24 and at 160x50, so they change only on purpose.

After an intended change: ``pytest tests/test_tui_snapshots.py --snapshot-update``, and look at the new
pictures (``tests/__snapshots__``) before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from kniffel import bots
from kniffel.rules import get as get_rules
from kniffel.session import Session, Settings
from kniffel.tui import KniffelApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]

SnapCompare = Callable[..., bool]


def app_for(rules_id: str, players: list[str], seed: int = 11) -> KniffelApp:
    return KniffelApp(Session.new(get_rules(rules_id), players, Settings(seed=seed)), bot_delay=0)


@pytest.mark.parametrize("size", SIZES)
def test_start(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(app_for("kniffel", ["Ada"]), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_mid_game(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """Ada against a bot in round 4, two dice held after the first throw (each turn before, the box the
    cursor waits on after the throw: the one it pays most in)."""
    keys = ["space", "enter", "space", "enter", "space", "enter", "space", "1", "2"]
    assert snap_compare(app_for("kniffel", ["Ada", "bot"]), press=keys, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_multi_column(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """Four columns (top-down, bottom-up, announced, free) for three players, after the first throw."""
    keys = ["space", "enter", "space"]
    assert snap_compare(app_for("kniffel-4col", ["Ada", "bot", "Bea"]), press=keys, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_review(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """A finished game opens on its review."""
    app = app_for("kniffel", ["Ada"])
    bots.play(app.game, [bots.make("bot", seed=1)])

    async def reviewed(pilot: Pilot[Any]) -> None:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=reviewed)
