"""Rich tables: the score sheet laid out like the seed's Spielblock, the rule sets, a roll's options."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from kniffel.base.i18n import N_, number, translate
from kniffel.rules import Option, Placement, RuleSet, available, options_for
from kniffel.rules import get as get_rules
from kniffel.rules.builtin import ORDER_TEXT, extra_text, scoring_text
from kniffel.rules.explain import explain

if TYPE_CHECKING:  # the engine is imported where a game is drawn: kniffel rules does not load it
    from kniffel.engine.game import Game
    from kniffel.engine.sheet import ScoreSheet

ORDER_WORDS = (N_("free"), N_("top-down"), N_("bottom-up"), N_("announced"))
"""How a column is filled (:class:`kniffel.rules.Order`'s values), as the tables of rule sets name it."""


def points_text(points: int | None) -> str:
    # A struck box and a zero look alike on paper: the seed's sheet writes a dash for both.
    if points is None:
        return ""
    return "\N{EN DASH}" if points == 0 else str(points)


def sheet_table(
    game: Game,
    *,
    lang: str = "en",
    hints: Mapping[str, Placement] | None = None,
    title: str | None = None,
    names: Sequence[str] | None = None,
) -> Table:
    """Every player's sheet side by side, laid out by :func:`kniffel.engine.sheet.sheet_layout`: a column per
    player (per player and column on multi-column sheets). ``hints`` are the current player's options,
    shown in brackets in their empty boxes; ``names`` the players' names as shown (default: the game's,
    :meth:`kniffel.services.session.Session.names`)."""
    from kniffel.engine.sheet import sheet_layout

    rules = game.rules
    # Many players on multi-column sheets need every character of an 80-column terminal.
    compact = len(game.players) * len(rules.columns) > 8
    table = Table(title=title, header_style="bold", padding=(0, 0 if compact else 1))
    table.add_column(
        translate(lang, "Box"), no_wrap=True, min_width=max(len(b.label(lang)) for b in rules.boxes)
    )
    for index, name in enumerate(names or game.players):
        marker = "▶ " if index == game.current and not game.is_over else ""
        for position, column in enumerate(rules.columns):
            # A player's name heads their first column; column numbers go on a second line.
            header = f"{marker}{name}" if position == 0 else ""
            if rules.multi_column:
                header += f"\n{column.id}"
            table.add_column(header, justify="right")

    for row in sheet_layout(rules):
        cells: list[str | Text] = []
        if row.kind == "box":
            box = rules.box(row.name)
            cells.append(box.label(lang))
            for index, sheet in enumerate(game.sheets):
                for column in rules.columns:
                    key = rules.key(column, box)
                    points = sheet.entries.get(key)
                    if points is None and hints is not None and index == game.current and key in hints:
                        cells.append(Text(f"({hints[key].total})", style="dim italic"))
                    else:
                        cells.append(points_text(points))
            table.add_row(*cells, end_section=row.ends_section)
            continue
        cells.append(Text(translate(lang, row.label), style="bold"))
        for sheet in game.sheets:
            if row.kind == "grand_total":  # one figure per player, under the player's first column
                cells += [str(sheet.total)] + [""] * (len(rules.columns) - 1)
                continue
            for column in rules.columns:
                cells.append(str(getattr(sheet.column_totals(column), row.name)))
        table.add_row(*cells, style="bold" if row.strong else "cyan", end_section=row.ends_section)
    return table


def dice_text(dice: Sequence[int] | None, lang: str = "en") -> str:
    if dice is None:
        return translate(lang, "not rolled yet")
    return "  ".join(f"[{d}]" for d in dice)


# --- rule sets ---------------------------------------------------------------------------------


def option_json(option: Option, value: str | None = None) -> dict[str, object]:
    entry: dict[str, object] = {
        "key": option.key,
        "values": list(option.values),
        "default": option.default,
        "help": option.help,
    }
    if value is not None:
        entry["value"] = value
    if option.scores:
        entry["expected_scores"] = dict(option.scores)
    return entry


def rule_set_json(rules: RuleSet) -> dict[str, object]:
    """One rule set in full: :meth:`RuleSet.describe` with how each box scores, the order each column is
    filled in, what a further five of a kind does, the free throws, and every option with its value."""
    description = rules.describe()
    description["columns"] = [
        {"id": c.id, "order": c.order.value, "fills": ORDER_TEXT[c.order]} for c in rules.columns
    ]
    description["boxes"] = [
        {
            "id": box.id,
            "section": box.section.value,
            "en": box.label_en,
            "de": box.label_de,
            "scores": scoring_text(box.score),
            "joker_points": box.joker_points,
            "figure": box.figure,
        }
        for box in rules.boxes
    ]
    description["extra_rule"] = extra_text(rules)
    description["free_throws"] = rules.free_throws
    description["free_throw_points"] = rules.free_throw_points
    description["free_throws_per_turn"] = rules.free_throws_per_turn
    description["options"] = [
        option_json(o, rules.options.get(o.key, o.default)) for o in options_for(rules.id)
    ]
    return description


def rules_json() -> list[dict[str, object]]:
    """Every built-in rule set, with its default options, as :func:`rule_set_json` gives it."""
    return [rule_set_json(get_rules(rules_id)) for rules_id in available()]


def _column_orders(rules: RuleSet, lang: str = "en") -> str:
    if not rules.multi_column:
        return translate(lang, rules.columns[0].order.value)
    return ", ".join(f"{c.id} {translate(lang, c.order.value)}" for c in rules.columns)


INDENT = 4
"""How far a rule set's facts and an option's meaning are indented below their heading."""


def rules_tables(lang: str = "en") -> list[RenderableType]:
    """The rule sets, each a heading and a few lines (name, source, dice, columns, boxes by name), then
    every option as a paragraph with the rule sets that accept it: readable at 80 columns."""
    t = functools.partial(translate, lang)
    parts: list[RenderableType] = [
        Text(t("Rule sets (--rules ID; 'kniffel rules ID' shows one in full)"), style="bold underline")
    ]
    users: dict[str, list[str]] = {}
    described: dict[str, Option] = {}
    for rules_id in available():
        rules = get_rules(rules_id)
        heading = Text.assemble((rules.id, "bold"), "  ", t(rules.name))
        explained = explain(rules, lang)
        lines = [
            t(rules.source),
            dict(explained.facts)[t(N_("Dice"))],
            t("Columns: {orders}", orders=_column_orders(rules, lang)),
            t("Boxes: {boxes}", boxes=", ".join(b.label(lang) for b in rules.boxes)),
        ]
        parts += [Text(""), heading, Padding(Text("\n".join(lines)), (0, 0, 0, INDENT))]
        for option in options_for(rules_id):
            users.setdefault(option.key, []).append(rules_id)
            described.setdefault(option.key, option)
    parts += [Text(""), Text(t("Options (--option key=value)"), style="bold underline")]
    everyone = set(available())
    for key, option in described.items():
        applies = t("all rule sets") if set(users[key]) == everyone else ", ".join(users[key])
        parts += option_paragraph(option, lang, applies=applies)
    return parts


def option_paragraph(
    option: Option, lang: str = "en", *, applies: str | None = None, value: str | None = None
) -> list[RenderableType]:
    """An option as a heading (``key = a|b``, as typed), its default, the value chosen or the rule sets it
    applies to (a value in words in ``lang``, with what is typed for it beside it where that differs)
    and its meaning as an indented paragraph, which wraps to the terminal's full width."""
    t = functools.partial(translate, lang)
    about = [t("default {value}", value=value_words(option.default, lang))]
    if value is not None:
        about.append(t("here {value}", value=value_words(value, lang)))
    if applies is not None:
        about.append(applies)
    if option.scores:  # what each value is worth to optimal play
        worth = ", ".join(f"{choice} {number(lang, score, 4)}" for choice, score in option.scores.items())
        about.append(f"{t(N_('expected scores'))}: {worth}")
    heading = Text.assemble(
        (option.key, "bold"), f" = {'|'.join(option.values)}", (f"  {' · '.join(about)}", "dim")
    )
    return [Text(""), heading, Padding(Text(t(option.help)), (0, 0, 0, INDENT))]


def value_words(value: str, lang: str = "en") -> str:
    """An option's value in ``lang`` ("aus"), with the value as typed after it where the two differ
    ("aus (off)"): what is read, and what to type."""
    words = translate(lang, value)
    return value if words == value else f"{words} ({value})"


def rule_set_view(rules: RuleSet, lang: str = "en") -> list[RenderableType]:
    """One rule set in full, for the terminal: what :func:`rule_set_json` holds."""
    t = functools.partial(translate, lang)
    chosen = "".join(f" {k}={v}" for k, v in sorted(rules.options.items()))
    explained = explain(rules, lang)
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column(ratio=1)
    facts.add_row(t("Source"), t(rules.source))
    for label, text in explained.facts:
        facts.add_row(label, text)
    other = "de" if lang == "en" else "en"
    boxes = Table(title=t("Boxes"), header_style="bold", show_lines=False)
    boxes.add_column(t("Box"), no_wrap=True)
    boxes.add_column(t("German") if other == "de" else t("English"), no_wrap=True)
    boxes.add_column(t("Scores"), ratio=1)
    for n, (box, (label, scores)) in enumerate(zip(rules.boxes, explained.boxes, strict=True), 1):
        boxes.add_row(label, box.label(other), scores, end_section=n == explained.upper_boxes)
    parts: list[RenderableType] = [
        Text(f"{t(rules.name)} ({rules.id}{chosen})", style="bold"),
        Text(t(rules.description)),
        facts,
        boxes,
        Text(t("Options (--option key=value)"), style="bold underline"),
    ]
    for option in options_for(rules.id):
        parts += option_paragraph(option, lang, value=rules.options.get(option.key, option.default))
    return parts


# --- actions -------------------------------------------------------------------------------------


def named_actions(
    options: Sequence[Mapping[str, Any]], rules: RuleSet, lang: str = "en"
) -> list[dict[str, Any]]:
    """Options (``{"action": text form, ...}``) with each action as the game names it in ``lang``
    (:func:`kniffel.engine.actions.action_text`, as the terminal game and the web page show it: ``keep 3 3``,
    ``3 3 halten``, ``Full House eintragen``); JSON keeps the text form."""
    from kniffel.engine.actions import Action, action_text

    return [
        {**option, "action": action_text(Action.parse(option["action"]), rules, lang)} for option in options
    ]


# --- where a roll may go -------------------------------------------------------------------------


def placements_table(rules: RuleSet, options: Mapping[str, Placement], lang: str = "en") -> Table:
    t = functools.partial(translate, lang)
    table = Table(header_style="bold")
    table.add_column(t("Box"))
    table.add_column(t("Label"))
    table.add_column(t("Points"), justify="right")
    table.add_column(t("Bonus"), justify="right")
    for key, placement in options.items():
        _, box = rules.locate(key)
        table.add_row(key, box.label(lang), str(placement.points), str(placement.bonus or ""))
    return table


def sheet_json(sheet: ScoreSheet) -> dict[str, object]:
    """A player's totals summed over the sheet's columns, and the entries in sheet order."""
    totals = sheet.totals
    return {
        "total": sheet.total,
        "upper_sum": sum(t.upper_sum for t in totals),
        "upper_bonus": sum(t.upper_bonus for t in totals),
        "lower_sum": sum(t.lower_sum for t in totals),
        "extra_bonus": sum(t.extra_bonus for t in totals),
        "free_throws": sum(t.free_throws for t in totals),
        "sheet": {key: sheet.entries[key] for key in sheet.rules.box_keys if key in sheet.entries},
    }
