"""numba kernels of ``advise --batch``'s text: the situations of its JSON lines read straight into
their rows, and the JSON lines of the answers written as :mod:`json` writes them."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from kniffel.core.kernels.batch import SheetRules, state_fields, turn_fields, turn_problem
from kniffel.core.kernels.records import borrowing, wide

# --- the situations of batch lines ---------------------------------------------------------------------
#
# ``advise --batch`` reads a line as :func:`json.loads` and checks it as a single query is checked, some
# 15 microseconds of Python a line, more than valuing it. :func:`read_situations` reads the lines most
# batches have, a JSON object of the fields below with whole numbers, straight into their rows; a line
# it cannot be sure of (anything else: text situations, escapes, other numbers, a sheet as text, a field
# twice, any mistake) it leaves to the Python reader, which reads it or words what is wrong with it.

READ = 0
"""A line read into its row."""
BLANK = 1
"""A line of JSON white space only."""
UNREAD = 2
"""A line left to the Python reader."""

FIELDS = ("sheet", "dice", "rolls_left", "thrown_at_once", "free_throws_left", "free_throws_used")
"""The fields of a batch line's JSON object, in the order of the reader's codes."""
_SHEET, _DICE, _ROLLS_LEFT, _AT_ONCE, _FREE_LEFT, _FREE_USED = range(len(FIELDS))

_NOT = (-1, -1)


class ReaderTables(NamedTuple):
    """What :func:`read_situations` reads lines with (numba passes it as one struct): the field and box
    names (:func:`names_array`), the points ``p`` each box may hold (``sound[box, p]``), the sheets the
    fill order allows (``in_order[mask]``), the row of each roll by its code (``roll_of``, see
    :func:`face_code`), what a sheet's state is read with (``sheet``), and the compiled rules' numbers of
    the same names (:class:`kniffel.core.tables.Compiled`; ``n_dice``, ``rolls``, ``free_throws`` and
    ``per_turn`` the rule set's)."""

    fields: Any
    field_starts: Any
    boxes: Any
    box_starts: Any
    sound: Any
    in_order: Any
    roll_of: Any
    sheet: SheetRules
    n_dice: int
    rolls: int
    free_throws: int
    per_turn: int
    free_per_turn: int
    n_at_once: int


@njit(cache=True, nogil=True, inline="always")
def face_code(face: int, n_dice: int) -> int:  # pragma: no cover
    """A die's part of its roll's code: the code of a roll of ``n_dice`` dice is the sum of its dice's,
    the count of each face ``f`` times ``(n_dice + 1) ** (f - 1)``, one number per roll."""
    return int((n_dice + 1) ** (face - 1))


def names_array(names: Any) -> tuple[Any, Any]:
    """``names`` (strings) as one array of their ASCII bytes and the start of each (and the end)."""
    encoded = [name.encode("ascii") for name in names]
    starts = np.cumsum([0, *map(len, encoded)], dtype=np.int64)
    return np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), starts


@njit(cache=True, nogil=True, inline="always")
def _space(text: Any, pos: int, end: int) -> int:  # pragma: no cover
    """The position after JSON white space from ``pos``."""
    while pos < end and (text[pos] == 32 or text[pos] == 10 or text[pos] == 13 or text[pos] == 9):
        pos += 1
    return pos


@borrowing
def _number(text: Any, pos: int, end: int) -> tuple[int, int]:  # pragma: no cover
    """A whole number of at most 9 digits at ``pos``, as JSON writes it, and the position after it;
    position -1 for anything else."""
    start = pos
    value = 0
    while pos < end and 48 <= text[pos] <= 57:
        value = value * 10 + int(text[pos]) - 48
        pos += 1
    if pos == start or pos - start > 9 or (text[start] == 48 and pos - start > 1):
        return _NOT
    return value, pos


@borrowing
def _name(text: Any, pos: int, end: int, names: Any, starts: Any) -> tuple[int, int]:  # pragma: no cover
    """The JSON string at ``pos`` as the index of the name it is (``names``, ``starts`` as
    :func:`names_array` makes them) and the position after it; ``(-1, -1)`` for another string, one
    with an escape or a byte outside printable ASCII, or no string."""
    if pos >= end or text[pos] != 34:
        return _NOT
    pos += 1
    first = pos
    while pos < end and text[pos] != 34:
        if text[pos] == 92 or text[pos] < 32 or text[pos] >= 127:
            return _NOT
        pos += 1
    if pos >= end:
        return _NOT
    length = pos - first
    for i in range(starts.shape[0] - 1):
        if starts[i + 1] - starts[i] != length:
            continue
        same = True
        for k in range(length):
            if names[starts[i] + k] != text[first + k]:
                same = False
                break
        if same:
            return i, pos + 1
    return _NOT


_WORDS = np.frombuffer(b"falsetruenull", dtype=np.uint8)
_WORD_STARTS = np.array([0, 5, 9, 13], dtype=np.int64)


@borrowing
def _word(text: Any, pos: int, end: int) -> tuple[int, int]:  # pragma: no cover
    """``false``, ``true`` or ``null`` at ``pos`` as 0, 1 or 2, and the position after it."""
    for word in range(3):
        first, after = _WORD_STARTS[word], _WORD_STARTS[word + 1]
        length = after - first
        if pos + length <= end:
            same = True
            for k in range(length):
                if text[pos + k] != _WORDS[first + k]:
                    same = False
                    break
            if same:
                return word, pos + length
    return _NOT


@borrowing
def _read_line(
    text: Any, pos: int, end: int, t: ReaderTables, row: Any
) -> tuple[int, bool]:  # pragma: no cover
    """One line of :func:`read_situations`: its status, and whether its throw is a free one."""
    pos = _space(text, pos, end)
    if pos == end:
        return BLANK, False
    if text[pos] != 123:  # {
        return UNREAD, False
    pos = _space(text, pos + 1, end)
    seen = 0
    mask = 0
    up = 0
    five_points = 0
    n_dice = 0
    roll = 0  # the roll's code (face_code)
    rolls_left = -1
    at_once_given = False
    thrown_at_once = False
    free_given = False
    free_left = 0
    used = 0
    while True:
        field, pos = _name(text, pos, end, t.fields, t.field_starts)
        if field < 0 or seen >> field & 1:
            return UNREAD, False
        seen |= 1 << field
        pos = _space(text, pos, end)
        if pos >= end or text[pos] != 58:  # :
            return UNREAD, False
        pos = _space(text, pos + 1, end)
        if pos >= end:
            return UNREAD, False
        if field == _SHEET:
            if text[pos] != 123:
                return UNREAD, False
            pos = _space(text, pos + 1, end)
            if pos < end and text[pos] == 125:  # }
                pos += 1
            else:
                while True:
                    box, pos = _name(text, pos, end, t.boxes, t.box_starts)
                    if box < 0 or mask >> box & 1:
                        return UNREAD, False
                    pos = _space(text, pos, end)
                    if pos >= end or text[pos] != 58:
                        return UNREAD, False
                    points, pos = _number(text, _space(text, pos + 1, end), end)
                    if pos < 0 or points >= t.sound.shape[1] or not t.sound[box, points]:
                        return UNREAD, False
                    mask |= 1 << box
                    if t.sheet.upper_mask >> box & 1:
                        up += points
                    if box == t.sheet.five:
                        five_points = points
                    pos = _space(text, pos, end)
                    if pos < end and text[pos] == 44:  # ,
                        pos = _space(text, pos + 1, end)
                    elif pos < end and text[pos] == 125:
                        pos += 1
                        break
                    else:
                        return UNREAD, False
        elif field == _DICE:
            if text[pos] != 91:  # [
                return UNREAD, False
            pos = _space(text, pos + 1, end)
            while True:
                face, pos = _number(text, pos, end)
                if pos < 0 or not 1 <= face <= 6 or n_dice == t.n_dice:
                    return UNREAD, False
                n_dice += 1
                roll += face_code(face, t.n_dice)
                pos = _space(text, pos, end)
                if pos < end and text[pos] == 44:
                    pos = _space(text, pos + 1, end)
                elif pos < end and text[pos] == 93:  # ]
                    pos += 1
                    break
                else:
                    return UNREAD, False
        elif field == _ROLLS_LEFT:
            rolls_left, pos = _number(text, pos, end)
        elif field == _AT_ONCE:
            word, pos = _word(text, pos, end)
            at_once_given = word < 2
            thrown_at_once = word == 1
        else:
            word, after = _word(text, pos, end)
            if word == 2:
                pos = after
            elif field == _FREE_LEFT:
                free_left, pos = _number(text, pos, end)
                free_given = True
            else:
                used, pos = _number(text, pos, end)
        if pos < 0:
            return UNREAD, False
        pos = _space(text, pos, end)
        if pos < end and text[pos] == 44:
            pos = _space(text, pos + 1, end)
        elif pos < end and text[pos] == 125:
            break
        else:
            return UNREAD, False
    if _space(text, pos + 1, end) != end or seen >> _DICE & 1 == 0 or seen >> _ROLLS_LEFT & 1 == 0:
        return UNREAD, False
    if n_dice != t.n_dice or mask == t.sheet.full_mask or not t.in_order[mask]:
        return UNREAD, False
    if turn_problem(rolls_left, free_given, free_left, used, t.rolls, t.free_throws, t.per_turn) != 0:
        return UNREAD, False
    problem, up, armed, free = state_fields(mask, up, five_points, free_given, free_left, t.sheet)
    if problem != 0:
        return UNREAD, False
    at_once, sweep_free, usable, throws, free_throw = turn_fields(
        rolls_left, at_once_given, thrown_at_once, free, used, t.rolls, t.n_at_once, t.free_per_turn
    )
    row[0] = mask
    row[1] = armed
    row[2] = up
    row[3] = free
    row[4] = t.roll_of[roll]
    row[5] = at_once
    row[6] = sweep_free
    row[7] = usable
    row[8] = throws
    return READ, free_throw


@borrowing
def read_situations(text: Any, t: ReaderTables, rows: Any, free: Any, status: Any) -> int:  # pragma: no cover
    """Read the lines of ``text`` (UTF-8 bytes, lines ending in a newline, the last one perhaps not):
    ``status[i]`` of line ``i`` (:data:`READ`, :data:`BLANK`, :data:`UNREAD`) and, for a line read, its
    row ``rows[i]`` (:meth:`kniffel.core.position.ColumnPosition.encode`) and whether its throw is a free one,
    ``free[i]``. Returns the number of lines (one more than there are rows if there are more: then
    nothing past the rows is read). A line is read only if it is a JSON object of
    :data:`FIELDS` that ``advise`` takes as it is (by the tables ``t``): whole numbers without sign, box
    names in the sheet, each holding points it may hold, boxes filled as the fill order allows."""
    n = 0
    start = wide(0)
    size = text.shape[0]
    while start < size:
        if n == status.shape[0]:
            return n + 1  # more lines than rows: the caller's lines are split otherwise
        end = start
        while end < size and text[end] != 10:
            end += 1
        status[n], free[n] = _read_line(text, start, end, t, rows[n])
        n += 1
        start = end + 1
    return n


# --- the text of the answers ------------------------------------------------------------------------------
#
# ``advise --batch`` writes each value as :mod:`json` does, which is ``repr``: the shortest decimal that
# reads back as the same float, the nearest one if there are several, in positional notation. Python
# formats some 2 million values a second that way, so writing the values took as long as everything else
# together; :func:`float_text` writes the same text here. It covers the values advice has, from 1/1000
# below 2**50 (and 0); the caller formats any other with ``repr``.

_U32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_TEN = np.uint64(10)
_FIVE = np.uint64(5)
_POWERS = np.array([5**n for n in range(25)], dtype=np.uint64)
"""``5**n``: ``10**n`` is ``5**n * 2**n``, and the factor 2 goes into the shift."""
_POWERS_OF_TEN = np.array([10**n for n in range(20)], dtype=np.uint64)
_NONE = np.frombuffer(b'{"options": []}\n', dtype=np.uint8)
_CLOSE = np.frombuffer(b"}]}\n", dtype=np.uint8)


@njit(cache=True, nogil=True, inline="always")
def _mul(a: Any, b: Any) -> tuple[Any, Any]:  # pragma: no cover
    """The 128-bit product of two 64-bit unsigned numbers, as (high, low) halves."""
    a_lo, a_hi = a & _U32, a >> _S32
    b_lo, b_hi = b & _U32, b >> _S32
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    mid = (p0 >> _S32) + (p1 & _U32) + (p2 & _U32)
    return p3 + (p1 >> _S32) + (p2 >> _S32) + (mid >> _S32), (p0 & _U32) | (mid << _S32)


@njit(cache=True, nogil=True, inline="always")
def _shift(hi: Any, lo: Any, s: int) -> tuple[Any, bool, bool, bool]:  # pragma: no cover
    """``(hi, lo) >> s`` for 2 <= s < 128 (the quotient must fit in 64 bits; the last flag says whether
    it did), whether the remainder is at least half of ``2**s``, and whether it has any bit below that
    half (remainder 0: neither; exactly half: only the first)."""
    if s >= 64:
        q = hi >> np.uint64(s - 64)
        fits = True
    else:
        q = (lo >> np.uint64(s)) | (hi << np.uint64(64 - s))
        fits = (hi >> np.uint64(s)) == _ZERO
    h = s - 1
    if h >= 64:
        half = (hi >> np.uint64(h - 64)) & _ONE == _ONE
        below = lo != _ZERO or hi & ((_ONE << np.uint64(h - 64)) - _ONE) != _ZERO
    else:
        half = (lo >> np.uint64(h)) & _ONE == _ONE
        below = lo & ((_ONE << np.uint64(h)) - _ONE) != _ZERO
    return q, half, below, fits


@njit(cache=True, nogil=True, inline="always")
def _candidates(low: Any, high: Any, even: bool, k: int, n: int) -> tuple[Any, Any, bool]:  # pragma: no cover
    """The integers ``D`` with ``D / 10**n`` between ``low / 2**(k + 2)`` and ``high / 2**(k + 2)``
    (both ends included when ``even``), as ``first .. last``, and whether the figures fit."""
    s = k + 2 - n
    if s < 2:
        return _ONE, _ZERO, False
    hi, lo = _mul(low, _POWERS[n])
    q, half, below, fits = _shift(hi, lo, s)
    first = q if (not half and not below and even) else q + _ONE
    hi, lo = _mul(high, _POWERS[n])
    q, half, below, fits2 = _shift(hi, lo, s)
    last = q if (half or below or even) else q - _ONE
    return first, last, fits and fits2


@borrowing
def float_text(v: float, bits: Any, out: Any, pos: int) -> int:  # pragma: no cover
    """Write ``repr(v)`` into ``out[pos:]`` (bytes), ``bits`` being the float's bits as an unsigned
    integer; the position after it, or -1 (nothing written) for a value out of the range covered (see
    above).

    The float is ``m * 2**-k``; the decimals that read back as it lie within half a unit of its last
    place on either side (both ends included when ``m`` is even, as reading rounds a tie to even). With
    ``n`` digits after the point, those are the integers ``D`` between the ends times ``10**n``, exact in
    128 bits. They are found once for an ``n`` of 18 or 19 significant digits (17 always have one); the
    shortest text is the least ``n`` that still has one, and ``D`` has a multiple of ``10**j`` between
    them exactly when the ends divided by ``10**j``, rounded inwards, still meet. Of the ``D`` at that
    ``n``, the nearest to ``v * 10**n`` is the one ``repr`` writes (of two as near, the even one: from
    ``2**49`` on, where the last place is worth 1/8 or more)."""
    if v == 0.0:
        if bits >> np.uint64(63) == _ONE:
            out[pos] = 45  # -
            pos += 1
        out[pos], out[pos + 1], out[pos + 2] = 48, 46, 48  # 0.0
        return pos + 3
    a = abs(v)
    if not 0.001 <= a < 2.0**50:
        return -1
    exponent = int((bits >> np.uint64(52)) & np.uint64(0x7FF))
    fraction = bits & ((_ONE << np.uint64(52)) - _ONE)
    m = fraction | (_ONE << np.uint64(52))
    k = 1075 - exponent  # |v| = m * 2**-k
    even = m & _ONE == _ZERO
    # the ends and the value, times 4 so that the nearer lower end at a power of two is whole
    low = (m << np.uint64(2)) - (np.uint64(1) if fraction == _ZERO else np.uint64(2))
    high = (m << np.uint64(2)) + np.uint64(2)
    # floor(log10 |v|) is floor((exponent - 1023) * log10 2) or one more (78913 / 2**18 is log10 2 to
    # the precision needed here): 18 significant digits at least
    n = max(0, 17 - (((exponent - 1023) * 78913) >> 18))
    first, last, fits = _candidates(low, high, even, k, n)
    if not fits or first > last:
        return -1
    while n > 0:
        shorter_first = (first + _TEN - _ONE) // _TEN
        shorter_last = last // _TEN
        if shorter_first > shorter_last:
            break
        first, last, n = shorter_first, shorter_last, n - 1
    hi, lo = _mul(m << np.uint64(2), _POWERS[n])
    q, half, below, _ = _shift(hi, lo, k + 2 - n)
    tie = half and not below  # halfway between two: the even one, as repr has it
    digits = min(max(q + (q & _ONE) if tie else (q + _ONE if half else q), first), last)
    if v < 0.0:
        out[pos] = 45
        pos += 1
    # the digits with the point n from the end (a leading "0." below 1, a trailing ".0" if n = 0)
    count = 1
    while count < 20 and digits >= _POWERS_OF_TEN[count]:
        count += 1
    count = max(count, n + 1)
    end = pos + count + 1 + (1 if n == 0 else 0)
    i = end - 1
    if n == 0:
        out[i] = 48
        out[i - 1] = 46
        i -= 2
    for place in range(count):
        rest = digits // _TEN  # and not digits % 10 as well: numba divides twice for that
        out[i] = 48 + int(digits - rest * _TEN)
        digits = rest
        i -= 1
        if place + 1 == n:
            out[i] = 46
            i -= 1
    return end


@borrowing
def answer_lines(
    codes: Any, values: Any, counts: Any, kinds: Any, pieces: Any, starts: Any, out: Any, ends: Any
) -> int:  # pragma: no cover
    """The JSON line of each situation ranked by :func:`ranked_options`, ``{"options": [{"action": ...,
    "value": ...}, ...]}`` as :func:`json.dumps` writes it, one after the other into ``out`` (bytes).
    ``pieces[starts[p]:starts[p + 1]]`` is piece ``p``, what comes before a value: for the option code
    ``c`` of a situation whose throws are of kind ``kinds[i]`` (0 regular, 1 free), piece ``c + n * (2 *
    kind + later)``, ``later`` 0 for the first option of the line and 1 for the others, ``n`` the number
    of codes. ``ends[i]`` is where line ``i`` ends, -1 if one of its values is out of :func:`float_text`'s
    range (nothing written: the caller writes that line). Returns the end of the text."""
    n_codes = (starts.shape[0] - 1) // 4
    bits = values.view(np.uint64)
    pos: int = wide(0)
    for i in range(codes.shape[0]):
        begin = pos
        if counts[i] == 0:
            for byte in _NONE:
                out[pos] = byte
                pos += 1
            ends[i] = pos
            continue
        for j in range(counts[i]):
            p = codes[i, j] + n_codes * (2 * kinds[i] + (1 if j > 0 else 0))
            for b in range(starts[p], starts[p + 1]):
                out[pos] = pieces[b]
                pos += 1
            pos = float_text(values[i, j], bits[i, j], out, pos)
            if pos < 0:
                break
        if pos < 0:
            pos = begin
            ends[i] = -1
            continue
        for byte in _CLOSE:
            out[pos] = byte
            pos += 1
        ends[i] = pos
    return pos
