"""The site's pages: the home page, a table and the analysis. Each is its body in ``html/`` under the
one head they share (``html/head.html``: the title, the app's manifest and icons, the style sheet and
the page's own script), put together once and served as they are.

Their routes are here (:data:`router`), with what the pages fetch besides the files of ``static/``: their
own words (``/words/LANG.json``), and the files that make the pages an app a phone can install (the
manifest and the service worker, served from the site's root so that they cover every page). The
analysis page's route is with the analysis (:mod:`kniffel.apps.web.analysis`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from string import Template

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from kniffel.apps.web.errors import WebError
from kniffel.apps.web.words import page_words
from kniffel.base.i18n import LANGUAGES

PAGES = Path(__file__).parent / "html"
STATIC = Path(__file__).parent / "static"
"""The scripts, the style sheet, the icons and the app's files, served under ``/static``."""
MANIFEST_TYPE = "application/manifest+json"


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


router = APIRouter()


@router.get("/")
async def home() -> Response:
    return HTMLResponse(html(HOME))


@router.get("/g/{game_id}")
@router.get("/table")  # what the service worker keeps as the page of every table
async def table(game_id: str = "") -> Response:
    return HTMLResponse(html(TABLE))


@router.get("/words/{lang}.json")
async def words(lang: str) -> Response:
    """The pages' own words in ``lang`` (English text -> translation), from the ``web`` catalog."""
    if lang not in LANGUAGES:
        raise WebError("not_found", f"no words in {lang[:8]!r}; languages: {', '.join(LANGUAGES)}")
    return JSONResponse(page_words(lang), headers={"cache-control": "public, max-age=3600"})


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    return FileResponse(STATIC / "manifest.webmanifest", media_type=MANIFEST_TYPE)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    # Served from the root so it may control every page; never cached, so an update is seen at once.
    return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"cache-control": "no-cache"})
