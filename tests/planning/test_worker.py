"""The one worker that solves tables for the front ends: a job once however often it is asked for, small
jobs before (and between the pieces of) big ones, cancelled at the next piece, and never waited for when
a person quits; front ends show points with a note while it works."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from kniffel import Game, SeededDice, core, rules
from kniffel.core import Cancel, Cancelled, Progress
from kniffel.planning import worker as worker_module
from kniffel.planning.worker import SMALL, Work, Worker
from kniffel.services.advice import Preparing
from kniffel.services.session import live_chances


def pieces(count: int, seconds: float, log: list[str], name: str):  # type: ignore[no-untyped-def]
    """A job of ``count`` pieces of ``seconds`` each that says when it starts and ends."""

    def run(cancel: Cancel, progress: Progress) -> str:
        log.append(f"{name} starts")
        for done in range(count):
            if cancel():
                raise Cancelled
            time.sleep(seconds)
            progress(done + 1, count)
        log.append(f"{name} ends")
        return name

    return run


def test_a_job_asked_for_twice_runs_once_and_reports_progress() -> None:
    worker = Worker()
    log: list[str] = []
    first = worker.submit("k", Work("Solving {x}", 1.0, 0, (("x", "it"),)), pieces(5, 0.01, log, "a"))
    again = worker.submit("k", Work("Solving {x}", 1.0, 0, (("x", "it"),)), pieces(5, 0.01, log, "b"))
    assert again is first
    assert first.result(timeout=10) == "a"
    assert first.fraction == 1.0
    assert log == ["a starts", "a ends"]
    assert first.work.what == "Solving it"
    assert worker.pending() == []


def test_a_job_hands_what_it_freed_back_to_the_system_before_it_is_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a solve freed (its levels, its scratch) the C library would keep for reuse, scattered over
    the threads' arenas, and a server would hold it still when the next rule set's tables begin. Each
    job, failed ones too, hands it back as it ends."""
    log: list[str] = []
    monkeypatch.setattr(worker_module, "give_back", lambda: log.append("given back"))
    worker = Worker()
    done = worker.submit("ok", Work("ok", 1.0), pieces(2, 0.01, log, "a"))
    assert done.result(timeout=10) == "a"
    assert log == ["a starts", "a ends", "given back"]

    def fails(cancel: Cancel, progress: Progress) -> str:
        raise ValueError("no")

    failed = worker.submit("fails", Work("fails", 1.0), fails)
    assert failed.wait(timeout=10)
    assert log[-1] == "given back"
    assert log.count("given back") == 2


def test_small_jobs_run_between_the_pieces_of_a_big_one() -> None:
    """A late position's cone asked for while a rule set's early tables are solved is done long before
    them: the big job lets it run at its next pause."""
    worker = Worker()
    log: list[str] = []
    big = worker.submit("big", Work("big", SMALL * 10), pieces(100, 0.02, log, "big"))
    while not log:
        time.sleep(0.01)
    small = worker.submit("small", Work("small", 0.5), pieces(2, 0.01, log, "small"))
    assert small.result(timeout=10) == "small"
    assert not big.done()
    assert big.result(timeout=30) == "big"
    assert log == ["big starts", "small starts", "small ends", "big ends"]


def test_a_cancelled_job_stops_at_its_next_piece() -> None:
    worker = Worker()
    log: list[str] = []
    job = worker.submit("slow", Work("slow", 60.0), pieces(10_000, 0.01, log, "slow"))
    while not log:
        time.sleep(0.01)
    started = time.monotonic()
    job.cancel()
    with pytest.raises(Cancelled):
        job.result(timeout=5)
    assert time.monotonic() - started < 1.0
    assert log == ["slow starts"]
    # asked for again, it is a new job
    again = worker.submit("slow", Work("slow", 60.0), pieces(1, 0.0, log, "again"))
    assert again is not job
    assert again.result(timeout=5) == "again"


def test_chances_wait_for_tables_with_a_note_and_come_once_solved(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Strict Kniffel's win tables are not on disk: the first ask hands them to the worker and says what
    it solves; once it has, the chances are there."""
    monkeypatch.setenv("KNIFFEL_PREPARE_WIN_TABLES", "1")
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))  # not the session's: no run has solved them
    strict = rules.get("kniffel", {"strict": "on", "five_full_house": "on"})
    game = Game(strict, ["Ada", "Bob"], dice=SeededDice(2))
    found = live_chances(game)
    assert isinstance(found, Preparing)
    deadline = time.monotonic() + 120
    while isinstance(found, Preparing):
        assert found.solving
        note = found.note(lambda text, **fields: text.format(**fields))
        assert "win tables of Kniffel (Schmidt)" in note  # the rule set as people know it
        assert "Points meanwhile" in note
        assert time.monotonic() < deadline
        time.sleep(0.2)
        found = live_chances(game)
    assert isinstance(found, list)
    # two empty sheets: even chances, a tie shared between them
    assert found == [pytest.approx(0.5), pytest.approx(0.5)]
    # nothing solves when the front end may not ask for it
    monkeypatch.setenv("KNIFFEL_PREPARE_WIN_TABLES", "0")
    other = Game(rules.get("kniffel", {"strict": "on", "sharp": "on"}), ["Ada", "Bob"], dice=SeededDice(2))
    refused = live_chances(other)
    assert isinstance(refused, Preparing)
    assert not refused.solving


def test_a_first_use_says_it_compiles_rather_than_a_progress_that_stands_still(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the kernels a solve runs on compile (the first use on a machine), its progress stands still
    and its estimate leaves the compile out: the front ends say so, with how long so far, in English and
    German; the web's answer shows no progress meanwhile."""
    from kniffel.apps.web import advice
    from kniffel.base.i18n import translate
    from kniffel.core import Compiling

    work = Work("Solving the win tables of {rules} (once; kept on disk)", 8.6, 0, (("rules", "kniffel"),))
    monkeypatch.setattr(core, "compiling", lambda: None)  # (another test's work may compile)
    assert Preparing(work, 0.0).compiling is None
    monkeypatch.setattr(core, "compiling", lambda: Compiling("solve_target", time.monotonic() - 12))
    found = Preparing(work, 0.0)
    assert found.compiling is not None
    assert 12 <= found.compiling < 600
    english = found.note(lambda text, **fields: translate("en", text, **fields))
    assert english.startswith(  # the rule set as people know it, not its id
        "Solving the win tables of Kniffel (Schmidt) (once; kept on disk): compiling the solver first"
    )
    assert "only on its first use (12 s so far)" in english
    german = found.note(lambda text, **fields: translate("de", text, **fields))
    assert "zuerst wird der Löser vorbereitet, nur beim ersten Mal (bisher 12 s)" in german
    answer = advice.preparing(found)
    assert answer["progress"] is None
    assert 12 <= answer["compiling"] < 600
    # what nothing solves says no more than before, and a solve past its compile shows its progress
    assert advice.preparing(Preparing(work, None, solving=False))["compiling"] is None
    monkeypatch.setattr(core, "compiling", lambda: None)
    assert advice.preparing(Preparing(work, 0.25)) == {
        "what": "Solving the win tables of kniffel (once; kept on disk)",
        "progress": 0.25,
        "seconds": 8.6,
        "compiling": None,
    }
    assert "about 9 s, 25 percent done" in Preparing(work, 0.25).note(lambda text, **f: text.format(**f))
    # once the solve runs, what is left at the pace it keeps (not the estimate made before it started),
    # and where it is slower than expected before its pace can tell, the time so far
    running = Preparing(work, 0.25, elapsed=30.0).note(lambda text, **f: text.format(**f))
    assert "about 90 s left, 25 percent done" in running
    slow = Preparing(work, 0.01, elapsed=20.0).note(lambda text, **f: text.format(**f))
    assert "20 s so far, 1 percent done" in slow


def test_quitting_the_game_does_not_wait_for_a_solve(tmp_path: Path) -> None:
    """A player asks for chances of winning in a Yahtzee game, whose win tables take a minute or two,
    then quits: the process ends at once (within a second or two on a busy machine), the solve
    cancelled, and nothing half-written is left in the cache."""
    pexpect = pytest.importorskip("pexpect")
    script = shutil.which("kniffel", path=str(Path(sys.executable).parent))
    assert script is not None
    cache = tmp_path / "cache"
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "COLUMNS": "120",
        "KNIFFEL_CACHE_DIR": str(cache),
        "KNIFFEL_PREPARE_WIN_TABLES": "1",
    }
    child = pexpect.spawn(
        script, ["play", "--plain", "-r", "yahtzee", "-p", "Ada", "-p", "Bob", "--seed", "3"], env=env,
        encoding="utf-8", timeout=120,
    )  # fmt: skip
    prompt = re.compile(r"Ada(?: \[[1-6 ]+\])?> ")
    child.expect(prompt)
    child.sendline("r")
    child.expect(prompt)
    child.sendline("chances")
    child.expect(r"win tables of Yahtzee \(Hasbro\).*Points meanwhile")
    child.expect(prompt)
    time.sleep(1.0)  # the solve is under way
    started = time.monotonic()
    child.sendline("q")
    child.expect("quit anyway")  # the game is not saved: quitting asks first
    child.sendline("y")
    child.expect(pexpect.EOF)
    quitting = time.monotonic() - started
    child.close()
    assert quitting < 3.0, f"quitting took {quitting:.1f} s"
    assert not list(cache.glob("*.tmp")), "a half-written table was left behind"


def test_the_process_worker_is_one() -> None:
    assert worker_module.worker() is worker_module.worker()


TWO_LAUNCHERS = """
import threading
from kniffel import rules
from kniffel.planning.exact import advisor_for
from kniffel.core import play_games

solution = advisor_for(rules.get("kniffel", {"strict": "on"})).solution
failed = []
totals = [[], []]

def simulate(me):
    try:
        for seed in range(12):
            totals[me].append(int(play_games(solution, 2000, seed).scores.sum()))
    except BaseException as error:
        failed.append(error)

threads = [threading.Thread(target=simulate, args=(me,)) for me in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("done", failed, totals[0] == totals[1] and len(totals[0]) == 12)
"""


def test_compiled_work_started_from_two_threads_at_once_runs_and_agrees(solver_cache: Path) -> None:
    """The kernels let go of the GIL, so a server's bot and its worker may start compiled work at once.
    It runs on threads of its own (:func:`kniffel.core.runtime.work.run_parallel`), not in numba's parallel
    loops, whose ``workqueue`` layer (all there is where neither OpenMP nor TBB is installed) aborted
    the whole process when two threads launched them at once: with that layer forced, two threads
    simulating side by side finish and play the same games."""
    import subprocess

    env = {**os.environ, "NUMBA_THREADING_LAYER": "workqueue", "KNIFFEL_CACHE_DIR": str(solver_cache)}
    done = subprocess.run(
        [sys.executable, "-c", TWO_LAUNCHERS], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "done [] True" in done.stdout


def test_the_threads_that_help_compiled_work_do_not_hold_up_the_end_of_a_game() -> None:
    """``kniffel play`` ends at once, without waiting, when something still works in the background
    (:func:`kniffel.planning.worker.busy`). The threads that help compiled work wait idle between calls;
    counted as busy, they made every game that had used them end through ``os._exit``, and a test that
    ran the game in the test's own process ended the whole test run there."""
    import subprocess

    code = (
        "import threading\n"
        "from kniffel.core.runtime.work import is_helper, run_parallel\n"
        "from kniffel.planning import worker\n"
        "run_parallel(8, lambda task: None, threads=2)\n"
        "print(any(is_helper(t) for t in threading.enumerate()), worker.busy())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "False"]
