"""Fixtures of the web tests in more than one file: a real server over each database (``backend``,
``server``), the app in process (``client``) and a database file of the test's own (``url``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kniffel.apps.web.app import create_app
from support.clients import AS_A_PROXY, BACKENDS, database_url
from support.web import ServerProcess


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp(f"web-{backend}")
    # A low message rate makes the flood test quick; the other tests stay well below it.
    env = {"KNIFFEL_WS_RATE": "50", "KNIFFEL_WS_BURST": "50", **AS_A_PROXY}
    with ServerProcess(
        database_url(backend, directory), env=env, log_path=directory / "server.log"
    ) as running:
        yield running
    assert "Traceback" not in (directory / "server.log").read_text(), "the server logged a crash"


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        database_url(request.param, tmp_path), bot_delay=0, rate=1000, burst=1000, allowed_hosts="testserver"
    )
    with TestClient(app) as running:
        yield running


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"
