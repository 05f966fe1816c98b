"""Compile the package's numba kernels on the second processor while the suite starts on the first.

On a fresh checkout numba compiles every kernel the suite reaches, one after the other, on one processor:
minutes of the whole run. ``tests/conftest.py`` starts this module as a process of its own when the
session starts, if ``KNIFFEL_TEST_WARMUP=1`` asks for it (see its ``WARMUP_ENV`` for what it was measured
to save). It plays what the suite plays (the web servers' tables, compiled games of every kind of bot, on
one-column and multi-column sheets) so that numba's disk cache holds each kernel before the suite's
own process asks for it: that process then loads it instead of compiling it. A kernel both ask for at
once is compiled twice, never differently: numba writes each cache file under a temporary name and
renames it into place (see :mod:`kniffel.core.runtime.precompile`, which relies on the same).

Nothing here is asserted and nothing of it is read by a test: the tables it solves go to a directory of
its own (never the session's table cache, whose contents the tests see), and a step that fails only
costs the suite the time it would have saved (its error goes to standard error). :func:`prepare_for_servers`
is the work the web tests' ``prepared_solver`` fixture does itself, in the session's table cache.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ADVISED_RULES = ("kniffel",)
"""The rule sets whose hints and reviews the web tests ask a server for."""
WIN_RULES = (("kniffel", {"strict": "on"}),)
"""The rule sets whose chances of winning the web tests show (their win tables are solved in a moment)."""


def prepare_for_servers() -> None:
    """Solve what a web server of the tests would solve while a page waits: the expected-score table of
    each of :data:`ADVISED_RULES` (a whole game is reviewed and a position hinted, as a server will) and
    the win tables of :data:`WIN_RULES`, into the table cache ``KNIFFEL_CACHE_DIR`` names."""
    from kniffel import Game, SeededDice, bots, rules
    from kniffel.apps.web import advice
    from kniffel.planning.exact import advisor_for
    from kniffel.planning.winning import prepare_tables

    for rules_id in ADVISED_RULES:
        advisor_for(rules.get(rules_id))  # what a server leaves to its worker, solved here and now
        game = bots.play(Game(rules.get(rules_id), ["Ada"], dice=SeededDice(1)), [bots.make("bot")])
        found = advice.review(game)
        assert found is not None, f"no review for {rules_id}: the web tests expect one"
        assert "decisions" in found, f"no review for {rules_id}: the web tests expect one"
        start = Game(rules.get(rules_id), ["Ada"], dice=SeededDice(1))
        start.roll()
        assert isinstance(advice.hints(start), list), f"no hints for {rules_id}"
    for rules_id, options in WIN_RULES:
        prepare_tables(rules.get(rules_id, options))


def _cli(*args: str, given: str | None = None) -> Callable[[], None]:
    def run() -> None:
        from typer.testing import CliRunner

        from kniffel.apps.cli import app

        result = CliRunner().invoke(app, list(args), input=given, env={"COLUMNS": "120", "NO_COLOR": "1"})
        if result.exit_code != 0:
            raise RuntimeError(f"kniffel {' '.join(args)}: {result.output}")

    return run


def _engine_game(rules_id: str) -> Callable[[], None]:
    def run() -> None:
        from kniffel import Game, SeededDice, bots, rules

        bots.play(Game(rules.get(rules_id), ["Ada"], dice=SeededDice(1)), [bots.make("bot")])

    return run


BATCH = (
    '{"sheet": {}, "dice": [1, 2, 3, 4, 5], "rolls_left": 2}\n'
    '{"sheet": {"ones": 3}, "dice": [6, 6, 6, 2, 1], "rolls_left": 0}\n'
)

STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("the DP and the batch reader", _cli(
        "advise", "-r", "yahtzee", "--option", "joker=free", "--batch", "-", given=BATCH,
    )),
    ("bot in a game, four columns", _engine_game("kniffel-4col")),
    ("bot in a game, three columns", _engine_game("kniffel-3col")),
    ("bot compiled, three columns", _cli("simulate", "--strategy", "bot", "-r", "kniffel-3col", "-n", "2")),
    ("bot compiled, four columns", _cli("simulate", "--strategy", "bot", "-r", "kniffel-4col", "-n", "2")),
    ("bot against bot:heuristic", _cli(
        "tournament", "-p", "bot", "-p", "bot:heuristic", "-r", "kniffel", "-n", "2",
    )),
    ("bot:win against bot:optimal and bot", _cli(
        "tournament", "-p", "bot:win", "-p", "bot:optimal", "-p", "bot", "-r", "kniffel", "-o", "strict=on",
        "-n", "2",
    )),
    ("a target's advice", _cli(
        "advise", "-r", "kniffel", "-o", "strict=on", "--goal", "target:200", "--sheet", "ones=3", "--dice",
        "2 2 2 5 6",
    )),
    ("bot:optimal, Yahtzee", _cli("simulate", "--strategy", "bot:optimal", "-r", "yahtzee", "-n", "200")),
    ("the web servers' tables", prepare_for_servers),
)  # fmt: skip
"""What is compiled, in order, as the suite reaches it: while the suite runs its tests that compile
nothing (marked ``compiles_nothing``, run first) this compiles the DP and the batch reader, which most
tests after them ask for, then the heuristic bot's kernels of many columns, then those of compiled games
and targets."""


def main(directory: Path) -> int:
    """Run :data:`STEPS` with the tables and records in ``directory`` (the session removes it)."""
    from kniffel.planning.winning import PREPARE_ENV

    os.environ[PREPARE_ENV] = "0"  # no table is solved in the background but those asked for
    os.environ["KNIFFEL_CACHE_DIR"] = str(directory / "tables")
    os.environ["KNIFFEL_RECORD_DIR"] = str(directory / "records")
    for name, step in STEPS:
        started = time.monotonic()
        try:
            step()
        except Exception:
            print(f"warm-up: {name} failed:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
            continue
        print(f"warm-up: {name} in {time.monotonic() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(
        main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="kniffel-warmup-")))
    )
