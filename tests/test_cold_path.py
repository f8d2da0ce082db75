"""The cold path's memos give what computing afresh gives: ParsedArgs.get's index of the winning
occurrences, and the one-entry memos of a launch's placement and parallel checks (linter.sglang)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from linter.extract import yamltree
from linter.launch import MStr, Token
from linter.sglang import parallel, placement
from linter.sglang.options import Setting, load_table, parse_args

LAUNCH_SERVER = "sglang.launch_server"
ROOT = Path(__file__).resolve().parent.parent


def parsed(*words: str):
    return parse_args(load_table("0.5.23"), [Token(MStr.plain(w)) for w in words], LAUNCH_SERVER)


def test_get_gives_the_last_occurrence_and_follows_appends():
    p = parsed("--model-path", "m", "--tp", "2", "--tp", "4")
    assert p.get("tp_size").value == "4" and p.get("pp_size") is None
    p.settings.append(Setting("tp_size", "8", "--tp", len(p.settings)))
    p.settings.append(Setting("pp_size", "2", "--pp", len(p.settings)))
    assert p.get("tp_size").value == "8" and p.get("pp_size").value == "2"


def test_pickling_keeps_the_fields_not_the_index():
    p = parsed("--model-path", "m", "--tp", "2")
    assert p.get("tp_size") is not None and "_last" in p.__dict__
    back = pickle.loads(pickle.dumps(p))
    assert "_last" not in back.__dict__ and back.get("tp_size").value == "2"


def test_placement_and_parallel_memos_follow_the_launch_and_its_settings():
    a = parsed("--model-path", "m", "--tp", "4")
    b = parsed("--model-path", "m", "--tp", "2", "--dp", "3", "--nnodes", "2")
    pa, pb = placement.placement(a, a.table), placement.placement(b, b.table)
    assert (pa.tp, pa.needed) == (4, 4)
    assert pb is None  # replicas over several nodes: not placed
    assert placement.placement(a, a.table) is placement.placement(a, a.table)
    assert [f.check["id"] for f in parallel.failures(b, b.table)] == \
        [f.check["id"] for f in parallel._failures(b, b.table)] != []
    assert parallel.failures(a, a.table) == parallel._failures(a, a.table) == []
    # an occurrence appended afterwards (the words are still being read) is seen
    a.settings.append(Setting("tp_size", "8", "--tp", len(a.settings)))
    assert placement.placement(a, a.table).tp == 8
    # the list handed out is the caller's own
    got = parallel.failures(b, b.table)
    got.clear()
    assert parallel.failures(b, b.table) != []


# -- per-launch and per-file work done once (issue 37, the launch-dense cold path) ----------------------


def test_resolutions_are_asked_of_the_deprecated_options_that_have_one():
    from linter.sglang.options import available_versions

    for version in available_versions():
        table = load_table(version)
        assert table.resolved == [o for o in table.options if (o.deprecation or {}).get("resolution")]
    assert [o.primary for o in load_table("0.5.23").resolved] == ["--enable-dp-attention"]
    p = parsed("--model-path", "m", "--dp", "8", "--enable-dp-attention")
    assert (p.value("attn_dp_size"), p.value("dp_size")) == ("8", "1")


YAML_MAPPINGS = [
    "a: 1\nb: 2\n",
    "a: 1\na: 2\n",  # a repeated key: the first pair wins
    "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n",
    "base: &b {x: 1}\nother: &o {x: 2, z: 4}\nm:\n  <<: [*b, *o]\n  w: 0\n",
    "1: int\ntrue: bool\n'1': str\n~: null\n1.5: float\n",
    "? [a, b]\n: complex\nk: v\n",
    "{}\n",
]
YAML_KEYS = ["a", "b", "x", "y", "z", "w", "m", "base", "1", "k", "missing", 1, True, 1.5, None, "true", "~"]


def _scan(node, key):
    for k, v in yamltree.items(node):
        if getattr(k, "value", None) == key:
            return k, v
    return None, None


@pytest.mark.parametrize("text", YAML_MAPPINGS)
def test_yaml_get_finds_what_a_scan_of_the_pairs_finds(text):
    from linter.source import SourceFile

    source = SourceFile(Path("x.yaml"), "x.yaml", text)
    with yamltree.walk(source):
        root = yamltree.load_tree(source)
        nodes = [root] + [v for _, v in yamltree.items(root) if yamltree.is_map(v)]
        for node in nodes:
            for key in YAML_KEYS:
                assert yamltree.get(node, key) == _scan(node, key), (node, key)
                assert yamltree.value_of(node, key) is _scan(node, key)[1]


def test_yaml_get_of_a_merged_key_and_the_node_kinds():
    from linter.source import SourceFile

    source = SourceFile(Path("x.yaml"), "x.yaml", YAML_MAPPINGS[2])
    with yamltree.walk(source):
        m = yamltree.value_of(yamltree.load_tree(source), "m")
        assert [yamltree.text(yamltree.value_of(m, k)) for k in ("x", "y")] == ["1", "3"]
        assert yamltree.is_map(m) and not yamltree.is_seq(m) and not yamltree.is_str(m)
        assert yamltree.is_str(yamltree.value_of(m, "x")) and yamltree.value_of(yamltree.value_of(m, "x"), "x") is None


def _blocks(tokens):
    return [(t.type, t.tag, t.map, t.level, t.nesting, t.info, t.markup, t.content, t.meta) for t in tokens]


@pytest.mark.parametrize("path", ["examples/README.md", "examples/runbooks/deepseek-v3-h100.md", "tests/data/README.md"])
def test_markdown_block_tokens_without_the_inline_parse(path):
    from markdown_it import MarkdownIt

    from linter.extract.markdown import _parser
    from linter.extract.pymdown import pymdown_plugin

    text = (ROOT / path).read_text()
    full = MarkdownIt("commonmark").use(pymdown_plugin).parse(text)
    got = _parser(text).parse(text)
    assert _blocks(got) == _blocks(full) and any(t.type == "heading_open" for t in got)
    assert all(not t.children for t in got)  # the inline parse was not made


def test_an_mstr_crosses_to_the_parent_as_its_runs():
    import io

    from linter.launch import MStr
    from linter.source import SourceFile, Span

    src = SourceFile(Path("a.yaml"), "a.yaml", "x" * 2000)

    def roundtrip(obj):  # the file is named, as the pool's wire names it (linter/poolwire.py)
        out = io.BytesIO()
        pickler = pickle.Pickler(out)
        pickler.persistent_id = lambda o: "a.yaml" if o is src else None
        pickler.dump(obj)
        unpickler = pickle.Unpickler(io.BytesIO(out.getvalue()))
        unpickler.persistent_load = lambda key: src
        return unpickler.load(), len(out.getvalue())

    atom = (src, 1500)
    per_char = MStr("y" * 1001, [(src, k) for k in range(1000)] + [atom], Span(src, 0, 1001))
    back, size = roundtrip(per_char)
    assert (back.text, back.runs, back.where, back.origins) == (per_char.text, per_char.runs, per_char.where,
                                                                per_char.origins)
    assert back.runs == ((1000, src, 0, None), (1, src, 1500, atom))
    assert size < 1200  # the text and two runs, not a tuple per character
    joined = MStr.join([MStr.literal(src, 0, 3), MStr.plain("!"), MStr.unknown(None)])
    again, _ = roundtrip(joined)
    assert (again.text, again.runs, again.where, again.known) == (joined.text, joined.runs, joined.where, False)


@pytest.mark.parametrize("i,j", [(0, 1), (3, 9), (5, 5), (7, 4), (0, 12), (11, 12)])
def test_a_span_of_the_page_itself_is_the_span_of_its_characters(i, j):
    from linter.extract.docblocks import Layer
    from linter.source import SourceFile

    host = SourceFile(Path("a.md"), "a.md", "# title\nrun\n")
    page = Layer(host)
    listed = Layer(host, host.text, [(k, k + 1) for k in range(len(host.text))])  # as a layer that lists them
    got, want = page.span(i, j), listed.span(i, j)
    assert (got.start, got.end) == (want.start, want.end) == (i, j) if want is not None else got is None


@pytest.mark.parametrize("text", [
    "k: plain value\n", "k: 'quoted'\n", "k: \"esc\\tape\"\n", "k: >\n  folded\n  lines\n", "k: |\n  a\n  b\n",
    "k: x\n", "k: 8\n", "k: \"\"\n", "k: 'it''s'\n", "k: a\r\n  b\r\n",
])
def test_a_scalar_written_as_it_reads_has_the_origins_align_gives(text):
    from linter.launch import MStr
    from linter.source import SourceFile, Span

    source = SourceFile(Path("x.yaml"), "x.yaml", text)
    with yamltree.walk(source):
        node = yamltree.value_of(yamltree.load_tree(source), "k")
        got = yamltree.mstr(node, source)
        value = node.value if isinstance(node.value, str) else str(node.value)
        start, end = node.start_mark.index, node.end_mark.index
        want = MStr(value, yamltree.align(value, source, start, end), Span(source, start, end))
        assert (got.text, got.origins, got.where) == (want.text, want.origins, want.where)
        assert [r[:3] for r in got.runs] == [r[:3] for r in want.runs]


@pytest.mark.parametrize("words", [
    ["--model-path", "a/b", "--tp=4", "--dp", "2"],
    ["--tp", "", "--model-path=", "--port", "30000"],
    ["--json-model-override-args", '{"a": 1}', "--enable-dp-attention"],
])
def test_value_runs_are_the_runs_of_the_value_text(words):
    """Setting.value_runs (the fix reconciliation's view) equals value_text.runs for each setting, on
    words read from a file (runs with a source and offsets) and on a word joined from two places."""
    from linter.source import SourceFile

    text = " ".join(words)
    src = SourceFile(path=Path("/x/launch.sh"), display="launch.sh", text=text)
    tokens, at = [], 0
    for w in words:
        tokens.append(Token(MStr.literal(src, at, at + len(w))))
        at += len(w) + 1
    tokens.append(Token(MStr.join([MStr.literal(src, 0, 2), MStr.plain("-port=1")])))  # "--" + "-port=1"
    p = parse_args(load_table("0.5.23"), tokens, LAUNCH_SERVER)
    assert len(p.settings) >= 3
    for s in p.settings:
        want = s.value_text.runs if s.value_text is not None else ()
        assert s.value_runs == want, s
    assert any(s.value_runs for s in p.settings)


@pytest.mark.parametrize("order, wins", [
    (["tp_size"], 0), (["tensor_parallel_size"], 0), (["tp_size", "tensor_parallel_size"], 1),
    (["tensor_parallel_size", "tp_size"], 1), ([], None),
])
def test_option_setting_gives_the_later_of_the_field_and_its_older_dest(order, wins):
    from linter.sglang.options import ParsedArgs

    p = ParsedArgs(load_table("0.5.23"), settings=[Setting(d, str(i), "--tp", i) for i, d in enumerate(order)])
    got = placement.option_setting(p, "tp_size")
    assert (got.index if got is not None else None) == wins
    assert placement.option_setting(p, "base_gpu_id") is None
