"""A goal defined only here plays everywhere goals play, with nothing under ``src/`` knowing it.

``beat:S`` is the largest chance of finishing with more than ``S`` points: a target aim of ``S + 1`` with
a name of its own. Registered from this test, it plays as ``bot:beat:S`` in ``kniffel simulate``, in a
compiled tournament, in a review and in ``kniffel advise --goal``. The rule set is the tests' small
three-dice game, made known under its id for the command line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from typer.testing import CliRunner

import kniffel.rules
from kniffel import Game, SeededDice, bots
from kniffel.apps.cli import app
from kniffel.planning import Unit, planner_for
from kniffel.planning.goals import _GOALS, Target, parse_goal, register
from kniffel.planning.interface import Goal, Planner, PlanningError
from kniffel.planning.winning import TargetPlanner
from kniffel.rules import RuleSet
from kniffel.services.players import bot_name, bot_name_in
from kniffel.services.review import listed, player_goals, review
from kniffel.services.simulate import simulate
from kniffel.services.tournament import Tournament, compiled_roles, tournament
from support.solver import REDUCED

pytestmark = pytest.mark.usefixtures("solver_cache")

SMALL = REDUCED["forced joker"]
"""Three dice, four boxes: every table solves in moments."""
SCORE = 40


@dataclass(frozen=True)
class Beat(Goal):
    """More than ``score`` points: the chance of reaching ``score + 1``."""

    score: int
    name: ClassVar[str] = "beat"
    unit: ClassVar[Unit] = Unit.PROBABILITY
    title: ClassVar[str] = "more than {points} points"
    bot_title: ClassVar[str] = "Bot (beats {points})"

    def __str__(self) -> str:
        return f"{self.name}:{self.score}"

    @classmethod
    def from_argument(cls, argument: str | None) -> Goal:
        if argument is None or not argument.strip().isdigit():
            raise PlanningError(f"beat takes a whole number of points, as in beat:250; got {argument!r}")
        return cls(int(argument))

    def fields(self) -> dict[str, object]:
        return {"points": self.score}

    def planner(self, rules: RuleSet, *, directory: Path | None = None, wait: bool = True) -> Planner:
        return TargetPlanner(rules, self, directory, wait=wait)

    def aim(self) -> int:
        return self.score + 1


@pytest.fixture(autouse=True)
def beat_goal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``beat`` is a goal and the small game a rule set, for this test only."""
    monkeypatch.setitem(kniffel.rules._REGISTRY, SMALL.id, SMALL)
    register(Beat)
    yield
    _GOALS.pop(Beat.name, None)


SPEC = f"bot:beat:{SCORE}"


def test_the_goal_is_known_by_its_text_and_names_its_bot() -> None:
    assert parse_goal(f"beat:{SCORE}") == Beat(SCORE)
    assert SPEC.replace("40", "T") in bots.available()
    assert bots.goal_of(bots.make(SPEC)) == Beat(SCORE)
    assert bot_name(SPEC) == "Bot (beats 40)"
    assert bot_name_in(SPEC, "de") == "Bot (beats 40)"  # no catalog knows it: its own words


def test_it_plays_in_kniffel_simulate() -> None:
    result = CliRunner().invoke(
        app,
        ["simulate", "--rules", SMALL.id, "--strategy", SPEC, "--games", "4", "--seed", "3", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["strategy"], data["games"]) == (SPEC, 4)
    # the same games as the library plays them, each decision the goal's planner's best
    again = simulate(SMALL, strategy=SPEC, games=4, seed=3)
    assert data["mean"] == pytest.approx(again.mean)


def test_it_plays_in_a_compiled_tournament() -> None:
    specs = [SPEC, "bot:optimal", f"bot:target:{SCORE + 1}"]
    assert compiled_roles(SMALL, specs, (0, 1)) == (SCORE + 1, -2)
    beat = tournament(Tournament(SMALL, specs[:2], deals=40, seed=5))
    target = tournament(Tournament(SMALL, [specs[2], specs[1]], deals=40, seed=5))
    # playing for more than S is playing for at least S + 1: the very same games
    assert (beat.matches[0].scores == target.matches[0].scores).all()
    result = CliRunner().invoke(
        app, ["tournament", "--rules", SMALL.id, "-p", SPEC, "-p", "bot:optimal", "--games", "40", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert SPEC in {record["player"] for record in json.loads(result.stdout)["players"]}


def test_it_is_reviewed_by_its_own_goal() -> None:
    game = Game(SMALL, ["Beat", "Ada"], dice=SeededDice(8))
    players = [bots.make(SPEC), bots.make("bot")]
    while not game.is_over:
        game.apply(players[game.current].choose(game))
    result = review(game, goals=player_goals(game, {0: SPEC, 1: "bot"}))
    own = [d for d in result.decisions if d.player == "Beat"]
    assert own
    assert {(d.goal, d.unit) for d in own} == {(f"beat:{SCORE}", Unit.PROBABILITY)}
    # the bot's every choice is the best for its goal: none is listed as costly
    assert not [d for d in listed(result) if d.player == "Beat"]
    assert result.players[0].goal == f"beat:{SCORE}"
    assert result.players[1].unit == Unit.POINTS
    # graded by points instead, the bot that plays for its target does give points away
    by_points = review(game)
    assert sum(d.loss for d in by_points.decisions if d.player == "Beat") > 0


def test_it_advises_with_kniffel_advise() -> None:
    asked = ["advise", "--rules", SMALL.id, "--sheet", "twos=4", "--rolls-left", "1", "--json", "2", "5", "5"]
    beat = CliRunner().invoke(app, [*asked, "--goal", f"beat:{SCORE}"])
    assert beat.exit_code == 0, beat.output
    target = CliRunner().invoke(app, [*asked, "--goal", f"target:{SCORE + 1}"])
    assert target.exit_code == 0, target.output
    beat_data, target_data = json.loads(beat.stdout), json.loads(target.stdout)
    assert beat_data["goal"] == f"beat:{SCORE}"
    assert beat_data["options"] == target_data["options"]
    # the goal's planner in a game agrees with the advice
    game = Game(SMALL, ["Ada"], dice=SeededDice(1))
    game.roll()
    best = planner_for(SMALL, Beat(SCORE)).choices(game)[0]
    assert best.value == pytest.approx(planner_for(SMALL, Target(SCORE + 1)).choices(game)[0].value)
