"""Point 3 of issue 11: every independent failure of a launch in one run, and no derived noise.

SGLang stops at its first error. The linter reports each failure that fixing another would not
remove (deterministic checks, hardware gates, option errors), and a value argparse already rejects
is judged by the parser rule only (ParsedArgs.rejected).
"""

from __future__ import annotations

import pytest

from linter.launch import MStr, Token
from linter.sglang.options import load_table, parse_args
from tests.helpers import lint_json, write_tree

DSV3 = "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3"


def _codes(tmp_path, capsys, args: str, gpu: str = "A100", version: str = "0.5.23") -> list[str]:
    write_tree(tmp_path, {"serve.sh": f"#!/bin/bash\n# lint-configs: target-gpu={gpu}\n{DSV3} {args}\n"})
    _, diags = lint_json(tmp_path, capsys, "--sglang-version", version)
    return sorted(d["code"] for d in diags)


@pytest.mark.parametrize("args,gpu,codes", [
    # deterministic check + an option gate on the same line
    ("--attention-backend flashinfer --enable-deterministic-inference --kv-cache-dtype mxfp8", "A100",
     ["SGL102", "SGL109"]),
    # a backend gate + an option gate
    ("--attention-backend trtllm_mla --kv-cache-dtype mxfp8", "A100", ["SGL105", "SGL109"]),
    # two option gates
    ("--kv-cache-dtype nvfp4 --quantization nvfp4_online", "H100", ["SGL109", "SGL110"]),
    # the fa3 assert at load and an option gate
    ("--attention-backend fa3 --kv-cache-dtype mxfp8", "A100", ["SGL104", "SGL109"]),
    # an option error and an independent gate
    ("--kv-cache-dtype mxfp8 --tp", "A100", ["SGL109", "SGL205"]),
])
def test_every_independent_failure_at_once(tmp_path, capsys, args, gpu, codes):
    assert _codes(tmp_path, capsys, args, gpu) == codes


@pytest.mark.parametrize("args,codes", [
    ("--attention-backend cutlass_mla --enable-deterministic-inference", ["SGL203"]),   # not a 0.5.23 choice
    ("--attention-backend FA4 --enable-deterministic-inference", ["SGL203"]),
    ("--attention-backend fa4 --rl-on-policy-target bogus", ["SGL203"]),
    ("--attention fa4 --enable-deterministic-inference", ["SGL202"]),                    # ambiguous
    ("--enable-deterministic-inference --attention-backend", ["SGL205"]),                # valueless
    ("--attention-backend FA3", ["SGL203"]),                                             # no fa3 gate on A100
    ("--kv-cache-dtype MXFP8", ["SGL203"]),                                              # no kv gate
])
def test_a_rejected_value_is_not_judged_again(tmp_path, capsys, args, codes):
    assert _codes(tmp_path, capsys, args) == codes


def test_cutlass_mla_on_0_5_19_is_still_judged(tmp_path, capsys):
    # A valid choice in 0.5.19 (its table lists it): the deterministic check applies.
    assert "cutlass_mla" in load_table("0.5.19").by_dest["attention_backend"].choices
    assert _codes(tmp_path, capsys, "--attention-backend cutlass_mla --enable-deterministic-inference",
                  version="0.5.19") == ["SGL103"]


@pytest.mark.parametrize("line,rejected", [
    ("--attention-backend cutlass_mla", {"attention_backend"}),
    ("--rl-on-policy-target bogus", {"rl_on_policy_target"}),
    ("--attention fa3", {"attention_backend", "attn_cp_size", "attn_dp_size"}),
    ("--tp", {"tp_size"}),
    ("--enable-deterministic-inference=1", {"enable_deterministic_inference"}),
    ("--attention-backend fa4 --tp 8", set()),
])
def test_parsed_args_marks_rejected_settings(line, rejected):
    words = ["--model-path", "m", *line.split()]
    parsed = parse_args(load_table("0.5.23"), [Token(MStr.plain(w)) for w in words])
    assert parsed.rejected == rejected
    assert parsed.judged("model_path")
