"""slime/miles take SGLang's options as --sglang-<option>; the model is --hf-checkpoint; Megatron's
own options beside them (--attention-backend flash, --deterministic-mode) are never SGLang's."""

from __future__ import annotations

from linter.engine import lint_text, lint_text_result

SLIME_SH = """\
#!/bin/bash
# lint-configs: target-gpu=H100
MODEL_ARGS=(
   --num-layers 61
   --multi-latent-attention   # Megatron's
)
SGLANG_ARGS=(
   # rollout engine
   --sglang-attention-backend fa4
   --sglang-enable-deterministic-inference
   --sglang-mem-fraction-static 0.7
   --sglang-router-port 3000
)
MISC_ARGS=(
   --attention-backend flash
   --deterministic-mode
)
ray job submit --address="http://127.0.0.1:8265" -- python3 train.py \\
   --hf-checkpoint /root/DeepSeek-V3 --rollout-num-gpus-per-engine 8 \\
   ${MODEL_ARGS[@]} ${SGLANG_ARGS[@]} ${MISC_ARGS[@]}
"""


def test_slime_bash_arrays_with_megatron_decoys():
    result = lint_text_result(SLIME_SH, "shell")
    [ctx] = result.contexts
    assert ctx.launch.program == "slime/miles trainer"
    values = {s.dest: s.value for s in ctx.parsed.settings}
    assert values == {"model_path": "/root/DeepSeek-V3", "attention_backend": "fa4",
                      "enable_deterministic_inference": True, "mem_fraction_static": "0.7"}
    assert ctx.model.architecture == "DeepseekV3ForCausalLM" or ctx.model.architecture is None
    codes = [(d.code, d.span.text) for d in result.diagnostics]
    assert ("SGL201", "flash") not in codes and not any(c == "SGL203" for c, _ in codes)


def test_miles_string_fragments_fixed_at_the_prefixed_value():
    text = ('# lint-configs: target-gpu=H200\nimport subprocess\n\nMODEL = "deepseek-ai/DeepSeek-V3"\n'
            'train_args = (\n    f"--hf-checkpoint {MODEL} "\n    "--attention-backend flash "  # Megatron\n'
            '    "--sglang-attention-backend fa4 "\n    "--sglang-enable-deterministic-inference "\n)\n'
            'subprocess.run(f"python3 train.py {train_args}", shell=True)\n')
    [d] = lint_text(text, "python")
    assert d.code == "SGL101" and d.span.line == 8 and d.span.text == "fa4"
    assert d.fix.edits[0].content == "fa3"


def test_an_option_the_trainer_does_not_expose_is_not_sglangs():
    """``--sglang-tp-size`` is accepted (slime ignores it, miles overrides it): a warning; miles' parser
    stops on ``--sglang-model-path``: an error."""
    text = ("python3 train.py --hf-checkpoint Qwen/Qwen3-8B --sglang-tp-size 4 --sglang-model-path x "
            "--sglang-attention-backend triton\n")
    diags = lint_text(text, "shell", ["H100"])
    assert [(d.code, d.span.text) for d in diags] == [("SGL302", "--sglang-tp-size"),
                                                       ("SGL201", "--sglang-model-path")]
    assert "rollout-num-gpus-per-engine" in diags[0].message


def test_a_python_script_without_the_trainer_shape_is_not_a_launch():
    assert lint_text_result("python3 train.py --sglang-attention-backend fa4\n", "shell").contexts == []
    assert lint_text_result("python3 eval.py --hf-checkpoint m --attention-backend fa4\n", "shell").contexts == []


def test_dynamo_workers_take_sglang_server_arguments():
    text = ("# lint-configs: target-gpu=H100\n"
            "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=2048 PYTHONUNBUFFERED=1 \\\n"
            "python3 -m dynamo.sglang.worker --served-model-name deepseek-ai/DeepSeek-R1 \\\n"
            "  --model-path deepseek-ai/DeepSeek-R1 --migration-limit 3 --endpoint dyn://ns.c.e \\\n"
            "  --attention-backend fa4 --enable-deterministic-inference\n")
    diags = lint_text(text, "shell")
    assert [(d.code, d.span.text) for d in diags] == [("SGL101", "fa4")]


def test_dynamo_decode_worker_and_module_forms():
    for module in ("dynamo.sglang", "dynamo.sglang.decode_worker"):
        [ctx] = lint_text_result(f"python3 -m {module} --model-path Qwen/Qwen3-8B --tp-size 8\n", "shell").contexts
        assert ctx.parsed.get("tp_size").value == "8"


VERL = """\
#!/bin/bash
# lint-configs: target-gpu={target}
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path={model} \\
    actor_rollout_ref.rollout.name={engine} \\
    {extra} \\
    actor_rollout_ref.actor.megatron.override_transformer_config.attention_backend=fused \\
    trainer.n_gpus_per_node=8 $@
"""


def test_verl_default_backend_fa3_fails_on_b200():
    text = VERL.format(target="B200", model="Qwen/Qwen3-8B", engine="sglang",
                       extra="+actor_rollout_ref.rollout.engine_kwargs.sglang.enable_deterministic_inference=True")
    [d] = lint_text(text, "shell")
    assert d.code == "SGL104" and d.span.text == "actor_rollout_ref.rollout.name=sglang"
    assert any("verl sets attention_backend='fa3'" in n for n in d.notes)


def test_verl_override_is_located_and_fixed_where_written():
    text = VERL.format(target="H100", model="deepseek-ai/DeepSeek-V3", engine="sglang",
                       extra="actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=fa4 "
                             "+actor_rollout_ref.rollout.engine_kwargs.sglang.enable_deterministic_inference=true")
    [d] = lint_text(text, "shell")
    assert d.code == "SGL101" and d.span.text == "fa4" and d.fix.edits[0].content == "fa3"


def test_verl_with_another_engine_or_an_unknown_one_is_not_an_sglang_launch():
    for engine in ("vllm", "$ENGINE"):
        text = VERL.format(target="H100", model="deepseek-ai/DeepSeek-V3", engine=engine,
                           extra="actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=fa4")
        assert lint_text_result(text, "shell").contexts == []


def test_slime_refuses_a_dp_size_above_one_without_dp_attention():
    bad = "python3 train.py --hf-checkpoint Qwen/Qwen3-8B --sglang-dp-size 2 --sglang-mem-fraction-static 0.7\n"
    [d] = lint_text(bad, "shell", ["H100"])
    assert d.code == "SGL301" and d.span.text == "2" and "--sglang-enable-dp-attention" in d.message
    ok = bad.replace("--sglang-mem-fraction-static 0.7", "--sglang-enable-dp-attention")
    assert lint_text(ok, "shell", ["H100"], sglang_version="0.5.18") == []


def test_sglang_benchmark_tools_are_checked_with_their_own_options_left_alone():
    text = ("# lint-configs: target-gpu=H100\npython3 -m sglang.bench_one_batch --model-path deepseek-ai/DeepSeek-V3 "
            "--batch-size 1 --input-len 256 --output-len 32 --attention-backend fa4 --enable-deterministic-inference\n")
    assert [(d.code, d.span.text) for d in lint_text(text, "shell")] == [("SGL101", "fa4")]
    assert lint_text_result("python3 -m sglang.bench_serving --backend sglang --num-prompts 10\n", "shell").contexts == []


def test_trainer_script_through_a_variable_and_without_sglang_options():
    text = ("# lint-configs: target-gpu=H100\n"
            "python3 ${REPO_ROOT}/train.py --hf-checkpoint deepseek-ai/DeepSeek-V3 --sglang-attention-backend fa4 "
            "--sglang-enable-deterministic-inference\n"
            "python3 \"${REPO_ROOT}/train.py\" --hf-checkpoint Qwen/Qwen3-8B --rollout-num-gpus-per-engine 8\n")
    result = lint_text_result(text, "shell")
    assert [c.launch.program for c in result.contexts] == ["slime/miles trainer"] * 2
    assert [(d.code, d.span.text) for d in result.diagnostics] == [("SGL101", "fa4")]


def test_miles_execute_train_runs_its_train_args_as_the_trainer_argv():
    text = ('# lint-configs: target-gpu=H100\nimport miles.utils.external_utils.command_utils as U\n\n'
            'MODEL = "deepseek-ai/DeepSeek-V3"\ntrain_args = (\n    f"--hf-checkpoint {MODEL} "\n'
            '    "--attention-backend flash "  # Megatron\'s\n    "--sglang-attention-backend fa4 "\n'
            '    "--sglang-enable-deterministic-inference "\n)\n'
            'U.execute_train(train_args=train_args, num_gpus_per_node=8, megatron_model_type="deepseek-v3")\n')
    [d] = lint_text(text, "python")
    assert d.code == "SGL101" and d.span.line == 8 and d.fix.edits[0].content == "fa3"


def test_sglang_config_server_groups_are_engines_with_their_overrides(tmp_path, capsys):
    from tests.helpers import lint_json, run, write_tree

    engines = ("server_groups:\n  - worker_type: prefill\n    num_gpus: 8\n    overrides:\n"
               "      attention_backend: fa4\n      enable_deterministic_inference: true\n"
               "  - worker_type: placeholder\n    num_gpus: 8\n"
               "  - worker_type: decode\n    num_gpus: 8\n    overrides:\n      attention_backend: fa3\n")
    script = ("# lint-configs: target-gpu=H100\npython3 train.py --hf-checkpoint deepseek-ai/DeepSeek-V3 "
              "--rollout-num-gpus-per-engine 8 --sglang-config engines.yaml --sglang-mem-fraction-static 0.7\n")
    write_tree(tmp_path, {"engines.yaml": engines, "run.sh": script})
    result = lint_text_result(script, "shell", name=str(tmp_path / "run.sh"))
    assert [c.parsed.get("attention_backend").value for c in result.contexts] == ["fa4", "fa3"]  # no placeholder
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["line"], d["code"]) for d in diags] == [("engines.yaml", 5, "SGL101")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "engines.yaml").read_text() == engines.replace("attention_backend: fa4", "attention_backend: fa3")


def test_verl_experimental_entry_points_and_launches_on_every_gpu_without_a_target():
    text = VERL.format(target="H100", model="deepseek-ai/DeepSeek-V3", engine="sglang",
                       extra="+actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=fa4 "
                             "+actor_rollout_ref.rollout.engine_kwargs.sglang.enable_deterministic_inference=True")
    text = text.replace("verl.trainer.main_ppo", "verl.experimental.one_step_off_policy.main_ppo")
    assert [d.code for d in lint_text(text, "shell")] == ["SGL101"]


def test_a_backend_refused_on_every_gpu_is_an_error_without_a_target():
    text = ("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend flashinfer "
            "--enable-deterministic-inference\n"
            "python -m sglang.launch_server --model-path /root/Qwen2.5-0.5B-Instruct --attention-backend flashmla "
            "--enable-deterministic-inference\n")
    got = [(d.code, d.fix.applicability.value if d.fix else None) for d in lint_text(text, "shell")]
    assert got == [("SGL102", "unsafe"), ("SGL103", "unsafe")]


def test_an_option_in_an_unquoted_array_expansion_is_reported_where_it_is_written():
    """``${SGLANG_ARGS[@]}`` unquoted (miles' run-glm5-disagg-profile.sh): each SGLang option is
    reported at its own line in the array, as with the quoted form; before, every finding stood at
    the expansion (the "--" put back before the option carried the expansion's place)."""
    text = ("#!/bin/bash\nSGLANG_ARGS=(\n   --sglang-enable-dp-attention\n   --sglang-cuda-graph-max-bs 8\n)\n"
            "ray job submit -- python3 train.py --hf-checkpoint /root/Qwen3-4B ${SGLANG_ARGS[@]}\n")
    for form in (text, text.replace("${SGLANG_ARGS[@]}", '"${SGLANG_ARGS[@]}"')):
        found = sorted((d.code, d.span.line) for d in lint_text(form, "shell"))
        assert found == [("SGL202", 4), ("SGL211", 3)], form
