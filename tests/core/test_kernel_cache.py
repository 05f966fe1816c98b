"""numba's compiled kernels are kept per version of the kernels' folder
(:mod:`kniffel.core.runtime.kernelcache`): a change to one file gives every kernel a new cache, only that
folder defines kernels, and old
versions' directories go; a fresh process loads them without refreshing numba's compiler."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kniffel import rules
from kniffel.core.kernels import common
from kniffel.core.runtime import kernelcache


def test_only_the_kernels_folder_defines_kernels() -> None:
    """The cache's key hashes the kernels' folder: a kernel defined anywhere else would keep stale
    machine code when what it calls changed."""
    package = kernelcache.KERNELS.parent.parent
    defining = {
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if re.search(r"^\s*@(njit|borrowing)\b|\bnjit\(", path.read_text(encoding="utf-8"), re.MULTILINE)
    }
    assert defining
    assert all(name.startswith("core/kernels/") for name in defining), sorted(defining)


def test_a_change_to_any_kernel_file_moves_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "kernels"
    shutil.copytree(kernelcache.KERNELS, copy)
    monkeypatch.setattr(kernelcache, "KERNELS", copy)
    first = kernelcache.sources_key()
    assert kernelcache.sources_key() == first
    keys = {first}
    for name in ("common.py", "env.py"):
        with (copy / name).open("a", encoding="utf-8") as source:
            source.write("\n# changed\n")
        keys.add(kernelcache.sources_key())
    (copy / "new.py").write_text("# a new kernel module\n", encoding="utf-8")
    keys.add(kernelcache.sources_key())
    assert len(keys) == 4


def test_the_kernels_are_cached_in_this_versions_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    directory = kernelcache.kernels_cache_dir()
    assert directory.name == f"kniffel-{kernelcache.sources_key()}"
    # numba's cache of a kernel says where it keeps its files (an attribute of numba's own)
    cache = common.score_values._cache  # type: ignore[attr-defined]
    assert Path(cache._cache_path).is_relative_to(directory)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    assert kernelcache.kernels_cache_dir() == Path("/somewhere") / directory.name


def test_other_versions_unused_for_a_week_are_removed(tmp_path: Path) -> None:
    current = tmp_path / "kniffel-current"
    stale, recent, foreign = (tmp_path / n for n in ("kniffel-old", "kniffel-recent", "other-old"))
    for directory in (current, stale, recent, foreign):
        (directory / "x").mkdir(parents=True)
    week_ago = time.time() - (kernelcache.KEEP_DAYS + 1) * 86400
    for directory in (current, stale, foreign):
        os.utime(directory, (week_ago, week_ago))
    kernelcache._remove_stale(current)
    assert current.exists()
    assert current.stat().st_mtime > week_ago  # in use: kept fresh for other versions' processes
    assert not stale.exists()
    assert recent.exists()
    assert foreign.exists()
    kernelcache._remove_stale(tmp_path / "missing" / "kniffel-x")  # nothing there: nothing to do


_LOADED = textwrap.dedent(
    """
    import json, sys
    from kniffel import rules
    from kniffel.services.simulate import simulate
    from kniffel.core import Advisor, ColumnPosition, solve
    from kniffel.core.runtime import kernelcache
    yahtzee = rules.get("yahtzee")
    solution = solve(yahtzee)
    games = simulate(yahtzee, games=500, seed=7, solution=solution)
    best = Advisor(solution).options(ColumnPosition({"chance": 20}, [1, 3, 3, 5, 6], rolls_left=2))[0]
    print(json.dumps({
        "counts": vars(kernelcache.load_counts),
        "expected": solution.expected_score,
        "scores": [int(s) for s in games.scores],
        "best": [str(best.action), best.value],
        "compiled": kernelcache.compiled_seconds(),
        "package": str(kernelcache.KERNELS.parent.parent),
    }))
    """
)


def _fresh_process(path: str | None = None) -> dict[str, Any]:
    """:data:`_LOADED`'s answer from a new process, with ``path`` first on its import path."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (path, env.get("PYTHONPATH"))))
    done = subprocess.run(
        [sys.executable, "-c", _LOADED], capture_output=True, text=True, check=True, env=env
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_cached_kernels_load_without_refreshing_numba_and_give_the_same_values() -> None:
    """A fresh process loads the DP's, the simulator's and the advisor's kernels from the disk cache
    without numba's compiler refresh (:func:`kernelcache.load_without_refreshing`), and what they
    compute is what they compute in this process, bit for bit."""
    from kniffel.core import Advisor, ColumnPosition, solve
    from kniffel.services.simulate import simulate

    _fresh_process()  # compiles into the cache whatever this session has not compiled yet
    loaded = _fresh_process()
    assert loaded["counts"]["direct"] >= 5
    assert loaded["counts"]["refreshed"] == 0
    yahtzee = rules.get("yahtzee")
    solution = solve(yahtzee)
    best = Advisor(solution).options(ColumnPosition({"chance": 20}, [1, 3, 3, 5, 6], rolls_left=2))[0]
    assert loaded["expected"] == solution.expected_score
    assert loaded["scores"] == [
        int(s) for s in simulate(yahtzee, games=500, seed=7, solution=solution).scores
    ]
    assert loaded["best"] == [str(best.action), best.value]


def test_a_copy_of_the_package_elsewhere_loads_the_kernels_this_one_compiled(tmp_path: Path) -> None:
    """The same sources at another path (a second clone, a second install) compile nothing: their
    kernels load from the files the first compiled, and give what it gives."""
    here = _fresh_process()  # compiled into the cache by now, if not before
    copy = tmp_path / "elsewhere"
    package = kernelcache.KERNELS.parent.parent
    shutil.copytree(package, copy / "kniffel", ignore=shutil.ignore_patterns("__pycache__"))
    there = _fresh_process(str(copy))
    assert Path(there["package"]) == copy / "kniffel"
    assert there["compiled"] == 0.0
    assert there["counts"]["direct"] >= 5
    assert there["counts"]["refreshed"] == 0
    for answer in ("expected", "scores", "best"):
        assert there[answer] == here[answer]


def test_the_tables_reach_the_kernels_read_only() -> None:
    """numba compiles a kernel apart for a writable array: a solution's values and a distribution table's
    probabilities are read-only whatever they were made from (made-up values, a table built in memory),
    and the caller's own array is left as it was."""
    import dataclasses

    import numpy as np

    from kniffel.core import Solution, build_table, compile_rules
    from kniffel.core.points import empty_values

    ruleset = rules.get("yahtzee")
    c = compile_rules(ruleset)
    values = empty_values(c)
    solution = Solution(c, values, 0.0)
    assert not solution.values.flags.writeable
    assert values.flags.writeable
    assert np.shares_memory(solution.values, values)
    table = build_table(solution, within={box.id: 0 for box in ruleset.boxes[2:]})
    assert not table.pmf.flags.writeable
    writable = table.pmf.copy()
    assert not dataclasses.replace(table, pmf=writable).pmf.flags.writeable
    assert writable.flags.writeable


def test_a_kernel_being_compiled_is_told_with_how_long_so_far() -> None:
    """What a front end reads to say "compiling, first use only" instead of a progress that stands still:
    the outermost kernel a compile started with, from inside numba's compile, and nothing after it; the
    time counts from the start of a stretch of compiles, one kernel after another."""
    import numba
    from numba.core import event

    seen: list[kernelcache.Compiling | None] = []

    class During(event.Listener):
        def on_start(self, event: Any) -> None:
            time.sleep(0.05)
            seen.append(kernelcache.compiling())

        def on_end(self, event: Any) -> None:
            pass

    def outer_kernel(x: int) -> int:
        return int(inner_kernel(x)) + 1

    inner_kernel: Any = numba.njit(lambda x: x * 2)
    outer: Any = numba.njit(outer_kernel)
    compiling_here = kernelcache._compiles  # by thread (another test's work may compile in another)
    assert threading.get_ident() not in compiling_here
    time.sleep(kernelcache.STRETCH_GAP)  # a stretch of its own
    listener = During()
    compiled_before = kernelcache.compiled_seconds()
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call]
    try:
        assert outer(20) == 41
    finally:
        event.unregister("numba:compile", listener)  # type: ignore[no-untyped-call]
    assert len(seen) >= 2  # the kernel and, inside its compile, its callee (and what numba adds)
    for found in seen:
        assert found is not None
        assert found.kernel == "outer_kernel"  # the outermost one: what was asked for
        assert 0.04 < found.seconds < 600
    assert threading.get_ident() not in compiling_here
    # the time it took counts as compiling (the listener slept 0.05 s in it and in its callee's)
    assert 0.09 < kernelcache.compiled_seconds() - compiled_before < 600
    # the next kernel at once: the same stretch, its time counted from the first
    seen.clear()
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call]
    try:
        next_kernel: Any = numba.njit(lambda x: x - 1)
        assert next_kernel(1) == 0
    finally:
        event.unregister("numba:compile", listener)  # type: ignore[no-untyped-call]
    assert seen[0] is not None
    assert seen[0].kernel == "<lambda>"
    assert seen[0].seconds > 0.09


def test_waiting_for_another_processs_compile_is_compiling_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that waits for the first run's helper to finish a kernel (``kernelcache.waiters``) waits
    on a compile as much as one compiling it itself."""
    import contextlib

    from numba.core import caching, registry

    during: list[kernelcache.Compiling | None] = []

    def helper_finished(name: str) -> bool:
        during.append(kernelcache.compiling())
        return False

    def not_cached(sig: Any, target_context: Any) -> None:
        return None

    def package_kernel() -> None:
        pass

    package_kernel.__module__ = "kniffel.core.kernels"
    cache = SimpleNamespace(
        _py_func=package_kernel,
        _load_overload=not_cached,
        _guard_against_spurious_io_errors=contextlib.nullcontext,
    )
    monkeypatch.setattr(kernelcache, "waiters", [helper_finished])
    context = registry.cpu_target.target_context
    load: Any = caching.Cache.load_overload
    assert load(cache, None, context) is None
    assert during
    assert during[0] is not None
    assert during[0].kernel == "package_kernel"
    assert threading.get_ident() not in kernelcache._compiles
