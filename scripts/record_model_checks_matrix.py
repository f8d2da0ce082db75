#!/usr/bin/env python3
"""Record the model-specific start-up matrix of issue 20 with the shared oracle (SGLang's own resolution).

Usage (the oracle never runs in tests or CI; its answers are kept as a fixture)::

    python scripts/record_model_checks_matrix.py --oracle /work/shared/oracle \\
        --venv 0.5.23=/tmp/sgl-oracle-venv --venv 0.5.22=/tmp/sgl-oracle-venv-0.5.22 \\
        > tests/fixtures/model_checks_matrix.jsonl

Each case is one launch on one fake GPU (compute capability ``cc``) with a synthetic checkpoint of
``arch`` (``model_type``/``config_overrides`` as the oracle takes them). ``config`` is what
lint-configs reads for the same checkpoint (a local ``config.json``): the architecture, and the keys
SGLang's checks look at (``index_topk`` for DSA models, ``text_config.kv_lora_rank`` for an MLA
Pixtral). The shapes cover issue 20: gpt-oss's whitelist and default backend, the tokenspeed_mla alias,
the DeepSeek-family override and DSA lists, the deterministic fill list apart from the check list,
trtllm_mha prefill on SM120 with an fp8_e4m3 KV cache, Pixtral with kv_lora_rank, and parser errors.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path


def cases() -> list[dict]:
    """The matrix: one dict per (shape, GPU)."""
    CCS = ["8.0", "9.0", "10.0", "11.0", "12.0"]
    cases = []

    def add(id, arch, args, ccs=CCS, **kw):
        for cc in ccs:
            c = {"id": f"{id}@{cc}", "cc": cc, "arch": arch, "args": args}
            c.update(kw)
            cases.append(c)

    OSS = "GptOssForCausalLM"
    DET = ["--enable-deterministic-inference"]
    # 1. gpt-oss whitelist (model_hook.py handle_model_specific_adjustments)
    add("gptoss-default", OSS, [])
    add("gptoss-det", OSS, DET)
    add("gptoss-rl", OSS, ["--rl-on-policy-target", "fsdp"], ccs=["10.0", "11.0"])
    for b in ["flashinfer", "triton", "fa3", "trtllm_mha", "flashmla"]:
        add(f"gptoss-{b}", OSS, ["--attention-backend", b], ccs=["8.0", "9.0", "10.0"])
    add("gptoss-flashinfer-det", OSS, ["--attention-backend", "flashinfer", *DET], ccs=["9.0", "10.0"])
    add("gptoss-prefill-only", OSS, ["--prefill-attention-backend", "triton"], ccs=["9.0", "10.0"])
    add("gptoss-decode-only", OSS, ["--decode-attention-backend", "fa3"], ccs=["9.0"])
    add(
        "gptoss-split-same",
        OSS,
        ["--prefill-attention-backend", "triton", "--decode-attention-backend", "triton"],
        ccs=["9.0", "10.0"],
    )
    add(
        "gptoss-split-diff",
        OSS,
        ["--prefill-attention-backend", "triton", "--decode-attention-backend", "flashinfer"],
        ccs=["9.0"],
    )
    add(
        "gptoss-attn-plus-prefill",
        OSS,
        ["--attention-backend", "triton", "--prefill-attention-backend", "flashinfer"],
        ccs=["9.0"],
    )
    # 3. tokenspeed_mla alias (choices.py, serving_hook.py)
    DS = "DeepseekV3ForCausalLM"
    add("tokenspeed", DS, ["--attention-backend", "tokenspeed_mla"], ccs=["9.0", "10.0", "12.0"])
    add(
        "tokenspeed-fp8",
        DS,
        ["--attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "fp8_e4m3"],
        ccs=["9.0", "10.0", "12.0"],
    )
    add(
        "tokenspeed-decode",
        DS,
        ["--decode-attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "fp8_e4m3"],
        ccs=["10.0", "12.0"],
    )
    add(
        "tokenspeed-prefill",
        DS,
        ["--prefill-attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "fp8_e4m3"],
        ccs=["10.0"],
    )
    add(
        "tokenspeed-det",
        DS,
        ["--attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "fp8_e4m3", *DET],
        ccs=["10.0"],
    )
    # 4./5. DeepSeek-family override list and the two lists (overrides.py)
    G5 = "Glm5NextForConditionalGeneration"
    g5 = {"model_type": "glm_moe_dsa"}
    add("glm5next-default", G5, [], ccs=["8.0", "9.0", "10.0", "12.0"], **g5)
    add("glm5next-det", G5, DET, ccs=["9.0", "10.0"], **g5)
    add(
        "glm5next-split-det",
        G5,
        ["--prefill-attention-backend", "triton", "--decode-attention-backend", "fa3", *DET],
        ccs=["9.0", "10.0", "11.0", "12.0"],
        **g5,
    )
    add("glm5next-triton-det", G5, ["--attention-backend", "triton", *DET], ccs=["10.0"], **g5)
    add(
        "dsv3-split-det",
        DS,
        ["--prefill-attention-backend", "triton", "--decode-attention-backend", "fa3", *DET],
        ccs=["9.0", "10.0", "12.0"],
    )
    add(
        "glm4lite-split-det",
        "Glm4MoeLiteForCausalLM",
        ["--prefill-attention-backend", "triton", "--decode-attention-backend", "fa3", *DET],
        ccs=["10.0", "12.0"],
    )
    add("dsv32-default", "DeepseekV32ForCausalLM", [], ccs=["9.0", "10.0"])
    add("dsv3-default", DS, [], ccs=["9.0", "10.0"])
    # 6. trtllm_mha prefill on SM120 with fp8_e4m3 (attention_hook.py)
    Q = "Qwen3MoeForCausalLM"
    add("trtllm_mha", Q, ["--attention-backend", "trtllm_mha"], ccs=["8.0", "9.0", "10.0", "12.0"])
    add(
        "trtllm_mha-fp8",
        Q,
        ["--attention-backend", "trtllm_mha", "--kv-cache-dtype", "fp8_e4m3"],
        ccs=["9.0", "10.0", "12.0"],
    )
    add(
        "trtllm_mha-prefill-fp8",
        Q,
        ["--prefill-attention-backend", "trtllm_mha", "--kv-cache-dtype", "fp8_e4m3"],
        ccs=["12.0"],
    )
    add(
        "trtllm_mha-decode-fp8",
        Q,
        ["--decode-attention-backend", "trtllm_mha", "--kv-cache-dtype", "fp8_e4m3"],
        ccs=["12.0"],
    )
    add(
        "gptoss-trtllm_mha-fp8",
        OSS,
        ["--attention-backend", "trtllm_mha", "--kv-cache-dtype", "fp8_e4m3"],
        ccs=["12.0"],
    )
    # 7. load-time fa3: Pixtral with kv_lora_rank is MLA; what backend SGLang resolves
    PX = "PixtralForConditionalGeneration"
    add(
        "pixtral-mla-default",
        PX,
        [],
        ccs=["8.0", "9.0"],
        model_type="llava",
        config_overrides={"text_config": {"model_type": "deepseek_v3", "kv_lora_rank": 512}},
    )
    add(
        "pixtral-mla-fa3",
        PX,
        ["--attention-backend", "fa3"],
        ccs=["8.0"],
        model_type="llava",
        config_overrides={"text_config": {"model_type": "deepseek_v3", "kv_lora_rank": 512}},
    )
    add("llama-fa3", "LlamaForCausalLM", ["--attention-backend", "fa3"], ccs=["8.0", "11.0"])
    # 8. after a parser error nothing else runs
    add("FA4-det", DS, ["--attention-backend", "FA4", *DET], ccs=["9.0"])
    add("cutlass_mla-det", DS, ["--attention-backend", "cutlass_mla", *DET], ccs=["9.0"])
    add("rl-invalid", DS, ["--attention-backend", "flashinfer", "--rl-on-policy-target", "megatron"], ccs=["9.0"])
    add("ambiguous", DS, ["--attention", "fa4", *DET], ccs=["9.0"])
    add("valueless", DS, [*DET, "--attention-backend"], ccs=["9.0"])
    add("gptoss-invalid-choice", OSS, ["--attention-backend", "Triton"], ccs=["10.0"])
    for c in cases:
        mp = {
            "GptOssForCausalLM": "openai/gpt-oss-120b",
            G5: "zai-org/GLM-5-Next",
            DS: "deepseek-ai/DeepSeek-V3",
            Q: "Qwen/Qwen3-30B-A3B",
            PX: "mistralai/Pixtral-MLA",
            "LlamaForCausalLM": "meta-llama/Llama-3.1-8B",
            "Glm4MoeLiteForCausalLM": "zai-org/GLM-4.7-Flash",
            "DeepseekV32ForCausalLM": "deepseek-ai/DeepSeek-V3.2",
        }[c["arch"]]
        c["args"] = ["--model-path", mp, *c["args"]]
    for c in cases:
        c["config"] = {"architectures": [c["arch"]], **CONFIG_EXTRA.get(c["arch"], {})}
    return cases


CONFIG_EXTRA = {
    "Glm5NextForConditionalGeneration": {"index_topk": 2048},
    "DeepseekV32ForCausalLM": {"index_topk": 2048},
    "PixtralForConditionalGeneration": {"text_config": {"kv_lora_rank": 512}},
}
KEEP = (
    "ok",
    "error_type",
    "error",
    "raised_at",
    "attention_backend",
    "prefill_attention_backend",
    "decode_attention_backend",
    "hf_architectures",
)


def run(oracle: Path, python: str, batch: list[dict]) -> list[dict]:
    """The oracle's answers for ``batch`` (in order), run in a clean environment."""
    payload = "\n".join(json.dumps({k: v for k, v in c.items() if k != "config"}) for c in batch) + "\n"
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("TMPDIR", "/tmp")}
    out = subprocess.run(
        [python, str(oracle / "oracle.py"), "--batch", "--jobs", "2"],
        input=payload,
        capture_output=True,
        text=True,
        env=env,
        cwd=str(oracle),
        check=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle", type=Path, required=True, help="the folder that holds oracle.py")
    ap.add_argument("--venv", action="append", required=True, metavar="VERSION=PATH")
    args = ap.parse_args(argv)
    batch = cases()
    for spec in args.venv:
        version, venv = spec.split("=", 1)
        answers = run(args.oracle, f"{venv}/bin/python", batch)
        for c, a in zip(batch, answers):
            assert a.get("id") == c["id"], (a, c["id"])
            row = {
                "id": c["id"],
                "sglang": version,
                "cc": c["cc"],
                "arch": c["arch"],
                "args": c["args"],
                "config": c["config"],
                "oracle": {k: a.get(k) for k in KEEP},
            }
            sys.stdout.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
