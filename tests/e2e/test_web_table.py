"""The table at a desktop's and a phone's size: dice, roll button and every total on one screen, hints
that are taken by a tap and mark the dice they keep, undo that never gives new dice, a 0 that asks
first, held dice that stay in their places and survive a reload, the chances asked one at a time,
"preparing" answers shown with progress, the position as text and its analysis, and German counts."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, Route

from e2e import test_web_e2e as e2e
from e2e.test_web_e2e import (
    create_game,
    enter_a_box,
    errors,
    new_page,
    screenshot,
    seq,
    tap_box,
    wait_moving_the_clock,
    wait_seq,
)
from support.web import ServerProcess

browser, server = e2e.browser, e2e.server  # the fixtures: one server for this module
SIZES = [(1280, 800), (390, 844)]
SLOW_CHANCES = """
window.chancesAsks = { now: 0, most: 0, asks: 0 };
const plainFetch = window.fetch.bind(window);
window.fetch = async (url, options) => {
  if (!String(url).endsWith("/chances")) return plainFetch(url, options);
  const asks = window.chancesAsks;
  asks.now += 1;
  asks.asks += 1;
  asks.most = Math.max(asks.most, asks.now);
  try {
    await new Promise((done) => setTimeout(done, 800));
    return await plainFetch(url, options);
  } finally {
    asks.now -= 1;
  }
};
"""
"""Every ask for the chances answered 0.8 s late, counting how many are out at once."""


def on_screen(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the viewport as it is scrolled now."""
    size = page.viewport_size
    assert size is not None
    outside = []
    for n, element in enumerate(page.locator(selector).all()):
        box = element.bounding_box()
        assert box is not None, f"{selector} #{n} is not drawn"
        if (
            box["y"] < 0
            or box["y"] + box["height"] > size["height"]
            or box["x"] + box["width"] > size["width"]
        ):
            outside.append(f"{selector} #{n} at {box}")
    return outside


def open_table(browser: Browser, server: ServerProcess, url: str, width: int, height: int) -> Page:
    page = new_page(browser, width, height)
    page.goto(server.url + url)
    page.wait_for_selector("#connection[data-status='connected']")
    return page


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_dice_roll_button_and_every_total_share_one_screen(
    browser: Browser,
    server: ServerProcess,
    width: int,
    height: int,
) -> None:
    game = create_game(server, [("Ada", "human"), ("Robo", "bot")])
    page = open_table(browser, server, game["seats"][0]["url"], width, height)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    page.keyboard.press("h")  # hints on: beside the sheet on a desktop, under it on a phone
    page.wait_for_selector("#hint-list button.hint")
    page.evaluate("window.scrollTo(0, 0)")
    for selector in ("#roll", "#dice .die", "#sheet td[data-sum='total']", "#sheet th.player"):
        assert on_screen(page, selector) == [], f"at {width}x{height}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"table-{width}x{height}")
    assert errors(page) == []


def test_a_hint_marks_the_dice_it_keeps_and_a_tap_takes_it(
    browser: Browser,
    server: ServerProcess,
) -> None:
    game = create_game(server, [("Ada", "human")])
    page = open_table(browser, server, game["seats"][0]["url"], 1280, 800)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    page.click("#hint")
    page.wait_for_selector("#hint-list button.hint")
    dice = [
        int(face) for face in page.locator("#dice .die").evaluate_all("els => els.map(e => e.dataset.face)")
    ]
    rolls = list(page.locator("#hint-list button.hint").evaluate_all("els => els.map(e => e.dataset.action)"))
    roll = next(action for action in rolls if action.startswith("roll keep"))
    kept = sorted(int(face) for face in roll.split()[2:])
    button = page.locator(f"#hint-list button.hint[data-action='{roll}']")
    button.hover()
    marked = page.locator("#dice .die.keep").evaluate_all("els => els.map(e => Number(e.dataset.face))")
    assert sorted(marked) == kept
    assert all(face in dice for face in marked)
    button.click()
    wait_seq(page, 2)
    assert f"keeps {' '.join(map(str, kept))}" in page.inner_text("#log")
    # Taking an entry: the first hint that fills a box, now or after the last roll.
    page.wait_for_selector("#hint-list button.hint")
    assert errors(page) == []


def dice_on_screen(page: Page) -> list[int]:
    faces = page.locator("#dice .die").evaluate_all("els => els.map(e => Number(e.dataset.face))")
    return [int(face) for face in faces]


def held_on_screen(page: Page) -> list[int]:
    """The places of the dice shown held."""
    script = "els => els.flatMap((e, i) => e.getAttribute('aria-pressed') === 'true' ? [i] : [])"
    return [int(place) for place in page.locator("#dice .die").evaluate_all(script)]


def best_box(page: Page) -> Locator:
    """The score button of the box the dice pay most in."""
    options = page.locator("#sheet button.score")
    points = [int(re.sub(r"\D.*", "", text) or 0) for text in options.all_inner_texts()]
    return options.nth(points.index(max(points)))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_undo_never_gives_new_dice(browser: Browser, server: ServerProcess, width: int, height: int) -> None:
    """After a roll Undo is disabled and says why (its key too): the throw stays, its dice seen. After an
    entry it takes the entry back: the dice lie where they lay, held as they were, and the log keeps the
    entry, struck out and said to be taken back."""
    game = create_game(server, [("Ada", "human")])
    page = open_table(browser, server, game["seats"][0]["url"], width, height)
    page.wait_for_selector("#roll:not([disabled])")
    assert page.is_disabled("#undo")
    page.click("#roll")
    wait_seq(page, 1)
    dice = dice_on_screen(page)
    assert page.is_disabled("#undo")
    assert "dice are seen" in (page.get_attribute("#undo", "title") or "")
    page.keyboard.press("u")
    page.wait_for_function("document.getElementById('error').textContent.includes('A throw stays')")
    assert seq(page) == 1
    assert dice_on_screen(page) == dice
    page.click("#dice .die >> nth=1")
    page.click("#dice .die >> nth=3")
    tap_box(page, best_box(page))
    wait_seq(page, 2)
    page.click("#undo:not([disabled])")
    page.wait_for_function("Number(document.body.dataset.seq) === 1")
    assert dice_on_screen(page) == dice, "the dice lie where they lay"
    assert held_on_screen(page) == [1, 3], "held as they were"
    taken = page.locator("#log li.taken-back")
    assert taken.count() == 1
    assert "scores" in taken.inner_text()
    assert "(taken back)" in taken.inner_text()
    assert page.is_disabled("#undo")
    screenshot(page, f"table-undone-{width}x{height}")
    assert errors(page) == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_tap_that_enters_0_asks_first(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    """One tap on a box the dice pay 0 in enters nothing: the box asks ("0?") and the line under the dice
    says why; a second tap enters the 0."""
    game = create_game(server, [("Ada", "human")])
    page = open_table(browser, server, game["seats"][0]["url"], width, height)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    zero = page.locator("#sheet button.score").filter(has_text=re.compile(r"^0$")).first
    box = zero.get_attribute("data-box")
    zero.click()
    asked = page.locator(f"#sheet button.confirm[data-box='{box}']")
    asked.wait_for()
    assert asked.inner_text() == "0?"
    assert "pays 0 with these dice: tap it again" in page.inner_text("#turn-notes")
    page.wait_for_timeout(300)
    assert seq(page) == 1, "nothing entered yet"
    asked.click()
    wait_seq(page, 2)
    assert page.locator(f"#sheet td.filled[data-box='{box}']").inner_text() == "\N{EN DASH}"
    assert errors(page) == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_held_dice_survive_a_reload_and_stay_in_their_places(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    """A phone that locks reloads the page: the dice held before are held still, where they were; the
    next roll leaves them there, held, and throws the others."""
    game = create_game(server, [("Ada", "human")])
    page = open_table(browser, server, game["seats"][0]["url"], width, height)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    page.click("#dice .die >> nth=1")
    page.click("#dice .die >> nth=3")
    dice = dice_on_screen(page)
    page.reload()
    page.wait_for_selector("#connection[data-status='connected']")
    page.wait_for_selector("#roll:not([disabled])")
    assert dice_on_screen(page) == dice
    assert held_on_screen(page) == [1, 3]
    page.click("#roll")
    wait_seq(page, 2)
    after = dice_on_screen(page)
    assert [after[1], after[3]] == [dice[1], dice[3]], "the held dice stay in their places"
    assert held_on_screen(page) == [1, 3], "and stay held"
    assert page.locator(".die.rolling").count() == 3, "only the others are thrown"
    kept = " ".join(map(str, sorted([dice[1], dice[3]])))
    assert f"keeps {kept}" in page.inner_text("#log")
    assert errors(page) == []


def test_the_key_help_names_only_what_the_table_offers(browser: Browser, server: ServerProcess) -> None:
    game = create_game(server, [("Ada", "human")])
    page = open_table(browser, server, game["seats"][0]["url"], 1280, 800)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    assert "H hints" in page.inner_text("#key-help")
    assert "U undo" in page.inner_text("#key-help")
    # A three-column table has no hints: its key line does not offer them, and its marks are explained.
    body = {"rules": "kniffel-3col", "seats": [{"name": "Ada", "kind": "human"}]}
    three = post_game(server, body)
    page.goto(server.url + three["seats"][0]["url"])
    page.wait_for_selector("#roll:not([disabled])")
    assert "hints" not in page.inner_text("#key-help").lower()
    legend = page.inner_text("#column-legend")
    assert "1↓ top to bottom" in legend
    assert "2↑ bottom to top" in legend
    assert "3! announced" in legend
    assert errors(page) == []


def strict_kniffel(*seats: tuple[str, str], hotseat: bool = False) -> dict[str, Any]:
    """A game of strict Kniffel, whose win tables the test session solved (chances of winning)."""
    players = [{"name": name, "kind": kind} for name, kind in seats]
    return {"rules": "kniffel", "options": {"strict": "on"}, "seats": players, "hotseat": hotseat}


def post_game(server: ServerProcess, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + "/api/games", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created: dict[str, Any] = json.load(response)
        return created


def test_how_to_play_opens_at_its_start(browser: Browser, server: ServerProcess) -> None:
    game = create_game(server, [("Ada", "human")])
    page = open_table(browser, server, game["seats"][0]["url"], 390, 844)
    page.click("#how-to-play-button")
    page.wait_for_selector("#how-to-play[open] .rules-title")
    assert page.evaluate("document.getElementById('how-to-play').scrollTop") == 0
    assert on_screen(page, "#how-to-play-title") == []
    assert errors(page) == []


def test_the_chances_are_asked_one_at_a_time_for_the_newest_position(
    browser: Browser,
    server: ServerProcess,
) -> None:
    """The server's answers are held back half a second each while the game is played fast: the page
    never has two asks out, asks far fewer times than the game moved, and ends on the last position."""
    game = post_game(server, strict_kniffel(("Ada", "human"), ("Bob", "human"), hotseat=True))
    page = new_page(browser, 1280, 800)
    page.add_init_script(SLOW_CHANCES)
    page.goto(server.url + game["host_url"])
    page.wait_for_selector("#roll:not([disabled])")
    for _ in range(6):  # three turns of two players, as fast as the page takes them
        start = seq(page)
        page.click("#roll:not([disabled])")
        wait_seq(page, start + 1)
        page.wait_for_selector("#sheet button.score, #sheet button.strike", timeout=60_000)
        enter_a_box(page)
        wait_seq(page, start + 2)
    last = seq(page)
    page.wait_for_function(f"Number(document.body.dataset.chancesSeq) === {last}", timeout=60_000)
    out = page.evaluate("window.chancesAsks")
    assert out["most"] == 1
    assert out["asks"] < last, f"{out['asks']} asks for {last} positions"
    assert errors(page) == []


def test_preparing_answers_show_progress_and_are_asked_again(
    browser: Browser,
    server: ServerProcess,
) -> None:
    game = post_game(server, strict_kniffel(("Ada", "human"), ("Robo", "bot")))
    page = new_page(browser, 1280, 800)
    answered = {"chances": 0, "hints": 0}

    def preparing(route: Route) -> None:
        kind = "chances" if route.request.url.split("?")[0].endswith("/chances") else "hints"
        answered[kind] += 1
        if answered[kind] <= 2:  # the advice answer for chances, a preparing beside the fields for hints
            if kind == "chances":  # first the server compiles its solver (a first use), then it solves
                first = answered[kind] == 1
                compiling = {"progress": None, "compiling": 12.4} if first else {"progress": 0.4}
                body: dict[str, Any] = {
                    "status": "preparing",
                    "preparing": {"what": "x", "seconds": 2, **compiling},
                }
            else:
                estimate = [
                    {"action": "roll", "text": "roll all"},
                    {"action": "score chance", "text": "Chance"},
                ]
                body = {
                    "seq": 1,
                    "options": [],
                    "preparing": {"what": "x", "progress": 0.25, "seconds": 2, "compiling": 0.3},
                    "estimate": estimate,  # the quick bot's order meanwhile
                }
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    page.route(re.compile(r"/(chances|hints)(\?.*)?$"), preparing)
    page.clock.install()  # the page asks again after pauses of its clock, which the test moves on
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("#roll:not([disabled])")
    page.wait_for_selector("#chances-preparing:not([hidden])")
    # while it compiles: what and for how long so far, and a bar that does not pretend to a progress
    page.wait_for_function(
        """() => {
            const panel = document.querySelector("#chances-preparing");
            return panel.innerText.includes("Compiling the solver first, only on its first use: 12 s so far")
                && !panel.querySelector("progress").hasAttribute("value");
        }"""
    )
    wait_moving_the_clock(
        page, "document.querySelector('#chances-preparing').innerText.includes('40%')", 4000
    )
    assert "Compiling" not in page.inner_text("#chances-preparing")
    page.click("#roll")
    wait_seq(page, 1)
    page.click("#hint")
    page.wait_for_selector("#hints-preparing:not([hidden])")
    said = page.inner_text("#hints-preparing")
    assert "25%" in said
    # a compile just begun is said without a count that reads like a stopped clock ("0 s so far")
    assert "Compiling the solver first, only on its first use." in said
    assert "so far" not in said
    # meanwhile the quick bot's order, said to be that, its best starred like an exact hint's
    page.wait_for_selector("#hints-estimate:not([hidden])")
    assert page.locator("#hint-list.estimate button.hint").all_inner_texts() == ["roll all", "Chance"]
    assert page.inner_text("#roll").startswith("★")
    wait_moving_the_clock(
        page, "document.querySelector('#hint-list:not(.estimate) button.hint') !== null", 4000, 60_000
    )
    assert page.locator("#hints-estimate").is_hidden()
    assert "points to come" in page.inner_text("#hint-list")
    wait_moving_the_clock(page, "document.querySelector('#chances-preparing').hidden", 4000, 60_000)
    assert page.locator("#chance-list li").count() == 2
    assert answered["chances"] >= 3
    assert errors(page) == []


CHANCES_ASKED = """(() => {
  // when the page asks for the chances, by its own clock, and whether an ask is still out
  const fetchFirst = window.fetch;
  window.chancesAsked = [];
  window.chancesOut = 0;
  window.fetch = async (...args) => {
    if (!String(args[0]).split("?")[0].endsWith("/chances")) return fetchFirst(...args);
    window.chancesAsked.push(Date.now());
    window.chancesOut += 1;
    try {
      const response = await fetchFirst(...args);
      await response.clone().text();
      return response;
    } finally {
      window.chancesOut -= 1;
    }
  };
})();"""


def pauses_between_chances_asks(
    browser: Browser, server: ServerProcess, waiting: dict[str, Any], answers: int
) -> list[float]:
    """The seconds between a table page's asks for the chances while the first ``answers`` of them say
    ``preparing`` with ``waiting``, then the server's own answers; the chances must show then. The
    seconds are the page's: its clock is Playwright's, moved on a quarter of a second at a time once
    no ask is out, so the pauses take no real time and an answer's way back does not lengthen them."""
    game = post_game(server, strict_kniffel(("Ada", "human"), ("Robo", "bot")))
    page = new_page(browser, 1280, 800)
    page.clock.install()
    page.add_init_script(CHANCES_ASKED)
    answered = 0

    def answer(route: Route) -> None:
        nonlocal answered
        answered += 1
        if answered <= answers:
            body = {"status": "preparing", "preparing": waiting}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    page.route(re.compile(r"/chances(\?.*)?$"), answer)
    page.goto(server.url + game["seats"][0]["url"])
    deadline = time.monotonic() + 60
    while not page.locator("#chance-list li").count():
        assert time.monotonic() < deadline, "the chances never came"
        page.wait_for_function("window.chancesOut === 0")
        page.clock.run_for(250)
    assert errors(page) == []
    asked = page.evaluate("window.chancesAsked")
    gaps = [(b - a) / 1000 for a, b in pairwise(asked[: answers + 1])]
    assert len(gaps) == answers, asked
    return gaps


def test_a_long_preparing_is_asked_about_every_few_seconds(browser: Browser, server: ServerProcess) -> None:
    """The server gives up a solve nobody asks about for 30 s: while the chances say "preparing" the page
    asks again within a few seconds, however long it has waited (not after 8, 16, 30 s), and shows them
    as soon as they come."""
    waiting = {"what": "x", "seconds": 60, "progress": 0.1}
    gaps = pauses_between_chances_asks(browser, server, waiting, 4)
    assert max(gaps) < 4.0 + 1.5, gaps  # ask.js PREPARING_PAUSE (a busy server's third pause is 8 s)


def test_chances_queued_behind_other_asks_back_off(browser: Browser, server: ServerProcess) -> None:
    """A server too busy to start on the chances says so (``queued``): nothing is solved for the page
    meanwhile, so it backs off as from a busy server (2, 4, 8 s), not every few seconds."""
    waiting = {"what": "x", "seconds": 1, "progress": None, "compiling": None, "queued": True}
    gaps = pauses_between_chances_asks(browser, server, waiting, 3)
    assert gaps[2] > 6.0, gaps  # the third pause 8 s: longer than a preparing answer's 4 s at most


def test_the_position_as_text_is_copied_and_analysed(browser: Browser, server: ServerProcess) -> None:
    game = post_game(server, strict_kniffel(("Ada", "human"), ("Robo", "bot")))
    page = open_table(browser, server, game["seats"][0]["url"], 1280, 800)
    page.wait_for_selector("#roll:not([disabled])")
    page.click("#roll")
    wait_seq(page, 1)
    page.click("#position summary")
    page.wait_for_function("document.getElementById('situation').value.includes('rolls left 2')")
    text = page.input_value("#situation")
    assert text.startswith("kniffel strict=on | empty | ")
    assert "| others empty" in text
    page.click("#analyse-link")
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#situation-text") == text
    page.wait_for_selector("#results section[data-goal='points'] li", timeout=60_000)
    goals = page.locator("#results section").evaluate_all("els => els.map(e => e.dataset.goal)")
    assert goals == ["points", "target", "win"]
    screenshot(page, "analysis")
    # A target past where the tables stop (475 here) is answered with the chances of the limit, said so.
    page.fill("#target", "2000")
    page.click("#analyse-button")
    note = page.locator("#results section[data-goal='target'] p.note")
    note.wait_for(timeout=60_000)
    assert "475" in note.inner_text()
    # A text that is no position is refused with the reason.
    page.fill("#situation-text", "kniffel | nonsense")
    page.click("#analyse-button")
    page.wait_for_function("document.getElementById('analysis-error').textContent.length > 0")
    assert errors(page) == []


def test_german_counts_take_their_plural_forms(browser: Browser, server: ServerProcess) -> None:
    game = create_game(server, [("Ada", "human")])
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("#roll:not([disabled])")
    assert page.inner_text("#turn-info") == "Noch 3 Würfe"
    for left, text in ((2, "Noch 2 Würfe"), (1, "Noch 1 Wurf"), (0, "Keine Würfe mehr")):
        start = int(page.evaluate("Number(document.body.dataset.seq)"))
        page.keyboard.press("Space")
        page.wait_for_function(f"Number(document.body.dataset.seq) > {start}")
        assert page.inner_text("#turn-info") == text, left
    enter_a_box(page)
    page.wait_for_function("document.querySelector('#log li')?.textContent.includes('\u00a0Punkt')")
    context.close()


def test_a_table_the_cache_refuses_is_said_so_not_preparing(browser: Browser, server: ServerProcess) -> None:
    """The server answers ``refused`` (the table cache's budget is too small): the panel shows its note,
    which says how to raise the budget, in place of a progress that would never move."""
    game = post_game(server, strict_kniffel(("Ada", "human"), ("Robo", "bot")))
    page = new_page(browser, 1280, 800)
    note = "Solving the win tables: needs 106 MB on disk, more than the budget of 1 MB allows. Raise it."
    body = {
        "status": "refused",
        "seq": 0,
        "preparing": {
            "what": "Solving the win tables",
            "progress": None,
            "seconds": 9,
            "compiling": None,
            "refused": {"needs": 106_000_000, "budget": 1_000_000},
            "note": note,
        },
    }
    page.route(
        re.compile(r"/chances(\?.*)?$"),
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(body)),
    )
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("#chances-preparing:not([hidden])")
    page.wait_for_function(f"document.querySelector('#chances-preparing').innerText.includes({note!r})")
    assert page.locator("#chances-preparing progress").is_hidden()
