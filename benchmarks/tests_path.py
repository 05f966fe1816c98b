"""Puts the repository's ``tests`` folder on ``sys.path``, so that the benchmarks which start a server
import the test support package (``from support.web import ServerProcess``) as the tests do. The
support package is not installed with kniffel: it is tooling, not part of the library.

Imported for this effect alone (``import tests_path``), before any ``support`` import.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent.parent / "tests")
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
