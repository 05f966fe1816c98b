"""``kniffel cache``: what the table cache holds (rule set, kind, size, age) and clearing it, all or by rule
set, in English and German."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result


def invoke(args: Sequence[str]) -> Result:
    from kniffel.apps.cli import app

    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120", "NO_COLOR": "1"})


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of its own holding Kniffel's expected-score table and a table of an earlier version."""
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))  # not the user's compiled kernels
    solved = invoke(["solve", "--rules", "kniffel"])
    assert solved.exit_code == 0, solved.output
    (tmp_path / "yahtzee.0123456789abcdef0123.npy").write_bytes(b"\0" * 3000)
    return tmp_path


def test_the_listing_names_rule_set_kind_size_and_age(cache: Path) -> None:
    listed = invoke(["cache"])
    assert listed.exit_code == 0, listed.output
    rows = {
        line.split("│")[1].strip() + "/" + line.split("│")[2].strip(): line
        for line in listed.output.splitlines()
        if line.count("│") == 5
    }
    assert "kniffel/expected scores" in rows
    assert " 8.4\xa0MB " in rows["kniffel/expected scores"]  # the table of every state, float64
    assert "yahtzee/obsolete" in rows
    assert " 3\xa0kB " in rows["yahtzee/obsolete"]
    assert "in all. Clear it with: kniffel cache clear" in listed.output
    # the kernels are wherever numba keeps them, not in the table cache's folder: the listing says where
    kernels = " ".join(listed.output.split())
    assert f"Compiled kernels (this version's): {cache / 'numba' / 'kniffel-'}" in kernels
    german = invoke(["cache", "--lang", "de"])
    assert "erwartete Punkte" in german.output
    assert "8,4\xa0MB" in german.output
    assert "veraltet" in german.output


def test_clearing_by_rule_set_what_is_obsolete_or_everything(cache: Path) -> None:
    refused = invoke(["cache", "clear", "--rules", "kniffle"])
    assert refused.exit_code != 0
    assert "unknown rule set 'kniffle'" in refused.stderr
    cleared = invoke(["cache", "clear", "--obsolete"])
    assert cleared.exit_code == 0, cleared.output
    assert cleared.output.startswith("Cleared 1 ")
    assert not (cache / "yahtzee.0123456789abcdef0123.npy").exists()
    assert any(p.name.startswith("kniffel.") for p in cache.iterdir())
    cleared = invoke(["cache", "clear", "--rules", "kniffel"])
    assert cleared.exit_code == 0, cleared.output
    assert not cache.exists() or not any(p.name.startswith("kniffel.") for p in cache.iterdir())
    assert "The table cache is empty" in invoke(["cache"]).output
