"""numba kernel of the advisor's listing: every option of many situations, valued and ranked in one call.

The values come from :func:`kniffel.solver.kernels.situation_values` (the DP's own kernels, one state at
a time); this module only lists them: the boxes a roll may go in, then the keeps the roll may be thrown
from (if a throw is left), ranked best first. :meth:`kniffel.solver.Advisor.options` asks it about one
situation, ``advise --batch`` about a block of them, so a query and a batch list the same options in the
same order with the same values.

An option is a *code*: ``box`` for scoring in that box, ``n_boxes + keep`` for holding ``keep`` and
throwing the rest (a free throw or a regular one: the situation says which, the code does not).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from kniffel.solver.kernels import NEG, situation_values


@njit(cache=True, nogil=True)
def ranked_options(
    values: Any, t: Any, situations: Any, choices: Any, codes: Any, ranked: Any, counts: Any
) -> None:  # pragma: no cover
    """For each situation ``situations[i]`` (as :func:`~kniffel.solver.kernels.situation_values` takes
    it): ``counts[i]`` options, their codes ``codes[i, :counts[i]]`` and values ``ranked[i, :counts[i]]``,
    best first. Ties keep the order before ranking, boxes as the rules list them, then the keeps roll
    ``situations[i, 4]`` may be thrown from as ``choices[roll]`` lists them (``-1`` pads its row); a box
    the roll may not go in is not an option, nor is any keep when no throw is left (``situations[i, 8]``
    < 0). ``codes`` and ``ranked`` need ``n_boxes + choices.shape[1]`` columns."""
    n = situations.shape[0]
    n_boxes = t.n_boxes
    boxes = np.empty((n, n_boxes))
    keeps = np.empty((n, t.first_roll))
    situation_values(values, t, situations, boxes, keeps)
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
