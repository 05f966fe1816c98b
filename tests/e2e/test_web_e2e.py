"""End to end in headless Chromium: people create, join and play games through the pages alone.

Debian's ``/usr/bin/chromium`` (or ``$KNIFFEL_CHROMIUM``) is driven by Playwright; Playwright's own
browser downloads are never used. Screenshots of the table go to ``test-artifacts/``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.sync.client import connect as ws_connect

from support.web import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("KNIFFEL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT = 30_000
"""Milliseconds a page waits for a step (the browser and the server share a machine with other work)."""
FIRST_TIME = 120_000
"""Milliseconds for steps that may do first-time work in the server: its first review of a game."""

_AXE_PACKAGE = importlib.util.find_spec("axe_playwright_python")
AXE = Path(_AXE_PACKAGE.origin if _AXE_PACKAGE and _AXE_PACKAGE.origin else ".").parent / "axe.min.js"
"""axe-core as the PyPI package axe-playwright-python ships it: nothing is fetched when the tests run."""

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, prepared_solver: Path) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("e2e")
    url = f"sqlite:///{directory / 'games.sqlite3'}"
    with ServerProcess(
        url, bot_delay=0.05, cache_dir=prepared_solver, log_path=directory / "server.log"
    ) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        # Playwright gives every launch a fresh temporary profile (user-data-dir).
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


ERRORS: dict[int, list[str]] = {}
"""Script errors seen on each page (by ``id(page)``); every test expects none."""


def new_page(browser: Browser, width: int = 1200, height: int = 900) -> Page:
    """A page in a context of its own: its own cookies and storage, like a second person's browser."""
    # The waits below evaluate strings, which the pages' Content-Security-Policy forbids (no eval);
    # test_web_csp.py checks the pages under their policy.
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="en-US", bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors = ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def wait_moving_the_clock(page: Page, condition: str, pause: int, timeout: float = TIMEOUT) -> None:
    """Wait until ``condition`` holds on ``page``, whose clock is Playwright's (``page.clock.install()``
    before it loaded), at most ``timeout`` ms: whenever a second passes without it, the clock jumps
    ``pause`` ms on, so that the timer after which the page asks the server again fires at once rather
    than in real time."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            page.wait_for_function(condition, timeout=min(1000, max(1, (deadline - time.monotonic()) * 1000)))
            return
        except PlaywrightTimeoutError:
            if time.monotonic() >= deadline:
                raise
            page.clock.fast_forward(pause)


def errors(page: Page) -> list[str]:
    return ERRORS.get(id(page), [])


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def seq(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.seq ?? -1)"))


def wait_seq(page: Page, at_least: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq ?? -1) >= {at_least}")


def create_on_home_page(
    page: Page, server: ServerProcess, rules: str, seats: list[tuple[str, str]], *, hotseat: bool = False
) -> list[str]:
    """Fill the home page form; returns the invite links (one per human seat)."""
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#rules", rules)
    rows = page.locator("#seats li")
    while rows.count() < len(seats):
        page.click("#add-seat")
    while rows.count() > len(seats):
        rows.last.locator(".remove").click()
    for row, (name, kind) in zip(rows.all(), seats, strict=True):
        row.locator(".seat-name").fill(name)
        row.locator(".seat-kind").select_option(kind)
    if hotseat:
        page.check("#hotseat")
    page.click("#create-button")
    page.wait_for_selector("#result:not([hidden])")
    return [field.input_value() for field in page.locator("#links .invite").all()]


def tap_box(page: Page, button: Locator) -> None:
    """Tap a box's button; where the page asks first (a box the dice pay 0 in), tap it again."""
    box = button.get_attribute("data-box")
    button.click()
    asked = page.locator(f"#sheet button.confirm[data-box='{box}']")
    if asked.count():
        asked.click()


def enter_a_box(page: Page) -> None:
    """Enter the dice in the first box the sheet offers (or strike it), with the mouse."""
    tap_box(page, page.locator("#sheet button.score, #sheet button.strike").first)


def play_one_turn(page: Page) -> None:
    """Roll, then take the best-paying box (or strike one), with the mouse."""
    start = seq(page)
    page.click("#roll")
    wait_seq(page, start + 1)
    options = page.locator("#sheet button.score")
    if options.count():
        points = [int(re.sub(r"\D.*", "", text) or 0) for text in options.all_inner_texts()]
        tap_box(page, options.nth(points.index(max(points))))
    else:
        tap_box(page, page.locator("#sheet button.strike").first)
    wait_seq(page, start + 2)


def test_two_browsers_play_a_whole_game_to_the_ranking(browser: Browser, server: ServerProcess) -> None:
    host = new_page(browser)
    links = create_on_home_page(host, server, "kniffel", [("Ada", "human"), ("Bob", "human")])
    assert len(links) == 2
    ada, bob = host, new_page(browser, width=390, height=844)  # Bob plays on a phone
    ada.goto(links[0])
    bob.goto(links[1])
    for page in (ada, bob):
        page.wait_for_selector("#connection[data-status='connected']")
    turns = 0
    while ada.evaluate("document.body.dataset.over") != "1":
        mover = ada if ada.evaluate("document.body.dataset.current") == "0" else bob
        watcher = bob if mover is ada else ada
        mover.wait_for_selector("#roll:not([disabled])")
        play_one_turn(mover)
        wait_seq(watcher, seq(mover))
        turns += 1
        if turns == 7:
            screenshot(ada, "table-midgame")
            screenshot(bob, "table-phone")
            width = bob.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], "the phone page scrolls only inside the score sheet"
    assert turns == 26
    for page in (ada, bob):
        page.wait_for_selector("#ranking:not([hidden])")
        ranking = page.locator("#ranking-list li").all_inner_texts()
        assert len(ranking) == 2
        totals = [int(t) for t in page.locator("#sheet td[data-sum='total']").all_inner_texts()]
        best = max(totals)
        assert str(best) in ranking[0]
        assert errors(page) == []
    assert "wins" in ada.inner_text("#banner") or "Tie" in ada.inner_text("#banner")
    if ada.is_visible("#review-button"):  # the solver can judge Kniffel: review the decisions
        ada.click("#review-button")
        ada.wait_for_selector("#review-list li", timeout=FIRST_TIME)
        assert "gave away" in ada.inner_text("#review-list")
    screenshot(ada, "table-final")


def test_the_table_survives_a_server_restart(browser: Browser, tmp_path: Path, prepared_solver: Path) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        bot_delay=0.05,
        cache_dir=prepared_solver,
        log_path=tmp_path / "server.log",
    )
    server.start()
    try:
        page = new_page(browser)
        links = create_on_home_page(page, server, "yatzy", [("Ada", "human"), ("Robo", "bot")])
        page.goto(links[0])
        page.wait_for_selector("#roll:not([disabled])")
        play_one_turn(page)  # then the bot plays its turn
        page.wait_for_selector("#roll:not([disabled])")
        rolled = seq(page) + 1
        page.click("#roll")
        wait_seq(page, rolled)
        before = seq(page)
        dice = page.get_attribute("#dice", "aria-label")
        sheet = page.inner_text("#sheet")
        server.kill()
        page.wait_for_selector("#connection[data-status='reconnecting']")
        server.start()
        page.wait_for_selector("#connection[data-status='connected']")
        page.wait_for_selector("#roll:not([disabled])")
        assert seq(page) == before
        assert page.get_attribute("#dice", "aria-label") == dice
        assert page.inner_text("#sheet") == sheet
        screenshot(page, "table-after-restart")
        enter_a_box(page)
        wait_seq(page, before + 1)
        assert errors(page) == []
    finally:
        server.stop()


def test_a_turn_by_keyboard_alone(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser)
    links = create_on_home_page(page, server, "kniffel", [("Ada", "human")])
    page.goto(links[0])
    page.wait_for_selector("#roll:not([disabled])")
    page.keyboard.press("Space")
    wait_seq(page, 1)
    page.keyboard.press("1")
    page.keyboard.press("2")
    held = page.locator(".die[aria-pressed='true']")
    assert held.count() == 2
    kept = sorted(int(face) for face in held.evaluate_all("els => els.map(e => e.dataset.face)"))
    page.keyboard.press("Space")
    wait_seq(page, 2)
    log = page.inner_text("#log")
    assert f"keeps {' '.join(map(str, kept))}" in log
    # Tab through the page to the first box that takes the dice, and enter them there.
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset?.act") == "score":
            break
    else:
        pytest.fail("no score button is reachable with Tab")
    box = page.evaluate("document.activeElement.dataset.box")
    page.keyboard.press("Enter")
    if page.evaluate("document.activeElement.classList.contains('confirm')"):
        page.keyboard.press("Enter")  # the box pays 0 with these dice: asked, and answered by its key
    wait_seq(page, 3)
    assert page.locator(f"#sheet td.filled[data-box='{box}']").count() == 1
    page.keyboard.press("l")
    page.wait_for_selector("body[data-lang='de']")
    assert page.inner_text("#banner").startswith("Du bist dran")
    assert page.inner_text("#roll") == "Würfeln"
    assert f"hält {' '.join(map(str, kept))}" in page.inner_text("#log")
    # The sheet's rows are the library's layout, sent with the rules, in the page's language.
    layout = server_state(server, page.evaluate("location.pathname.split('/').pop()"))["rules"]["layout"]
    sums = [row["label"]["de"] for row in layout if row["kind"] == "sum"]
    shorts = {row["label"]["de"]: row["short"]["de"] for row in layout if row["kind"] == "sum"}
    # a long name takes its short form, the whole name its tooltip ("Ges. oben": "Gesamter oberer Teil")
    labels = page.locator("#sheet tr.sum th").evaluate_all("els => els.map(e => [e.innerText, e.title])")
    assert [title or text for text, title in labels] == sums
    assert all(text in (title, shorts[title]) for text, title in labels if title)
    assert "Summe oben" in [text for text, _ in labels]
    screenshot(page, "table-keyboard-german")
    page.keyboard.press("l")
    page.wait_for_selector("body[data-lang='en']")
    assert page.locator("#sheet tbody tr.sum th").first.inner_text() == "Upper sum"
    assert errors(page) == []


# --- a table people enjoy: hot seat, score pad offline, watching, rematch, accessibility ------------


def create_game(server: ServerProcess, seats: list[tuple[str, str]], **flags: bool) -> dict[str, Any]:
    body = {"rules": "kniffel", "seats": [{"name": n, "kind": k} for n, k in seats], **flags}
    request = urllib.request.Request(
        server.url + "/api/games", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created: dict[str, Any] = json.load(response)
        return created


def server_state(server: ServerProcess, game_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}", timeout=10) as response:
        state: dict[str, Any] = json.load(response)
        return state


def play_to_the_end(
    server: ServerProcess, game_id: str, token: str, *, leave_last_turn: bool = False
) -> None:
    """Finish a game over the WebSocket, playing the token's seat as fast as the server takes it; with
    ``leave_last_turn``, stop when the seat's last turn is to be played (for a page to finish it)."""
    with ws_connect(f"{server.ws_url}/ws/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        seats: list[int] = []
        acted_at = -1
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "error" and message.get("code") == "rate_limited":
                # Faster than a connection may send (a hot seat plays every seat): wait for the
                # allowance to refill, then ask for the position again and act on it.
                time.sleep(1.5)
                acted_at = -1
                ws.send(json.dumps({"type": "state"}))
                continue
            assert message["type"] != "error", message
            if message["type"] == "welcome":
                seats = message["seats"]
            if message["type"] != "state":
                continue
            state = message["state"]
            if state["over"]:
                return
            if state["current"] not in seats or state["seq"] <= acted_at:
                continue
            last_turn = state["round"] == state["rules"]["turns"] and state["turn"]["dice"] is None
            if leave_last_turn and last_turn:
                return
            acted_at = state["seq"]
            if state["turn"]["dice"] is None:
                action: dict[str, Any] = {"action": "roll"}
            elif state["placements"]:
                action = {"action": "score", "box": next(iter(state["placements"]))}
            else:
                action = {"action": "strike", "box": state["strikeable"][0]}
            ws.send(json.dumps({"type": "action", "seq": state["seq"], "action": action}))


def axe_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (axe from its PyPI package)."""
    assert AXE.exists(), "axe-core comes with the test extra: pip install -e '.[test]'"
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def enter_pad_roll(page: Page, dice: list[int]) -> None:
    for field, face in zip(page.locator("#pad-dice input").all(), dice, strict=True):
        if field.is_enabled():
            field.fill(str(face))
    page.click("#roll")


def test_a_hot_seat_game_at_one_screen(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert "No games yet" in page.inner_text("#game-list")
    assert axe_violations(page) == []
    create_on_home_page(page, server, "kniffel", [("Ada", "human"), ("Bob", "human")], hotseat=True)
    watch = page.locator("#links .watch").input_value()
    assert axe_violations(page) == []
    page.click("#open-table")
    page.wait_for_selector("#banner[data-mine='1']")
    for turn, name in enumerate(["Ada", "Bob", "Ada", "Bob"]):
        page.wait_for_selector("#banner[data-mine='1']")
        assert page.inner_text("#banner") == f"Your turn, {name}", "one screen plays every seat in turn"
        start = seq(page)
        page.click("#roll")
        wait_seq(page, start + 1)
        thrown = page.locator(".die.rolling")
        assert thrown.count() == 5, "a first roll throws every die"
        duration = thrown.first.evaluate("e => parseFloat(getComputedStyle(e).animationDuration)")
        assert 0 < duration < 0.4
        if turn == 0:
            page.click(".die >> nth=1")
            held_die = page.locator(".die[aria-pressed='true']")
            assert held_die.count() == 1
            lifted = held_die.evaluate("e => new DOMMatrix(getComputedStyle(e).transform).m42")
            assert lifted < -8, "a held die stands apart from the others"
            label = held_die.evaluate("e => getComputedStyle(e, '::after').content")
            assert label == '"held"', "and says so in words, not by colour alone"
            screenshot(page, "table-held-die")
            assert axe_violations(page) == []
            page.click("#roll")
            wait_seq(page, start + 2)
            assert page.locator(".die.rolling").count() == 4, "the held die stays still"
            start += 1
        if turn == 1:  # the solver advises on Kniffel: hints on
            page.click("#hint")
            page.wait_for_selector("#hints:not([hidden]) #hint-list li", timeout=FIRST_TIME)
            advice = page.locator("#hint-list li").all_inner_texts()
            best_option = advice[0].split(" · ")[0]
            if best_option.startswith(("roll", "keep")):  # rolling again is best: the roll button says so
                assert page.inner_text("#roll").startswith("★")
                assert f"best: {best_option}" in (page.get_attribute("#roll", "aria-label") or "")
                assert page.locator("#sheet td.best").count() == 0
            else:  # filling a box is best: that box is starred
                marked = page.wait_for_selector("#sheet td.best button.score")
                assert marked is not None
                assert marked.inner_text().startswith("★")
                assert "best for this roll" in (marked.get_attribute("aria-label") or "")
                label = page.inner_text("#sheet tbody tr:has(td.best) th")
                assert label in advice[0], "the marked box is the advisor's best option"
                assert not page.inner_text("#roll").startswith("★")
            screenshot(page, "table-hints")
            page.click("#hint")
            assert page.locator("#sheet td.best").count() == 0
            assert not page.inner_text("#roll").startswith("★")
        options = page.locator("#sheet button.score")
        points = [int(re.sub(r"\D.*", "", text) or 0) for text in options.all_inner_texts()]
        best = points.index(max(points))
        box = options.nth(best).get_attribute("data-box")
        tap_box(page, options.nth(best))
        wait_seq(page, start + 2)
        assert f"{max(points)} points" in page.locator("#log li").first.inner_text()
        assert page.locator(f"#sheet td.filled[data-box='{box}']").count() >= 1
        assert page.locator("#sheet td.filled").count() == turn + 1
    assert page.get_attribute("#watch-link", "href") == watch
    page.goto(server.url + "/")
    games = page.locator("#game-list li")
    assert games.count() == 1
    assert "Ada, Bob" in games.first.inner_text()
    assert axe_violations(page) == []
    games.first.locator("a").click()
    page.wait_for_selector("#banner[data-mine='1']")
    assert page.inner_text("#banner") == "Your turn, Ada", "the list leads back to the seat"
    assert errors(page) == []


def test_no_tumbling_dice_for_those_who_want_less_motion(browser: Browser, server: ServerProcess) -> None:
    # like new_page: the string waits below are evaluated in the page (its policy is tested elsewhere)
    context = browser.new_context(
        viewport={"width": 800, "height": 800}, reduced_motion="reduce", locale="en-US", bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    game = create_game(server, [("Ada", "human")])
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("#banner[data-mine='1']")
    page.click("#roll")
    wait_seq(page, 1)
    assert page.locator(".die.rolling").count() == 5
    assert page.locator(".die.rolling").first.evaluate("e => getComputedStyle(e).animationName") == "none"
    context.close()


def test_a_score_pad_works_offline_and_syncs_in_order(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser, width=390, height=844)
    game = create_game(server, [("Ada", "human"), ("Bob", "human")], pad=True, hotseat=True)
    page.goto(server.url + f"/g/{game['id']}#t={game['host_token']}")
    page.wait_for_selector("#pad:not([hidden])")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    installable = page.context.new_cdp_session(page).send("Page.getInstallabilityErrors")
    # A test browser's profile is private ("in-incognito"); any other finding is the app's own.
    problems = [e["errorId"] for e in installable["installabilityErrors"] if e["errorId"] != "in-incognito"]
    assert problems == [], "Chromium would offer to install the app"
    enter_pad_roll(page, [2, 3, 7, 5, 6])  # a typo: the error says which die and why
    assert page.inner_text("#error") == "Die 3 shows 7, but a die shows 1 to 6"
    assert page.get_attribute("#pad-dice input >> nth=2", "aria-invalid") == "true"
    enter_pad_roll(page, [2, 3, 4, 5, 6])
    wait_seq(page, 1)
    page.click("#sheet button.score[data-box='large_straight']")
    wait_seq(page, 2)

    page.context.set_offline(True)
    page.wait_for_function("!navigator.onLine")
    enter_pad_roll(page, [6, 6, 6, 6, 6])  # Bob, offline
    page.wait_for_selector("body[data-pending='1']")
    assert page.get_attribute("#dice", "aria-label") == "6 6 6 6 6"
    page.click("#sheet button.score[data-box='kniffel']")
    page.wait_for_selector("body[data-pending='2']")
    assert "Offline: 2 entries waiting" in page.inner_text("#connection")
    assert "waiting to be sent" in page.inner_text("#log")
    assert page.inner_text("#banner") == "Your turn, Ada"
    page.reload()  # the installed app opens again without a connection: the service worker has the page
    page.wait_for_selector("body[data-pending='2']")
    assert page.inner_text("#banner") == "Your turn, Ada"
    screenshot(page, "table-pad-offline")
    assert server_state(server, game["id"])["seq"] == 2, "nothing reached the server while offline"

    page.context.set_offline(False)
    page.wait_for_selector("body[data-pending='0']")
    wait_seq(page, 4)
    state = server_state(server, game["id"])
    assert state["seq"] == 4
    assert state["players"][1]["entries"] == {"kniffel": 50}
    assert page.inner_text("#sheet td.filled[data-box='kniffel']") == "50"
    assert "50 points" in page.locator("#log li").first.inner_text()

    # Offline again, while another device at the table enters a roll first: the queue no longer fits.
    page.context.set_offline(True)
    page.wait_for_function("!navigator.onLine")
    enter_pad_roll(page, [1, 1, 1, 1, 1])
    page.wait_for_selector("body[data-pending='1']")
    with ws_connect(f"{server.ws_url}/ws/{game['id']}") as other:
        other.send(json.dumps({"type": "hello", "token": game["host_token"]}))
        roll = {"action": "roll", "keep": [], "dice": [2, 2, 2, 2, 2]}
        other.send(json.dumps({"type": "action", "seq": 4, "action": roll}))
        while True:
            message = json.loads(other.recv(timeout=10))
            assert message["type"] != "error", message
            if message["type"] == "state" and message["state"]["seq"] == 5:
                break
    page.context.set_offline(False)
    page.wait_for_selector("body[data-pending='0']")
    wait_seq(page, 5)
    assert "not accepted: the game went on without them" in page.inner_text("#error")
    assert page.get_attribute("#dice", "aria-label") == "2 2 2 2 2", "the table shows what the server kept"
    assert server_state(server, game["id"])["seq"] == 5
    assert errors(page) == []


DAMAGED = [
    ("queue", '{"at": 0}'),  # an object where a list belongs
    ("queue", '[1, "roll", null]'),  # wrong types
    ("queue", '[{"action": {"action": "roll", "dice": [6, 6, 6, 6, 6]}, "seat": 0}]'),  # no position
    ("queue", '[{"action": {"action": "score"}, "seat": 0, "at": 0}]'),  # no box
    ("state", '{"state": [], "seats": [0]}'),
    ("state", '{"state": {"seq": 1, "players": "Ada"}, "seats": [0]}'),
    ("state", '{"state": {"seq": 1}, "seats": [0, 1]}'),  # everything else missing
    ("state", "{not json"),
]
"""What a score-pad table may find in this browser's storage that this version did not write: the
offline queue (``kniffel.queue.ID``) and the last state (``kniffel.state.ID``)."""


def test_damaged_browser_storage_is_dropped_with_a_message(browser: Browser, server: ServerProcess) -> None:
    """A table whose stored queue or state this version did not write was left blank until the site's
    data was cleared; it now drops what does not parse, says so, and draws the game."""
    game = create_game(server, [("Ada", "human"), ("Bob", "human")], pad=True, hotseat=True)
    page = new_page(browser, width=390, height=844)
    for kind, text in [*DAMAGED, ("games", '{"id": 1}'), ("invites", "[null, 7]")]:
        page.goto(server.url + "/")
        key = f"kniffel.{kind}." + game["id"] if kind != "games" else "kniffel.games"
        page.evaluate("([key, text]) => localStorage.setItem(key, text)", [key, text])
        page.goto(server.url + f"/g/{game['id']}#t={game['host_token']}")
        page.wait_for_selector("body[data-seq='0']")
        page.wait_for_selector("#sheet button.score, #pad:not([hidden])")
        if kind in ("queue", "state"):
            assert "could not be read" in page.inner_text("#error"), (kind, text)
            kept = page.evaluate("(key) => localStorage.getItem(key)", key)
            assert kept is None or kept != text, "what does not parse is not kept"
        assert page.get_attribute("body", "data-pending") == "0"
        assert errors(page) == [], (kind, text)
    enter_pad_roll(page, [3, 3, 3, 4, 4])  # the table plays on
    wait_seq(page, 1)


HOME_DAMAGED: list[tuple[str, list[str]]] = [
    ('{"id": 1}', []),
    ("not json", []),
    ('"a list of games"', []),
    (
        json.dumps(
            [
                None,
                7,
                "x",
                {"id": "bad-url", "url": "http://[bad"},
                {"id": "one-name", "url": "/g/one-name", "players": "Ada"},
                {"id": "elsewhere", "url": "https://example.org/g/x"},
                {
                    "id": "ok",
                    "url": "/g/ok#t=abc",
                    "rules": "Kniffel",
                    "players": ["Ada", "Bob"],
                    "over": True,
                },
            ]
        ),
        ["ok"],
    ),
]
"""Lists of games (``kniffel.games``) the home page may find that the table page did not write, and the
entries of each it keeps."""


def test_the_home_page_drops_a_damaged_list_of_games_with_a_message(
    browser: Browser, server: ServerProcess
) -> None:
    """The home page's list of this browser's games, read from storage, was broken by an entry of
    another shape (players as a string, a bad url, not an object); it now shows the entries that parse,
    drops the rest and says so once."""
    page = new_page(browser, width=390, height=844)
    for text, kept in HOME_DAMAGED:
        page.goto(server.url + "/")
        page.evaluate("(text) => localStorage.setItem('kniffel.games', text)", text)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert "could not be read and were dropped" in page.inner_text("#games-note"), text
        assert (
            page.eval_on_selector_all("#game-list li[data-game]", "els => els.map((e) => e.dataset.game)")
            == kept
        )
        if kept:
            link = page.locator("#game-list a").first
            assert link.get_attribute("href") == "/g/ok#t=abc"
            assert link.inner_text() == "Kniffel: Ada, Bob"
        else:
            assert page.inner_text("#game-list") == "No games yet."
        stored = page.evaluate("localStorage.getItem('kniffel.games')")
        assert stored is None or [g["id"] for g in json.loads(stored)] == kept, (
            "what does not parse is not kept"
        )
        page.reload()  # the list is clean now: nothing more to say
        page.wait_for_selector("body[data-ready='1']")
        assert not page.locator("#games-note").is_visible()
        assert errors(page) == [], text
    page.locator("#game-list .remove").first.click()  # forgetting a game still works
    assert page.inner_text("#game-list") == "No games yet."


def test_the_home_page_on_a_german_phone(browser: Browser, server: ServerProcess) -> None:
    """On a 390 px phone a seat's name shows whole ("Spieler 1" was cut to "Spieler"), and an option's
    help is in plain words: the sources it cites are in its tooltip, not in the text."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="de-DE",
        has_touch=True,
        is_mobile=True,
        bypass_csp=True,
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda error: ERRORS.setdefault(id(page), []).append(str(error)))
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#rules", "kniffel")
    names = page.locator("#seats .seat-name")
    assert names.first.input_value() == "Spieler 1"
    for field in names.all():
        width = field.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
        assert width[0] <= width[1], f"{field.input_value()!r} is cut short"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    helps = page.locator("#options small")
    page.click("#more-options summary")  # the rule book's options wait behind "More options"

    def plain_words(doubles: str, article: str) -> None:
        texts = helps.all_inner_texts()
        assert texts, "the rule set has options"
        assert any(doubles in text for text in texts)
        for text in texts:  # one plain sentence each
            assert not re.search(r"Schmidt|Artikel|Regeln|article|rules", text), text
            assert text.endswith("."), text
            assert text.count(". ") == 0, text
        tooltips = " ".join(page.locator("#options .field").evaluate_all("(els) => els.map((e) => e.title)"))
        assert "Schmidt" in tooltips
        assert article in tooltips

    plain_words("doppelt", "Kniffel-Artikel")
    screenshot(page, "phone-home")
    assert axe_violations(page) == []
    page.click("#lang")  # in English, whose sources have brackets of their own
    page.wait_for_function("document.querySelector('#options small')?.textContent.includes('Kniffel earns')")
    plain_words("double", "Kniffel article (English translation)")
    assert errors(page) == []
    context.close()


def test_a_table_that_missed_a_change_asks_for_the_whole_state(
    browser: Browser, server: ServerProcess
) -> None:
    """The table receives each action as a change to the state it holds; when one goes missing (here
    dropped between the server and the page), the next does not follow what the page holds, and the
    page asks for the whole state instead of drawing a wrong one."""
    game = create_game(server, [("Ada", "human"), ("Bob", "human")])
    page = new_page(browser)
    seen: list[dict[str, Any]] = []

    def drop_the_first_change(route: Any) -> None:
        upstream = route.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            seen.append(data)
            if data["type"] == "change" and [m["type"] for m in seen].count("change") == 1:
                return  # lost on the way
            route.send(message)

        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/"), drop_the_first_change)
    page.goto(f"{server.url}/g/{game['id']}")
    page.wait_for_selector("#connection[data-status='connected']")
    wait_seq(page, 0)
    with ws_connect(f"{server.ws_url}/ws/{game['id']}") as ada:
        ada.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        for at, action in enumerate([{"action": "roll"}, {"action": "strike", "box": "ones"}]):
            ada.send(json.dumps({"type": "action", "seq": at, "action": action}))
            while (message := json.loads(ada.recv(timeout=10)))["type"] != "state" or message["state"][
                "seq"
            ] <= at:
                assert message["type"] != "error", message
    wait_seq(page, 2)
    assert [m["type"] for m in seen].count("change") == 2
    assert seen[-1]["type"] == "state", "the page asked for the whole state"
    assert page.locator("#log li").count() == 2
    assert page.get_attribute("body", "data-current") == "1"
    assert errors(page) == []


def test_watchers_cannot_act_and_all_follow_the_rematch(browser: Browser, server: ServerProcess) -> None:
    game = create_game(server, [("Ada", "human"), ("Robo", "bot")])
    ada_link = server.url + game["seats"][0]["url"]
    watcher = new_page(browser)
    watcher.clock.install()
    watcher.goto(f"{server.url}/g/{game['id']}")
    watcher.wait_for_selector("#connection[data-status='connected']")
    wait_seq(watcher, 0)
    assert watcher.inner_text("#banner").startswith("You are watching")
    assert watcher.is_disabled("#roll")
    assert watcher.is_hidden("#hint")
    assert axe_violations(watcher) == []

    play_to_the_end(server, game["id"], game["seats"][0]["token"])
    watcher.wait_for_selector("body[data-over='1']")
    assert watcher.is_hidden("#rematch"), "a watcher cannot start a rematch"
    ada = new_page(browser)
    ada.goto(ada_link)
    ada.wait_for_selector("#rematch:not([hidden])")
    screenshot(ada, "table-game-over")
    assert axe_violations(ada) == []
    ada.click("#rematch")
    ada.wait_for_url(re.compile(r"/g/(?!" + re.escape(game["id"]) + r")"))
    ada.wait_for_selector("#roll:not([disabled])")
    assert ada.inner_text("#banner") == "Your turn, Ada"
    new_id = ada.evaluate("location.pathname.split('/').pop()")
    # the watcher's page looks for a rematch less and less often (every 30 s at most): its clock moves on
    wait_moving_the_clock(
        watcher, f"document.querySelector(\"#rematch-link[href*='{new_id}']\") !== null", 30_000
    )
    assert watcher.inner_text("#rematch-link") == "Watch the rematch"
    assert errors(watcher) == []
    assert errors(ada) == []


def test_chances_of_winning_beside_the_players_and_through_the_game(
    browser: Browser, server: ServerProcess
) -> None:
    """Strict Kniffel, whose win tables the session solved: a bar per player after every action, and the
    review's chart of the chances through the game."""
    body = {
        "rules": "kniffel",
        "options": {"strict": "on"},
        "seats": [{"name": "Ada", "kind": "human"}, {"name": "Robo", "kind": "bot"}],
    }
    request = urllib.request.Request(
        server.url + "/api/games", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        game: dict[str, Any] = json.load(response)
    ada = new_page(browser)
    ada.goto(server.url + game["seats"][0]["url"])
    ada.wait_for_selector("#chances:not([hidden])", timeout=FIRST_TIME)
    chances = ada.locator("#chance-list li").evaluate_all(
        "items => items.map((li) => Number(li.dataset.chance))"
    )
    assert len(chances) == 2
    assert 1.0 <= sum(chances) <= 1.05  # a tie counts for both players
    assert ada.locator("#chance-list [role='meter']").count() == 2
    assert axe_violations(ada) == []
    play_to_the_end(server, game["id"], game["seats"][0]["token"])
    ada.wait_for_selector("body[data-over='1']")
    assert ada.locator("#celebration .spark").count() > 0  # motion allowed here: the winner is cheered
    # the bars follow the game to its end: the winner's chance is certain
    ada.wait_for_function(
        "() => document.body.dataset.chancesSeq === document.body.dataset.seq", timeout=FIRST_TIME
    )
    final = ada.locator("#chance-list li").evaluate_all(
        "items => items.map((li) => Number(li.dataset.chance))"
    )
    assert sorted(final)[-1] == 1.0
    ada.click("#review-button")
    ada.wait_for_selector("#review-chart svg polyline", timeout=FIRST_TIME)
    assert ada.locator("#review-chart polyline").count() == 2
    assert "Chances of winning through the game" in ada.inner_text("#review-chart")
    screenshot(ada, "table-chances-review")
    assert errors(ada) == []


def test_on_a_phone_the_dice_the_roll_button_and_the_sheet_share_one_screen(
    browser: Browser, server: ServerProcess
) -> None:
    """A German phone (390x844, touch, reduced motion): five big dice in one row, the roll button and the
    sheet's first boxes on the first screen, no key help, How to play for the table's rules, and at the
    end the ranking first, without the celebration's motion."""
    game = create_game(server, [("Anna", "human"), ("Robo", "bot:optimal")])
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="de-DE",
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
        bypass_csp=True,
    )
    phone = context.new_page()
    phone.set_default_timeout(TIMEOUT)
    phone.goto(server.url + game["seats"][0]["url"])
    phone.wait_for_selector("#roll:not([disabled])")
    phone.click("#roll")
    phone.wait_for_selector(".die[aria-pressed='false']:not([disabled])")
    dice = [phone.locator(".die").nth(i).bounding_box() for i in range(5)]
    assert all(box is not None for box in dice)
    tops = {round(box["y"]) for box in dice if box}
    assert len(tops) == 1, "one row of dice"
    assert all(box and box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in dice)
    assert all(box and box["width"] >= 56 for box in dice), "big enough to tap"
    roll = phone.locator("#roll").bounding_box()
    first_box = phone.locator("#sheet tbody tr").first.bounding_box()
    assert roll is not None
    assert first_box is not None
    assert roll["y"] + roll["height"] <= 844
    assert first_box["y"] + first_box["height"] <= 844
    assert phone.inner_text("#roll") == "Würfeln"
    assert not phone.locator("#key-help").is_visible(), "no keys on a touch screen"
    assert "Robo\nstarker Bot" in phone.inner_text("#sheet thead")  # what plays the seat, under its name
    screenshot(phone, "phone-table")
    assert axe_violations(phone) == []
    phone.click("#how-to-play-button")
    dialog = phone.locator("#how-to-play")
    dialog.wait_for(state="visible")
    text = dialog.inner_text()
    assert "Würfel, bis zu 3 Würfe je Zug" in text
    assert "Summe der Einser" in text  # every box, read from the rule set
    screenshot(phone, "phone-how-to-play")
    assert axe_violations(phone) == []
    phone.click("#how-to-play button[type='submit']")
    play_to_the_end(server, game["id"], game["seats"][0]["token"])
    phone.wait_for_selector("body[data-over='1'] #ranking:not([hidden])")
    ranking = phone.locator("#ranking").bounding_box()
    sheet = phone.locator("#sheet").bounding_box()
    assert ranking is not None
    assert sheet is not None
    assert ranking["y"] < sheet["y"], "the ranking comes first"
    assert phone.locator("#ranking-list li.winner").count() >= 1
    assert not phone.locator("#celebration").is_visible(), "no motion when reduced motion is asked for"
    screenshot(phone, "phone-game-over")
    assert errors(phone) == []
    context.close()
