"""The one place where bad input becomes a one-line message and exit status 2.

Every command body runs inside :func:`reports_errors`. The library raises specific exceptions whose
messages already say what is wrong; the command line only has to show them without a traceback.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from kniffel.game import GameFormatError, IllegalActionError
from kniffel.rules import RulesError
from kniffel.sheet import SheetError

USAGE_ERROR = 2
"""Exit status for bad input, as Click uses for usage errors."""

P = ParamSpec("P")
T = TypeVar("T")


class CliError(Exception):
    """Bad input noticed by the command line itself (not by the library)."""


# Subclasses of ValueError are listed for the reader: these are the errors the library promises.
EXPECTED: tuple[type[BaseException], ...] = (
    CliError,
    RulesError,
    SheetError,
    GameFormatError,
    IllegalActionError,
    ValueError,
    KeyError,
    OSError,
)


def message(error: BaseException) -> str:
    """One line saying what went wrong."""
    if isinstance(error, OSError) and error.strerror:
        where = f"{error.filename}: " if error.filename else ""
        text = f"{where}{error.strerror}"
    elif isinstance(error, KeyError) and error.args:
        # str(KeyError) wraps the message in quotes; the library's messages are complete sentences.
        text = str(error.args[0])
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.split())


def fail(text: str) -> typer.Exit:
    """Print ``kniffel: error: text`` on stderr; the caller raises the returned exit."""
    print(f"kniffel: error: {text}", file=sys.stderr)
    return typer.Exit(USAGE_ERROR)


def reports_errors(command: Callable[P, T]) -> Callable[P, T]:
    """Run ``command``; turn the library's exceptions into a one-line error and exit status 2."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return command(*args, **kwargs)
        except EXPECTED as error:
            raise fail(message(error)) from None

    return wrapper
