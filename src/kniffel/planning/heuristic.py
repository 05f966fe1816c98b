"""The heuristic planner: exact lookahead over the rest of the turn, a rough estimate of the rest of the game.

Within a turn the planner is exact (:mod:`kniffel.planning.lookahead`). What an entry is *worth* is where
the heuristic lies: entering ``p`` points in a box is valued as

    p + bonus earned - baseline(box) + change in the expected upper bonus + change in the worth of an
    armed five box

The baseline is the box's opportunity cost: the points it is expected to bring if it stays open, taken
as the expected score of going for that box alone with two more rolls than the rules give (a proxy for
the several chances a game offers). The upper bonus enters as a probability: each open upper box is
assumed to end with a binomial number of its face, and the change in the chance of reaching the
threshold is paid at the bonus's worth. Points in the five box are worth the chance of a further five
alike in each box still open, which every later entry in the column takes away again. A free throw costs
its points and a margin. This single value
orders keeps, announcements, free throws and the final choice of box alike, for every rule set, and
needs no table: it is fast and plays every rule set sensibly.

Every part of the value is the change of a *potential* of the column's state (filled boxes, upper score,
armed five box) but the points and bonuses earned, so it has the shape of the solver's tables: on sheets
the compiled search covers (:mod:`kniffel.planning.compiled`), the planner hands it
:meth:`HeuristicPlanner.potential` and the whole turn runs in compiled code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import comb

import numpy as np

from kniffel.base.keeps import keep_lattice
from kniffel.core import Compiled, compile_rules
from kniffel.engine.game import Game
from kniffel.planning.compiled import SearchPlanner, SheetSearch, column_rules, covers
from kniffel.planning.interface import Goal
from kniffel.planning.lookahead import ColumnCache, Matrix, best_entries, own_entries
from kniffel.rules import Column, Placement, RuleSet, single_column
from kniffel.rules.model import Box


@dataclass(frozen=True)
class Weights:
    """The knobs of the estimate; the defaults were tuned on solo games of several rule sets."""

    baseline_extra_rolls: int = 2
    """Baselines are targeted expected scores with this many rolls more than the rules allow."""
    baseline_scale: float = 1.0
    upper_extra_rolls: int = 2
    """Each open upper box is assumed to collect Binomial(dice, 1 - (5/6)^(rolls + this)) of its face."""
    extra_rate: float = 0.02
    """Chance per open box of the column that a further five alike turns up and earns the extra bonus."""
    free_throw_margin: float = 3.0
    """A free throw costs its points plus this, for the chance of needing it later."""
    announce_margin: float = 0.0
    """Announce only when that is worth this much more than not announcing."""


@dataclass(frozen=True)
class ColumnSummary:
    """What the value of entering points in a column depends on: a summary of the column (its upper sum,
    the upper boxes and boxes still open, whether the five box holds points), not a state of the tables."""

    upper_sum: int
    open_upper: int
    """Bit mask over :attr:`HeuristicPlanner.upper` of the upper boxes still free."""
    open_boxes: int
    armed: bool = False
    """Whether the five box holds points."""


class HeuristicPlanner(SearchPlanner):
    """The estimate described in the module docstring; what it derives from the rules is built once."""

    def __init__(
        self, rules: RuleSet, goal: Goal, weights: Weights | None = None, *, wait: bool = True
    ) -> None:
        super().__init__(rules, goal, wait=wait)
        self.weights = weights = weights or Weights()
        self.baseline = {
            box.id: weights.baseline_scale * self._targeted(b, rules.rolls + weights.baseline_extra_rolls)
            for b, box in enumerate(rules.boxes)
        }
        self.upper = [box.id for box in rules.upper_boxes if box.face is not None]
        self.survival = self._upper_survival()
        self.alone = {c.id: single_column(rules, c) for c in rules.columns}
        self.columns = ColumnCache(2048)
        self.search = self.compiled_search()

    def valuation(self, game: Game) -> HeuristicValuation:
        return HeuristicValuation(self, game)

    # --- the value of an entry -------------------------------------------------------------------

    def column_summary(self, own: Mapping[str, int]) -> ColumnSummary:
        """The summary of a column whose filled boxes are ``own`` (box id -> points)."""
        upper_sum = 0
        mask = 0
        for i, box_id in enumerate(self.upper):
            if box_id in own:
                upper_sum += own[box_id]
            else:
                mask |= 1 << i
        five = self.rules.five_box
        return ColumnSummary(upper_sum, mask, len(self.rules.boxes) - len(own), own.get(five or "", 0) > 0)

    def worth(self, summary: ColumnSummary, box: Box, points: int, bonus: int) -> float:
        """What entering ``points`` (and earning ``bonus``) in ``box`` is worth."""
        rules = self.rules
        value = float(points + bonus) - self.baseline[box.id]
        if box.id in self.upper and rules.upper_bonus:
            bit = 1 << self.upper.index(box.id)
            need = max(rules.upper_bonus_threshold - summary.upper_sum, 0)
            if need and summary.open_upper & bit:
                before = float(self.survival[summary.open_upper, need])
                after = float(self.survival[summary.open_upper & ~bit, max(need - points, 0)])
                value = value + rules.upper_bonus * (after - before)
        if rules.extra_bonus:
            rate = rules.extra_bonus * self.weights.extra_rate
            if box.id == rules.five_box and points > 0:
                value = value + rate * (summary.open_boxes - 1)
            elif summary.armed:
                value = value - rate
        return value

    def potential(self, compiled: Compiled) -> Matrix:
        """``[armed, mask, up]`` over the states of ``compiled`` (one column of these rules): a table
        whose change on entering points, plus the points and bonuses, is :meth:`worth`. The five box's
        worth needs the armed flag: None where the column's states do not track it."""
        rules = self.rules
        boxes = rules.boxes
        n = len(boxes)
        masks = np.arange(1 << n)
        filled = (masks[:, None] >> np.arange(n)) & 1
        baselines = np.array([self.baseline[box.id] for box in boxes])
        table = np.zeros((2, 1 << n, rules.upper_bonus_threshold + 1))
        table += -(filled @ baselines)[None, :, None]
        if rules.upper_bonus:
            index = {box.id: b for b, box in enumerate(boxes)}
            bits = np.array([index[box_id] for box_id in self.upper], dtype=np.int64)
            open_upper = ((1 - filled[:, bits]) << np.arange(len(bits))).sum(axis=1)
            need = rules.upper_bonus_threshold - np.arange(rules.upper_bonus_threshold + 1)
            upper = rules.upper_bonus * self.survival[open_upper[:, None], need[None, :]]
            upper[:, -1] = 0.0  # reached: the bonus is counted as it is earned
            table += upper[None]
        if rules.extra_bonus:
            rate = rules.extra_bonus * self.weights.extra_rate
            table[1] += (rate * (n - filled.sum(axis=1)))[:, None]
        return table[: compiled.n_armed]

    def compiled_search(self) -> SheetSearch | None:
        """The compiled search of the sheet, where it covers it and the five box's worth fits a table."""
        rules = self.rules
        if not covers(rules):
            return None
        columns = [compile_rules(column_rules(rules, c)) for c in range(len(rules.columns))]
        if rules.extra_bonus and any(c.n_armed != 2 for c in columns):
            return None
        return SheetSearch(
            rules, columns, [self.potential(c) for c in columns], announce_margin=self.weights.announce_margin
        )

    # --- derived from the rules --------------------------------------------------------------------

    def _targeted(self, column: int, rolls: int) -> float:
        """Expected score of one box when every roll aims at it alone."""
        lattice = keep_lattice(self.rules.dice)
        score = self.rules.score_table[:, column].astype(np.float64)
        value = score
        for _ in range(rolls - 1):
            value = np.maximum(score, lattice.best_throw(lattice.keep_values(value)))
        return float(lattice.roll_probs @ value)

    def _upper_survival(self) -> Matrix:
        """``[open mask, need]``: chance that the open upper boxes still bring ``need`` points."""
        rules = self.rules
        threshold = rules.upper_bonus_threshold
        n = rules.dice
        q = 1 - (5 / 6) ** (rules.rolls + self.weights.upper_extra_rolls)
        counts = np.array([comb(n, c) * q**c * (1 - q) ** (n - c) for c in range(n + 1)])
        faces = [rules.box(box_id).face or 0 for box_id in self.upper]
        survival = np.zeros((2 ** len(faces), threshold + 1))
        for mask in range(2 ** len(faces)):
            # Distribution of the upper points still to come, capped at the threshold.
            dist = np.zeros(threshold + 1)
            dist[0] = 1.0
            for i, face in enumerate(faces):
                if not mask >> i & 1:
                    continue
                nxt = np.zeros(threshold + 1)
                for c, p in enumerate(counts):
                    shifted = np.zeros(threshold + 1)
                    step = min(face * c, threshold)
                    shifted[step:] = dist[: threshold + 1 - step]
                    shifted[threshold] += dist[threshold + 1 - step :].sum() if step else 0.0
                    nxt += p * shifted
                dist = nxt
            survival[mask] = dist[::-1].cumsum()[::-1]
        survival.flags.writeable = False
        return survival


class HeuristicValuation:
    """The heuristic's worth of each entry in the position of the player to move; relative values."""

    before = 0.0

    def __init__(self, planner: HeuristicPlanner, game: Game) -> None:
        self.planner = planner
        self.rules = game.rules
        self.entries = game.sheet.entries
        self.free_throw_cost = self.rules.free_throw_points + planner.weights.free_throw_margin
        self.announce_margin = planner.weights.announce_margin
        self._columns: dict[str, tuple[tuple[tuple[str, int], ...], ColumnSummary]] = {}

    def column(self, column: Column) -> tuple[tuple[tuple[str, int], ...], ColumnSummary]:
        """The column's filled boxes (sorted (box id, points) pairs) and its summary."""
        found = self._columns.get(column.id)
        if found is None:
            own = own_entries(self.rules, self.entries, column)
            found = self._columns[column.id] = (tuple(sorted(own.items())), self.planner.column_summary(own))
        return found

    def roll_values(self, column: Column, used: int, at_once: bool, announced: str | None) -> Matrix:
        # The free throws used change nothing: the lookahead charges them after the entry.
        own, summary = self.column(column)
        planner = self.planner
        alone = planner.alone[column.id]
        return planner.columns.get(
            (column.id, own, announced, at_once),
            lambda: best_entries(
                alone,
                dict(own),
                at_once,
                announced,
                lambda box_id, p: planner.worth(summary, alone.box(box_id), p.points, p.bonus),
            ),
        )

    def entry(self, key: str, placement: Placement, used: int) -> float:
        column, box = self.rules.locate(key)
        return self.planner.worth(self.column(column)[1], box, placement.points, placement.bonus)


__all__ = ["ColumnSummary", "HeuristicPlanner", "HeuristicValuation", "Weights"]
