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
import os
from dataclasses import dataclass
from pathlib import Path
from string import Template

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.types import Scope

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
    return Response(static_bytes(STATIC / "manifest.webmanifest"), media_type=MANIFEST_TYPE)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    # Served from the root so it may control every page; never cached, so an update is seen at once.
    return Response(
        static_bytes(STATIC / "sw.js"), media_type="text/javascript", headers={"cache-control": "no-cache"}
    )


MAX_STATIC = 1_000_000
"""Bytes of a file kept in memory to be served; the site's files are a few kilobytes each."""


def static_bytes(path: Path) -> bytes:
    """A file of the site as bytes, read once and again only when it changes on disk."""
    found = os.stat(path)
    return _read(path, found.st_mtime_ns, found.st_size)


@functools.lru_cache(maxsize=64)
def _read(path: Path, _modified: int, _size: int) -> bytes:
    return path.read_bytes()


class StaticInMemory(StaticFiles):
    """Starlette's static files (their lookup, ``ETag`` and ``304 Not Modified``) answered from memory
    rather than from an open file: an answer a client does not read waits with the file open, and
    connections pipelining requests for a script they never read held a thousand files open until
    the process had none left. The site's files are small and few (:data:`MAX_STATIC`)."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        on_disk = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
        if self.is_not_modified(on_disk.headers, Headers(scope=scope)):
            return super().file_response(full_path, stat_result, scope, status_code)  # 304, no body
        if stat_result.st_size > MAX_STATIC:
            return on_disk
        headers = {
            name: value
            for name, value in on_disk.headers.items()
            if name in ("etag", "last-modified", "cache-control")
        }
        body = _read(Path(full_path), stat_result.st_mtime_ns, stat_result.st_size)
        return Response(body, status_code, headers=headers, media_type=on_disk.media_type)
