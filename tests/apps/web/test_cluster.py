"""Three server processes on one PostgreSQL database as one service: clients of one game spread over
them, whole games played, bots moving exactly once, and a process killed with SIGKILL mid-game.

Needs ``KNIFFEL_TEST_POSTGRES_URL`` (``scripts/test`` sets it up); SQLite serves one process only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kniffel import Game
from support.clients import AS_A_PROXY, POSTGRES_ENV, Client, create, play_turn, read_until_closed, token
from support.web import ServerProcess

pytestmark = [
    pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set"),
    pytest.mark.xdist_group("postgres"),  # every test here uses the PostgreSQL test database
]


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory, prepared_solver: Path) -> Iterator[list[ServerProcess]]:
    """Three processes on one database. Their bots' kernels are compiled before they start
    (``prepared_solver``): a server compiling its bot's turn search on a cold cache (20-30 s) outlasted
    a client's wait for the bot's move."""
    directory = tmp_path_factory.mktemp("cluster")
    url = os.environ[POSTGRES_ENV]
    running = [
        ServerProcess(url, env=AS_A_PROXY, log_path=directory / f"server{number}.log").start()
        for number in range(3)
    ]
    try:
        yield running
    finally:
        for server in running:
            server.stop()
    for number in range(3):
        log = (directory / f"server{number}.log").read_text()
        assert "Traceback" not in log, f"server {number} logged a crash"


def play_until_over(players: dict[int, Client], watcher: Client) -> None:
    """Each human plays its turns through its own process; bots move wherever they are watched."""
    while not watcher.state["over"]:
        state = watcher.state
        mover = players.get(state["current"])
        if mover is None:
            watcher.expect("state")
            continue
        if mover.wait_for(state["seq"])["seq"] > state["seq"]:
            watcher.wait_for(mover.state["seq"])  # the watcher was behind: look again
            continue
        play_turn(mover)
        watcher.wait_for(mover.state["seq"])


def test_every_change_reaches_every_process(servers: list[ServerProcess]) -> None:
    one, two, three = servers
    game = create(one, "Ada", "Bob", "bot:Robo", rules="yatzy")
    ada = Client(one, game["id"], token(game, 0))
    bob = Client(two, game["id"], token(game, 1))
    watcher = Client(three, game["id"])
    play_until_over({0: ada, 1: bob}, watcher)
    final = watcher.state
    for client in (ada, bob):
        assert client.wait_for(final["seq"])["players"] == final["players"]
        assert client.state["over"]
    exports = [httpx.get(f"{s.url}/api/games/{game['id']}/export", timeout=10).json() for s in servers]
    assert exports[0] == exports[1] == exports[2]
    replayed = Game.from_json(exports[0])
    assert replayed.is_over
    assert replayed.totals == [p["total"] for p in final["players"]]
    for client in (ada, bob, watcher):
        client.close()


def test_bots_watched_from_every_process_move_exactly_once(servers: list[ServerProcess]) -> None:
    game = create(servers[0], "bot:Robo", "bot:Marvin", rules="yatzy")
    watchers = [Client(server, game["id"]) for server in servers]
    seqs: list[int] = []
    while not watchers[0].state["over"]:
        seqs.append(watchers[0].expect("state", timeout=30)["state"]["seq"])
    assert seqs == sorted(set(seqs)), "every position arrives once, in order"
    final = watchers[0].state["seq"]
    exports = [httpx.get(f"{s.url}/api/games/{game['id']}/export", timeout=10).json() for s in servers]
    assert all(len(e["actions"]) == final for e in exports)
    assert Game.from_json(exports[0]).is_over, "the log is one legal game: no turn was played twice"
    for watcher in watchers:
        assert watcher.wait_for(final)["over"]
        watcher.close()


def test_an_undo_reaches_every_process_and_play_goes_on_anywhere(servers: list[ServerProcess]) -> None:
    one, two, three = servers
    game = create(one, "Ada", rules="yatzy")
    ada = Client(one, game["id"], token(game, 0))
    watcher = Client(two, game["id"])
    ada.act({"action": "roll"})
    box = next(iter(ada.state["placements"]))
    ada.act({"action": "score", "box": box})
    watcher.wait_for(2)
    ada.send({"type": "undo", "seq": 2})
    while watcher.state["seq"] != 1:  # the other process takes it back too, and says so whole
        watcher.expect("state")
    assert watcher.state["players"][0]["entries"] == {}
    again = Client(three, game["id"], token(game, 0))
    assert again.state["seq"] == 1
    assert again.act({"action": "score", "box": box})["seq"] == 2
    for client in (ada, watcher):
        assert client.wait_for(2)["players"] == again.state["players"]
    exports = [httpx.get(f"{s.url}/api/games/{game['id']}/export", timeout=10).json() for s in servers]
    assert exports[0] == exports[1] == exports[2]
    for client in (ada, watcher, again):
        client.close()


def test_a_killed_process_leaves_the_game_to_the_others(servers: list[ServerProcess]) -> None:
    """The module's last test: the first process stays dead."""
    one, two, three = servers
    game = create(one, "Ada", "bot:Robo", rules="yatzy")
    ada = Client(one, game["id"], token(game, 0))
    watcher = Client(two, game["id"])
    for _ in range(3):
        play_turn(ada)
        while ada.state["current"] != 0:
            ada.expect("state")
    before = ada.state["seq"]
    one.kill()
    read_until_closed(ada.ws)
    ada = Client(three, game["id"], token(game, 0))
    assert ada.state["seq"] == before
    play_until_over({0: ada}, watcher)
    assert ada.wait_for(watcher.state["seq"])["over"]
    saved = httpx.get(f"{two.url}/api/games/{game['id']}/export", timeout=10).json()
    assert Game.from_json(saved).is_over
    ada.close()
    watcher.close()
