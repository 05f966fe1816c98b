"""The layer arrows of the package, as a test: the folders of ``src/kniffel`` are its layers, and a
module imports only from its own layer or lower ones.

    base -> rules -> engine -> core -> planning -> bots -> services -> front ends (apps: cli, web, tui; env)

Every import counts, including those made inside functions or only for type checking: a lazy import is
still a dependency. Front ends are never imported by the library; the command line may start the others
(``kniffel serve`` runs the web app). ``docs/architecture.md`` says what each folder owns.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kniffel

PACKAGE = Path(kniffel.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("kniffel.base",),
    ("kniffel.rules",),
    ("kniffel.engine", "kniffel"),  # the package itself re-exports the engine's public names
    ("kniffel.core",),
    ("kniffel.planning",),
    ("kniffel.bots",),
    ("kniffel.services",),
    ("kniffel.apps.cli", "kniffel.apps.web", "kniffel.apps.tui", "kniffel.env", "kniffel.__main__"),
)
FRONT_ENDS = LAYERS[-1]
LAUNCHERS = ("kniffel.apps.cli", "kniffel.__main__")
"""The command line starts the other front ends (``python -m kniffel`` is the command line); nothing else
imports a front end."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def owner(module: str) -> str | None:
    """The most specific entry of :data:`LAYERS` that ``module`` belongs to."""
    best: str | None = None
    for layer in LAYERS:
        for name in layer:
            if (module == name or module.startswith(name + ".")) and (best is None or len(name) > len(best)):
                best = name
    return best


def layer_of(module: str) -> int:
    name = owner(module)
    assert name is not None, f"{module} belongs to no layer: add it to LAYERS in {__file__}"
    return next(i for i, layer in enumerate(LAYERS) if name in layer)


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


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_folders_are_the_layers() -> None:
    """Each layer is a folder of the package (the front ends: the folders of ``apps`` and ``env``), and
    every folder holding modules is a layer: nothing stands beside them but the package's own
    ``__init__`` and ``__main__``."""
    named = {name for layer in LAYERS for name in layer} - {"kniffel", "kniffel.__main__"}
    folders = {
        module_name(path) for path in PACKAGE.glob("*/__init__.py") if module_name(path) != "kniffel.apps"
    } | {module_name(path) for path in (PACKAGE / "apps").glob("*/__init__.py")}
    assert named == folders
    loose = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"], f"modules beside the layers: {loose}"


def test_every_module_has_a_layer() -> None:
    assert SOURCES
    for path in SOURCES:
        layer_of(module_name(path))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_imports_point_down_the_layers(path: Path) -> None:
    module = module_name(path)
    own = layer_of(module)
    wrong = []
    for line, target in imports_of(path, module):
        target_owner = owner(target)
        if target_owner is None:
            continue
        if target_owner in FRONT_ENDS:
            allowed = owner(module) in (target_owner, *LAUNCHERS)
        else:
            allowed = layer_of(target) <= own
        if not allowed and f"{path.name}:{line} imports {target}" not in wrong:
            wrong.append(f"{path.name}:{line} imports {target}")
    assert not wrong, f"{module} (layer {own}) imports upwards: {wrong}"


def test_the_contract_catches_an_upward_import(tmp_path: Path) -> None:
    """The checker itself: an import from a higher layer is found, a lower one is not."""
    source = PACKAGE / "rules" / "_probe.py"
    text = "from kniffel.engine.game import Game\nfrom kniffel.base.dice import sorted_rolls\n"
    copy = tmp_path / "probe.py"
    copy.write_text(text, encoding="utf-8")
    tree = ast.parse(text)
    assert len(tree.body) == 2
    found = [target for _, target in imports_of(copy, module_name(source))]
    assert found == ["kniffel.engine.game", "kniffel.base.dice"]
    assert layer_of("kniffel.engine.game") > layer_of(module_name(source))
    assert layer_of("kniffel.base.dice") < layer_of(module_name(source))


def test_only_the_core_imports_numba() -> None:
    """The compiled face is one package: everything above it speaks numpy arrays and records."""
    found = []
    for path in SOURCES:
        module = module_name(path)
        if module == "kniffel.core" or module.startswith("kniffel.core."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            compiled = [name for name in names if name.split(".")[0] in ("numba", "llvmlite")]
            found += [f"{module}:{node.lineno} imports {name}" for name in compiled]
    assert found == []


MAX_LINES = 700
"""A module longer than this holds more than one concern: split it along them (the terminal app is one
module per view)."""


def test_no_module_is_longer_than_the_limit() -> None:
    long = {
        module_name(path): n
        for path in SOURCES
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"modules over {MAX_LINES} lines: {long}"


MAX_PARAMETERS = 10
"""Beyond this a compiled function's arguments are a record's fields: numba passes a typed tuple as one
argument, and a long positional list of like-typed arrays is easy to pass in the wrong order."""


def test_no_compiled_function_takes_more_than_ten_parameters() -> None:
    import inspect

    from conftest import compiled_kernels

    found = {
        name: len(inspect.signature(kernel.py_func).parameters) for name, kernel in compiled_kernels().items()
    }
    assert len(found) > 50, "the compiled functions were not found"
    assert {name: n for name, n in found.items() if n > MAX_PARAMETERS} == {}
