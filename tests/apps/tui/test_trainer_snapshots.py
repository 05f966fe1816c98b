"""Pictures of the terminal trainer at 80x24: a position, and its verdict after a keep was answered, so
they change only on purpose (``pytest tests/apps/tui/test_trainer_snapshots.py --snapshot-update``, then
look at the new pictures in ``tests/apps/tui/__snapshots__`` before committing them)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kniffel import rules
from kniffel.apps.tui.trainer import TrainerApp
from kniffel.services import trainer

SnapCompare = Callable[..., bool]


def app_for(lang: str) -> TrainerApp:
    rs = rules.get("yahtzee")
    return TrainerApp(trainer.series(rs, seed=3, count=2), rs, lang, seed=3)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_position(snap_compare: SnapCompare, lang: str) -> None:
    assert snap_compare(app_for(lang), terminal_size=(80, 24))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_verdict(snap_compare: SnapCompare, lang: str) -> None:
    assert snap_compare(app_for(lang), press=["1", "2", "3", "space"], terminal_size=(80, 24))
