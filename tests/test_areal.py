"""AReaL: the sglang: section of its experiment configs, its command line (``python3 [-m
areal.infra.launcher.local] SCRIPT.py --config X.yaml overrides``) and its Python API
(``SGLangConfig.build_cmd``), with AReaL's own defaults (attention_backend fa3 …) and OmegaConf
${...} interpolation of the file's other keys (areal/api/cli_args.py @4aef98d8)."""

from __future__ import annotations

from linter.engine import lint_text, lint_text_result
from tests.helpers import chdir, lint_json, run, write_tree

CONFIG = """\
# lint-configs: target-gpu={target}
experiment_name: tau2
actor:
  path: {model}
rollout:
  backend: "{backend}"
sglang:
  model_path: ${{actor.path}}
  mem_fraction_static: 0.8
{extra}vllm:
  attention_backend: flashinfer
"""


def config(target="H100", model="Qwen/Qwen3-8B", backend="sglang:d4t8", extra="") -> str:
    return CONFIG.format(target=target, model=model, backend=backend, extra=extra)


def settings(ctx) -> dict:
    return {s.dest: s.value for s in ctx.parsed.settings}


def test_areal_default_backend_fails_on_b200_located_at_the_section():
    [d] = lint_text(config(target="B200"), "framework-config", name="config.yaml")
    assert d.code == "SGL104" and d.span.text == "sglang" and d.span.line == 7
    assert any("AReaL sets attention_backend='fa3'" in n for n in d.notes)


def test_interpolated_model_allocation_and_a_written_backend_fixed_in_place(tmp_path, capsys):
    text = config(target="B200", extra="  attention_backend: fa3\n")
    result = lint_text_result(text, "framework-config", name="config.yaml")
    [ctx] = result.contexts
    got = settings(ctx)
    assert ctx.model.path == "Qwen/Qwen3-8B" and got["tokenizer_path"] == "Qwen/Qwen3-8B"
    assert got["tp_size"] == "8" and [c.count for c in ctx.launch.gpu_counts] == [8]  # sglang:d4t8
    assert got["mem_fraction_static"] == "0.8" and got["context_length"] == "32768"  # AReaL's default
    write_tree(tmp_path, {"config.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"], d["fix"]["applicability"]) for d in diags] == [("SGL104", 10, "safe")]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "config.yaml").read_text() == text.replace("attention_backend: fa3", "attention_backend: flashinfer")


def test_the_vllm_section_beside_it_is_not_read_and_false_values_are_not_passed():
    text = config(extra="  attention_backend: triton\n  enable_nan_detection: false\n")
    [ctx] = lint_text_result(text, "framework-config", name="config.yaml").contexts
    got = settings(ctx)
    assert got["attention_backend"] == "triton" and "enable_nan_detection" not in got  # get_py_cmd drops False


def test_a_key_sglangconfig_does_not_have_is_refused():
    text = config(extra="  enable_deterministic_inference: true\n")
    got = [(d.code, d.span.text) for d in lint_text(text, "framework-config", name="config.yaml")]
    assert got == [("SGL301", "enable_deterministic_inference")]


def test_detection_needs_areal_keys_beside_the_section():
    from pathlib import PurePath

    from linter.formats import detect

    assert detect(PurePath("c.yaml"), config()).name == "framework-config"
    assert detect(PurePath("c.yaml"), "sglang:\n  attention_backend: fa4\n") is None


def test_a_config_whose_rollout_runs_vllm_does_not_use_its_sglang_section():
    assert lint_text_result(config(target="B200", backend="vllm:d4t8"), "framework-config",
                            name="config.yaml").contexts == []


def test_a_release_before_0_5_10_post1_is_refused_when_the_file_pins_it():
    got = lint_text(config(), "framework-config", name="config.yaml", sglang_version="0.5.9")
    assert any(d.code == "SGL301" and "0.5.10.post1" in d.message for d in got)


# -- the command line -------------------------------------------------------------------------------


def test_command_line_overrides_over_the_config_and_the_fix_lands_in_the_override(tmp_path, capsys):
    write_tree(tmp_path, {"config.yaml": config(target="B200")})
    script = ("# lint-configs: target-gpu=B200\n"
              "python3 -m areal.infra.launcher.local train.py --config config.yaml rollout.backend=sglang:d2t4 "
              "sglang.attention_backend=fa3\n")
    write_tree(tmp_path, {"run.sh": script})
    with chdir(tmp_path):
        [ctx] = lint_text_result(script, "shell", name="run.sh").contexts
    got = settings(ctx)
    assert ctx.launch.program == "AReaL (sglang: section)" and ctx.launch.source.path.name == "run.sh"
    assert got["tp_size"] == "4" and got["mem_fraction_static"] == "0.8" and got["attention_backend"] == "fa3"
    _, diags = lint_json(tmp_path, capsys)
    assert sorted((d["path"], d["code"], d["line"]) for d in diags) == [("config.yaml", "SGL104", 7),
                                                                        ("run.sh", "SGL104", 2)]
    run(tmp_path, capsys, "--fix", "run.sh")
    assert (tmp_path / "run.sh").read_text() == script.replace("attention_backend=fa3", "attention_backend=flashinfer")


def test_an_override_of_a_key_the_section_interpolates_reaches_it_and_is_fixed_there(tmp_path, capsys):
    # AReaL merges the overrides into the config before OmegaConf resolves ${actor.path}
    # (areal/api/cli_args.py:2960-2963): the model is the override's, located on the command line
    write_tree(tmp_path, {"config.yaml": config(target="B200", model="Qwen/Qwen3-1.7B")})
    script = "# sglang\npython3 train.py --config config.yaml actor.path=openai/gpt-oss-120b\n"
    with chdir(tmp_path):
        [ctx] = lint_text_result(script, "shell", name="run.sh").contexts
    assert settings(ctx)["model_path"] == "openai/gpt-oss-120b" and ctx.model.path == "openai/gpt-oss-120b"
    model = next(s for s in ctx.parsed.settings if s.dest == "model_path")
    assert model.value_span().source.path.name == "run.sh" and model.value_span().text == "openai/gpt-oss-120b"
    # the direct override still wins over the interpolation
    with chdir(tmp_path):
        [ctx] = lint_text_result("# sglang\npython3 train.py --config config.yaml actor.path=a/b sglang.model_path=openai/gpt-oss-120b\n",
                                 "shell", name="run.sh").contexts
    assert settings(ctx)["model_path"] == "openai/gpt-oss-120b"


def test_the_single_controller_form_and_a_missing_config_with_sglang_overrides(tmp_path):
    write_tree(tmp_path, {"config.yaml": config()})
    with chdir(tmp_path):
        [ctx] = lint_text_result("python3 examples/gsm8k_rl.py --config config.yaml scheduler.type=local "
                                 "sglang.log_level=info\n", "shell", name="run.sh").contexts
        assert settings(ctx)["model_path"] == "Qwen/Qwen3-8B"
        [ctx] = lint_text_result("python3 train.py --config elsewhere.yaml sglang.model_path=Qwen/Qwen3-8B\n",
                                 "shell", name="run.sh").contexts
        assert settings(ctx)["attention_backend"] == "fa3"


def test_command_line_decoys(tmp_path, capsys):
    write_tree(tmp_path, {"config.yaml": config()})
    with chdir(tmp_path):
        for line in ("python3 train.py --config config.yaml rollout.backend=vllm:d4t8 sglang.log_level=info",
                     "python3 train.py --config config.yaml rollout.backend=$BACKEND sglang.log_level=info",
                     "python3 train.py --config other.yaml lr=1e-6  # not sglang"):
            assert lint_text_result(line + "\n", "shell", name="run.sh").contexts == [], line
    write_tree(tmp_path, {"run.sh": "python3 train.py --config config.yaml rollout.backend=$BACKEND "
                                    "sglang.log_level=info\n"})
    _, out, _ = run(tmp_path, capsys, "--explain", "run.sh:1")
    assert "not known statically" in out


# -- SGLangConfig.build_cmd -------------------------------------------------------------------------

BUILD = """\
# lint-configs: target-gpu=B200
import subprocess
from areal.api.cli_args import SGLangConfig

cmd = SGLangConfig.build_cmd(
    sglang_config=SGLangConfig(model_path="Qwen/Qwen3-8B", attention_backend="fa3", mem_fraction_static=0.3),
    host="localhost", port=1234, tp_size=2, base_gpu_id=0,
)
process = subprocess.Popen(cmd)
"""


def test_build_cmd_with_a_config_call_is_a_launch_and_fixed_in_the_call(tmp_path, capsys):
    [ctx] = lint_text_result(BUILD, "python", name="launch.py").contexts
    got = settings(ctx)
    assert got["tp_size"] == "2" and got["base_gpu_id"] == "0" and got["mem_fraction_static"] == "0.3"
    assert [c.count for c in ctx.launch.gpu_counts] == [2]
    write_tree(tmp_path, {"launch.py": BUILD})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"]) for d in diags] == [("SGL104", 6)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "launch.py").read_text() == BUILD.replace('"fa3"', '"flashinfer"')


def test_build_cmd_default_backend_and_a_config_loaded_from_yaml(tmp_path):
    nb_like = ("# lint-configs: target-gpu=B200\nfrom areal.api.cli_args import GRPOConfig, SGLangConfig, "
               "load_expr_config\n\nargs = [\"--config\", \"config.yaml\"]\nconfig, _ = load_expr_config(args, "
               "GRPOConfig)\nconfig.sglang.log_level = \"info\"\ncmd = SGLangConfig.build_cmd(config.sglang, "
               "tp_size=1, base_gpu_id=1)\n")
    write_tree(tmp_path, {"config.yaml": config(), "nb.py": nb_like})
    with chdir(tmp_path):
        result = lint_text_result(nb_like, "python", name="nb.py")
    [ctx] = result.contexts
    got = settings(ctx)
    assert got["model_path"] == "Qwen/Qwen3-8B" and got["log_level"] == "info" and got["tp_size"] == "1"
    [d] = result.diagnostics  # AReaL's fa3 on B200, located at the YAML's sglang: key
    assert d.code == "SGL104" and d.span.source.path.name == "config.yaml"


def test_build_cmd_with_a_config_not_known_statically_is_not_a_launch():
    text = ("from areal.api.cli_args import SGLangConfig\n\ndef start(cfg):\n"
            "    return SGLangConfig.build_cmd(cfg, tp_size=1, base_gpu_id=0)\n")
    assert lint_text_result(text, "python", name="launch.py").contexts == []
    vllm = "from areal.api.cli_args import vLLMConfig\n\ncmd = vLLMConfig.build_cmd(vLLMConfig(model='m'), 1, 1)\n"
    assert lint_text_result(vllm, "python", name="launch.py").contexts == []
