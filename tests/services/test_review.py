"""Game review: losses against the best decision, per-player summaries, ``kniffel review`` and the
``hint``/``review`` commands of ``kniffel play``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kniffel import Game, SeededDice, bots, rules
from kniffel.bots import OptimalBot
from kniffel.core import Advisor, ColumnPosition, table
from kniffel.engine.actions import Roll, Score
from kniffel.services.review import ACCURACY_SCALE, PlayerSummary, review

pytestmark = pytest.mark.usefixtures("solver_cache")

YAHTZEE = rules.get("yahtzee", {"joker": "free"})


def blunder_game() -> Game:
    """Ada throws a Yahtzee at once and enters it as chance; Bob scores his as yahtzee."""
    game = Game(YAHTZEE, ["Ada", "Bob"])
    game.apply(Roll(dice=(6, 6, 6, 6, 6)))
    game.apply(Score("chance"))
    game.apply(Roll(dice=(6, 6, 6, 6, 6)))
    game.apply(Score("yahtzee"))
    return game


def test_a_blunder_costs_what_the_advisor_says() -> None:
    result = review(blunder_game())
    assert result.exact
    ada, bob = result.players
    first = result.decisions[0]
    assert (first.player, first.chosen, first.best) == ("Ada", "score chance", "score yahtzee")
    assert (first.number, first.round, first.dice, first.rolls_left) == (2, 1, (6, 6, 6, 6, 6), 2)
    options = {
        str(o.action): o.value for o in Advisor(table(YAHTZEE)).options(ColumnPosition({}, [6] * 5, 2))
    }
    assert first.loss == pytest.approx(options["score yahtzee"] - options["score chance"])
    assert first.loss > 20
    assert ada.loss == pytest.approx(first.loss)
    assert (ada.decisions, ada.optimal, ada.turns) == (1, 0, 1)
    assert ada.accuracy is not None
    assert ada.accuracy < 100
    assert bob.loss == 0
    assert (bob.decisions, bob.optimal, bob.accuracy) == (1, 1, 100.0)


def test_an_optimal_bot_game_loses_nothing() -> None:
    game = bots.play(Game(YAHTZEE, ["A", "B"], dice=SeededDice(9)), [OptimalBot(), OptimalBot()])
    result = review(game)
    assert len(result.decisions) >= 2 * 13
    assert all(d.loss == pytest.approx(0, abs=1e-9) for d in result.decisions)
    for player in result.players:
        assert (player.optimal, player.turns, player.accuracy) == (player.decisions, 13, 100.0)
        assert player.score == game.sheets[game.players.index(player.name)].total


def test_accuracy_is_100_for_optimal_play_and_falls_with_the_loss_per_turn() -> None:
    assert PlayerSummary("A", 200, 30, 30, 13, 0.0).accuracy == 100.0
    one_per_turn = PlayerSummary("A", 200, 30, 20, 13, 13 * ACCURACY_SCALE)
    assert one_per_turn.accuracy == pytest.approx(100 / math.e)
    assert PlayerSummary("A", 0, 0, 0, 0, 0.0).optimal_share == 1.0


def test_multi_column_reviews_are_marked_as_estimates() -> None:
    game = Game(rules.get("kniffel-3col"), ["A"], dice=SeededDice(1))
    for _ in range(6):
        game.apply(OptimalBot().choose(game))
    result = review(game)
    assert not result.exact
    assert result.decisions
    assert all(d.loss == pytest.approx(0, abs=1e-9) for d in result.decisions)


# --- command line ------------------------------------------------------------------------------------


def test_review_command_json_and_table(tmp_path: Path) -> None:
    from kniffel.apps.cli import app

    path = tmp_path / "game.json"
    path.write_text(blunder_game().dumps())
    result = CliRunner().invoke(app, ["review", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["rules"], data["options"], data["exact"]) == ("yahtzee", {"joker": "free"}, True)
    assert [p["name"] for p in data["players"]] == ["Ada", "Bob"]
    assert data["players"][0]["loss"] > 20
    assert data["decisions"][0]["best"] == "score yahtzee"
    text = CliRunner().invoke(app, ["review", str(path)])
    assert text.exit_code == 0
    assert "score Yahtzee" in text.stdout  # as people read it: the box by its label
    assert "Accuracy" in text.stdout


def test_review_of_a_bad_file_is_a_one_line_error(tmp_path: Path) -> None:
    from kniffel.apps.cli import app

    path = tmp_path / "broken.json"
    path.write_text('{"format": 1, "rules": "yahtzee"')
    result = CliRunner().invoke(app, ["review", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kniffel: error: {path}: not a saved game (not JSON")
    missing = CliRunner().invoke(app, ["review", str(tmp_path / "missing.json")])
    assert missing.exit_code == 2
    assert "No such file" in missing.stderr


def test_hint_and_review_during_play_and_the_offer_at_the_end() -> None:
    from kniffel.apps.cli import app

    boxes = YAHTZEE.box_keys
    script = "r\nhint\nhint 2\nreview\n" + "".join(f"r\ns {box}\n" for box in boxes) + "y\n"
    args = ["play", "-r", "yahtzee", "-o", "joker=free", "-p", "Ada", "--seed", "3"]
    result = CliRunner().invoke(app, args, input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    hints = out.split("Best options")[1].split("Ada [")[0]
    assert hints.count("\n  ") == 5
    assert "best" in hints
    assert "No decisions to review yet." in out
    assert "Review the game (y/N)?" in out
    assert "Decisions that cost points" in out
    assert "Accuracy" in out


def test_hint_before_the_first_roll_and_for_an_estimated_rule_set() -> None:
    from kniffel.apps.cli import app

    args = ["play", "-r", "kniffel-3col", "-p", "Ada", "--seed", "3"]
    result = CliRunner().invoke(app, args, input="hint\nr\nhint 1\nq\n")
    assert result.exit_code == 0, result.output
    assert "roll first" in result.stdout
    assert "estimates built from single-column tables" in result.stdout


def test_hints_print_actions_as_the_prompt_takes_them() -> None:
    from kniffel.apps.cli import app
    from kniffel.apps.cli.reviewing import hint_lines
    from kniffel.planning import Choice

    game = Game(rules.get("kniffel"), ["Ada"])
    choices = [Choice(Roll(keep=(3, 3)), 20.0), Choice(Roll(), 18.5), Choice(Score("chance"), 17.0)]
    lines = hint_lines(game, choices)
    assert [line.split("  ")[1].strip() for line in lines] == ["1. keep 3 3", "2. roll", "3. score Chance"]
    assert lines[1].endswith("-1.50")
    german = hint_lines(game, choices, "de")
    assert [line.split("  ")[1].strip() for line in german] == [
        "1. 3 3 halten",
        "2. würfeln",
        "3. Chance eintragen",
    ]
    assert german[1].endswith("-1,50")
    assert [game.parse_action(line.split(". ", 1)[1].split("  ")[0]) for line in german] == [
        c.action for c in choices
    ]

    args = ["play", "-r", "yahtzee", "-o", "joker=free", "-p", "Ada", "--seed", "5"]
    shown = CliRunner().invoke(app, args, input="r\nhint 1\nq\n")
    assert shown.exit_code == 0, shown.output
    best = shown.stdout.split("Best options")[1].splitlines()[1].split("1. ")[1].split("  ")[0].strip()
    assert best.startswith(("roll", "keep", "score"))
    typed = CliRunner().invoke(app, args, input=f"r\n{best}\nq\n")  # the same dice: the same seed
    assert typed.exit_code == 0, typed.output
    assert "error" not in typed.stdout + typed.stderr


def test_a_loss_in_a_turn_under_way_lowers_the_accuracy() -> None:
    """In the middle of the first turn nothing is scored yet, but a poor keep is a poor keep: the grade
    counts the turn under way (it once said 100.0 beside the loss); a player yet to decide is not graded."""
    game = Game(rules.get("kniffel"), ["Ada", "Bob"], dice=SeededDice(4))
    thrown = game.roll()
    game.roll(keep=[max(thrown)])  # keeping one die of a good start
    found = review(game)
    ada, bob = found.players
    assert (ada.decisions, ada.turns) == (1, 0)
    assert ada.loss > 0
    assert ada.accuracy == pytest.approx(100 * math.exp(-ada.loss / ACCURACY_SCALE))
    assert ada.accuracy is not None
    assert ada.accuracy < 100
    assert (bob.decisions, bob.accuracy) == (0, 100.0)
