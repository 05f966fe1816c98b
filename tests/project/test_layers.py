"""The layer arrows of the package, as a test: the folders of ``src/kniffel`` are its layers, and a
module imports only from its own layer or lower ones.

    base -> rules -> engine -> core -> planning -> bots -> services -> front ends (apps: cli, web, tui; env)

Every import counts, including those made inside functions or only for type checking: a lazy import is
still a dependency. Front ends are never imported by the library; the command line may start the others
(``kniffel serve`` runs the web app). ``docs/explanation/architecture.md`` says what each folder owns.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support.paths import TESTS
from support.sources import PACKAGE, SOURCES, imports_of, module_name

pytestmark = pytest.mark.compiles_nothing

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
FACE_OPENS = frozenset({"kniffel.core", "kniffel.services.research", "kniffel.services.simulate"})
"""The modules above the engine that the package's face (``kniffel/__init__.py``) names what it opens
onto from, imported on first use by its module ``__getattr__``: the questions a researcher asks
(``kniffel.options``, ``kniffel.simulate``...) belong on the package's face, and importing ``kniffel``
still loads none of them (:func:`test_the_face_loads_nothing_until_asked`). Nothing below the front
ends imports the face for them."""
LAUNCHERS = ("kniffel.apps.cli", "kniffel.__main__")
"""The command line starts the other front ends (``python -m kniffel`` is the command line); nothing else
imports a front end."""


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
        elif module == "kniffel" and target in FACE_OPENS:
            allowed = True
        else:
            allowed = layer_of(target) <= own
        if not allowed and f"{path.name}:{line} imports {target}" not in wrong:
            wrong.append(f"{path.name}:{line} imports {target}")
    assert not wrong, f"{module} (layer {own}) imports upwards: {wrong}"


def test_the_face_loads_nothing_until_asked() -> None:
    """The names the face opens onto are imported when first asked for: importing ``kniffel`` loads
    neither the rules nor the engine, the core or the services (nor numba), and asking for a name loads
    its module and what it needs alone."""
    import subprocess
    import sys

    script = (
        "import sys, kniffel\n"
        "behind = ('kniffel.rules', 'kniffel.engine', 'kniffel.core', 'kniffel.services', 'numba')\n"
        "print(sorted(m for m in sys.modules if m.startswith(behind)))\n"
        "kniffel.Game\n"
        "print('kniffel.engine.game' in sys.modules, 'kniffel.services.research' in sys.modules)\n"
        "kniffel.options\n"
        "print('kniffel.services.research' in sys.modules, kniffel.rules.get('yahtzee').id)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]", "True", "False", "True", "yahtzee"]


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

    from support.kernels import compiled_kernels

    found = {
        name: len(inspect.signature(kernel.py_func).parameters) for name, kernel in compiled_kernels().items()
    }
    assert len(found) > 50, "the compiled functions were not found"
    assert {name: n for name, n in found.items() if n > MAX_PARAMETERS} == {}


# --- the core's door and floors -------------------------------------------------------------------------

CORE = "kniffel.core"
KERNELS = "kniffel.core.kernels"
RUNTIME = "kniffel.core.runtime"


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_core_is_entered_through_its_door() -> None:
    """Everything outside the core imports from ``kniffel.core`` itself, never from one of its modules:
    the modules behind the door can move without a change above it."""
    found = [
        f"{module_name(path)}:{line} imports {target}"
        for path in SOURCES
        if not in_package(module_name(path), CORE)
        for line, target in imports_of(path, module_name(path))
        if in_package(target, CORE) and target != CORE
    ]
    assert found == []


def floor_of(module: str) -> str:
    if in_package(module, KERNELS):
        return "kernels"
    if in_package(module, RUNTIME):
        return "runtime"
    return "solver"


FLOORS: dict[str, tuple[str, ...]] = {
    "runtime": ("runtime",),
    "kernels": ("kernels", "runtime"),
    "solver": ("solver", "kernels", "runtime"),
}
"""What each floor of the core may import of the core: the machine under the solver imports nothing of the
core above it, the kernels the machine (where numba keeps them, what compiles ahead), the solver's Python
anything."""


@pytest.mark.parametrize("path", [p for p in SOURCES if in_package(module_name(p), CORE)], ids=module_name)
def test_the_core_floors_point_down(path: Path) -> None:
    module = module_name(path)
    if module == CORE:
        return  # the door names what it opens onto
    floor = floor_of(module)
    wrong = [
        f"{path.name}:{line} imports {target}"
        for line, target in imports_of(path, module)
        if in_package(target, CORE) and target != CORE and floor_of(target) not in FLOORS[floor]
    ]
    assert wrong == [], f"{module} ({floor}) imports above its floor"


def test_numba_is_imported_under_the_kernels_and_the_runtime_alone() -> None:
    found = []
    for path in SOURCES:
        module = module_name(path)
        if in_package(module, KERNELS) or in_package(module, RUNTIME):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            found += [f"{module}:{node.lineno} imports {n}" for n in names if n.split(".")[0] == "numba"]
    assert found == []


def test_the_door_opens_onto_what_it_names() -> None:
    """The door's names are those it imports for the type checker, each from the module that defines it,
    and every one of them is there."""
    import importlib

    import kniffel.core as door

    tree = ast.parse((PACKAGE / "core" / "__init__.py").read_text(encoding="utf-8"))
    typed: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and in_package(node.module, CORE):
            typed.update({alias.asname or alias.name: (node.module, alias.name) for alias in node.names})
    opened = door._DOOR.names  # the door's own record: read by this test alone
    assert typed == opened
    assert sorted(door.__all__) == sorted(opened)
    for name, (module, own) in opened.items():
        value = getattr(door, name)
        assert value is getattr(importlib.import_module(module), own)
        defined = getattr(value, "__module__", None)
        if isinstance(defined, str) and defined.startswith("kniffel."):
            assert defined == module, f"{name} is defined in {defined}, not in {module}"


def test_the_door_alone_loads_no_compiler() -> None:
    """Importing the door (and the rules it is asked about) loads neither numba nor a kernel: a command
    that never solves starts without the compiler."""
    import subprocess
    import sys

    script = (
        "import sys, kniffel.core, kniffel.core.tables\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')"
        " or m.startswith('kniffel.core.kernels')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# --- one import graph without circles ------------------------------------------------------------------


def import_graph() -> dict[str, set[str]]:
    """Every module of the package and the modules of the package it imports (lazy imports and those for
    the type checker included; ``from package import name`` counts the package's ``__init__``)."""
    known = {module_name(path) for path in SOURCES}
    graph: dict[str, set[str]] = {}
    for path in SOURCES:
        module = module_name(path)
        targets: set[str] = set()
        for _, target in imports_of(path, module):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module:
                targets.add(target)
        graph[module] = targets
    return graph


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    """A package's ``__init__`` importing its own modules is not a circle unless one of them imports the
    package back: what each module needs of its package comes from the module that defines it."""
    graph = import_graph()
    assert cycles_of(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert cycles_of({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles_of({"a": {"b"}, "b": set()}) == []


# --- every name from its own home ---------------------------------------------------------------------


def defined_names(tree: ast.Module) -> set[str]:
    """The names a module's own statements define at its top level (not those it imports)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        names.add(name.id)
    return names


def test_no_module_hands_on_what_it_imported() -> None:
    """A module's ``__all__`` names only what it defines: a name is imported from the module that defines
    it, never through another one (no re-export shims). Package doors are the exception: ``kniffel``, a
    layer's ``__init__`` and ``kniffel.core`` name what they open onto."""
    found = []
    for path in SOURCES:
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        exported: list[str] = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                exported = [
                    e.value
                    for e in ast.walk(node.value)
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
        own = defined_names(tree)
        found += [f"{module_name(path)}: {name}" for name in exported if name not in own]
    assert found == []


def test_no_module_imports_another_modules_private_name() -> None:
    found = []
    for path in SOURCES:
        module = module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kniffel"):
                found += [
                    f"{module}:{node.lineno} imports {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert found == []


# --- the tests mirror the layers ------------------------------------------------------------------------

OWN_TESTS = {"project", "e2e"}
"""Folders of tests of no one layer: the whole project's checks, and the pages in a browser."""


def test_the_tests_mirror_the_layers() -> None:
    """The tests of a layer are in its folder under ``tests`` (``tests/engine`` for ``kniffel.engine``,
    ``tests/apps/web`` for ``kniffel.apps.web``), every layer has one, and every folder of tests is a
    package: a module is named by its folders, so two folders may hold modules of one name."""
    modules = [path.relative_to(TESTS) for path in TESTS.rglob("test_*.py")]
    layers = {name.removeprefix("kniffel.").replace(".", "/") for layer in LAYERS for name in layer}
    assert {module.parent.as_posix() for module in modules} - OWN_TESTS == layers - {"kniffel", "__main__"}
    packages = {path.parent.relative_to(TESTS) for path in TESTS.rglob("__init__.py")}
    folders = {folder for module in modules for folder in module.parents if folder != Path(".")}
    assert folders - packages == set(), "folders of tests without an __init__.py"


def test_tests_share_helpers_through_the_support_package() -> None:
    """No test imports a ``conftest`` (pytest imports one for each folder, each as a module of its own)
    or a test module: what tests share is in the support package (``tests/support``), the fixtures of a
    folder in its ``conftest.py``. Only the browser tests share their pages' helpers among themselves
    (``tests/e2e/test_web_e2e.py``)."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        browser = path.parent == TESTS / "e2e"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                of_a_test = any(part.startswith("test_") for part in parts)
                if "conftest" in parts or (of_a_test and not (browser and parts[0] == "e2e")):
                    found.append(f"{path.relative_to(TESTS)}:{node.lineno} imports {name}")
    assert found == []
