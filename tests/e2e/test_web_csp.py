"""The pages under their own Content-Security-Policy in headless Chromium: nothing they need is blocked.

The other browser tests bypass the policy (their waits evaluate strings); this one keeps it and fails on
any violation the browser reports while a game is created and a turn is played.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from support.web import ServerProcess

CHROMIUM = os.environ.get("KNIFFEL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("csp")
    with ServerProcess(f"sqlite:///{directory / 'games.sqlite3'}", bot_delay=0.05) as running:
        yield running


PROBE = """(url) => new Promise((resolve) => {
    document.addEventListener("securitypolicyviolation", (event) => resolve(event.violatedDirective));
    try {
        new WebSocket(url);
    } catch (error) {
        resolve(`thrown: ${error.name}`);
    }
    setTimeout(() => resolve("allowed"), 3000);
})"""
"""Open a WebSocket to ``url`` from the page; what the browser's policy said about it."""


def test_the_pages_work_under_their_content_security_policy(server: ServerProcess) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(30_000)
            blocked: list[str] = []
            page.on(
                "console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None
            )
            page.on("pageerror", lambda error: blocked.append(str(error)))
            page.goto(server.url + "/")
            page.wait_for_selector("body[data-ready='1']")
            page.locator("#seats li").first.locator(".seat-name").fill("Ada")
            page.click("#create-button")
            page.wait_for_selector("#result:not([hidden])")
            page.goto(page.locator("#links .invite").first.input_value())
            page.click("#roll")
            page.wait_for_selector("body[data-seq='1']")
            assert blocked == []
            # A script injected into the page could talk to this site only: no socket to another host.
            probe = page.evaluate(PROBE, f"ws://127.0.0.1:{server.port + 1}/")
            assert probe.startswith("connect-src"), probe
        finally:
            browser.close()
