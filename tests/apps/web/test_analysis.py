"""The position as text (``/api/games/ID/situation``), its analysis for every goal (``/api/analysis``)
and the pages' plural forms (``/words/LANG.json``), against a real server."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from kniffel.apps.web.words import PLURALS
from kniffel.engine.game import Game
from kniffel.engine.situation import Situation
from support.clients import Client, create, new_address, token
from support.web import ServerProcess


def analysis(server: ServerProcess, text: str, **params: str) -> httpx.Response:
    return httpx.get(
        f"{server.url}/api/analysis",
        params={"situation": text, **params},
        headers=new_address(),
        timeout=60,
    )


def test_the_table_shows_its_position_as_text_that_reads_back(server: ServerProcess) -> None:
    game = create(server, "Ada", "Bob")
    ada = Client(server, game["id"], token(game, 0))
    state = ada.act({"action": "roll"})
    answer = httpx.get(f"{server.url}/api/games/{game['id']}/situation", timeout=10).json()
    assert answer["seq"] == 1
    situation = Situation.parse(answer["situation"])
    assert situation.rules.id == "kniffel"
    assert list(situation.dice or ()) == sorted(state["turn"]["dice"])
    assert situation.rolls_left == 2
    assert len(situation.others) == 1, "the text holds the whole table"
    ada.close()


@pytest.mark.parametrize(
    ("text", "params", "status"),
    [
        ("", {}, 400),
        ("kniffel | nonsense", {}, 422),
        ("x" * 2500, {}, 413),
        ("kniffel | empty | no dice | rolls left 3", {}, 409),
        ("kniffel | empty | 1 2 3 4 5 | rolls left 2", {"target": "lots"}, 422),
        # isdigit() accepts the superscript two, which int() refuses: this answered 500
        ("kniffel | empty | 1 2 3 4 5 | rolls left 2", {"target": "²"}, 422),
        ("kniffel | empty | 1 2 3 4 5 | rolls left 2", {"target": "\u0661\u0662\u0660"}, 422),
        ("kniffel | empty | 1 2 3 4 5 | rolls left 2", {"target": "2001"}, 422),
        ("kniffel | empty | 1 2 3 4 \uff15 | rolls left 2", {}, 422),
        ("kniffel | empty | 1 2 3 4 5 | rolls left ²", {}, 422),
        ("kniffel | ones=³ | 1 2 3 4 5 | rolls left 2", {}, 422),
        ("kniffel-4col | empty | 1 2 3 4 5 | rolls left 2", {}, 404),
    ],
)
def test_a_position_that_cannot_be_analysed_is_refused_in_one_line(
    server: ServerProcess,
    text: str,
    params: dict[str, str],
    status: int,
) -> None:
    answer = analysis(server, text, **params)
    assert answer.status_code == status, answer.text
    message = answer.json()["message"]
    assert message
    assert "\n" not in message


def test_a_pasted_position_is_valued_for_points_a_target_and_winning(server: ServerProcess) -> None:
    pytest.importorskip("kniffel.core", reason="the solver is not installed")
    text = "kniffel | ones=3 kniffel=50 | 2 2 3 5 5 | rolls left 1 | others twos=6 fives=15"
    deadline = time.monotonic() + 180
    while True:
        body: dict[str, Any] = analysis(server, text, target="200", lang="de").json()
        goals = {goal["goal"]: goal for goal in body["goals"]}
        assert list(goals) == ["points", "target", "win"]
        if "options" in goals["points"] and "options" in goals["target"]:
            break
        for goal in goals.values():  # said while solving: how far, for the page's progress bar
            if "preparing" in goal:
                progress = goal["preparing"]["progress"]
                assert progress is None or 0 <= progress <= 1
        assert time.monotonic() < deadline, "the tables were not ready in three minutes"
        time.sleep(1)
    assert Situation.parse(body["situation"]) == Situation.parse(text)
    points = goals["points"]["options"]
    assert [o["value"] for o in points] == sorted((o["value"] for o in points), reverse=True)
    assert all(100 < o["value"] < 400 for o in points)
    assert any(o["text"].endswith("halten") for o in points), "the actions read in the page's language"
    target = goals["target"]
    assert target["target"] == 200
    assert all(0 <= o["value"] <= 1 for o in target["options"])


def test_the_pages_get_plural_forms_with_their_words(server: ServerProcess) -> None:
    words = httpx.get(f"{server.url}/words/de.json", timeout=10).json()
    plurals = words[PLURALS]
    assert plurals["forms"]["{n} roll left"] == ["Noch {n} Wurf", "Noch {n} Würfe"]
    assert plurals["index"][:3] == [1, 0, 1]
    assert words["No rolls left"] == "Keine Würfe mehr"
    assert PLURALS not in httpx.get(f"{server.url}/words/en.json", timeout=10).json()


def test_a_target_past_the_limit_is_said_to_be_read_at_it() -> None:
    """The analysis says when a target's chances are the limit's (upper bounds): 168 points held and a
    target of 2000 ask for more than the 475 Yahtzee's rows go to; 600 does not."""
    from kniffel.planning import Target, planner_for

    def past_the_limit(game: Game, target: int) -> int | None:
        # known before the chances are solved: what an analysis says while they are
        reach = planner_for(game.rules, Target(target)).reach(game)
        assert reach is not None
        return reach.limit

    sheet = "ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 chance=20 yahtzee=50"
    game = Game.from_situation(Situation.parse(f"yahtzee | {sheet} | 6 6 6 6 6 | rolls left 2"))
    assert past_the_limit(game, 2000) == 475
    assert past_the_limit(game, 600) is None
    # where the open boxes cannot make more than the limit, the chances are exact (0): no bound
    upper = "ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18"
    full = f"{upper} three_of_a_kind=20 four_of_a_kind=20 full_house=25 small_straight=30 large_straight=40"
    late = Game.from_situation(Situation.parse(f"kniffel strict=on | {full} | 1 2 3 4 5 | rolls left 2"))
    assert past_the_limit(late, 5000) is None
