"""What a rule set's early win tables hold and what they take on disk.

Two tables are kept on disk per rule set for the early sheets, whose cones are too large to solve when
asked: the final-score distributions (:func:`kniffel.core.distribution.distribution_table`) and the
target rows (:func:`kniffel.core.target.early_rows`), which play for points from their horizon on
(:class:`kniffel.core.targetrows.Horizon`). A later sheet is answered by its own cone, solved when asked.

How many levels each table keeps (:func:`early_tables`): the rows one level past the distributions,
the distributions as far as :data:`EARLY_OPEN` boxes open, both cut back until their estimated size
fits :data:`EARLY_BYTES`, the distributions first (a cone of distributions is cheaper to solve when
asked than a cone of rows, which has a target for every point). Yahtzee and Kniffel keep their sheets
with ten boxes open and more; Yatzy, whose fifteen boxes make every level larger, its sheets with twelve
open and more (distributions) and ten (rows).

The size estimates (:class:`EarlyTables`) read the rules only: a state's distribution spans about
:data:`DIST_WIDTH` of the most points its open boxes can still pay, and a row about :data:`ROWS_KEPT` of
them up to the rows' limit. The written tables of the built-in rule sets lie within a tenth of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kniffel.base.arrays import I64
from kniffel.core.lanes import widths_of
from kniffel.core.runtime.memo import Memo
from kniffel.core.runtime.store import table_key
from kniffel.core.tables import Compiled
from kniffel.core.targetrows import default_limit, points_left, reached_lanes

EARLY_OPEN = 10
"""Open boxes at which a sheet's cone is cheap enough to solve when asked (a few hundred masks, a second or
two): the tables kept on disk hold at most the sheets with more boxes open."""
EARLY_BYTES = 160_000_000
"""The most both early tables of a rule set may take on disk, as estimated: with the estimate's error,
under 200 MB, so that they fit a cache of 1 GB beside the rule set's table of expected points and
another rule set's."""
DIST_WIDTH = 0.85
"""A state's stored distribution spans about this share of the most points its open boxes can pay
(:func:`~kniffel.core.targetrows.points_left`, extra bonuses included): the long tails past 1e-15 are
cut (:data:`kniffel.core.disttable.TAIL`). Kniffel's and Yahtzee's early levels: 0.79-0.84; Yatzy's:
0.87-0.93."""
ROWS_KEPT = 0.95
"""A row keeps about this share of its targets up to where its open boxes stop paying or the limit
(past it the chances are 0 and are dropped). Yatzy's early levels: over 0.99; Kniffel's and Yahtzee's
fourth: 0.91-0.93."""
INDEX_BYTES = 24
"""Each lane of a table's layout has three int64 in its index."""


@dataclass(frozen=True)
class EarlyTables:
    """The levels the early tables keep and what they take (estimates: bytes on disk; what the rows'
    solve costs, in probabilities)."""

    distributions: int
    """The most boxes filled of a sheet the early distribution table holds."""
    rows: int
    """The most boxes filled of a sheet the early rows hold."""
    horizon: int | None
    """Where the early rows take play for points (one level past the rows); None: they are exact, the
    rule set being small enough to solve every sheet's rows in a few seconds."""
    distribution_bytes: int
    rows_bytes: int
    solved_values: int
    """Probabilities the rows solve (every level before the horizon, or every level)."""
    lanes: int
    """Lanes whose distributions are computed (every state's)."""

    @property
    def bytes(self) -> int:
        return self.distribution_bytes + self.rows_bytes


@dataclass(frozen=True)
class LevelSizes:
    """Per level of a rule set (boxes filled), estimates of what its tables hold."""

    lanes: I64
    """Lanes (states between turns)."""
    rows: I64
    """Probabilities of the target rows of every target up to the limit."""
    distributions: I64
    """Probabilities of the final-score distributions."""


def _level_sizes(c: Compiled) -> LevelSizes:
    limit = default_limit(c)
    left = points_left(c)
    lanes, rows, dists = (np.zeros(len(c.levels), dtype=np.int64) for _ in range(3))
    for n, masks in enumerate(c.levels):
        widths, variants = widths_of(c, masks)
        lanes[n] = int((widths * variants).sum()) * c.n_free
        dists[n] = int(DIST_WIDTH * float((widths * variants * left[masks]).sum()) * c.n_free)
        rows[n] = int(ROWS_KEPT * float((reached_lanes(c, masks) * np.minimum(left[masks], limit)).sum()))
    return LevelSizes(lanes, rows, dists)


_sizes: Memo[str, LevelSizes] = Memo(64)


def level_sizes(c: Compiled) -> LevelSizes:
    """Estimates of every level's tables (worked out once per rule set: a fraction of a second)."""
    return _sizes.get_or_make(table_key(c.rules), lambda: _level_sizes(c))


def _plan(c: Compiled) -> EarlyTables:
    last = len(c.levels) - 1
    most_dist = max(0, c.n_boxes - EARLY_OPEN)
    most_rows = min(most_dist + 1, last)
    small = c.n_boxes <= EARLY_OPEN
    per = level_sizes(c)

    def rows_bytes(rows: int) -> int:
        return int(per.rows[: rows + 1].sum()) * 4 + int(per.lanes[: rows + 1].sum()) * INDEX_BYTES

    def dist_bytes(dist: int) -> int:
        return int(per.distributions[: dist + 1].sum()) * 8 + int(per.lanes[: dist + 1].sum()) * INDEX_BYTES

    if not small:
        while most_rows > 1 and rows_bytes(most_rows) + dist_bytes(0) > EARLY_BYTES:
            most_rows -= 1
        most_dist = min(most_dist, most_rows - 1)
        while most_dist > 0 and rows_bytes(most_rows) + dist_bytes(most_dist) > EARLY_BYTES:
            most_dist -= 1
    horizon = None if small else most_rows + 1
    solved = int(per.rows.sum()) if horizon is None else int(per.rows[:horizon].sum())
    return EarlyTables(
        most_dist,
        most_rows,
        horizon,
        dist_bytes(most_dist),
        rows_bytes(most_rows),
        solved,
        int(per.lanes.sum()),
    )


_plans: Memo[str, EarlyTables] = Memo(64)


def early_tables(c: Compiled) -> EarlyTables:
    """The levels the early tables of ``c`` keep and what they take (worked out once per rule set)."""
    return _plans.get_or_make(table_key(c.rules), lambda: _plan(c))


def early_levels(c: Compiled) -> int:
    """The most boxes filled of a sheet whose distribution the early table on disk holds."""
    return early_tables(c).distributions


def early_rows_levels(c: Compiled) -> int:
    """The most boxes filled of a sheet whose row the early rows on disk hold: past the early
    distributions, so that the decisions of the first turns read their children there."""
    return early_tables(c).rows


def horizon_level(c: Compiled) -> int | None:
    """The boxes filled at which the early target rows take play for points
    (:class:`kniffel.core.targetrows.Horizon`); None: they are exact, the rule set being small enough to
    solve every sheet's rows in a few seconds.

    It is the level just past the last one the early rows keep on disk (:func:`early_rows_levels`), so
    only the kept levels are solved. Solving the rows of every later sheet too takes the early tables
    several times as long, and ``benchmarks/win_rate.py`` finds ``bot:win`` winning as often with the
    horizon one level further (from the turns past the early rows on it reads exact cones of its
    own)."""
    return early_tables(c).horizon


__all__ = [
    "DIST_WIDTH",
    "EARLY_BYTES",
    "EARLY_OPEN",
    "ROWS_KEPT",
    "EarlyTables",
    "LevelSizes",
    "early_levels",
    "early_rows_levels",
    "early_tables",
    "horizon_level",
    "level_sizes",
]
