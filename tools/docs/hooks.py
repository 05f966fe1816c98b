"""MkDocs hooks: the reference pages made from the code itself, so they are never out of date.

* ``reference/cli.md``: every command of ``kniffel`` with its options, from the Typer app.
* ``reference/web-api.md``: every route of the web app, from FastAPI's OpenAPI schema.
* ``reference/rule-sets.md``: every built-in rule set, its boxes and its options, from the registry
  (the same words ``kniffel rules`` prints).
"""

from __future__ import annotations

import html
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

PAGES = {
    "reference/cli.md": "cli_page",
    "reference/web-api.md": "web_api_page",
    "reference/rule-sets.md": "rule_sets_page",
}


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for uri, maker in PAGES.items():
        files.append(File.generated(config, uri, content=globals()[maker]()))
    return files


def _cell(text: object) -> str:
    return html.escape(" ".join(str(text).split())).replace("|", "\\|")


# --- the command line -------------------------------------------------------------------------------


def cli_page() -> str:
    import typer

    from kniffel.apps.cli.app import app

    root = typer.main.get_command(app)
    lines = [
        "# Command line",
        "",
        "Every command of `kniffel`, as `kniffel COMMAND --help` shows it. This page is made from the",
        "command line's own definitions when the documentation is built.",
        "",
    ]

    def walk(command: Any, path: list[str]) -> None:
        name = " ".join(path)
        lines.extend([f"## `{name}`" if len(path) > 1 else "## `kniffel`", ""])
        if command.help:
            lines.extend([command.help.strip(), ""])
        params = [p for p in command.params if not getattr(p, "hidden", False)]
        if params:
            lines.extend(["| argument or option | what it does |", "|---|---|"])
            for param in params:
                names = ", ".join(f"`{n}`" for n in (param.opts + param.secondary_opts))
                helped = getattr(param, "help", None) or ""
                if param.param_type_name == "argument":
                    names = "`" + (param.name or "").upper() + "`"
                lines.append(f"| {names} | {_cell(helped)} |")
            lines.append("")
        if hasattr(command, "list_commands"):
            context = command.context_class(command)
            for sub_name in command.list_commands(context):
                sub = command.get_command(context, sub_name)
                if sub is not None and not sub.hidden:
                    walk(sub, [*path, sub_name])

    walk(root, ["kniffel"])
    return "\n".join(lines) + "\n"


# --- the web API -------------------------------------------------------------------------------------


def web_api_page() -> str:
    from kniffel.apps.web.app import create_app

    schema: dict[str, Any] = create_app("sqlite://").openapi()
    lines = [
        "# Web API",
        "",
        "The routes of `kniffel serve`, from the app's OpenAPI schema (served live at `/openapi.json`",
        "when the server runs). The table's moves go over the WebSocket `/ws/{game_id}`.",
        "",
        "| method | path | what it does |",
        "|---|---|---|",
    ]
    for path, operations in sorted(schema.get("paths", {}).items()):
        for method, operation in sorted(operations.items()):
            summary = (operation.get("description") or operation.get("summary") or "").strip()
            first = summary.split("\n\n")[0]
            lines.append(f"| {method.upper()} | `{path}` | {_cell(first)} |")
    return "\n".join(lines) + "\n"


# --- the rule sets -----------------------------------------------------------------------------------


def rule_sets_page() -> str:
    from kniffel import rules
    from kniffel.rules.explain import explain

    lines = [
        "# Rule sets",
        "",
        "Every built-in rule set as `kniffel rules ID` explains it, made from its declaration. Where seeds",
        "disagree and what each rule comes from is in [the rules' decisions](../explanation/rules.md).",
        "",
    ]
    for rules_id in rules.available():
        ruleset = rules.get(rules_id)
        told = explain(ruleset, "en")
        lines.extend([f"## `{rules_id}`: {told.name}", "", told.description, ""])
        lines.extend(["| | |", "|---|---|"])
        lines.extend(f"| {_cell(label)} | {_cell(text)} |" for label, text in told.facts)
        lines.extend(["", "| box | scores |", "|---|---|"])
        lines.extend(f"| {_cell(label)} | {_cell(text)} |" for label, text in told.boxes)
        options = rules.options_for(rules_id)
        if options:
            lines.extend(["", "| option | values | default | what it does |", "|---|---|---|---|"])
            lines.extend(
                f"| `{o.key}` | {', '.join(f'`{v}`' for v in o.values)} | `{o.default}` | {_cell(o.help)} |"
                for o in options
            )
        lines.append("")
    return "\n".join(lines) + "\n"
