"""The package's layout: layers import one way, no circles, no module uses another's private names.

Read from the source with :mod:`ast` (nothing is imported), so the rule holds
for imports inside functions too and cannot rot.  The layers, lowest first::

    core  <-  io  <-  bets  <-  reports  <-  simcheck, studies  <-  cli

A module may import its own subpackage and any lower layer.  ``simcheck`` and
``studies`` are siblings: neither imports the other.  The package root
(``analyzer/__init__.py``, the public API) sits above them; ``cli`` above the
root; nothing imports ``cli`` but ``__main__``.

Modules are cut by what they do, not by length: a name starting with one
underscore belongs to its module.  What another module needs is public (no
underscore, a docstring), or lives with the code that uses it.
"""

from __future__ import annotations

import ast
from pathlib import Path


PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"

#: layer -> rank; a module may import its own layer and layers of a lower rank.
RANK = {"core": 0, "io": 1, "bets": 2, "reports": 3, "simcheck": 4, "studies": 4, "cli": 6}
ROOT_RANK = 5          # analyzer/__init__.py
MAIN_RANK = 7          # analyzer/__main__.py


def find_modules(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package``."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else None


def rank_of(module: str) -> int:
    layer = layer_of(module)
    if layer is not None:
        return RANK[layer]
    return MAIN_RANK if module.endswith(".__main__") else ROOT_RANK


def imports_of(module: str, modules: dict[str, Path]) -> set[str]:
    """The package modules that ``module`` imports, anywhere in its code."""
    path = modules[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = module.split(".")[0]
    found: set[str] = set()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(resolve(a.name) for a in node.names if a.name.split(".")[0] == top)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == top:
                target = node.module
            else:
                continue
            for alias in node.names:   # "from . import x" may name a submodule
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else resolve(target))
    found.discard(None)
    found.discard(module)
    return found


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs that break the one-way rule."""
    bad = []
    for module, targets in sorted(graph.items()):
        for t in sorted(targets):
            same = layer_of(t) is not None and layer_of(t) == layer_of(module)
            if not same and rank_of(t) >= rank_of(module):
                bad.append((module, t))
    return bad


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Circles of imports (a package importing its own submodules is not one)."""
    colour = dict.fromkeys(graph, 0)   # 0 new, 1 on the stack, 2 done
    cycles = []

    def visit(m, stack):
        colour[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if colour[t] == 1 and not m.startswith(t + "."):
                cycles.append(stack[stack.index(t):] + [t])
            elif colour[t] == 0:
                visit(t, stack)
        stack.pop()
        colour[m] = 2

    for m in sorted(graph):
        if colour[m] == 0:
            visit(m, [])
    return cycles


MODULES = find_modules(PACKAGE)
GRAPH = {m: imports_of(m, MODULES) for m in MODULES}


def test_the_layers_are_the_expected_subpackages():
    assert {layer_of(m) for m in MODULES} - {None} == set(RANK)
    assert sorted(m for m in MODULES if layer_of(m) is None) == ["analyzer", "analyzer.__main__"]


def test_imports_point_down_the_layers():
    assert upward_imports(GRAPH) == []


def test_only_main_imports_the_cli():
    users = sorted(m for m, targets in GRAPH.items()
                   if layer_of(m) != "cli" and any(layer_of(t) == "cli" for t in targets))
    assert users == ["analyzer.__main__"]


def test_the_core_imports_only_itself():
    assert [(m, sorted(t)) for m, t in GRAPH.items()
            if layer_of(m) == "core" and any(layer_of(x) != "core" for x in t)] == []


def test_no_import_cycles():
    assert import_cycles(GRAPH) == []


def test_every_subpackage_says_what_it_owns_and_may_import():
    for layer in RANK:
        doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "Owns:" in doc and "May import:" in doc, layer


def test_the_checker_finds_an_upward_import_and_a_circle(tmp_path):
    pkg = tmp_path / "analyzer"
    files = {
        "__init__.py": "from .core import a\n",
        "core/__init__.py": "",
        "core/a.py": "def f():\n    from ..cli import main\n",      # upward, inside a function
        "core/b.py": "from . import c\n",
        "core/c.py": "from .b import x\n",                            # b <-> c
        "bets/__init__.py": "import analyzer.reports.eor\n",           # upward, absolute
        "reports/__init__.py": "",
        "reports/eor.py": "from ..core import b\n",
        "cli/__init__.py": "from ..core.b import f\n",                 # fine: downward
    }
    for name, text in files.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    modules = find_modules(pkg)
    graph = {m: imports_of(m, modules) for m in modules}
    assert upward_imports(graph) == [("analyzer.bets", "analyzer.reports.eor"),
                                     ("analyzer.core.a", "analyzer.cli")]
    assert import_cycles(graph) == [["analyzer.core.b", "analyzer.core.c", "analyzer.core.b"]]
