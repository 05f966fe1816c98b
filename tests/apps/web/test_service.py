"""The web game service without HTTP: persistence, replay, the checks on every action, bots.

Each test runs its own event loop over a real SQLite file, so what is asserted is what survives in the
database, not only what sits in memory.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import socket
import sqlite3
import time
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from sqlalchemy.exc import OperationalError

from kniffel.apps.web import database
from kniffel.apps.web.botpool import fallback_move
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.live import LiveGame, game_state
from kniffel.apps.web.service import CreateRequest, GameService
from kniffel.apps.web.store import CHANNEL, MAX_NOTE, SeatSpec, StaleError, Store, StoredGame, Write
from kniffel.engine.actions import Roll, Score, Strike
from kniffel.engine.game import Game
from support.clients import POSTGRES_ENV
from support.service import Watcher, request, run, until


def action_rows(url: str) -> list[tuple[str, int, int]]:
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        return list(db.execute("select game_id, seq, seat from actions order by seq"))


def test_create_load_and_replay_after_restart(url: str) -> None:
    async def first() -> tuple[str, str, list[int]]:
        service = GameService(Store(url), bot_delay=0)
        new, live = await service.create(request("Ada", "Bob"))
        token = new.seat_tokens[0]
        await service.act(live, live.seats_for(token), 0, Roll())
        await service.act(live, live.seats_for(token), 1, Score("chance"))
        dice = list(live.game.log[0].dice or ())  # type: ignore[attr-defined]
        return new.id, token, dice

    game_id, token, dice = run(first)

    async def second() -> LiveGame:
        return await GameService(Store(url)).get(game_id)

    live = run(second)
    assert live.seq == 2
    assert live.game.current == 1
    assert live.game.sheets[0].entries == {"chance": sum(dice)}
    assert live.seats_for(token) == {0}
    assert live.seat_of_action == [0, 0]


def test_a_new_game_is_what_a_fresh_process_reads_back(url: str) -> None:
    """The creating process builds its copy from what it wrote (no read back): another process that
    loads the game from the database gets the same stored record and the same state."""

    async def body() -> tuple[StoredGame, str, StoredGame, str]:
        store = Store(url)
        reads: list[str] = []
        load = store.load

        def counted_load(game_id: str) -> StoredGame:
            reads.append(game_id)
            return load(game_id)

        store.load = counted_load  # type: ignore[method-assign]
        new, live = await GameService(store).create(request("Ada", "bot:Robo", rules="yahtzee", pad=True))
        assert reads == []
        again = await GameService(Store(url)).get(new.id)
        return live.stored, live.state_json(), again.stored, again.state_json()

    stored, state, reread, restate = run(body)
    assert stored == reread
    assert state == restate


def test_games_beyond_the_cache_are_forgotten_oldest_first_unless_watched(url: str) -> None:
    async def body() -> None:
        service = GameService(Store(url), max_cached=3)
        games = [(await service.create(request("Ada")))[1] for _ in range(3)]
        service.subscribe(games[0], _Watcher())
        await service.create(request("Ada"))
        await service.create(request("Ada"))
        assert next(iter(service._live)) == games[0].id
        assert len(service._live) == 3
        assert games[1].id not in service._live
        assert games[2].id not in service._live
        assert await service.get(games[1].id) is not games[1]  # read again from the database
        assert (await service.get(games[1].id)).state_json() == games[1].state_json()

    run(body)


class _Watcher:
    changes = False

    def push(self, text: str) -> None:
        pass


def test_tokens_are_stored_only_as_hashes(url: str) -> None:
    async def body() -> tuple[str, tuple[str, ...]]:
        new, _ = await GameService(Store(url)).create(request("Ada", "Bob", hotseat=True))
        return new.host_token, new.seat_tokens

    host, seats = run(body)
    dump = "\n".join(sqlite3.connect(url.removeprefix("sqlite:///")).iterdump())
    for token in (host, *seats):
        assert token not in dump


def test_a_position_can_be_written_once(url: str) -> None:
    store = Store(url)
    new = store.create_game("kniffel", {}, [SeatSpec("Ada")])
    store.append(new.id, 1, 0, {"action": "roll", "dice": [1, 2, 3, 4, 5]}, status="playing", to_move=0)
    with pytest.raises(StaleError):
        store.append(new.id, 1, 0, {"action": "roll", "dice": [6, 6, 6, 6, 6]}, status="playing", to_move=0)
    assert [a.action["dice"] for a in store.load(new.id).actions] == [[1, 2, 3, 4, 5]]


def test_actions_committed_together_keep_their_own_fate(url: str) -> None:
    """A group commit with one taken position writes the others and reports only that one stale."""
    store = Store(url)
    games = [store.create_game("kniffel", {}, [SeatSpec("Ada")]).id for _ in range(3)]
    roll = '{"action": "roll", "dice": [1, 2, 3, 4, 5]}'
    store.append(games[1], 1, 0, {"action": "roll", "dice": [6, 6, 6, 6, 6]}, status="playing", to_move=0)
    written = store.append_many(
        [Write(game, 1, 0, roll, "playing", 0) for game in games] + [Write(games[2], 2, 0, roll, "over", 0)]
    )
    assert written == [True, False, True, True]
    assert [a.action["dice"] for a in store.load(games[1]).actions] == [[6, 6, 6, 6, 6]]
    assert [len(store.load(game).actions) for game in games] == [1, 1, 2]
    assert store.load(games[2]).status == "over"


def test_a_database_that_never_answers_is_given_up_on_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PostgreSQL server that takes the connection and says nothing (a host that drops packets, a server
    caught between stopping and starting again) costs the pool and the listener ``CONNECT_TIMEOUT``, not
    psycopg's 130 s: a listener stuck that long heard no other process's move meanwhile."""
    psycopg = pytest.importorskip("psycopg")
    monkeypatch.setattr(database, "CONNECT_TIMEOUT", 2)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)  # the kernel completes each connection; nobody ever answers on it
        url = f"postgresql+psycopg://kniffel@127.0.0.1:{silent.getsockname()[1]}/kniffel"
        started = time.monotonic()
        engine = database.make_engine(url)
        with pytest.raises(OperationalError), engine.connect():
            pass
        assert time.monotonic() - started < 8
        engine.dispose()
        listening = engine.url.set(drivername="postgresql")  # as Store.listen_dsn gives it
        assert listening.query["connect_timeout"] == "2"
        own = database.with_connect_timeout(listening.update_query_dict({"connect_timeout": "3"}))
        assert own.query["connect_timeout"] == "3"  # a URL's own setting is kept
        started = time.monotonic()
        with pytest.raises(psycopg.OperationalError):
            run(lambda: psycopg.AsyncConnection.connect(listening.render_as_string(hide_password=False)))
        assert time.monotonic() - started < 8


def append_listening(
    store: Store, items: list[Write], games: list[str], **notifies: Any
) -> tuple[list[bool], list[str]]:
    """Commit ``items`` as one group on PostgreSQL while listening: which were written, and the
    announcements (``psycopg``'s ``notifies(**notifies)``) that are about ``games``."""
    import psycopg

    with psycopg.connect(store.listen_dsn(), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")

        async def body() -> list[bool]:
            try:
                return await store.append_many_async(items)
            finally:
                await store.close_async()

        written = run(body)
        payloads = [n.payload for n in listener.notifies(**notifies) if n.payload.split(" ")[0] in games]
    return written, payloads


@pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")
def test_postgresql_commits_a_group_in_one_statement_and_announces_only_what_it_wrote() -> None:
    """The same fates on PostgreSQL, where a group is one statement awaited on the event loop: a taken
    position is skipped, and the announcement carries the written actions only (another process would
    otherwise apply an action that lost its position)."""
    store = Store(os.environ[POSTGRES_ENV])
    games = [store.create_game("kniffel", {}, [SeatSpec("Ada")]).id for _ in range(3)]
    roll = '{"action": "roll", "dice": [1, 2, 3, 4, 5]}'
    store.append(games[1], 1, 0, {"action": "roll", "dice": [6, 6, 6, 6, 6]}, status="playing", to_move=0)
    items = [Write(game, 1, 0, roll, "playing", 0, "me") for game in games]
    items += [Write(games[2], 2, 0, roll, "over", 0, "me"), Write(games[0], 1, 0, roll, "over", 0, "me")]
    written, payloads = append_listening(store, items, games, timeout=2, stop_after=1)
    assert written == [True, False, True, True, False], "the second write of one position loses"
    lines = [line for payload in payloads for line in payload.split("\n") if line.split(" ")[0] in games]
    assert sorted(" ".join(line.split(" ", 4)[:4]) for line in lines) == sorted(
        [f"{games[0]} 1 me 0", f"{games[2]} 1 me 0", f"{games[2]} 2 me 0"]
    )
    assert [a.action["dice"] for a in store.load(games[1]).actions] == [[6, 6, 6, 6, 6]]
    assert [len(store.load(game).actions) for game in games] == [1, 1, 2]
    assert [store.load(game).status for game in games] == ["playing", "playing", "over"]
    store.close()


@pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")
def test_a_group_postgresql_undoes_to_break_a_deadlock_goes_again() -> None:
    """Two processes' groups that lock the same games in the other order deadlock, and PostgreSQL undoes
    one of them: nothing of it was written, so it is sent again rather than failing its actions."""
    import psycopg

    store = Store(os.environ[POSTGRES_ENV])
    games = [store.create_game("kniffel", {}, [SeatSpec("Ada")]).id for _ in range(3)]
    roll = '{"action": "roll", "dice": [1, 2, 3, 4, 5]}'
    items = [Write(game, 1, 0, roll, "playing", 0, "me") for game in games]
    undone: list[Exception] = [psycopg.errors.DeadlockDetected("deadlock detected")] * 2

    async def body() -> list[bool]:
        try:
            assert await store.append_many_async(items[:1]) == [True]  # opens the connection
            connection = store._async_writer
            execute = connection.execute

            async def undone_twice(*args: Any, **kwargs: Any) -> Any:
                if undone:
                    raise undone.pop()
                return await execute(*args, **kwargs)

            connection.execute = undone_twice
            return await store.append_many_async(items[1:])
        finally:
            await store.close_async()

    assert run(body) == [True, True]
    assert undone == []
    assert [len(store.load(game).actions) for game in games] == [1, 1, 1]
    store.close()


@pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")
def test_a_group_whose_connection_was_cut_goes_again_on_a_new_one() -> None:
    """PostgreSQL cuts the writing connection while it is idle (as a restart or failover does): the
    next group finds it dead and is written on a new connection. When the cut comes after the group
    was written but before the answer, the group's actions are found in their positions and count as
    written, not as taken by someone else."""
    import psycopg

    store = Store(os.environ[POSTGRES_ENV])
    games = [store.create_game("kniffel", {}, [SeatSpec("Ada")]).id for _ in range(4)]
    roll = '{"action": "roll", "dice": [1, 2, 3, 4, 5]}'
    items = [Write(game, 1, 0, roll, "playing", 0, "me") for game in games]

    def cut(connection: Any) -> None:
        with psycopg.connect(store.listen_dsn(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (connection.info.backend_pid,))

    async def body() -> tuple[list[bool], list[bool], list[bool]]:
        try:
            first = await store.append_many_async(items[:1])
            cut(store._async_writer)
            idle_cut = await store.append_many_async(items[1:2])
            connection = store._async_writer
            execute = connection.execute

            async def answer_lost(*args: Any, **kwargs: Any) -> Any:
                await execute(*args, **kwargs)  # written and committed
                cut(connection)
                return await execute("SELECT 1")  # the answer never comes

            connection.execute = answer_lost
            lost = await store.append_many_async(items[2:])
            return first, idle_cut, lost
        finally:
            await store.close_async()

    assert run(body) == ([True], [True], [True, True])
    assert [len(store.load(game).actions) for game in games] == [1, 1, 1, 1]
    store.close()


@pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")
def test_a_long_group_is_announced_in_payloads_postgresql_accepts() -> None:
    """PostgreSQL refuses announcements of 8,000 bytes: a large group goes out in several payloads,
    each line whole and each once."""
    store = Store(os.environ[POSTGRES_ENV])
    games = [store.create_game("kniffel", {}, [SeatSpec("Ada")]).id for _ in range(150)]
    roll = '{"action": "roll", "keep": [6, 6, 6, 6], "dice": [6, 6, 6, 6, 6], "note": "%s"}' % ("x" * 60)
    items = [Write(game, 1, 0, roll, "playing", 0, "me") for game in games]
    written, payloads = append_listening(store, items, games, timeout=1)
    assert written == [True] * len(items)
    assert len(payloads) > 3
    assert all(len(payload.encode()) < MAX_NOTE for payload in payloads)
    lines = [line for payload in payloads for line in payload.split("\n")]
    assert sorted(lines) == sorted(item.note() for item in items)
    store.close()


def test_actions_arriving_during_a_commit_share_the_next_one(url: str) -> None:
    """While one commit is under way, the actions of other games wait and then go in one transaction;
    each is acknowledged only after its own commit."""

    class CountingStore(Store):
        groups: ClassVar[list[int]] = []

        def append_many(self, items: Any) -> list[bool]:
            import time

            self.groups.append(len(items))
            time.sleep(0.05)
            return super().append_many(items)

    async def body() -> None:
        store = CountingStore(url)
        service = GameService(store)
        created = [await service.create(request("Ada")) for _ in range(6)]
        await asyncio.gather(
            *(service.act(live, live.seats_for(new.seat_tokens[0]), 0, Roll()) for new, live in created)
        )
        assert sum(store.groups) == 6
        assert len(store.groups) < 6, store.groups
        assert all(live.seq == 1 for _, live in created)
        await service.stop()

    run(body)
    assert len(action_rows(url)) == 6


def test_two_servers_racing_on_one_database_apply_once(url: str) -> None:
    """Two processes serving the same game both accept a roll at position 0: one commit wins, the
    other is told it is stale, takes its own roll back and catches up with the winner's."""

    async def body() -> None:
        one, two = GameService(Store(url)), GameService(Store(url))
        new, live_one = await one.create(request("Ada"))
        live_two = await two.get(new.id)
        seats = live_one.seats_for(new.seat_tokens[0])
        await one.act(live_one, seats, 0, Roll())
        with pytest.raises(WebError) as refused:
            await two.act(live_two, seats, 0, Roll())
        assert refused.value.code == "stale"
        assert live_two.seq == 1, "the losing copy took its action back and read the winner's"
        assert live_two.game.turn.dice == live_one.game.turn.dice
        assert live_two.seat_of_action == [0]
        assert await two.get(new.id) is live_two, "subscribers of the copy keep hearing of the game"

    run(body)
    assert len(action_rows(url)) == 1


def test_a_copy_that_catches_up_shows_what_each_action_earned(url: str) -> None:
    """The game log of a copy that read another process's actions carries their points, like the
    writer's own; a later action of its own then gets its own line, not a neighbour's."""

    async def body() -> None:
        one, two = GameService(Store(url)), GameService(Store(url))
        new, live_one = await one.create(request("Ada"))
        live_two = await two.get(new.id)
        seats = live_one.seats_for(new.seat_tokens[0])
        await one.act(live_one, seats, 0, Roll())
        await one.act(live_one, seats, 1, Score("chance"))
        with pytest.raises(WebError):
            await two.act(live_two, seats, 0, Roll())  # stale: the copy reads both actions
        await two.act(live_two, seats, 2, Roll())
        await two.act(live_two, seats, 3, Score("ones"))
        await one.stop()
        await two.stop()
        log = [(e["text"], e.get("points")) for e in game_state(live_two)["log"]]
        assert [points for _, points in log] == [
            None,
            live_one.game.sheets[0].entries["chance"],
            None,
            live_two.game.sheets[0].entries["ones"],
        ]

    run(body)


@pytest.mark.parametrize(
    ("seq", "token_seat", "action", "code"),
    [
        (5, 0, Roll(), "stale"),
        (0, 1, Roll(), "not_your_turn"),
        (0, None, Roll(), "unauthorized"),
        (0, 0, Score("chance"), "illegal"),
        (0, 0, Roll(dice=(6, 6, 6, 6, 6)), "illegal"),
        ("0", 0, Roll(), "malformed"),
    ],
)
def test_refused_actions_change_nothing(
    url: str, seq: object, token_seat: int | None, action: Any, code: str
) -> None:
    async def body() -> None:
        service = GameService(Store(url))
        new, live = await service.create(request("Ada", "Bob"))
        seats = live.seats_for(new.seat_tokens[token_seat]) if token_seat is not None else frozenset()
        with pytest.raises(WebError) as refused:
            await service.act(live, seats, seq, action)
        assert refused.value.code == code
        assert live.seq == 0
        assert live.game.turn.dice is None

    run(body)
    assert action_rows(url) == []


def test_score_pad_takes_the_players_dice_and_requires_them(url: str) -> None:
    async def body() -> None:
        service = GameService(Store(url))
        new, live = await service.create(request("Ada", pad=True))
        seats = live.seats_for(new.seat_tokens[0])
        with pytest.raises(WebError, match="enter the dice"):
            await service.act(live, seats, 0, Roll())
        await service.act(live, seats, 0, Roll(dice=(2, 2, 2, 2, 2)))
        await service.act(live, seats, 1, Score("kniffel"))
        assert live.game.sheets[0].entries == {"kniffel": 50}

    run(body)


def test_hotseat_host_plays_every_human_seat_but_not_the_bot(url: str) -> None:
    async def body() -> None:
        service = GameService(Store(url), bot_delay=3600)
        new, live = await service.create(request("Ada", "Bob", "bot:Robo", hotseat=True))
        assert live.seats_for(new.host_token) == {0, 1}
        assert live.seats_for("nonsense") == frozenset()
        host = live.seats_for(new.host_token)
        for seq, action in enumerate([Roll(), Strike("ones"), Roll(), Strike("ones")]):
            await service.act(live, host, seq, action)
        assert live.game.current == 2
        with pytest.raises(WebError) as refused:
            await service.act(live, frozenset({2}), 4, Roll())
        assert refused.value.code == "not_your_turn", "a person cannot move for a bot"
        await service.stop()

    run(body)


def test_without_hotseat_the_host_token_plays_no_seat(url: str) -> None:
    async def body() -> None:
        new, live = await GameService(Store(url)).create(request("Ada", "Bob"))
        assert live.seats_for(new.host_token) == frozenset()
        assert live.is_host(new.host_token)

    run(body)


def test_bots_play_a_whole_game_and_it_is_saved(url: str) -> None:
    async def body() -> tuple[str, int]:
        service = GameService(Store(url), bot_delay=0)
        new, live = await service.create(request("bot:Robo", "bot:Marvin", rules="yatzy"))
        service.subscribe(live, Watcher())
        await until(lambda: live.game.is_over and not live.bots_due)
        await service.stop()
        return new.id, live.seq

    game_id, seq = run(body)
    assert len(action_rows(url)) == seq
    store = Store(url)
    assert store.load(game_id).status == "over"
    assert store.games_waiting_for_bots() == []


def test_a_restarted_server_resumes_the_bot_to_move(url: str) -> None:
    async def before() -> str:
        service = GameService(Store(url), bot_delay=3600)
        new, live = await service.create(request("Ada", "bot:Robo"))
        seats = live.seats_for(new.seat_tokens[0])
        await service.act(live, seats, 0, Roll())
        await service.act(live, seats, 1, Score("chance"))
        await service.stop()  # the "crash": the bot had not moved yet
        return new.id

    game_id = run(before)
    assert Store(url).games_waiting_for_bots() == [game_id]

    async def after() -> int:
        service = GameService(Store(url), bot_delay=0)
        await service.start()
        live = await service.get(game_id)
        service.subscribe(live, Watcher())
        await until(lambda: live.game.current == 0)
        await service.stop()
        return live.seq

    assert run(after) > 2


def test_a_failed_commit_takes_the_action_back(url: str) -> None:
    class BrokenStore(Store):
        def append_many(self, *args: Any, **kwargs: Any) -> list[bool]:
            raise OperationalError("insert", {}, Exception("disk I/O error"))

    async def body() -> None:
        service = GameService(BrokenStore(url))
        new, live = await service.create(request("Ada"))
        with pytest.raises(WebError) as refused:
            await service.act(live, live.seats_for(new.seat_tokens[0]), 0, Roll())
        assert refused.value.code == "unavailable"
        assert live.seq == 0
        assert live.game.turn.dice is None

    run(body)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"seats": []}, "1 to 8 seats"),
        ({"seats": [{"name": f"P{i}"} for i in range(9)]}, "1 to 8 seats"),
        ({"seats": [{"name": "Ada"}, {"name": "Ada"}]}, "different name"),
        ({"seats": [{"name": " "}]}, "needs a name"),
        ({"seats": [{"name": "x" * 25}]}, "needs a name"),
        (
            {"seats": [{"name": "Ada", "kind": "alien"}]},
            "is one of human, bot, bot:optimal, bot:win, bot:1, bot:2, bot:3, bot:4, bot:5, bot:6, bot:7, "
            "bot:8, got 'alien'",
        ),
        (
            {
                "rules": "kniffel-3col",
                "seats": [{"name": "Ada", "kind": "human"}, {"name": "R", "kind": "bot:win"}],
            },
            "bot:win plays the rule sets of one column the solver covers, not kniffel-3col",
        ),
        ({"rules": "chess", "seats": [{"name": "Ada"}]}, "unknown rule set"),
        ({"rules": "kniffel", "options": {"sharp": "maybe"}, "seats": [{"name": "Ada"}]}, "sharp must be"),
        ({"options": {"sharp": 1}, "seats": [{"name": "Ada"}]}, "options must map"),
        ({"seats": [{"name": "Ada"}], "pad": "yes"}, "pad must be true or false"),
    ],
)
def test_creation_requests_are_checked(data: object, message: str) -> None:
    with pytest.raises(WebError, match=message):
        CreateRequest.parse(data)


def test_names_are_tidied() -> None:
    assert request("  Ada   Lovelace ").seats == (SeatSpec("Ada Lovelace", "human"),)


@pytest.mark.parametrize("rules_id", ["kniffel", "knoeffel", "kniffel-3col", "yatzy-deluxe"])
def test_the_fallback_bot_finishes_any_game(rules_id: str) -> None:
    from kniffel import Game, SeededDice
    from kniffel import rules as rules_module

    game = Game(rules_module.get(rules_id), ["A", "B"], dice=SeededDice(3))
    for _ in range(5000):
        if game.is_over:
            break
        game.apply(fallback_move(game))
    assert game.is_over


@pytest.mark.parametrize(
    "rules_id", ["kniffel", "yahtzee", "knoeffel", "kniffel-3col", "yams", "yatzy-deluxe"]
)
def test_the_table_offers_exactly_the_engines_legal_actions(rules_id: str) -> None:
    """The state sent to browsers answers "what may I do now" without listing every keep; it must agree
    with Game.legal_actions() in every position of a randomly played game."""
    import random

    from kniffel import Game, SeededDice
    from kniffel import rules as rules_module
    from kniffel.apps.web.store import StoredGame, StoredSeat
    from kniffel.engine.actions import Announce, FreeThrow

    game = Game(rules_module.get(rules_id), ["A", "B"], dice=SeededDice(5))
    seats = (StoredSeat(0, "A", "human", ""), StoredSeat(1, "B", "human", ""))
    stored = StoredGame("g", rules_id, {}, None, "playing", False, False, "", seats, ())  # type: ignore[arg-type]
    live = LiveGame(stored, game, [])
    choose = random.Random(rules_id)
    while True:
        state = game_state(live)
        legal = game.legal_actions()
        assert state["can_roll"] == any(type(a) is Roll for a in legal)
        assert state["can_free"] == any(isinstance(a, FreeThrow) for a in legal)
        assert set(state["placements"]) == {a.box for a in legal if isinstance(a, Score)}
        assert set(state["strikeable"]) == {a.box for a in legal if isinstance(a, Strike)}
        assert set(state["announce"]) == {a.box for a in legal if isinstance(a, Announce)}
        # The parts kept from earlier snapshots give what a snapshot from nothing gives.
        assert state == game_state(LiveGame(stored, game, list(live.seat_of_action)))
        if game.is_over:
            break
        if choose.random() < 0.2:  # an action taken back (a failed commit) must leave no trace
            game.apply(choose.choice(legal))
            live.seat_of_action.append(0)
            game_state(live)
            game.retract()
            live.seat_of_action.pop()
        game.apply(choose.choice(legal))
        live.seat_of_action.append(0)


def test_bot_games_nobody_watches_wait_for_a_visitor(url: str) -> None:
    async def body() -> None:
        service = GameService(Store(url), bot_delay=0)
        await service.start()
        _, live = await service.create(request("bot:Robo", "bot:Marvin"))
        for _ in range(50):
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        assert live.seq == 0, "no bot moves while nobody watches"
        watcher = Watcher()
        service.subscribe(live, watcher)
        await until(lambda: live.seq >= 6)
        service.unsubscribe(live, watcher)
        await until(lambda: not live.bots_due)
        stopped_at = live.seq
        await asyncio.sleep(0.05)
        assert live.seq == stopped_at, "the bots stop when the last watcher leaves"
        await service.stop()

    run(body)


def test_bots_of_many_games_share_a_bounded_pool(url: str) -> None:
    """Forty watched all-bot games make no task per game: two workers take turns, so at most two bot
    moves are ever under way, and a person's action in another game is taken between them."""

    async def body() -> None:
        service = GameService(Store(url), bot_delay=0, bot_workers=2)
        await service.start()
        tasks_before = len(asyncio.all_tasks())
        under_way = most = 0
        apply = service._apply

        async def counted(live: LiveGame, *args: Any, by_bot: bool = False, **kwargs: Any) -> Any:
            nonlocal under_way, most
            under_way += by_bot
            most = max(most, under_way)
            try:
                return await apply(live, *args, by_bot=by_bot, **kwargs)
            finally:
                under_way -= by_bot

        service._apply = counted  # type: ignore[method-assign]
        games = []
        for _ in range(40):
            _, live = await service.create(request("bot:Robo", "bot:Marvin"))
            service.subscribe(live, Watcher())
            games.append(live)
        assert len(asyncio.all_tasks()) <= tasks_before + 1
        new, mine = await service.create(request("Ada"))
        seats = mine.seats_for(new.seat_tokens[0])
        for seq in range(6):
            await service.act(
                mine, seats, seq, Roll() if seq % 2 == 0 else Strike(("ones", "twos", "threes")[seq // 2])
            )
        assert sum(g.seq for g in games) > 0, "the bots played meanwhile"
        assert most <= 2
        await service.stop()

    run(body)


def test_a_first_move_that_compiles_does_not_make_the_bots_rest_for_it(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bots rest after a move in proportion to what it cost (their share of the server), but not for
    compiling: a fresh install's first quick-bot move compiled for half a minute, and every bot game of
    the server then rested for four. A move that thinks as long without compiling still rests."""
    from kniffel.apps.web import botpool

    compiled = [0.0]  # the process's seconds of compiling (kernelcache.compiled_seconds)
    monkeypatch.setattr(botpool, "compiled_seconds", lambda: compiled[0])
    moved: list[float] = []

    def thinking(compiles: bool) -> Callable[[LiveGame, int], Any]:
        """The first move takes a second, compiling or not; the next ones none."""

        def move(live: LiveGame, seat: int) -> Any:
            if not moved:
                time.sleep(1.0)
                compiled[0] += 1.0 if compiles else 0.0
            return fallback_move(live.game)

        return move

    async def gap(compiles: bool) -> float:
        moved.clear()
        service = GameService(Store(url), bot_delay=0, bot_workers=1, bot_share=0.25)  # rests 3x a move
        service._bot_move = thinking(compiles)  # type: ignore[method-assign,assignment]
        apply = service._apply

        async def timed(live: LiveGame, *args: Any, by_bot: bool = False, **kwargs: Any) -> Any:
            done = await apply(live, *args, by_bot=by_bot, **kwargs)
            moved.append(time.monotonic())
            return done

        service._apply = timed  # type: ignore[method-assign]
        await service.start()
        _, live = await service.create(request("bot:Robo", "bot:Marvin"))
        service.subscribe(live, Watcher())
        await until(lambda: len(moved) >= 2)
        await service.stop()
        return moved[1] - moved[0]

    assert run(lambda: gap(compiles=True)) < 2.0
    assert run(lambda: gap(compiles=False)) > 2.5


def test_reads_see_only_committed_state(url: str) -> None:
    """While an action is being saved, the state and the export show the position before it."""

    class SlowStore(Store):
        entered = False

        def append_many(self, *args: Any, **kwargs: Any) -> list[bool]:
            import time

            self.entered = True
            time.sleep(0.2)
            return super().append_many(*args, **kwargs)

    async def body() -> None:
        store = SlowStore(url)
        service = GameService(store)
        new, live = await service.create(request("Ada", "Bob"))
        acting = asyncio.create_task(service.act(live, live.seats_for(new.seat_tokens[0]), 0, Roll()))
        await until(lambda: store.entered)
        assert '"seq":0' in live.state_json()
        assert '"seq":0' in live.state_text()
        export = asyncio.create_task(service.export(live))
        await acting
        assert len((await export)["actions"]) == 1, "the export waited for the commit"
        assert '"seq":1' in live.state_json()

    run(body)


@pytest.mark.parametrize("name", ["Ada\x00", "\ud800", "A\x07da", "Ada\u0378"])
def test_names_are_checked_the_same_way_on_every_database(name: str) -> None:
    with pytest.raises(WebError, match="cannot contain") as refused:
        CreateRequest.parse({"seats": [{"name": name}]})
    assert refused.value.code == "malformed"


_PACING = """
import gc, sys, time, weakref
from kniffel.apps.web import pace_collections

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)

collect_every, collect_after = float(sys.argv[1]), int(sys.argv[2])
pace_collections(freeze_every=0.05, collect_every=collect_every, collect_after=collect_after)
assert gc.get_freeze_count() > 0, "the objects alive at the start are frozen"
assert not gc.isenabled(), "only the pacing collects"
time.sleep(0.2)
made = [cycle() for _ in range(200)]  # garbage the moment it is made: only the collector frees it
time.sleep(0.2)
assert any(ref() is not None for ref in made), "frozen, the cycles outlive the freezes"
kept = []
deadline = time.monotonic() + 30
while any(ref() is not None for ref in made) and time.monotonic() < deadline:
    if collect_after < 10**9:
        kept.append([[] for _ in range(1000)])  # objects that live: the count of what was made grows
    time.sleep(0.05)
assert all(ref() is None for ref in made), "frozen cycles are freed by a full collection"
print("ok")
"""


@pytest.mark.parametrize(
    ("collect_every", "collect_after"),
    [(3.0, 10**9), (3600.0, 20_000)],
    ids=["on-time", "after-many-objects"],
)
def test_collections_are_paced_and_cycles_still_freed(collect_every: float, collect_after: int) -> None:
    # in a process of its own: freezing is for the whole interpreter
    import subprocess
    import sys

    command = [sys.executable, "-c", _PACING, str(collect_every), str(collect_after)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_bot_seats_play_at_the_strength_chosen(url: str) -> None:
    """A seat of ``bot:optimal`` plays the solver's moves, all of them; seats of the heuristic ``bot`` and
    of ``bot:win`` play theirs; the game is played to its end."""
    from kniffel import bots

    async def body() -> str:
        service = GameService(Store(url), bot_delay=0)
        seats = [{"name": "Quick", "kind": "bot"}, {"name": "Strong", "kind": "bot:optimal"}]
        seats.append({"name": "Winner", "kind": "bot:win"})
        parsed = CreateRequest.parse({"rules": "kniffel", "options": {"strict": "on"}, "seats": seats})
        _, live = await service.create(parsed)
        service.subscribe(live, Watcher())
        await until(lambda: live.game.is_over and not live.bots_due)
        await service.stop()
        return live.game.dumps()

    game = Game.loads(run(body))
    assert game.is_over
    assert [p.kind for p in CreateRequest.parse({"seats": [{"name": "W", "kind": "bot:win"}]}).seats] == [
        "bot:win"
    ]
    optimal = bots.make("bot:optimal")
    checked = 0
    for position, action in game.replay():  # each position as it is before its action (then moved on)
        if position.current == 1:
            undiced = dataclasses.replace(action, dice=None) if isinstance(action, Roll) else action
            assert str(optimal.choose(position)) == str(undiced)
            checked += 1
    assert checked >= game.rules.turns


@pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set")
def test_a_database_from_before_bot_strengths_is_widened_once() -> None:
    """Seat kinds were 8 characters wide ("bot:optimal" is 11): a server starting on such a database
    widens the column, and one starting on a widened database leaves the table alone. (In a schema of
    its own: the suite's database holds such seats already.)"""
    from urllib.parse import quote

    from sqlalchemy import create_engine, event, text

    from kniffel.apps.web.database import create_tables
    from kniffel.apps.web.schema import Base

    shared = create_engine(os.environ[POSTGRES_ENV])
    schema = f"widen_{os.getpid()}"
    with shared.begin() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    url = f"{os.environ[POSTGRES_ENV]}?options={quote(f'-csearch_path={schema}')}"
    engine = create_engine(url)
    width = text(
        "SELECT character_maximum_length FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = 'seats' AND column_name = 'kind'"
    )
    try:
        Store(url).close()
        with engine.begin() as connection:
            connection.execute(text("ALTER TABLE seats ALTER COLUMN kind TYPE VARCHAR(8)"))
        Store(url).close()
        with engine.connect() as connection:
            assert connection.execute(width).scalar() == 16
        statements: list[str] = []
        event.listen(engine, "before_cursor_execute", lambda *args: statements.append(str(args[2])))
        create_tables(engine, Base.metadata)
        assert not [s for s in statements if s.lstrip().upper().startswith("ALTER")]
        store = Store(url)
        game = store.create_game("kniffel", {}, [SeatSpec("Ada"), SeatSpec("Robo", "bot:optimal")])
        assert [seat.kind for seat in store.load(game.id).seats] == ["human", "bot:optimal"]
        store.close()
    finally:
        engine.dispose()
        with shared.begin() as connection:
            connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        shared.dispose()
