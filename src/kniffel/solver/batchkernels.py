"""numba kernels of the advisor's listing: every option of many situations, valued and ranked in one
call, and the JSON text of the answers of ``advise --batch``.

The values come from :func:`kniffel.solver.kernels.situation_values` (the DP's own kernels); this module
lists them: the boxes a roll may go in, then the keeps the roll may be thrown
from (if a throw is left), ranked best first. :meth:`kniffel.solver.Advisor.options` asks it about one
situation, ``advise --batch`` about a block of them, so a query and a batch list the same options in the
same order with the same values.

An option is a *code*: ``box`` for scoring in that box, ``n_boxes + keep`` for holding ``keep`` and
throwing the rest (a free throw or a regular one: the situation says which, the code does not).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from kniffel.solver.kernels import NEG


@njit(cache=True, nogil=True)
def ranked_options(
    situations: Any, boxes: Any, keeps: Any, choices: Any, codes: Any, ranked: Any, counts: Any
) -> None:  # pragma: no cover
    """For each situation ``situations[i]`` valued by :func:`~kniffel.solver.kernels.situation_values`
    (``boxes``, ``keeps``): ``counts[i]`` options, their codes ``codes[i, :counts[i]]`` and values
    ``ranked[i, :counts[i]]``, best first. Ties keep the order before ranking, boxes as the rules list
    them, then the keeps roll ``situations[i, 4]`` may be thrown from as ``choices[roll]`` lists them
    (``-1`` pads its row); a box the roll may not go in is not an option, nor is any keep when no throw
    is left (``situations[i, 8]`` < 0). ``codes`` and ``ranked`` need ``n_boxes + choices.shape[1]``
    columns. (Its own kernel, not one calling ``situation_values``: a level of calls more would compile
    the DP's sweep once more on a first run.)"""
    n = situations.shape[0]
    n_boxes = boxes.shape[1]
    for i in range(n):
        count = 0
        for b in range(n_boxes + choices.shape[1]):
            if b < n_boxes:
                code = b
                value = boxes[i, b]
                if value == NEG:
                    continue
            else:
                if situations[i, 8] < 0:
                    break
                keep = choices[situations[i, 4], b - n_boxes]
                if keep < 0:
                    break
                code = n_boxes + keep
                value = keeps[i, keep]
            # insertion after every option worth as much: a stable ranking, best first
            j = count
            while j > 0 and ranked[i, j - 1] < value:
                ranked[i, j] = ranked[i, j - 1]
                codes[i, j] = codes[i, j - 1]
                j -= 1
            ranked[i, j] = value
            codes[i, j] = code
            count += 1
        counts[i] = count


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


@njit(cache=True, nogil=True)
def float_text(v: float, bits: Any, out: Any, pos: int) -> int:  # pragma: no cover
    """Write ``repr(v)`` into ``out[pos:]`` (bytes), ``bits`` being the float's bits as an unsigned
    integer; the position after it, or -1 (nothing written) for a value out of the range covered (see
    above).

    The float is ``m * 2**-k``; the decimals that read back as it lie within half a unit of its last
    place on either side (both ends included when ``m`` is even, as reading rounds a tie to even). With
    ``n`` digits after the point, those are the integers ``D`` between the ends times ``10**n``, exact in
    128 bits; the least ``n`` that has one gives the shortest text (any larger ``n`` has one too, so it
    is found by bisection), and of its ``D`` the nearest to ``v * 10**n`` is the one ``repr`` writes (of
    two as near, the even one: from ``2**49`` on, where the last place is worth 1/8 or more)."""
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
    # 17 significant digits always have a candidate (18 here, should the logarithm be off by one); the
    # values advice has mostly need 15 to 17, so 16 and 15 are tried first, then the rest bisected
    lo_n, hi_n = -1, max(0, 17 - int(np.floor(np.log10(a))))  # no candidate at lo_n; one at hi_n
    first, last = _ONE, _ZERO  # the candidates at hi_n, once known
    for n in (hi_n - 2, hi_n - 3, -1):
        if n <= lo_n:
            break
        f, t, fits = _candidates(low, high, even, k, n)
        if not fits:
            return -1
        if f > t:
            lo_n = n
            break
        hi_n, first, last = n, f, t
    while hi_n - lo_n > 1:
        n = (lo_n + hi_n) // 2
        f, t, fits = _candidates(low, high, even, k, n)
        if not fits:
            return -1
        if f <= t:
            hi_n, first, last = n, f, t
        else:
            lo_n = n
    n = hi_n
    if first > last:
        first, last, fits = _candidates(low, high, even, k, n)
        if not fits or first > last:
            return -1
    hi, lo = _mul(m << np.uint64(2), _POWERS[n])
    q, half, below, _ = _shift(hi, lo, k + 2 - n)
    tie = half and not below  # halfway between two: the even one, as repr has it
    digits = min(max(q + (q & _ONE) if tie else (q + _ONE if half else q), first), last)
    if v < 0.0:
        out[pos] = 45
        pos += 1
    # the digits with the point n from the end (a leading "0." below 1, a trailing ".0" if n = 0)
    count = 1
    rest = digits // _TEN
    while rest > _ZERO:
        count += 1
        rest //= _TEN
    count = max(count, n + 1)
    end = pos + count + 1 + (1 if n == 0 else 0)
    i = end - 1
    if n == 0:
        out[i] = 48
        out[i - 1] = 46
        i -= 2
    for place in range(count):
        out[i] = 48 + int(digits % _TEN)
        digits //= _TEN
        i -= 1
        if place + 1 == n:
            out[i] = 46
            i -= 1
    return end


@njit(cache=True, nogil=True)
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
    pos = 0
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
