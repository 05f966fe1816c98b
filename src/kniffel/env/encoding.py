"""Actions as integers and positions as vectors: the one encoding every environment shares.

**Actions** (one ``Discrete(n_actions)`` space per rule set), with ``K = 2**dice - 1`` and ``B`` boxes
(:attr:`kniffel.RuleSet.box_keys`, sheet order):

* ``0 .. K-1``: throw, holding the dice at the positions whose bits are set (bit ``i`` is the ``i``-th
  die of the sorted dice in the observation); ``0`` throws them all. Holding every die is no throw, so
  it has no index. Once the regular rolls are used up a throw is a free throw (Knöffel), as the rules
  allow; the mask says when. Equal dice make several indices hold the same keep: all of them are legal.
* ``K + b``: score box ``b``; ``K + B + b``: strike box ``b`` (enter 0). One action a box for one
  effect: where the dice would pay nothing in a box (no points, no extra bonus), only its strike is legal;
  the game's ``Score`` of such a box maps to the strike's index (:meth:`Encoding.index` with the legal
  actions) and the index back to ``Strike`` (:meth:`Encoding.action`), which enters the same 0.
* ``K + 2B + a``: announce the ``a``-th box of the announced columns (only rule sets that have them).

The environments roll the first throw of every turn themselves (it is the only legal action), so an
agent always sees dice.

**Observation**: one flat ``float32`` vector of whole numbers; :attr:`Encoding.layout` names its parts
(slices), in this order, a part only where the rules have what it describes:

* ``dice`` (sorted faces, 0 when the player is not to move), ``counts`` (dice per face),
  ``rolls_left``, ``free_throws_taken`` (this turn), ``thrown_at_once`` (sharp variant), ``announced``
  (one-hot over the announceable boxes);
* ``filled`` (1 per filled box), ``points`` (what each box holds), per column ``upper_sum``,
  ``extra_bonus`` (further five of a kinds) and ``free_throws_left``;
* with several players, ``opponents``: the total and the boxes still open of each other player, in
  seat order after the observer.

Every part is bounded (:attr:`Encoding.high`): the most a box, an upper section, the extra bonuses or a
whole sheet can hold under the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from kniffel.base.arrays import F32
from kniffel.base.dice import FACES
from kniffel.base.errors import IllegalActionError
from kniffel.engine.actions import Action, Announce, FreeThrow, LegalActions, Roll, Score, Strike
from kniffel.engine.game import Game
from kniffel.engine.sheet import possible_points
from kniffel.rules import Order, RuleSet, Section

Mask = npt.NDArray[np.int8]


class EnvActionError(IllegalActionError):
    """An action index outside the space, or one the mask forbids; the message names it and says why."""


@dataclass(frozen=True, eq=False)
class Encoding:
    """Action indices and observation vectors of one rule set, for a game of ``players`` players."""

    rules: RuleSet
    players: int = 1
    layout: dict[str, slice] = field(init=False)
    low: F32 = field(init=False)
    high: F32 = field(init=False)
    highest_total: int = field(init=False)
    """The most a sheet can total under the rules (every box at its most, the bonuses, an extra bonus
    for every box but one, every free throw unused): the bound of a total."""

    def __post_init__(self) -> None:
        rules = self.rules
        n, columns, boxes = rules.dice, len(rules.columns), len(rules.box_keys)
        box_most = {b.id: max(possible_points(rules, b.id)) for b in rules.boxes}
        most = max(box_most.values())
        upper_most = sum(box_most[b.id] for b in rules.boxes if b.section is Section.UPPER)
        extra_most = rules.extra_bonus * (len(rules.boxes) - 1)
        column_most = sum(box_most.values()) + rules.upper_bonus + extra_most
        total_most = columns * (column_most + rules.free_throws * rules.free_throw_points)
        parts: list[tuple[str, int, float | tuple[float, ...]]] = [
            ("dice", n, FACES),
            ("counts", FACES, n),
            ("rolls_left", 1, rules.rolls),
        ]
        if rules.free_throws:
            parts.append(("free_throws_taken", 1, rules.free_throws_per_turn))
        if rules.sharp:
            parts.append(("thrown_at_once", 1, 1))
        if self.announceable:
            parts.append(("announced", len(self.announceable), 1))
        parts += [("filled", boxes, 1), ("points", boxes, most), ("upper_sum", columns, upper_most)]
        if rules.extra_bonus:
            parts.append(("extra_bonus", columns, extra_most))
        if rules.free_throws:
            parts.append(("free_throws_left", columns, rules.free_throws))
        if self.players > 1:
            parts.append(("opponents", 2 * (self.players - 1), (total_most, boxes)))
        layout, highs, at = {}, [], 0
        for name, size, high in parts:
            layout[name] = slice(at, at + size)
            pattern = high if isinstance(high, tuple) else (high,)
            highs += list(pattern) * (size // len(pattern))
            at += size
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "low", np.zeros(at, dtype=np.float32))
        object.__setattr__(self, "high", np.array(highs, dtype=np.float32))
        object.__setattr__(self, "highest_total", total_most)

    # --- actions ---------------------------------------------------------------------------------

    @cached_property
    def announceable(self) -> tuple[str, ...]:
        rules = self.rules
        return tuple(
            rules.key(c, b) for c in rules.columns if c.order is Order.ANNOUNCED for b in rules.boxes
        )

    @property
    def n_keeps(self) -> int:
        return (1 << self.rules.dice) - 1

    @property
    def n_boxes(self) -> int:
        return len(self.rules.box_keys)

    @property
    def n_actions(self) -> int:
        return self.n_keeps + 2 * self.n_boxes + len(self.announceable)

    @property
    def size(self) -> int:
        return int(self.low.shape[0])

    @cached_property
    def _box_number(self) -> dict[str, int]:
        return {key: b for b, key in enumerate(self.rules.box_keys)}

    def action(self, index: int, dice: tuple[int, ...] | None, *, free: bool = False) -> Action:
        """The game action of ``index`` with ``dice`` showing (``free``: a throw is a free throw)."""
        k, b = self.n_keeps, self.n_boxes
        if index < k:
            held = () if dice is None else tuple(d for i, d in enumerate(dice) if index >> i & 1)
            return (FreeThrow if free else Roll)(keep=held)
        if index < k + b:
            return Score(self.rules.box_keys[index - k])
        if index < k + 2 * b:
            return Strike(self.rules.box_keys[index - k - b])
        return Announce(self.announceable[index - k - 2 * b])

    def index(self, action: Action, dice: tuple[int, ...] | None, legal: LegalActions | None = None) -> int:
        """The index of a game action with ``dice`` showing (a keep is held by its first matching dice).
        With the ``legal`` actions of the position, a score the dice pay nothing for is its box's strike
        (the one action for that effect, see the module docstring)."""
        k, b = self.n_keeps, self.n_boxes
        if isinstance(action, Score) and legal is not None:
            placement = legal.placements.get(action.box)
            if placement is not None and placement.total == 0:
                action = Strike(action.box)
        if isinstance(action, Roll):
            rest, bits = list(action.keep), 0
            for i, face in enumerate(dice or ()):
                if face in rest:
                    rest.remove(face)
                    bits |= 1 << i
            return bits
        if isinstance(action, Score):
            return k + self._box_number[action.box]
        if isinstance(action, Strike):
            return k + b + self._box_number[action.box]
        assert isinstance(action, Announce)
        return k + 2 * b + self.announceable.index(action.box)

    def describe(self, index: int) -> str:
        """Words for an index, for messages: ``throw holding dice 1 3``, ``score chance``."""
        k = self.n_keeps
        if index < k:
            held = [str(i + 1) for i in range(self.rules.dice) if index >> i & 1]
            return "throw all dice" if not held else "throw holding dice " + " ".join(held)
        return str(self.action(index, None))

    def check_index(self, action: object) -> int:
        """``action`` as an index of the space; :class:`EnvActionError` if it is none."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise EnvActionError(f"an action is an integer 0 to {self.n_actions - 1}, got {action!r}")
        if not 0 <= action < self.n_actions:
            raise EnvActionError(f"action {action} is outside the action space 0 to {self.n_actions - 1}")
        return int(action)

    # --- positions -------------------------------------------------------------------------------

    def mask(self, legal: LegalActions) -> Mask:
        """``[action]``: 1 where the action is legal in the position ``legal`` describes."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        if legal.can_throw:
            out[: self.n_keeps] = 1
        k, b, number = self.n_keeps, self.n_boxes, self._box_number
        for key, placement in legal.placements.items():
            if placement.total > 0:  # scoring nothing is the strike
                out[k + number[key]] = 1
        for key in legal.strikeable:
            out[k + b + number[key]] = 1
        for key in legal.announceable:
            out[k + 2 * b + self.announceable.index(key)] = 1
        return out

    def observe(self, game: Game, player: int | None = None) -> F32:
        """The observation of ``player`` (default: the one to move) in ``game``."""
        rules, layout = self.rules, self.layout
        me = game.current if player is None else player
        obs = np.zeros(self.size, dtype=np.float32)
        turn = game.turn
        if me == game.current and not game.is_over:
            if turn.dice is not None:
                obs[layout["dice"]] = turn.dice
                counts = obs[layout["counts"]]
                for face in turn.dice:
                    counts[face - 1] += 1
            obs[layout["rolls_left"].start] = game.rolls_left
            if "free_throws_taken" in layout:
                obs[layout["free_throws_taken"].start] = turn.free_throws
            if "thrown_at_once" in layout:
                obs[layout["thrown_at_once"].start] = turn.thrown_at_once
            if turn.announced is not None:
                obs[layout["announced"].start + self.announceable.index(turn.announced)] = 1
        sheet = game.sheets[me]
        filled, points = layout["filled"].start, layout["points"].start
        for b, key in enumerate(rules.box_keys):
            value = sheet.entries.get(key)
            if value is not None:
                obs[filled + b] = 1
                obs[points + b] = value
        for c, column in enumerate(rules.columns):
            obs[layout["upper_sum"].start + c] = sheet.column_totals(column).upper_sum
            if "extra_bonus" in layout:
                obs[layout["extra_bonus"].start + c] = sheet.extra_bonus.get(column.id, 0)
            if "free_throws_left" in layout:
                obs[layout["free_throws_left"].start + c] = sheet.free_throws_left(column)
        if "opponents" in layout:
            at = layout["opponents"].start
            for seat in range(1, self.players):
                other = game.sheets[(me + seat) % self.players]
                obs[at] = other.total
                obs[at + 1] = self.n_boxes - len(other.entries)
                at += 2
        return obs


__all__ = ["Encoding", "EnvActionError"]
