"""Backends SGLang picks itself and the hardware gates (SGL103 implicit, SGL104–SGL112), per target."""

from __future__ import annotations

import pytest

from tests.helpers import lint_json, run, write_tree


def compose(args: str, targets: str | None, image: str = "lmsysorg/sglang:latest") -> str:
    head = f"# lint-configs: target-gpu={targets}\n" if targets else ""
    return f"{head}services:\n  s:\n    image: {image}\n    command: >\n      python3 -m sglang.launch_server {args}\n"


@pytest.mark.parametrize("gpu", ["H100", "B200", "B300", "Jetson AGX Thor", "RTX PRO 6000 Blackwell", "A100",
                                 "L40S", "MI300X"])
def test_deepseek_v32_deterministic_without_backend_is_sgl103_on_every_gpu(tmp_path, capsys, gpu):
    write_tree(tmp_path, {"compose.yaml": compose("--model-path deepseek-ai/DeepSeek-V3.2 "
                                                  "--enable-deterministic-inference", gpu)})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL103"]
    assert "'dsa'" in diags[0]["message"] and diags[0]["fix"] is None
    assert diags[0]["line"] == 6  # the option that turned deterministic inference on


@pytest.mark.parametrize("gpu,codes", [
    ("B200", ["SGL103"]),   # SGLang picks trtllm_mla on SM100, then rejects it (error A)
    ("B300", ["SGL103"]),
    ("H100", []),   # fa3 fill, fine on Hopper
    ("A100", ["SGL104"]),   # fa3 fill asserts for MLA off SM90 at load
    ("Jetson AGX Thor", ["SGL104"]),
    ("RTX 5090", []),  # triton fill on SM120
])
def test_deepseek_v3_deterministic_without_backend(tmp_path, capsys, gpu, codes):
    write_tree(tmp_path, {"compose.yaml": compose("--model-path deepseek-ai/DeepSeek-V3 --tp 8 "
                                                  "--enable-deterministic-inference", gpu)})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == codes


def test_same_launch_resolves_differently_per_target(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": compose("--model-path deepseek-ai/DeepSeek-V3 "
                                                  "--enable-deterministic-inference", "H100, B200, A100")})
    _, diags = lint_json(tmp_path, capsys)
    assert sorted(d["code"] for d in diags) == ["SGL103", "SGL104"]
    by_code = {d["code"]: d["message"] for d in diags}
    assert "B200" in by_code["SGL103"] and "A100" in by_code["SGL104"] and "H100" not in by_code["SGL104"]


def test_implicit_trtllm_mla_fix_adds_a_backend(tmp_path, capsys):
    text = compose("--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference", "B200")
    write_tree(tmp_path, {"compose.yaml": text})
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "compose.yaml").read_text() == text  # unsafe: plain --fix leaves it
    run(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "compose.yaml").read_text() == text.replace(
        "--enable-deterministic-inference", "--enable-deterministic-inference --attention-backend triton")
    assert lint_json(tmp_path, capsys) == (0, [])


@pytest.mark.parametrize("args,gpu,code", [
    ("--model-path Qwen/Qwen3-8B --attention-backend fa3", "B200", "SGL104"),
    ("--model-path moonshotai/Kimi-K2.5 --attention-backend fa3", "A100", "SGL104"),  # wider MLA list
    ("--model-path deepseek-ai/DeepSeek-V3 --attention-backend trtllm_mla", "H100", "SGL105"),
    ("--model-path deepseek-ai/DeepSeek-V3 --decode-attention-backend trtllm_mla", "A100", "SGL105"),
    # 0.5.23: tokenspeed_mla is renamed cutedsl_mla first, so the SM100-only check applies
    ("--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla --kv-cache-dtype fp8_e4m3", "H200",
     "SGL107"),
    ("--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla", "RTX PRO 6000 Blackwell", "SGL107"),
    ("--model-path openai/gpt-oss-120b --attention-backend flashinfer", "H100", "SGL112"),
    ("--model-path Qwen/Qwen3-8B --attention-backend trtllm_mha --kv-cache-dtype fp8_e4m3", "RTX PRO 6000 Blackwell",
     "SGL108"),
    ("--model-path deepseek-ai/DeepSeek-V3 --prefill-attention-backend cutedsl_mla", "B200", "SGL107"),
    ("--model-path deepseek-ai/DeepSeek-V3 --attention-backend cutedsl_mla", "RTX PRO 6000 Blackwell", "SGL107"),
    ("--model-path Qwen/Qwen3-8B --prefill-attention-backend trtllm_mha", "A100", "SGL108"),
    ("--model-path Qwen/Qwen3-8B --kv-cache-dtype mxfp8", "H100", "SGL109"),
    ("--model-path Qwen/Qwen3-8B --kv-cache-dtype nvfp4", "L40S", "SGL109"),
    ("--model-path Qwen/Qwen3-8B --quantization nvfp4_online", "GB10", "SGL110"),
    ("--model-path deepseek-ai/DeepSeek-V4-Flash --enable-deepseek-v4-fp4-indexer", "H100", "SGL111"),
])
def test_gates(tmp_path, capsys, args, gpu, code):
    write_tree(tmp_path, {"compose.yaml": compose(args, gpu)})
    _, diags = lint_json(tmp_path, capsys)
    # (0.5.23's tokenspeed_mla is a deprecated alias: SGL211 warns about it too, see test_successors.py)
    assert [d["code"] for d in diags if d["code"] != "SGL211"] == [code]
    assert "runs on" in diags[0]["message"]


def test_tokenspeed_mla_is_its_own_backend_until_0_5_22(tmp_path, capsys):
    args = "--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla --kv-cache-dtype fp8_e4m3"
    write_tree(tmp_path, {"a/compose.yaml": compose(args, "RTX PRO 6000 Blackwell", "lmsysorg/sglang:v0.5.22-cu129"),
                          "b/compose.yaml": compose(args, "RTX PRO 6000 Blackwell", "lmsysorg/sglang:v0.5.23-cu129")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == [("b/compose.yaml", "SGL107"), ("b/compose.yaml", "SGL211")]


def test_trtllm_mha_sm120_fp8_check_from_0_5_19(tmp_path, capsys):
    args = "--model-path Qwen/Qwen3-8B --attention-backend trtllm_mha --kv-cache-dtype fp8_e4m3"
    write_tree(tmp_path, {"a/compose.yaml": compose(args, "RTX PRO 6000 Blackwell", "lmsysorg/sglang:v0.5.19-cu129"),
                          "b/compose.yaml": compose(args, "RTX PRO 6000 Blackwell", "lmsysorg/sglang:v0.5.18-cu129")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == [("a/compose.yaml", "SGL108"), ("b/compose.yaml", "SGL108")]
    assert "FMHAv2" in diags[0]["message"] + " ".join(diags[0].get("notes", []))
    assert "only supported on Blackwell" in " ".join(diags[1].get("notes", [])) + diags[1]["message"]


def test_trtllm_mha_prefill_gate_follows_the_release(tmp_path, capsys):
    args = "--model-path Qwen/Qwen3-8B --prefill-attention-backend trtllm_mha"
    write_tree(tmp_path, {"a/compose.yaml": compose(args, "H100", "lmsysorg/sglang:v0.5.18-cu129"),
                          "b/compose.yaml": compose(args, "H100", "lmsysorg/sglang:v0.5.23-cu129")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"]) for d in diags] == [("a/compose.yaml", "SGL108")]


def test_gates_are_reported_only_for_declared_targets(tmp_path, capsys):
    write_tree(tmp_path, {"compose.yaml": compose("--model-path Qwen/Qwen3-8B --attention-backend fa3", None)})
    assert lint_json(tmp_path, capsys) == (0, [])


def test_startup_error_and_independent_gate_together(tmp_path, capsys):
    # fa4 + deterministic + DeepSeek on A100 fails error C at start-up; the mxfp8 KV cache fails on
    # its own (issue 11: every failure at once). No backend gate: error C is about that backend.
    write_tree(tmp_path, {"compose.yaml": compose("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
                                                  "--enable-deterministic-inference --kv-cache-dtype mxfp8", "A100")})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL101", "SGL109"]


def test_no_insertion_fix_into_a_list_item(tmp_path, capsys):
    text = ("# lint-configs: target-gpu=B200\nservices:\n  s:\n    command: [\"python3\", \"-m\", \"sglang.launch_server\", "
            "\"--model-path\", \"deepseek-ai/DeepSeek-V3\", \"--enable-deterministic-inference\"]\n")
    write_tree(tmp_path, {"compose.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["fix"]) for d in diags] == [("SGL103", None)]


def test_no_insertion_fix_into_a_block_list_item(tmp_path, capsys):
    text = ("# lint-configs: target-gpu=B200\nservices:\n  c:\n    command:\n      - python3\n      - -m\n"
            "      - sglang.launch_server\n      - --model-path=moonshotai/Kimi-K2.5\n      - --enable-deterministic-inference\n")
    write_tree(tmp_path, {"compose.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["fix"]) for d in diags] == [("SGL103", None)]


def test_insertion_fix_after_an_unquoted_shell_word_only(tmp_path, capsys):
    text = ("#!/bin/bash\n# lint-configs: target-gpu=B200\npython3 -m sglang.launch_server --model-path "
            "deepseek-ai/DeepSeek-V3 --enable-deterministic-inference --port 1\npython3 -m sglang.launch_server "
            "--model-path deepseek-ai/DeepSeek-V3 \"--enable-deterministic-inference\" --port 2\n")
    write_tree(tmp_path, {"serve.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["line"], d["fix"] is not None) for d in diags] == [(3, True), (4, False)]


@pytest.mark.parametrize("given, other", [("decode", "prefill"), ("prefill", "decode")])
def test_gpt_oss_one_split_backend_outside_its_list_is_fixed_in_both_phases(tmp_path, capsys, given, other):
    script = ("# lint-configs: target-gpu=H100\npython -m sglang.launch_server --model-path openai/gpt-oss-120b "
              f"--{given}-attention-backend flashinfer --tp 8\n")
    write_tree(tmp_path, {"run.sh": script})
    _, [d] = lint_json(tmp_path, capsys)
    assert d["code"] == "SGL112" and d["fix"]["applicability"] == "safe"
    assert d["message"].startswith(f"--{given}-attention-backend flashinfer is not one gpt-oss runs, and "
                                   f"--{other}-attention-backend is missing")
    run(tmp_path, capsys, "--fix", "run.sh")
    assert (tmp_path / "run.sh").read_text() == script.replace(
        "flashinfer", f"triton --{other}-attention-backend triton")
    _, after = lint_json(tmp_path, capsys)
    assert after == []


def test_a_gpu_declared_twice_is_named_once(tmp_path, capsys):
    task = ("# lint-configs: target-gpu=H100\ntype: task\nimage: lmsysorg/sglang:v0.5.20\ncommands:\n"
            "  - python -m sglang.launch_server --model-path Qwen/Qwen3-8B --kv-cache-dtype nvfp4\n"
            "resources:\n  gpu: H100:8\n")
    write_tree(tmp_path, {".dstack.yml": task})
    _, [d] = lint_json(tmp_path, capsys)
    assert d["code"] == "SGL109" and "does not run on H100 (SM90): SGLang" in d["message"]
