"""numba kernels of batch advice: the numbers of a situation (its row, and what makes one impossible),
the situations of ``advise --batch``'s JSON lines, every option of many situations valued and ranked in
one call, and the JSON text of the answers.

The values come from :data:`kniffel.core.kernels.points.points_options` (the DP's own kernels); this module
lists them: the boxes a roll may go in, then the keeps the roll may be thrown
from (if a throw is left), ranked best first. :meth:`kniffel.core.Advisor.options` asks it about one
situation, ``advise --batch`` about a block of them, so a query and a batch list the same options in the
same order with the same values.

An option is a *code*: ``box`` for scoring in that box, ``n_boxes + keep`` for holding ``keep`` and
throwing the rest (a free throw or a regular one: the situation says which, the code does not).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from kniffel.core.kernels.common import NEG
from kniffel.core.kernels.records import borrowing

# --- a situation's numbers -----------------------------------------------------------------------------
#
# What makes a situation impossible, as codes: the advisor and ``advise`` word them (with the numbers), a
# compiled reader of batch lines only needs to know that something is wrong. The checks are written once,
# here; Python calls them as plain functions (``.py_func``), the reader compiled.

ROLLS_LEFT = 1
"""Rolls left out of range."""
NO_FREE_THROWS = 2
"""Free throws given for rules without them."""
FREE_LEFT = 3
"""Free throws left out of the rules' range."""
FREE_USED = 4
"""Free throws used this turn out of the rules' range."""
FREE_BEFORE_ROLLS = 5
"""Free throws used while regular rolls are left."""
NEGATIVE_UP = 6
"""A negative upper-section score."""
UNREACHABLE = 7
"""Boxes the column's fill order cannot have filled."""
UPPER = 8
"""An upper-section score the filled boxes cannot have."""
FREE_RANGE = 9
"""Free throws left outside the tables."""


@borrowing
def turn_problem(
    rolls_left: int, free_given: bool, free_left: int, used: int, rolls: int, free_throws: int, per_turn: int
) -> int:  # pragma: no cover
    """What is wrong with a situation's throws under rules of ``rolls`` throws a turn and ``free_throws``
    free throws (``per_turn`` of them a turn): 0, or :data:`ROLLS_LEFT` before the free throws' problems.
    ``free_left`` counts only if ``free_given``."""
    if not 0 <= rolls_left < rolls:
        return ROLLS_LEFT
    if free_throws == 0:
        return NO_FREE_THROWS if free_given or used != 0 else 0
    if free_given and not 0 <= free_left <= free_throws:
        return FREE_LEFT
    if not 0 <= used <= per_turn:
        return FREE_USED
    if used != 0 and rolls_left != 0:
        return FREE_BEFORE_ROLLS
    return 0


class SheetRules(NamedTuple):
    """What a sheet's state is read with (:func:`state_fields`): the compiled rules' tables and numbers
    of the same names (:class:`kniffel.core.tables.Compiled`)."""

    full_mask: int
    allowed: Any
    threshold: int
    upper_mask: int
    nup: Any
    n_armed: int
    five: int
    n_free: int


@borrowing
def state_fields(
    mask: int, up: int, five_points: int, free_given: bool, free_left: int, rules: SheetRules
) -> tuple[int, int, int, int]:  # pragma: no cover
    """The table's state of a sheet with the boxes ``mask`` filled, ``up`` points in its upper section,
    ``five_points`` in the five-of-a-kind box ``rules.five`` and ``free_left`` free throws left (if
    ``free_given``, else all): ``(problem, up, armed, free)``, the problem 0 or what makes the sheet
    impossible (the rest then meaningless)."""
    if up < 0:
        return NEGATIVE_UP, up, 0, 0
    if mask != rules.full_mask and rules.allowed[mask] == 0:
        # a column filled in order reaches only some sheets; the tables hold nothing for the others
        return UNREACHABLE, up, 0, 0
    up = min(up, rules.threshold)
    broadcast = mask & rules.upper_mask == rules.upper_mask
    if not broadcast and up >= rules.nup[mask]:
        return UPPER, up, 0, 0
    armed = 0
    five = rules.five
    if rules.n_armed == 2 and five >= 0 and mask >> five & 1:
        armed = 1 if five_points > 0 else 0
    free = free_left if free_given else rules.n_free - 1
    if not 0 <= free < rules.n_free:
        return FREE_RANGE, up, armed, free
    return 0, 0 if broadcast else up, armed, free


@borrowing
def turn_fields(
    rolls_left: int,
    at_once_given: bool,
    thrown_at_once: bool,
    free: int,
    used: int,
    rolls: int,
    n_at_once: int,
    free_per_turn: int,
) -> tuple[int, int, int, int, bool]:  # pragma: no cover
    """The rest of a situation's row after its state's (:meth:`kniffel.core.position.ColumnPosition.encode`):
    ``(at_once, sweep_free, usable, throws, free_throw)``, the last whether the next throw is a free
    one. ``thrown_at_once`` counts only if ``at_once_given`` (else: this is the turn's first throw)."""
    if not at_once_given:
        thrown_at_once = rolls_left == rolls - 1
    at_once = 1 if thrown_at_once and n_at_once == 2 else 0
    usable = max(0, min(free_per_turn - used, free))
    if rolls_left > 0:
        return at_once, free, usable, rolls_left - 1, False
    if usable > 0:
        return at_once, free - 1, usable - 1, 0, True
    return at_once, free, 0, -1, False


@borrowing
def ranked_options(
    situations: Any, boxes: Any, keeps: Any, choices: Any, codes: Any, ranked: Any, counts: Any
) -> None:  # pragma: no cover
    """For each situation ``situations[i]`` valued by :data:`~kniffel.core.kernels.points.points_options`
    (``boxes``, ``keeps``): ``counts[i]`` options, their codes ``codes[i, :counts[i]]`` and values
    ``ranked[i, :counts[i]]``, best first. Ties keep the order before ranking, boxes as the rules list
    them, then the keeps roll ``situations[i, 4]`` may be thrown from as ``choices[roll]`` lists them
    (``-1`` pads its row); a box the roll may not go in is not an option, nor is any keep when no throw
    is left (``situations[i, 8]`` < 0). ``codes`` and ``ranked`` need ``n_boxes + choices.shape[1]``
    columns. (Its own kernel, not one calling ``points_options``: a level of calls more would compile
    the DP's sweep once more on a first run.)"""
    n = situations.shape[0]
    n_boxes = boxes.shape[1]
    for i in range(n):
        count = 0
        for b in range(n_boxes + choices.shape[1]):
            if b < n_boxes:
                code = b
                value = boxes[i, b]
                if value == NEG:
                    continue
            else:
                if situations[i, 8] < 0:
                    break
                keep = choices[situations[i, 4], b - n_boxes]
                if keep < 0:
                    break
                code = n_boxes + keep
                value = keeps[i, keep]
            # insertion after every option worth as much: a stable ranking, best first
            j = count
            while j > 0 and ranked[i, j - 1] < value:
                ranked[i, j] = ranked[i, j - 1]
                codes[i, j] = codes[i, j - 1]
                j -= 1
            ranked[i, j] = value
            codes[i, j] = code
            count += 1
        counts[i] = count
