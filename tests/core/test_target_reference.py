"""Target probabilities from the cones of positions equal those of the whole exact target tables.

``tests/data/target_reference.json`` holds, for every single-column rule set and every option (and
Knöffel's columns), positions from games of a mostly optimal bot, each with a random target, and what
an independent exact computation answered there, the whole target tables (every state solved for every
target, no cones): every option's probability of reaching the target, and between turns the probability
of a few targets. Here each question is asked of the rows solved for the cone of the position and that
target only (late positions: their cones are small; strict rule sets early too). The early positions
recorded beside them (``early_cases``) take the early tables, which ``benchmarks/target.py --check``
compares.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kniffel import rules
from kniffel.core import (
    Advisor,
    ColumnPosition,
    RowsQuestion,
    TargetAdvisor,
    compile_rules,
    default_limit,
    table,
)
from kniffel.rules import RuleSet, single_column
from support.paths import DATA

REFERENCE: dict[str, Any] = json.loads((DATA / "target_reference.json").read_text(encoding="utf-8"))
EXACT = 1e-6


def rule_set(variant: dict[str, Any]) -> RuleSet:
    found = rules.get(variant["rules"], variant["options"])
    return found if variant["column"] is None else single_column(found, variant["column"])


def name(variant: dict[str, Any]) -> str:
    options = " ".join(f"{k}={v}" for k, v in sorted(variant["options"].items()))
    column = "" if variant["column"] is None else f" column {variant['column']}"
    return f"{variant['rules']} {options}{column}".strip()


def check_case(advisor: Advisor, case: dict[str, Any]) -> None:
    """A position's options and between-turn probabilities, each from the rows of its own cone."""
    c = advisor.compiled
    sheet, needed, left = case["sheet"], case["needed"], case["free_throws_left"]
    state = advisor.state(sheet, left)
    rows = RowsQuestion(c, state, needed, needed, turn=True, early=False).rows()
    options = TargetAdvisor(advisor, rows).options(
        ColumnPosition(
            sheet,
            case["dice"],
            case["rolls_left"],
            thrown_at_once=case["thrown_at_once"],
            free_throws_left=left,
            free_throws_used=case["free_throws_used"],
        ),
        needed,
    )
    expected = dict(case["options"])
    got = {str(o.action): o.value for o in options}
    assert got.keys() == expected.keys()
    for action, value in expected.items():
        assert got[action] == pytest.approx(value, abs=EXACT), (action, case)
    assert [v for _, v in case["options"]] == pytest.approx([o.value for o in options], abs=EXACT)
    for u, probability in case["between"]:
        between = RowsQuestion(c, state, u, u, turn=False, early=False).rows()
        found = TargetAdvisor(advisor, between).probability(sheet, u, left)
        assert found == pytest.approx(probability, abs=EXACT), (u, case)


@pytest.mark.parametrize("variant", REFERENCE["variants"], ids=name)
def test_cones_answer_as_the_exact_tables_did(variant: dict[str, Any]) -> None:
    ruleset = rule_set(variant)
    advisor = Advisor(table(ruleset))
    assert variant["limit"] == default_limit(compile_rules(ruleset))
    assert variant["cases"], "every rule set and option has positions"
    for case in variant["cases"]:
        check_case(advisor, case)


def test_the_reference_covers_every_single_column_rule_set_and_option() -> None:
    """Every option value of the single-column rule sets that changes what a sheet scores, and Knöffel's
    column with one and two free throws a turn and sharp."""
    seen = {(v["rules"], tuple(sorted(v["options"].items()))) for v in REFERENCE["variants"]}
    for rules_id in ("kniffel", "yahtzee", "yatzy", "yatzy-deluxe"):
        assert (rules_id, ()) in seen, rules_id
        defaults = rules.get(rules_id).options
        for option in rules.options_for(rules_id):
            for value in option.values if option.scoring else ():
                if value != defaults.get(option.key, option.default):
                    assert (rules_id, ((option.key, value),)) in seen, (rules_id, option.key, value)
    knoeffel = {
        v["options"].get("free_throws_per_turn", "1")
        for v in REFERENCE["variants"]
        if v["rules"] == "knoeffel"
    }
    assert knoeffel >= {"1", "2"}
    assert any(v["rules"] == "knoeffel" and v["options"].get("sharp") == "on" for v in REFERENCE["variants"])
