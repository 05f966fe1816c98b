"""A first run compiles kernels on two processors instead of one.

On a fresh install, numba compiles the DP's level loop (:data:`kniffel.core.kernels.points.solve_points`) and,
one after the other as it types it, the kernels it calls (:func:`dp_callees`): about half of the first
run, on one processor. A first target question likewise compiles the kernels of the target rows and then,
once they are solved, the option kernel (:func:`option_jobs`), as long again. numba keeps each kernel's
compiled code in its disk cache and, before compiling one, looks there first. So :func:`helping` runs a
helper process that compiles kernels the asking process will call later into the same cache: the asking
process loads what the helper has finished and compiles the rest itself (for the DP, whose callees the
helper compiles last first, the two meet in the middle). Linking a callee from the cache into
``solve_points`` is what numba does with a callee compiled in the same process (it links the callee's
optimised LLVM module and optimises the whole again), so the machine code and values are the same either
way.

The helper can only save time, never change a result: it compiles the same sources with the same
signatures (it checks that its cache directories are the asking process's, else it does nothing); numba
writes each cache file under a temporary name and renames it into place, and reads an entry whose data
file is missing as no entry. At the end of :func:`helping` the asking process lets the helper finish
the kernel it is compiling (it is asked for next) and stop, or kills it if the work failed; it stops
it from compiling a kernel it starts compiling itself; the helper also exits when the asking process
does (its standard input closes). The other way round, the helper says which kernel it is compiling,
and the asking process waits for it to finish one it reaches meanwhile instead of compiling it beside
it. No helper runs where it cannot help:
with one processor, or when the kernel it is for is in the cache.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from numba.core import event

from kniffel.core.runtime.kernelcache import waiters

HELPER_ENV = "KNIFFEL_NO_COMPILE_HELPER"
"""Set (to anything but empty) to compile on one processor as before: no helper process."""


def _cache_path(dispatcher: Any) -> str:
    """Where numba keeps ``dispatcher``'s cache files (numba's own attributes)."""
    return str(dispatcher._cache._cache_path)


def needs_compiling(dispatcher: Any) -> bool:
    """Whether ``dispatcher`` has no compiled code in this process and no index in the disk cache."""
    if dispatcher.signatures:
        return False
    return not Path(dispatcher._cache._cache_file._index_path).exists()


def processors() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


Job = tuple[Any, tuple[Any, ...]]
"""A kernel (a numba dispatcher) and the numba types of the arguments it will be called with."""


def request(jobs: list[Job]) -> bytes:
    """What the helper reads from its standard input: for each job in order, the kernel's module, name,
    cache directory and argument types, pickled, after their length."""
    work = [
        (kernel.py_func.__module__, kernel.py_func.__name__, _cache_path(kernel), signature)
        for kernel, signature in jobs
    ]
    message = pickle.dumps(work)
    return len(message).to_bytes(8, "little") + message


@contextmanager
def helping(jobs: list[Job], unless_cached: Any) -> Iterator[None]:
    """Around work that will compile ``unless_cached`` (a kernel) and the kernels of ``jobs``: a helper
    compiles the jobs meanwhile if it can help (see the module docstring), told of each kernel this
    process starts compiling itself so that it does not compile it too. When the work ends, the helper
    ends the kernel it is compiling then (the jobs are what this process asks for next: a target
    question's options come right after its rows) and stops; it is killed if the work failed or was
    cancelled."""
    helper = start(jobs, unless_cached)
    if helper is None:
        yield
        return
    progress = _Progress(helper)
    done = False
    try:
        with event.install_listener("numba:compile", _Tell(helper)):
            yield
        done = True
    finally:
        if done:
            progress.finish()
        else:
            progress.stop()


WAIT_LIMIT = 300.0
"""The longest this process waits for the helper to finish a kernel (none takes a minute); then it
compiles the kernel itself."""

FINISH = "*"
"""The line that tells the helper to stop once it has compiled the kernel it is compiling."""


class _Progress:
    """What the helper is compiling, as it says on its standard output (a line ``start <name>`` before
    each kernel, ``done <name>`` after it). While it runs, this process waits for a kernel the helper
    is compiling instead of compiling it beside it (:data:`kniffel.core.runtime.kernelcache.waiters`)."""

    def __init__(self, helper: subprocess.Popen[bytes]) -> None:
        self.helper = helper
        self.changed = threading.Condition()
        self.compiling: str | None = None
        waiters.append(self.wait_for)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.helper.stdout is not None
        with self.helper.stdout as stream:
            for line in stream:
                word, _, name = line.decode(errors="replace").strip().partition(" ")
                with self.changed:
                    self.compiling = name if word == "start" else None
                    self.changed.notify_all()
        with self.changed:  # the helper is gone
            self.compiling = None
            self.changed.notify_all()
        self.stop()

    def wait_for(self, name: str) -> bool:
        """Whether the helper was compiling the kernel ``name``; if it was, return once it has finished
        (or ended, or :data:`WAIT_LIMIT` has passed): a first target question reaches the option kernel
        while the helper is halfway through it, and compiling it beside the helper took longer than
        waiting for it."""
        with self.changed:
            if self.compiling != name:
                return False
            self.changed.wait_for(lambda: self.compiling != name, timeout=WAIT_LIMIT)
            return True

    def finish(self) -> None:
        """Tell the helper to stop after the kernel it is compiling (at once if none)."""
        try:
            assert self.helper.stdin is not None
            self.helper.stdin.write(f"{FINISH}\n".encode())
            self.helper.stdin.flush()
        except (OSError, ValueError):
            self.stop()

    def stop(self) -> None:
        """Kill the helper (if it still runs) and stop waiting for it."""
        with contextlib.suppress(ValueError):  # removed already (its reader and this process both stop it)
            waiters.remove(self.wait_for)
        stop(self.helper)


class _Tell(event.Listener):
    """A numba event listener that writes the name of every kernel this process starts compiling to the
    helper's standard input."""

    def __init__(self, helper: subprocess.Popen[bytes]) -> None:
        self.helper = helper

    def on_start(self, e: Any) -> None:
        try:
            assert self.helper.stdin is not None
            self.helper.stdin.write(f"{e.data['dispatcher'].py_func.__name__}\n".encode())
            self.helper.stdin.flush()
        except (OSError, ValueError, AttributeError, KeyError):
            return  # the helper is gone (its pipe closed): nothing to tell

    def on_end(self, e: Any) -> None:
        return


def start(jobs: list[Job], unless_cached: Any) -> subprocess.Popen[bytes] | None:
    """Start the helper that compiles ``jobs`` into the disk cache, if it can help (see the module
    docstring; not if ``unless_cached``, the kernel the work is for, is compiled already); None if not.
    :func:`stop` ends it."""
    if os.environ.get(HELPER_ENV) or not sys.executable or processors() < 2:
        return None
    try:
        if not needs_compiling(unless_cached):
            return None
        message = request(jobs)
        package_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        # the helper imports this very package (each kernel's cache directory is checked as well)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [sys.executable, "-m", "kniffel.core.runtime.precompile"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,  # what it is compiling (see _Progress)
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert process.stdin is not None
        process.stdin.write(message)
        process.stdin.flush()
        return process
    except Exception:  # a helper that cannot start only costs the time it would save
        return None


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """Kill the helper (whatever it compiles then is no longer needed) and wait for it."""
    if process is None:
        return
    try:
        process.kill()
        process.wait()
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        return


def _read(size: int) -> bytes:
    """``size`` bytes of standard input (unbuffered: :func:`_listen` reads it too), fewer at its end."""
    data = b""
    while len(data) < size:
        chunk = os.read(0, size - len(data))
        if not chunk:
            break
        data += chunk
    return data


class _Taken:
    """The kernels the asking process compiles itself (the names it writes, a line each), and the one this
    helper is compiling."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.names: set[str] = set()
        self.current: str | None = None


def _listen(taken: _Taken) -> None:
    """Read the names the asking process writes; exit when it starts compiling the kernel this helper is
    compiling (it will not load it: a duplicate), when it is done (:data:`FINISH`) and this helper is
    between kernels, and when standard input closes (it is gone)."""
    pending = b""
    while chunk := os.read(0, 4096):
        *lines, pending = (pending + chunk).split(b"\n")
        with taken.lock:
            for line in lines:
                name = line.decode(errors="replace")
                taken.names.add(name)
                if name == FINISH and taken.current is None:
                    os._exit(0)
                if name == taken.current:
                    os._exit(0)
    os._exit(0)


def main() -> None:
    """The helper: read the jobs from standard input and compile them into the cache, in order, until it
    reaches one the asking process has started compiling."""
    import importlib

    size = int.from_bytes(_read(8), "little")
    work = pickle.loads(_read(size))  # from our own parent process
    taken = _Taken()
    threading.Thread(target=_listen, args=(taken,), daemon=True).start()
    for module, name, cache_path, signature in work:
        dispatcher = getattr(importlib.import_module(module), name)
        if _cache_path(dispatcher) != cache_path:
            return  # not the asking process's sources or cache: what it would compile would not be used
        with taken.lock:
            if name in taken.names or FINISH in taken.names:
                return  # the asking process is past this one (it compiles the rest itself), or done
            taken.current = name
        _say(f"start {name}")
        dispatcher.compile(signature)  # loads it instead if it is in the cache already
        with taken.lock:
            taken.current = None
        _say(f"done {name}")


def _say(line: str) -> None:
    """Tell the asking process what this helper is doing (a line on standard output)."""
    try:
        os.write(1, f"{line}\n".encode())
    except OSError:
        return  # nobody listens: the asking process is gone, and this helper ends soon


if __name__ == "__main__":
    main()
