"""The YAML reader (linter/extract/yamlload.py): libyaml's tree is ruamel's tree.

libyaml (the fast road) and ruamel's pure-Python round-trip composer (the reference road, and the reader
before libyaml) must give the same nodes: classes, tags (YAML 1.2 resolution), values, styles and
character marks, on a table of inputs with non-ASCII text, CRLF, empty values, merge keys, aliases and
flow collections; invalid YAML gets ruamel's message at ruamel's position either way.
"""

from __future__ import annotations

import json

import pytest
from ruamel.yaml import YAML

from linter import limits
from linter.cli import main
from linter.extract import yamlload
from linter.extract.yamlload import InvalidYaml, MappingNode, ScalarNode, SequenceNode
from tests.helpers import FOLDED_H100, chdir, write_tree


def _fast(text: str):
    """libyaml's tree as :func:`yamlload.compose` returns it (never the reference road)."""
    assert yamlload._c_loader() is not None, "PyYAML was built without libyaml"
    assert not yamlload._reference_only(text)
    calls = []
    real = yamlload.reference_compose
    yamlload.reference_compose = lambda t: calls.append(t) or real(t)
    try:
        return yamlload.compose(text)
    finally:
        yamlload.reference_compose = real
        assert calls == [], "libyaml refused the text"


def _flat(node, out=None, seen=None) -> list:
    """Every node in document order: class, tag, marks (index, line, column; the end's index only: the
    extractors use no other, and at the end of a text without a final line break libyaml counts one
    more line), value or size, style."""
    out = [] if out is None else out
    seen = {} if seen is None else seen
    if node is None:
        return out
    if id(node) in seen:
        out.append(("alias of", seen[id(node)]))
        return out
    seen[id(node)] = len(seen)
    s, e = node.start_mark, node.end_mark
    head = (type(node).__name__, node.tag, s.index, s.line, s.column, e.index)
    if isinstance(node, ScalarNode):
        out.append(head + (node.value, node.style))
        return out
    out.append(head + (node.flow_style, len(node.value)))
    for item in node.value:
        for x in (item if isinstance(item, tuple) else (item,)):
            _flat(x, out, seen)
    return out


SAME_TREE = {
    "plain": "services:\n  s:\n    image: x\n    command: python3 -m sglang.launch_server --tp 8\n",
    "non-ascii": "a: é1 — ü\nb: 😀😀 x\nc: 'ß'\nd: \"中文\"\n",
    "crlf": "a: 1\r\nb: 'x'\r\nc: >\r\n  one\r\n  two\r\n\r\n  three\r\nd: |\r\n  x\r\n  y\r\n",
    "cr only": "a: 1\rb: x\r",
    "folded and literal": "c: >\n  python3 -m sglang.launch_server\n  --tp 8\n\n  --port 1\nl: |-\n  a\n   b\n",
    "quoted escapes": 'a: "x\\ty\\u00e9\\"z"\nb: \'it\'\'s\'\nc: "one\n  two"\n',
    "merge keys and aliases": ("x-base: &base\n  image: x\n  environment: &env {A: 1}\nservices:\n  s:\n"
                               "    <<: *base\n    environment: *env\n  t:\n    <<: [*base, {image: y}]\n"),
    "empty values in block": "a:\nb:   # c\n\n  # d\nc: 1\nx:\n  y:\n  z:\nl:\n  -\n  - \n  - k:\n",
    "empty values in flow": "{a: , b: }\n",
    "empty flow value then comment": "{a: # c\n , b: 1}\n",
    "key without value": "{a, b: 1}\n",
    "explicit keys": "? a\n: b\n? [x, y]\n: 1\n",
    "empty value at the end": "a: 1\nb:",
    "tags": "a: !!str 1\nb: !Ref x\nc: !!null\nd: !!int '3'\n",
    "anchored empty": "a: &x\nb: *x\n",
    "flow": "a: [1, [2, {b: c}], 'd']\ne: {f: [g]}\n",
    "yaml 1.2 scalars": ("a: [yes, no, on, off, y, n, true, True, FALSE, 0755, 0o17, 0x1F, 0b11, 1_000, +1, -2,"
                         " .5, 1e3, 1.0e+3, -.inf, .NaN, ~, null, Null, '', =, 2024-01-02, 12:30, 1:20:30]\n"),
    "document markers": "---\na: 1\n...\n",
    "comments": "# head\na: 1 # tail\nb: 'x # not a comment'\n# end\n",
    "deep block nesting": "a:\n" + "".join("  " * (k + 1) + f"k{k}:\n" for k in range(60)) + "  " * 61 + "v: 1\n",
    "sequence of sequences": "- - - a\n    - b\n  - c\n- d\n",
    "multi-line plain": "a: one\n  two\n\n  three\nb: x\n",
}


@pytest.mark.parametrize("name", sorted(SAME_TREE))
def test_libyaml_gives_ruamels_tree(name):
    text = SAME_TREE[name]
    assert _flat(_fast(text)) == _flat(yamlload.reference_compose(text))


def test_the_reference_road_is_ruamels_round_trip_composer():
    # The copy keeps ruamel's marks and tags; a folded scalar loses ruamel's fold marks (BEL).
    text = "a: >\n  x\n  y\nb: [1, yes]\n"
    ours = _flat(yamlload.reference_compose(text))
    theirs = YAML(typ="rt").compose(text)
    folded = theirs.value[0][1]
    assert "\a" in folded.value and ours[2][6] == folded.value.replace("\a", "") == "x y\n"
    assert [(n[1], n[2], n[5]) for n in ours] == [
        ("tag:yaml.org,2002:map", 0, 25), ("tag:yaml.org,2002:str", 0, 1), ("tag:yaml.org,2002:str", 3, 13),
        ("tag:yaml.org,2002:str", 13, 14), ("tag:yaml.org,2002:seq", 16, 24), ("tag:yaml.org,2002:int", 17, 18),
        ("tag:yaml.org,2002:str", 20, 23)]


def test_yaml_1_2_resolution_as_ruamel():
    root = _fast("a: yes\nb: on\nc: 0755\nd: 1_0\ne: .5\nf: ~\ng: <<\nh: True\ni: 09\n")
    tags = {k.value: v.tag.rsplit(":", 1)[1] for k, v in root.value}
    assert tags == {"a": "str", "b": "str", "c": "int", "d": "int", "e": "float", "f": "null", "g": "merge",
                    "h": "bool", "i": "int"}


def test_node_classes_and_character_marks():
    text = "é: [ü, {x: 😀}]\n"
    root = _fast(text)
    assert isinstance(root, MappingNode)
    key, seq = root.value[0]
    assert isinstance(seq, SequenceNode) and seq.flow_style is True
    emoji = seq.value[1].value[0][1]
    assert text[emoji.start_mark.index:emoji.end_mark.index] == "😀" and emoji.start_mark.column == 11


def test_empty_plain_scalar_marks_as_ruamel_put_them():
    text = "a:\n\n  # c\nb: 1\n"
    empty = _fast(text).value[0][1]
    assert (empty.tag, empty.start_mark.index, empty.start_mark.line, empty.start_mark.column) == \
        ("tag:yaml.org,2002:null", text.index("b"), 3, 0)


INVALID = {
    "unclosed flow": "services:\n  s: [\n sglang\n",
    "bad indentation": "a:\n  b: 1\n c: 2\n",
    "tab indentation": "a:\n\tb: 1\n",
    "undefined alias": "a: *nope\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "unclosed quote": "a: 'x\n",
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_yaml_gets_ruamels_message_and_position(name):
    text = INVALID[name]
    with pytest.raises(InvalidYaml) as ours:
        yamlload.compose(text)
    from ruamel.yaml.error import MarkedYAMLError

    with pytest.raises(MarkedYAMLError) as theirs:
        YAML(typ="rt").compose(text)
    mark = theirs.value.problem_mark or theirs.value.context_mark
    assert ours.value.problem == (theirs.value.problem or theirs.value.context).strip()
    assert ours.value.offset == min(mark.index, len(text))
    assert str(ours.value) == str(theirs.value)


def test_what_libyaml_refuses_and_ruamel_reads_is_read_as_before():
    # a redefined anchor: libyaml stops, YAML 1.2 and compose take the last definition
    text = "a: &x 1\nb: &x 2\nc: *x\n"
    root = yamlload.compose(text)
    assert _flat(root) == _flat(yamlload.reference_compose(text))
    assert root.value[2][1].value == "2"


@pytest.mark.parametrize("text", ["%YAML 1.1\n---\na: yes\n", "a: x\u2028y\n", "a: 1\n\ufeffb: 2\n",
                                  "a: 'x'\t\n", "a: 1\nb: >#c\n  x\n"])
def test_text_libyaml_reads_differently_takes_the_reference_road(text):
    assert yamlload._reference_only(text)
    try:
        ours = _flat(yamlload.compose(text))
    except InvalidYaml as exc:
        ours = str(exc)
    try:
        theirs = _flat(yamlload.reference_compose(text))
    except InvalidYaml as exc:
        theirs = str(exc)
    assert ours == theirs


def test_ruamel_refuses_a_tab_after_a_value_so_the_linter_does():
    with pytest.raises(InvalidYaml) as exc:
        yamlload.compose("a: b\t\nc: 1\n")
    assert exc.value.problem == "found character '\\t' that cannot start any token" and exc.value.offset == 4


def test_without_libyaml_every_file_takes_the_reference_road(monkeypatch):
    monkeypatch.setattr(yamlload, "_loader_class", [None])
    text = SAME_TREE["merge keys and aliases"]
    assert _flat(yamlload.compose(text)) == _flat(yamlload.reference_compose(text))


def test_too_many_nodes_is_a_limit_not_a_tree(monkeypatch):
    monkeypatch.setattr(limits, "MAX_YAML_TREE_NODES", 10)
    with pytest.raises(limits.LimitExceeded) as exc:
        yamlload.compose("[" + ", ".join("x" for _ in range(20)) + "]\n")
    assert exc.value.limit == "MAX_YAML_TREE_NODES"
    assert yamlload.compose("[a, b, c]\n").value[2].value == "c"


def test_the_reference_road_is_bounded_by_max_parsed_chars(monkeypatch):
    monkeypatch.setattr(limits, "MAX_PARSED_CHARS", 20)
    with pytest.raises(limits.LimitExceeded) as exc:
        yamlload.compose("a: [" + "x, " * 20 + "\n")  # invalid: only ruamel would say why
    assert exc.value.limit == "MAX_PARSED_CHARS"
    assert yamlload.compose("a: [" + "x, " * 20 + "]\n") is not None  # libyaml reads it: no limit


def test_compose_file_past_the_node_limit_is_sgl004(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(limits, "MAX_YAML_TREE_NODES", 5)
    monkeypatch.setitem(limits.ALL, "MAX_YAML_TREE_NODES", 5)
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    with chdir(tmp_path):
        code = main(["--format", "json", "."])
    diags = json.loads(capsys.readouterr().out)
    assert code == 1 and "SGL101" not in {d["code"] for d in diags}
    assert any("MAX_YAML_TREE_NODES = 5" in d["message"] for d in diags if d["code"] == "SGL004")
    # the file was not read to its end: its target directive is not "unused"
    assert "SGL002" not in {d["code"] for d in diags}


def test_a_compose_file_past_max_parsed_chars_is_linted_up_to_max_yaml_chars(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(limits, "MAX_PARSED_CHARS", 100)
    monkeypatch.setitem(limits.ALL, "MAX_PARSED_CHARS", 100)
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100 + "    labels:\n" + "      a: b\n" * 20,
                          "run.py": "import subprocess\nsubprocess.run(['python3', '-m', 'sglang.launch_server', "
                                    "'--model-path', 'x/y'" + ", '--tp', '1'" * 20 + "])\n"})
    with chdir(tmp_path):
        main(["--format", "json", "."])
    diags = json.loads(capsys.readouterr().out)
    # a Python file keeps MAX_PARSED_CHARS (shell scripts have MAX_SHELL_CHARS, tests/test_shell_scale.py)
    assert {(d["path"], d["code"]) for d in diags} == {("compose.yaml", "SGL101"), ("run.py", "SGL004")}


def test_a_compose_launch_does_not_import_ruamel(tmp_path):
    import subprocess
    import sys

    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "linter", "compose.yaml"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    mods = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert proc.returncode == 1 and "linter.extract.yamlload" in mods and "yaml" in mods
    assert not any(m.split(".")[0] == "ruamel" for m in mods)
