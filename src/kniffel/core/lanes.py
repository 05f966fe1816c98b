"""Between-turn states as *lanes*: the one index of a single-column rule set's states that the tables built
on the solver (score distributions, target probabilities) share.

A lane is a state ``(mask, armed, free, up)`` as the DP computes it: upper scores below the mask's lowest
computed one behave like it (they can no longer reach the bonus), and with every upper box filled the
upper score no longer matters (see :attr:`kniffel.core.tables.Compiled.lanes`). Lanes come level by
level (a level: the masks with the same number of filled boxes), so a table can hold a level in an array
of its own and a DP that goes from the full sheet back needs only two levels at a time.

A layout may cover part of the sheets only:

* a *cone*: the sheets that fill at least the boxes of a root (``root``), which is all that the rest of
  one game can reach;
* the *early* levels: the sheets with at most ``most_filled`` boxes filled, which a table keeps on disk
  when the rest is cheap to solve as cones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kniffel.base.arrays import I64
from kniffel.base.errors import SituationError
from kniffel.core.tables import Compiled


@dataclass(frozen=True, eq=False)
class LaneLayout:
    """Where each between-turn state's lane is."""

    lane_base: I64
    """``[aux, mask]``: the lane of the mask's lowest computed upper score (-1: a mask not covered)."""
    level_start: I64
    """``[n]``: the first lane of the masks with ``n`` filled boxes (lanes come by level); last the total."""
    root: int = 0
    """The boxes every covered sheet has filled (a bit mask; 0: every sheet)."""
    most_filled: int | None = None
    """The most boxes a covered sheet has filled (None: up to the full sheet)."""

    @property
    def n_lanes(self) -> int:
        return int(self.level_start[-1])

    def levels(self) -> range:
        """The levels that hold lanes."""
        counts = np.diff(self.level_start)
        held = np.flatnonzero(counts)
        return range(int(held[0]), int(held[-1]) + 1) if len(held) else range(0)

    def covers(self, mask: int) -> bool:
        return bool(self.lane_base[0, mask] >= 0) if self.lane_base.shape[0] else False


def lane_layout(c: Compiled, root: int = 0, most_filled: int | None = None) -> LaneLayout:
    """The lanes of every reachable sheet that fills at least the boxes of ``root`` and at most
    ``most_filled`` boxes."""
    lane_base = np.full((c.n_aux, c.n_masks), -1, dtype=np.int64)
    level_start = np.zeros(len(c.levels) + 1, dtype=np.int64)
    cursor = 0
    for n, level in enumerate(c.levels):
        level_start[n] = cursor
        if most_filled is not None and n > most_filled:
            continue
        for mask in level[(level & root) == root].tolist():
            width, armed = mask_widths(c, mask)
            for a in range(armed):
                for free in range(c.n_free):
                    lane_base[c.aux(a, free), mask] = cursor
                    cursor += width
    level_start[-1] = cursor
    return LaneLayout(lane_base, level_start, root, most_filled)


def mask_widths(c: Compiled, mask: int) -> tuple[int, int]:
    """Upper scores computed for ``mask`` and its armed variants (as the DP's kernels count them)."""
    nl = 1 if mask & c.upper_mask == c.upper_mask else int(c.lanes[mask, 1] - c.lanes[mask, 0])
    na = c.n_armed if c.five >= 0 and mask >> c.five & 1 else 1
    return nl, na


def widths_of(c: Compiled, masks: I64) -> tuple[I64, I64]:
    """:func:`mask_widths` of many masks at once: their upper scores computed and armed variants."""
    masks = np.asarray(masks, dtype=np.int64)
    upper_full = masks & c.upper_mask == c.upper_mask
    widths: I64 = np.where(upper_full, 1, c.lanes[masks, 1] - c.lanes[masks, 0]).astype(np.int64)
    five_filled = (c.five >= 0) & ((masks >> max(c.five, 0)) & 1 == 1)
    variants: I64 = np.where(five_filled, c.n_armed, 1).astype(np.int64)
    return widths, variants


def lowest_ups(c: Compiled, masks: I64) -> I64:
    """:func:`lowest_up` of many masks at once."""
    masks = np.asarray(masks, dtype=np.int64)
    found: I64 = np.where(masks & c.upper_mask == c.upper_mask, 0, c.lanes[masks, 0]).astype(np.int64)
    return found


def lowest_up(c: Compiled, mask: int) -> int:
    """The upper score of a mask's first lane."""
    return 0 if mask & c.upper_mask == c.upper_mask else int(c.lanes[mask, 0])


def lane_of(c: Compiled, layout: LaneLayout, armed: int, free: int, mask: int, up: int) -> int:
    """The lane of a state; :class:`SituationError` if the layout does not cover it."""
    base = int(layout.lane_base[c.aux(armed, free), mask])
    if base < 0:
        filled = [box.id for b, box in enumerate(c.rules.boxes) if layout.root >> b & 1]
        if mask & layout.root != layout.root:
            raise SituationError(f"this table covers only sheets with {', '.join(filled)} filled")
        raise SituationError("this table does not cover sheets with so many boxes filled")
    return base + upper_lane(c, mask, up)


def upper_lane(c: Compiled, mask: int, up: int) -> int:
    """Which of its sheet's upper-score lanes a state with upper score ``up`` is in (the first stands
    for every score below its own, the last for every score from its own up)."""
    nl, _ = mask_widths(c, mask)
    return min(max(up - lowest_up(c, mask), 0), nl - 1)


def level_of(mask: int) -> int:
    """The level of a mask: how many boxes it has filled."""
    return int(mask).bit_count()


def sublayout_index(c: Compiled, whole: LaneLayout, part: LaneLayout, index: I64) -> I64:
    """The columns of ``index`` (an array over ``whole``'s lanes) of the lanes ``part`` has, in
    ``part``'s order (``part`` covers some of ``whole``'s sheets, e.g. only its early levels)."""
    out = np.zeros((index.shape[0], part.n_lanes), dtype=index.dtype)
    for aux, mask in zip(*np.nonzero(part.lane_base >= 0), strict=True):
        nl, _ = mask_widths(c, int(mask))
        a, b = int(part.lane_base[aux, mask]), int(whole.lane_base[aux, mask])
        out[:, a : a + nl] = index[:, b : b + nl]
    return out


__all__ = [
    "LaneLayout",
    "lane_layout",
    "lane_of",
    "level_of",
    "lowest_up",
    "lowest_ups",
    "mask_widths",
    "sublayout_index",
    "upper_lane",
    "widths_of",
]
