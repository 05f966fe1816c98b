"""The ``kniffel`` console script: the command line of :mod:`kniffel.apps.cli.app` in the language asked for,
with Ctrl-C and a closed output each ending in one line or quietly."""

from __future__ import annotations

import atexit
import gc
import sys

from kniffel.apps.cli import interrupts, language
from kniffel.apps.cli.app import app
from kniffel.apps.cli.cluster import INTERRUPTED
from kniffel.apps.cli.errors import OUTPUT_CLOSED, end_quietly, output_closed
from kniffel.apps.cli.lazy import command_of
from kniffel.base.i18n import translate


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kniffel`` console script: the help and Click's own words in the language of
    ``--lang`` or the locale."""
    if argv is None:  # the process ends with the command
        # The interpreter's collections at exit walk every object still alive, and numba leaves a few
        # hundred thousand: 0.3 s of every command that loaded a kernel. Registered first, run last.
        atexit.register(gc.freeze)
    arguments = sys.argv[1:] if argv is None else argv
    if arguments in (["--lang", "en"], ["--lang", "de"], ["--lang=en"], ["--lang=de"]):
        arguments = [*arguments, "--help"]  # as without arguments: the overview, in that language
    command = command_of(app)  # only the command invoked is built in full
    lang = language.from_arguments(arguments)
    if argv is None:
        interrupts.catch()
    with language.localized(command, lang):
        try:
            command.main(args=arguments, prog_name="kniffel")
        except BrokenPipeError as error:  # outside a command's body: help, usage text
            if not output_closed(error):
                raise
            end_quietly()
            sys.exit(OUTPUT_CLOSED)
        except Exception:
            if not interrupts.seen():
                raise
            # Ctrl-C inside numba's compiler surfaces later as numba's own error: one line, not that
            print(translate(lang, "kniffel: interrupted"), file=sys.stderr)
            sys.exit(INTERRUPTED)
