"""Kernels compiled without numba's reference counts (:data:`kniffel.core.kernels.records.BORROWS`)
only borrow their arrays: none returns an array, and none calls a kernel that may allocate, which numba would
compile in the borrowing one's way or not at all, depending on which was compiled first."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from typing import Any

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from kniffel.core.kernels.records import BORROWS, borrowing
from support.kernels import compiled_kernels

SCALARS = {"None", "int", "float", "bool"}


def is_borrowing(kernel: CPUDispatcher) -> bool:
    return all(kernel.targetoptions.get(option) == value for option, value in BORROWS.items())


def is_inline(kernel: CPUDispatcher) -> bool:
    return kernel.targetoptions.get("inline") == "always"


def borrowing_kernels() -> dict[str, CPUDispatcher]:
    return {name: kernel for name, kernel in compiled_kernels().items() if is_borrowing(kernel)}


def returns_no_array(annotation: str, namespace: dict[str, Any]) -> bool:
    """Whether a kernel's return annotation names only scalars: a scalar, a tuple of them or a record
    (a NamedTuple) whose fields are."""
    if annotation in SCALARS:
        return True
    tuple_of = re.fullmatch(r"tuple\[(.*)\]", annotation)
    if tuple_of:
        return all(returns_no_array(part.strip(), namespace) for part in tuple_of.group(1).split(","))
    fields: dict[str, Any] = getattr(namespace.get(annotation), "__annotations__", {})
    return bool(fields) and all(returns_no_array(field_type(kind), namespace) for kind in fields.values())


def field_type(kind: Any) -> str:
    """A record field's type as written (a NamedTuple keeps postponed annotations as forward references)."""
    return str(getattr(kind, "__forward_arg__", None) or getattr(kind, "__name__", kind))


def unborrowed_calls(kernel: CPUDispatcher) -> list[str]:
    """The kernels that ``kernel`` calls, itself or through the kernels it inlines, that neither borrow
    nor are inlined."""
    found: list[str] = []
    stack: list[tuple[CPUDispatcher, list[str]]] = [(kernel, [kernel.py_func.__name__])]
    while stack:
        function, path = stack.pop()
        tree = ast.parse(textwrap.dedent(inspect.getsource(function.py_func)))
        namespace = function.py_func.__globals__
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            callee = namespace.get(node.func.id)
            if not isinstance(callee, CPUDispatcher) or is_borrowing(callee):
                continue
            if is_inline(callee):
                if node.func.id not in path:
                    stack.append((callee, [*path, node.func.id]))
            else:
                found.append(" > ".join([*path, node.func.id]))
    return found


def test_the_kernels_that_matter_borrow() -> None:
    names = set(borrowing_kernels())
    for name in (
        "play.play_game_turn",
        "common.keep_max",
        "codec._read_line",
        "env.step",
    ):
        assert f"kniffel.core.kernels.{name}" in names


def test_no_borrowing_kernel_returns_an_array() -> None:
    for name, kernel in borrowing_kernels().items():
        annotation = kernel.py_func.__annotations__.get("return")
        assert annotation is not None, f"{name} says nothing of what it returns"
        assert returns_no_array(str(annotation), kernel.py_func.__globals__), (
            f"{name} returns {annotation}: a kernel that returns an array must count its references"
        )


def test_borrowing_kernels_call_only_borrowing_or_inlined_kernels() -> None:
    for name, kernel in borrowing_kernels().items():
        assert unborrowed_calls(kernel) == [], name


# a borrowing kernel that breaks the rule, to show the check sees it


@njit(cache=False, nogil=True)
def _allocating(n: int) -> Any:  # pragma: no cover
    return np.zeros(n)


@borrowing
def _breaks_the_rule(n: int) -> float:  # pragma: no cover
    return float(_allocating(n).sum())


def test_the_check_sees_a_borrowing_kernel_that_calls_an_allocating_one() -> None:
    assert unborrowed_calls(_breaks_the_rule) == ["_breaks_the_rule > _allocating"]
    assert not returns_no_array("Any", {})
    assert returns_no_array("tuple[int, bool]", {})
