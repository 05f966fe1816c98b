"""``kniffel solve`` and ``kniffel advise``: JSON shapes, published values, batches and bad input."""

from __future__ import annotations

import io
import json
import math
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner, Result

from kniffel import rules
from kniffel.apps.cli.errors import message
from kniffel.base.errors import KniffelError
from kniffel.core import Advisor, ColumnPosition, compile_rules, points, table
from kniffel.engine.sheet import ScoreSheet
from support.batch import batch_situation

pytestmark = pytest.mark.usefixtures("solver_cache")

YAHTZEE = ["--rules", "yahtzee", "--option", "joker=free"]


def invoke(args: Sequence[str], stdin: str | bytes | None = None) -> Result:
    from kniffel.apps.cli import app

    return CliRunner().invoke(app, list(args), input=stdin)


def run_json(args: Sequence[str]) -> dict[str, Any]:
    result = invoke([*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def advise(*args: str) -> list[dict[str, Any]]:
    options: list[dict[str, Any]] = run_json(["advise", *YAHTZEE, *args])["options"]
    return options


def yahtzee_advisor() -> Advisor:
    return Advisor(table(rules.get("yahtzee", {"joker": "free"})))


# --- solve -----------------------------------------------------------------------------------------


def test_solve_gives_the_published_value_and_then_reads_the_cache() -> None:
    first = run_json(["solve", *YAHTZEE])
    assert first["expected_score"] == pytest.approx(254.5896, abs=1e-4)
    assert first["seconds"] >= 0
    assert (first["rules"], first["options"]) == ("yahtzee", {"joker": "free"})
    again = run_json(["solve", *YAHTZEE])
    assert again["cached"] is True
    assert again["expected_score"] == first["expected_score"]
    if not first["cached"]:
        # The DP time stored with the table, not the time of loading it.
        assert again["seconds"] == pytest.approx(first["seconds"])


def test_solve_without_cache_solves_again() -> None:
    data = run_json(["solve", "--rules", "yahtzee", "--no-cache"])
    assert data["cached"] is False
    assert data["seconds"] > 0
    assert data["expected_score"] == pytest.approx(254.5877, abs=1e-4)  # forced joker


def test_solve_one_column_of_a_multi_column_rule_set() -> None:
    data = run_json(["solve", "--rules", "super-kniffel", "--column", "2"])
    assert data["column"] == "free"
    assert data["columns"] == 4
    assert data["expected_score"] == pytest.approx(
        run_json(["solve", "--rules", "kniffel"])["expected_score"]
    )
    top_down = run_json(["solve", "--rules", "kniffel-3col", "--column", "1"])
    assert top_down["column"] == "top-down"
    assert 100 < top_down["expected_score"] < data["expected_score"]


def test_solve_text_output_names_the_score() -> None:
    result = invoke(["solve", *YAHTZEE])
    assert result.exit_code == 0
    assert "254.5896" in result.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--rules", "kniffel-4col", "--column", "3"], "column 3 is announced"),
        (["--rules", "yams"], "choose one with --column"),
        (["--rules", "knoeffel", "--column", "9"], "no column '9'"),
        (["--rules", "nope"], "unknown rule set"),
        (["--rules", "kniffel", "--option", "sharp=maybe"], "sharp must be one of"),
    ],
)
def test_solve_refuses_what_it_cannot_solve(args: list[str], error: str) -> None:
    result = invoke(["solve", *args, "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert error in result.stderr
    assert result.stderr.count("\n") == 1


# --- advise ----------------------------------------------------------------------------------------


def test_a_yahtzee_is_best_scored_as_yahtzee() -> None:
    options = advise("--dice", "6", "6", "6", "6", "6", "--rolls-left", "0")
    assert options[0]["action"] == "score yahtzee"
    assert options[0]["value"] == pytest.approx(50 + yahtzee_advisor().value({"yahtzee": 50}), abs=1e-3)
    assert len(options) == 13  # no throw left: one option per box
    values = [o["value"] for o in options]
    assert values == sorted(values, reverse=True)


def test_every_keep_is_listed_with_the_pair_best() -> None:
    options = advise("--dice", "13356", "--rolls-left", "2")
    actions = [o["action"] for o in options]
    assert actions[0] == "roll keep 3 3"
    # 2 * 3 * 2 * 2 sub-multisets of 1 3 3 5 6, less keeping all five, plus a score per box
    assert sum(a.startswith("roll") for a in actions) == 23
    assert "roll" in actions
    assert sum(a.startswith("score") for a in actions) == 13


def test_values_exclude_the_sheet_points_but_count_the_upper_bonus() -> None:
    low = {
        o["action"]: o["value"] for o in advise("--dice", "44422", "--rolls-left", "0", "--sheet", "chance=5")
    }
    high = {
        o["action"]: o["value"]
        for o in advise("--dice", "44422", "--rolls-left", "0", "--sheet", "chance=30")
    }
    assert low == high
    sheet = "sixes=30,fives=25"  # 55: four more in fours reach 63
    options = {
        o["action"]: o["value"] for o in advise("--dice", "44422", "--rolls-left", "0", "--sheet", sheet)
    }
    after = yahtzee_advisor().value({"sixes": 30, "fives": 25, "fours": 12})
    assert options["score fours"] == pytest.approx(12 + 35 + after, abs=1e-3)


def test_knoeffel_advice_offers_free_throws_after_the_last_roll() -> None:
    base = ["advise", "--rules", "knoeffel", "--dice", "12336", "--rolls-left", "0"]
    options = run_json([*base, "--free-throws-left", "2"])["options"]
    assert any(o["action"].startswith("free") for o in options)  # each a free throw
    spent = run_json([*base, "--free-throws-left", "2", "--free-throws-used", "1"])["options"]
    assert all(o["action"].startswith("score") for o in spent)  # one free throw per turn
    none_left = run_json([*base, "--free-throws-left", "0"])["options"]
    assert all(o["action"].startswith("score") for o in none_left)
    # Unused free throws are worth points at the end, so having more is worth more.
    assert options[0]["value"] > none_left[0]["value"]


def test_advise_table_output() -> None:
    result = invoke(["advise", *YAHTZEE, "--dice", "13356", "--rolls-left", "2"])
    assert result.exit_code == 0, result.output
    assert "│ keep 3 3 " in result.stdout  # as the game names it (--json keeps "roll keep 3 3")


def test_batch_answers_every_line_and_flags_bad_ones(tmp_path: Path) -> None:
    good = {"sheet": {"chance": 20}, "dice": [1, 3, 3, 5, 6], "rolls_left": 2}
    lines = [
        json.dumps(good),
        "not json",
        "",
        json.dumps({**good, "dice": [1, 2, 3]}),
        json.dumps({**good, "rolls_left": 5}),
        json.dumps({**good, "sheet": {"chance": 99}}),
        json.dumps({"sheet": "ones=3", "dice": [6, 6, 6, 6, 6], "rolls_left": 0}),
    ]
    batch = tmp_path / "situations.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    result = invoke(["advise", *YAHTZEE, "--batch", str(batch)])
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 6  # the blank line is skipped
    single = advise("--sheet", "chance=20", "--dice", "13356", "--rolls-left", "2")
    assert out[0] == {"options": single}
    assert [o.get("line") for o in out[1:5]] == [2, 4, 5, 6]
    assert "neither JSON nor a situation" in out[1]["error"]
    assert "expected 5 dice" in out[2]["error"]
    assert "rolls left must be 0 to 2" in out[3]["error"]
    assert "chance cannot hold 99" in out[4]["error"]
    assert out[5]["options"][0]["action"] == "score yahtzee"


def test_a_batch_file_may_start_with_a_byte_order_mark(tmp_path: Path) -> None:
    batch = tmp_path / "situations.jsonl"
    line = json.dumps({"sheet": {}, "dice": [1, 2, 3, 4, 5], "rolls_left": 0})
    batch.write_bytes(("\ufeff" + line + "\n" + line + "\n").encode("utf-8"))
    result = invoke(["advise", *YAHTZEE, "--batch", str(batch)])
    assert result.exit_code == 0, result.output
    first, second = result.output.splitlines()
    assert first == second
    assert "options" in json.loads(first)


def test_a_line_that_is_not_utf8_is_an_error_and_the_batch_goes_on(tmp_path: Path) -> None:
    batch = tmp_path / "situations.jsonl"
    line = json.dumps({"sheet": {}, "dice": [1, 2, 3, 4, 5], "rolls_left": 0}).encode()
    batch.write_bytes(line + b"\n\xff\xfe latin-1\n" + line + b"\n")
    result = invoke(["advise", *YAHTZEE, "--batch", str(batch)])
    assert result.exit_code == 2, result.output
    first, error, third = (json.loads(text) for text in result.output.splitlines())
    assert first == third
    assert error == {"line": 2, "error": "the line is not UTF-8 text"}
    result = invoke(["advise", *YAHTZEE, "--batch", "-"], stdin=batch.read_bytes())
    assert result.exit_code == 2
    assert json.loads(result.output.splitlines()[1])["error"] == "the line is not UTF-8 text"


def test_a_clean_batch_from_stdin_exits_0() -> None:
    line = json.dumps({"sheet": {}, "dice": [2, 2, 2, 5, 6], "rolls_left": 1})
    result = invoke(["advise", *YAHTZEE, "--batch", "-"], stdin=line + "\n" + line + "\n")
    assert result.exit_code == 0, result.output
    first, second = (json.loads(x) for x in result.stdout.splitlines())
    assert first == second
    assert first["options"][0]["action"] == "roll keep 2 2 2"


def test_a_batch_whose_reader_goes_away_ends_quietly(tmp_path: Path) -> None:
    """``kniffel advise --batch FILE | head -1``: once ``head`` has its line and closes the pipe, the
    batch ends with exit status 1 and no error message (it said "error: Broken pipe")."""
    line = json.dumps({"sheet": {}, "dice": [1, 2, 3, 4, 5], "rolls_left": 2})
    batch = tmp_path / "situations.jsonl"
    batch.write_text((line + "\n") * 5000)  # several megabytes of answers: far more than a pipe holds
    with subprocess.Popen(
        [sys.executable, "-m", "kniffel", "advise", *YAHTZEE, "--batch", str(batch)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        first = json.loads(process.stdout.readline())
        process.stdout.close()
        errors = process.stderr.read().decode()
        status = process.wait(timeout=600)
    assert first["options"][0]["action"] == "score large_straight"
    assert (status, errors) == (1, "")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--dice", "1234", "--rolls-left", "1"], "expected 5 dice, got 4"),
        (["--dice", "12347", "--rolls-left", "1"], "a die shows 1 to 6"),
        (["--dice", "12345", "--rolls-left", "3"], "rolls left must be 0 to 2"),
        (["--dice", "12345", "--rolls-left", "-1"], "rolls left must be 0 to 2"),
        (["--dice", "12345", "--rolls-left", "1", "--sheet", "fivs=5"], "no box 'fivs'"),
        (["--dice", "12345", "--rolls-left", "1", "--sheet", "ones=7"], "ones cannot hold 7"),
        (["--dice", "12345", "--rolls-left", "1", "--sheet", "ones"], "box=points"),
        (["--dice", "12345", "--rolls-left", "1", "--free-throws-left", "1"], "has no free throws"),
        (["--dice", "12345", "--rolls-left", "1", "--batch", "x.jsonl"], "leave out"),
        (["--batch", "/nonexistent/x.jsonl"], "No such file"),
    ],
)
def test_bad_advice_requests_are_one_line_errors(args: list[str], error: str) -> None:
    result = invoke(["advise", *YAHTZEE, *args, "--json"])
    assert result.exit_code == 2, result.output
    assert error in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_a_full_sheet_has_nothing_to_advise() -> None:
    full = ",".join(f"{box}=0" for box in rules.get("yahtzee").box_keys)
    result = invoke(["advise", *YAHTZEE, "--dice", "12345", "--rolls-left", "0", "--sheet", full])
    assert result.exit_code == 2
    assert "sheet is full" in result.stderr


def test_free_throws_out_of_range_are_refused() -> None:
    base = ["advise", "--rules", "knoeffel", "--dice", "12345", "--rolls-left", "0"]
    result = invoke([*base, "--free-throws-left", "7"])
    assert result.exit_code == 2
    assert "free throws left must be 0 to 3" in result.stderr
    result = invoke([*base[:-1], "1", "--free-throws-used", "1"])
    assert result.exit_code == 2
    assert "rolls left must be 0" in result.stderr


def test_ordered_columns_refuse_sheets_their_order_cannot_produce() -> None:
    base = ["advise", "--rules", "kniffel", "--option", "strict=on", "--dice", "12345", "--rolls-left", "0"]
    result = invoke([*base, "--sheet", "chance=20"])
    assert result.exit_code == 2
    assert "fills its column top-down: chance cannot be filled yet" in result.stderr
    options = run_json([*base, "--sheet", "ones=2,twos=4"])["options"]
    assert [o["action"] for o in options] == ["score threes"]  # the next box, and only it


def test_advice_values_keep_their_full_precision() -> None:
    options = advise("--dice", "13356", "--rolls-left", "2")
    assert any(round(o["value"], 4) != o["value"] for o in options)
    advisor = yahtzee_advisor()
    (best,) = [
        o
        for o in advisor.options(ColumnPosition({}, (1, 3, 3, 5, 6), 2))
        if str(o.action) == options[0]["action"]
    ]
    assert options[0]["value"] == best.value


# --- advise --situation ----------------------------------------------------------------------------


def _situation_json(text: str) -> dict[str, Any]:
    return run_json(["advise", "--situation", text])


def test_a_situation_gets_the_advice_of_its_sheet_dice_and_rolls() -> None:
    """The planner's values for a whole situation are the advisor's for the same sheet and dice."""
    text = "yahtzee joker=free | threes=9 chance=20 | 1 3 3 5 6 | rolls left 2"
    data = _situation_json(text)
    assert data["situation"] == text
    assert data["exact"] is True
    by_action = {o["action"]: o["value"] for o in data["options"]}
    plain = advise("--sheet", "chance=20,threes=9", "--dice", "13356", "--rolls-left", "2")

    def as_action(advised: str) -> str:
        """The advisor's ``keep 3 3`` is the action ``roll keep 3 3``; ``keep`` alone is ``roll``."""
        return (
            advised.replace("keep", "roll keep", 1).removesuffix(" keep")
            if advised.startswith("keep")
            else advised
        )

    for option in plain:
        assert by_action[as_action(option["action"])] == pytest.approx(option["value"], abs=1e-9)
    values = [o["value"] for o in data["options"]]
    assert values == sorted(values, reverse=True)
    assert data["options"][0]["action"] == as_action(plain[0]["action"])


def test_situation_advice_as_a_table() -> None:
    result = invoke(["advise", "--situation", "yahtzee | yahtzee=50 | 6 6 6 6 6 | rolls left 0"])
    assert result.exit_code == 0, result.output
    assert "Situation: yahtzee | yahtzee=50 | 6 6 6 6 6 | rolls left 0" in result.stdout
    assert "score Sixes" in result.stdout
    assert "estimates" not in result.stdout


def test_multi_column_situations_are_marked_as_estimates() -> None:
    text = "knoeffel | 1:chance=22 2:free_throws_used=1 | 2 2 2 5 6 | rolls left 0"
    data = _situation_json(text)
    assert data["exact"] is False
    actions = [o["action"] for o in data["options"]]
    assert any(a.startswith("free") for a in actions)  # free throws after the last roll
    assert "score 2:three_of_a_kind" in actions
    assert "score 1:chance" not in actions
    result = invoke(["advise", "--situation", text])
    assert result.exit_code == 0, result.output
    assert "estimates" in result.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--rules", "kniffel"], "leave out --rules"),
        (["--sheet", "ones=3"], "leave out --sheet"),
        (["--dice", "12345", "--rolls-left", "1"], "leave out --dice/--rolls-left"),
        (["--batch", "-"], "leave out --batch"),
    ],
)
def test_a_situation_excludes_the_options_it_gives_itself(args: list[str], error: str) -> None:
    result = invoke(["advise", "--situation", "kniffel | empty | 1 2 3 4 5 | rolls left 1", *args])
    assert result.exit_code == 2
    assert error in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("kniffel | empty | no dice | rolls left 3", "advice starts after the turn's first roll"),
        ("kniffel | empty | 1 2 3 4 5", "must say how many rolls are left"),
        ("kniffel | ones=7 | 1 2 3 4 5 | rolls left 1", "ones cannot hold 7"),
        ("kniffle | empty | 1 2 3 4 5 | rolls left 1", "unknown rule set"),
    ],
)
def test_bad_situations_are_one_line_errors(text: str, error: str) -> None:
    result = invoke(["advise", "--situation", text, "--json"])
    assert result.exit_code == 2
    assert error in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_a_batch_takes_situations_as_text_too() -> None:
    text = "yahtzee joker=free | chance=20 | 1 3 3 5 6 | rolls left 2"
    lines = [
        text,
        json.dumps({"sheet": {"chance": 20}, "dice": [1, 3, 3, 5, 6], "rolls_left": 2}),
        "kniffel | empty | 1 3 3 5 6 | rolls left 2",
        "yahtzee joker=free | chance=20 | 1 3 3 5 6",
    ]
    result = invoke(["advise", *YAHTZEE, "--batch", "-"], stdin="\n".join(lines) + "\n")
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert (
        out[0]
        == out[1]
        == {"options": advise("--sheet", "chance=20", "--dice", "13356", "--rolls-left", "2")}
    )
    assert out[2]["line"] == 3
    assert "the situation is one of kniffel, the batch advises yahtzee" in out[2]["error"]
    assert out[3]["line"] == 4
    assert "rolls left" in out[3]["error"]


# --- playing for a target ------------------------------------------------------------------------------

STRICT = ["--rules", "kniffel", "--option", "strict=on"]
"""Strict Kniffel fills its boxes top to bottom: its target table is solved in a moment."""


def test_advise_for_a_target_gives_chances_that_agree_with_the_library() -> None:
    from kniffel.core import TargetAdvisor, solve_rows

    data = run_json(["advise", *STRICT, "--goal", "target:200", "--sheet", "ones=3", "--dice", "2 2 2 5 6"])
    assert data["goal"] == "target:200"
    assert data["needed"] == 197
    values = [o["value"] for o in data["options"]]
    assert values == sorted(values, reverse=True)
    assert all(0.0 <= v <= 1.0 for v in values)
    strict = rules.get("kniffel", {"strict": "on"})
    library = TargetAdvisor(Advisor(table(strict)), solve_rows(compile_rules(strict))).options(
        ColumnPosition({"ones": 3}, [2, 2, 2, 5, 6], 2), 197
    )
    assert {str(o.action): o.value for o in library} == {o["action"]: o["value"] for o in data["options"]}
    # playing for points lists the same options, valued otherwise
    points = run_json(["advise", *STRICT, "--sheet", "ones=3", "--dice", "2 2 2 5 6"])["options"]
    assert {o["action"] for o in points} == {o["action"] for o in data["options"]}


def test_advice_for_a_target_solves_no_table_of_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first target question on a fresh install waits for its chances only: the expected points are
    not read, so their table is not solved (it was, a third of a second for Yahtzee, before)."""
    from kniffel.planning import exact

    sheet = (
        "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=20,four_of_a_kind=0,full_house=25"
    )
    args = ["advise", *STRICT, "--goal", "target:150", "--sheet", sheet, "--dice", "2 2 3 4 5"]
    expected = run_json(args)
    asked: list[object] = []
    # as on a fresh install: no table held, none in the cache (solving one, or asking for one, is noted)
    monkeypatch.setattr(exact, "held_advisor", lambda rules, directory=None: None)
    monkeypatch.setattr(exact, "advisor_for", lambda rules, directory=None: asked.append(rules))
    monkeypatch.setattr(points, "solve_compiled", lambda compiled, progress=None: asked.append(compiled))
    assert run_json(args) == expected
    assert asked == []
    data = run_json(["advise", *STRICT, "--goal", "target:3", "--sheet", "ones=3", "--dice", "2 2 2 5 6"])
    assert {o["value"] for o in data["options"]} == {1.0}
    result = invoke(["advise", *STRICT, "--goal", "target:250", "--sheet", "ones=3", "--dice", "2 2 2 5 6"])
    assert result.exit_code == 0, result.output
    assert "chance of finishing with at least 250" in " ".join(result.stdout.split())
    assert "\N{NO-BREAK SPACE}%" in result.stdout


def test_a_target_past_the_limit_is_answered_at_the_limit_and_said_to_be_an_upper_bound() -> None:
    """The rows stop at the limit (the most a game makes with at most one extra five of a kind; 475 in
    Yahtzee): a target further off is answered with the chances of the limit, upper bounds, and said so,
    not refused."""
    from kniffel.core import default_limit

    limit = default_limit(compile_rules(rules.get("yahtzee")))
    # 168 points so far (the upper bonus and a Yahtzee among them): further Yahtzees pay 100 each
    sheet = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,yahtzee=50"
    asked = ["advise", "--rules", "yahtzee", "--sheet", sheet, "--dice", "6 6 6 6 6"]
    past = run_json([*asked, "--goal", "target:2000"])
    at = run_json([*asked, "--goal", f"target:{168 + limit}"])
    assert (past["needed"], at["needed"]) == (2000 - 168, limit)
    assert (past["upper_bound"], at["upper_bound"]) == (True, False)
    assert past["options"] == at["options"]
    assert 0 < past["options"][0]["value"] < 0.001
    for lang, said in (
        ("en", "Past 475 more points the tables stop"),
        ("de", "Bei 475 weiteren Punkten enden die Tabellen"),
    ):
        shown = invoke(["--lang", lang, *asked, "--goal", "target:2000"])
        assert shown.exit_code == 0, shown.output
        assert said in " ".join(shown.stdout.split())
    assert "upper bound" not in invoke([*asked, "--goal", f"target:{168 + limit}"]).stdout


def test_a_table_text_played_for_a_target_past_the_limit_is_answered_at_the_limit() -> None:
    """The target planner (a table text, a bot playing for a target, a review) asks its rows as the
    command does: past the limit, the limit's chances."""
    from kniffel.core import default_limit

    limit = default_limit(compile_rules(rules.get("yahtzee")))
    sheet = "ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 chance=20 yahtzee=50"
    text = f"yahtzee | {sheet} | 6 6 6 6 6 | rolls left 2"
    past = run_json(["advise", "--situation", text, "--goal", "target:2000"])
    at = run_json(["advise", "--situation", text, "--goal", f"target:{168 + limit}"])
    assert past["options"] == at["options"]
    assert past["options"][0]["value"] > 0
    assert (past["upper_bound"], at["upper_bound"]) == (True, False)
    shown = invoke(["--lang", "de", "advise", "--situation", text, "--goal", "target:2000"])
    assert "Bei 475 weiteren Punkten enden die Tabellen" in " ".join(shown.stdout.split())


def test_a_target_the_open_boxes_cannot_reach_has_no_chance_and_no_bound() -> None:
    """With only the five of a kind and the chance left, no target past the limit can be made: every
    chance is 0, exactly (not a bound)."""
    upper = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18"
    sheet = f"{upper},three_of_a_kind=20,four_of_a_kind=20,full_house=25,small_straight=30,large_straight=40"
    data = run_json(["advise", *STRICT, "--sheet", sheet, "--dice", "1 2 3 4 5", "--goal", "target:5000"])
    assert data["upper_bound"] is False
    assert {o["value"] for o in data["options"]} == {0.0}


def test_advise_a_table_to_win() -> None:
    """A table text (the other players' sheets too) is advised for the chance of finishing first: the
    same values as the win planner of the game made from it."""
    from kniffel import Game, Situation
    from kniffel.planning import WIN, planner_for

    text = (
        "kniffel strict=on | ones=3 twos=6 threes=9 fours=12 fives=15 sixes=18 three_of_a_kind=20 | 3 3 4 5 6"
        " | rolls left 1 | others ones=2 twos=4 threes=12 fours=16 fives=20 sixes=24 three_of_a_kind=30"
    )
    data = run_json(["advise", "--situation", text, "--goal", "win"])
    assert data["goal"] == "win"
    game = Game.from_situation(Situation.parse(text))
    expected = {str(c.action): c.value for c in planner_for(game.rules, WIN).choices(game)}
    assert {o["action"]: o["value"] for o in data["options"]} == expected
    assert 0.0 < data["options"][0]["value"] < 1.0
    alone = invoke(["advise", "--situation", text.split(" | others")[0], "--goal", "win"])
    assert alone.exit_code == 2
    assert "others SHEET" in alone.output


def test_advise_a_situation_for_a_target() -> None:
    text = "kniffel strict=on | ones=3 twos=6 | 3 3 3 4 6 | rolls left 1"
    data = run_json(["advise", "--situation", text, "--goal", "target:150"])
    assert data["goal"] == "target:150"
    assert data["options"][0]["action"].startswith(("roll keep 3 3 3", "score threes"))
    refused = invoke(
        ["advise", "--situation", "kniffel-4col | empty | 1 2 3 4 5 | rolls left 2", "--goal", "target:300"]
    )
    assert refused.exit_code == 2
    assert "exact solver" in refused.output


def test_batch_for_a_target() -> None:
    lines = (
        '{"sheet": {"ones": 3}, "dice": [2, 2, 2, 5, 6], "rolls_left": 2}\n{"dice": [1], "rolls_left": 2}\n'
    )
    result = invoke(["advise", *STRICT, "--goal", "target:200", "--batch", "-"], stdin=lines)
    assert result.exit_code == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["options"][0]["value"] > 0
    assert first["upper_bound"] is False
    assert second["line"] == 2
    # past the limit (475) each line says its chances are the limit's
    far = invoke(["advise", *STRICT, "--goal", "target:2000", "--batch", "-"], stdin=lines.splitlines()[0])
    assert json.loads(far.stdout)["upper_bound"] is True


@pytest.mark.parametrize(
    ("goal", "reason"),
    [
        ("target:", "whole number"),
        ("target:-5", "whole number"),
        ("chess", "unknown goal"),
        ("win", "needs the other players' sheets"),
        ("target:x", "whole number"),
    ],
)
def test_bad_goals_are_refused(goal: str, reason: str) -> None:
    result = invoke(["advise", *STRICT, "--goal", goal, "--dice", "1 2 3 4 5"])
    assert result.exit_code == 2
    assert reason in result.output


# --- batches: the same answers as single queries ------------------------------------------------------

BATCH_CASES = [
    ("yahtzee", {"joker": "free"}),
    ("kniffel", {}),
    ("kniffel", {"strict": "on"}),
    ("kniffel", {"sharp": "on"}),
    ("yatzy", {}),
    ("knoeffel", {}),
]


def random_lines(ruleset: rules.RuleSet, rng: random.Random, count: int) -> list[str]:
    """Situations of a one-column rule set as batch lines (:func:`support.batch.batch_situation`), now
    and then a bad line."""
    lines = []
    for _ in range(count):
        data = batch_situation(ruleset, rng)
        line = json.dumps(data)
        bad = rng.random()
        if bad < 0.03:
            line = line[:-2]
        elif bad < 0.06:
            line = json.dumps({**data, "dice": [0, *data["dice"][1:]]})
        elif bad < 0.08:
            line = ""
        lines.append(line)
    return lines


@pytest.mark.parametrize(("rules_id", "options"), BATCH_CASES, ids=[f"{r}{o}" for r, o in BATCH_CASES])
def test_a_batch_answers_each_line_as_a_single_query(
    rules_id: str, options: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Line by line the text a single query gives (``advise``, through the advisor's options, written by
    :func:`json.dumps`), over blocks of several sizes (a block's boundary falls anywhere), bad lines and
    blank ones included."""
    from kniffel.apps.cli import solving
    from kniffel.services import batch

    alone = solving.column_rules(rules.get(rules_id, options), None)
    advisor = Advisor(table(alone))
    lines = random_lines(alone, random.Random(f"{rules_id}{options}"), 400)
    expected: list[str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            situation = batch.parse_line(alone, line + "\n")  # a batch's lines end in one
            answer: dict[str, Any] = {"options": batch.advise(advisor, alone, situation)}
        except batch.BATCH_ERRORS as error:
            answer = {"line": number, "error": message(error)}
        expected.append(json.dumps(answer) + "\n")
    for block in (512, 7, 1):
        monkeypatch.setattr(batch, "BLOCK", block)
        out = io.StringIO()
        errors = batch.run_batch(advisor, alone, io.StringIO("\n".join(lines) + "\n"), out)
        assert out.getvalue().splitlines(keepends=True) == expected
        assert errors == sum('"error"' in e for e in expected)
    assert errors < len(expected) / 2  # most lines are sound situations


def test_ranking_many_situations_at_once_equals_one_at_a_time() -> None:
    """The kernel sweeps situations together, a lane each: each lane's values are those it has alone."""
    advisor = yahtzee_advisor()
    alone = advisor.rules
    rows = []
    for line in random_lines(alone, random.Random(3), 300):
        try:
            data = json.loads(line)
            rows.append(
                ColumnPosition(data["sheet"], data["dice"], data["rolls_left"]).encode(advisor.compiled)[0]
            )
        except (ValueError, KniffelError):
            continue
    together = advisor.ranked(np.array(rows, dtype=np.int64))
    for i, row in enumerate(rows):
        codes, values, counts = advisor.ranked(np.array([row], dtype=np.int64))
        n = int(counts[0])
        assert n == together[2][i]
        assert codes[0, :n].tolist() == together[0][i, :n].tolist()
        assert values[0, :n].tolist() == together[1][i, :n].tolist()


def test_values_are_written_as_json_writes_them() -> None:
    """The kernel's text of a float is ``repr``'s (what :func:`json.dumps` writes), digit for digit, over
    random values in the range it covers and their neighbours at powers of two and ten; outside it, it
    writes nothing."""
    from kniffel.core.kernels.codec import float_text

    rng = random.Random(12)
    values = [0.0, -0.0, 0.5, 3.0, 254.5896, 0.1, 1 / 3, 0.001, 2.0**49, 1e15, -12.25]
    values += [rng.uniform(0, 2000) for _ in range(20000)]
    values += [math.ldexp(1 + rng.getrandbits(52) / 2**52, rng.randrange(-9, 50)) for _ in range(20000)]
    values += [round(rng.uniform(0, 500), rng.randrange(1, 17)) for _ in range(5000)]
    for exponent in [*range(-9, 50), *(d * math.log2(10) for d in range(-2, 15))]:
        x = 2.0**exponent
        values += [math.nextafter(x, 0), x, math.nextafter(x, math.inf)]
    out = np.zeros(64, dtype=np.uint8)
    bits = np.array(values).view(np.uint64)
    for value, pattern in zip(values, bits, strict=True):
        end = float_text(value, pattern, out, 0)
        assert out[:end].tobytes().decode() == repr(value), value
    for value in (1e-4, 2.0**50, 1e300, math.inf, math.nan, 5e-324):
        assert float_text(value, np.array([value]).view(np.uint64)[0], out, 0) == -1


def test_a_value_the_kernel_does_not_write_goes_through_json(monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.services import batch

    advisor = yahtzee_advisor()
    real = advisor.ranked

    def odd(rows: Any) -> Any:
        codes, values, counts = real(rows)
        values[0, 0] = 1e-7
        values[1, 1] = math.inf
        return codes, values, counts

    monkeypatch.setattr(advisor, "ranked", odd)
    line = json.dumps({"sheet": {}, "dice": [1, 3, 3, 5, 6], "rolls_left": 2})
    out = io.StringIO()
    batch.run_batch(advisor, advisor.rules, io.StringIO(f"{line}\nbad\n{line}\n{line}\n"), out)
    first, error, second, third = out.getvalue().splitlines()
    assert json.loads(first)["options"][0]["value"] == 1e-7
    assert '"value": 1e-07}' in first
    assert "Infinity" in second
    assert json.loads(error)["line"] == 2
    assert third == json.dumps({"options": advise("--dice", "13356", "--rolls-left", "2")})


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(
    ("labels", "ids"),
    [
        ("Große Straße=-", "large_straight=0"),
        ("Full House=25 Three of a kind=20", "full_house=25 three_of_a_kind=20"),
        ("Dreierpasch=20, Kl. Straße=30", "three_of_a_kind=20 small_straight=30"),
    ],
)
def test_sheet_and_situation_take_the_labels_as_printed_spaces_included(
    lang: str, labels: str, ids: str
) -> None:
    """``--sheet`` and ``--situation`` read a sheet copied from a screen (labels with spaces, in English or
    German, whatever the language of the command) as they read its ids."""

    def options(*args: str) -> list[dict[str, Any]]:
        asked = ["--lang", lang, "advise", "--rules", "kniffel", *args]
        found: list[dict[str, Any]] = run_json(asked)["options"]
        return found

    turn = ["--dice", "13356", "--rolls-left", "1"]
    assert options("--sheet", labels, *turn) == options("--sheet", ids, *turn)
    sheet = ScoreSheet.parse(rules.get("kniffel"), ids)
    situation = ["--lang", lang, "advise", "--situation", f"kniffel | {labels} | 1 3 3 5 6 | noch 1 Wurf"]
    assert run_json(situation)["situation"] == f"kniffel | {sheet} | 1 3 3 5 6 | rolls left 1"
