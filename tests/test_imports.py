"""The import graph: no cycle anywhere in the project's packages, and no module imports another's private names.

Every import counts, also one inside a function (a deferred import hides a cycle, it does not remove it); only
imports under ``if TYPE_CHECKING:`` (annotations, never run) are left out.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "games", "render", "i18n", "playground")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def type_checking_lines(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def imports_of(name: str, path: Path, known: dict[str, Path]) -> dict[str, list[str]]:
    """The project modules ``name`` imports -> the names it takes from each (an empty list: the module itself)."""
    tree = ast.parse(path.read_text(), str(path))
    skip = type_checking_lines(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    found.setdefault(alias.name, [])
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(stem + ([base] if base else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in known:  # a module: ``from bot.workers import renderpool``
                    found.setdefault(f"{base}.{alias.name}", [])
                elif base in known:
                    found.setdefault(base, []).append(alias.name)
    found.pop(name, None)
    return found


def graph() -> dict[str, dict[str, list[str]]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
    return found


def without_packages(imports: dict[str, list[str]], name: str) -> set[str]:
    """A package's ``__init__`` imported for a name it holds is an edge; a module importing its own package's
    ``__init__`` only because Python runs it first is not one we draw (``bot`` -> ``bot.client`` would
    otherwise make every module a cycle with its package)."""
    return {target for target in imports if not (name.startswith(target + ".") and not imports[target])}


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    edges = {name: without_packages(imports, name) for name, imports in graph().items()}
    inside = [c for c in cycles(edges) if any(m == package or m.startswith(package + ".") for m in c)]
    assert not inside, f"import cycles: {inside}"


def test_no_bot_module_imports_anothers_private_names():
    """(bot/ as issue 25 asks; games/ and render/ still share a few private helpers between their modules.)"""
    private = [f"{name} takes {target}.{taken}" for name, imports in graph().items() if name.startswith("bot")
               for target, names in imports.items() for taken in names
               if taken.startswith("_") and taken != "_" and not taken.startswith("__")]  # (_: gettext)
    assert not private, private
