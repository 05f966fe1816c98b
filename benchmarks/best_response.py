"""The ladder above ``bot:win`` on small games: the exact best response to ``bot:optimal``, the
clairvoyant ceiling above it, and the share of the best response's edge ``bot:win`` takes.

    .venv/bin/python benchmarks/best_response.py [--game NAME ...] [--deals 1000000] [--before] [--json]
        [--save benchmarks/results/reports/best_response.json]
    .venv/bin/python benchmarks/best_response.py --gaps 1000 [--game NAME ...]

``bot:optimal`` plays for points by a fixed policy that looks at its own sheet only, so against it the
game is a Markov decision problem for the other player: its state is both sheets and the difference of
the scores. The **best response** solves it exactly, backwards from both full sheets, where a tie is
half a win (as tournaments count it): at the responder's turn each roll takes the best of its entries
and keeps for every opponent's sheet and score difference at once (the keep lattice over a vector of
them, :class:`kniffel.base.keeps.KeepLattice`); at the opponent's turn the value is the mean over
``bot:optimal``'s turn outcomes (its policy as the compiled simulator plays it, ties broken the same way:
a keep replaces scoring only when strictly better, the first best keep and the first best entry win).
It is worked out for either seat; the figure is their mean, as duplicate games deal every seat alike.

The **clairvoyant ceiling** is the best chance of a player who knows ``bot:optimal``'s final score
before the game starts: for each final score the same programme with the opponent's score fixed,
weighed by that score's chance. No policy that sees the game as it goes can do better.

``bot:win`` is measured in compiled games against ``bot:optimal`` (:func:`kniffel.core.play_to_win`),
every deal from both seats; its 95 % interval is over the deals' means (each deal's two games share
their dice). The **share** of the edge it takes is ``(bot:win - 1/2) / (best response - 1/2)``.

The games are the tests' reduced game (three dice, four boxes: twos, fives, a run of three for 20 and
three alike for 30, a 35 bonus at 12, a 100 bonus for a further three alike under the forced joker;
``tests/support/solver.py``), three of its variants, and larger ones: a chance box added, sixes, four
and five dice.
``--json`` prints one record per game, with the keys ``rules``, ``boxes``, ``dice``,
``best_response``, ``bot_win``, ``bot_win_low``, ``bot_win_high``, ``clairvoyant`` and ``share``, and
besides them each seat's best response, the games played and the seconds each part took.
``--before`` also measures ``bot:win`` under the house rule ``tie_wins_all=on`` (a tie valued as a
whole win), scored as before with a tie half a win. ``--gaps`` plays ``bot:win`` against ``bot:optimal``
in the engine instead and values each of its decisions by the best response: what it gives away in all,
by how far the game is, and where it gives away most (:func:`gaps`). The figures are in
``benchmarks/results/reports/best_response.json``, shown in ``docs/explanation/winning.md``.

The programme holds a float per pair of sheets and score difference, two stages at a time (every stage
with ``keep``, which :class:`Responder` reads): its memory and time decide which games it covers (the
largest here, four dice and six boxes, takes minutes).
``tests/project/test_best_response.py`` plays the smallest game by the programme's own policy against
``bot:optimal`` through the engine and checks the share it wins against the programme's value.
Free throws (Knöffel) are not covered.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel import rules
from kniffel.base.keeps import KeepLattice, keep_lattice
from kniffel.core import Compiled, Solution, compile_rules, solve
from kniffel.engine.actions import Action, Roll, Score, Strike
from kniffel.engine.game import Game
from kniffel.rules import Box, Extra, RuleSet, Section
from kniffel.rules.scoring import Chance, Pattern, Run, Upper

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
Z95 = 1.959963984540054

# --- the games --------------------------------------------------------------------------------------------

TWOS = Box("twos", Section.UPPER, Upper(2), "Twos", "Zweier")
FIVES = Box("fives", Section.UPPER, Upper(5), "Fives", "Fünfer")
SIXES = Box("sixes", Section.UPPER, Upper(6), "Sixes", "Sechser")
RUN = Box("run", Section.LOWER, Run(3, 20), "Run", "Straße", joker_points=20, figure=True)
CHANCE = Box("chance", Section.LOWER, Chance(), "Chance", "Chance")


def alike(dice: int) -> Box:
    return Box("alike", Section.LOWER, Pattern(((dice,),), 30), "Alike", "Gleiche", figure=True)


def small(dice: int, *extra: Box, **changes: Any) -> RuleSet:
    """The tests' reduced game (``tests/support/solver.py``) with ``dice`` dice and ``extra`` boxes."""
    base = dataclasses.replace(
        rules.get("yahtzee"),
        id="reduced",
        boxes=(TWOS, FIVES, RUN, alike(dice), *extra),
        dice=dice,
        five_box="alike",
        upper_bonus_threshold=12,
        upper_bonus=35,
        extra=Extra.FORCED_JOKER,
        extra_bonus=100,
    )
    return dataclasses.replace(base, **changes)


GAMES: dict[str, Callable[[], RuleSet]] = {
    "3 dice, 4 boxes": lambda: small(3),
    "3 dice, 4 boxes, free joker": lambda: small(3, extra=Extra.FREE_JOKER),
    "3 dice, 4 boxes, hundred": lambda: small(3, extra=Extra.HUNDRED),
    "3 dice, 4 boxes, sharp": lambda: small(3, sharp=True),
    "3 dice, 5 boxes": lambda: small(3, CHANCE),
    "3 dice, 6 boxes": lambda: small(3, CHANCE, SIXES),
    "4 dice, 4 boxes": lambda: small(4),
    "4 dice, 5 boxes": lambda: small(4, CHANCE),
    "5 dice, 4 boxes": lambda: small(5),
    "5 dice, 5 boxes": lambda: small(5, CHANCE),
    "4 dice, 6 boxes": lambda: small(4, CHANCE, SIXES),
}
"""The games the benchmark covers, smallest first."""


# --- one player's sheets ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turns:
    """What one turn may do from each state of a level.

    ``options[i]`` are state ``i``'s entries as ``(child, gain)`` rows (the child's index in the next level,
    the points gained with every bonus); ``by_roll[i][s, r]`` the options roll ``r`` (thrown at once: ``s``
    = 1) may be entered as, every legal score and strike, padded with -1; ``outcomes[i]`` the turn of
    ``bot:optimal`` as ``(child, gain, probability)`` rows; ``policy[i]`` its decisions
    (:meth:`Sheets.bot`)."""

    options: list[I64]
    by_roll: list[I64]
    outcomes: list[tuple[I64, I64, F64]]
    policy: list[tuple[I64, I64]]


@dataclass
class Sheets:
    """The states one player's sheet can reach, level by level (boxes filled), and the turns between them.

    A state is ``(mask, armed, up)`` as the solver's tables read it (:class:`kniffel.core.Compiled`),
    the upper score raised to the lowest the tables compute for the mask (below it the bonus is out of
    reach, and nothing differs) and 0 once every upper box is filled."""

    solution: Solution
    states: list[list[tuple[int, int, int]]] = field(default_factory=list)
    turns: list[Turns] = field(default_factory=list)

    @property
    def c(self) -> Compiled:
        return self.solution.compiled

    @cached_property
    def lattice(self) -> KeepLattice:
        return keep_lattice(self.c.rules.dice)

    @cached_property
    def throws(self) -> F64:
        """``[keep, roll]``: the chance that holding ``keep`` and throwing the rest shows ``roll``. The
        responder's keeps are valued with it, one product of matrices for all their lanes (the lattice's
        sums of six, gathered lane by lane, took four fifths of the programme's time)."""
        lattice = self.lattice
        first = lattice.first_roll
        found = np.zeros((lattice.n_keeps, lattice.n_rolls))
        found[first:] = np.eye(lattice.n_rolls)
        for k in range(first - 1, -1, -1):
            found[k] = found[lattice.child[k]].mean(axis=0)
        return found

    def canonical(self, mask: int, armed: int, up: int) -> tuple[int, int, int]:
        """The state of ``(mask, armed, up)`` (see the class docstring)."""
        c = self.c
        if mask == c.full_mask:
            return mask, 0, 0
        up = 0 if mask & c.upper_mask == c.upper_mask else max(up, int(c.lanes[mask, 0]))
        return mask, armed if c.n_armed == 2 else 0, up

    def enter(
        self, state: tuple[int, int, int], box: int, points: int, extra: int
    ) -> tuple[tuple[int, int, int], int]:
        """The state after ``points`` (and ``extra`` bonus) go in ``box``, and the points gained."""
        c = self.c
        mask, armed, up = state
        if c.n_armed == 2 and box == c.five:
            armed = 1 if points > 0 else 0
        gained = points + extra
        if c.upper[box]:
            if up < c.threshold <= up + points:
                gained += c.upper_bonus
            up = min(up + points, c.threshold)
        return self.canonical(mask | 1 << box, armed, up), gained

    def entries(self, state: tuple[int, int, int], s: int, r: int) -> tuple[list[tuple[int, int, int]], bool]:
        """Roll ``r``'s entries in ``state`` as ``(box, points, extra)``, in the order the simulator weighs
        them, and whether the extra rules place it (then they are its only entries)."""
        c = self.c
        mask, armed, _ = state
        face = int(c.alike[r])
        if c.joker and face >= 0 and c.five >= 0 and mask >> c.five & 1:
            a = min(armed, c.n_armed - 1)
            extra = int(c.jbonus[mask, a, face])
            found = [(b, int(c.jpts[mask, a, s, face, b]), extra) for b in range(c.n_boxes)]
            return [e for e in found if e[1] >= 0], True
        allowed = int(c.allowed[mask])
        boxes = [b for b in range(c.n_boxes) if allowed >> b & 1]
        pairs = [(b, int(c.base[s, r, b]), 0) for b in boxes if c.base[s, r, b] > 0]
        return [(b, 0, 0) for b in boxes] + pairs, False

    def build(self) -> Sheets:
        """Every reachable state and turn, level by level (every legal entry: a strike too)."""
        c = self.c
        if c.n_free > 1:
            raise ValueError(f"{c.rules.id}: free throws are not covered")
        n_s, n_rolls = c.n_at_once, self.lattice.n_rolls
        self.states = [[self.canonical(0, 0, 0)]]
        for _level in range(c.n_boxes):
            index: dict[tuple[int, int, int], int] = {}
            options_of, by_roll_of = [], []
            for state in self.states[-1]:
                rows: dict[tuple[int, int], int] = {}
                per_roll: list[list[list[int]]] = [[[] for _ in range(n_rolls)] for _ in range(n_s)]
                for s in range(n_s):
                    for r in range(n_rolls):
                        found, _ = self.entries(state, s, r)
                        legal = {(b, p, e) for b, p, e in found} | {(b, 0, 0) for b, _, _ in found}
                        for b, p, e in sorted(legal):
                            child, gained = self.enter(state, b, p, e)
                            at = index.setdefault(child, len(index))
                            option = rows.setdefault((at, gained), len(rows))
                            if option not in per_roll[s][r]:
                                per_roll[s][r].append(option)
                options_of.append(np.array(list(rows), dtype=np.int64).reshape(-1, 2))
                width = max(len(x) for row in per_roll for x in row)
                padded = np.full((n_s, n_rolls, width), -1, dtype=np.int64)
                for s in range(n_s):
                    for r in range(n_rolls):
                        padded[s, r, : len(per_roll[s][r])] = per_roll[s][r]
                by_roll_of.append(padded)
            self.states.append(list(index))
            self.turns.append(Turns(options_of, by_roll_of, [], []))
        for level, turns in enumerate(self.turns):
            after = {state: i for i, state in enumerate(self.states[level + 1])}
            for state in self.states[level]:
                outcomes, policy = self.bot(state, after)
                turns.outcomes.append(outcomes)
                turns.policy.append(policy)
        return self

    # --- bot:optimal's turn ---

    def value(self, state: tuple[int, int, int]) -> float:
        mask, armed, up = state
        return float(self.solution.values[armed, mask, up])

    def bot(
        self, state: tuple[int, int, int], after: dict[tuple[int, int, int], int]
    ) -> tuple[tuple[I64, I64, F64], tuple[I64, I64]]:
        """``bot:optimal``'s turn from ``state``: its outcomes (child, gain, probability), and its policy:
        ``entry[s, r]`` the entry it makes with roll ``r`` (a row of :attr:`Turns.options`' kind,
        ``child * 4096 + gain``), ``keep[L, s, r]`` the keep it throws from with ``L`` throws left (-1:
        it scores). The values and comparisons are the compiled simulator's
        (:func:`kniffel.core.kernels.common.best_keep`, :func:`~kniffel.core.kernels.common.best_entries`),
        the keeps' values summed in its order, so that exact ties between options go its way."""
        c, lattice = self.c, self.lattice
        n_s, n_rolls, first = c.n_at_once, lattice.n_rolls, lattice.first_roll
        sv = np.empty((n_s, n_rolls))
        entry = np.empty((n_s, n_rolls), dtype=np.int64)
        for s in range(n_s):
            for r in range(n_rolls):
                found, _ = self.entries(state, s, r)
                best, chosen = -math.inf, -1
                for b, p, e in found:
                    child, gained = self.enter(state, b, p, e)
                    v = float(gained) + self.value(child)
                    if v > best:
                        best, chosen = v, after[child] * 4096 + gained
                sv[s, r], entry[s, r] = best, chosen
        rolls = c.rules.rolls
        keeps = np.full((rolls, n_s, n_rolls), -1, dtype=np.int64)
        seen = sv.copy()  # the value of a roll with L throws left, L = 0 first
        sixth = 1.0 / 6.0
        probs = lattice.roll_probs
        for left in range(1, rolls):
            ev = np.empty(lattice.n_keeps)
            ev[first:] = seen[0]
            for k in range(first - 1, -1, -1):
                ch = lattice.child[k]
                ev[k] = (ev[ch[0]] + ev[ch[1]] + ev[ch[2]] + ev[ch[3]] + ev[ch[4]] + ev[ch[5]]) * sixth
            if n_s == 2:
                total = 0.0
                for r in range(n_rolls):
                    total += probs[r] * seen[1, r]
                ev[0] = total
            for s in range(n_s):
                for r in range(n_rolls):
                    best, keep = sv[s, r], -1
                    for q in lattice.choices[r]:
                        if q < 0:
                            break
                        if ev[q] > best:
                            best, keep = ev[q], int(q)
                    keeps[left, s, r] = keep
            subs = ev[lattice.padded_choices].max(axis=1)
            seen = np.maximum(sv, subs[None, :])
        # the probability of every roll, pushed through the decisions to the entries
        trans = self.throws
        mass = np.zeros((n_s, n_rolls))
        mass[n_s - 1] = probs
        made: dict[int, float] = {}
        for left in range(rolls - 1, -1, -1):
            moved = np.zeros((n_s, n_rolls))
            for s, r in zip(*np.nonzero(mass), strict=True):
                m = mass[s, r]
                keep = keeps[left, s, r] if left > 0 else -1
                if keep < 0:
                    made[int(entry[s, r])] = made.get(int(entry[s, r]), 0.0) + m
                else:
                    moved[n_s - 1 if keep == 0 else 0] += m * trans[keep]
            mass = moved
        codes = np.array(list(made), dtype=np.int64)
        outcome = (codes // 4096, codes % 4096, np.array(list(made.values())))
        return outcome, (entry, keeps)

    @cached_property
    def most(self) -> list[int]:
        """``[n]``: the most points a sheet can hold with ``n`` boxes filled."""
        best = [0]
        held = np.zeros(1, dtype=np.int64)
        for turns in self.turns:
            nxt = np.zeros(max(int(o[:, 0].max()) for o in turns.options) + 1, dtype=np.int64)
            for i, options in enumerate(turns.options):
                np.maximum.at(nxt, options[:, 0], held[i] + options[:, 1])
            held = nxt
            best.append(int(held.max()))
        return best

    @cached_property
    def left(self) -> list[int]:
        """``[n]``: the most points a sheet with ``n`` boxes filled can still make."""
        below = np.zeros(1, dtype=np.int64)
        top = [0]
        for turns in reversed(self.turns):
            below = np.array([int((o[:, 1] + below[o[:, 0]]).max()) for o in turns.options], dtype=np.int64)
            top.append(int(below.max()))
        return top[::-1]

    def final_scores(self) -> F64:
        """``[s]``: the chance that ``bot:optimal`` finishes with ``s`` points, from its turns' outcomes."""
        below = [np.ones(1)]
        for turns in reversed(self.turns):
            level = []
            for child, gained, p in turns.outcomes:
                out = np.zeros(max(int(g) + len(below[int(k)]) for k, g in zip(child, gained, strict=True)))
                for k, g, q in zip(child.tolist(), gained.tolist(), p.tolist(), strict=True):
                    out[g : g + len(below[k])] += q * below[k]
                level.append(out)
            below = level
        return below[0]


# --- the best response -----------------------------------------------------------------------------------

LANES = 1 << 13
"""Lanes (opponent's sheets times score differences) a turn of the responder is swept over at once: the
rows a roll reads stay in the processor's cache (8,192 lanes were a fifth faster than 30,000)."""


def shifted(values: F64, low: int, first: int, count: int, shift: int) -> F64:
    """``values[..., j]`` holds score difference ``low + j``; the values at ``first + shift .. first +
    count - 1 + shift``: past the end 1 (the responder is too far ahead to be caught), before it 0."""
    out = np.empty((*values.shape[:-1], count))
    at = first + shift - low
    start, stop = min(max(0, -at), count), max(min(count, values.shape[-1] - at), 0)
    stop = max(stop, start)
    out[..., :start] = 0.0
    out[..., stop:] = 1.0
    out[..., start:stop] = values[..., start + at : stop + at]
    return out


@dataclass
class Stage:
    """The responder's chance of winning at one stage of the game, ``values[a, b, d - low]``: its sheet
    ``a`` (of its level), the opponent's ``b``, score difference ``d`` (the responder's points less the
    opponent's)."""

    low: int
    values: F64


class BestResponse:
    """The exact best response to ``bot:optimal`` of one rule set (see the module docstring). ``keep``
    holds every stage, for :class:`Responder`; else two at a time."""

    def __init__(self, sheets: Sheets, *, keep: bool = False) -> None:
        self.sheets = sheets
        self.keep = keep
        self.n = sheets.c.n_boxes
        self.stages: dict[tuple[bool, int, int], Stage] = {}
        """``(moving first, responder's level, opponent's level)``: the stages kept."""

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The score differences a stage with the responder at level ``a`` and the opponent at ``b``
        holds: those a game can have and whose outcome is not decided already."""
        most, left = self.sheets.most, self.sheets.left
        return max(-most[b], -left[a] - 1), min(most[a], left[b] + 1)

    def solve(self, first: bool) -> float:
        """The responder's chance of winning moving first (``first``) or second."""
        n, states = self.n, self.sheets.states
        stage = self.finished(*self.span(n, n))
        self._kept(first, n, n, stage)
        for level in range(n - 1, -1, -1):
            if first:  # the opponent's turn at `level`, then the responder's
                stage = self.opponent(stage, self.span(level + 1, level), level)
                self._kept(first, level + 1, level, stage)
                stage = self.responder(stage, self.span(level, level), level)
            else:
                stage = self.responder(stage, self.span(level, level + 1), level)
                self._kept(first, level, level + 1, stage)
                stage = self.opponent(stage, self.span(level, level), level)
            self._kept(first, level, level, stage)
        assert stage.values.shape[:2] == (len(states[0]), len(states[0]))
        return float(stage.values[0, 0, -stage.low])

    @staticmethod
    def finished(low: int, high: int) -> Stage:
        """Both sheets full: a win 1, a tie half, a loss 0, by score difference."""
        d = np.arange(low, high + 1)
        return Stage(low, np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0)).reshape(1, 1, -1))

    def _kept(self, first: bool, a: int, b: int, stage: Stage) -> None:
        if self.keep:
            self.stages[first, a, b] = stage

    def opponent(self, after: Stage, span: tuple[int, int], b: int) -> Stage:
        """The stage before ``bot:optimal``'s turn at level ``b`` over the differences of ``span``, from the
        stage after it: the mean over the turn's outcomes."""
        low, high = span
        count = high - low + 1
        turns = self.sheets.turns[b]
        values = np.zeros((after.values.shape[0], len(turns.outcomes), count))
        for j, (child, gained, p) in enumerate(turns.outcomes):
            for k, g, q in zip(child.tolist(), gained.tolist(), p.tolist(), strict=True):
                values[:, j] += q * shifted(after.values[:, k], after.low, low, count, -g)
        return Stage(low, values)

    def responder(self, after: Stage, span: tuple[int, int], a: int) -> Stage:
        """The stage before the responder's turn at level ``a`` over the differences of ``span``, from the
        stage after it: every roll's best entry or keep, for every opponent's sheet and difference at
        once."""
        low, high = span
        count = high - low + 1
        turns = self.sheets.turns[a]
        n_b = after.values.shape[1]
        values = np.empty((len(turns.options), n_b, count))
        rows = max(1, LANES // count)
        for i, options in enumerate(turns.options):
            for b0 in range(0, n_b, rows):
                b1 = min(n_b, b0 + rows)
                vectors = np.empty((len(options), (b1 - b0) * count))
                for o, (k, g) in enumerate(options.tolist()):
                    vectors[o] = shifted(after.values[k, b0:b1], after.low, low, count, g).reshape(-1)
                values[i, b0:b1] = self.sweep(vectors, turns.by_roll[i])[0].reshape(b1 - b0, count)
        return Stage(low, values)

    @cached_property
    def subs(self) -> list[I64]:
        """``[roll]``: the keeps a roll may be thrown from (every sub-multiset but itself)."""
        return [row[row >= 0] for row in self.sheets.lattice.choices]

    def sweep(self, vectors: F64, by_roll: I64) -> tuple[F64, F64, list[F64]]:
        """A turn valued lane by lane from its entries' values (``vectors[option]``): the value of the
        turn, every roll's best entry ``[s, r]`` and the values of the keeps that throw before each throw
        (``[left - 1][keep]``, ``left`` throws left after it). Roll by roll: the few rows a roll reads stay
        in the processor's cache (gathered for every roll at once, they took three times as long)."""
        lattice = self.sheets.lattice
        first = lattice.first_roll
        n_s, n_rolls, _ = by_roll.shape
        lanes = vectors.shape[1]
        few = lanes < 64  # a few lanes (a position of a game): one gather, not a call a roll
        if few:
            padded = np.vstack([vectors, np.full((1, lanes), -np.inf)])
            scored = padded[by_roll].max(axis=2)  # a pad (-1) reads the row of -inf
        else:
            scored = np.empty((n_s, n_rolls, lanes))
            for s in range(n_s):
                for r in range(n_rolls):
                    ids = by_roll[s, r]
                    np.max(vectors[ids[ids >= 0]], axis=0, out=scored[s, r])
        seen = scored
        keeps = []
        subs = self.subs
        for _left in range(1, self.sheets.c.rules.rolls):
            ev = self.sheets.throws[:first] @ seen[0]
            if n_s == 2:  # the empty keep throws every die at once
                ev[0] = lattice.roll_probs @ seen[1]
            keeps.append(ev)
            if few:
                best = ev[lattice.padded_choices].max(axis=1)  # a pad reads the empty keep, a choice too
            else:
                best = np.empty((n_rolls, lanes))
                for r in range(n_rolls):
                    np.max(ev[subs[r]], axis=0, out=best[r])
            seen = np.maximum(scored, best[None])
        return lattice.roll_probs @ seen[n_s - 1], scored, keeps

    def clairvoyant(self) -> float:
        """The best chance of a responder who knows ``bot:optimal``'s final score from the start: the
        programme with the opponent's sheet full, the difference counted from that score, weighed by its
        chance."""
        n, sheets = self.n, self.sheets
        scores = sheets.final_scores()
        top = len(scores) - 1

        def span(a: int) -> tuple[int, int]:
            return max(-top, -sheets.left[a] - 1), min(sheets.most[a], 1)

        stage = self.finished(*span(n))
        for level in range(n - 1, -1, -1):
            stage = self.responder(stage, span(level), level)
        chances = stage.values[0, 0]
        return float(sum(p * chances[-s - stage.low] for s, p in enumerate(scores.tolist()) if p > 0))


# --- the best response played in the engine ---------------------------------------------------------------


class Responder:
    """The best response as a player of the engine's games: each decision the best by the programme's
    values (every stage kept: ``BestResponse(sheets, keep=True)``, both seats solved). Its turn is valued
    once, at its first decision, for the opponent's sheet and the score difference it meets."""

    def __init__(self, programme: BestResponse) -> None:
        self.programme = programme
        self.sheets = programme.sheets
        self._turn: tuple[object, ...] | None = None
        self._tables: tuple[F64, list[F64]] = (np.empty(0), [])

    def state(self, game: Game, seat: int) -> tuple[int, int, int]:
        """A seat's sheet as a state of :class:`Sheets`."""
        c = self.sheets.c
        entries = game.sheets[seat].entries
        index = c.rules.box_index
        mask = sum(1 << index[key] for key in entries)
        up = min(sum(v for key, v in entries.items() if c.upper[index[key]]), c.threshold)
        five = c.rules.boxes[c.five].id if c.five >= 0 else None
        armed = int(five is not None and entries.get(five, 0) > 0)
        return self.sheets.canonical(mask, armed, up)

    def position(self, game: Game) -> tuple[int, int, int, int]:
        """The roll showing as ``(s, r, left)`` and the state index of the player to move."""
        c, lattice = self.sheets.c, self.sheets.lattice
        dice = game.turn.dice
        assert dice is not None
        s = int(c.n_at_once == 2 and game.turn.thrown_at_once)
        level = len(game.sheet.entries)
        i = self.sheets.states[level].index(self.state(game, game.current))
        return s, lattice.roll_index(tuple(sorted(dice))), game.rolls_left, i

    def entries(self, game: Game, i: int, s: int, r: int) -> dict[Action, int]:
        """The entries the engine allows now, each with its option of :attr:`Turns.options`."""
        level = len(game.sheet.entries)
        state = self.sheets.states[level][i]
        options = {tuple(o): n for n, o in enumerate(self.sheets.turns[level].options[i].tolist())}
        found: dict[Action, int] = {}
        for key, placement in game.placements().items():
            b = self.sheets.c.rules.box_index[key]
            for action, points, extra in (
                (Score(key), placement.points, placement.bonus),
                (Strike(key), 0, 0),
            ):
                child, gained = self.sheets.enter(state, b, points, extra)
                at = self.sheets.states[level + 1].index(child)
                found[action] = options[at, gained]
        return found

    def values(self, game: Game, first: bool) -> dict[Action, float]:
        """Every decision the engine allows the best response now (its player moving first or second,
        the dice showing), with its chance of winning by the programme."""
        programme, lattice = self.programme, self.sheets.lattice
        me, them = game.current, 1 - game.current
        level, b = len(game.sheet.entries), len(game.sheets[them].entries)
        s, r, left, i = self.position(game)
        j = self.sheets.states[b].index(self.state(game, them))
        d = game.sheets[me].total - game.sheets[them].total
        turn = (first, level, i, j, d)  # what the turn's values depend on
        if self._turn != turn:
            after = programme.stages[first, level + 1, b]
            options = self.sheets.turns[level].options[i]
            vectors = np.array(
                [shifted(after.values[k, j], after.low, d, 1, g)[0] for k, g in options.tolist()]
            ).reshape(-1, 1)
            self._turn = turn
            self._tables = (vectors[:, 0], programme.sweep(vectors, self.sheets.turns[level].by_roll[i])[2])
        values, keeps = self._tables
        found: dict[Action, float] = {a: float(values[o]) for a, o in self.entries(game, i, s, r).items()}
        if left > 0:
            for q in self.programme.subs[r].tolist():
                found[Roll(keep=lattice.keeps[q])] = float(keeps[left - 1][q, 0])
        return found

    def choose(self, game: Game, first: bool) -> Action:
        """The best response's decision in ``game`` (its player moving first or second)."""
        if game.turn.dice is None:
            return Roll()
        found = self.values(game, first)
        return max(found, key=lambda a: found[a])

    def bot_agrees(self, game: Game, action: Action) -> bool:
        """Whether ``bot:optimal``'s ``action`` in ``game`` is the one :meth:`Sheets.bot` modelled."""
        s, r, left, i = self.position(game)
        level = len(game.sheet.entries)
        entry, keeps = self.sheets.turns[level].policy[i]
        keep = int(keeps[left, s, r]) if left > 0 else -1
        if isinstance(action, Roll):
            return keep == self.sheets.lattice.index(tuple(sorted(action.keep)))
        assert isinstance(action, Score | Strike)
        state = self.sheets.states[level][i]
        b = self.sheets.c.rules.box_index[action.box]
        placement = game.placements()[action.box]
        points, extra = (placement.points, placement.bonus) if isinstance(action, Score) else (0, 0)
        child, gained = self.sheets.enter(state, b, points, extra)
        code = self.sheets.states[level + 1].index(child) * 4096 + gained
        return keep < 0 and code == int(entry[s, r])


def played(programme: BestResponse, deals: int, seed: int = 1) -> tuple[F64, int]:
    """The best response's share of the wins against ``bot:optimal`` in the engine's games, by deal
    (the mean of its two seats; the dice of a seat are the deal's, as in tournaments), and how many of
    ``bot:optimal``'s decisions the model of its turn (:meth:`Sheets.bot`) did not foresee."""
    from kniffel import bots
    from kniffel.core import deal_seed
    from kniffel.services.tournament import DealDice

    responder = Responder(programme)
    bot = bots.make("bot:optimal")
    ruleset = programme.sheets.c.rules
    shares = np.zeros((deals, 2))
    unforeseen = 0
    for deal in range(deals):
        for seat in range(2):
            dice = DealDice(deal_seed(seed, deal))
            game = Game(
                ruleset, ["best response", "bot"] if seat == 0 else ["bot", "best response"], dice=dice
            )
            dice.follow(game)
            while not game.is_over:
                if game.current == seat:
                    game.apply(responder.choose(game, seat == 0))
                    continue
                action = bot.choose(game)
                if game.turn.dice is not None and not responder.bot_agrees(game, action):
                    unforeseen += 1
                game.apply(action)
            mine, theirs = game.sheets[seat].total, game.sheets[1 - seat].total
            shares[deal, seat] = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return shares.mean(axis=1), unforeseen


@dataclass
class Gap:
    """A decision of ``bot:win`` the best response would not take: the position (its situation text, the
    score difference, the opponent's sheet and whether it has finished), the action ``bot:win`` took and
    the best response's, each with its chance of winning by the programme and by ``bot:win``'s own
    values."""

    situation: str
    filled: int
    difference: int
    opponent: dict[str, int]
    taken: str
    best: str
    taken_value: float
    best_value: float
    taken_own: float
    best_own: float

    @property
    def loss(self) -> float:
        return self.best_value - self.taken_value


def gaps(programme: BestResponse, deals: int, seed: int = 1) -> tuple[F64, list[Gap]]:
    """``bot:win``'s decisions in the engine's games against ``bot:optimal`` (both seats of ``deals``
    deals), each valued by the programme: the chance of winning they gave away by deal (its mean is the
    best response's edge over ``bot:win`` in those games), and every decision that gave some away."""
    from kniffel import bots
    from kniffel.core import deal_seed
    from kniffel.planning import WIN, WinPlanner
    from kniffel.services.tournament import DealDice

    responder = Responder(programme)
    ruleset = programme.sheets.c.rules
    bot, winner = bots.make("bot:optimal"), bots.make("bot:win")
    planner = WinPlanner(ruleset, WIN)
    lost = np.zeros(deals)
    found: list[Gap] = []
    for deal in range(deals):
        for seat in range(2):
            dice = DealDice(deal_seed(seed, deal))
            game = Game(ruleset, ["bot:win", "bot"] if seat == 0 else ["bot", "bot:win"], dice=dice)
            dice.follow(game)
            while not game.is_over:
                if game.current != seat:
                    game.apply(bot.choose(game))
                    continue
                action = winner.choose(game)
                if game.turn.dice is not None:
                    values = responder.values(game, seat == 0)
                    best = max(values, key=lambda a: values[a])
                    if values[best] - values[action] > 1e-12:
                        lost[deal] += 0.5 * (values[best] - values[action])
                        own = {c.action: c.value for c in planner.choices(game)}
                        them = game.sheets[1 - seat]
                        found.append(
                            Gap(
                                str(game.situation()),
                                len(game.sheet.entries),
                                game.sheets[seat].total - them.total,
                                dict(them.entries),
                                str(action),
                                str(best),
                                values[action],
                                values[best],
                                own.get(action, math.nan),
                                own.get(best, math.nan),
                            )
                        )
                game.apply(action)
    return lost, found


# --- bot:win, measured ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measured:
    """``bot:win``'s share of the wins against ``bot:optimal`` over ``deals`` deals from both seats, with
    its 95 % interval over the deals' means."""

    rate: float
    low: float
    high: float
    deals: int
    seconds: float


def measure(ruleset: RuleSet, deals: int, seed: int = 1, batch: int = 200_000) -> Measured:
    """``bot:win`` against ``bot:optimal`` in compiled games (:func:`kniffel.core.play_to_win`), every
    deal from both seats, ``batch`` deals at a time."""
    from kniffel.core import build_table, early_rows, play_to_win, solve_rows

    solution = solve(ruleset)
    start = time.perf_counter()
    targets = solve_rows(compile_rules(ruleset))
    distributions = build_table(solution)
    early = early_rows(solution.compiled, use_cache=False, distributions=distributions)
    means = []
    for first in range(0, deals, batch):
        count = min(batch, deals - first)
        matches = play_to_win(
            solution, players=2, deals=count, seed=seed, first_deal=first, to_win=(True, False),
            targets=targets, distributions=distributions, early=early,
        )  # fmt: skip
        shares = matches.shares()[:, 0]
        means.append(0.5 * (shares[:count] + shares[count:]))
    per_deal = np.concatenate(means)
    rate = float(per_deal.mean())
    half = Z95 * float(per_deal.std(ddof=1)) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else 0.5
    return Measured(rate, rate - half, rate + half, deals, time.perf_counter() - start)


# --- the figures -----------------------------------------------------------------------------------------


def ladder(name: str, deals: int, seed: int, before: bool) -> dict[str, Any]:
    """One game's record (see the module docstring)."""
    ruleset = GAMES[name]()
    start = time.perf_counter()
    programme = BestResponse(Sheets(solve(ruleset)).build())
    first, second = programme.solve(True), programme.solve(False)
    best = 0.5 * (first + second)
    solved = time.perf_counter() - start
    clairvoyant = programme.clairvoyant()
    measured = measure(ruleset, deals, seed)
    record: dict[str, Any] = {
        "game": name,
        "rules": name.split(", ")[2] if name.count(",") > 1 else "forced joker",
        "boxes": [box.id for box in ruleset.boxes],
        "dice": ruleset.dice,
        "best_response": best,
        "best_response_first": first,
        "best_response_second": second,
        "bot_win": measured.rate,
        "bot_win_low": measured.low,
        "bot_win_high": measured.high,
        "clairvoyant": clairvoyant,
        "share": (measured.rate - 0.5) / (best - 0.5),
        "deals": deals,
        "seconds": {"best_response": solved, "bot_win": measured.seconds},
    }
    if before:
        house = measure(dataclasses.replace(ruleset, options={"tie_wins_all": "on"}), deals, seed)
        record["bot_win_tie_wins_all"] = [house.rate, house.low, house.high]
    return record


def show_gaps(name: str, deals: int, seed: int, shown: int = 12) -> None:
    """Print what ``bot:win`` gives away against the best response in the engine's games of ``name``: in
    all, by how far the game is, and at the positions where it gives away most."""
    programme = BestResponse(Sheets(solve(GAMES[name]())).build(), keep=True)
    best = 0.5 * (programme.solve(True) + programme.solve(False))
    lost, found = gaps(programme, deals, seed)
    error = Z95 * float(lost.std(ddof=1)) / math.sqrt(len(lost))
    print(f"{name}: the best response wins {100 * best:.2f} %")
    print(f"bot:win gives away {100 * lost.mean():.3f} (+-{100 * error:.3f}) points of percentage a game")
    print("of them, by the boxes filled (its own, the opponent's) when it decided:")
    by: dict[tuple[int, int], float] = {}
    for gap in found:
        key = (gap.filled, len(gap.opponent))
        by[key] = by.get(key, 0.0) + gap.loss / (2 * deals)
    for key in sorted(by):
        print(f"  {key}: {100 * by[key]:.4f}")
    merged: dict[tuple[str, ...], tuple[Gap, int]] = {}
    for gap in found:
        seen = (gap.situation, str(gap.opponent), str(gap.difference), gap.taken)
        merged[seen] = (gap, merged.get(seen, (gap, 0))[1] + 1)
    print("the positions where it gives away most (how often it met them, what it gave away each time):")
    for gap, count in sorted(merged.values(), key=lambda x: -x[0].loss * x[1])[:shown]:
        print(
            f"  {count:>4} x {100 * gap.loss:.2f} | {gap.situation} | difference {gap.difference:+d} | "
            f"took {gap.taken}: {100 * gap.taken_value:.2f} % (its own value {100 * gap.taken_own:.2f}) | "
            f"best {gap.best}: {100 * gap.best_value:.2f} % (its own value {100 * gap.best_own:.2f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=list(GAMES), help="a game (default: all)")
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals bot:win plays, from both seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", action="store_true", help="bot:win under tie_wins_all=on too")
    parser.add_argument("--json", action="store_true", help="one record a game, a line each")
    parser.add_argument("--save", help="write the records and the machine as one JSON file")
    parser.add_argument(
        "--gaps",
        type=int,
        metavar="DEALS",
        help="instead: where bot:win's decisions lose to the best response",
    )
    args = parser.parse_args()
    if args.gaps:
        for name in args.game or list(GAMES):
            show_gaps(name, args.gaps, args.seed)
        return
    import machine

    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
        print(f"{'game':<30} {'best resp.':>10} {'bot:win (95 %)':>24} {'clairv.':>8} {'share':>6}")
    records = []
    for name in args.game or list(GAMES):
        record = ladder(name, args.deals, args.seed, args.before)
        records.append(record)
        if args.json:
            print(json.dumps(record), flush=True)
            continue
        low, high = 100 * record["bot_win_low"], 100 * record["bot_win_high"]
        win = f"{100 * record['bot_win']:.2f} ({low:.2f}-{high:.2f})"
        best, clairvoyant = 100 * record["best_response"], 100 * record["clairvoyant"]
        print(
            f"{name:<30} {best:>9.2f}% {win:>24} {clairvoyant:>7.2f}% {100 * record['share']:>5.0f}%",
            flush=True,
        )
    machine.finish(ran_on)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as stream:
            json.dump(
                {"machine": ran_on, "deals": args.deals, "seed": args.seed, "records": records},
                stream,
                indent=1,
            )
            stream.write("\n")
    if not args.json:
        print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
