"""Solved tables on disk: one ``.npy`` per rule set, memory-mapped on load, never trusted blindly.

The file name carries the rule set id, its options and a key: a hash of everything the table depends on
(the rule declaration, its score table, the solver version). Beside each table a small JSON file holds
that key, the array's shape and a checksum of its bytes; it is written last, so a table without a
matching description is unfinished or foreign. A damaged, truncated, foreign or stale file is detected
on load and rebuilt: whatever reading a file raises, it counts as missing.

Several processes may share one directory (web servers behind a load balancer, parallel simulations):
a lock file beside each table makes one of them solve it while the others wait and then read it.

The tables on disk are kept within a budget (:func:`cache_budget`, ``$KNIFFEL_CACHE_BUDGET``, 1 GB by
default): before a table is written, the least recently used tables are removed until it fits
(:func:`make_room`), the expected-score tables every game reads last of all; a table that does not fit even
then is not written (:class:`OverBudgetError`: its solver keeps it in memory, or its job is refused). Loading
a table marks it used (its description's time). A table being written by another process is never removed, and
one being read is safe on Linux and macOS: a memory map outlives the file's name (its blocks are freed when
the last reader lets go, so the disk is below the budget a moment later than the listing says). On Windows a
mapped file cannot be removed; it is skipped and removed by a later eviction.

The directory is ``$KNIFFEL_CACHE_DIR`` if set, else the user's cache directory (``$XDG_CACHE_HOME`` or
``~/.cache`` on Linux, ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows) plus ``kniffel``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import os
import re
import shutil
import zlib
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from kniffel.base.errors import KniffelError
from kniffel.base.files import TEMPORARY_SUFFIX, atomic_stream, atomic_write, leftovers
from kniffel.base.i18n import N_
from kniffel.core.runtime.kernelcache import kernels_cache_dir, user_cache_dir
from kniffel.rules import RuleSet

if TYPE_CHECKING:  # numpy is imported where a table is read or written: listing the cache needs none
    import numpy as np
    import numpy.typing as npt

CACHE_DIR_ENV = "KNIFFEL_CACHE_DIR"
CACHE_BUDGET_ENV = "KNIFFEL_CACHE_BUDGET"
DEFAULT_BUDGET = 1_000_000_000
FORMAT = "kniffel-solver-table"
SOLVER_VERSION = 1
"""Bumped whenever the tables or their meaning change; part of every cache key."""


WRITE_BLOCK = 16 << 20
"""Bytes of a table written at once (:func:`save_arrays`)."""


class OverBudgetError(OSError):
    """A table that does not fit the cache's budget even with every other table it may remove gone: it
    is not written (an ``OSError``, as a full disk is: the solvers then keep the table in memory)."""


_UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9}


def parse_size(text: str) -> int:
    """``"1 GB"``, ``"500M"``, ``"2e9"``, ``"64kb"`` as bytes; :class:`ValueError` says what it takes."""
    found = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*([a-z]*)\s*", text.lower())
    if found is None or found.group(2) not in _UNITS:
        raise ValueError(f"a size is a number of bytes with an optional unit (kB, MB, GB), not {text!r}")
    return int(float(found.group(1)) * _UNITS[found.group(2)])


def env_size(name: str, default: int) -> int:
    """A number of bytes set by the environment variable ``name`` (``500MB``, ``2GB``, bytes:
    :func:`parse_size`) if it is set and readable, else ``default``."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        return parse_size(text)
    except ValueError:
        return default


def cache_budget() -> int:
    """How many bytes the tables on disk may take together: ``$KNIFFEL_CACHE_BUDGET`` (:func:`env_size`),
    else :data:`DEFAULT_BUDGET` (1 GB)."""
    return env_size(CACHE_BUDGET_ENV, DEFAULT_BUDGET)


def cache_dir() -> Path:
    """Where tables are kept (not created here)."""
    override = os.environ.get(CACHE_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return user_cache_dir()


def spill_folder(directory: Path | None) -> Path | None:
    """Where a solve keeps the files it works through (unnamed: nothing stays): beside the cache's
    tables (``directory``, by default :func:`cache_dir`) if that folder is there, else None (in
    memory)."""
    folder = directory or cache_dir()
    return folder if folder.is_dir() else None


def table_key(rules: RuleSet) -> str:
    """A hash of everything a solved table depends on.

    Worked out once per rule set (a fifth of a millisecond each time, and a game played to win asks it
    hundreds of times); a rule set that cannot be hashed is worked out each time."""
    try:
        return _remembered_key(rules, FORMAT, SOLVER_VERSION)
    except TypeError:  # a field of a hand-made rule set that cannot be hashed
        return _key(rules, FORMAT, SOLVER_VERSION)


def _key(rules: RuleSet, table_format: str, solver_version: int) -> str:
    digest = hashlib.sha256()
    digest.update(f"{table_format} {solver_version}\n".encode())
    digest.update(json.dumps(rules.describe(), sort_keys=True, default=str).encode())
    digest.update(
        repr([(b.id, b.score, b.joker_points, b.figure, b.section.value) for b in rules.boxes]).encode()
    )
    digest.update(
        repr((rules.rolls, rules.free_throw_points, rules.free_throws_per_turn, rules.extra.value)).encode()
    )
    # the bytes of the score table (int32, row by row) without numpy: listing the cache needs none
    digest.update(array("i", itertools.chain.from_iterable(rules.score_rows)).tobytes())
    return digest.hexdigest()[:20]


# equal rule sets have equal keys (a rule set's hash leaves its options out, its equality does not)
_remembered_key = functools.lru_cache(maxsize=64)(_key)


def table_path(rules: RuleSet, directory: Path | None = None) -> Path:
    options = "".join(f"_{k}-{v}" for k, v in sorted(rules.options.items()))
    name = re.sub(r"[^A-Za-z0-9_.-]", "-", f"{rules.id}{options}")
    return (directory or cache_dir()) / f"{name}.{table_key(rules)}.npy"


def checksum(values: npt.NDArray[Any]) -> str:
    import numpy as np

    return hashlib.blake2b(np.ascontiguousarray(values).data.cast("B"), digest_size=16).hexdigest()


def meta_path(path: Path) -> Path:
    return path.with_suffix(".json")


def derived_path(rules: RuleSet, kind: str, directory: Path | None = None) -> Path:
    """Where a table derived from the same rules (``kind``: ``target-475``, ...) is kept: beside the value
    table, with the same key."""
    path = table_path(rules, directory)
    return path.with_name(f"{path.stem}.{kind}.npy")


def load_array(path: Path, key: str, shape: tuple[int, ...], dtype: npt.DTypeLike) -> npt.NDArray[Any] | None:
    """A derived table written by :func:`save_array` if a sound one is at ``path`` (its description names
    ``key``, the shape, the type and the checksum of its bytes), memory-mapped (read-only, among the
    mappings :func:`~kniffel.core.runtime.spill.relieve_mapped` lets go); else None. The checksum is of
    the file read, not of the mapping (:func:`_crc_of`)."""
    import numpy as np

    from kniffel.core.runtime.spill import map_file

    try:
        meta = json.loads(meta_path(path).read_text(encoding="utf-8"))
        if (
            not isinstance(meta, dict)
            or meta.get("format") != FORMAT
            or meta.get("key") != key
            or meta.get("solver_version") != SOLVER_VERSION
            or tuple(meta.get("shape", ())) != shape
        ):
            return None
        with path.open("rb") as stream:
            found_shape, fortran, found_dtype, offset = _npy_header(stream)
            if found_shape != shape or fortran or found_dtype != np.dtype(dtype):
                return None
            size = int(np.prod(shape, dtype=np.int64)) * found_dtype.itemsize
            if _crc_of(stream, size) != meta.get("checksum"):
                return None
            mapping = map_file(stream.fileno(), offset + size) if size else None
        mark_used(meta_path(path))
        if mapping is None:  # nothing to map: an empty array, read-only as a mapped one is
            empty = np.zeros(shape, dtype=found_dtype)
            empty.flags.writeable = False
            return empty
        array = np.frombuffer(mapping, dtype=found_dtype, count=size // found_dtype.itemsize, offset=offset)
        return array.reshape(shape)
    except Exception:  # as in load: whatever reading raises, the table counts as missing
        return None


def _npy_header(stream: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype[Any], int]:
    """The shape, order and type of the array an ``.npy`` file holds, and where its bytes begin."""
    import numpy as np

    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
    else:
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
    return tuple(shape), bool(fortran), dtype, stream.tell()


def _crc_of(stream: BinaryIO, size: int) -> str:
    """The CRC-32 of the ``size`` bytes left in ``stream`` (which must end there), read in blocks: it finds
    damage five times as fast as BLAKE2 reads a table of several hundred megabytes, which is what loading
    one costs, and pages read from the file are not the process's memory, as pages read through a mapping
    are (Yatzy's early rows took 250 MB of a server's that way)."""
    crc = 0
    left = size
    while left > 0:
        block = stream.read(min(left, 1 << 24))
        if not block:
            break
        crc = zlib.crc32(block, crc)
        left -= len(block)
    if left or stream.read(1):
        return "crc32:truncated"
    return f"crc32:{crc:08x}"


def described(path: Path, key: str) -> bool:
    """Whether a derived table's description says it is there for ``key`` (cheap: the table itself is
    not read; :func:`load_array` checks it when it is loaded)."""
    try:
        meta = json.loads(meta_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("key") == key and meta.get("solver_version") == SOLVER_VERSION


def save_array(path: Path, key: str, array: npt.NDArray[Any], details: dict[str, object]) -> None:
    """Write a derived table and its description atomically (the description last)."""
    save_arrays(path, key, [array], details)


def save_arrays(path: Path, key: str, pieces: Sequence[npt.NDArray[Any]], details: dict[str, object]) -> None:
    """:func:`save_array` of the pieces one after the other (one array of one type: those of one
    dimension joined, or a single piece of any shape), written as they are: joined first, a table of
    levels was in memory twice."""
    import numpy as np

    if not pieces:
        raise ValueError("a table of no pieces")
    shape = pieces[0].shape if len(pieces) == 1 else (sum(len(piece) for piece in pieces),)
    dtype = pieces[0].dtype
    if any(piece.dtype != dtype or (len(pieces) > 1 and piece.ndim != 1) for piece in pieces):
        raise ValueError("the pieces of a table are of one type and, if several, of one dimension")
    path.parent.mkdir(parents=True, exist_ok=True)
    meta_path(path).unlink(missing_ok=True)
    make_room(sum(piece.nbytes for piece in pieces), path.parent, keep=path)
    from kniffel.core.runtime.spill import relieve_over

    crc = 0
    with atomic_stream(path) as stream:
        header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": shape}
        np.lib.format.write_array_header_1_0(stream, header)
        for piece in pieces:
            data = np.ascontiguousarray(piece).data.cast("B")
            # in blocks: a piece read from a mapped file (a level of the early rows, 73 MB of Yatzy's)
            # puts its pages in the process as it is read, let go here after each block
            for start in range(0, len(data), WRITE_BLOCK):
                block = data[start : start + WRITE_BLOCK]
                stream.write(block)
                crc = zlib.crc32(block, crc)
                relieve_over()
    meta = {
        **details,
        "format": FORMAT,
        "key": key,
        "solver_version": SOLVER_VERSION,
        "shape": list(shape),
        "checksum": f"crc32:{crc:08x}",
    }
    atomic_write(meta_path(path), json.dumps(meta, indent=1))


def cached_array(
    path: Path,
    key: str,
    shape: tuple[int, ...],
    dtype: npt.DTypeLike,
    build: Callable[[], tuple[npt.NDArray[Any], dict[str, object]]],
    *,
    use_cache: bool = True,
) -> tuple[npt.NDArray[Any], bool]:
    """A derived table from ``path`` if sound, else ``build()`` (array and details for its description),
    saved when ``use_cache``; one process builds while others sharing the directory wait. Also says
    whether it was built."""
    if not use_cache:
        return build()[0], True
    found = load_array(path, key, shape, dtype)
    if found is not None:
        return found, False
    with solving(path):
        found = load_array(path, key, shape, dtype)
        if found is not None:
            return found, False
        array, details = build()
        with contextlib.suppress(OSError):
            save_array(path, key, array, details)
    saved = load_array(path, key, shape, dtype)
    return (array if saved is None else saved), True


@contextlib.contextmanager
def solving(path: Path, also: tuple[Path, ...] = ()) -> Iterator[None]:
    """Hold ``path``'s lock file while solving, so processes sharing the directory solve a table once.
    Without a usable lock (no ``fcntl``, an unwritable directory) each process just solves. Holding the
    lock, the half-written files of ``path`` and ``also`` that a builder killed on its way left are
    removed (a table is gigabytes)."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks across processes here
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_suffix(".lock"), "a+b")  # noqa: SIM115 - held across the yield
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            for written in (path, *also):
                for stale in leftovers(written):
                    stale.unlink(missing_ok=True)
            yield
            # What was written here (its lock still held, so it stays) may have gone past the budget:
            # a table written straight to its file rather than through save_array says its size late.
            trim_cache(path.parent)
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


# --- what the cache holds --------------------------------------------------------------------------------

KINDS = {
    "": N_("expected scores"),
    "win-early": N_("win: target chances"),
    "dist-early": N_("win: final scores"),
}
"""The kinds of table kept per rule set, by the suffix of their files' names, as people read them."""


@dataclass(frozen=True)
class CacheEntry:
    """One table in the cache: its rule set and kind, its files, their size and when they were written."""

    rules: str
    """The rule set id and options as given (``yahtzee joker=free``), or the file's name if unknown."""
    kind: str
    """What it is (:data:`KINDS`), ``obsolete`` for a table of an earlier version, ``compiled kernels``."""
    files: tuple[Path, ...]
    """A table's files; the compiled kernels' folder (thousands of files, removed as one)."""
    size: int
    modified: float

    @property
    def rules_id(self) -> str:
        return self.rules.split()[0] if self.rules else ""


_STEM = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+?)\.(?P<key>[0-9a-f]{20})(?:\.(?P<kind>[A-Za-z0-9-]+))?$")


def cache_entries(directory: Path | None = None, *, kernels: bool = True) -> list[CacheEntry]:
    """Every table kept in the cache directory (and with ``kernels`` the compiled kernels beside it),
    largest first. Tables of an earlier version (another key, or a kind this version no longer keeps) are
    ``obsolete``: they are never read again and only take space."""
    root = directory or cache_dir()
    groups: dict[tuple[str, str, str], list[Path]] = {}
    if root.is_dir():
        for path in root.iterdir():
            if not path.is_file():
                continue
            stem = path.name
            if stem.startswith(".") and stem.endswith(TEMPORARY_SUFFIX):  # a write cut short: its table's
                stem = stem[1 : -len(TEMPORARY_SUFFIX)].rpartition(".")[0]
            for suffix in (".lock", ".json", ".npy", ".bin"):
                if stem.endswith(suffix):
                    stem = stem[: -len(suffix)]
                    break
            found = _STEM.match(stem)
            if found is None:
                continue
            kind = (found.group("kind") or "").removesuffix("-index")
            groups.setdefault((found.group("name"), found.group("key"), kind), []).append(path)
    result = [_entry(root, name, key, kind, files) for (name, key, kind), files in groups.items()]
    this_version = kernels_cache_dir()  # named by a hash of the kernels' sources: computed once
    compiled = this_version.parent
    if kernels and compiled.is_dir():
        for version in compiled.iterdir():
            compiled_files = _files_below(version)
            if compiled_files:
                current = version == this_version
                result.append(
                    CacheEntry(
                        "",
                        N_("compiled kernels") if current else N_("obsolete compiled kernels"),
                        (version,),
                        sum(stat.st_size for _, stat in compiled_files),
                        max(stat.st_mtime for _, stat in compiled_files),
                    )
                )
    return sorted(result, key=lambda e: -e.size)


def _entry(root: Path, name: str, key: str, kind: str, files: list[Path]) -> CacheEntry:
    rules = name
    for path in files:
        if path.suffix == ".json" and not path.name.endswith("-index.json"):
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(meta, dict) and isinstance(meta.get("rules"), str):
                options = meta.get("options")
                words = [f"{k}={v}" for k, v in sorted(options.items())] if isinstance(options, dict) else []
                rules = " ".join([meta["rules"], *words])
            break
    current = kind in KINDS and _current_key(rules, key)
    label = KINDS[kind] if current else N_("obsolete")
    return CacheEntry(
        rules, label, tuple(sorted(files)), sum(_size(p) for p in files), max(_mtime(p) for p in files)
    )


def _current_key(rules: str, key: str) -> bool:
    """Whether ``key`` is what this version names the tables of ``rules`` (a rule set it knows)."""
    from kniffel.rules import get

    words = rules.split()
    try:
        ruleset = get(words[0], dict(word.split("=", 1) for word in words[1:]))
    except (KniffelError, ValueError, IndexError):
        return False
    return table_key(ruleset) == key


def _files_below(folder: Path) -> list[tuple[str, os.stat_result]]:
    """Every file in ``folder`` and below, with its status read once (a kernel cache holds thousands of
    files, and ``kniffel cache`` lists it in a blink)."""
    found: list[tuple[str, os.stat_result]] = []
    pending = [str(folder)]
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif entry.is_file():
                        with contextlib.suppress(OSError):  # removed meanwhile
                            found.append((entry.path, entry.stat()))
        except OSError:  # a folder removed meanwhile
            continue
    return found


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def remove_entries(found: Sequence[CacheEntry]) -> tuple[int, list[CacheEntry]]:
    """Delete the files of ``found``; the bytes freed and the entries left alone because another process
    is writing them (their lock is held)."""
    freed = 0
    busy: list[CacheEntry] = []
    for entry in found:
        if _being_written(entry):
            busy.append(entry)
            continue
        for path in entry.files:
            if path.is_dir():  # the compiled kernels of a version
                shutil.rmtree(path, ignore_errors=True)
                freed += entry.size - sum(stat.st_size for _, stat in _files_below(path))
                continue
            size = _size(path)
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                freed += size
    return freed, busy


def _being_written(entry: CacheEntry) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks to ask
        return False
    for path in entry.files:
        if path.suffix != ".lock":
            continue
        try:
            with open(path, "a+b") as handle:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        except BlockingIOError:
            return True
        except OSError:
            continue
    return False


# --- the budget ------------------------------------------------------------------------------------------


def mark_used(meta_path: Path) -> None:
    """Mark a table used now (its description's time): the least recently used are removed first."""
    with contextlib.suppress(OSError):
        os.utime(meta_path)


def tables_size(directory: Path | None = None) -> int:
    """Bytes the solved tables in the cache directory take (the compiled kernels are not counted)."""
    return sum(e.size for e in cache_entries(directory, kernels=False))


def _eviction_order(entry: CacheEntry) -> tuple[int, float]:
    """What goes first: tables of an earlier version, then win tables, then the expected-score tables
    every game reads; within each, the least recently used."""
    if entry.kind.startswith("obsolete"):
        rank = 0
    elif entry.kind == KINDS[""]:
        rank = 2
    else:
        rank = 1
    return rank, entry.modified


def make_room(
    size: int, directory: Path | None = None, *, keep: Path | None = None, limit: int | None = None
) -> int:
    """Remove the least recently used tables (:func:`_eviction_order`) until ``size`` more bytes fit the
    budget (``limit``, else :func:`cache_budget`); the table at ``keep`` (being written) and those another
    process is writing are left alone. Returns the bytes freed; raises :class:`OverBudgetError` if it cannot
    fit."""
    limit = cache_budget() if limit is None else limit
    root = directory or cache_dir()
    found = cache_entries(root, kernels=False)
    used = sum(e.size for e in found)
    if used + size <= limit:
        return 0
    if size > limit:
        raise OverBudgetError(f"a table of {size} bytes does not fit the cache's budget of {limit} bytes")
    kept = None if keep is None else keep.name.split(".npy")[0]
    freed = 0
    for entry in sorted(found, key=_eviction_order):
        if used - freed + size <= limit:
            break
        if kept is not None and any(p.name.startswith(kept) for p in entry.files):
            continue
        freed += _remove_quietly(entry)
    if used - freed + size > limit:
        raise OverBudgetError(f"{size} more bytes do not fit the cache's budget of {limit} bytes")
    return freed


def _remove_quietly(entry: CacheEntry) -> int:
    """:func:`remove_entries` of one entry, a file that cannot be removed (mapped on Windows) left for
    later."""
    try:
        return remove_entries([entry])[0]
    except OSError:
        return 0


def trim_cache(directory: Path | None = None, limit: int | None = None) -> int:
    """Bring the tables within the budget (after a write that was larger than said, or a budget made
    smaller): :func:`make_room` for nothing more. Returns the bytes freed (what cannot go stays)."""
    try:
        return make_room(0, directory, limit=limit)
    except OverBudgetError:
        return 0
