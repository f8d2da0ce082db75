"""The YAML layer (linter/extract/yamltree.py): merge keys resolved once per file on a walk object,
scalars with origins, and no format knowledge."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

from linter.extract import yamltree
from linter.source import SourceFile
from tests.helpers import ROOT

MERGED = "base: &b {a: 1, b: 2}\nsvc:\n  <<: *b\n  b: 3\n"


def _src(name: str, text: str) -> SourceFile:
    return SourceFile(Path("/nowhere") / name, name, text)


def _root(text: str, name: str = "x.yaml"):
    return yamltree.load_tree(_src(name, text))


def test_merge_keys_resolve_with_own_keys_first():
    root = _root(MERGED)
    _, svc = yamltree.get(root, "svc")
    assert [(k.value, v.value) for k, v in yamltree.items(svc)] == [("b", "3"), ("a", "1")]


def test_each_walk_has_its_own_memo_and_budget():
    src = _src("x.yaml", MERGED)
    with yamltree.walk(src):
        root = yamltree.load_tree(src)
        _, svc = yamltree.get(root, "svc")
        yamltree.items(svc)
        outer = yamltree._WALK.get()
        assert outer.source is src and outer.visited == 2 and id(svc) in outer.merged
        other = _src("y.yaml", MERGED)
        with yamltree.walk(other):
            inner = yamltree._WALK.get()
            assert inner is not outer and inner.merged == {} and inner.visited == 0
        assert yamltree._WALK.get() is outer  # the outer file's walk goes on where it was


def test_a_walk_in_another_thread_does_not_see_this_one():
    src = _src("x.yaml", MERGED)
    seen = []
    with yamltree.walk(src):
        t = threading.Thread(target=lambda: seen.append(yamltree._WALK.get()))
        t.start()
        t.join()
    assert seen == [None]


def test_a_scalar_keeps_the_origin_of_each_character():
    text = "cmd: >\n  python -m sglang.launch_server\n  --port 1\n"
    src = _src("x.yaml", text)
    _, node = yamltree.get(yamltree.load_tree(src), "cmd")
    m = yamltree.mstr(node, src)
    assert m.text == "python -m sglang.launch_server --port 1\n"
    i = m.text.index("--port")
    assert text[m.span_of(i, i + 6).start:m.span_of(i, i + 6).end] == "--port"


def test_the_yaml_layer_imports_no_format():
    tree = ast.parse((ROOT / "linter" / "extract" / "yamltree.py").read_text("utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert {m for m in imported if m.startswith("linter")} <= {"linter", "linter.extract", "linter.launch",
                                                               "linter.source", "linter.extract.yamlload",
                                                               "linter.records"}
    assert "yamlload" in {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                          and n.module == "linter.extract" for a in n.names}


def test_no_format_imports_compose_for_yaml():
    """compose.py is one user of the YAML layer, not everyone's YAML library."""
    users = []
    for path in (ROOT / "linter").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.module == "linter.extract.compose":
                users += [(path.name, a.name) for a in n.names]
    assert all(name in ("parse_dotenv", "interpolate", "extract") for _, name in users), users
