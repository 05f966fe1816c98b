"""What the game service does under pressure: advice on lanes of its own, and refusals logged briefly.

*Advice lanes.* A seated player's hints, everyone's asks for the chances of winning, and what anyone may
ask without a seat (an analysis, a review), each run on a thread of their own with a bounded number of
requests waiting, in all and per client
(:class:`AdviceLane`). A dozen addresses asking for chances without pause fill only the chances' lane,
each of them only its share of it; the player to move never waits behind them.

*Refusals.* While the database is away every action is refused, hundreds a second under load: the first
refusal of a run is logged as one line, the rest are counted and summarised at most every few seconds
and when saving works again (:class:`Refusals`). Tracebacks are kept for what nobody expected.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class AdviceLane:
    """A thread answering one kind of advice, with at most ``max_waiting`` requests waiting for it in
    all and ``per_client`` per client (an address): one address, or a dozen, asking without pause keep
    at most their shares waiting, and what waits here never waits behind another lane's work."""

    def __init__(self, name: str, max_waiting: int, per_client: int) -> None:
        self.max_waiting = max_waiting
        self.per_client = per_client
        self.waiting = 0
        self._threads = ThreadPoolExecutor(1, thread_name_prefix=name)
        self._by_client: Counter[str] = Counter()

    def admits(self, client: str) -> bool:
        """Whether a request of ``client`` may wait for this lane now."""
        return self.waiting < self.max_waiting and self._by_client[client] < self.per_client

    def waiting_for(self, client: str) -> int:
        return self._by_client[client]

    async def run(self, work: Callable[[], T], client: str = "") -> T:
        """``work()`` on the lane's thread, counted against ``client``'s share while it waits and runs
        (the caller asks :meth:`admits` first)."""
        self.waiting += 1
        self._by_client[client] += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._threads, work)
        finally:
            self.waiting -= 1
            self._by_client[client] -= 1
            if self._by_client[client] <= 0:
                del self._by_client[client]

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached (down, restarting, the connection cut), an
    expected refusal, rather than something nobody expected: SQLAlchemy's and psycopg's
    ``OperationalError``, a connection SQLAlchemy found dead, a refused or timed-out connection."""
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.exc import OperationalError as SqlOperationalError

    if isinstance(error, SqlOperationalError | ConnectionError | TimeoutError):
        return True
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    return any(
        kind.__name__ == "OperationalError" and kind.__module__.split(".")[0] == "psycopg"
        for kind in type(error).__mro__
    )


def one_line(error: BaseException) -> str:
    """The first line of what ``error`` says, with its kind (driver messages run to many lines)."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300]


class Refusals:
    """Refused actions, logged so that a person can read the log: the first of a run as one line, then
    at most one line every ``every`` seconds counting the others (``... 143 more refusals in the last
    6 s``), and a last count when :meth:`recovered` is called (saving works again)."""

    def __init__(self, log: logging.Logger, what: str, every: float = 5.0) -> None:
        self.log = log
        self.what = what
        """What is refused, for the lines: "saving an action"."""
        self.every = every
        self._count = 0
        self._since = 0.0
        self._last = ""

    def refused(self, error: BaseException, subject: str) -> None:
        """One refusal of ``subject`` (a game id) for ``error``, expected (:func:`is_outage`) or not;
        an unexpected one is logged with its traceback at once."""
        if not is_outage(error):
            self.log.error("%s of %s failed", self.what, subject, exc_info=error)
            return
        now = time.monotonic()
        self._last = one_line(error)
        if self._count == 0 and not self._since:
            self.log.warning(
                "%s of %s refused: the database is unavailable (%s)", self.what, subject, self._last
            )
            self._since = now
            return
        self._count += 1
        if now - self._since >= self.every:
            self._summary(now)

    def recovered(self) -> None:
        """Saving worked again: the count of refusals not yet logged, and the run is over."""
        if self._since:
            if self._count:
                self._summary(time.monotonic())
            self.log.warning("%s works again", self.what)
        self._count, self._since = 0, 0.0

    def _summary(self, now: float) -> None:
        self.log.warning(
            "%s: %d more refusals in the last %.0f s (the database is unavailable: %s)",
            self.what,
            self._count,
            now - self._since,
            self._last,
        )
        self._count, self._since = 0, now
