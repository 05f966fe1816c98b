"""Where the time of the target and win kernels goes: each piece of a turn's sweep on its own, per lane,
and a whole cone per lane on one thread and on all of them.

    .venv/bin/python benchmarks/kernels.py [--rules yahtzee] [--widths 64 256 512] [--json]
        [--builds native,avx2]

A *lane* is one value the keep lattice carries: a target of one state in the target rows (float32), an
upper score of one state in the expected-score DP (float64). The kernels sweep many lanes side by side,
so their cost per lane depends on how many go together (the *width*; a bundle of target rows is 256 to
about 600 lanes wide). For each width, on one thread (CPU time of the thread, so that other work on the
machine changes little):

* ``keep_expect``: the mean over a die's six faces of every keep with fewer dice than a roll (one throw
  of the lattice);
* ``keep_max``: every keep's best sub-keep and every roll's best choice (one throw);
* ``sweep``: a whole turn as the target rows sweep it (three throws: the two above twice, the last
  throw's mean);
* ``best_entries``: every roll's best box from the rows of its entries.

With each, the bytes the lattice reads and writes per lane for it (counted from the lattice's links:
what the loop moves through the caches, not what reaches memory) and what that makes per second.
Then a cone of target rows (``--target`` from a sheet with ``--filled`` boxes filled), whole, per lane
on one thread and on all: their ratio says whether the threads share a limit (memory) or not.

The machine, its caches and what numba compiled for come first (:mod:`machine`). Nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import builds
import machine
import numpy as np
from numba import njit

from kniffel import rules
from kniffel.core import SheetState, compile_rules, compiled_threads, solve_rows, use_threads
from kniffel.core.kernels.common import best_entries, keep_expect, keep_max, sweep


@njit(cache=True, nogil=True)
def _expect(ev: Any, width: int, t: Any, repeat: int) -> None:  # pragma: no cover
    for _ in range(repeat):
        keep_expect(ev, width, t.child, t.first_roll, t.roll_probs, False, ev, True, ev[:0])


@njit(cache=True, nogil=True)
def _max(ev: Any, width: int, t: Any, seed: Any, repeat: int) -> None:  # pragma: no cover
    for _ in range(repeat):
        keep_max(ev, width, t.parent, t.first_roll, seed, t.roll_probs, ev[0, :0])


@njit(cache=True, nogil=True)
def _sweep(sv: Any, t: Any, total: Any, repeat: int) -> None:  # pragma: no cover
    for _ in range(repeat):
        sweep(sv, 0, min(t.per_turn, 0) + t.rolls, t, total)


@njit(cache=True, nogil=True)
def _best(rows: Any, nonzero: Any, out: Any, repeat: int) -> None:  # pragma: no cover
    for _ in range(repeat):
        best_entries(rows, nonzero, out, None)


def per_lane(run: Any, width: int, lanes_wanted: int = 3_000_000) -> float:
    """Nanoseconds of this thread's CPU per lane: ``run(repeat)`` once to compile, then timed."""
    run(1)
    repeat = max(1, lanes_wanted // width)
    start = time.thread_time()
    run(repeat)
    return (time.thread_time() - start) * 1e9 / (repeat * width)


def lattice_bytes(t: Any, size: int) -> dict[str, int]:
    """What each piece reads and writes per lane, in bytes of ``size``: ``keep_expect`` six reads and a
    write per keep; ``keep_max`` a read, a read and a write per link (the keep's own row is read and
    written again for each of its sub-keeps) and a roll's own value; ``best_entries`` the same per row
    of an entry a roll may take, and its result written once."""
    keeps = int(t.first_roll)
    links = int((t.parent >= 0).sum())
    rolls = int(t.child.shape[0] - keeps)
    entries = int((t.nonzero >= 0).sum())
    expect = keeps * 7 * size
    most = (links * 3 + rolls * 2) * size
    best = (entries * 3 + rolls * 3) * size
    # a turn of three throws: two of each, and the last throw's mean over the rolls, summed as the second
    # keep_max makes each roll's value (its accumulator's row read and written per roll)
    return {
        "keep_expect": expect,
        "keep_max": most,
        "best_entries": best,
        "sweep": 2 * (expect + most) + 2 * rolls * size,
    }


def measure(rules_id: str, widths: list[int], target: int, filled: int) -> dict[str, Any]:
    c = compile_rules(rules.get(rules_id))
    t = c.kernel_tables
    n_s, n_rolls, _ = t.nonzero.shape
    rng = np.random.default_rng(1)
    moved = lattice_bytes(t, 4)
    rows: list[dict[str, Any]] = []
    for width in widths:
        ev = rng.random((t.child.shape[0], width)).astype(np.float32)
        seed = rng.random((n_rolls, width)).astype(np.float32)
        sv = rng.random((1, n_s, n_rolls, width)).astype(np.float32)
        total = np.empty((1, 1, width), dtype=np.float32)
        entry_rows = rng.random((t.pair_box.shape[0] + 2, width)).astype(np.float32)
        out = np.empty((n_s, n_rolls, width), dtype=np.float32)
        pieces: dict[str, Callable[[int], None]] = {
            "keep_expect": partial(_expect, ev, width, t),
            "keep_max": partial(_max, ev, width, t, seed),
            "sweep": partial(_sweep, sv, t, total),
            "best_entries": partial(_best, entry_rows, t.nonzero, out),
        }
        for name, run in pieces.items():
            ns = per_lane(run, width)
            rows.append(
                {"piece": name, "width": width, "ns_per_lane": ns, "bytes_per_lane": moved[name],
                 "gb_per_s": moved[name] / ns}
            )  # fmt: skip
    sheet = {box.id: 0 for box in c.rules.boxes[:filled]}
    root = SheetState.of(c, sheet)
    cone: dict[str, Any] = {"target": target, "filled": filled}
    threads = compiled_threads()
    for count in sorted({1, threads}):
        use_threads(count)
        solve_rows(c, root=root, low=target, high=target)  # compiled, and the lanes counted
        before = resource.getrusage(resource.RUSAGE_SELF)
        solved = solve_rows(c, root=root, low=target, high=target)
        after = resource.getrusage(resource.RUSAGE_SELF)
        lanes = sum(len(level) for level in solved.levels if level is not None)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        cone[f"threads_{count}"] = {"seconds": solved.seconds, "cpu": cpu, "lanes": lanes,
                                    "ns_per_lane": solved.seconds * 1e9 / lanes}  # fmt: skip
    use_threads(threads)
    return {"rules": rules_id, "pieces": rows, "cone": cone}


def figures(report: dict[str, Any]) -> list[builds.Row]:
    result = report["result"]
    found: list[builds.Row] = [
        (f"{row['piece']} @{row['width']}", row["ns_per_lane"], "ns/lane", None) for row in result["pieces"]
    ]
    for key, cone in result["cone"].items():
        if key.startswith("threads_"):
            found.append((f"cone, {key.replace('_', ' ')}", cone["ns_per_lane"], "ns/lane", None))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--widths", type=int, nargs="+", default=[64, 256, 512])
    parser.add_argument("--target", type=int, default=150)
    parser.add_argument("--filled", type=int, default=4, help="boxes filled at the cone's root")
    parser.add_argument("--json", action="store_true")
    builds.add_option(parser)
    args = parser.parse_args()
    if builds.compare(args, __file__, figures):
        return
    ran_on = machine.describe()
    if not args.json:
        print(machine.header(ran_on), flush=True)
    result = measure(args.rules, args.widths, args.target, args.filled)
    machine.finish(ran_on)
    if args.json:
        print(json.dumps({"machine": ran_on, "result": result}, indent=1))
        return
    print(f"  {'piece':<14} {'width':>6} {'ns/lane':>9} {'bytes/lane':>11} {'GB/s':>7}")
    for row in result["pieces"]:
        print(
            f"  {row['piece']:<14} {row['width']:>6} {row['ns_per_lane']:>9.1f} {row['bytes_per_lane']:>11,}"
            f" {row['gb_per_s']:>7.1f}"
        )
    cone = result["cone"]
    print(f"  cone of {cone['target']} from {cone['filled']} boxes filled:")
    for key, value in cone.items():
        if key.startswith("threads_"):
            print(
                f"    {key.replace('_', ' ')}: {value['seconds']:.2f} s, {value['lanes']:,} lanes,"
                f" {value['ns_per_lane']:.0f} ns a lane, {value['cpu']:.1f} s of CPU"
            )
    print(machine.footer(ran_on))


if __name__ == "__main__":
    main()
