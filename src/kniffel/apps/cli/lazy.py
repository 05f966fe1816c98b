"""The Click command of a Typer app whose subcommands' parameters are built only for the subcommand that
runs.

Typer builds every command's parameters from its signature (the annotations evaluated, each option made)
before it parses a single argument: for ``kniffel``'s commands that took longer than anything else a
command like ``kniffel rules`` does. :func:`command_of` builds the group and its own options as Typer
does, and for each subcommand an *outline*: the command as Typer makes it from its name, help and
settings, but without parameters, which is all that a group's help lists of it. The subcommand that is
invoked (:meth:`LazyGroup.resolve_command`) is built then, by Typer, in full; :attr:`LazyGroup.on_build`
holds what is done to each command so built (its help translated, its values read plainly).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import typer
from typer._click import Command, Context
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_group_from_info
from typer.models import CommandInfo, TyperInfo


class LazyGroup(TyperGroup):
    """A group whose subcommands are outlines until one is invoked (:func:`command_of`)."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.later: dict[str, Callable[[], Command]] = {}
        """How to build each subcommand that is still an outline, by name."""
        self.on_build: list[Callable[[Command], None]] = []
        """What is done to a subcommand once it is built, in order."""

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None and name in self.later:
            command = self.commands[name] = self.later.pop(name)()
            for finish in self.on_build:
                finish(command)
        return name, command, rest


def command_of(app: typer.Typer) -> LazyGroup:
    """The Click group of ``app``, as ``typer.main.get_command(app)`` makes it (which builds every
    subcommand in full), with its subcommands' parameters built only for the one invoked."""
    return _group(
        TyperInfo(app),
        {"pretty_exceptions_short": app.pretty_exceptions_short, "rich_markup_mode": app.rich_markup_mode},
        suggest_commands=app.suggest_commands,
    )


def _group(info: TyperInfo, settings: dict[str, Any], *, suggest_commands: bool) -> LazyGroup:
    app = info.typer_instance
    assert app is not None
    bare = copy.copy(app)  # the group's own callback and settings, without its commands
    bare.registered_commands = []
    bare.registered_groups = []
    own = copy.copy(info)
    own.typer_instance = bare
    own.cls = LazyGroup
    group = get_group_from_info(own, suggest_commands=suggest_commands, **settings)
    assert isinstance(group, LazyGroup)
    for command_info in app.registered_commands:
        outline = get_command_from_info(_outline(command_info), **settings)
        assert outline.name is not None
        group.commands[outline.name] = outline
        group.later[outline.name] = functools.partial(get_command_from_info, command_info, **settings)
    for sub_info in app.registered_groups:
        sub = _group(sub_info, settings, suggest_commands=suggest_commands)
        assert sub.name, "a sub-app has a name of its own"
        group.commands[sub.name] = sub
    return group


def _outline(command_info: CommandInfo) -> CommandInfo:
    """``command_info`` with a callback of the same name and help that takes no parameters."""
    callback = command_info.callback
    assert callback is not None

    def outline() -> None:
        raise AssertionError("an outline is listed, never invoked")

    for attribute in ("__name__", "__qualname__", "__module__", "__doc__"):
        setattr(outline, attribute, getattr(callback, attribute))
    shown = copy.copy(command_info)
    shown.callback = outline
    return shown


__all__ = ["LazyGroup", "command_of"]
