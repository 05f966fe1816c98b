"""What long work in the solver takes from its caller: a way to report progress and a way to be stopped.

A table solved level by level calls ``progress(done, total)`` after each piece of work and asks
``cancelled()`` before the next one; once that says yes it raises :class:`Cancelled` and leaves nothing
half-written behind. A piece of work is one compiled call, cut small enough (a fraction of a second) that
stopping is prompt.
"""

from __future__ import annotations

from collections.abc import Callable

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


__all__ = ["Cancel", "Cancelled", "Progress", "check", "compiled_threads", "use_threads"]
