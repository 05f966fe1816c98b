"""What every benchmark reports about the machine it ran on (``benchmarks/machine.py``) and how the
native and AVX2 builds are set apart (``benchmarks/builds.py``). No timings are asserted."""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import sys
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    """A module of ``benchmarks/`` as its scripts import it (by its bare name)."""
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(BENCHMARKS / f"{name}.py"):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


machine = load("machine")
builds = load("builds")
x86 = pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 builds only")


def test_report_names_the_processor_caches_cores_and_load() -> None:
    report = machine.describe(numba_info=False)
    assert report["load"]["after"] is None
    assert len(report["load"]["before"]) == 3
    cpu = report["cpu"]
    assert cpu["model"]
    assert cpu["logical_cpus"] == os.cpu_count()
    assert 1 <= cpu["usable_cpus"] <= cpu["logical_cpus"]
    if Path("/sys/devices/system/cpu/cpu0/cache").is_dir():
        names = [cache["name"] for cache in report["caches"]]
        assert "L1d" in names
        assert "L2" in names
        for cache in report["caches"]:
            assert cache["size_kb"] > 0
            assert cache["instances"] >= 1
            assert cache["total_kb"] == cache["size_kb"] * cache["instances"]
            assert 1 <= cache["shared_by_cpus"] <= cpu["logical_cpus"]
    assert len(machine.finish(report)["load"]["after"]) == 3
    json.dumps(report)  # the scripts put it in their JSON as it is
    text = machine.header(report)
    assert cpu["model"] in text
    assert "caches:" in text
    assert "numba: not asked" in text
    assert "after" in machine.footer(report)


def test_cache_sizes_and_cpu_lists_are_read_as_the_kernel_writes_them() -> None:
    assert machine._kilobytes("32K") == 32
    assert machine._kilobytes("2M") == 2048
    assert machine._kilobytes("524288") == 512
    assert machine._cpu_list("0-3,8,10-11") == [0, 1, 2, 3, 8, 10, 11]
    assert machine.enabled("+avx,-avx512f,+avx2,+sse4.2") == ["sse4.2", "avx", "avx2"]


@x86
def test_numba_reports_the_target_it_compiles_for_here() -> None:
    import numba

    env = {k: v for k, v in os.environ.items() if k not in machine.OVERRIDES}
    found = machine.numba_target(env)
    assert "error" not in found, found
    assert found["numba"] == numba.__version__
    assert found["llvmlite"] == version("llvmlite")
    assert found["target_cpu"] == found["host_cpu"]
    assert found["target_features"] == found["host_features"]
    assert found["features_from"] == "the host"
    assert found["overrides"] == {"NUMBA_CPU_NAME": None, "NUMBA_CPU_FEATURES": None}
    assert found["threads"] >= 1
    assert found["threading_layer"]
    wide = "+avx512f" in found["host_features"].split(",")
    assert found["vector"] in (("AVX-512",) if wide else ("AVX", "SSE"))


@x86
def test_the_avx2_build_compiles_for_haswell_without_avx512() -> None:
    found = machine.numba_target(builds.environment("avx2"))
    assert "error" not in found, found
    assert found["target_cpu"] == "haswell"
    assert found["target_features"] == ""
    assert found["features_from"] == "the named CPU (haswell)"
    assert found["vector"] == "AVX"
    assert found["probe"]["zmm"] == 0
    assert found["probe"]["evex"] == 0
    assert "haswell" in machine.target_line(found)


def test_builds_have_their_own_settings_and_kernel_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CPU_NAME", "skylake")
    assert builds.parse("native, avx2,native") == ["native", "avx2"]
    for wrong in ("avx3", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="the builds are native, avx2"):
            builds.parse(wrong)
    native, avx2 = builds.environment("native"), builds.environment("avx2")
    assert "NUMBA_CPU_NAME" not in native
    assert "NUMBA_CPU_FEATURES" not in native
    assert avx2["NUMBA_CPU_NAME"] == "haswell"
    assert avx2["NUMBA_CPU_FEATURES"] == ""
    assert native["NUMBA_CACHE_DIR"] != avx2["NUMBA_CACHE_DIR"]
    assert avx2["NUMBA_CACHE_DIR"].endswith("-avx2")
    assert builds.without_builds(["--rules", "kniffel", "--builds", "native,avx2", "--repeat", "1"]) == [
        "--rules",
        "kniffel",
        "--repeat",
        "1",
        "--json",
    ]
    assert builds.without_builds(["--builds=avx2", "--json"]) == ["--json"]


def test_the_side_by_side_table_gives_each_build_its_ratios() -> None:
    rows = {
        "native": [
            ("solve", 2.0, "s", 1.0),
            ("target", 30.0, "s", 15.0),
            ("games", 1000.0, "/s", 2000.0),
            ("skipped", math.nan, "s", math.nan),
        ],
        "avx2": [("solve", 2.5, "s", 1.0), ("target", 45.0, "s", 18.0), ("skipped", math.nan, "s", math.nan)],
    }
    lines = builds.table(rows).splitlines()
    assert "native" in lines[0]
    assert "avx2/native" in lines[0]
    target = next(line for line in lines if line.lstrip().startswith("target"))
    assert "15.0x" in target
    assert "18.0x" in target
    assert "1.50" in target
    games = next(line for line in lines if line.lstrip().startswith("games"))
    assert "1,000 /s" in games
    assert "2,000" in games
    assert games.split()[-1] == "-"
    skipped = next(line for line in lines if line.lstrip().startswith("skipped"))
    assert skipped.split() == ["skipped", "-", "-"]
