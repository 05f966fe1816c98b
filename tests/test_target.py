"""Target tables: the largest probability of making at least so many points, against an independent brute
force on reduced games, against expected-score play, against a million games of their own policy, and
through the cache."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest

from kniffel.keeps import keep_lattice
from kniffel.rules import RuleSet, Section, placements
from kniffel.solver import Advisor, State, compile_rules, solve
from kniffel.solver.target import TargetAdvisor, TargetRows, early_rows, solve_rows
from test_solver_values import REDUCED, Sheet, gained, outcomes, reduced


def brute_force_target(rules_: RuleSet) -> Callable[[int], float]:
    """``P(needed)``: the largest probability of making at least ``needed`` points from the empty sheet,
    by expectimax straight from :func:`placements` (no lattice, no tables), each target on its own."""
    boxes = [box.id for box in rules_.boxes]
    upper = {box.id for box in rules_.boxes if box.section is Section.UPPER}
    threshold = rules_.upper_bonus_threshold
    five = rules_.five_box

    @cache
    def turn_start(filled: Sheet, free: int, needed: int) -> float:
        if needed <= 0:
            return 1.0
        if len(filled) == len(boxes):
            return 1.0 if rules_.free_throw_points * free >= needed else 0.0
        return sum(
            p * after_throw(filled, free, roll, True, rules_.rolls - 1, 0, needed)
            for roll, p in outcomes(rules_.dice)
        )

    @cache
    def best_score(filled: Sheet, free: int, roll: tuple[int, ...], at_once: bool, needed: int) -> float:
        sheet = dict(filled)
        up = min(threshold, sum(points for key, points in sheet.items() if key in upper))
        best = -1.0
        for key, placement in placements(rules_, sheet, roll, thrown_at_once=at_once).items():
            if key in upper:
                points = min(placement.points, threshold - up)
            else:
                points = min(placement.points, 1) if key == five else 0
            best = max(
                best, turn_start(filled | {(key, points)}, free, needed - gained(rules_, up, key, placement))
            )
        return best

    @cache
    def keep_value(
        filled: Sheet, free: int, keep: tuple[int, ...], left: int, used: int, needed: int
    ) -> float:
        return sum(
            p * after_throw(filled, free, tuple(sorted(keep + rest)), not keep, left, used, needed)
            for rest, p in outcomes(rules_.dice - len(keep))
        )

    @cache
    def after_throw(
        filled: Sheet, free: int, roll: tuple[int, ...], at_once: bool, left: int, used: int, needed: int
    ) -> float:
        best = best_score(filled, free, roll, at_once, needed)
        keeps = list(keep_lattice(len(roll)).keeps_of(roll)[:-1])
        if left > 0:
            best = max([best, *(keep_value(filled, free, keep, left - 1, used, needed) for keep in keeps)])
        elif free > 0 and used < rules_.free_throws_per_turn:
            best = max([best, *(keep_value(filled, free - 1, keep, 0, used + 1, needed) for keep in keeps)])
        return best

    return lambda needed: turn_start(frozenset(), rules_.free_throws, needed)


@cache
def reduced_table(name: str) -> TargetRows:
    return solve_rows(compile_rules(REDUCED[name]))


@pytest.mark.parametrize("name", list(REDUCED))
def test_matches_brute_force_on_a_reduced_game(name: str) -> None:
    table = reduced_table(name)
    brute = brute_force_target(REDUCED[name])
    advisor = TargetAdvisor(Advisor(solve(REDUCED[name])), table)
    free = REDUCED[name].free_throws if REDUCED[name].free_throws else None
    for needed in (*range(0, 60, 7), 80, 101, 140, table.limit):
        assert advisor.probability({}, needed, free) == pytest.approx(brute(needed), abs=2e-6), needed


def test_every_row_falls_from_one_to_zero() -> None:
    table = reduced_table("forced joker")
    c = table.compiled
    for mask in range(c.n_masks - 1):
        lane = table.layout.lane_base[0, mask]
        if lane < 0:
            continue
        row = table.curve(State(mask, 0, 0, 0), 0, table.row_end(State(mask, 0, 0, 0)) + 2)
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
        best = advisor.options(sheet, roll, left)[0]
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
    options = advisor.options({}, [2, 2, 5], 2, 30)
    assert options == sorted(options, key=lambda o: -o.value)
    brute = brute_force_target(game)
    # the turn's first throw, averaged over every roll, is the value of the empty sheet
    expected = sum(p * advisor.options({}, roll, 2, 30)[0].value for roll, p in outcomes(game.dice))
    assert expected == pytest.approx(brute(30), abs=2e-6)


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
    assert built.value(State(0, 0, 0, 0), 40) == whole.value(State(0, 0, 0, 0), 40)
    del built, loaded
    # a damaged file is rebuilt, not trusted
    files = sorted(directory.glob("*.target-early.npy"))
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


def test_a_million_games_played_for_a_target_make_it_as_often_as_the_table_says() -> None:
    """The table's probability of making at least ``needed`` points is what its own policy achieves:
    a million simulated games for each of a dozen targets across the score range, each within 4
    standard errors."""
    game = REDUCED["forced joker"]
    advisor = TargetAdvisor(Advisor(solve(game)), reduced_table("forced joker"))

    @cache
    def decide(filled: Sheet, roll: tuple[int, ...], left: int, at_once: bool, still: int) -> Decision:
        best = advisor.options(dict(filled), roll, left, still, thrown_at_once=at_once)[0]
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
