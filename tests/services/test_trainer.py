"""The trainer: series made again by their seed, positions that teach spread over the game, answers graded
as ``kniffel advise`` values the options, the figure of a series, and the trainer at a terminal."""

from __future__ import annotations

import functools
import json
from datetime import date

import pytest
from textual.widgets import DataTable, Static
from typer.testing import CliRunner

from kniffel import Game, SeededDice, bots, rules
from kniffel.apps.cli import app
from kniffel.apps.tui.trainer import TrainerApp
from kniffel.engine.actions import Action, Roll
from kniffel.planning import POINTS, Unit
from kniffel.services import proficiency, trainer
from kniffel.services.proficiency import of_review, review_lines
from kniffel.services.review import review

YAHTZEE = rules.get("yahtzee")


@functools.cache
def _series(rules_id: str, seed: int, count: int = trainer.SERIES) -> tuple[trainer.Exercise, ...]:
    return tuple(trainer.series(rules.get(rules_id), seed=seed, count=count))


def test_a_series_is_made_again_by_its_seed() -> None:
    first = _series("yahtzee", 3)
    again = trainer.series(YAHTZEE, seed=3)
    assert [str(e.situation) for e in first] == [str(e.situation) for e in again]
    other = _series("yahtzee", 4)
    assert [str(e.situation) for e in first] != [str(e.situation) for e in other]


def test_the_daily_series_is_the_same_for_a_date_and_rule_set() -> None:
    day = date(2030, 5, 17)
    assert trainer.daily_seed(YAHTZEE, day) == trainer.daily_seed(rules.get("yahtzee"), day)
    assert trainer.daily_seed(YAHTZEE, day) != trainer.daily_seed(YAHTZEE, date(2030, 5, 18))
    assert trainer.daily_seed(YAHTZEE, day) != trainer.daily_seed(rules.get("kniffel"), day)
    assert trainer.daily_seed(YAHTZEE, day) != trainer.daily_seed(YAHTZEE, day, "win")


@pytest.mark.parametrize("rules_id", ["kniffel", "yatzy"])
def test_positions_spread_over_the_game_and_its_decisions(rules_id: str) -> None:
    found = _series(rules_id, 7, 9)
    assert {(e.phase, e.kind) for e in found} == {(p, k) for p in trainer.PHASES for k in trainer.KINDS}
    for exercise in found:
        if exercise.kind == "box":
            assert exercise.situation.rolls_left == 0
        else:
            assert exercise.situation.rolls_left > 0


def test_every_position_teaches_a_lower_level_s_mistake() -> None:
    for exercise in _series("yahtzee", 3):
        assert 1 <= exercise.tempting_level <= 6
        verdict = trainer.answer(exercise, exercise.tempting)
        assert verdict.loss >= trainer.TEACHES[Unit.POINTS] * 0.25
        assert verdict.levels[exercise.tempting_level] == pytest.approx(verdict.loss)
        assert verdict.levels[7] == 0.0


def test_the_trainer_values_every_option_as_kniffel_advise_does() -> None:
    for exercise in _series("yahtzee", 3)[:4]:
        advised = CliRunner().invoke(app, ["advise", "--situation", str(exercise.situation), "--json"])
        assert advised.exit_code == 0, advised.output
        options = json.loads(advised.stdout)["options"]
        verdict = trainer.answer(exercise, Action.parse(options[0]["action"]))
        assert [str(c.action) for c in verdict.options] == [o["action"] for o in options]
        assert [c.value for c in verdict.options] == pytest.approx([o["value"] for o in options], abs=1e-9)
        fresh = trainer.answer(trainer.Exercise.of(exercise.situation), verdict.chosen)
        assert [c.value for c in fresh.options] == [c.value for c in verdict.options]


def test_an_answer_is_read_as_people_type_it_and_graded() -> None:
    exercise = next(e for e in _series("yahtzee", 3) if e.kind == "box")
    best = trainer.answer(exercise, exercise.tempting).best
    verdict = trainer.answer(exercise, str(best.action))
    assert verdict.best_choice
    assert verdict.loss == 0.0
    assert "best choice" in verdict.lines("en")[0]
    german = trainer.answer(exercise, f"{best.action.box} eintragen")  # type: ignore[attr-defined]
    assert german.chosen == best.action
    with pytest.raises(trainer.TrainerError):
        trainer.answer(exercise, "keep 1 2 3")


def test_a_series_figure_matches_the_levels_on_the_same_positions() -> None:
    found = _series("yahtzee", 3)
    perfect = trainer.result([trainer.answer(e, trainer.answer(e, e.tempting).best.action) for e in found])
    assert perfect.proficiency.per_decision == 0.0
    assert perfect.proficiency.level == 7
    newcomer = trainer.result(
        [trainer.answer(e, dict(trainer.answer(e, e.tempting).choices)[1]) for e in found]
    )
    assert newcomer.proficiency.level == 1
    assert "plays like level 1" in newcomer.proficiency.text("en")


def test_a_game_s_figure_matches_the_measured_ladder() -> None:
    ladder = proficiency.ladder("yahtzee")
    assert ladder is not None
    assert ladder[7] == 0.0
    for level, loss in ladder.items():
        assert proficiency.measured("yahtzee", loss * 30, 30).level == level
    assert proficiency.measured("kniffel-3col", 30.0, 30).level is None
    assert proficiency.matched_level(10.0, ladder) == 1


def test_kniffel_train_json_answers_line_by_line() -> None:
    exercises = trainer.series(YAHTZEE, seed=3, count=2)
    best = [str(trainer.answer(e, e.tempting).best.action) for e in exercises]
    result = CliRunner().invoke(
        app,
        ["train", "--rules", "yahtzee", "--seed", "3", "--count", "2", "--json"],
        input=f"nonsense\n{best[0]}\n{exercises[1].tempting}\n",
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["position"]["situation"] == str(exercises[0].situation)
    assert "error" in lines[1]
    assert lines[2]["verdict"]["best_choice"] is True
    assert lines[4]["verdict"]["loss"] > 0
    assert lines[5]["result"]["answered"] == 2


def test_kniffel_train_plain_speaks_german() -> None:
    result = CliRunner().invoke(
        app,
        ["train", "--rules", "yahtzee", "--seed", "3", "--count", "1", "--plain", "--lang", "de"],
        input="q\n",
    )
    assert result.exit_code == 0, result.output
    assert "Serie 3" in result.stdout


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_line_of_the_terminal_trainer_driven_by_keys(anyio_backend: str) -> None:
    exercises = [e for e in _series("yahtzee", 3) if e.kind != "box"][:1] + [
        e for e in _series("yahtzee", 3) if e.kind == "box"
    ][:1]
    trainer_app = TrainerApp(exercises, YAHTZEE, "en", seed=3)
    async with trainer_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "space")
        await pilot.pause()
        verdict = trainer_app.verdicts[0]
        dice = exercises[0].situation.dice or ()
        assert verdict.chosen == Roll(keep=(dice[0],))
        shown = str(trainer_app.query_one("#verdict", Static).render())
        assert verdict.lines("en")[0] in shown
        assert trainer_app.query_one("#options", DataTable).row_count >= 2
        await pilot.press("enter")
        letter = "abcdefghijklm"[[b.id for b in YAHTZEE.boxes].index(_best_box(exercises[1]))]
        await pilot.press(letter)
        await pilot.pause()
        assert trainer_app.verdicts[1].best_choice
        await pilot.press("enter")
        await pilot.pause()
        summary = str(trainer_app.query_one("#verdict", Static).render())
        assert "Best choices: 1 of 2." in summary or "Best choices: 2 of 2." in summary
        await pilot.press("q")


def _best_box(exercise: trainer.Exercise) -> str:
    best = trainer.answer(exercise, exercise.tempting).best.action
    box: str = best.box  # type: ignore[attr-defined]
    return box


@pytest.mark.slow
def test_a_series_to_win_values_the_chance_of_winning() -> None:
    found = trainer.series(YAHTZEE, seed=5, count=2, goal="win")
    for exercise in found:
        assert len(exercise.situation.others) == 1
        verdict = trainer.answer(exercise, exercise.tempting)
        assert verdict.unit == Unit.PROBABILITY
        assert 0.0 <= verdict.best.value <= 1.0
        assert verdict.loss >= trainer.TEACHES[Unit.PROBABILITY] * 0.25
    assert trainer.Exercise.of(found[0].situation).goal == str(POINTS)


def test_a_reviewed_game_says_the_level_its_player_matches() -> None:
    exact = bots.play(Game(YAHTZEE, ["Zoe"], dice=SeededDice(5)), [bots.make("bot:7")])
    assert review_lines(review(exact)) == [
        "Zoe: Average loss a decision: 0.00 points; plays like level 7 (Master)."
    ]
    newcomer = bots.play(Game(YAHTZEE, ["Ben"], dice=SeededDice(5)), [bots.make("bot:1")])
    figure = of_review(review(newcomer))["Ben"]
    assert figure.level is not None
    assert figure.level <= 3
    assert "spielt wie Stufe" in review_lines(review(newcomer), "de")[0]
