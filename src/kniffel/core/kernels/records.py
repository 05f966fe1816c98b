"""The small records the solver's kernels hand each other instead of long lists of numbers: what entering
points reads of the rule set's tables (:class:`Scoring`) and what throwing reads (:class:`Lattice`), the
state a roll is entered in, a state's run of lanes and a roll of five alike. numba passes each as one
typed tuple, built and read by field name in the kernels (:mod:`kniffel.core.kernels.common` and the kernels
built on it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, overload

import numpy as np
from numba import njit

from kniffel.base.arrays import F64, I16, I32, I64

BORROWS: dict[str, Any] = {"_nrt": False}
"""The numba option of a kernel that only borrows its arrays: it allocates nothing and returns no array
(a scalar, a tuple of them or nothing), so it is compiled without numba's reference counts (numba refuses
to compile one that allocates). A compiled call otherwise takes a reference to every array of the
records it is handed and lets go of it at the end, two atomic operations an array, which threads playing
at once contend for: the simulator's turn of a game (:func:`kniffel.core.kernels.play.play_game_turn`,
some 40 arrays in its records) spent 70 % of its time in them (``docs/explanation/kernels.md``). Its callers
hold the references. ``tests/core/test_borrowing.py`` holds every such kernel to a return type without arrays
and to calling only kernels that borrow too or are inlined."""


@overload
def borrowing(kernel: Callable[..., Any]) -> Any: ...


@overload
def borrowing(kernel: None = None, **options: Any) -> Callable[[Callable[..., Any]], Any]: ...


def borrowing(kernel: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``kernel`` compiled as one that only borrows its arrays (:data:`BORROWS`), cached, letting go of
    the GIL (``@borrowing``), or with numba's ``options`` besides (``@borrowing(fastmath=...)``)."""
    compile_kernel = njit(cache=True, nogil=True, **BORROWS, **options)
    return compile_kernel if kernel is None else compile_kernel(kernel)


class Bound:
    """``kernel(*args)`` as a call without arguments, for a caller that makes the very same call again and
    again: the same arrays and records, their contents changed in between (the single-game environment's
    step). numba's dispatcher types every argument of every call, 3.6 us for the step's 47 arrays, a third
    of a step; a bound call goes to the compiled function itself. Its first call is dispatched (which
    compiles or loads the kernel). The arguments are fixed objects, so their types cannot change."""

    def __init__(self, kernel: Any, *args: Any) -> None:
        self.kernel = kernel
        self.args = args
        self._entry: Callable[..., Any] | None = None

    @property
    def direct(self) -> bool:
        """Whether calls go to the compiled function itself (after the first)."""
        return self._entry is not None and self._entry is not self.kernel

    def __call__(self) -> Any:
        if self._entry is not None:
            return self._entry(*self.args)
        result = self.kernel(*self.args)
        # looked up once: if numba filed the compiled function otherwise, calls keep going through the
        # dispatcher rather than typing the arguments here again at every call
        types = tuple(self.kernel.typeof_pyval(arg) for arg in self.args)
        compiled = self.kernel.overloads.get(types)
        self._entry = self.kernel if compiled is None else compiled.entry_point
        return result


wide: Any = np.int64
"""A whole number as an int64 for numba, in a kernel: numba types a literal (``0``) and a small field (an
int8) apart from an int64, and compiles a kernel called with each once more (5 s for the batch reader's
line kernel)."""


class Scoring(NamedTuple):
    """The numbers of the :class:`KernelTables` that entering points reads. Kernels
    hand this to their small helpers instead of the whole bundle: passing a tuple copies it, and copying
    the bundle takes a reference to each of its arrays, atomic operations that the threads contend for."""

    n_boxes: int
    five: int
    n_armed: int
    n_free: int
    joker: bool
    threshold: int
    upper_bonus: int
    upper_mask: int


class Lattice(NamedTuple):
    """What a turn's throws read of the :class:`KernelTables`: the keep lattice of
    the dice (``size``, ``child``, ``choices``, the fields of the same name) and the index of its first
    roll. Handed to the throws (:func:`kniffel.core.kernels.play.play_throws`) for the reason
    :class:`Scoring` is."""

    size: Any
    child: Any
    choices: Any
    first_roll: int


class EntryState(NamedTuple):
    """The state a roll is entered in: the filled boxes, whether the five-of-a-kind box is armed (see
    :func:`entry`), and the free throws left after the turn."""

    mask: int
    armed: int
    free: int


class Lanes(NamedTuple):
    """A state's run of lanes: the upper scores ``lo .. lo + nl - 1``, written to the columns ``col .. col
    + nl - 1`` of the rows that take them."""

    lo: int
    nl: int
    col: int


class FiveAlike(NamedTuple):
    """A roll of five alike: roll ``roll`` (thrown at once: ``at_once`` = 1), every die showing ``face``."""

    at_once: int
    roll: int
    face: int


class KernelTables(NamedTuple):
    """Everything the compiled kernels (:mod:`kniffel.core.kernels`) read about a rule set, as one argument
    (numba passes a named tuple of arrays and numbers as one struct, compiled once for every rule set): the
    tables of :class:`Compiled` and the keep lattice of its dice (:class:`kniffel.base.keeps.KeepLattice`), in
    fields of the same name. Built by :attr:`Compiled.kernel_tables` alone. Flat, because numba's parallel
    loops do not take a tuple nested in their arguments."""

    n_boxes: int
    five: int
    n_armed: int
    n_free: int
    free_points: int
    per_turn: int
    """:attr:`Compiled.free_per_turn`."""
    rolls: int
    """Regular throws a turn."""
    joker: bool
    threshold: int
    upper_bonus: int
    upper_mask: int
    allowed: I64
    alike: I32
    jpts: I16
    jbonus: I16
    lanes: I32
    pair_box: I32
    """:attr:`Compiled.pairs`: the box of each distinct ``(box, points > 0)`` pair of the base table ..."""
    pair_pts: I32
    """... its points ..."""
    nonzero: I32
    """... and ``[at_once, roll, i]`` the pairs a roll scores in (-1 pads)."""
    first_roll: int
    size: I32
    child: I32
    parent: I32
    roll_probs: F64
    choices: I32
