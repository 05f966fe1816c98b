"""The project's own standards, checked with the suite: mypy --strict and ruff are clean, and CI runs
exactly the test command README.md shows."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    path = shutil.which(name, path=str(Path(sys.executable).parent))
    if path is None:
        pytest.fail(f"{name} is not installed next to {sys.executable}; install the test extra")
    return path


def test_ruff_is_clean() -> None:
    for args in (["check"], ["format", "--check"]):
        result = subprocess.run([_tool("ruff"), *args, "."], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 2, "README must open with the start command and the test command"
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
