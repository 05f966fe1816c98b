"""How the command line reads its options' values: text, whole numbers, decimals, yes or no and file
names, each checked and refused in Click's words (which the catalogs translate), without Pydantic.

Typer coerces every value it parses through a Pydantic ``TypeAdapter``; importing Pydantic for that took
longer than importing Typer and Rich together, on every command that takes a value (``kniffel rules``
among them). The command line's values are all of five plain types, so each parameter gets a reader of
its own here (:func:`read_plainly`), and a parameter of any other kind keeps Typer's."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin

from typer._click import Context
from typer._click.exceptions import BadParameter
from typer._coercion import RuntimeParam

from kniffel.base.i18n import N_

WHOLE = re.compile(r"[+-]?[0-9]+")
"""A whole number as a person types it: the digits 0-9 only (``²`` is no number to us)."""

REFUSALS = (N_("{value} is not a valid float."), N_("{value} is not a valid boolean."))
"""The refusals of :func:`_decimal` and :func:`_truth` in Click's words (marked here for the catalog)."""


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _whole(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and WHOLE.fullmatch(value.strip()):
        return int(value)
    raise ValueError(f"{value!r} is not a valid integer.")


def _decimal(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{value!r} is not a valid float.") from None


TRUTH = {"1": True, "true": True, "t": True, "yes": True, "y": True, "on": True}
TRUTH |= {"0": False, "false": False, "f": False, "no": False, "n": False, "off": False, "": False}
"""The words a flag's value may be given in (an environment variable's), as Click reads them."""


def _truth(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    truth = TRUTH.get(str(value).strip().lower())
    if truth is None:
        raise ValueError(f"{value!r} is not a valid boolean.")
    return truth


def _path(value: Any) -> Path:
    return value if isinstance(value, Path) else Path(value)


READERS: dict[type, Callable[[Any], Any]] = {
    str: _text,
    int: _whole,
    float: _decimal,
    bool: _truth,
    Path: _path,
}
"""The plain types and how a value given for each is read."""


@dataclass(frozen=True)
class PlainValue(RuntimeParam):
    """A parameter of a plain type (:data:`READERS`), with its bounds, one value or a list of them."""

    read: Callable[[Any], Any]
    many: bool

    def _coerce_value(self, value: Any, param: Any, ctx: Context) -> Any:
        try:
            if self.many:
                return [self._one(item) for item in value]
            return self._one(value)
        except ValueError as error:
            raise BadParameter(str(error), ctx=ctx, param=param) from None

    def _one(self, value: Any) -> Any:
        read = self.read(value)
        low, high = self.parameter_info.min, self.parameter_info.max
        if (low is not None and read < low) or (high is not None and read > high):
            bounds = [f"x>={low}"] if low is not None else []
            bounds += [f"x<={high}"] if high is not None else []
            raise ValueError(f"{value} is not in the range {' and '.join(bounds)}.")
        return read


def _plain_type(annotation: Any) -> tuple[type, bool] | None:
    """The plain type of ``annotation`` and whether it is a list of them, or None for any other kind."""
    many = get_origin(annotation) is list
    if many:
        (annotation,) = get_args(annotation)
    if get_origin(annotation) in (Union, UnionType):
        rest = [arg for arg in get_args(annotation) if arg is not NoneType]
        if len(rest) != 1:
            return None
        (annotation,) = rest
    if annotation in READERS:
        return annotation, many
    return None


def read_plainly(param: Any) -> None:
    """Give ``param`` (a parameter of a Typer command) a reader of its plain type, if it has one, no
    parser of its own, no clamping and no file checks; otherwise leave it to Typer."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "_runtime_param", None) is not None:
        return
    info = descriptor.parameter_info
    plain = _plain_type(descriptor.annotation)
    if plain is None or descriptor.file_annotation is not None or info.parser is not None or info.clamp:
        return
    kind, many = plain
    if kind is Path and (info.exists or info.resolve_path or info.allow_dash or info.path_type is not None):
        return
    param._runtime_param = PlainValue(info, descriptor.annotation, read=READERS[kind], many=many)
