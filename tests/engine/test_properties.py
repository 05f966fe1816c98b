"""Property tests: random rule sets and options, random legal games, random sheets and actions.

Whatever the rules and whatever legal moves are made, a game ends with every sheet full, the totals
add up as the printed sheet adds them, every entry is a value its box can hold, undo walks back to a
fresh game, and a save replays to the same position. Example counts come from the Hypothesis profile
in ``tests/conftest.py`` (HYPOTHESIS_PROFILE=thorough for more).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kniffel import Game, ScoreSheet, SeededDice, rules
from kniffel.base.dice import roll_index
from kniffel.engine.actions import Action, Announce, FreeThrow, Roll, Score, Strike
from kniffel.engine.sheet import possible_points
from kniffel.rules import Extra, Order, RuleSet, Section
from support.games import state
from support.strategies import rule_sets

_POSSIBLE: dict[tuple[str, str, str], frozenset[int]] = {}


def can_hold(rs: RuleSet, key: str, points: int) -> bool:
    """``possible_points``, remembered: it scans the score table, and games ask it thousands of times."""
    box = rs.locate(key)[1].id
    memo = (rs.id, repr(sorted(rs.options.items())), box)
    if memo not in _POSSIBLE:
        _POSSIBLE[memo] = possible_points(rs, box)
    return points in _POSSIBLE[memo]


def check_sheet(sheet: ScoreSheet, *, entries: bool = True) -> None:
    """Everything that must hold for any sheet a game produced (``entries=False``: only the totals)."""
    rs = sheet.rules
    assert set(sheet.entries) <= set(rs.box_keys)
    for key, points in sheet.entries.items() if entries else ():
        assert can_hold(rs, key, points), (key, points)
    for column in rs.columns:
        totals = sheet.column_totals(column)
        upper = [sheet.entries.get(rs.key(column, b), 0) for b in rs.upper_boxes]
        lower = [sheet.entries.get(rs.key(column, b), 0) for b in rs.lower_boxes]
        assert totals.upper_sum == sum(upper)
        assert totals.upper_bonus == (rs.upper_bonus if sum(upper) >= rs.upper_bonus_threshold else 0)
        assert totals.upper_total == totals.upper_sum + totals.upper_bonus
        assert totals.lower_sum == sum(lower)
        extra = sheet.extra_bonus.get(column.id, 0)
        assert totals.extra_bonus == extra
        if extra:
            assert rs.extra_bonus
            assert extra % rs.extra_bonus == 0
        used = sheet.free_throws_used.get(column.id, 0)
        assert 0 <= used <= rs.free_throws
        assert totals.free_throws == (rs.free_throws - used) * rs.free_throw_points
        assert totals.lower_total == totals.lower_sum + totals.extra_bonus + totals.free_throws
        assert totals.total == totals.upper_total + totals.lower_total
    assert sheet.total == sum(t.total for t in sheet.totals)


def check_step(game: Game, action: Action) -> None:
    """Apply ``action`` and check that it did what it says."""
    player, turn = game.current, game.turn
    # The sheet changes in place: keep what it held.
    entries, extra_bonus = dict(game.sheet.entries), dict(game.sheet.extra_bonus)
    offered = game.placements()
    upper_bonus = {c.id: game.sheet.column_totals(c).upper_bonus for c in game.rules.columns}
    outcome = game.apply(action)
    done = outcome.action
    assert outcome.player == player
    assert game.log[-1] == done
    assert outcome.ends_turn == isinstance(action, Score | Strike)
    if isinstance(action, Roll):
        assert isinstance(done, Roll)
        assert done.dice is not None
        assert len(done.dice) == game.rules.dice
        assert all(done.dice.count(f) >= action.keep.count(f) for f in action.keep)
        assert game.turn.dice == done.dice
        assert game.turn.thrown_at_once == (not action.keep)
        if isinstance(action, FreeThrow):
            assert game.turn.free_throws == turn.free_throws + 1
        else:
            assert game.turn.rolls == turn.rolls + 1
    elif isinstance(action, Announce):
        assert game.turn.announced == action.box
        assert set(game.placements()) == {action.box}
    else:
        assert isinstance(action, Score | Strike)
        after = game.sheets[player]
        placement = offered[action.box] if isinstance(action, Score) else None
        assert after.entries[action.box] == (placement.points if placement else 0)
        column, _ = game.rules.locate(action.box)
        gained = after.extra_bonus.get(column.id, 0) - extra_bonus.get(column.id, 0)
        assert gained == (placement.bonus if placement else 0)
        assert (outcome.box, outcome.points, outcome.extra_bonus) == (
            action.box,
            after.entries[action.box],
            gained,
        )
        assert outcome.upper_bonus == after.column_totals(column).upper_bonus - upper_bonus[column.id]
        assert after.entries == {**entries, action.box: after.entries[action.box]}
        assert can_hold(game.rules, action.box, after.entries[action.box])
        assert game.current == (player + 1) % len(game.players)
        check_sheet(after, entries=False)


@given(rs=rule_sets(), players=st.integers(1, 2), seed=st.integers(0, 2**32), data=st.data())
def test_random_legal_games_end_with_full_sheets_and_consistent_totals(
    rs: RuleSet, players: int, seed: int, data: st.DataObject
) -> None:
    names = [f"P{i}" for i in range(players)]
    game = Game(rs, names, dice=SeededDice(seed))
    save_at = data.draw(st.integers(0, 60), label="save at")
    while not game.is_over:
        if len(game.log) == save_at:
            assert state(Game.loads(game.dumps())) == state(game)
        actions = game.legal_actions()
        assert actions, "a game that is not over always has a legal action"
        check_step(game, data.draw(st.sampled_from(actions)))

    assert all(s.is_full for s in game.sheets)
    for sheet in game.sheets:
        check_sheet(sheet)
    assert sum(isinstance(a, Score | Strike) for a in game.log) == players * len(rs.box_keys)
    assert game.legal_actions() == []
    standings = game.standings()
    assert [s.total for s in standings] == sorted(game.totals, reverse=True)
    assert set(game.winners()) == {s.name for s in standings if s.total == standings[0].total}
    assert state(Game.loads(game.dumps())) == state(game)

    # Retracting walks back to a fresh game (a player's undo stops at the end of the game and at
    # every throw); the log replays to the same end.
    assert not game.can_undo
    log = list(game.log)
    for action in reversed(log):
        assert game.retract() == action
    assert state(game) == state(Game(rs, names))
    for action in log:
        game.apply(action)
    assert all(s.is_full for s in game.sheets)
    assert game.log == log


@given(rs=rule_sets(), seed=st.integers(0, 2**32), data=st.data())
def test_refusals_agree_with_the_legal_actions(rs: RuleSet, seed: int, data: st.DataObject) -> None:
    """``can_apply`` says yes exactly for the listed actions, for every box action at a random point."""
    game = Game(rs, ["Ada"], dice=SeededDice(seed))
    for _ in range(data.draw(st.integers(0, 40), label="moves")):
        if game.is_over:
            break
        game.apply(data.draw(st.sampled_from(game.legal_actions())))
    legal = set(game.legal_actions())
    candidates: list[Action] = [FreeThrow()]
    candidates += [Roll(keep=k) for k in ((), (1,), (6, 6), (1, 2, 3, 4))]
    for key in rs.box_keys:
        candidates += [Score(key), Strike(key), Announce(key)]
    for action in candidates:
        assert game.can_apply(action) == (action in legal), action


def _random_sheet(rs: RuleSet, data: st.DataObject) -> dict[str, int]:
    keys = data.draw(st.sets(st.sampled_from(rs.box_keys)), label="filled")
    return {
        key: data.draw(st.sampled_from(sorted(possible_points(rs, rs.locate(key)[1].id))), label=key)
        for key in keys
    }


# strict=on orders the column, which then decides where the roll goes.
@given(
    rs=rule_sets(("kniffel", "yahtzee"), extra="50", joker="forced", strict="off"),
    face=st.integers(1, 6),
    data=st.data(),
)
def test_forced_joker_priority(rs: RuleSet, face: int, data: st.DataObject) -> None:
    """A further five alike: matching upper box if free, else the free lower boxes at full value, else
    the free upper boxes for 0 (seed 003's official rule, which Kniffel follows too)."""
    assert rs.extra is Extra.FORCED_JOKER
    filled = _random_sheet(rs, data)
    five = rs.five_box
    assert five is not None
    filled[five] = data.draw(st.sampled_from([0, 50]), label="five box")
    offered = rules.placements(rs, filled, (face,) * 5)
    free = [b for b in rs.boxes if b.id not in filled]
    matching = [b for b in free if b.face == face]
    lower = [b for b in free if b.section is Section.LOWER]
    expected = matching or lower or free
    assert set(offered) == {b.id for b in expected}
    bonus = rs.extra_bonus if filled[five] else 0
    row = roll_index(5)[(face,) * 5]
    for box in expected:
        value = (
            box.joker_points
            if box.joker_points is not None
            else int(rs.score_table[row, rs.box_index[box.id]])
        )
        assert (offered[box.id].points, offered[box.id].bonus) == (value, bonus), box.id


@given(rs=rule_sets(), data=st.data())
def test_ordinary_rolls_pay_the_table_value_in_every_reachable_box(rs: RuleSet, data: st.DataObject) -> None:
    """Without a further five alike, what a box pays is the score table's value, doubled for figures
    thrown at once under the sharp variant, in exactly the boxes the fill orders allow."""
    filled = _random_sheet(rs, data)
    dice = tuple(sorted(data.draw(st.lists(st.integers(1, 6), min_size=rs.dice, max_size=rs.dice))))
    at_once = data.draw(st.booleans(), label="at once")
    offered = rules.placements(rs, filled, dice, thrown_at_once=at_once)
    five_alike = len(set(dice)) == 1 and rs.five_box is not None
    reachable = {
        rs.key(c, b)
        for c in rs.columns
        if c.order is not Order.ANNOUNCED
        for b in rules.reachable_boxes(rs, filled, c)
    }
    if five_alike and any(rs.key(c, rs.box(rs.five_box or "")) in filled for c in rs.columns):
        assert set(offered) <= reachable
        return
    assert set(offered) == reachable
    for key, placement in offered.items():
        _, box = rs.locate(key)
        value = int(rs.score_table[roll_index(rs.dice)[dice], rs.box_index[box.id]])
        doubled = 2 if rs.sharp and at_once and box.figure else 1
        assert (placement.points, placement.bonus) == (value * doubled, 0), key


@given(rs=rule_sets(), data=st.data())
def test_sheet_text_and_json_round_trip(rs: RuleSet, data: st.DataObject) -> None:
    entries = _random_sheet(rs, data)
    text = ",".join(f"{key}={points}" for key, points in entries.items())
    sheet = ScoreSheet.parse(rs, text)
    assert sheet.entries == entries
    assert ScoreSheet.from_json(rs, sheet.to_json()) == sheet
    check_sheet(sheet)


FACES = st.integers(1, 6)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    rs = draw(rule_sets())
    kind = draw(st.sampled_from(["roll", "free", "announce", "score", "strike"]))
    if kind in ("roll", "free"):
        keep = tuple(sorted(draw(st.lists(FACES, max_size=rs.dice - 1))))
        rolled = draw(st.none() | st.lists(FACES, min_size=rs.dice - len(keep), max_size=rs.dice - len(keep)))
        dice = None if rolled is None else tuple(sorted(keep + tuple(rolled)))
        return (Roll if kind == "roll" else FreeThrow)(keep=keep, dice=dice)
    box = draw(st.sampled_from(rs.box_keys))
    return {"announce": Announce, "score": Score, "strike": Strike}[kind](box)


@given(actions())
def test_action_text_and_json_round_trip(action: Action) -> None:
    assert Action.parse(str(action)) == action
    assert Action.from_json(action.to_json()) == action
