"""The first run's compile helper (:mod:`kniffel.core.runtime.precompile`): it compiles exactly the signatures
the DP asks for, the DP then loads them instead of compiling them and its values are the same bit for
bit, and no helper starts where it cannot help."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kniffel import rules
from kniffel.core import solve
from kniffel.core.kernels.jobs import dp_jobs, option_jobs
from kniffel.core.runtime.precompile import FINISH, HELPER_ENV, _Progress, start, stop


@pytest.mark.slow
def test_the_dp_loads_what_the_helper_compiled_and_its_values_do_not_change(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        HELPER_ENV: "1",  # this test runs the helper itself, to the end
    }
    table = rules.single_column(rules.get("yahtzee"))
    run_helper(env, 'rules.single_column(rules.get("yahtzee"))', "dp_jobs", timeout=300)
    out = tmp_path / "values.npy"
    solved = subprocess.run(
        [sys.executable, "-c", _SOLVE, str(out)], env=env, capture_output=True, text=True, check=True
    )
    compiled = solved.stdout.split()
    # the bundles are cut first, while the helper starts on the DP's callees
    assert compiled == ["bundle_starts", "solve_points"], (
        "the DP compiled a callee the helper should have given it"
    )
    assert np.array_equal(np.load(out), solve(table).values)


def run_helper(env: dict[str, str], rule_set: str, jobs: str, *, timeout: float) -> None:
    """Run the helper to its end on ``precompile.<jobs>`` of the rule set the expression ``rule_set``
    names, its request made in a process of its own (as the asking process makes it)."""
    request = subprocess.run(
        [sys.executable, "-c", _REQUEST.format(rule_set=rule_set, jobs=jobs)],
        env=env,
        capture_output=True,
        check=True,
    ).stdout
    # standard input stays open: the helper exits when it closes (its parent is gone)
    helper = subprocess.Popen(
        [sys.executable, "-m", "kniffel.core.runtime.precompile"], stdin=subprocess.PIPE, env=env
    )
    assert helper.stdin is not None
    helper.stdin.write(request)
    helper.stdin.flush()
    assert helper.wait(timeout=timeout) == 0
    helper.stdin.close()


_REQUEST = textwrap.dedent(
    """
    import sys
    from kniffel import rules
    from kniffel.core import compile_rules
    from kniffel.core.kernels import jobs
    from kniffel.core.runtime.precompile import request
    tables = compile_rules({rule_set}).kernel_tables
    sys.stdout.buffer.write(request(getattr(jobs, "{jobs}")(tables)))
    """
)

_SOLVE = textwrap.dedent(
    """
    import sys
    import numpy as np
    from numba.core import event
    from kniffel import rules
    from kniffel.core import solve
    compiled = []
    class Listener(event.Listener):
        def on_start(self, e):
            compiled.append(e.data["dispatcher"].py_func.__name__)
        def on_end(self, e):
            pass
    event.register("numba:compile", Listener())
    solution = solve(rules.single_column(rules.get("yahtzee")))
    np.save(sys.argv[1], solution.values)
    print(" ".join(name for name in compiled if name != "impl"))
    """
)


def test_no_helper_when_the_kernels_are_in_the_cache() -> None:
    table = rules.single_column(rules.get("yahtzee"))
    solve(table)  # compiled or loaded: in this process now
    from kniffel.core import compile_rules
    from kniffel.core.kernels.points import solve_points

    tables = compile_rules(table).kernel_tables
    assert start(dp_jobs(tables), solve_points) is None
    stop(None)


def test_no_helper_when_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HELPER_ENV, "1")
    from kniffel.core import compile_rules
    from kniffel.core.kernels.points import solve_points

    tables = compile_rules(rules.single_column(rules.get("yahtzee"))).kernel_tables
    assert start(dp_jobs(tables), solve_points) is None


def test_a_kernel_the_helper_is_compiling_is_waited_for_not_compiled_again() -> None:
    """While the helper says it compiles a kernel, this process, reaching that kernel, waits until the
    helper is done (and then loads it); another kernel it compiles itself at once. A stand-in helper
    says what the real one says."""
    from kniffel.core.runtime.kernelcache import waiters

    stand_in = (
        "import sys, time\n"
        "print('start slow_kernel', flush=True)\n"
        "time.sleep(1.0)\n"
        "print('done slow_kernel', flush=True)\n"
        "sys.stdin.read()\n"
    )
    helper = subprocess.Popen([sys.executable, "-c", stand_in], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    progress = _Progress(helper)
    try:
        assert progress.wait_for in waiters
        with progress.changed:
            assert progress.changed.wait_for(lambda: progress.compiling == "slow_kernel", timeout=120)
        assert not progress.wait_for("another_kernel")
        started = time.monotonic()
        assert progress.wait_for("slow_kernel")
        assert progress.compiling is None
        assert time.monotonic() - started > 0.2  # it waited for the stand-in's second
    finally:
        progress.stop()
    assert progress.wait_for not in waiters
    assert helper.returncode is not None


def test_the_helper_stops_after_its_kernel_when_the_work_is_done(tmp_path: Path) -> None:
    """Told that the asking process's work is done, the helper ends the kernel it is compiling (the
    asking process asks for it next) and starts no other."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), HELPER_ENV: "1"}
    request = subprocess.run(
        [sys.executable, "-c", _REQUEST.format(rule_set='rules.get("yahtzee")', jobs="dp_jobs")],
        env=env,
        capture_output=True,
        check=True,
    ).stdout
    helper = subprocess.Popen(
        [sys.executable, "-m", "kniffel.core.runtime.precompile"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert helper.stdin is not None
    assert helper.stdout is not None
    # standard input stays open (closed, it would end the helper at once)
    helper.stdin.write(request + f"{FINISH}\n".encode())
    helper.stdin.flush()
    said = helper.stdout.read()  # to its end: the helper has exited
    assert helper.wait(timeout=300) == 0
    helper.stdin.close()
    started = [line for line in said.decode().splitlines() if line.startswith("start ")]
    assert len(started) <= 1, said


@pytest.mark.slow
def test_a_first_target_question_loads_the_option_kernel_the_helper_compiled(tmp_path: Path) -> None:
    """The helper's kernels have the argument types a target question passes: after it has run, the
    question loads them (no compile of its own), and its answer is the same as without the helper.

    The question runs on a copy of this session's kernel cache without the helper's kernels: its rows'
    kernels (compiled here first, as other tests need them too) load from the copy, so only the
    helper's kernels are compiled for this test alone."""
    from kniffel.core import TargetAdvisor, solve_rows
    from kniffel.core.runtime.kernelcache import kernels_cache_dir

    expected = _answer(TargetAdvisor, solve_rows)
    numba_dir = tmp_path / "numba"
    shutil.copytree(
        kernels_cache_dir(),
        numba_dir / kernels_cache_dir().name,
        ignore=shutil.ignore_patterns(*(f"{_cache_name(kernel)}-*" for kernel in _HELPED), "*.tmp"),
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(numba_dir), HELPER_ENV: "1"}
    run_helper(env, 'rules.get("yahtzee")', "option_jobs", timeout=600)
    ask = _ASK.replace("TESTS", repr(str(Path(__file__).parent)))
    asked = subprocess.run(
        [sys.executable, "-c", ask], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    again = set(asked[0].split()) & {kernel.py_func.__name__ for kernel in _HELPED}
    assert not again, f"the question compiled the helper's kernels again: {again}"
    assert asked[1] == expected


def test_the_helpers_signatures_are_those_a_target_question_compiles() -> None:
    from kniffel.core import TargetAdvisor, compile_rules, solve_rows

    _answer(TargetAdvisor, solve_rows)  # compiled or loaded: in this process now
    jobs = option_jobs(compile_rules(rules.get("yahtzee")).kernel_tables)
    assert [kernel for kernel, _ in jobs] == _HELPED
    for kernel, signature in jobs:
        assert signature in kernel.signatures, kernel.py_func.__name__


def _helped() -> list[Any]:
    from kniffel.core.kernels.batch import ranked_options
    from kniffel.core.kernels.spans import cut_windows
    from kniffel.core.kernels.target import target_options
    from kniffel.core.kernels.win import fold

    return [
        cut_windows,
        target_options,
        fold,
        ranked_options,
    ]


_HELPED = _helped()


def _cache_name(kernel: Any) -> str:
    """The start of the names of ``kernel``'s files in numba's cache: its module's last part and name."""
    return f"{kernel.py_func.__module__.rsplit('.', 1)[-1]}.{kernel.py_func.__name__}"


_ASK = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, TESTS)
    from numba.core import event
    from kniffel.core import TargetAdvisor, solve_rows
    import test_precompile
    compiled = []
    class Listener(event.Listener):
        def on_start(self, e):
            compiled.append(e.data["dispatcher"].py_func.__name__)
        def on_end(self, e):
            pass
    event.register("numba:compile", Listener())
    answer = test_precompile._answer(TargetAdvisor, solve_rows)
    print(" ".join(compiled))
    print(answer)
    """
)


def _answer(advisor: Any, solve_rows: Any) -> str:
    """A target question late in a Yahtzee game (its rows solved in a moment): its options, as text."""
    from kniffel.core import Advisor, ColumnPosition, SheetState, Solution, compile_rules
    from kniffel.core.points import empty_values

    ruleset = rules.get("yahtzee")
    c = compile_rules(ruleset)
    solution = Solution(c, empty_values(c), 0.0)
    sheet = {box.id: 0 for box in ruleset.boxes[2:]}
    rows = solve_rows(c, root=SheetState.of(c, sheet), low=1, high=20)
    position = ColumnPosition(sheet, (1, 2, 3, 3, 5), 1)
    return repr(
        [(o.action, round(o.value, 9)) for o in advisor(Advisor(solution), rows).options(position, 10)]
    )
