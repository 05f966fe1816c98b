"""A player's record (:mod:`kniffel.services.record`, ``kniffel stats``), and the command line's words for a
table: advice named as the game names actions, a bot given a name, the plain game's help at 80 columns, and
``cache prepare`` in percent, saying what an interrupted run kept."""

from __future__ import annotations

import io
import json
import re
import stat
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from kniffel import Game, SeededDice, core, rules
from kniffel.apps.cli import app
from kniffel.apps.cli.play import HELP, PAD_HELP, help_view
from kniffel.base.errors import KniffelError
from kniffel.base.i18n import translate
from kniffel.bots import make
from kniffel.services import record


def invoke(args: Sequence[str], stdin: str = "") -> Result:
    return CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": "80", "NO_COLOR": "1"})


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A record of its own for the test."""
    monkeypatch.setenv(record.DIRECTORY_ENV, str(tmp_path / "record"))
    monkeypatch.delenv(record.SWITCH_ENV, raising=False)
    return tmp_path / "record" / record.FILE


def bots_game(seed: int, players: Sequence[str] = ("Ada", "Bob"), rules_id: str = "kniffel") -> Game:
    """A finished game, played by the heuristic bot for everyone."""
    game = Game(rules.get(rules_id), list(players), dice=SeededDice(seed))
    bot = make("bot", seed=seed)
    while not game.is_over:
        game.apply(bot.choose(game))
    return game


# --- the record ----------------------------------------------------------------------------------


def test_a_finished_game_is_kept_once_for_each_human(kept: Path) -> None:
    game = bots_game(3)
    added = record.record_finished_game(game, [0])  # Bob is a bot here: no record for him
    assert [r.player for r in added] == ["Ada"]
    ada = added[0]
    assert (ada.score, ada.players, ada.rules) == (game.sheets[0].total, 2, "kniffel")
    assert ada.rank == (1 if game.sheets[0].total >= game.sheets[1].total else 2)
    assert ada.bonus == (1.0 if game.sheets[0].column_totals(game.rules.columns[0]).upper_bonus else 0.0)
    # reviewed at the end (the expected-score table): the loss of every choice the review graded
    assert ada.decisions is not None
    assert ada.decisions >= 13
    assert ada.loss is not None
    assert ada.loss >= 0
    assert record.record_finished_game(game, [0]) == []  # the same game again: kept once
    assert [r.player for r in record.load()] == ["Ada"]
    # private to its owner
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700


def test_kniffels_count_the_box_and_every_further_one() -> None:
    game = Game(rules.get("yahtzee"), ["Ada"], dice=SeededDice(1))
    game.sheets[0].entries.update({"yahtzee": 50})
    game.sheets[0].extra_bonus["1"] = 200
    assert record.kniffels_of(game, 0) == 3
    game.sheets[0].entries["yahtzee"] = 0  # struck: none in the box, the bonuses stay
    assert record.kniffels_of(game, 0) == 2


def test_summaries_per_player_and_rule_set(kept: Path) -> None:
    games = [bots_game(seed) for seed in (1, 2, 3)]
    for game in games:
        record.record_finished_game(game, [0, 1], review_now=False)
    yatzy = bots_game(4, ("Ada",), "yatzy")
    record.record_finished_game(yatzy, [0])
    found = {(s.player, s.ruleset): s for s in record.summaries(record.load())}
    assert set(found) == {("Ada", "kniffel"), ("Bob", "kniffel"), ("Ada", "yatzy")}
    ada = found["Ada", "kniffel"]
    scores = [g.sheets[0].total for g in games]
    assert (ada.games, ada.best) == (3, max(scores))
    assert ada.average == pytest.approx(sum(scores) / 3)
    assert ada.won == sum(g.sheets[0].total >= g.sheets[1].total for g in games)
    assert (ada.reviewed, ada.loss_per_choice) == (0, None)  # not reviewed: said so, not made up
    assert found["Ada", "yatzy"].reviewed == 1
    assert found["Ada", "yatzy"].won == 0  # a game alone is no win
    assert [s.player for s in record.summaries(record.load(), "Bob")] == ["Bob"]


def test_recording_off_and_clearing(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(record.SWITCH_ENV, "off")
    assert record.record_finished_game(bots_game(1), [0, 1]) == []
    assert not kept.exists()
    monkeypatch.delenv(record.SWITCH_ENV)
    record.record_finished_game(bots_game(1), [0, 1], review_now=False)
    assert record.clear("Bob") == 1
    assert [r.player for r in record.load()] == ["Ada"]
    assert record.clear() == 1
    assert not kept.exists()
    assert record.load() == []


def test_a_damaged_record_is_refused_not_overwritten(kept: Path) -> None:
    kept.parent.mkdir(parents=True)
    kept.write_text("{not json", encoding="utf-8")
    with pytest.raises(KniffelError, match="not a record of games"):
        record.record_finished_game(bots_game(1), [0])
    assert kept.read_text(encoding="utf-8") == "{not json"
    result = invoke(["stats"])
    assert result.exit_code == 2
    assert result.stderr.startswith("kniffel: error: ")
    assert "not a record of games" in result.stderr


# --- kniffel stats -------------------------------------------------------------------------------


def test_stats_prints_the_record_in_both_languages(kept: Path) -> None:
    assert "No finished games on this device yet" in invoke(["stats"]).stdout
    for seed in (1, 2):
        record.record_finished_game(bots_game(seed), [0, 1], review_now=seed == 2)
    shown = invoke(["stats"])
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "Your record on this device: Kniffel (Schmidt)" in shown.stdout
    assert "Kniffels" in shown.stdout
    ada = next(line.split() for line in lines if line.strip().startswith("Ada"))
    assert ada[0] == "Ada"
    assert ada[1] == "2"
    assert ada[-1] == "1/2"  # two games, one with a review
    german = invoke(["stats", "--lang", "de"])
    assert "Ihre Bilanz auf diesem Gerät: Kniffel (Schmidt)" in german.stdout
    assert "Ausgewertet" in german.stdout
    # the longer German headings leave the names their room (a name is never squeezed to nothing)
    assert all(len(line) <= 80 for line in german.stdout.splitlines())
    rows = [line.split() for line in german.stdout.splitlines() if line.strip()[:3] in ("Ada", "Bob")]
    assert [row[0] for row in rows] == ["Ada", "Bob"]
    assert rows[0][3] == f"{record.summaries(record.load(), 'Ada')[0].average:.1f}".replace(".", ",")
    data = json.loads(invoke(["stats", "--json", "--player", "Bob"]).stdout)
    assert [(s["player"], s["games"], s["reviewed"]) for s in data["summaries"]] == [("Bob", 2, 1)]
    assert data["path"] == str(kept)


@pytest.mark.parametrize(
    ("rules_id", "english", "german"),
    [
        ("yahtzee", "Yahtzee (Hasbro)", "Yahtzees"),
        ("yatzy", "Yatzy (Scandinavian)", "Yatzys"),
    ],
)
def test_the_record_speaks_each_rule_sets_words(kept: Path, rules_id: str, english: str, german: str) -> None:
    """A record of Yahtzee counts Yahtzees, one of Yatzy Yatzys, under the rule set's name, not its id."""
    record.record_finished_game(bots_game(1, rules_id=rules_id), [0, 1], review_now=False)
    shown = invoke(["stats"]).stdout
    assert f"Your record on this device: {english}" in shown
    assert german in shown  # the same word in either language
    assert "Kniffels" not in shown
    assert german in invoke(["stats", "--lang", "de"]).stdout


def test_stats_clear_and_plot(kept: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    record.record_finished_game(bots_game(1), [0, 1], review_now=False)
    plot = tmp_path / "record.png"
    drawn = invoke(["stats", "--plot", str(plot)])
    assert drawn.exit_code == 0, drawn.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert invoke(["stats", "--clear", "--player", "Bob"]).stdout.strip() == "Forgot 1 game."
    assert invoke(["stats", "--clear", "--lang", "de"]).stdout.strip() == "1 Spiel vergessen."
    assert "No finished games on this device yet" in invoke(["stats"]).stdout


def test_the_plain_game_keeps_the_humans_record(kept: Path) -> None:
    boxes = rules.get("kniffel").box_keys
    script = "".join(f"r\ns {box}\n" for box in boxes) + "n\n"
    played = invoke(["play", "--plain", "-p", "Ada", "-p", "Zoe=bot", "--seed", "3"], script)
    assert played.exit_code == 0, played.output
    assert "Added to your record on this device" in played.stdout
    (ada,) = record.load()
    assert ada.player == "Ada"
    assert ada.decisions is not None  # the bot has no record; reviewed
    assert datetime.fromisoformat(ada.finished) <= datetime.now(UTC)


# --- words for a table ---------------------------------------------------------------------------


def test_advice_names_actions_as_the_game_does() -> None:
    german = invoke(["--lang", "de", "advise", "3", "3", "3", "5", "5"])
    assert german.exit_code == 0, german.output
    assert "3 3 3 halten" in german.stdout
    assert "Full House eintragen" in german.stdout
    assert "roll keep" not in german.stdout
    assert "full_house" not in german.stdout
    # figures as German writes them: a decimal comma (254,27), never 254.27
    assert re.search(r"│ +\d+,\d\d │ +0,00 │", german.stdout), german.stdout
    assert not re.search(r"\d\.\d\d │", german.stdout)
    english = invoke(["advise", "3", "3", "3", "5", "5"])
    assert "keep 3 3 3" in english.stdout
    assert re.search(r"│ +\d+\.\d\d │ +0\.00 │", english.stdout), english.stdout
    assert "score Full house" in english.stdout
    machine = json.loads(invoke(["advise", "3", "3", "3", "5", "5", "--json"]).stdout)
    assert machine["options"][0]["action"] == "roll keep 3 3 3"  # JSON keeps the text form


def test_a_bot_can_be_named_and_the_saved_game_keeps_the_name(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    played = invoke(["play", "-p", "Zoe=bot:optimal", "-p", "Max=bot", "--seed", "2", "--save", str(saved)])
    assert played.exit_code == 0, played.output
    assert "Zoe" in played.stdout
    assert "Bot (optimal)" not in played.stdout
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["players"] == ["Zoe", "Max"]
    assert data["cli"]["bots"] == {"Zoe": "bot:optimal", "Max": "bot"}
    refused = invoke(["play", "-p", "Zoe=bot:nonsense"])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("kniffel: error: ")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("text", [HELP, PAD_HELP], ids=["help", "pad"])
def test_the_plain_games_help_fits_80_columns(text: str, lang: str) -> None:
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(help_view(translate(lang, text)))
    shown = console.export_text()
    assert all(len(line) <= 80 for line in shown.splitlines())
    words = " ".join(shown.split())
    assert " ".join(translate(lang, text).split()).replace(" ", "") == words.replace(" ", "")


def test_cache_prepare_counts_in_percent_and_says_what_an_interruption_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kniffel.apps.cli import caching
    from kniffel.core import table_key
    from kniffel.planning.winning import WinTables

    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    seen: list[tuple[int, int]] = []
    caching._in_percent(lambda done, total: seen.append((done, total)))(500, 1000)
    assert seen == [(50, 100)]

    finished = tmp_path / f"kniffel.{table_key(rules.get('kniffel'))}.dist-early.npy"

    def interrupted(self: WinTables, progress: object = None, cancel: object = None) -> bool:
        finished.write_bytes(b"\0" * 4000)  # the first of the two tables was written whole
        raise KeyboardInterrupt

    monkeypatch.setattr(WinTables, "early_ready", lambda self: False)
    monkeypatch.setattr(WinTables, "early_work", lambda self: _Work())
    monkeypatch.setattr(WinTables, "solve_early", interrupted)

    monkeypatch.setattr(core, "warm_up_needed", lambda: False)
    result = invoke(["cache", "prepare", "--rules", "kniffel"])
    assert result.exit_code == 130
    assert "Interrupted: kept win: final scores (4\xa0kB)" in re.sub(r"[ \n]+", " ", result.stderr)
    assert "compiled" not in result.stderr
    finished.unlink()
    # on a first use the estimate is the solve's, and the compile comes first: said before it starts
    monkeypatch.setattr(core, "warm_up_needed", lambda: True)
    result = invoke(["cache", "prepare", "--rules", "kniffel"])
    assert "First the solver is compiled, only on this first use." in re.sub(r"[ \n]+", " ", result.stderr)
    finished.unlink()

    def nothing(self: WinTables, progress: object = None, cancel: object = None) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(WinTables, "solve_early", nothing)
    result = invoke(["cache", "prepare", "--rules", "kniffel", "--lang", "de"])
    assert result.exit_code == 130
    said = re.sub(r"[ \n]+", " ", result.stderr)
    assert "Unterbrochen: keine Tabelle wurde fertig" in said
    assert "Zuerst wird der Löser vorbereitet, nur beim ersten Mal." in said


class _Work:
    template = "Solving the win tables of {rules} (once; kept on disk)"
    fields = (("rules", "kniffel"),)
    seconds = 60.0
    bytes = 10**8


def test_sizes_and_ages_keep_their_unit_on_the_line() -> None:
    from kniffel.apps.cli.caching import age_text, size_text

    assert size_text(8_400_000, "de") == "8,4\xa0MB"
    assert age_text(3 * 86400, "de") == "3\xa0Tage"
    assert age_text(86400 * 2.4, "en") == "2\xa0days"
    assert age_text(90, "en") == "2\xa0min"
