"""A package's face whose names are imported the first time they are asked for.

A floor's face (``kniffel``, ``kniffel.core``, ``kniffel.planning``) names what it opens onto; importing
the face alone loads none of the modules behind it, so a command that never solves starts without numpy,
numba or the kernels. The face imports its names for the type checker only and records where each one
lives in a :class:`Door`, which becomes the module's ``__getattr__`` and ``__dir__`` (:meth:`~Door.attribute`
and :meth:`~Door.listing`).
"""

from __future__ import annotations

import importlib
from typing import Any


class Door:
    """The names a package opens onto, each the module that defines it and its name there."""

    def __init__(self, package: str, namespace: dict[str, Any]) -> None:
        """The door of ``package``, whose module's ``namespace`` (its ``globals()``) it answers for: set
        there at run time, where the type checker does not look, so that it reads the face's names from
        its imports and knows no other."""
        self.package = package
        self.names: dict[str, tuple[str, str]] = {}
        """Each name of the door: the module that defines it and its name there."""
        self._namespace = namespace
        namespace["__getattr__"] = self.attribute
        namespace["__dir__"] = self.listing

    def open(self, module: str, *names: str, **renamed: str) -> None:
        """Open onto ``names`` of ``module`` (a module of the package, named from it) and onto each
        ``renamed`` name, whose own name in the module is its value."""
        where = f"{self.package}.{module}"
        for name in names:
            self.names[name] = (where, name)
        for name, own in renamed.items():
            self.names[name] = (where, own)

    def open_modules(self, *modules: str) -> None:
        """Open onto ``modules`` themselves (modules of the package, named from it)."""
        for module in modules:
            self.names[module] = (f"{self.package}.{module}", "")

    def attribute(self, name: str) -> Any:
        """The value of ``name``, imported from its module and kept in the package the first time."""
        try:
            module, own = self.names[name]
        except KeyError:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}") from None
        imported = importlib.import_module(module)
        value = getattr(imported, own) if own else imported
        self._namespace[name] = value
        return value

    def listing(self) -> list[str]:
        """What ``dir()`` of the package shows: what it holds and what it opens onto."""
        return sorted({*self._namespace, *self.names})


__all__ = ["Door"]
