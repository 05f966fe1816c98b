"""``kniffel play``: unattended bot games, humans typing on stdin, undo, save and resume, the score pad."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from kniffel import Game, Roll, Score, SeededDice, Strike, rules
from kniffel.apps.cli import app
from kniffel.base.errors import GameFormatError, IllegalActionError

KNIFFEL_BOXES = rules.get("kniffel").box_keys


def play(args: Sequence[str], stdin: str = "") -> Result:
    return CliRunner().invoke(app, ["play", *args], input=stdin)


def solo_script(boxes: Sequence[str] = KNIFFEL_BOXES) -> str:
    """A human who rolls once and fills the boxes top to bottom (always legal on a Kniffel sheet when
    nothing is struck: the joker only binds once the Kniffel box is filled, and then only chance is
    left)."""
    return "".join(f"r\ns {box}\n" for box in boxes)


def assert_consistent(player: dict[str, Any], rules_id: str) -> None:
    ruleset = rules.get(rules_id)
    sheet = player["sheet"]
    assert list(sheet) == list(ruleset.box_keys)
    upper = [k for k in ruleset.box_keys if ruleset.locate(k)[1] in ruleset.upper_boxes]
    assert player["upper_sum"] == sum(sheet[k] for k in upper)
    assert player["lower_sum"] == sum(sheet.values()) - player["upper_sum"]
    parts = ("upper_sum", "upper_bonus", "lower_sum", "extra_bonus", "free_throws")
    assert player["total"] == sum(player[p] for p in parts)


# --- bots alone ------------------------------------------------------------------------------------


def test_all_bot_game_is_reproducible_and_its_totals_add_up() -> None:
    args = ["--rules", "kniffel", "-p", "bot", "-p", "bot:heuristic", "--seed", "5", "--json"]
    first, second = play(args), play(args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    assert first.stderr == ""
    data = json.loads(first.stdout)
    assert [p["name"] for p in data["players"]] == ["Bot (heuristic)", "Bot (heuristic) 2"]
    for player in data["players"]:
        assert_consistent(player, "kniffel")
    best = max(p["total"] for p in data["players"])
    assert data["winners"] == [p["name"] for p in data["players"] if p["total"] == best]
    assert (data["rules"], data["options"], data["seed"]) == ("kniffel", {}, 5)
    assert data["actions"] >= 2 * 13 * 2
    other = json.loads(play([*args[:-2], "6", "--json"]).stdout)
    assert other["players"] != data["players"]


def test_bot_game_with_free_throws_and_options() -> None:
    result = play(["-r", "knoeffel", "-o", "sharp=on", "-p", "bot", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["options"] == {"sharp": "on"}
    assert_consistent(data["players"][0], "knoeffel")


def test_all_bot_game_without_json_prints_the_turns_and_the_ranking() -> None:
    result = play(["-p", "bot", "-p", "bot", "--seed", "5"])
    assert result.exit_code == 0
    assert result.stdout.count("Bot (heuristic): roll ") == 13
    assert "Final score" in result.stdout
    assert re.search(r"^1\. Bot \(heuristic\)( 2)?  \d+$", result.stdout, re.MULTILINE)
    assert re.search(r"(Winner: .+, with \d+ points|Tie: )", result.stdout)


def test_entry_points_run_the_same_game() -> None:
    args = ["play", "-p", "bot", "--seed", "3", "--json"]
    in_process = CliRunner().invoke(app, args).stdout
    module = subprocess.run(
        [sys.executable, "-m", "kniffel", *args], capture_output=True, text=True, check=True, timeout=60
    )
    assert module.stdout == in_process
    script = shutil.which("kniffel", path=str(Path(sys.executable).parent))
    assert script is not None, "the kniffel console script is not installed"
    rules_list = subprocess.run([script, "rules", "--json"], capture_output=True, text=True, timeout=60)
    assert rules_list.returncode == 0
    assert len(json.loads(rules_list.stdout)) == len(rules.available())


# --- a human on stdin ------------------------------------------------------------------------------


def test_solo_game_through_stdin_scores_what_the_library_scores() -> None:
    result = play(["-p", "Ada", "--seed", "1"], solo_script())
    assert result.exit_code == 0, result.output
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
    for box in KNIFFEL_BOXES:
        game.roll()
        game.score(box)
    assert f"Winner: Ada, with {game.sheets[0].total} points." in result.stdout
    assert "Final score" in result.stdout
    assert "error" not in result.stdout


def test_human_against_bot_with_json_keeps_stdout_for_the_result() -> None:
    script = "".join(f"r\nr\nr\ns {box}\n" for box in KNIFFEL_BOXES)
    result = play(["-p", "Ada", "-p", "bot", "--seed", "2", "--json"], script)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # nothing else on stdout
    assert [p["name"] for p in data["players"]] == ["Ada", "Bot (heuristic)"]
    for player in data["players"]:
        assert_consistent(player, "kniffel")
    assert "Ada [" in result.stderr  # the game itself went to stderr
    assert "error" not in result.stderr


def test_bad_commands_get_one_line_errors_and_the_game_goes_on() -> None:
    script = "\n".join(
        [
            "s chance",  # before rolling
            "dance",
            "r",
            "k 7",
            "k 1 1 1 1 1 1",
            "roll 1 2 3 4 5",  # typing dice is for the score pad
            "s xyz",
            "s ones",
            "r",
            "s ones",
            "x ones",
            "options",
            "",
        ]
    )
    result = play(["-p", "Ada", "--seed", "4"], script)
    assert result.exit_code == 0
    errors = [line for line in result.stdout.splitlines() if line.startswith("error: ")]
    assert errors == [
        "error: roll the dice first",
        "error: unknown command 'dance'; type help for the list",
        "error: a die shows 1 to 6, got 7",
        errors[3],
        "error: the program rolls the dice; to keep some, type keep 3 3 (or play with --pad)",
        errors[5],
        "error: ones is already filled",
        "error: ones is already filled",
    ]
    assert errors[3].startswith("error: can only keep dice that are showing")
    assert errors[5].startswith("error: no box 'xyz' in kniffel")
    assert "score Chance" in result.stdout  # the options listing
    assert "End of input." in result.stdout


def test_help_lists_the_commands() -> None:
    result = play(["-p", "Ada", "--pad"], "help\n")
    for command in ("roll", "keep 3 3 5", "score BOX", "strike BOX", "announce BOX", "free", "undo", "save"):
        assert command in result.stdout
    assert "Score pad" in result.stdout


def test_german_labels_and_box_names() -> None:
    result = play(["-p", "Ada", "--lang", "de", "--seed", "1"], "r\ns Dreierpasch\n")
    assert "Summe oben" in result.stdout
    assert "Gesamtsumme" in result.stdout
    assert re.search(r"^Ada: trägt \d+ in Dreierpasch ein\.$", result.stdout, re.MULTILINE)


# --- undo ------------------------------------------------------------------------------------------


def saved(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_undo_takes_back_a_decision_and_replays_the_bots_dice(tmp_path: Path) -> None:
    args = ["-p", "Ada", "-p", "bot", "--seed", "8"]
    plain, undone = tmp_path / "plain.json", tmp_path / "undone.json"
    play([*args, "--save", str(plain)], "r\ns ones\nr\n")
    result = play([*args, "--save", str(undone)], "r\ns chance\nundo\ns ones\nr\n")
    assert "Undone for Ada: score chance." in result.stdout
    # The bot's turn, taken back with Ada's decision, comes again with the same dice.
    assert saved(undone)["actions"] == saved(plain)["actions"]
    # What Ada took back stays on record (the bot's turn, played again as it was, does not).
    taken = [{"at": 1, "player": 0, "action": {"action": "score", "box": "chance"}}]
    assert saved(undone)["taken_back"] == taken
    game = Game.loads(undone.read_text(encoding="utf-8"))
    assert "chance" not in game.sheets[0].entries
    assert "ones" in game.sheets[0].entries


def test_undo_refuses_to_throw_the_dice_again(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(["-p", "Ada", "--seed", "8", "--save", str(path)], "undo\nr\nundo\nr\nundo\n")
    assert "error: nothing to undo" in result.stdout
    assert result.stdout.count("error: dice can't be re-rolled") == 2
    assert [a["action"] for a in saved(path)["actions"]] == ["roll", "roll"]


# --- save and resume -------------------------------------------------------------------------------


def test_save_and_resume_give_the_game_an_uninterrupted_run_gives(tmp_path: Path) -> None:
    args = ["-p", "Ada", "-p", "bot", "--seed", "9"]
    script = solo_script()
    whole = play([*args, "--json"], script)
    assert whole.exit_code == 0, whole.output
    path = tmp_path / "game.json"
    lines = script.splitlines(keepends=True)
    first = play([*args, "--save", str(path)], "".join(lines[:9]) + "quit\n")
    assert first.exit_code == 0
    assert f"Game saved to {path}; resume with: kniffel play --load {path}" in first.stdout
    halfway = Game.loads(path.read_text(encoding="utf-8"))
    assert len(halfway.sheets[0].entries) == 4
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic writes left no temporary files
    second = play(["--load", str(path), "--json"], "".join(lines[9:]))
    assert second.exit_code == 0, second.output
    assert second.stdout == whole.stdout
    assert Game.loads(path.read_text(encoding="utf-8")).is_over  # --load keeps saving to the file


def test_end_of_input_saves_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(["-p", "Ada", "--seed", "1", "--save", str(path)], "r\ns chance\nr\n")
    assert result.exit_code == 0
    assert "End of input. Game saved to" in result.stdout
    game = Game.loads(path.read_text(encoding="utf-8"))
    assert len(game.log) == 3
    assert game.turn.dice is not None


def test_save_command_writes_a_game_that_loads(tmp_path: Path) -> None:
    path = tmp_path / "later.json"
    result = play(["-p", "Ada", "-p", "Bob", "--seed", "1"], f"r\ns ch\nsave {path}\nq\n")
    assert f"Saved to {path}" in result.stdout
    assert f"Bye. The game is saved in {path}." in result.stdout
    assert Game.loads(path.read_text(encoding="utf-8")).players == ("Ada", "Bob")


def test_quitting_an_unsaved_game_asks_first(tmp_path: Path) -> None:
    question = "The game is not saved and would be lost: quit anyway (y/N)?"
    result = play(["-p", "Ada", "--seed", "1"], "r\nq\nn\ns ch\nquit\ny\n")
    assert result.stdout.count(question) == 2
    assert "Playing on; save FILE keeps the game." in result.stdout
    assert "Ada: scores" in result.stdout, "the game went on after the no"
    assert "Bye. The game was not saved" in result.stdout
    german = play(["-p", "Ada", "--seed", "1", "--lang", "de"], "r\nq\nj\n")
    assert "Das Spiel ist nicht gespeichert und ginge verloren: trotzdem aufhören (j/N)?" in german.stdout
    assert "Würfel" in german.stdout.split("trotzdem aufhören")[0]
    assert "Es geht weiter" not in german.stdout
    saved = play(["-p", "Ada", "--seed", "1", "--save", str(tmp_path / "game.json")], "r\nq\n")
    assert question not in saved.stdout, "a game kept by --save is left at once"
    assert "Bye. Game saved to" in saved.stdout


# --- rule sets with announcements and free throws --------------------------------------------------


def test_announcing_a_box(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    script = "r\na 1:ones\na 3:kniff\ns 1:ones\nx 3:kn\n"
    result = play(["-r", "kniffel-3col", "-p", "Ada", "--seed", "2", "--save", str(path)], script)
    assert "error: 1:ones is not in an announced column" in result.stdout
    assert "Ada: Kniffel (3) announced." in result.stdout
    assert "error: 3:kniffel is announced: score it or strike a box" in result.stdout
    assert "Ada: Kniffel (3) struck." in result.stdout
    assert Game.loads(path.read_text(encoding="utf-8")).sheets[0].entries == {"3:kniffel": 0}


def test_free_throw(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(
        ["-r", "knoeffel", "-p", "Ada", "--seed", "2", "--save", str(path)], "r\nf\nr\nr\nf\ns 2:ch\n"
    )
    assert "error: a free throw comes after the regular rolls" in result.stdout
    game = Game.loads(path.read_text(encoding="utf-8"))
    assert game.sheets[0].free_throws_used == {"2": 1}
    assert game.sheets[0].column_totals(game.rules.columns[1]).free_throws == 10


# --- score pad -------------------------------------------------------------------------------------

PAD_GAME = [  # the dice typed for each box, and what they score there
    ("ones", "1 1 1 2 3", 3),
    ("twos", "22211", 6),
    ("threes", "3,3,3,1,1", 9),
    ("fours", "4 4 4 1 1", 12),
    ("fives", "5 5 5 1 1", 15),
    ("sixes", "6 6 6 1 1", 18),
    ("three_of_a_kind", "6 6 6 5 5", 28),
    ("four_of_a_kind", "6 6 6 6 5", 29),
    ("full_house", "2 2 3 3 3", 25),
    ("small_straight", "1 2 3 4 6", 30),
    ("large_straight", "2 3 4 5 6", 40),
    ("kniffel", "4 4 4 4 4", 50),
    ("chance", "6 6 6 6 5", 29),
]


def test_score_pad_game_with_typed_dice() -> None:
    script = "".join(f"roll {dice}\ns {box}\n" for box, dice, _ in PAD_GAME)
    result = play(["-p", "Ada", "--pad", "--json"], script)
    assert result.exit_code == 0, result.output
    (player,) = json.loads(result.stdout)["players"]
    assert player["sheet"] == {box: points for box, _, points in PAD_GAME}
    assert (player["upper_sum"], player["upper_bonus"], player["total"]) == (63, 35, 329)


def test_score_pad_asks_for_the_dice_thrown_after_keeping(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    script = "\n".join(
        [
            "roll 1 2 3",
            "roll 1 2 3 4 9",
            "roll 6 6 2 3 1",
            "keep 6 6",
            "6 6",
            "x 6 6",
            "6 6 6",
            "undo",
            "keep 6 6",
            "6 5 4",
            "",
        ]
    )
    result = play(["-p", "Ada", "-p", "bot", "--pad", "--seed", "1", "--save", str(path)], script)
    errors = [line for line in result.stdout.splitlines() if line.startswith("error: ")]
    assert errors == [
        "error: expected 5 dice, got 3",
        "error: a die shows 1 to 6, got 9",
        "error: expected 3 dice, got 2",
        "error: dice are numbers 1 to 6, got 'x'",
    ]
    # A mistyped throw can be taken back on a score pad, and typed again.
    assert "Undone for Ada: roll keep 6 6 = 6 6 6 6 6." in result.stdout
    actions = saved(path)["actions"]
    assert actions == [
        {"action": "roll", "keep": [], "dice": [1, 2, 3, 6, 6]},
        {"action": "roll", "keep": [6, 6], "dice": [4, 5, 6, 6, 6]},
    ]
    assert saved(path)["cli"]["pad"] is True


# --- a real terminal -------------------------------------------------------------------------------


def test_human_against_bot_through_a_terminal(tmp_path: Path) -> None:
    """Play a whole game in a pty, reacting to the dice shown: keep the most frequent face once, then
    take the best-paying option the game lists."""
    pexpect = pytest.importorskip("pexpect")
    script = shutil.which("kniffel", path=str(Path(sys.executable).parent))
    assert script is not None
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    child = pexpect.spawn(
        script,
        ["play", "--plain", "-p", "Ada", "-p", "bot", "--seed", "12"],
        env=env,
        encoding="utf-8",
        timeout=30,
    )
    child.delaybeforesend = None
    prompt = re.compile(r"Ada(?: \[([1-6 ]+)\])?> ")
    ansi = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
    turns = keeps = 0
    while True:
        if child.expect([prompt, r"Winner: .+, with \d+ points|Tie: "]) == 1:
            break
        dice = child.match.group(1)
        if dice is None:
            child.sendline("r")
            turns += 1
            continue
        faces = dice.split()
        child.sendline("options")
        child.expect(prompt)
        listing = ansi.sub("", child.before)
        choices = re.findall(r"score (.+?)\s{2,}(\d+)", listing)
        if "2 rolls left" in listing or len(choices) == 0:
            best = max(set(faces), key=lambda f: (faces.count(f), f))
            kept = " ".join([best] * min(faces.count(best), 4))
            child.sendline(f"keep {kept}")
            keeps += 1
        else:
            child.sendline(f"s {choices[0][0]}")
    child.expect(r"Review the game \(y/N\)\? ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert turns == 13
    assert keeps >= 13


def test_score_pad_extra_yahtzee_and_the_forced_joker() -> None:
    script = "roll 66666\ns yahtzee\nroll 66666\ns chance\ns sixes\n"
    result = play(["-r", "yahtzee", "-p", "Ada", "--pad"], script)
    assert "Ada: scores 50 in Yahtzee." in result.stdout
    assert "error: the joker rule sends these dice elsewhere: sixes" in result.stdout
    assert "Ada: scores 30 in Sixes.\nExtra bonus: +100!" in result.stdout


# --- the action grammar at the prompt --------------------------------------------------------------

GRAMMAR_RULE_SETS = ["kniffel", "yahtzee", "knoeffel", "kniffel-4col", "yatzy-deluxe", "yams"]


@pytest.mark.parametrize("rules_id", GRAMMAR_RULE_SETS)
def test_the_prompt_reads_every_legal_action_as_str_writes_it(rules_id: str) -> None:
    """In many positions of a randomly played game, every legal action's text form names that action,
    and so does what hints and reviews show in every language (the prompt reads them all)."""
    game = Game(rules.get(rules_id), ["Ada", "Bob"], dice=SeededDice(7))
    choose = random.Random(rules_id)
    positions = 0
    while not game.is_over and positions < 60:
        for action in game.legal_actions():
            for text in (str(action), game.action_text(action, "en"), game.action_text(action, "de")):
                assert game.parse_action(text) == action, text
        positions += 1
        game.apply(choose.choice(game.legal_actions()))


@pytest.mark.parametrize("rules_id", ["yahtzee", "knoeffel", "kniffel-4col"])
def test_typing_the_actions_verbatim_plays_the_same_game(rules_id: str, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = Game(rules.get(rules_id), ["Ada"], dice=SeededDice(3))  # the dice the command line draws
    choose = random.Random(5)
    typed = []
    while len(game.log) < 40:
        action = choose.choice(game.legal_actions())
        typed.append(str(action))
        game.apply(action)
    result = play(["-r", rules_id, "-p", "Ada", "--seed", "3", "--save", str(path)], "\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "error" not in result.stdout
    assert saved(path)["actions"] == [a.to_json() for a in game.log]


def test_short_forms_and_the_score_pad_grammar() -> None:
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
    game.apply(Roll(dice=(1, 3, 3, 5, 6)))
    assert game.parse_action("k 3 3") == Roll(keep=(3, 3))
    assert game.parse_action("keep 33") == Roll(keep=(3, 3))
    assert game.parse_action("roll keep") == Roll()
    assert game.parse_action("r") == Roll()
    assert game.parse_action("s ch") == Score("chance")
    assert game.parse_action("x Einser") == Strike("ones")
    assert game.parse_action("roll keep 3 3 = 1 3 3 4 6") == Roll(keep=(3, 3), dice=(1, 3, 3, 4, 6))
    assert game.parse_action("roll = 6 5 4 3 2") == Roll(dice=(2, 3, 4, 5, 6))
    assert game.parse_action("roll 6 5 4 3 2") == Roll(dice=(2, 3, 4, 5, 6))
    with pytest.raises(GameFormatError, match="after '=' come the dice"):
        game.parse_action("roll keep 3 =")
    with pytest.raises(IllegalActionError, match="expected 5 dice, got 4"):
        game.apply("roll = 1 2 3 4")
    typed = play(["-p", "Ada", "--seed", "1"], "r\nroll keep 3 3 = 1 3 3 4 6\n")
    assert "error: the program rolls the dice; to keep some, type keep 3 3" in typed.stdout


def test_score_pad_takes_a_throw_written_as_an_action(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    script = "roll = 1 3 3 5 6\nroll keep 3 3 = 1 3 3 4 6\nroll keep 3 3 = 2 2 4 4 6\ns chance\n"
    result = play(["-p", "Ada", "--pad", "--save", str(path)], script)
    assert result.exit_code == 0, result.output
    errors = [line for line in result.stdout.splitlines() if line.startswith("error: ")]
    assert errors == ["error: the rolled dice must include the kept ones"]
    assert saved(path)["actions"] == [
        {"action": "roll", "keep": [], "dice": [1, 3, 3, 5, 6]},
        {"action": "roll", "keep": [3, 3], "dice": [1, 3, 3, 4, 6]},
        {"action": "score", "box": "chance"},
    ]


def test_the_upper_bonus_is_announced_when_earned() -> None:
    script = "".join(f"roll {dice}\ns {box}\n" for box, dice, _ in PAD_GAME[:6])
    result = play(["-p", "Ada", "--pad"], script)
    assert "Ada: scores 18 in Sixes.\nUpper bonus: +35!" in result.stdout
    assert result.stdout.count("Upper bonus") == 1


def test_a_first_hint_shows_the_quick_order_while_the_table_is_solved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a first use the points table is solved (its kernels compile, half a minute) before the exact
    hint: the quick bot's order comes first, said to be that, in the game's language."""
    import kniffel.apps.cli.play as plain
    from kniffel.planning import quick_choices

    monkeypatch.setattr(plain, "points_table_pending", lambda rules: True)
    game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
    game.roll()
    quick = [game.action_text(c.action, "de") for c in quick_choices(game)]
    result = play(["-r", "kniffel", "-p", "Ada", "--seed", "1", "--lang", "de"], "r\nhint 3\n")
    assert result.exit_code == 0, result.output
    said = result.stdout
    order = "So ordnet der schnelle Bot die Möglichkeiten, die beste zuerst, bis die genauen Werte "
    order += "berechnet sind."
    assert order in said
    listed = said.split(order)[1].split("\n")[1:4]
    assert [line.strip() for line in listed] == quick[:3]
    assert said.index(order) < said.index("Beste Möglichkeiten")


@pytest.mark.usefixtures("solver_cache")
def test_a_hint_can_be_typed_back_verbatim() -> None:
    """``printf 'r\\nhint\\nroll\\n' | kniffel play -r yahtzee -p You --seed 1``, and the best hint typed
    as printed."""
    from kniffel.planning import planner_for

    game = Game(rules.get("yahtzee"), ["You"], dice=SeededDice(1))
    game.roll()
    best = planner_for(game.rules).choices(game)[0].action
    for typed in ("roll", str(best)):
        result = play(["-r", "yahtzee", "-p", "You", "--seed", "1"], f"r\nhint\n{typed}\n")
        assert result.exit_code == 0, result.output
        assert "error" not in result.stdout
        # the position above the hint, labelled, as 'kniffel advise --situation' reads it
        assert f"Situation (for kniffel advise --situation): {game.situation()}\n" in result.stdout
        assert "Best options" in result.stdout
        # Prompts with dice: before the hint, after it, and after the typed action was taken.
        assert result.stdout.count("You [") == 3


@pytest.mark.usefixtures("solver_cache")
def test_the_chances_of_winning_share_a_tie_unless_it_wins_for_all() -> None:
    """``chances`` at the start of a game of strict Kniffel: a tie among two is half a win, so the
    chances shown add up to 100 %; where the table's house rule makes a tie a win for all they add up to
    more (the chance of a tie), and a sentence says why."""
    from kniffel.planning.winning import prepare_tables
    from kniffel.services.wording import TIE_NOTE

    shown: dict[str, float] = {}
    for house in ("off", "on"):
        prepare_tables(rules.get("kniffel", {"strict": "on", "tie_wins_all": house}))
        args = ["-r", "kniffel", "-o", "strict=on", "-o", f"tie_wins_all={house}", "-p", "Ada", "-p", "Bob"]
        result = play([*args, "--seed", "3"], "chances\nquit\n")
        assert result.exit_code == 0, result.output
        percents = re.findall(r"^\s+(?:Ada|Bob)\s+([\d.]+)%$", result.stdout, flags=re.MULTILINE)
        assert len(percents) == 2, result.stdout
        shown[house] = sum(float(p) for p in percents)
        assert (TIE_NOTE in result.stdout) == (house == "on")
    assert shown["off"] == pytest.approx(100.0, abs=0.1)
    assert shown["on"] > 100.4
