"""Compile the solver's kernels when the package is installed, so that a new user's first commands run
compiled code from the start.

numba compiles a kernel the first time a process calls it and keeps the machine code in its disk cache
(:mod:`kniffel.core.runtime.kernelcache`). Without this, a new user's first solve spent most of its time
compiling, and the first question about a target waited 8.5 s for an answer that takes 1.8 s compiled
(Zen 5; ``docs/explanation/kernels.md``, "Compiling once"). An editable install (the README's)
runs :func:`compile_kernels` from its build step (``tools/kniffel_build.py``): it plays a little of
what those commands play, on two processors where there are two, into the same cache the commands read
(for the processor numba compiles for here, and the numba of the install).

It can only save time, never change a result: the kernels are compiled from the same sources, with the
argument types the commands pass (a test holds that they then compile nothing), and numba writes each
cache file under a temporary name and renames it into place. The tables it solves on the way go to a
temporary directory, never the user's table cache. ``KNIFFEL_COMPILE_AT_INSTALL=0`` skips it (the
kernels are then compiled at their first use, as before); ``kniffel cache compile`` runs it for any
install.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from kniffel.core import CACHE_DIR_ENV

SKIP_ENV = "KNIFFEL_COMPILE_AT_INSTALL"
"""Set to ``0`` for an install that compiles nothing."""


def play_and_advise() -> None:
    """Compile (or load) the kernels of a solve, of advice for points (one situation and a batch of
    them), of games played for points and to win, and of the quick bot's games on a sheet of three
    columns. On Kniffel with the strict order, whose tables (a few states a level, solved in a moment)
    have the types of every single-column rule set's: the kernels are the ones those use."""
    from kniffel import rules
    from kniffel.core import (
        Advisor,
        ColumnPosition,
        Solution,
        compile_rules,
        play_games,
        play_to_win,
        solve_compiled,
    )
    from kniffel.services.batch import run_batch
    from kniffel.services.simulate import simulate

    ruleset = rules.get("kniffel", {"strict": "on"})
    solution: Solution = solve_compiled(compile_rules(ruleset))
    advisor = Advisor(solution)
    advisor.options(ColumnPosition({}, tuple(range(1, ruleset.dice + 1)), ruleset.rolls - 1))
    line = '{"sheet": {}, "dice": [1, 2, 3, 4, 5], "rolls_left": 2}\n'
    run_batch(advisor, ruleset, io.StringIO(line), io.StringIO())
    play_games(solution, 2, seed=1)
    play_to_win(solution, players=2, deals=1, seed=1)
    simulate(rules.get("kniffel-3col"), strategy="bot", games=2, seed=1)


def questions() -> None:
    """Compile (or load) the kernels of target questions, distributions and chances of winning, and of
    the quick bot's turn search (:func:`kniffel.core.warm_up`)."""
    from kniffel.core import warm_up

    warm_up()


def compile_kernels() -> float:
    """Compile every kernel of :func:`play_and_advise` and :func:`questions`, the one in a second process
    where there is a second processor, their tables in a temporary directory; the seconds it took.
    Raises :class:`RuntimeError` if the second process failed."""
    from kniffel.core import processors

    begin = time.perf_counter()
    with _tables_aside():
        if processors() < 2:
            play_and_advise()
            questions()
            return time.perf_counter() - begin
        helper = subprocess.Popen([sys.executable, "-m", "kniffel.services.install", "--part", "play"])
        try:
            questions()
            status = helper.wait()
        finally:
            if helper.poll() is None:  # this process failed or was interrupted: the helper ends with it
                helper.kill()
                helper.wait()
        if status != 0:
            raise RuntimeError(f"compiling the kernels of play failed (exit status {status})")
    return time.perf_counter() - begin


@contextmanager
def _tables_aside() -> Iterator[None]:
    """The table cache in a temporary directory (for this process and those it starts), then back."""
    before = os.environ.get(CACHE_DIR_ENV)
    with tempfile.TemporaryDirectory(prefix="kniffel-install-") as tables:
        os.environ[CACHE_DIR_ENV] = tables
        try:
            yield
        finally:
            if before is None:
                del os.environ[CACHE_DIR_ENV]
            else:
                os.environ[CACHE_DIR_ENV] = before


def main(argv: list[str]) -> int:
    """``--part play``: :func:`play_and_advise` alone (the second process); else :func:`compile_kernels`,
    saying what it does on standard error."""
    if argv == ["--part", "play"]:  # asked for by compile_kernels, whatever SKIP_ENV says
        with _tables_aside():
            play_and_advise()
        return 0
    if os.environ.get(SKIP_ENV) == "0":
        return 0
    print("kniffel: compiling the solver for this processor (once for each version)", file=sys.stderr)
    print(f"kniffel: the solver is compiled ({compile_kernels():.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
