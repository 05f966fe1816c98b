"""The examples in the docstrings run as written: every module's, the package's face first."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import kniffel
from support.paths import ROOT

EXTRAS_ONLY = frozenset({"pyspiel"})
"""Packages of an extra that a module needs and the test extra may lack (OpenSpiel's wheels are not
there for every platform)."""


def modules_with_examples() -> list[str]:
    names = ["kniffel"] + [info.name for info in pkgutil.walk_packages(kniffel.__path__, "kniffel.")]
    finder = doctest.DocTestFinder()
    found = []
    for name in names:
        if name == "kniffel.__main__":
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name in EXTRAS_ONLY:
                continue  # its extra is not installed: its own tests say so
            raise
        if any(test.examples for test in finder.find(module, name)):
            found.append(name)
    return found


MODULES = modules_with_examples()


def test_the_api_examples_are_among_them() -> None:
    assert {"kniffel", "kniffel.services.research", "kniffel.services.simulate"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_run(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert tried > 0
    assert failed == 0, f"{failed} of {tried} examples of {name} failed (see the output above)"


PAGES = ("docs/tutorials/library.md",)
"""Pages of the docs whose examples run as written."""


@pytest.mark.slow  # the quick start asks for the empty Yahtzee sheet's distribution: an early table
@pytest.mark.parametrize("page", PAGES)
def test_the_pages_examples_run(page: str) -> None:
    path = ROOT / page
    failed, tried = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failed == 0, f"{failed} of {tried} examples of {page} failed (see the output above)"
