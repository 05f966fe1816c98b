"""MkDocs hooks: the reference pages made from the code itself, so they are never out of date.

* ``reference/cli.md``: every command of ``kniffel`` with its options, from the Typer app.
* ``reference/web-api.md``: every route of the web app, from FastAPI's OpenAPI schema.
* ``reference/rule-sets.md``: every built-in rule set, its boxes and its options, from the registry
  (the same words ``kniffel rules`` prints).

And the benchmarks' recorded figures (``benchmarks/results/*.json``, one file per machine, written by
``benchmarks/machine.py``'s ``record``): a line ``<!-- results: NAME -->`` in a page becomes benchmark
NAME's table on every machine that recorded it, and ``<!-- results: others -->`` the tables of every
benchmark no line of the page names.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

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


# --- the benchmarks' recorded figures ----------------------------------------------------------------

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
MARKER = re.compile(r"^<!-- results: ([\w.-]+) -->$", re.MULTILINE)
OTHERS = "others"


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return results_in(markdown, load_results(RESULTS)) if MARKER.search(markdown) else markdown


def load_results(folder: Path) -> dict[str, dict[str, Any]]:
    """Every machine's results file in ``folder``, by machine id (the file's name)."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))}


def results_in(markdown: str, machines: dict[str, dict[str, Any]]) -> str:
    """``markdown`` with each results line replaced by its tables (see the module's description)."""
    named = set(MARKER.findall(markdown)) - {OTHERS}
    recorded = sorted({name for content in machines.values() for name in content.get("benchmarks", {})})

    def tables(found: re.Match[str]) -> str:
        name = found.group(1)
        if name == OTHERS:
            rest = [other for other in recorded if other not in named]
            if not rest:
                return "*None: every benchmark recorded has its table above.*\n"
            return "\n".join(f"### `{other}`\n\n{benchmark_tables(other, machines)}" for other in rest)
        return benchmark_tables(name, machines)

    return MARKER.sub(tables, markdown)


def benchmark_tables(name: str, machines: dict[str, dict[str, Any]]) -> str:
    """Benchmark ``name``'s table on every machine that recorded it, each under what ran, where and when."""
    parts = []
    for content in machines.values():
        entry = content.get("benchmarks", {}).get(name)
        if entry is None:
            continue
        when = entry.get("time_utc")
        load = entry.get("load") or {}
        loads = [
            f"{moment} {values[0]:.1f}"
            for moment, values in (("before", load.get("before")), ("after", load.get("after")))
            if values
        ]
        said = [
            f"**{_cell(machine_summary(content['machine']))}**",
            f"`{entry['command']}`",
            f"{when[:10]} {when[11:16]} UTC" if when else "time not recorded",
            f"load {', '.join(loads)}" if loads else "load not recorded",
        ]
        lines = [": ".join(said[:2]) + "; " + ", ".join(said[2:]) + ".", ""]
        lines.append("| " + " | ".join(_cell(column) for column in entry["columns"]) + " |")
        numeric = [all(_is_number(row[i]) for row in entry["rows"]) for i in range(len(entry["columns"]))]
        lines.append("|" + "|".join("--:" if right else "---" for right in numeric) + "|")
        lines.extend("| " + " | ".join(_figure(value) for value in row) + " |" for row in entry["rows"])
        lines.append("")
        if entry.get("note"):
            lines.extend([_cell(entry["note"]), ""])
        numba = entry.get("numba") or {}
        if numba:
            lines.append('??? info "What numba compiled for"')
            lines.extend(f"    - {_cell(build)}: {_cell(line)}" for build, line in numba.items())
            lines.append("")
        parts.append("\n".join(lines))
    if not parts:
        script = f"benchmarks/{name}.py"
        return f"*Not recorded on any machine yet: `.venv/bin/python {script} --record` records it.*\n"
    return "\n".join(parts)


def machine_summary(machine: dict[str, Any]) -> str:
    """A machine in one line: its processor, the CPUs the benchmarks could use, its L2 and L3."""
    cpu = machine["cpu"]
    what = [f"{cpu['usable_cpus']} of {cpu['logical_cpus']} CPUs"]
    for cache in machine.get("caches", []):
        if cache["name"] in ("L2", "L3"):
            size = _size(cache["size_kb"])
            what.append(
                f"{cache['name']} {size} x{cache['instances']}"
                if cache["instances"] > 1
                else f"{cache['name']} {size}"
            )
    family = f", family {cpu['family']} model {cpu['model_number']}" if cpu.get("family") else ""
    return f"{cpu['model']}{family} ({', '.join(what)})"


def _size(kb: int) -> str:
    return f"{kb // 1024} MB" if kb >= 1024 and kb % 1024 == 0 else f"{kb} KB"


def _is_number(value: Any) -> bool:
    """Whether a recorded figure is a number or none (a column of them is aligned to the right)."""
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _figure(value: Any) -> str:
    """A recorded figure as the tables show it: thousands grouped, three significant digits below 10."""
    if value is None:
        return "-"
    if not _is_number(value):
        return _cell(value)
    if isinstance(value, int) or abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"
