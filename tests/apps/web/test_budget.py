"""A table the cache's budget refuses is said so wherever it is asked, with the size it needs, the budget
and how to raise it; never "preparing" for ever. A server with a budget of a few bytes over its
expected-score tables refuses the win tables; one with a budget of 1 MB refuses the expected-score tables
too. The worker's refusal and the terminal's note are checked without a server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from kniffel.base.i18n import translate
from kniffel.planning.winning import PREPARE_ENV
from kniffel.planning.worker import Work, Worker
from kniffel.services.advice import Preparing
from support.web import ServerProcess


def test_a_job_over_the_budget_is_refused_saying_how_to_raise_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("KNIFFEL_CACHE_BUDGET", "1MB")
    ran: list[bool] = []
    work = Work("Solving the win tables of {rules}", 60, 1_200_000_000, (("rules", "yatzy"),))
    job = Worker().submit("big", work, lambda cancel, progress: ran.append(True))
    assert job.wait(30)
    assert ran == [], "nothing is solved, nothing written"
    assert job.refusal is not None
    assert (job.refusal.needs, job.refusal.budget) == (1_200_000_000, 1_000_000)
    said = Preparing.of_job(job)
    english = said.note(lambda text, **fields: translate("en", text, **fields))
    for part in ("1200 MB", "1 MB", "--cache-budget 2GB", "KNIFFEL_CACHE_BUDGET=2GB", "Yatzy (Scandinavian)"):
        assert part in english, english
    german = said.note(lambda text, **fields: translate("de", text, **fields))
    assert "KNIFFEL_CACHE_BUDGET=2GB" in german
    assert german != english, "the terminal says it in German too"


def ask(server: ServerProcess, path: str, **headers: str) -> dict[str, Any]:
    """Ask until the answer is no longer ``preparing`` (the worker takes the job first)."""
    deadline = time.monotonic() + 120
    while True:
        answer = httpx.get(server.url + path, headers=headers, timeout=30)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        if body.get("status") != "preparing" or time.monotonic() > deadline:
            return body
        time.sleep(0.5)


def play_a_throw(server: ServerProcess, rules_id: str) -> tuple[str, str]:
    from support.clients import Client

    game = httpx.post(
        f"{server.url}/api/games",
        json={"rules": rules_id, "seats": [{"name": "Ada"}, {"name": "Bob"}]},
        timeout=30,
    ).json()
    ada = Client(server, game["id"], game["seats"][0]["token"])
    ada.act({"action": "roll"})
    ada.close()
    return game["id"], game["seats"][0]["token"]


def refused(body: dict[str, Any], budget: int) -> str:
    assert body["status"] == "refused", body
    waiting = body["preparing"]
    assert waiting["refused"]["budget"] == budget
    assert waiting["refused"]["needs"] > budget
    note: str = waiting["note"]
    assert "KNIFFEL_CACHE_BUDGET" in note, note
    assert "--cache-budget" in note
    return note


@pytest.mark.slow
def test_the_server_says_a_refused_table_is_refused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with ServerProcess(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        cache_dir=cache,
        env={"KNIFFEL_CACHE_BUDGET": "1MB", PREPARE_ENV: "1"},  # the tests turn preparing off
        log_path=tmp_path / "server.log",
    ) as server:
        game_id, token = play_a_throw(server, "kniffel")
        hints = ask(server, f"/api/games/{game_id}/hints", **{"x-kniffel-token": token})
        assert hints["status"] == "ready", "the expected-score table is held in memory: points as ever"
        note = refused(ask(server, f"/api/games/{game_id}/chances"), 1_000_000)
        assert "1 MB" in note
        german = refused(ask(server, f"/api/games/{game_id}/chances", **{"accept-language": "de"}), 1_000_000)
        assert german != note, "said in the request's language"
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_cache_prepare_refuses_tables_over_the_budget_before_solving(tmp_path: Path) -> None:
    """``kniffel cache prepare`` solved the win tables into memory only and said they were ready: now it
    says in one line what they need and how to raise the budget, and solves nothing."""
    from typer.testing import CliRunner

    from kniffel.apps.cli import app

    env = {"KNIFFEL_CACHE_DIR": str(tmp_path), "KNIFFEL_CACHE_BUDGET": "1MB", "COLUMNS": "200"}
    result = CliRunner().invoke(app, ["cache", "prepare", "--rules", "kniffel"], env=env)
    assert result.exit_code == 2, result.output
    error = result.stderr.strip()
    assert "\n" not in error
    assert "KNIFFEL_CACHE_BUDGET=" in error, error
    assert not list(tmp_path.glob("*.npy"))
    german = CliRunner().invoke(app, ["cache", "prepare", "--rules", "kniffel", "--lang", "de"], env=env)
    assert german.stderr.startswith("kniffel: Fehler: "), german.stderr
