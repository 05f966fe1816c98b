"""The site's pages: the home page, a table and the analysis. Each is its body in ``html/`` under the
one head they share (``html/head.html``: the title, the app's manifest and icons, the style sheet and
the page's own script), put together once and served as they are."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from string import Template

PAGES = Path(__file__).parent / "html"


@dataclass(frozen=True)
class Page:
    body: str
    """The file of its body, in :data:`PAGES`."""
    title: str
    script: str
    """Its script, in ``static/``."""


HOME = Page("home.html", "Kniffel", "home.js")
TABLE = Page("table.html", "Kniffel", "table.js")
ANALYSIS = Page("analysis.html", "Kniffel · Analysis", "analysis.js")


@functools.cache
def html(page: Page) -> str:
    """The whole page: the shared head with its title and script, then its body."""
    head = Template((PAGES / "head.html").read_text(encoding="utf-8"))
    body = (PAGES / page.body).read_text(encoding="utf-8")
    return head.substitute(title=page.title, script=page.script) + body


__all__ = ["ANALYSIS", "HOME", "PAGES", "TABLE", "Page", "html"]
