"""The command line's language: chosen before anything is shown, applied to help, messages and errors
(Click's usage errors too, each in one line).

The language is ``--lang`` where given, else the locale (:func:`kniffel.base.i18n.language_from_environment`).
It has to be known before Click renders a command's help, so :func:`from_arguments` reads it from the raw
arguments, and :func:`localized` translates the help of every command and option and the words Typer
adds itself (``Usage``, ``Options``, its error messages) while the command runs.

Every command body runs inside :func:`reports_errors` (each command of a :class:`Commands` app): its help
reflowed as the catalogs hold it, and the library's refusals and the command line's own errors
(:mod:`kniffel.apps.cli.errors`) shown in one line in the command's language, translated by
:func:`kniffel.base.i18n.error_text` as in every front end.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any, ParamSpec, TypeVar, cast, get_args, get_origin

import typer

from kniffel.apps.cli.errors import EXPECTED, CliError, end_quietly, fail, message, output_closed
from kniffel.apps.cli.lazy import LazyGroup
from kniffel.apps.cli.values import read_plainly
from kniffel.base.i18n import LANGUAGES, N_, error_text, language_from_environment, sentence, translate

LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="en|de",
        help="Language: en or de (default: from the locale, LANG).",
        show_default=False,
    ),
]
"""The ``--lang`` option every command takes."""

P = ParamSpec("P")
T = TypeVar("T")

TYPER_WORDS = (
    N_("Usage: "),
    N_("[OPTIONS]"),
    N_("COMMAND [ARGS]..."),
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("Error"),
    N_("Aborted."),
    N_("[default: {}]"),
    N_("[env var: {}]"),
    N_("[required]"),
    N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
)
"""Words Typer and Click write themselves (panel titles, the usage line, the help option), marked here
for the catalog: they are not in kniffel's sources."""

CLICK_ERRORS = (
    N_("Missing command."),
    N_("No such option: {option}"),
    N_("No such command {command}."),
    N_("Missing option {option}."),
    N_("Missing argument {argument}."),
    N_("Got unexpected extra argument ({argument})"),
    N_("Option {option} requires an argument."),
    N_("Invalid value for {option}: {reason}"),
    N_("{value} is not a valid integer."),
    N_("{value} is not in the range {range}."),
)
"""Click's refusals, as :func:`kniffel.base.i18n.error_text` reads them back (Click fills the fields)."""


def from_arguments(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language asked for with ``--lang X`` (or ``--lang=X``) in ``argv``, else the locale's. An unknown
    value is left to the command to refuse; the help then stays English."""
    for index, word in enumerate(argv):
        value = None
        if word == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        elif word.startswith("--lang="):
            value = word.partition("=")[2]
        if value is not None:
            return value if value in LANGUAGES else "en"
    return language_from_environment(environ)


_given_before_the_command: list[str | None] = [None]
"""``--lang`` as given before the command's name (``kniffel --lang de play``); set for every run."""


def set_default(lang: str | None) -> None:
    """Remember the ``--lang`` given before the command's name, for :func:`choose`."""
    _given_before_the_command[0] = lang


def choose(lang: str | None) -> str:
    """The language of a command: its ``--lang`` if given (checked), else one given before the command's
    name, else the locale's."""
    if lang is None:
        lang = _given_before_the_command[0]
    if lang is None:
        return language_from_environment()
    if lang not in LANGUAGES:
        raise CliError(f"--lang is one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


def reports_errors(command: Callable[P, T]) -> Callable[P, T]:
    """Run ``command``; turn the library's exceptions into a one-line error and exit status 2, in the
    command's language (its ``lang`` argument, else the locale's)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return command(*args, **kwargs)
        except EXPECTED as error:
            if output_closed(error):
                raise end_quietly() from None
            language = _language_of(kwargs.get("lang"))
            raise fail(message(error, language), language) from None

    wrapper.__doc__ = reflowed(command.__doc__)
    return wrapper


F = TypeVar("F", bound=Callable[..., Any])


class Commands(typer.Typer):
    """A Typer app each of whose commands and callbacks runs inside :func:`reports_errors`."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        return _reporting(super().command(*args, **kwargs))

    def callback(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        return _reporting(super().callback(*args, **kwargs))


def _reporting(register: Callable[[F], F]) -> Callable[[F], F]:
    def registered(function: F) -> F:
        return register(cast(F, reports_errors(function)))

    return registered


def _language_of(lang: object) -> str:
    try:
        return choose(lang if isinstance(lang, str) and lang in LANGUAGES else None)
    except CliError:
        return "en"


# --- help ----------------------------------------------------------------------------------------------


def reflowed(doc: str | None) -> str | None:
    """A docstring as ``--help`` shows it: each paragraph on one line, so that Rich wraps it to the
    terminal's width (a docstring's own line breaks broke sentences in the middle at 80 columns), as the
    catalogs hold it (:mod:`kniffel.base.i18n.extract`)."""
    if doc is None:
        return None
    return "\n\n".join(" ".join(part.split()) for part in inspect.cleandoc(doc).split("\n\n"))


@contextmanager
def localized(command: Any, language: str) -> Iterator[None]:
    """While in the block: the help of ``command``, its subcommands and their parameters in ``language``,
    and the words Typer adds itself (``Usage``, ``Options``, its error messages); option values named
    plainly (``N``, ``FILE``, nothing for a flag) where Typer would show Python types (``<int>``).
    The command's help is translated in place; Typer's own words are restored on leaving."""
    _plain_metavars(command)
    with _one_line_errors(language):
        if language == "en":
            yield
            return
        _localize_command(command, language)
        with _typer_words(language):
            yield


@contextmanager
def _one_line_errors(language: str) -> Iterator[None]:
    """Click's usage errors (an unknown option, a value it refuses) as one line on stderr in
    ``language``, as every other refusal of the command line (:func:`kniffel.apps.cli.errors.fail`), naming
    where the help is; not Typer's usage block and boxed panel."""

    def error(exception: Any) -> None:
        if type(exception).__name__ == "NoArgsIsHelpError":  # the help was shown: nothing to add
            return
        text = error_text(language, exception.format_message())
        context = getattr(exception, "ctx", None)
        if context is not None:
            text = translate(
                language, "{message} (see {command} --help)", message=text, command=context.command_path
            )
        print(translate(language, "kniffel: error: {message}", message=text), file=sys.stderr)

    with _patched(RICH_UTILS, "rich_format_error", error, before=_stand_ins):
        yield


RICH_UTILS = "typer.rich_utils"
"""Where Typer formats the help and a usage error: it imports the module only then, so it is patched
when it is imported."""

DEFERRED = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}
"""What Typer's formatting imports from Rich for Markdown help and pretty tracebacks, neither of which
this command line shows: with a Markdown parser and Pygments they took longer to import than Typer
itself, and ``kniffel --help`` twice as long. While the formatting is imported they are stand-ins
(:class:`_Later`), which import the real ones when they are used."""


class _Later(type):
    """A class of Rich's that Typer's formatting names (:data:`DEFERRED`), imported when it is used."""

    _module: str

    def _real(cls) -> Any:
        return getattr(importlib.import_module(cls._module), cls.__name__)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._real()(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        return getattr(cls._real(), name)


def _stand_ins() -> Callable[[], None]:
    """Put the stand-ins of :data:`DEFERRED` that are not imported yet in their place; return what takes
    them away again (then importing one imports the real module). Anything else asked of a stand-in
    module is the real module's."""
    placed: dict[str, ModuleType] = {}
    for name, kind in DEFERRED.items():
        if name in sys.modules:
            continue
        module = ModuleType(name)
        setattr(module, kind, _Later(kind, (), {"_module": name}))

        def real(attribute: str, name: str = name) -> Any:
            if attribute.startswith("__"):  # what the import system asks of any module (a package's path)
                raise AttributeError(attribute)
            sys.modules.pop(name, None)
            return getattr(importlib.import_module(name), attribute)

        module.__getattr__ = real  # type: ignore[method-assign]
        placed[name] = sys.modules[name] = module

    def away() -> None:
        for name, module in placed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]

    return away


@contextmanager
def _patched(
    module_name: str, name: str, value: Any, *, before: Callable[[], Callable[[], None]] | None = None
) -> Iterator[None]:
    """While in the block, attribute ``name`` of module ``module_name`` is ``value``: at once if the
    module is imported, else as soon as it is (without importing it); restored on leaving. ``before()``
    runs just before the module does (and what it returns just after)."""
    saved: list[Any] = []

    def patch(module: Any) -> None:
        saved.append(getattr(module, name))
        setattr(module, name, value)

    hook = _OnImport(module_name, patch, before)
    if module_name in sys.modules:
        patch(sys.modules[module_name])
    else:
        sys.meta_path.insert(0, hook)
    try:
        yield
    finally:
        if hook in sys.meta_path:
            sys.meta_path.remove(hook)
        if saved:
            setattr(sys.modules[module_name], name, saved[0])


class _OnImport:  # a finder of sys.meta_path; importlib.abc's base class alone took 2 ms to import
    """Finds module ``name`` as the other finders do and calls ``then(module)`` once it has run (and
    ``before()`` just before it runs, and what that returns just after)."""

    def __init__(
        self,
        name: str,
        then: Callable[[ModuleType], None],
        before: Callable[[], Callable[[], None]] | None = None,
    ) -> None:
        self.name = name
        self.then = then
        self.before = before

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)  # once: the real finders find the module
        spec = importlib.util.find_spec(fullname)
        loader = None if spec is None else spec.loader
        if loader is None:
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            after = None if self.before is None else self.before()
            try:
                run(module)
            finally:
                if after is not None:
                    after()
            self.then(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _localize_command(command: Any, language: str) -> None:
    def words(text: str | None) -> str | None:
        # Docstrings wrap at the source's line length: the catalog holds each paragraph on one line.
        if text is None:
            return None
        return "\n\n".join(sentence(language, part) for part in (reflowed(text) or "").split("\n\n"))

    command.help = words(command.help)
    command.short_help = words(command.short_help)
    for usage_word in ("options_metavar", "subcommand_metavar"):
        if isinstance(getattr(command, usage_word, None), str):
            setattr(command, usage_word, translate(language, getattr(command, usage_word)))
    for param in command.params:
        if getattr(param, "help", None):
            param.help = words(param.help)
        if isinstance(param.metavar, str):
            param.metavar = translate(language, param.metavar)
    _wrap_help_option(command, language)
    for sub in getattr(command, "commands", {}).values():
        _localize_command(sub, language)
    if isinstance(command, LazyGroup):  # and each subcommand once it is built
        command.on_build.append(functools.partial(_localize_command, language=language))


def _wrap_help_option(command: Any, language: str) -> None:
    """``--help`` (made afresh for each run) without a type shown, its text in ``language``."""
    original = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = original(ctx)
        if option is not None:
            option.metavar = ""
            option.help = translate(language, option.help)
            read_plainly(option)
        return option

    command.get_help_option = get_help_option


_TYPER_CONSTANTS = (
    "DEFAULT_STRING",
    "ENVVAR_STRING",
    "REQUIRED_LONG_STRING",
    "ARGUMENTS_PANEL_TITLE",
    "OPTIONS_PANEL_TITLE",
    "COMMANDS_PANEL_TITLE",
    "ERRORS_PANEL_TITLE",
    "ABORTED_TEXT",
    "RICH_HELP",
)


@contextmanager
def _typer_words(language: str) -> Iterator[None]:
    """Typer's own words in ``language``: its panel titles, the usage line and its error messages."""
    from typer import rich_utils
    from typer._click.formatting import HelpFormatter

    saved: dict[str, Any] = {name: getattr(rich_utils, name) for name in _TYPER_CONSTANTS}
    write_usage = HelpFormatter.write_usage

    def usage(self: HelpFormatter, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, translate(language, "Usage: ") if prefix is None else prefix)

    try:
        for name, value in saved.items():
            setattr(rich_utils, name, translate(language, value))
        HelpFormatter.write_usage = usage  # type: ignore[method-assign]
        yield
    finally:
        for name, value in saved.items():
            setattr(rich_utils, name, value)
        HelpFormatter.write_usage = write_usage  # type: ignore[method-assign]


_METAVARS = {bool: "", int: "N", float: "N", Path: "FILE", str: "TEXT"}


def _plain_metavars(command: Any) -> None:
    for param in command.params:
        read_plainly(param)
        if param.param_type_name == "argument":
            # An argument's metavar names it already; Typer would add its Python type.
            param.display_type_rich = lambda ctx: None
            continue
        if param.param_type_name != "option" or param.metavar is not None:
            continue
        annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
        if get_origin(annotation) is list:  # a repeatable option: one value each time
            (annotation,) = get_args(annotation)
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif isinstance(annotation, type) and annotation in _METAVARS:
            param.metavar = _METAVARS[annotation]
    _wrap_help_option(command, "en")
    for sub in getattr(command, "commands", {}).values():
        _plain_metavars(sub)
    if isinstance(command, LazyGroup):  # and each subcommand once it is built
        command.on_build.append(_plain_metavars)
