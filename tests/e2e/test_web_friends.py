"""A table of friends at a phone's and a desktop's size: four and six players' names and totals all in
view (names shortened, never over two lines; the dice bar never over the totals), a held die's number
clear of its frames, the page's title and an optional signal when the turn comes, a player who leaves
and the seat the host hands to a bot (and the player takes back), the turn timer, the line a table
without hints says, and the review: every player summed up with units, each decision once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from e2e import test_web_e2e as e2e
from e2e.test_web_e2e import (
    create_game,
    errors,
    new_page,
    play_to_the_end,
    screenshot,
    wait_moving_the_clock,
    wait_seq,
)
from e2e.test_web_table import post_game
from support.web import ServerProcess

browser, server = e2e.browser, e2e.server  # the fixtures: one server for this module
SIZES = [(1280, 800), (390, 844)]
NAMES = ["Alexandra Schmidt", "Bernhard von Bern", "Christiane", "Dietrich Maximilian", "Eva", "Friedrich"]


def table_page(
    browser: Browser, server: ServerProcess, url: str, width: int, height: int, *, clock: bool = False
) -> Page:
    """A seat's table in a browser of its own; with ``clock``, the page's clock is Playwright's, for the
    test to move on."""
    page = new_page(browser, width, height)
    if clock:
        page.clock.install()
    page.goto(server.url + url)
    page.wait_for_selector("#connection[data-status='connected']")
    return page


MEASURE = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const wrap = document.querySelector(".sheet-wrap");
  return {
    page: document.documentElement.scrollWidth,
    wrap: [wrap.scrollWidth, wrap.clientWidth],
    names: [...document.querySelectorAll("#sheet thead .name")].map((e) => ({
      shown: e.textContent, full: e.dataset.full, ...box(e), font: parseFloat(getComputedStyle(e).fontSize),
    })),
    totals: [...document.querySelectorAll("#sheet td[data-sum='total']")].map(box),
    play: box(document.querySelector(".play")),
    sticky: getComputedStyle(document.querySelector(".play")).position === "sticky",
  };
}"""
"""Everything the test reads of the table, at one moment (the page redraws its sheet as answers come)."""


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_players_name_and_total_in_view(
    browser: Browser, server: ServerProcess, width: int, height: int, players: int
) -> None:
    """Nothing to scroll sideways to; each name on one line inside its column (shortened at a word or
    with an ellipsis); every total on the screen, above a phone's dice bar, with hints on."""
    game = create_game(server, [(name, "human") for name in NAMES[:players]])
    page = table_page(browser, server, game["seats"][0]["url"], width, height)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    page.keyboard.press("h")  # hints on: the dice bar of a phone grows
    page.wait_for_selector("#hint-list button.hint")
    page.evaluate("window.scrollTo(0, 0)")
    seen = page.evaluate(MEASURE)
    assert seen["page"] <= width
    assert seen["wrap"][0] <= seen["wrap"][1] + 1, "the sheet fits its width"
    assert [name["full"] for name in seen["names"]] == NAMES[:players]
    for name in seen["names"]:
        shown, full = name["shown"], name["full"]
        assert shown.rstrip("…"), full
        assert full.startswith(shown.rstrip("…")), (shown, full)
        if not shown.endswith("…") and shown != full:
            assert full.startswith(shown + " "), f"{shown!r} is {full!r} cut inside a word"
        assert name["height"] < 1.8 * name["font"], f"{shown!r} over two lines"
    assert len(seen["totals"]) == players
    for total in seen["totals"]:
        assert total["y"] >= 0, total
        assert total["y"] + total["height"] <= height, total
        assert total["x"] + total["width"] <= width, total
        if seen["sticky"]:  # a phone's dice bar stays at the bottom of the screen: the totals stop above it
            assert total["y"] + total["height"] <= seen["play"]["y"] + 1, (total, seen["play"])
    screenshot(page, f"friends-{players}-{width}x{height}")
    assert errors(page) == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_held_dies_number_is_never_under_its_frame(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    """A held die is lifted and framed (its outline, and the dashed frame of a hint that keeps it): the
    small number above it stays clear of both."""
    game = create_game(server, [("Ada", "human")])
    page = table_page(browser, server, game["seats"][0]["url"], width, height)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    page.keyboard.press("1")
    page.keyboard.press("h")
    page.wait_for_selector("#hint-list button.hint")
    # measured where the dice rest: a held die is lifted by a transition, and a die is framed when
    # the hints come
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    # the closest case, whichever dice the hint keeps: the held die framed by a hint too
    page.locator("#dice .die[aria-pressed='true']").first.evaluate("e => e.classList.add('keep')")
    for die in page.locator("#dice .die").all():
        outer = die.evaluate(
            """(e) => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();
              const reach = parseFloat(s.outlineWidth) + Math.max(0, parseFloat(s.outlineOffset));
              return r.top - reach; }"""
        )
        digit = die.locator(".digit").bounding_box()
        assert digit is not None
        assert digit["y"] + digit["height"] <= outer + 0.5, (digit, outer)
    assert (
        page.locator("#dice .die[aria-pressed='true'] .digit").evaluate("e => getComputedStyle(e).color")
        != "rgb(255, 255, 255)"
    )
    assert errors(page) == []


def test_the_title_says_whose_turn_and_a_signal_if_asked_for(browser: Browser, server: ServerProcess) -> None:
    """In another tab a player sees from the title that it is their turn; with the signal switched on,
    the turn coming to them makes a sound or a vibration (counted on the page)."""
    game = create_game(server, [("Ada", "human"), ("Bob", "human")])
    ada = table_page(browser, server, game["seats"][0]["url"], 1280, 800)
    bob = table_page(browser, server, game["seats"][1]["url"], 1280, 800)
    ada.wait_for_selector("#roll:not([disabled])")
    assert ada.title().startswith("● Your turn")
    assert not bob.title().startswith("●")
    bob.check("#signal")
    ada.click("#roll")
    wait_seq(ada, 1)
    e2e.enter_a_box(ada)
    bob.wait_for_selector("#roll:not([disabled])")
    assert bob.title().startswith("● Your turn")
    assert bob.evaluate("Number(document.body.dataset.signals || 0)") == 1
    assert not ada.title().startswith("●")
    assert ada.evaluate("Number(document.body.dataset.signals || 0)") == 0, "not switched on at Ada's"
    assert errors(ada) == []
    assert errors(bob) == []


LOOK_AGAIN = 8000
"""How often the host's panel asks who is at the table, in milliseconds (``seats.js``)."""


def host_page(browser: Browser, server: ServerProcess, game: dict[str, Any], width: int, height: int) -> Page:
    """The creator's table: their seat's link, the host's token kept by the browser that created it. Its
    clock is Playwright's, which the tests move on rather than wait for its panel's next look."""
    page = new_page(browser, width, height)
    page.clock.install()
    page.goto(server.url + "/")
    page.evaluate(
        f"localStorage.setItem('kniffel.host.{game['id']}', JSON.stringify('{game['host_token']}'))"
    )
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("#connection[data-status='connected']")
    return page


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_player_who_leaves_and_the_seat_handed_to_a_bot(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    """Bob leaves the table: the host sees him away and lets a bot play his seat, which moves at once;
    Bob, back, is told a bot played for him and takes his seat back; his next turn is his own."""
    game = create_game(server, [("Ada", "human"), ("Bob", "human")])
    host = host_page(browser, server, game, width, height)
    bob = table_page(browser, server, game["seats"][1]["url"], width, height)
    host.wait_for_selector("#host-panel:not([hidden])")
    is_here = "document.getElementById('away-list').textContent.includes('Bob is at the table')"
    wait_moving_the_clock(host, is_here, LOOK_AGAIN)
    bob.close()  # Bob leaves
    wait_moving_the_clock(
        host, "document.querySelector(\"#away-list button[data-seat='1']\") !== null", LOOK_AGAIN, 20_000
    )
    assert "Bob is away." in host.inner_text("#away-list")
    host.click("#roll")
    wait_seq(host, 1)
    e2e.enter_a_box(host)
    wait_seq(host, 2)
    host.click("#away-list button[data-seat='1']")  # a bot plays for Bob: his turn is played
    host.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith('Bob: scores'))",
        timeout=60_000,
    )
    host.wait_for_selector("#roll:not([disabled])")
    assert "A bot plays for Bob." in host.inner_text("#away-list")
    assert "quick bot" in host.inner_text("#sheet thead")
    screenshot(host, f"seat-to-bot-{width}x{height}")
    back = table_page(browser, server, game["seats"][1]["url"], width, height)  # Bob returns
    back.wait_for_selector("#stand-in-notice:not([hidden])")
    assert "A bot plays for Bob while you were away." in back.inner_text("#stand-in-notice")
    back.click("#take-seat-back")
    back.wait_for_selector("#stand-in-notice", state="hidden")
    host.click("#roll")
    host.wait_for_function("Number(document.body.dataset.seq) >= 1")
    e2e.enter_a_box(host)
    back.wait_for_selector("#roll:not([disabled])")  # Bob's own turn again
    assert back.title().startswith("● Your turn")
    assert errors(host) == []
    assert errors(back) == []


def test_the_host_sets_a_turn_timer_that_counts_down(browser: Browser, server: ServerProcess) -> None:
    """The host sets a minute a turn: every table shows the time left of the turn under way, counting
    down; no timer, no count."""
    game = create_game(server, [("Ada", "human"), ("Bob", "human")])
    host = host_page(browser, server, game, 1280, 800)
    bob = table_page(browser, server, game["seats"][1]["url"], 390, 844, clock=True)
    host.wait_for_selector("#host-panel:not([hidden])")
    assert not bob.is_visible("#turn-timer")
    host.select_option("#timer-choice", "60")
    bob.wait_for_selector("#turn-timer:not([hidden])")
    first = bob.inner_text("#turn-timer")
    assert re.fullmatch(r"[01]:\d\d left for this turn", first), first
    bob.clock.fast_forward(2000)
    assert bob.inner_text("#turn-timer") != first, "it counts down"
    host.select_option("#timer-choice", "")
    bob.wait_for_selector("#turn-timer", state="hidden")
    assert errors(host) == []


def test_a_table_without_hints_says_so_in_one_line(browser: Browser, server: ServerProcess) -> None:
    game = post_game(server, {"rules": "yams", "seats": [{"name": "Ada", "kind": "human"}]})
    page = table_page(browser, server, game["seats"][0]["url"], 390, 844)
    page.wait_for_selector("#no-hints:not([hidden])")
    assert page.inner_text("#no-hints").startswith("No hints or chances of winning for Yams")
    assert not page.is_visible("#hint")
    assert errors(page) == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_review_sums_every_player_up_with_units_and_lists_each_decision_once(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    game = create_game(server, [("Ada", "human"), ("Robo", "bot")])
    play_to_the_end(server, game["id"], game["seats"][0]["token"])
    page = table_page(browser, server, game["seats"][0]["url"], width, height)
    page.wait_for_selector("#review-button:not([hidden])")
    page.click("#review-button")
    page.wait_for_selector("#review-summary table", timeout=e2e.FIRST_TIME)
    heads = page.locator("#review-summary th[scope='col']").all_inner_texts()
    assert heads == ["Player", "Score", "Decisions", "Optimal", "Loss", "Accuracy"]
    rows = page.locator("#review-summary tbody tr")
    assert rows.count() == 2
    ada = rows.first.locator("td").all_inner_texts()
    assert re.fullmatch(r"\d+ \(\d+%\)", ada[2]), ada
    assert re.fullmatch(r"\d+\.\d\d\xa0pts|\d+\.\d%", ada[3]), ada  # a loss with its unit
    assert re.fullmatch(r"\d+\.\d/100", ada[4]), ada
    notes = page.inner_text("#review-summary")
    assert "Accuracy: 100 for perfect play" in notes
    page.wait_for_selector("#review-list li")
    seqs = page.locator("#review-list li").evaluate_all("els => els.map(e => Number(e.dataset.seq))")
    assert len(seqs) == len(set(seqs)), "each decision once"
    assert seqs == sorted(seqs)
    assert all(
        re.search(r"gave away \d+\.\d\d\xa0pts|gave away \d+\.\d%", text)
        for text in page.locator("#review-list li").all_inner_texts()
    )
    screenshot(page, f"review-{width}x{height}")
    assert errors(page) == []
