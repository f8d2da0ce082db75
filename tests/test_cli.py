"""The command line: exit codes, the JSON contract, --diff, --fix, --explain, rules listing, and bad
input files (never a traceback, never a half-written file)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from linter.cli import main
from linter.sglang.options import known_versions_text
from tests.helpers import chdir, lint_json, run, write_tree

BAD = ("# lint-configs: target-gpu=H100\nservices:\n  sglang:\n    command: python3 -m sglang.launch_server "
       "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference\n")
GOOD = BAD.replace("H100", "B200")


def test_json_contract(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/compose.yaml": BAD})
    code, diags = lint_json(tmp_path, capsys)
    assert code == 1
    assert diags == [{
        "path": "deploy/compose.yaml", "line": 4, "column": 103, "end_line": 4, "end_column": 106,
        "code": "SGL101", "name": "fa4-deterministic-mla-needs-sm100", "severity": "error",
        "message": diags[0]["message"],
        "fix": {"applicability": "safe", "message": "Use --attention-backend fa3",
                "edits": [{"path": "deploy/compose.yaml", "line": 4, "column": 103, "end_line": 4,
                           "end_column": 106, "content": "fa3"}]},
        "notes": diags[0]["notes"],
        "labels": [
            {"path": "deploy/compose.yaml", "line": 4, "column": 59, "end_line": 4, "end_column": 82,
             "message": "model: DeepseekV3ForCausalLM"},
            {"path": "deploy/compose.yaml", "line": 4, "column": 107, "end_line": 4, "end_column": 139,
             "message": "turns on deterministic inference"},
            {"path": "deploy/compose.yaml", "line": 1, "column": 28, "end_line": 1, "end_column": 32,
             "message": "target H100 (SM90)"}],
        "url": None,  # this checkout's metadata names no documentation address: no link that does not resolve
    }]
    assert diags[0]["notes"][0].startswith('SGLang says: "Deterministic inference with absorbed-MLA models on the fa4')
    assert diags[0]["notes"][-1].startswith("assumed SGLang 0.5.23 (newest known release)")
    assert "H100 (SM90)" in diags[0]["message"] and "DeepseekV3ForCausalLM" in diags[0]["message"]


def test_exit_codes(tmp_path, capsys):
    write_tree(tmp_path, {"good/compose.yaml": GOOD})
    assert run(tmp_path / "good", capsys, ".")[0] == 0
    write_tree(tmp_path, {"bad/compose.yaml": BAD})
    assert run(tmp_path / "bad", capsys, ".")[0] == 1
    assert run(tmp_path / "bad", capsys, "--exit-zero", ".")[0] == 0
    assert run(tmp_path / "bad", capsys, "--ignore", "SGL101", ".")[0] == 0
    assert run(tmp_path / "bad", capsys, "--select", "fa4-deterministic-mla-needs-sm100", ".")[0] == 1
    code, _, err = run(tmp_path, capsys, "--target-gpu", "Blackwell", ".")
    assert code == 2 and "family" in err
    code, _, err = run(tmp_path, capsys, "--select", "SGL999", ".")
    assert code == 2 and "SGL999" in err
    code, _, err = run(tmp_path, capsys, "--sglang-version", "0.3.6", ".")
    assert code == 2 and "'0.3.6'" in err and f"known: {known_versions_text()}" in err
    assert known_versions_text().startswith("0.4.0 … ")
    code, _, err = run(tmp_path, capsys, "--sglang-version", "0.5.9rc1", ".")
    assert code == 2 and "not a release" in err
    assert run(tmp_path / "bad", capsys, "--sglang-version", "v0.5.15.post1", ".")[0] == 1
    code, _, err = run(tmp_path, capsys, "no/such/dir")
    assert code == 2 and "no such file" in err
    assert run(tmp_path, capsys, "--no-such-option")[0] == 2


def test_text_output_shows_source_caret_fix_and_summary(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    write_tree(tmp_path, {"compose.yaml": BAD})
    code, out, _ = run(tmp_path, capsys, "--output-format", "full", ".")
    lines = out.splitlines()
    assert lines[0].startswith("error[SGL101]: fa4 with deterministic inference and the absorbed-MLA model "
                               "deepseek-ai/DeepSeek-V3 (DeepseekV3ForCausalLM) needs an SM100/SM110 GPU")
    assert lines[1] == "0.5.23 refuses to start on H100 (SM90)"  # the message once, as a paragraph
    assert lines[2] == " --> compose.yaml:4:103"
    assert lines[7].startswith("4 |     command: python3 -m sglang.launch_server")  # 200 columns: the whole line
    assert lines[8].startswith("  |" + " " * (1 + 58) + "-" * 23 + " " * 21 + "^^^ " + "-" * 32)
    assert "  = fix: Use --attention-backend fa3" in lines
    assert lines[-1] == "Found 1 error. [*] 1 fixable with `lint-configs --fix`."
    assert "\x1b[" not in out


def test_concise_output(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BAD})
    _, out, _ = run(tmp_path, capsys, "--format", "concise", ".")
    assert out.startswith("compose.yaml:4:103: error[SGL101] [*] fa4 with deterministic inference")
    assert out.splitlines()[1:] == ["Found 1 error. [*] 1 fixable with `lint-configs --fix`."]
    write_tree(tmp_path, {"compose.yaml": GOOD})
    assert run(tmp_path, capsys, "--format", "concise", ".") == (0, "All checks passed!\n", "")


def test_diff_changes_nothing_and_exits_1(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BAD})
    code, out, _ = run(tmp_path, capsys, "--diff", ".")
    assert code == 1
    assert out.splitlines()[:2] == ["--- a/compose.yaml", "+++ b/compose.yaml"]
    assert "+    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3" in out
    assert (tmp_path / "compose.yaml").read_text() == BAD
    write_tree(tmp_path, {"compose.yaml": GOOD})
    assert run(tmp_path, capsys, "--diff", ".") == (0, "", "")


def test_fix_then_clean(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    write_tree(tmp_path, {"compose.yaml": BAD})
    code, out, _ = run(tmp_path, capsys, "--fix", ".")
    assert code == 0 and "Fixed 1 finding." in out
    assert (tmp_path / "compose.yaml").read_text() == BAD.replace("backend fa4", "backend fa3")
    assert run(tmp_path, capsys, "--fix", ".")[0] == 0


def test_list_and_show_rules(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, "--list-rules")
    assert code == 0 and "SGL101 (*) fa4-deterministic-mla-needs-sm100" in out
    assert out.rstrip().endswith("[*] has a fix, (*) has a fix in some cases (--fix applies the safe ones, "
                                 "--unsafe-fixes the others); (preview): checked with --preview or when its code is "
                                 "selected; lint-configs --show-rule CODE prints a rule's page.")
    assert "SGL403     weights-exceed-memory                (preview) " in out
    code, out, _ = run(tmp_path, capsys, "--show-rule", "fa4-deterministic-mla-needs-sm100")
    assert code == 0 and out.startswith("# SGL101: fa4-deterministic-mla-needs-sm100\n")
    assert "## Fix safety" in out
    page = Path(__file__).resolve().parent.parent / "docs" / "rules" / "SGL101.md"
    assert out == page.read_text("utf-8")  # the page the help line stands for, word for word
    assert run(tmp_path, capsys, "--show-rule", "nope")[0] == 2


def test_explain(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BAD})
    code, out, _ = run(tmp_path, capsys, "--explain", "compose.yaml:4")
    assert code == 0
    assert "model:     deepseek-ai/DeepSeek-V3 -> DeepseekV3ForCausalLM" in out
    assert "target:    H100 -> NVIDIA H100 SXM5 80GB (compute capability 9.0)" in out
    assert "on H100: attention backend fa4 (chosen by user) -> refused at start-up (SGL101)" in out
    # no launch there is not an error: linting that place exits 0 too
    code, out, _ = run(tmp_path, capsys, "--explain", "compose.yaml:1")
    assert code == 0
    assert out == "no SGLang launch found there\n"
    write_tree(tmp_path, {"notes.yaml": "a: 1\n"})
    assert run(tmp_path, capsys, "--explain", "notes.yaml") == (0, "no SGLang launch found there\n", "")
    assert run(tmp_path, capsys, "notes.yaml")[0] == 0
    code, _, err = run(tmp_path, capsys, "--explain", "missing.yaml")
    assert code == 2 and "missing.yaml: no such file" in err


# --- bad input -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,content,expect", [
    ("compose.yaml", b"services:\n  s: [\n sglang\n", "SGL001"),             # not YAML
    ("compose.yaml", b"services:\n  s:\n    command: sglang \xff\xfe\n", "SGL001"),  # not UTF-8
    ("compose.yaml", b"", None),                                              # empty
    ("compose.yaml", b"\x00\x01sglang binary", "SGL001"),                   # binary with a yaml name
    ("model.bin", b"\x00\x01sglang binary", None),                           # binary, not a linted format
    ("notes.yaml", b"just: a mapping\nsglang: mentioned\n", None),           # YAML, not compose
    ("compose.yaml", b"services: 42\nx: sglang\n", None),                    # services is not a mapping
    ("compose.yaml", b"- a\n- sglang\n", None),                              # top level is a list
])
def test_bad_input_is_a_diagnostic_or_skipped(tmp_path, capsys, name, content, expect):
    write_tree(tmp_path, {name: content})
    code, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ([expect] if expect else [])
    assert code == (1 if expect else 0)


def test_huge_file_is_not_checked_and_says_so(tmp_path, capsys):
    big = tmp_path / "compose.yaml"
    big.write_bytes(b"services: {}\n# sglang\n" + b"#" * (9 * 1024 * 1024))
    code, out, err = run(tmp_path, capsys, "--format", "json", "compose.yaml")
    assert code == 1 and [d["code"] for d in json.loads(out)] == ["SGL004"]
    assert "is past the limit MAX_FILE_BYTES" in json.loads(out)[0]["message"]
    big.write_bytes(b"services: {}\n" + b"#" * (9 * 1024 * 1024))  # no mention of SGLang: skipped, with the reason
    code, out, err = run(tmp_path, capsys, "--format", "json", "compose.yaml")
    assert code == 0 and json.loads(out) == [] and "larger than" in err


def test_a_broken_file_does_not_stop_the_run(tmp_path, capsys):
    write_tree(tmp_path, {"a/compose.yml": "services:\n  s:\n    command: [\"python3\", \"-m\", \"sglang.launch_server\"\n"
                                          "    ports:\n      - 1\n",
                          "b/compose.yml": BAD})
    code, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == [("a/compose.yml", "SGL001"), ("b/compose.yml", "SGL101")]
    run(tmp_path, capsys, "--fix", ".")
    assert "fa3" in (tmp_path / "b/compose.yml").read_text()


def test_gitignored_files_are_not_linted(tmp_path, capsys):
    write_tree(tmp_path, {".gitignore": "generated/\n", "generated/compose.yaml": BAD, ".git/HEAD": "ref\n"})
    assert lint_json(tmp_path, capsys) == (0, [])
    # Named explicitly, it is linted, unless --force-exclude.
    with chdir(tmp_path):
        assert main(["--format", "json", "generated/compose.yaml"]) == 1
        assert main(["--format", "json", "--force-exclude", "generated/compose.yaml"]) == 0


def test_no_traceback_and_module_entry_point(tmp_path):
    (tmp_path / "compose.yaml").write_bytes(b"services:\n  s:\n    command: 'sglang\n")
    res = subprocess.run([sys.executable, "-m", "linter", "--format", "json", "."], cwd=tmp_path,
                         capture_output=True, text=True)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert [d["code"] for d in json.loads(res.stdout)] == ["SGL001"]


def test_explain_at_the_place_a_value_was_written(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/.env": "# backends\nATTN=fa4\n", "deploy/compose.yaml": (
        "# lint-configs: target-gpu=H100\nservices:\n  s:\n    command: python3 -m sglang.launch_server "
        "--model-path deepseek-ai/DeepSeek-V3 --attention-backend ${ATTN} --enable-deterministic-inference\n")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["line"]) for d in diags] == [("deploy/.env", 2)]
    code, out, _ = run(tmp_path, capsys, "--explain", "deploy/.env:2")
    assert code == 0 and out.startswith("deploy/compose.yaml:4: python -m sglang.launch_server (services.s:deepseek-ai/DeepSeek-V3)")
    assert "attention_backend: 'fa4'" in out
    code, out, _ = run(tmp_path, capsys, "--explain", "deploy/.env:1")
    assert (code, out) == (0, "no SGLang launch found there\n")


def test_files_from_reads_nul_and_newline_lists_and_stdin(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"a b/compose.yaml": BAD, "c/compose.yaml": BAD, "d/compose.yaml": BAD})
    (tmp_path / "list0").write_bytes(b"a b/compose.yaml\0c/compose.yaml\0")
    (tmp_path / "list-lines").write_bytes(b"a b/compose.yaml\r\nc/compose.yaml\n\n")
    for listing in ("list0", "list-lines"):
        code, out, _ = run(tmp_path, capsys, "--format", "concise", "--files-from", listing)
        assert code == 1
        assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["a b/compose.yaml", "c/compose.yaml"]
    # with PATHs too, both are linted; '-' is standard input
    import io

    class Stdin:
        buffer = io.BytesIO(b"c/compose.yaml\0")

    monkeypatch.setattr(sys, "stdin", Stdin)
    code, out, _ = run(tmp_path, capsys, "--format", "concise", "--files-from", "-", "d/compose.yaml")
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["c/compose.yaml", "d/compose.yaml"]
    # an empty list lints nothing (not the whole folder)
    (tmp_path / "empty").write_bytes(b"")
    assert run(tmp_path, capsys, "--files-from", "empty")[0] == 0
    code, _, err = run(tmp_path, capsys, "--files-from", "no-such-list")
    assert code == 2 and "--files-from no-such-list" in err
