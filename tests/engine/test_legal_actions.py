"""The legal actions of a position (``Game.legal``): one view, worked out once per position, that agrees
with ``check`` on every action one could ask about."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given

from kniffel import Game, IllegalActionError, LegalActions, rules
from kniffel.base.dice import FACES
from kniffel.base.keeps import keep_lattice
from kniffel.engine.actions import Action, Announce, FreeThrow, Roll, Score, Strike
from support.games import new_game
from support.strategies import positions


def questions(game: Game) -> list[Action]:
    """Actions worth asking about now: every keep of the rule set's dice (held or not, all dice too) as a
    roll and a free throw, rolls that name a result, and every box (and one that does not exist) with
    each box action."""
    rs = game.rules
    asked: list[Action] = []
    for keep in keep_lattice(rs.dice).keeps:
        asked += [Roll(keep=keep), FreeThrow(keep=keep)]
    dice = game.dice or (1,) * rs.dice
    asked += [
        Roll(keep=dice[:2], dice=dice),
        Roll(keep=dice[:2], dice=(6,) * rs.dice),
        Roll(dice=dice[:-1]),
        Roll(dice=(*dice[:-1], FACES + 1)),
        FreeThrow(keep=dice[:1], dice=dice),
    ]
    for box in (*rs.box_keys, "nope"):
        asked += [Score(box), Strike(box), Announce(box)]
    return asked


@given(positions())
def test_the_view_agrees_with_check_on_every_action(game: Game) -> None:
    legal = game.legal
    listed = game.legal_actions()
    assert listed == list(legal)
    assert len(listed) == len(set(listed)) == len(legal)
    assert all(a in legal for a in listed)
    for action in questions(game):
        allowed = game.can_apply(action)
        assert allowed == (action in legal)
        if action in listed:
            assert allowed
        if allowed:
            game.check(action)
        else:
            with pytest.raises(IllegalActionError) as refused:
                game.check(action)
            message = str(refused.value)
            assert message
            assert "\n" not in message
            assert "is not allowed now" not in message, "every refusal says why"
    assert dict(legal.placements) == game.placements()
    assert game.is_over == (len(legal) == 0)


def test_before_the_first_roll_only_rolling_all_dice_is_legal() -> None:
    game = new_game("kniffel")
    assert game.legal == LegalActions(keeps=((),), n_dice=5)
    assert game.legal_actions() == [Roll()]
    assert game.legal.can_throw
    assert not game.legal.free_throw


def test_keeps_are_the_distinct_proper_parts_of_the_dice() -> None:
    game = new_game("kniffel")
    game.apply(Roll(dice=(1, 1, 2, 6, 6)))
    keeps = set(game.legal.keeps)
    expected = {
        tuple(sorted(part))
        for n in range(5)
        for part in itertools.combinations((1, 1, 2, 6, 6), n)  # proper parts: not all five
    }
    assert keeps == expected
    assert len(game.legal.keeps) == len(keeps) == 3 * 2 * 3 - 1


def test_rolls_that_name_their_result_must_fit_the_keep_and_the_dice() -> None:
    game = new_game("kniffel")
    game.apply(Roll(dice=(2, 2, 3, 5, 6)))
    legal = game.legal
    assert Roll(keep=(2, 2), dice=(1, 2, 2, 4, 4)) in legal
    assert Roll(keep=(2, 2), dice=(1, 2, 3, 4, 4)) not in legal  # the kept pair is not in the result
    assert Roll(keep=(2, 2), dice=(1, 2, 2, 4)) not in legal
    assert Roll(keep=(2, 2), dice=(1, 2, 2, 4, 7)) not in legal
    assert FreeThrow(keep=(2, 2)) not in legal
    assert "roll" not in legal  # not an action at all


def test_free_throws_follow_the_regular_rolls_once_per_turn() -> None:
    game = new_game("knoeffel")
    for dice in ((1, 2, 3, 3, 6),) * 3:
        game.apply(Roll(dice=dice))
    legal = game.legal
    assert legal.free_throw
    assert legal.can_throw
    assert FreeThrow(keep=(3, 3)) in legal
    assert Roll(keep=(3, 3)) not in legal
    assert all(isinstance(a, FreeThrow) for a in legal if isinstance(a, Roll))
    game.apply(FreeThrow(keep=(3, 3), dice=(3, 3, 3, 4, 5)))
    assert not game.legal.can_throw  # one free throw per turn by default
    assert set(game.legal.placements) == set(game.rules.box_keys)


def test_announcements_right_after_the_first_roll() -> None:
    game = new_game("kniffel-4col")
    game.apply(Roll(dice=(1, 2, 3, 4, 6)))
    announceable = {k for k in game.rules.box_keys if k.startswith("3:")}
    assert set(game.legal.announceable) == announceable
    game.apply(Announce("3:large_straight"))
    assert game.legal.announceable == ()
    assert set(game.legal.placements) == {"3:large_straight"}


def test_worked_out_once_per_position() -> None:
    game = new_game("yahtzee")
    first = game.legal
    assert game.legal is first
    game.apply(Roll(dice=(4, 4, 4, 4, 4)))
    after_roll = game.legal
    assert after_roll is not first
    assert set(after_roll.placements) == set(game.rules.box_keys)
    game.retract()
    assert game.legal is not after_roll
    assert game.legal == first
    game.apply(Roll(dice=(1, 2, 3, 4, 5)))
    assert game.legal.placements["large_straight"].points == 40


def test_a_finished_game_has_no_legal_actions() -> None:
    game = Game(rules.get("kniffel"), ["Ada"])
    for box in game.rules.box_keys:
        game.apply(Roll(dice=(1, 2, 3, 4, 6)))
        game.apply(Strike(box))
    assert game.is_over
    assert len(game.legal) == 0
    assert list(game.legal) == []
    assert Roll() not in game.legal
