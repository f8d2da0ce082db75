"""Issue 36: what hardware a launch is given (GPU count, nodes, type, memory) and whether it fits:
parallelism against the GPU count (SGL401), SGLang's checks on the parallel sizes (SGL402), weights
against memory (SGL403) and the KV cache's room (SGL404)."""

from __future__ import annotations

import json

import pytest

from linter.engine import extract_text, lint_text, lint_text_result
from tests.helpers import lint_json, write_tree


def counts(text: str, fmt: str, name: str | None = None) -> list[tuple]:
    """``(resource, count, per)`` of each count the first launch is given, then the file's."""
    ex = extract_text(text, fmt, name)
    own = [(c.resource, c.count, c.per) for c in ex.launches[0].gpu_counts] if ex.launches else []
    return own + [(c.resource, c.count, c.per) for c in ex.gpu_counts]


def given(text: str, fmt: str, targets=(), name: str | None = None):
    res = lint_text_result(text, fmt, targets, name=name, preview=True)
    return res.contexts[0].given


def codes(text: str, fmt: str, targets=(), name: str | None = None, version: str | None = None) -> list[str]:
    return [d.code for d in lint_text(text, fmt, targets, name=name, sglang_version=version, preview=True)]


K8S = """\
apiVersion: apps/v1
kind: Deployment
metadata: {{name: sglang}}
spec:
  template:
    spec:
      containers:
      - name: sglang
        image: lmsysorg/sglang:v0.5.23-cu129
        command: ["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B", "--tp", "{tp}"]
{env}        resources:
          {section}:
            {resource}: {count}
"""

COMPOSE = """\
services:
  sglang:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp {tp}
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              {devices}
              capabilities: [gpu]
"""

SLURM = """\
#!/bin/bash
{sbatch}
srun python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp {tp}
"""


# -- 1. every count declaration --------------------------------------------------------------------

@pytest.mark.parametrize("section", ["limits", "requests"])
@pytest.mark.parametrize("resource", ["nvidia.com/gpu", "amd.com/gpu"])
def test_kubernetes_resources(section, resource):
    text = K8S.format(tp=4, env="", section=section, resource=resource, count=4)
    assert counts(text, "kubernetes") == [(resource, 4, "node")]


def test_kubernetes_container_env_visible_devices():
    env = "        env:\n        - name: CUDA_VISIBLE_DEVICES\n          value: \"0,1\"\n"
    text = K8S.format(tp=2, env=env, section="limits", resource="nvidia.com/gpu", count=8)
    assert counts(text, "kubernetes") == [("nvidia.com/gpu", 8, "node"), ("CUDA_VISIBLE_DEVICES", 2, "node")]
    assert given(text, "kubernetes").count == 2


def test_nvidia_visible_devices_all_in_the_container_widens_past_the_limit():
    env = "        env:\n        - name: NVIDIA_VISIBLE_DEVICES\n          value: all\n"
    text = K8S.format(tp=8, env=env, section="limits", resource="nvidia.com/gpu", count=4)
    g = given(text, "kubernetes")
    assert g.count is None  # the limit no longer bounds what the container sees
    assert "SGL401" not in codes(text, "kubernetes")


LWS = """\
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {{name: dsv3}}
spec:
  leaderWorkerTemplate:
    size: 2
    leaderTemplate:
      spec:
        containers:
        - name: leader
          image: lmsysorg/sglang:v0.5.23-cu129
          command: ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
                    "--tp", "16"{nnodes}]
          resources:
            limits:
              nvidia.com/gpu: 8
"""


def test_leaderworkerset_size_times_the_pod_count():
    text = LWS.format(nnodes=', "--nnodes", "2"')
    g = given(text, "kubernetes")
    assert (g.count, g.nodes) == (8, 2)
    assert g.where(g.nodes_from).startswith("the LeaderWorkerSet spec.leaderWorkerTemplate.size")


def test_two_nodes_of_eight_with_tp_16_and_nnodes_2_is_clean():
    assert codes(LWS.format(nnodes=', "--nnodes", "2"'), "kubernetes", ("H200",)) == []


def test_tp_16_without_nnodes_on_nodes_of_eight_says_to_add_nnodes():
    [d] = lint_text(LWS.format(nnodes=""), "kubernetes", ("H200",), preview=True)
    assert d.code == "SGL401"
    assert "GPUs 0–15" in d.message and "gives it 8" in d.message
    assert "--nnodes 2 spreads the ranks over them (8 per node)" in d.message


@pytest.mark.parametrize("size,codes", [(2, []), (1, ["SGL401"])])
def test_nnodes_from_the_lws_group_size_variable(size, codes):
    text = LWS.format(nnodes=', "--nnodes", "$(LWS_GROUP_SIZE)"').replace("size: 2", f"size: {size}")
    res = lint_text_result(text, "kubernetes", ("H200",), preview=True)
    assert [d.code for d in res.diagnostics] == codes
    nnodes = res.contexts[0].parsed.get("nnodes")
    assert nnodes.value == str(size) and nnodes.value_location().line == 6  # the controller copies size


@pytest.mark.parametrize("devices,expected", [
    ("count: 4", ("deploy.resources.reservations.devices count", 4, "node")),
    ("count: all", ("deploy.resources.reservations.devices count", None, "node")),
    ("device_ids: ['0', '3']", ("deploy.resources.reservations.devices device_ids", 2, "node")),
])
def test_compose_device_reservations(devices, expected):
    assert counts(COMPOSE.format(tp=2, devices=devices), "compose") == [expected]


def test_compose_count_from_the_dotenv_default():
    text = COMPOSE.format(tp=2, devices="count: ${GPUS:-2}")
    assert counts(text, "compose") == [("deploy.resources.reservations.devices count", 2, "node")]


def test_compose_service_level_gpus():
    text = ("services:\n  s:\n    image: lmsysorg/sglang:latest\n    gpus: all\n"
            "    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n")
    assert counts(text, "compose") == [("gpus", None, "node")]


@pytest.mark.parametrize("flag,count", [("--gpus 2", 2), ("--gpus all", None), ("--gpus '\"device=0,1,2\"'", 3),
                                        ("--gpus device=1", 1), ("--gpus count=4,capabilities=utility", 4)])
def test_docker_run_gpus(flag, count):
    text = f"#!/bin/bash\ndocker run {flag} lmsysorg/sglang:latest python3 -m sglang.launch_server --model-path m\n"
    assert counts(text, "shell") == [("--gpus", count, "node")]


@pytest.mark.parametrize("line,count", [
    ("CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path m", 4),
    ("export CUDA_VISIBLE_DEVICES=6,7\npython -m sglang.launch_server --model-path m", 2),
    ("CUDA_VISIBLE_DEVICES= python -m sglang.launch_server --model-path m", 0),
    ("CUDA_VISIBLE_DEVICES=-1 python -m sglang.launch_server --model-path m", 0),
    ("env NVIDIA_VISIBLE_DEVICES=0,1 python -m sglang.launch_server --model-path m", 2),
    ("CUDA_VISIBLE_DEVICES=$GPUS python -m sglang.launch_server --model-path m", None),
])
def test_visible_devices_in_a_script(line, count):
    assert counts(f"#!/bin/bash\n{line}\n", "shell")[0][1] == count


def test_a_plain_assignment_is_not_seen_by_the_program_unless_exported():
    text = "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0,1\npython -m sglang.launch_server --model-path m\n"
    assert counts(text, "shell") == [("CUDA_VISIBLE_DEVICES", None, "node")]  # it may be exported already


def test_srun_does_not_see_what_the_script_exported():
    text = "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0\nsrun --gpus-per-node=4 python -m sglang.launch_server --model-path m\n"
    assert counts(text, "shell") == [("--gpus-per-node", 4, "node")]


@pytest.mark.parametrize("sbatch,expected", [
    ("#SBATCH --gpus-per-node=8", [("--gpus-per-node", 8, "node")]),
    ("#SBATCH --gres=gpu:h100:4", [("--gres", 4, "node")]),
    ("#SBATCH --gres=gpu:2", [("--gres", 2, "node")]),
    ("#SBATCH --gres=gpu", [("--gres", 1, "node")]),
    ("#SBATCH --gpus=16\n#SBATCH --nodes=2", [("--gpus", 16, "job"), ("--nodes", 2, "nodes")]),
    ("#SBATCH --gpus-per-task=1\n#SBATCH --ntasks-per-node=8", [("--gpus-per-task", 8, "node")]),
    ("#SBATCH -N 2\n#SBATCH -G h100:8", [("-N", 2, "nodes"), ("-G", 8, "job")]),
])
def test_slurm_counts(sbatch, expected):
    text = SLURM.format(sbatch=sbatch, tp=1).replace("srun ", "")
    assert counts(text, "shell") == expected


def test_slurm_job_total_over_one_node_is_per_node():
    text = SLURM.format(sbatch="#SBATCH --nodes=1\n#SBATCH --gpus=4", tp=8).replace("srun ", "")
    assert codes(text, "shell") == ["SGL401"]


def test_skypilot_accelerators_and_num_nodes():
    text = ("resources:\n  accelerators: {H100:8, H200:4}\nnum_nodes: 2\n"
            "run: |\n  python -m sglang.launch_server --model-path m --tp 8\n")
    assert counts(text, "skypilot", "task.yaml") == [("accelerators", 8, "node"), ("num_nodes", 2, "nodes")]


SKY_RUN = """\
resources:
  accelerators: @ACC@
@NODES@
setup: |
  pip install "sglang[all]==0.5.23"
run: |
  python -m sglang.launch_server --model-path @MODEL@ --tp $SKYPILOT_NUM_GPUS_PER_NODE \\
    --nnodes $SKYPILOT_NUM_NODES --node-rank $SKYPILOT_NODE_RANK --dist-init-addr $HEAD:5000
"""


@pytest.mark.parametrize("acc,nodes,model,expected", [
    ("H100:8", "", "meta-llama/Llama-3.1-405B-Instruct", ["SGL403"]),      # tp 8 on one node: 94.5 GiB a GPU
    ("H200:8", "num_nodes: 1", "meta-llama/Llama-3.1-405B-Instruct", []),
    ("H100:8", "num_nodes: 2", "deepseek-ai/DeepSeek-V3", ["SGL403"]),     # tp 8 over 2 nodes: still tp 8
    ("{H100:8, H200:4}", "", "deepseek-ai/DeepSeek-V3", []),               # two counts: tp unknown
])
def test_skypilot_run_variables_give_the_counts(acc, nodes, model, expected):
    text = SKY_RUN.replace("@ACC@", acc).replace("@NODES@", nodes).replace("@MODEL@", model)
    assert codes(text, "skypilot", name="task.yaml") == expected


@pytest.mark.parametrize("nodes,expected", [(2, []), (1, ["SGL403"])])
def test_skypilot_tp_computed_from_its_variables(nodes, expected):
    # SkyPilot's own DeepSeek-R1 recipe (llm/deepseek-r1/deepseek-r1-671B.yaml@13e998c0):
    # TP=$(($SKYPILOT_NUM_GPUS_PER_NODE * $SKYPILOT_NUM_NODES)) — tp 16 over two nodes of 8 fits
    text = SKY_RUN.replace("@ACC@", "H100:8").replace("@NODES@", f"num_nodes: {nodes}").replace(
        "@MODEL@", "deepseek-ai/DeepSeek-V3").replace(
        "run: |\n", "run: |\n  TP=$(($SKYPILOT_NUM_GPUS_PER_NODE * $SKYPILOT_NUM_NODES))\n").replace(
        "--tp $SKYPILOT_NUM_GPUS_PER_NODE", "--tp $TP")
    ctx = lint_text_result(text, "skypilot", name="task.yaml", preview=True).contexts[0]
    assert ctx.parsed.get("tp_size").value == str(8 * nodes)
    assert codes(text, "skypilot", name="task.yaml") == expected


def test_skypilot_run_variables_are_not_given_to_setup_or_over_envs():
    text = SKY_RUN.replace("@ACC@", "H100:8").replace("@NODES@", "envs:\n  SKYPILOT_NUM_NODES: 4")
    ctx = lint_text_result(text.replace("@MODEL@", "m"), "skypilot", name="task.yaml", preview=True).contexts[0]
    assert (ctx.parsed.get("tp_size").value, ctx.parsed.get("nnodes").value) == ("8", "4")
    setup = text.replace("@MODEL@", "m").replace("setup: |\n  pip", "setup: |\n  python -m sglang.launch_server "
                                                 "--model-path m --tp $SKYPILOT_NUM_GPUS_PER_NODE\n  pip")
    first = lint_text_result(setup, "skypilot", name="task.yaml", preview=True).contexts[0]
    from linter.launch import UNKNOWN

    assert first.parsed.get("tp_size").value is UNKNOWN


@pytest.mark.parametrize("spec,count", [('"H100:8"', 8), ('"A100:40GB:2"', 2), ("2", 2), ('"1..4"', 4),
                                        ('"2.."', None), ('"H100"', 1)])
def test_dstack_gpu(spec, count):
    text = (f"type: task\nimage: lmsysorg/sglang:latest\nresources:\n  gpu: {spec}\n"
            "commands:\n  - python -m sglang.launch_server --model-path m\n")
    assert counts(text, "dstack", "serve.dstack.yml") == [("gpu", count, "node")]


def test_truss_accelerator():
    text = ("base_image:\n  image: lmsysorg/sglang:latest\nresources:\n  accelerator: H100:2\n"
            "docker_server:\n  start_command: python -m sglang.launch_server --model-path m\n")
    assert counts(text, "truss", "config.yaml") == [("accelerator", 2, "node")]


def test_modal_gpu_count():
    text = ('import modal\napp = modal.App()\n\n@app.function(gpu="H100:8")\ndef serve():\n'
            '    import subprocess\n    subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m", '
            '"--tp", "16"])\n')
    res = lint_text_result(text, "python", name="serve.py", preview=True)
    assert res.contexts[0].given.count == 8
    assert [d.code for d in res.diagnostics] == ["SGL401"]


def test_a_directive_with_a_count():
    text = "#!/bin/bash\n# lint-configs: target-gpu=H100:4\npython -m sglang.launch_server --model-path m --tp 8\n"
    g = given(text, "shell")
    assert g.count == 4 and g.memory.mib == 81559


def test_all_and_absent_are_unknown_never_guessed():
    assert given(COMPOSE.format(tp=8, devices="count: all"), "compose").count is None
    assert given("#!/bin/bash\npython -m sglang.launch_server --model-path m --tp 8\n", "shell").count is None


# -- 2. parallelism against the count -----------------------------------------------------------

def test_tp_8_on_4_gpus_in_kubernetes():
    text = K8S.format(tp=8, env="", section="limits", resource="nvidia.com/gpu", count=4)
    [d] = lint_text(text, "kubernetes", preview=True)
    assert (d.code, d.severity, d.span.line) == ("SGL401", "error", 10)
    assert "tp 8 puts the launch's ranks on GPUs 0–7" in d.message
    assert "the container's resources nvidia.com/gpu at deployment.yaml:13 gives it 4" in d.message
    assert [label for _, label in d.labels] == ["gives 4 GPUs"]


def test_tp_8_on_4_gpus_in_compose():
    assert codes(COMPOSE.format(tp=8, devices="count: 4"), "compose") == ["SGL401"]
    assert codes(COMPOSE.format(tp=4, devices="count: 4"), "compose") == []


def test_tp_8_on_4_gpus_in_slurm():
    assert codes(SLURM.format(sbatch="#SBATCH --gres=gpu:h100:4", tp=8), "shell") == ["SGL401"]
    assert codes(SLURM.format(sbatch="#SBATCH --gres=gpu:h100:8", tp=8), "shell") == []


def test_count_all_gives_no_count_finding():
    assert "SGL401" not in codes(COMPOSE.format(tp=64, devices="count: all"), "compose")


@pytest.mark.parametrize("args,needed", [
    ("--tp 2 --dp 2", 4),                                  # replicas side by side
    ("--tp 4 --dp 4 --enable-dp-attention", 4),             # DP attention inside the tp group
    ("--tp 2 --pp-size 2", 4),
    ("--tp 2 --base-gpu-id 2", 4),
    ("--tp 2 --gpu-id-step 2", 3),                          # GPUs 0 and 2
    ("--tp 16 --nnodes 2", 8),
    ("--tp 8 --pp-size 2 --nnodes 2", 8),
])
def test_placement_per_node(args, needed):
    from linter.sglang.placement import placement

    ctx = lint_text_result(f"#!/bin/bash\npython -m sglang.launch_server --model-path m {args}\n", "shell", preview=True).contexts[0]
    assert placement(ctx.parsed, ctx.table).needed == needed


def test_placement_before_pipeline_ranks_joined_the_formula():
    from linter.sglang.placement import placement

    res = lint_text_result("#!/bin/bash\npython -m sglang.launch_server --model-path m --tp 2 --dp 2\n", "shell",
                           sglang_version="0.4.3", preview=True)
    ctx = res.contexts[0]
    assert placement(ctx.parsed, ctx.table).needed == 4


def test_base_gpu_id_past_the_last_gpu():
    [d] = lint_text("#!/bin/bash\n# lint-configs: target-gpu=H100:8\n"
                    "python -m sglang.launch_server --model-path m --tp 4 --base-gpu-id 6\n", "shell", preview=True)
    assert d.code == "SGL401" and "--base-gpu-id 6 pushes them past the last GPU" in d.message


SUM = """\
apiVersion: v1
kind: Pod
metadata: {{name: pd}}
spec:
  containers:
  - name: sglang
    image: lmsysorg/sglang:v0.5.23-cu129
    command: ["bash", "-c"]
    args:
    - |
      python -m sglang.launch_server --model-path m --tp 4 {extra1} &
      python -m sglang.launch_server --model-path m --tp 4 {extra2}
    resources:
      limits:
        nvidia.com/gpu: {count}
"""


def test_launches_in_one_container_are_summed():
    text = SUM.format(extra1="", extra2="--port 30001", count=4)
    diags = lint_text(text, "kubernetes", preview=True)
    assert [d.code for d in diags] == ["SGL401"]
    assert "together 8 GPUs" in diags[0].message and diags[0].span.line == 12
    assert codes(SUM.format(extra1="", extra2="--base-gpu-id 4", count=8), "kubernetes") == []


def test_summing_spares_servers_that_share_the_memory_on_purpose():
    text = SUM.format(extra1="--mem-fraction-static 0.4", extra2="--mem-fraction-static 0.4", count=4)
    assert codes(text, "kubernetes") == []


def test_launches_in_branches_or_in_the_foreground_are_not_summed():
    script = ("#!/bin/bash\n# lint-configs: target-gpu=H100:4\nif [ \"$MODE\" = a ]; then\n"
              "  python -m sglang.launch_server --model-path m --tp 4 &\nelse\n"
              "  python -m sglang.launch_server --model-path m --tp 4 &\nfi\n"
              "python -m sglang.launch_server --model-path m --tp 4\n"
              "python -m sglang.launch_server --model-path m --tp 4\n")
    assert codes(script, "shell") == []


# -- SGLang's own checks on the parallel sizes ----------------------------------------------------

@pytest.mark.parametrize("args,version,expected", [
    ("--tp 8 --nnodes 3", "0.5.23", "tp_size must be divisible by number of nodes"),
    ("--tp 8 --nnodes 3", "0.4.5", "tp_size must be divisible by number of nodes"),
    ("--tp 4 --pp-size 2 --nnodes 4", "0.5.23", None),
    ("--tp 4 --pp-size 3 --nnodes 2", "0.5.23", None),
    ("--tp 3 --pp-size 3 --nnodes 2", "0.5.23", "tp_size must be divisible by number of nodes"),
    ("--tp 8 --dp 2 --nnodes 2", "0.5.23", "multi-node data-parallel replicas are not supported"),
    ("--tp 8 --dp 2 --nnodes 2", "0.5.18", "multi-node data parallel is not supported unless dp attention!"),
    ("--tp 8 --dp 2 --nnodes 2 --enable-dp-attention", "0.5.18", None),
    ("--tp 8 --dp 3 --enable-dp-attention", "0.5.18", "assert tp_size % dp_size == 0 (8 % 3)"),
    ("--tp 8 --dp 3 --enable-dp-attention", "0.5.23", "assert tp_size % attn_dp_size == 0 (8 % 3)"),
    ("--tp 8 --attn-dp-size 3", "0.5.23", "assert tp_size % attn_dp_size == 0 (8 % 3)"),
    ("--tp 8 --enable-dp-attention", "0.4.10", "Please set a dp-size > 1"),
    ("--tp 8 --enable-dp-attention", "0.5.18", None),
    ("--tp 8 --dp 2 --attn-dp-size 4", "0.5.23", "--dp-size 2 with --attn-dp-size 4: data-parallel replicas"),
    ("--tp 8 --attn-cp-size 3", "0.5.23", "tp_size must be divisible by attn_cp_size"),
    ("--tp 8 --gpu-id-step 0", "0.5.23", "gpu_id_step must be positive"),
    ("--tp 8 --base-gpu-id -1", "0.5.23", "base_gpu_id must be non-negative"),
    # the check's own `tp_size % nnodes` divides by zero (this once stopped the linter: SGL000)
    ("--tp 8 --nnodes 0", "0.5.23", "ZeroDivisionError: integer modulo by zero (--nnodes 0)"),
    ("--tp 8 --nnodes 0", "0.4.3.post4", "ZeroDivisionError: integer modulo by zero (--nnodes 0)"),
])
def test_parallel_size_checks_per_release(args, version, expected):
    diags = [d for d in lint_text(f"#!/bin/bash\npython -m sglang.launch_server --model-path m {args}\n", "shell",
                                  sglang_version=version, preview=True) if d.code == "SGL402"]
    if expected is None:
        assert diags == []
    else:
        assert len(diags) == 1 and expected in diags[0].message, diags
        assert diags[0].notes[0].startswith("source: ")


# -- 3. weights against memory -------------------------------------------------------------------

def test_405b_bf16_on_eight_80gb_gpus_is_an_error():
    [d] = lint_text("#!/bin/bash\n# lint-configs: target-gpu=H100:8\n"
                    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-405B-Instruct --tp 8\n", "shell", preview=True)
    assert d.code == "SGL403" and d.severity == "error"
    assert "needs at least 94.5 GiB of weights on each GPU with tp 8, more than the whole 79.6 GiB of H100:8" \
        in d.message
    assert "short by 14.9 GiB" in d.message
    assert "--tp 16" in d.message and "NVIDIA H200 SXM 141GB" in d.message
    assert "the FP8 checkpoint meta-llama/Llama-3.1-405B-Instruct-FP8" in d.message
    assert any(n.startswith("weights: the model size table") for n in d.notes)
    assert d.span.source.text[d.span.start:d.span.end] == "meta-llama/Llama-3.1-405B-Instruct"


def test_405b_fp8_on_eight_h200_is_clean():
    assert codes("#!/bin/bash\n# lint-configs: target-gpu=H200:8\n"
                 "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-405B-Instruct-FP8 --tp 8\n",
                 "shell") == []


def test_deepseek_v3_on_one_8xh100_node_is_an_error_and_clean_on_8xh200():
    launch = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8\n"
    [d] = lint_text("#!/bin/bash\n# lint-configs: target-gpu=H100:8\n" + launch, "shell", preview=True)
    assert d.code == "SGL403"
    assert "needs at least 79.3 GiB" in d.message and "69.7 GiB SGLang budgets" in d.message
    assert "(81559 MiB × 0.874)" in d.message
    assert codes("#!/bin/bash\n# lint-configs: target-gpu=H200:8\n" + launch, "shell") == []


def test_each_of_several_target_gpus_is_judged():
    # a node affinity In [H100, H200] or a SkyPilot set: the launch may land on either
    launch = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8\n"
    [d] = lint_text("#!/bin/bash\n# lint-configs: target-gpu=H100, H200\n" + launch, "shell", preview=True)
    assert d.code == "SGL403" and "on H100" in d.message
    assert "stops at start-up there (it fits on H200, another target GPU)" in d.message
    assert [lbl for _, lbl in d.labels if lbl.startswith("target")] == ["target H100 (SM90)"]
    [d] = lint_text("#!/bin/bash\n# lint-configs: target-gpu=A100-40GB, H100, H200\n" + launch, "shell", preview=True)
    assert "on H100 (81559 MiB × 0.874): short by 9.6 GiB, so SGLang 0.5.23 stops at start-up there and on " \
        "A100-40GB (it fits on H200, another target GPU)" in d.message
    sky = ("resources:\n  accelerators: {A100-80GB:8, H200:8}\nsetup: pip install sglang==0.5.23\nrun: |\n  " + launch)
    [d] = lint_text(sky, "skypilot", name="task.yaml", preview=True)
    assert d.code == "SGL403" and "on A100-80GB" in d.message and "fits on H200" in d.message
    assert codes(sky.replace("A100-80GB:8", "B200:8"), "skypilot", name="task.yaml") == []


def test_explain_shows_the_memory_of_each_target(tmp_path, capsys):
    from tests.helpers import run

    write_tree(tmp_path, {"serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100, H200\n"
                          "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8\n"})
    _, out, _ = run(tmp_path, capsys, "--explain", "serve.sh:3", "--sglang-version", "0.5.23", ".")
    assert "memory:    81559 MiB per GPU on H100" in out and "memory:    143771 MiB per GPU on H200" in out
    assert "at most 69.7 GiB budgeted" in out


def test_an_unknown_model_gives_no_weights_finding():
    res = lint_text_result("#!/bin/bash\n# lint-configs: target-gpu=H100:8\n"
                           "python -m sglang.launch_server --model-path acme/private-1T --tp 8\n", "shell", preview=True)
    assert res.diagnostics == []
    assert "is not in the model size table" in res.contexts[0].weights_origin


def test_an_ambiguous_gpu_name_takes_the_larger_memory():
    # A100 is 40 or 80 GB: 8 x A100 runs Llama-3.1-405B-FP8 only on the 80 GB part; the name does not say
    launch = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-405B-Instruct-FP8 --tp 8\n"
    assert "SGL403" not in codes("#!/bin/bash\n# lint-configs: target-gpu=A100\n" + launch, "shell")
    assert codes("#!/bin/bash\n# lint-configs: target-gpu=A100-SXM4-40GB\n" + launch, "shell") == ["SGL403"]


@pytest.mark.parametrize("extra", ["--quantization fp8", "--cpu-offload-gb 40"])
def test_quantization_and_offload_are_taken_into_account(extra):
    launch = f"python -m sglang.launch_server --model-path meta-llama/Llama-3.1-405B-Instruct --tp 8 {extra}\n"
    assert "SGL403" not in codes("#!/bin/bash\n# lint-configs: target-gpu=H100:8\n" + launch, "shell")


def test_dp_attention_replicates_the_attention_weights():
    from linter.sglang.weights import table_entry

    mw = table_entry("deepseek-ai/DeepSeek-V3")
    plain, dpa = mw.per_gpu_bytes(8, 1, 1), mw.per_gpu_bytes(8, 8, 1)
    assert dpa - plain == pytest.approx(mw.params["attention"] * 7 / 8, rel=1e-9)


def test_explicit_mem_fraction_is_used_as_written():
    launch = ("python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 1 --mem-fraction-static 0.5\n")
    [d] = lint_text("#!/bin/bash\n# lint-configs: target-gpu=H100:1\n" + launch, "shell", preview=True)
    assert d.code == "SGL403" and "(81559 MiB × 0.500)" in d.message


def test_kv_cache_room_warning():
    launch = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct --tp 2 "
              "--mem-fraction-static 0.9{}\n")
    [d] = lint_text("#!/bin/bash\n# lint-configs: target-gpu=H100\n" + launch.format(""), "shell", preview=True)
    assert (d.code, d.severity) == ("SGL404", "warning")
    assert "room for at most 39,146 tokens, fewer than one request of 131,072 tokens" in d.message
    # a shorter context or an FP8 cache: no warning
    assert codes("#!/bin/bash\n# lint-configs: target-gpu=H100\n" + launch.format(" --context-length 32768"),
                 "shell") == []
    assert codes("#!/bin/bash\n# lint-configs: target-gpu=H100\n" + launch.format(" --kv-cache-dtype fp8_e4m3"),
                 "shell") == ["SGL404"]  # 78,292 tokens: still short


def test_a_launch_that_states_neither_parallelism_nor_gpus_is_not_weighed():
    assert codes("#!/bin/bash\n# lint-configs: target-gpu=H100\n"
                 "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\n", "shell") == []


def test_a_local_config_json_is_read_first(tmp_path, capsys):
    cfg = {"architectures": ["LlamaForCausalLM"], "hidden_size": 16384, "num_hidden_layers": 126,
           "num_attention_heads": 128, "num_key_value_heads": 8, "intermediate_size": 53248, "vocab_size": 128256,
           "max_position_embeddings": 131072, "torch_dtype": "bfloat16"}
    write_tree(tmp_path, {"models/big/config.json": json.dumps(cfg),
                          "serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n"
                                      "python -m sglang.launch_server --model-path ./models/big --tp 8\n"})
    _, diags = lint_json(tmp_path, capsys, "--preview")
    assert [d["code"] for d in diags] == ["SGL403"]
    assert "./models/big needs at least 94.5 GiB of weights on each GPU" in diags[0]["message"]
    ctx = lint_text_result((tmp_path / "serve.sh").read_text(), "shell", name=str(tmp_path / "serve.sh"), preview=True).contexts[0]
    assert ctx.weights_origin.startswith("counted from") and ctx.weights_origin.endswith("models/big/config.json")


def test_a_local_safetensors_index_counts_its_total_size(tmp_path, capsys):
    cfg = {"architectures": ["SomethingNewForCausalLM"], "num_hidden_layers": 2}
    index = {"metadata": {"total_size": 200 * 2**30},
             "weight_map": {"model.layers.0.w": "a.safetensors", "model.layers.1.w": "a.safetensors"}}
    write_tree(tmp_path, {"m/config.json": json.dumps(cfg), "m/model.safetensors.index.json": json.dumps(index),
                          "serve.sh": "#!/bin/bash\n# lint-configs: target-gpu=H100\n"
                                      "python -m sglang.launch_server --model-path ./m --tp 2\n"})
    _, diags = lint_json(tmp_path, capsys, "--preview")
    assert [d["code"] for d in diags] == ["SGL403"] and "needs at least 100.0 GiB" in diags[0]["message"]
    # a checkpoint with a layer past num_hidden_layers (multi-token prediction): its total is not used
    index["weight_map"]["model.layers.2.w"] = "b.safetensors"
    write_tree(tmp_path, {"m/model.safetensors.index.json": json.dumps(index)})
    assert lint_json(tmp_path, capsys, "--preview") == (0, [])


def test_weights_counted_from_config_agree_with_the_model_cards():
    from linter.sglang.weights import _table

    table = _table()
    assert table["meta-llama/llama-3.1-405b-instruct"].total == 405_853_388_800
    assert round(table["deepseek-ai/deepseek-v3"].total / 1e9) == 671
    assert round(table["qwen/qwen3-235b-a22b"].total / 1e9) == 235
    assert round(table["openai/gpt-oss-120b"].total / 1e9) == 117


def test_the_size_table_is_what_its_generator_writes():
    import subprocess
    import sys

    from tests.helpers import ROOT

    got = subprocess.run([sys.executable, "scripts/generate_model_sizes.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stderr


# -- the default memory fraction, per release ----------------------------------------------------

@pytest.mark.parametrize("version,memory,tp,mla,expected", [
    ("0.4.0", 81559, 8, True, 0.81),
    ("0.4.6", 143771, 8, True, (143771 - 13 * 1024) / 143771),
    ("0.4.7", 183359, 8, True, (183359 - 18 * 1024) / 183359),  # 0.79 on CUDA; the ROCm branch bounds it
    ("0.5.1", 81559, 8, True, round((81559 - (9.5 + 4) * 1024) / 81559, 3) + 0.0005),
    ("0.5.9", 81559, 8, True, round((81559 - 10240) / 81559, 3) + 0.0005),
    ("0.5.23", 81559, 8, True, round((81559 - 10240) / 81559, 3) + 0.0005),
    ("0.5.23", 81559, 8, False, round((81559 - 1536 - 1024) / 81559, 3) + 0.0005),
    ("0.5.17", 81559, 8, False, round((81559 - 512 - 1024) / 81559, 3) + 0.0005),
    ("0.5.23", 24576, 1, True, round((24576 - 512 - 3072 - 128) / 24576, 3) + 0.0005),
])
def test_default_mem_fraction_upper_bound(version, memory, tp, mla, expected):
    from linter.sglang.memory import budget
    from linter.sglang.options import ParsedArgs, load_table

    b = budget(ParsedArgs(load_table(version)), version, memory, tp, 1, mla, False)
    assert b.fraction == pytest.approx(expected, abs=1e-9) and not b.written


def test_an_unread_release_between_two_ranges_takes_the_larger():
    from linter.sglang.memory import _eras_for

    assert len(_eras_for("0.4.6.post1")) == 2 and len(_eras_for("0.5.23")) == 1


# -- GPU memory in the catalog ---------------------------------------------------------------------

def test_every_catalog_gpu_has_its_memory_with_a_source():
    from linter.gpus.catalog import all_gpus, memory_of

    for gpu in all_gpus():
        assert gpu.memory_mib and gpu.memory_kind in ("reported", "nominal") and gpu.memory_source, gpu
    assert (memory_of("H100").mib, memory_of("H100 NVL").mib, memory_of("H200").mib) == (81559, 95830, 143771)
    assert (memory_of("A100-SXM4-40GB").mib, memory_of("A100-80GB").mib) == (40960, 81920)
    assert memory_of("A100").mib == 81920 and not memory_of("A100").exact
    assert memory_of("B200").mib == 183359 and memory_of("MI300X").mib == 192 * 1024


# -- GPU type from weaker declarations -------------------------------------------------------------

def test_an_image_built_for_one_architecture_suggests_the_target():
    text = ("services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-rocm700-mi30x\n    command: python3 -m "
            "sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --attention-backend fa4 "
            "--enable-deterministic-inference\n")
    res = lint_text_result(text, "compose", preview=True)
    ctx = res.contexts[0]
    assert [t.gpu.canonical for t in ctx.targets] == ["AMD Instinct MI300X", "AMD Instinct MI325X"]
    assert ctx.target_origin == "inferred" and all(t.decl.weak for t in ctx.targets)
    [d] = res.diagnostics
    assert d.code == "SGL101" and d.fix is not None and d.fix.applicability == "unsafe"
    assert any("suggested by the image tag lmsysorg/sglang:v0.5.23-rocm700-mi30x" in n for n in d.notes)


def test_a_declared_target_wins_over_a_suggested_one():
    text = ("# lint-configs: target-gpu=B200\nservices:\n  s:\n    image: lmsysorg/sglang:v0.5.23-rocm700-mi35x\n"
            "    command: python3 -m sglang.launch_server --model-path m\n")
    ctx = lint_text_result(text, "compose", preview=True).contexts[0]
    assert [t.name for t in ctx.targets] == ["B200"] and ctx.target_origin == "file"


def test_a_karpenter_nodepool_picked_by_the_pods_selector(tmp_path, capsys):
    pool = ("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: {name}\nspec:\n  template:\n"
            "    metadata:\n      labels:\n        workload: {label}\n    spec:\n      requirements:\n"
            "      - key: karpenter.k8s.aws/instance-gpu-name\n        operator: In\n        values: [\"{gpu}\"]\n")
    pod = K8S.format(tp=8, env="", section="limits", resource="nvidia.com/gpu", count=8).replace(
        "      containers:", "      nodeSelector:\n        SELECTOR\n      containers:").replace(
        '"Qwen/Qwen3-8B"', '"deepseek-ai/DeepSeek-V3"')
    write_tree(tmp_path, {".git/HEAD": "", "infra/pools.yaml": pool.format(name="big", label="llm", gpu="h200")
                          + "---\n" + pool.format(name="small", label="chat", gpu="h100"),
                          "deploy/a.yaml": pod.replace("SELECTOR", "workload: chat"),
                          "deploy/b.yaml": pod.replace("SELECTOR", "karpenter.sh/nodepool: big"),
                          "deploy/c.yaml": pod.replace("SELECTOR", "kubernetes.io/os: linux")})
    _, diags = lint_json(tmp_path, capsys, "--preview")
    assert [(d["path"], d["code"]) for d in diags] == [("deploy/a.yaml", "SGL403")]
    assert "Karpenter NodePool 'small'" in " ".join(diags[0]["notes"])


def test_documentation_context_naming_one_gpu():
    from types import SimpleNamespace

    from linter.gpus.inferred import context_targets
    from linter.source import SourceFile, Span

    src = SourceFile(None, "doc.md", "## Serving on 8×H200\n=== \"B200\"\n")
    heading = SimpleNamespace(kind="heading", text="Serving on 8×H200", span=Span(src, 3, 20))
    tab = SimpleNamespace(kind="tab", text="B200", span=Span(src, 26, 30))
    [d] = context_targets([heading, tab])
    assert (d.name, d.weak, d.span.start) == ("B200", True, 26)
    assert d.how == "suggested by the documentation tab 'B200'"
    [d] = context_targets([heading])
    assert (d.name, src.text[d.span.start:d.span.end]) == ("H200", "H200")
    both = SimpleNamespace(kind="heading", text="H100 or H200", span=Span(src, 0, 12))
    assert context_targets([both]) == []


DOC_MD = """\
# Deploying DeepSeek-V3

=== "H100"

    ```bash
    python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8
    ```

=== "H200"

    ```bash
    python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8
    ```

## Qwen on H100 or H200

```bash
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --enable-deterministic-inference --attention-backend fa4
```

## On H100 only

```bash
python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V2-Lite-Chat --enable-deterministic-inference --attention-backend fa4
```
"""

DOC_RST = """\
Serving on 8x H100
==================

.. code-block:: bash

   python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8
"""


def test_a_documentation_label_naming_one_gpu_is_a_weaker_target(tmp_path, capsys):
    write_tree(tmp_path, {".git/HEAD": "", "deploy.md": DOC_MD, "serve.rst": DOC_RST})
    _, diags = lint_json(tmp_path, capsys, "--preview", "--sglang-version", "0.5.23")
    # the H100 tab and the rst heading: DeepSeek-V3 does not fit; the H200 tab fits; a heading naming
    # two GPUs gives no target (no SGL101); 'On H100 only' does (fa4 is refused there with deterministic inference)
    assert [(d["path"], d["line"], d["code"]) for d in diags] == [
        ("deploy.md", 6, "SGL403"), ("deploy.md", 24, "SGL101"), ("serve.rst", 6, "SGL403")]
    notes = [" ".join(d["notes"]) for d in diags]
    assert "suggested by the documentation tab 'H100': a weaker declaration" in notes[0]
    assert "suggested by the documentation heading 'On H100 only' at deploy.md:21" in notes[1]
    assert "suggested by the documentation heading 'Serving on 8x H100'" in notes[2]
    assert diags[1]["fix"]["applicability"] == "unsafe"


DSV3 = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8"

DOC_DIALECTS = f"""\
# Serving

!!! note "8x H100"

    ```bash
    {DSV3}
    ```

```{{code-block}} bash
:caption: 8x H200 (SXM)

{DSV3}
```

::::{{tab-set}}
:::{{tab-item}} B200

```bash
{DSV3}
```
:::
::::
"""

DOC_DIALECTS_RST = f"""\
Serving
=======

.. admonition:: On eight H100

   .. code-block:: bash

      {DSV3}

.. code-block:: bash
   :caption: Launch on 8x H200

   {DSV3}

.. tab-set::

   .. tab-item:: B200

      .. code-block:: bash

         {DSV3}
"""


@pytest.mark.parametrize("name,text,expected", [
    ("serving.md", DOC_DIALECTS, [(6, "admonition", "8x H100")]),
    ("serving.rst", DOC_DIALECTS_RST, [(8, "admonition", "On eight H100")]),
])
def test_admonitions_captions_and_tab_items_are_weaker_targets(tmp_path, capsys, name, text, expected):
    # DeepSeek-V3 with --tp 8: too big for 8 H100s (admonition), fits 8 H200s (caption) and 8 B200s
    # (tab-item) — each block judged on the GPU its own innermost label names
    write_tree(tmp_path, {".git/HEAD": "", name: text})
    _, diags = lint_json(tmp_path, capsys, "--preview", "--sglang-version", "0.5.23")
    assert [(d["line"], d["code"]) for d in diags] == [(line, "SGL403") for line, _, _ in expected]
    for d, (_, kind, label) in zip(diags, expected):
        assert f"suggested by the documentation {kind} {label!r}: a weaker declaration" in " ".join(d["notes"])
    targets = [[t.name for t in c.targets] for c in lint_text_result(text, {"md": "markdown", "rst": "rst"}[name.rsplit(".")[1]], name=name, preview=True).contexts]
    assert targets == [["H100"], ["H200"], ["B200"]]


def test_a_label_naming_a_gpu_does_not_override_a_directive():
    text = "<!-- lint-configs: target-gpu=H200 -->\n" + DOC_DIALECTS
    res = lint_text_result(text, "markdown", name="serving.md", preview=True)
    assert [[t.name for t in c.targets] for c in res.contexts] == [["H200"]] * 3
    assert {c.target_origin for c in res.contexts} == {"file"} and res.diagnostics == []


# -- --explain and the inventory -------------------------------------------------------------------

def test_explain_says_what_the_launch_is_given_and_needs(tmp_path, capsys):
    from tests.helpers import run

    write_tree(tmp_path, {"deployment.yaml": K8S.format(tp=8, env="", section="limits",
                                                         resource="nvidia.com/gpu", count=4)})
    _, out, _ = run(tmp_path, capsys, "--explain", "deployment.yaml")
    assert "  GPUs:      4 per node, given by the container's resources nvidia.com/gpu at deployment.yaml:13" in out
    assert "  placement: tp 8 -> 8 rank(s) on each node, devices up to 7 (needs 8)" in out
    assert "  weights:   at least 1.9 GiB per GPU; the model size table" in out
    assert "  memory:    unknown: no target GPU is declared" in out


def test_inventory_json_carries_the_hardware(tmp_path, capsys):
    from tests.helpers import run

    write_tree(tmp_path, {"deployment.yaml": K8S.format(tp=8, env="", section="limits",
                                                         resource="nvidia.com/gpu", count=4)})
    _, out, _ = run(tmp_path, capsys, "--list-launches", "--format", "json", ".")
    [row] = json.loads(out)
    assert {k: row["hardware"][k] for k in ("gpus_per_node", "needs_per_node", "weights_gib")} == {
        "gpus_per_node": 4, "needs_per_node": 8, "weights_gib": 1.9}
