"""The layering rules of STYLE.md, checked on the source: no import circle between modules
(imports inside functions count: a lazy import does not remove a circle), and no module
uses a private name of another package."""

from __future__ import annotations

import ast
from pathlib import Path

import aclsim

SRC = Path(aclsim.__file__).resolve().parent
ROOT = SRC.parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in SRC.rglob("*.py")}


def _package(module: str) -> str:
    """The package a module belongs to (a package's ``__init__`` belongs to itself)."""
    path = MODULES[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _in_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def _imports(module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) of every runtime import of ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    base = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if _in_type_checking(node, parents):
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names if a.name.startswith("aclsim")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                target = ".".join(base.split(".")[: len(base.split(".")) - node.level + 1])
                target = f"{target}.{node.module}" if node.module else target
            else:
                target = node.module or ""
            if not target.startswith("aclsim"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:
                    found.append((sub, None, node.lineno))
                else:
                    found.append((target, alias.name, node.lineno))
    return found


def test_no_import_circles() -> None:
    graph = {m: sorted({t for t, _, _ in _imports(m) if t in MODULES and t != m}) for m in MODULES}
    # Packages import their own modules to re-export them; a package's __init__ is not a cycle
    # with the modules below it that import siblings through it, so edges into a package's own
    # __init__ from inside that package are the package's business, not a circle.
    for m, targets in graph.items():
        graph[m] = [t for t in targets if not (MODULES[t].name == "__init__.py" and m.startswith(t + "."))]
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in graph[m]:
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "import circles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_no_private_names_across_packages() -> None:
    offences = []
    for module in MODULES:
        mine = _package(module)
        for target, name, line in _imports(module):
            if target not in MODULES:
                continue
            theirs = _package(target)
            private_module = any(part.startswith("_") and part != "__init__" for part in
                                 target.split(".")[len(theirs.split(".")):])
            if theirs == mine:
                continue
            if (name is not None and name.startswith("_")) or private_module:
                offences.append(f"{module}:{line} imports {target}{'.' + name if name else ''}")
    # attribute access to private names of imported modules (``api._locate``)
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("aclsim"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    if sub in MODULES and _package(sub) != _package(module):
                        aliases[alias.asname or alias.name] = sub
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                offences.append(f"{module}:{node.lineno} uses {aliases[node.value.id]}.{node.attr}")
    assert not offences, "private names used across packages:\n" + "\n".join(offences)


def test_source_files_and_functions_stay_small() -> None:
    big_files, big_functions = [], []
    for module, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 700:
            big_files.append(f"{module} ({text.count(chr(10))} lines)")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 100:
                    big_functions.append(f"{module}.{node.name} ({length} lines)")
    assert not big_files and not big_functions, f"too big: {big_files + big_functions}"
