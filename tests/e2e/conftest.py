"""Every test here is a browser's, marked ``e2e``: a whole run leaves them to the end (see
``pytest_collection_modifyitems`` in ``tests/conftest.py``), and ``-m "not e2e"`` leaves them out."""

from __future__ import annotations

import pytest


def pytest_itemcollected(item: pytest.Item) -> None:
    item.add_marker(pytest.mark.e2e)
