"""Finding every word a user may see: the Babel extractors and the templates they fill.

``python -m kniffel.base.i18n.extract`` extracts the messages of both domains (:data:`DOMAINS`) into their
templates (``kniffel/locale/DOMAIN.pot``) and merges them into every language's ``.po`` file, as ``pybabel
extract`` and ``pybabel update`` do; ``pybabel compile -d src/kniffel/locale -D "kniffel web"`` then compiles
them (see ``docs/how-to/translating.md``). The test of the catalogs runs the same extraction, so a string
added anywhere is found without anyone listing it.

In Python sources (:func:`extract_python`) a message is

* the text given to ``t``, ``translate``, ``_`` or ``N_`` (a literal, either branch of ``a if c else b``,
  or a module constant holding one);
* the singular and plural given to ``ngettext``, a front end's ``tn`` (the same, in its language) or
  :func:`kniffel.base.i18n.count_text` (one entry with
  plural forms; ``count_text``'s first argument, the words for none, is a message of its own);
* the message of an exception the project defines (a class named ``...Error``) or of an ``OSError``,
  literal or f-string: an f-string's fields become named fields (``{key!r}`` -> ``{key}``,
  ``{self.rules.id}`` -> ``{id}``), which :func:`kniffel.base.i18n.error_text` reads back at run time, and
  module constants in it are filled in;
* the ``help`` and ``metavar`` of a command-line option, the docstring of a command (each paragraph on
  its own, as the help shows them) and the description of a key binding.

In the web pages a message is the text given to ``t`` in a script (or the two forms given to ``nt``,
the pages' ``ngettext``), and in HTML the text of an element
marked ``data-t`` or the ``aria-label`` of one marked ``data-t-aria``.
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import io
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from kniffel.base.i18n import DOMAIN, LOCALE_DIR, WEB_DOMAIN

PACKAGE = Path(__file__).resolve().parents[2]

Extracted = tuple[int, str | None, str | tuple[str, str], list[str]]
"""What a Babel extractor yields: line, keyword (None: the message is the first argument; ``ngettext``:
the message is a singular and a plural), message, comments for the translator."""

KEYWORDS = ("t", "translate", "_", "N_")
PLURALS = {"ngettext": 0, "tn": 0, "count_text": 1}
"""Calls whose arguments from this index on are a message with a count: its singular and plural
(gettext's ``ngettext``; :func:`kniffel.base.i18n.count_text`, whose first argument is the words for none).
They go into the catalog as one entry with plural forms (Babel's keyword ``ngettext:1,2``)."""
BABEL_KEYWORDS: dict[str, Any] = {**dict.fromkeys(KEYWORDS), "ngettext": (1, 2)}
"""The keywords handed to Babel: the messages the extractor yields under ``ngettext`` are a pair."""
OPTION_TEXTS = ("help", "metavar", "short_help")
"""Keyword arguments whose text a user reads (Typer's options and commands)."""
OS_ERRORS = frozenset(
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, OSError)
)

DOMAINS: dict[str, list[tuple[str, str]]] = {
    DOMAIN: [
        ("env/**.py", "ignore"),  # programmers' environments: their errors are for programmers
        ("**.py", "kniffel.base.i18n.extract:extract_python"),
    ],
    WEB_DOMAIN: [
        ("apps/web/static/**.js", "javascript"),
        ("apps/web/html/**.html", "kniffel.base.i18n.extract:extract_html"),
    ],
}
"""Per domain, Babel's method map over the package's files (first match wins)."""
JS_KEYWORDS: dict[str, Any] = {"t": None, "nt": (1, 2)}
"""The pages' gettext: ``t(text)``, and ``nt(singular, plural, n)`` for a text with a count."""


# --- Python ---------------------------------------------------------------------------------------


@functools.cache
def project_errors() -> frozenset[str]:
    """The exception classes the package defines (named ``...Error``): their messages are refusals."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                names.add(node.name)
    return frozenset(names)


def extract_python(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel's extractor for Python sources (see the module docstring)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    tree = ast.parse(source)
    reader = _Reader(_constants(tree), set(keywords) | set(KEYWORDS), project_errors() | OS_ERRORS)
    yield from reader.messages(tree)


def _constants(tree: ast.Module) -> dict[str, object]:
    """The module's constants (``NAME = "text"``, ``NAME = 8``, an f-string of constants), for f-strings
    that use them and for ``t(HELP)``."""
    found: dict[str, object] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            target = node.target
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and value is not None:
            folded = _fold(value, found)
            if folded is not None:
                found[target.id] = folded
    return found


def _fold(node: ast.expr, constants: Mapping[str, object]) -> object | None:
    """The value of an expression made of literals and known constants, else None."""
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str | int)
        and not isinstance(node.value, bool)
    ):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_" and node.args:
        return _fold(node.args[0], constants)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _fold(node.left, constants), _fold(node.right, constants)
        if isinstance(left, str) and isinstance(right, str):
            return left + right
        return None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
                continue
            assert isinstance(value, ast.FormattedValue)
            inner = _fold(value.value, constants)
            if inner is None:
                return None
            parts.append(_formatted(inner, value, constants))
        return "".join(parts)
    return None


def _formatted(value: object, node: ast.FormattedValue, constants: Mapping[str, object]) -> str:
    if node.conversion == ord("r"):
        value = repr(value)
    spec = _fold(node.format_spec, constants) if node.format_spec is not None else ""
    return format(value, str(spec or ""))


class _Reader:
    def __init__(self, constants: dict[str, object], keywords: set[str], errors: frozenset[str]) -> None:
        self.constants = constants
        self.keywords = keywords
        self.errors = errors

    def messages(self, tree: ast.Module) -> Iterator[Extracted]:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                yield from self.call(node)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_command(node):
                doc = ast.get_docstring(node)
                for paragraph in _paragraphs(doc or ""):
                    yield node.lineno, None, paragraph, []

    def call(self, node: ast.Call) -> Iterator[Extracted]:
        name = _name(node.func)
        texts: list[tuple[str, list[str]]] = []
        if name in PLURALS:
            at = PLURALS[name]
            forms = [self.texts(arg, fields=False) for arg in node.args[at : at + 2]]
            if len(forms) == 2 and forms[0] and forms[1]:
                yield node.lineno, "ngettext", (forms[0][0][0], forms[1][0][0]), []
            if at:
                texts += self.texts(node.args[0], fields=False)
        elif name == "N_" and node.args:
            texts += self.texts(node.args[0], fields=True)
        elif name in self.keywords:
            first = next((arg for arg in node.args if self.texts(arg, fields=False)), None)
            if first is not None:
                texts += self.texts(first, fields=False)
        elif name in self.errors:
            for arg in node.args:
                texts += [
                    (text, notes) for text, notes in self.texts(arg, fields=True) if not text.isidentifier()
                ]
        elif name == "Binding" and len(node.args) >= 3:
            texts += self.texts(node.args[2], fields=False)
        for keyword in node.keywords:
            if keyword.arg in OPTION_TEXTS or (name == "Binding" and keyword.arg == "description"):
                # A help may name a figure of another module (read back by kniffel.base.i18n.sentence).
                for text, notes in self.texts(keyword.value, fields=True):
                    texts += [(paragraph, notes) for paragraph in _paragraphs(text)]
        for text, notes in texts:
            yield node.lineno, None, text, notes

    def texts(self, node: ast.expr, *, fields: bool) -> list[tuple[str, list[str]]]:
        """The messages an expression can be: a literal, a constant, either branch of a condition, an
        f-string (with ``fields``: its fields named; without, only when they are constants)."""
        if isinstance(node, ast.IfExp):
            return self.texts(node.body, fields=fields) + self.texts(node.orelse, fields=fields)
        if isinstance(node, ast.Call) and _name(node.func) == "N_" and node.args:
            return self.texts(node.args[0], fields=True)
        folded = _fold(node, self.constants)
        if isinstance(folded, str):
            return [(folded, [])] if folded.strip() else []
        if isinstance(node, ast.JoinedStr) and fields:
            text, notes = _template(node, self.constants)
            # Too little text besides the fields to be read back (kniffel.base.i18n.sentence): not a message.
            return [(text, notes)] if len(re.sub(r"\{\w+\}", "", text).strip()) >= 4 else []
        return []


def _template(node: ast.JoinedStr, constants: Mapping[str, object]) -> tuple[str, list[str]]:
    """An f-string as a message with named fields, and a note saying what each field holds."""
    parts: list[str] = []
    names: dict[str, str] = {}
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
            continue
        assert isinstance(value, ast.FormattedValue)
        folded = _fold(value.value, constants)
        if folded is not None:
            parts.append(_formatted(folded, value, constants).replace("{", "{{").replace("}", "}}"))
            continue
        source = ast.unparse(value.value)
        if source not in names:
            base = _field_name(value.value)
            name, number = base, 2
            while name in names.values():
                name, number = f"{base}{number}", number + 1
            names[source] = name
        parts.append("{" + names[source] + "}")
    notes = [", ".join(f"{{{name}}}: {source}" for source, name in names.items())] if names else []
    return "".join(parts), notes


def _field_name(node: ast.expr) -> str:
    """A field's name after what it holds: ``key`` for ``key``, ``id`` for ``rules.id``, ``players``
    for ``len(players)``, ``index`` for ``', '.join(index)``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        if node.args:
            return _field_name(node.args[0])
        if isinstance(node.func, ast.Attribute):
            return _field_name(node.func.value)
    if isinstance(node, ast.Subscript):
        return _field_name(node.value)
    if isinstance(node, ast.BinOp):
        return _field_name(node.left)
    return "value"


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A command of the command line (``@app.command(...)``, ``@app.callback(...)``): its docstring is
    its help."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in ("command", "callback"):
            return True
    return False


def _paragraphs(text: str) -> list[str]:
    """Help text as the command line shows it: paragraph by paragraph, each on one line."""
    return [" ".join(part.split()) for part in inspect.cleandoc(text).split("\n\n") if part.strip()]


# --- HTML -----------------------------------------------------------------------------------------


class _Marked(HTMLParser):
    """The texts of elements marked ``data-t`` and the ``aria-label`` of those marked ``data-t-aria``."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self.open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marks = dict(attrs)
        line = self.getpos()[0]
        if "data-t-aria" in marks and marks.get("aria-label"):
            self.found.append((line, str(marks["aria-label"])))
        if "data-t" in marks:
            self.open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        for _, _, texts in self.open:
            texts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1][0] == tag:
            _, line, texts = self.open.pop()
            text = " ".join("".join(texts).split())
            if text:
                self.found.append((line, text))


def extract_html(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel's extractor for the pages' HTML (see the module docstring)."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    for line, text in parser.found:
        yield line, None, text, []


# --- the templates --------------------------------------------------------------------------------


def template(domain: str) -> Any:
    """The domain's messages as Babel extracts them from the package now (a ``Catalog``)."""
    from importlib.metadata import version

    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(
        project="kniffel",
        version=version("kniffel"),
        domain=domain,
        charset="utf-8",
        copyright_holder="the kniffel authors",
        header_comment=HEADER,
    )
    keywords: dict[str, Any] = JS_KEYWORDS if domain == WEB_DOMAIN else BABEL_KEYWORDS
    # Calls inside a script's template strings (`${t("best")}`) are read too.
    options = {"apps/web/static/**.js": {"parse_template_string": True}}
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), DOMAINS[domain], options_map=options, keywords=keywords
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


HEADER = """\
# The words of kniffel ({domain}): extracted from the sources by `python -m kniffel.base.i18n.extract`.
# Translators edit the .po files beside this template; docs/how-to/translating.md says how.
#"""


def po_path(language: str, domain: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"


def update(write: Callable[[str], None] = print) -> None:
    """Write each domain's template and merge it into every language's ``.po`` (``pybabel update``)."""
    from babel.messages.pofile import read_po, write_po

    for domain in DOMAINS:
        fresh = template(domain)
        pot = LOCALE_DIR / f"{domain}.pot"
        _write(pot, fresh, write_po)
        write(f"{pot}: {len(fresh)} messages")
        for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{domain}.po")):
            with po.open("rb") as stream:
                catalog = read_po(stream)
            catalog.update(fresh)
            _write(po, catalog, write_po)
            missing = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
            write(f"{po}: {len(missing)} to translate or check (empty or fuzzy)")


def _write(path: Path, catalog: Any, write_po: Callable[..., None]) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=110, include_lineno=False, sort_output=False)
    text = undated(buffer.getvalue())
    if path.exists() and path.read_bytes() == text:
        return
    path.write_bytes(text)


def undated(text: bytes) -> bytes:
    """A catalog without the dates Babel (and a PO editor) write in its header: when it was extracted
    and last translated is history, which git keeps; an empty date is what Babel reads as none."""
    return re.sub(rb'^"(POT-Creation|PO-Revision)-Date: [^"\\]*', rb'"\1-Date: ', text, flags=re.M)


if __name__ == "__main__":
    update()
