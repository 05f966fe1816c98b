"""Advice for a whole batch of single-column positions, one a line: what ``kniffel advise --batch`` runs.

:func:`run_batch` answers a stream of lines, one position a line: a JSON object (:func:`parse_position`)
or a position's table text as :class:`kniffel.Situation` writes it (``yahtzee | ones=3 | 2 2 3 5 5 |
rolls left 1``), which must be of the rule set the batch advises. A line that cannot be read or describes
an impossible position gets ``{"line": N, "error": "..."}`` instead, and the batch goes on with the next
one. Blank lines are skipped. The lines are read in blocks of up to :data:`BLOCK` (from a pipe or a
terminal, as many as have come: a program that writes one position and waits for its answer gets it, see
:func:`arrivals`), each checked as a single query is (:meth:`kniffel.services.advice.Position.of_column`)
and the block valued in one compiled call: a batch answers each line as a single query would, byte for
byte, several times as fast as one query after another.

The batch's advisor is its goal's (:func:`batch_advisor`: the goal's planner hands out what answers every
position of the column, the solver's :class:`~kniffel.core.Advisor` for the most points,
:class:`~kniffel.planning.winning.TargetOptions` for a final score); anything with ``options(position)``
(and, for blocks, ``ranked``, ``actions``, ``compiled``) answers.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import queue
import stat
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any

import numpy as np

from kniffel.base.errors import KniffelError, SheetError, SituationError
from kniffel.base.i18n import error_text
from kniffel.core import FIELDS, AnswerWriter, ColumnPosition, LineReader, LineStatus, Positions, Progress
from kniffel.engine.sheet import ScoreSheet
from kniffel.engine.situation import Situation
from kniffel.planning import planner_for
from kniffel.planning.interface import ColumnAdvisor, Goal
from kniffel.planning.winning import TargetOptions
from kniffel.rules import RuleSet
from kniffel.services.advice import check_position


def batch_advisor(rules: RuleSet, goal: Goal, progress: Progress | None = None) -> ColumnAdvisor:
    """What answers every position of the one-column ``rules`` for ``goal``: its planner's
    (:meth:`kniffel.planning.interface.Planner.column_advisor`), its tables solved now if they must be
    (``progress(done, total)`` follows a solve that reports it).
    :class:`~kniffel.planning.interface.OthersNeeded` for a goal that plays against other players."""
    return planner_for(rules, goal).column_advisor(progress)


def advise(advisor: Any, rules: RuleSet, s: ColumnPosition) -> list[dict[str, Any]]:
    """Every option of the position, best first, as ``{"action", "value"}`` (full precision)."""
    check_position(rules, s)
    return [{"action": str(o.action), "value": o.value} for o in advisor.options(s)]


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SituationError(f"{key} must be a whole number, got {value!r}")
    return value


_FIELD_SET = frozenset(FIELDS)

# the scanner json.loads itself calls (set in JSONDecoder.__init__; typeshed does not declare it)
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _loads(line: str) -> Any:
    """``json.loads(line)`` for a line that starts with ``{``, through the decoder's scanner (what
    ``loads`` calls, less its own steps); any other line, or one the scanner refuses, through ``loads``
    itself, which says what is wrong (``SituationError``)."""
    if line[:1] == "{":
        try:
            data, end = _SCAN(line, 0)
        except (StopIteration, ValueError):
            pass
        else:
            if end == len(line) or not line[end:].strip(" \t\n\r"):
                return data
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise SituationError(f"not JSON: {error}") from None


def parse_position(rules: RuleSet, line: str, checked: set[tuple[str, int]] | None = None) -> ColumnPosition:
    """One batch line: ``{"sheet": {box: points}, "dice": [...], "rolls_left": n}`` plus the optional
    ``thrown_at_once``, ``free_throws_left`` and ``free_throws_used``. The sheet may also be given as
    the text of ``--sheet``. ``checked`` holds the sheet entries found sound on earlier lines: checking
    an entry passes over every roll, and a batch has the same few hundred entries over and over."""
    data = _loads(line)
    if not isinstance(data, dict):
        raise SituationError("a situation is a JSON object with sheet, dice and rolls_left")
    if not data.keys() <= _FIELD_SET:
        raise SituationError(f"unknown field(s): {', '.join(sorted(data.keys() - _FIELD_SET))}")
    raw = data.get("sheet", {})
    entries: dict[str, int]
    if isinstance(raw, str):
        entries = dict(ScoreSheet.parse(rules, raw).entries)
    elif isinstance(raw, dict):
        for key, points in raw.items():
            if type(points) is not int and (isinstance(points, bool) or not isinstance(points, int)):
                raise SheetError(f"points for {key} must be a whole number, got {points!r}")
            if checked is None or (key, points) not in checked:
                ScoreSheet.from_entries(rules, {key: points})
                if checked is not None:
                    checked.add((key, points))
        entries = raw  # a dict of the line's own, every entry sound
    else:
        raise SheetError("sheet must be an object of box: points")
    from kniffel.base.dice import validate_dice

    if "dice" not in data or "rolls_left" not in data:
        raise SituationError("a situation needs dice and rolls_left")
    dice = validate_dice(data["dice"], rules.dice)
    at_once = data.get("thrown_at_once")
    if at_once is not None and not isinstance(at_once, bool):
        raise SituationError(f"thrown_at_once must be true or false, got {at_once!r}")
    rolls_left = _int(data, "rolls_left")
    if rolls_left is None:
        raise SituationError("rolls_left must be a whole number, got null")
    return ColumnPosition(
        entries,
        dice,
        rolls_left,
        at_once,
        _int(data, "free_throws_left"),
        _int(data, "free_throws_used", 0) or 0,
    )


def parse_line(rules: RuleSet, line: str, checked: set[tuple[str, int]] | None = None) -> ColumnPosition:
    """One batch line: a JSON object (:func:`parse_position`) or a position's table text."""
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # bytes kept by open_batch that are no UTF-8
            raise SituationError("the line is not UTF-8 text") from None
    if line.lstrip().startswith("{"):
        return parse_position(rules, line, checked)
    try:
        situation = Situation.parse(line)
    except KniffelError as error:
        raise SituationError(f"neither JSON nor a situation: {said(error)}") from None
    if situation.rules != rules:
        raise SituationError(f"the situation is one of {situation.rules.id}, the batch advises {rules.id}")
    return ColumnPosition.of_situation(situation)


BATCH_ERRORS = (KniffelError,)
"""What a line that cannot be answered raises (its answer is the error)."""

WORKERS = 2
"""Threads that value and write blocks at once: valuing and writing a line takes some five times as long
as reading it, so two keep two cores busy."""

BLOCK = 512
"""Lines read before the advisor values them, in one compiled call (:meth:`kniffel.core.Advisor.ranked`):
per call the kernel costs about as much as a few situations, per line the Python around it."""


def run_batch(advisor: Any, rules: RuleSet, stream: IO[str], out: IO[str]) -> int:
    """Answer every line of ``stream``; the number of lines that got an error. An
    :class:`~kniffel.core.Advisor` answers a block of lines at a time (:class:`_Blocks`); any other
    advisor (playing for a target) line by line."""
    from kniffel.core import Advisor

    if isinstance(advisor, Advisor):
        return _blocks_of(advisor, rules).run(stream, out)
    errors = 0
    checked: set[tuple[str, int]] = set()
    number = 0
    for block, more in arrivals(stream, BLOCK):
        for line in block:
            number += 1
            if not line.strip():
                continue
            try:
                position = parse_line(rules, line, checked)
                result: dict[str, Any] = {"options": advise(advisor, rules, position)}
                if isinstance(advisor, TargetOptions):  # chances read at the limit are upper bounds
                    result["upper_bound"] = advisor.upper_bound(position)
            except BATCH_ERRORS as error:
                errors += 1
                result = _error(number, error)
            out.write(json.dumps(result) + "\n")
        if not more:
            out.flush()
    out.flush()
    return errors


def _trickles(stream: IO[str]) -> bool:
    """Whether lines may come one at a time with pauses between them (a terminal, a pipe from a program
    that waits for each answer), not all there is at once (a file, text in memory)."""
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError, io.UnsupportedOperation):
        return False
    return not stat.S_ISREG(mode)


def arrivals(stream: IO[str], size: int) -> Iterator[tuple[list[str], bool]]:
    """The lines of ``stream`` in blocks of at most ``size``, each with whether more lines are already
    there. A file gives whole blocks. A pipe or a terminal gives what has arrived, at least a line: a
    program that writes a situation and waits for its answer gets it before it writes the next (a
    thread reads the lines meanwhile; what goes wrong reading them is raised here)."""
    lines = iter(stream)
    if not _trickles(stream):
        while whole := list(itertools.islice(lines, size)):
            yield whole, True
        return
    arrived: queue.Queue[str | BaseException | None] = queue.Queue(maxsize=4 * size)

    def pump() -> None:
        try:
            for line in lines:
                arrived.put(line)
        except BaseException as error:  # raised in the reading thread, handed to the one answering
            arrived.put(error)
        arrived.put(None)

    threading.Thread(target=pump, name="kniffel-batch-input", daemon=True).start()
    block: list[str] = []
    while True:
        if not block:
            item = arrived.get()
        else:
            try:
                item = arrived.get_nowait()
            except queue.Empty:
                yield block, False  # nothing more has come: these are answered now
                block = []
                continue
        if isinstance(item, str):
            block.append(item)
            if len(block) == size:
                yield block, not arrived.empty()
                block = []
            continue
        if block:
            yield block, False
        if item is None:
            return
        raise item


def said(error: BaseException) -> str:
    """What went wrong, in one line (:func:`kniffel.base.i18n.error_text`): a batch answers in English."""
    return error_text("en", error)


def _error(number: int, error: Exception) -> dict[str, Any]:
    return {"line": number, "error": said(error)}


_BLOCKS: weakref.WeakKeyDictionary[Any, _Blocks] = weakref.WeakKeyDictionary()


def prepare_batch(advisor: Any, rules: RuleSet) -> None:
    """Make ready to answer a batch with ``advisor``: the kernels of an advisor answered in blocks
    compiled (a first run takes seconds; a front end can say so meanwhile); any other answers line by
    line, compiling as it goes."""
    from kniffel.core import Advisor

    if isinstance(advisor, Advisor):
        advisor.prepare()
        _blocks_of(advisor, rules).prepare()


def _blocks_of(advisor: Any, rules: RuleSet) -> _Blocks:
    """The batch reader and writer of ``advisor``, made once per advisor (a few milliseconds: a process
    that answers many batches with one table pays them once)."""
    blocks = _BLOCKS.get(advisor)
    if blocks is None or blocks.rules != rules:
        blocks = _BLOCKS[advisor] = _Blocks(advisor, rules)
    return blocks


class _Blocks:
    """``advise --batch`` for an :class:`~kniffel.core.Advisor`: a block of lines is read and checked as
    :func:`advise` checks one (:func:`parse_line`, :func:`check_position`,
    :meth:`~kniffel.core.position.ColumnPosition.encode`), every sound situation of it valued and ranked in
    one call of the advisor's kernel, and the block's answers written by another
    (:func:`kniffel.core.kernels.codec.answer_lines`): the text :func:`json.dumps` writes for
    ``{"options": [{"action", "value"}, ...]}``, from pieces made here once per action. A line with a
    value that kernel does not write goes through :func:`json.dumps` itself."""

    def __init__(self, advisor: Any, rules: RuleSet) -> None:
        self.advisor = advisor
        self.rules = rules
        self.checked: set[tuple[str, int]] = set()
        self.writer = AnswerWriter([[str(a) for a in advisor.actions(free)] for free in (False, True)])
        self.reader = LineReader(advisor.compiled, rules)

    def prepare(self) -> None:
        """Compile the reader's and the writer's kernels, or load them from numba's cache, now rather
        than at the first block (see :meth:`kniffel.core.Advisor.prepare`)."""
        self.read(0, [])
        self.writer.prepare()

    def run(self, stream: IO[str], out: IO[str]) -> int:
        """Answer every line; the number of errors. The kernels of a block (they release the GIL) run in
        one of :data:`WORKERS` threads while the next blocks are read and checked; the answers are
        written in the order of the lines, and at once when no more lines have come
        (:func:`arrivals`)."""
        from collections import deque
        from concurrent.futures import Future, ThreadPoolExecutor

        errors = 0
        number = 0
        pending: deque[Future[str]] = deque()
        with ThreadPoolExecutor(WORKERS) as pool:
            for block, more in arrivals(stream, BLOCK):
                positions, answers = self.read(number, block)
                errors += sum(answer is not None for answer in answers)
                number += len(block)
                if len(pending) == WORKERS:
                    out.write(pending.popleft().result())
                pending.append(pool.submit(self.text, positions, answers))
                if not more:  # the asker may be waiting for these answers before it writes more
                    while pending:
                        out.write(pending.popleft().result())
                    out.flush()
            while pending:
                out.write(pending.popleft().result())
        out.flush()
        return errors

    def read(self, first: int, lines: list[str]) -> tuple[Positions, list[str | None]]:
        """Check ``lines``, the first being line ``first + 1``: the positions of the sound ones, and per
        line that is not blank its error's line or None (the next row's
        options). The compiled reader (:func:`kniffel.core.kernels.codec.read_situations`) reads what
        it can be sure of; the rest, and every line of a block it split otherwise than ``lines`` are
        split, is read here as a single query is."""
        read_in = Positions.empty(len(lines))
        rows, free = read_in.rows, read_in.free
        status = self.reader.read("".join(lines).encode("utf-8", "surrogatepass"), rows, free)
        if not (status == LineStatus.UNREAD).any():
            read = status == LineStatus.READ
            return read_in[read], [None] * int(read.sum())
        errors: dict[int, str] = {}
        rules, advisor, checked = self.rules, self.advisor, self.checked
        for i in np.flatnonzero(status == LineStatus.UNREAD).tolist():
            line = lines[i]
            if not line.strip():
                status[i] = LineStatus.BLANK
                continue
            try:
                s = parse_line(rules, line, checked)
                check_position(rules, s)
                row, is_free = s.encode(advisor.compiled)
            except BATCH_ERRORS as error:
                errors[i] = json.dumps(_error(first + i + 1, error)) + "\n"
                continue
            rows[i] = row
            free[i] = is_free
            status[i] = LineStatus.READ
        read = status == LineStatus.READ
        answers = [errors.get(i) for i in np.flatnonzero(status != LineStatus.BLANK).tolist()]
        return read_in[read], answers

    def text(self, positions: Positions, answers: list[str | None]) -> str:
        rows, free = positions.rows, positions.free
        if not len(rows):
            return "".join(a for a in answers if a is not None)
        codes, values, counts = self.advisor.ranked(positions)
        written, ends = self.writer.write(codes, values, counts, free.astype(np.int64))
        if len(rows) == len(answers) and ends.min() >= 0:
            return written.decode("ascii")
        text: list[str] = []
        row = 0
        start = 0
        for answer in answers:
            if answer is not None:
                text.append(answer)
                continue
            if ends[row] < 0:
                text.append(self.dumped(codes[row], values[row], int(counts[row]), free[row]))
            else:
                text.append(written[start : ends[row]].decode("ascii"))
                start = ends[row]
            row += 1
        return "".join(text)

    def dumped(self, codes: Any, values: Any, count: int, free: bool) -> str:
        """One situation's line through :func:`json.dumps`."""
        actions = self.advisor.actions(free)
        options = [
            {"action": str(actions[c]), "value": v}
            for c, v in zip(codes[:count].tolist(), values[:count].tolist(), strict=True)
        ]
        return json.dumps({"options": options}) + "\n"


__all__ = [
    "BATCH_ERRORS",
    "BLOCK",
    "WORKERS",
    "advise",
    "arrivals",
    "batch_advisor",
    "parse_line",
    "parse_position",
    "prepare_batch",
    "run_batch",
    "said",
]
