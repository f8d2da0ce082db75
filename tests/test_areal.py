"""AReaL configs: the sglang: section is the rollout servers' ServerArgs, with AReaL's own defaults
(attention_backend fa3) and OmegaConf ${...} interpolation of the file's other keys."""

from __future__ import annotations

from linter.engine import lint_text, lint_text_result

CONFIG = """\
# lint-configs: target-gpu={target}
experiment_name: tau2
actor:
  path: {model}
rollout:
  backend: "sglang:d4t8"
sglang:
  model_path: ${{actor.path}}
  enable_deterministic_inference: true
{extra}vllm:
  attention_backend: flashinfer
"""


def test_areal_default_backend_fails_on_b200_located_at_the_section():
    [d] = lint_text(CONFIG.format(target="B200", model="Qwen/Qwen3-8B", extra=""), "framework-config", name="config.yaml")
    assert d.code == "SGL104" and d.span.text == "sglang" and d.span.line == 7
    assert any("AReaL sets attention_backend='fa3'" in n for n in d.notes)


def test_interpolated_model_and_a_written_backend_fixed_in_place():
    text = CONFIG.format(target="H100", model="deepseek-ai/DeepSeek-V3", extra="  attention_backend: fa4\n")
    result = lint_text_result(text, "framework-config", name="config.yaml")
    [ctx] = result.contexts
    assert ctx.model.path == "deepseek-ai/DeepSeek-V3" and ctx.model.architecture == "DeepseekV3ForCausalLM"
    [d] = result.diagnostics
    assert d.code == "SGL101" and d.span.text == "fa4" and d.span.line == 10
    assert d.fix.edits[0].content == "fa3"


def test_the_vllm_section_beside_it_is_not_read():
    text = CONFIG.format(target="H100", model="Qwen/Qwen3-8B", extra="  attention_backend: triton\n")
    [ctx] = lint_text_result(text, "framework-config", name="config.yaml").contexts
    assert ctx.parsed.get("attention_backend").value == "triton"


def test_detection_needs_areal_keys_beside_the_section():
    from pathlib import PurePath

    from linter.formats import detect

    assert detect(PurePath("c.yaml"), CONFIG.format(target="H100", model="m", extra="")).name == "framework-config"
    assert detect(PurePath("c.yaml"), "sglang:\n  attention_backend: fa4\n") is None


def test_a_config_whose_rollout_runs_vllm_does_not_use_its_sglang_section():
    text = CONFIG.format(target="B200", model="Qwen/Qwen3-8B", extra="").replace('"sglang:d4t8"', '"vllm:d4t8"')
    assert lint_text_result(text, "framework-config", name="config.yaml").contexts == []
