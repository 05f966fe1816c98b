"""The benchmarks' own modules, for the tests of what they report and compute."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from support.paths import ROOT

BENCHMARKS = ROOT / "benchmarks"


def load(name: str) -> ModuleType:
    """A module of ``benchmarks/`` as its scripts import it (by its bare name)."""
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(BENCHMARKS / f"{name}.py"):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
