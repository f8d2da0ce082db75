"""SkyPilot tasks, dstack configurations and Truss configs: every accelerator form, scripts with their
variables, the release and fixes landing where values are written."""

from __future__ import annotations

import pytest

from linter.engine import extract_text, lint_text, lint_text_result
from linter.formats import detect
from linter.gpus.cloud import dstack_gpu, skypilot_accelerator, truss_accelerator
from linter.launch import MStr
from linter.source import SourceFile
from tests.helpers import lint_json, run, write_tree

# GLM-4.7-Flash is absorbed MLA: fa4 + deterministic inference is refused below SM100 (SGL101).
R1 = "python3 -m sglang.launch_server --model-path zai-org/GLM-4.7-Flash --attention-backend fa4 " \
     "--enable-deterministic-inference"


def _m(text: str) -> MStr:
    src = SourceFile(None, "x", text)
    return MStr.literal(src, 0, len(text))


def decls(fmt: str, text: str) -> list[tuple[str, str]]:
    """(name, the file's text at its span) of every target GPU the file declares."""
    ex = extract_text(text, fmt)
    out = [(d.name, d.span.text) for d in ex.gpu_decls]
    for launch in ex.launches:
        out += [(d.name, d.span.text) for d in launch.gpu_decls if (d.name, d.span.text) not in out]
    return out


# --- SkyPilot ------------------------------------------------------------------------------------

SKY = "resources:\n{resources}\nrun: |\n  " + R1 + "\n"


@pytest.mark.parametrize("resources,names", [
    ("  accelerators: H100:8", ["H100"]),
    ("  accelerators: H100", ["H100"]),
    ("  accelerators: {H100: 8}", ["H100"]),
    ("  accelerators: {H200:8, B200:8}", ["H200", "B200"]),
    ("  accelerators: {A100-80GB:8}", ["A100-80GB"]),  # a flow-mapping key `A100-80GB:8` with a null value
    ("  accelerators: { A100-80GB:8 }", ["A100-80GB"]),
    ("  accelerators: [H100:8, A100-80GB:8]", ["H100", "A100-80GB"]),
    ("  accelerators:\n    - H100:8\n    - L4", ["H100", "L4"]),
    ("  accelerators:\n    H100: 8\n    B200: 8", ["H100", "B200"]),
    ("  accelerators: '{H100:8, B200:8}'", ["H100", "B200"]),
    ("  any_of:\n    - accelerators: H100:8\n    - accelerators: {B200: 8}", ["H100", "B200"]),
    ("  ordered:\n    - accelerators: GB200:4\n    - accelerators: [H200:8]", ["GB200", "H200"]),
    ("  accelerators: H100:8\n  any_of:\n    - use_spot: true\n    - use_spot: false", ["H100"]),
    ("  instance_type: p5.48xlarge", ["p5.48xlarge"]),
    ("  instance_type: m5.xlarge", []),  # a CPU instance names no GPU
    ("  cpus: 4+\n  memory: 32+", []),
])
def test_skypilot_accelerator_forms(resources, names):
    got = decls("skypilot", SKY.format(resources=resources))
    assert [n for n, _ in got] == names
    assert all(name == written for name, written in got)  # each located exactly at its name


def test_skypilot_any_of_set_checks_every_candidate():
    diags = lint_text(SKY.format(resources="  accelerators: {H200:8, B200:8, A100-80GB:8}"), "skypilot")
    assert [d.code for d in diags] == ["SGL101"]
    ctx = lint_text_result(SKY.format(resources="  accelerators: {H200:8, B200:8}"), "skypilot").contexts[0]
    assert [t.name for t in ctx.targets] == ["H200", "B200"]


def test_skypilot_unknown_accelerator_is_sgl003_at_the_name():
    text = SKY.format(resources="  accelerators: {H100:8, Z999:8}")
    sgl003 = [d for d in lint_text(text, "skypilot") if d.code == "SGL003"]
    assert len(sgl003) == 1
    assert sgl003[0].span.text == "Z999" and sgl003[0].span.line == 2


def test_skypilot_envs_reach_run_and_the_fix_lands_in_envs(tmp_path, capsys):
    text = ("name: glm\nresources:\n  accelerators: H100:1\nenvs:\n  MODEL: zai-org/GLM-4.7-Flash\n  BACKEND: fa4\n"
            "setup: |\n  pip install \"sglang[all]==0.5.18\"\nrun: |\n"
            "  python -m sglang.launch_server --model-path $MODEL --attention-backend $BACKEND \\\n"
            "    --enable-deterministic-inference --port 8000\n")
    write_tree(tmp_path, {"task.yaml": text})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("SGL101", 6, 12)]
    ctx = lint_text_result(text, "skypilot").contexts[0]
    assert ctx.table.version == "0.5.18"  # from the pin in setup:
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "task.yaml").read_text() == text.replace("BACKEND: fa4", "BACKEND: fa3")


def test_skypilot_null_env_is_unknown_and_setup_is_read():
    text = ("resources:\n  accelerators: H100:1\nenvs:\n  BACKEND: null\n"
            "setup: |\n  python -m sglang.launch_server --model-path m --attention-backend fa3\n"
            "run: |\n  python -m sglang.launch_server --model-path m --attention-backend $BACKEND\n")
    ex = extract_text(text, "skypilot")
    assert [(launch.key, launch.args[-1].value) for launch in ex.launches] == [("setup", "fa3"), ("run", None)]


def test_skypilot_is_detected_beside_other_yaml():
    from pathlib import PurePath

    assert detect(PurePath("sglang.yaml"), SKY.format(resources="  accelerators: L4")).name == "skypilot"
    assert detect(PurePath("serve.yaml"), "service:\n  replicas: 2\nrun: python -m sglang.launch_server\n").name \
        == "skypilot"
    assert detect(PurePath("x.yaml"), "run: 1\n") is None


def test_skypilot_broken_run_script_is_a_diagnostic_and_setup_still_linted():
    text = ("resources:\n  accelerators: H100:1\nsetup: |\n  " + R1 + "\nrun: |\n  echo \"unterminated\n")
    diags = lint_text(text, "skypilot")
    assert [(d.code, d.span.line) for d in diags] == [("SGL101", 4), ("SGL001", 6)]


# --- dstack ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec,names", [
    ("H100:8", ["H100"]),
    ("H100", ["H100"]),
    ("A100,H100:80GB:2", ["A100", "H100"]),
    ("nvidia:H100:8", ["H100"]),
    ("A100:40GB..80GB:1..2", ["A100"]),
    ("24GB..80GB", []),
    ("80GB", []),
    ("8", []),
    ("1..4", []),
    ("24GB..:2", []),
])
def test_dstack_gpu_strings(spec, names):
    got = dstack_gpu(_m(spec))
    assert [d.name for d in got] == names
    assert all(d.span.text == d.name for d in got)


@pytest.mark.parametrize("gpu,names", [
    ("gpu: H100:8", ["H100"]),
    ("gpu: 24GB..80GB", []),
    ("gpu: 1", []),
    ("gpu:\n    name: [H100, A100]\n    count: 8", ["H100", "A100"]),
    ("gpu:\n    name: H200\n    memory: 141GB", ["H200"]),
    ("gpu: {name: [B200], count: 8}", ["B200"]),
])
def test_dstack_resources_gpu_forms(gpu, names):
    text = f"type: task\nresources:\n  {gpu}\ncommands:\n  - {R1}\n"
    got = decls("dstack", text)
    assert [n for n, _ in got] == names and all(n == w for n, w in got)


def test_dstack_commands_env_list_image_and_replica_groups(tmp_path, capsys):
    text = ("type: service\nimage: lmsysorg/sglang:v0.5.18-cu129\nenv:\n  - MODEL_ID=zai-org/GLM-4.7-Flash\n"
            "  - HF_TOKEN\nreplicas:\n  - count: 1\n    commands:\n      - export BACKEND=fa4\n      - |\n"
            "        python3 -m sglang.launch_server --model-path $MODEL_ID --attention-backend $BACKEND \\\n"
            "          --enable-deterministic-inference\n    resources:\n      gpu: H100:1\n"
            "  - count: 1\n    commands:\n      - python3 -m sglang.launch_server --model-path $MODEL_ID "
            "--attention-backend fa4 --enable-deterministic-inference\n    resources:\n      gpu: B200:1\n")
    result = lint_text_result(text, "dstack")
    assert [(c.launch.key, [t.name for t in c.targets], c.table.version) for c in result.contexts] == [
        ("replicas[0].commands", ["H100"], "0.5.18"), ("replicas[1].commands", ["B200"], "0.5.18")]
    assert [(d.code, d.span.line, d.span.text) for d in result.diagnostics] == [("SGL101", 9, "fa4")]
    write_tree(tmp_path, {".dstack.yml": text})
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / ".dstack.yml").read_text() == text.replace("export BACKEND=fa4", "export BACKEND=fa3")


def test_dstack_env_mapping_and_memory_only_gpu_gives_no_target():
    text = ("type: task\nenv:\n  B: fa4\nresources:\n  gpu: 40GB..\ncommands:\n"
            "  - python3 -m sglang.launch_server --model-path m --attention-backend $B\n")
    ctx = lint_text_result(text, "dstack").contexts[0]
    assert list(ctx.targets) == [] and ctx.launch.args[-1].value == "fa4"


# --- Truss ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("acc,names", [("H100:2", ["H100"]), ("H100_40GB", ["H100_40GB"]), ("A10G", ["A10G"]),
                                       ("L4:4", ["L4"])])
def test_truss_accelerator_forms(acc, names):
    text = (f"model_name: glm\nresources:\n  accelerator: {acc}\n  use_gpu: true\ndocker_server:\n"
            f"  start_command: {R1}\n  server_port: 30000\n")
    got = decls("truss", text)
    assert [n for n, _ in got] == names and all(n == w for n, w in got)
    assert [d.name for d in truss_accelerator(_m(acc))] == names


def test_truss_start_command_env_and_base_image(tmp_path, capsys):
    text = ("model_name: glm\nbase_image:\n  image: lmsysorg/sglang:v0.5.18-cu129\nenvironment_variables:\n"
            "  BACKEND: fa4\ndocker_server:\n  start_command: sh -c \"python3 -m sglang.launch_server --model-path "
            "zai-org/GLM-4.7-Flash --tp-size 2 --attention-backend $BACKEND --enable-deterministic-inference\"\n"
            "  server_port: 30000\nresources:\n  accelerator: H100:2\n")
    result = lint_text_result(text, "truss")
    assert result.contexts[0].table.version == "0.5.18"
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("SGL101", 5)]
    write_tree(tmp_path, {"config.yaml": text})
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "config.yaml").read_text() == text.replace("BACKEND: fa4", "BACKEND: fa3")


def test_skypilot_accelerator_string_helper():
    assert [d.name for d in skypilot_accelerator(_m("tpu-v5-8"))] == ["tpu-v5-8"]
    assert [d.name for d in skypilot_accelerator(_m("A100:0.5"))] == ["A100"]
    assert skypilot_accelerator(_m("8")) == []


def test_dstack_task_groups_and_expressions():
    text = ("type: task\nimage: lmsysorg/sglang:v0.5.10.post1\nenv:\n  - MODEL_ID=zai-org/GLM-4.5-Air-FP8\n"
            "groups:\n  - nodes: 1\n    commands:\n      - |\n        smg launch --pd-disaggregation "
            "--prefill http://${{ groups[1].nodes[0].IP_ADDRESS }}:8000\n    resources:\n      cpu: 4\n"
            "  - nodes: 1\n    commands:\n      - |\n        python -m sglang.launch_server --model-path $MODEL_ID \\\n"
            "          --dist-init-addr ${{ groups[1].nodes[0].IP_ADDRESS }}:5000\n    resources:\n      gpu: H200\n")
    result = lint_text_result(text, "dstack")
    assert [(c.launch.key, [t.value for t in c.launch.args], [t.name for t in c.targets]) for c in result.contexts] \
        == [("groups[1].commands", ["--model-path", "zai-org/GLM-4.5-Air-FP8", "--dist-init-addr", None], ["H200"])]


def test_skypilot_docker_image_id_gives_the_release():
    text = ("resources:\n  image_id: docker:lmsysorg/sglang:v0.5.18-cu129\n  accelerators: H100:8\n"
            "setup: |\n  pip install \"sglang[all]==0.4.6\"\nrun: |\n  python -m sglang.launch_server --tp 8\n")
    (ctx,) = lint_text_result(text, "skypilot").contexts
    assert ctx.table.version == "0.5.18" and ctx.launch.image.text == "lmsysorg/sglang:v0.5.18-cu129"
