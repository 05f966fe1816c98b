"""Where numba keeps the compiled kernels: one directory per version of the kernels' sources.

numba's disk cache checks a kernel against its own file only. A kernel that calls kernels of another
file (the simulator's turn calls the DP's sweep) kept the machine code it was first compiled with when
that other file changed, until its cache files were deleted: edited code that silently did not run. So
the cache lives in a directory named after a hash of every file that defines kernels
(:data:`KERNEL_FILES`; a test holds the list): a change to any of them compiles everything again, once.

The directory is under ``$NUMBA_CACHE_DIR`` if that is set, else under the user's cache directory
(``kniffel/numba``; not ``$KNIFFEL_CACHE_DIR``, which the tests point at a new directory each session).
Directories of other versions not used for :data:`KEEP_DAYS` days are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent

KERNEL_FILES = (
    "env/kernels.py",
    "solver/batchkernels.py",
    "solver/distkernels.py",
    "solver/kernels.py",
    "solver/playkernels.py",
    "solver/sheetkernels.py",
    "solver/targetkernels.py",
    "solver/winkernels.py",
)
"""The package's files that define numba kernels, relative to the package."""

KEEP_DAYS = 7


def sources_key() -> str:
    """A hash of the kernels' sources (and of Python's version: numba's files are per version)."""
    digest = hashlib.sha256(sys.version.encode())
    for name in KERNEL_FILES:
        digest.update(name.encode())
        digest.update((PACKAGE / name).read_bytes())
    return digest.hexdigest()[:16]


def user_cache_dir() -> Path:
    """The user's cache directory for kniffel, by the platform's convention: the solved tables
    (:func:`kniffel.solver.cache.cache_dir`) and the compiled kernels are kept under it."""
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
    _remove_stale(directory)
    return directory


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
