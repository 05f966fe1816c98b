"""The one position type: a single-column position from a game, from and to its table text, encoded as the
tables index it, and many positions as one array that the advisor ranks as it ranks each alone."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kniffel import Game, rules
from kniffel.base.errors import KniffelError, SituationError
from kniffel.core import Advisor, ColumnPosition, Positions, SheetState, table
from kniffel.core.position import ROW
from kniffel.engine.actions import Roll, Score
from kniffel.engine.situation import Situation
from kniffel.rules import single_column

pytestmark = pytest.mark.usefixtures("solver_cache")

YAHTZEE = rules.get("yahtzee", {"joker": "free"})
KNOEFFEL = single_column(rules.get("knoeffel"), "1")


def played(ruleset: rules.RuleSet, seed: int, moves: int) -> Game:
    """A game some ``moves`` into random play, with dice showing."""
    rng = random.Random(seed)
    game = Game(ruleset, ["A"])
    for _ in range(moves):
        legal = game.legal_actions()
        game.apply(rng.choice(legal))
        if game.is_over:
            break
    if game.turn.dice is None and not game.is_over:
        game.apply(Roll(keep=()))
    return game


@pytest.mark.parametrize("ruleset", [YAHTZEE, KNOEFFEL], ids=lambda r: r.id)
def test_a_games_position_reads_back_from_its_table_text(ruleset: rules.RuleSet) -> None:
    """``of_game``, the position's table text and ``of_situation`` agree, and so do the text of the game's
    own situation and the position's (a text reads back into a built-in rule set: Knöffel's one column
    is not one, so its text is compared, not read)."""
    for seed in range(20):
        game = played(ruleset, seed, 3 + 4 * seed)
        at = ColumnPosition.of_game(game)
        if at is None:
            continue
        text = str(at.situation(ruleset))
        if ruleset is YAHTZEE:
            assert ColumnPosition.of_situation(Situation.parse(text)) == at
        assert ColumnPosition.of_situation(game.situation()) == at
        assert text == str(game.situation())


def test_free_throws_taken_this_turn_are_no_longer_left() -> None:
    situation = Situation.parse("knoeffel | empty | 4 4 4 6 6 | rolls left 0 | free throws taken 1")
    at = ColumnPosition.of_situation(situation)
    assert (at.free_throws_left, at.free_throws_used) == (KNOEFFEL.free_throws - 1, 1)
    assert at == ColumnPosition.of_game(Game.from_situation(situation))


def test_nothing_to_decide_has_no_position() -> None:
    assert ColumnPosition.of_game(Game(YAHTZEE, ["A"])) is None
    with pytest.raises(SituationError, match="no dice yet"):
        ColumnPosition.of_situation(Situation.parse("yahtzee joker=free | empty | no dice | rolls left 3"))


def test_the_encoding_is_the_state_and_the_turn() -> None:
    advisor = Advisor(table(YAHTZEE))
    c = advisor.compiled
    at = ColumnPosition({"ones": 3, "yahtzee": 50}, (2, 2, 3, 5, 5), 1)
    row, free = at.encode(c)
    state = at.state(c)
    assert len(row) == ROW
    assert not free
    assert row[:4] == [state.mask, state.armed, state.up, state.free]
    assert state == SheetState.of(c, at.sheet) == advisor.state(at.sheet)
    assert state.up == 3
    assert state.armed == 1
    assert SheetState.empty(c) == SheetState.of(c, {})


def test_impossible_positions_are_refused_clearly() -> None:
    c = Advisor(table(YAHTZEE)).compiled
    with pytest.raises(SituationError, match="rolls left"):
        ColumnPosition({}, (1, 2, 3, 4, 5), 3).encode(c)
    with pytest.raises(KniffelError, match="no box"):
        ColumnPosition({"nope": 1}, (1, 2, 3, 4, 5), 1).encode(c)
    with pytest.raises(SituationError, match="negative"):
        SheetState.of(c, {"ones": -1})


def test_many_positions_rank_as_each_alone() -> None:
    advisor = Advisor(table(YAHTZEE))
    rng = random.Random(5)
    boxes = [b.id for b in YAHTZEE.boxes if b.id != "yahtzee"]
    positions = [
        ColumnPosition(
            dict.fromkeys(rng.sample(boxes, rng.randrange(len(boxes))), 0),
            tuple(rng.randint(1, 6) for _ in range(5)),
            rng.randrange(3),
        )
        for _ in range(40)
    ]
    many = Positions.of(advisor.compiled, positions)
    assert len(many) == 40
    assert many.rows.shape == (40, ROW)
    codes, values, counts = advisor.ranked(many)
    from_rows = advisor.ranked(many.rows)
    assert np.array_equal(from_rows[2], counts)
    assert all(np.array_equal(from_rows[0][i, :n], codes[i, :n]) for i, n in enumerate(counts.tolist()))
    for i, at in enumerate(positions):
        alone = advisor.options(at)
        actions = advisor.actions(bool(many.free[i]))
        assert [o.action for o in alone] == [actions[k] for k in codes[i, : counts[i]].tolist()]
        assert [o.value for o in alone] == values[i, : counts[i]].tolist()
    assert many.states()[3] == positions[3].state(advisor.compiled)
    assert len(many[many.free]) == 0
    assert np.array_equal(Positions.from_rows(many.rows).rows, many.rows)


def test_the_advisor_gives_a_box_for_a_five_of_a_kind() -> None:
    best = Advisor(table(YAHTZEE)).options(ColumnPosition({}, (6, 6, 6, 6, 6), 2))[0]
    assert best.action == Score("yahtzee")
