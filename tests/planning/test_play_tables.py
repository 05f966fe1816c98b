"""A tournament names each table it solves with its cost, shows its progress, and keeps what the disk
cache can keep for the next run."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kniffel.core import AIM_POINTS, AIM_WIN, Progress, early_rows_ready
from kniffel.planning.play_tables import CONE, DISTRIBUTIONS, EARLY, SOLUTION, TARGETS, PlayTables
from kniffel.planning.worker import Work
from kniffel.services.tournament import Tournament, tournament
from support.solver import REDUCED

pytestmark = pytest.mark.usefixtures("solver_cache")

SMALL = REDUCED["sharp"]


class Shown:
    """What a front end is asked to show: each table's work, and the last progress it was told."""

    def __init__(self) -> None:
        self.works: list[Work] = []
        self.last: dict[str, tuple[int, int]] = {}

    @contextmanager
    def __call__(self, work: Work) -> Iterator[Progress | None]:
        self.works.append(work)

        def progress(done: int, total: int) -> None:
            self.last[work.template] = (done, total)

        yield progress


def test_each_table_is_named_with_its_cost_and_the_early_rows_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a cache of its own: other tests of the session solve and keep the early rows of these rules too
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    specs = ["bot", "bot:win", "bot:target:40"]
    aims = Tournament(SMALL, specs, deals=20, seed=2).aims()
    assert aims == {AIM_WIN, 40}
    assert Tournament(SMALL, ["bot:optimal", "bot"], deals=20, seed=2).aims() == {AIM_POINTS}
    first = PlayTables(SMALL)
    shown = Shown()
    first.prepare(aims, shown)
    assert [w.template for w in shown.works] == [SOLUTION, TARGETS, DISTRIBUTIONS, EARLY]
    assert all(dict(w.fields)["rules"] == SMALL.id for w in shown.works)
    estimated = {w.template: w for w in shown.works}
    assert estimated[TARGETS].seconds > 0
    assert estimated[TARGETS].bytes > 0
    assert estimated[DISTRIBUTIONS].seconds > 0
    assert estimated[EARLY].seconds > 0, "the first run solves the early rows"
    for template in (TARGETS, DISTRIBUTIONS):
        done, total = shown.last[template]
        assert done == total > 0
    # made once: nothing is left to make for this run's games
    assert first.steps(aims) == []
    assert early_rows_ready(SMALL)
    # the next run solves the rows of every sheet again, but reads the early rows from the cache
    again = PlayTables(SMALL)
    kept = Shown()
    again.prepare(aims, kept)
    assert {w.template: w.seconds for w in kept.works}[EARLY] == 0
    # and plays the very same games with them
    request = Tournament(SMALL, specs[1:], deals=20, seed=2)
    prepared = tournament(request, prepared=first)
    fresh = tournament(request, prepared=again)
    assert (prepared.matches[0].scores == fresh.matches[0].scores).all()


def test_players_of_final_scores_alone_solve_their_cone_only_and_play_the_same_games() -> None:
    """Without a player to win nobody reads every sheet's rows: the cone of the empty sheet for the
    players' scores holds what their games reach (the same rows), and each table of the tournament reads
    it, not a cone of its own. Yahtzee: a tournament of bot:target:250 against bot took 11.8 s instead
    of 27 s, 414 MB instead of 745 MB."""
    specs = ["bot:target:40", "bot:target:45", "bot:optimal"]
    request = Tournament(SMALL, specs, deals=20, seed=3)
    aims = request.aims()
    assert aims == {40, 45, AIM_POINTS}
    cone = PlayTables(SMALL)
    shown = Shown()
    cone.prepare(aims, shown)
    assert [w.template for w in shown.works] == [SOLUTION, CONE]
    work = shown.works[1]
    assert dict(work.fields)["targets"] == "40-45"
    every_sheet = {s.work.template: s.work for s in PlayTables(SMALL).steps({AIM_WIN})}[TARGETS]
    assert 0 < work.bytes < every_sheet.bytes
    assert cone.steps(aims) == []
    whole = PlayTables(SMALL)
    assert whole.targets.rules == SMALL  # every sheet's rows, made first: then read by every player
    played = tournament(request, prepared=cone)
    # the tables of two of them read the cone of all three, not one of their own
    assert cone.targets_for({40, AIM_POINTS}) is cone.targets_for({45}) is cone.targets_for(aims)
    by_whole = tournament(request, prepared=whole)
    assert len(played.matches) == len(by_whole.matches) == 3
    for mine, theirs in zip(played.matches, by_whole.matches, strict=True):
        assert (mine.scores == theirs.scores).all()
