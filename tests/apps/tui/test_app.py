"""The full-screen game, driven as a person plays it: keys through Textual's test pilot."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, RichLog, Static

from kniffel.apps.tui import KniffelApp
from kniffel.apps.tui.dice import arranged
from kniffel.apps.tui.keys import HelpScreen, key_list, key_name
from kniffel.apps.tui.review import ReviewScreen
from kniffel.base.i18n import translate
from kniffel.engine.actions import Announce, FreeThrow, Roll
from kniffel.engine.game import Game
from kniffel.engine.sheet import sheet_layout
from kniffel.rules import get as get_rules
from kniffel.services.advice import Hints, hints, pruned
from kniffel.services.session import Session, Settings

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def make_app(
    rules_id: str = "kniffel",
    players: tuple[str, ...] = ("You",),
    *,
    seed: int = 1,
    pad: bool = False,
    lang: str = "en",
    save: Path | None = None,
) -> KniffelApp:
    settings = Settings(lang=lang, pad=pad, seed=seed, save=save)
    return KniffelApp(Session.new(get_rules(rules_id), list(players), settings), bot_delay=0)


def news(app: KniffelApp) -> str:
    return "\n".join(app.messages)


def status(app: KniffelApp) -> str:
    return str(app.query_one("#status", Static).render())


def cursor_to(app: KniffelApp, box: str) -> None:
    """Put the sheet's cursor on ``box`` of the player to move (as the arrow keys would)."""
    table = app.query_one("#sheet", DataTable)
    table.cursor_coordinate = next(
        c for c, (p, key) in app.cells.items() if p == app.game.current and key == box
    )


async def score_here(app: KniffelApp, pilot: Pilot[int]) -> None:
    """Enter the dice in the box under the cursor, answering the question before a 0 (enter again)."""
    await pilot.press("enter")
    if app.query_one("#question").display:
        await pilot.press("enter")


async def finish_work(app: KniffelApp, pilot: Pilot[int]) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
def test_kept_dice_stay_in_their_places_and_held_through_a_throw(anyio_backend: str) -> None:
    held = [False, True, False, True, False]
    # 6 and 3 held in places 2 and 4: they stay there, the thrown 1 2 5 fill the other places in order
    assert arranged([4, 6, 2, 3, 1], held, (1, 2, 3, 5, 6), (3, 6)) == ([1, 6, 2, 3, 5], held)
    # a bot keeps faces, not places: the first die showing each kept face stays
    assert arranged([5, 2, 5, 1, 5], [False] * 5, (2, 3, 4, 5, 5), (5, 5)) == (
        [5, 2, 5, 3, 4],
        [True, False, True, False, False],
    )
    # the turn's first throw, or places that cannot have given the dice: in order, the kept ones held
    assert arranged(None, [False] * 5, (1, 2, 3, 4, 5), ()) == ([1, 2, 3, 4, 5], [False] * 5)
    assert arranged([1, 1, 1, 1, 1], [True] * 5, (2, 3, 3, 5, 6), (3, 5)) == (
        [2, 3, 3, 5, 6],
        [False, True, False, True, False],
    )


async def test_a_whole_game_typed_to_the_end_then_its_review() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "You to move: roll (space)" in status(app)
        turns = 0
        await pilot.press("space", "1", "2", "space")  # roll, hold the two lowest dice, roll again
        first, kept = app.game.log[:2]
        assert isinstance(first, Roll)
        assert isinstance(kept, Roll)
        assert first.dice is not None
        assert kept.keep == first.dice[:2]
        while not app.game.is_over:
            await pilot.press("space")  # (roll and) score in the box the cursor waits on
            await score_here(app, pilot)
            turns += 1
        assert turns == 13
        assert app.game.sheets[0].is_full
        assert "Game over" in status(app)
        assert f"Winner: You, with {app.game.sheets[0].total} points." in news(app)
        await finish_work(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert app.screen.result.players[0].decisions == 15  # two throws and thirteen boxes
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)
        await pilot.press("q")
    assert app.return_value == 0


async def test_a_game_against_a_bot() -> None:
    app = make_app(players=("You", "bot"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        # the cursor waits on the box these dice pay most in
        pays = {key: p.points for key, p in app.game.placements().items()}
        assert pays[app.box_under_cursor() or ""] == max(pays.values())
        # and moves from box to box: the sums between the sections are passed over
        cursor_to(app, "sixes")
        await pilot.press("down")
        assert app.box_under_cursor() == "three_of_a_kind"
        await pilot.press("up")
        assert app.box_under_cursor() == "sixes"
        cursor_to(app, "ones")
        await pilot.press("down", "down", "enter")
        assert app.game.sheets[0].entries == {"threes": 3}
        # The bot played its whole turn at once (no delay in tests), and it is our turn again.
        assert app.game.current == 0
        assert len(app.game.sheets[1].entries) == 1
        assert "Bot (heuristic): scores" in news(app)
        await pilot.press("space", "enter", "space", "enter")
        assert app.game.round == 4
        assert [len(sheet.entries) for sheet in app.game.sheets] == [3, 3]


async def test_strike_where_the_dice_cannot_be_scored() -> None:
    app = make_app("kniffel-3col", seed=12)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert "error: roll first (space)" in news(app)
        await pilot.press("space")
        cursor_to(app, "3:chance")  # an announced column's box takes dice only when announced
        await pilot.press("enter")
        assert "error: Chance (3) does not take these dice; x strikes it" in news(app)
        assert app.game.sheets[0].entries == {}
        await pilot.press("x")  # a box given away for good: asked first
        assert app.game.sheets[0].entries == {}
        assert "Strike Chance (3) for 0? Press x again to strike it." in news(app)
        await pilot.press("x")
        assert app.game.sheets[0].entries == {"3:chance": 0}
        assert "You: strikes Chance (3)" in news(app)


async def test_an_announcement_in_the_announced_column() -> None:
    app = make_app("kniffel-4col", seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        cursor_to(app, "3:chance")
        await pilot.press("exclamation_mark")
        assert app.game.turn.announced == "3:chance"
        assert "Announced: Chance (3)" in status(app)
        await pilot.press("space", "space")
        await pilot.press("enter")  # the cursor is still on the announced box
        assert "3:chance" in app.game.sheets[0].entries
        assert app.game.log[1] == Announce("3:chance")


async def test_a_free_throw_in_knoeffel() -> None:
    app = make_app("knoeffel", seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "space", "space")
        assert app.game.rolls_left == 0
        assert "A free throw is possible (+)" in status(app)
        await pilot.press("space")  # the regular rolls are used up: space takes the free throw
        assert isinstance(app.game.log[-1], FreeThrow)
        assert "Free throws this turn: 1" in status(app)
        await pilot.press("plus")  # one a turn
        assert "error:" in news(app)
        await pilot.press("enter")
        assert app.game.sheets[0].free_throws_used == {"1": 1}
        await pilot.press("space", "space", "space", "1", "plus")  # + throws one on purpose, holding a die
        free = app.game.log[-1]
        assert isinstance(free, FreeThrow)
        assert len(free.keep) == 1


async def test_undo_takes_back_a_score_and_refuses_to_reroll() -> None:
    app = make_app(players=("You", "bot"), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "enter")
        dice = app.game.log[0].dice if isinstance(app.game.log[0], Roll) else None
        assert app.game.sheets[0].entries
        await pilot.press("u")
        assert app.game.sheets[0].entries == {}
        assert app.game.current == 0
        assert app.game.turn.dice == dice
        assert "The bots' turns since then will be played again with the same dice." in news(app)
        await pilot.press("u")
        assert "error: dice can't be re-rolled" in news(app)
        cursor_to(app, "chance")  # and decide otherwise
        await pilot.press("enter")
        assert list(app.game.sheets[0].entries) == ["chance"]


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_held_dice_stay_in_their_places_and_come_back_after_an_undo(lang: str) -> None:
    """A throw leaves the held dice where they are, still held (each key names the same die all turn);
    undo after an entry brings the dice back where they lay, held as they were; the throw itself
    stays, and undo says so."""

    def faces_on_screen(app: KniffelApp) -> list[int]:
        return [int(str(app.query_one(f"#die-{i}").render()).split()[-1]) for i in range(5)]

    app = make_app(players=("Ada",), seed=3, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "2", "4")
        assert app.places is not None
        kept = [app.places[1], app.places[3]]
        await pilot.press("space")
        assert app.places is not None
        assert [app.places[1], app.places[3]] == kept, "the held dice stay in their places"
        assert app.held == [False, True, False, True, False], "and stay held"
        assert faces_on_screen(app) == app.places
        assert sorted(app.places) == list(app.game.turn.dice or ())
        await pilot.press("2")  # the key of the same die: it lets that die go
        assert app.held == [False, False, False, True, False]
        await pilot.press("2")
        places, dice = list(app.places), app.game.turn.dice
        await score_here(app, pilot)
        assert app.game.turn.dice is None
        await pilot.press("u")
        assert app.game.turn.dice == dice
        assert app.places == places, "the dice lie where they lay"
        assert app.held == [False, True, False, True, False], "held as they were"
        assert faces_on_screen(app) == places
        await pilot.press("u")
        refusal = translate(
            lang, "dice can't be re-rolled: only a score, strike or announcement can be undone"
        )
        assert refusal in news(app)
        assert app.game.turn.dice == dice
        assert app.places == places


async def test_save_and_resume_in_either_front_end(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    app = make_app(players=("You", "bot"), seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "enter", "space")
        await pilot.press("s")
        line = app.query_one("#ask", Input)
        assert line.display
        line.value = str(path)
        await pilot.press("enter")
        assert f"Saved to {path}" in news(app)
        dice = app.game.turn.dice
        await pilot.press("q")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["cli"]["bots"] == {"Bot (heuristic)": "bot"}
    assert app.farewell == f"The game is saved in {path}."
    # The line interface reads the file as well.
    from kniffel.apps.cli import play as line_interface

    settings = line_interface.Settings()
    plain = line_interface.Session.load(path, settings, line_interface.make_console(settings))
    assert plain.game.log == app.game.log
    resumed = KniffelApp(Session.load(path, Settings()), bot_delay=0)
    async with resumed.run_test(size=(80, 24)) as pilot:
        assert resumed.game.turn.dice == dice
        await pilot.press("enter", "space")
    # The seeded dice go on where they stopped: the same throws as the game would have had without
    # the break (the original session plays the same moves on).
    after = resumed.game.log[len(app.game.log) :]
    assert len(after) >= 4
    for action in after:
        app.session.apply(dataclasses.replace(action, dice=None) if isinstance(action, Roll) else action)
    assert app.game.log == resumed.game.log


async def test_the_score_pad_takes_typed_dice() -> None:
    app = make_app(players=("You",), pad=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        line = app.query_one("#ask", Input)
        assert line.display
        await pilot.press("escape")  # thought better of it
        assert not line.display
        assert app.game.log == []
        await pilot.press("space")
        assert line.display
        assert "5 dice" in line.placeholder
        await pilot.press(*"6612", "enter")
        assert "error: expected 5 dice" in news(app)
        await pilot.press("3", "enter")
        assert app.game.turn.dice == (1, 2, 3, 6, 6)
        await pilot.press("4", "5", "space")  # hold 6 6, the pad asks for three dice
        assert "3 dice" in line.placeholder
        await pilot.press(*"666", "enter")
        assert app.game.log[-1] == Roll(keep=(6, 6), dice=(6, 6, 6, 6, 6))
        assert not line.display


async def test_hints_list_every_option_as_typed_actions() -> None:
    app = make_app(seed=8)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        assert "error: roll first" in news(app)
        await pilot.press("space", "t")
        await finish_work(app, pilot)
        hints = app.query_one("#hints", RichLog)
        assert hints.display
        await pilot.press("T")  # every option, not only the best five
        await pilot.pause()
        text = [line.text for line in hints.lines]
        assert text[0] == "Options, best first"
        assert text[1].split() == ["points", "loss"]
        lines = text[2:]
        assert lines[0].endswith(" best")
        # Every option reads back as the action it names, values best first.
        values = [float(line.split()[-2]) for line in lines]
        assert values == sorted(values, reverse=True)
        actions = [app.game.parse_action(line.rsplit(maxsplit=2)[0]) for line in lines]
        assert len(actions) == len(set(actions)) > 10
        assert all(app.game.can_apply(action) for action in actions)
        await pilot.press("t")
        assert not hints.display


async def test_german() -> None:
    app = make_app(players=("Ada", "bot"), lang="de")
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Ada ist am Zug: würfeln (Leertaste)" in status(app)
        await pilot.press("space", "enter")
        # The bot's default name is shown in German; the game keeps it as it was made (its data).
        assert re.search(r"Bot \(Heuristik\): trägt \d+ in \w", news(app))
        assert app.game.players == ("Ada", "Bot (heuristic)")
        table = app.query_one("#sheet", DataTable)
        headers = [str(c.label) for c in table.columns.values()]
        assert headers[0] == "Feld"
        assert headers[2].split("\n")[0].strip(" ▶") == "Bot (Heuristik)"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert re.search(r"q +beenden, mit Nachfrage, wenn das Spiel", "\n".join(screen_lines(app)))
        await pilot.press("escape")
    app = make_app(players=("Ada", "bot"), lang="de")
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("space", "enter")
        table = app.query_one("#sheet", DataTable)
        # The rows are the library's sheet layout, as the command line and the web page draw it, each
        # box with its key in front.
        rows = [str(table.get_cell_at(Coordinate(y, 0))) for y in range(table.row_count)]
        layout = sheet_layout(app.rules)
        keys = iter("abcdefghijklm")
        assert rows == [
            f"{next(keys)} {app.rules.box(row.name).label('de')}"
            if row.kind == "box"
            else translate("de", row.label)
            for row in layout
        ]
        assert "Gesamter oberer Teil" in rows
        # Hints in German too, with German numbers.
        await pilot.press("space", "t")
        await finish_work(app, pilot)
        hints = [line.text for line in app.query_one("#hints", RichLog).lines]
        assert hints[0] == "Möglichkeiten, die beste zuerst"
        assert hints[1].split()[:2] == ["Punkte", "Minus"]
        # the options, then (a game of two) a sentence on the chances of winning, also in German
        at = next(n for n, line in enumerate(hints) if "weitere" in line)
        options, more, note = hints[2:at], hints[at], " ".join(hints[at + 1 :])
        assert "Gewinn" in note or all(line.endswith("%") for line in options)
        assert more.endswith("weitere: T zeigt alle")
        shown = [line.rsplit(maxsplit=2) for line in options]
        assert all("," in value for _, value, _ in shown)  # 23,4
        assert all(app.game.parse_action(action) in app.game.legal for action, _, _ in shown)
        assert all(action.endswith(("halten", "eintragen", "würfeln", "streichen")) for action, _, _ in shown)


@pytest.mark.parametrize("players", [1, 8])
async def test_multi_column_sheets_for_many_players(players: int) -> None:
    names = ("You", *["bot"] * (players - 1))
    app = make_app("yams", names, seed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#sheet", DataTable)
        assert len(table.columns) == 1 + 4 * players
        await pilot.press("space", "enter")
        assert app.game.current == 0
        assert app.game.round == 2
        assert all(len(sheet.entries) == 1 for sheet in app.game.sheets)


async def test_chances_of_winning_follow_the_game_and_join_the_hints() -> None:
    """Two players of strict Kniffel (its win tables solve in a moment): w shows every player's chance
    of winning (a tie half a win, so they add up to 1), weighed again after each action; hints give each
    option's chance."""
    from kniffel.planning.winning import prepare_tables

    strict = get_rules("kniffel", {"strict": "on"})
    prepare_tables(strict)
    settings = Settings(seed=3)
    app = KniffelApp(Session.new(strict, ["Ada", "Bob"], settings), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await finish_work(app, pilot)
        assert re.search(r"Chances of winning: Ada\s\d+% · Bob\s\d+%", status(app))
        before = app.chances
        assert before is not None
        assert sum(before) == pytest.approx(1.0, abs=1e-9)  # a tie is half a win for each
        await pilot.press("space")
        await finish_work(app, pilot)
        assert app.chances is not None
        assert app.chances != before
        await pilot.press("t")
        await finish_work(app, pilot)
        text = [line.text for line in app.query_one("#hints", RichLog).lines]
        assert text[1].split() == ["points", "loss", "win"]  # the column of chances, its head whole
        assert all(line.endswith("%") for line in text[2:-1])
        assert text[-1].endswith("more: T lists them all")
        await pilot.press("w")
        assert "Chances of winning" not in status(app)
    solo = make_app()
    async with solo.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        assert "chances of winning need several players" in news(solo)


async def test_the_news_keeps_its_width_and_its_answers() -> None:
    """Hints shown and hidden again: the news column is written again at its width (it once wrapped at
    twenty characters) and "Thinking..." is gone; the dice show their pips."""
    app = make_app(players=("Ada",), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "t")
        await finish_work(app, pilot)
        assert app.query_one("#hints").display
        await pilot.press("t")
        await pilot.pause()
        await pilot.pause()
        assert "Thinking..." not in app.messages
        news = app.query_one("#news", RichLog)
        widest = max(len(line.text) for line in news.lines)
        assert widest > 30, [line.text for line in news.lines]
        dice = app.game.turn.dice
        assert dice is not None
        face = dice[0]
        assert str(app.query_one("#die-0").render()) == f"{'⚀⚁⚂⚃⚄⚅'[face - 1]} {face}"


def compiling_until_set(
    monkeypatch: pytest.MonkeyPatch, view: ModuleType, since: list[float]
) -> threading.Event:
    """A first use as a view of the game meets it: the solver compiling (``since[0]`` seconds so far) and
    the view's hints (``view.hints``) waiting for it, until the event returned is set."""
    import kniffel.services.wording as wording

    compiled = threading.Event()
    monkeypatch.setattr(wording, "compiling_seconds", lambda: None if compiled.is_set() else since[0])
    choose = hints

    def slow(game: Game, *, wait: bool = True) -> Hints:
        compiled.wait(30)
        return choose(game, wait=wait)

    monkeypatch.setattr(view, "hints", slow)
    return compiled


async def test_thinking_says_when_the_solver_compiles_and_for_how_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a first use the hints wait half a minute for the solver's kernels: "Thinking..." says so and
    counts the seconds, in the game's language, and goes with the hints as before."""
    import kniffel.apps.tui.app as app_module

    since = [12.0]
    compiled = compiling_until_set(monkeypatch, app_module, since)
    app = make_app(players=("Ada",), seed=3, lang="de")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "t")
        for _ in range(50):
            await pilot.pause(0.1)
            if "Löser wird vorbereitet" in news(app):
                break
        assert (
            "Einen Moment... zuerst wird der Löser vorbereitet, nur beim ersten Mal (bisher 12 s)."
            in app.messages
        )
        since[0] = 14.0
        for _ in range(30):
            await pilot.pause(0.1)
            if "(bisher 14 s)" in news(app):
                break
        assert "(bisher 14 s)" in news(app)
        compiled.set()
        await finish_work(app, pilot)
        assert app.query_one("#hints").display
        assert "Löser" not in news(app)
        assert "Einen Moment" not in news(app)


async def test_hints_show_the_quick_bots_order_while_their_table_is_solved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A first use solves the points table (its kernels compile, half a minute): meanwhile the hints show
    the quick bot's order, said to be that, with what "Thinking..." says; then the exact hints."""
    import kniffel.apps.tui.app as app_module
    from kniffel.planning import quick_choices

    since = [5.0]
    solved = compiling_until_set(monkeypatch, app_module, since)
    monkeypatch.setattr(app_module, "points_table_pending", lambda rules: True)
    app = make_app(players=("Ada",), seed=3, lang="de")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "t")
        panel = app.query_one("#hints", RichLog)
        for _ in range(50):
            await pilot.pause(0.1)
            if "schnelle Bot" in " ".join(line.text for line in panel.lines):
                break
        shown = [line.text.strip() for line in panel.lines]
        assert "So ordnet der schnelle Bot die Möglichkeiten" in " ".join(shown)
        quick = [app.game.action_text(c.action, "de") for c in quick_choices(app.game)]
        assert quick[0] in shown
        assert shown.index(quick[0]) < shown.index(quick[1])
        assert "Punkte" not in shown[1]  # no figures: its scores are not points to come
        assert "nur beim ersten Mal (bisher 5 s)" in " ".join(shown), shown
        await pilot.press("t")  # hidden, the quick order stays hidden while the count goes on
        since[0] = 6.0
        await pilot.pause(1.5)
        assert not app.query_one("#hints").display
        solved.set()
        await finish_work(app, pilot)
        shown = [line.text for line in panel.lines]
        assert "schnelle Bot" not in " ".join(shown)
        assert "Punkte" in shown[1]


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_quitting_an_unsaved_game_asks_first(lang: str, tmp_path: Path) -> None:
    """q (or ctrl+c) beside the keys of play does not throw an unsaved game away: it asks, above the
    keys; the same key again quits, s saves first (and then q quits at once)."""
    question = translate(lang, "The game is not saved: press q again to quit and lose it, or s to save it.")
    app = make_app(players=("Ada",), seed=3, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "q")
        assert app.is_running
        assert app.query_one("#question").display
        assert question.split(":")[0] in "\n".join(screen_lines(app))
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_code == 0
    assert translate(lang, "The game was not saved (play with --save FILE to keep it).") == app.farewell
    path = tmp_path / "game.json"
    app = make_app(players=("Ada",), seed=3, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "q", "s")
        app.query_one("#ask", Input).value = str(path)
        await pilot.press("enter", "q")
        await pilot.pause()
    assert app.return_code == 0
    assert path.exists()
    assert str(path) in app.farewell


async def test_hints_list_the_best_five_and_h_all_of_them() -> None:
    app = make_app(players=("Ada",), seed=5)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("space", "t")
        await finish_work(app, pilot)
        lines = [line.text for line in app.query_one("#hints", RichLog).lines]
        options = len(pruned(hints(app.game).points.options))
        assert len(lines) == 2 + 5 + 1  # the title, the column heads, the best five, how many more
        assert lines[-1] == f"{options - 5} more: T lists them all"
        await pilot.press("T")
        await pilot.pause()
        lines = [line.text for line in app.query_one("#hints", RichLog).lines]
        assert len(lines) == 2 + options


def test_a_review_whose_only_costly_decision_is_the_first_says_so() -> None:
    """The listed decisions are indices; the first is 0, which once read as "nothing listed"."""
    from kniffel.services.review import Decision, PlayerSummary, Review

    costly = Decision(1, "Ada", 1, (1, 2, 3, 4, 6), 2, "score chance", 200.0, "roll keep 1 2 3 4", 215.0)
    fine = Decision(2, "Ada", 2, (6, 6, 6, 6, 6), 2, "score kniffel", 240.0, "score kniffel", 240.0)
    result = Review("kniffel", {}, True, [costly, fine], [PlayerSummary("Ada", 16, 2, 1, 1, 15.0)])
    screen = ReviewScreen(result, get_rules("kniffel"), "en")
    assert screen.shown() == [0]
    assert screen.note().endswith("\nDecisions that cost points:")  # under what loss and accuracy mean


async def test_a_game_over_offers_its_review_not_the_playing_keys() -> None:
    """Once the game is over the footer shows what is left to do (r the review, q quit), not the keys of
    a turn, and "Reviewing the game..." goes once the review shows."""

    def keys(app: KniffelApp) -> set[str]:
        return {active.binding.action for active in app.screen.active_bindings.values()}

    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        playing = keys(app)
        assert {"roll", "score", "strike", "hints", "review"} <= playing
        assert "review_over" not in playing
        while not app.game.is_over:
            await pilot.press("space")
            await score_here(app, pilot)
        await finish_work(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert "Reviewing the game..." not in app.messages
        over = keys(app)
        assert not over & {"roll", "hold(0)", "score", "strike", "hints", "review"}
        assert {"review_over", "quit_game"} <= over
        await pilot.press("r")
        await finish_work(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert "Reviewing the game..." not in app.messages
        assert "undo" not in over  # a finished game is final
        await pilot.press("u")
        await pilot.pause()
        assert app.game.is_over
        assert "score" not in keys(app)


def screen_lines(app: KniffelApp) -> list[str]:
    """The screen as text, a line each."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_key_bar_names_every_key_at_80_columns(lang: str) -> None:
    """Every key of the game is named in the two lines of the key bar at 80 columns (w chances and u undo
    too), whole, during the game and once it is over; ? lists each with what it does."""

    def bar(app: KniffelApp) -> str:
        return "\n".join(screen_lines(app)[-2:])

    app = make_app(players=("Ada", "bot"), lang=lang, seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        shown = bar(app)
        letters = list(app.box_keys.values())
        for key, _ in key_list(app.rules, letters):
            if key != "escape":  # esc closes what is open: said where something is open
                assert f"{key_name(key, lang)} " in shown, (key, shown)
        german = ["Leertaste Würfeln", "w Chancen", "u Zurück"]
        words = german if lang == "de" else ["space Roll", "w Chances", "u Undo"]
        assert all(word in shown for word in words), shown
        assert all(len(line.rstrip()) <= 80 for line in shown.split("\n"))
        while not app.game.is_over:
            await pilot.press("space")
            await score_here(app, pilot)
        await finish_work(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        over = bar(app)
        keys = {word for word in over.split() if len(word) == 1}
        assert {"r", "s", "q", "?"} <= keys, over
        assert "u" not in keys, "a finished game is final"
        assert "space" not in over
        assert "Leertaste" not in over


async def test_each_box_has_a_key_that_scores_there() -> None:
    """The letter beside a box in the sheet scores the dice there; where they pay 0 it asks first (the
    letter again, or x, enters the 0); a filled box is refused with the reason."""
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.box_keys["ones"] == "a"
        assert app.box_keys["chance"] == "m"
        sheet = app.query_one("#sheet", DataTable)
        labels = [str(sheet.get_cell_at(Coordinate(y, 0))) for y in range(sheet.row_count)]
        assert {"a Ones", "m Chance", "Upper sum"} <= set(labels)
        await pilot.press("m")
        assert "error: roll first (space)" in news(app)
        await pilot.press("space")
        dice = app.game.turn.dice
        assert dice is not None
        await pilot.press("m")
        assert app.game.sheets[0].entries == {"chance": sum(dice)}
        assert f"You: scores {sum(dice)} in Chance" in news(app)
        await pilot.press("space")
        await pilot.press("m")  # filled: the game says so, and nothing changes
        assert "error: chance is already filled" in news(app)
        assert len(app.game.sheets[0].entries) == 1
        # A box these dice pay nothing in: asked first, then the same key enters the 0.
        key = next(k for k, p in app.game.placements().items() if p.total == 0)
        letter = app.box_keys[key]
        await pilot.press(letter)
        assert len(app.game.sheets[0].entries) == 1
        assert f"press {letter} again (or x) to enter 0 there" in news(app)
        assert app.box_under_cursor() == key  # the cursor went to the box asked about
        await pilot.press(letter)
        assert app.game.sheets[0].entries[key] == 0
        # ... or x, as the strike's own question
        await pilot.press("space")
        key = next(k for k, p in app.game.placements().items() if p.total == 0)
        await pilot.press(app.box_keys[key], "x")
        assert app.game.sheets[0].entries[key] == 0
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert re.search(r"a-m +score in the box of that letter", "\n".join(screen_lines(app)))


async def test_a_box_key_on_a_sheet_of_columns_takes_the_cursors_column() -> None:
    app = make_app("kniffel-4col", seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        cursor_to(app, "4:ones")
        await pilot.press("m")  # chance, in column 4 (free order)
        assert "4:chance" in app.game.sheets[0].entries
        await pilot.press("space")
        cursor_to(app, "1:ones")
        await pilot.press("m")  # column 1 is filled top to bottom: not chance yet
        assert "error: column 1 is filled top-down: 1:chance is not next" in news(app)
        assert "1:chance" not in app.game.sheets[0].entries


async def until(pilot: Pilot[int], done: Callable[[], bool], seconds: float = 60.0) -> None:
    """Let the app run until ``done`` (generously: a busy machine is slow)."""
    for _ in range(int(seconds / 0.05)):
        if done():
            return
        await pilot.pause(0.05)
    raise AssertionError("the app never got there")


async def test_keys_pressed_while_a_bot_moves_or_just_after_are_not_lost() -> None:
    """Keys typed while a bot's moves are shown are acted on once it is the person's turn (the log says
    they wait), and a key pressed the moment the turn comes back is acted on at once (it was ignored
    for the bot's pause: space 0.4 s after "You to move: roll" was lost in 2 of 3 rounds)."""
    settings = Settings(seed=11)
    app = KniffelApp(Session.new(get_rules("kniffel"), ["You", "bot"], settings), bot_delay=0.3)
    async with app.run_test(size=(80, 24)) as pilot:
        for turn in range(3):
            await pilot.press("space", "enter")  # roll and score: the bot's turn
            assert app.bots_playing
            await pilot.press("space", "1")  # typed at once, while the bot plays: roll, then hold a die
            await until(pilot, lambda: not app.bots_playing)
            await pilot.pause()
            assert app.game.current == 0
            assert app.game.turn.dice is not None, f"turn {turn}: the waiting space was lost"
            assert app.held[0]
            assert "A bot is moving: your keys are acted on once it is your turn." in news(app)
            await pilot.press("1", "enter")  # let it go and score: the bot again
            assert app.bots_playing
            await until(pilot, lambda: "You to move: roll (space)" in status(app))
            await pilot.press("space")  # the moment the turn is back
            assert app.game.turn.dice is not None, f"turn {turn}: the space just after the bot was lost"
            await pilot.press("enter")
            await until(pilot, lambda: not app.bots_playing)
        assert [len(sheet.entries) for sheet in app.game.sheets] == [len(app.game.sheets[1].entries)] * 2


PLAYERS = {
    2: ("Alexandra", "bot"),
    3: ("Alexandra", "bot", "Bernhard"),
    4: ("Alexandra", "bot", "Bernhard", "bot:optimal"),
    8: ("Alexandra", "bot", "Bernhard", "bot:optimal", "Christine", "bot", "bot", "Eva"),
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("count", [2, 3, 4, 8])
async def test_every_player_is_on_screen_at_80x24(lang: str, count: int) -> None:
    """Every player's name (shortened, never to nothing, no two alike: three quick bots at eight players
    keep their numbers) and every upper sum, bonus and total are on the screen at once, beside the side
    panel, the mover's column marked; the hints' win column fits."""
    app = make_app(players=PLAYERS[count], lang=lang, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "enter", "space")
        await pilot.pause()
        sheet = app.sheet
        layout = sheet.drawn
        assert layout is not None
        assert layout.label + sum(layout.widths) <= sheet.size.width  # nothing to scroll sideways to
        assert sheet.scroll_x == 0
        assert all(first.strip() for first, _ in layout.names)
        assert len(set(layout.names)) == count, layout.names
        lines = screen_lines(app)
        assert sum(line.count("▶") for line in lines[:2]) == 1  # the mover, over the first column
        for label in ("Bonus", "Gesamtsumme" if lang == "de" else "Total"):
            row = next(line for line in lines if line.startswith(label))
            assert len(row[: sheet.size.width].split()) - len(label.split()) == count, row
        assert not app.query_one("#main").has_class("stacked")


async def test_eight_players_fit_a_larger_terminal_and_a_narrow_one_stacks() -> None:
    app = make_app(players=("Ada", *["bot"] * 7), seed=3)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        layout = app.sheet.drawn
        assert layout is not None
        assert layout.label + sum(layout.widths) <= app.sheet.size.width
        assert all(first.strip() for first, _ in layout.names)
    app = make_app(players=("Ada", "bot", "Bea"), seed=3)
    async with app.run_test(size=(60, 40)) as pilot:
        await pilot.pause()
        assert app.query_one("#main").has_class("stacked")  # the dice below the sheet
        assert app.query_one("#dice").region.y > app.sheet.region.y


async def test_a_wide_terminal_shows_full_names_and_labels() -> None:
    app = make_app(players=PLAYERS[4], lang="de", seed=3)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        layout = app.sheet.drawn
        assert layout is not None
        assert not layout.short
        assert [first for first, _ in layout.names] == app.names


async def test_the_log_never_breaks_a_dice_list() -> None:
    """Bots' throws at 80 columns: every dice list of the log is on one line of the screen's log."""
    app = make_app(players=("Ada", "bot", "bot"), seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.press("space", "1", "2", "space", "enter")
        lines = [line.text for line in app.news.lines]
        lists = [m for message in app.messages for m in re.findall(r"\d(?:\u00a0\d)+", message)]
        assert len(lists) > 6
        assert all(any(dice in line for line in lines) for dice in lists)


async def test_the_question_before_a_zero_is_where_the_eye_is() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")
        key = next(k for k, p in app.game.placements().items() if p.total == 0)
        await pilot.press(app.box_keys[key])
        question = app.query_one("#question", Static)
        assert question.display
        assert question.region.y >= 24 - 4  # just above the keys, under the sheet
        assert "pays 0 with these dice" in str(question.render())
        await pilot.press(app.box_keys[key])
        await pilot.pause()
        assert not question.display


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_counts_read_in_either_language(lang: str) -> None:
    """The rolls left through 2, 1 and 0: gettext's plural forms, and "keine Würfe mehr"."""
    expected = {
        "en": ["2 rolls left", "1 roll left", "no rolls left"],
        "de": ["noch 2 Würfe", "noch 1 Wurf", "keine Würfe mehr"],
    }[lang]
    app = make_app(lang=lang, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        for words in expected:
            await pilot.press("space")
            assert words in status(app)


async def test_the_position_as_text_and_advice_for_a_pasted_one() -> None:
    """p shows the table text (as kniffel advise --situation reads it) to copy; a pasted one shows every
    option with its points and, with the other players' sheets, its chance of winning; a bad one is
    refused with the reason."""
    from kniffel.apps.tui.position import PositionScreen
    from kniffel.engine.situation import Situation
    from kniffel.planning.winning import prepare_tables

    strict = get_rules("kniffel", {"strict": "on"})
    prepare_tables(strict)
    app = KniffelApp(Session.new(strict, ["Ada", "Bob"], Settings(seed=3)), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "enter", "space")
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PositionScreen)
        paste = app.screen.query_one("#position-paste", Input)
        assert paste.value == str(app.game.situation())
        assert Situation.parse(paste.value) == app.game.situation()
        assert "others" in paste.value  # the other player's sheet is part of it
        await pilot.press("enter")
        await finish_work(app, pilot)
        await pilot.pause()
        advice = [line.text for line in app.screen.query_one("#position-advice", RichLog).lines]
        assert advice[1].split() == ["points", "loss", "win"]
        assert len(advice) > 5
        assert all(line.rstrip().endswith("%") for line in advice[2:5])
        # a pasted position late in a game, with a score to reach: its chance beside every option
        paste.value = (
            "kniffel strict=on | ones=2 twos=4 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=20 "
            "four_of_a_kind=0 full_house=25 small_straight=30 | 2 2 4 5 6 | rolls left 2"
        )
        app.screen.query_one("#position-target", Input).value = "200"
        await pilot.press("enter")
        await finish_work(app, pilot)
        await pilot.pause()
        advice = [line.text for line in app.screen.query_one("#position-advice", RichLog).lines]
        assert advice[1].split() == ["points", "loss", "≥200"]  # no other sheets: no chance of winning
        assert all(line.rstrip().endswith("%") for line in advice[2:5])
        assert "upper bounds" not in str(app.screen.query_one("#position-note", Static).render())
        # a score past where the tables stop: its chances are the limit's, said so
        paste.value = "kniffel strict=on | ones=2 twos=4 threes=9 | 2 2 4 5 6 | rolls left 2"
        app.screen.query_one("#position-target", Input).value = "2000"
        await pilot.press("enter")
        await finish_work(app, pilot)
        await pilot.pause()
        said = " ".join(str(app.screen.query_one("#position-note", Static).render()).split())
        assert "Past 475 more points the tables stop" in said, said
        paste.value = "kniffel | nonsense"
        await pilot.press("enter")
        await pilot.pause()
        assert "error:" in str(app.screen.query_one("#position-note", Static).render())
        await pilot.press("escape")
        assert not isinstance(app.screen, PositionScreen)


async def test_the_position_screen_counts_a_first_use_compile_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advice for a pasted position waits for the same first-use compile as the game's hints, and says
    so the same way, in the game's language, until the advice comes."""
    import kniffel.apps.tui.position as position
    from kniffel.apps.tui.position import PositionScreen

    since = [7.0]
    compiled = compiling_until_set(monkeypatch, position, since)
    app = make_app(players=("Ada",), seed=3, lang="de")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space", "p")
        await pilot.pause()
        assert isinstance(app.screen, PositionScreen)
        note = app.screen.query_one("#position-note", Static)
        await pilot.press("enter")
        await pilot.pause()
        assert "nur beim ersten Mal (bisher 7 s)" in str(note.render())
        since[0] = 9.0
        for _ in range(30):
            await pilot.pause(0.1)
            if "(bisher 9 s)" in str(note.render()):
                break
        assert "(bisher 9 s)" in str(note.render())
        compiled.set()
        await finish_work(app, pilot)
        await pilot.pause(1.2)  # past the next tick: the note stays what the advice says
        assert "Löser" not in str(note.render())
        advice = [line.text for line in app.screen.query_one("#position-advice", RichLog).lines]
        assert len(advice) > 5


async def test_the_layout_follows_the_terminal_as_it_is_resized() -> None:
    app = make_app(players=("Ada", "bot", "Bea"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        layout = app.sheet.drawn
        assert layout is not None
        assert layout.short  # abbreviated labels beside the side panel
        await pilot.resize_terminal(60, 40)
        await pilot.pause()
        await pilot.pause()
        assert app.query_one("#main").has_class("stacked")
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        await pilot.pause()
        assert not app.query_one("#main").has_class("stacked")
        layout = app.sheet.drawn
        assert layout is not None
        assert not layout.short


async def test_the_status_offers_no_key_while_a_bot_moves() -> None:
    """While a bot plays its turn the status says so and invites no key (a key pressed then waits for the
    person's turn); back to the person, it says which key rolls."""
    settings = Settings(seed=11)
    app = KniffelApp(Session.new(get_rules("kniffel"), ["You", "bot"], settings), bot_delay=0.3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "enter")
        assert app.bots_playing
        shown = status(app)
        assert "is moving" in shown, shown
        assert "space" not in shown, shown
        await until(pilot, lambda: not app.bots_playing)
        await pilot.pause()
        assert "You to move: roll (space)" in status(app)


@pytest.mark.parametrize(
    ("name", "width"),
    [
        (name, width)
        for name in (
            "Alexandra",
            "Alexandra Schmidt",
            "Bot (heuristic) 2",
            "Dietrich von Bern",
            "Bot auf Sieg",
            "Maximilian",
        )
        for width in range(3, 12)
    ],
)
def test_a_name_over_two_lines_never_breaks_a_word(name: str, width: int) -> None:
    """Each line of a player's head holds whole words or a word's start cut with an ellipsis (or the
    short form of a word), never the rest of a word begun on the line above."""
    from kniffel.apps.tui.sheet import name_lines

    words = name.replace("(", "").replace(")", "").split()
    lines = name_lines(name, width, 2)
    assert all(len(line) <= width for line in lines), lines
    for token in " ".join(lines).split():
        stem = token.rstrip("….")
        assert any(word.startswith(stem) for word in words), (lines, token)


async def test_hints_fill_in_their_win_column_once_the_tables_come(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints asked for while the win tables are solved show points and a note that follows the solve;
    once the tables are there the win column fills in by itself, no key pressed."""
    import kniffel.apps.tui.app as app_module
    from kniffel.planning.winning import prepare_tables
    from kniffel.planning.worker import Work
    from kniffel.services.advice import Preparing

    ask_chances = app_module.hint_chances

    strict = get_rules("kniffel", {"strict": "on"})
    prepare_tables(strict)
    there = threading.Event()
    done = [0.2]

    def win_column(game: Game, choices: object, *, wait: bool = False) -> object:
        if there.is_set():
            return ask_chances(game, choices)  # type: ignore[arg-type]
        work = Work("Solving the win tables of {rules} (once; kept on disk)", 9.0, 0, (("rules", "kniffel"),))
        return Preparing(work, done[0], compiling=None, elapsed=30.0)

    monkeypatch.setattr(app_module, "hint_chances", win_column)
    app = KniffelApp(Session.new(strict, ["Ada", "Bob"], Settings(seed=3)), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "t")
        await finish_work(app, pilot)

        def panel() -> str:
            return " ".join(line.text for line in app.query_one("#hints", RichLog).lines)

        assert "Kniffel (Schmidt)" in panel(), panel()
        assert "about 2 min left, 20 percent done" in panel(), panel()
        done[0] = 0.5
        await until(pilot, lambda: "about 30 s left, 50 percent done" in panel(), 10)
        there.set()
        await until(pilot, lambda: "%" in panel(), 10)
        heads = [line.text.split() for line in app.query_one("#hints", RichLog).lines]
        assert ["points", "loss", "win"] in heads
        assert "Points meanwhile" not in panel()


async def test_opening_a_panel_keeps_the_newest_log_line_in_view() -> None:
    """The chances in the status and the hints under the log take room from the log: its newest line
    stays in view all the same."""
    from kniffel.planning.winning import prepare_tables

    strict = get_rules("kniffel", {"strict": "on"})
    prepare_tables(strict)
    app = KniffelApp(Session.new(strict, ["Ada", "bot", "Bob"], Settings(seed=3)), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await score_here(app, pilot) if app.game.turn.dice is not None else await pilot.press("space")
            await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        newest = app.news.lines[-1].text
        for key in ("w", "t"):
            await pilot.press(key)
            await finish_work(app, pilot)
            await pilot.pause()
            log = app.news
            assert log.scroll_y == log.max_scroll_y, key
            assert log.lines[-1].text == newest
