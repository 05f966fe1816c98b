"""``--lang de`` (or a German locale): every word the command line shows is German, errors included.

The action grammar (``roll keep 3 3``, ``score chance``) and the situation text are the same in every
language (they are typed back at the prompt and into ``--situation``), so the transcript checks leave out
the lines that quote them.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from kniffel.apps.cli import app
from kniffel.base.i18n import error_text, sentence

ENGLISH_WORDS = (
    "Round",
    "Dice",
    "points",
    "Winner",
    "wins",
    "Total",
    "Upper",
    "Lower",
    "Best options",
    "Review",
    "Player",
    "Decisions",
    "Accuracy",
    "Loss",
    "error",
    "Bye",
    "type help",
    "Undone",
    "saved",
    "turn",
    "Final",
    "nothing",
    "cannot",
    "only",
    "already",
    "Box",
    "Sum",
    "Extra bonus",
    "Type the",
    "to play",
    "throw",
)
"""Words of the English interface that must not reach a German user."""


def invoke(args: list[str], input: str | None = None, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, args, input=input, env=env)


def shown_words(transcript: str) -> str:
    """The transcript without the lines that quote actions or situations (the shared grammar)."""
    kept = []
    for line in transcript.splitlines():
        # the position as 'kniffel advise --situation' reads it is quoted, in its own grammar
        quoted = line.startswith(
            ("Situation (für kniffel advise", "  score ", "  strike", "  announce")
        ) or re.match(r"^\s+\d+\. (roll|free|score|strike|announce)", line)
        if not quoted:
            # The prompt echoes what was typed: the player's name and the dice, then a command.
            kept.append(line.split("> ", 1)[0] if re.match(r"^\w+( \[[\d ]+\])?> ", line) else line)
    return "\n".join(kept)


def assert_german(transcript: str) -> None:
    text = shown_words(transcript)
    found = [word for word in ENGLISH_WORDS if re.search(rf"\b{re.escape(word)}\b", text)]
    assert not found, (found, text)


def test_a_german_game_shows_no_english(tmp_path: Any) -> None:
    script = (
        "help\nhint\nr\nkeep 7\nhint 2\no\nx zzz\ns Dreierpasch\nundo\ns Dreierpasch\nsheet\nreview\n"
        + "".join("r\ns chance\n" for _ in range(2))
        + "save\nfoo\nq\n"
    )
    path = tmp_path / "g.json"
    result = invoke(
        ["play", "--lang", "de", "-p", "Ada", "-p", "bot", "--seed", "5", "--save", str(path)], script
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Fehler: " in out
    assert "Runde 1 von 13" in out
    assert "Würfel" in out
    # The position above a hint is labelled in German; its text is the command's input, as it reads it.
    assert re.search(r"^Situation \(für kniffel advise --situation\): kniffel \| ", out, re.MULTILINE)
    assert "Situation:" not in out
    assert out.count("Situation (für") == 1  # above the one hint after a throw, not above the review
    # The bot's default name in German too (the saved game keeps it as made).
    assert "Bot (Heuristik): " in out
    assert "heuristic" not in out
    assert "Bot (heuristic)" in json.loads(path.read_text())["players"]
    assert_german(out)


def test_a_finished_german_game_and_its_review(tmp_path: Any) -> None:
    boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind"]
    boxes += ["full_house", "small_straight", "large_straight", "yahtzee", "chance"]
    script = "".join(f"r\nx {box}\n" for box in boxes) + "j\n"
    result = invoke(["play", "--lang", "de", "-r", "yahtzee", "-p", "Ada", "--seed", "2"], script)
    assert result.exit_code == 0, result.output
    assert "Sieg: Ada" in result.stdout
    assert "Auswertung" in result.stdout
    assert_german(result.stdout)


def test_a_german_locale_is_used_without_lang() -> None:
    result = invoke(["play", "-p", "Ada", "--seed", "1"], "r\nq\n", env={"LANG": "de_DE.UTF-8", "LC_ALL": ""})
    assert "Runde 1 von 13" in result.stdout
    assert "Tschüss." in result.stdout


TOURNAMENT_ENGLISH = (
    "Tournament",
    "Pairings",
    "player",
    "opponent",
    "rating",
    "games",
    "W/T/L",
    "win rate",
    "mean",
    "points",
    "deals",
    "seed",
    "pairing",
    "written",
    "won",
)
"""The English words of the tournament's tables, note and messages."""


def test_a_german_tournament_shows_german_headers(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "--lang", "de", "-r", "kniffel", "-p", "bot", "-p", "bot:heuristic"]
    result = invoke([*args, "--games", "2", "--seed", "1", "--csv", "t.csv"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "kniffel: Spiele 4 (jede Paarung, Würfelfolgen 2, Startwert 1)" in out
    for header in ("Paarungen", "Spieler", "Gegner", "Wertung", "S/U/N", "Siegquote", "Mittel", "Punkte"):
        assert header in out
    assert "Tabelle geschrieben nach t.csv" in out
    found = [word for word in TOURNAMENT_ENGLISH if re.search(rf"\b{re.escape(word)}\b", out, re.IGNORECASE)]
    assert not found, (found, out)
    assert_german(out)


def test_german_tournament_refusals_and_interruption(monkeypatch: pytest.MonkeyPatch) -> None:
    import kniffel.services.tournament

    lone = invoke(["tournament", "--lang", "de", "-p", "bot"])
    assert lone.exit_code == 2
    assert lone.stderr == "kniffel: Fehler: ein Turnier braucht mindestens 2 Spieler, nicht 1\n"

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(kniffel.services.tournament, "tournament", interrupted)
    stopped = invoke(["tournament", "--lang", "de", "-p", "bot", "-p", "bot", "-n", "3"])
    assert stopped.exit_code == 130
    assert stopped.stderr == "kniffel: unterbrochen nach 0 von 6 Spielen, angehalten\n"
    assert error_text("de", "cannot reach the Ray cluster at ray://x:1: refused") == (
        "der Ray-Cluster unter ray://x:1 ist nicht erreichbar: refused"
    )


def main_output(args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    from kniffel.apps.cli import main

    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit):
        main(args)
    captured = capsys.readouterr()
    return " ".join(re.sub(r"[│╭╮╰╯─]+", " ", captured.out + captured.err).split())


def test_help_in_german(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = main_output(["play", "--help", "--lang", "de"], capsys, monkeypatch)
    assert "Aufruf: kniffel play" in text
    assert "Optionen" in text
    assert "Ein Spiel im Terminal" in text
    assert "Diese Hilfe zeigen und beenden." in text
    assert "Show this message" not in text
    assert "Usage" not in text
    assert "Play a game" not in text
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert "Befehle" in main_output(["--help"], capsys, monkeypatch)
    # The English help is whole again afterwards: nothing of the German run stays behind.
    monkeypatch.setenv("LANG", "C")
    english = main_output(["play", "--help"], capsys, monkeypatch)
    assert "Usage: kniffel play" in english
    assert "Show this message and exit." in english


def test_every_help_text_has_a_german_translation() -> None:
    command = typer.main.get_command(app)
    missing = []

    def walk(cmd: Any) -> None:
        texts = [cmd.help, *(getattr(p, "help", None) for p in cmd.params)]
        for text in filter(None, texts):
            for paragraph in text.split("\n\n"):
                english = " ".join(paragraph.split())
                if sentence("de", english) == english:
                    missing.append(english)
        for sub in getattr(cmd, "commands", {}).values():
            walk(sub)

    walk(command)
    assert not missing


def test_german_errors_from_the_library_and_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = invoke(["score", "--lang", "de", "-r", "nosuch", "12345"])
    assert result.exit_code == 2
    assert result.stderr.startswith("kniffel: Fehler: unbekannter Regelsatz 'nosuch'; zur Wahl: ")
    game = invoke(["play", "--lang", "de", "-p", "Ada", "--seed", "1"], "keep 6\nr\nkeep 6\nq\n")
    assert "Fehler: vor dem ersten Wurf gibt es nichts zu behalten" in game.stdout
    assert "Fehler: nur liegende Würfel lassen sich behalten: " in game.stdout
    assert "Unbekannte Option: --bogus" in main_output(
        ["simulate", "--bogus", "--lang", "de"], capsys, monkeypatch
    )


def test_error_sentences_with_fields_translate_nested_reasons() -> None:
    text = "action 3 (score chance) is illegal: chance is already filled"
    assert error_text("de", text) == "Aktion 3 (score chance) ist nicht erlaubt: chance ist schon gefüllt"
    assert error_text("de", "something new") == "something new"
    assert error_text("en", text) == text


def test_the_default_rule_set_in_german() -> None:
    result = invoke(["rules", "kniffel", "--lang", "de"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for german in ("Quelle", "Spielblock", "Pflicht-Joker", "Summe der Einser", "Standard 50", "Englisch"):
        assert german in result.stdout
    for english in ("Source", "Sheet", "forced joker", "sum of", "Meaning", "Label"):
        assert english not in result.stdout


def test_lang_before_the_command_and_a_language_we_do_not_speak(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sqlalchemy")
    import kniffel.apps.web

    monkeypatch.setattr(kniffel.apps.web, "serve", lambda *a, **k: pytest.fail("the server started"))
    german = invoke(["--lang", "de", "serve", "--database-url", "nonsense://x"])
    assert german.exit_code == 2
    assert german.stderr == "kniffel: Fehler: nonsense://x: unbekannte Art von Datenbank 'nonsense'\n"
    french = invoke(["--lang", "fr", "rules"])
    assert french.exit_code == 2
    assert french.stderr == "kniffel: error: --lang is one of en, de, got 'fr'\n"
    # The next command, without --lang, is in the locale's language again.
    assert "Rule sets" in invoke(["rules"], env={"LANG": "C", "LC_ALL": ""}).stdout


def test_the_usage_line_and_placeholders_in_german(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = main_output(["--lang", "de"], capsys, monkeypatch)
    assert "Aufruf: kniffel [OPTIONEN] BEFEHL [ARGUMENTE]..." in text
    score = main_output(["score", "--help", "--lang", "de"], capsys, monkeypatch)
    assert "Aufruf: kniffel score [OPTIONEN] [WÜRFEL]..." in score
    assert "FELD=PUNKTE,..." in score


def test_a_review_names_default_bots_in_german(tmp_path: Any) -> None:
    from kniffel import bots
    from kniffel.rules import get as get_rules
    from kniffel.services.session import Session, Settings

    session = Session.new(get_rules("kniffel"), ["Ada", "bot"], Settings(seed=3))
    bots.play(session.game, [bots.make("bot", seed=1), bots.make("bot", seed=2)])
    path = tmp_path / "game.json"
    session.save(path)
    result = invoke(["review", str(path), "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "(Heuristik)" in result.stdout  # the table may fold the name after "Bot"
    assert "heuristic" not in result.stdout
    english = invoke(["review", str(path), "--lang", "en"])
    assert "(heuristic)" in english.stdout
