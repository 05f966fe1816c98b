"""PostgreSQL restarting under two server processes: nobody notices.

A connection is found dead only when it is used; each process's first commit after a restart failed
with ``unavailable`` while PostgreSQL already took connections again. The cluster here is the test's
own (``initdb`` in a temporary folder, its own port), so restarting it disturbs nothing else on the
machine; the test is skipped where PostgreSQL's server programs are not installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.clients import Client, create, token
from support.web import ServerProcess, free_port

PG_BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)), None)
if PG_BIN is None and shutil.which("pg_ctl"):
    PG_BIN = Path(shutil.which("pg_ctl") or "").parent
pytestmark = pytest.mark.skipif(
    PG_BIN is None or not (PG_BIN / "initdb").exists(),
    reason="PostgreSQL's server programs are not installed",
)


class Cluster:
    """A PostgreSQL cluster of the test's own in ``directory`` on ``port`` (as the ``postgres`` user
    when the tests run as root: PostgreSQL refuses to run as root)."""

    def __init__(self, directory: Path, port: int) -> None:
        self.directory, self.port = directory, port
        self.user: dict[str, Any] = {}
        if os.geteuid() == 0:
            self.user = {"user": "postgres", "group": "postgres"}
            shutil.chown(directory, "postgres", "postgres")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://kniffel@127.0.0.1:{self.port}/postgres"

    def run(self, program: str, *arguments: str) -> None:
        assert PG_BIN is not None
        subprocess.run(
            [str(PG_BIN / program), *arguments], check=True, capture_output=True, timeout=120, **self.user
        )

    def control(self, *arguments: str) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.directory / "postgres.log")
        self.run("pg_ctl", "-D", str(self.directory / "data"), "-l", log, "-o", options, "-w", *arguments)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    directory = Path(tempfile.mkdtemp(prefix="kniffel-pg-"))
    own = Cluster(directory, free_port())
    try:
        own.run("initdb", "-D", str(directory / "data"), "-U", "kniffel", "--auth=trust", "-N", "-E", "UTF8")
        own.control("start")
        yield own
    finally:
        with_data = (directory / "data").exists()
        if with_data:
            own.control("stop", "-m", "immediate")
        shutil.rmtree(directory, ignore_errors=True)


def test_a_restarted_database_loses_no_action_and_shows_the_players_nothing(
    cluster: Cluster, tmp_path: Path
) -> None:
    """Each process has committed before the restart, so each holds a writing connection that the
    restart kills; the first action after it, in each process, is saved and shown as if nothing
    happened, and both processes hear of each other's actions again."""
    servers = [
        ServerProcess(cluster.url, log_path=tmp_path / f"server{number}.log").launch() for number in range(2)
    ]
    try:
        for server in servers:
            server.wait()
        game = create(servers[0], "Ada", "Bob")
        ada = Client(servers[0], game["id"], token(game, 0))
        bob = Client(servers[1], game["id"], token(game, 1))
        ada.act({"action": "roll"})
        ada.act({"action": "strike", "box": ada.state["strikeable"][0]})
        bob.wait_for(2)
        bob.act({"action": "roll"})
        ada.wait_for(3)

        cluster.control("restart", "-m", "fast")

        bob.act({"action": "strike", "box": bob.state["strikeable"][0]})  # raised on any error message
        ada.wait_for(4)
        ada.act({"action": "roll"})
        bob.wait_for(5)
        assert create(servers[1], "Cy")["id"], "new games too"
        exports = [httpx.get(f"{s.url}/api/games/{game['id']}/export", timeout=10).json() for s in servers]
        assert len(exports[0]["actions"]) == 5
        assert exports[0] == exports[1]
        ada.close()
        bob.close()
    finally:
        for server in servers:
            server.stop()
    for number in range(2):
        assert "Traceback" not in (tmp_path / f"server{number}.log").read_text()
