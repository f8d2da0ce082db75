"""The flags a ruff user expects: --statistics, --show-fixes, -q/-s, --color, --show-files, stdin with
--stdin-filename, --exit-non-zero-on-fix, --fail-on; the ``baseline`` key and stale baseline entries;
and the launch inventory (--list-launches) in text, JSON and CSV on the bundled examples."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from linter.formats import names_text
from tests.helpers import run, write_tree

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

BAD = ("# lint-configs: target-gpu=H100\nservices:\n  sglang:\n    command: python3 -m sglang.launch_server "
       "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference\n")
# SGL901 only (a warning): no target declared
NO_TARGET = BAD.replace("# lint-configs: target-gpu=H100\n", "")
SHELL = ("#!/bin/bash\n# lint-configs: target-gpu=H100\npython -m sglang.launch_server --model-path "
         "deepseek-ai/DeepSeek-V3 \\\n  --attention-backend fa4 --enable-deterministic-inference\n")


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


# --- report shape ------------------------------------------------------------------------------------

def test_statistics(tmp_path, capsys):
    write_tree(tmp_path, {"a/compose.yaml": BAD, "b/compose.yaml": BAD, "c/compose.yaml": NO_TARGET})
    code, out, _ = run(tmp_path, capsys, "--statistics", ".")
    assert code == 1
    assert out.splitlines() == [
        "2\tSGL101\t[*] fa4-deterministic-mla-needs-sm100",
        "1\tSGL901\t[ ] unverifiable-launch",
        "Found 2 errors and 1 warning. [*] 2 fixable with `lint-configs --fix`.",
    ]
    code, out, _ = run(tmp_path, capsys, "--statistics", "--format", "json", ".")
    assert json.loads(out) == [
        {"code": "SGL101", "name": "fa4-deterministic-mla-needs-sm100", "count": 2, "fixable": True},
        {"code": "SGL901", "name": "unverifiable-launch", "count": 1, "fixable": False},
    ]
    assert run(tmp_path, capsys, "--statistics", "-q", ".")[1].count("\n") == 2


def test_show_fixes_before_and_after_fix(tmp_path, capsys):
    write_tree(tmp_path, {"a/compose.yaml": BAD, "b/compose.yaml": BAD})
    code, out, _ = run(tmp_path, capsys, "--show-fixes", ".")
    assert code == 1
    assert ("Would fix 2 findings with `lint-configs --fix`:\n- a/compose.yaml:\n"
            "    1 × SGL101 (fa4-deterministic-mla-needs-sm100)\n- b/compose.yaml:\n") in out
    code, out, _ = run(tmp_path, capsys, "--fix", "--show-fixes", ".")
    assert code == 0
    assert out.startswith("Fixed 2 findings:\n- a/compose.yaml:\n    1 × SGL101 (fa4-deterministic-mla-needs-sm100)\n"
                          "- b/compose.yaml:\n    1 × SGL101 (fa4-deterministic-mla-needs-sm100)\n\n")
    assert out.endswith("\nFixed 2 findings. No findings remain.\n")
    assert "fa3" in (tmp_path / "a/compose.yaml").read_text()


def test_quiet_and_silent(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BAD, "data.bin": b"sglang\x00"})
    code, out, err = run(tmp_path, capsys, "-q", "compose.yaml", "data.bin")
    assert code == 1
    assert out.startswith("error[SGL101]: ") and " --> compose.yaml:4:103" in out
    assert "Found" not in out and "SGLang release assumed" not in out
    assert err == ""  # the skipped-file warning is quiet too
    assert "data.bin: skipped: binary file" in run(tmp_path, capsys, "compose.yaml", "data.bin")[2]
    assert run(tmp_path, capsys, "--silent", ".") == (1, "", "")
    assert run(tmp_path, capsys, "-s", "--format", "json", ".") == (1, "", "")


@pytest.mark.parametrize(("env", "flag", "ansi"), [
    ({}, "always", True),
    ({"NO_COLOR": "1"}, "always", True),
    ({"FORCE_COLOR": "1"}, "never", False),
    ({"FORCE_COLOR": "1"}, "auto", True),
    ({}, "auto", False),  # not a terminal
])
def test_color(tmp_path, capsys, monkeypatch, env, flag, ansi):
    monkeypatch.delenv("NO_COLOR", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    write_tree(tmp_path, {"compose.yaml": BAD})
    code, out, _ = run(tmp_path, capsys, "--color", flag, ".")
    assert code == 1
    assert ("\x1b[" in out) is ansi
    assert "SGL101" in out


def test_show_files(tmp_path, capsys):
    write_tree(tmp_path, {"deploy/compose.yaml": BAD, "deploy/.env": "X=1\n", "scripts/serve.sh": SHELL,
                          "scripts/util.sh": "echo hi\n", "README.md": "sglang\n", "legacy/compose.yaml": BAD,
                          ".gitignore": "legacy/\n", "scripts/x.py": "# lint-configs: target-gpu=H100\nprint(1)\n"})
    code, out, _ = run(tmp_path, capsys, "--show-files", ".")
    assert code == 0
    other = f"skipped: not a file of a linted format ({names_text()})"
    assert out.splitlines() == [
        f".gitignore: {other}",
        "README.md: markdown, 0 launches",
        "deploy/.env: skipped: read with the compose files beside it",
        "deploy/compose.yaml: compose, 1 launch",
        "scripts/serve.sh: shell, 1 launch",
        "scripts/util.sh: skipped: does not mention SGLang",
        # read for its directive, which the check reports unused (SGL002)
        "scripts/x.py: skipped: does not mention SGLang; only its target-gpu directives are checked",
    ]
    code, out, _ = run(tmp_path, capsys, "--show-files", "--format", "json", "scripts")
    assert json.loads(out) == [
        {"path": "scripts/serve.sh", "format": "shell", "launches": 1, "skipped": None},
        {"path": "scripts/util.sh", "format": None, "launches": 0, "skipped": "does not mention SGLang"},
        {"path": "scripts/x.py", "format": None, "launches": 0,
         "skipped": "does not mention SGLang; only its target-gpu directives are checked"},
    ]


# --- exit codes ----------------------------------------------------------------------------------------

def test_fail_on_error_keeps_warnings_visible_without_failing(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": NO_TARGET})
    code, out, _ = run(tmp_path, capsys, "--fail-on", "error", ".")
    assert code == 0 and "SGL901" in out and "Found 1 warning." in out
    assert run(tmp_path, capsys, ".")[0] == 1
    assert run(tmp_path, capsys, "--fail-on", "warning", ".")[0] == 1
    write_tree(tmp_path, {"b/compose.yaml": BAD})
    assert run(tmp_path, capsys, "--fail-on", "error", ".")[0] == 1
    assert run(tmp_path, capsys, "--fail-on", "error", "--exit-zero", ".")[0] == 0
    assert run(tmp_path, capsys, "--fail-on", "info", ".")[0] == 2


def test_exit_non_zero_on_fix(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BAD})
    assert run(tmp_path, capsys, "--fix", "--exit-non-zero-on-fix", ".")[0] == 1
    assert "fa3" in (tmp_path / "compose.yaml").read_text()
    # nothing left to fix: 0
    assert run(tmp_path, capsys, "--fix", "--exit-non-zero-on-fix", ".")[0] == 0
    write_tree(tmp_path, {"compose.yaml": BAD})
    assert run(tmp_path, capsys, "--fix", ".")[0] == 0
    write_tree(tmp_path, {"compose.yaml": BAD})
    assert run(tmp_path, capsys, "--fix", "--exit-non-zero-on-fix", "--exit-zero", ".")[0] == 0


def test_usage_errors(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": BAD})
    code, _, err = run(tmp_path, capsys, "--format", "csv", ".")
    assert (code, err) == (2, "lint-configs: error: --output-format csv is for --list-launches\n")
    code, _, err = run(tmp_path, capsys, "--list-launches", "--format", "sarif", ".")
    assert (code, err) == (2, "lint-configs: error: --list-launches prints text, json or csv, not sarif\n")
    code, _, err = run(tmp_path, capsys, "--statistics", "--format", "github", ".")
    assert (code, err) == (2, "lint-configs: error: --statistics prints text or json, not github\n")
    code, _, err = run(tmp_path, capsys, "--list-launches", "--show-files", ".")
    assert code == 2 and "cannot be combined" in err
    code, _, err = run(tmp_path, capsys, "compose.yaml", "-")
    assert code == 2 and "'-' (standard input) cannot be mixed" in err


# --- stdin ---------------------------------------------------------------------------------------------

def test_stdin_compose_reads_env_and_configuration_beside_the_name(tmp_path, capsys, monkeypatch):
    compose = ("services:\n  sglang:\n    image: lmsysorg/sglang:v0.5.23-cu129\n    command: python3 -m "
               "sglang.launch_server --model-path ${MODEL} --attention-backend fa4 --enable-deterministic-inference\n")
    write_tree(tmp_path, {"deploy/.env": "MODEL=deepseek-ai/DeepSeek-V3\n",
                          "deploy/pyproject.toml": '[tool.lint-configs]\ntarget-gpus = ["H100"]\n'})
    _stdin(monkeypatch, compose.encode())
    code, out, err = run(tmp_path, capsys, "--format", "json", "--stdin-filename", "deploy/compose.yaml", "-")
    assert code == 1, err
    diags = json.loads(out)
    assert [(d["path"], d["line"], d["code"]) for d in diags] == [("deploy/compose.yaml", 4, "SGL101")]
    assert "H100 (SM90)" in diags[0]["message"] and "DeepSeek-V3" in diags[0]["message"]
    assert not (tmp_path / "deploy/compose.yaml").exists()
    # the same text named elsewhere: no .env, no configuration -> the model and target are unknown
    _stdin(monkeypatch, compose.encode())
    code, out, _ = run(tmp_path, capsys, "--format", "json", "--stdin-filename", "other/compose.yaml")
    assert [d["code"] for d in json.loads(out)] == ["SGL901"]


def test_stdin_fix_prints_the_fixed_text_and_reports_on_stderr(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"compose.yaml": BAD})
    _stdin(monkeypatch, BAD.encode())
    code, out, err = run(tmp_path, capsys, "--fix", "--stdin-filename", "compose.yaml", "-")
    assert code == 0
    assert out == BAD.replace("fa4", "fa3")
    assert err.endswith("\nFixed 1 finding. No findings remain.\n") and "SGL101" not in err
    assert (tmp_path / "compose.yaml").read_text() == BAD  # the file on disk is not touched
    _stdin(monkeypatch, NO_TARGET.encode())
    code, out, err = run(tmp_path, capsys, "--fix", "--stdin-filename", "compose.yaml")
    assert code == 1 and out == NO_TARGET and "SGL901" in err


def test_stdin_shell_script(tmp_path, capsys, monkeypatch):
    _stdin(monkeypatch, SHELL.encode())
    code, out, _ = run(tmp_path, capsys, "--format", "concise", "--stdin-filename", "jobs/serve.slurm", "-")
    assert code == 1
    assert out.startswith("jobs/serve.slurm:4:23: error[SGL101] [*] ")
    _stdin(monkeypatch, SHELL.encode())
    code, out, _ = run(tmp_path, capsys, "--diff", "--stdin-filename", "serve.sh")
    assert code == 1
    assert "-  --attention-backend fa4 --enable-deterministic-inference\n" \
           "+  --attention-backend fa3 --enable-deterministic-inference\n" in out
    # '-' alone: the format comes from the shebang
    _stdin(monkeypatch, SHELL.encode())
    code, out, _ = run(tmp_path, capsys, "--format", "concise", "-")
    assert code == 1 and out.startswith("-:4:23: error[SGL101]")


def test_stdin_edge_cases(tmp_path, capsys, monkeypatch):
    write_tree(tmp_path, {"pyproject.toml": '[tool.lint-configs]\nexclude = ["legacy/"]\n'})
    _stdin(monkeypatch, BAD.encode())
    assert run(tmp_path, capsys, "--force-exclude", "--stdin-filename", "legacy/compose.yaml") == (
        0, "No file linted.\n", "")
    _stdin(monkeypatch, BAD.encode())  # an editor's --fix gets its text back unchanged
    assert run(tmp_path, capsys, "--fix", "--force-exclude", "--stdin-filename", "legacy/compose.yaml")[:2] == (0, BAD)
    _stdin(monkeypatch, b"services:\n  s:\n    command: sglang \xff\n")
    code, _, err = run(tmp_path, capsys, "--stdin-filename", "compose.yaml")
    assert code == 2 and "standard input (compose.yaml): not UTF-8 text" in err
    _stdin(monkeypatch, b"just text about sglang\n")
    code, out, err = run(tmp_path, capsys, "--stdin-filename", "notes.txt", "other-path")
    assert code == 0 and "ignoring other-path" in err and "notes.txt: skipped" in err


def test_stdin_through_a_real_pipe(tmp_path):
    write_tree(tmp_path, {".env": "MODEL=deepseek-ai/DeepSeek-V3\n"})
    proc = subprocess.run([sys.executable, "-m", "linter", "--format", "concise", "--stdin-filename",
                           "compose.yaml", "-"], input=BAD.encode(), cwd=tmp_path, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith("compose.yaml:4:103: error[SGL101] [*] ")


# --- baseline key and stale entries -------------------------------------------------------------------

def test_baseline_key_is_used_and_stale_entries_reported(tmp_path, capsys):
    write_tree(tmp_path, {"a/compose.yaml": BAD, "b/compose.yaml": BAD, "c/compose.yaml": BAD,
                          "pyproject.toml": '[tool.lint-configs]\nbaseline = "ci/baseline.json"\n'
                                            'sglang-version = "0.5.23"\n'})
    code, _, err = run(tmp_path, capsys, ".")
    assert code == 2
    assert "ci/baseline.json: cannot read the baseline" in err and "(the 'baseline' key of " in err
    assert run(tmp_path, capsys, "--write-baseline", "ci/baseline.json", ".")[0] == 0
    assert run(tmp_path, capsys, ".") == (0, "Checked 3 launches in 3 files.\nAll checks passed!\n", "")
    # two findings go away: the summary says the baseline has stale entries
    write_tree(tmp_path, {"a/compose.yaml": BAD.replace("H100", "B200"), "b/compose.yaml": BAD.replace("fa4", "fa3")})
    code, out, err = run(tmp_path, capsys, ".")
    assert code == 0
    # (the text report wraps at its width: compare the words)
    assert " ".join(out.split()) == ("Checked 3 launches in 3 files. All checks passed! 2 baseline entries no longer "
                                     "match any finding; rewrite it "
                                     "with `lint-configs --write-baseline ci/baseline.json`")
    # a run over one file cannot tell about the others
    assert run(tmp_path, capsys, "c/compose.yaml") == (0, "Checked 1 launch in 1 file.\nAll checks passed!\n", "")
    assert " ".join(run(tmp_path, capsys, "a/compose.yaml")[1].split()).endswith(
        "1 baseline entry no longer matches any finding; rewrite it with "
        "`lint-configs --write-baseline ci/baseline.json`")
    # nor a run that does not check the code
    assert run(tmp_path, capsys, "--select", "SGL2", ".")[1] == "Checked 3 launches in 3 files.\nAll checks passed!\n"
    # machine formats keep stdout clean: the warning goes to stderr; -q drops it
    code, out, err = run(tmp_path, capsys, "--format", "json", ".")
    assert json.loads(out) == [] and err.startswith("lint-configs: warning: 2 baseline entries")
    assert run(tmp_path, capsys, "-q", ".") == (0, "", "")
    # --baseline on the command line wins over the key
    assert run(tmp_path, capsys, "--baseline", "missing.json", ".")[0] == 2
    # a deleted file's entries are stale too
    (tmp_path / "c/compose.yaml").unlink()
    assert "3 baseline entries" in run(tmp_path, capsys, ".")[1]


# --- the inventory -----------------------------------------------------------------------------------

@pytest.fixture
def examples(tmp_path):
    tree = tmp_path / "examples"
    # the compose examples (the Kubernetes and Helm ones have tests of their own)
    shutil.copytree(EXAMPLES, tree, ignore=shutil.ignore_patterns("k8s", "helm"))
    return tree


def test_list_launches_json(examples, capsys):
    code, out, _ = run(examples.parent, capsys, "--list-launches", "--format", "json", "examples")
    assert code == 0
    launches = json.loads(out)
    assert [(r["path"], r["line"]) for r in launches] == [
        ("examples/.github/workflows/smoke.yml", 19), ("examples/bench/compose.yaml", 5),
        ("examples/cloud/sglang-glm.sky.yaml", 14), ("examples/docker/Dockerfile", 11),
        ("examples/inference/compose.b200.yml", 6),
        ("examples/inference/docker-compose.yml", 18), ("examples/inference/docker-compose.yml", 29),
        ("examples/rl/docker-compose.rollout.yml", 6), ("examples/runbooks/deepseek-v3-h100.md", 18)]
    assert [r["format"] for r in launches[:4]] == ["github-actions", "compose", "skypilot", "dockerfile"]
    sky = launches[2]
    assert [(t["name"], t["verdict"]) for t in sky["targets"]] == [("H100", "refused"), ("B200", "accepted")]
    launches = launches[1:2] + launches[4:]  # the compose launches (and the runbook's), in the order below
    dsv3 = launches[2]
    assert dsv3["format"] == "compose" and dsv3["entry_point"] == "python -m sglang.launch_server"
    assert (dsv3["model"], dsv3["architecture"]) == ("deepseek-ai/DeepSeek-V3-0324", "DeepseekV3ForCausalLM")
    assert dsv3["model_origin"].startswith("the model catalog")
    assert (dsv3["release"], dsv3["release_origin"], dsv3["cuda_build"]) == (
        "0.5.23", "image tag lmsysorg/sglang:v0.5.23-cu129", "12.9")
    assert (dsv3["deterministic"], dsv3["deterministic_by"]) == (True, "--enable-deterministic-inference")
    [t] = dsv3["targets"]
    assert (t["name"], t["sm"], t["backend"], t["chosen_by"], t["verdict"], t["check"]) == (
        "p5.48xlarge", "SM90", "fa4", "user", "refused", "SGL101")
    assert t["declared"] == "declared by a lint-configs: target-gpu= comment at examples/inference/docker-compose.yml:2"
    assert dsv3["findings"] == ["SGL101"]  # (its weights do not fit 8 x H100 either: SGL403, in preview)
    assert (dsv3["hardware"]["weights_gib"], dsv3["hardware"]["budget_gib"]) == (79.3, 69.7)
    qwen = launches[3]
    assert qwen["model"] == "Qwen/Qwen3-32B"  # through ${QWEN_MODEL} in .env
    assert qwen["targets"][0]["verdict"] == "accepted" and qwen["findings"] == []
    rl = launches[4]
    assert rl["release"] == "0.5.22" and rl["deterministic_by"] == "--rl-on-policy-target"
    assert rl["targets"][0]["sm"] == "SM120" and rl["targets"][0]["verdict"] == "refused"
    bench = launches[0]
    assert bench["targets"] == [] and bench["release_origin"] == "newest known release: the image tag :latest moves with each build"
    assert {c["gpu_class"]: c["verdict"] for c in bench["if_target_unknown"]} == {
        "SM80/SM89": "refused", "SM90": "refused", "SM100/SM103": "accepted", "SM110": "accepted",
        "SM120": "refused", "ROCm": "refused"}
    assert launches[1]["targets"][0]["verdict"] == "accepted"  # B200


def test_list_launches_csv(examples, capsys):
    code, out, _ = run(examples, capsys, "--list-launches", "--format", "csv", ".")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 10  # one row per launch and target: the SkyPilot task has two candidates
    by = {(r["path"], r["line"]): r for r in rows}
    dsv3 = by[("inference/docker-compose.yml", "18")]
    assert (dsv3["target"], dsv3["sm"], dsv3["backend"], dsv3["verdict"], dsv3["check"], dsv3["findings"]) == (
        "p5.48xlarge", "SM90", "fa4", "refused", "SGL101", "SGL101")
    assert (dsv3["needs_per_node"], dsv3["weights_gib"], dsv3["budget_gib"]) == ("8", "79.3", "69.7")
    assert dsv3["deterministic"] == "on" and dsv3["release"] == "0.5.23"
    bench = by[("bench/compose.yaml", "5")]
    assert bench["target"] == "" and bench["verdict"] == (
        "no target: refused on SM80/SM89, SM90, SM120, ROCm; accepted on SM100/SM103, SM110")


def test_list_launches_text(examples, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(examples, capsys, "--list-launches", ".")
    assert code == 0
    assert "\x1b[" not in out
    assert "inference/docker-compose.yml:18" in out
    assert "p5.48xlarge (SM90): fa4 (user) -> refused (SGL101)" in out
    assert "NVIDIA-B200 (SM100): fa4 (user) -> accepted" in out
    assert out.rstrip().endswith("9 launches in 8 files; 6 fail on a declared target, 1 without a known target.")
    assert "\x1b[" in run(examples, capsys, "--list-launches", "--color", "always", ".")[1]


def test_list_launches_targets_of_every_kind(tmp_path, capsys):
    # an unknown GPU name, a launch whose deterministic mode is unknown, and --target-gpu provenance
    write_tree(tmp_path, {
        "a.sh": "# lint-configs: target-gpu=H100, Blackwell\npython -m sglang.launch_server --model-path "
                "deepseek-ai/DeepSeek-V3 --attention-backend fa3 --enable-deterministic-inference\n",
        "b.sh": "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 $EXTRA\n",
    })
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", ".")
    a, b = json.loads(out)
    assert [(t["name"], t["verdict"]) for t in a["targets"]] == [("H100", "accepted"), ("Blackwell", "unknown-gpu")]
    assert a["attention_backend"] == "fa3"
    assert b["deterministic"] is None and b["if_target_unknown"] == []
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", "--target-gpu", "A100", "b.sh")
    [b] = json.loads(out)
    assert b["target_origin"] == "command line"
    assert b["targets"][0]["declared"] == "given with --target-gpu" and b["targets"][0]["verdict"] == "not-checked"


def test_stdin_fix_never_writes_the_files_beside_the_name(tmp_path, capsys, monkeypatch):
    compose = ("# lint-configs: target-gpu=H100\nservices:\n  sglang:\n    command: python3 -m sglang.launch_server "
               "--model-path deepseek-ai/DeepSeek-V3 --attention-backend ${BACKEND} --enable-deterministic-inference\n")
    write_tree(tmp_path, {".env": "BACKEND=fa4\n"})
    _stdin(monkeypatch, compose.encode())
    code, out, err = run(tmp_path, capsys, "--fix", "--stdin-filename", "compose.yaml")
    assert code == 1
    assert out == compose
    assert (tmp_path / ".env").read_text() == "BACKEND=fa4\n"
    assert "error[SGL101]" in err and " --> .env:1:9" in err
    assert "the fix edits .env: not applied when linting standard input" in err
    # the same file on disk is fixed where the value is written
    write_tree(tmp_path, {"compose.yaml": compose})
    assert run(tmp_path, capsys, "--fix", ".")[0] == 0
    assert (tmp_path / ".env").read_text() == "BACKEND=fa3\n"


def test_list_launches_names_the_rule_of_a_failing_gate(tmp_path, capsys):
    write_tree(tmp_path, {"g.sh": "# lint-configs: target-gpu=H100\npython -m sglang.launch_server --model-path "
                                  "deepseek-ai/DeepSeek-V3 --attention-backend trtllm_mla\n"})
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", ".")
    [t] = json.loads(out)[0]["targets"]
    assert (t["verdict"], t["check"], t["backend"], t["prefill"], t["decode"]) == (
        "refused", "SGL105", "trtllm_mla", "trtllm_mla", "trtllm_mla")
    assert t["message"].startswith("TRTLLM MLA backend is only supported on Blackwell GPUs")
    assert json.loads(out)[0]["deterministic"] is False


def test_unnamed_stdin_without_a_shebang_is_read_as_a_shell_command(tmp_path, capsys, monkeypatch):
    import io as _io

    line = ("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
            "--enable-deterministic-inference\n")
    monkeypatch.setattr("sys.stdin", _io.TextIOWrapper(_io.BytesIO(line.encode())))
    code, out, _ = run(tmp_path, capsys, "--format", "concise", "--target-gpu", "H100", "-")
    assert code == 1 and "-:1:89: error[SGL101]" in out


def test_show_files_names_why_an_undecodable_file_was_not_read(tmp_path, capsys):
    (tmp_path / "latin.sh").write_bytes(b"echo \xe9\npython3 -m sglang.launch_server --model-path m\n")
    _, out, _ = run(tmp_path, capsys, "--show-files", ".")
    assert out == "latin.sh: skipped: not read: cannot read the file: not UTF-8 text (byte 0xe9 at byte offset 5)\n"
