"""Solved tables on disk: reused when sound, rebuilt when damaged, foreign or stale."""

from __future__ import annotations

import dataclasses
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kniffel.core import (
    CACHE_DIR_ENV,
    cache_dir,
    compile_rules,
    load_solution,
    points,
    solve_compiled,
    table,
    table_key,
    table_path,
)
from kniffel.core.runtime import store
from support.solver import reduced


def test_the_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "tables"))
    assert cache_dir() == tmp_path / "tables"
    monkeypatch.delenv(CACHE_DIR_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert cache_dir() == tmp_path / "xdg" / "kniffel"


def test_a_solved_table_is_written_once_and_memory_mapped(tmp_path: Path) -> None:
    game = reduced()
    first = table(game, directory=tmp_path)
    assert first.seconds > 0
    path = table_path(game, tmp_path)
    assert path.exists()
    assert path.with_suffix(".json").exists()
    again = table(game, directory=tmp_path)
    assert again.seconds == 0.0
    assert isinstance(again.values.base, np.memmap)  # a plain array over the mapped file
    assert not again.values.flags.writeable
    assert np.array_equal(again.values, first.values)


def test_no_cache_neither_reads_nor_writes(tmp_path: Path) -> None:
    solution = table(reduced(), directory=tmp_path, use_cache=False)
    assert solution.seconds > 0
    assert list(tmp_path.iterdir()) == []


def _corrupt_bytes(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-40] ^= 0xFF
    path.write_bytes(bytes(data))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-100])


def _garbage_meta(path: Path) -> None:
    path.with_suffix(".json").write_text("{not json", encoding="utf-8")


def _drop_meta(path: Path) -> None:
    path.with_suffix(".json").unlink()


def _not_an_array(path: Path) -> None:
    path.write_bytes(b"hello")


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _header_byte(path: Path) -> None:
    """One changed byte in the ``.npy`` header (its dict literal), which numpy parses as Python."""
    data = bytearray(path.read_bytes())
    data[data.index(b"{")] = ord("(")
    path.write_bytes(bytes(data))


def _empty_meta(path: Path) -> None:
    path.with_suffix(".json").write_bytes(b"")


@pytest.mark.parametrize(
    "damage",
    [_corrupt_bytes, _truncate, _garbage_meta, _drop_meta, _not_an_array, _empty, _header_byte, _empty_meta],
)
def test_a_damaged_table_is_rebuilt(tmp_path: Path, damage: object) -> None:
    game = reduced()
    good = table(game, directory=tmp_path)
    expected = np.array(good.values)
    path = table_path(game, tmp_path)
    damage(path)  # type: ignore[operator]
    assert load_solution(compile_rules(game), tmp_path) is None
    rebuilt = table(game, directory=tmp_path)
    assert rebuilt.seconds > 0
    assert np.array_equal(rebuilt.values, expected)
    assert load_solution(compile_rules(game), tmp_path) is not None


def test_a_foreign_table_under_the_right_name_is_not_trusted(tmp_path: Path) -> None:
    game = reduced()
    other = reduced(upper_bonus=50)
    table(game, directory=tmp_path)
    table(other, directory=tmp_path)
    mine, theirs = table_path(game, tmp_path), table_path(other, tmp_path)
    assert mine != theirs
    mine.write_bytes(theirs.read_bytes())
    mine.with_suffix(".json").write_bytes(theirs.with_suffix(".json").read_bytes())
    assert load_solution(compile_rules(game), tmp_path) is None
    assert table(game, directory=tmp_path).expected_score != table(other, directory=tmp_path).expected_score


def test_the_key_follows_the_rules_and_the_solver_version(monkeypatch: pytest.MonkeyPatch) -> None:
    game = reduced()
    assert table_key(game) == table_key(reduced())
    assert table_key(game) != table_key(reduced(rolls=2))
    assert table_key(game) != table_key(dataclasses.replace(game, options={"sharp": "on"}))
    key = table_key(game)
    monkeypatch.setattr(store, "SOLVER_VERSION", 10_000)
    assert table_key(game) != key


def test_a_rule_set_that_cannot_be_hashed_has_its_key() -> None:
    @dataclasses.dataclass  # a scorer of one's own, without a hash
    class Sum:
        def __call__(self, counts: Any) -> int:
            return int(sum(face * count for face, count in enumerate(counts, 1)))

        def __repr__(self) -> str:
            return "Sum()"

    game = reduced()
    last = dataclasses.replace(game.boxes[-1], score=Sum())
    own = dataclasses.replace(game, boxes=(*game.boxes[:-1], last))
    with pytest.raises(TypeError):
        hash(own)
    assert table_key(own) == table_key(dataclasses.replace(game, boxes=(*game.boxes[:-1], last)))
    assert table_key(own) != table_key(game)


def test_a_stale_description_is_not_trusted(tmp_path: Path) -> None:
    game = reduced()
    table(game, directory=tmp_path)
    meta_path = table_path(game, tmp_path).with_suffix(".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["solver_version"] = -1
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    assert load_solution(compile_rules(game), tmp_path) is None


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    solution = table(reduced(), directory=blocker / "sub")
    assert solution.seconds > 0


def test_processes_sharing_a_directory_solve_a_table_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock beside a table makes a second solver wait for the first and read its file."""
    game = reduced()
    solved: list[int] = []
    solve = solve_compiled

    def counting(compiled: Any, **kwargs: Any) -> Any:
        solved.append(1)
        return solve(compiled, **kwargs)

    monkeypatch.setattr(points, "solve_compiled", counting)
    with ThreadPoolExecutor(4) as pool:
        tables = list(pool.map(lambda _: table(game, directory=tmp_path), range(4)))
    assert solved == [1]
    assert all(np.array_equal(t.values, tables[0].values) for t in tables)
    assert table_path(game, tmp_path).with_suffix(".lock").exists()


def test_half_written_files_of_a_killed_builder_are_removed(tmp_path: Path) -> None:
    """A builder killed on its way (kill -9, a daemon thread at exit) leaves its temporary file; the next
    build of that table, holding the lock, removes it and leaves other tables' files alone."""
    from kniffel.core import distribution_table
    from kniffel.core.distribution import table_paths

    game = reduced()
    path = table_path(game, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    stale = path.parent / f".{path.name}.k1ll3d42.tmp"
    stale.write_bytes(b"half a table")
    pmf_path, index_path, _ = table_paths(game, tmp_path)
    stale_pmf = pmf_path.parent / f".{pmf_path.name}.x.tmp"
    stale_index = index_path.parent / f".{index_path.name}.y.tmp"
    other = path.parent / ".another-table.npy.z.tmp"
    for file in (stale_pmf, stale_index, other):
        file.write_bytes(b"half")
    solution = table(game, directory=tmp_path)
    assert not stale.exists()
    assert stale_pmf.exists()  # the distributions' own build clears them
    distribution_table(solution, directory=tmp_path)
    assert not stale_pmf.exists()
    assert not stale_index.exists()
    assert other.exists()


def test_a_table_is_written_in_blocks_its_mapped_pages_let_go_after_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A piece read from a mapped file (a level of the early rows) puts its pages in the process as it is
    written: it is written a block at a time, the pages let go after each (when the process holds more
    than it may), and the file and its checksum are those of the pieces written whole."""
    from kniffel.core.runtime import spill

    key = table_key(reduced())
    pieces = [np.arange(50, dtype=np.float32), np.linspace(0, 1, 70, dtype=np.float32)]
    store.save_arrays(tmp_path / "whole.npy", key, pieces, {"kind": "test"})
    looked: list[int] = []
    monkeypatch.setattr(store, "WRITE_BLOCK", 64)
    monkeypatch.setattr(spill, "relieve_over", lambda: looked.append(1))
    store.save_arrays(tmp_path / "blocks.npy", key, pieces, {"kind": "test"})
    assert len(looked) == 4 + 5  # 200 and 280 bytes in blocks of 64
    assert (tmp_path / "blocks.npy").read_bytes() == (tmp_path / "whole.npy").read_bytes()
    metas = [json.loads(store.meta_path(tmp_path / f"{n}.npy").read_text()) for n in ("blocks", "whole")]
    assert metas[0]["checksum"] == metas[1]["checksum"]


@pytest.mark.parametrize("damage", ["a byte", "one short", "one more"])
def test_a_table_written_in_pieces_is_the_whole_one_and_read_only_if_sound(
    tmp_path: Path, damage: str
) -> None:
    """A derived table written piece by piece (the early rows, a level at a time) is the file numpy writes
    of the pieces joined, with the same checksum, and is refused once damaged (its checksum is read from
    the file, not from its mapping)."""
    key = table_key(reduced())
    pieces = [np.arange(5, dtype=np.float32), np.zeros(0, np.float32), np.linspace(0, 1, 7, dtype=np.float32)]
    whole = np.concatenate(pieces)
    path = tmp_path / "pieces.npy"
    store.save_arrays(path, key, pieces, {"kind": "test"})
    np.save(tmp_path / "numpy.npy", whole)
    assert path.read_bytes() == (tmp_path / "numpy.npy").read_bytes()
    store.save_array(tmp_path / "whole.npy", key, whole, {"kind": "test"})
    checksums = [
        json.loads(store.meta_path(p).read_text())["checksum"] for p in (path, tmp_path / "whole.npy")
    ]
    assert checksums[0] == checksums[1]
    found = store.load_array(path, key, whole.shape, np.float32)
    assert found is not None
    assert np.array_equal(found, whole)
    del found
    raw = bytearray(path.read_bytes())
    if damage == "a byte":
        raw[-3] ^= 0x01
    elif damage == "one short":
        raw = raw[:-1]
    else:
        raw += b"\0"
    path.write_bytes(bytes(raw))
    assert store.load_array(path, key, whole.shape, np.float32) is None
