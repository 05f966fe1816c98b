"""The command line as a new user meets it: hints and prompts that take what they suggest, errors in
one line naming the file or the limit, tables that fit 80 columns."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kniffel import core
from kniffel.apps.cli import app
from kniffel.apps.cli.reviewing import decisions_table, summary_table
from kniffel.base.errors import UnknownBoxError
from kniffel.rules import find_box
from kniffel.rules import get as get_rules
from kniffel.services.review import Decision, PlayerSummary, Review


def invoke(args: list[str], input: str | None = None) -> Any:
    return CliRunner().invoke(app, args, input=input)


def flat(text: str) -> str:
    """Help text without its frame and line breaks."""
    return re.sub(r"[│\s]+", " ", text)


def one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output
    text: str = result.stderr
    return text


# --- play ---------------------------------------------------------------------------------------------


def test_the_hint_for_throwing_everything_is_roll_and_the_prompt_takes_it() -> None:
    # printf 'r\nhint\nroll\n' | kniffel play -r yahtzee -p You --seed 1, as a user runs it
    command = [sys.executable, "-m", "kniffel", "play", "-r", "yahtzee", "-p", "You", "--seed", "1"]
    environment = {**os.environ, "LANG": "C", "LC_ALL": "", "COLUMNS": "80"}
    result = subprocess.run(
        command,
        input="r\nhint\nroll\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    hints = result.stdout.split("Best options")[1].split("You [")[0]
    assert re.search(r"^  \d\. roll +\d", hints, re.MULTILINE)
    assert "reroll" not in result.stdout
    assert "error" not in result.stdout
    assert result.stdout.count("(1 roll left)") == 1


def test_a_save_file_that_cannot_be_written_is_named_before_the_game(tmp_path: Path) -> None:
    missing = one_line_error(invoke(["play", "-p", "bot", "--save", "/nonexistent/dir/g.json"]))
    assert "/nonexistent/dir/g.json: the folder /nonexistent/dir does not exist" in missing
    folder = invoke(["play", "-p", "bot", "--save", str(tmp_path)])
    assert f"{tmp_path}: is a folder, not a file" in one_line_error(folder)
    assert ".tmp" not in missing + folder.stderr
    assert folder.stdout == ""  # refused before any turn is played


def test_a_save_that_cannot_be_written_mid_game_names_the_users_path(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "g.json"
    result = invoke(["play", "-p", "Ada", "--seed", "1"], f"r\nsave {target}\nq\n")
    assert f"error: {target}: the folder {target.parent} does not exist" in result.stdout


def saved_game(tmp_path: Path, **cli: Any) -> Path:
    path = tmp_path / "g.json"
    result = invoke(["play", "-p", "Ada", "--seed", "4", "--save", str(path)], "r\ns chance\nq\n")
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cli"].update(cli)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("drawn", [10**30, 1e30, -1, "5"])
def test_an_impossible_dice_count_in_a_save_is_refused_not_skipped(tmp_path: Path, drawn: object) -> None:
    path = saved_game(tmp_path, drawn=drawn)
    error = one_line_error(invoke(["play", "--load", str(path)], "q\n"))
    assert "damaged dice record" in error


def test_the_language_is_kept_in_the_save_and_used_on_load(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    invoke(["play", "-p", "Ada", "--seed", "4", "--lang", "de", "--save", str(path)], "r\nq\n")
    assert json.loads(path.read_text(encoding="utf-8"))["cli"]["lang"] == "de"
    resumed = invoke(["play", "--load", str(path)], "q\n")
    assert "Tschüss." in resumed.stdout
    english = invoke(["play", "--load", str(path), "--lang", "en"], "q\n")
    assert "Bye." in english.stdout


def test_a_score_pad_takes_bare_dice() -> None:
    script = "6 6 6 1 2\n6 6 6 6 3\ns sixes\n"
    result = invoke(["play", "-r", "yahtzee", "-p", "Ada", "--pad"], script)
    assert result.exit_code == 0, result.output
    assert "error" not in result.stdout
    assert "Ada: scores 24 in Sixes." in result.stdout
    again = invoke(["play", "-r", "yahtzee", "-p", "Ada", "--pad"], "1 2 3 4 5\n1 2 3 4 5\ns chance\n")
    assert "error" not in again.stdout
    assert "Ada: scores 15 in Chance." in again.stdout


def test_sentences_read_well_for_a_player_called_you() -> None:
    result = invoke(["play", "-r", "yahtzee", "-p", "You", "--seed", "1"], "r\ns chance\n")
    assert "You's" not in result.stdout
    assert "You scores" not in result.stdout
    assert re.search(r"^You: scores \d+ in Chance\.$", result.stdout, re.MULTILINE)
    assert "Round 2 of 13, You to play" in result.stdout


def test_the_estimate_note_comes_once_a_game() -> None:
    result = invoke(["play", "-r", "kniffel-3col", "-p", "Ada", "--seed", "3"], "r\nhint 1\nhint 1\nq\n")
    assert result.stdout.count("estimates") == 1


def test_play_json_help_says_what_is_shown() -> None:
    result = invoke(["play", "-p", "bot", "--json", "--seed", "1"])
    assert result.exit_code == 0
    assert result.stderr == ""
    human = invoke(["play", "-p", "Ada", "--json", "--seed", "1"], "q\n")
    assert "Ada>" in human.stderr
    assert "a game of bots only is not shown" in flat(invoke(["play", "--help"]).stdout)


# --- box names ----------------------------------------------------------------------------------------


def test_box_names_are_the_same_everywhere() -> None:
    yahtzee = get_rules("yahtzee")
    assert find_box(yahtzee, "Zweier") == "twos"
    with pytest.raises(UnknownBoxError, match=r"did you mean chance\?$"):
        find_box(yahtzee, "chnace")
    with pytest.raises(UnknownBoxError) as refused:
        find_box(get_rules("kniffel-4col"), "qwertz")
    assert "4:chance" not in str(refused.value)  # no list of all 52 boxes
    by_label = invoke(["score", "-r", "yahtzee", "--sheet", "Zweier=6", "--json", "12345"])
    by_id = invoke(["score", "-r", "yahtzee", "--sheet", "twos=6", "--json", "12345"])
    assert by_label.exit_code == 0, by_label.output
    assert by_label.stdout == by_id.stdout
    column = ["advise", "-r", "kniffel-3col", "--column", "1", "--dice", "12345", "--json"]
    named = invoke([*column, "--sheet", "1:ones=3"])
    plain = invoke([*column, "--sheet", "ones=3"])
    assert named.exit_code == 0, named.output
    assert named.stdout == plain.stdout
    assert "2:ones is not in column 1" in one_line_error(invoke([*column, "--sheet", "2:ones=3"]))


def test_advise_needs_no_rolls_left_and_n_means_games_only() -> None:
    default = invoke(["advise", "-r", "yahtzee", "--dice", "12345", "--json"])
    given = invoke(["advise", "-r", "yahtzee", "--dice", "12345", "--rolls-left", "2", "--json"])
    assert default.exit_code == 0, default.output
    assert default.stdout == given.stdout
    assert invoke(["advise", "-r", "yahtzee", "--dice", "12345", "-n", "1"]).exit_code == 2


# --- help ---------------------------------------------------------------------------------------------


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from kniffel.apps.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(args)
    out = capsys.readouterr()
    return int(exit_.value.code or 0), out.out, out.err


def test_version_and_help_without_python_types(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(["--version"], capsys)
    assert status == 0
    assert re.fullmatch(r"kniffel \d+\.\d+\.\d+\n", out)
    for command in ("play", "simulate", "advise", "score", "review", "solve", "rules", "serve"):
        status, out, _ = run_main([command, "--help"], capsys)
        assert status == 0
        assert not re.search(r"<(bool|int|str|list|path|float)", out), (command, out)
    _, out, _ = run_main(["play", "--help"], capsys)
    assert "default: kniffel" in flat(out)


def test_a_file_that_is_not_utf8_gets_a_one_line_error(tmp_path: Path) -> None:
    """A saved game or a review's file in another encoding (a stray Latin-1 byte) is refused in a line,
    not with a traceback."""
    broken = tmp_path / "game.json"
    broken.write_bytes(b'{"players": ["Ad\xe9"]}')
    for args in (["review", str(broken)], ["play", "--load", str(broken), "--plain"]):
        error = one_line_error(invoke(args, input=""))
        assert "the file is not UTF-8 text (byte 0xe9 at 16)" in error, args


# --- review -------------------------------------------------------------------------------------------


def wide_review() -> Review:
    decisions = [
        Decision(n, name, 3, (3, 4, 5, 6, 6), 0, "score 4:three_of_a_kind", 1000.5, "score 2:chance", 1123.25)
        for n, name in ((12, "Ada Lovelace"), (13, "Bot 2"))
    ]
    players = [PlayerSummary(name, 1234, 328, 250, 52, 123.45) for name in ("Ada Lovelace", "Bot 2")]
    return Review("kniffel-4col", {}, False, decisions, players)


def test_review_tables_fit_80_columns_without_losing_figures() -> None:
    console = Console(width=80, record=True, color_system=None)
    review = wide_review()
    console.print(summary_table(review))
    console.print(decisions_table(review, get_rules("kniffel-4col")))
    text = console.export_text()
    assert "…" not in text
    assert "Player" in text
    assert "Ada" in text
    assert "122.75" in text
    assert "123.45" in text
    assert "1234" in text
    rows = [line.split("│") for line in text.splitlines() if line.startswith("│")]
    chosen = " ".join(row[6].strip() for row in rows[-6:-3])  # the first decision's lines
    assert chosen == "score Three of a kind (4)", "an action as people read it, wrapped between words"
    assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_review_summary_of_four_is_whole_at_80_columns_with_units_and_says_what_they_mean(
    lang: str,
) -> None:
    """Four players, graded by points and by the chance of winning: every column whole at 80 columns (the
    German headings once pushed accuracy off the edge), a loss in points and one as a chance each with its
    unit, accuracy out of 100, and under the table what loss and accuracy mean."""
    from kniffel.apps.cli.reviewing import summary_note

    players = [
        PlayerSummary("Alexandra Schmidt", 231, 39, 30, 13, 6.94),
        PlayerSummary("Bot (heuristic) 2", 264, 38, 34, 13, 2.49),
        PlayerSummary("Maximilian", 199, 39, 39, 13, 0.0),
        PlayerSummary("Bot (win)", 92, 39, 38, 13, 0.012, "win", "probability"),
    ]
    console = Console(width=80, record=True, color_system=None)
    console.print(summary_table(Review("kniffel", {}, True, [], players), lang))
    console.print(summary_note(lang))
    text = console.export_text().replace("\N{NO-BREAK SPACE}", " ")
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text
    points, chance = ("6.94 pts", "1.2%") if lang == "en" else ("6,94 Pkt.", "1,2 %")
    assert points in text
    assert chance in text
    assert ("89.9/100" if lang == "en" else "89,9/100") in text
    explained = " ".join(text.split())
    assert (
        "Accuracy: 100 for perfect play, 82" if lang == "en" else "Genauigkeit: 100 bei perfektem Spiel, 82"
    ) in explained


def test_a_german_review_by_win_chance_fits_80_columns_and_says_how_ties_count() -> None:
    """The German header of the chance given away once pushed the table past 80 columns (cut off) and
    broke the other headers inside their words; chances of winning that add up to more than 100 % (a tie
    counts for everyone tied) come with a sentence saying so."""
    from kniffel.apps.cli.reviewing import chances_note

    decisions = [
        Decision(n, name, 1, (1, 2, 3, 4, 6), 2, "roll", 0.45, best, 0.46, "win", "probability")
        for n, name, best in ((2, "Anna", "roll keep 1"), (5, "Ben", "roll keep 1"))
    ]
    players = [PlayerSummary(name, 118, 39, 38, 13, 0.01, "win", "probability") for name in ("Anna", "Ben")]
    review = Review("kniffel", {}, True, decisions, players, [[0.504, 0.504], [0.494, 0.515]])
    console = Console(width=80, record=True, color_system=None)
    console.print(decisions_table(review, get_rules("kniffel"), lang="de"))
    text = console.export_text().replace("\N{NO-BREAK SPACE}", " ")
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "1,0 %" in text
    words = set(re.split(r"[\s┃│]+", text))
    for word in ("Spieler", "Gewählt", "Beste", "Verlust"):
        assert word in words, word  # whole, not broken inside the word
    assert chances_note(review, "de") == (
        "Ein Gleichstand zählt für jeden Beteiligten als Sieg: die Chancen können zusammen mehr als 100 % "
        "ergeben."
    )
    shares = Review("kniffel", {}, True, decisions, players, [[0.5, 0.5], [0.25, 0.75]])
    assert chances_note(shares, "de") is None


def test_no_decision_that_cost_points_is_a_sentence_not_an_empty_table() -> None:
    review = wide_review()
    perfect = Review(review.rules, {}, True, [], review.players)
    console = Console(width=80, record=True, color_system=None)
    console.print(decisions_table(perfect, get_rules("kniffel-4col")))
    assert console.export_text().strip() == "No decision cost points."


# --- simulate -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("games", ["1000000000000", "99999999999999999999"])
def test_huge_game_counts_get_one_line_naming_the_limit(games: str) -> None:
    error = one_line_error(invoke(["simulate", "--games", games]))
    assert "--games is at most 10,000,000" in error


@pytest.mark.parametrize(
    ("name", "error"),
    [("hist.jpg", "ends in one of .png, .svg, .pdf"), ("missing/hist.png", "does not exist")],
)
def test_a_plot_that_cannot_be_drawn_is_refused_before_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, error: str
) -> None:
    import kniffel.services.simulate as simulating

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the simulation ran")

    monkeypatch.setattr(simulating, "simulate", never)
    assert error in one_line_error(invoke(["simulate", "--plot", str(tmp_path / name)]))


def test_plotting_without_matplotlib_is_refused_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    error = one_line_error(
        invoke(["simulate", "-r", "yahtzee", "--strategy", "bot", "--plot", str(tmp_path / "h.png")])
    )
    # how to add it to the Python that runs kniffel (the README's .venv), not a bare "pip install"
    assert f"needs matplotlib (kniffel's [plot] extra): {sys.executable} -m pip install" in error


def test_simulate_reports_percentiles_and_writes_every_score(tmp_path: Path) -> None:
    scores = tmp_path / "scores.csv"
    args = ["simulate", "-r", "yahtzee", "--strategy", "bot", "-n", "20", "--seed", "2"]
    result = invoke([*args, "--json", "--scores", str(scores)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]
    assert data["percentiles"]["50"] == data["median"]
    rows = scores.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "game,score"
    assert len(rows) == 21
    assert min(int(row.split(",")[1]) for row in rows[1:]) == data["min"]
    table = invoke(args)
    assert "25%" in table.stdout
    assert "99%" in table.stdout


def test_the_percentiles_of_a_few_games_fit_80_columns_uncut() -> None:
    """Few games give percentiles with a decimal (176.5): eleven of them once lost their last figures
    ("259…") at 80 columns."""
    result = CliRunner().invoke(app, ["simulate", "-n", "10", "--seed", "0"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert re.search(r"\d{3}\.\d", result.stdout)


# --- serve --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "error"),
    [
        ("nonsense://x", "unknown kind of database 'nonsense'"),
        ("sqlite:////nonexistent/dir/k.sqlite3", "the folder /nonexistent/dir does not exist"),
        ("not a url at all", "is not a database URL"),
    ],
)
def test_serve_names_a_bad_database_in_one_line(
    monkeypatch: pytest.MonkeyPatch, url: str, error: str
) -> None:
    pytest.importorskip("sqlalchemy")
    import kniffel.apps.web

    monkeypatch.setattr(kniffel.apps.web, "serve", lambda *a, **k: pytest.fail("the server started"))
    assert error in one_line_error(invoke(["serve", "--database-url", url]))


def test_serve_names_an_unreachable_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    import kniffel.apps.web

    monkeypatch.setattr(kniffel.apps.web, "serve", lambda *a, **k: pytest.fail("the server started"))
    error = one_line_error(invoke(["serve", "--database-url", "postgresql+psycopg://u@127.0.0.1:1/k"]))
    assert "cannot connect" in error


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_progress_bar_says_what_compiles_and_stays_whole_at_80_columns(lang: str) -> None:
    """Before the first total the display says what compiles; after it, the count and the times. At 80
    columns nothing is cut: in one row, a long label squeezed the count to an ellipsis and the compile
    note to a column one letter wide."""
    from rich.console import Console

    from kniffel.apps.cli.solving import _Lines
    from kniffel.base.i18n import translate

    label = translate(
        lang, "Solving the chances of reaching {target} in {rules} (about {time}, in memory)",
        target=250, rules="yahtzee", time="3 s",
    )  # fmt: skip
    note = translate(lang, "compiling the target kernels, first use only (about {time})...", time="20 s")
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    progress = _Lines(translate(lang, "states"), note, console, lang)
    task = progress.add_task(label, total=None)
    console.print(progress.get_renderable())
    compiling = out.getvalue()
    progress.update(task, completed=123456, total=1234567)
    console.print(progress.get_renderable())
    solving = out.getvalue()[len(compiling) :]
    for shown in (compiling, solving):
        assert all(len(line) <= 80 for line in shown.splitlines())
        assert " ".join(label.split()) in " ".join(shown.split())
    assert " ".join(note.split()) in " ".join(compiling.split())
    assert note not in solving
    assert "…" not in solving
    count = {"en": "123,456/1,234,567 states", "de": "123.456/1.234.567 Zustände"}[lang]
    assert count in solving
    assert "0:00:00" in solving


def test_a_bar_whose_job_compiles_after_its_first_progress_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A job that reports its first progress and then compiles (the win tables' distributions) would
    stand at 0 % for half a minute: meanwhile the note says what happens, and afterwards it goes."""
    from rich.console import Console

    from kniffel.apps.cli.solving import _Lines
    from kniffel.core import Compiling

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    progress = _Lines("%", "compiling the solver, first run only...", console)
    progress.add_task("Solving the win tables of kniffel", total=100, completed=0)
    monkeypatch.setattr(core, "compiling", lambda: Compiling("chunk_outcomes", 0.0))
    console.print(progress.get_renderable())
    compiling = out.getvalue()
    monkeypatch.setattr(core, "compiling", lambda: None)
    console.print(progress.get_renderable())
    solving = out.getvalue()[len(compiling) :]
    assert "compiling the solver, first run only..." in compiling
    assert "0/100 %" in compiling
    assert "compiling" not in solving


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_bar_waiting_for_other_work_says_compiling_only_while_kernels_compile(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """A tournament's bar waits while the tables its players need are solved under bars of their own: it
    said "compiling the solver, first run only" all that time, though nothing compiled."""
    from rich.console import Console

    from kniffel.apps.cli.solving import _Lines
    from kniffel.base.i18n import translate
    from kniffel.core import Compiling

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    progress = _Lines("games", None, console, lang)
    progress.add_task("Tournament yahtzee", total=None)
    monkeypatch.setattr(core, "compiling", lambda: None)
    console.print(progress.get_renderable())
    waiting = out.getvalue()
    monkeypatch.setattr(core, "compiling", lambda: Compiling("play", 0.0))
    console.print(progress.get_renderable())
    compiling = out.getvalue()[len(waiting) :]
    first_run = translate(lang, "compiling the solver, first run only...")
    assert translate(lang, "preparing...") in waiting
    assert first_run not in waiting
    assert first_run in compiling


@pytest.mark.parametrize(
    ("content", "reason"), [("{", "not JSON"), ('{"format": 1}', "saved game lacks 'rules'")]
)
def test_a_damaged_save_is_named_by_review_and_play(tmp_path: Path, content: str, reason: str) -> None:
    saved = tmp_path / "evening.json"
    saved.write_text(content, encoding="utf-8")
    for args in (["review", str(saved)], ["play", "--load", str(saved)]):
        error = one_line_error(invoke(args))
        assert f"{saved}: not a saved game" in error
    assert reason in one_line_error(invoke(["review", str(saved)]))


def test_ctrl_c_inside_compiled_code_is_noted_and_quiet() -> None:
    """Ctrl-C while numba compiles lands in a C callback, where Python only prints "Exception ignored"
    with a traceback; the command line notes it and keeps it quiet, then ends with one line."""
    import subprocess
    import sys

    script = """
import ctypes, os, signal, time
from kniffel.apps.cli import interrupts
interrupts.catch()
def callback():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.2)  # the handler runs here, inside the callback
ctypes.CFUNCTYPE(None)(callback)()
print("seen" if interrupts.seen() else "missed")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "seen"
    assert done.stderr == "", done.stderr  # no "Exception ignored ... KeyboardInterrupt"
