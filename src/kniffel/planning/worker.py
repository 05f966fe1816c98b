"""One bounded worker per process for the long solves a front end must not wait for.

Playing to win reads tables that take from a fraction of a second (the cone of a late position) to a
minute or two (a rule set's early tables) to solve. A person never waits on them: a front end asks
whether what it needs is there, and if not hands the solve to this worker and shows something else
meanwhile (points instead of chances of winning, with a note). The worker

* runs one job at a time on one thread of its own (a daemon: quitting never waits for it), so a server
  has at most one solve per process and every other request keeps a processor;
* takes each job once: asking again for a job that is queued or running gives the same :class:`Job`;
* runs small jobs (a late position's cone, seconds) before big ones (a rule set's early tables, a
  minute or two), and in the pauses of a big one that is running;
* lets every job be cancelled: the solvers ask between pieces of work a fraction of a second long
  (:mod:`kniffel.core.runtime.work`), so a cancelled job stops at once, and :func:`shutdown` stops them all;
* reports each job's progress and says what it is (a sentence, the seconds and bytes it is expected to
  take) so that a front end can say so before anything big is written;
* makes room in the table cache's budget for what a job will write before it starts
  (:func:`kniffel.core.runtime.store.make_room`; a job that cannot fit is refused with
  :class:`~kniffel.core.runtime.store.OverBudgetError`) and brings the cache within it after;
* with :attr:`Worker.abandon_after` set (a server sets it), cancels a job nobody asked about for that
  long: every ask (:meth:`Worker.submit`, :meth:`Worker.job`) says someone still waits for it.

Nothing here holds a lock while a job runs: asking about jobs never waits for a solve.
"""

from __future__ import annotations

import contextlib
import heapq
import logging
import os
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kniffel.core import Cancel, Cancelled, Progress, give_back, is_helper, use_threads
from kniffel.planning.interface import PlanningError

T = TypeVar("T")
log = logging.getLogger("kniffel.planning")

THREADS_ENV = "KNIFFEL_WORKER_THREADS"
"""Threads a job's compiled kernels may use (default: all processors but one, at least one), so that a
server's requests keep a processor while the worker solves."""


@dataclass(frozen=True)
class Work:
    """What a job is, for people: a sentence and what it is expected to cost."""

    template: str
    """A short sentence in English with ``{name}`` fields ("Solving the win tables of {rules}"): front
    ends translate the template and fill in :attr:`fields`."""
    seconds: float
    """Expected time on this machine, roughly."""
    bytes: int = 0
    """What it writes to disk (0: nothing, it is held in memory only)."""
    fields: tuple[tuple[str, str], ...] = ()

    @property
    def what(self) -> str:
        """The sentence in English."""
        return self.template.format(**dict(self.fields))

    @property
    def big(self) -> bool:
        """Whether a person should be told before it starts (over 10 s or 100 MB)."""
        return self.seconds > 10 or self.bytes > 100_000_000


@dataclass(frozen=True)
class Refusal:
    """Why the table cache's budget refused a job: what it would write and the budget, so that a
    front end can say how far to raise it (``--cache-budget``, ``KNIFFEL_CACHE_BUDGET``)."""

    needs: int
    """Bytes the job writes."""
    budget: int
    """Bytes the cache may hold in all."""


@dataclass(eq=False)
class Job(Generic[T]):
    """A solve handed to the worker. ``run(cancel, progress)`` does the work."""

    key: Hashable
    work: Work
    run: Callable[[Cancel, Progress], T]
    done_count: int = 0
    total_count: int = 0
    started: float | None = None
    asked: float = field(default_factory=time.monotonic)
    """When someone last asked for the job (:meth:`Worker.submit`, :meth:`Worker.job`)."""
    abandon_after: float | None = None
    """Cancel the job once nobody asked for it this many seconds (None: never)."""
    _cancelled: threading.Event = field(default_factory=threading.Event)
    _finished: threading.Event = field(default_factory=threading.Event)
    _result: Any = None
    _error: BaseException | None = None
    refusal: Refusal | None = None
    """Set when the table cache's budget refused the job: it never runs until the budget is raised (a
    front end says so rather than "preparing" for ever)."""

    def cancel(self) -> None:
        """Stop the job (at its next piece of work if it runs; before it starts if it waits)."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def abandoned(self) -> bool:
        """Whether nobody asked for the job for :attr:`abandon_after` seconds (then it is cancelled)."""
        if self.abandon_after is not None and time.monotonic() - self.asked > self.abandon_after:
            if not self._cancelled.is_set():
                log.info("%s: nobody waits for it any more, cancelled", self.work.what)
            self._cancelled.set()
        return self._cancelled.is_set()

    def done(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job is done (or ``timeout`` seconds); whether it is."""
        return self._finished.wait(timeout)

    def result(self, timeout: float | None = None) -> T:
        """The job's result, waiting for it; raises what the job raised (:class:`Cancelled` if it was
        cancelled) or :class:`TimeoutError`."""
        if not self._finished.wait(timeout):
            raise TimeoutError(f"{self.work.what}: not done after {timeout} s")
        if self._error is not None:
            raise self._error
        result: T = self._result
        return result

    @property
    def fraction(self) -> float | None:
        """How much of the work is done, 0 to 1 (None before the job has said how much there is)."""
        if self.total_count <= 0:
            return None
        return min(1.0, self.done_count / self.total_count)

    def _progress(self, done: int, total: int) -> None:
        self.done_count, self.total_count = done, total

    def _execute(self, pause: Callable[[], None] | None = None) -> None:
        def cancelled() -> bool:
            if pause is not None:
                pause()
            return self.abandoned()

        try:
            if self.abandoned():
                raise Cancelled
            self.started = time.monotonic()
            from kniffel.core import cache_budget, make_room, trim_cache

            if self.work.bytes:
                try:
                    make_room(self.work.bytes)  # OverBudgetError: refused, nothing written
                except OSError as error:
                    if type(error).__name__ == "OverBudgetError":
                        self.refusal = Refusal(self.work.bytes, cache_budget())
                    raise
            try:
                self._result = self.run(cancelled, self._progress)
            finally:
                if self.work.bytes:
                    trim_cache()
                # what the solve freed (its levels, scratch) the C library keeps for reuse, scattered
                # over the threads' arenas: else a server holds it still when the next rule set's
                # tables begin
                give_back()
        except BaseException as error:  # handed to whoever asks for the result
            self._error = error
            if type(error).__name__ == "OverBudgetError":  # expected: the budget says no, one line
                log.warning("%s refused: %s", self.work.what, error)
            elif not isinstance(error, Cancelled):
                log.exception("%s failed", self.work.what)
        finally:
            self._finished.set()


class NotReady(PlanningError):  # noqa: N818 - not a mistake but a state: asked again later, it passes
    """What a planner needs is being solved by the worker; ``job`` says what and how far it is (None:
    nothing solves it, as :data:`kniffel.planning.winning.PREPARE_ENV` asks)."""

    def __init__(self, job: Job[Any] | None, work: Work, *, early: bool = False) -> None:
        super().__init__(f"{work.what}: not ready yet")
        self.job = job
        self.work = work
        self.early = early
        """The rule set's early win tables are missing: a front end that shows chances of winning starts
        them (:meth:`kniffel.planning.winning.WinTables.prepare`, saying so); a bot plays for points
        meanwhile."""


REFUSED_FOR = 60.0
"""Seconds a job the table cache's budget refused is not tried again (its askers are told the refusal)."""

SMALL = 10.0
"""A job expected to take at most this many seconds (a cone of a late position) runs before bigger ones,
and in the pauses of a running big job (the early win tables): one game's chances never wait a minute
for another's tables."""


class Worker:
    """The worker thread and its jobs (see the module docstring). Made once per process:
    :func:`worker`. Small jobs (:data:`SMALL`) come first, and a big job that is running lets them run
    between its pieces of work; otherwise jobs run in the order asked for."""

    def __init__(self) -> None:
        self._jobs: dict[Hashable, Job[Any]] = {}
        self._waiting: list[tuple[bool, int, Job[Any]]] = []
        self._order = 0
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self.current: Job[Any] | None = None
        self._refused: dict[Hashable, tuple[float, Job[Any]]] = {}
        self.abandon_after: float | None = None
        """Cancel a job nobody asked about for this many seconds (None: never; a server sets it, so
        that a solve whose pages went away stops, rather than fill the processor and the disk)."""

    def submit(self, key: Hashable, work: Work, run: Callable[[Cancel, Progress], T]) -> Job[T]:
        """The job for ``key``: the one queued or running, or a new one for ``run`` (a finished job is
        forgotten: its result is in the caches its ``run`` fills). A job the table cache's budget
        refused is not tried again for :data:`REFUSED_FOR` seconds: asking gives the refused job."""
        with self._lock:
            found = self._jobs.get(key)
            if found is not None and not found.done() and not found.cancelled:
                found.asked = time.monotonic()
                return found
            refused = self._refused.get(key)
            if refused is not None and time.monotonic() - refused[0] < REFUSED_FOR:
                return refused[1]
            job: Job[T] = Job(key, work, run, abandon_after=self.abandon_after)
            self._jobs[key] = job
            self._order += 1
            heapq.heappush(self._waiting, (work.seconds > SMALL, self._order, job))
            self._start()
            self._lock.notify()
        return job

    def job(self, key: Hashable) -> Job[Any] | None:
        """The job for ``key`` if one is queued or running (someone asked for it: it is not abandoned)."""
        with self._lock:
            found = self._jobs.get(key)
            if found is not None:
                found.asked = time.monotonic()
            return found

    def pending(self) -> list[Job[Any]]:
        """The jobs queued or running, the running one first."""
        with self._lock:
            return sorted(self._jobs.values(), key=lambda job: job is not self.current)

    def cancel_all(self) -> None:
        """Cancel every job queued or running (quitting: nothing half-written is left)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel()

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._loop, name="kniffel-solver", daemon=True)
            self._thread.start()

    def _next(self, *, small_only: bool) -> Job[Any] | None:
        with self._lock:
            if not self._waiting or (small_only and self._waiting[0][0]):
                return None
            return heapq.heappop(self._waiting)[2]

    def _run(self, job: Job[Any]) -> None:
        outer = self.current
        self.current = job
        try:
            job._execute(self._pause if job.work.seconds > SMALL else None)
        finally:
            self.current = outer
            with self._lock:
                if self._jobs.get(job.key) is job:
                    del self._jobs[job.key]
                if type(job._error).__name__ == "OverBudgetError":
                    now = time.monotonic()
                    self._refused = {k: v for k, v in self._refused.items() if now - v[0] < REFUSED_FOR}
                    self._refused[job.key] = (now, job)

    def _pause(self) -> None:
        """Between two pieces of a big job: run the small jobs asked for meanwhile."""
        while (job := self._next(small_only=True)) is not None:
            self._run(job)

    def _loop(self) -> None:
        _limit_threads()
        while True:
            with self._lock:
                while not self._waiting:
                    self._lock.wait()
            job = self._next(small_only=False)
            if job is not None:
                self._run(job)


def _limit_threads() -> None:
    """Leave a processor to the rest of the process."""
    try:
        wanted = int(os.environ.get(THREADS_ENV, max(1, (os.cpu_count() or 1) - 1)))
    except ValueError:  # an unreadable setting keeps numba's own
        return
    use_threads(wanted)


_worker: Worker | None = None
_worker_lock = threading.Lock()


def worker() -> Worker:
    """The process's worker."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = Worker()
        return _worker


def shutdown() -> None:
    """Cancel everything the worker has (a front end quitting calls this; the thread itself is a daemon
    and never keeps the process alive)."""
    if _worker is not None:
        _worker.cancel_all()


def busy() -> bool:
    """Whether the process would wait for work at exit: a job of the worker running or queued, or a
    thread that Python joins at exit (a front end's thread pool in the middle of a call)."""
    if _worker is not None and _worker.pending():
        return True
    main = threading.main_thread()
    return any(
        t.is_alive() and not t.daemon and not is_helper(t) for t in threading.enumerate() if t is not main
    )


QUIT_WAIT = 0.8
"""Seconds a quitting process gives a cancelled solve to reach its next pause and remove what it was
writing, before it ends regardless (a piece of work is a fraction of a second)."""


def exit_now(status: int) -> None:
    """End the process at once, not waiting for solves (a person quit): jobs are cancelled and given
    :data:`QUIT_WAIT` to stop cleanly (a table being written is removed, not left half-written), output
    is flushed."""
    import sys

    shutdown()
    if _worker is not None:
        running = _worker.current
        if running is not None:
            running.wait(QUIT_WAIT)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing left to say
            stream.flush()
    os._exit(status)


__all__ = [
    "THREADS_ENV",
    "Job",
    "NotReady",
    "Refusal",
    "Work",
    "Worker",
    "busy",
    "exit_now",
    "shutdown",
    "worker",
]
