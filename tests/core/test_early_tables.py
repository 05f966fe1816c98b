"""The early win tables of every built-in rule set fit a small machine's cache beside its table of expected
points, and what they write is what was estimated before they were solved (the estimate a server checks
against its budget before it starts them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kniffel.core import UnsupportedRulesError, compile_rules, early_tables, table_path
from kniffel.core.early import EARLY_BYTES
from kniffel.core.runtime.store import DEFAULT_BUDGET
from kniffel.planning.winning import prepare_tables, win_tables
from kniffel.rules import RuleSet
from kniffel.rules.builtin import BUILTIN

ESTIMATED = 0.2
"""How far what is written may lie from the estimate, either way."""


def solved_rule_sets() -> list[RuleSet]:
    found = []
    for ruleset in BUILTIN:
        try:
            compile_rules(ruleset)
        except UnsupportedRulesError:
            continue
        found.append(ruleset)
    return found


@pytest.mark.parametrize("ruleset", solved_rule_sets(), ids=lambda r: r.id)
def test_the_early_tables_fit_beside_the_table_of_points(ruleset: RuleSet) -> None:
    c = compile_rules(ruleset)
    early = early_tables(c)
    assert early.bytes <= EARLY_BYTES
    assert early.bytes * (1 + ESTIMATED) <= 200_000_000
    points = c.n_aux * c.n_masks * (c.threshold + 1) * 8
    assert 2 * (early.bytes * (1 + ESTIMATED) + points) <= DEFAULT_BUDGET, "two rule sets' fit the cache"
    # the rows reach past the distributions, and the horizon just past the rows
    assert 0 <= early.distributions < early.rows
    assert early.horizon == early.rows + 1


def written(directory: Path, kind: str) -> int:
    return sum(p.stat().st_size for p in directory.glob(f"*.{kind}*") if p.suffix in (".npy", ".bin"))


@pytest.mark.slow
def test_what_the_early_tables_write_is_what_was_estimated(tmp_path: Path) -> None:
    """Kniffel's, the smallest whole rule set's (about ten seconds); ``benchmarks/cold_start.py`` prints
    every rule set's written beside its estimate."""
    ruleset = next(r for r in solved_rule_sets() if r.id == "kniffel")
    early = early_tables(compile_rules(ruleset))
    assert win_tables(ruleset, tmp_path).early_work().bytes == early.bytes
    prepare_tables(ruleset, tmp_path)
    assert table_path(ruleset, tmp_path).exists()
    for kind, estimate in (("dist-early", early.distribution_bytes), ("win-early", early.rows_bytes)):
        assert abs(written(tmp_path, kind) - estimate) <= ESTIMATED * estimate, kind
