"""The home page as a lobby: one tap starts a game against a bot or a pass-and-play game, at a desktop's
and a phone's size, with the start buttons above the fold; names too long are refused with a reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from e2e import test_web_e2e as e2e
from e2e.test_web_e2e import errors, new_page, screenshot
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


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_expert_options_wait_behind_more_options_where_the_rule_book_has_them(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    """The rule book's options are behind "More options", each in one plain sentence: Kniffel's article
    has sharp and strict, Yahtzee's rules the joker, Yatzy's none; the house rule on ties is there for
    every rule set."""
    page = open_home(browser, server, width, height)
    page.select_option("#rules", "kniffel")
    assert not page.is_visible("#options select[name='sharp']"), "closed until asked for"
    page.click("#more-options summary")
    assert page.is_visible("#options select[name='sharp']")
    keys = page.locator("#options select").evaluate_all("els => els.map(e => e.name)")
    assert keys == ["extra", "sharp", "strict", "tie_wins_all"]
    for sentence in page.locator("#options small").all_inner_texts():
        assert sentence.endswith("."), sentence
        assert ". " not in sentence, sentence
    page.select_option("#rules", "yahtzee")
    assert page.locator("#options select").evaluate_all("els => els.map(e => e.name)") == [
        "joker",
        "bonus",
        "five_full_house",
        "tie_wins_all",
    ]
    page.select_option("#rules", "yatzy")
    assert page.locator("#options select").evaluate_all("els => els.map(e => e.name)") == ["tie_wins_all"]
    assert errors(page) == []


def test_the_language_link_changes_the_defaults_too(browser: Browser, server: ServerProcess) -> None:
    """An English page switched to German: the default names and the usual rule set follow ("Player 1"
    becomes "Spieler 1", Yahtzee Kniffel); a name typed and a rule set chosen stay as they are."""
    page = open_home(browser, server, 390, 844)
    assert page.input_value("#my-name") == "Player 1"
    assert page.input_value("#rules") == "yahtzee"
    page.locator("#seats .seat-name").last.fill("Grace")
    page.click("#lang")
    page.wait_for_selector("body[data-lang='de']")
    page.wait_for_function("document.getElementById('rules').value === 'kniffel'")
    assert page.input_value("#my-name") == "Spieler 1"
    names = page.locator("#seats .seat-name").evaluate_all("els => els.map(e => e.value)")
    assert names == ["Spieler 1", "Grace"]
    page.select_option("#rules", "yatzy")  # chosen: stays whatever the language
    page.click("#lang")
    page.wait_for_selector("body[data-lang='en']")
    assert page.input_value("#rules") == "yatzy"
    assert page.input_value("#my-name") == "Player 1"
    assert errors(page) == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_position_set_up_by_tapping_and_one_pasted_in_german(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    """The analysis page links home, sets a position up by taps (dice, rolls left, what boxes hold) and
    writes it in the page's language; a position pasted with the labels a German sheet shows is read."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="de-DE", bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(e2e.TIMEOUT)
    page.goto(server.url + "/analysis")
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#home", "href") == "/"
    page.wait_for_selector("#build-dice .build-die")
    page.select_option("#build-rules", "kniffel")
    for die, face in enumerate([3, 3, 5, 5, 6]):
        for _ in range(face):
            page.locator("#build-dice .build-die").nth(die).click()
    page.locator("#build-rolls .build-roll").nth(1).click()
    page.select_option("#build-sheet select[data-key='ones']", "3")
    page.select_option("#build-sheet select[data-key='large_straight']", "-")
    page.click("#build-button")
    text = page.input_value("#situation-text")
    assert text == "kniffel | Einser=3 Große Straße=- | 3 3 5 5 6 | Würfe übrig 1", text
    page.wait_for_selector("#results section[data-goal='points'] li", timeout=60_000)
    assert "halten" in page.inner_text("#results section[data-goal='points']")  # the page's language
    screenshot(page, f"analysis-taps-{width}x{height}")
    page.evaluate("document.body.dataset.analysed = ''")
    page.fill("#situation-text", "kniffel | Einser=3 Full House=25 Kl. Straße=30 | 2 2 3 5 5 | noch 1 Wurf")
    page.click("#analyse-button")
    page.wait_for_function("['1', 'preparing'].includes(document.body.dataset.analysed)", timeout=60_000)
    assert page.inner_text("#analysis-error") == ""
    assert "halten" in page.inner_text("#results section[data-goal='points']")
    assert e2e.errors(page) == []
    context.close()
