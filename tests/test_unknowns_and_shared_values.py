"""What is not known statically stays unknown (arguments from elsewhere, --config files, --help),
and a value shared by several launches is fixed only when the fix is right for all of them."""

from __future__ import annotations

import pytest

from tests.helpers import lint_json, run, write_tree

DSV3 = "--model-path deepseek-ai/DeepSeek-V3"


def sh(*lines: str, target: str = "H100") -> str:
    return f"#!/bin/bash\n# lint-configs: target-gpu={target}\n" + "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("line", [
    f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 $EXTRA_ARGS",
    f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 \"$@\"",
    f"python3 -m sglang.launch_server --config serve.yaml {DSV3} --attention-backend fa4",
])
def test_arguments_not_known_statically_leave_deterministic_mode_unknown(tmp_path, capsys, line):
    write_tree(tmp_path, {"serve.sh": sh(line)})
    assert lint_json(tmp_path, capsys) == (0, [])
    _, out, _ = run(tmp_path, capsys, "--explain", "serve.sh")
    assert "deterministic inference: unknown" in out and "accepted" not in out


def test_unknown_arguments_do_not_pick_a_backend_for_sglang(tmp_path, capsys):
    # With $EXTRA_ARGS the backend may be set there: no SGL103 guess about trtllm_mla on B200.
    write_tree(tmp_path, {"serve.sh": sh(f"python3 -m sglang.launch_server {DSV3} --enable-deterministic-inference "
                                         "$EXTRA_ARGS", target="B200")})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_config_file_may_hold_the_required_model_path(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": sh("python3 -m sglang.launch_server --config sgl.yaml")})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_missing_model_path_is_reported_without_a_config(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": sh("python3 -m sglang.launch_server --tp 8")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL205", 3)]


@pytest.mark.parametrize("args", ["-h", "--help", "--he", f"{DSV3} --help --attention_backend x"])
def test_help_starts_nothing(tmp_path, capsys, args):
    write_tree(tmp_path, {"serve.sh": sh(f"python3 -m sglang.launch_server {args}", "sglang serve --help")})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_abbreviated_config_is_ignored_by_sglang_and_fixed(tmp_path, capsys):
    text = sh(f"python3 -m sglang.launch_server {DSV3} --conf /etc/sgl.yaml")
    write_tree(tmp_path, {"serve.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["fix"]["applicability"]) for d in diags] == [("SGL206", "safe")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "serve.sh").read_text() == text.replace("--conf ", "--config ")


def test_repeated_option_warns_only_for_values_that_lose(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": sh("python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 4 --tp 8 "
                                         "--tp-size 8")})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["message"].split(" is overridden")[0] for d in diags] == ["--tp 4"]


def test_0_5_16_message_names_its_own_list(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": sh(f"python3 -m sglang.launch_server {DSV3} --attention-backend fa4 "
                                         "--enable-deterministic-inference", target="B200")})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", "0.5.16")
    assert [d["code"] for d in diags] == ["SGL102"]
    assert "accepts only fa3, triton:" in diags[0]["message"]


@pytest.mark.parametrize("image,codes", [("v0.5.23-cu129", ["SGL103"]), ("v0.5.23-cu130", ["SGL104"])])
def test_jetson_thor_is_sm101_before_cuda_13(tmp_path, capsys, image, codes):
    write_tree(tmp_path, {"compose.yaml": (
        f"# lint-configs: target-gpu=Jetson AGX Thor\nservices:\n  s:\n    image: lmsysorg/sglang:{image}\n"
        f"    command: python3 -m sglang.launch_server {DSV3} --enable-deterministic-inference\n")})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == codes


SHARED = ("#!/bin/bash\nBACKEND=fa4\n# lint-configs: target-gpu={a}\n"
          "srun -p a python3 -m sglang.launch_server {m} --attention-backend $BACKEND --enable-deterministic-inference\n"
          "ssh {host} \"python3 -m sglang.launch_server {m2} --attention-backend $BACKEND\"\n")


def test_a_fix_to_a_value_another_launch_uses_is_unsafe(tmp_path, capsys):
    text = ("#!/bin/bash\n# lint-configs: target-gpu=H100\nBACKEND=fa4\n"
            f"python3 -m sglang.launch_server {DSV3} --attention-backend \"$BACKEND\" --enable-deterministic-inference\n"
            "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --attention-backend \"$BACKEND\"\n")
    write_tree(tmp_path, {"serve.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"], d["fix"]["applicability"]) for d in diags] == [("SGL101", 3, "unsafe")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "serve.sh").read_text() == text


def test_conflicting_fixes_on_one_value_are_dropped(tmp_path, capsys):
    # One constant, two Modal functions: H100 wants fa3, A100 wants triton -> no fix at all.
    text = ('import subprocess\n\nimport modal\n\napp = modal.App("x")\nCMD = ["python3", "-m", "sglang.launch_server", '
            '"--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4", '
            '"--enable-deterministic-inference"]\n\n\n@app.function(gpu="H100")\ndef a():\n    subprocess.Popen(CMD)\n\n\n'
            '@app.function(gpu="A100")\ndef b():\n    subprocess.Popen(CMD)\n')
    write_tree(tmp_path, {"app.py": text})
    _, diags = lint_json(tmp_path, capsys)
    assert sorted(d["code"] for d in diags) == ["SGL101", "SGL101"]
    assert all(d["fix"] is None for d in diags)
    run(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "app.py").read_text() == text


def test_a_dotenv_value_shared_by_compose_files_on_different_gpus_gets_an_unsafe_fix(tmp_path, capsys):
    cmd = ("services:\n  s:\n    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 "
           "--attention-backend ${ATTN} --enable-deterministic-inference\n")
    write_tree(tmp_path, {".env": "ATTN=fa4\n", "compose.yaml": "# lint-configs: target-gpu=H100\n" + cmd,
                          "compose.b200.yaml": "# lint-configs: target-gpu=B200\n" + cmd})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"], d["fix"]["applicability"]) for d in diags] == [(".env", "SGL101", "unsafe")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / ".env").read_text() == "ATTN=fa4\n"


def test_a_suppression_on_one_launch_does_not_hide_another_launch_at_the_same_value(tmp_path, capsys):
    text = ("#!/bin/bash\n# lint-configs: target-gpu=H100\nB=fa4\n# lint-configs: ignore[SGL101] the canary\n"
            f"python3 -m sglang.launch_server {DSV3} --attention-backend $B --enable-deterministic-inference --port 1\n"
            f"python3 -m sglang.launch_server {DSV3} --attention-backend $B --enable-deterministic-inference --port 2\n")
    write_tree(tmp_path, {"serve.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL101", 3)]


def test_fix_writes_through_a_symlink(tmp_path, capsys):
    from tests.helpers import FOLDED_H100

    write_tree(tmp_path, {"real/compose.yaml": FOLDED_H100})
    (tmp_path / "compose.yaml").symlink_to("real/compose.yaml")
    run(tmp_path, capsys, "--fix", "compose.yaml")
    assert (tmp_path / "compose.yaml").is_symlink()
    assert "--attention-backend fa3" in (tmp_path / "real/compose.yaml").read_text()


def test_one_edit_for_two_launches_is_unsafe_if_unsafe_for_either(tmp_path, capsys):
    text = ('import subprocess\n\nimport modal\n\napp = modal.App("x")\nBACKEND = "fa4"\n\n\n'
            '@app.function(gpu="A100")\ndef a():\n    subprocess.run(["python3", "-m", "sglang.launch_server", '
            '"--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", BACKEND, '
            '"--enable-deterministic-inference"])\n\n\n@app.function(gpu=["H100", "B200"])\ndef b():\n'
            '    subprocess.run(["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", '
            '"--attention-backend", BACKEND, "--enable-deterministic-inference"])\n')
    write_tree(tmp_path, {"serve.py": text})
    _, diags = lint_json(tmp_path, capsys)
    diags = [d for d in diags if d["code"] != "SGL403"]  # one GPU each: the weights do not fit either
    assert [(d["line"], d["fix"]["applicability"]) for d in diags] == [(6, "unsafe"), (6, "unsafe")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "serve.py").read_text() == text
