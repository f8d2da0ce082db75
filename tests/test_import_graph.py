"""scripts/import_graph.py draws linter/'s import graph from ``ast`` (every import, also inside
functions); the modules refactored for issue 39's seams stay out of cycles and never import upward."""

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
graph = importlib.util.module_from_spec(spec)
sys.modules["import_graph"] = graph
spec.loader.exec_module(graph)

SEAMS = ("linter.fixes", "linter.config", "linter.extract.llmaz", "linter.extract.python.frameworks",
         "linter.rules.gates", "linter.sglang.gates", "linter.sglang.frameworks")


def test_every_module_has_a_layer():
    assert [m for m in graph.modules() if graph.layer_of(m) is None] == []


def test_layers_in_data_flow_order():
    names = [name for name, _ in graph.LAYERS]
    assert names.index("source") < names.index("readers") < names.index("sglang") < names.index("recognize") \
        < names.index("formats") < names.index("resolve") < names.index("rules") < names.index("engine") \
        < names.index("report") < names.index("cli")
    assert graph.LAYERS[graph.layer_of("linter.extract.yamltree")][0] == "readers"
    assert graph.LAYERS[graph.layer_of("linter.extract.compose")][0] == "formats"


def test_imports_inside_functions_and_for_type_checking_are_counted():
    tree = ast.parse("import linter.source\n"
                     "from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from linter.launch import Launch\n"
                     "def f():\n    from linter.extract import yamltree\n")
    kinds = sorted(graph._kinds(tree).values())
    assert kinds == ["lazy", "top", "top", "type"]
    known = {"linter": None, "linter.source": None, "linter.launch": None, "linter.extract": None,
             "linter.extract.yamltree": None}
    stmt = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "linter.extract"][0]
    assert graph._targets(stmt, "linter.x", False, known) == ["linter.extract.yamltree"]


def test_cycles_are_strongly_connected_components():
    E = graph.Edge
    edges = [E("a", "b", 1, "top"), E("b", "c", 1, "lazy"), E("c", "a", 1, "type"), E("c", "d", 1, "top"),
             E("d", "e", 1, "top"), E("e", "d", 1, "top")]
    assert graph.cycles(edges) == [["a", "b", "c"], ["d", "e"]]


def test_the_seams_modules_import_no_layer_above_and_sit_in_no_cycle():
    edges = graph.edges()
    assert [e for e in graph.upward(edges) if e.importer in SEAMS] == []
    assert [c for c in graph.cycles(edges) if set(c) & set(SEAMS)] == []
    # sglang/frameworks reads command-line words through the shared reader, not a format
    assert [e for rule, e in graph.crossings(edges) if e.importer.startswith("linter.sglang")] == []


def test_no_module_of_linter_imports_a_layer_above_or_crosses_a_never_rule():
    """The whole package, every import (also inside functions and for type checking): the layers of
    docs/architecture.md hold everywhere, not only in the refactored modules."""
    edges = graph.edges()
    assert [(e.importer, e.line, e.imported) for e in graph.upward(edges)] == []
    assert [(rule, e.importer, e.imported) for rule, e in graph.crossings(edges)] == []


def test_the_parser_attribute_marks_exactly_the_parser_rules():
    """A rule says it judges SGLang's parser (Rule.parser); nothing tests the code's digits for it."""
    from linter.rules import ALL_RULES

    assert sorted(r.code for r in ALL_RULES if r.parser) == sorted(r.code for r in ALL_RULES
                                                                   if r.code.startswith("SGL2"))
    assert len([r for r in ALL_RULES if r.parser]) >= 13


def test_the_package_has_no_import_cycle():
    """Every import of linter/ (at module level, inside functions and for type checking only) — the
    last cycle, the Python format's analysis and its mixins, is gone: the parts type the analysis
    with the protocol of extract/python/base.py and the assembled class is handed down, never
    imported back."""
    edges = graph.edges()
    assert graph.cycles(edges) == []
    back = [(e.importer, e.line) for e in edges if e.imported == "linter.extract.python.analysis"]
    assert [importer for importer, _ in back] == ["linter.extract.python"]
