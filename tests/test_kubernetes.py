"""Kubernetes manifests and the LLM-serving CRDs: where containers are, how their command and
variables are read, which GPUs their pods are scheduled on, and fixes at the value's text."""

from __future__ import annotations

import textwrap

import pytest

from linter.engine import extract_text, lint_text, lint_text_result
from linter.extract.kubernetes import expand
from linter.gpus.kubernetes import Requirement, Scheduling, Value, candidates
from linter.launch import UNKNOWN_CHAR, MStr
from tests.helpers import codes_at, lint_json, run, write_tree

R1 = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-R1",
      "--attention-backend", "fa4", "--enable-deterministic-inference"]
IMAGE = "lmsysorg/sglang:v0.5.23-cu129"


def flow(words) -> str:
    return "[" + ", ".join(f'"{w}"' for w in words) + "]"


def container(indent: int, name="sglang", command=R1, extra="") -> str:
    body = f"- name: {name}\n  image: {IMAGE}\n  command: {flow(command)}\n" + extra
    return textwrap.indent(body, " " * indent)


def pod_spec(indent: int, **kw) -> str:
    return " " * indent + "containers:\n" + container(indent + 2, **kw)


def launches(text: str):
    return extract_text(text, "kubernetes").launches


def args_of(launch) -> list[str]:
    return [t.raw for t in launch.args]


# ------------------------------------------------------------------------------------------------
# every kind


WORKLOAD = "apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\nspec:\n  template:\n    spec:\n{spec}"


@pytest.mark.parametrize("api,kind", [("apps/v1", "Deployment"), ("apps/v1", "StatefulSet"),
                                      ("apps/v1", "DaemonSet"), ("apps/v1", "ReplicaSet"), ("batch/v1", "Job")])
def test_pod_templates_of_the_workload_kinds(api, kind):
    got = launches(WORKLOAD.format(api=api, kind=kind, spec=pod_spec(6)))
    assert [(launch.key, launch.program) for launch in got] == [
        (f"{kind}/x:spec.template.spec.containers[sglang]", "python -m sglang.launch_server")]
    assert args_of(got[0])[:2] == ["--model-path", "deepseek-ai/DeepSeek-R1"]


def test_pod_cronjob_and_init_containers():
    pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" + pod_spec(2)
    assert [launch.key for launch in launches(pod)] == ["Pod/p:spec.containers[sglang]"]
    cron = ("apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: c\nspec:\n  jobTemplate:\n    spec:\n"
            "      template:\n        spec:\n          initContainers:\n" + container(12, name="warm") +
            "          containers:\n" + container(12, name="main", command=["sleep", "1"]))
    assert [launch.key for launch in launches(cron)] == [
        "CronJob/c:spec.jobTemplate.spec.template.spec.initContainers[warm]"]


def test_leaderworkerset_leader_and_worker_templates():
    text = ("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: l\nspec:\n"
            "  leaderWorkerTemplate:\n    leaderTemplate:\n      spec:\n" + pod_spec(8, name="leader") +
            "    workerTemplate:\n      spec:\n" + pod_spec(8, name="worker"))
    assert [launch.key for launch in launches(text)] == [
        "LeaderWorkerSet/l:spec.leaderWorkerTemplate.leaderTemplate.spec.containers[leader]",
        "LeaderWorkerSet/l:spec.leaderWorkerTemplate.workerTemplate.spec.containers[worker]"]


RBG_V1ALPHA1 = """\
apiVersion: workloads.x-k8s.io/v1alpha1
kind: RoleBasedGroup
metadata:
  name: ds
spec:
  roles:
    - name: prefill
      leaderWorkerSet:
        size: 2
        patchLeaderTemplate:
          spec:
            nodeSelector:
              nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
            containers:
              - name: sglang
                command:
                  - python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 --tp 16 --host 0.0.0.0
        patchWorkerTemplate:
          spec:
            containers:
              - name: sglang
                command:
                  - >
                    python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1
                    --tp 16 --node-rank $(LWS_WORKER_INDEX)
      template: &tpl
        spec:
          containers:
            - name: sglang
              image: lmsysorg/sglang:v0.5.18-cu129
              resources:
                limits:
                  nvidia.com/gpu: "8"
    - name: router
      template:
        spec:
          containers:
            - name: router
              image: lmsysorg/sglang-router:v0.2.4
              command: [python3, -m, sglang_router.launch_router, --pd-disaggregation]
"""


def test_rolebasedgroup_v1alpha1_patches_merge_with_the_template_and_folded_commands_are_reported():
    res = lint_text_result(RBG_V1ALPHA1, "kubernetes", name="rbg.yaml")
    got = [ctx.launch for ctx in res.contexts]
    assert [launch.key.split(":")[0] + ":" + launch.key.split(":")[1] for launch in got] == [
        "RoleBasedGroup/ds:spec.roles[prefill].leader.containers[sglang]",
        "RoleBasedGroup/ds:spec.roles[prefill].worker.containers[sglang]"]
    # the image and the GPU count come from the template, the command from the patch
    assert [launch.image.text for launch in got] == ["lmsysorg/sglang:v0.5.18-cu129"] * 2
    assert [(c.resource, c.count, c.per) for c in got[0].gpu_counts] == [("nvidia.com/gpu", 8, "node"),
                                                                         ("size", 2, "nodes")]
    assert [ctx.table.version for ctx in res.contexts] == ["0.5.18", "0.5.18"]
    # the leader patch's selector is the leader's only
    assert [[t.name for t in ctx.targets] for ctx in res.contexts] == [["NVIDIA-H100-80GB-HBM3"], []]
    assert args_of(got[1])[-2:] == ["--node-rank", UNKNOWN_CHAR]  # LWS adds LWS_WORKER_INDEX
    folded = [d for d in res.diagnostics if d.code == "SGL001"]
    assert [d.span.line for d in folded] == [17, 24]
    assert "one argv item" in folded[0].message


RBG_V1ALPHA2 = """\
apiVersion: workloads.x-k8s.io/v1alpha2
kind: RoleBasedGroup
metadata:
  name: pd
spec:
  roles:
    - name: router
      standalonePattern:
        template:
          spec:
            containers:
              - name: router
                image: lmsysorg/sglang-router:v0.2.4
                command: [python3, -m, sglang_router.launch_router]
    - name: decode
      standalonePattern:
        template:
          spec:
            containers:
              - name: sglang
                image: lmsysorg/sglang
                command: [python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-0.6B]
    - name: prefill
      leaderWorkerPattern:
        size: 4
        template:
          spec:
            containers:
              - name: sglang
                image: lmsysorg/sglang
                command: [python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-0.6B,
                          --dist-init-addr, "$(RBG_LWP_LEADER_ADDRESS):6379"]
        leaderTemplatePatch:
          metadata:
            labels:
              role: leader
        workerTemplatePatch:
          spec:
            nodeSelector:
              cloud.google.com/gke-accelerator: nvidia-b200
"""


def test_rolebasedgroup_v1alpha2_patterns_and_router_is_not_a_launch():
    res = lint_text_result(RBG_V1ALPHA2, "kubernetes", name="rbg2.yaml")
    keys = [ctx.launch.key for ctx in res.contexts]
    assert keys == ["RoleBasedGroup/pd:spec.roles[decode].standalonePattern.template.spec.containers[sglang]",
                    "RoleBasedGroup/pd:spec.roles[prefill].leader.containers[sglang]",
                    "RoleBasedGroup/pd:spec.roles[prefill].worker.containers[sglang]"]
    assert [[t.name for t in ctx.targets] for ctx in res.contexts] == [[], [], ["nvidia-b200"]]
    assert args_of(res.contexts[1].launch)[-1] == UNKNOWN_CHAR + ":6379"
    # an image without a tag is :latest, which moves: the newest release, and the output says so
    assert "no tag" in res.contexts[0].version_origin


OME = """\
apiVersion: ome.io/v1beta1
kind: ClusterServingRuntime
metadata:
  name: srt-deepseek
spec:
  supportedModelFormats:
    - modelFormat:
        name: safetensors
      modelArchitecture: DeepseekV3ForCausalLM
  routerConfig:
    runner:
      name: router
      image: smg:v0.2.4
      command: [python3, -m, sglang_router.launch_router]
  engineConfig:
    nodeSelector:
      node.kubernetes.io/instance-type: p5.48xlarge
    leader:
      runner:
        name: ome-container
        image: docker.io/lmsysorg/sglang:v0.5.23-cu129-amd64
        command: [python3, -m, sglang.launch_server, --model-path, $(MODEL_PATH), --tp-size, $(PARALLELISM_SIZE),
                  --attention-backend, fa4, --enable-deterministic-inference]
    worker:
      size: 1
      nodeSelector:
        nvidia.com/gpu.product: NVIDIA-B200
      runner:
        name: ome-container
        image: docker.io/lmsysorg/sglang:v0.5.23-cu129-amd64
        command: [python3, -m, sglang.launch_server, --model-path, $(MODEL_PATH),
                  --attention-backend, fa4, --enable-deterministic-inference]
"""


def test_ome_runtime_runners_model_architecture_and_inherited_selector():
    res = lint_text_result(OME, "kubernetes", name="rt.yaml")
    assert [ctx.launch.key for ctx in res.contexts] == [
        "ClusterServingRuntime/srt-deepseek:spec.engineConfig.leader.runner",
        "ClusterServingRuntime/srt-deepseek:spec.engineConfig.worker.runner"]
    assert [ctx.model.architecture for ctx in res.contexts] == ["DeepseekV3ForCausalLM"] * 2
    assert "modelArchitecture" in res.contexts[0].model.origin
    # the leader has no selector of its own: engineConfig's; the worker's own
    assert [[t.gpu.canonical for t in ctx.targets] for ctx in res.contexts] == [
        ["NVIDIA H100 SXM5 80GB"], ["NVIDIA B200"]]
    assert [(d.code, d.span.line) for d in sorted(res.diagnostics, key=lambda d: d.sort_key())] == [("SGL101", 23)]


def test_without_model_architecture_the_operator_model_path_is_unknown():
    text = OME.replace("      modelArchitecture: DeepseekV3ForCausalLM\n", "")
    res = lint_text_result(text, "kubernetes", name="rt.yaml")
    assert [ctx.model.architecture for ctx in res.contexts] == [None, None]
    assert sorted(d.code for d in res.diagnostics) == ["SGL901"]


OTHERS = """\
apiVersion: ome.io/v1beta1
kind: InferenceService
metadata:
  name: isvc
spec:
  engine:
    runner:
      image: lmsysorg/sglang:v0.5.23-cu129
      command: [python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-8B]
---
apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: kserve-sglang
spec:
  supportedModelFormats:
    - name: huggingface
  containers:
    - name: kserve-container
      image: lmsysorg/sglang:v0.5.23-cu129
      command: [python3, -m, sglang.launch_server]
      args: [--model-path, /mnt/models]
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: kserve-isvc
spec:
  predictor:
    nodeSelector:
      nvidia.com/gpu.product: NVIDIA-H100-NVL
    containers:
      - name: kserve-container
        image: lmsysorg/sglang:v0.5.23-cu129
        args: [python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-8B]
---
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: dyn
spec:
  services:
    decode:
      resources:
        limits:
          gpu: "4"
      extraPodSpec:
        nodeSelector:
          nvidia.com/gpu.product: NVIDIA-B200
        mainContainer:
          image: lmsysorg/sglang:v0.5.23-cu129
          command: [python3, -m, sglang.launch_server]
          args: [--model-path, Qwen/Qwen3-8B]
---
apiVersion: example.com/v1
kind: SomethingNew
metadata:
  name: new
spec:
  workers:
    podSpec:
      containers:
        - name: a
          image: lmsysorg/sglang:v0.5.23-cu129
          command: [python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-8B]
---
apiVersion: example.com/v1
kind: NoContainers
metadata:
  name: none
spec:
  replicas: 3
"""


def test_ome_isvc_kserve_dynamo_and_an_unlisted_crd():
    res = lint_text_result(OTHERS, "kubernetes", name="all.yaml")
    assert [ctx.launch.key for ctx in res.contexts] == [
        "InferenceService/isvc:spec.engine.runner",
        "ServingRuntime/kserve-sglang:spec.containers[kserve-container]",
        "InferenceService/kserve-isvc:spec.predictor.containers[kserve-container]",
        "DynamoGraphDeployment/dyn:spec.services.decode.extraPodSpec.mainContainer",
        "SomethingNew/new:spec.workers.podSpec.containers[a]"]
    assert [[t.name for t in ctx.targets] for ctx in res.contexts] == [
        [], [], ["NVIDIA-H100-NVL"], ["NVIDIA-B200"], []]
    assert [(c.resource, c.count) for c in res.contexts[3].launch.gpu_counts] == [("gpu", 4)]
    assert res.diagnostics == []  # the CRD without containers is skipped quietly


# ------------------------------------------------------------------------------------------------
# command and args


def one(text: str):
    got = launches(text)
    assert len(got) == 1, got
    return got[0]


def pod(container_body: str, env: str = "") -> str:
    return ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: s\n"
            + textwrap.indent(container_body, "      ") + env)


@pytest.mark.parametrize("image,args,found", [
    (IMAGE, "[--model-path, Qwen/Qwen3-8B]", False),  # the image's entry point runs args: not SGLang
    (IMAGE, "[python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-8B]", True),
    (IMAGE, "[sh, -c, 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B']", True),
    ("example.com/private:1", "[python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-8B]", True),
    ("example.com/private:1", "[sh, -c, 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B']", False),
    ("example.com/private:1", "[--model-path, Qwen/Qwen3-8B]", False),
])
def test_args_without_command_run_under_the_image_entry_point(image, args, found):
    got = launches(pod(f"image: {image}\nargs: {args}\n"))
    assert bool(got) is found


def test_sh_c_args_are_read_by_the_shell_format_with_spans():
    text = pod(f"image: {IMAGE}\ncommand: [/bin/bash, -c]\nargs:\n  - |\n    export TP=8\n"
               "    python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp $TP \\\n"
               "      --attention-backend fa3\n")
    launch = one(text)
    assert args_of(launch) == ["--model-path", "Qwen/Qwen3-8B", "--tp", "8", "--attention-backend", "fa3"]
    span = launch.args[5].span_of()
    assert span.text == "fa3" and span.line == 14


def test_a_folded_one_item_command_is_reported_and_still_read():
    text = pod(f"image: {IMAGE}\ncommand:\n  - >\n    python3 -m sglang.launch_server\n"
               "    --model-path deepseek-ai/DeepSeek-R1 --attention-backend fa4\n"
               "    --enable-deterministic-inference\n")
    diags = lint_text(text, "kubernetes", ["H100"])
    assert [(d.code, d.span.line) for d in diags] == [("SGL001", 11), ("SGL101", 12)]
    assert diags[1].fix.edits[0].span.text == "fa4"


def test_a_router_container_is_not_a_launch():
    assert launches(pod(f"image: {IMAGE}\ncommand: [python3, -m, sglang_router.launch_router, --port, '8000']\n")) == []


# ------------------------------------------------------------------------------------------------
# $(VAR) and the environment


def exp(text: str, variables=None, open_ended=False, injected=lambda n: False) -> str:
    return expand(MStr.plain(text), variables or {}, open_ended, injected).text


@pytest.mark.parametrize("text,expected", [
    ("$(A)", "1"),
    ("x$(A)y", "x1y"),
    ("$$(A)", "$(A)"),          # escaped: the literal reference
    ("$$$(A)", "$1"),
    ("$(NOPE)", "$(NOPE)"),     # undefined: stays as written
    ("$(A", "$(A"),             # no closing parenthesis
    ("$A", "$A"),               # not Kubernetes syntax (a shell would see it)
    ("end$", "end$"),
    ("$(A)$(B)", "1" + UNKNOWN_CHAR),
])
def test_dollar_paren_expansion_as_the_kubelet_does(text, expected):
    from linter.extract.kubernetes import _UNKNOWN

    assert exp(text, {"A": MStr.plain("1"), "B": _UNKNOWN}) == expected


def test_unknown_values_and_open_ended_environments():
    from linter.extract import kubernetes as k

    assert exp("$(B)", {"B": k._UNKNOWN}) == UNKNOWN_CHAR
    assert exp("$(C)", {}, open_ended=True) == UNKNOWN_CHAR
    assert exp("$(LWS_GROUP_SIZE)", {}, injected=k._injected("leaderworkerset.x-k8s.io")) == UNKNOWN_CHAR
    assert exp("$(LWS_GROUP_SIZE)", {}, injected=k._injected("apps")) == "$(LWS_GROUP_SIZE)"
    assert exp("$(RBG_ROLE_INDEX)", {}, injected=k._injected("workloads.x-k8s.io")) == UNKNOWN_CHAR


ENV_POD = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  BACKEND: triton
  SGL_TP: "4"
---
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
    - name: s
      image: lmsysorg/sglang:v0.5.23-cu129
      envFrom:
        - configMapRef:
            name: flags
        - prefix: SGL_
          configMapRef:
            name: flags
      env:
        - name: BACKEND
          value: fa3
        - name: MODEL
          value: Qwen/$(NAME)
        - name: NAME
          value: Qwen3-8B
        - name: LATE
          value: $(NAME)
        - name: POD_IP
          valueFrom:
            fieldRef:
              fieldPath: status.podIP
      command: [python3, -m, sglang.launch_server, --model-path, $(MODEL), --attention-backend, $(BACKEND),
                --tp, $(SGL_TP), --host, $(POD_IP), --port, $(LATE), --api-key, $$(BACKEND), --x, $(UNDEFINED)]
"""


def test_env_and_envfrom_precedence_prefix_earlier_references_and_literals():
    launch = one(ENV_POD)
    assert args_of(launch) == [
        "--model-path", "Qwen/$(NAME)",  # NAME is defined after MODEL: the reference stays literal
        "--attention-backend", "fa3",    # env wins over envFrom
        "--tp", "4",                     # SGL_TP from the first configMapRef
        "--host", UNKNOWN_CHAR,          # valueFrom
        "--port", "Qwen3-8B",
        "--api-key", "$(BACKEND)",
        "--x", "$(UNDEFINED)"]
    tp = launch.args[5].span_of()
    assert tp.text == "4" and tp.line == 7  # the ConfigMap's value


def test_an_envfrom_secret_makes_undefined_names_unknown():
    text = ENV_POD.replace("        - prefix: SGL_\n          configMapRef:\n            name: flags\n",
                           "        - secretRef:\n            name: s\n")
    assert args_of(one(text))[-1] == UNKNOWN_CHAR


FIX_ENV = """\
# lint-configs: target-gpu=H100
apiVersion: apps/v1
kind: Deployment
metadata:
  name: r1
spec:
  template:
    spec:
      containers:
        - name: sglang
          image: lmsysorg/sglang:v0.5.23-cu129
          env:
            - name: BACKEND
              value: fa4
          command: [python3, -m, sglang.launch_server, --model-path, deepseek-ai/DeepSeek-R1,
                    --attention-backend, $(BACKEND), --enable-deterministic-inference]
"""


def test_a_fix_lands_at_the_env_value_byte_for_byte(tmp_path, capsys):
    write_tree(tmp_path, {"r1.yaml": FIX_ENV})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["line"], d["code"], d["column"]) for d in diags] == [(14, "SGL101", 22)]
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "r1.yaml").read_text() == FIX_ENV.replace("value: fa4", "value: fa3")


CM = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: sglang-flags
data:
  ATTENTION_BACKEND: fa4
"""


def test_a_fix_lands_at_a_configmap_value_in_the_folder_byte_for_byte(tmp_path, capsys):
    deploy = FIX_ENV.replace("          env:\n            - name: BACKEND\n              value: fa4\n",
                             "          envFrom:\n            - configMapRef:\n                name: sglang-flags\n")
    deploy = deploy.replace("$(BACKEND)", "$(ATTENTION_BACKEND)")
    write_tree(tmp_path, {"deploy.yaml": deploy, "flags.yaml": CM})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["line"], d["code"]) for d in diags] == [("flags.yaml", 6, "SGL101")]
    assert diags[0]["fix"]["applicability"] == "safe"
    run(tmp_path, capsys, "--fix", ".")
    assert (tmp_path / "flags.yaml").read_text() == CM.replace("fa4", "fa3")
    assert (tmp_path / "deploy.yaml").read_text() == deploy


def test_a_configmap_value_read_by_two_launches_with_different_targets_is_a_shared_value(tmp_path, capsys):
    deploy = FIX_ENV.replace("# lint-configs: target-gpu=H100\n", "").replace(
        "          env:\n            - name: BACKEND\n              value: fa4\n",
        "          envFrom:\n            - configMapRef:\n                name: sglang-flags\n").replace(
        "$(BACKEND)", "$(ATTENTION_BACKEND)").replace("    spec:\n      containers:",
                                                      "    spec:\n      nodeSelector:\n        "
                                                      "nvidia.com/gpu.product: {gpu}\n      containers:")
    write_tree(tmp_path, {"a.yaml": CM + "---\n" + deploy.format(gpu="NVIDIA-H100-80GB-HBM3"),
                          "b.yaml": deploy.format(gpu="NVIDIA-B200").replace("name: r1", "name: r2")})
    _, diags = lint_json(tmp_path, capsys)
    assert [(d["path"], d["line"], d["code"]) for d in diags] == [("a.yaml", 6, "SGL101")]
    assert diags[0]["fix"]["applicability"] == "unsafe"  # the B200 launch reads the same value


# ------------------------------------------------------------------------------------------------
# bad input


def test_one_broken_document_does_not_hide_the_others():
    text = ("apiVersion: v1\nkind: Service\nmetadata: {name: [unclosed\n---\n"
            + pod(f"image: {IMAGE}\ncommand: {flow(R1)}\n"))
    diags = lint_text(text, "kubernetes", ["H100"])
    assert [(d.code, d.span.line) for d in diags] == [("SGL001", 4), ("SGL101", 13)]
    assert "document 1" in diags[0].message


CONFLICTED = """\
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - name: sglang
        image: lmsysorg/sglang:v0.5.23-cu129
        command: [/bin/bash, -c]
<<<<<<< HEAD
        # NOTE: ours
=======
        # NOTE: theirs
>>>>>>> origin/main
        args:
        - |
          python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 \\
          --enable-deterministic-inference \\
<<<<<<< HEAD
          --attention-backend fa4 \\
=======
          --attention-backend triton \\
>>>>>>> origin/main
          --tp 16
"""


def test_merge_conflict_markers_are_reported_and_no_fix_is_written(tmp_path, capsys):
    write_tree(tmp_path, {"sts.yaml": "# lint-configs: target-gpu=H100\n" + CONFLICTED})
    _, diags = lint_json(tmp_path, capsys)
    assert codes_at(diags) == [("sts.yaml", 13, "SGL001"), ("sts.yaml", 22, "SGL001"), ("sts.yaml", 23, "SGL101")]
    assert "merge conflict" in diags[0]["message"]
    run(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")
    assert (tmp_path / "sts.yaml").read_text() == "# lint-configs: target-gpu=H100\n" + CONFLICTED


def test_non_kubernetes_documents_and_empty_documents_are_quiet():
    text = "---\n# only a comment\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n...\n"
    assert lint_text(text, "kubernetes") == []


# ------------------------------------------------------------------------------------------------
# targets from scheduling


def sched_pod(spec_extra: str) -> str:
    return ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" + textwrap.indent(spec_extra, "  ")
            + "  containers:\n    - name: s\n      image: lmsysorg/sglang:v0.5.23-cu129\n"
            + f"      command: {flow(R1)}\n")


def targets_of(text: str) -> list[str]:
    res = lint_text_result(text, "kubernetes", name="pod.yaml")
    return [t.gpu.canonical if t.gpu else f"?{t.name}" for t in res.contexts[0].targets]


@pytest.mark.parametrize("key,value,gpu", [
    ("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", "NVIDIA H100 SXM5 80GB"),
    ("nvidia.com/gpu.product", "NVIDIA-A10G-SHARED", "NVIDIA A10G"),
    ("nvidia.com/gpu.product", "NVIDIA-H100-NVL-MIG-1g.12gb", "NVIDIA H100 NVL"),
    ("cloud.google.com/gke-accelerator", "nvidia-b200", "NVIDIA B200"),
    ("node.kubernetes.io/instance-type", "p5.48xlarge", "NVIDIA H100 SXM5 80GB"),
    ("beta.kubernetes.io/instance-type", "a4-highgpu-8g", "NVIDIA B200"),
    ("nvidia.com/gpu.machine", "Standard_ND96isr_H100_v5", "NVIDIA H100 SXM5 80GB"),
    ("karpenter.k8s.aws/instance-gpu-name", "h200", "NVIDIA H200 SXM 141GB"),
    ("eks.amazonaws.com/instance-gpu-name", "b200", "NVIDIA B200"),
    ("k8s.amazonaws.com/accelerator", "nvidia-tesla-t4", "NVIDIA T4"),
    ("karpenter.azure.com/sku-gpu-name", "H100", "NVIDIA H100 SXM5 80GB"),
    ("gpu.nvidia.com/class", "H100_NVLINK_80GB", "NVIDIA H100 SXM5 80GB"),
    ("gpu.nvidia.com/model", "B200", "NVIDIA B200"),
    ("nebius.com/gpu-name", "h200", "NVIDIA H200 SXM 141GB"),
    ("skypilot.co/accelerator", "l40s", "NVIDIA L40S"),
    ("amd.com/gpu.product-name", "AMD_Instinct_MI300X_OAM", "AMD Instinct MI300X"),
])
def test_each_gpu_label_in_a_node_selector(key, value, gpu):
    assert targets_of(sched_pod(f"nodeSelector:\n  {key}: {value}\n")) == [gpu]


def test_labels_that_name_no_gpu_declare_nothing_and_unknown_products_are_sgl003():
    assert targets_of(sched_pod("nodeSelector:\n  node.kubernetes.io/instance-type: m5.large\n"
                                "  nvidia.com/gpu.family: hopper\n  pool: gpu\n")) == []
    diags = lint_text(sched_pod("nodeSelector:\n  nvidia.com/gpu.product: NVIDIA-H999\n"), "kubernetes")
    assert [(d.code, d.span.line) for d in diags] == [("SGL003", 7), ("SGL901", 11)]


AFFINITY = """\
affinity:
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms:
{terms}
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 1
        preference:
          matchExpressions:
            - {{key: nvidia.com/gpu.product, operator: In, values: [NVIDIA-GB200]}}
tolerations:
  - {{key: cloud.google.com/gke-accelerator, value: nvidia-b300, effect: NoSchedule}}
"""


def affinity(terms: str, selector: str = "") -> str:
    return sched_pod(AFFINITY.format(terms=textwrap.indent(terms, "        ")) + selector)


H100, B200, H200 = "NVIDIA H100 SXM5 80GB", "NVIDIA B200", "NVIDIA H200 SXM 141GB"


@pytest.mark.parametrize("terms,selector,expected", [
    # In gives candidates; preferred affinity and tolerations are not targets
    ("- matchExpressions:\n    - {key: nvidia.com/gpu.product, operator: In, "
     "values: [NVIDIA-H100-80GB-HBM3, NVIDIA-B200]}\n", "", [H100, B200]),
    # terms are ORed
    ("- matchExpressions:\n    - {key: nvidia.com/gpu.product, operator: In, values: [NVIDIA-H100-80GB-HBM3]}\n"
     "- matchExpressions:\n    - {key: cloud.google.com/gke-accelerator, operator: In, values: [nvidia-b200]}\n",
     "", [H100, B200]),
    # a term without a GPU constraint lets the pod land anywhere: nothing declared
    ("- matchExpressions:\n    - {key: nvidia.com/gpu.product, operator: In, values: [NVIDIA-H100-80GB-HBM3]}\n"
     "- matchExpressions:\n    - {key: pool, operator: In, values: [big]}\n", "", []),
    # expressions of one term are ANDed (the same GPU by two labels); NotIn removes
    ("- matchExpressions:\n    - {key: nvidia.com/gpu.product, operator: In, "
     "values: [NVIDIA-H100-80GB-HBM3, NVIDIA-B200, NVIDIA-H200]}\n"
     "    - {key: node.kubernetes.io/instance-type, operator: In, values: [p5.48xlarge, p6-b200.48xlarge]}\n"
     "    - {key: nvidia.com/gpu.product, operator: NotIn, values: [NVIDIA-B200]}\n", "", [H100]),
    # NotIn alone constrains nothing we can name
    ("- matchExpressions:\n    - {key: nvidia.com/gpu.product, operator: NotIn, values: [NVIDIA-B200]}\n", "", []),
    # intersected with nodeSelector
    ("- matchExpressions:\n    - {key: nvidia.com/gpu.product, operator: In, "
     "values: [NVIDIA-H100-80GB-HBM3, NVIDIA-H200]}\n",
     "nodeSelector:\n  karpenter.k8s.aws/instance-gpu-name: h200\n", [H200]),
    # Exists says nothing of which GPU
    ("- matchExpressions:\n    - {key: nvidia.com/gpu.product, operator: Exists}\n", "", []),
])
def test_required_node_affinity_term_logic(terms, selector, expected):
    assert targets_of(affinity(terms, selector)) == expected


def test_candidates_function_directly():
    sched = Scheduling({"nvidia.com/gpu.product": Value("NVIDIA-H100-80GB-HBM3")},
                       [[Requirement("node.kubernetes.io/instance-type", "In", [Value("p6-b200.48xlarge")])]])
    assert candidates(sched) == []  # the two exclude each other: nothing is guessed
    assert [d.name for d in candidates(Scheduling(terms=[[Requirement(
        "cloud.google.com/gke-accelerator", "In", [Value("nvidia-h100-80gb"), Value("nvidia-h100-mega-80gb")])]]))] \
        == ["nvidia-h100-80gb"]  # both name the H100: one target


def test_a_selector_belongs_to_its_own_pod_template():
    text = (WORKLOAD.format(api="apps/v1", kind="Deployment", spec=pod_spec(6)) + "---\n" +
            WORKLOAD.format(api="apps/v1", kind="Deployment", spec="      nodeSelector:\n        "
                            "nvidia.com/gpu.product: NVIDIA-B200\n" + pod_spec(6)).replace("name: x", "name: y"))
    res = lint_text_result(text, "kubernetes", name="two.yaml")
    assert [[t.name for t in ctx.targets] for ctx in res.contexts] == [[], ["NVIDIA-B200"]]


def test_gpu_counts_are_kept():
    launch = one(pod(f"image: {IMAGE}\ncommand: {flow(R1)}\nresources:\n  limits:\n    amd.com/gpu: 8\n"
                     "    cpu: '4'\n  requests:\n    nvidia.com/gpu: 2\n"))
    assert [(c.resource, c.count, c.span.line) for c in launch.gpu_counts] == [("amd.com/gpu", 8, 12)]


def test_an_alias_bomb_is_read_quickly_and_the_containers_still_found():
    rows = "".join(f"{c}: &{c} [{', '.join('*' + p for _ in range(10))}]\n"
                   for p, c in zip("abcdefg", "bcdefgh"))
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: b}\na: &a [x, x, x, x, x, x, x, x, x, x]\n" + rows +
            "spec:\n" + pod_spec(2))
    assert [launch.key for launch in launches(text)] == ["Pod/b:spec.containers[sglang]"]


def test_rolebasedgroup_leader_and_worker_reading_one_container_are_one_launch_naming_both():
    # leaderTemplatePatch and workerTemplatePatch that leave the container alone: both templates run
    # the same command, read once (a Launch is frozen: the merged key is a new Launch, not an assignment)
    text = textwrap.dedent("""\
        apiVersion: workloads.x-k8s.io/v1alpha2
        kind: RoleBasedGroup
        metadata: {name: agg}
        spec:
          roles:
            - name: backend
              leaderWorkerPattern:
                size: 2
                template:
                  spec:
                    containers:
                      - name: sglang
                        image: lmsysorg/sglang:v0.5.9-cu124
                        command: [python3, -m, sglang.launch_server, --model-path, Qwen/Qwen3-0.6B]
                leaderTemplatePatch: {metadata: {labels: {role: leader}}}
                workerTemplatePatch: {metadata: {labels: {role: worker}}}
        """)
    launches = extract_text(text, "kubernetes").launches
    assert [launch.key for launch in launches] == [
        "RoleBasedGroup/agg:spec.roles[backend].leader.containers[sglang],"
        "RoleBasedGroup/agg:spec.roles[backend].worker.containers[sglang]"]
    assert [d.code for d in lint_text(text, "kubernetes", ["H100"])] == []
