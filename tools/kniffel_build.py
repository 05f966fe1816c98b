"""The package's build backend: setuptools', and an editable install compiles the solver's kernels.

pip runs no code of a package once it is installed, so the one moment an install can compile the numba
kernels that a new user's first commands need is its build. After setuptools has built the editable
wheel, this runs :mod:`kniffel.services.install` on the sources the install points at, with the numba
the build requires (the release the package's own dependency resolves to, whose disk cache the
installed package then reads; with a different one the kernels compile at first use as before). It only
prepares a cache: if it fails the install goes on, and ``KNIFFEL_COMPILE_AT_INSTALL=0`` skips it. A
wheel built for elsewhere (``pip wheel``, a non-editable install) compiles nothing: numba files its
cache under the path of the sources, which is not the installed package's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every hook of setuptools' backend, unchanged

SOURCES = Path(__file__).resolve().parent.parent / "src"
SKIP_ENV = "KNIFFEL_COMPILE_AT_INSTALL"
"""``0``: compile nothing (:data:`kniffel.services.install.SKIP_ENV`)."""
TIMEOUT = 1800
"""Seconds the compiling may take at most (about a minute on a laptop of two cores)."""
NOT_COMPILED = "kniffel: the kernels were not compiled ({}); they will be at their first use"


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    name: str = build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
    compile_kernels()
    return name


def say(line: str) -> None:
    """``line`` on the terminal of the person installing, if there is one: pip shows a build's own output
    only when it fails or is asked to (``-v``), and a minute of silence would look like a hang."""
    try:
        with open("/dev/tty", "w", encoding="utf-8") as terminal:
            terminal.write(line + "\n")
    except OSError:
        pass


def compile_kernels() -> bool:
    """Run :mod:`kniffel.services.install` on :data:`SOURCES`; whether it compiled the kernels."""
    if os.environ.get(SKIP_ENV) == "0":
        return False
    say(f"kniffel: compiling the solver for this processor, about a minute ({SKIP_ENV}=0 skips it)")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SOURCES), env.get("PYTHONPATH")) if p)
    try:
        done = subprocess.run([sys.executable, "-m", "kniffel.services.install"], env=env, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(NOT_COMPILED.format(error), file=sys.stderr)
        return False
    if done.returncode != 0:
        print(NOT_COMPILED.format(f"exit status {done.returncode}"), file=sys.stderr)
        return False
    say("kniffel: compiled")
    return True
