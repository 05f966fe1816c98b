"""The trainer's page, reached from the home page: today's series answered to its end, each answer graded
with every option's value, and the figure of the series; at a desktop's and a phone's size, nothing wider
than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from e2e import test_web_e2e as e2e
from e2e.test_web_e2e import FIRST_TIME, errors, new_page, screenshot
from support.web import ServerProcess

browser = e2e.browser
SIZES = [(1280, 800), (390, 844)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, prepared_solver: Path) -> Iterator[ServerProcess]:
    """One server for this module, whose answers every test here shares one address for: the series are
    answered far faster than a person answers, and with the tables at hand the first tests spent the
    address's allowance of answers (20 at once, one a second) before the last asked."""
    directory = tmp_path_factory.mktemp("trainer")
    with ServerProcess(
        f"sqlite:///{directory / 'games.sqlite3'}",
        bot_delay=0.05,
        cache_dir=prepared_solver,
        env={"KNIFFEL_ADVICE_BURST": "1000"},
        log_path=directory / "server.log",
    ) as running:
        yield running


def fits(page: Page) -> bool:
    """Whether the page is no wider than its screen (nothing to scroll sideways)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def answer(page: Page) -> None:
    """Answer the position shown: keep the first die where the question is what to keep (a fresh
    series may begin with either kind), else the first box."""
    if page.is_visible("#keep"):
        page.locator("#dice button").first.click()
        assert page.locator("#dice button").first.get_attribute("aria-pressed") == "true"
        page.click("#keep")
    else:
        page.locator("#sheet button").first.click()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_daily_series_answered_to_its_end(
    browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    page = new_page(browser, width, height)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#open-trainer")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#rules", "yahtzee")
    page.click("#daily")
    page.wait_for_selector("body[data-trainer='position-1']", timeout=FIRST_TIME)
    assert fits(page)
    screenshot(page, f"trainer-position-{width}x{height}")
    for number in range(1, 11):
        page.wait_for_selector(f"body[data-trainer='position-{number}']")
        assert page.inner_text("#heading").startswith(f"{number}/10")
        answer(page)
        page.wait_for_selector(f"body[data-trainer='verdict-{number}']")
        assert page.inner_text("#verdict-lines").strip()
        assert page.locator("#verdict-options li").count() >= 2
        assert page.locator("#verdict-options li.chosen").count() == 1
        if number == 1:
            assert fits(page)
            screenshot(page, f"trainer-verdict-{width}x{height}")
        page.click("#next")
    page.wait_for_selector("body[data-trainer='done']")
    assert "Best choices:" in page.inner_text("#summary-best")
    assert "plays like level" in page.inner_text("#summary-figure")
    assert fits(page)
    assert errors(page) == []


def test_the_daily_series_is_the_same_for_everyone_and_speaks_german(
    browser: Browser, server: ServerProcess
) -> None:
    headings = []
    for lang in ("en", "de"):
        page = new_page(browser, 390, 844)
        page.goto(server.url + "/trainer")
        page.wait_for_selector("body[data-ready='1']")
        if lang == "de":
            page.click("#lang")
            page.wait_for_selector("html[lang='de']")
        page.select_option("#rules", "yahtzee")
        page.click("#daily")
        page.wait_for_selector("body[data-trainer='position-1']", timeout=FIRST_TIME)
        headings.append(page.locator("#dice button").all_inner_texts())
        if lang == "de":
            assert "Würfe übrig" in page.inner_text("#question")
        assert errors(page) == []
    assert headings[0] == headings[1]


def test_the_trainer_works_under_its_content_security_policy(browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = context.new_page()
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda error: blocked.append(str(error)))
    page.goto(server.url + "/trainer")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#rules", "yahtzee")
    page.click("#daily")  # the series every other test here answers through: its answers are known to land
    page.wait_for_selector("body[data-trainer='position-1']", timeout=FIRST_TIME)
    answer(page)
    page.wait_for_selector("body[data-trainer='verdict-1']")
    context.close()
    assert blocked == []
