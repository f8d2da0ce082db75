"""Frameworks that start SGLang from their own settings (linter/sglang/frameworks.py, frameworks.json):
per framework a launch recognised, a setting mapped to the right server argument, the framework's own
default (a finding only that default causes), a fix landing in the framework's text byte for byte, and
decoys that are not SGLang launches (another backend, a backend chosen at run time)."""

from __future__ import annotations

import pytest

from pathlib import Path

from linter.engine import lint_text, lint_text_result
from linter.formats import detect
from tests.helpers import chdir, lint_json, run, write_tree


def lint_in(tmp_path, text: str, fmt: str, name: str, targets=(), **kw):
    """lint_text_result for a file of ``tmp_path`` (files beside it are read: the run's root)."""
    with chdir(tmp_path):
        return lint_text_result(text, fmt, targets, name=name, **kw)


def lint_in_diags(tmp_path, text: str, fmt: str, name: str, targets=(), **kw):
    with chdir(tmp_path):
        return lint_text(text, fmt, targets, name=name, **kw)


def settings(ctx) -> dict:
    return {s.dest: s.value for s in ctx.parsed.settings}


def codes(diags) -> list[tuple[str, int, str]]:
    return [(d.code, d.span.line, d.span.text) for d in diags]


def explain(tmp_path, capsys, name: str, line: int) -> str:
    _, out, _ = run(tmp_path, capsys, "--explain", f"{name}:{line}")
    return out


# -- ROLL -----------------------------------------------------------------------------------------

ROLL = """\
# lint-configs: target-gpu={target}
pretrain: {model}
seed: 7
actor_infer:
  model_args:
    dtype: fp16
  strategy_args:
    strategy_name: {engine}
    strategy_config:
      mem_fraction_static: 0.7
      tensor_parallel_size: 4
      pipeline_parallel_size: 2
{extra}  num_gpus_per_worker: 4
  device_mapping: list(range(0,8))
reference:
  strategy_args:
    strategy_name: megatron_infer
    strategy_config:
      tensor_model_parallel_size: 1
rewards:
  math:
    strategy_args:
      strategy_name: vllm
      strategy_config:
        gpu_memory_utilization: 0.8
"""


def roll(target="H100", model="Qwen/Qwen3-8B", engine="sglang", extra="") -> str:
    return ROLL.format(target=target, model=model, engine=engine, extra=extra)


def test_roll_worker_recognised_and_settings_mapped():
    result = lint_text_result(roll(), "framework-config", name="rlvr.yaml")
    [ctx] = result.contexts  # the megatron and vllm workers are not SGLang launches
    launch = ctx.launch
    assert launch.program == "ROLL (strategy_name: sglang)" and launch.key == "roll:actor_infer"
    got = settings(ctx)
    assert got["tp_size"] == 4 and got["model_path"] == "Qwen/Qwen3-8B" and got["dtype"] == "float16"
    assert got["mem_fraction_static"] == 0.7 and got["random_seed"] == 7 and got["enable_memory_saver"] is True
    assert "pipeline_parallel_size" not in got and "pp_size" not in got
    assert [(c.resource, c.count, c.span.text) for c in launch.gpu_counts] == [("gpu", 4, "4")]
    # ROLL pops pipeline_parallel_size and never passes it: a warning at the key
    assert codes(result.diagnostics) == [("SGL302", 12, "pipeline_parallel_size")]


def test_roll_fixed_routed_experts_field_fails_older_releases():
    # ROLL always passes enable_return_routed_experts (sglang_strategy.py:123), a field from 0.5.7 on
    old = lint_text(roll(), "framework-config", name="rlvr.yaml", sglang_version="0.5.2")
    assert ("SGL201", 8, "strategy_name") in codes(old)
    assert any("enable_return_routed_experts" in d.message for d in old if d.code == "SGL201")
    new = lint_text(roll(), "framework-config", name="rlvr.yaml", sglang_version="0.5.7")
    assert not any(d.code == "SGL201" for d in new)


def test_roll_refuses_a_release_it_has_no_patch_for_and_a_missing_memory_fraction():
    got = lint_text(roll(), "framework-config", name="rlvr.yaml", sglang_version="0.5.8")
    assert any(d.code == "SGL301" and "SGLang 0.5.8" in d.message for d in got)
    text = roll().replace("      mem_fraction_static: 0.7\n", "")
    assert ("SGL301", 8, "strategy_name") in codes(lint_text(text, "framework-config", name="rlvr.yaml"))


def test_roll_fix_lands_in_the_strategy_config(tmp_path, capsys):
    extra = "      attention_backend: fa4\n      enable_deterministic_inference: true\n"
    text = roll(model="deepseek-ai/DeepSeek-V3", extra=extra).replace("      pipeline_parallel_size: 2\n", "")
    write_tree(tmp_path, {"rlvr.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL101", 12)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "rlvr.yaml").read_text() == text.replace("attention_backend: fa4", "attention_backend: fa3")


def test_roll_decoys_another_engine_and_one_chosen_at_run_time(tmp_path, capsys):
    assert lint_text_result(roll(engine="vllm"), "framework-config", name="rlvr.yaml").contexts == []
    text = roll(engine="${oc.env:ENGINE}  # sglang or vllm")
    assert lint_text_result(text, "framework-config", name="rlvr.yaml").contexts == []
    write_tree(tmp_path, {"rlvr.yaml": text})
    assert "not an SGLang launch" in explain(tmp_path, capsys, "rlvr.yaml", 8)


def test_roll_in_a_markdown_yaml_fence():
    text = "# ROLL\n\n```yaml\n" + roll().split("\n", 1)[1] + "```\n"
    [ctx] = lint_text_result(text, "markdown", ["H100"], name="README.md").contexts
    assert ctx.launch.program.startswith("ROLL") and settings(ctx)["tp_size"] == 4


# -- NeMo-RL --------------------------------------------------------------------------------------

NEMO_RL = """\
# lint-configs: target-gpu=H100
defaults: base.yaml
policy:
  generation:
    backend: {engine}
    sglang_cfg:
      model_path: ${{policy.model_name}}
      tp_size: 2
      pp_size: 1
      dp_size: 1
      ep_size: 1
      random_seed: 42
      skip_server_warmup: true
      mem_fraction_static: 0.6
{extra}      sglang_server_config:
        needs_offload: true
        cpu_weight_backup: false
        num_gpus: 8
        num_gpus_per_engine: ${{policy.generation.sglang_cfg.tp_size}}
"""
NEMO_RL_BASE = "policy:\n  model_name: Qwen/Qwen2.5-Math-1.5B-Instruct\n  generation:\n    backend: vllm\n"


def nemo_rl(tmp_path, engine="sglang", extra="") -> str:
    text = NEMO_RL.format(engine=engine, extra=extra)
    write_tree(tmp_path, {"base.yaml": NEMO_RL_BASE, "grpo.yaml": text})
    return text


def test_nemo_rl_recognised_with_the_model_from_its_parent_config(tmp_path):
    text = nemo_rl(tmp_path)
    [ctx] = lint_in(tmp_path, text, "framework-config", "grpo.yaml").contexts
    got = settings(ctx)
    assert ctx.launch.program == "NeMo-RL (policy.generation.backend: sglang)"
    assert got["model_path"] == "Qwen/Qwen2.5-Math-1.5B-Instruct"  # ${policy.model_name} from base.yaml
    assert got["tp_size"] == 2 and got["enable_memory_saver"] is True and got["enable_weights_cpu_backup"] is False
    assert got["mem_fraction_static"] == 0.6 and got["trust_remote_code"] is True
    assert [c.count for c in ctx.launch.gpu_counts] == [2]  # num_gpus_per_engine, through its interpolation


def test_nemo_rl_draft_weights_backup_it_always_sets_fails_older_releases(tmp_path):
    text = nemo_rl(tmp_path)
    old = lint_in_diags(tmp_path, text, "framework-config", "grpo.yaml", sglang_version="0.5.5")
    assert any(d.code == "SGL201" and "enable_draft_weights_cpu_backup" in d.message and d.span.text == "backend"
               for d in old)
    ok = lint_in_diags(tmp_path, text, "framework-config", "grpo.yaml", sglang_version="0.5.5.post3")
    assert not any("enable_draft_weights_cpu_backup" in d.message for d in ok)


def test_nemo_rl_ignores_keys_outside_its_list_and_a_near_miss_is_renamed(tmp_path, capsys):
    text = nemo_rl(tmp_path, extra="      attention_backend: fa4\n      mem_fraction: 0.5\n")
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["code"], d["line"]) for d in diags] == [("grpo.yaml", "SGL302", 15),
                                                                   ("grpo.yaml", "SGL302", 16)]
    assert "sglang_worker.py:417-437" in diags[0]["message"]
    assert diags[1]["fix"]["applicability"] == "unsafe"
    run(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "grpo.yaml").read_text() == text.replace("mem_fraction: 0.5", "mem_fraction_static: 0.5")


def test_nemo_rl_command_line_overrides_over_its_config(tmp_path):
    nemo_rl(tmp_path)
    script = "uv run examples/run_grpo.py --config grpo.yaml policy.generation.sglang_cfg.tp_size=4\n"
    write_tree(tmp_path, {"run.sh": script})
    [ctx] = lint_in(tmp_path, script, "shell", "run.sh").contexts
    assert ctx.launch.program.startswith("NeMo-RL") and ctx.launch.source.path.name == "run.sh"
    assert settings(ctx)["tp_size"] == 4 and settings(ctx)["mem_fraction_static"] == 0.6


def test_nemo_rl_override_of_an_interpolated_key_reaches_sglang_cfg(tmp_path):
    # run_grpo.py:87-94 applies the overrides before OmegaConf.to_container(resolve=True)
    nemo_rl(tmp_path)
    script = "# sglang\nuv run examples/run_grpo.py --config grpo.yaml policy.model_name=openai/gpt-oss-120b\n"
    write_tree(tmp_path, {"run.sh": script})
    [ctx] = lint_in(tmp_path, script, "shell", "run.sh").contexts
    assert settings(ctx)["model_path"] == "openai/gpt-oss-120b" and ctx.model.path == "openai/gpt-oss-120b"


def test_nemo_rl_child_that_gets_sglang_only_from_its_parent(tmp_path):
    base = ("policy:\n  model_name: Qwen/Qwen3-1.7B\n  generation:\n    backend: sglang\n    sglang_cfg:\n"
            "      model_path: ${policy.model_name}\n      tp_size: 1\n      pp_size: 1\n")
    child = ("# lint-configs: target-gpu=H100\ndefaults: base.yaml\npolicy:\n  generation:\n    sglang_cfg:\n"
             "      kv_cache_dtype: nvfp4\n")
    write_tree(tmp_path, {"configs/base.yaml": base, "configs/child.yaml": child})
    with chdir(tmp_path):
        assert detect(Path("configs/child.yaml"), child).name == "framework-config"
        assert detect(Path("l.yaml"), "defaults:\n  - base.yaml\nsglang_cfg: {}\n").name == "framework-config"
    diags = lint_in_diags(tmp_path, child, "framework-config", "configs/child.yaml")
    assert [(d.code, d.span.line, d.span.text) for d in diags if d.code == "SGL109"] == [("SGL109", 6, "nvfp4")]


def test_nemo_rl_decoys(tmp_path, capsys):
    text = nemo_rl(tmp_path, engine="vllm")
    assert lint_in(tmp_path, text, "framework-config", "grpo.yaml").contexts == []
    text = nemo_rl(tmp_path, engine="${oc.env:GEN_BACKEND}")
    assert lint_in(tmp_path, text, "framework-config", "grpo.yaml").contexts == []
    assert "chosen at run time" in explain(tmp_path, capsys, "grpo.yaml", 5)


# -- ms-swift -------------------------------------------------------------------------------------


def test_ms_swift_recognised_and_options_mapped():
    text = ("CUDA_VISIBLE_DEVICES=0,1 swift deploy --model Qwen/Qwen3-8B --infer_backend sglang \\\n"
            "  --sglang_tp_size 2 --sglang_context_length=8192 --sglang_disable_cuda_graph true --task_type embedding\n")
    [ctx] = lint_text_result(text, "shell", name="deploy.sh").contexts
    got = settings(ctx)
    assert ctx.launch.program == "ms-swift (--infer_backend sglang)"
    assert (got["model_path"], got["tp_size"], got["context_length"], got["disable_cuda_graph"]) == \
        ("Qwen/Qwen3-8B", 2, 8192, True)
    assert got["disable_custom_all_reduce"] is True and got["log_level"] == "error" and got["is_embedding"] is True


def test_ms_swift_ep_size_it_always_passes_fails_sglang_0_4_0():
    text = "swift infer --model Qwen/Qwen3-8B --infer_backend sglang\n"
    got = [d for d in lint_text(text, "shell", name="infer.sh", sglang_version="0.4.0") if d.code == "SGL201"]
    assert any("'ep_size'" in d.message for d in got) and {d.span.text for d in got} == {"--infer_backend"}
    assert not any("ep_size" in d.message for d in lint_text(text, "shell", name="infer.sh", sglang_version="0.4.1"))


def test_ms_swift_misspelled_option_refused_and_renamed(tmp_path, capsys):
    text = "swift infer --model Qwen/Qwen3-8B --infer_backend sglang --sglang_mem_fraction 0.8\n"
    write_tree(tmp_path, {"infer.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["column"]) for d in diags] == [("SGL301", 58)]
    assert "remaining_argv" in diags[0]["message"]
    run(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "infer.sh").read_text() == text.replace("--sglang_mem_fraction ", "--sglang_mem_fraction_static ")


@pytest.mark.parametrize("line", [
    "swift infer --model Qwen/Qwen3-8B --infer_backend vllm --sglang_tp_size 2",
    "swift infer --model Qwen/Qwen3-8B --infer_backend \"$BACKEND\" --sglang_tp_size 2",
    "swift rollout --model Qwen/Qwen3-8B --infer_backend sglang",
    "swift sft --model Qwen/Qwen3-8B --infer_backend sglang",
    "swift infer --model Qwen/Qwen3-8B",
])
def test_ms_swift_decoys(line):
    assert lint_text_result(line + "\n", "shell", name="run.sh").contexts == []


def test_ms_swift_rollout_and_a_run_time_backend_are_explained(tmp_path, capsys):
    write_tree(tmp_path, {"run.sh": "swift rollout --model m --infer_backend sglang\n"
                                    "swift infer --model m --infer_backend $B\n"})
    assert "rollout.py:807-810" in explain(tmp_path, capsys, "run.sh", 1)
    assert "chosen at run time (--infer_backend $B)" in explain(tmp_path, capsys, "run.sh", 2)


# -- NeMo-Skills ----------------------------------------------------------------------------------

NS = ('ns eval --cluster=local --model=deepseek-ai/DeepSeek-V3 --server_type=sglang --server_gpus=8 --server_nodes=2 '
      '--server_container={image} --server_args="--attention-backend fa4 --enable-deterministic-inference" '
      '--benchmarks=aime24\n')


def test_nemo_skills_recognised_tp_from_gpus_and_nodes():
    [ctx] = lint_text_result(NS.format(image="lmsysorg/sglang:v0.5.23-cu129"), "shell", ["B200"],
                             name="eval.sh").contexts
    got = settings(ctx)
    assert ctx.launch.program == "NeMo-Skills (--server_type sglang)"
    assert got["model_path"] == "deepseek-ai/DeepSeek-V3" and got["tp_size"] == "16"
    assert got["trust_remote_code"] is True and got["attention_backend"] == "fa4"
    assert [c.count for c in ctx.launch.gpu_counts] == [8] and ctx.table.version == "0.5.23"


def test_nemo_skills_fix_lands_in_server_args(tmp_path, capsys):
    text = "# lint-configs: target-gpu=H100\n" + NS.format(image="lmsysorg/sglang:v0.5.23-cu129")
    write_tree(tmp_path, {"eval.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL101"]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "eval.sh").read_text() == text.replace("backend fa4", "backend fa3")


def test_nemo_skills_default_container_is_its_release():
    # NeMo-Skills runs lmsysorg/sglang:v0.5.3rc1-cu126 unless told otherwise (nemo_skills/__init__.py:21)
    text = "ns generate --model=Qwen/Qwen3-8B --server_type=sglang --server_gpus=1 --server_args='--attention-backend dsa'\n"
    result = lint_text_result(text, "shell", ["H100"], name="gen.sh")
    [ctx] = result.contexts
    assert ctx.launch.image.text == "lmsysorg/sglang:v0.5.3rc1-cu126"
    assert [d.code for d in result.diagnostics] == ["SGL203"]  # no dsa backend in 0.5.3
    newer = text.replace("--server_gpus=1", "--server_gpus=1 --server_container=lmsysorg/sglang:v0.5.23-cu129")
    assert not any(d.code == "SGL203" for d in lint_text(newer, "shell", ["H100"], name="gen.sh"))


def test_nemo_skills_judge_python_api_and_pipeline_yaml():
    md = ("```bash\nns eval --cluster=local --model=m1 --server_type=vllm --server_gpus=1 "
          "--judge_model=Qwen/Qwen2.5-32B-Instruct --judge_server_gpus=4 --judge_server_type=sglang\n```\n")
    [ctx] = lint_text_result(md, "markdown", name="eval.md").contexts  # the vllm server is not SGLang's
    assert settings(ctx)["model_path"] == "Qwen/Qwen2.5-32B-Instruct" and ctx.launch.key.endswith("judge")
    py = ("from nemo_skills.pipeline.cli import eval, wrap_arguments\n\n"
          "eval(ctx=wrap_arguments(''), cluster='slurm', model='/hf_models/Llama-3.1-8B-Instruct', "
          "server_type='sglang', server_gpus=8, server_args='--context-length 8192', benchmarks='ruler')\n")
    [ctx] = lint_text_result(py, "python", name="run.py").contexts
    got = settings(ctx)  # NeMo-Skills' default image: SGLang 0.5.3, whose parser names tp_size tensor_parallel_size
    assert got["context_length"] == "8192" and got["tensor_parallel_size"] == "8"
    yml = ("stages:\n  generate:\n    stage_kwargs:\n      model: /hf_models/DeepSeek-R1\n      server_type: sglang\n"
           "      server_gpus: 8\n      server_nodes: 2\n      server_args: \"--ep-size 16\"\n"
           "      server_container: lmsysorg/sglang:v0.5.23-cu129\n")
    [ctx] = lint_text_result(yml, "framework-config", name="r1.yaml").contexts
    assert settings(ctx)["tp_size"] == "16" and settings(ctx)["ep_size"] == "16"


@pytest.mark.parametrize("line", [
    "ns eval --model=m --server_type=vllm --server_gpus=8",
    "ns eval --model=m --server_type=sglang --server_address=localhost:5000",
    "ns eval --model=m --server_type=$SERVER --server_gpus=8",
])
def test_nemo_skills_decoys(line):
    assert lint_text_result(line + "\n", "shell", name="eval.sh").contexts == []


# -- llmaz ----------------------------------------------------------------------------------------

LLMAZ = """\
# lint-configs: target-gpu=H100
apiVersion: llmaz.io/v1alpha1
kind: OpenModel
metadata:
  name: dsv3
spec:
  familyName: deepseek
  source:
    modelHub:
      modelID: deepseek-ai/DeepSeek-V3
  inferenceConfig:
    flavors:
      - name: h100
        limits:
          nvidia.com/gpu: 8
---
apiVersion: inference.llmaz.io/v1alpha1
kind: Playground
metadata:
  name: dsv3
spec:
  replicas: 1
  modelClaim:
    modelName: dsv3
  backendRuntimeConfig:
{backend}    args:
      - --attention-backend
      - fa4
      - --enable-deterministic-inference
"""


def test_llmaz_playground_on_the_builtin_sglang_runtime():
    text = LLMAZ.format(backend="    backendName: sglang\n    version: v0.5.23-cu129\n")
    [ctx] = lint_text_result(text, "kubernetes", name="playground.yaml").contexts
    got = settings(ctx)
    assert ctx.launch.program == "python -m sglang.launch_server" and ctx.launch.key == "Playground/dsv3"
    assert got["model_path"] == "deepseek-ai/DeepSeek-V3" and got["served_model_name"] == "dsv3"
    assert got["port"] == "8080" and ctx.launch.image.text == "lmsysorg/sglang:v0.5.23-cu129"
    assert [(c.resource, c.count) for c in ctx.launch.gpu_counts] == [("nvidia.com/gpu", 8)]


def test_llmaz_default_runtime_image_is_its_release():
    # the chart's sglang runtime runs lmsysorg/sglang:v0.4.5-cu121 (chart/values.global.yaml:13-16): no fa4
    text = LLMAZ.format(backend="    backendName: sglang\n")
    got = lint_text(text, "kubernetes", name="playground.yaml")
    assert [(d.code, d.span.text) for d in got] == [("SGL203", "fa4"), ("SGL201", "--enable-deterministic-inference")]


def test_llmaz_fix_lands_in_the_playground_args(tmp_path, capsys):
    text = LLMAZ.format(backend="    backendName: sglang\n    version: v0.5.23-cu129\n")
    write_tree(tmp_path, {"playground.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL101", 30)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "playground.yaml").read_text() == text.replace("- fa4", "- fa3")


def test_llmaz_backend_runtime_of_the_file_is_used_and_is_a_launch_itself():
    runtime = ("---\napiVersion: inference.llmaz.io/v1alpha1\nkind: BackendRuntime\nmetadata:\n  name: sglang\n"
               "spec:\n  command: [python3, -m, sglang.launch_server]\n  image: lmsysorg/sglang\n"
               "  version: v0.5.23-cu129\n  recommendedConfigs:\n    - name: default\n      args: [--model-path, "
               "'{{ .ModelPath }}', --tp, '8']\n")
    text = LLMAZ.format(backend="    backendName: sglang\n") + runtime
    result = lint_text_result(text, "kubernetes", name="llmaz.yaml")
    keys = {c.launch.key: c for c in result.contexts}
    assert set(keys) == {"BackendRuntime/sglang:default", "Playground/dsv3"}
    assert settings(keys["Playground/dsv3"])["tp_size"] == "8"
    assert keys["BackendRuntime/sglang:default"].model.path is None


@pytest.mark.parametrize("backend", ["", "    backendName: vllm\n", "    backendName: my-runtime\n"])
def test_llmaz_decoys(backend):
    assert lint_text_result(LLMAZ.format(backend=backend), "kubernetes", name="p.yaml").contexts == []


# -- SkyRL ----------------------------------------------------------------------------------------

SKYRL = """\
# lint-configs: target-gpu={target}
{preamble}uv run --isolated --extra sglang -m skyrl_train.entrypoints.main_base \\
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \\
  generator.inference_engine_tensor_parallel_size={tp} \\
  generator.gpu_memory_utilization=0.7 generator.enable_prefix_caching=false \\
  generator.backend={engine} {extra}$@
"""


def skyrl(target="H100", preamble="", tp=1, engine="sglang", extra="") -> str:
    return SKYRL.format(target=target, preamble=preamble, tp=tp, engine=engine, extra=extra)


def test_skyrl_recognised_and_mapped():
    [ctx] = lint_text_result(skyrl(), "shell", name="run.sh").contexts
    got = settings(ctx)
    assert ctx.launch.program == "SkyRL (generator.backend=sglang)"
    assert (got["model_path"], got["tp_size"], got["mem_fraction_static"], got["disable_radix_cache"]) == \
        ("Qwen/Qwen2.5-1.5B-Instruct", 1, 0.7, True)
    assert got["attention_backend"] == "fa3" and got["skip_tokenizer_init"] is True


def test_skyrl_fa3_it_sets_itself_fails_on_b200():
    [d] = lint_text(skyrl(target="B200"), "shell", name="run.sh")
    assert d.code == "SGL104" and d.span.text == "generator.backend"
    assert any("SkyRL sets attention_backend='fa3'" in n for n in d.notes)


def test_skyrl_refuses_a_repeated_keyword_and_tensor_parallel_engines():
    text = skyrl(tp=2, extra="+generator.engine_init_kwargs.attention_backend=triton ")
    got = [(d.code, d.span.text) for d in lint_text(text, "shell", name="run.sh")]
    assert got == [("SGL301", "2"), ("SGL301", "generator.engine_init_kwargs.attention_backend")]


def test_skyrl_decoys(tmp_path, capsys):
    assert lint_text_result(skyrl(engine="vllm"), "shell", name="run.sh").contexts == []
    vllm_default = skyrl(preamble=': "${INFERENCE_BACKEND:=vllm}"\n', engine="$INFERENCE_BACKEND")
    assert lint_text_result(vllm_default, "shell", name="run.sh").contexts == []
    sglang_default = vllm_default.replace(":=vllm", ":=sglang")
    assert len(lint_text_result(sglang_default, "shell", name="run.sh").contexts) == 1
    remote = skyrl(extra="generator.run_engines_locally=false ")
    assert lint_text_result(remote, "shell", name="run.sh").contexts == []
    write_tree(tmp_path, {"run.sh": skyrl(engine="$BACKEND")})
    assert "chosen at run time (generator.backend=$BACKEND)" in explain(tmp_path, capsys, "run.sh", 6)


def test_skyrl_newer_spelling_under_generator_inference_engine():
    # SkyRL @7554082e: skyrl.train.entrypoints.main_base, generator.inference_engine.* (config/legacy.py:12-40)
    text = ("# lint-configs: target-gpu=B200\nINFERENCE_BACKEND=\"sglang\"\n"
            "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \\\n"
            "  trainer.policy.model.path=\"Qwen/Qwen2.5-1.5B-Instruct\" \\\n"
            "  generator.inference_engine.tensor_parallel_size=1 \\\n"
            "  generator.inference_engine.gpu_memory_utilization=0.7 \\\n"
            "  +generator.inference_engine.engine_init_kwargs.kv_cache_dtype=fp8_e4m3 \\\n"
            "  generator.inference_engine.backend=$INFERENCE_BACKEND\n")
    [ctx] = lint_text_result(text, "shell", name="run.sh").contexts
    got = settings(ctx)
    assert ctx.launch.program == "SkyRL (generator.backend=sglang)"
    assert (got["mem_fraction_static"], got["kv_cache_dtype"], got["attention_backend"]) == (0.7, "fp8_e4m3", "fa3")
    [d] = lint_text(text, "shell", name="run.sh")
    assert d.code == "SGL104" and d.span.text == "generator.inference_engine.backend"
    assert lint_text_result(text.replace('="sglang"', '="vllm"'), "shell", name="run.sh").contexts == []
    remote = text.replace("backend=$", "run_engines_locally=false generator.inference_engine.backend=$")
    assert lint_text_result(remote, "shell", name="run.sh").contexts == []


def test_skyrl_sglang_server_module_takes_sglang_arguments():
    text = ("CUDA_VISIBLE_DEVICES=4,5,6,7 uv run --isolated --extra sglang -m \\\n"
            "    skyrl_train.inference_engines.sglang.sglang_server --model-path Qwen/Qwen2.5-1.5B-Instruct --tp 4\n")
    [ctx] = lint_text_result(text, "shell", name="serve.sh").contexts
    assert settings(ctx)["tp_size"] == "4" and ctx.model.path == "Qwen/Qwen2.5-1.5B-Instruct"


# -- LLaMA-Factory --------------------------------------------------------------------------------

LF = """\
model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
template: qwen3_nothink
infer_backend: {engine}
sglang_maxlen: 8192
infer_dtype: bfloat16
{extra}"""


def test_llamafactory_yaml_recognised_and_mapped():
    result = lint_text_result(LF.format(engine="sglang", extra="sglang_config: '{}'\n"), "framework-config",
                              name="infer.yaml")
    [ctx] = result.contexts
    got = settings(ctx)
    assert ctx.launch.program == "LLaMA-Factory (infer_backend: sglang)"
    assert got["context_length"] == "8192" and got["dtype"] == "bfloat16" and got["mem_fraction_static"] == "0.7"
    assert got["log_level"] == "error" and got["model_path"] == "Qwen/Qwen3-4B-Instruct-2507"
    assert codes(result.diagnostics) == [("SGL302", 6, "sglang_config")]  # accepted, never used


def test_llamafactory_command_line_with_a_config_and_overrides(tmp_path):
    write_tree(tmp_path, {"infer.yaml": LF.format(engine="sglang", extra="")})
    script = ("API_PORT=8000 llamafactory-cli api infer.yaml sglang_tp_size=2\n"
              "llamafactory-cli chat --model_name_or_path Qwen/Qwen3-8B --infer_backend sglang "
              "--adapter_name_or_path saves/lora --sglang_lora_backend flashinfer\n")
    result = lint_in(tmp_path, script, "shell", "run.sh")
    first, second = result.contexts
    assert settings(first)["tp_size"] == "2" and settings(first)["context_length"] == "8192"
    assert settings(second)["lora_backend"] == "flashinfer" and settings(second)["context_length"] == "4096"
    # LLaMA-Factory builds a command line: SGLang's parser refuses flashinfer for LoRA from 0.5.20 on
    assert codes(result.diagnostics) == [("SGL203", 2, "flashinfer")]


def test_llamafactory_refuses_an_option_it_does_not_have_and_renames_it(tmp_path, capsys):
    text = LF.format(engine="sglang", extra="sglang_mem_fraction_static: 0.8\n")
    write_tree(tmp_path, {"infer.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL301", 6)]
    run(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "infer.yaml").read_text() == text.replace("sglang_mem_fraction_static", "sglang_mem_fraction")


def test_llamafactory_decoys():
    assert lint_text_result(LF.format(engine="huggingface  # choices: [huggingface, vllm, sglang]", extra=""),
                            "framework-config", name="infer.yaml").contexts == []
    assert lint_text_result("llamafactory-cli chat --model_name_or_path m --infer_backend vllm\n"
                            "llamafactory-cli api --model_name_or_path m --infer_backend $BACKEND\n",
                            "shell", name="run.sh").contexts == []


# -- lm-evaluation-harness ------------------------------------------------------------------------


def test_lm_eval_model_args_mapped_and_fixed(tmp_path, capsys):
    text = ("# lint-configs: target-gpu=H100\nlm_eval --model sglang --model_args pretrained=deepseek-ai/DeepSeek-V3,"
            "tp_size=8,attention_backend=fa4,enable_deterministic_inference=True,context_length=8192 --tasks gsm8k\n")
    [ctx] = lint_text_result(text, "shell", name="eval.sh").contexts
    got = settings(ctx)
    assert ctx.launch.program == "lm-evaluation-harness (--model sglang)"
    assert got["tp_size"] == 8 and got["chunked_prefill_size"] == -1 and "context_length" not in got
    write_tree(tmp_path, {"eval.sh": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [d["code"] for d in diags] == ["SGL101"]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "eval.sh").read_text() == text.replace("=fa4", "=fa3")


def test_lm_eval_decoys():
    text = ("lm_eval --model vllm --model_args pretrained=m\nlm_eval --model sglang-generate --model_args base_url=x\n"
            "lm_eval --model $MODEL --model_args pretrained=m\n")
    assert lint_text_result(text, "shell", name="eval.sh").contexts == []


# -- carriers -------------------------------------------------------------------------------------


def test_a_runtime_with_go_template_placeholders_outside_a_chart_is_read_as_a_manifest(tmp_path, capsys):
    # llmaz's test/config/backends/sglang.yaml: {{ .ModelPath }} makes the file look like a Helm template
    runtime = ("# lint-configs: target-gpu=H100\napiVersion: inference.llmaz.io/v1alpha1\nkind: BackendRuntime\n"
               "metadata:\n  name: sglang\nspec:\n  command: [python3, -m, sglang.launch_server]\n"
               "  image: lmsysorg/sglang\n  version: v0.5.23-cu129\n  recommendedConfigs:\n    - name: default\n"
               "      args: [--model-path, '{{ .ModelPath }}', --attention-backend, fa5]\n")
    write_tree(tmp_path, {"backends/sglang.yaml": runtime})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL203", 12)]


def test_a_markdown_fence_with_a_framework_command_is_read_though_it_does_not_name_sglang(tmp_path):
    write_tree(tmp_path, {"config.yaml": "experiment_name: x\nactor:\n  path: Qwen/Qwen3-8B\nrollout:\n"
                                         "  backend: sglang:d1\nsglang:\n  model_path: ${actor.path}\n"})
    md = ("# Train (rollouts on sglang)\n\n```bash\npython3 examples/train.py \\\n    --config config.yaml \\\n"
          "    experiment_name=x\n```\n")
    with chdir(tmp_path):
        [ctx] = lint_text_result(md, "markdown", name="README.md").contexts
    assert ctx.launch.program.startswith("AReaL") and ctx.model.path == "Qwen/Qwen3-8B"
