"""SGLang ``--config FILE``: the YAML read as each release's merger reads it (linter/sglang/config_file.py).

``tests/data/config_file/oracle.jsonl`` holds SGLang's own answers (0.5.22 and 0.5.23, recorded with
the oracle; see the README there); every line is replayed here through the linter.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from linter.engine import lint_text_result
from linter.sglang.config_file import merger_keys
from linter.sglang.options import load_table
from tests.helpers import chdir, lint_json, run, write_tree

DATA = Path(__file__).parent / "data" / "config_file"
ORACLE = [json.loads(line) for line in (DATA / "oracle.jsonl").read_text().splitlines()]
MODEL = {"LlamaForCausalLM": "meta-llama/Llama-3.1-8B-Instruct", "DeepseekV3ForCausalLM": "deepseek-ai/DeepSeek-V3"}
GPU = {"9.0": "H100", "10.0": "B200"}


def _expected_code(case: dict) -> str | None:
    if case["ok"]:
        return None
    error = case["error"]
    if "unrecognized arguments: --" in error:
        return "SGL201"
    if "unrecognized arguments:" in error:
        return "SGL204"
    if "invalid choice" in error:
        return "SGL203"
    if "absorbed-MLA" in error:
        return "SGL101"
    return "SGL208"


@pytest.mark.parametrize("case", ORACLE, ids=[f"{c['release']}-{c['id']}" for c in ORACLE])
def test_replays_the_oracle(case, tmp_path):
    shutil.copytree(DATA, tmp_path, dirs_exist_ok=True)
    args = [MODEL[case["arch"]] if a == "x" else a for a in case["args"]]
    script = "python3 -m sglang.launch_server " + " ".join(args) + "\n"
    with chdir(tmp_path):
        result = lint_text_result(script, "shell", [GPU[case["cc"]]], name="run.sh", sglang_version=case["release"])
    errors = {d.code for d in result.diagnostics if d.severity == "error"}
    expected = _expected_code(case)
    if any(a.startswith("--config=") for a in args):
        # SGLang starts, without the file (the oracle shows its settings absent): SGL206 says so
        assert errors == {"SGL206"} and case["ok"] and not case["enable_deterministic_inference"]
        return
    if expected is None:
        assert errors == set(), [d.message for d in result.diagnostics]
        parsed = result.contexts[0].parsed
        assert parsed.value("enable_deterministic_inference", False) is case["enable_deterministic_inference"]
        given = parsed.value("attention_backend")
        assert given is None or given == case["attention_backend"]
    else:
        assert expected in errors, (case["error"], [d.message for d in result.diagnostics])
        if expected == "SGL208":
            assert any(case["error"] in d.message for d in result.diagnostics if d.code == "SGL208")


def test_merger_keys_changed_in_0_5_23():
    # 0.5.23 server_args_config_parser.py:17-66 versus 0.5.22 :29-43
    st22, un22 = merger_keys(load_table("0.5.22"))
    st23, un23 = merger_keys(load_table("0.5.23"))
    assert "enable_hicache" in st23 and "enable_hierarchical_cache" in st23
    assert "no_enable_tp_lm_head_all_to_all" not in un22
    assert un23["no_enable_tp_lm_head_all_to_all"] == "BooleanOptionalAction"
    assert un22["enable_dp_attention"] == un23["enable_dp_attention"] == "DeprecatedStoreTrueAction"
    assert "monokernel_backend" not in un23  # a nargs=None custom action is supported from 0.5.23


SCRIPT = """\
#!/bin/bash
# lint-configs: target-gpu=H100
python3 -m sglang.launch_server --config configs/glm.yaml --tp 32
"""
YAML = """\
# serving settings
model-path: deepseek-ai/DeepSeek-V3
attention-backend: "fa4"   # fast on B200
enable-deterministic-inference: true
cuda-graph-bs-decode: [1, 2, 4]
tp: 16
"""


@pytest.mark.parametrize("version", ["0.5.22", "0.5.23"])
def test_findings_and_fix_land_in_the_yaml(tmp_path, capsys, version):
    write_tree(tmp_path, {"run.sh": SCRIPT, "configs/glm.yaml": YAML})
    code, diags = lint_json(tmp_path, capsys, "--sglang-version", version)
    assert code == 1
    assert [(d["path"], d["line"], d["column"], d["code"]) for d in diags] == [("configs/glm.yaml", 3, 21, "SGL101")]
    # the command line's --tp 32 overrides the file's tp: 16 (config args come first): no SGL207
    code, out, _ = run(tmp_path, capsys, "--fix", "--sglang-version", version, ".")
    assert code == 0, out
    assert (tmp_path / "configs/glm.yaml").read_text() == YAML.replace('"fa4"', '"fa3"')
    assert (tmp_path / "run.sh").read_text() == SCRIPT


def test_the_command_line_overrides_the_file(tmp_path):
    write_tree(tmp_path, {"configs/glm.yaml": YAML})
    with chdir(tmp_path):
        result = lint_text_result(SCRIPT.replace("--tp 32", "--tp 32 --attention-backend triton"), "shell", ["H100"],
                                  name="run.sh")
    parsed = result.contexts[0].parsed
    assert parsed.value("tp_size") == "32"
    assert parsed.value("attention_backend") == "triton"
    assert parsed.value("cuda_graph_bs_decode") == ["1", "2", "4"]
    assert parsed.value("enable_deterministic_inference") is True
    assert {d.code for d in result.diagnostics} == set()
    assert [f.display for f in result.related] == ["configs/glm.yaml"]


@pytest.mark.parametrize("version,code", [("0.5.22", "SGL204"), ("0.5.23", "SGL208")])
def test_boolean_optional_key_per_release(tmp_path, version, code):
    write_tree(tmp_path, {"c.yaml": "model-path: Qwen/Qwen3-8B\nno-enable-tp-lm-head-all-to-all: true\n"})
    with chdir(tmp_path):
        diags = lint_text_result("python3 -m sglang.launch_server --config c.yaml\n", "shell", ["H100"],
                                 name="run.sh", sglang_version=version).diagnostics
    assert [(d.code, d.span.source.display, d.span.line) for d in diags] == [(code, "c.yaml", 2)]


@pytest.mark.parametrize("version", ["0.5.22", "0.5.23"])
def test_underscore_key_is_fixed_in_the_yaml(tmp_path, capsys, version):
    text = "model-path: Qwen/Qwen3-8B\nenable_metrics: true  # metrics on\n"
    write_tree(tmp_path, {"run.sh": "python3 -m sglang.launch_server --config c.yaml\n", "c.yaml": text})
    code, diags = lint_json(tmp_path, capsys, "--target-gpu", "H100", "--sglang-version", version)
    assert [(d["path"], d["line"], d["column"], d["end_column"], d["code"]) for d in diags] == \
        [("c.yaml", 2, 1, 15, "SGL201")]
    assert diags[0]["fix"]["edits"][0]["content"] == "enable-metrics"
    code, out, _ = run(tmp_path, capsys, "--fix", "--target-gpu", "H100", "--sglang-version", version, ".")
    assert code == 0, out
    assert (tmp_path / "c.yaml").read_text() == text.replace("enable_metrics", "enable-metrics")


@pytest.mark.parametrize("yaml_text,message", [
    ("- a\n- b\n", "Config file must contain a dictionary at root level"),
    ("model-path: [unclosed\n", "not valid YAML"),
])
def test_bad_config_file_is_a_diagnostic(tmp_path, yaml_text, message):
    write_tree(tmp_path, {"c.yaml": yaml_text})
    with chdir(tmp_path):
        diags = lint_text_result("python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --config c.yaml "
                                 "--enable-metrics=true\n", "shell", ["H100"], name="run.sh").diagnostics
    assert sorted(d.code for d in diags) == ["SGL204", "SGL208"]  # the rest is still linted
    assert any(message in d.message and d.span.source.display == "c.yaml" for d in diags)


def test_missing_config_file_is_unknown(tmp_path):
    with chdir(tmp_path):
        result = lint_text_result("python3 -m sglang.launch_server --config nowhere.yaml\n", "shell", ["H100"],
                                  name="run.sh")
    assert [d.code for d in result.diagnostics] == []  # not SGL205: the file may set --model-path
    assert result.contexts[0].parsed.unknown_words


def test_config_found_from_the_repository_root(tmp_path):
    write_tree(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "configs/c.yaml": "attention_backend: fa3\n",
                          "scripts/run.sh": "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B "
                                            "--config configs/c.yaml\n"})
    with chdir(tmp_path / "configs"):
        from linter.config import ConfigResolver
        from linter.engine import Engine, RunOptions
        from linter.workspace import Workspace
        engine = Engine(Workspace(tmp_path / "configs"), RunOptions(target_gpus=["H100"]),
                        ConfigResolver(isolated=True))
        result = engine.lint(tmp_path / "scripts/run.sh")
    assert [(d.code, d.span.source.path.name) for d in result.diagnostics] == [("SGL201", "c.yaml")]


def test_a_config_file_read_by_two_launches_is_a_shared_value(tmp_path, capsys):
    # scripts/h100.sh is staged alone; scripts/b200.sh reads the same YAML (found one folder up)
    launch = "# lint-configs: target-gpu={gpu}\npython3 -m sglang.launch_server --config ../configs/glm.yaml\n"
    write_tree(tmp_path, {"scripts/h100.sh": launch.format(gpu="H100"), "scripts/b200.sh": launch.format(gpu="B200"),
                          "configs/glm.yaml": YAML})
    with chdir(tmp_path):
        from linter.cli import main

        capsys.readouterr()
        main(["--format", "json", "scripts/h100.sh"])
    diags = json.loads(capsys.readouterr().out)
    assert [(d["path"], d["code"], d["fix"]["applicability"]) for d in diags] == \
        [("configs/glm.yaml", "SGL101", "unsafe")]


@pytest.mark.parametrize("cd,found", [
    ('cd "$(dirname "$0")/.."\n', True),  # the repository root, as the script says
    ("cd /opt/app\n", False),  # a folder the repository does not hold: unknown
    ('cd "$(dirname "$0")"\n', False),  # scripts/configs/glm.yaml does not exist
    ("", True),  # no cd: the repository root is one of the places looked in
])
def test_a_cd_before_the_launch_says_where_the_path_starts(tmp_path, capsys, cd, found):
    write_tree(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "configs/glm.yaml": YAML,
                          "scripts/run.sh": "# lint-configs: target-gpu=H100\n" + cd +
                                            "python3 -m sglang.launch_server --config configs/glm.yaml\n"})
    code, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == ([("configs/glm.yaml", "SGL101")] if found else [])


def test_a_billion_laughs_config_is_refused_not_expanded(tmp_path, capsys):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]  # 10**9 nodes
    write_tree(tmp_path, {"c.yaml": "\n".join(lines) + "\n",
                          "run.sh": "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --config c.yaml\n"})
    code, diags = lint_json(tmp_path, capsys, "--target-gpu", "H100")
    assert [(d["path"], d["code"]) for d in diags] == [("c.yaml", "SGL004")]
    assert "MAX_YAML_NODES" in diags[0]["message"]


def test_explain_says_the_value_came_from_the_config_file(tmp_path, capsys):
    write_tree(tmp_path, {"run.sh": SCRIPT, "configs/glm.yaml": YAML})
    code, out, _ = run(tmp_path, capsys, "--explain", "run.sh")
    assert "attention_backend: 'fa4' (written as --attention-backend in the --config file configs/glm.yaml:3)" in out
    assert "--config:  configs/glm.yaml merged in front of the command line" in out
