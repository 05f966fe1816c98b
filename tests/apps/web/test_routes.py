"""Every route of the app, on a fresh install and on a damaged table cache: never a 5xx.

A server as ``kniffel serve`` starts it, its table cache empty (a fresh install) or holding tables that
were damaged on disk (a truncated table, bytes flipped, a description that is not JSON, leftovers of a
killed solve). The routes are read from the app itself (``app.routes``), so a route added later is walked
too: each is asked with every kind of value its path takes (finished games of one and of two players, a
game in play, an id that names no game), with the token of the seat to move. While the tables are solved
the advice routes answer ``preparing`` with progress (:data:`kniffel.apps.web.advice.PREPARING`), and once
they are there, their figures; never an error of the server's.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.routing import Mount, Route, WebSocketRoute
from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import connect

from kniffel import Game, SeededDice, core, rules
from kniffel.apps.web.app import create_app
from kniffel.apps.web.botpool import fallback_move
from kniffel.apps.web.pages import STATIC
from kniffel.apps.web.store import SeatSpec, Store, Write
from support.web import ServerProcess


@dataclass(frozen=True)
class Table:
    """A game written to the server's database before it starts, and the token of its seat to move."""

    id: str
    token: str


def write_game(store: Store, rules_id: str, players: int, actions: int | None) -> Table:
    """A game of ``players`` human seats with its first ``actions`` actions (all of them: None) saved."""
    names = ["Ada", "Bob", "Cy"][:players]
    new = store.create_game(rules_id, {}, [SeatSpec(name) for name in names])
    game = Game(rules.get(rules_id), names, dice=SeededDice(7))
    writes = []
    while not game.is_over and (actions is None or len(game.log) < actions):
        mover = game.current
        outcome = game.apply(fallback_move(game))
        status = "over" if game.is_over else "playing"
        writes.append(
            Write(
                new.id, len(game.log), mover, json.dumps(outcome.action.to_json()), status, game.current, ""
            )
        )
    assert all(store.append_many(writes))
    return Table(new.id, new.seat_tokens[game.current] if not game.is_over else new.seat_tokens[0])


def tables(database: Path) -> list[Table]:
    store = Store(f"sqlite:///{database}")
    try:
        return [
            write_game(store, "yatzy", 1, None),  # the review that answered 500 on a fresh install
            write_game(store, "yatzy", 2, None),
            write_game(store, "yatzy", 2, 3),  # in play, after a throw: hints and chances
            write_game(store, "kniffel", 2, 1),
        ]
    finally:
        store.close()


VALUES = {"lang": ["en", "de", "xx"], "rest": ["index.html"]}
"""What a path parameter is given, by name (``game_id``: every table's and one that names no game);
another name gets ``x``."""


NON_ASCII_DIGITS = ["²", "\u0661\u0662\u0660", "\uff13", "7\u0663", "⁴²"]
"""Numbers no request may carry: ``str.isdigit`` accepts the superscripts, which ``int`` refuses, and
``int`` accepts Arabic-Indic and full-width digits."""
QUERIES = ("target", "seq", "by", "changes", "lang", "situation", "token")
"""The query parameters a route reads (others are ignored): each is given a number in other digits."""


def paths(template: str, games: list[Table], *, odd_digits: bool = False) -> list[tuple[str, str]]:
    """Every concrete path of the route ``template`` with the token to send: one per value of its
    parameters (``odd_digits``: numbers in digits other than 0-9 in its place, and a game id of them)."""
    names = [part.split("}")[0].split(":")[0] for part in template.split("{")[1:]]
    found: list[tuple[str, str]] = [(template, "")]
    for name in names:
        expanded = []
        for path, token in found:
            if name == "game_id":
                options = [(t.id, t.token) for t in games] + [("AAAAAAAAAAAA", "nothing")]
            else:
                options = [(value, token) for value in VALUES.get(name, ["x"])]
            if odd_digits:
                options += [(digits, token) for digits in NON_ASCII_DIGITS]
            for value, new_token in options:
                placeholder = next(p for p in (f"{{{name}}}", f"{{{name}:path}}") if p in path)
                expanded.append((path.replace(placeholder, value), new_token or token))
        found = expanded
    return found


def leaves(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """The routes of ``routes`` and their paths, those of an included router among them (static files
    are a mount, asked for one of its files)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from leaves(included.routes, prefix + getattr(route.include_context, "prefix", ""))
        else:
            yield prefix + route.path, route


def walk(server: ServerProcess, games: list[Table], *, odd_digits: bool = False) -> dict[str, Any]:
    """Ask every route of the app every way :func:`paths` gives; fails on any 5xx. Returns the last
    answers of the advice routes by path. ``odd_digits``: every path also with numbers in digits other
    than 0-9 in its parameters and in every query parameter a route reads."""
    answers: dict[str, Any] = {}
    app = create_app("sqlite://")
    walked = 0
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for template, route in leaves(app.routes):
            if isinstance(route, Mount):
                first = sorted(p.name for p in STATIC.iterdir() if p.is_file())[0]
                response = http.get(f"{template}/{first}")
                assert response.status_code < 500, (template, response.text)
                walked += 1
                continue
            asked = paths(template, games, odd_digits=odd_digits)
            if odd_digits:
                asked += [
                    (f"{path}?{urlencode(dict.fromkeys(QUERIES, digits))}", token)
                    for path, token in list(asked)
                    for digits in NON_ASCII_DIGITS[:2]
                ]
            for path, token in asked:
                if isinstance(route, WebSocketRoute):
                    with (
                        contextlib.suppress(InvalidStatus, WebSocketException, TimeoutError),
                        connect(server.ws_url + path, open_timeout=10, close_timeout=1) as ws,
                    ):
                        first_message = json.loads(ws.recv(10))
                        assert first_message.get("code") != "internal", (path, first_message)
                    walked += 1
                    continue
                assert isinstance(route, APIRoute | Route)
                for method in sorted(route.methods or ()):
                    if method == "HEAD":
                        continue
                    body = {"seats": [{"name": "Ada"}, {"name": "Bob"}], "rules": "yatzy"}
                    response = http.request(
                        method,
                        path,
                        headers={"x-kniffel-token": token, "content-type": "application/json"},
                        json=body if method == "POST" else None,
                    )
                    assert response.status_code < 500, (method, path, response.status_code, response.text)
                    walked += 1
                    if response.headers.get("content-type", "").startswith("application/json"):
                        answers[path] = response.json()
    assert walked > 30, "every route was asked, with every game"
    assert server.alive()
    return answers


def advice_statuses(answers: dict[str, Any]) -> set[Any]:
    return {
        answer.get("status")
        for path, answer in answers.items()
        if path.endswith(("/hints", "/review", "/chances"))
        and isinstance(answer, dict)
        and "status" in answer
    }


def walk_until_ready(server: ServerProcess, games: list[Table], timeout: float = 240) -> None:
    """Walk once at once (the tables are solved meanwhile: ``preparing``), then until every advice
    answer is ready; every walk fails on a 5xx."""
    first = walk(server, games)
    preparing = [a for a in first.values() if isinstance(a, dict) and a.get("status") == "preparing"]
    assert preparing, f"a fresh cache: the tables are solved while the routes are asked: {first}"
    for answer in preparing:
        assert set(answer["preparing"]) >= {"what", "progress", "seconds"}, answer
        progress = answer["preparing"]["progress"]
        assert progress is None or 0 <= progress <= 1
    deadline = time.monotonic() + timeout
    while "preparing" in advice_statuses(answers := walk(server, games)):
        assert time.monotonic() < deadline, "the advice tables were never solved"
        time.sleep(1)
    assert advice_statuses(answers) == {"ready"}
    review = answers[f"/api/games/{games[0].id}/review"]
    assert review.get("decisions"), f"the solo Yatzy game is reviewed once its table is there: {review}"


@pytest.fixture
def database(tmp_path: Path) -> tuple[Path, list[Table]]:
    path = tmp_path / "games.sqlite3"
    return path, tables(path)


@contextlib.contextmanager
def serving(database: Path, cache_dir: Path, log: Path) -> Iterator[ServerProcess]:
    # Walked again and again: the allowances of one address must not be what answers.
    env = {
        f"KNIFFEL_{kind}_{what}": "1000"
        for kind in ("ADVICE", "CHANCES", "CREATE")
        for what in ("RATE", "BURST")
    }
    with ServerProcess(f"sqlite:///{database}", cache_dir=cache_dir, log_path=log, env=env) as server:
        yield server


def test_every_route_on_a_fresh_install(tmp_path: Path, database: tuple[Path, list[Table]]) -> None:
    path, games = database
    empty = tmp_path / "cache"
    with serving(path, empty, tmp_path / "server.log") as server:
        walk_until_ready(server, games)
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def damage(directory: Path) -> list[str]:
    """Damage every table in ``directory`` a different way; what was done to which file."""
    done = []
    for number, table in enumerate(sorted(directory.glob("*.npy"))):
        meta = table.with_suffix(".json")
        way = number % 4
        if way == 0:
            table.write_bytes(table.read_bytes()[: table.stat().st_size // 3])
        elif way == 1:
            data = bytearray(table.read_bytes())
            data[len(data) // 2 : len(data) // 2 + 64] = bytes(64)
            table.write_bytes(bytes(data))
        elif way == 2:
            meta.write_text("{not json", encoding="utf-8")
        else:
            table.write_bytes(b"\x93NUMPY garbage")
        (directory / f".{table.name}.x1.tmp").write_bytes(b"left by a killed solve")
        done.append(f"{table.name}: {way}")
    return done


def test_every_route_on_a_damaged_cache(tmp_path: Path, database: tuple[Path, list[Table]]) -> None:
    path, games = database
    damaged = tmp_path / "cache"
    for rules_id in ("yatzy", "kniffel"):
        core.table(rules.get(rules_id), directory=damaged)
    assert len(damage(damaged)) >= 2
    with serving(path, damaged, tmp_path / "server.log") as server:
        walk_until_ready(server, games)
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_no_route_answers_5xx_to_numbers_in_other_digits(
    tmp_path: Path, database: tuple[Path, list[Table]]
) -> None:
    """``/api/analysis?target=²`` answered 500: every route is asked with numbers in digits other than
    0-9 in its path and in every query parameter a route reads, and text actions over the socket too;
    each is refused (or ignored), never a 5xx, and a number is refused saying which digits it takes."""
    path, games = database
    with serving(path, tmp_path / "cache", tmp_path / "server.log") as server:
        in_play = games[2]
        with connect(f"{server.ws_url}/ws/{in_play.id}", open_timeout=10) as ws:
            assert json.loads(ws.recv(10))["type"] == "state"
            ws.send(json.dumps({"type": "hello", "token": in_play.token}))
            seen: list[dict[str, Any]] = []
            while not seen or seen[-1]["type"] != "welcome":
                seen.append(json.loads(ws.recv(10)))
            assert seen[-1]["seats"], seen
            for action in ("keep ² ²", "score \uff13", "keep 1\u0663"):
                ws.send(json.dumps({"type": "action", "seq": 3, "action": action}))
                refusal = json.loads(ws.recv(10))
                while refusal["type"] == "state":  # the hello's state, sent after its welcome
                    refusal = json.loads(ws.recv(10))
                assert (refusal["type"], refusal["code"]) == ("error", "invalid"), refusal
                assert "0-9" in refusal["message"]
        walk(server, games, odd_digits=True)  # after the socket: it spends the address's allowance
        answer = httpx.get(
            f"{server.url}/api/analysis",
            params={"situation": "kniffel | empty | 1 2 3 4 5 | rolls left 2", "target": "²"},
            headers={"accept-language": "de"},
            timeout=30,
        )
        assert answer.status_code == 422
        assert "0-9" in answer.json()["message"]
    assert "Traceback" not in (tmp_path / "server.log").read_text()
