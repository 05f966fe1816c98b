"""Speed of the exact solver against the peer package ``yatzy-solver``, in the same run.

    .venv/bin/pip install -e '.[bench]'          # or: pip install yatzy-solver
    .venv/bin/python benchmarks/solver_vs_peer.py [--variants yahtzee yatzy] [--queries 2000] [--json]
        [--builds native,avx2]

For each variant (Yahtzee with the free joker = the peer's ``american``; Scandinavian Yatzy = its
``yatzy-scandinavian``) it measures, each in a fresh process so that peak memory is per solve:

* the DP time alone (ours: :attr:`Solution.seconds`, JIT cache warm; the peer: ``Solver.build``),
* the whole process that solves without a table cache (ours: ``kniffel solve --no-cache --json`` when the
  CLI has it, else the same through the Python API), best of ``--repeat`` runs of each,
* the peak resident memory of each solve,
* loading our cached table (with and without importing the package), the first advisor query after it,
  and one advisor query (every option of a random situation) for both, best of three rounds,
* raced in one process on the same random situations, round by round (best round of each): one advisor
  query at a time (every option of a situation) and batch advice in situations per second, ours through
  ``kniffel advise --batch``'s own loop (JSON lines in, JSON lines out, in process, the table loaded)
  and on arrays (:meth:`Advisor.ranked` on :class:`~kniffel.core.position.Positions`), the peer's
  ``option_values`` one by one, its ``option_values_batch`` on arrays (the conversion to rows and to
  the peer's arrays beforehand, not timed) and the same from the peer's own text (its
  ``situation_arrays`` of the situations' notation, timed),
* the first run on a fresh install: ``kniffel solve --no-cache`` with an empty numba cache (a new
  ``NUMBA_CACHE_DIR``, so the shared one is left alone), which compiles the kernels.

Every figure comes with the load average when it was taken: on a shared machine they move with it.

The figures are printed as a table, or as JSON with ``--json``, after what the machine is, its caches and
what numba compiled for (:mod:`machine`). With ``--builds native,avx2`` it all runs once with kernels
compiled for this processor and once for AVX2 (:mod:`builds`), side by side, each time with its ratio
to our whole process (``kniffel solve --no-cache``) in the same build; the peer's figures, which no
build changes, show what the machine's load did meanwhile. Nothing here is a test: timings depend on the
machine and its load.

``--record`` keeps the side-by-side figures in ``benchmarks/results/<machine>.json``, from which
``docs/explanation/performance.md`` shows them.

On 2 cores of an idle machine (``--repeat 5``) the whole process takes about a fifth of the peer's
time for Yahtzee (0.76 s against 4.2 s) and less for Yatzy (1.25 s against 9.5 s), and the DP alone
about a fourteenth. Of ours, about 0.3 s is importing (numba 0.14 s, numpy 0.06 s, Typer and Rich
0.05 s), 0.07 s compiling the rules' tables and loading the kernels, the rest the DP. Batch advice
through ``advise --batch``'s loop, text in and out, answers about 1.3 times as many situations a second
as the peer's batch on arrays for Yahtzee, and as many for Yatzy; one query takes about three times
the peer's (0.031 against 0.0094 ms). A first run with an empty numba cache takes about 5 s. The peer's
own time moves a lot from one sitting to the next (4.2-6.6 s for Yahtzee), so compare ratios taken in
one run.

What keeps our whole process short: cached kernels load without numba's compiler refresh
(:func:`kniffel.core.runtime.kernelcache.load_without_refreshing`, which saves 0.1 s of every process
that runs a kernel); the command line freezes the heap at exit (the interpreter's last collections
would walk the few hundred thousand objects numba leaves, 0.3 s of every run); kniffel's bytecode is
compiled beforehand, as an install does; and on a first run the DP's callee kernels compile in a
second process (:mod:`kniffel.core.runtime.precompile`).

What makes the batch loop fast: a compiled reader of the JSON lines
(:func:`kniffel.core.kernels.codec.read_situations`; the Python reader takes only the lines it cannot be
sure of), the values written in half the time (:func:`~kniffel.core.kernels.codec.float_text`, 81 ns a
value against ``repr``'s 900), two threads valuing and writing blocks, and the reader's tables made
once per advisor. Of a situation's processor time (about 10 microseconds), valuing it takes 2.7,
ranking 0.6, writing its some 21 values 1.7-2.2, reading 1.3; a batch of 2,000 lines also pays the
start of its threads and the last blocks' wait, hence the higher rate at 20,000.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import builds
import machine

PYTHON = sys.executable
VARIANTS: dict[str, tuple[str, dict[str, str], str]] = {
    "yahtzee": ("yahtzee", {"joker": "free"}, "american"),
    "yahtzee-forced": ("yahtzee", {}, "american+forced-joker"),
    "yatzy": ("yatzy", {}, "yatzy-scandinavian"),
}


def child(code: str, env: dict[str, str] | None = None) -> tuple[dict[str, Any], float]:
    """Run ``code`` in a fresh interpreter; it prints one JSON line. Returns it and the wall time."""
    wrapped = textwrap.dedent(code) + textwrap.dedent(
        """
        import json as _json, resource as _resource
        RESULT["maxrss_mb"] = _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss / 1024
        print(_json.dumps(RESULT))
        """
    )
    start = time.perf_counter()
    out = subprocess.run(
        [PYTHON, "-c", wrapped], capture_output=True, text=True, env={**os.environ, **(env or {})}
    )
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{out.stderr}")
    wall = time.perf_counter() - start
    return json.loads(out.stdout.strip().splitlines()[-1]), wall


def ours_solve(rules_id: str, options: dict[str, str]) -> tuple[dict[str, Any], float]:
    return child(
        f"""
        from kniffel import rules
        from kniffel.core import table
        s = table(rules.get({rules_id!r}, {options!r}), use_cache=False)
        RESULT = {{"seconds": s.seconds, "expected_score": s.expected_score}}
        """
    )


def ours_whole_process(rules_id: str, options: dict[str, str]) -> tuple[float, str]:
    """Wall time of the whole command, with the CLI if it has ``solve``."""
    kniffel = shutil.which("kniffel", path=str(Path(PYTHON).parent))
    if kniffel is not None:
        args = [kniffel, "solve", "--rules", rules_id, "--no-cache", "--json"]
        for key, value in options.items():
            args += ["--option", f"{key}={value}"]
        start = time.perf_counter()
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode == 0:
            return time.perf_counter() - start, "kniffel solve --no-cache --json"
    _, wall = ours_solve(rules_id, options)
    return wall, "python -c (API: table(use_cache=False))"


def peer_build(variant: str) -> tuple[dict[str, Any], float]:
    return child(
        f"""
        import time
        import yatzy_solver as ys
        start = time.perf_counter()
        s = ys.Solver.build(ys.Variant({variant!r}))
        seconds = time.perf_counter() - start
        RESULT = {{"seconds": seconds, "expected_score": s.state_value("upper 0 | filled -")}}
        """
    )


def load_and_query(rules_id: str, options: dict[str, str], queries: int, directory: str) -> dict[str, Any]:
    """Fill the table cache (and numba's, for the advisor's kernel), then in a fresh process: load time
    and the first query."""
    child(
        f"""
        from pathlib import Path
        from kniffel import rules
        from kniffel.core import Advisor, table
        Advisor(table(rules.get({rules_id!r}, {options!r}), directory=Path({directory!r}))).prepare()
        RESULT = {{}}
        """
    )
    result, _ = child(
        f"""
        import random, sys, time
        from pathlib import Path
        start = time.perf_counter()
        from kniffel import rules
        from kniffel.core import ColumnPosition
        from kniffel.core import Advisor, table
        imported = time.perf_counter()
        s = table(rules.get({rules_id!r}, {options!r}), directory=Path({directory!r}))
        load = time.perf_counter() - start
        load_alone = time.perf_counter() - imported
        assert s.seconds == 0.0, "the table was not loaded from the cache"
        start = time.perf_counter()
        advisor = Advisor(s)
        advisor.options(ColumnPosition({{}}, [1, 2, 3, 4, 5], 2))
        first_query = time.perf_counter() - start
        numba_loaded = "numba" in sys.modules
        RESULT = {{
            "load_seconds": load, "load_alone_seconds": load_alone, "first_query_ms": first_query * 1000,
            "numba_imported": numba_loaded,
        }}
        """
    )
    return result


def race(
    rules_id: str, options: dict[str, str], variant: str, queries: int, rounds: int, directory: str
) -> dict[str, Any]:
    """Ours and the peer's advice on the same random situations, in one process, round by round
    (the best round of each counts): a query one by one, batch advice on arrays (ours:
    :meth:`Advisor.ranked` on :class:`Positions`; the peer's
    ``option_values_batch`` on ``situation_arrays``; the conversion not timed) and ours through
    ``advise --batch``'s own loop, text in and text out (:func:`kniffel.services.batch.run_batch`)."""
    result, _ = child(
        f"""
        import io, json, os, random, time
        from pathlib import Path
        import numpy as np
        import yatzy_solver as ys
        from kniffel import rules
        from kniffel.services import batch
        from kniffel.core import ColumnPosition, Positions
        from kniffel.core import Advisor, table
        s = table(rules.get({rules_id!r}, {options!r}), directory=Path({directory!r}))
        advisor = Advisor(s)
        advisor.prepare()
        v = ys.Variant({variant!r})
        peer = ys.Solver.build(v)
        five = s.rules.five_box
        boxes = [b.id for b in s.rules.boxes if b.id != five]
        rng = random.Random(1)
        situations = []
        for _ in range({queries}):
            filled = {{b: 0 for b in rng.sample(boxes, rng.randrange(len(boxes)))}}
            situations.append((filled, [rng.randint(1, 6) for _ in range(5)], rng.randrange(3)))
        lines = "".join(
            json.dumps({{"sheet": filled, "dice": dice, "rolls_left": left}}) + "\\n"
            for filled, dice, left in situations
        )
        positions = [ColumnPosition(*x) for x in situations]
        rows = Positions.of(advisor.compiled, positions)
        notations = []
        for filled, dice, left in situations:
            listed = ",".join(c for c in v.categories if c in filled) or "-"  # score-card order
            faces = " ".join(map(str, sorted(dice)))
            notations.append(f"dice {{faces}} | rolls {{left}} | upper 0 | filled {{listed}}")
        arrays = v.situation_arrays(notations)
        assert sum(len(o) for o in (advisor.options(p) for p in positions)) == sum(
            len(peer.option_values(n)) for n in notations
        ), "ours and the peer's list different options"
        n = len(situations)
        timed = {{
            k: [] for k in ("cli", "ours_arrays", "ours_query", "peer_arrays", "peer_text", "peer_query")
        }}
        load = [os.getloadavg()[0]]
        for _ in range({rounds}):
            start = time.perf_counter()
            errors = batch.run_batch(advisor, s.rules, io.StringIO(lines), io.StringIO())
            timed["cli"].append(time.perf_counter() - start)
            assert errors == 0
            start = time.perf_counter()
            advisor.ranked(rows)
            timed["ours_arrays"].append(time.perf_counter() - start)
            start = time.perf_counter()
            peer.option_values_batch(**arrays)
            timed["peer_arrays"].append(time.perf_counter() - start)
            start = time.perf_counter()
            peer.option_values_batch(**v.situation_arrays(notations))
            timed["peer_text"].append(time.perf_counter() - start)
            start = time.perf_counter()
            for position in positions:
                advisor.options(position)
            timed["ours_query"].append(time.perf_counter() - start)
            start = time.perf_counter()
            for notation in notations:
                peer.option_values(notation)
            timed["peer_query"].append(time.perf_counter() - start)
        load.append(os.getloadavg()[0])
        best = {{k: min(t) for k, t in timed.items()}}
        RESULT = {{
            "cli_per_second": n / best["cli"],
            "ours_arrays_per_second": n / best["ours_arrays"],
            "peer_arrays_per_second": n / best["peer_arrays"],
            "peer_text_per_second": n / best["peer_text"],
            "ours_query_ms": best["ours_query"] / n * 1000,
            "peer_query_ms": best["peer_query"] / n * 1000,
            "load_average": load,
        }}
        """
    )
    return result


def first_run(rules_id: str, options: dict[str, str]) -> tuple[float, float]:
    """Wall time of ``kniffel solve --no-cache`` compiling every kernel it needs (an empty numba cache),
    and the processor time it took (which a busy machine stretches less than the wall time)."""
    kniffel = shutil.which("kniffel", path=str(Path(PYTHON).parent))
    if kniffel is None:
        return float("nan"), float("nan")
    args = [kniffel, "solve", "--rules", rules_id, "--no-cache", "--json"]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    with tempfile.TemporaryDirectory() as numba_cache:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            args,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "NUMBA_CACHE_DIR": numba_cache},
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", nargs="+", default=["yahtzee", "yatzy"], choices=list(VARIANTS))
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=5, help="Rounds of the advice race, best taken.")
    parser.add_argument("--repeat", type=int, default=3, help="Whole-process runs of each, best taken.")
    parser.add_argument(
        "--no-first-run", dest="first_run", action="store_false", help="Skip the cold-compile run (slow)."
    )
    builds.add_option(parser)
    args = parser.parse_args()
    if importlib.util.find_spec("yatzy_solver") is None:
        sys.exit("yatzy-solver is not installed: pip install -e '.[bench]'")
    if builds.compare(args, __file__, figures):
        return
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    # An installed package has its bytecode (pip compiles it); a checkout writes it on first import,
    # unless PYTHONDONTWRITEBYTECODE is set, and then every process compiled kniffel's sources again
    # (0.05-0.08 s of each whole process).
    package = importlib.util.find_spec("kniffel")
    for location in (package and package.submodule_search_locations) or []:
        compileall.compile_dir(location, quiet=1)
    # warm numba's cache once so that every later process only loads it
    ours_solve("yahtzee", {"joker": "free"})
    report: dict[str, Any] = {"machine": ran_on}
    for name in args.variants:
        rules_id, options, variant = VARIANTS[name]
        ours, _ = ours_solve(rules_id, options)
        load_solve = os.getloadavg()[0]
        # best of --repeat runs each: a busy machine stretches single runs by seconds
        ours_wall, how = min(ours_whole_process(rules_id, options) for _ in range(args.repeat))
        peer, peer_wall = min((peer_build(variant) for _ in range(args.repeat)), key=lambda run: run[1])
        with tempfile.TemporaryDirectory() as directory:
            loaded = load_and_query(rules_id, options, args.queries, directory)
        load_query = os.getloadavg()[0]
        with tempfile.TemporaryDirectory() as directory:
            raced = race(rules_id, options, variant, args.queries, args.rounds, directory)
        cold, cold_cpu = first_run(rules_id, options) if args.first_run else (float("nan"), float("nan"))
        report[name] = {
            "load_average": {"solving": load_solve, "querying": load_query, "end": os.getloadavg()[0]},
            "first_run_seconds": {"wall": cold, "cpu": cold_cpu},
            "batch_situations_per_second": {
                "ours_cli": raced["cli_per_second"],
                "ours_arrays": raced["ours_arrays_per_second"],
                "peer_one_by_one": 1000 / raced["peer_query_ms"],
                "peer_arrays": raced["peer_arrays_per_second"],
                "peer_from_text": raced["peer_text_per_second"],
                "ratio_cli_to_peer_arrays": raced["cli_per_second"] / raced["peer_arrays_per_second"],
                "ratio_arrays": raced["ours_arrays_per_second"] / raced["peer_arrays_per_second"],
                "load_average": raced["load_average"],
            },
            "expected_score": {"ours": ours["expected_score"], "peer": peer["expected_score"]},
            "dp_seconds": {
                "ours": ours["seconds"],
                "peer": peer["seconds"],
                "ratio": ours["seconds"] / peer["seconds"],
            },
            "whole_process_seconds": {
                "ours": ours_wall,
                "peer": peer_wall,
                "ratio": ours_wall / peer_wall,
                "ours_command": how,
            },
            "peak_rss_mb": {"ours": ours["maxrss_mb"], "peer": peer["maxrss_mb"]},
            "cached_table_load_seconds": loaded["load_seconds"],
            "cached_table_load_alone_seconds": loaded["load_alone_seconds"],
            "advisor_first_query_ms": loaded["first_query_ms"],
            "advisor_imports_numba": loaded["numba_imported"],
            "advisor_query_ms": {"ours": raced["ours_query_ms"], "peer": raced["peer_query_ms"]},
        }
    machine.finish(ran_on)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name in args.variants:
        r = report[name]
        print(f"== {name}")
        e = r["expected_score"]
        print(f"  expected score     ours {e['ours']:.4f}   peer {e['peer']:.4f}")
        d = r["dp_seconds"]
        print(
            f"  DP / build         ours {d['ours']:.3f} s   peer {d['peer']:.3f} s   ratio {d['ratio']:.3f}"
        )
        w = r["whole_process_seconds"]
        print(
            f"  whole process      ours {w['ours']:.3f} s   peer {w['peer']:.3f} s   ratio {w['ratio']:.3f}"
        )
        print(f"                     ours ran: {w['ours_command']}")
        m = r["peak_rss_mb"]
        print(f"  peak RSS           ours {m['ours']:.0f} MB   peer {m['peer']:.0f} MB")
        q = r["advisor_query_ms"]
        print(f"  advisor query      ours {q['ours']:.4f} ms   peer {q['peer']:.4f} ms")
        b = r["batch_situations_per_second"]
        print(
            f"  batch advice       ours {b['ours_cli']:,.0f}/s through advise --batch's loop (text), "
            f"{b['ours_arrays']:,.0f}/s on arrays; peer {b['peer_arrays']:,.0f}/s on arrays, "
            f"{b['peer_one_by_one']:,.0f}/s one by one, {b['peer_from_text']:,.0f}/s from its own text"
        )
        print(
            f"                     ratio to the peer's arrays: {b['ratio_cli_to_peer_arrays']:.2f} (text), "
            f"{b['ratio_arrays']:.2f} (arrays); load average {b['load_average'][0]:.2f} .. "
            f"{b['load_average'][1]:.2f}"
        )
        f = r["first_run_seconds"]
        print(f"  first run (cold numba cache) {f['wall']:.2f} s wall, {f['cpu']:.2f} s processor")
        la = r["load_average"]
        print(
            f"  load average       {la['solving']:.2f} solving, {la['querying']:.2f} querying, "
            f"{la['end']:.2f} at the end"
        )
        print(
            f"  cached table load  {r['cached_table_load_seconds']:.3f} s with imports, "
            f"{r['cached_table_load_alone_seconds']:.3f} s without; first query "
            f"{r['advisor_first_query_ms']:.2f} ms (numba imported: {r['advisor_imports_numba']})"
        )
    print(machine.footer(ran_on))


def figures(report: dict[str, Any]) -> list[builds.Row]:
    """A ``--json`` report's figures, each with its ratio to our whole process of its variant."""
    rows: list[builds.Row] = []
    for name, r in report.items():
        if name == "machine":
            continue
        solve = r["whole_process_seconds"]["ours"]
        w, d, f, b = (
            r["whole_process_seconds"],
            r["dp_seconds"],
            r["first_run_seconds"],
            r["batch_situations_per_second"],
        )
        rows += [
            (f"{name}: whole process, ours", w["ours"], "s", 1.0),
            (f"{name}: whole process, peer", w["peer"], "s", w["peer"] / solve),
            (f"{name}: DP, ours", d["ours"], "s", d["ours"] / solve),
            (f"{name}: DP, peer", d["peer"], "s", d["peer"] / solve),
            (f"{name}: first run (compiling)", f["wall"], "s", f["wall"] / solve),
            (f"{name}: cached table load", r["cached_table_load_seconds"], "s", None),
            (f"{name}: advisor first query", r["advisor_first_query_ms"], "ms", None),
            (f"{name}: advisor query, ours", r["advisor_query_ms"]["ours"], "ms", None),
            (f"{name}: advisor query, peer", r["advisor_query_ms"]["peer"], "ms", None),
            (f"{name}: batch, ours (text)", b["ours_cli"], "/s", b["ours_cli"] * solve),
            (f"{name}: batch, ours (arrays)", b["ours_arrays"], "/s", b["ours_arrays"] * solve),
            (f"{name}: batch, peer (arrays)", b["peer_arrays"], "/s", b["peer_arrays"] * solve),
        ]
    return rows


if __name__ == "__main__":
    main()
