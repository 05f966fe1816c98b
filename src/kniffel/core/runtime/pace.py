"""How fast this machine solves, measured as it works and remembered: what an estimate of a solve reads.

A solve's estimate ("about 11 s") is the work it holds times the seconds a unit of that work takes. A
constant measured on one machine is wrong on the next: Yahtzee's cone of 300 from the empty sheet took
10 s on a 2-core Zen 4 and 36 s on a 2-core Zen 1, where the constant said 21 s on both. So every
solve large enough to be a fair sample records its seconds per unit here, and later estimates read the
median of the last :data:`KEPT` of them. They are kept in the cache directory (``pace.json``, beside
the solved tables) for each processor the kernels are compiled for and each number of threads, so a
cache directory shared by several machines keeps each machine's own; a first estimate, with nothing
measured yet, reads the caller's default. Nothing here is ever an error: a file that cannot be read or
written is a pace not remembered. With ``KNIFFEL_PACE=0`` every estimate reads its default and nothing
is remembered (the tests set it: their decisions of whether to wait for a solve must not follow the
load of the machine they run on).
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import threading
from pathlib import Path
from typing import Any

ENV = "KNIFFEL_PACE"
FILE = "pace.json"
FORMAT = 1
KEPT = 5
"""Measurements kept per kind of work: the median of these is the pace (one run on a busy machine moves
it little)."""
TARGET_ROWS = "target rows"
"""Seconds of the level loop per probability of a cone's windows (as :func:`kniffel.core.target.cone_size`
counts them), solved on all the compiled threads."""
DISTRIBUTIONS = "distributions"
"""Seconds of a distribution table's build per lane (:func:`kniffel.core.lanes.lane_layout`'s ``n_lanes``),
on all the compiled threads."""

_lock = threading.Lock()
_loaded: dict[str, dict[str, list[float]]] | None = None


def machine() -> str:
    """What a pace is measured on: the processor the kernels are compiled for and the threads they run on
    (``NUMBA_CPU_NAME=haswell`` gives the AVX2 build's own)."""
    import llvmlite.binding as llvm
    from numba.core import config

    from kniffel.core.runtime.work import compiled_threads

    name = str(getattr(config, "CPU_NAME", None) or llvm.get_host_cpu_name())
    return f"{name}, {compiled_threads()} threads"


def rate(kind: str, default: float) -> float:
    """Seconds per unit of ``kind`` of work on this machine: the median of what was measured, else
    ``default``."""
    if not _on():
        return default
    found = _all().get(machine(), {}).get(kind)
    return statistics.median(found) if found else default


def remember(kind: str, seconds: float, amount: int) -> None:
    """Record that ``amount`` units of ``kind`` of work took ``seconds`` here (callers pass only work big
    enough to be a fair sample)."""
    if amount <= 0 or not seconds > 0 or not _on():
        return
    with _lock:
        known = _all()
        kept = known.setdefault(machine(), {}).setdefault(kind, [])
        kept.append(seconds / amount)
        del kept[:-KEPT]
        with contextlib.suppress(OSError):
            _write(_path(), known)


def forget() -> None:
    """Drop what this process read (the next question reads the file again): for tests, and after the
    cache directory changed."""
    global _loaded
    with _lock:
        _loaded = None


def _on() -> bool:
    return os.environ.get(ENV, "1").strip() != "0"


def _path() -> Path:
    from kniffel.core.runtime.store import cache_dir

    return cache_dir() / FILE


def _all() -> dict[str, dict[str, list[float]]]:
    global _loaded
    if _loaded is None:
        _loaded = _read(_path())
    return _loaded


def _read(path: Path) -> dict[str, dict[str, list[float]]]:
    """The paces in ``path``; whatever is not a list of positive numbers under a machine and a kind is
    left out (an empty record for a file that is missing or damaged)."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    machines = data.get("machines") if isinstance(data, dict) and data.get("format") == FORMAT else None
    if not isinstance(machines, dict):
        return {}
    found: dict[str, dict[str, list[float]]] = {}
    for name, kinds in machines.items():
        if not isinstance(kinds, dict):
            continue
        for kind, values in kinds.items():
            if isinstance(values, list):
                sound = [float(v) for v in values if isinstance(v, int | float) and 0 < v < 1]
                if sound:
                    found.setdefault(str(name), {})[str(kind)] = sound[-KEPT:]
    return found


def _write(path: Path, known: dict[str, dict[str, list[float]]]) -> None:
    from kniffel.base.files import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps({"format": FORMAT, "machines": known}, indent=1, sort_keys=True))


__all__ = ["ENV", "KEPT", "TARGET_ROWS", "forget", "machine", "rate", "remember"]
