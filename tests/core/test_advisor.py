"""The advisor: values of every option, as the game's actions, consistent with the solved table, and
option by option equal to the peer package ``yatzy-solver`` where it is installed."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

import numpy as np
import pytest

from kniffel import rules
from kniffel.base.dice import sorted_rolls
from kniffel.base.errors import DiceError, SituationError, UnknownBoxError
from kniffel.base.keeps import keep_lattice
from kniffel.core import Advisor, ColumnPosition, cache_dir
from kniffel.core.runtime.kernelcache import user_cache_dir
from kniffel.engine.actions import Action, FreeThrow, Roll, Score
from kniffel.rules import Section
from support.solver import solved


@cache
def advisor(rules_id: str = "yahtzee", joker: str = "free") -> Advisor:
    options = (("joker", joker),) if rules_id == "yahtzee" else ()
    return Advisor(solved(rules_id, options))


def test_the_classic_opening_keeps_the_pair() -> None:
    options = advisor().options(ColumnPosition({}, [1, 3, 3, 5, 6], rolls_left=2))
    assert options[0].action == Roll(keep=(3, 3))
    assert str(options[0].action) == "roll keep 3 3"
    assert options[0].keep == (3, 3)
    assert options[0].to_json() == {"action": "roll keep 3 3", "value": options[0].value}
    assert [o.value for o in options] == sorted((o.value for o in options), reverse=True)
    actions = [str(o.action) for o in options]
    assert "roll" in actions  # reroll everything
    assert "roll keep 1 3 3 5 6" not in actions
    assert len(actions) == len(set(actions)) == 13 + 23  # 24 distinct holds, less "keep all"
    assert all(Action.parse(text) == o.action for text, o in zip(actions, options, strict=True))


def test_last_throw_offers_only_scores() -> None:
    options = advisor().options(ColumnPosition({"chance": 20}, [2, 3, 4, 5, 5], rolls_left=0))
    assert all(o.is_score for o in options)
    assert {o.box for o in options} == set(rules.get("yahtzee").box_keys) - {"chance"}
    assert options[0].action in (Score("large_straight"), Score("small_straight"))
    assert all(isinstance(o.action, Score) and o.box == o.action.box and o.keep is None for o in options)


def test_a_turn_is_worth_the_mean_of_its_best_first_throws() -> None:
    adv = advisor()
    probs = keep_lattice(5).roll_probs
    for sheet in ({}, {"ones": 3, "yahtzee": 50}, {"sixes": 24, "fives": 20, "chance": 22, "yahtzee": 0}):
        expected = sum(
            p * adv.options(ColumnPosition(sheet, roll, rolls_left=2))[0].value
            for roll, p in zip(sorted_rolls(5), probs, strict=True)
        )
        assert expected == pytest.approx(adv.value(sheet), abs=1e-9)


def test_scoring_value_adds_the_points_and_the_bonuses() -> None:
    adv = advisor()
    sheet = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "yahtzee": 50}
    option = {o.box: o.value for o in adv.options(ColumnPosition(sheet, [6, 6, 6, 6, 6], 0))}
    after = dict(sheet, sixes=30)
    # 30 in sixes, 35 upper bonus (45 + 30 >= 63), 100 extra Yahtzee bonus
    assert option["sixes"] == pytest.approx(30 + 35 + 100 + adv.value(after), abs=1e-9)


def test_bad_situations_are_refused() -> None:
    adv = advisor()
    with pytest.raises(UnknownBoxError, match="no box"):
        adv.options(ColumnPosition({"nope": 1}, [1, 2, 3, 4, 5], 2))
    with pytest.raises(DiceError, match="dice"):
        adv.options(ColumnPosition({}, [1, 2, 3], 2))
    with pytest.raises(SituationError, match="rolls left"):
        adv.options(ColumnPosition({}, [1, 2, 3, 4, 5], 3))
    with pytest.raises(SituationError, match="cannot be reached"):
        adv.options(ColumnPosition({"ones": 40}, [1, 2, 3, 4, 5], 2))


def test_sheets_an_ordered_column_cannot_reach_are_refused() -> None:
    adv = Advisor(solved("kniffel", (("strict", "on"),)))
    assert adv.options(ColumnPosition({"ones": 3}, [1, 1, 2, 3, 4], 0))[0].is_score
    with pytest.raises(SituationError, match="in this order"):
        adv.options(ColumnPosition({"twos": 4}, [1, 1, 2, 3, 4], 0))


def test_the_first_option_is_the_best() -> None:
    adv = advisor()
    assert adv.options(ColumnPosition({}, [1, 3, 3, 5, 6], 2))[0].keep == (3, 3)
    assert adv.options(ColumnPosition({}, [6, 6, 6, 6, 6], 2))[0].box == "yahtzee"


def test_free_throws_are_offered_after_the_last_regular_throw() -> None:
    adv = Advisor(solved("knoeffel"))
    options = adv.options(ColumnPosition({}, [1, 2, 3, 3, 6], 0, free_throws_left=3))
    assert any(o.free_throw for o in options)
    assert all(o.free_throw for o in options if o.keep is not None)
    assert FreeThrow(keep=(3, 3)) in {o.action for o in options}
    assert not any(type(o.action) is Roll for o in options)
    assert not any(
        o.keep is not None for o in adv.options(ColumnPosition({}, [1, 2, 3, 3, 6], 0, free_throws_left=0))
    )
    used = adv.options(ColumnPosition({}, [1, 2, 3, 3, 6], 0, free_throws_left=2, free_throws_used=1))
    assert all(o.is_score for o in used)
    assert adv.value({}, free_throws_left=3) > adv.value({}, free_throws_left=0)


# --- against yatzy-solver -------------------------------------------------------------------------

PEER_VARIANTS = {("yahtzee", "free"): "american", ("yatzy", ""): "yatzy-scandinavian"}


def random_situations(
    rules_id: str, count: int, seed: int
) -> Iterator[tuple[dict[str, int], tuple[int, ...], int]]:
    rng = random.Random(seed)
    ruleset = rules.get(rules_id)
    rolls = sorted_rolls(5)
    for _ in range(count):
        filled: dict[str, int] = {}
        for box in ruleset.boxes:
            if rng.random() < rng.random():
                if box.section is Section.UPPER:
                    assert box.face is not None
                    filled[box.id] = box.face * rng.randrange(6)
                elif box.id == ruleset.five_box:
                    filled[box.id] = rng.choice([0, 50])
                else:
                    filled[box.id] = 0
        if len(filled) == len(ruleset.boxes):
            filled.pop(ruleset.boxes[rng.randrange(len(ruleset.boxes))].id)
        yield filled, rng.choice(rolls), rng.randrange(3)


def peer_solver(variant: str) -> Any:
    """The peer's solved table, kept in the user's cache directory beside the compiled kernels and named
    by the peer's version: building one takes the peer from seconds to a minute, loading it a few
    milliseconds, and every clone of the project finds it there. A file the peer does not accept is
    rebuilt; a build is written under a name of its own first, so a run beside this one never reads
    half a table."""
    ys = pytest.importorskip("yatzy_solver")
    directory = user_cache_dir() / "yatzy-solver"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:  # no user cache to write: the session's own
        directory = cache_dir() / "yatzy-solver"
        directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{variant}.{ys.__version__}.{ys.SOLVER_VERSION}.f64"
    if path.exists():
        try:
            return ys.Solver.load(str(path), ys.Variant(variant))
        except Exception:  # the peer's own loader decides what a sound file is
            path.unlink(missing_ok=True)
    building = path.with_name(f"{path.name}.{os.getpid()}.building")
    ys.Solver.build_table(ys.Variant(variant), str(building), precision="f64")
    os.replace(building, path)
    return ys.Solver.load(str(path), ys.Variant(variant))


@pytest.mark.parametrize(("rules_id", "joker"), list(PEER_VARIANTS))
def test_option_values_equal_the_peer_solver(rules_id: str, joker: str) -> None:
    peer = peer_solver(PEER_VARIANTS[(rules_id, joker)])
    ours = advisor(rules_id, joker) if joker else advisor(rules_id)
    five = rules.get(rules_id).five_box
    upper = {box.id for box in rules.get(rules_id).upper_boxes}
    for filled, dice, rolls_left in random_situations(rules_id, 150, seed=11):
        names = {key: ("five_of_a_kind" if key == five and rules_id == "yahtzee" else key) for key in filled}
        up = min(63, sum(p for key, p in filled.items() if key in upper))
        notation = (
            f"dice {' '.join(map(str, dice))} | rolls {rolls_left} | upper {up} | "
            f"filled {','.join(names[k] for k in filled) or '-'}"
        )
        if rules_id == "yahtzee" and five in filled:
            notation += f" | five_of_a_kind {filled[five]}"
        theirs = {
            action.replace("five_of_a_kind", five or "").replace("keep -", "keep"): value
            for action, value in peer.option_values(notation)
        }
        # the peer writes "keep 3 3" (and "keep" for all dice) where the game writes "roll keep 3 3"
        mine = {
            str(o.action).replace("roll keep", "keep").replace("roll", "keep"): o.value
            for o in ours.options(ColumnPosition(filled, dice, rolls_left))
        }
        assert mine.keys() == theirs.keys(), notation
        for action, value in mine.items():
            assert value == pytest.approx(theirs[action], abs=1e-6), (notation, action)


def test_one_advisor_answers_several_threads_at_once() -> None:
    """A web server asks one advisor from several threads; the compiled kernel runs without the GIL, so
    each query must work in arrays of its own."""
    adv = advisor()
    situations = list(random_situations("yahtzee", 60, seed=5))
    alone = [adv.options(ColumnPosition(filled, dice, rolls_left)) for filled, dice, rolls_left in situations]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda s: adv.options(ColumnPosition(*s)), situations * 4))
    assert together == alone * 4


def test_ranked_refuses_rows_no_situation_has() -> None:
    """The array interface checks what the kernel would index with, so that bad rows are an error rather
    than a read outside the tables; rows of ColumnPosition.encode pass and rank as options() lists."""
    adv = advisor()
    row, _ = ColumnPosition({"chance": 20}, [1, 3, 3, 5, 6], 2).encode(adv.compiled)
    codes, values, counts = adv.ranked(np.array([row, row]))
    listed = adv.options(ColumnPosition({"chance": 20}, [1, 3, 3, 5, 6], 2))
    assert [o.value for o in listed] == values[1, : counts[1]].tolist()
    assert [o.action for o in listed] == [adv.actions()[c] for c in codes[0, : counts[0]]]
    for column, value in [(0, -1), (0, 1 << 13), (2, 64), (4, 252), (8, -2), (8, 2), (3, 1)]:
        bad = list(row)
        bad[column] = value
        with pytest.raises(ValueError, match="no situation's row"):
            adv.ranked(np.array([row, bad]))
    with pytest.raises(ValueError, match="shape"):
        adv.ranked(np.array(row))
