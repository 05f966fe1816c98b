"""``kniffel cache``: what the table cache holds, clearing it, solving the win tables ahead of play and
compiling the solver ahead of its first use.

The cache (``$KNIFFEL_CACHE_DIR`` or the user's cache directory) holds, per rule set and option, the
expected-score table (8 MB for Yahtzee, a second to solve), the early win tables (the chances of reaching
every target and the final-score distributions of the sheets with the most boxes open: a minute or two and a
hundred-odd megabytes, solved the first time a front end needs chances of winning) and, beside it, numba's
compiled kernels. The solved tables are kept within a budget (``$KNIFFEL_CACHE_BUDGET``, 1 GB by default;
the compiled kernels are not counted), the least recently used removed first. Tables of an earlier version
are never read again: they are listed as obsolete, and ``kniffel cache clear --obsolete`` removes them.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from kniffel.apps.cli import language
from kniffel.apps.cli.cluster import INTERRUPTED
from kniffel.apps.cli.errors import CliError
from kniffel.apps.cli.language import Commands, LangOption
from kniffel.base.i18n import NBSP, ngettext, number, translate

if TYPE_CHECKING:  # the cache is read by kniffel cache: kniffel --help does not
    from kniffel.core import CacheEntry

cache_app = Commands(
    name="cache",
    help="The table cache: list it, clear it, solve the win tables before play, or compile the solver.",
    no_args_is_help=False,
    invoke_without_command=True,
)


def size_text(size: int, lang: str) -> str:
    """``8.4 MB``, ``1.2 GB``, ``512 kB`` (``8,4 MB`` in German), a no-break space before the unit."""
    if size >= 1e9:
        return f"{number(lang, size / 1e9)}{NBSP}GB"
    if size >= 1e6:
        return f"{number(lang, size / 1e6)}{NBSP}MB"
    return f"{max(1, round(size / 1e3))}{NBSP}kB"


def age_text(seconds: float, lang: str) -> str:
    """How long ago: ``5 min``, ``3 h``, ``2 days``."""
    if seconds < 3600:
        return f"{max(1, round(seconds / 60))}{NBSP}min"
    if seconds < 2 * 86400:
        return f"{round(seconds / 3600)}{NBSP}h"
    return ngettext("{n}\N{NO-BREAK SPACE}day", "{n}\N{NO-BREAK SPACE}days", round(seconds / 86400), lang)


def listing(found: Sequence[CacheEntry], lang: str) -> Table:
    from kniffel.core import cache_dir

    table = Table(title=translate(lang, "The table cache: {path}", path=cache_dir()))
    table.add_column(translate(lang, "Rule set"))
    table.add_column(translate(lang, "Kind"))
    table.add_column(translate(lang, "Size"), justify="right")
    table.add_column(translate(lang, "Age"), justify="right")
    now = time.time()
    for entry in found:
        table.add_row(
            entry.rules or "-",
            translate(lang, entry.kind),
            size_text(entry.size, lang),
            age_text(now - entry.modified, lang),
        )
    return table


@cache_app.callback()
def show(
    ctx: typer.Context,
    lang: LangOption = None,
) -> None:
    """List what the table cache holds: rule set, kind, size and age of every table."""
    if ctx.invoked_subcommand is not None:
        return
    from kniffel.core import CACHE_BUDGET_ENV, cache_budget, cache_dir, cache_entries

    words = language.choose(lang)
    found = cache_entries()
    console = Console(highlight=False)
    budget_line = translate(
        words,
        "Budget for solved tables: {used} of {budget} used (set it with {env} or kniffel serve "
        "--cache-budget); the least recently used are removed first.",
        used=size_text(sum(e.size for e in found if e.rules), words),
        budget=size_text(cache_budget(), words),
        env=CACHE_BUDGET_ENV,
    )
    if not found:
        console.print(translate(words, "The table cache is empty: {path}", path=cache_dir()))
        console.print(kernels_line(words))
        console.print(budget_line)
        return
    console.print(listing(found, words))
    console.print(
        translate(
            words,
            "{size} in all. Clear it with: kniffel cache clear [--rules ID] [--obsolete]",
            size=size_text(sum(e.size for e in found), words),
        )
    )
    console.print(kernels_line(words))
    console.print(budget_line)


def kernels_line(lang: str) -> str:
    """Where this version's compiled kernels are kept: beside the tables by default, but wherever
    ``NUMBA_CACHE_DIR`` says, so the table cache's folder alone does not say it."""
    from kniffel.core import kernels_cache_dir

    return translate(lang, "Compiled kernels (this version's): {path}", path=kernels_cache_dir())


@cache_app.command("clear")
def clear(
    rules_id: Annotated[
        str | None,
        typer.Option(
            "--rules", "-r", help="Clear only the tables of this rule set (all options).", metavar="ID"
        ),
    ] = None,
    obsolete: Annotated[
        bool, typer.Option("--obsolete", help="Clear only what this version no longer reads.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Delete tables from the cache (all of them without options); they are solved again when needed."""
    from kniffel.core import cache_entries, remove_entries
    from kniffel.rules import get as get_rules

    words = language.choose(lang)
    if rules_id is not None:
        get_rules(rules_id)  # an unknown id is refused with the ids there are
    found = [
        e
        for e in cache_entries()
        if (rules_id is None or e.rules_id == rules_id) and (not obsolete or e.kind.startswith("obsolete"))
    ]
    freed, busy = remove_entries(found)
    console = Console(highlight=False)
    console.print(
        ngettext(
            "Cleared {n} table, {size}.",
            "Cleared {n} tables, {size}.",
            len(found) - len(busy),
            words,
            size=size_text(freed, words),
        )
    )
    for entry in busy:
        console.print(
            translate(
                words,
                "Left {rules} ({kind}): another process is writing it.",
                rules=entry.rules,
                kind=translate(words, entry.kind),
            )
        )


@cache_app.command("prepare")
def prepare(
    rules_id: Annotated[str, typer.Option("--rules", "-r", help="Rule set id.", metavar="ID")] = "kniffel",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Rule option key=value, repeatable.", metavar="KEY=VALUE"),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Solve a rule set's win tables now (what chances of winning, bot:win and target advice read early
    in a game), with progress, rather than in the background the first time a game needs them."""
    from kniffel.apps.cli import solving
    from kniffel.core import cache_budget, warm_up_needed
    from kniffel.planning import is_exact
    from kniffel.planning.winning import win_tables
    from kniffel.planning.worker import Refusal
    from kniffel.rules import get as get_rules
    from kniffel.rules import parse_options
    from kniffel.services.advice import Preparing, about

    words = language.choose(lang)
    rules = get_rules(rules_id, parse_options(option or []))
    if rules.multi_column or not is_exact(rules):
        raise CliError(f"{rules.id}: win tables cover the rule sets the exact solver solves (one column)")
    tables = win_tables(rules)
    console = Console(highlight=False, stderr=True)
    if tables.early_ready():
        console.print(translate(words, "The win tables of {rules} are ready.", rules=rules.id))
        return
    work = tables.early_work()
    budget = cache_budget()
    if work.bytes > budget:  # solved, they would stay in memory only: said now, not after the solve
        said = Preparing(work, None, compiling=None, refused=Refusal(work.bytes, budget))
        raise CliError(said.note(functools.partial(translate, words)))
    console.print(
        translate(
            words,
            "{what}: about {time}, {size} on disk.",
            what=translate(words, work.template, **dict(work.fields)),
            time=about(work.seconds),
            size=size_text(work.bytes, words),
        )
    )
    if warm_up_needed():  # the estimate is the solve's; a first use compiles the kernels before it
        console.print(translate(words, "First the solver is compiled, only on this first use."))
    label = translate(words, "Solving the win tables of {rules}", rules=rules.id)
    before = _tables_of(rules.id)
    try:
        with solving.solve_progress(True, label, unit="%", lang=words) as progress:
            tables.solve_early(progress=None if progress is None else _in_percent(progress))
    except KeyboardInterrupt:
        console.print(interrupted_text(rules.id, before, words))
        raise typer.Exit(INTERRUPTED) from None
    console.print(translate(words, "The win tables of {rules} are ready.", rules=rules.id))


@cache_app.command("compile")
def compile_solver(lang: LangOption = None) -> None:
    """Compile the solver for this processor now (an editable install does it), rather than at the
    first solve, question or game: after another install, or with another numba."""
    from kniffel.services import install

    words = language.choose(lang)
    console = Console(highlight=False, stderr=True)
    with console.status(translate(words, "Compiling the solver for this processor, about a minute...")):
        try:
            seconds = install.compile_kernels()
        except RuntimeError as error:
            raise CliError(str(error)) from error
    console.print(
        translate(words, "The solver is compiled ({seconds} s).", seconds=number(words, seconds, 0))
    )


def _in_percent(progress: Callable[[int, int], None]) -> Callable[[int, int], None]:
    """A solver's ``progress(done, total)`` shown in whole percent."""
    return lambda done, total: progress(100 * done // max(total, 1), 100)


def _tables_of(rules_id: str) -> list[CacheEntry]:
    """The finished tables of a rule set in the cache now (a table's data written whole, not a
    leftover ``.tmp`` of an interrupted write, nor a table of an earlier version)."""
    from kniffel.core import cache_entries

    return [
        e
        for e in cache_entries()
        if e.rules_id == rules_id
        and not e.kind.startswith("obsolete")
        and any(f.suffix in (".npy", ".bin") for f in e.files)
    ]


def interrupted_text(rules_id: str, before: Sequence[CacheEntry], lang: str) -> str:
    """What an interrupted ``cache prepare`` kept: the tables it finished (written whole, so the next
    run reads them and solves only the rest), or that nothing was kept."""
    had = {(e.rules, e.kind) for e in before}
    kept = [
        f"{translate(lang, e.kind)} ({size_text(e.size, lang)})"
        for e in _tables_of(rules_id)
        if (e.rules, e.kind) not in had
    ]
    if not kept:
        return translate(
            lang, "Interrupted: no table was finished, nothing was kept; the next run starts again."
        )
    return translate(
        lang,
        "Interrupted: kept {tables}; the next run (kniffel cache prepare) solves only the rest.",
        tables=", ".join(kept),
    )
