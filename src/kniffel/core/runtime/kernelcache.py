"""Where numba keeps the compiled kernels: one directory per version of the kernels' sources.

numba's disk cache checks a kernel against its own file only. A kernel that calls kernels of another
file (the simulator's turn calls the DP's sweep) kept the machine code it was first compiled with when
that other file changed, until its cache files were deleted: edited code that silently did not run. So
the cache lives in a directory named after a hash of every file in the kernels' folder
(:data:`KERNELS`): a change to any of them compiles everything again, once. Within it the kernels' files
do not depend on where the package lies (numba's own layout names a folder after the source's absolute
path): a second checkout or install of the same sources, say a fresh clone the test suite runs in, loads
what the first compiled (:func:`locate_kernels`).

The directory is under ``$NUMBA_CACHE_DIR`` if that is set, else under the user's cache directory
(``kniffel/numba``; not ``$KNIFFEL_CACHE_DIR``, which the tests point at a new directory each session).
Directories of other versions not used for :data:`KEEP_DAYS` days are removed.

Loading a cached kernel is made cheaper too (:func:`load_without_refreshing`): numba prepares its
whole compiler for it, which is a tenth of a second of every command that runs a kernel. And a front end
can say when a wait is a first use's compiling (:func:`compiling`) rather than a solve that stalls.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
"""The folder of every module that defines numba kernels or how they are compiled (``records.BORROWS``):
nothing else of the package defines a kernel (a test holds it)."""

KEEP_DAYS = 7


def sources_key() -> str:
    """A hash of the kernels' sources (and of Python's version: numba's files are per version)."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(KERNELS.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def user_cache_dir() -> Path:
    """The user's cache directory for kniffel, by the platform's convention: the solved tables
    (:func:`kniffel.core.runtime.store.cache_dir`) and the compiled kernels are kept under it."""
    home = Path.home()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "kniffel" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "kniffel"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache") / "kniffel"


def kernels_cache_dir() -> Path:
    """The directory of this version's compiled kernels (not created here)."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    root = Path(base).expanduser() if base else user_cache_dir() / "numba"
    return root / f"kniffel-{sources_key()}"


def use_kernels_cache() -> Path:
    """Point numba's disk cache at :func:`kernels_cache_dir` for the kernels defined from now on (numba
    reads ``numba.config.CACHE_DIR`` when a function is decorated), and remove other versions' stale
    directories. Returns the directory."""
    import numba

    directory = kernels_cache_dir()
    setattr(numba.config, "CACHE_DIR", str(directory))  # noqa: B010  (numba's stubs leave it out)
    locate_kernels(directory.name)
    _remove_stale(directory)
    load_without_refreshing()
    watch_compiles()
    return directory


def locate_kernels(stamp: str) -> None:
    """Keep the files of every kernel of :data:`KERNELS` in the folder ``kernels`` of numba's cache
    directory, whichever path the package was loaded from, stamped with ``stamp`` (the cache
    directory's name, which holds the sources' key: hashing the sources again would read every file
    twice at each start).

    numba files a kernel under a folder named after a hash of its source's absolute path, and older
    versions stamp it with the file's modification time: a fresh clone of the same sources compiled
    everything again, minutes of two processors. The cache directory is already named after the hash of
    every kernel source (:func:`sources_key`), so neither the path nor the time adds anything: the same
    sources find the same machine code."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")  # noqa: B009  (older numba)
    locators: list[Any] = impl._locator_classes
    if any(getattr(locator, "kniffel_kernels", False) for locator in locators):
        return

    class KernelsLocator(caching.UserProvidedCacheLocator):
        kniffel_kernels = True

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if Path(py_file).resolve().parent != KERNELS:
                return None  # another package's kernel: numba's own place for it
            return super().from_function(py_func, py_file)  # type: ignore[no-untyped-call]

        @classmethod
        def get_suitable_cache_subpath(cls, py_file: str) -> str:
            return KERNELS.name

        def get_source_stamp(self) -> str:
            return stamp

    locators.insert(0, KernelsLocator)


@dataclass(frozen=True)
class Compiling:
    """A kernel this process is compiling (or waiting for another process to compile) right now."""

    kernel: str
    since: float
    """When this stretch of compiling started, by :func:`time.monotonic`: a first use compiles kernel
    after kernel, and a person waits for them all."""

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.since


STRETCH_GAP = 0.5
"""Compiles less than this many seconds apart are one stretch of compiling (:attr:`Compiling.since`)."""

_compiles: dict[int, list[tuple[str, float]]] = {}
"""By thread, the kernels being compiled and since when, outermost first (a kernel compiles its callees
inside its own compile)."""
_stretch = [0.0, -STRETCH_GAP]
"""When the current stretch of compiling started and when the last compile ended."""
_compiled = [0.0]
"""Seconds of the outermost compiles this process has finished, in all threads."""
_compiles_lock = threading.Lock()


def compiling() -> Compiling | None:
    """The outermost kernel this process is compiling now, in any thread, and since when it has been
    compiling; None when nothing compiles. A solve that waits a minute on a first use waits here: a
    front end says "compiling, first use only" instead of a progress that stands still."""
    with _compiles_lock:
        own = _compiles.get(threading.get_ident(), [])  # this thread's first, then any
        kernels = [stack[0][0] for stack in (own, *_compiles.values()) if stack]
        return Compiling(kernels[0], _stretch[0]) if kernels else None


def compiled_seconds() -> float:
    """Seconds this process has spent compiling so far, in all threads (one compile's callees counted
    once, within it): work done once per install, which a measure of what a task costs each time
    leaves out (the web's bots rest after a move in proportion to what it cost)."""
    now = time.monotonic()
    with _compiles_lock:
        return _compiled[0] + sum(now - stack[0][1] for stack in _compiles.values() if stack)


def _compile_started(kernel: str) -> None:
    now = time.monotonic()
    with _compiles_lock:
        if not any(_compiles.values()) and now - _stretch[1] > STRETCH_GAP:
            _stretch[0] = now
        _compiles.setdefault(threading.get_ident(), []).append((kernel, now))


def _compile_ended() -> None:
    now, thread = time.monotonic(), threading.get_ident()
    with _compiles_lock:
        stack = _compiles.get(thread)
        if stack:
            _, since = stack.pop()
            if not stack:  # the outermost compile of this thread ended
                _compiled[0] += now - since
                del _compiles[thread]
        _stretch[1] = now


def watch_compiles() -> None:
    """Follow numba's compile events (numba sends them only for a kernel not found in its cache)."""
    from numba.core import event

    class Watcher(event.Listener):
        def on_start(self, event: Any) -> None:
            dispatcher = event.data.get("dispatcher") if isinstance(event.data, dict) else None
            _compile_started(getattr(dispatcher, "__name__", "") or "?")

        def on_end(self, event: Any) -> None:
            _compile_ended()

    if not getattr(watch_compiles, "watching", False):
        event.register("numba:compile", Watcher())  # type: ignore[no-untyped-call]
        setattr(watch_compiles, "watching", True)  # noqa: B010


@dataclass
class LoadCounts:
    """How this process's cached kernels of this package were loaded (see
    :func:`load_without_refreshing`)."""

    direct: int = 0
    """Loaded without preparing the compiler."""
    refreshed: int = 0
    """Loaded the way numba does it, after a direct load failed."""


load_counts = LoadCounts()

waiters: list[Callable[[str], bool]] = []
"""Asked, with the kernel's name, before this process compiles a kernel of this package that is not in
the cache: True when another process was compiling it and has finished (the first run's helper,
:mod:`kniffel.core.runtime.precompile`, which sets one while it runs), and it is looked up again. Waiting for
what another process is halfway through costs less than compiling it a second time beside it."""


def load_without_refreshing() -> None:
    """Load this package's cached kernels without numba's ``refresh`` of its compiler.

    Before every load from its disk cache numba refreshes the target context: it imports and
    registers the typing and lowering of every Python and NumPy feature it can compile (0.1 s,
    a fifth of a whole ``kniffel solve --no-cache``). Machine code loaded from the cache needs none
    of that: it needs the runtime's symbols (:meth:`rtsys.initialize`, which the refresh also does)
    and the helpers the context installed when it was made. Compiling still refreshes (numba's
    compiler does so itself before every compilation), so a kernel compiled later in the same
    process is unaffected. Kernels of other packages load the way numba loads them, and so does
    one of ours whose direct load fails. ``tests/core/test_kernel_cache.py`` loads every kernel this
    way in a fresh process and checks the values they give."""
    from numba.core import caching
    from numba.core.runtime import nrt

    numba_load: Callable[..., Any] = caching.Cache.load_overload
    if getattr(numba_load, "kniffel_direct", False):
        return

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        py_func = getattr(self, "_py_func", None)
        if not getattr(py_func, "__module__", "").startswith("kniffel."):
            return numba_load(self, sig, target_context)
        try:
            nrt.rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                loaded = self._load_overload(sig, target_context)
                if loaded is None and waiters:
                    name = getattr(py_func, "__name__", "")
                    _compile_started(name)  # another process's compile: the same wait for a person
                    try:
                        waited = any(wait(name) for wait in list(waiters))
                    finally:
                        _compile_ended()
                    if waited:
                        loaded = self._load_overload(sig, target_context)
        except Exception:  # whatever it was, numba's own way may still work
            load_counts.refreshed += 1
            return numba_load(self, sig, target_context)
        if loaded is not None:
            load_counts.direct += 1
        return loaded

    setattr(load_overload, "kniffel_direct", True)  # noqa: B010
    setattr(caching.Cache, "load_overload", load_overload)  # noqa: B010


def _remove_stale(current: Path) -> None:
    try:
        if current.exists():
            os.utime(current)  # in use: not stale for another version's process
        others = [d for d in current.parent.iterdir() if d.name.startswith("kniffel-") and d != current]
        cutoff = time.time() - KEEP_DAYS * 86400
        for other in others:
            if other.stat().st_mtime < cutoff:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:
        return  # no cache yet, or not ours to tidy: numba makes what it needs
