"""Files written all at once: a reader, or a crash halfway, finds the old file or the whole new one.

Every writer of a file that must never be left half written (a saved game, the record of games, the
solver's tables) writes through :func:`atomic_write` (the bytes or text in hand) or :func:`atomic_stream`
(written as it is made, a table of gigabytes say): a temporary file beside the target (same folder,
so the rename stays on one file system), flushed to the disk, renamed over the target, and the folder
flushed where the system allows, so that the rename itself survives a power cut. A failure removes the
temporary file and raises the ``OSError`` with the target's name, not the temporary one's.
"""

from __future__ import annotations

import errno
import glob
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

TEMPORARY_SUFFIX = ".tmp"
"""How the temporary file of a write in progress ends (its name begins with a dot and the target's)."""


def check_writable(path: Path) -> None:
    """Refuse, naming ``path``, a file that cannot be written: a folder, one in a missing or read-only
    folder, or a read-only file. Front ends call it before the work whose result the file is to keep."""
    folder = path.parent
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist", str(path))
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise PermissionError(errno.EACCES, "cannot be written", str(path))


def _named(error: OSError, path: Path, temporary: str | None = None) -> OSError:
    """``error`` as it reads for ``path``: the reason kept, the temporary file's name not. An error that
    names another file (one the writer read, say) is left as it is."""
    if error.filename not in (None, temporary):
        return error
    return type(error)(error.errno, error.strerror, str(path))


@contextmanager
def atomic_stream(path: Path) -> Iterator[BinaryIO]:
    """A binary stream whose bytes replace ``path`` all at once when the block ends without an error;
    on an error (or Ctrl-C) ``path`` is left as it was and nothing is left beside it. The new file is
    readable by its owner only (as :func:`tempfile.mkstemp` makes it). Raises ``OSError`` naming
    ``path`` (:func:`check_writable` first)."""
    check_writable(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX, dir=path.parent)
    except OSError as error:
        raise _named(error, path) from None
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise _named(error, path, temporary) from None
        raise
    _sync_folder(path.parent)


def atomic_write(path: Path, data: bytes | str) -> None:
    """Replace ``path`` by ``data`` all at once (see :func:`atomic_stream`): bytes as they are, text in
    UTF-8 with the system's line ends, as a text file opened for writing writes it."""
    if isinstance(data, str):
        data = data.replace("\n", os.linesep).encode("utf-8")
    with atomic_stream(path) as stream:
        stream.write(data)


def _sync_folder(folder: Path) -> None:
    """Flush ``folder``'s entries to the disk, so that a rename into it outlives a power cut; a system
    that cannot open or flush a folder (Windows, some network file systems) is left to keep it as it
    can: the file itself is whole either way."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def leftovers(path: Path) -> list[Path]:
    """The temporary files that writes of ``path`` cut short (a killed process) left beside it: what a
    writer holding the file's lock may remove."""
    pattern = glob.escape(f".{path.name}.") + "*" + TEMPORARY_SUFFIX
    return sorted(path.parent.glob(pattern))


__all__ = ["TEMPORARY_SUFFIX", "atomic_stream", "atomic_write", "check_writable", "leftovers"]
