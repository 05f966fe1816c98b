"""The one place where bad input becomes a one-line message and exit status 2.

Every command body runs inside :func:`kniffel.apps.cli.language.reports_errors`, which shows what
:data:`EXPECTED` catches through :func:`message` and :func:`fail` in the command's language. The library
raises specific exceptions whose messages already say what is wrong; the command line only has to show
them without a traceback.
"""

from __future__ import annotations

import os
import select
import sys

import typer

from kniffel.base.errors import KniffelError

USAGE_ERROR = 2
"""Exit status for bad input, as Click uses for usage errors."""

OUTPUT_CLOSED = 1
"""Exit status when the reader of the output went away (``kniffel ... | head``), as Python's own."""


class CliError(Exception):
    """Bad input noticed by the command line itself (not by the library)."""


EXPECTED: tuple[type[BaseException], ...] = (CliError, KniffelError, OSError, UnicodeDecodeError)
"""What bad input raises: the command line's own refusals, everything the library refuses, files that
cannot be read or written, and files that are not UTF-8 text. Anything else is a bug and keeps its
traceback."""


def message(error: BaseException, language: str = "en") -> str:
    """One line saying what went wrong, in ``language`` (:func:`kniffel.base.i18n.error_text`)."""
    from kniffel.base.i18n import error_text

    return error_text(language, error)


def fail(text: str, language: str = "en") -> typer.Exit:
    """Print ``kniffel: error: text`` on stderr; the caller raises the returned exit."""
    from kniffel.base.i18n import translate

    print(translate(language, "kniffel: error: {message}", message=text), file=sys.stderr)
    return typer.Exit(USAGE_ERROR)


def output_closed(error: BaseException) -> bool:
    """Whether ``error`` is the reader of standard output having gone away, as ``head`` does once it has
    its lines: not bad input, so no error message, only a quiet end."""
    if not isinstance(error, BrokenPipeError):
        return False
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno())
    except (AttributeError, ValueError, OSError):  # no poll (Windows) or no real descriptor
        return not hasattr(select, "poll")
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


def end_quietly() -> typer.Exit:
    """Standard output's reader is gone: send whatever is still written to the null device (so the
    interpreter's last flush does not fail again) and return the exit for the caller to raise."""
    with open(os.devnull, "wb") as null:
        os.dup2(null.fileno(), sys.stdout.fileno())
    return typer.Exit(OUTPUT_CLOSED)
