"""Print the import graph of ``linter/``: its layers, the imports that run back up, the import
cycles and the crossed "never" rules of ``docs/architecture.md``.

Every import counts — at module level, inside a function (a lazy import for start-up speed), and
under ``if TYPE_CHECKING:`` (marked ``type``) — read from each file's ``ast``; nothing is imported.
``from linter.a import b`` is an edge to ``linter.a.b`` when that is a module, else to ``linter.a``.

    python scripts/import_graph.py            # layers, upward imports, cycles, never-rules
    python scripts/import_graph.py --edges    # also every edge: importer -> imported (line, kind)
    python scripts/import_graph.py --check    # exit 1 on a module in no layer, an upward import, a cycle
                                              # or a crossed never-rule

The layers (lowest first) and the never-rules are the tables :data:`LAYERS` and :data:`NEVER`.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "linter"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("source", ("linter", "linter.source", "linter.launch", "linter.datafiles", "linter.data", "linter.limits",
                "linter.boundary", "linter.gitignore", "linter.argv", "linter.workspace", "linter.branches",
                "linter.codes", "linter.mentions", "linter.records")),
    ("gpus", ("linter.gpus", "linter.gpus.*")),
    ("readers", ("linter.extract.yamlload", "linter.extract.yamltree", "linter.extract.yamlstream",
                 "linter.extract.words", "linter.extract.jsonpos")),
    ("sglang", ("linter.sglang", "linter.sglang.*")),
    ("config", ("linter.config", "linter.config_schema", "linter.directives")),
    ("recognize", ("linter.recognize",)),
    ("formats", ("linter.extract", "linter.extract.*", "linter.formats", "linter.passthrough")),
    ("resolve", ("linter.resolve",)),
    ("rules", ("linter.rules", "linter.rules.*")),
    ("engine", ("linter.discover", "linter.engine", "linter.isolate", "linter.pool", "linter.poolwire",
                "linter.fixes", "linter.shared_fixes", "linter.baseline", "linter.coverage", "linter.variants", "linter.cache",
                "linter.cache.*")),
    ("report", ("linter.report", "linter.report.*", "linter.progress")),
    ("cli", ("linter.cli", "linter.hook", "linter.server", "linter.__main__")),
)
"""Each layer and the modules in it (fnmatch patterns, the first layer that matches wins). A module
may import from its own layer and the layers below it."""

NEVER: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("SGLang knowledge never imports a format", ("linter.sglang", "linter.sglang.*"), ("@formats",)),
    ("recognition never imports the shell format", ("linter.recognize",),
     ("linter.extract.shell", "linter.extract.shell.*")),
    ("a format never calls discovery", ("linter.extract", "linter.extract.*"), ("linter.discover",)),
    ("a format never calls the directive scanner", ("linter.extract", "linter.extract.*"), ("linter.directives",)),
    ("resolve never imports the configuration", ("linter.resolve",), ("linter.config", "linter.config_schema")),
    ("the configuration never imports rules", ("linter.config", "linter.config_schema"),
     ("linter.rules", "linter.rules.*")),
    ("reports read LaunchContext, not sglang/decision", ("linter.report", "linter.report.*"),
     ("linter.sglang.decision",)),
)
"""(rule, importers, imported): no module matching ``importers`` imports one matching ``imported``
(``@layer``: any module of that layer of :data:`LAYERS`)."""


@dataclass(frozen=True)
class Edge:
    """``importer`` imports ``imported`` at ``line``; ``kind`` is ``top`` (module level), ``lazy``
    (inside a function or method) or ``type`` (under ``if TYPE_CHECKING:``)."""

    importer: str
    imported: str
    line: int
    kind: str


def modules() -> dict[str, Path]:
    """Every module of the package: dotted name -> file (a package is its ``__init__.py``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    layer = layer_of(name)
    return any((layer is not None and LAYERS[layer][0] == p[1:]) if p.startswith("@") else fnmatch.fnmatchcase(name, p)
               for p in patterns)


def layer_of(name: str) -> int | None:
    """The index in :data:`LAYERS` of the module ``name`` (None for a module no layer names yet)."""
    for i, (_, patterns) in enumerate(LAYERS):
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            return i
    return None


def _kinds(tree: ast.Module) -> dict[ast.AST, str]:
    """The kind (``top``/``lazy``/``type``) of every import statement of ``tree``."""
    out: dict[ast.AST, str] = {}

    def visit(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            k = kind
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and kind == "top":
                k = "lazy"
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for stmt in child.body:
                    visit_stmt(stmt, "type")
                for stmt in child.orelse:
                    visit_stmt(stmt, kind)
                continue
            visit_stmt(child, k)

    def visit_stmt(node: ast.AST, kind: str) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out[node] = kind
        visit(node, kind)

    visit(tree, "top")
    return out


def _targets(node: ast.AST, name: str, is_package: bool, known: dict[str, Path]) -> list[str]:
    """The package modules an import statement of module ``name`` names."""
    if isinstance(node, ast.Import):
        got = []
        for alias in node.names:
            parts = alias.name.split(".")
            while parts and ".".join(parts) not in known:
                parts.pop()
            if parts:
                got.append(".".join(parts))
        return got
    base = node.module or ""
    if node.level:
        here = name.split(".") if is_package else name.split(".")[:-1]
        here = here[:len(here) - node.level + 1]
        base = ".".join(here + ([node.module] if node.module else []))
    got = []
    for alias in node.names:
        full = f"{base}.{alias.name}"
        if full in known:
            got.append(full)
        elif base in known:
            got.append(base)
    return got


def edges(known: dict[str, Path] | None = None) -> list[Edge]:
    """Every import between modules of the package (a module importing itself is left out)."""
    known = known if known is not None else modules()
    out = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, kind in _kinds(tree).items():
            for target in _targets(node, name, path.name == "__init__.py", known):
                if target != name:
                    out.append(Edge(name, target, node.lineno, kind))
    return sorted(set(out), key=lambda e: (e.importer, e.line, e.imported))


def cycles(all_edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted, largest first."""
    graph: dict[str, set[str]] = {}
    for e in all_edges:
        graph.setdefault(e.importer, set()).add(e.imported)
        graph.setdefault(e.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def strongconnect(v: str) -> None:  # iterative would be longer; the graph is a few hundred nodes
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    # the depth is at most the number of modules; the limit is put back (a test process shares it)
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                strongconnect(v)
    finally:
        sys.setrecursionlimit(before)
    return sorted(out, key=lambda c: (-len(c), c))


def upward(all_edges: list[Edge]) -> list[Edge]:
    """The imports from a module to one in a higher layer (modules in no layer aside)."""
    return [e for e in all_edges if None not in (layer_of(e.imported), layer_of(e.importer))
            and layer_of(e.imported) > layer_of(e.importer)]


def crossings(all_edges: list[Edge]) -> list[tuple[str, Edge]]:
    """``(never-rule, edge)`` for each import a rule of :data:`NEVER` forbids."""
    return [(rule, e) for rule, importers, imported in NEVER for e in all_edges
            if _matches(e.importer, importers) and _matches(e.imported, imported)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edges", action="store_true", help="print every edge too")
    ap.add_argument("--check", action="store_true", help="exit 1 on an upward import, a cycle or a never-rule")
    args = ap.parse_args(argv)
    known = modules()
    all_edges = edges(known)
    print(f"{len(known)} modules, {len(all_edges)} imports "
          f"({sum(e.kind == 'lazy' for e in all_edges)} inside functions, "
          f"{sum(e.kind == 'type' for e in all_edges)} for type checking only)\n")
    print("layers (lowest first; a module imports its own layer and those below):")
    for i, (layer, _) in enumerate(LAYERS):
        members = sorted(m for m in known if layer_of(m) == i)
        print(f"  {i:2} {layer:10} {len(members):3}  {' '.join(m.removeprefix('linter.') or 'linter' for m in members)}")
    unplaced = sorted(m for m in known if layer_of(m) is None)
    if unplaced:
        print(f"  in no layer (add them to LAYERS): {' '.join(unplaced)}")
    up = upward(all_edges)
    print(f"\nimports that run up a layer: {len(up)}")
    for e in up:
        print(f"  {e.importer}:{e.line} -> {e.imported}  ({LAYERS[layer_of(e.importer)][0]} -> "
              f"{LAYERS[layer_of(e.imported)][0]}, {e.kind})")
    cyc = cycles(all_edges)
    print(f"\nimport cycles: {len(cyc)} (every import); "
          f"{len(cycles([e for e in all_edges if e.kind != 'type']))} without the imports for type checking")
    for comp in cyc:
        print(f"  {len(comp)} modules: {' '.join(comp)}")
    crossed = crossings(all_edges)
    print(f"\nnever-rules crossed: {len({r for r, _ in crossed})} of {len(NEVER)}")
    for rule, e in crossed:
        print(f"  {rule}: {e.importer}:{e.line} -> {e.imported} ({e.kind})")
    if args.edges:
        print("\nedges:")
        for e in all_edges:
            print(f"  {e.importer}:{e.line} -> {e.imported} ({e.kind})")
    return 1 if args.check and (unplaced or up or cyc or crossed) else 0


if __name__ == "__main__":
    sys.exit(main())
