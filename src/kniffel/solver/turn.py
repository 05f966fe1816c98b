"""The values of one turn in one state, in plain numpy: what the advisor needs for a single situation.

The dynamic programme computes the same quantities for every state at once with the numba kernels of
:mod:`kniffel.solver.kernels`; a single situation is small enough for a few dozen whole-array numpy
operations (well under a millisecond) over the keep lattice's own numpy sweep
(:meth:`kniffel.keeps.KeepLattice.keep_values`), which spares the advisor importing numba and loading
compiled code, so that a table loaded from the cache answers its first question at once. The tests hold
the two equal (``tests/test_solver_kernels.py``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kniffel.keeps import keep_lattice
from kniffel.solver.compile import Compiled

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


class Turns:
    """Turn values of one solved rule set (what does not depend on the state is prepared once)."""

    def __init__(self, c: Compiled, values: F64) -> None:
        self.c = c
        self.values = values
        top = int(c.base.max())
        if c.joker and c.jpts.shape[0] > 1:
            top = max(top, int(c.jpts.max()))
        self.points = np.arange(top + 1, dtype=np.int64)
        """Every number of points a box can pay, 0 included."""
        self.boxes = np.arange(c.n_boxes, dtype=np.int64)
        self.alike = np.flatnonzero(c.alike >= 0)
        self.faces = c.alike[self.alike].astype(np.int64)

    def entry_values(self, mask: int, armed: int, free: int, up: int) -> F64:
        """``[box, points]``: entering that many points in each box in state ``mask`` / ``armed`` at
        upper score ``up`` (with ``free`` free throws left after the turn): the points, the upper bonus
        if the score crosses the threshold, and the value of the state after; ``-inf`` for filled
        boxes."""
        c = self.c
        pts = self.points[None, :]
        upper = (c.upper == 1)[:, None]
        new_up = np.where(upper, np.minimum(up + pts, c.threshold), up)
        bonus = np.where(upper & (up < c.threshold) & (up + pts >= c.threshold), c.upper_bonus, 0)
        five = ((c.n_armed == 2) & (self.boxes == c.five))[:, None]
        new_armed = np.where(five, (pts > 0).astype(np.int64), armed)
        children = (mask | (1 << self.boxes))[:, None]
        lut: F64 = pts + bonus + self.values[new_armed * c.n_free + free, children, new_up]
        lut[(mask >> self.boxes) & 1 == 1] = -np.inf
        return lut

    def score_values(self, mask: int, armed: int, free: int, up: int) -> F64:
        """``[at_once, roll]``: the best points-now-plus-future of entering each roll: a box's points, or
        a strike for 0 (as :func:`kniffel.solver.kernels.score_values`)."""
        c = self.c
        lut = self.entry_values(mask, armed, free, up)
        allowed = np.flatnonzero((int(c.allowed[mask]) >> self.boxes) & 1)
        n_s, n_rolls, _ = c.base.shape
        out = np.full((n_s, n_rolls), -np.inf)
        if len(allowed):
            # a strike is 0 points in any allowed box (disarming the five-of-a-kind box)
            strike = float(lut[allowed, 0].max())
            for s in range(n_s):
                best = lut[allowed[None, :], c.base[s][:, allowed]].max(axis=1)
                out[s] = np.maximum(best, strike)
        if c.joker and c.five >= 0 and mask >> c.five & 1 and len(self.alike):
            # a further five of a kind: where the extra rules send it, and what they pay
            extra = c.jbonus[mask, armed, self.faces].astype(np.float64)
            for s in range(n_s):
                pts = c.jpts[mask, armed, s][self.faces].astype(np.int64)
                paid = np.where(pts >= 0, lut[self.boxes[None, :], np.maximum(pts, 0)], -np.inf)
                out[s, self.alike] = paid.max(axis=1) + extra
        return out

    def keep_values(self, mask: int, armed: int, free: int, up: int, stages: int, usable: int) -> F64:
        """``[keep]``: the value of holding each keep and throwing the rest, when that throw leaves
        ``stages`` regular throws and ``usable`` free throws of the ``free`` left (as the kernels'
        :func:`~kniffel.solver.kernels.sweep`); full keeps (nothing thrown) are ``-inf``."""
        lattice = keep_lattice(self.c.rules.dice)
        sharp = self.c.n_at_once == 2
        start = free - usable
        scores = {f: self.score_values(mask, armed, f, up) for f in range(start, free + 1)}
        after = scores[start]
        for step in range(usable + stages):
            # a throw earlier: the best of entering the roll (with one free throw more left after the turn
            # while the turn's free throws are being counted back) and throwing again from the best keep
            level = start + step + 1 if step < usable else free
            best = lattice.best_throw(lattice.keep_values(after[0], after[-1] if sharp else None))
            after = np.maximum(scores[level], best)
        return lattice.keep_values(after[0], after[-1] if sharp else None)
