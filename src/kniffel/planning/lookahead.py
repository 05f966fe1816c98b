"""One turn of lookahead: the value of every decision left in a turn, given what its end is worth.

A turn ends with an entry: points, or a strike, in one box. What an entry is worth is where planners
differ (the solver's tables, a heuristic, a chance of winning); what the dice showing are worth given
that is not, and is computed here, once, for all of them: the exact expectimax over the rest of the
turn. It covers every keep before every regular throw, free throws after them (Knöffel), the sharp
variant (dice thrown all at once score figures double, so the empty keep leads to other values than
the same dice gathered one by one), announcements (after one, only the announced box takes points) and
strikes no roll can score (boxes of announced columns, or any box after an announcement).

A planner supplies a :class:`Valuation` for the position and asks :class:`Lookahead` for its
choices, except on the sheets the compiled search covers (:mod:`kniffel.planning.compiled`: several
columns, no free throws), where the same search runs on the planner's tables instead. Values sweep the
keep lattice with numpy (:meth:`kniffel.base.keeps.KeepLattice.keep_values`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from functools import cached_property
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kniffel.base.keeps import keep_lattice
from kniffel.engine.actions import Announce, FreeThrow, Roll, Score, Strike
from kniffel.engine.game import Game
from kniffel.planning.interface import Choice, best_first
from kniffel.rules import Column, Placement, RuleSet, placements, strikeable

NEG_INF = float("-inf")
Matrix = npt.NDArray[np.float64]


class Valuation(Protocol):
    """What the end of the turn is worth to a planner, for the player to move in one position.

    Values may be relative (to the position before the turn, say): the lookahead only compares them
    and adds :attr:`before` to every choice it reports.
    """

    @property
    def before(self) -> float:
        """Added to the value of every choice (0 for a valuation whose values are the choices')."""
        ...

    @property
    def free_throw_cost(self) -> float:
        """Charged for each free throw taken this turn, on top of what :meth:`entry` charges."""
        ...

    @property
    def announce_margin(self) -> float:
        """Announcing is valued this much below what it gains (a reluctance to commit)."""
        ...

    def roll_values(self, column: Column, used: int, at_once: bool, announced: str | None) -> Matrix:
        """``[roll]`` (rolls in :func:`kniffel.base.dice.sorted_rolls` order): the value of entering each
        roll in its best box of ``column`` after ``used`` free throws this turn, ``-inf`` where it cannot
        go. ``at_once``: the dice were all thrown in the last throw; ``announced``: the box id announced
        in this column, then the only box of it that takes points."""
        ...

    def entry(self, key: str, placement: Placement, used: int) -> float:
        """The value of entering ``placement`` in box ``key`` of the sheet after ``used`` free throws
        this turn (a strike is ``Placement(0)``)."""
        ...


def own_entries(rules: RuleSet, entries: Mapping[str, int], column: Column) -> dict[str, int]:
    """Box id -> points of the filled boxes of ``column``."""
    own: dict[str, int] = {}
    for box in rules.boxes:
        key = rules.key(column, box)
        if key in entries:
            own[box.id] = entries[key]
    return own


def best_entries(
    alone: RuleSet,
    own: Mapping[str, int],
    at_once: bool,
    announced: str | None,
    value: Callable[[str, Placement], float],
) -> Matrix:
    """``[roll]``: the best ``value(box_id, placement)`` over the boxes each roll may be entered in on
    the one-column sheet ``alone`` filled as ``own`` (``-inf`` where none); ``value`` is asked once per
    distinct entry. A helper for :meth:`Valuation.roll_values`; the array is read-only."""
    rolls = keep_lattice(alone.dice).rolls
    best = [NEG_INF] * len(rolls)
    worth: dict[tuple[str, int, int], float] = {}
    for r, roll in enumerate(rolls):
        for box_id, placement in placements(
            alone, own, roll, thrown_at_once=at_once, announced=announced
        ).items():
            key = (box_id, placement.points, placement.bonus)
            found = worth.get(key)
            if found is None:
                found = worth[key] = value(box_id, placement)
            if found > best[r]:
                best[r] = found
    result = np.array(best, dtype=np.float64)
    result.flags.writeable = False
    return result


class ColumnCache:
    """Per-roll arrays of columns kept across decisions: a sheet changes one column a turn, so most of
    them outlive many decisions. Emptied when it holds ``limit`` arrays."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._arrays: dict[Hashable, Matrix] = {}

    def get(self, key: Hashable, compute: Callable[[], Matrix]) -> Matrix:
        found = self._arrays.get(key)
        if found is None:
            found = compute()
            if len(self._arrays) >= self.limit:
                self._arrays.clear()
            self._arrays[key] = found
        return found


class Lookahead:
    """The rest of the turn of the player to move in ``game`` (after a throw), valued by ``valuation``."""

    def __init__(self, game: Game, valuation: Valuation) -> None:
        self.game = game
        self.valuation = valuation
        self.rules = rules = game.rules
        self.turn = game.turn
        self.lattice = keep_lattice(rules.dice)
        self.sharps = (False, True) if rules.sharp else (False,)
        sheet = game.sheet
        entries = sheet.entries
        self.open = [c for c in rules.columns if any(rules.key(c, b) not in entries for b in rules.boxes)]
        """The columns with a box still free."""
        self.left = {c.id: sheet.free_throws_left(c) if rules.free_throws else 0 for c in rules.columns}
        """Free throws each column can still pay for."""
        self._stages: dict[tuple[str, int, str | None], dict[bool, Matrix]] = {}
        self._floors: dict[tuple[int, str | None], float] = {}

    @cached_property
    def row(self) -> int:
        assert self.turn.dice is not None
        return self.lattice.roll_index(self.turn.dice)

    # --- the end of the turn ---------------------------------------------------------------------

    def strike_floor(self, used: int, announced: str | None) -> float:
        """The best box to strike that is not also a box to score in: the same for every roll (the
        boxes of announced columns, or after an announcement any box the fill orders allow)."""
        key = (used, announced)
        if key not in self._floors:
            dice = self.turn.dice
            assert dice is not None
            entries = self.game.sheet.entries
            unscorable = set(strikeable(self.rules, entries, dice, announced=announced))
            unscorable -= set(placements(self.rules, entries, dice, announced=announced))
            best = NEG_INF
            for box_key in unscorable:
                column, _ = self.rules.locate(box_key)
                if self.left[column.id] >= used:
                    best = max(best, self.valuation.entry(box_key, Placement(0), used))
            self._floors[key] = best
        return self._floors[key]

    def stop(self, used: int, at_once: bool, announced: str | None) -> Matrix:
        """``[roll]``: the value of ending the turn on each roll after ``used`` free throws."""
        best = np.full(self.lattice.n_rolls, NEG_INF)
        announced_column: Column | None = None
        announced_box: str | None = None
        if announced is not None:
            announced_column, box = self.rules.locate(announced)
            announced_box = box.id
        for column in self.open:
            if self.left[column.id] < used:
                continue
            if announced_column is not None and column != announced_column:
                continue  # after an announcement only the announced box takes points
            best = np.maximum(best, self.valuation.roll_values(column, used, at_once, announced_box))
        values: Matrix = np.maximum(best, self.strike_floor(used, announced))
        cost = self.valuation.free_throw_cost
        if used and cost:
            values = values - used * cost
        return values

    # --- the throws still to come ------------------------------------------------------------------

    def free_throw_possible(self, number: int) -> bool:
        """Whether a ``number``-th free throw of this turn could be taken."""
        rules = self.rules
        if not rules.free_throws or number > rules.free_throws_per_turn:
            return False
        return any(self.left[c.id] >= number for c in self.open)

    def keep_values(self, after: dict[bool, Matrix]) -> Matrix:
        return self.lattice.keep_values(after[False], after.get(True))

    def stage(self, kind: str, number: int, announced: str | None) -> dict[bool, Matrix]:
        """Per roll (and by "thrown at once"): the value of the position before deciding, with
        ``number`` regular throws left (``kind`` "regular") or ``number`` free throws taken ("free")."""
        key = (kind, number, announced)
        cached = self._stages.get(key)
        if cached is not None:
            return cached
        if kind == "regular" and number == 0:
            result = self.stage("free", 0, announced)
        else:
            after: dict[bool, Matrix] | None = None
            if kind == "regular":
                after = self.stage("regular", number - 1, announced)
            elif self.free_throw_possible(number + 1):
                after = self.stage("free", number + 1, announced)
            used = number if kind == "free" else 0
            result = {s: self.stop(used, s, announced) for s in self.sharps}
            if after is not None:
                go_on = self.lattice.best_throw(self.keep_values(after))
                result = {s: np.maximum(v, go_on) for s, v in result.items()}
        self._stages[key] = result
        return result

    def throw_values(self, announced: str | None) -> tuple[Matrix, bool] | None:
        """The value of every keep from the current position, and whether the throw would be a free
        one; None if the turn must end."""
        rolls_left = self.game.rolls_left
        if rolls_left > 0:
            return self.keep_values(self.stage("regular", rolls_left - 1, announced)), False
        number = self.turn.free_throws + 1
        if self.free_throw_possible(number):
            return self.keep_values(self.stage("free", number, announced)), True
        return None

    def announced_value(self, box_key: str) -> float:
        """The value of announcing ``box_key`` now: the better of throwing on and stopping at once."""
        at_once = self.turn.thrown_at_once and self.rules.sharp
        best = float(self.stop(self.turn.free_throws, at_once, box_key)[self.row])
        throws = self.throw_values(box_key)
        if throws is not None:
            best = max(best, float(self.lattice.best_throw(throws[0])[self.row]))
        return best

    # --- the choices -------------------------------------------------------------------------------

    def choices(self) -> list[Choice]:
        """Every legal action of the player to move, valued, best first."""
        game, valuation = self.game, self.valuation
        used = self.turn.free_throws
        cost = valuation.free_throw_cost
        found = game.placements()
        throws = self.throw_values(self.turn.announced)
        result: list[Choice] = []
        for action in game.legal_actions():
            value: float | None = None
            if isinstance(action, Score | Strike):
                placement = found[action.box] if isinstance(action, Score) else Placement(0)
                value = valuation.entry(action.box, placement, used)
                if used and cost:
                    value -= used * cost
            elif isinstance(action, Roll):
                if throws is not None and throws[1] == isinstance(action, FreeThrow):
                    value = float(throws[0][self.lattice.index(action.keep)])
            elif isinstance(action, Announce):
                value = self.announced_value(action.box) - valuation.announce_margin
            if value is not None:
                result.append(Choice(action, valuation.before + value))
        return best_first(result)


__all__ = ["ColumnCache", "Lookahead", "Valuation", "best_entries", "own_entries"]
