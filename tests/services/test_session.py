"""The session both front ends play through: saving and loading, the language, bad save files, bots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kniffel.base.errors import GameError, GameFormatError
from kniffel.base.files import atomic_write
from kniffel.rules import get as get_rules
from kniffel.services.players import parse_players
from kniffel.services.session import Session, Settings

pytestmark = pytest.mark.compiles_nothing


def saved_game(tmp_path: Path, **settings: object) -> Path:
    session = Session.new(get_rules("kniffel"), ["Ada", "bot"], Settings(seed=4, **settings))  # type: ignore[arg-type]
    session.apply(session.game.legal_actions()[0])
    path = tmp_path / "game.json"
    session.save(path)
    return path


def test_a_saved_game_keeps_its_language_unless_another_is_asked_for(tmp_path: Path) -> None:
    path = saved_game(tmp_path, lang="de")
    assert json.loads(path.read_text(encoding="utf-8"))["cli"]["lang"] == "de"
    assert Session.load(path, Settings()).settings.lang == "de"
    assert Session.load(path, Settings(lang="en", lang_given="en")).settings.lang == "en"


def test_a_dice_count_no_game_reaches_is_refused_at_once(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cli"]["drawn"] = 10**30
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GameFormatError, match=r"damaged dice record \(drawn 10+, at most 520\)"):
        Session.load(path, Settings())


def test_a_file_that_cannot_be_written_is_named_as_the_user_gave_it(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "game.json"
    with pytest.raises(FileNotFoundError) as caught:
        atomic_write(path, "{}")
    assert caught.value.filename == str(path)


def test_players_and_bots() -> None:
    assert [(p.name, p.bot) for p in parse_players(["Ada", "bot:optimal", "Bot"])] == [
        ("Ada", None),
        ("Bot (optimal)", "bot:optimal"),
        ("Bot (heuristic)", "bot"),
    ]
    with pytest.raises(GameError, match="name the players"):
        parse_players([])


def test_chances_that_add_up_past_100_get_the_tie_note() -> None:
    from kniffel.services.wording import needs_tie_note

    assert needs_tie_note([0.504, 0.504], 1)  # 50.4 % and 50.4 %: a tie counts for both
    assert not needs_tie_note([0.504, 0.504], 0)  # 50 % and 50 %
    assert needs_tie_note([0.36, 0.36, 0.31], 0)
    assert not needs_tie_note([0.25, 0.25, 0.5], 1)


def test_default_bot_names_are_shown_in_the_players_language(tmp_path: Path) -> None:
    """A game keeps its bots' names as made (English: a saved game's names are its data); front ends show
    a bot's default name in their language, a name of anyone's own as given."""
    from kniffel.services.players import shown_names

    specs = ["Ada", "bot", "bot:optimal", "bot:win", "bot:target:250", "bot"]
    session = Session.new(get_rules("kniffel"), specs, Settings(seed=1, lang="de"))
    assert session.game.players == (
        "Ada",
        "Bot (heuristic)",
        "Bot (optimal)",
        "Bot (win)",
        "Bot (target 250)",
        "Bot (heuristic) 2",
    )
    german = ["Ada", "Bot (Heuristik)", "Bot (optimal)", "Bot (auf Sieg)", "Bot (Ziel 250)"]
    german.append("Bot (Heuristik) 2")
    assert session.names() == german
    assert session.shown()["Bot (heuristic) 2"] == "Bot (Heuristik) 2"
    # A saved game holds the English names and shows them in the language it is resumed in.
    path = tmp_path / "game.json"
    session.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["players"] == list(session.game.players)
    assert Session.load(path, Settings()).names() == german
    assert Session.load(path, Settings(lang="en", lang_given="en")).names() == list(session.game.players)
    # Only a bot's default name is translated: a person called so keeps it, and a translation that would
    # read as another player's name is not used.
    assert shown_names(["Bot (heuristic)", "Ada"], {}, "de") == ["Bot (heuristic)", "Ada"]
    clash = ["Bot (Heuristik)", "Bot (heuristic)"]
    assert shown_names(clash, {1: "bot"}, "de") == clash


def test_a_live_bot_whose_table_is_missing_does_not_hold_up_the_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before play the session loads what its bots need; a live bot whose points table is still to be
    solved (a first use compiles for half a minute: 12.7 s before the first screen of a plain game here)
    leaves it to the worker and starts at once, playing as the quick bot until it is there."""
    import kniffel.bots as bots_module

    waited: list[object] = []

    class Solving:
        def wait(self, timeout: float | None = None) -> bool:
            waited.append(timeout)
            return False

    monkeypatch.setattr(bots_module, "advisor_job", lambda rules: Solving())
    monkeypatch.setattr(bots_module, "TABLE_PATIENCE", 0.01)
    monkeypatch.setattr(bots_module, "compiling", lambda: None)
    session = Session.new(get_rules("kniffel"), ["Ada", "bot:optimal"], Settings(seed=2))
    (bot,) = session.bots_to_prepare()
    prepared: list[object] = []
    monkeypatch.setattr(bot, "prepare", prepared.append)
    session.prepare(bot)
    assert waited == [0.01]
    assert prepared == []
    monkeypatch.setattr(bots_module, "advisor_job", lambda rules: None)  # the table there: loaded first
    session.prepare(bot)
    assert prepared == [session.game.rules]
