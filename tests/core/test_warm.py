"""The warm-up compiles what the quick bot's first move, a first target question and a first chance of
winning need (:mod:`kniffel.core.warm`)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from kniffel import core
from kniffel.core import WARM_UP_ENV, distribution, disttable, start_warm_up, target, targetrows, warm_up
from kniffel.core.kernels import sheet as sheet_kernels
from kniffel.core.runtime import precompile
from kniffel.core.runtime.precompile import HELPER_ENV
from kniffel.core.warm import STARTER_ENDED, _started, end_with_starter
from support.kernels import kernels_compiled_after

WARM_UP = """
from kniffel import rules
from kniffel.core import WARM_UP_ENV, start_warm_up, warm_up
from kniffel.core.warm import STARTER_ENDED, _started, end_with_starter
from kniffel.planning.exact import advisor_for

advisor = advisor_for(rules.get("yahtzee"))  # the expected-score kernels: not the warm-up's
warm_up()
"""

ASK_AFTER_WARMING = """
from kniffel import Game, SeededDice, bots
from kniffel.core import situation_distribution, state_distribution
from kniffel.core import best_of, chance_at_least
from kniffel.core import ColumnPosition
from kniffel.core import TargetAdvisor, solve_rows

sheet = {"ones": 3, "twos": 6, "chance": 22, "full_house": 25, "yahtzee": 50, "sixes": 24}
rows = solve_rows(advisor.compiled, root=advisor.state(sheet), low=120, high=120)
TargetAdvisor(advisor, rows).options(ColumnPosition(sheet, (2, 2, 3, 5, 5), 2), 120)
# a chance of winning shown during a turn: the mover's final score against the other player's
mover = situation_distribution(advisor.solution, ColumnPosition(sheet, (1, 4, 4, 6, 6), 1))
other = state_distribution(advisor.solution, {"threes": 9, "fours": 12, "chance": 25})
chance_at_least(mover, best_of([other]))
chance_at_least(other, best_of([mover]))
game = Game(rules.get("kniffel"), ["Ada", "Bot"], dice=SeededDice(1))  # the quick bot's first move
game.roll()
bots.make("bot").choose(game)
game = Game(rules.get("kniffel-4col"), ["Ada", "Bot"], dice=SeededDice(1))  # and on four columns
game.roll()
bots.make("bot").choose(game)
"""


def test_after_the_warm_up_a_bot_move_and_a_real_target_question_compile_nothing(solver_cache: Any) -> None:
    """The warm-up works on made-up values and a sheet of its own; the quick bot's move (another rule
    set) and a real question (solved values, another sheet, another target) must use the very kernels
    it compiled, in a fresh process: numba compiles again for any argument of another type (a read-only
    array where the warm-up passed a writable one, say), and a kernel the warm-up never called would be
    compiled by the question."""
    assert kernels_compiled_after(WARM_UP, ASK_AFTER_WARMING) == []


def test_the_warm_up_compiles_what_the_chances_need_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chances of winning of a new table wait for the distributions' and the target rows' kernels;
    the quick bot waits for nothing (it plays the Python lookahead until its search is compiled)."""

    called: list[str] = []

    def noting(name: str) -> Any:
        def note(*args: Any, **kwargs: Any) -> None:
            called.append(name)

        return note

    class Options:
        def __init__(self, *args: Any) -> None:
            called.append("target options")

        def options(self, *args: Any) -> None:
            return None

    monkeypatch.setattr(disttable, "build_table", noting("distributions"))
    monkeypatch.setattr(distribution, "situation_distribution", noting("the mover's distribution"))
    monkeypatch.setattr(disttable, "best_of", noting("the others' best"))
    monkeypatch.setattr(disttable, "chance_at_least", noting("the chance of winning"))
    monkeypatch.setattr(targetrows, "solve_rows", noting("target rows"))
    monkeypatch.setattr(target, "TargetAdvisor", Options)
    monkeypatch.setattr(sheet_kernels, "turn_values", noting("turn search"))
    warm_up()
    assert called == [
        "distributions",
        "the mover's distribution",
        "the others' best",
        "the chance of winning",
        "target rows",
        "target options",
        "turn search",
    ]


def test_no_warm_up_starts_where_it_cannot_help(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WARM_UP_ENV, raising=False)
    warm_up()
    assert start_warm_up() is None  # everything is compiled
    monkeypatch.setattr(core.warm, "warm_up_needed", lambda: True)
    monkeypatch.setenv(WARM_UP_ENV, "0")
    assert start_warm_up() is None
    monkeypatch.delenv(WARM_UP_ENV)
    monkeypatch.setenv(HELPER_ENV, "1")
    assert start_warm_up() is None
    monkeypatch.delenv(HELPER_ENV)
    monkeypatch.setattr(precompile, "processors", lambda: 1)
    assert start_warm_up() is None


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[subprocess.Popen[bytes]]:
    """A warm-up started as a front end starts one where something is left to compile."""
    monkeypatch.delenv(WARM_UP_ENV, raising=False)
    monkeypatch.delenv(HELPER_ENV, raising=False)
    monkeypatch.setattr(core.warm, "warm_up_needed", lambda: True)
    monkeypatch.setattr(precompile, "processors", lambda: 2)
    process = start_warm_up()
    assert process is not None
    assert process in _started  # held: the pipe it watches stays open while this process runs
    yield process
    _started.remove(process)


def test_a_warm_up_starts_where_something_is_left_to_compile(started: subprocess.Popen[bytes]) -> None:
    """It runs on its own (a session of its own, low priority) and ends by itself."""
    assert started.wait(timeout=600) == 0


def test_a_warm_up_ends_at_once_with_the_process_that_started_it(started: subprocess.Popen[bytes]) -> None:
    """A server stopped or a game quit leaves no compiling process behind: the warm-up's end of the pipe
    reads to its end, and it stops (what it compiled stays in the cache)."""
    assert started.stdin is not None
    started.stdin.close()  # what the system does when the starter ends, however it ends
    assert started.wait(timeout=120) == STARTER_ENDED


def test_the_watch_on_the_starter_waits_for_the_end_of_the_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """It reads what comes (nothing is ever sent) and ends the process only at the pipe's end."""
    import os
    import threading

    read, write = os.pipe()
    ended: list[int] = []
    monkeypatch.setattr(os, "_exit", ended.append)
    thread = threading.Thread(target=end_with_starter, args=(read,), daemon=True)
    thread.start()
    try:
        os.write(write, b"x")
        thread.join(0.5)
        assert thread.is_alive()
        assert not ended
    finally:
        os.close(write)
    thread.join(10)
    assert ended == [STARTER_ENDED]
    os.close(read)
