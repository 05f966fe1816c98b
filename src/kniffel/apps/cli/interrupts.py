"""Ctrl-C, seen once: whatever a command was doing, it ends with one line.

Python turns Ctrl-C into :class:`KeyboardInterrupt` wherever the main thread is. Inside a C callback
(numba compiling a kernel through llvmlite) it cannot be raised: Python prints "Exception ignored ..."
with a traceback, and the compiler then fails with an error of its own. :func:`catch` notes the
interrupt before Python raises it and keeps those ignored interrupts quiet, so that the entry point can
tell the compiler's error after a Ctrl-C from a real one (:func:`seen`) and end with one line.
"""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType

_seen = threading.Event()


def _interrupt(signum: int, frame: FrameType | None) -> None:
    _seen.set()
    raise KeyboardInterrupt


def catch() -> None:
    """From now on, Ctrl-C is noted before it interrupts (the main thread of a command's process)."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, _interrupt)
    default = sys.unraisablehook

    def quiet(unraisable: sys.UnraisableHookArgs) -> None:
        if not (_seen.is_set() or isinstance(unraisable.exc_value, KeyboardInterrupt)):
            default(unraisable)

    sys.unraisablehook = quiet


def seen() -> bool:
    """Whether Ctrl-C was pressed."""
    return _seen.is_set()


__all__ = ["catch", "seen"]
