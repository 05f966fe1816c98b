"""Target tables: the largest probability of making at least so many points, against an independent brute
force on reduced games, against expected-score play, against a million games of their own policy, and
through the cache."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kniffel.base.errors import SituationError
from kniffel.base.keeps import keep_lattice
from kniffel.core import (
    Advisor,
    ColumnPosition,
    SheetState,
    TargetAdvisor,
    TargetRows,
    build_table,
    compile_rules,
    early_rows,
    lane_layout,
    solve,
    solve_rows,
)
from kniffel.core.disttable import LevelTable, build_levels
from kniffel.core.target import as_played_to_win
from kniffel.core.targetrows import Horizon, HorizonRows
from kniffel.rules import RuleSet, Section, placements
from support.bruteforce import Sheet, gained, outcomes
from support.solver import REDUCED, reduced
from support.strategies import rule_sets

Row = npt.NDArray[np.float64]
"""A value for every number of points still needed, from 0 up."""


def brute_force_target(
    rules_: RuleSet, top: int, beyond: tuple[int, Callable[[Sheet, int], Row]] | None = None
) -> Row:
    """``P[needed]`` for every ``needed`` from 0 to ``top``: the largest probability of making at least
    ``needed`` points from the empty sheet, by expectimax straight from :func:`placements` (no lattice,
    no tables). Each target is still played on its own: every value is a row over the targets, and the
    best choice is taken target by target (an elementwise maximum), so one pass answers them all. With
    ``beyond = (level, chance)``, a sheet with ``level`` boxes filled is worth ``chance(sheet, free throws
    left)`` (a row over the targets) instead of being played on."""
    boxes = [box.id for box in rules_.boxes]
    upper = {box.id for box in rules_.boxes if box.section is Section.UPPER}
    threshold = rules_.upper_bonus_threshold
    five = rules_.five_box
    targets = np.arange(top + 1)

    def still_needed(row: Row, points: int) -> Row:
        """The row after ``points`` more: ``row[needed - points]``, and 1 where nothing is needed."""
        if points <= 0:
            return row
        out = np.ones(top + 1)
        if points <= top:
            out[points:] = row[: top + 1 - points]
        return out

    @cache
    def turn_start(filled: Sheet, free: int) -> Row:
        if beyond is not None and len(filled) == beyond[0]:
            row = np.array(beyond[1](filled, free), dtype=np.float64)
        elif len(filled) == len(boxes):
            row = (targets <= rules_.free_throw_points * free).astype(np.float64)
        else:
            row = sum(
                (
                    p * after_throw(filled, free, roll, True, rules_.rolls - 1, 0)
                    for roll, p in outcomes(rules_.dice)
                ),
                np.zeros(top + 1),
            )
        row[0] = 1.0  # nothing needed: made
        return row

    @cache
    def best_score(filled: Sheet, free: int, roll: tuple[int, ...], at_once: bool) -> Row:
        sheet = dict(filled)
        up = min(threshold, sum(points for key, points in sheet.items() if key in upper))
        best = np.full(top + 1, -1.0)
        found = placements(rules_, sheet, roll, thrown_at_once=at_once)
        for key, placement in found.items():
            if key in upper:
                points = min(placement.points, threshold - up)
            else:
                points = min(placement.points, 1) if key == five else 0
            after = turn_start(filled | {(key, points)}, free)
            best = np.maximum(best, still_needed(after, gained(rules_, up, key, placement)))
        # a box may be struck even where the roll pays (past a horizon, a worse sheet can have the better
        # chance of a far target); not where an extra five of a kind decides where it goes
        if not (five in sheet and len(set(roll)) == 1):
            for key in found:
                best = np.maximum(best, turn_start(filled | {(key, 0)}, free))
        return best

    @cache
    def keep_value(filled: Sheet, free: int, keep: tuple[int, ...], left: int, used: int) -> Row:
        return sum(
            (
                p * after_throw(filled, free, tuple(sorted(keep + rest)), not keep, left, used)
                for rest, p in outcomes(rules_.dice - len(keep))
            ),
            np.zeros(top + 1),
        )

    @cache
    def after_throw(
        filled: Sheet, free: int, roll: tuple[int, ...], at_once: bool, left: int, used: int
    ) -> Row:
        best = best_score(filled, free, roll, at_once)
        keeps = list(keep_lattice(len(roll)).keeps_of(roll)[:-1])
        if left > 0:
            for keep in keeps:
                best = np.maximum(best, keep_value(filled, free, keep, left - 1, used))
        elif free > 0 and used < rules_.free_throws_per_turn:
            for keep in keeps:
                best = np.maximum(best, keep_value(filled, free - 1, keep, 0, used + 1))
        return best

    return turn_start(frozenset(), rules_.free_throws)


@cache
def reduced_table(name: str) -> TargetRows:
    return solve_rows(compile_rules(REDUCED[name]))


@pytest.mark.parametrize("name", list(REDUCED))
def test_matches_brute_force_on_a_reduced_game(name: str) -> None:
    table = reduced_table(name)
    brute = brute_force_target(REDUCED[name], table.limit)
    advisor = TargetAdvisor(Advisor(solve(REDUCED[name])), table)
    free = REDUCED[name].free_throws if REDUCED[name].free_throws else None
    for needed in range(table.limit + 1):
        assert advisor.probability({}, needed, free) == pytest.approx(brute[needed], abs=2e-6), needed


@pytest.mark.parametrize("name", ["forced joker", "free joker", "sharp"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_rows_before_a_horizon_play_for_the_target_and_for_points_after_it(name: str, level: int) -> None:
    """Past the horizon a sheet is worth the chance its final-score distribution gives (optimal play for
    points); before it the brute force plays for the target as ever: the rows agree, and they are lower
    bounds of the exact rows, lower somewhere."""
    game = REDUCED[name]
    solution = solve(game)
    advisor = Advisor(solution)
    distributions = build_table(solution)
    free_left = game.free_throws if game.free_throws else None

    top = 140

    def chance(filled: Sheet, free: int) -> Row:
        """For every target: the chance that the points still to come reach it."""
        state = advisor.state(dict(filled), free if game.free_throws else None)
        lane = distributions.lane(state.armed, state.free, state.mask, state.up)
        to_come = distributions.points_to_come(lane)
        totals = to_come.low + np.arange(len(to_come.probabilities))
        probabilities = np.asarray(to_come.probabilities)
        return np.array([probabilities[totals >= needed].sum() for needed in range(top + 1)])

    rows = solve_rows(solution.compiled, horizon=Horizon(LevelTable.of(distributions, level)))
    assert rows.horizon == level
    brute = brute_force_target(game, top, (level, chance))
    with_horizon = TargetAdvisor(advisor, rows)
    exact = TargetAdvisor(advisor, reduced_table(name))
    lower = 0.0
    for needed in range(top + 1):
        found = with_horizon.probability({}, needed, free_left)
        assert found == pytest.approx(brute[needed], abs=2e-6), needed
        best = exact.probability({}, needed, free_left)
        assert found <= best + 2e-6, needed
        lower = max(lower, best - found)
    assert lower > 1e-4, "play for points past the horizon loses no chance anywhere: is it there at all?"


def mapped(array: npt.NDArray[np.float32]) -> bool:
    """Whether ``array`` reads a file mapped (the system says where its memory lies: the compiled
    kernels hand arrays back wrapped in their own objects)."""
    address = array.ctypes.data
    for line in Path("/proc/self/maps").read_text().splitlines():
        span, _, _, _, inode, *path = line.split()
        low, high = (int(end, 16) for end in span.split("-"))
        if low <= address < high:
            return inode != "0" and bool(path)
    return False


@pytest.mark.parametrize("name", ["forced joker", "free joker", "sharp"])
@pytest.mark.parametrize("spill", [False, True])
@pytest.mark.parametrize("in_files", [False, True])
def test_a_horizon_worked_out_while_its_distributions_are_built_is_the_same(
    name: str, spill: bool, in_files: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The horizon's rows taken piece by piece as the distributions are built (:class:`HorizonRows`:
    the early win tables never hold the horizon's level whole) start the same solve, bit for bit, as
    those read from the level's distributions held in memory; kept in files beside the cache's tables
    (``in_files``), as are the levels solved from them, their pages let go after every piece of the
    solve and between the few rows packed at a time (as a process over its allowance lets them go),
    too."""
    from kniffel.core import spans
    from kniffel.core.runtime import spill as spilling

    solution = solve(REDUCED[name])
    c = solution.compiled
    level = 2
    held = solve_rows(c, horizon=Horizon(LevelTable.of(build_table(solution), level)))
    if in_files and not Path("/proc/self/maps").is_file():
        pytest.skip("the system does not say where memory lies")
    folder = tmp_path / "cache"
    if in_files:
        folder.mkdir()
        monkeypatch.setattr(spilling, "GROWTH", 0)
        monkeypatch.setattr(spans, "TRIM_PIECE", 64)  # each level packed a few rows at a time
    pieces = HorizonRows(c, level, folder)  # a folder that is not there: in memory
    build_levels(solution, lambda _: None, None, tap=pieces.tap, spill=tmp_path if spill else None)
    taken = solve_rows(c, horizon=pieces)
    assert np.array_equal(taken.index, held.index)
    for mine, theirs in zip(taken.levels, held.levels, strict=True):
        assert (mine is None) == (theirs is None)
        assert mine is None or theirs is None or np.array_equal(mine, theirs)
        assert mine is None or mapped(mine) == in_files
    with pytest.raises(SituationError, match="handed over"):  # read once: the solve lets them go
        solve_rows(c, horizon=pieces)


def test_a_horizon_lies_between_the_root_and_the_full_sheet() -> None:
    solution = solve(REDUCED["forced joker"])
    distributions = build_table(solution)
    for level in (0, len(solution.compiled.levels) - 1):
        with pytest.raises(SituationError, match="horizon"):
            solve_rows(solution.compiled, horizon=Horizon(LevelTable.of(distributions, level)))


def test_only_a_game_to_win_reads_rows_with_a_horizon(tmp_path: Path) -> None:
    """Rows that play for points past a horizon answer the win planner's questions, never a target
    question (those are exact); the rules of thirteen boxes have one, a small rule set none. (In a
    directory of its own: early rows on disk, which a game to win run before this test leaves in the
    session's cache, would be read first.)"""
    from kniffel import rules
    from kniffel.core import RowsQuestion, horizon_level
    from kniffel.core.target import _held, _held_key

    assert horizon_level(compile_rules(rules.get("yahtzee"))) == 5
    assert horizon_level(compile_rules(REDUCED["forced joker"])) is None
    c = compile_rules(REDUCED["forced joker"])
    rows = dataclasses.replace(reduced_table("forced joker"), horizon=2)
    key = (*_held_key(c, tmp_path), "test horizon")
    _held.put(key, rows)
    try:
        root = SheetState(0, 0, 0, 0)
        assert RowsQuestion(c, root, 40, 40, False, tmp_path, early=True).held() is rows
        assert RowsQuestion(c, root, 40, 40, False, tmp_path, early=False).held() is not rows
    finally:
        _held.drop(key)


def test_a_game_to_win_reads_the_early_rows_then_the_exact_ones() -> None:
    exact = reduced_table("forced joker")
    early = dataclasses.replace(exact, horizon=2, levels=tuple(
        None if level is None or n > 1 else np.zeros_like(level) for n, level in enumerate(exact.levels)
    ))  # fmt: skip
    played = as_played_to_win(exact, early)
    assert played.horizon == 2
    assert all(not played.levels[n].any() for n in (0, 1))  # type: ignore[union-attr]
    assert all(played.levels[n] is exact.levels[n] for n in range(2, len(exact.levels)))
    assert as_played_to_win(exact, exact) is exact  # no horizon: the exact rows themselves


def test_every_row_falls_from_one_to_zero() -> None:
    table = reduced_table("forced joker")
    c = table.compiled
    for mask in range(c.n_masks - 1):
        lane = table.layout.lane_base[0, mask]
        if lane < 0:
            continue
        row = table.curve(SheetState(mask, 0, 0, 0), 0, table.row_end(SheetState(mask, 0, 0, 0)) + 2)
        assert row[0] == 1.0
        assert np.all(np.diff(row) <= 1e-6)
        assert row.min() >= 0.0


def test_playing_for_the_target_beats_playing_for_points() -> None:
    """At every target the target table's probability is at least that of expected-score play, whose
    distribution the brute force gives here by following the expected-score choices."""
    game = REDUCED["free joker"]
    table = reduced_table("free joker")
    solution = solve(game)
    advisor = TargetAdvisor(Advisor(solution), table)
    mean_play = _expected_score_play_distribution(game)
    for needed in range(table.limit + 1):
        at_least = float(mean_play[needed:].sum())
        assert advisor.probability({}, needed) >= at_least - 2e-6


def _expected_score_play_distribution(game: RuleSet) -> npt.NDArray[np.float64]:
    """The final-score distribution of expected-score play from the empty sheet, by following the
    advisor's best option through every throw (an independent check of the table's optimality)."""
    advisor = Advisor(solve(game))
    upper = {box.id for box in game.boxes if box.section is Section.UPPER}
    size = 1000

    def shift(pmf: npt.NDArray[np.float64], by: int) -> npt.NDArray[np.float64]:
        out = np.zeros(size)
        out[by:] = pmf[: size - by]
        return out

    @cache
    def turn(filled: Sheet) -> npt.NDArray[np.float64]:
        if len(filled) == len(game.boxes):
            done = np.zeros(size)
            done[0] = 1.0
            return done
        return sum(  # type: ignore[return-value]
            p * decide(filled, roll, game.rolls - 1) for roll, p in outcomes(game.dice)
        )

    @cache
    def decide(filled: Sheet, roll: tuple[int, ...], left: int) -> npt.NDArray[np.float64]:
        sheet = dict(filled)
        best = advisor.options(ColumnPosition(sheet, roll, left))[0]
        if best.box is not None:
            placement = placements(game, sheet, roll, thrown_at_once=left == game.rolls - 1)[best.box]
            before = sum(v for k, v in sheet.items() if k in upper)
            return shift(
                turn(filled | {(best.box, placement.points)}), gained(game, before, best.box, placement)
            )
        keep = best.keep or ()
        return sum(  # type: ignore[return-value]
            q * decide(filled, tuple(sorted(keep + rest)), left - 1)
            for rest, q in outcomes(game.dice - len(keep))
        )

    result = turn(frozenset())
    assert result.sum() == pytest.approx(1.0)
    return result


def test_options_in_a_situation_agree_with_the_brute_force_by_hand() -> None:
    """Mid-turn: the best option's probability is the brute force's value of that turn position."""
    game = reduced()
    table = reduced_table("forced joker")
    advisor = TargetAdvisor(Advisor(solve(game)), table)
    options = advisor.options(ColumnPosition({}, [2, 2, 5], 2), 30)
    assert options == sorted(options, key=lambda o: -o.value)
    brute = brute_force_target(game, 30)
    # the turn's first throw, averaged over every roll, is the value of the empty sheet
    expected = sum(
        p * advisor.options(ColumnPosition({}, roll, 2), 30)[0].value for roll, p in outcomes(game.dice)
    )
    assert expected == pytest.approx(brute[30], abs=2e-6)


def test_a_target_question_knows_whether_it_will_compile_first(tmp_path: Path) -> None:
    """What the command line says while a target question waits (compiling, or only preparing) rests on
    this: true with an empty kernel cache, false once a question has run here."""
    import os
    import subprocess
    import sys

    from kniffel.core import target_needs_compiling

    ask = "from kniffel.core.target import target_needs_compiling; print(target_needs_compiling())"
    empty = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    fresh = subprocess.run([sys.executable, "-c", ask], env=empty, capture_output=True, text=True, check=True)
    assert fresh.stdout.strip() == "True"
    game = reduced()
    TargetAdvisor(Advisor(solve(game)), reduced_table("forced joker")).options(
        ColumnPosition({}, [2, 2, 5], 2), 30
    )
    assert not target_needs_compiling()


def test_rows_are_solved_only_for_the_upper_scores_a_sheet_can_have() -> None:
    from kniffel import rules
    from kniffel.core import default_limit, empty_state, reached_lanes
    from kniffel.core.lanes import lowest_up
    from kniffel.core.targetrows import windows

    c = compile_rules(rules.get("yahtzee"))
    root = empty_state(c)
    index, _ = windows(c, lane_layout(c, root.mask), default_limit(c), root, 1, None)
    sixes = 1 << c.rules.box_index["sixes"]
    base = int(lane_layout(c, root.mask).lane_base[c.aux(0, 0), sixes])
    ups = lowest_up(c, sixes) + np.arange(31)
    assert set(ups[index[base : base + 31, 2] > 0]) == {0, 6, 12, 18, 24, 30}
    assert reached_lanes(c, np.array([0, sixes])).tolist() == [1, 6]
    # a root's own upper score counts: from fours at 8, the sixes add multiples of six
    fours = 1 << c.rules.box_index["fours"]
    root = SheetState(fours, 8, 0, 0)
    layout = lane_layout(c, fours)
    index, _ = windows(c, layout, default_limit(c), root, 100, 100)
    both = fours | sixes
    base, low = int(layout.lane_base[c.aux(0, 0), both]), lowest_up(c, both)
    count = int(c.lanes[both, 1] - c.lanes[both, 0])
    assert set((low + np.arange(count))[index[base : base + count, 2] > 0]) == {8, 14, 20, 26, 32, 38}


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [
        ("yatzy", {}),
        ("yahtzee", {}),
        ("kniffel", {"strict": "on"}),
        ("knoeffel", {"free_throws_per_turn": "2"}),
        ("yatzy-deluxe", {"sharp": "on"}),
    ],
)
def test_the_lanes_counted_reached_are_those_the_empty_sheet_solves(
    rules_id: str, options: dict[str, str]
) -> None:
    """:func:`reached_lanes` asks once for each kind of sheet (its upper boxes, its first upper score and
    how many): per sheet it counts the lanes to which the windows of the empty sheet's every target give
    a row, every armed variant and free-throw level."""
    from kniffel import rules
    from kniffel.core import default_limit, empty_state, points_left, reached_lanes
    from kniffel.core.lanes import widths_of
    from kniffel.core.targetrows import windows

    c = compile_rules(rules.single_column(rules.get(rules_id, options)))
    root = empty_state(c)
    layout = lane_layout(c, root.mask)
    index, _ = windows(c, layout, default_limit(c), root, 1, None)
    left = points_left(c)
    for level in c.levels[:-1]:
        masks = level[left[level] > 0]
        widths, variants = widths_of(c, masks)
        solved = []
        for mask, width, variant in zip(masks, widths, variants, strict=True):
            bases = [layout.lane_base[c.aux(a, f), mask] for a in range(variant) for f in range(c.n_free)]
            solved.append(sum(int((index[b : b + width, 2] > 0).sum()) for b in bases if b >= 0))
        assert reached_lanes(c, masks).tolist() == solved


@given(rs=rule_sets(), seed=st.integers(0, 2**32), data=st.data())
def test_every_sheet_a_random_game_reaches_has_a_row(rs: RuleSet, seed: int, data: st.DataObject) -> None:
    """The rows skip upper scores no game has: every sheet of a random legal game, of any rule set and
    options (a column of a sheet of several), is a state the rows of the whole table are solved for."""
    from kniffel import Game, SeededDice
    from kniffel.core import empty_state
    from kniffel.core.targetrows import can_reach
    from kniffel.engine.actions import Score, Strike
    from kniffel.rules import single_column

    column = single_column(rs, 0)
    c = compile_rules(column)
    game = Game(column, ["A"], dice=SeededDice(seed))
    while not game.is_over:
        action = data.draw(st.sampled_from(game.legal_actions()))
        game.apply(action)
        sheet = game.sheets[0]
        if isinstance(action, Score | Strike) and not sheet.is_full:
            state = SheetState.of(c, dict(sheet.entries))
            assert can_reach(c, empty_state(c), state), f"{column.id}: no row for {dict(sheet.entries)}"


def test_a_state_no_game_reaches_is_answered_from_its_own_rows() -> None:
    game = REDUCED["forced joker"]
    table = reduced_table("forced joker")
    fives = 1 << game.box_index["fives"]
    # the fives hold 0, 5, 10 or 15: an upper score of 11 is no game's, and needs the bonus's last
    # point from the twos (2, 4 or 6), as 10 does
    possible, impossible = SheetState(fives, 10, 0, 0), SheetState(fives, 11, 0, 0)
    assert table.covers(possible, 1, 60, turn=False)
    assert not table.covers(impossible, 1, 60, turn=False)
    own = solve_rows(table.compiled, root=impossible)
    assert own.covers(impossible, 1, 60, turn=False)
    assert np.array_equal(own.curve(impossible, 1, 60), table.curve(possible, 1, 60))


def test_cached_early_rows_are_the_solved_ones(tmp_path: object) -> None:
    from pathlib import Path

    directory = Path(str(tmp_path))
    game = reduced()
    built = early_rows(game, directory=directory)
    loaded = early_rows(game, directory=directory)
    assert loaded.seconds == 0.0
    kept = [level for level in built.levels if level is not None]
    assert kept
    assert all(
        np.array_equal(a, b) for a, b in zip(kept, (x for x in loaded.levels if x is not None), strict=True)
    )
    expected = [np.array(level) for level in kept]  # the rows map the file that is damaged below
    whole = (
        reduced_table("forced joker") if game == REDUCED["forced joker"] else solve_rows(compile_rules(game))
    )
    assert built.value(SheetState(0, 0, 0, 0), 40) == whole.value(SheetState(0, 0, 0, 0), 40)
    del built, loaded
    # a damaged file is rebuilt, not trusted
    files = sorted(directory.glob("*.win-early.npy"))
    assert len(files) == 1
    files[0].write_bytes(b"")
    again = early_rows(game, directory=directory)
    assert again.seconds > 0.0
    assert all(
        np.array_equal(a, b)
        for a, b in zip(expected, (x for x in again.levels if x is not None), strict=True)
    )


Decision = tuple[str | None, tuple[int, ...]]
"""A box to score in (``None`` for a throw) and the dice kept for a throw."""
Situation = tuple[Sheet, int, tuple[int, ...], bool]
"""The sheet, the points still needed, the dice and whether they were thrown at once."""


def simulated_target_play(
    game: RuleSet,
    decide: Callable[[Sheet, tuple[int, ...], int, bool, int], Decision],
    needed: int,
    games: int,
) -> int:
    """How many of ``games`` independent games played by ``decide(filled, roll, rolls_left, thrown_at_once,
    still_needed)`` (from the empty sheet, no free throws) make at least ``needed`` points.

    Games in the same situation are followed together: their next throws are one multinomial draw over
    the throw's outcomes, which is how that many independent games' throws are distributed, so a
    million games cost one decision per situation reached instead of one per game and throw."""
    rng = np.random.default_rng(needed)
    upper = {box.id for box in game.boxes if box.section is Section.UPPER}
    made = 0

    def throw(count: int, kept: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        rolls = outcomes(game.dice - len(kept))
        counts = rng.multinomial(count, [p for _, p in rolls])
        return [(tuple(sorted(kept + roll)), int(n)) for (roll, _), n in zip(rolls, counts, strict=True) if n]

    turn_starts: dict[tuple[Sheet, int], int] = {(frozenset(), needed): games}
    for _ in game.boxes:
        after: dict[tuple[Sheet, int], int] = {}
        thrown: dict[Situation, int] = {}
        for (filled, still), count in turn_starts.items():
            for roll, n in throw(count, ()):
                thrown[filled, still, roll, True] = thrown.get((filled, still, roll, True), 0) + n
        for left in range(game.rolls - 1, -1, -1):
            rethrown: dict[Situation, int] = {}
            for (filled, still, roll, at_once), count in thrown.items():
                box, kept = decide(filled, roll, left, at_once, still)
                if box is None:
                    for new, n in throw(count, kept):
                        again = (filled, still, new, not kept)
                        rethrown[again] = rethrown.get(again, 0) + n
                    continue
                sheet = dict(filled)
                placement = placements(game, sheet, roll, thrown_at_once=at_once)[box]
                up = sum(points for entry, points in sheet.items() if entry in upper)
                still_after = still - gained(game, up, box, placement)
                if still_after <= 0:
                    made += count  # points are never taken away: these games have made it
                    continue
                start = (filled | {(box, placement.points)}, still_after)
                after[start] = after.get(start, 0) + count
            thrown = rethrown
        turn_starts = after
    return made


@pytest.mark.slow
def test_a_million_games_played_for_a_target_make_it_as_often_as_the_table_says() -> None:
    """The table's probability of making at least ``needed`` points is what its own policy achieves:
    a million simulated games for each of a dozen targets across the score range, each within 4
    standard errors."""
    game = REDUCED["forced joker"]
    advisor = TargetAdvisor(Advisor(solve(game)), reduced_table("forced joker"))

    @cache
    def decide(filled: Sheet, roll: tuple[int, ...], left: int, at_once: bool, still: int) -> Decision:
        best = advisor.options(ColumnPosition(dict(filled), roll, left, thrown_at_once=at_once), still)[0]
        return best.box, best.keep or ()

    chances = {t: advisor.probability({}, t) for t in range(advisor.limit + 1)}
    # the target nearest each of these chances of making it: a dozen points across the whole range
    targets = sorted(
        {min(chances, key=lambda t: abs(chances[t] - q)) for q in (0.01, *np.arange(0.05, 1, 0.1), 0.99)}
    )
    assert len(targets) >= 10
    games = 1_000_000
    for needed in targets:
        p = chances[needed]
        seen = simulated_target_play(game, decide, needed, games) / games
        standard_error = math.sqrt(p * (1 - p) / games)
        assert abs(seen - p) <= 4 * standard_error, (needed, p, seen, standard_error)


@pytest.mark.parametrize("in_lane_order", [True, False])
def test_a_levels_rows_lose_their_trailing_zeros_and_nothing_else(in_lane_order: bool) -> None:
    """Rows laid out in lane order are packed in place; rows in another order go to a new array, and the
    level they were read from is left as it was."""
    from kniffel.core.kernels.spans import trim_zeros

    rows = [np.array([1.0, 0.5, 0.0, 0.0]), np.array([0.75, 0.25, 0.0])]
    placed = rows if in_lane_order else rows[::-1]
    prob = np.concatenate(placed).astype(np.float32)
    starts = np.cumsum([0, *map(len, placed)])[:-1]
    offsets = starts if in_lane_order else starts[::-1]
    index = np.array([[offsets[0], 1, 4], [offsets[1], 7, 3]], dtype=np.int64)
    before = prob.copy()
    packed = trim_zeros(prob, index, 0, 2)
    assert packed.tolist() == [1.0, 0.5, 0.75, 0.25]
    assert index.tolist() == [[0, 1, 2], [2, 7, 2]]
    assert np.shares_memory(packed, prob) == in_lane_order
    if not in_lane_order:
        assert np.array_equal(prob, before)


@pytest.mark.parametrize("in_lane_order", [True, False])
def test_a_level_packed_a_piece_at_a_time_is_packed_as_in_one_pass(
    in_lane_order: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level kept in a file is packed a few rows at a time, the mapped pages let go in between (as a
    solve over its allowance lets them go): rows and index the same, bit for bit, as one pass packs them,
    in place where the rows lie in lane order."""
    from kniffel.core import spans
    from kniffel.core.kernels.spans import trim_zeros
    from kniffel.core.runtime import spill

    generator = np.random.default_rng(5)
    lengths = generator.integers(0, 12, size=40)
    rows = [generator.random(n).astype(np.float32) * (generator.random(n) < 0.7) for n in lengths]
    placed = list(range(len(rows))) if in_lane_order else list(generator.permutation(len(rows)))
    gaps = generator.integers(0, 3, size=len(rows)) if in_lane_order else np.zeros(len(rows), np.int64)
    offsets = np.zeros(len(rows), dtype=np.int64)
    at = 0
    for lane, gap in zip(placed, gaps, strict=True):
        offsets[lane] = at + gap
        at += gap + len(rows[lane])
    prob = np.zeros(at + 5, dtype=np.float32)
    for lane, row in enumerate(rows):
        prob[offsets[lane] : offsets[lane] + len(row)] = row
    index = np.stack([offsets, np.arange(len(rows)), lengths], axis=1).astype(np.int64)
    index = np.concatenate([np.zeros((3, 3), dtype=np.int64), index])  # lanes of another level before
    relieved: list[bool] = []
    monkeypatch.setattr(spans, "TRIM_PIECE", 16)
    allowance = spill.Allowance()
    allowance.limit = 0  # over it after every piece
    monkeypatch.setattr(spill, "relieve_mapped", lambda: relieved.append(True))  # from here: the pieces'
    one_index = index.copy()
    one = trim_zeros(prob.copy(), one_index, 3, len(index))
    packed = spans.trim_in_pieces(prob, index, 3, len(index), allowance)
    assert np.array_equal(index, one_index)
    assert packed.tobytes() == one.tobytes()
    assert np.shares_memory(packed, prob) == in_lane_order
    assert (len(relieved) > 5) == in_lane_order  # in pieces only where they are packed in place
