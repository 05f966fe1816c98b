"""Rule sets of the Kniffel family as data.

>>> from kniffel import rules
>>> yahtzee = rules.get("yahtzee", {"joker": "free"})
>>> yahtzee.score_table.shape
(252, 13)
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Mapping

from kniffel.base.errors import RulesError, UnknownBoxError
from kniffel.rules.builtin import (
    BUILTIN,
    COMMON_OPTIONS,
    SOURCES,
    SPECIFIC_OPTIONS,
    Option,
    tie_wins_all,
    with_five_alike_full_house,
)
from kniffel.rules.model import Box, Column, Extra, Order, RuleSet, Section
from kniffel.rules.names import find_box
from kniffel.rules.placement import Placement, placements, reachable_boxes, strict_governs, strikeable

__all__ = [
    "SOURCES",
    "Box",
    "Column",
    "Extra",
    "Option",
    "Order",
    "Placement",
    "RuleSet",
    "RulesError",
    "Section",
    "UnknownBoxError",
    "available",
    "book_options",
    "find_box",
    "get",
    "options_for",
    "parse_options",
    "placements",
    "reachable_boxes",
    "single_column",
    "strict_governs",
    "strikeable",
    "tie_wins_all",
]

_REGISTRY: dict[str, RuleSet] = {rules.id: rules for rules in BUILTIN}


def available() -> list[str]:
    """Ids of the built-in rule sets, in the order they are listed."""
    return list(_REGISTRY)


def options_for(rules_id: str) -> tuple[Option, ...]:
    """The options a rule set accepts: its own first, then those every rule set has."""
    return SPECIFIC_OPTIONS.get(_base(rules_id).id, ()) + COMMON_OPTIONS


def book_options(rules_id: str) -> tuple[Option, ...]:
    """The options a rule set's rule book has (:attr:`Option.books`): what a front end offers people
    choosing a game, where :func:`options_for` lists every option the rule set takes."""
    base = _base(rules_id).id
    return tuple(o for o in options_for(base) if not o.books or base in o.books)


def _base(rules_id: str) -> RuleSet:
    """The built-in rule set ``rules_id``, however it is capitalised (``Yahtzee``); an unknown id is
    refused with the closest ids there are."""
    found = _REGISTRY.get(rules_id.strip().lower())
    if found is not None:
        return found
    ids = ", ".join(_REGISTRY)
    close = difflib.get_close_matches(rules_id.strip().lower(), _REGISTRY, n=1, cutoff=0.6)
    if close:
        raise RulesError(f"unknown rule set {rules_id!r}; did you mean {close[0]!r}? Choose one of: {ids}")
    raise RulesError(f"unknown rule set {rules_id!r}; choose one of: {ids}")


def get(rules_id: str, options: Mapping[str, str] | None = None) -> RuleSet:
    """The rule set ``rules_id`` with ``options`` applied (``{"sharp": "on"}``).

    Options not given take their defaults; the result records every non-default value in
    :attr:`RuleSet.options`, so ``get(r.id, r.options)`` rebuilds ``r``.
    """
    rules = _base(rules_id)
    known = {option.key: option for option in options_for(rules.id)}
    chosen: dict[str, str] = {}
    for key, value in (options or {}).items():
        option = known.get(key)
        if option is None:
            allowed = ", ".join(known) or "none"
            raise RulesError(f"{rules.id} has no option {key!r}; options: {allowed}")
        value = str(value).strip().lower()
        if value not in option.values:
            raise RulesError(f"option {key} must be one of {', '.join(option.values)}, got {value!r}")
        if value != option.default:
            chosen[key] = value
    for option in known.values():
        if option.key in chosen:
            rules = option.apply(rules, chosen[option.key])
    if chosen:
        rules = dataclasses.replace(rules, options=chosen)
    return rules


def single_column(rules: RuleSet, column: int | str | Column = 0) -> RuleSet:
    """The rule set of a sheet that is only one of the columns of ``rules``: the same boxes and policies,
    that column's fill order, box keys that are plain box ids. ``column`` is an index, a column id or a
    :class:`Column` of ``rules``; a single-column rule set comes back as it is.

    This is the one place that decides what "one column alone" means: the solver solves it, the planners
    value each column of a multi-column sheet by it, and simulations of sheets whose columns are alike
    play it.
    """
    if isinstance(column, Column):
        if column not in rules.columns:
            raise RulesError(f"{rules.id} has no column {column.id!r}")
        chosen = column
    elif isinstance(column, str):
        matches = [c for c in rules.columns if c.id == column]
        if not matches:
            ids = ", ".join(c.id for c in rules.columns)
            raise RulesError(f"{rules.id} has no column {column!r}; columns: {ids}")
        chosen = matches[0]
    else:
        if not -len(rules.columns) <= column < len(rules.columns):
            last = len(rules.columns) - 1
            raise RulesError(f"{rules.id} has no column {column}; its columns are 0 to {last}")
        chosen = rules.columns[column]
    if not rules.multi_column:
        return rules
    alone = dataclasses.replace(rules, columns=(Column("1", chosen.order),))
    # The score table of a column alone says what placement decides per column on the whole sheet.
    return with_five_alike_full_house(alone) if strict_governs(rules, chosen) else alone


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    """``["sharp=on", "extra=100"]`` to a dict; ``RulesError`` for an item that is not ``key=value``."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise RulesError(f"an option is key=value, got {pair!r}")
        result[key.strip()] = value.strip()
    return result
