"""The package has no import cycle: every ``import`` of a ``solver`` module
by another, at module level or inside a function (a lazy import hides a
cycle, it does not remove it), read from the sources, makes a graph
without cycles (a module's ``if __name__ == "__main__"`` block, run only
as a script, is not an import of the package); and the search package knows nothing of the game's rules
(it imports the engine's interface only)."""

from __future__ import annotations

import ast
from pathlib import Path

import solver

ROOT = Path(solver.__file__).resolve().parent


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The solver modules ``path`` imports (resolved to modules, not names)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    tree = ast.parse(path.read_text())
    tree.body = [n for n in tree.body if not _script_block(n)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("solver"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("solver"):
                continue
            for a in node.names:
                sub = f"{mod}.{a.name}"
                out.add(sub if _exists(sub) else mod)
    out.discard(name)
    return {m for m in out if _exists(m)}


def _script_block(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` at module level."""
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__")


def _exists(mod: str) -> bool:
    p = ROOT.parent.joinpath(*mod.split("."))
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def graph() -> dict[str, set[str]]:
    g = {module_name(p): imports_of(p) for p in ROOT.rglob("*.py")}
    # a package's __init__ is not a dependency of its modules' imports of
    # each other: importing solver.a.b runs solver/a/__init__ first, but
    # the edge that matters is the one to the module named
    return g


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(g.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(g):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_no_import_cycle_in_solver():
    cycle = find_cycle(graph())
    assert cycle is None, " -> ".join(cycle)


def test_the_checker_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_search_package_knows_no_rules():
    """solver.search imports from the engine only its compiled interface
    (core, sampling, compile's errors) and never the rules' vocabulary."""
    g = graph()
    for mod, deps in g.items():
        if mod.startswith("solver.search"):
            bad = {d for d in deps if d in ("solver.engine.scoring", "solver.engine.hand",
                                           "solver.rules", "solver.cards")}
            assert not bad, (mod, bad)
