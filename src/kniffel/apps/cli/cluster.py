"""What ``kniffel simulate`` and ``kniffel tournament`` share: ``--cluster``, the progress bar that counts
games, and Ctrl-C, which stops the run (on a cluster, cancels its tasks) with one line instead of a
traceback and exit status 130, as a shell reports an interrupted program."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Protocol, TypeVar

import typer

from kniffel.base.i18n import N_, ngettext, number

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT)."""

ClusterOption = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help="Split the games into Ray tasks: 'local' (Ray on this machine) or a cluster's address "
        "(ray://host:10001). The same seed gives the same results. Needs the cluster extra of kniffel.",
        show_default=False,
        metavar="ADDRESS|local",
    ),
]


class Played(Protocol):
    """A run's result: how many games it holds."""

    @property
    def games(self) -> int: ...


R = TypeVar("R", bound=Played)


class Tally:
    """A ``progress(done, total)`` callback that remembers how far the run got and feeds a bar."""

    def __init__(self, show: bool, label: str, total: int, lang: str = "en") -> None:
        self.show = show
        self.label = label
        self.lang = lang
        self.done = 0
        self.total = total
        self._bar: Callable[[int, int], None] | None = None

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self._bar is not None:
            self._bar(done, total)

    @contextmanager
    def running(self, cluster: str | None) -> Iterator[Tally]:
        """The bar on stderr while the body runs; Ctrl-C ends the command with one line."""
        from kniffel.apps.cli import solving

        try:
            with solving.solve_progress(self.show, self.label, N_("games"), lang=self.lang) as bar:
                self._bar = bar
                yield self
        except KeyboardInterrupt:
            done, total = number(self.lang, self.done, 0), number(self.lang, self.total, 0)
            if cluster:
                text = ngettext(
                    "kniffel: interrupted after {done} of {total} game, its unfinished tasks cancelled",
                    "kniffel: interrupted after {done} of {total} games, its unfinished tasks cancelled",
                    self.total,
                    self.lang,
                    done=done,
                    total=total,
                )
            else:
                text = ngettext(
                    "kniffel: interrupted after {done} of {total} game, stopped",
                    "kniffel: interrupted after {done} of {total} games, stopped",
                    self.total,
                    self.lang,
                    done=done,
                    total=total,
                )
            print(text, file=sys.stderr)
            raise typer.Exit(INTERRUPTED) from None
        finally:
            self._bar = None

    def play(
        self,
        cluster: str | None,
        here: Callable[[], R],
        there: Callable[[str], R],
        report: Callable[[R], None],
    ) -> None:
        """Play the run, ``here()`` or ``there(cluster)``, with the bar, and ``report`` its result.
        Ctrl-C ends the command with one line (:meth:`running`); a run here first reports the games of
        the blocks it finished (:class:`kniffel.services.simulate.Interrupted`), the line counting those."""
        from kniffel.services.simulate import Interrupted

        partial: R | None = None
        try:
            with self.running(cluster):
                if cluster is None:
                    try:
                        result = here()
                    except Interrupted as interrupted:
                        partial = interrupted.result
                        self(0 if partial is None else partial.games, self.total)
                        raise
                else:
                    result = there(cluster)
        except typer.Exit:
            if partial is not None:
                report(partial)
            raise
        report(result)
