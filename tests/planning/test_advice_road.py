"""One road from a question to its answer, as a test of the sources.

Planning has a door: :mod:`kniffel.planning.interface` (the abstract goal and the words planners share)
imports nothing of planning, the planners import no goal module (they receive the goal they serve), and
the goals are the menu above them; no import circle runs through planning or the advice road
(:mod:`kniffel.services.advice`, :mod:`kniffel.services.batch`, :mod:`kniffel.services.review`). A goal is
parsed once by a front end and handed down as it is: no module under ``apps/`` turns it into its
compiled aim or dispatches on its name or class, so a goal defined anywhere plays in every front end
(``tests/planning/test_goal_plugin.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kniffel.planning.goals import ALIASES, goal_names
from support.sources import PACKAGE, SOURCES, imports_of, module_name

PLANNING = PACKAGE / "planning"
MENU = {"kniffel.planning", "kniffel.planning.goals", "kniffel.planning.planners"}
"""The modules of planning that know the concrete goals: the face, the menu and what shares the
planners that the menu's goals make."""
ROAD = {"kniffel.services.advice", "kniffel.services.batch", "kniffel.services.review"}

GOAL_WORDS = {name.partition(":")[0] for name in goal_names()} | set(ALIASES)
"""The words goals are known by in their text form (``target`` of ``target:250``, ``mean``)."""
GOAL_CLASSES = {"Goal", "PlainGoal", "Points", "Target", "Win"}


def test_the_door_of_planning_imports_nothing_of_planning() -> None:
    door = PLANNING / "interface.py"
    found = [target for _, target in imports_of(door, module_name(door))]
    assert not [t for t in found if t == "kniffel.planning" or t.startswith("kniffel.planning.")], found


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(PLANNING.glob("*.py")) if module_name(p) not in MENU],
    ids=lambda p: p.stem,
)
def test_a_planner_imports_no_goal_module(path: Path) -> None:
    """Planners receive the goal they serve: none reaches for the menu of goals (or the package face,
    which holds it)."""
    found = {target for _, target in imports_of(path, module_name(path))}
    assert not found & MENU, f"{module_name(path)} imports {sorted(found & MENU)}"


def import_graph() -> dict[str, set[str]]:
    """Every module of the package and the modules it imports (lazy imports and those for type
    checking included)."""
    modules = {module_name(path): path for path in SOURCES}
    return {
        module: {t for _, t in imports_of(path, module) if t in modules and t != module}
        for module, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The import circles of ``graph``: its strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        # iterative Tarjan: a module's imports are walked one at a time
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            module, rest = work[-1]
            target = next(rest, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = set()
                while True:
                    member = stack.pop()
                    component.add(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_no_import_circle_runs_through_planning_or_the_advice_road() -> None:
    ours = [
        c for c in circles(import_graph()) if any(m.startswith("kniffel.planning") or m in ROAD for m in c)
    ]
    assert not ours, f"import circles: {[sorted(c) for c in ours]}"


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [{"a", "b", "c"}]


def goal_dispatch(tree: ast.AST) -> list[str]:
    """Where ``tree`` handles a goal by what it is rather than through the goal: its compiled aim
    (``AIM_WIN``, ``AIM_POINTS``, ``goal.aim()``), its name (``goal.name == "target"``) or its class
    (``isinstance(goal, Target)``)."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.module == "kniffel.core.kernels.win" or any(
                a.name.startswith("AIM_") for a in node.names
            ):
                found.append(f"line {node.lineno}: imports the compiled aims")
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name.startswith("AIM_"):
                found.append(f"line {node.lineno}: {name}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "aim":
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            classes = node.args[1] if len(node.args) == 2 else None
            named = {n.id for n in ast.walk(classes) if isinstance(n, ast.Name)} if classes else set()
            if named & GOAL_CLASSES:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            words = [
                o for o in operands if isinstance(o, ast.Constant) and str(o.value).lower() in GOAL_WORDS
            ]
            if words and any(_names_a_goal(o) for o in operands):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _names_a_goal(node: ast.expr) -> bool:
    """Whether ``node`` reads as a goal's name: ``x.name``, ``name``, a variable of a goal, ``str(x)``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "name" or "goal" in node.attr
    if isinstance(node, ast.Name):
        return node.id == "name" or "goal" in node.id
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str"


FRONT_ENDS = sorted((PACKAGE / "apps").rglob("*.py"))


@pytest.mark.parametrize("path", FRONT_ENDS, ids=lambda p: module_name(p))
def test_no_front_end_compares_aims_or_goal_names(path: Path) -> None:
    found = goal_dispatch(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    assert not found, f"{module_name(path)} dispatches on goals: {found}"


def test_the_scan_finds_a_front_end_that_dispatches_on_goals() -> None:
    source = """
from kniffel.planning.interface import AIM_WIN
from kniffel.planning.goals import Target
aim = goal.aim()
if aim >= 0 or aim == AIM_WIN or goal.name == "target" or str(goal) == "WIN" or name != "mean":
    pass
if isinstance(goal, Target) or isinstance(goal, (int, Target)):
    pass
people = "win" if request.get("by") == "win" else "points"
"""
    found = goal_dispatch(ast.parse(source))
    lines = [int(entry.split(":")[0].removeprefix("line ")) for entry in found]
    assert sorted(set(lines)) == [2, 4, 5, 7], found
    assert len([n for n in lines if n == 5]) == 4  # AIM_WIN, and three comparisons of a goal's name
