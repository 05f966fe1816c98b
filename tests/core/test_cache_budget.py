"""The table cache's budget: solved tables on disk stay within it, the least recently used go first (the
expected-score tables every game reads last), a table that cannot fit is not written, a solve nobody waits
for any more is cancelled, and ``kniffel cache`` shows the budget and its use."""

from __future__ import annotations

import fcntl
import json
import os
import re
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from kniffel import rules
from kniffel.apps.cli.app import app
from kniffel.core import (
    CACHE_BUDGET_ENV,
    CACHE_DIR_ENV,
    Cancel,
    Cancelled,
    OverBudgetError,
    Progress,
    cache_budget,
    parse_size,
    table,
    table_key,
    table_path,
    tables_size,
)
from kniffel.core.runtime.store import DEFAULT_BUDGET, derived_path, load_array, save_array, solving
from kniffel.planning.worker import Work, Worker

KB = 1000


def derived(directory: Path, rules_id: str, size: int) -> Path:
    """A win table (``win-early``) of ``size`` bytes for ``rules_id``, written through the cache."""
    ruleset = rules.get(rules_id)
    path = derived_path(ruleset, "win-early", directory)
    array = np.zeros(size // 8, dtype=np.float64)
    save_array(path, table_key(ruleset), array, {"rules": ruleset.id, "options": {}})
    return path


def on_disk(directory: Path) -> int:
    return tables_size(directory)


def test_sizes_read_as_people_write_them() -> None:
    assert parse_size("1GB") == 10**9
    assert parse_size(" 500 mb ") == 500 * 10**6
    assert parse_size("64k") == 64_000
    assert parse_size("2e9") == 2 * 10**9
    with pytest.raises(ValueError, match="optional unit"):
        parse_size("lots")


def test_the_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CACHE_BUDGET_ENV, raising=False)
    assert cache_budget() == DEFAULT_BUDGET == 10**9
    monkeypatch.setenv(CACHE_BUDGET_ENV, "300MB")
    assert cache_budget() == 300 * 10**6
    monkeypatch.setenv(CACHE_BUDGET_ENV, "nonsense")
    assert cache_budget() == DEFAULT_BUDGET


def test_the_least_recently_used_go_first_and_the_expected_scores_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = table(rules.get("yatzy"), directory=tmp_path)
    scores = expected.values.nbytes
    size = 200 * KB
    monkeypatch.setenv(CACHE_BUDGET_ENV, str(scores + 2 * size + 20 * KB))
    first = derived(tmp_path, "kniffel", size)
    time.sleep(0.05)
    second = derived(tmp_path, "knoeffel", size)
    time.sleep(0.05)
    # the oldest file is the expected-score table, and the first win table was read since: the second goes
    os.utime(table_path(rules.get("yatzy"), tmp_path).with_suffix(".json"), (1, 1))
    ruleset = rules.get("kniffel")
    assert load_array(first, table_key(ruleset), (size // 8,), np.float64) is not None
    third = derived(tmp_path, "yahtzee", size)
    assert first.exists()
    assert not second.exists(), "the least recently used win table was removed"
    assert third.exists()
    assert table_path(rules.get("yatzy"), tmp_path).exists(), "expected scores go last"
    assert on_disk(tmp_path) <= cache_budget()


def test_a_table_larger_than_the_budget_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_BUDGET_ENV, "100kB")
    with pytest.raises(OverBudgetError):
        derived(tmp_path, "kniffel", 400 * KB)
    assert on_disk(tmp_path) == 0
    solution = table(rules.get("yatzy"), directory=tmp_path)  # solved, kept in memory only
    assert np.isfinite(solution.expected_score)
    assert on_disk(tmp_path) == 0, "nothing beyond the budget was written"


def test_a_table_another_process_is_writing_is_never_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    size = 300 * KB
    monkeypatch.setenv(CACHE_BUDGET_ENV, str(size + 50 * KB))
    busy = derived(tmp_path, "kniffel", size)
    with open(busy.with_suffix(".lock"), "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)  # as a writer holds it (another open file)
        with pytest.raises(OverBudgetError):
            derived(tmp_path, "yahtzee", size)
        assert busy.exists()
    derived(tmp_path, "yahtzee", size)
    assert not busy.exists(), "once its writer is done it may go"


def test_a_reader_keeps_a_removed_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Linux: a memory map outlives its file's name, so evicting a table never pulls it from under a
    reader (the module docstring says what Windows does instead)."""
    size = 300 * KB
    monkeypatch.setenv(CACHE_BUDGET_ENV, str(size + 50 * KB))
    path = derived(tmp_path, "kniffel", size)
    ruleset = rules.get("kniffel")
    mapped = load_array(path, table_key(ruleset), (size // 8,), np.float64)
    assert mapped is not None
    derived(tmp_path, "yahtzee", size)
    assert not path.exists()
    assert mapped.shape == (size // 8,)
    assert float(mapped.sum()) == 0.0, "still readable"


def test_a_job_that_would_write_beyond_the_budget_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    monkeypatch.setenv(CACHE_BUDGET_ENV, "1MB")
    ran = threading.Event()
    worker = Worker()
    job = worker.submit("big", Work("big", 1.0, 5_000_000), lambda cancel, progress: ran.set())
    with pytest.raises(OverBudgetError):
        job.result(30)
    assert not ran.is_set(), "nothing was solved, nothing written"
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1
    assert refused[0].exc_info is None, "an expected refusal is one line"
    time.sleep(0.1)  # the worker files the refusal once the job is done
    again = worker.submit("big", Work("big", 1.0, 5_000_000), lambda cancel, progress: ran.set())
    assert again is job, "not tried again at once: every ask would refuse it anew"


def test_a_solve_nobody_asks_about_any_more_is_cancelled() -> None:
    worker = Worker()
    worker.abandon_after = 0.5
    started = threading.Event()

    def solve(cancel: Cancel, progress: Progress) -> str:
        started.set()
        while not cancel():
            time.sleep(0.02)
        raise Cancelled

    asked = worker.submit("wanted", Work("wanted", 1.0), solve)
    assert started.wait(30)
    for _ in range(10):  # a page asking every 0.2 s keeps it going
        time.sleep(0.2)
        assert worker.job("wanted") is asked
        assert not asked.done()
    with pytest.raises(Cancelled):
        asked.result(30)  # then nobody asks: it stops


def test_kniffel_cache_shows_the_budget_and_its_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    monkeypatch.setenv(CACHE_BUDGET_ENV, "5MB")
    derived(tmp_path, "kniffel", 400 * KB)
    result = CliRunner().invoke(app, ["cache", "--lang", "en"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert re.search(r"Budget for solved tables: 40\d kB of 5(\.0)? MB used", text), text
    assert CACHE_BUDGET_ENV in text


def test_a_table_written_straight_to_its_file_is_brought_within_the_budget_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The final-score tables are written level by level straight into their file: the budget is kept
    once the writer lets go of its lock (the table just written stays)."""
    size = 300 * KB
    monkeypatch.setenv(CACHE_BUDGET_ENV, str(size + 50 * KB))
    older = derived(tmp_path, "kniffel", size)
    path = derived_path(rules.get("yahtzee"), "dist-early", tmp_path)
    with solving(path):
        path.write_bytes(bytes(size))
        path.with_suffix(".json").write_text(json.dumps({"rules": "yahtzee", "options": {}}))
    assert path.exists()
    assert not older.exists()
    assert on_disk(tmp_path) <= cache_budget()
