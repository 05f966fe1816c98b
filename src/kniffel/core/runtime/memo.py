"""Solved tables held in memory: a memo of the most recently used (:class:`Memo`) and one held within a
budget of bytes (:class:`Held`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, Protocol, TypeVar

from kniffel.core.runtime.spill import relieve_over


class Sized(Protocol):
    @property
    def nbytes(self) -> int: ...


T = TypeVar("T", bound=Sized)
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Values made once per key and kept, at most ``size`` of them, the least recently used given up
    first. A value is made outside the shared lock, so a long make (a table solved) never keeps a
    reader of another key waiting; two threads asking for the same missing key make it once (the second
    waits for the first). ``valid`` refuses a kept value that no longer fits (say, a rule set that has
    the same key but other rules)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[K, threading.Lock] = {}

    def get(self, key: K, valid: Callable[[V], bool] | None = None) -> V | None:
        with self._lock:
            found = self._values.get(key)
            if found is None or (valid is not None and not valid(found)):
                return None
            self._values.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> V:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def get_or_make(self, key: K, make: Callable[[], V], valid: Callable[[V], bool] | None = None) -> V:
        found = self.get(key, valid)
        if found is not None:
            return found
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        try:
            with making:
                found = self.get(key, valid)  # made by the thread this one waited for
                return found if found is not None else self.put(key, make())
        finally:
            with self._lock:
                if self._making.get(key) is making:
                    del self._making[key]

    def values(self) -> list[V]:
        """The kept values, least recently used first."""
        with self._lock:
            return list(self._values.values())


class Held(Generic[T]):
    """Tables a process keeps in memory, by key, up to ``budget`` bytes: the least recently used are
    given up first (the newest is kept even if it alone is over). Safe to share between threads; a table
    is made outside the lock, so one thread's solve never keeps another from reading (two threads asking
    for the same missing table may both make it: the planning layer's one worker never does)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._tables: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            found = self._tables.get(key)
            if found is not None:
                self._tables.move_to_end(key)
            return found

    def find(self, match: Callable[[Any, T], bool]) -> T | None:
        """The most recently used table whose key and table ``match`` says yes to."""
        with self._lock:
            for key in reversed(self._tables):
                table = self._tables[key]
                if match(key, table):
                    self._tables.move_to_end(key)
                    return table
        return None

    def put(self, key: Hashable, table: T) -> T:
        with self._lock:
            self._tables[key] = table
            self._tables.move_to_end(key)
            total = sum(t.nbytes for t in self._tables.values())
            while len(self._tables) > 1 and total > self.budget:
                _, dropped = self._tables.popitem(last=False)
                total -= dropped.nbytes
        # the tables kept in files and mapped take the system's file cache, not this process's memory,
        # once their pages read are let go (:mod:`kniffel.core.runtime.spill`)
        relieve_over()
        return table

    def get_or_make(self, key: Hashable, make: Callable[[], T]) -> T:
        found = self.get(key)
        return found if found is not None else self.put(key, make())

    def drop(self, key: Hashable) -> None:
        with self._lock:
            self._tables.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()
