"""Name the compiled kernels for ``perf``: run a script, then write ``/tmp/perf-<pid>.map``.

    perf record -F 999 -o run.data -- .venv/bin/python benchmarks/perf_map.py SCRIPT [ARGS...]
    perf report -i run.data --no-children --sort sym

numba's machine code lives in memory that ``perf`` cannot name, so a profile shows bare addresses. This
runs ``SCRIPT`` (as ``python SCRIPT ARGS`` would) and, as the process exits, writes the map ``perf``
reads for such code: every kernel of ``kniffel`` the process ran, and every callee compiled into it
that was not inlined (``keep_max`` inside the rows' loop, ``weighted_sum``'s caller inside a turn to
win). A kernel's callees have no address of their own in numba's records; their symbols are read from
the kernel's object code (``nm``, from binutils), compiled here or loaded from numba's disk cache, and
placed by the kernel's own symbol. A map entry ends where the next one starts.

How to use it is in ``docs/explanation/performance.md`` ("How to measure"); what its profiles found, in
``docs/explanation/kernels.md``. Nothing here is timed."""

from __future__ import annotations

import atexit
import os
import re
import runpy
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ELF = b"\x7fELF"


def readable(symbol: str) -> str:
    """``kniffel.core.kernels.common.keep_max`` for numba's ``_ZN7kniffel4core7kernels8keep_maxB3v83...`` (its
    wrappers keep their prefix: ``cfunc.``, ``cpython.``); other names as they are."""
    start = symbol.find("_ZN")
    if start < 0:
        return symbol
    rest = symbol[start + 3 :]
    parts: list[str] = []
    while (digits := re.match(r"\d+", rest)) is not None:
        size = int(digits.group())
        rest = rest[len(digits.group()) :]
        parts.append(rest[:size])
        rest = rest[size:]
    return symbol[:start] + ".".join(parts) if parts else symbol


def objects(blob: bytes) -> list[bytes]:
    """The ELF object files inside ``blob`` (a cache file holds a kernel's object code among pickled
    data), each cut at the end of its section headers."""
    found = []
    at = blob.find(ELF)
    while at >= 0:
        (table,) = struct.unpack_from("<Q", blob, at + 0x28)
        entry, count = struct.unpack_from("<HH", blob, at + 0x3A)
        found.append(blob[at : at + table + entry * count])
        at = blob.find(ELF, at + 1)
    return found


def symbols(code: bytes) -> dict[str, int]:
    """The code symbols of one object file and their offsets (``nm``)."""
    with tempfile.NamedTemporaryFile(suffix=".o") as file:
        file.write(code)
        file.flush()
        listed = subprocess.run(["nm", "--defined-only", file.name], capture_output=True, text=True).stdout
    found = {}
    for line in listed.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTW":
            found[fields[2]] = int(fields[0], 16)
    return found


def object_codes(dispatcher: Any, library: Any) -> list[bytes]:
    """The object code a kernel's overload was loaded from: compiled in this process, or from its files
    in numba's disk cache."""
    try:
        return [library._get_compiled_object()]
    except Exception:  # loaded from the cache: numba keeps no copy
        pass
    cache = getattr(dispatcher, "_cache", None)
    directory = getattr(cache, "_cache_path", None)
    if directory is None:
        return []
    stem = f"{dispatcher.py_func.__module__.rsplit('.', 1)[-1]}.{dispatcher.py_func.__name__}-"
    return [code for path in Path(directory).glob(f"{stem}*.nbc") for code in objects(path.read_bytes())]


def kernel_addresses() -> dict[int, str]:
    """Every named piece of compiled code of the kernels of ``kniffel`` this process ran, by address."""
    from numba.core.registry import CPUDispatcher

    named: dict[int, str] = {}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("kniffel"):
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            overloads: dict[Any, Any] = value.overloads
            for result in overloads.values():
                own = result.fndesc.llvm_func_name
                try:
                    address = result.library.get_pointer_to_function(own)
                except Exception:
                    continue
                if not address:
                    continue
                named.setdefault(address, readable(own))
                for code in object_codes(value, result.library):
                    offsets = symbols(code)
                    if own in offsets:
                        base = address - offsets[own]
                        for name, offset in offsets.items():
                            named.setdefault(base + offset, readable(name))
                        break
    return named


def write_map(named: dict[int, str], path: Path) -> None:
    """``perf``'s map: each piece from its address to the next one's."""
    addresses = sorted(named)
    ends = [*addresses[1:], addresses[-1] + 0x1000] if addresses else []
    with path.open("w", encoding="utf-8") as out:
        for start, end in zip(addresses, ends, strict=True):
            out.write(f"{start:x} {end - start:x} {named[start]}\n")


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = Path(f"/tmp/perf-{os.getpid()}.map")

    def at_exit() -> None:
        named = kernel_addresses()
        write_map(named, path)
        print(f"perf_map: {len(named)} compiled pieces named in {path}", file=sys.stderr)

    atexit.register(at_exit)
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
