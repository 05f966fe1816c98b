"""Pictures of the full-screen game's main screens, at 80x24 and at 160x50, so they change only on purpose.

After an intended change: ``pytest tests/apps/tui/test_snapshots.py --snapshot-update``, and look at the
new pictures (``tests/apps/tui/__snapshots__``, a folder for each module) before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import RichLog

from kniffel import bots
from kniffel.apps.tui import KniffelApp
from kniffel.rules import get as get_rules
from kniffel.services.session import Session, Settings

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


LANGS = [pytest.param("en", id="en"), pytest.param("de", id="de")]
TABLES = {
    2: ["Alexandra", "bot"],
    3: ["Alexandra", "bot", "Bernhard"],
    4: ["Alexandra", "bot", "Bernhard", "bot:optimal"],
}


def app_in(lang: str, players: list[str], rules_id: str = "kniffel", seed: int = 3) -> KniffelApp:
    settings = Settings(seed=seed, lang=lang)
    return KniffelApp(Session.new(get_rules(rules_id), players, settings), bot_delay=0)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_at_80x24(snap_compare: SnapCompare, players: int, lang: str) -> None:
    """Every player's name, sums, bonus and totals at once, the mover marked; the log's dice lists whole;
    the key bar names every key in two lines."""
    keys = ["space", "enter", "space", "1"]
    assert snap_compare(app_in(lang, TABLES[players]), press=keys, terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_hints_with_win_chances(snap_compare: SnapCompare, lang: str) -> None:
    """The hint panel's columns, win chance included, whole at 80 columns."""
    from kniffel.planning.winning import prepare_tables

    strict = get_rules("kniffel", {"strict": "on"})
    prepare_tables(strict)
    app = KniffelApp(Session.new(strict, TABLES[3], Settings(seed=3, lang=lang)), bot_delay=0)

    async def hinted(pilot: Pilot[Any]) -> None:
        # strict Kniffel fills top-down: the ones pay 0 for the first throw, asked and answered
        await pilot.press("space", "enter", "enter", "space")
        await pilot.press("t")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=hinted)


LONG_NAMES = {
    3: ["Alexandra Schmidt", "Bernhard von Bern", "bot"],
    4: ["Alexandra Schmidt", "bot", "Christiane", "Maximilian Bernhard"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 4])
def test_long_names_at_80x24(snap_compare: SnapCompare, players: int, lang: str) -> None:
    """Long names of several words: each over its player's columns, shortened at a word or with an
    ellipsis, never a word broken over the two lines of the head; every total in view."""
    keys = ["space", "enter", "space"]
    assert snap_compare(app_in(lang, LONG_NAMES[players]), press=keys, terminal_size=(80, 24))


WIN_TABLES = "Solving the win tables of {rules} (once; kept on disk)"
"""What the worker says it solves when the win tables of a rule set are missing (planning.winning)."""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("filled", [False, True], ids=["solving", "filled"])
def test_hints_fill_in_when_their_win_tables_come(
    snap_compare: SnapCompare, lang: str, filled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hints shown while the win tables are solved: their note names the rule set as people know it
    and says how long the rest takes at the pace the solve keeps; once the tables are there the win
    column fills in by itself, no key pressed."""
    import threading

    import kniffel.apps.tui.app as app_module
    from kniffel.planning.winning import prepare_tables
    from kniffel.planning.worker import Work
    from kniffel.services.advice import Preparing

    ask_chances = app_module.hint_chances

    strict = get_rules("kniffel", {"strict": "on"})
    prepare_tables(strict)
    there = threading.Event()
    solving = Preparing(
        Work(WIN_TABLES, 9.0, 40_000_000, (("rules", "kniffel"),)), 0.4, compiling=None, elapsed=12.0
    )

    def win_column(game: Any, choices: Any, *, wait: bool = False) -> Any:
        return ask_chances(game, choices) if there.is_set() else solving

    monkeypatch.setattr(app_module, "hint_chances", win_column)
    app = KniffelApp(Session.new(strict, TABLES[3], Settings(seed=3, lang=lang)), bot_delay=0)

    async def hinted(pilot: Pilot[Any]) -> None:
        await pilot.press("space", "enter", "enter", "space", "t")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if filled:
            there.set()
            for _ in range(100):  # asked again each second
                await pilot.pause(0.1)
                await pilot.app.workers.wait_for_complete()
                if "%" in " ".join(line.text for line in pilot.app.query_one("#hints", RichLog).lines):
                    break
            await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=hinted)


@pytest.mark.parametrize("lang", LANGS)
def test_help(snap_compare: SnapCompare, lang: str) -> None:
    """? lists every key with what it does, from its start, in one page at 80x24 (Knöffel: the most)."""
    keys = ["space", "question_mark"]
    assert snap_compare(app_in(lang, ["Ada", "bot"], "knoeffel"), press=keys, terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_question_before_a_zero(snap_compare: SnapCompare, lang: str) -> None:
    """A box the dice pay 0 in, typed: the question is above the keys, where the eye is."""
    # seed 3 throws 4 4 5 5 6 first: the ones (a) pay nothing
    keys = ["space", "a"]
    assert snap_compare(app_in(lang, ["Ada", "bot"]), press=keys, terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_position_text(snap_compare: SnapCompare, lang: str) -> None:
    """p: the position's table text to copy, with a line to paste one into."""
    keys = ["space", "enter", "space", "p"]
    assert snap_compare(app_in(lang, ["Ada", "bot"]), press=keys, terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_quit_asks_first(snap_compare: SnapCompare, lang: str) -> None:
    """q in a game that is not saved: the question is above the keys, nothing is lost yet."""
    keys = ["space", "q"]
    assert snap_compare(app_in(lang, ["Ada", "bot"]), press=keys, terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_undo_with_holds(snap_compare: SnapCompare, lang: str) -> None:
    """Dice 2 and 4 held through a throw stay in their places; the entry after it and the bot's turn
    taken back: the dice lie where they lay, dice 2 and 4 held again."""
    keys = ["space", "2", "4", "space", "enter", "u"]
    assert snap_compare(app_in(lang, ["Ada", "bot"]), press=keys, terminal_size=(80, 24))
