"""The home page as a lobby: one tap starts a game against a bot or a pass-and-play game, at a desktop's
and a phone's size, with the start buttons above the fold; names too long are refused with a reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import test_web_e2e as e2e
from playwright.sync_api import Browser, Page
from test_web_e2e import errors, new_page, screenshot

from kniffel.apps.web.service import MAX_NAME
from support.web import ServerProcess

browser, server = e2e.browser, e2e.server  # the fixtures: one server for this module
ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1280, 800), (390, 844)]


def in_viewport(page: Page, selector: str) -> bool:
    """Whether the element is wholly on the first screen, nothing scrolled."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    return (
        box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


def open_home(browser: Browser, server: ServerProcess, width: int, height: int) -> Page:
    page = new_page(browser, width, height)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    return page


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_one_tap_starts_a_game_against_a_bot(
    browser: Browser,
    server: ServerProcess,
    width: int,
    height: int,
) -> None:
    page = open_home(browser, server, width, height)
    for start in ("#play-bot", "#play-pass"):
        assert in_viewport(page, start), f"{start} is below the fold at {width}x{height}"
    # Plain words first, the rule book's text one tap away.
    assert page.inner_text("#rules-plain").strip()
    assert not page.is_visible("#rules-description")
    page.click("#rule-book summary")
    assert page.is_visible("#rules-description")
    assert page.input_value("#rules") == "yahtzee"  # an English browser's usual game
    screenshot(page, f"lobby-{width}x{height}")
    page.fill("#my-name", "Grace")
    page.click("#play-bot")
    page.wait_for_url(re.compile(r"/g/[\w-]+"))
    page.wait_for_selector("#roll:not([disabled])")
    names = page.locator("#sheet th.player").all_inner_texts()
    assert names[0] == "Grace"
    assert "Robo" in names[1]
    # The name is remembered for the next game.
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#my-name") == "Grace"
    assert page.locator("#seats .seat-name").first.input_value() == "Grace"
    assert errors(page) == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_one_tap_starts_a_pass_and_play_game(
    browser: Browser,
    server: ServerProcess,
    width: int,
    height: int,
) -> None:
    page = open_home(browser, server, width, height)
    page.select_option("#rules", "kniffel")
    page.fill("#my-name", "Ada")
    page.click("#play-pass")
    page.wait_for_url(re.compile(r"/g/[\w-]+#t="))
    page.wait_for_selector("#roll:not([disabled])")
    assert page.locator("#sheet th.player").all_inner_texts() == ["Ada", "Player 2"]
    assert page.inner_text("#banner") == "Your turn, Ada"
    assert errors(page) == []


def test_add_player_seats_a_person_and_a_long_name_is_refused_not_cut(
    browser: Browser,
    server: ServerProcess,
) -> None:
    page = open_home(browser, server, 1280, 800)
    page.click("#add-seat")
    kinds = page.locator("#seats .seat-kind").evaluate_all("(els) => els.map((e) => e.value)")
    assert kinds == ["human", "bot", "human"]
    assert page.locator("#seats .seat-name").last.input_value() == "Player 3"
    page.click("#add-bot")
    assert page.locator("#seats .seat-kind").last.input_value() == "bot"
    assert page.locator("#seats .seat-name").last.input_value() == "Robo 2"
    long = "Maximiliane Alexandra von Hohenzollern"
    assert len(long) > MAX_NAME
    name = page.locator("#seats .seat-name").first
    name.fill(long)
    assert name.input_value() == long, "the name is not cut while typing"
    assert f"at most {MAX_NAME} characters" in page.inner_text("#create-error")
    assert name.get_attribute("aria-invalid") == "true"
    page.click("#create-button")
    assert page.is_hidden("#result"), "a game with a name too long is not created"
    page.fill("#my-name", long)
    page.click("#play-bot")
    assert f"this one has {len(long)}" in page.inner_text("#name-error")
    assert page.url.endswith("/")
    assert errors(page) == []


def test_the_page_knows_the_servers_name_limit() -> None:
    script = (ROOT / "src/kniffel/apps/web/static/home.js").read_text(encoding="utf-8")
    assert f"const MAX_NAME = {MAX_NAME};" in script
