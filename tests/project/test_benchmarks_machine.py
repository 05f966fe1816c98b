"""What every benchmark reports about the machine it ran on (``benchmarks/machine.py``) and how the
native and AVX2 builds are set apart (``benchmarks/builds.py``). No timings are asserted."""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import re
import sys
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

import pytest

from support.benchmarks import BENCHMARKS, load

pytestmark = pytest.mark.compiles_nothing

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


def test_a_machines_results_file_keeps_each_benchmarks_latest_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = machine.finish(machine.describe(numba_info=False))
    argv = ["/x/benchmarks/first.py", "--rules", "yahtzee", "--record", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    path = machine.record("first", report, ["figure", "s"], [["solve", 1.5], ["skipped", math.nan]], tmp_path)
    assert path == tmp_path / f"{machine.machine_id(report)}.json"
    assert re.fullmatch(r"[a-z0-9-]+-\d+cpu", path.stem)
    monkeypatch.setattr(sys, "argv", ["second.py", "--record"])
    machine.record("second", report, ["figure"], [["a"]], tmp_path, note="seen")
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert "load" not in kept["machine"]
    assert kept["machine"]["cpu"] == report["cpu"]
    first = kept["benchmarks"]["first"]
    assert first["command"] == "benchmarks/first.py --rules yahtzee"
    assert first["rows"] == [["solve", 1.5], ["skipped", None]]  # not measured: null, not NaN
    assert first["load"] == report["load"]
    assert first["numba"] == {"native": "numba: not asked"}
    assert kept["benchmarks"]["second"]["note"] == "seen"
    # a benchmark's next run replaces its own table and nothing else
    machine.record("first", report, ["figure", "s"], [["solve", 2.5]], tmp_path)
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert kept["benchmarks"]["first"]["rows"] == [["solve", 2.5]]
    assert kept["benchmarks"]["second"]["rows"] == [["a"]]
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    # what numba compiles for, asked by one benchmark, stays when one that did not ask records
    asked = {**report, "numba": {"target_cpu": "haswell"}}
    machine.record("third", asked, ["figure"], [["b"]], tmp_path, numba={"native": "haswell"})
    machine.record("second", report, ["figure"], [["c"]], tmp_path)
    assert json.loads(path.read_text(encoding="utf-8"))["machine"]["numba"] == {"target_cpu": "haswell"}


def test_machine_ids_name_the_processor_without_its_trademarks() -> None:
    report = machine.describe(numba_info=False)
    xeon = "Intel(R) Xeon(R) Platinum 8581C CPU @ 2.10GHz"
    report["cpu"].update(model=xeon, family="6", model_number="207")
    report["cpu"]["usable_cpus"] = 2
    assert machine.machine_id(report) == "intel-xeon-platinum-8581c-f6m207-2cpu"
    report["cpu"].update(model="AMD EPYC 9R14 96-Core Processor", family="25", model_number="17")
    assert machine.machine_id(report) == "amd-epyc-9r14-f25m17-2cpu"
    assert machine.without_record(["--record", "--json"]) == ["--json"]
    assert machine.without_record(["--record", "/tmp/x", "--seconds", "5"]) == ["--seconds", "5"]
    assert builds.without_builds(["--record=/tmp/x", "--builds", "avx2"]) == ["--json"]


def test_builds_record_their_figures_side_by_side(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    builds.add_option(parser)
    measured = {
        "native": {"machine": {"numba": None}, "solve": 2.0, "games": 1000.0},
        "avx2": {"machine": {"numba": None}, "solve": 2.5, "games": math.nan},
    }
    asked: list[list[str]] = []

    def run(script: str, chosen: list[str], argv: list[str]) -> dict[str, dict[str, object]]:
        asked.append(chosen)
        return {build: measured[build] for build in chosen}

    def rows(result: dict[str, float]) -> list[tuple[str, float, str, float | None]]:
        return [("solve", result["solve"], "s", 1.0), ("games", result["games"], "/s", None)]

    monkeypatch.setattr(builds, "run", run)
    describe = machine.describe
    monkeypatch.setattr(machine, "describe", lambda: describe(numba_info=False))
    monkeypatch.setattr(sys, "argv", ["bench.py", "--record", str(tmp_path)])
    assert not builds.compare(parser.parse_args([]), "bench.py", rows)  # neither option: measure here
    assert builds.compare(parser.parse_args(["--record", str(tmp_path)]), "/b/bench.py", rows)
    assert asked == [["native"]]  # --record alone: the native build, in a process of its own
    both = parser.parse_args(["--builds", "native,avx2", "--record", str(tmp_path)])
    assert builds.compare(both, "bench", rows)
    (path,) = tmp_path.iterdir()
    entry = json.loads(path.read_text(encoding="utf-8"))["benchmarks"]["bench"]
    assert entry["columns"] == ["figure", "unit", "native", "native vs solve", "avx2", "avx2 vs solve"]
    assert entry["rows"] == [["solve", "s", 2.0, 1.0, 2.5, 1.0], ["games", "/s", 1000.0, None, None, None]]
    assert set(entry["numba"]) == {"native", "avx2"}


def hooks() -> ModuleType:
    """The documentation's hooks (``tools/docs/hooks.py``), which make the results' tables."""
    path = BENCHMARKS.parent / "tools" / "docs" / "hooks.py"
    spec = importlib.util.spec_from_file_location("docs_hooks", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_performance_page_shows_each_recorded_benchmark_once(tmp_path: Path) -> None:
    docs = hooks()
    report = machine.finish(machine.describe(numba_info=False))
    table = [["bot | win", 12345.6], ["solve", 0.98765]]
    machine.record("alpha", report, ["figure", "games/s"], table, tmp_path)
    machine.record("beta", report, ["figure"], [["only"]], tmp_path, note="a note")
    page = "# P\n\n<!-- results: alpha -->\n\n<!-- results: gamma -->\n\n<!-- results: others -->\n"
    shown = docs.results_in(page, docs.load_results(tmp_path))
    assert "<!-- results:" not in shown
    assert "| bot \\| win | 12,346 |" in shown
    assert "| solve | 0.988 |" in shown
    assert report["cpu"]["model"] in shown
    assert "Not recorded on any machine yet: `.venv/bin/python benchmarks/gamma.py --record`" in shown
    assert shown.count("### `beta`") == 1  # named by no line of the page: under "others"
    assert "### `alpha`" not in shown
    assert "a note" in shown


def test_the_recorded_results_are_tables_the_page_can_show() -> None:
    docs = hooks()
    machines = docs.load_results(docs.RESULTS)
    for name, content in machines.items():
        assert name == machine.machine_id(content["machine"])
        for entry in content["benchmarks"].values():
            assert entry["command"].startswith("benchmarks/")
            assert all(len(row) == len(entry["columns"]) for row in entry["rows"])
    page = (BENCHMARKS.parent / "docs" / "explanation" / "performance.md").read_text(encoding="utf-8")
    assert "<!-- results: others -->" in page
