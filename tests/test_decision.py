"""SGLang's start-up decision (errors A, B, C) reproduced row by row from the outcome matrix of
sglang-semantics.md §1.2: each model class × GPU class × attention backend."""

from __future__ import annotations

import pytest

from linter.launch import UNKNOWN, KwArg, MStr, Token
from linter.sglang.decision import Hardware, deterministic, evaluate
from linter.sglang.entrypoints import LAUNCH_SERVER
from linter.sglang.options import load_table, parse_args, settings_from_kwargs

SM90 = Hardware("H100", True, 9)
SM100 = Hardware("B200", True, 10)
SM103 = Hardware("B300", True, 10)
SM110 = Hardware("Thor", True, 11)
SM120 = Hardware("RTX PRO 6000", True, 12)
SM121 = Hardware("GB10", True, 12)
SM80 = Hardware("A100", True, 8)
SM89 = Hardware("L40S", True, 8)
ROCM = Hardware("MI300X", False, None)
GPUS = {"SM90": SM90, "SM100": SM100, "SM103": SM103, "SM110": SM110, "SM120": SM120, "SM121": SM121,
        "SM80": SM80, "SM89": SM89, "ROCm": ROCM}

V3 = ("DeepseekV3ForCausalLM", False)
DSA = ("DeepseekV32ForCausalLM", True)
GLM_DSA = ("GlmMoeDsaForCausalLM", True)
V2 = ("DeepseekV2ForCausalLM", False)
GLM_FLASH = ("Glm4MoeLiteForCausalLM", False)
MISTRAL = ("MistralLarge3ForCausalLM", False)
QWEN = ("Qwen3ForCausalLM", False)
KIMI25 = ("KimiK25ForConditionalGeneration", False)


def tokens(line: str) -> list[Token]:
    return [Token(MStr.plain(w)) for w in ("--model-path m " + line).split()]


def outcome(args: str, arch, gpu: Hardware, version: str = "0.5.23"):
    table = load_table(version)
    parsed = parse_args(table, tokens(args + " --enable-deterministic-inference"), LAUNCH_SERVER)
    o = evaluate(parsed, table, arch[0], arch[1], gpu)
    return (o.error, o.backend)


# (backend flag, architecture, {gpu class: (error, backend the check sees)})
MATRIX = [
    ("", V3, {"SM90": (None, "fa3"), "SM100": ("A", "trtllm_mla"), "SM103": ("A", "trtllm_mla"),
              "SM110": (None, "fa3"), "SM120": (None, "triton"), "SM121": (None, "triton"),
              "SM80": (None, "fa3"), "SM89": (None, "fa3"), "ROCm": (None, "fa3")}),
    ("", DSA, {g: ("A", "dsa") for g in GPUS}),
    ("", GLM_DSA, {g: ("A", "dsa") for g in GPUS}),
    ("", V2, {"SM90": (None, "fa3"), "SM100": (None, "triton"), "SM110": (None, "fa3"), "SM120": (None, "triton"),
              "SM80": (None, "fa3"), "ROCm": (None, "fa3")}),
    ("", GLM_FLASH, {"SM90": (None, "fa3"), "SM100": (None, "triton"), "SM120": (None, "triton")}),
    ("", MISTRAL, {"SM90": (None, "fa3"), "SM100": ("A", "trtllm_mla"), "SM120": (None, "triton")}),
    ("", QWEN, {"SM90": (None, "fa3"), "SM100": (None, "flashinfer"), "SM120": (None, "flashinfer"),
                "SM110": (None, "fa3")}),
    ("", KIMI25, {"SM100": ("A", "trtllm_mla"), "SM90": (None, "fa3")}),
    ("--attention-backend fa4", V3, {"SM90": ("C", "fa4"), "SM100": (None, "fa4"), "SM103": (None, "fa4"),
                                     "SM110": (None, "fa4"), "SM120": ("C", "fa4"), "SM121": ("C", "fa4"),
                                     "SM80": ("C", "fa4"), "SM89": ("C", "fa4"), "ROCm": ("C", "fa4")}),
    ("--attention-backend fa4", GLM_FLASH, {"SM90": ("C", "fa4"), "SM100": (None, "fa4"), "SM120": ("C", "fa4")}),
    ("--attention-backend fa4", DSA, {"SM90": ("C", "fa4"), "SM110": (None, "fa4")}),
    ("--attention-backend fa4", QWEN, {g: (None, "fa4") for g in GPUS}),
    ("--attention-backend fa4", KIMI25, {"SM90": (None, "fa4")}),
    ("--attention-backend fa3", V3, {g: (None, "fa3") for g in GPUS}),
    ("--attention-backend triton", V3, {g: (None, "triton") for g in GPUS}),
    ("--attention-backend ascend", V3, {g: (None, "ascend") for g in GPUS}),
    ("--attention-backend flashinfer", V3, {g: ("B", "flashinfer") for g in GPUS}),
    ("--attention-backend flashinfer", QWEN, {g: (None, "flashinfer") for g in GPUS}),
    ("--attention-backend intel_xpu", V3, {g: ("B", "intel_xpu") for g in GPUS}),
    ("--attention-backend trtllm_mla", V3, {g: ("A", "trtllm_mla") for g in GPUS}),
    ("--attention-backend flashmla", V3, {g: ("A", "flashmla") for g in GPUS}),
    ("--attention-backend dsa", DSA, {g: ("A", "dsa") for g in GPUS}),
    ("--attention-backend torch_native", QWEN, {g: ("A", "torch_native") for g in GPUS}),
    # The split backends are not consulted, but they disable the model-family declaration.
    ("--prefill-attention-backend fa4 --decode-attention-backend fa4", V3,
     {"SM90": (None, "fa3"), "SM100": (None, "triton")}),
    ("--attention-backend fa4 --prefill-attention-backend triton --decode-attention-backend triton", V3,
     {"SM90": ("C", "fa4")}),
    ("--decode-attention-backend flashinfer", DSA, {"SM90": (None, "fa3")}),
]


@pytest.mark.parametrize("args,arch,expected", MATRIX, ids=[f"{a or 'unset'}-{m[0]}" for a, m, _ in MATRIX])
def test_outcome_matrix(args, arch, expected):
    for gpu, want in expected.items():
        assert outcome(args, arch, GPUS[gpu]) == want, gpu


def test_intel_xpu_is_error_a_on_0_5_18():
    # 0.5.18's deterministic list lacks intel_xpu, so the first error is A, not B.
    assert outcome("--attention-backend intel_xpu", V3, SM90, "0.5.18") == ("A", "intel_xpu")


def test_torch_cuda_build_older_than_12_8_fails_error_c_on_b200():
    assert outcome("--attention-backend fa4", V3, Hardware("B200", True, 10, (12, 6))) == ("C", "fa4")
    assert outcome("--attention-backend fa4", V3, Hardware("B200", True, 10, (12, 8))) == (None, "fa4")
    assert outcome("--attention-backend fa4", V3, Hardware("B200", True, 10, (13, 0))) == (None, "fa4")


def test_error_c_wording_follows_the_release():
    table = load_table("0.5.17")
    parsed = parse_args(table, tokens("--attention-backend fa4 --enable-deterministic-inference"), LAUNCH_SERVER)
    o = evaluate(parsed, table, "DeepseekV3ForCausalLM", False, SM90)
    assert o.error == "C"
    assert o.message.startswith("Deterministic inference with DeepSeek models on the fa4 attention backend")
    table = load_table("0.5.18")
    o = evaluate(parse_args(table, tokens("--attention-backend fa4 --enable-deterministic-inference"),
                            LAUNCH_SERVER), table, "DeepseekV3ForCausalLM", False, SM90)
    assert o.message == ("Deterministic inference with absorbed-MLA models on the fa4 attention backend requires "
                         "SM100/SM110: it runs absorbed MLA, whose qv argument flash_attn.cute only implements on "
                         "those archs.")


def test_error_a_message_renders_the_list_with_python_repr():
    table = load_table("0.5.18")
    parsed = parse_args(table, tokens("--enable-deterministic-inference"), LAUNCH_SERVER)
    o = evaluate(parsed, table, "DeepseekV3ForCausalLM", False, SM100)
    assert o.message == ("Currently only ['ascend', 'fa3', 'fa4', 'flashinfer', 'triton'] attention backends are "
                         "supported for deterministic inference, but you explicitly specified 'trtllm_mla'.")


def test_glm5_next_is_absorbed_mla_from_0_5_20():
    arch = ("Glm5NextForConditionalGeneration", False)
    assert outcome("--attention-backend fa4", arch, SM90, "0.5.20") == ("C", "fa4")
    assert outcome("--attention-backend fa4", arch, SM90, "0.5.19") == (None, "fa4")


@pytest.mark.parametrize("args,expected", [
    ("--enable-deterministic-inference", True),
    ("--enable-deterministic", True),  # a unique prefix
    ("--rl-on-policy-target fsdp", True),
    ("--rl-on-policy-target=fsdp", True),
    ("--attention-backend fa4", False),
    ("", False),
])
def test_what_turns_deterministic_inference_on_in_the_cli(args, expected):
    parsed = parse_args(load_table("0.5.23"), tokens(args), LAUNCH_SERVER)
    assert deterministic(parsed)[0] is expected


def _kw(name, value):
    from linter.source import SourceFile, Span
    from pathlib import Path

    src = SourceFile(Path("/x.py"), "x.py", "x")
    return KwArg(name, value, Span(src, 0, 1))


@pytest.mark.parametrize("kwargs,expected", [
    ({"enable_deterministic_inference": True}, True),
    ({"enable_deterministic_inference": "false"}, True),  # truthiness, as SGLang's own check
    ({"enable_deterministic_inference": 1}, True),
    ({"enable_deterministic_inference": False}, False),
    ({"enable_deterministic_inference": 0}, False),
    ({"enable_deterministic_inference": UNKNOWN}, UNKNOWN),
    ({"rl_on_policy_target": "fsdp"}, True),
    ({"rl_on_policy_target": "anything"}, True),  # the dataclass path has no choices check
    ({"rl_on_policy_target": None}, False),
    ({"rl_on_policy_target": UNKNOWN}, UNKNOWN),
])
def test_what_turns_deterministic_inference_on_in_python(kwargs, expected):
    parsed = settings_from_kwargs(load_table("0.5.23"), [_kw(k, v) for k, v in kwargs.items()])
    assert deterministic(parsed)[0] is expected


def test_unknown_backend_value_gives_no_outcome():
    from linter.launch import UNKNOWN_CHAR

    table = load_table("0.5.23")
    words = tokens("--enable-deterministic-inference --attention-backend") + [Token(MStr.plain(UNKNOWN_CHAR))]
    parsed = parse_args(table, words, LAUNCH_SERVER)
    assert evaluate(parsed, table, "DeepseekV3ForCausalLM", False, SM90) is None


def test_0_5_16_rejects_fa4_for_deepseek_with_error_b_on_every_gpu():
    for gpu in GPUS.values():
        assert outcome("--attention-backend fa4", V3, gpu, "0.5.16") == ("B", "fa4")
    table = load_table("0.5.16")
    parsed = parse_args(table, tokens("--attention-backend fa4 --enable-deterministic-inference"), LAUNCH_SERVER)
    o = evaluate(parsed, table, "DeepseekV3ForCausalLM", False, SM100)
    assert o.message == ("Currently only ['fa3', 'triton'] attention backends are supported for deterministic "
                         "inference with DeepSeek models. But you're using fa4.")
