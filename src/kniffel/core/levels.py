"""The table of expected points as a player who misjudges the game sees it: what the levels play by.

A person who is not yet good at the game does not play another game: they weigh the same options by a
view of the future that is off in ways people's views are off. They look too little ahead (the points in
front of them count, the rest of the game less), and they hold some boxes too dear or too cheap (a five
of a kind once scored, a straight or the chance box used up). Each is a change of the solved table:

* ``foresight`` scales the whole future: at 1 the table as solved, at 0 a player who takes the most
  points this turn can bring and thinks no further (the upper bonus unseen until it is paid);
* ``filled[box]`` is added wherever ``box`` is filled, scored or struck: a player to whom filling it
  seems worth that much more (a box given up too early) or, below 0, less (a box kept open in hope);
* ``scored_five`` is added wherever the five-of-a-kind box holds points (where the state tracks it):
  a player who chases five alike.

A table changed so is still one of the solver's layout, so every compiled game, advisor and search plays
it as it plays the solved one (:func:`kniffel.core.play.play_games` with ``values``, an
:class:`~kniffel.core.advisor.Advisor` over it): a level is the exact policy played through these eyes,
no solver of its own. The scores below the lowest lane of a state stay equal to it (each change is the
same for every upper score of a state), which the games' lanes take for granted.
"""

from __future__ import annotations

import numpy as np

from kniffel.base.arrays import F64
from kniffel.core.points import Solution


def misjudged(solution: Solution, *, foresight: float, filled: F64, scored_five: float) -> Solution:
    """``solution``'s table as a player sees it who looks ahead by ``foresight`` (0 to 1), to whom
    filling box ``b`` seems worth ``filled[b]`` more and points in the five-of-a-kind box ``scored_five``
    more (see the module docstring). Its :attr:`Solution.values` are what that player plays by, not
    points to expect; its time is 0 (nothing was solved)."""
    c = solution.compiled
    if not 0.0 <= foresight <= 1.0:
        raise ValueError(f"foresight is a share of the future from 0 to 1, got {foresight}")
    if filled.shape != (c.n_boxes,):
        raise ValueError(f"one change a box: {c.n_boxes}, got {filled.shape}")
    masks = np.arange(c.n_masks, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(c.n_boxes)) & 1
    values = foresight * solution.values
    values += (bits @ filled)[None, :, None]
    if c.n_armed == 2 and scored_five:
        for free in range(c.n_free):
            values[c.aux(1, free)] += scored_five
    return Solution(c, values, 0.0)


__all__ = ["misjudged"]
