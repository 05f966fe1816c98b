"""A review means what it says: each player graded by its own goal, each listed choice against the best
for that goal, nothing whose loss shows as nothing, and the same list wherever it is shown."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kniffel.rules
from kniffel import bots
from kniffel.apps.cli import app
from kniffel.apps.web import advice
from kniffel.engine.actions import Roll, Score, Strike
from kniffel.services.review import Decision, listed, loss_text
from kniffel.services.session import Session, Settings
from kniffel.services.wording import listed_decisions
from support.solver import REDUCED

pytestmark = pytest.mark.usefixtures("solver_cache")

SMALL = REDUCED["forced joker"]
TARGET = "bot:target:41"


@pytest.fixture(autouse=True)
def small_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(kniffel.rules._REGISTRY, SMALL.id, SMALL)


def finished(seed: int) -> Session:
    """A game of a person, who scores at once what the heuristic would score, and a bot for a target,
    over."""
    session = Session.new(SMALL, ["Ada", TARGET], Settings(seed=seed))
    person = bots.HeuristicBot()
    while not session.game.is_over:
        game = session.game
        if game.current in session.bots:
            session.apply(session.bot_action())
        elif game.turn.dice is None:
            session.apply(Roll())
        else:
            scores = [c.action for c in person.choices(game) if isinstance(c.action, Score | Strike)]
            session.apply(scores[0])
    return session


def test_a_loss_that_shows_as_nothing_is_not_listed() -> None:
    decision = Decision(1, "Ada", 1, (1, 2, 3), 1, "roll", 10.0, "roll keep 3", 10.004)
    assert not decision.costly
    assert loss_text(decision.loss, decision.unit) == "0.00\N{NO-BREAK SPACE}pts"  # the unit with the figure
    assert Decision(1, "Ada", 1, (1, 2, 3), 1, "roll", 10.0, "roll keep 3", 10.006).costly
    chance = Decision(1, "Ada", 1, (1, 2, 3), 1, "roll", 0.5, "roll keep 3", 0.5004, "win", "probability")
    assert not chance.costly
    assert loss_text(chance.loss, chance.unit) == "0.0%"


@pytest.mark.parametrize("seed", [3, 4])
def test_every_front_end_lists_the_same_choices_each_against_its_own_goal(seed: int, tmp_path: Path) -> None:
    session = finished(seed)
    game = session.game
    # the terminal game's data source
    result = session.review()
    terminal = [(d.number, d.goal, d.chosen, d.best, round(d.loss, 6)) for d in listed_decisions(result)]
    assert terminal, "scoring at once costs points"
    by_seat = {p.name: p.goal for p in result.players}
    assert by_seat == {"Ada": "points", "Bot (target 41)": "target:41"}
    for d in result.decisions:
        assert d.goal == by_seat[d.player]
        # a choice that is the best for its goal is never listed
        if d.chosen == d.best or d.loss <= 0.005 * (d.unit == "points") + 0.0005 * (d.unit != "points"):
            assert d.number not in {entry[0] for entry in terminal}
    assert all(d.goal == "points" for d in listed(result))  # the bot plays its target exactly
    # kniffel review
    path = tmp_path / "game.json"
    session.save(path)
    shown = CliRunner().invoke(app, ["review", str(path), "--json", "--all"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    cli = [
        (d["number"], d["goal"], d["chosen"], d["best"], round(d["loss"], 6))
        for d in data["decisions"]
        if d["number"] in data["listed"]
    ]
    assert cli == terminal
    # the browser's review (what the route answers, before it writes the actions in the page's words)
    deadline = time.monotonic() + 300
    web = advice.review(game, session.specs)
    while web is not None and "win_preparing" in web:  # graded by points until the chances are there
        assert time.monotonic() < deadline
        time.sleep(0.2)
        web = advice.review(game, session.specs)
    assert web is not None
    assert [(d["seq"], d["goal"], d["chosen"], d["best"], round(d["loss"], 6)) for d in web["decisions"]] == (
        terminal
    )
