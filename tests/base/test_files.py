"""Files written all at once (:mod:`kniffel.base.files`): what is written is read back whole, a failure
names the file asked for and leaves the old file and nothing beside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kniffel.base.files import atomic_stream, atomic_write, check_writable, leftovers


def test_bytes_and_text_are_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "table.bin"
    atomic_write(path, b"\x00\x01\xff")
    assert path.read_bytes() == b"\x00\x01\xff"
    atomic_write(path, "Würfel\nzwei Zeilen\n")
    assert path.read_text(encoding="utf-8") == "Würfel\nzwei Zeilen\n"
    assert path.read_bytes() == "Würfel\nzwei Zeilen\n".replace("\n", os.linesep).encode("utf-8")
    with atomic_stream(path) as stream:
        for part in (b"a", b"b", b"c"):
            stream.write(part)
    assert path.read_bytes() == b"abc"
    assert list(tmp_path.iterdir()) == [path], "nothing is left beside the file"


def test_the_new_file_is_its_owners_alone(tmp_path: Path) -> None:
    if os.name != "posix":
        pytest.skip("file modes are POSIX's")
    path = tmp_path / "record.json"
    atomic_write(path, "{}")
    assert path.stat().st_mode & 0o777 == 0o600


def test_an_error_names_the_path_asked_for(tmp_path: Path) -> None:
    missing = tmp_path / "missing" / "game.json"
    with pytest.raises(FileNotFoundError) as caught:
        atomic_write(missing, "{}")
    assert caught.value.filename == str(missing)
    with pytest.raises(IsADirectoryError) as folder:
        atomic_write(tmp_path, b"")
    assert folder.value.filename == str(tmp_path)
    with pytest.raises(FileNotFoundError) as checked:
        check_writable(missing)
    assert checked.value.filename == str(missing)


def test_a_failed_write_leaves_the_old_file_and_nothing_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    atomic_write(path, "old")

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left on device") as caught:
        atomic_write(path, "new")
    assert caught.value.filename == str(path), "the target is named, not the temporary file"
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "old"
    assert list(tmp_path.iterdir()) == [path]


def test_an_interrupted_stream_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "table.bin"
    atomic_write(path, b"whole")

    def interrupted() -> None:
        with atomic_stream(path) as stream:
            stream.write(b"half")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert path.read_bytes() == b"whole"
    assert list(tmp_path.iterdir()) == [path]


def test_an_error_about_another_file_keeps_its_name(tmp_path: Path) -> None:
    path = tmp_path / "table.bin"
    other = tmp_path / "source.bin"

    def reading_another() -> None:
        with atomic_stream(path):
            other.read_bytes()

    with pytest.raises(FileNotFoundError) as caught:
        reading_another()
    assert caught.value.filename == str(other)
    assert not path.exists()


def test_leftovers_are_what_a_killed_write_left(tmp_path: Path) -> None:
    path = tmp_path / "table[1].bin"
    killed = tmp_path / ".table[1].bin.k1ll3d.tmp"
    killed.write_bytes(b"half")
    (tmp_path / ".other.bin.x.tmp").write_bytes(b"another file's")
    assert leftovers(path) == [killed]
