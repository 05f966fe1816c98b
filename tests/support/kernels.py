"""The solver's compiled kernels as the tests of their rules read them, and what a first use compiles."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from support.paths import TESTS


def compiled_kernels() -> dict[str, Any]:
    """Every compiled function of ``kniffel.core.kernels`` (its numba dispatcher), by the module that
    defines it and its name, as the tests of the kernels' rules read them. A loop an objective makes
    from a template (``solve_points``) is named by the module that makes it."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import kniffel.core.kernels

    found: dict[str, Any] = {}
    seen: set[int] = set()
    modules = [
        importlib.import_module(f"kniffel.core.kernels.{info.name}")
        for info in pkgutil.iter_modules(kniffel.core.kernels.__path__)
    ]
    for own in (True, False):  # first where a kernel is written, then where a template is made into one
        for module in modules:
            for name, value in vars(module).items():
                if not isinstance(value, CPUDispatcher) or id(value) in seen:
                    continue
                written = value.py_func.__module__ == module.__name__ and value.py_func.__name__ == name
                made = value.py_func.__name__ == name
                if (own and written) or (not own and made):
                    seen.add(id(value))
                    found[f"{module.__name__}.{name}"] = value
    return found


def kernels_compiled_after(prepare: str, ask: str) -> list[str]:
    """The kernels (of :func:`compiled_kernels`) that the Python statements ``ask`` compile or load for
    argument types that ``prepare`` had not, both run in that order in a fresh process: what a front end's
    first use compiles after a warm-up or an install has prepared the kernels."""
    script = "\n".join(
        [
            "import sys",
            f"sys.path.insert(0, {str(TESTS)!r})",
            "from support.kernels import compiled_kernels",
            "def signatures():",
            "    return {name: set(kernel.signatures) for name, kernel in compiled_kernels().items()}",
            prepare,
            "before = signatures()",
            ask,
            "after = signatures()",
            "import json",
            "print(json.dumps(sorted(name for name in after if after[name] - before.get(name, set()))))",
        ]
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found
