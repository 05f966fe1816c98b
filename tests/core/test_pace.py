"""The machine's pace, measured as it solves and remembered: what estimates of a solve read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kniffel import rules
from kniffel.core import SheetState, compile_rules, rate, targetrows
from kniffel.core.runtime.pace import ENV, FILE, FORMAT, forget, machine, remember

KIND = "test work"


@pytest.fixture
def paced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Pace on (the session turns it off), kept in a cache directory of this test's own."""
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    forget()
    yield tmp_path / FILE
    forget()


def test_a_measured_pace_is_read_by_later_estimates_and_kept_on_disk(paced: Path) -> None:
    assert rate(KIND, 1e-6) == 1e-6  # nothing measured yet: the default
    remember(KIND, 2.0, 10_000_000)
    assert rate(KIND, 1e-6) == pytest.approx(2e-7)
    forget()  # as a new process reads it
    assert rate(KIND, 1e-6) == pytest.approx(2e-7)
    saved = json.loads(paced.read_text(encoding="utf-8"))
    assert saved["machines"][machine()][KIND] == [pytest.approx(2e-7)]


def test_the_pace_is_the_median_of_the_last_measurements(paced: Path) -> None:
    for seconds in (9.0, 9.0, 1.0, 2.0, 3.0, 100.0, 4.0):
        remember(KIND, seconds, 1_000_000)
    # the last five: 1, 2, 3, 100, 4 (one slow run on a busy machine moves it little)
    assert rate(KIND, 1.0) == pytest.approx(3e-6)


def test_a_damaged_file_or_another_machine_is_a_pace_not_known(paced: Path) -> None:
    paced.write_text("{not json", encoding="utf-8")
    assert rate(KIND, 5e-7) == 5e-7
    remember(KIND, 1.0, 1_000_000)  # written anew, whole
    assert json.loads(paced.read_text(encoding="utf-8"))["format"] == FORMAT
    other = {"format": FORMAT, "machines": {"pentium, 64 threads": {KIND: [1e-3]}}}
    paced.write_text(json.dumps(other), encoding="utf-8")
    forget()
    assert rate(KIND, 5e-7) == 5e-7
    bad = {"format": FORMAT, "machines": {machine(): {KIND: ["fast", -1, 7]}}}
    paced.write_text(json.dumps(bad), encoding="utf-8")
    forget()
    assert rate(KIND, 5e-7) == 5e-7


def test_with_the_pace_off_nothing_is_read_or_kept(paced: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    remember(KIND, 2.0, 10_000_000)
    monkeypatch.setenv(ENV, "0")
    assert rate(KIND, 1e-6) == 1e-6
    remember(KIND, 9.0, 10)
    monkeypatch.setenv(ENV, "1")
    assert rate(KIND, 1e-6) == pytest.approx(2e-7)


def test_a_cone_solved_sets_the_pace_of_the_next_estimate(
    paced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cone's seconds per probability of its windows (what :func:`cone_size` counts) become what the
    estimates of the next cones read, in place of the constant measured on another machine."""
    from kniffel.core import cone_size, solve_rows
    from kniffel.planning.winning import SECONDS_PER_VALUE, seconds_per_value

    c = compile_rules(rules.get("yahtzee"))
    late = {box.id: 0 for box in c.rules.boxes[:9]}
    root = SheetState.of(c, late)
    monkeypatch.setattr(targetrows, "PACE_SAMPLE", 1)  # a late sheet's cone: small, and a sample here
    assert seconds_per_value() == SECONDS_PER_VALUE
    rows = solve_rows(c, root=root, low=40, high=60)
    assert seconds_per_value() == pytest.approx(rows.seconds / cone_size(c, root, 40, 60))
    assert seconds_per_value() != SECONDS_PER_VALUE


def test_a_distribution_table_built_sets_the_pace_of_the_next_estimate(
    paced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A score distribution's build, its seconds per lane, becomes what the estimates of the next builds
    (the early win tables, a position's final scores) read, in place of the constant."""
    from kniffel.core import build_table, disttable, lane_layout, table
    from kniffel.planning.winning import SECONDS_PER_LANE, seconds_per_lane

    solved = table(rules.get("kniffel", {"strict": "on"}))
    late = {box.id: 0 for box in solved.rules.boxes[:9]}
    monkeypatch.setattr(disttable, "PACE_SAMPLE", 1)  # a late sheet's cone: small, and a sample here
    assert seconds_per_lane() == SECONDS_PER_LANE
    built = build_table(solved, within=late)
    lanes = lane_layout(solved.compiled, built.root).n_lanes
    assert seconds_per_lane() == pytest.approx(built.seconds / lanes)
    assert seconds_per_lane() != SECONDS_PER_LANE
