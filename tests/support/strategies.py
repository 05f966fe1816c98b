"""Hypothesis strategies of the engine's inputs: random rule sets and options, random legal positions."""

from __future__ import annotations

from hypothesis import strategies as st

from kniffel import Game, SeededDice, rules
from kniffel.rules import RuleSet


@st.composite
def rule_sets(draw: st.DrawFn, /, ids: tuple[str, ...] | None = None, **fixed: str) -> RuleSet:
    """A built-in rule set with every option not ``fixed`` set to a random value."""
    rules_id = draw(st.sampled_from(ids or rules.available()))
    options = {
        o.key: fixed.get(o.key) or draw(st.sampled_from(o.values)) for o in rules.options_for(rules_id)
    }
    return rules.get(rules_id, options)


@st.composite
def positions(draw: st.DrawFn, /, ids: tuple[str, ...] | None = None, max_actions: int = 80) -> Game:
    """A game of a random rule set after up to ``max_actions`` random legal actions (often mid-turn)."""
    rs = draw(rule_sets(ids))
    players = draw(st.integers(1, 2))
    game = Game(rs, [f"P{i}" for i in range(players)], dice=SeededDice(draw(st.integers(0, 2**32))))
    for _ in range(draw(st.integers(0, max_actions), label="actions")):
        if game.is_over:
            break
        game.apply(draw(st.sampled_from(game.legal_actions())))
    return game
