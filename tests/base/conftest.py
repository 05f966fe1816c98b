"""The tests of :mod:`kniffel.base` compile no kernel, as nothing below the core has one: a whole run
starts with them (``pytest_collection_modifyitems`` in ``tests/conftest.py``)."""

from __future__ import annotations

import pytest


def pytest_itemcollected(item: pytest.Item) -> None:
    item.add_marker(pytest.mark.compiles_nothing)
