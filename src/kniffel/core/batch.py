"""Batch advice's compiled reading and writing (``kniffel advise --batch``): what makes a position's
throws impossible, the JSON lines of positions read straight into their rows (:class:`LineReader`) and
the answers' JSON lines written as :mod:`json` writes them (:class:`AnswerWriter`). The kernels are
:mod:`kniffel.core.kernels.batch` and :mod:`kniffel.core.kernels.codec`; the batch itself (blocks,
errors, threads) is :mod:`kniffel.services.advice`'s."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from json.encoder import encode_basestring_ascii

import numpy as np

from kniffel.base.arrays import F64, I64
from kniffel.base.errors import KniffelError
from kniffel.core.kernels import batch, codec
from kniffel.core.tables import Compiled
from kniffel.rules import RuleSet

FIELDS = codec.FIELDS
"""The fields of a batch line's JSON object."""


class ThrowProblem(IntEnum):
    """What makes a position's throws impossible (:func:`throw_problem`); front ends word each."""

    NONE = 0
    ROLLS_LEFT = batch.ROLLS_LEFT
    NO_FREE_THROWS = batch.NO_FREE_THROWS
    FREE_LEFT = batch.FREE_LEFT
    FREE_USED = batch.FREE_USED
    FREE_BEFORE_ROLLS = batch.FREE_BEFORE_ROLLS


def throw_problem(rules: RuleSet, rolls_left: int, free_left: int | None, free_used: int) -> ThrowProblem:
    """What is wrong with a position's throws under ``rules`` (``free_left`` None: not given), checked as
    the compiled reader checks a line."""
    problem = batch.turn_problem.py_func(
        rolls_left,
        free_left is not None,
        free_left or 0,
        free_used,
        rules.rolls,
        rules.free_throws,
        rules.free_throws_per_turn,
    )
    return ThrowProblem(problem)


class LineStatus(IntEnum):
    """What :meth:`LineReader.read` made of a line."""

    READ = codec.READ
    BLANK = codec.BLANK
    UNREAD = codec.UNREAD
    """Left to the Python reader, which reads it or words what is wrong with it."""


class LineReader:
    """Reads the JSON lines of positions of ``rules`` (compiled as ``compiled``) that ``advise`` takes as
    they are straight into their rows: the fields and box names, the points each box may hold (those
    :meth:`~kniffel.engine.sheet.ScoreSheet.from_entries` lets it hold), the filled boxes the fill order
    allows (:meth:`~kniffel.engine.sheet.ScoreSheet.check_fill_order`) and the rows of the rolls."""

    def __init__(self, compiled: Compiled, rules: RuleSet) -> None:
        from kniffel.base.keeps import keep_lattice
        from kniffel.engine.sheet import ScoreSheet, possible_points

        c = compiled
        ids = [box.id for box in rules.boxes]
        assert [rules.box_index[i] for i in ids] == list(range(len(ids)))
        fields, field_starts = codec.names_array(FIELDS)
        boxes, box_starts = codec.names_array(ids)
        # a box holds the points from_entries lets it hold: those of possible_points, and no others
        possible = [sorted(possible_points(rules, key)) for key in ids]
        sound = np.zeros((len(ids), max(p[-1] for p in possible) + 1), dtype=np.bool_)
        for b, key in enumerate(ids):
            for points in possible[b]:
                try:
                    ScoreSheet.from_entries(rules, {key: points})
                except KniffelError:
                    continue
                sound[b, points] = True
        # check_fill_order passes any sheet of columns without a fixed order, and it is asked only about
        # the sheets a fixed order reaches (the others the advisor refuses): a few dozen
        in_order = np.ones(1 << len(ids), dtype=np.bool_)
        if any(column.order.sequential for column in rules.columns):
            in_order[:] = False
            for mask in np.flatnonzero(c.allowed).tolist():
                try:
                    ScoreSheet(
                        rules, {key: 0 for b, key in enumerate(ids) if mask >> b & 1}
                    ).check_fill_order()
                except KniffelError:
                    continue
                in_order[mask] = True
        keeps = keep_lattice(rules.dice)
        roll_of = np.full((rules.dice + 1) ** 6, -1, dtype=np.int64)
        for roll in keeps.rolls:
            roll_of[sum(codec.face_code.py_func(face, rules.dice) for face in roll)] = keeps.roll_index(roll)
        self.tables = codec.ReaderTables(
            fields, field_starts, boxes, box_starts, sound, in_order, roll_of, c.sheet_rules,
            n_dice=rules.dice, rolls=rules.rolls, free_throws=rules.free_throws,
            per_turn=rules.free_throws_per_turn, free_per_turn=int(c.free_per_turn),
            n_at_once=int(c.n_at_once),
        )  # fmt: skip

    def read(self, text: bytes, rows: I64, free: np.ndarray[tuple[int], np.dtype[np.bool_]]) -> I64:
        """The :class:`LineStatus` of each line of ``text`` (UTF-8, a line a row of ``rows``), and the row
        of each line read (:meth:`kniffel.core.ColumnPosition.encode`) and whether its throw is a free one;
        every line :attr:`LineStatus.UNREAD` if ``text`` holds more lines than ``rows``."""
        status = np.empty(len(rows), dtype=np.int64)
        data = np.frombuffer(text, dtype=np.uint8)
        if codec.read_situations(data, self.tables, rows, free, status) != len(rows):
            status[:] = LineStatus.UNREAD
        return status


class AnswerWriter:
    """Writes the JSON line ``{"options": [{"action": ..., "value": ...}, ...]}`` of ranked options as
    :func:`json.dumps` writes it, from the text of each option's action (``actions[kind]``: kind 0 for a
    regular throw's options, 1 for a free throw's), made once into the pieces before each value."""

    def __init__(self, actions: Sequence[Sequence[str]]) -> None:
        pieces = [
            (lead + encode_basestring_ascii(text) + ', "value": ').encode("ascii")
            for kind in actions
            for lead in ('{"options": [{"action": ', '}, {"action": ')
            for text in kind
        ]
        self.pieces = np.frombuffer(b"".join(pieces), dtype=np.uint8)
        self.starts = np.cumsum([0, *map(len, pieces)], dtype=np.int64)
        self.longest = max(map(len, pieces)) + 32  # a value takes at most 25 bytes

    def prepare(self) -> None:
        """Compile the writer's kernel, or load it from numba's cache, now rather than at the first block."""
        empty = np.empty((0, 1), dtype=np.int64)
        no_rows = np.empty(0, dtype=np.int64)
        out = np.empty(0, dtype=np.uint8)
        codec.answer_lines(empty, np.empty((0, 1)), no_rows, no_rows, self.pieces, self.starts, out, no_rows)

    def write(self, codes: I64, values: F64, counts: I64, kinds: I64) -> tuple[bytes, I64]:
        """The lines of the ranked options (:meth:`kniffel.core.Advisor.ranked`) of positions whose throws
        are of kind ``kinds[i]``, one after the other, and where each line ends: -1 for a line with a
        value the writer does not write (nothing written for it: the caller writes that line)."""
        buffer = np.empty(int(counts.sum()) * self.longest + 16 * len(codes), dtype=np.uint8)
        ends = np.empty(len(codes), dtype=np.int64)
        end = codec.answer_lines(codes, values, counts, kinds, self.pieces, self.starts, buffer, ends)
        return buffer[:end].tobytes(), ends
