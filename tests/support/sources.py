"""The package's modules and the kniffel modules each imports, read from their source (not imported)."""

from __future__ import annotations

import ast
from pathlib import Path

import kniffel

PACKAGE = Path(kniffel.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
"""Every module of the package, as its file."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, module: str) -> list[tuple[int, str]]:
    """``(line, imported module)`` for every import of a kniffel module in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.startswith("kniffel")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if not target.startswith("kniffel"):
                continue
            for alias in node.names:
                # ``from kniffel import rules`` imports the module kniffel.rules, not the facade
                candidate = f"{target}.{alias.name}"
                submodule = PACKAGE.parent.joinpath(*candidate.split("."))
                is_module = submodule.with_suffix(".py").exists() or (submodule / "__init__.py").exists()
                found.append((node.lineno, candidate if is_module else target))
    return found
