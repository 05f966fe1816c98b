"""Compile the kernels of the quick bot's moves and of target and win questions before anyone needs one.

On a fresh install the first move of the quick bot (``bot``, the heuristic: its turn search,
:func:`kniffel.core.kernels.sheet.turn_values`) waits 22 s for its kernel to compile, and the first
question about a target score, or about the chance of winning (which reads target rows and final-score
distributions), compiles their kernels first: about ten seconds on a fast machine, longer than the
answer itself takes once they are compiled. A front end a person uses for a
while (the web server, the full-screen game) calls :func:`start` when it starts: a process of low
priority compiles them into numba's disk cache by doing one tiny piece of the real work each (the same
argument types a real question passes, so the same compiled code), and ends; it ends at once too when
the process that started it ends (a server stopped, a game quit), keeping what it compiled so far.
Whatever asks later loads them from the cache.

It can only save time, never change a result: the kernels are compiled from the same sources into the
same cache, numba writes each cache file under a temporary name and renames it into place, and a
process that needs a kernel before the warm-up has written it compiles it itself. No process starts
where everything is compiled already, or where :data:`WARM_UP_ENV` says not to.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

WARM_UP_ENV = "KNIFFEL_WARM_UP"
"""Set to ``0`` to start no warm-up (the tests do: they compile everything anyway)."""

STARTER_ENDED = 3
"""The warm-up's exit status when it stopped because the process that started it had ended."""

_started: list[subprocess.Popen[bytes]] = []
"""The warm-ups this process started: each reads a pipe whose other end this process holds, open until
it ends (a process object collected early would close it)."""


def _dispatchers() -> list[object]:
    from kniffel.core.kernels.distribution import chunk_distributions, chunk_outcomes, situation_outcomes
    from kniffel.core.kernels.sheet import turn_values
    from kniffel.core.kernels.win import at_least, best_of
    from kniffel.core.target import question_kernels

    return [
        turn_values,
        *question_kernels(),
        chunk_outcomes,
        chunk_distributions,
        situation_outcomes,
        best_of,
        at_least,
    ]


def warm_up_needed() -> bool:
    """Whether a kernel the warm-up compiles is neither compiled in this process nor in the disk cache."""
    from kniffel.core.runtime.precompile import needs_compiling

    return any(needs_compiling(kernel) for kernel in _dispatchers())


def warm_up(rules_id: str = "yahtzee") -> None:
    """Compile (or load) the kernels by solving the final-score distributions of a sheet with two boxes
    open (a few milliseconds once compiled), asking a target question, and valuing a turn on a sheet of
    one column as the quick bot does; sheets of several columns share the bot's kernels. The kernels
    look at the types of the expected-score values, not at the values, so none are solved for it.

    In the order a new table's chances of winning need them (the win tables read the distributions,
    then the target rows), the quick bot's turn search last: a live bot plays the Python lookahead
    until it is compiled (the same values), so nobody waits for it, while the chances of winning of a
    fresh install waited for the kernels this process had not reached yet (measured on the Zen 5:
    chances shown after 24-29 s instead of 36 s)."""
    import numpy as np

    from kniffel import rules
    from kniffel.core.advisor import Advisor
    from kniffel.core.distribution import situation_distribution
    from kniffel.core.disttable import ScoreDistribution, best_of, build_table, chance_at_least
    from kniffel.core.kernels.sheet import sheet_tables, stacked_values, turn_values
    from kniffel.core.points import Solution, empty_values
    from kniffel.core.position import ColumnPosition, SheetState
    from kniffel.core.tables import compile_rules
    from kniffel.core.target import TargetAdvisor
    from kniffel.core.targetrows import solve_rows

    ruleset = rules.get(rules_id)
    c = compile_rules(ruleset)

    solution = Solution(c, empty_values(c), 0.0)
    sheet = {box.id: 0 for box in ruleset.boxes[2:]}
    table = build_table(solution, within=sheet)
    position = ColumnPosition(sheet, tuple(range(1, ruleset.dice + 1)), ruleset.rolls - 1)
    # the mover's final score with the dice showing, and the chance of beating the best of the others'
    # (as every chance of winning shown during a turn is worked out)
    mover = situation_distribution(table, position)
    chance_at_least(mover, best_of([mover, ScoreDistribution.certain(0)]))
    root = SheetState.of(c, sheet)
    rows = solve_rows(c, root=root, low=1, high=20)
    TargetAdvisor(Advisor(solution), rows).options(position, 10)
    # the quick bot's turn search on an empty sheet, with the arguments of
    # kniffel.planning.compiled.SheetSearch.choices (sheets of one to four columns share one kernel)
    empty = np.zeros(1, dtype=np.int64)
    values = stacked_values([empty_values(c)])
    turn_values(sheet_tables([c.kernel_tables]), values, empty, empty, empty, empty, ruleset.rolls)


def start_warm_up() -> subprocess.Popen[bytes] | None:
    """Start the warm-up in a process of low priority if it can help; None if not (nothing to compile,
    no second processor, :data:`WARM_UP_ENV` ``0`` or :data:`~.runtime.precompile.HELPER_ENV` set).
    Nobody waits for it."""
    from kniffel.core.runtime.precompile import HELPER_ENV, processors

    if os.environ.get(WARM_UP_ENV) == "0" or os.environ.get(HELPER_ENV):
        return None
    if not sys.executable or processors() < 2:
        return None
    try:
        if not warm_up_needed():
            return None
        package_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [sys.executable, "-m", "kniffel.core.warm"],
            stdin=subprocess.PIPE,  # its end of the pipe closes when this process ends, however it ends
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # a Ctrl-C in the terminal is the game's, not the warm-up's
        )
    except Exception:  # a warm-up that cannot start only costs the time it would save
        return None
    _started.append(process)
    return process


def end_with_starter(starter: int) -> None:
    """Wait until the process that started the warm-up ends (the pipe it holds, file descriptor
    ``starter`` here, reads to its end; it never writes), then end this one at once. The kernels compiled
    so far stay in the cache: numba writes each under a temporary name and renames it into place. Read
    unbuffered: a thread waiting in a buffered read held the buffer's lock, and the interpreter, ending
    after its work, aborted on it."""
    while os.read(starter, 4096):
        pass
    os._exit(STARTER_ENDED)


def main() -> None:
    if hasattr(os, "nice"):
        os.nice(10)  # whatever the person does meanwhile comes first
    threading.Thread(target=end_with_starter, args=(sys.stdin.fileno(),), daemon=True).start()
    warm_up()


if __name__ == "__main__":
    main()
