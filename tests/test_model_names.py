"""Points 4 and 5 of issue 11: models recognised by name; SGL901 says only what it knows.

Name inference (linter/sglang/data/model_names.json, sglang-semantics.md §6.3 only): a published
checkpoint's name or a family name, as a Hugging Face id or the last part of a local path, maps to
its architecture, shown as an inference; a fix that rests on it is unsafe. Precedence: a local
config.json (with --json-model-override-args applied) > the user's ``models`` > the catalog > the name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.sglang.models import infer_from_name, resolve_model
from tests.helpers import lint_json, run, write_tree


@pytest.mark.parametrize("path,arch", [
    ("/mnt/models/DeepSeek-V3-0324", "DeepseekV3ForCausalLM"),
    ("/mnt/models/DeepSeek-V3-0324/", "DeepseekV3ForCausalLM"),
    ("some-org/DeepSeek-V3-0324", "DeepseekV3ForCausalLM"),              # org fork, same name
    ("/data/DeepSeek-R1-0528-FP8", "DeepseekV3ForCausalLM"),              # quantised base
    ("RedHatAI/DeepSeek-R1-0528-quantized.w4a16", "DeepseekV3ForCausalLM"),
    ("/ckpt/Kimi-K2-Instruct-0905", "DeepseekV3ForCausalLM"),
    ("/ckpt/DeepSeek-V3.2-Exp", "DeepseekV32ForCausalLM"),
    ("/ckpt/deepseek-coder-v2-lite-instruct", "DeepseekV2ForCausalLM"),    # case-insensitive
    ("/ckpt/Kimi-K2.5", "KimiK25ForConditionalGeneration"),               # not absorbed MLA
    ("/ckpt/Kimi-K2.6-AWQ", "KimiK25ForConditionalGeneration"),
    ("/ckpt/GLM-4.6", "Glm4MoeForCausalLM"),                              # not absorbed MLA
    ("/ckpt/GLM-4.7-Flash", "Glm4MoeLiteForCausalLM"),                    # absorbed MLA
    ("/ckpt/DeepSeek-V4-Flash", "DeepseekV4ForCausalLM"),
    ("/ckpt/DeepSeek-R1-Distill-Qwen-32B", "Qwen2ForCausalLM"),
    ("/ckpt/DeepSeek-R1-Distill-Llama-70B", "LlamaForCausalLM"),
    ("/ckpt/Qwen3-8B", "Qwen3ForCausalLM"),                               # a published checkpoint of the catalog
])
def test_names_that_map(path, arch):
    guess = infer_from_name(path)
    assert guess is not None and guess["architecture"] == arch
    assert guess["source"]


@pytest.mark.parametrize("path", [
    "/mnt/models/my-finetune", "/ckpt/DeepSeek-V3-0324-my-sft", "/ckpt/Moonlight-16B-A3B-Instruct",  # no / UNVERIFIED
    "/ckpt/Mistral-Large-3-675B-Instruct-2512", "/ckpt/GLM-5", "/ckpt/GLM-5.1-FP8", "/ckpt/DeepSeek-V3.1-Terminus",
    "/ckpt/DeepSeek", "/ckpt/Qwen3",
])
def test_names_that_stay_unknown(path):
    assert infer_from_name(path) is None


def _read_json(files: dict[str, dict]):
    return lambda p: files.get(Path(p).as_posix())


def test_precedence_config_then_user_models_then_catalog_then_name():
    cfg = {"/repo/DeepSeek-V3-0324/config.json": {"architectures": ["Qwen3ForCausalLM"]}}
    # a local config.json wins over the user's table and the name
    m = resolve_model("DeepSeek-V3-0324", base_dirs=[Path("/repo")], read_json=_read_json(cfg),
                      user_models={"DeepSeek-V3-0324": "LlamaForCausalLM"})
    assert (m.architecture, m.inferred_from) == ("Qwen3ForCausalLM", None)
    # ... with --json-model-override-args applied on top, as SGLang does
    m = resolve_model("DeepSeek-V3-0324", base_dirs=[Path("/repo")], read_json=_read_json(cfg),
                      override_json='{"architectures": ["DeepseekV3ForCausalLM"]}')
    assert m.architecture == "DeepseekV3ForCausalLM"
    # the user's table wins over the catalog and the name
    m = resolve_model("deepseek-ai/DeepSeek-V3", base_dirs=[], read_json=_read_json({}),
                      user_models={"deepseek-ai/DeepSeek-V3": "LlamaForCausalLM"})
    assert m.architecture == "LlamaForCausalLM"
    # the catalog wins over the name
    m = resolve_model("moonshotai/Kimi-K2.5", base_dirs=[], read_json=_read_json({}))
    assert (m.origin, m.inferred_from) == ("the model catalog", None)
    # the name, last
    m = resolve_model("/mnt/models/DeepSeek-V3-0324", base_dirs=[], read_json=_read_json({}))
    assert (m.architecture, m.inferred_from) == ("DeepseekV3ForCausalLM", "DeepSeek-V3-0324")
    assert m.inference_note == ("architecture DeepseekV3ForCausalLM inferred from the name DeepSeek-V3-0324; "
                                "declare it under `models` if that is wrong")


def _lint(tmp_path, capsys, line: str, gpu: str = "H100", *extra: str):
    write_tree(tmp_path, {"serve.sh": f"#!/bin/bash\n# lint-configs: target-gpu={gpu}\n"
                                      f"python3 -m sglang.launch_server {line}\n"})
    return lint_json(tmp_path, capsys, "--sglang-version", "0.5.23", *extra)[1]


def test_a_local_checkpoint_named_like_deepseek_is_checked_and_its_fix_is_unsafe(tmp_path, capsys):
    diags = _lint(tmp_path, capsys, "--model-path /mnt/models/DeepSeek-V3-0324 --attention-backend fa4 "
                                    "--enable-deterministic-inference")
    assert [(d["code"], d["severity"], d["fix"]["applicability"]) for d in diags] == [("SGL101", "error", "unsafe")]
    _, out, _ = run(tmp_path, capsys, "--sglang-version", "0.5.23", "--output-format", "full", ".")
    assert ("architecture DeepseekV3ForCausalLM inferred from the name DeepSeek-V3-0324; declare it under `models` "
            "if that is wrong") in " ".join(out.split())


def test_the_same_launch_from_the_catalog_has_a_safe_fix(tmp_path, capsys):
    diags = _lint(tmp_path, capsys, "--model-path deepseek-ai/DeepSeek-V3-0324 --attention-backend fa4 "
                                    "--enable-deterministic-inference")
    assert [(d["code"], d["fix"]["applicability"]) for d in diags] == [("SGL101", "safe")]


@pytest.mark.parametrize("model", ["/ckpt/Kimi-K2.6", "/ckpt/GLM-4.7", "/ckpt/DeepSeek-V4-Flash",
                                   "/ckpt/DeepSeek-R1-Distill-Qwen-7B", "/ckpt/Qwen3-8B"])
def test_families_known_not_to_be_absorbed_mla_get_no_warning(tmp_path, capsys, model):
    assert _lint(tmp_path, capsys, f"--model-path {model} --attention-backend fa4 "
                                   "--enable-deterministic-inference") == []


def test_sgl901_is_conditional_when_the_model_is_unknown(tmp_path, capsys):
    diags = _lint(tmp_path, capsys, "--model-path /mnt/models/Qwen3-Coder-Next --attention-backend fa4 "
                                    "--enable-deterministic-inference")
    assert [d["code"] for d in diags] == ["SGL901"]
    msg = diags[0]["message"]
    assert msg.startswith("cannot verify: if /mnt/models/Qwen3-Coder-Next is an absorbed-MLA model")
    assert "SGLang 0.5.23 refuses this launch (SGL101)" in msg


def test_sgl901_names_dsa_when_only_a_dsa_model_fails(tmp_path, capsys):
    diags = _lint(tmp_path, capsys, "--model-path /mnt/models/mystery --enable-deterministic-inference")
    assert [d["code"] for d in diags] == ["SGL901"]
    assert diags[0]["message"].startswith("cannot verify: if /mnt/models/mystery is a DSA model")


def test_a_verdict_that_does_not_depend_on_the_unknown_model_is_definite(tmp_path, capsys):
    # flashmla is not deterministic for any architecture: error A, whatever the model is.
    diags = _lint(tmp_path, capsys, "--model-path /mnt/models/mystery --attention-backend flashmla "
                                    "--enable-deterministic-inference")
    assert [(d["code"], d["severity"]) for d in diags] == [("SGL103", "error")]


def test_a_name_matching_nothing_stays_unknown_in_explain(tmp_path, capsys):
    write_tree(tmp_path, {"serve.sh": "#!/bin/bash\npython3 -m sglang.launch_server --model-path /m/mystery\n"})
    _, out, _ = run(tmp_path, capsys, "--explain", "serve.sh")
    assert "'/m/mystery' is a local path with no config.json in the repository" in out


def test_every_name_family_has_a_source():
    raw = json.loads((Path(__file__).parents[1] / "linter/sglang/data/model_names.json").read_text("utf-8"))
    assert raw["families"] and all(f["source"] and f["architecture"] for f in raw["families"])
    assert raw["unverified"]["source"]
