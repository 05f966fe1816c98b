"""Around one game: the game log's points, the rematch with the same seats and links, and the files that
make the pages an installable app. In process (Starlette's test client), over a real SQLite file, and
PostgreSQL too with ``KNIFFEL_TEST_POSTGRES_URL`` set."""

from __future__ import annotations

import json
import os
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kniffel.apps.web.app import create_app
from kniffel.apps.web.pages import STATIC
from kniffel.apps.web.store import SeatSpec, Store, StoreError
from support.clients import POSTGRES_ENV
from support.testclient import create, hello, next_state


def play_out(client: TestClient, game_id: str, token: str, turns: int = 99) -> dict[str, Any]:
    """Play the token's seats (rolling once, then the best-paying box or a strike) for ``turns`` turns
    or to the end; returns the last state seen."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        seats, state = hello(ws, token)
        while not state["over"] and turns > 0:
            if state["current"] not in seats:
                state = next_state(ws)
                continue
            if state["turn"]["dice"] is None:
                action: dict[str, Any] = {"action": "roll"}
            elif state["placements"]:
                box = max(state["placements"], key=lambda key: state["placements"][key]["points"])
                action = {"action": "score", "box": box}
                turns -= 1
            else:
                action = {"action": "strike", "box": state["strikeable"][0]}
                turns -= 1
            sent = state["seq"]
            ws.send_json({"type": "action", "seq": sent, "action": action})
            while (state := next_state(ws))["seq"] <= sent:
                pass
        return state


def test_the_log_says_what_each_entry_scored(client: TestClient) -> None:
    game = create(client, ("Ada", "human"))
    state = play_out(client, game["id"], game["seats"][0]["token"], turns=3)
    scored = [entry for entry in state["log"] if entry["text"].startswith(("score", "strike"))]
    rolls = [entry for entry in state["log"] if entry["text"].startswith("roll")]
    assert len(scored) == 3
    assert len(rolls) == 3
    entries = state["players"][0]["entries"]
    for entry in scored:
        box = entry["text"].split()[1]
        assert entry["points"] == entries[box]
        assert entry["bonus"] == 0
    assert all("points" not in entry for entry in rolls)


def test_a_rematch_has_the_same_rules_seats_and_links(client: TestClient) -> None:
    game = create(client, ("Ada", "human"), ("Robo", "bot"))
    ada = game["seats"][0]["token"]
    old = game["id"]
    refused = client.post(f"/api/games/{old}/rematch", headers={"x-kniffel-token": ada})
    assert refused.status_code == 409
    assert "over" in refused.json()["message"]
    none_yet = client.get(f"/api/games/{old}/rematch")  # an answer, not a 404 in the console every time
    assert (none_yet.status_code, none_yet.json()) == (200, {"id": None})
    final = play_out(client, old, ada)
    assert final["over"]
    stranger = client.post(f"/api/games/{old}/rematch", headers={"x-kniffel-token": "not-a-seat"})
    assert stranger.status_code == 403
    assert client.post(f"/api/games/{old}/rematch").status_code == 403  # spectators watch, not start

    started = client.post(f"/api/games/{old}/rematch", headers={"x-kniffel-token": ada})
    assert started.status_code == 201
    new = started.json()["id"]
    assert new != old
    again = client.post(f"/api/games/{old}/rematch", headers={"x-kniffel-token": ada})
    assert again.json()["id"] == new, "asking twice joins the same rematch"
    assert client.get(f"/api/games/{old}/rematch").json() == {"id": new}

    state = client.get(f"/api/games/{new}").json()
    assert state["seq"] == 0
    assert not state["over"]
    assert state["rules"]["id"] == final["rules"]["id"]
    assert [(p["name"], p["kind"]) for p in state["players"]] == [("Ada", "human"), ("Robo", "bot")]
    assert (state["hotseat"], state["pad"]) == (final["hotseat"], final["pad"])
    with client.websocket_connect(f"/ws/{new}") as ws:
        seats, _ = hello(ws, ada)  # Ada's old link, with the new game's id, is her seat again
        assert seats == [0]
        ws.send_json({"type": "hello", "token": "not-a-seat"})
        assert ws.receive_json()["code"] == "unauthorized"


def test_a_hot_seat_rematch_is_played_with_the_host_link(client: TestClient) -> None:
    game = create(client, ("Ada", "human"), ("Bob", "human"), hotseat=True)
    host = game["host_token"]
    assert play_out(client, game["id"], host)["over"]
    new = client.post(f"/api/games/{game['id']}/rematch", headers={"x-kniffel-token": host}).json()["id"]
    with client.websocket_connect(f"/ws/{new}") as ws:
        seats, _ = hello(ws, host)
        assert seats == [0, 1]
        seats, _ = hello(ws, game["seats"][1]["token"])
        assert seats == [1]


def test_starting_a_rematch_spends_a_new_game_and_joining_it_does_not(tmp_path: Path) -> None:
    """A rematch is a new game: a client whose allowance of new games is spent starts none, however many
    games it finishes; joining the rematch someone started costs nothing."""
    app = create_app(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        bot_delay=0,
        rate=1000,
        burst=1000,
        create_rate=0.001,
        create_burst=2,
        allowed_hosts="testserver",
    )
    with TestClient(app) as client:
        game = create(client, ("Ada", "human"))
        ada = {"x-kniffel-token": game["seats"][0]["token"]}
        assert play_out(client, game["id"], ada["x-kniffel-token"])["over"]
        started = client.post(f"/api/games/{game['id']}/rematch", headers=ada)
        assert started.status_code == 201, "the second of two new games"
        joined = client.post(f"/api/games/{game['id']}/rematch", headers=ada)
        assert joined.json() == started.json()
        refused = client.post("/api/games", json={"seats": [{"name": "Ada"}]})
        assert refused.status_code == 429, "the rematch spent the last new game"
        rematch = started.json()["id"]
        assert play_out(client, rematch, ada["x-kniffel-token"])["over"]
        again = client.post(f"/api/games/{rematch}/rematch", headers=ada)
        assert again.status_code == 429
        assert again.json()["error"] == "rate_limited"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_app_can_be_installed(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(image.content)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes, "phones want a 192 and a 512 pixel icon"
    for page in ("/", "/g/anything"):
        assert 'rel="manifest"' in client.get(page).text


def test_the_service_worker_covers_the_site_and_keeps_the_pages_files(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]
    assert response.headers["cache-control"] == "no-cache"
    listed = re.search(r"const FILES = (\[.*?\]);", response.text, re.S)
    assert listed is not None
    files = json.loads(re.sub(r",\s*\]", "]", listed.group(1)))
    for path in files:
        assert client.get(path).status_code == 200, path
    scripts = {p.name for p in STATIC.glob("*.js")} - {"sw.js"}
    assert {f"/static/{name}" for name in scripts} <= set(files), "every script the pages load is kept"


def test_a_game_made_with_earlier_tokens_stores_only_their_hashes(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    seats = [SeatSpec("Ada"), SeatSpec("Bob")]
    first = store.create_game("kniffel", {}, seats)
    old = store.load(first.id)
    hashes = (old.host_token_hash, [seat.token_hash for seat in old.seats])
    again = store.create_game("kniffel", {}, seats, token_hashes=hashes)
    assert again.host_token == ""
    assert again.seat_tokens == ("", ""), "nobody but the holders knows the tokens"
    new = store.load(again.id)
    assert new.host_token_hash == old.host_token_hash
    assert [s.token_hash for s in new.seats] == hashes[1]
    with pytest.raises(StoreError, match="as many seats"):
        store.create_game("kniffel", {}, seats[:1], token_hashes=hashes)
    store.close()


@pytest.mark.parametrize(
    "database",
    [
        "sqlite",
        pytest.param(
            "postgres",
            marks=pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} is not set"),
        ),
    ],
)
def test_the_tables_are_created_once_when_many_start_at_once(database: str, tmp_path: Path) -> None:
    """Server processes starting together on a new database (threads here, each with its own engine)
    all start: on PostgreSQL, without taking turns, 9 of 10 such starts had one fail on PostgreSQL's
    catalogue ("duplicate key ... pg_type_typname_nsp_index"); the rematch table too, created later."""
    import threading

    from sqlalchemy import create_engine, text

    from kniffel.apps.web.rooms import Rematches

    admin = create_engine(os.environ[POSTGRES_ENV]) if database == "postgres" else None
    for attempt in range(10):
        if admin is not None:
            schema = f"kniffel_start_{os.getpid()}_{attempt}"  # a new, empty database of its own
            with admin.begin() as connection:
                connection.execute(text(f"CREATE SCHEMA {schema}"))
            url = f"{os.environ[POSTGRES_ENV]}?options=-csearch_path%3D{schema}"
        else:
            url = f"sqlite:///{tmp_path / f'start{attempt}.db'}"
        errors: list[BaseException] = []
        stores: list[Store] = []

        def start(url: str = url, errors: list[BaseException] = errors, stores: list[Store] = stores) -> None:
            try:
                store = Store(url)
                stores.append(store)
                Rematches(store)
            except BaseException as error:  # collected: an assertion below names it
                errors.append(error)

        threads = [threading.Thread(target=start) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        try:
            assert errors == []
            assert Rematches(stores[0]).find("nothing") is None
            assert stores[0].create_game("kniffel", {}, [SeatSpec("Ada", "human")]).id
        finally:
            for store in stores:
                store.close()
            if admin is not None:
                with admin.begin() as connection:
                    connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    if admin is not None:
        admin.dispose()


def test_the_server_speaks_the_pages_language(client: TestClient) -> None:
    """The pages' own words from the web catalog, and what the server says itself (rule sets, refusals,
    the sheet's rows) in the language the page asks for; actions may be sent as text."""
    words = client.get("/words/de.json")
    assert words.status_code == 200
    assert words.json()["Play now"] == "Gleich spielen"
    assert client.get("/words/fr.json").status_code == 404
    listed = {r["id"]: r for r in client.get("/api/rules?lang=de").json()}
    assert listed["yatzy"]["name"] == "Yatzy (skandinavisch)"
    assert listed["yatzy"]["description"].startswith("Skandinavisches Yatzy")
    sharp = next(o for o in listed["kniffel"]["options"] if o["key"] == "sharp")
    assert sharp["value_labels"] == {"off": "aus", "on": "an"}
    assert sharp["label"].startswith("Scharf")
    # the help speaks to players; the source it cites is apart (the page keeps it out of sight)
    assert sharp["help"] == "Figuren, die mit allen Würfeln in einem Wurf fallen, zählen doppelt"
    assert sharp["source"].startswith("Kniffel-Artikel")
    assert all(not o["help"].endswith(")") or not o["source"] for r in listed.values() for o in r["options"])
    game = create(client, ("Ada", "human"))
    how = client.get(f"/api/games/{game['id']}/rules?lang=de").json()
    assert how["name"] == "Kniffel (Schmidt)"
    assert ["Einser", "Summe der Einser"] in how["boxes"]
    assert how["upper_boxes"] == 6
    assert any(label == "Würfel" for label, _ in how["facts"])
    english = client.get("/api/rules", headers={"accept-language": "en-GB,en;q=0.8"}).json()
    assert english[0]["name"] == "Kniffel (Schmidt)"
    refused = client.post("/api/games?lang=de", json={"rules": "kniffel", "seats": []})
    assert refused.json()["message"] == "seats muss eine Liste von 1 bis 8 Plätzen sein"

    game = create(client, ("Ada", "human"))
    state = client.get(f"/api/games/{game['id']}").json()
    sums = [row["label"] for row in state["rules"]["layout"] if row["kind"] == "sum"]
    assert sums[0] == {"en": "Upper sum", "de": "Summe oben"}
    assert state["rules"]["names"]["de"] == "Kniffel (Schmidt)"
    with client.websocket_connect(f"/ws/{game['id']}?lang=de") as ws:
        hello(ws, game["seats"][0]["token"])
        ws.send_json({"type": "action", "seq": 0, "action": "Chance eintragen"})
        assert ws.receive_json() == {"type": "error", "code": "illegal", "message": "erst würfeln"}
        ws.send_json({"type": "action", "seq": 0, "action": "würfeln"})
        assert next_state(ws)["seq"] == 1
        ws.send_json({"type": "action", "seq": 1, "action": "Chance eintragen"})
        scored = next_state(ws)
    dice = [int(face) for face in scored["log"][0]["text"].split(" = ")[1].split()]
    assert scored["players"][0]["entries"]["chance"] == sum(dice)
    assert [entry["text"].split(" =")[0] for entry in scored["log"]] == ["roll", "score chance"]
