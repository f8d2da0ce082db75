"""Issue 26: hostile inputs lint without an internal error, within the limits of linter/limits.py.

Time and memory are measured by ``scripts/measure_hostile.py`` (each case under 1 s of CPU and
100 MiB), not here: a timed test fails on a busy machine. The shapes that used to take seconds or
gigabytes are asserted through what proves the bound: the SGL004 diagnostic that names the limit.
"""

from __future__ import annotations

import json

import pytest

from linter import limits
from linter.cli import main
from linter.extract.yamltree import align
from linter.source import SourceFile
from tests.helpers import FOLDED_H100, chdir, write_tree
from tests.hostile import CASES, CONFIG_CASES, HEAD, LAUNCH


def _lint(root, capsys, *args):
    capsys.readouterr()
    with chdir(root):
        code = main(["--format", "json", *args, "."])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_input_is_no_internal_error(tmp_path, capsys, name):
    write_tree(tmp_path, CASES[name])
    code, diags, err = _lint(tmp_path, capsys)
    assert [d for d in diags if d["code"] == "SGL000"] == []
    assert "internal error" not in err and "Traceback" not in err
    assert code in (0, 1)


EXPECTED_LIMIT = {
    "deep-config-json": "MAX_JSON_DEPTH",
    "doubling-env": "MAX_EXPANSION_CHARS",
    "unclosed-braces-compose": "MAX_YAML_DEPTH",
    "unclosed-flow-yaml": "MAX_YAML_DEPTH",
    "words-through-env": "MAX_EXPANSION_CHARS",
    "short-words-through-env": "MAX_WORDS_PER_LAUNCH",
    "words-in-shell-variable": "MAX_WORDS_PER_LAUNCH",
    "words-in-python-list": "MAX_WORDS_PER_LAUNCH",
    "long-line-compose": "MAX_LINE_CHARS",
    "long-line-shell": "MAX_LINE_CHARS",
    "long-line-python": "MAX_LINE_CHARS",
    "lines-99k-x25-shell": "MAX_SHELL_CHARS",
    "huge-env-line": "MAX_LINE_CHARS",
    "huge-env-file": "MAX_PARSED_CHARS",
    "many-nodes-compose": "MAX_YAML_TREE_NODES",
}


@pytest.mark.parametrize("name", sorted(EXPECTED_LIMIT))
def test_limit_is_reported_as_sgl004_naming_limit_and_value(tmp_path, capsys, name):
    write_tree(tmp_path, CASES[name])
    code, diags, _ = _lint(tmp_path, capsys)
    limit = EXPECTED_LIMIT[name]
    hits = [d for d in diags if d["code"] == "SGL004"]
    assert hits, diags
    assert any(f"{limit} = {limits.ALL[limit]:,}" in d["message"] for d in hits), hits
    assert code == 1


def test_sgl004_can_be_ignored(tmp_path, capsys):
    write_tree(tmp_path, CASES["long-line-shell"])
    code, diags, _ = _lint(tmp_path, capsys, "--ignore", "SGL004")
    assert diags == [] and code == 0


def test_merge_keys_nested_are_memoised_and_still_resolved(tmp_path, capsys):
    # 12 levels of `<<: [*m, *m, *m]` took 36 s; memoised, the merged keys are still all there.
    files = dict(CASES["merge-keys-12-deep"])
    files["compose.yaml"] = "# lint-configs: target-gpu=H100\n" + files["compose.yaml"].replace(
        LAUNCH, LAUNCH + " --attention-backend fa4 --enable-deterministic-inference")
    write_tree(tmp_path, files)
    code, diags, _ = _lint(tmp_path, capsys)
    assert "SGL101" in {d["code"] for d in diags}


def test_merge_expansion_budget_is_counted(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(limits, "MAX_YAML_NODES", 20)
    monkeypatch.setitem(limits.ALL, "MAX_YAML_NODES", 20)
    write_tree(tmp_path, CASES["merge-keys-12-deep"])
    code, diags, _ = _lint(tmp_path, capsys)
    assert any("MAX_YAML_NODES = 20" in d["message"] for d in diags if d["code"] == "SGL004")


def test_align_is_not_quadratic_and_keeps_its_matches():
    text = 'x: "' + "\\t" * 6754 + 'ab"\n'
    src = SourceFile(None, "x", text)
    value = "\t" * 6754 + "ab"
    out = align(value, src, 3, len(text) - 1)
    assert out[:6754] == [None] * 6754
    assert out[-2:] == [(src, len(text) - 4), (src, len(text) - 3)]
    folded = SourceFile(None, "y", "a\r\nb")
    assert align("a b", folded, 0, 4) == [(folded, 0), (folded, 1), (folded, 3)]


def test_environment_item_whose_equals_disappears(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": "# lint-configs: target-gpu=H100\n" + HEAD + "    environment:\n"
                          "      - ${UNSET:+A=1}\n      - B=fa4\n    command: sh -c '" + LAUNCH +
                          " --enable-deterministic-inference --attention-backend $$B'\n"})
    code, diags, _ = _lint(tmp_path, capsys)
    assert "SGL101" in {d["code"] for d in diags}


def test_yaml_complex_key_is_not_a_field(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100 + "    ? [a, b]\n    : 1\n"})
    code, diags, _ = _lint(tmp_path, capsys)
    assert {d["code"] for d in diags} == {"SGL101"}


def test_model_path_component_too_long_for_the_os(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100.replace("deepseek-ai/DeepSeek-V3", "./" + "m" * 300 + "/x")})
    code, diags, err = _lint(tmp_path, capsys)
    assert "SGL000" not in {d["code"] for d in diags} and err == ""


@pytest.mark.parametrize("name", sorted(CONFIG_CASES))
def test_configuration_mistakes_are_configuration_errors(tmp_path, capsys, name):
    text, named = CONFIG_CASES[name]
    write_tree(tmp_path, {"pyproject.toml": text, "compose.yaml": FOLDED_H100})
    capsys.readouterr()
    with chdir(tmp_path):
        code = main(["."])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("lint-configs: error: ") and "pyproject.toml" in err and named in err
    assert "internal error" not in err and "Traceback" not in err


def test_an_internal_error_stays_with_its_file(tmp_path, capsys, monkeypatch):
    """A bug on one file: SGL000 there, the others still linted and fixed, exit 2 at the end."""
    import linter.extract.shell as shell

    def boom(source, ws):
        raise RuntimeError("boom")

    monkeypatch.setattr(shell, "extract", boom)
    write_tree(tmp_path, {"a.sh": LAUNCH + "\n", "compose.yaml": FOLDED_H100})
    code, diags, err = _lint(tmp_path, capsys, "--fix")
    assert code == 2
    internal = [d for d in diags if d["code"] == "SGL000"]
    assert [d["path"] for d in internal] == ["a.sh"]
    assert "internal error while linting: RuntimeError: boom" in internal[0]["message"]
    assert "please report" in internal[0]["message"]
    assert "--attention-backend fa3\n" in (tmp_path / "compose.yaml").read_text()  # the other file was fixed


def test_debug_prints_the_traceback(tmp_path, capsys, monkeypatch):
    import linter.extract.shell as shell

    monkeypatch.setattr(shell, "extract", lambda source, ws: 1 / 0)
    monkeypatch.setenv("LINT_CONFIGS_DEBUG", "1")
    write_tree(tmp_path, {"a.sh": LAUNCH + "\n"})
    code, diags, err = _lint(tmp_path, capsys)
    assert code == 2 and "Traceback" in err and "ZeroDivisionError" in err


def test_limits_are_documented_in_one_place():
    import inspect

    src = inspect.getsource(limits)
    for name, value in limits.ALL.items():
        assert isinstance(value, int) and value > 0
        assert f"{name} = " in src
    assert {"MAX_LINE_CHARS", "MAX_YAML_NODES", "MAX_EXPANSION_CHARS", "MAX_JSON_DEPTH"} <= set(limits.ALL)


def test_reused_anchor_is_not_printed_raw(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": "x-a: &a {image: x}\nx-b: &a {image: y}\n" + FOLDED_H100.split("\n", 1)[1]})
    code, diags, err = _lint(tmp_path, capsys, "--target-gpu", "H100")
    assert err == "" and {d["code"] for d in diags} == {"SGL101"}


def test_cr_only_yaml_is_compose(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100.replace("\n", "\r")})
    code, diags, err = _lint(tmp_path, capsys)
    assert {d["code"] for d in diags} == {"SGL101"}


def test_diff_of_an_absolute_path_has_one_slash(tmp_path, capsys):
    write_tree(tmp_path, {"in/compose.yaml": FOLDED_H100})
    (tmp_path / "cwd").mkdir()
    capsys.readouterr()
    with chdir(tmp_path / "cwd"):
        code = main(["--diff", str(tmp_path / "in" / "compose.yaml")])
    out = capsys.readouterr().out
    assert f"--- a{tmp_path}/in/compose.yaml\n" in out and "a//" not in out and code == 1


def test_line_continuation_inside_a_shell_word_joins_it(tmp_path, capsys):
    # bash reads `fa\<newline>4` as `fa4`; tree-sitter-bash gives two nodes. The finding is SGL101
    # (not SGL203 for `fa` and SGL204 for a stray `4`), and no fix writes `fa3\<newline>4`.
    text = ("#!/bin/bash\n# lint-configs: target-gpu=H100\npython3 -m sglang.launch_server --model-path "
            "deepseek-ai/DeepSeek-V3 --enable-deterministic-inference --attention-backend fa\\\n4\n")
    write_tree(tmp_path, {"run.sh": text})
    code, diags, err = _lint(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL101"]
    code, diags, err = _lint(tmp_path, capsys, "--fix")
    assert (tmp_path / "run.sh").read_text() == text


def test_a_crash_while_checking_a_fix_refuses_the_fix_and_exits_2(tmp_path, capsys, monkeypatch):
    from linter.engine import Engine

    real = Engine.lint

    def lint(self, path, *args, **kwargs):
        src = self.ws.try_read(path)
        if src is not None and "--attention-backend fa3" in src.text:  # the fixed text
            raise RuntimeError("verifying")
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(Engine, "lint", lint)
    write_tree(tmp_path, {"compose.yaml": FOLDED_H100})
    code, diags, err = _lint(tmp_path, capsys, "--fix")
    assert (tmp_path / "compose.yaml").read_text() == FOLDED_H100
    assert {d["code"] for d in diags} == {"SGL000", "SGL101"}
    assert code == 2


def test_conflict_markers_are_named_and_the_directive_is_not_called_unused(tmp_path):
    from linter.engine import lint_text

    text = ("# lint-configs: target-gpu=H100\nservices:\n  s:\n<<<<<<< HEAD\n"
            "    command: python3 -m sglang.launch_server --model-path m\n=======\n"
            "    command: python3 -m sglang.launch_server --model-path n\n>>>>>>> other\n")
    got = lint_text(text, "compose")
    assert [d.code for d in got] == ["SGL001", "SGL001"]
    assert "merge conflict" in got[0].message and got[0].span.line == 4
