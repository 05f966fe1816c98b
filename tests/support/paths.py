"""Where the tests find the repository's files, wherever in the tests' folders a test sits."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
"""The ``tests`` folder: the folder of the support package, and of the tests' data."""
ROOT = TESTS.parent
"""The repository: ``src``, ``docs``, ``benchmarks``, ``examples`` and the project's files."""
DATA = TESTS / "data"
"""The tests' reference data (the seeds' examples, published optima, target reference tables)."""
