"""The heuristic bot: exact lookahead over the rest of the turn, a rough estimate of the rest of the game.

Within a turn the bot is exact: for every keep it computes the expected value of the best box after the
remaining rolls (and free throws) by enumerating every outcome with the tables of
:mod:`kniffel.bots.tables`. What a box is *worth* is where the heuristic lies: entering ``p`` points in a
box is valued as

    p + bonus earned - baseline(box) + change in the expected upper bonus + worth of arming the five box

The baseline is the box's opportunity cost: the points it is expected to bring if it stays open, taken
as the expected score of going for that box alone with two more rolls than the rules give (a proxy for
the several chances a game offers). The upper bonus enters as a probability: each open upper box is
assumed to end with a binomial number of its face, and the change in the chance of reaching the
threshold is paid at the bonus's worth. This single value function orders keeps, announcements, free
throws and the final choice of box alike, for every rule set, because the rules themselves are only
ever consulted through :func:`kniffel.rules.placements` and :func:`kniffel.rules.strikeable`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np
import numpy.typing as npt

from kniffel.dice import roll_index, roll_probabilities
from kniffel.game import Action, Announce, FreeThrow, Game, Roll, Score, Strike
from kniffel.keeps import KeepLattice, keep_lattice
from kniffel.rules import Column, RuleSet, placements, strikeable
from kniffel.rules.model import Box

NEG_INF = float("-inf")
Matrix = npt.NDArray[np.float64]


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


# --- per rule set ----------------------------------------------------------------------------------


class RuleModel:
    """What the bot derives from a rule set once: baselines and the upper-bonus chances."""

    def __init__(self, rules: RuleSet, weights: Weights) -> None:
        self.rules = rules
        self.weights = weights
        self.tables: KeepLattice = keep_lattice(rules.dice)
        self.first_roll = roll_probabilities(rules.dice)
        self.baseline = {
            box.id: weights.baseline_scale * self._targeted(b, rules.rolls + weights.baseline_extra_rolls)
            for b, box in enumerate(rules.boxes)
        }
        self.upper = [box.id for box in rules.upper_boxes if box.face is not None]
        self._column_rules: dict[str, RuleSet] = {}
        self.survival = self._upper_survival()

    def column_rules(self, column: Column) -> RuleSet:
        """The rule set of a one-column sheet that is this column."""
        if not self.rules.multi_column:
            return self.rules
        alone = self._column_rules.get(column.id)
        if alone is None:
            alone = dataclasses.replace(self.rules, columns=(column,))
            self._column_rules[column.id] = alone
        return alone

    def _targeted(self, column: int, rolls: int) -> float:
        """Expected score of one box when every roll aims at it alone."""
        tables = self.tables
        score = self.rules.score_table[:, column].astype(np.float64)
        value = score
        for _ in range(rolls - 1):
            value = np.maximum(score, tables.best_throw(tables.keep_values(value)))
        return float(self.first_roll @ value)

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


_MODELS: dict[tuple[str, frozenset[tuple[str, str]], Weights], tuple[RuleSet, RuleModel]] = {}
_MAX_MODELS = 32


def rule_model(rules: RuleSet, weights: Weights) -> RuleModel:
    """The cached :class:`RuleModel` of ``rules`` (rule sets hold a dict, so they are not hashable)."""
    key = (rules.id, frozenset(rules.options.items()), weights)
    cached = _MODELS.get(key)
    if cached is not None and (cached[0] is rules or cached[0] == rules):
        return cached[1]
    model = RuleModel(rules, weights)
    if len(_MODELS) >= _MAX_MODELS:
        _MODELS.pop(next(iter(_MODELS)))
    _MODELS[key] = (rules, model)
    return model


# --- per column state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ColumnState:
    """What the value of entering points in a column depends on."""

    upper_sum: int
    open_upper: int
    """Bit mask over :attr:`RuleModel.upper` of the upper boxes still free."""
    open_boxes: int


def column_state(model: RuleModel, entries: Mapping[str, int], column: Column) -> ColumnState:
    rules = model.rules
    upper_sum = 0
    mask = 0
    for i, box_id in enumerate(model.upper):
        key = rules.key(column, rules.box(box_id))
        if key in entries:
            upper_sum += entries[key]
        else:
            mask |= 1 << i
    open_boxes = sum(rules.key(column, box) not in entries for box in rules.boxes)
    return ColumnState(upper_sum, mask, open_boxes)


def box_values(
    model: RuleModel, state: ColumnState, box: Box, points: Matrix, bonus: Matrix | float = 0.0
) -> Matrix:
    """What entering ``points`` (and earning ``bonus``) in ``box`` is worth to the bot."""
    rules = model.rules
    values = points + bonus - model.baseline[box.id]
    if box.id in model.upper and rules.upper_bonus:
        bit = 1 << model.upper.index(box.id)
        need = max(rules.upper_bonus_threshold - state.upper_sum, 0)
        if need and state.open_upper & bit:
            before = model.survival[state.open_upper, need]
            remaining = np.clip(need - points, 0, None).astype(np.intp)
            after = model.survival[state.open_upper & ~bit, remaining]
            values = values + rules.upper_bonus * (after - before)
    if box.id == rules.five_box and rules.extra_bonus:
        armed = rules.extra_bonus * model.weights.extra_rate * (state.open_boxes - 1)
        values = values + np.where(points > 0, armed, 0.0)
    return np.asarray(values, dtype=np.float64)


# --- the bot -------------------------------------------------------------------------------------


class HeuristicBot:
    """Plays every rule set sensibly and fast; deterministic for a given position."""

    name: str = "heuristic"

    def __init__(self, *, seed: int | None = None, weights: Weights | None = None) -> None:
        # Decisions never depend on chance; the seed is accepted so every bot is made alike.
        self.seed = seed
        self.weights = weights or Weights()
        self._columns: dict[tuple[object, ...], Matrix] = {}

    def choose(self, game: Game) -> Action:
        if game.is_over:
            raise ValueError("the game is over: there is nothing to choose")
        if game.turn.dice is None:
            return Roll()
        action = _Plan(self, game).decide()
        if game.can_apply(action):
            return action
        # Should not happen; a bot must never stall a game with an illegal move.
        return _best_stop(self, game) or game.legal_actions()[0]

    def column_values(
        self, model: RuleModel, entries: Mapping[str, int], column: Column, announced: str | None, sharp: bool
    ) -> Matrix:
        """Value of each roll entered in its best box of ``column`` (``-inf`` where it may not go).

        Cached by the column's entries: a sheet changes in one column a turn, so most columns are
        computed once per box filled, not once per decision."""
        rules = model.rules
        located = ((rules.locate(key), points) for key, points in entries.items())
        own = tuple(sorted((box.id, points) for (c, box), points in located if c == column))
        cache_key = (model, column.id, own, announced, sharp)
        cached = self._columns.get(cache_key)
        if cached is not None:
            return cached
        # Columns are scored independently, so the column is asked as a sheet of its own: the same
        # answers as the whole sheet gives for it, several times faster.
        alone = model.column_rules(column)
        box_id = rules.locate(announced)[1].id if announced is not None else None
        state = column_state(model, entries, column)
        rolls = model.tables.rolls
        best = np.full(len(rolls), NEG_INF)
        by_key: dict[str, tuple[list[int], list[int], list[int]]] = {}
        for r, roll in enumerate(rolls):
            for key, placement in placements(
                alone, dict(own), roll, thrown_at_once=sharp, announced=box_id
            ).items():
                rows, points, bonus = by_key.setdefault(key, ([], [], []))
                rows.append(r)
                points.append(placement.points)
                bonus.append(placement.bonus)
        for key, (rows, points, bonus) in by_key.items():
            values = box_values(
                model,
                state,
                alone.box(key),
                np.array(points, dtype=np.float64),
                np.array(bonus, dtype=np.float64),
            )
            index = np.array(rows, dtype=np.intp)
            best[index] = np.maximum(best[index], values)
        best.flags.writeable = False
        if len(self._columns) > 2048:
            self._columns.clear()
        self._columns[cache_key] = best
        return best


class _Plan:
    """One decision: the lookahead over the rest of the turn from the position in ``game``."""

    def __init__(self, bot: HeuristicBot, game: Game) -> None:
        self.bot = bot
        self.game = game
        self.rules = game.rules
        self.model = rule_model(game.rules, bot.weights)
        self.tables = self.model.tables
        self.sheet = game.sheet
        self.turn = game.turn
        self.sharps = (False, True) if self.rules.sharp else (False,)
        self._stages: dict[tuple[str, int, str | None], dict[bool, Matrix]] = {}
        self._strikes: dict[str | None, list[tuple[str, float]]] = {}

    @cached_property
    def left(self) -> dict[str, int]:
        """Free throws each column can still pay for (all columns alike if the rules have none)."""
        return {
            c.id: self.sheet.free_throws_left(c) if self.rules.free_throws else 0 for c in self.rules.columns
        }

    def free_throw_possible(self, number: int) -> bool:
        """Whether a ``number``-th free throw of the turn could be taken."""
        rules = self.rules
        if not rules.free_throws or number > rules.free_throws_per_turn:
            return False
        return any(
            self.left[c.id] >= number and any(rules.key(c, b) not in self.sheet.entries for b in rules.boxes)
            for c in rules.columns
        )

    @cached_property
    def states(self) -> dict[str, ColumnState]:
        return {c.id: column_state(self.model, self.sheet.entries, c) for c in self.rules.columns}

    def strike_floor(self, used: int, announced: str | None) -> float:
        """Best box to strike that scoring cannot reach (announced columns); the same for every roll."""
        strikes = self._strikes.get(announced)
        if strikes is None:
            dice = self.turn.dice
            assert dice is not None
            entries = self.sheet.entries
            keys = strikeable(self.rules, entries, dice, announced=announced)
            scorable = set(placements(self.rules, entries, dice)) if announced is None else set()
            strikes = []
            for key in keys:
                if key in scorable:
                    continue  # scoring there is worth at least as much as striking
                column, box = self.rules.locate(key)
                value = float(box_values(self.model, self.states[column.id], box, np.zeros(1))[0])
                strikes.append((column.id, value))
            self._strikes[announced] = strikes
        return max((v for c, v in strikes if not used or self.left[c] >= used), default=NEG_INF)

    def stop_values(self, used: int, sharp: bool, announced: str | None) -> Matrix:
        """Value of ending the turn on each roll after ``used`` free throws."""
        best = np.full(len(self.tables.rolls), NEG_INF)
        for column in self.rules.columns:
            if used and self.left[column.id] < used:
                continue
            if announced is not None and self.rules.locate(announced)[0] != column:
                continue
            best = np.maximum(
                best, self.bot.column_values(self.model, self.sheet.entries, column, announced, sharp)
            )
        cost = self.rules.free_throw_points + self.bot.weights.free_throw_margin
        floor = self.strike_floor(used, announced)
        values: Matrix = np.maximum(best, floor) - used * cost
        return values

    def _continue(self, after: dict[bool, Matrix]) -> Matrix:
        """Value of each keep when the following roll leads to the per-roll values ``after``."""
        return self.tables.keep_values(after[False], after.get(True))

    def stage(self, kind: str, number: int, announced: str | None) -> dict[bool, Matrix]:
        """Per-roll value of the position before deciding, by whether the dice were all thrown at once.

        ``kind`` "regular" with ``number`` regular rolls left, or "free" after the regular rolls with
        ``number`` free throws taken.
        """
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
            result = {s: self.stop_values(used, s, announced) for s in self.sharps}
            if after is not None:
                go_on = self.tables.best_throw(self._continue(after))
                result = {s: np.maximum(value, go_on) for s, value in result.items()}
        self._stages[key] = result
        return result

    def keep_values(self, announced: str | None) -> tuple[Matrix, bool]:
        """Value of every keep from the current dice, the full keep standing for ending the turn
        (other keeps are ``-inf`` if the turn must end), and whether a further roll is a free throw."""
        turn = self.turn
        rolls_left = self.rules.rolls - turn.rolls
        free = rolls_left <= 0
        if rolls_left > 0:
            values = self._continue(self.stage("regular", rolls_left - 1, announced))
        elif self.free_throw_possible(turn.free_throws + 1):
            values = self._continue(self.stage("free", turn.free_throws + 1, announced))
        else:
            values = np.full(len(self.tables.keeps), NEG_INF)
        sharp = turn.thrown_at_once and self.rules.sharp
        stop = self.stop_values(turn.free_throws, sharp, announced)
        values[self.tables.first_roll + self.row] = stop[self.row]
        return values, free

    @cached_property
    def row(self) -> int:
        assert self.turn.dice is not None
        return roll_index(self.rules.dice)[self.turn.dice]

    @cached_property
    def choices(self) -> npt.NDArray[np.intp]:
        """The keeps of the dice showing, the whole roll (stop throwing) included."""
        row = self.tables.choices[self.row]
        return np.append(row[row >= 0], self.tables.first_roll + self.row).astype(np.intp)

    def decide(self) -> Action:
        turn, game = self.turn, self.game
        choices = self.choices
        values, free = self.keep_values(turn.announced)
        if turn.rolls == 1 and turn.announced is None:
            announce = self._best_announcement(float(values[choices].max()))
            if announce is not None:
                return announce
        keep = int(choices[int(np.argmax(values[choices]))])
        if keep == self.tables.first_roll + self.row:
            return _best_stop(self.bot, game) or game.legal_actions()[0]
        kept = self.tables.keeps[keep]
        return FreeThrow(keep=kept) if free else Roll(keep=kept)

    def _best_announcement(self, without: float) -> Announce | None:
        """The announcement worth most, if it beats going on without one."""
        choices = self.choices
        best: tuple[float, Announce] | None = None
        for action in self.game.legal_actions():
            if isinstance(action, Announce):
                value = float(self.keep_values(action.box)[0][choices].max())
                if best is None or value > best[0]:
                    best = (value, action)
        if best is not None and best[0] > without + self.bot.weights.announce_margin:
            return best[1]
        return None


def _best_stop(bot: HeuristicBot, game: Game) -> Action | None:
    """The legal score or strike that the bot values most."""
    model = rule_model(game.rules, bot.weights)
    entries = game.sheet.entries
    options = game.placements()
    states: dict[str, ColumnState] = {}
    best: tuple[float, Action] | None = None
    for action in game.legal_actions():
        if not isinstance(action, Score | Strike):
            continue
        column, box = game.rules.locate(action.box)
        placement = options[action.box] if isinstance(action, Score) else None
        points = np.array([placement.points if placement else 0], dtype=np.float64)
        bonus = float(placement.bonus) if placement else 0.0
        if column.id not in states:
            states[column.id] = column_state(model, entries, column)
        value = float(box_values(model, states[column.id], box, points, bonus)[0])
        if best is None or value > best[0]:
            best = (value, action)
    return best[1] if best else None


__all__ = ["HeuristicBot", "Weights"]
