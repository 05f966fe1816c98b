"""What a benchmark ran on: every script in ``benchmarks/`` prints this first and puts it in its JSON.

    .venv/bin/python benchmarks/machine.py [--json]      # the report alone

The scripts import it as ``import machine`` (Python puts a script's own directory first on its path):

    ran_on = machine.describe()                 # load average before, the rest of the report
    if not args.json:
        print(machine.header(ran_on))
    ...                                         # the measurements
    machine.finish(ran_on)                      # load average after
    print(json.dumps({"machine": ran_on, ...})) # or print(machine.footer(ran_on))

The report holds the processor (model, the logical CPUs and those this process may use), its caches
(per instance and in total, from ``/sys/devices/system/cpu``), the load average before and after, and
what numba compiles for: its target processor and features (numba's own ``magic_tuple``, which keys its
kernel cache), the host's as LLVM sees them, whether ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` override
them (the name alone keeps the host's features; an empty feature list takes the named processor's), the
widest vector instructions in a small probe kernel compiled for that target, the threading layer and the
number of threads, and the versions of numba, llvmlite and NumPy.

The numba part is asked of a fresh interpreter with this process's environment, so that the benchmark's
own process has not imported numba or compiled anything before it measures (about a second).

With ``--record`` a benchmark keeps its figures in ``benchmarks/results/<machine id>.json`` (:func:`record`),
one file per machine (:func:`machine_id`), one table per benchmark under its own name, replaced by the
benchmark's next recorded run; the documentation's performance page shows them (``tools/docs/hooks.py``):

    machine.add_record_option(parser)           # --record [FOLDER]; builds.add_option adds it too
    ...
    if args.record:
        machine.record("distribution", ran_on, ["rules", "build s"], [["yahtzee", 4.9]], args.record)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CPU_DIR = Path("/sys/devices/system/cpu")
OVERRIDES = ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")
SIMD_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni")
"""The vector extensions worth naming in the processor's flags (``/proc/cpuinfo``)."""


def describe(numba_info: bool = True) -> dict[str, Any]:
    """The report, with the load average now (``load.before``); :func:`finish` adds the load after."""
    report: dict[str, Any] = {
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load": {"before": list(os.getloadavg()), "after": None},
        "cpu": cpu(),
        "caches": caches(),
        "python": platform.python_version(),
    }
    report["numba"] = numba_target() if numba_info else None
    return report


def finish(report: dict[str, Any]) -> dict[str, Any]:
    """Record the load average after the measurements in ``report`` (and return it)."""
    report["load"]["after"] = list(os.getloadavg())
    return report


def cpu() -> dict[str, Any]:
    """The processor's model and vector extensions (``/proc/cpuinfo``) and the CPUs there are and may
    be used (``os.sched_getaffinity``: a container or ``taskset`` may allow fewer)."""
    info: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    flags = set(info.get("flags", "").split())
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return {
        "model": info.get("model name") or platform.processor() or "unknown",
        "vendor": info.get("vendor_id"),
        "family": info.get("cpu family"),
        "model_number": info.get("model"),
        "architecture": platform.machine(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": len(affinity) if affinity is not None else os.cpu_count(),
        "simd": [flag for flag in SIMD_FLAGS if flag in flags],
    }


def caches() -> list[dict[str, Any]]:
    """Each cache of the first CPU (L1d, L1i, L2, L3): its size per instance, how many logical CPUs
    share one instance, how many instances there are and their total size (kB). Empty where the
    system does not say (not Linux)."""
    found = []
    for index in sorted((CPU_DIR / "cpu0" / "cache").glob("index*")):
        try:
            level = int(_read(index / "level"))
            kind = _read(index / "type")
            size_kb = _kilobytes(_read(index / "size"))
            shared = _read(index / "shared_cpu_list")
        except (OSError, ValueError):
            continue
        instances = {
            _read(other)
            for other in CPU_DIR.glob(f"cpu[0-9]*/cache/{index.name}/shared_cpu_list")
            if other.is_file()
        }
        name = f"L{level}" + {"Data": "d", "Instruction": "i"}.get(kind, "")
        found.append(
            {
                "name": name,
                "level": level,
                "type": kind,
                "size_kb": size_kb,
                "shared_by_cpus": len(_cpu_list(shared)),
                "instances": len(instances),
                "total_kb": size_kb * len(instances),
            }
        )
    return found


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8").strip()


def _kilobytes(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)\s*([KMG]?)", text).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "K": 1, "M": 1024, "G": 1024 * 1024}[unit] // (1 if unit else 1024)


def _cpu_list(text: str) -> list[int]:
    cpus: list[int] = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        cpus.extend(range(int(first), int(last or first) + 1))
    return cpus


PROBE = """
import json, os, re, sys
import llvmlite, llvmlite.binding as llvm, numba, numpy as np
from numba.core.registry import cpu_target

triple, name, features = cpu_target.target_context.codegen().magic_tuple()

@numba.njit(parallel=True, cache=False)
def probe(out, a, b, index):
    for i in numba.prange(out.size):
        out[i] = a[index[i]] * b[i] + out[i]

probe(np.zeros(4), np.ones(4), np.ones(4), np.zeros(4, dtype=np.int64))
asm = "\\n".join(probe.inspect_asm().values())
counts = {
    "zmm": len(re.findall(r"%zmm\\d", asm)),
    "ymm": len(re.findall(r"%ymm\\d", asm)),
    "evex": len(re.findall(r"%[xyz]mm(?:1[6-9]|2\\d|3[01])\\b|\\{%k[1-7]\\}", asm)),
    "gather": len(re.findall(r"\\tv(?:p)?gather", asm)),
}
print(json.dumps({
    "numba": numba.__version__, "llvmlite": llvmlite.__version__, "numpy": np.__version__,
    "triple": triple, "target_cpu": name, "target_features": features,
    "host_cpu": llvm.get_host_cpu_name(), "host_features": llvm.get_host_cpu_features().flatten(),
    "overrides": {key: os.environ.get(key) for key in OVERRIDES},
    "probe": counts, "threads": numba.config.NUMBA_NUM_THREADS, "threading_layer": numba.threading_layer(),
}))
"""


def numba_target(env: dict[str, str] | None = None) -> dict[str, Any]:
    """What numba compiles for in a process with ``env`` (this process's environment by default),
    asked of a fresh interpreter (see the module's description). ``vector`` sums up the probe kernel:
    ``AVX-512`` (512-bit registers or EVEX-only registers and masks), ``AVX`` (256-bit registers) or
    ``SSE``; ``features_from`` says where the features came from."""
    done = subprocess.run(
        [sys.executable, "-c", f"OVERRIDES = {OVERRIDES!r}\n{PROBE}"],
        capture_output=True,
        text=True,
        env=env if env is not None else dict(os.environ),
        check=False,
    )
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["numba probe failed"])[-1]}
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    counts = found["probe"]
    found["vector"] = "AVX-512" if counts["zmm"] or counts["evex"] else "AVX" if counts["ymm"] else "SSE"
    features = found["overrides"]["NUMBA_CPU_FEATURES"]
    found["features_from"] = (
        "the host"
        if features is None
        else f"the named CPU ({found['target_cpu']})"
        if features == ""
        else "NUMBA_CPU_FEATURES"
    )
    return found


def enabled(features: str) -> list[str]:
    """The vector extensions switched on in an LLVM feature string (``+avx2,-avx512f,...``)."""
    on = {f[1:] for f in features.split(",") if f.startswith("+")}
    return [f for f in ("sse4.2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl") if f in on]


def target_line(target: dict[str, Any] | None) -> str:
    """One line on what numba compiled for."""
    if target is None:
        return "numba: not asked"
    if "error" in target:
        return f"numba: {target['error']}"
    overrides = ", ".join(f"{k}={v!r}" for k, v in target["overrides"].items() if v is not None)
    features = enabled(target["target_features"]) or ["as the named CPU"]
    probe = target["probe"]
    return (
        f"numba {target['numba']} (llvmlite {target['llvmlite']}, NumPy {target['numpy']}) compiles for "
        f"{target['target_cpu']} [{' '.join(features)}], features from {target['features_from']}"
        f"{f' ({overrides})' if overrides else ''}; host {target['host_cpu']}; probe kernel: "
        f"{target['vector']} ({probe['zmm']} zmm, {probe['ymm']} ymm, {probe['evex']} EVEX-only, "
        f"{probe['gather']} gathers); {target['threads']} threads, {target['threading_layer']} layer"
    )


def header(report: dict[str, Any]) -> str:
    """The report as a few lines, printed before a benchmark's figures."""
    c = report["cpu"]
    sizes = ", ".join(
        f"{x['name']} {_size(x['size_kb'])}"
        + (f" x{x['instances']} = {_size(x['total_kb'])}" if x["instances"] > 1 else "")
        + (f" (shared by {x['shared_by_cpus']} CPUs)" if x["shared_by_cpus"] > 1 else "")
        for x in report["caches"]
    )
    load = report["load"]["before"]
    return "\n".join(
        [
            f"machine: {c['model']} ({c['architecture']}{_family(c)}, "
            f"{c['usable_cpus']} of {c['logical_cpus']} CPUs usable; {' '.join(c['simd']) or 'no AVX'}), "
            f"Python {report['python']}, {report['time_utc']}",
            f"caches:  {sizes or 'not known'}",
            f"{target_line(report['numba'])}",
            f"load:    {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min) before",
        ]
    )


def footer(report: dict[str, Any]) -> str:
    """The load average after the measurements (call :func:`finish` first)."""
    after = report["load"]["after"] or list(os.getloadavg())
    return f"load:    {after[0]:.2f} {after[1]:.2f} {after[2]:.2f} (1, 5, 15 min) after"


RESULTS = Path(__file__).resolve().parent / "results"
"""Where the recorded figures are kept: one JSON file per machine (:func:`record`); the whole reports of
the studies that pages quote are in its folder ``reports``."""


def machine_id(report: dict[str, Any]) -> str:
    """The name of a machine's results file: the processor's model without its trademarks and clock,
    its family and model number (which tell apart processors of one brand name: an AMD EPYC of family
    25 model 17 is a Zen 4) and the CPUs the benchmarks could use, e.g. ``amd-epyc-f25m17-2cpu``."""
    c = report["cpu"]
    model = re.sub(r"\((?:R|TM)\)|@.*$|\b(?:CPU|Processor)\b|\b\d+-Core\b", " ", c["model"], flags=re.I)
    slug = re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-") or "unknown"
    family = f"-f{c['family']}m{c['model_number']}" if c.get("family") and c.get("model_number") else ""
    return f"{slug}{family}-{c['usable_cpus']}cpu"


def add_record_option(parser: argparse.ArgumentParser) -> None:
    """``--record [FOLDER]``: keep the figures in the machine's results file (in FOLDER, by default
    :data:`RESULTS`)."""
    parser.add_argument(
        "--record",
        nargs="?",
        const=RESULTS,
        default=None,
        type=Path,
        metavar="FOLDER",
        help="Keep the figures in benchmarks/results/<machine>.json (or in FOLDER), replacing this "
        "benchmark's earlier ones: the documentation's performance page shows them.",
    )


def record(
    name: str,
    report: dict[str, Any],
    columns: list[str],
    rows: list[list[Any]],
    folder: Path | None = None,
    *,
    numba: dict[str, str] | None = None,
    note: str | None = None,
) -> Path:
    """Keep benchmark ``name``'s figures, a table of ``columns`` and ``rows`` (numbers, text, ``None``
    for none), in the results file of the machine ``report`` describes (in ``folder``, by default
    :data:`RESULTS`), replacing what ``name`` recorded there before; return the file.

    The file holds the machine (the report without its time and load) and, by benchmark, the command
    that ran (its arguments without ``--record``), when it ran, the load before and after, what numba
    compiled for (``numba``: a line by build; by default the report's), the table and a ``note``. Each
    benchmark's table is its own latest run: figures of different runs are never mixed in one table."""
    folder = RESULTS if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{machine_id(report)}.json"
    kept: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    benchmarks: dict[str, Any] = kept.get("benchmarks", {})
    benchmarks[name] = {
        "command": " ".join(["benchmarks/" + Path(sys.argv[0]).name, *without_record(sys.argv[1:])]),
        "time_utc": report["time_utc"],
        "load": report["load"],
        "numba": numba if numba is not None else {"native": target_line(report.get("numba"))},
        "columns": columns,
        "rows": [[_cell(value) for value in row] for row in rows],
        "note": note,
    }
    stable = {key: value for key, value in report.items() if key not in ("time_utc", "load")}
    if stable.get("numba") is None and kept.get("machine", {}).get("numba") is not None:
        stable["numba"] = kept["machine"]["numba"]  # a benchmark that did not ask numba keeps what others did
    content = {"machine": stable, "benchmarks": dict(sorted(benchmarks.items()))}
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    partial.replace(path)
    return path


def without_record(argv: list[str]) -> list[str]:
    """``argv`` without ``--record`` and its folder."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip and not arg.startswith("-"):
            skip = False
            continue
        skip = False
        if arg == "--record":
            skip = True
        elif not arg.startswith("--record="):
            kept.append(arg)
    return kept


def _cell(value: Any) -> Any:
    """A figure as JSON keeps it: a float that is not a number (not measured) as ``None``."""
    if isinstance(value, float) and value != value:
        return None
    return value


def _family(c: dict[str, Any]) -> str:
    return f" family {c['family']} model {c['model_number']}" if c.get("family") else ""


def _size(kb: int) -> str:
    return f"{kb // 1024} MB" if kb >= 1024 and kb % 1024 == 0 else f"{kb} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = finish(describe())
    print(json.dumps(report, indent=1) if args.json else header(report))


if __name__ == "__main__":
    main()
