"""The package's modules import each other in one direction only: no cycle, even through an import inside a
function (search.py once imported vector.py lazily, which imports search.py)."""

import ast
from pathlib import Path

import splendor_rl

PACKAGE = Path(splendor_rl.__file__).resolve().parent


def imports_within_package(path: Path) -> set[str]:
    """The sibling modules `path` imports anywhere in it (`from .x import …`, `from . import x`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
    return found


def test_no_module_imports_itself_through_others():
    graph = {path.stem: imports_within_package(path) for path in PACKAGE.glob("*.py")}
    assert "seeds" in graph["search"] and "seeds" in graph["vector"], "both take the seed helpers from seeds.py"
    for start in graph:
        reached, todo = set(), list(graph[start])
        while todo:
            module = todo.pop()
            if module not in reached:
                reached.add(module)
                todo.extend(graph.get(module, ()))
        assert start not in reached, f"{start} imports itself through {sorted(reached)}"
