"""Rule-set declarations as JSON: every rule set round-trips, bad declarations say what is wrong, and a
saved game carries the rules it was played by (a rule set of one's own included)."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest

from kniffel import Game, GameFormatError, RulesError, RuleSet, SeededDice, rules
from kniffel.engine.actions import Roll
from kniffel.rules import Box, Section
from kniffel.rules.scoring import SCORERS, scorer_from_json, scorer_to_json

EVERY_VARIANT = [
    (rules_id, {option.key: value})
    for rules_id in rules.available()
    for option in rules.options_for(rules_id)
    for value in option.values
] + [(rules_id, {}) for rules_id in rules.available()]


@pytest.mark.parametrize(("rules_id", "options"), EVERY_VARIANT)
def test_every_rule_set_round_trips(rules_id: str, options: dict[str, str]) -> None:
    rs = rules.get(rules_id, options)
    text = json.dumps(rs.to_json())
    again = RuleSet.from_json(json.loads(text))
    assert again == rs
    assert again.options == rs.options
    assert (again.score_table == rs.score_table).all()
    assert again.to_json() == rs.to_json()


def test_the_declaration_names_every_field() -> None:
    data = rules.get("knoeffel").to_json()
    assert list(data) == [f.name for f in dataclasses.fields(RuleSet)]
    assert data["columns"] == [{"id": "1", "order": "free"}, {"id": "2", "order": "free"}]
    assert data["boxes"][9] == {
        "id": "small_straight",
        "section": "lower",
        "score": {"kind": "run", "length": 4, "points": 30},
        "label_en": "Small straight",
        "label_de": "Kleine Straße",
        "joker_points": 30,
        "figure": True,
    }


def test_every_scorer_kind_round_trips() -> None:
    seen = {scorer_to_json(box.score)["kind"] for rid in rules.available() for box in rules.get(rid).boxes}
    assert seen == set(SCORERS)
    for rules_id in rules.available():
        for box in rules.get(rules_id).boxes:
            assert scorer_from_json(scorer_to_json(box.score)) == box.score


def _declaration(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(rules.get("yatzy").to_json())
    data.update(changes)
    return data


def _box_changed(index: int, **changes: Any) -> dict[str, Any]:
    data = _declaration()
    data["boxes"][index].update(changes)
    return data


def _without(name: str) -> dict[str, Any]:
    data = _declaration()
    del data[name]
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a rule set is a JSON object"),
        (_declaration(colour="red"), r"a rule set has no field\(s\) colour"),
        (_without("boxes"), "a rule set needs boxes"),
        (_declaration(id="two words"), "a rule set id is one word"),
        (_declaration(name=" "), "yatzy: the rule set needs a name"),
        (_declaration(boxes="ones"), "boxes must be a list"),
        (_declaration(boxes=[]), "yatzy: a rule set needs at least one box"),
        (_declaration(dice=0), "dice must be 1 to 10, got 0"),
        (_declaration(dice="5"), "dice must be 1 to 10, got '5'"),
        (_declaration(rolls=True), "rolls must be 1 to 10, got True"),
        (_declaration(upper_bonus=-1), "upper_bonus must be 0 or more, got -1"),
        (_declaration(free_throws_per_turn=0), "free_throws_per_turn must be 1 or more"),
        (_declaration(five_box="nope"), "five-of-a-kind box 'nope' is not a box"),
        (_declaration(five_box=None, extra_bonus=50), "the extra five-of-a-kind rules need a five_box"),
        (_declaration(extra="sometimes"), "extra must be one of none, forced-joker"),
        (_declaration(sharp="yes"), "sharp must be true or false"),
        (_declaration(options={"sharp": 1}), "options must map option names to values"),
        (_declaration(columns=[{"id": "1", "order": "sideways"}]), "order must be one of free, top-down"),
        (_declaration(columns=[{"id": "1"}, {"id": "1"}]), "duplicate column ids"),
        (_declaration(columns=[{"id": "a:b"}]), "a column id is letters, digits and _"),
        (_declaration(columns=[{"id": "1", "width": 3}]), r"a column has no field\(s\) width"),
        (_declaration(columns=[]), "a rule set needs at least one column"),
        (_box_changed(1, id="ones"), "duplicate box ids"),
        (_box_changed(0, id="Ones!"), "box 'Ones!': a box id is lower-case letters"),
        (_box_changed(0, id="extra_bonus"), "box 'extra_bonus': a box id is"),
        (_box_changed(0, section="middle"), "section must be one of upper, lower, got 'middle'"),
        (_box_changed(0, label_de=""), "box 'ones': label_de must be a non-empty text"),
        (_box_changed(0, joker_points=-5), "joker_points must be 0 or more"),
        (_box_changed(0, figure="no"), "figure must be true or false"),
        (_box_changed(0, score={"kind": "upper", "face": 7}), "Upper: face must be 1 to 6, got 7"),
        (_box_changed(0, score={"kind": "magic"}), r"a scorer is \{'kind': one of upper"),
        (_box_changed(0, score="upper"), "a scorer is"),
        (_box_changed(0, score={"kind": "run", "length": 4, "bonus": 3}), r"has no parameter\(s\) bonus"),
        (_box_changed(0, score={"kind": "run"}), "scorer run needs length"),
        (_box_changed(0, score={"kind": "run", "length": 4, "points": "30"}), "points must be 0 or more"),
        (_box_changed(0, score={"kind": "pattern", "patterns": [[2, 3]]}), "largest first"),
        (_box_changed(0, score={"kind": "pattern", "patterns": []}), "patterns must not be empty"),
        (_box_changed(0, score={"kind": "faces", "faces": [2, 1]}), "faces must be different faces"),
        (_box_changed(0, score={"kind": "pairs", "n": 0}), "Pairs: n must be 1 or more, got 0"),
        (_box_changed(0, score={"kind": "of_a_kind_sum", "n": True}), "n must be 1 or more, got True"),
        (_box_changed(0, score={"kind": "all_even", "points": -1}), "AllEven: points must be 0 or more"),
    ],
)
def test_bad_declarations_say_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        RuleSet.from_json(data)


def test_fields_left_out_take_their_defaults() -> None:
    data = {"id": "mini", "name": "Mini", "boxes": [rules.get("kniffel").to_json()["boxes"][-1]]}
    mini = RuleSet.from_json(data)
    assert (mini.dice, mini.rolls, mini.source, mini.description, len(mini.columns)) == (5, 3, "", "", 1)
    assert mini.box_keys == ("chance",)


def test_a_scorer_written_in_python_cannot_be_saved() -> None:
    def sevens(counts: tuple[int, ...]) -> int:
        return 7 * counts[0]

    yatzy = rules.get("yatzy")
    odd = dataclasses.replace(
        yatzy, id="odd", boxes=(Box("sevens", Section.UPPER, sevens, "7", "7"),), five_box=None
    )
    with pytest.raises(RulesError, match="cannot be written down"):
        odd.to_json()
    with pytest.raises(RulesError, match="cannot be written down"):
        Game(odd, ["Ada"]).to_json()


# --- saved games carry their rules -----------------------------------------------------------------


def yatzy_four_rolls_no_chance() -> RuleSet:
    """Yatzy with the chance box removed and four rolls a turn: a rule set no registry knows."""
    yatzy = rules.get("yatzy")
    return dataclasses.replace(
        yatzy,
        id="yatzy-4",
        name="Yatzy, four rolls, no chance",
        description="A house rule.",
        boxes=tuple(box for box in yatzy.boxes if box.id != "chance"),
        rolls=4,
    )


def _play(game: Game, seed: int, actions: int) -> None:
    choose = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            return
        game.apply(choose.choice(game.legal_actions()))


def test_a_game_of_a_custom_rule_set_saves_and_loads() -> None:
    custom = yatzy_four_rolls_no_chance()
    with pytest.raises(RulesError):
        rules.get(custom.id)
    game = Game(custom, ["Ada", "Bob"], dice=SeededDice(4))
    assert game.rolls_left == 4
    _play(game, 1, 10_000)
    assert game.is_over
    rolls_in_a_row = max(
        len(run) for run in "".join("r" if isinstance(a, Roll) else " " for a in game.log).split()
    )
    assert rolls_in_a_row == 4
    loaded = Game.loads(game.dumps())
    assert loaded.rules == custom
    assert "chance" not in loaded.rules.box_keys
    assert loaded.log == game.log
    assert loaded.totals == game.totals


def test_a_game_in_progress_loads_under_its_saved_rules_and_plays_on() -> None:
    custom = yatzy_four_rolls_no_chance()
    game = Game(custom, ["Ada"], dice=SeededDice(9))
    _play(game, 2, 25)
    data = json.loads(game.dumps())
    assert data["rules"] == "yatzy-4"
    assert data["ruleset"] == custom.to_json()
    loaded = Game.from_json(data, dice=SeededDice(3))
    assert loaded.legal == game.legal
    _play(loaded, 3, 10_000)
    assert loaded.is_over


def test_saves_that_only_name_a_built_in_rule_set_still_load() -> None:
    game = Game(rules.get("yahtzee", {"joker": "free"}), ["Ada", "Bob"], dice=SeededDice(2))
    _play(game, 5, 60)
    data = json.loads(game.dumps())
    del data["ruleset"]
    loaded = Game.from_json(data)
    assert loaded.rules == game.rules
    assert loaded.log == game.log


def test_a_declaration_that_contradicts_the_save_is_refused() -> None:
    data = json.loads(Game(yatzy_four_rolls_no_chance(), ["Ada"]).dumps())
    data["ruleset"]["rolls"] = 0
    with pytest.raises(
        GameFormatError, match="the saved rule set is damaged: yatzy-4: rolls must be 1 to 10"
    ):
        Game.from_json(data)
