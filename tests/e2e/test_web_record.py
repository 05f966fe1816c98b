"""A player's record in the browser: a game finished at this browser is kept once in its storage, with
its review's loss per choice once the review is shown; the home page shows the figures and a plot below
the one-tap start, survives a damaged record and forgets it on request."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page

from e2e import test_web_e2e as e2e
from e2e.test_web_e2e import (
    FIRST_TIME,
    create_game,
    errors,
    new_page,
    play_one_turn,
    play_to_the_end,
    screenshot,
    server_state,
)
from e2e.test_web_lobby import in_viewport
from support.web import ServerProcess

browser, server = e2e.browser, e2e.server  # the fixtures: one server for this module
RECORD = "kniffel.services.record"


def stored(page: Page) -> list[dict[str, Any]]:
    text = page.evaluate(f"localStorage.getItem('{RECORD}')")
    found: list[dict[str, Any]] = json.loads(text) if text else []
    return found


def figures(page: Page) -> dict[str, str]:
    """The figures of the first group of the record on the home page: term -> value, read in one step
    (the level's figure is added when the server's answer comes, maybe between two reads)."""
    group = page.locator("#record-list .record-group").first
    pairs: list[list[str]] = group.evaluate(
        "group => [...group.querySelectorAll('dt')]"
        ".map(term => [term.innerText, term.nextElementSibling.innerText])"
    )
    return {pair[0]: pair[1] for pair in pairs}


def open_home(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")


def test_a_finished_game_is_kept_once_with_its_review_shown_and_cleared(
    browser: Browser, server: ServerProcess
) -> None:
    game = create_game(server, [("Ada", "human")])
    token = game["seats"][0]["token"]
    play_to_the_end(server, game["id"], token, leave_last_turn=True)
    page = new_page(browser, width=390, height=844)
    open_home(page, server)
    assert page.is_visible("#record-empty"), "no finished game yet"
    assert not page.is_visible("#clear-record")
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("#roll:not([disabled])")
    assert stored(page) == [], "a game under way is not in the record"
    play_one_turn(page)  # the last turn, in the page
    page.wait_for_selector("#ranking:not([hidden])")
    final = server_state(server, game["id"])
    assert final["over"]
    score = final["players"][0]["total"]
    five = sum(
        1 for key, points in final["players"][0]["entries"].items() if key.endswith("kniffel") and points
    )
    extra = final["players"][0]["columns"][0]["extra_bonus"] // 50
    bonus = bool(final["players"][0]["columns"][0]["upper_bonus"])
    kept = stored(page)
    assert len(kept) == 1
    assert kept[0]["game"] == game["id"]
    assert (kept[0]["player"], kept[0]["score"], kept[0]["rank"]) == ("Ada", score, 1)
    assert kept[0]["kniffels"] == five + extra
    assert kept[0]["bonus"] == (1 if bonus else 0)
    assert "loss" not in kept[0], "not reviewed yet"

    page.reload()  # a finished game opened again is not kept twice
    page.wait_for_selector("#ranking:not([hidden])")
    assert len(stored(page)) == 1
    open_home(page, server)
    assert page.inner_text("#record-list h4").startswith("Ada · Kniffel")
    shown = figures(page)
    assert shown["Games"] == "1"
    assert shown["Average"] == f"{score:.1f}"
    assert shown["Best"] == str(score)
    assert shown["Kniffels"] == str(five + extra)  # the rule set's word for a count of five alike
    assert shown["Bonus"] == ("100%" if bonus else "0%")
    assert shown["Loss per choice"] == "\N{EN DASH}", "no loss without a review"
    assert page.inner_text("#record-list .reviewed") == "0 of 1 game reviewed"
    plot = page.locator("#record-list svg.record-plot")
    assert plot.get_attribute("role") == "img"
    assert "Scores of Ada" in (plot.locator("title").first.text_content() or "")
    assert str(score) in (plot.locator("desc").text_content() or "")
    assert plot.locator("circle").count() == 1
    # The one-tap start stays on the first screen: the record is below it.
    assert in_viewport(page, "#play-bot")
    assert in_viewport(page, "#play-pass")
    start = page.locator("#play-bot").bounding_box()
    record = page.locator("#record").bounding_box()
    assert start is not None
    assert record is not None
    assert record["y"] > start["y"]
    screenshot(page, "record-phone")

    # The review, once shown at the table, gives the loss per choice.
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("#review-button:not([hidden])")
    page.click("#review-button")
    page.wait_for_function(
        f"(JSON.parse(localStorage.getItem('{RECORD}')) || [])[0]?.loss != null", timeout=FIRST_TIME
    )
    kept = stored(page)
    assert len(kept) == 1
    assert kept[0]["decisions"] > 0
    assert kept[0]["loss"] >= 0
    open_home(page, server)
    expected = kept[0]["loss"] / kept[0]["decisions"]
    assert figures(page)["Loss per choice"] == f"{expected:.2f}"
    assert page.inner_text("#record-list .reviewed") == "1 of 1 game reviewed"

    # Clearing asks first: dismissed, the record stays; accepted, it is gone.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#clear-record")
    assert len(stored(page)) == 1
    assert page.locator("#record-list .record-group").count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#clear-record")
    assert stored(page) == []
    assert page.is_visible("#record-empty")
    assert page.locator("#record-list .record-group").count() == 0
    assert errors(page) == []


GOOD = {
    "game": "g1",
    "seat": 0,
    "player": "Ada",
    "finished": "2026-11-01T10:00:00.000Z",
    "rules": "yahtzee",
    "options": {},
    "names": {"en": "Yahtzee", "de": "Yahtzee"},
    "five": {"en": "Yahtzee", "de": "Yahtzee"},
    "score": 240,
    "players": 2,
    "rank": 1,
    "kniffels": 2,
    "bonus": 1,
    "decisions": 40,
    "loss": 20,
}
LATER = GOOD | {"game": "g2", "finished": "2026-11-02T10:00:00.000Z", "score": 180, "rank": 2, "bonus": 0}
DAMAGED: list[tuple[str, list[str]]] = [
    ("not json", []),
    ('{"games": []}', []),
    (
        json.dumps(
            [
                None,
                7,
                GOOD | {"score": "240"},
                GOOD | {"finished": "yesterday"},
                GOOD | {"rank": 3},
                GOOD | {"bonus": 2},
                GOOD | {"loss": -1},
                GOOD | {"decisions": None},
                GOOD,
                LATER | {"decisions": None, "loss": None},
            ]
        ),
        ["g1", "g2"],
    ),
]
"""Records the home page may find that this version did not write, and the games of each it keeps."""


def test_a_damaged_record_is_repaired_with_a_message(browser: Browser, server: ServerProcess) -> None:
    page = new_page(browser, width=1280, height=800)
    for text, kept in DAMAGED:
        open_home(page, server)
        page.evaluate("([key, text]) => localStorage.setItem(key, text)", [RECORD, text])
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert "could not be read and was dropped" in page.inner_text("#record-note"), text
        assert [g["game"] for g in stored(page)] == kept, "what does not parse is not kept"
        if kept:
            # Two games, one reviewed: the figures `kniffel stats` would print for them.
            shown = figures(page)
            assert shown["Games"] == "2"
            assert shown["Won"] == "1"
            assert shown["Average"] == "210.0"
            assert shown["Best"] == "240"
            assert shown["Yahtzee"] == "4"
            assert shown["Bonus"] == "50%"
            assert shown["Loss per choice"] == "0.50"
            assert page.inner_text("#record-list .reviewed") == "1 of 2 games reviewed"
            assert page.locator("#record-list svg circle").count() == 2
            screenshot(page, "record-desktop")
        else:
            assert page.is_visible("#record-empty")
        page.reload()  # repaired: nothing more to say
        page.wait_for_selector("body[data-ready='1']")
        assert not page.is_visible("#record-note")
        assert errors(page) == [], text
    # In German: the words of the terminal's record, German numbers, and the count's plural form.
    page.evaluate("localStorage.setItem('kniffel.lang', 'de')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    shown = figures(page)
    assert (shown["Spiele"], shown["Schnitt"], shown["Bonus"]) == ("2", "210,0", "50\N{NO-BREAK SPACE}%")
    assert shown["Verlust pro Entscheidung"] == "0,50"
    assert page.inner_text("#record-list .reviewed") == "1 von 2 Spielen ausgewertet"
    assert page.inner_text("#clear-record") == "Bilanz löschen"
    assert errors(page) == []


def test_pass_and_play_keeps_every_seat_and_a_watcher_keeps_none(
    browser: Browser, server: ServerProcess
) -> None:
    game = create_game(server, [("Ada", "human"), ("Bob", "human")], hotseat=True)
    play_to_the_end(server, game["id"], game["host_token"], leave_last_turn=True)
    page = new_page(browser, width=1280, height=800)
    page.goto(server.url + game["host_url"])
    while page.evaluate("document.body.dataset.over") != "1":  # both last turns, at this screen
        page.wait_for_selector("#roll:not([disabled])")
        play_one_turn(page)
    page.wait_for_selector("#ranking:not([hidden])")
    final = server_state(server, game["id"])
    ranks = {s["name"]: s["rank"] for s in final["standings"]}
    kept = stored(page)
    assert sorted((g["seat"], g["player"], g["score"], g["rank"], g["players"]) for g in kept) == [
        (seat, p["name"], p["total"], ranks[p["name"]], 2) for seat, p in enumerate(final["players"])
    ]
    open_home(page, server)
    groups = page.locator("#record-list .record-group")
    assert groups.evaluate_all("els => els.map((e) => e.dataset.player)") == ["Ada", "Bob"]
    wins = [groups.nth(i).locator("dd").nth(1).inner_text() for i in range(2)]
    assert wins == [str(int(ranks[name] == 1)) for name in ("Ada", "Bob")]
    # Someone watching the finished table has played no seat of it: nothing is kept.
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/g/{game['id']}")
    watcher.wait_for_selector("#ranking:not([hidden])")
    assert stored(watcher) == []
    assert errors(page) == []
    assert errors(watcher) == []
