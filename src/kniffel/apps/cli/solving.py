"""``kniffel solve`` and ``kniffel advise``: the exact solver's tables from the command line.

The solver handles one column at a time. A multi-column rule set is solved for one of its columns:
the column given with ``--column``, or the only kind it has (Knöffel's two free columns are the same
column twice, each with its own free throws). Announced columns are not solved exactly and are refused.

``advise`` asks the advice service (:func:`kniffel.services.advice.options`) about one position, a
column's or a whole table's (``advise --situation TEXT``, of any rule set: valued exactly where the solver
covers the rules and by the multi-column estimate elsewhere, and the output says which); ``advise --batch
FILE`` answers one position a line of the file in one process (:mod:`kniffel.services.batch`), so the
table is loaded once, and a batch with a line that got an error ends with exit status 2, so scripts
notice. :mod:`kniffel.apps.cli.advising` parses and prints; this module holds what solving and advising
show alike.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from kniffel.apps.cli.errors import CliError
from kniffel.base.i18n import N_, number, translate
from kniffel.rules import Order, RuleSet


def column_rules(rules: RuleSet, column: str | None) -> RuleSet:
    """The one-column rule set the solver is asked about (see the module docstring)."""
    from kniffel.core import UnsupportedRulesError
    from kniffel.rules import single_column

    if column is None:
        orders = {c.order for c in rules.columns}
        if len(orders) > 1:
            listed = ", ".join(f"{c.id} {c.order.value}" for c in rules.columns)
            raise CliError(f"{rules.id} has different columns ({listed}); choose one with --column")
        chosen = rules.columns[0]
    else:
        matches = [c for c in rules.columns if c.id == column]
        if not matches:
            raise CliError(
                f"{rules.id} has no column {column!r}; columns: " + ", ".join(c.id for c in rules.columns)
            )
        chosen = matches[0]
    if chosen.order is Order.ANNOUNCED:
        raise CliError(
            f"{rules.id}: column {chosen.id} is announced, which the exact solver does not handle "
            "(bots play it from the free column's table)"
        )
    try:
        return single_column(rules, chosen.id)
    except UnsupportedRulesError as error:
        raise CliError(str(error)) from None


class _Count(ProgressColumn):
    """``done/total unit``; nothing while the total is not known yet (:class:`_Lines` says then what
    happens: the kernels compile before the first sheet is solved or the first game played)."""

    def __init__(self, unit: str, lang: str = "en") -> None:
        super().__init__()
        self.unit, self.lang = unit, lang

    def render(self, task: Task) -> Text:
        if task.total is None:
            return Text("")
        # the language's own digit groups: 20,000 in English is 20.000 in German, where 20,000 is twenty
        done, total = number(self.lang, task.completed, 0), number(self.lang, task.total, 0)
        return Text(f"{done}/{total} {self.unit}")


class _Lines(Progress):
    """A progress display that stays whole on a terminal of 80 columns or fewer: what is being done on
    a line of its own (wrapped, never cut), then while no total is known or kernels compile what is
    happening meanwhile (``waiting``), then the bar with the count and the times. In one row a long
    label and a compile note squeezed the count and the times to an ellipsis, and the note to a column
    one letter wide. Without a ``waiting`` of its own it says what is happening as it happens: compiling
    while kernels compile (a first run), else preparing; a tournament's bar, waiting for the tables
    its players need, said "compiling" where nothing compiled."""

    def __init__(self, unit: str, waiting: str | None, console: Console, lang: str = "en") -> None:
        super().__init__(
            BarColumn(bar_width=None),
            _Count(unit, lang),
            TimeElapsedColumn(),
            TimeRemainingColumn(),  # how long still: an estimate from the pace so far
            console=console,
            transient=True,
            expand=True,
        )
        self.waiting = waiting
        self.lang = lang

    def get_renderables(self) -> Iterator[RenderableType]:
        from kniffel.core import compiling

        for task in self.tasks:
            yield Text(task.description, overflow="fold")
            # a job whose first progress came before its kernels were compiled stands still meanwhile
            now = compiling()
            if task.total is None or now is not None:
                yield Text(self.waiting or self._happening(now is not None), overflow="fold")
            yield self.make_tasks_table([task])

    def _happening(self, compiling: bool) -> str:
        if compiling:
            return translate(self.lang, "compiling the solver, first run only...")
        return translate(self.lang, "preparing...")


def solved_what(rules: RuleSet, column: RuleSet, lang: str) -> str:
    """What a solve answers for, in a title: the rule set with its options, and on a multi-column sheet
    which column (``column``, the column's own rule set)."""
    what = rules.id + "".join(f" {k}={v}" for k, v in sorted(rules.options.items()))
    if rules.multi_column:
        what += translate(lang, ", one {order} column", order=translate(lang, column.columns[0].order.value))
    return what


@contextmanager
def solve_progress(
    show: bool,
    label: str | Callable[[], str],
    unit: str = N_("sheets"),
    lang: str = "en",
    waiting: str | None = None,
) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr fed by the solver's ``progress(done, total)``; nothing when
    ``show`` is false or stderr is not a terminal. ``label`` may be a function, asked only when the bar
    is shown (a target's estimate works out the windows of its cone). ``waiting`` says what happens
    before the first progress (by default what happens then: the solver compiling on a first run, or
    preparing)."""
    console = Console(stderr=True)
    if not show or not console.is_terminal:
        yield None
        return
    with _Lines(translate(lang, unit), waiting, console, lang) as progress:
        task = progress.add_task(label() if callable(label) else label, total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield update


@dataclass(frozen=True)
class Solved:
    expected_score: float
    seconds: float
    """Time of the dynamic programme alone; for a cached table, the time stored with it (0 if none)."""
    cached: bool


def stored_seconds(rules: RuleSet) -> float:
    """The DP time written beside a cached table, 0 if unknown. The solver keeps it in the table's
    description file but does not hand it back on load, so it is read here."""
    from kniffel.core import table_key, table_path

    try:
        meta = json.loads(table_path(rules).with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0.0
    seconds = meta.get("seconds") if isinstance(meta, dict) else None
    if meta.get("key") != table_key(rules) or not isinstance(seconds, int | float):
        return 0.0
    return float(seconds)


def solve(rules: RuleSet, *, use_cache: bool, show_progress: bool, lang: str = "en") -> Solved:
    from kniffel.core import table

    label = translate(lang, "Solving {rules}", rules=rules.id)
    with solve_progress(show_progress, label, lang=lang) as progress:
        solution = table(rules, use_cache=use_cache, progress=progress)
    # A table loaded from the cache reports no DP time: a real solve never takes exactly 0 s.
    cached = use_cache and solution.seconds == 0.0
    seconds = stored_seconds(rules) if cached else solution.seconds
    return Solved(solution.expected_score, seconds, cached)


def solve_json(rules: RuleSet, column: RuleSet, solved: Solved) -> dict[str, Any]:
    result: dict[str, Any] = {
        "rules": rules.id,
        "options": dict(rules.options),
        "expected_score": solved.expected_score,
        "seconds": solved.seconds,
        "cached": solved.cached,
    }
    if rules.multi_column:
        result["column"] = column.columns[0].order.value
        result["columns"] = len(rules.columns)
    return result


# --- advice ------------------------------------------------------------------------------------------


def ranked_table(
    title: str,
    heading: str,
    options: list[dict[str, Any]],
    lang: str,
    *,
    scale: float = 1,
    places: int = 2,
    unit: str = "",
) -> Table:
    """The options best first, each with its value (``heading``; times ``scale``, with ``places``
    decimals and ``unit``) and what it loses against the best."""
    table = Table(title=title)
    table.add_column("#", justify="right")
    table.add_column(translate(lang, "Action"))
    table.add_column(heading, justify="right")
    table.add_column(translate(lang, "Loss"), justify="right")
    best = options[0]["value"] if options else 0.0
    for n, option in enumerate(options, 1):
        value = option["value"]
        table.add_row(
            str(n),
            option["action"],
            number(lang, scale * value, places) + unit,  # 254,27 in German, as the game writes figures
            number(lang, scale * (best - value), places),
        )
    return table


def options_table(options: list[dict[str, Any]], lang: str = "en") -> Table:
    title = translate(lang, "Options, best first (value: expected points still to come)")
    return ranked_table(title, translate(lang, "Value"), options, lang)


def open_batch(path: Path) -> IO[str]:
    """The lines of a batch, standard input for ``-``, read as UTF-8: a byte-order mark at the start
    (editors on Windows write one) left out, and bytes that are not UTF-8 kept as they are, so that
    their line gets an error (:func:`parse_line`) and the batch goes on."""
    if str(path) == "-":
        stdin = sys.stdin
        if isinstance(stdin, io.TextIOWrapper):
            stdin.reconfigure(encoding="utf-8-sig", errors="surrogateescape")
        return stdin
    return path.open(encoding="utf-8-sig", errors="surrogateescape")


__all__ = [
    "Solved",
    "column_rules",
    "open_batch",
    "options_table",
    "ranked_table",
    "solve",
    "solve_json",
    "solve_progress",
]
