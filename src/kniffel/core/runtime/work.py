"""What long work in the solver takes from its caller: a way to report progress and a way to be stopped.

A table solved level by level calls ``progress(done, total)`` after each piece of work and asks
``cancelled()`` before the next one; once that says yes it raises :class:`Cancelled` and leaves nothing
half-written behind. A piece of work is one compiled call, cut small enough (a fraction of a second) that
stopping is prompt.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

Progress = Callable[[int, int], None]
"""Called with the work done and the work in all (any unit)."""
Cancel = Callable[[], bool]
"""Asked between pieces of work: whether to stop."""


class Cancelled(Exception):  # noqa: N818 - it names what happened, as KeyboardInterrupt does
    """Work given up because its caller asked (:data:`Cancel`); nothing it would have written is there."""


def check(cancel: Cancel | None) -> None:
    """Raise :class:`Cancelled` if ``cancel`` says so."""
    if cancel is not None and cancel():
        raise Cancelled


def compiled_threads() -> int:
    """Threads that compiled work started from this thread runs on (numba's, at most
    ``NUMBA_NUM_THREADS``)."""
    import numba  # here, not at the top: reading progress and cancelling need no compiler

    return max(1, int(numba.get_num_threads()))


def use_threads(wanted: int) -> None:
    """Run compiled work started from this thread on ``wanted`` threads (at least one, at most
    ``NUMBA_NUM_THREADS``): numba's thread count is per calling thread, so a worker thread or a Ray task
    leaves the other processors to the rest."""
    import numba

    most = int(getattr(numba.config, "NUMBA_NUM_THREADS", 1))
    numba.set_num_threads(max(1, min(wanted, most)))


if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

HELPER_NAME = "kniffel-compiled"
"""The names of the threads that help callers of :func:`run_parallel` start with this."""
_helpers = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix=HELPER_NAME)
"""The threads that help callers of :func:`run_parallel` (started as they are first asked for). Between
calls they wait for work and hold up nothing: Python ends them at exit, and a caller is never left with
one still working (:func:`run_parallel` returns once its helpers have stopped)."""


def is_helper(thread: threading.Thread) -> bool:
    """Whether ``thread`` is one of the threads that help :func:`run_parallel`'s callers."""
    return thread.name.startswith(HELPER_NAME)


def run_parallel(tasks: int, run: Callable[[int], None], threads: int | None = None) -> None:
    """``run(0)``, ``run(1)``, ... ``run(tasks - 1)`` on ``threads`` threads (by default
    :func:`compiled_threads`), the calling one among them, each taking the next task when it finishes
    one (tasks that differ in size still end together). ``run`` calls compiled kernels that let go of
    the GIL, so the threads run at once; numba's own parallel loops are not used for this, because
    compiling a kernel for them cost twice the kernel's own compile time. The first error raised stops
    the handing out of tasks and is raised here once every thread has stopped."""
    threads = min(tasks, compiled_threads() if threads is None else threads)
    if threads <= 1:
        for task in range(tasks):
            run(task)
        return
    counter = itertools.count()
    errors: list[BaseException] = []

    def work() -> None:
        while not errors:
            task = next(counter)  # one bytecode: the GIL hands each number out once
            if task >= tasks:
                return
            try:
                run(task)
            except BaseException as error:  # an interrupt too: the other threads stop, then it is raised
                errors.append(error)
                return

    helpers: list[Future[None]] = [_helpers.submit(work) for _ in range(threads - 1)]
    work()
    for helper in helpers:
        helper.cancel()  # one still queued behind another caller's work is not waited for
    wait(helpers)
    if errors:
        raise errors[0]


PARTS = 16
"""Runs that cheap work on each of many items (cutting a level's windows, finding its runs of asked
targets, the horizon's rows) is cut into for the compiled threads, so that they end it together."""


def run_in_parts(count: int, run: Callable[[int, int], object]) -> None:
    """``run(first, last)`` over ``0 .. count - 1`` in :data:`PARTS` runs, on the compiled threads."""
    run_ranges(count, max(1, -(-count // PARTS)), run)


def run_ranges(count: int, size: int, run: Callable[[int, int], object]) -> None:
    """``run(first, last)`` for the ranges ``0 .. size - 1``, ``size .. 2 * size - 1`` ... of ``0 ..
    count - 1``, on the compiled threads (:func:`run_parallel`)."""
    run_between([*range(0, count, size), count] if count > 0 else [0], run)


def run_between(bounds: Sequence[int] | npt.NDArray[np.int64], run: Callable[[int, int], object]) -> None:
    """``run(bounds[i], bounds[i + 1])`` for every ``i``, on the compiled threads (:func:`run_parallel`)."""

    def task(number: int) -> None:
        run(int(bounds[number]), int(bounds[number + 1]))

    run_parallel(len(bounds) - 1, task)


__all__ = [
    "Cancel",
    "Cancelled",
    "Progress",
    "check",
    "compiled_threads",
    "is_helper",
    "run_between",
    "run_in_parts",
    "run_parallel",
    "run_ranges",
    "use_threads",
]
