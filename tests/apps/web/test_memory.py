"""A server gives the builds of its tables less memory to add before they let the pages of their files go
than a command does: it holds its games and kernels beside them, on a machine that may have 1 GB."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kniffel import core
from kniffel.apps import web
from kniffel.apps.web.settings import BUILD_ALLOWANCE, BUILD_ALLOWANCE_ENV
from kniffel.core.runtime import spill


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """``serve`` as ``kniffel serve`` calls it, up to the point where uvicorn would listen."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    monkeypatch.setattr(web, "pace_collections", lambda: None)  # it would freeze this process's objects
    monkeypatch.setattr(spill, "_growth", None)  # the test's process gets the command's back after
    monkeypatch.delenv(BUILD_ALLOWANCE_ENV, raising=False)
    return lambda: web.serve(database_url=f"sqlite:///{tmp_path / 'games.db'}")


def test_a_server_gives_its_builds_less_than_a_command(started: Any) -> None:
    assert core.allowed_growth() == spill.GROWTH
    started()
    assert core.allowed_growth() == BUILD_ALLOWANCE < spill.GROWTH


@pytest.mark.parametrize(("setting", "growth"), [("128MB", 128_000_000), ("lots", BUILD_ALLOWANCE)])
def test_the_environment_sets_it_if_it_is_a_size(
    setting: str, growth: int, started: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(BUILD_ALLOWANCE_ENV, setting)
    started()
    assert core.allowed_growth() == growth
