"""End to end in headless Chromium: people create, join and play games through the pages alone.

Debian's ``/usr/bin/chromium`` (or ``$KNIFFEL_CHROMIUM``) is driven by Playwright; Playwright's own
browser downloads are never used. Screenshots of the table go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from kniffel.web.testing import ServerProcess

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
    page: Page, server: ServerProcess, rules: str, seats: list[tuple[str, str]]
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
    page.click("#create-button")
    page.wait_for_selector("#result:not([hidden])")
    return [field.input_value() for field in page.locator("#links .invite").all()]


def play_one_turn(page: Page) -> None:
    """Roll, then take the best-paying box (or strike one), with the mouse."""
    start = seq(page)
    page.click("#roll")
    wait_seq(page, start + 1)
    options = page.locator("#sheet button.score")
    if options.count():
        points = [int(re.sub(r"\D.*", "", text) or 0) for text in options.all_inner_texts()]
        options.nth(points.index(max(points))).click()
    else:
        page.locator("#sheet button.strike").first.click()
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
        page.locator("#sheet button.score, #sheet button.strike").first.click()
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
    wait_seq(page, 3)
    assert page.locator(f"#sheet td.filled[data-box='{box}']").count() == 1
    page.keyboard.press("l")
    assert page.inner_text("#banner").startswith("Du bist dran")
    screenshot(page, "table-keyboard-german")
    page.keyboard.press("l")
    assert errors(page) == []
