"""A griffe extension for mkdocstrings: the code's docstrings name other objects with reST roles
(``:func:`~kniffel.core.table```, ``:class:`Game```); in the reference they read as code, the name as
written (``~`` keeps its last part, as Sphinx shows it)."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def _plain(found: re.Match[str]) -> str:
    short, name = found.groups()
    return f"`{name.rsplit('.', 1)[-1] if short else name}`"


def _fenced(text: str) -> str:
    """Doctest examples (``>>>`` and the lines they print) as fenced console blocks."""
    out: list[str] = []
    inside = False
    for line in text.split("\n"):
        example = line.lstrip().startswith(">>>") or (inside and line.lstrip().startswith("..."))
        if example and not inside:
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class Roles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            text = ROLE.sub(_plain, obj.docstring.value).replace("``", "`")
            obj.docstring.value = _fenced(text)
