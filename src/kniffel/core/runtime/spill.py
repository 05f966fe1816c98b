"""Tables kept in files and mapped, whose pages the process lets go whenever it holds more than it may;
and arrays too large to hold in memory while the next one is made from them, written to a file as they
are made and mapped back to be read.

A level of a rule set's final-score distributions is up to half a gigabyte (Yahtzee's, whose extra
bonuses make each distribution a thousand points wide), and the next level is made from all of it: held
in memory, two of them took a gigabyte. Written to a file (:class:`Spilled`) they take the disk's room
and the system's file cache instead, which the system frees as it needs, and the process holds only the
pages it reads. Mapped pages count as the process's memory once read; :meth:`Spilled.relieve` lets them
go (they stay in the file cache, and reading them again maps them back without reading the disk), and
:class:`Allowance` says when: once the process holds more than it did at the start plus what it may
add.

An array a solve writes and reads piece by piece (the rows of the early rows' horizon, a hundred-odd MB
for Yatzy, and those of the level before it) is kept the same way, in a file mapped shared
(:func:`zeros`): what is written goes to the system's file cache, and the pages let go are read back
from it.

The file has no name (:func:`tempfile.TemporaryFile`): nothing is left behind by a process that is
killed halfway.

The tables on disk are mapped the same way (:func:`map_file`), and every mapping is let go together
(:func:`relieve_mapped`): a server that played Kniffel, Yahtzee and Yatzy held a hundred-odd MB of each
one's early tables and cones that way, pages read once, which the next rule set's build then counted
against its allowance. A process lets them go when a build starts and whenever it holds more than it may
(:class:`Allowance`), and whenever it keeps another table while it holds more than :data:`CEILING`
(:func:`relieve_over`).
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os
import tempfile
import weakref
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import F64

GROWTH = 192 << 20
"""What a solve that spills may add to the process's memory before it lets the mapped pages go, unless
the process says otherwise (:func:`allow_growth`: a server gives less): with Python, numba and the table
of expected points (some 150 MB), a whole early-table solve stays within 3x a whole solve of expected
points."""


_growth: int | None = None
"""What every build of this process may add by default (:func:`allow_growth`); None: :data:`GROWTH`."""


def allow_growth(growth: int | None) -> None:
    """Let every build of this process from now on add ``growth`` bytes to its memory before it lets the
    mapped pages go (None: :data:`GROWTH` again). A smaller allowance lets them go more often, and a build
    reads more of them twice (from the system's file cache, not the disk): a server, which holds its games
    and kernels beside a build, gives its builds less than a command does."""
    global _growth
    _growth = growth


def allowed_growth() -> int:
    """What a build of this process may add to its memory (:func:`allow_growth`, else :data:`GROWTH`)."""
    return GROWTH if _growth is None else _growth


CEILING = 384 << 20
"""A process that holds more than this lets the pages of its mapped tables go as it keeps another table
(:func:`relieve_over`)."""

_mapped: weakref.WeakSet[mmap.mmap] = weakref.WeakSet()
"""Every mapping of a table this process has made (gone with the last array that reads it)."""


def map_file(fileno: int, length: int, *, copy: bool = False, write: bool = False) -> mmap.mmap:
    """The first ``length`` bytes of an open file, mapped read-only (with ``copy``, copy on write: arrays
    over it are writable, never written back; with ``write``, shared: what arrays over it write goes to
    the file), among those :func:`relieve_mapped` lets go."""
    access = mmap.ACCESS_WRITE if write else mmap.ACCESS_COPY if copy else mmap.ACCESS_READ
    found = mmap.mmap(fileno, length, access=access)
    _mapped.add(found)
    return found


def zeros(count: int, dtype: npt.DTypeLike, directory: Path | None) -> npt.NDArray[Any]:
    """``count`` zeros of ``dtype`` to be written and read, in an unnamed file in ``directory`` mapped
    shared (among the mappings :func:`relieve_mapped` lets go), or in memory if ``directory`` is None.
    What is written to it goes to the system's file cache, which keeps it when the pages are let go
    (and writes it to the disk only when it needs the room): an array of a hundred-odd MB that a solve
    writes and reads piece by piece then takes the process's memory only for the pages read since they
    were last let go. The file goes with the last array that reads it."""
    if directory is None or count == 0:
        return np.zeros(count, dtype=dtype)
    size = count * np.dtype(dtype).itemsize
    with tempfile.TemporaryFile(dir=directory) as file:
        file.truncate(size)  # a sparse file: zeros, none of them on the disk yet
        mapping = map_file(file.fileno(), size, write=True)  # the mapping keeps the file open
    return np.frombuffer(mapping, dtype=dtype, count=count)


def relieve_mapped() -> None:
    """Let the pages of every mapped table go from this process's memory: they stay in the system's
    file cache, and reading them again maps them back without reading the disk."""
    if not hasattr(mmap, "MADV_DONTNEED"):
        return
    for mapping in list(_mapped):
        with contextlib.suppress(ValueError, OSError):  # closed meanwhile
            mapping.madvise(mmap.MADV_DONTNEED)


def relieve_over(ceiling: int | None = None) -> None:
    """:func:`relieve_mapped` if this process holds more than ``ceiling`` (:data:`CEILING`)."""
    now = resident()
    if now is not None and now > (CEILING if ceiling is None else ceiling):
        relieve_mapped()


def resident() -> int | None:
    """The bytes of memory this process holds now (its resident set), or None where the system does not
    say (no ``/proc``)."""
    try:
        with open("/proc/self/statm", "rb") as stream:
            pages = int(stream.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def give_back() -> None:
    """Hand the memory freed so far back to the system where the C library keeps it for reuse: glibc
    keeps what arrays of up to 32 MB freed, some 50 MB after a build of distributions (nothing where the
    library has no ``malloc_trim``)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


class Allowance:
    """What a piece of work may add to the process's memory, from when it starts (by default
    :func:`allowed_growth`), the mapped tables' pages and the memory freed before it let go first:
    :meth:`exceeded` says when it holds more, :meth:`relieve` lets the pages go then."""

    def __init__(self, growth: int | None = None) -> None:
        relieve_mapped()
        give_back()  # what earlier work freed but the C library kept: else the work starts above it
        start = resident()
        self.limit = None if start is None else start + (allowed_growth() if growth is None else growth)

    def exceeded(self) -> bool:
        """Whether the process holds more than it may (never where the system does not say)."""
        if self.limit is None:
            return False
        now = resident()
        return now is not None and now > self.limit

    def relieve(self) -> None:
        """Let the mapped tables' pages go (:func:`relieve_mapped`) if the work holds more than it may:
        called between pieces of the work, whose reads of mapped files put their pages in the process."""
        if self.exceeded():
            relieve_mapped()


class Spilled:
    """One array of float64 written piece by piece to an unnamed file in ``directory`` (the system's
    temporary folder if None), then mapped back whole to be read (:meth:`mapped`). A context manager:
    closing it gives the file and its mapping back (arrays read from it must be gone by then)."""

    def __init__(self, directory: Path | None = None) -> None:
        self._file = tempfile.TemporaryFile(dir=directory)  # noqa: SIM115 - closed by close()
        self._map: mmap.mmap | None = None
        self.count = 0

    def append(self, values: F64) -> None:
        """Write ``values`` after what is written."""
        data = np.ascontiguousarray(values, dtype=np.float64).data.cast("B")
        while data:
            done = os.write(self._file.fileno(), data)
            data = data[done:]
        self.count += len(values)

    def mapped(self) -> F64:
        """Everything written, as one array read from the file (copy on write: never written back).
        Writable as an array the solver makes is, so that the kernels reading it are the ones compiled
        for those."""
        if self._map is None:
            if self.count == 0:
                return np.zeros(0)
            self._map = map_file(self._file.fileno(), self.count * 8, copy=True)
        return np.frombuffer(self._map, dtype=np.float64, count=self.count)

    def kept(self) -> F64:
        """Everything written, mapped as :meth:`mapped` maps it, for as long as the array is kept: the
        file is closed here and goes with the last array that reads it."""
        array = self.mapped()
        self._map = None  # the array holds the mapping now
        self._file.close()
        return array

    def close(self) -> None:
        if self._map is not None:
            with contextlib.suppress(BufferError):  # an array still reads it: it goes with the last of them
                self._map.close()
            self._map = None
        self._file.close()

    def __enter__(self) -> Spilled:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


__all__ = [
    "CEILING",
    "GROWTH",
    "Allowance",
    "Spilled",
    "allow_growth",
    "allowed_growth",
    "give_back",
    "map_file",
    "relieve_mapped",
    "relieve_over",
    "resident",
    "zeros",
]
