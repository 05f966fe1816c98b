"""CI runs exactly the test command README.md shows, and that command checks the whole project: the
tests, mypy --strict, ruff and the documentation's build (``scripts/test`` runs each as a step of its
own)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 2, "README must open with the start command and the test command"
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_test_command_checks_types_style_and_the_documentation() -> None:
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    for step in ("ruff check", "ruff format --check", "mypy", "mkdocs build --strict"):
        assert step in script, f"scripts/test does not run {step}"
