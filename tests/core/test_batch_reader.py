"""The compiled reader of ``advise --batch`` (:func:`kniffel.core.kernels.codec.read_situations`): a line
it reads gets exactly the row the Python reader gives it, anything it is not sure of goes to the Python
reader (which reads it or says what is wrong), and the lines batches have are read by it."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kniffel import rules
from kniffel.apps.cli import solving
from kniffel.base.errors import KniffelError
from kniffel.core import Advisor, LineReader, table
from kniffel.core.kernels.codec import BLANK, READ
from kniffel.core.position import ROW
from kniffel.engine.sheet import ScoreSheet
from kniffel.services import advice, batch
from support.batch import batch_situation

pytestmark = pytest.mark.usefixtures("solver_cache")

CASES = [
    ("yahtzee", {"joker": "free"}),
    ("kniffel", {"strict": "on"}),
    ("kniffel", {"sharp": "on"}),
    ("knoeffel", {}),
]


def mutated(line: str, data: dict[str, Any], ruleset: rules.RuleSet, rng: random.Random) -> str:
    """``line`` changed in one of the ways a batch's lines go wrong or differ: other white space, other
    spellings of the same JSON, numbers and values the advisor refuses, fields twice or missing."""
    boxes = [box.id for box in ruleset.boxes]
    sheet = data["sheet"]
    changes: list[Callable[[], str]] = [
        lambda: line.replace(", ", ","),
        lambda: line.replace(": ", ":\t "),
        lambda: " \t" + line + " \r",
        lambda: line + " x",
        lambda: line[:-1],
        lambda: line.replace('"dice"', '"d\\u0069ce"'),
        lambda: line.replace('"rolls_left": ', '"rolls_left": 0'),
        lambda: line.replace('"rolls_left": ', '"rolls_left": -'),
        lambda: re.sub(r'"rolls_left": (\d)', r'"rolls_left": \1.0', line),
        lambda: re.sub(r'"rolls_left": (\d)', r'"rolls_left": \g<1>0', line),
        lambda: re.sub(r'"rolls_left": (\d)', '"rolls_left": true', line),
        lambda: re.sub(r'"rolls_left": (\d)', '"rolls_left": null', line),
        lambda: re.sub(r'"rolls_left": (\d)', '"rolls_left": 1234567890123', line),
        lambda: line[:-1] + ', "rolls_left": 0}',
        lambda: line[:-1] + ', "extra": 1}',
        lambda: json.dumps({k: v for k, v in data.items() if k != "dice"}),
        lambda: json.dumps({k: v for k, v in data.items() if k != "rolls_left"}),
        lambda: json.dumps({**data, "dice": data["dice"][:-1]}),
        lambda: json.dumps({**data, "dice": [*data["dice"], 3]}),
        lambda: json.dumps({**data, "dice": [7, *data["dice"][1:]]}),
        lambda: json.dumps({**data, "dice": []}),
        lambda: json.dumps({**data, "thrown_at_once": None}),
        lambda: json.dumps({**data, "thrown_at_once": 1}),
        lambda: json.dumps({**data, "free_throws_left": None, "free_throws_used": None}),
        lambda: json.dumps({**data, "free_throws_left": rng.randrange(5)}),
        lambda: json.dumps({**data, "free_throws_used": rng.randrange(3)}),
        lambda: json.dumps({**data, "sheet": {**sheet, rng.choice(boxes): rng.randrange(80)}}),
        lambda: json.dumps({**data, "sheet": {**sheet, "nobox": 0}}),
        lambda: json.dumps({**data, "sheet": dict.fromkeys(boxes, 0)}),
        lambda: json.dumps({**data, "sheet": dict.fromkeys(boxes[1:], 0)}),
        lambda: json.dumps({**data, "sheet": {b: 0 for b in boxes[:-1] if rng.random() < 0.7}}),
        lambda: json.dumps({**data, "sheet": " ".join(f"{b}={p}" for b, p in sheet.items()) or "-"}),
        lambda: json.dumps({**data, "sheet": {**sheet, boxes[0]: -1}}),
        lambda: json.dumps({**data, "sheet": {**sheet, boxes[0]: "3"}}),
        lambda: json.dumps(data).replace("{", '{"sheet": {}, ', 1),
        lambda: json.dumps(data, ensure_ascii=False) + " ü",
        lambda: "\x0c" + line,
        lambda: " \t ",
        lambda: "[" + line + "]",
        lambda: "{}",
    ]
    return rng.choice(changes)()


def python_row(advisor: Advisor, ruleset: rules.RuleSet, line: str) -> tuple[list[int], bool] | None:
    """The row the Python reader gives ``line``, None if it refuses it."""
    try:
        s = batch.parse_line(ruleset, line)
        advice.check_position(ruleset, s)
        return s.encode(advisor.compiled)
    except batch.BATCH_ERRORS:
        return None


def compiled(advisor: Advisor, ruleset: rules.RuleSet, lines: list[str]) -> tuple[Any, Any, Any]:
    n = len(lines)
    rows = np.empty((n, ROW), dtype=np.int64)
    free = np.zeros(n, dtype=np.bool_)
    text = "".join(lines).encode("utf-8", "surrogatepass")
    status = LineReader(advisor.compiled, ruleset).read(text, rows, free)
    return status, rows, free


@pytest.mark.parametrize(("rules_id", "options"), CASES, ids=[f"{r}{o}" for r, o in CASES])
def test_a_line_read_compiled_has_the_python_readers_row(rules_id: str, options: dict[str, str]) -> None:
    alone = solving.column_rules(rules.get(rules_id, options), None)
    advisor = Advisor(table(alone))
    rng = random.Random(f"reader {rules_id}{options}")
    sound: list[str] = []
    changed: list[str] = []
    for _ in range(1500):
        data = batch_situation(alone, rng)
        line = json.dumps(data)
        sound.append(line + "\n")
        changed.append(mutated(line, data, alone, rng) + "\n")
    status, rows, free = compiled(advisor, alone, sound)
    assert (status == READ).all(), "a line as json.dumps writes a sound situation is read compiled"
    status, rows, free = compiled(advisor, alone, changed)
    for line, st, row, is_free in zip(changed, status.tolist(), rows.tolist(), free.tolist(), strict=True):
        if st == BLANK:
            assert not line.strip(" \t\r\n")
        elif st == READ:
            assert python_row(advisor, alone, line) == (row, is_free), line
    taken = sum(python_row(advisor, alone, line) is not None for line in changed if line.strip())
    read = int((status == READ).sum())
    assert 0.4 * taken < read <= taken  # the reader takes many changed lines, never one Python refuses


def test_the_tables_are_the_python_checks() -> None:
    """The points each box may hold and the sheets the fill order allows, as the reader has them, are
    what :meth:`ScoreSheet.from_entries` and :meth:`ScoreSheet.check_fill_order` say."""
    alone = solving.column_rules(rules.get("kniffel", {"strict": "on", "sharp": "on"}), None)
    advisor = Advisor(table(alone))
    tables = LineReader(advisor.compiled, alone).tables
    sound, in_order = tables.sound, tables.in_order
    ids = [box.id for box in alone.boxes]
    for b, key in enumerate(ids):
        for points in range(sound.shape[1] + 10):
            try:
                ScoreSheet.from_entries(alone, {key: points})
                holds = True
            except KniffelError:
                holds = False
            assert holds == (points < sound.shape[1] and bool(sound[b, points])), (key, points)
    compiled_rules = advisor.compiled
    for mask in range(1 << len(ids)):
        try:
            ScoreSheet(alone, {k: 0 for b, k in enumerate(ids) if mask >> b & 1}).check_fill_order()
            ordered = True
        except KniffelError:
            ordered = False
        if compiled_rules.allowed[mask]:
            assert bool(in_order[mask]) == ordered, mask
        else:
            assert not in_order[mask] or mask == compiled_rules.full_mask


def test_a_block_split_otherwise_goes_to_the_python_reader() -> None:
    """A block whose lines hold a line break (a caller's own splitting) is read line by line in Python,
    every answer still in its place."""
    alone = solving.column_rules(rules.get("yahtzee", {"joker": "free"}), None)
    advisor = Advisor(table(alone))
    line = json.dumps({"sheet": {"ones": 3}, "dice": [1, 1, 2, 3, 6], "rolls_left": 1})
    blocks = batch._blocks_of(advisor, alone)
    positions, answers = blocks.read(0, [line + "\n", line + "\n" + line + "\n", line])
    rows = positions.rows
    assert len(rows) == 2
    assert answers[0] is None
    assert answers[1] is not None
    assert json.loads(answers[1])["line"] == 2
    assert (rows[0] == rows[1]).all()


def test_a_program_asking_through_a_pipe_gets_each_answer_before_its_next_question() -> None:
    """``advise --batch -`` as a co-process: a line written and flushed is answered while stdin stays
    open (the batch does not wait for a block of lines), the next one too, then the end of the input
    ends it; a file's lines come in whole blocks (nothing to wait for)."""
    import os
    import selectors
    import subprocess
    import sys

    command = [sys.executable, "-m", "kniffel", "advise", "-r", "yahtzee", "--option", "joker=free"]
    process = subprocess.Popen(
        [*command, "--batch", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    assert process.stdin is not None
    assert process.stdout is not None
    waiting = selectors.DefaultSelector()
    waiting.register(process.stdout, selectors.EVENT_READ)
    try:
        for dice, bad in (([1, 1, 2, 3, 6], False), ([6, 6, 6, 6, 6], False), ([0, 1, 2, 3, 4], True)):
            process.stdin.write(json.dumps({"sheet": {}, "dice": dice, "rolls_left": 1}) + "\n")
            process.stdin.flush()
            # the first answer waits for the start-up and the table (generous: a loaded machine)
            assert waiting.select(timeout=120), "no answer while stdin stays open"
            answer = json.loads(process.stdout.readline())
            assert ("error" in answer) == bad
            if not bad:
                assert answer["options"][0]["value"] > 0
        process.stdin.close()
        assert process.wait(timeout=60) == 2  # one line had an error
    finally:
        process.kill()
        process.wait()
    assert not batch._trickles(io.StringIO("x\n"))


def test_arrivals_gives_what_has_come_and_raises_what_reading_raised() -> None:
    import os
    import threading

    read_end, write_end = os.pipe()
    writer = os.fdopen(write_end, "w")
    with os.fdopen(read_end, encoding="utf-8") as stream:
        blocks = batch.arrivals(stream, 3)
        writer.write("a\n")
        writer.flush()
        assert next(blocks) == (["a\n"], False)
        writer.write("b\nc\nd\ne\n")
        writer.flush()
        threading.Event().wait(0.5)  # the reading thread has them all
        assert next(blocks) == (["b\n", "c\n", "d\n"], True)
        assert next(blocks) == (["e\n"], False)
        writer.close()
        assert list(blocks) == []
    with open(os.devnull, "rb") as null:
        broken = io.TextIOWrapper(io.BytesIO(b"ok\n\xff\n"), encoding="utf-8")
        broken.fileno = null.fileno  # type: ignore[method-assign]  # a pipe's bytes, read in a thread
        assert batch._trickles(broken)
        with pytest.raises(UnicodeDecodeError):
            list(batch.arrivals(broken, 8))
