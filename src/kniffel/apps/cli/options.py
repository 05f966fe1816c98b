"""The options several commands share, and the rule set they name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # the rule sets are imported by the commands that read them: kniffel --help does not
    from kniffel.rules import RuleSet

DEFAULT_RULES = "kniffel"


RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules",
        "-r",
        metavar="ID",
        help="Rule set id (see 'kniffel rules'); default: kniffel.",
        show_default=False,
    ),
]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="Rule option key=value, repeatable (e.g. sharp=on).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
DiceWordsArgument = Annotated[
    list[str] | None,
    typer.Argument(metavar="DICE", help="The dice, if not given with --dice.", show_default=False),
]
DiceOption = Annotated[
    list[str] | None,
    typer.Option(
        "--dice",
        "-d",
        metavar="DICE",
        help="The dice: --dice 3 3 3 3 3, --dice 33333 or --dice 3,3,3,3,3.",
        show_default=False,
    ),
]
SheetOption = Annotated[
    str,
    typer.Option(
        "--sheet",
        "-s",
        metavar="BOX=POINTS,...",
        help="Filled boxes: box=points,... (a box by id or label; '-' for struck).",
    ),
]
ColumnOption = Annotated[
    str | None,
    typer.Option(
        "--column",
        metavar="ID",
        help="Multi-column rule sets: the column to solve (id, e.g. 1); needed when the columns differ.",
        show_default=False,
    ),
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed; the same seed gives the same result.")]
PlainOption = Annotated[
    bool, typer.Option("--plain", help="Lines, not the full screen (always in scripts and pipes).")
]
"""The line interface instead of the full-screen one (the only one in scripts and pipes)."""


def file_option(name: str, *, help: str, metavar: str | None = None) -> Any:
    """An option naming a file (``--plot FILE``): no default shown, never a folder."""
    return typer.Option(name, metavar=metavar, help=help, show_default=False, dir_okay=False)


def chosen_rules(rules_id: str | None, option: list[str] | None) -> RuleSet:
    """The rule set ``--rules`` and ``--option`` name (the default rule set without ``--rules``)."""
    from kniffel.rules import get as get_rules
    from kniffel.rules import parse_options

    return get_rules(rules_id or DEFAULT_RULES, parse_options(option or []))


__all__ = [
    "DEFAULT_RULES",
    "ColumnOption",
    "DiceOption",
    "DiceWordsArgument",
    "JsonOption",
    "OptionsOption",
    "PlainOption",
    "RulesOption",
    "SeedOption",
    "SheetOption",
    "chosen_rules",
    "file_option",
]
