"""Wrapper entrypoints and shell words after the second review of issue 35: a Kubernetes entrypoint
script on a pod volume (a ConfigMap's text, or a volume the repository does not hold), a Dockerfile's
``WORKDIR``, shifts that leave a wrapper no command, nested ``for`` loops and brace expansion. Each
case carries DeepSeek-V3 with fa4 and deterministic inference on an H100, so a launch that is found
and judged shows as SGL101."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from linter import limits
from tests.helpers import lint_json, run, write_tree

H100 = ["--target-gpu", "H100"]
LAUNCH = ("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 "
          "--enable-deterministic-inference")
ARGV = ", ".join(f'"{w}"' for w in LAUNCH.split())
ENTRY = '#!/bin/bash\nset -e\nexport SGLANG_LOG=quiet\nexec "$@"\n'
SH_C = '"sh", "-c", "' + LAUNCH + '"'  # three arguments


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def lint(tmp_path: Path, capsys, files: dict[str, str], *args: str) -> list[dict]:
    write_tree(tmp_path, {k: src(v) for k, v in files.items()})
    return lint_json(tmp_path, capsys, *H100, *args)[1]


def found(diags: list[dict]) -> list[tuple[str, str, int]]:
    return [(d["code"], d["path"], d["line"]) for d in diags]


# -- Kubernetes: a script on a volume ------------------------------------------------------------------

def pod(command: str, args: str | None, volume: str, mount: str = "{name: scripts, mountPath: /scripts}") -> str:
    return src(f"""
        apiVersion: v1
        kind: Pod
        metadata: {{name: sglang}}
        spec:
          volumes:
          - name: scripts
            {volume}
          containers:
          - name: server
            image: lmsysorg/sglang:v0.5.23-cu129
            command: {command}
        """) + (f"    args: [{args}]\n" if args is not None else "") + f"    volumeMounts: [{mount}]\n"


CONFIGMAP = src("""
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: sglang-scripts}
    data:
      entry.sh: |
        #!/bin/bash
        set -e
        export BACKEND=fa4
        exec "$@"
      serve.sh: |
        #!/bin/bash
        python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 \\
          --attention-backend fa4 --enable-deterministic-inference
    """)
CM_VOLUME = "configMap: {name: sglang-scripts, defaultMode: 0755}"


@pytest.mark.parametrize("command", ['["/scripts/entry.sh"]', '["bash", "/scripts/entry.sh"]',
                                     '["/usr/bin/env", "bash", "/scripts/entry.sh"]'])
def test_kubernetes_wrapper_from_a_configmap_volume_in_the_same_file_passes_args_through(tmp_path, capsys, command):
    manifest = CONFIGMAP + "---\n" + pod(command, ARGV, CM_VOLUME)
    diags = lint(tmp_path, capsys, {"pod.yaml": manifest})
    assert [(c, p) for c, p, _ in found(diags)] == [("SGL101", "pod.yaml")]
    assert diags[0]["line"] == 26 and diags[0]["fix"]["edits"][0]["content"] == "fa3"


def test_kubernetes_wrapper_exports_reach_the_launch(tmp_path, capsys):
    # the backend comes from the ConfigMap script's `export BACKEND=fa4`, read by `sh -c` in args
    args = '"sh", "-c", "' + LAUNCH.replace("fa4", "$BACKEND") + '"'
    diags = lint(tmp_path, capsys, {"pod.yaml": CONFIGMAP + "---\n" + pod('["/scripts/entry.sh"]', args, CM_VOLUME)})
    assert found(diags) == [("SGL101", "pod.yaml", 8)]  # at `export BACKEND=fa4` in the ConfigMap


def test_kubernetes_configmap_in_another_manifest_of_the_folder(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"k8s/configmap.yaml": CONFIGMAP,
                                    "k8s/pod.yaml": pod('["/scripts/entry.sh"]', ARGV, CM_VOLUME)})
    assert [(c, p) for c, p, _ in found(diags)] == [("SGL101", "k8s/pod.yaml")]


def test_kubernetes_configmap_script_that_holds_the_launch_itself(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"pod.yaml": CONFIGMAP + "---\n" + pod('["bash", "/scripts/serve.sh"]', None,
                                                                            CM_VOLUME)})
    # found in the ConfigMap's text, where its fix goes
    assert found(diags) == [("SGL101", "pod.yaml", 13)]
    assert diags[0]["fix"]["edits"][0]["line"] == 13


def test_kubernetes_configmap_items_and_sub_path(tmp_path, capsys):
    items = "configMap: {name: sglang-scripts, items: [{key: entry.sh, path: bin/start.sh}]}"
    diags = lint(tmp_path, capsys, {"a/pod.yaml": CONFIGMAP + "---\n" + pod('["/scripts/bin/start.sh"]', ARGV, items),
                                    "b/pod.yaml": CONFIGMAP + "---\n" + pod(
                                        '["/entry.sh"]', ARGV, CM_VOLUME,
                                        mount="{name: scripts, mountPath: /entry.sh, subPath: entry.sh}")})
    assert sorted((c, p) for c, p, _ in found(diags)) == [("SGL101", "a/pod.yaml"), ("SGL101", "b/pod.yaml")]


def test_kubernetes_configmap_from_a_kustomize_generator(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {
        "deploy/kustomization.yaml": "resources: [pod.yaml]\nconfigMapGenerator:\n"
                                     "- name: sglang-scripts\n  files:\n  - scripts/entry.sh\n",
        "deploy/scripts/entry.sh": ENTRY,
        "deploy/pod.yaml": pod('["/scripts/entry.sh"]', ARGV, CM_VOLUME)})
    assert [(c, p) for c, p, _ in found(diags)] == [("SGL101", "deploy/pod.yaml")]


@pytest.mark.parametrize("files", [
    # a base folder the overlay's kustomization names (its YAML files read)
    {"overlays/prod/kustomization.yaml": "resources:\n- ../../base\n- pod.yaml\n", "base/configmap.yaml": CONFIGMAP},
    # the legacy `bases:` field
    {"overlays/prod/kustomization.yaml": "bases: [../../base]\nresources: [pod.yaml]\n",
     "base/configmap.yaml": CONFIGMAP},
    # one file of another folder
    {"overlays/prod/kustomization.yaml": "resources: [pod.yaml, ../../common/scripts.yaml]\n",
     "common/scripts.yaml": CONFIGMAP},
    # the base's own kustomization: its generator, and a folder it names in turn
    {"overlays/prod/kustomization.yaml": "resources: [../../base, pod.yaml]\n",
     "base/kustomization.yaml": "configMapGenerator:\n- name: sglang-scripts\n  files: [scripts/entry.sh]\n",
     "base/scripts/entry.sh": ENTRY},
    {"overlays/prod/kustomization.yaml": "components: [../../base]\nresources: [pod.yaml]\n",
     "base/kustomization.yaml": "resources: [../shared]\n", "shared/cm.yaml": CONFIGMAP},
])
def test_kubernetes_configmap_from_what_the_kustomization_names_in_other_folders(tmp_path, capsys, files):
    diags = lint(tmp_path, capsys, {**files, "overlays/prod/pod.yaml": pod('["/scripts/entry.sh"]', ARGV, CM_VOLUME)})
    assert [(c, p) for c, p, _ in found(diags)] == [("SGL101", "overlays/prod/pod.yaml")]


def test_kubernetes_configmap_named_outside_the_root_is_not_read(tmp_path, capsys):
    write_tree(tmp_path, {"repo/.git/HEAD": "ref: refs/heads/main\n",
                          "repo/deploy/kustomization.yaml": "resources: [pod.yaml, ../../elsewhere]\n",
                          "repo/deploy/pod.yaml": pod('["/scripts/entry.sh"]', ARGV, CM_VOLUME),
                          "elsewhere/configmap.yaml": CONFIGMAP})
    diags = lint_json(tmp_path / "repo", capsys, *H100)[1]
    # SGL005 at the reference (rev36); the launch after the script it would have given is judged as written
    assert [(d["code"], d["path"], d["line"]) for d in diags] == [("SGL005", "deploy/kustomization.yaml", 1),
                                                                   ("SGL101", "deploy/pod.yaml", 12)]


@pytest.mark.parametrize("volume, says", [
    ("emptyDir: {}", "comes from the emptyDir volume `scripts`, filled only when the pod runs"),
    ("hostPath: {path: /opt/sglang}", "comes from the hostPath volume `scripts` (the node's /opt/sglang)"),
    ("persistentVolumeClaim: {claimName: tools}", "comes from the persistent volume claim tools (volume `scripts`)"),
    ("configMap: {name: defined-elsewhere}", ("comes from ConfigMap `defined-elsewhere` (volume `scripts`), which is "
                                              "not defined in this file, the YAML files beside it, their "
                                              "kustomization.yaml or what it names, nor generated by a "
                                              "kustomization that names this folder")),
])
def test_kubernetes_script_on_a_volume_the_repository_does_not_hold_is_said_not_guessed(tmp_path, capsys, volume,
                                                                                         says):
    # not SGL001 (a file that cannot be parsed, rev36 D4): the launch after the script is judged as written and
    # is not fully verified, and --explain says why
    files = {"pod.yaml": pod('["/scripts/entry.sh"]', ARGV, volume),
             "scripts/entry.sh": ENTRY}  # a file of that name in the repository: not it
    assert found(lint(tmp_path, capsys, files)) == [("SGL101", "pod.yaml", 12)]
    code, out, _ = run(tmp_path, capsys, *H100, "--explain", "pod.yaml")
    assert f"  not fully verified: the entrypoint /scripts/entry.sh {says}: whether it runs the SGLang launch " \
        "after it as written is not known" in out.splitlines()


def test_kubernetes_script_on_a_volume_with_nothing_sglang_after_it_is_silent(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"pod.yaml": pod('["/scripts/entry.sh"]', '"serve"', "emptyDir: {}")
                                    + "# sglang.launch_server\n"})
    assert found(diags) == []


# -- Dockerfile WORKDIR ----------------------------------------------------------------------------------

@pytest.mark.parametrize("lines", [
    ["WORKDIR /app", "COPY docker/ /app/", 'ENTRYPOINT ["./entrypoint.sh"]'],
    ["WORKDIR /app", "COPY docker/entrypoint.sh .", 'ENTRYPOINT ["bash", "entrypoint.sh"]'],
    ["WORKDIR /opt", "WORKDIR app", "COPY docker/entrypoint.sh ./", 'ENTRYPOINT ["./entrypoint.sh"]'],
    ["ENV APP=/srv/app", "WORKDIR $APP", "COPY docker /srv/app", 'ENTRYPOINT ["./entrypoint.sh"]'],
    ["WORKDIR /app", "COPY docker/entrypoint.sh /app/", 'CMD ["./entrypoint.sh", ' + ARGV + "]"],
])
def test_dockerfile_relative_entrypoint_script_is_found_from_the_workdir(tmp_path, capsys, lines):
    cmd = [] if lines[-1].startswith("CMD") else [f"CMD [{ARGV}]"]
    diags = lint(tmp_path, capsys, {"docker/entrypoint.sh": ENTRY, "entrypoint.sh": "#!/bin/bash\nexit 1\n",
                                    "Dockerfile": "\n".join(["FROM lmsysorg/sglang:v0.5.23-cu129", *lines, *cmd])})
    assert [(c, p) for c, p, _ in found(diags)] == [("SGL101", "Dockerfile")]


@pytest.mark.parametrize("lines", [
    ['ENTRYPOINT ["./entrypoint.sh"]'],  # the base image's WORKDIR is not known
    ["WORKDIR /app", "COPY docker/entrypoint.sh /opt/", 'ENTRYPOINT ["./entrypoint.sh"]'],
])
def test_dockerfile_relative_entrypoint_script_is_not_guessed(tmp_path, capsys, lines):
    # a wrapper beside the Dockerfile is not the one the container runs from its WORKDIR
    diags = lint(tmp_path, capsys, {"docker/entrypoint.sh": ENTRY, "entrypoint.sh": ENTRY,
                                    "Dockerfile": "\n".join(["FROM lmsysorg/sglang:v0.5.23-cu129", *lines,
                                                             f"CMD [{ARGV}]"])})
    assert found(diags) == []


def test_dockerfile_shell_form_entrypoint_never_passes_cmd_to_its_wrapper(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"entrypoint.sh": ENTRY, "Dockerfile": f"""
        FROM lmsysorg/sglang:v0.5.23-cu129
        COPY entrypoint.sh /
        ENTRYPOINT /entrypoint.sh
        CMD [{ARGV}]
        """})
    assert found(diags) == [("SGL001", "Dockerfile", 3)]
    assert "runs the entrypoint wrapper /entrypoint.sh with no arguments" in diags[0]["message"]
    assert "receives no command" in diags[0]["message"]


# -- shifts that leave no command --------------------------------------------------------------------------



def k8s_with(entry: str, args: str = SH_C) -> dict[str, str]:
    return {"deploy/entrypoint.sh": entry, "deploy/pod.yaml": src(f"""
        apiVersion: v1
        kind: Pod
        metadata: {{name: sglang}}
        spec:
          containers:
          - name: server
            image: lmsysorg/sglang:v0.5.23-cu129
            command: ["./entrypoint.sh"]
            args: [{args}]
        """)}


@pytest.mark.parametrize("entry, says", [
    ('#!/bin/bash\nshift 3\nexec "$@"\n', ("it shifts away all 3 arguments it is given, so `exec \"$@\"` receives no "
                                            "command")),
    ('#!/bin/bash\nset -e\nshift 4\nexec "$@"\n', "its `shift 4` fails with 3 arguments left and stops the script"),
    ('#!/bin/bash -e\nshift 5\nexec "${@}"\n', "its `shift 5` fails with 3 arguments left and stops the script"),
    ('#!/bin/sh\nshift 4\n"$@"\n', "its `shift 4` fails with 3 arguments left and stops the script"),
])
def test_wrapper_whose_shift_leaves_no_command_says_so(tmp_path, capsys, entry, says):
    diags = lint(tmp_path, capsys, k8s_with(entry))
    assert found(diags) == [("SGL001", "deploy/pod.yaml", 8)]
    assert says in diags[0]["message"] and "the SGLang launch written after it never starts" in diags[0]["message"]


@pytest.mark.parametrize("entry", [
    '#!/bin/bash\nshift 4\nexec "$@"\n',  # bash without set -e: the failed shift changes nothing
    '#!/bin/bash\nset -e\nset +e\nshift 4\nexec "$@"\n',
    '#!/bin/bash\nset -e\nsource ./env.sh\nexec "${@}"\n',
    '#!/bin/sh\n. /etc/profile\n"$@"\n',
])
def test_wrapper_that_still_runs_the_launch(tmp_path, capsys, entry):
    diags = lint(tmp_path, capsys, k8s_with(entry))
    assert [(c, p) for c, p, _ in found(diags)] == [("SGL101", "deploy/pod.yaml")]


def test_wrapper_without_a_known_shell_and_a_failing_shift_is_not_guessed(tmp_path, capsys):
    diags = lint(tmp_path, capsys, k8s_with('shift 4\nexec "$@"\n'))  # no #! line: how it runs is not known
    assert found(diags) == []


def test_compose_wrapper_that_shifts_all_of_its_command(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"entrypoint.sh": '#!/bin/bash\nshift 2\nshift\nexec "$@"\n', "compose.yaml": f"""
        services:
          sglang:
            image: lmsysorg/sglang:v0.5.23-cu129
            entrypoint: ["./entrypoint.sh"]
            command: [{SH_C}]
        """})
    assert found(diags) == [("SGL001", "compose.yaml", 4)]
    assert "it shifts away all 3 arguments it is given" in diags[0]["message"]


# -- shell: nested for loops and brace expansion -----------------------------------------------------------

def test_nested_for_loops_each_run_their_body_per_word(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"run.sh": """
        #!/bin/bash
        for model in meta-llama/Llama-3.1-8B-Instruct deepseek-ai/DeepSeek-V3; do
          for bk in fa3 fa4; do
            python3 -m sglang.launch_server --model-path $model --attention-backend $bk --enable-deterministic-inference
          done
        done
        """})
    # only DeepSeek-V3 with fa4 fails: the inner loop's word and the outer loop's model
    assert found(diags) == [("SGL101", "run.sh", 3)]
    assert diags[0]["column"] == 17
    out = run(tmp_path, capsys, *H100, "--explain", "run.sh")[1]
    assert out.count("run.sh:4: python -m sglang.launch_server") == 4


def test_nested_for_loops_past_the_cap_are_merged(tmp_path, capsys):
    outer = " ".join(f"m{i}" for i in range(5))
    diags = lint(tmp_path, capsys, {"run.sh": f"""
        #!/bin/bash
        for x in {outer}; do
          for bk in fa3 fa4 triton flashinfer; do
            {LAUNCH.replace("fa4", "$bk")}
          done
        done
        """})
    assert 5 * 4 > limits.MAX_PATH_VARIANTS
    # the inner loop's words are merged: its backend is unknown, never a guess and never SGL004
    assert diags == []
    out = run(tmp_path, capsys, *H100, "--explain", "run.sh")[1]
    assert out.count("run.sh:4: python -m sglang.launch_server") == 1 and "attention_backend: unknown" in out


REPEATED = " ".join(["fa3"] * 16 + ["fa4"])
"""17 loop words, past the cap, of 2 values: the fa4 pass fails on an H100."""


@pytest.mark.parametrize("body", [
    'python3 -m sglang.launch_server ${ARGS} --attention-backend "$b" &',
    'x=$b\n  python3 -m sglang.launch_server ${ARGS} --attention-backend "$x"',
    'export B="$b" LOG=/tmp/$b.log\n  echo "$B" > "$LOG"\n  python3 -m sglang.launch_server ${ARGS} --attention-backend $B',
    'note "$b"\n  python3 -m sglang.launch_server ${ARGS} --attention-backend "$b"',  # a function that sets nothing
    'unset y\n  y=$b\n  python3 -m sglang.launch_server ${ARGS} --attention-backend "$y"',
    'for p in 30000 30001; do\n    python3 -m sglang.launch_server ${ARGS} --attention-backend "$b" --port $p\n  done',
])
def test_for_loop_past_the_cap_with_repeated_words_runs_each_value_once(tmp_path, capsys, body):
    diags = lint(tmp_path, capsys, {"run.sh": (
        "#!/bin/bash\n"
        "ARGS='--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference'\n"
        'note() { local tag=$1; echo "$tag"; }\n'
        f"for b in {REPEATED}; do\n  {body}\ndone\n")})
    # the fa4 pass is judged, at the fa4 word; the 16 fa3 passes are one
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("SGL101", 4, 74)]


@pytest.mark.parametrize("words, finding", [
    (" ".join(["fa4"] + ["fa3"] * 15 + ["fa4"]), [("SGL101", 2, 10)]),  # the last pass is fa4 (written first at col 10)
    (" ".join(["fa4"] * 15 + ["fa3"] * 2), []),  # the last pass is fa3
])
def test_for_loop_past_the_cap_leaves_its_last_word(tmp_path, capsys, words, finding):
    diags = lint(tmp_path, capsys, {"run.sh": (
        "#!/bin/bash\n"
        f'for b in {words}; do\n  echo "$b"\ndone\n'
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference "
        '--attention-backend "$b"\n')})
    assert [(d["code"], d["line"], d["column"]) for d in diags] == finding


@pytest.mark.parametrize("body", [
    'ARGS="$ARGS --max-running-requests 8"',  # a variable set from itself
    'ARGS+=" --max-running-requests 8"',
    'EXTRA+=(--port 3000)',  # an array append
    'ports[0]=3000',
    '((i++))',
    'i=$((i + 1))',
    'let i=i+1',
    'echo "$prev"; prev=$b',  # read before the pass sets it
    'if [ -n "$DEBUG" ]; then last=$b; fi; echo "$last"',  # set only on some passes
    'read -r line; echo "$line"',
    ': "${ONCE:=$b}"',
    'shift',
    'cd sub',
    'source ./more.sh',
    'bump; echo "$COUNT"',  # a function that sets what the body reads
])
def test_for_loop_past_the_cap_whose_body_carries_state_is_merged(tmp_path, capsys, body):
    diags = lint(tmp_path, capsys, {"run.sh": (
        "#!/bin/bash\n"
        "ARGS='--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference'\n"
        "bump() { COUNT=1; }\n"
        f"for b in {REPEATED}; do\n  {body}\n"
        '  python3 -m sglang.launch_server ${ARGS} --attention-backend "$b"\ndone\n')})
    # a later pass may differ from an earlier one with the same word: the passes stay merged (as
    # before), the backend unknown, never a guess
    assert diags == []
    out = run(tmp_path, capsys, *H100, "--explain", "run.sh")[1]
    assert "attention_backend: unknown" in out


@pytest.mark.parametrize("word, finding", [
    ("fa{3,4}", ("SGL204", 3)),  # two words: fa3 fa4, the second a stray argument
    ("{fa3,fa4}", ("SGL204", 3)),
    ("fa{4}", ("SGL203", 3)),  # no comma: the word as written, not a backend
    ('"fa{3,4}"', ("SGL203", 3)),  # quoted: no expansion
])
def test_brace_expansion_in_a_launch(tmp_path, capsys, word, finding):
    diags = lint(tmp_path, capsys, {"run.sh": f"""
        #!/bin/bash
        # lint-configs: target-gpu=H100
        {LAUNCH.replace("fa4", word)}
        """})
    assert [(d["code"], d["line"]) for d in diags][:1] == [finding]


def test_brace_expansion_in_a_for_list(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"run.sh": """
        #!/bin/bash
        for v in {3..4}; do
          python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention-backend fa$v \\
            --enable-deterministic-inference --port 3000{0..0}
        done
        """})
    assert [d["code"] for d in diags] == ["SGL101"]
    out = run(tmp_path, capsys, *H100, "--explain", "run.sh")[1]
    assert out.count("run.sh:3: python -m sglang.launch_server") == 2


def test_brace_expansion_past_the_cap_is_an_unknown_word(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"run.sh": f"""
        #!/bin/bash
        {LAUNCH} --port {{1..100}}
        """})
    # a hundred words are not built: one word of unknown count (no stray-argument finding, no SGL004)
    assert [d["code"] for d in diags] == ["SGL101"]


# -- files a wrapper sources ---------------------------------------------------------------------------------

SH_BACKEND = '"sh", "-c", "' + LAUNCH.replace("fa4", "$BACKEND") + '"'


@pytest.mark.parametrize("line", ['source "$(dirname "$0")/env.sh"', '. "${BASH_SOURCE%/*}/env.sh"',
                                  "source /app/env.sh"])
def test_wrapper_exports_from_a_sourced_file_of_the_repository(tmp_path, capsys, line):
    diags = lint(tmp_path, capsys, {
        "docker/entrypoint.sh": f'#!/bin/bash\nset -e\n{line}\nexec "$@"\n',
        "docker/env.sh": "export BACKEND=fa4\n",
        "compose.yaml": f"""
            services:
              sglang:
                image: lmsysorg/sglang:v0.5.23-cu129
                entrypoint: ["/app/entrypoint.sh"]
                volumes: ["./docker:/app"]
                command: [{SH_BACKEND.replace("$", "$$")}]
            """})
    # ($$: compose's own interpolation leaves $BACKEND to the shell) the backend is the one the sourced file exports: the finding (and its fix) is there
    assert found(diags) == [("SGL101", "docker/env.sh", 1)]


def test_wrapper_whose_sourced_file_exits_does_not_pass_through(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {
        "docker/entrypoint.sh": '#!/bin/bash\n. /app/env.sh\nexec "$@"\n',
        "docker/env.sh": "export BACKEND=fa4\nexit 0\n",
        "Dockerfile": f"""
            FROM lmsysorg/sglang:v0.5.23-cu129
            COPY docker/ /app/
            ENTRYPOINT ["/app/entrypoint.sh"]
            CMD [{SH_BACKEND}]
            """})
    assert found(diags) == [("SGL001", "Dockerfile", 3)]  # not passed through: said so (D19)
    assert "the entrypoint wrapper /app/entrypoint.sh does not pass its arguments on" in diags[0]["message"]


def test_kubernetes_configmap_wrapper_sourcing_another_key(tmp_path, capsys):
    manifest = src("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: sglang-scripts}
        data:
          env.sh: |
            export BACKEND=fa4
          entry.sh: |
            #!/bin/sh
            . /scripts/env.sh
            exec "$@"
        """) + "---\n" + pod('["/scripts/entry.sh"]', SH_BACKEND, CM_VOLUME)
    diags = lint(tmp_path, capsys, {"pod.yaml": manifest})
    assert found(diags) == [("SGL101", "pod.yaml", 6)]


def test_kubernetes_program_on_a_volume_that_is_the_launch_itself(tmp_path, capsys):
    # an interpreter on a claim is not a script to read: the command is the launch
    diags = lint(tmp_path, capsys, {"pod.yaml": pod('["/scripts/venv/bin/python3"]', ARGV.split(", ", 1)[1],
                                                    "persistentVolumeClaim: {claimName: tools}")})
    assert [(c, p) for c, p, _ in found(diags)] == [("SGL101", "pod.yaml")]


def test_a_launch_whose_backend_stays_unknown_is_not_counted_as_checked(tmp_path):
    """`--attention-backend $1` with deterministic inference on: the start-up checks cannot run, so the
    summary says the launch could not be fully verified and --explain says why (fresh review of issue 35)."""
    import subprocess
    import sys

    script = tmp_path / "serve.sh"
    script.write_text("#!/bin/bash\n# lint-configs: target-gpu=H100\npython -m sglang.launch_server "
                      "--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference "
                      "--attention-backend $1\n")
    run = subprocess.run([sys.executable, "-m", "linter", "--no-cache", str(script)], cwd=tmp_path,
                         capture_output=True, text=True)
    assert "1 launch could not be fully verified" in run.stdout
    explain = subprocess.run([sys.executable, "-m", "linter", "--no-cache", "--explain", str(script)],
                             cwd=tmp_path, capture_output=True, text=True)
    assert "not fully verified: the attention backend on H100 is not known" in explain.stdout


# -- a relative entrypoint script in the container's working folder -------------------------------------------

WRAPPER_EXPORTS = '#!/bin/bash\nset -e\nexport BACKEND=fa4\nexec "$@"\n'


def compose(entrypoint: str, more: str) -> str:
    return src(f"""
        services:
          sglang:
            image: lmsysorg/sglang:v0.5.23-cu129
            entrypoint: [{entrypoint}]
            command: [{SH_BACKEND.replace("$", "$$")}]
        """) + "".join(f"    {line}\n" for line in more.splitlines())


@pytest.mark.parametrize("files, finding", [
    # working_dir /app is ./deploy on the host: ./run.sh is deploy/run.sh
    ({"deploy/run.sh": WRAPPER_EXPORTS,
      "compose.yaml": compose('"./run.sh"', 'working_dir: /app\nvolumes: ["./deploy:/app"]')},
     [("SGL101", "deploy/run.sh", 3)]),
    ({"scripts/run.sh": WRAPPER_EXPORTS,
      "compose.yaml": compose('"./run.sh"', 'working_dir: /app/scripts\nvolumes: ["./:/app"]')},
     [("SGL101", "scripts/run.sh", 3)]),
    ({"run.sh": WRAPPER_EXPORTS, "compose.yaml": compose('"bash", "run.sh"', 'working_dir: /app\nvolumes: ["./:/app"]')},
     [("SGL101", "run.sh", 3)]),
    # no working_dir: beside the compose file, as before
    ({"run.sh": WRAPPER_EXPORTS, "compose.yaml": compose('"./run.sh"', 'volumes: ["./:/app"]')},
     [("SGL101", "run.sh", 3)]),
    # a working folder the repository does not hold: the run.sh beside the file is not the one that runs
    ({"run.sh": WRAPPER_EXPORTS, "compose.yaml": compose('"./run.sh"', 'working_dir: /srv')}, []),
    ({"run.sh": WRAPPER_EXPORTS, "compose.yaml": compose('"./run.sh"', 'working_dir: ${WD}\nvolumes: ["./:/app"]')},
     []),
])
def test_compose_working_dir_places_a_relative_entrypoint_script(tmp_path, capsys, files, finding):
    assert found(lint(tmp_path, capsys, files)) == finding


@pytest.mark.parametrize("working, command, files, finding", [
    # the script is ./entry.sh in the working folder, which is the ConfigMap volume
    ("workingDir: /scripts", '["./entry.sh"]', {}, ("SGL101", "pod.yaml")),
    ("workingDir: /opt", '["bash", "../scripts/entry.sh"]', {}, ("SGL101", "pod.yaml")),
    # no workingDir: a relative script is the repository's file beside the manifest, as before
    (None, '["./entry.sh"]', {"entry.sh": ENTRY}, ("SGL101", "pod.yaml")),
])
def test_kubernetes_working_dir_places_a_relative_entrypoint_script(tmp_path, capsys, working, command, files,
                                                                      finding):
    manifest = CONFIGMAP + "---\n" + pod(command, ARGV, CM_VOLUME)
    if working is not None:
        manifest = manifest.replace("    command:", f"    {working}\n    command:")
    diags = lint(tmp_path, capsys, {"pod.yaml": manifest, **files})
    assert [(c, p) for c, p, _ in found(diags)] == [finding]


def test_kubernetes_working_dir_not_in_the_repository_reads_no_file_beside_the_manifest(tmp_path, capsys):
    args = '"sh", "-c", "' + LAUNCH.replace("fa4", "$BACKEND") + '"'
    manifest = pod('["./entry.sh"]', args, "emptyDir: {}", mount="{name: scripts, mountPath: /other}")
    manifest = manifest.replace("    command:", "    workingDir: /srv\n    command:")
    # the entry.sh beside the manifest would export BACKEND=fa4; the container runs /srv/entry.sh
    diags = lint(tmp_path, capsys, {"pod.yaml": manifest, "entry.sh": WRAPPER_EXPORTS})
    assert found(diags) == []


# -- wrappers that pass their arguments on conditionally, with more words, or not at all (D19) -------------

def inventory(tmp_path: Path, capsys) -> list[dict]:
    import json

    _, out, _ = run(tmp_path, capsys, *H100, "--list-launches", "--format", "json", ".")
    return json.loads(out)


COMPOSE_WRAPPED = f"""
    services:
      sgl:
        image: lmsysorg/sglang:v0.5.23-cu129
        entrypoint: ["./s/entry.sh"]
        command: [{ARGV}]
    """


@pytest.mark.parametrize("entry, findings, conditions", [
    # the pass-through in one branch of an if: the launch is that path's
    ('if [ -n "$X" ]; then exec "$@"; fi\nexec sleep infinity\n', [("SGL101", "compose.yaml", 5)],
     ['`[ -n "$X" ]` succeeds']),
    ('if [ -z "$X" ]; then exec sleep infinity; else\n  export Y=1\n  exec "$@"\nfi\n',
     [("SGL101", "compose.yaml", 5)], ['`[ -z "$X" ]` fails']),
    ('[ "$1" = python3 ] && exec "$@"\nexec sleep infinity\n', [("SGL101", "compose.yaml", 5)],
     ['`[ "$1" = python3 ]` succeeds']),
    # lines after `exec "$@"` never run; after a plain `"$@"` they run once the launch has ended
    ('exec "$@"\necho done\nexec sleep infinity\n', [("SGL101", "compose.yaml", 5)], []),
    ('"$@"\necho "server ended"\n', [("SGL101", "compose.yaml", 5)], []),
    ('"$@" 2>&1 | tee /var/log/server.log\n', [("SGL101", "compose.yaml", 5)], []),
    ('"$@" || exit 1\n', [("SGL101", "compose.yaml", 5)], []),
    # words after "$@" are appended: the last --attention-backend wins (fa4 is overridden)
    ('exec "$@" --attention-backend triton\n', [("SGL207", "compose.yaml", 5)], []),
    ('B=fa4\nexec "$@" --attention-backend "$B" --tp 1\n', [("SGL101", "s/entry.sh", 2)], []),
])
def test_compose_wrapper_passing_its_arguments_on_a_path_or_with_more_words(tmp_path, capsys, entry, findings,
                                                                            conditions):
    diags = lint(tmp_path, capsys, {"s/entry.sh": "#!/bin/bash\n" + entry, "compose.yaml": COMPOSE_WRAPPED})
    assert found(diags) == findings
    assert [row["conditions"] for row in inventory(tmp_path, capsys)] == [conditions]


@pytest.mark.parametrize("entry", [
    'case "$1" in\n  python3) exec "$@";&\n  *) exit 1;;\nesac\n',  # a case that falls through: not followed
    'run() { exec "$@"; }\nrun "$@"\n',  # through a function
    'if [ -n "$X" ]; then exec "$@"; elif [ -n "$Y" ]; then exec "$@"; fi\n',  # an elif chain
    'exit 0\nexec "$@"\n',
    'exec sleep infinity\n',  # the command is never used
])
def test_wrapper_not_followed_is_said_never_silent(tmp_path, capsys, entry):
    diags = lint(tmp_path, capsys, {"s/entry.sh": "#!/bin/bash\n" + entry, "compose.yaml": COMPOSE_WRAPPED})
    assert found(diags) == [("SGL001", "compose.yaml", 4)]
    assert diags[0]["message"].startswith("the entrypoint wrapper ./s/entry.sh does not pass its arguments on")
    assert "the SGLang launch written after it is not checked" in diags[0]["message"]


@pytest.mark.parametrize("entry, findings", [
    ('exec numactl --interleave=all "$@"\n', [("SGL101", "compose.yaml", 5)]),  # a wrapper recognition knows
    ('exec -a sglang-server "$@"\n', [("SGL101", "compose.yaml", 5)]),  # exec's own options
    ('exec gosu app "$@"\n', [("SGL001", "compose.yaml", 4)]),  # a program that is not followed: said so
    ('exec python -m other "$@"\n', [("SGL001", "compose.yaml", 4)]),
])
def test_wrapper_exec_of_a_program_before_its_arguments(tmp_path, capsys, entry, findings):
    diags = lint(tmp_path, capsys, {"s/entry.sh": "#!/bin/bash\n" + entry, "compose.yaml": COMPOSE_WRAPPED})
    assert found(diags) == findings
    if findings[0][0] == "SGL001":
        assert diags[0]["message"].startswith("the entrypoint wrapper ./s/entry.sh runs its arguments with `exec ")
        assert diags[0]["message"].endswith("the SGLang launch written after it is not checked")


def test_wrapper_not_followed_with_nothing_sglang_after_it_is_silent(tmp_path, capsys):
    files = {"s/entry.sh": "#!/bin/bash\nexec sleep infinity\n",
             "compose.yaml": COMPOSE_WRAPPED.replace(ARGV, '"redis-server"') + "  # sglang\n"}
    assert lint(tmp_path, capsys, files) == []


def wrapped_in(fmt: str, entry: str, argv: str) -> dict[str, str]:
    """A Dockerfile or a Kubernetes pod whose entrypoint script ``entry`` is given ``argv``."""
    if fmt == "kubernetes":
        return k8s_with(entry, argv)
    return {"entry.sh": entry, "Dockerfile": f"""
        FROM lmsysorg/sglang:v0.5.23-cu129
        COPY entry.sh /entry.sh
        ENTRYPOINT ["/entry.sh"]
        CMD [{argv}]
        """}


@pytest.mark.parametrize("fmt", ["dockerfile", "kubernetes"])
def test_conditional_pass_through_in_dockerfiles_and_kubernetes(tmp_path, capsys, fmt):
    files = wrapped_in(fmt, '#!/bin/bash\nif [ -n "$X" ]; then exec "$@"; fi\nexec sleep infinity\n', ARGV)
    assert [c for c, _, _ in found(lint(tmp_path, capsys, files))] == ["SGL101"]
    assert [row["conditions"] for row in inventory(tmp_path, capsys)] == [['`[ -n "$X" ]` succeeds']]


# -- an entrypoint named without a folder is found through PATH (D18) ----------------------------------------

@pytest.mark.parametrize("lines, launch", [
    ("COPY scripts/entry.sh /usr/local/bin/", True),
    ("COPY scripts/entry.sh /usr/bin/entry.sh", True),
    ("COPY scripts/ /bin/", True),
    ("ENV PATH=/opt/tools/bin\nCOPY scripts/entry.sh /opt/tools/bin/", True),
    ("ENV PATH=/opt/tools/bin\nCOPY scripts/entry.sh /usr/local/bin/", False),  # not on that PATH
    ("COPY scripts/entry.sh /srv/", False),  # not on the default PATH
])
def test_dockerfile_bare_entrypoint_is_found_through_path(tmp_path, capsys, lines, launch):
    files = {"scripts/entry.sh": ENTRY, "Dockerfile": "FROM lmsysorg/sglang:v0.5.23-cu129\n" + lines +
             f'\nENTRYPOINT ["entry.sh"]\nCMD [{ARGV}]\n'}
    assert [c for c, _, _ in found(lint(tmp_path, capsys, files))] == (["SGL101"] if launch else [])


def test_compose_bare_entrypoint_is_found_through_a_mount_on_path(tmp_path, capsys):
    diags = lint(tmp_path, capsys, {"scripts/entry.sh": ENTRY, "compose.yaml": f"""
        services:
          sgl:
            image: lmsysorg/sglang:v0.5.23-cu129
            entrypoint: ["entry.sh"]
            volumes: ["./scripts:/usr/local/bin"]
            command: [{ARGV}]
        """})
    assert found(diags) == [("SGL101", "compose.yaml", 6)]


# -- a wrapper with more than one path that passes its arguments on; tests the script decides (fresh review
# -- of issue 35, d3 and d4) --------------------------------------------------------------------------------

DET = "--enable-deterministic-inference"
PLAIN = ", ".join(f'"{w}"' for w in LAUNCH.split() if w != DET)  # fa4 without deterministic inference
COMPOSE_PLAIN = COMPOSE_WRAPPED.replace(ARGV, PLAIN)


@pytest.mark.parametrize("entry, when, conditions", [
    # d3: the exec after the if is the other path, and it is the one that fails
    (f'if [ -n "$FAST_MODE" ]; then\n  exec "$@"\nfi\nexec "$@" {DET}\n', '`[ -n "$FAST_MODE" ]` fails',
     [['`[ -n "$FAST_MODE" ]` succeeds'], ['`[ -n "$FAST_MODE" ]` fails']]),
    # d3b: the branch fails; the fall-through reads the same fa4, so the fix is unsafe
    (f'if [ -n "$T" ]; then\n  exec "$@" {DET}\nfi\nexec "$@"\n', '`[ -n "$T" ]` succeeds',
     [['`[ -n "$T" ]` succeeds'], ['`[ -n "$T" ]` fails']]),
    (f'if [ -n "$T" ]; then exec "$@" {DET}; else exec "$@"; fi\n', '`[ -n "$T" ]` succeeds',
     [['`[ -n "$T" ]` succeeds'], ['`[ -n "$T" ]` fails']]),
    (f'if [ -n "$T" ]; then exec "$@"; else export A=1; exec "$@" {DET}; fi\n', '`[ -n "$T" ]` fails',
     [['`[ -n "$T" ]` succeeds'], ['`[ -n "$T" ]` fails']]),
    (f'[ -n "$T" ] && exec "$@" {DET}\nexec "$@"\n', '`[ -n "$T" ]` succeeds',
     [['`[ -n "$T" ]` succeeds'], ['`[ -n "$T" ]` fails']]),
    (f'[ -n "$T" ] || exec "$@" {DET}\nexec "$@"\n', '`[ -n "$T" ]` fails',
     [['`[ -n "$T" ]` fails'], ['`[ -n "$T" ]` succeeds']]),
    # two ifs: three paths, the failing one is the second if's branch
    (f'if [ -n "$X" ]; then exec "$@"; fi\nif [ -n "$Y" ]; then exec "$@" {DET}; fi\nexec "$@" --log-level debug\n',
     '`[ -n "$X" ]` fails and `[ -n "$Y" ]` succeeds',
     [['`[ -n "$X" ]` succeeds'], ['`[ -n "$X" ]` fails', '`[ -n "$Y" ]` succeeds'],
      ['`[ -n "$X" ]` fails', '`[ -n "$Y" ]` fails']]),
    # an export on the fall-through path only
    ('if [ -n "$X" ]; then exec "$@"; fi\nexport B=1\nexec "$@" --enable-deterministic-inference\n',
     '`[ -n "$X" ]` fails', [['`[ -n "$X" ]` succeeds'], ['`[ -n "$X" ]` fails']]),
    # rev38 e6: a case passes it on in each item that holds `exec "$@"`, as an if/else does
    (f'case "$MODE" in\n  det) exec "$@" {DET} ;;\n  *) exec "$@" ;;\nesac\n', '`"$MODE"` matches `det`',
     [['`"$MODE"` matches `det`'], ['`"$MODE"` matches `*`']]),
    (f'case $MODE in\n  fast|quick) export B=1; exec "$@" ;;\n  det) exec "$@" {DET} ;;\nesac\nexec "$@"\n',
     '`$MODE` matches `det`',
     [['`$MODE` matches `fast|quick`'], ['`$MODE` matches `det`'], ['no pattern of `case $MODE` matches']]),
    (f'case "$MODE" in\n  fast) exec "$@" ;;\n  *) echo "mode $MODE" ;;\nesac\nexec "$@" {DET}\n',
     '`"$MODE"` matches `*`', [['`"$MODE"` matches `fast`'], ['`"$MODE"` matches `*`']]),
])
def test_wrapper_with_two_paths_passing_the_command_on_warns_for_the_failing_one(tmp_path, capsys, entry, when,
                                                                                 conditions):
    diags = lint(tmp_path, capsys, {"s/entry.sh": "#!/bin/bash\n" + entry, "compose.yaml": COMPOSE_PLAIN})
    assert found(diags) == [("SGL101", "compose.yaml", 5)]
    assert diags[0]["severity"] == "warning"
    assert f"(when {when}; not on every path of this launch)" in diags[0]["message"]
    assert diags[0]["fix"]["applicability"] == "unsafe"
    assert [row["conditions"] for row in inventory(tmp_path, capsys)] == conditions


@pytest.mark.parametrize("entry, conditions", [
    # d4: a test the script decides takes its branch only
    (f'MODE=serve\nif [ "$MODE" = "det" ]; then\n  exec "$@" {DET}\nfi\nexec "$@"\n', [[]]),
    (f'if false; then exec "$@" {DET}; fi\nexec "$@"\n', [[]]),
    (f'MODE=serve\n[ "$MODE" = det ] && exec "$@" {DET}\nexec "$@"\n', [[]]),
    (f'if true; then exec "$@"; else exec "$@" {DET}; fi\n', [[]]),
    # both paths pass it on without deterministic inference
    ('if [ -n "$X" ]; then exec "$@"; fi\nexec "$@" --log-level debug\n',
     [['`[ -n "$X" ]` succeeds'], ['`[ -n "$X" ]` fails']]),
    # the fall-through ends before the exec that turns it on
    (f'if [ -n "$X" ]; then exec "$@"; fi\nexit 1\nexec "$@" {DET}\n', [['`[ -n "$X" ]` succeeds']]),
    # a case word the script gives takes its item only; one no item matches goes on after the case
    (f'MODE=serve\ncase "$MODE" in\n  det) exec "$@" {DET} ;;\n  *) exec "$@" ;;\nesac\n', [[]]),
    (f'MODE=serve\ncase "$MODE" in\n  det) exec "$@" {DET} ;;\nesac\nexec "$@"\n', [[]]),
    # the items that do not pass it on exit
    (f'case "$1" in\n  python3) exec "$@" ;;\n  *) exit 1 ;;\nesac\nexec "$@" {DET}\n',
     [['`"$1"` matches `python3`']]),
    ('case "$1" in\n  python3) exec "$@";;\nesac\nexec sleep infinity\n', [['`"$1"` matches `python3`']]),
    (f'if [ -n "$X" ]; then exec "$@"; else exec sleep infinity; fi\nexec "$@" {DET}\n',
     [['`[ -n "$X" ]` succeeds']]),
])
def test_wrapper_paths_that_never_fail_give_no_finding(tmp_path, capsys, entry, conditions):
    assert lint(tmp_path, capsys, {"s/entry.sh": "#!/bin/bash\n" + entry, "compose.yaml": COMPOSE_PLAIN}) == []
    assert [row["conditions"] for row in inventory(tmp_path, capsys)] == conditions


@pytest.mark.parametrize("entry", [
    f'MODE=det\nif [ "$MODE" = "det" ]; then exec "$@" {DET}; fi\nexec "$@"\n',
    f'if true; then exec "$@" {DET}; fi\nexec "$@"\n',
])
def test_wrapper_test_decided_true_fails_on_every_path(tmp_path, capsys, entry):
    diags = lint(tmp_path, capsys, {"s/entry.sh": "#!/bin/bash\n" + entry, "compose.yaml": COMPOSE_PLAIN})
    assert found(diags) == [("SGL101", "compose.yaml", 5)]
    assert diags[0]["severity"] == "error" and diags[0]["fix"]["applicability"] == "safe"
    assert "when" not in diags[0]["message"]


def test_wrapper_branch_decided_false_before_another_command_starts_nothing(tmp_path, capsys):
    # d4b: a ConfigMap wrapper through a kustomize generator whose only pass-through never runs
    entry = f'#!/bin/bash\nif false; then\n  exec "$@" {DET}\nfi\nexec sleep infinity\n'
    deploy = src(f"""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {{name: sglang}}
        spec:
          template:
            spec:
              containers:
              - name: server
                image: lmsysorg/sglang:v0.5.23-cu129
                command: ["/scripts/entry.sh"]
                args: [{PLAIN}]
                volumeMounts:
                - {{name: scripts, mountPath: /scripts}}
              volumes:
              - name: scripts
                configMap: {{name: entry-scripts, defaultMode: 0755}}
        """)
    kustomization = "resources: [deploy.yaml]\nconfigMapGenerator:\n- name: entry-scripts\n  files: [entry.sh]\n"
    diags = lint(tmp_path, capsys, {"base/entry.sh": entry, "base/deploy.yaml": deploy,
                                    "base/kustomization.yaml": kustomization})
    assert [d["code"] for d in diags] == []


@pytest.mark.parametrize("fmt", ["dockerfile", "kubernetes"])
def test_wrapper_fall_through_path_in_dockerfiles_and_kubernetes(tmp_path, capsys, fmt):
    files = wrapped_in(fmt, f'#!/bin/bash\nif [ -n "$X" ]; then exec "$@"; fi\nexport Y=1\nexec "$@" {DET}\n', PLAIN)
    diags = lint(tmp_path, capsys, files)
    assert [(d["code"], d["severity"]) for d in diags] == [("SGL101", "warning")]
    assert '(when `[ -n "$X" ]` fails; not on every path of this launch)' in diags[0]["message"]
    assert [row["conditions"] for row in inventory(tmp_path, capsys)] == [['`[ -n "$X" ]` succeeds'],
                                                                          ['`[ -n "$X" ]` fails']]


WRAPPED_FA4 = src("""
    # lint-configs: target-gpu=H100
    services:
      sglang:
        image: lmsysorg/sglang:latest
        entrypoint: ["/app/entry.sh"]
        volumes:
          - ./entry.sh:/app/entry.sh
        command: ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3", "--attention-backend", "fa4"]
    """)


@pytest.mark.parametrize("body", [
    'EXTRA=""\nif [ -n "$DET" ]; then EXTRA="--enable-deterministic-inference"; fi\nexec "$@" $EXTRA\n',
    'EXTRA=""\nif [ -n "$DET" ]; then EXTRA="--enable-deterministic-inference"; fi\nexec "$@" "$EXTRA"\n',
    'if [ -n "$DET" ]; then EXTRA=--enable-deterministic-inference; else EXTRA=--log-level=info; fi\nexec "$@" $EXTRA\n',
    'EXTRA=""\nfor f in a; do EXTRA="--enable-deterministic-inference"; done\nexec "$@" $EXTRA\n',
])
def test_a_wrapper_variable_an_if_may_change_is_not_read_as_its_first_value(tmp_path, capsys, body):
    """A variable a compound command of the wrapper may assign is unknown after it: the launch is not
    fully verified — not "deterministic inference: off" and "All checks passed", nor (quoted) an
    every-path SGL204 for a stray '' (fresh review rev38 e1, e1b, e1c)."""
    diags = lint(tmp_path, capsys, {"docker-compose.yml": WRAPPED_FA4, "entry.sh": "#!/bin/bash\n" + body})
    assert diags == []
    out = run(tmp_path, capsys, "--explain", "docker-compose.yml")[1]
    assert "deterministic inference: unknown" in out and "not fully verified" in out


def test_compose_case_wrapper_on_a_mounted_script_is_two_paths_not_sgl001(tmp_path, capsys):
    # rev38 e6, as the reviewer wrote it: a /bin/sh entrypoint bind-mounted into the container
    entry = f'#!/bin/sh\ncase "$MODE" in\n  det) exec "$@" {DET} ;;\n  *) exec "$@" ;;\nesac\n'
    compose = f"""
        services:
          sglang:
            image: lmsysorg/sglang:latest
            entrypoint: ["/app/entry.sh"]
            volumes:
              - ./entry.sh:/app/entry.sh
            command: [{PLAIN}]
        """
    diags = lint(tmp_path, capsys, {"entry.sh": entry, "docker-compose.yml": compose})
    assert [(d["code"], d["severity"], d["path"], d["line"]) for d in diags] == [
        ("SGL101", "warning", "docker-compose.yml", 7)]
    assert "(when `\"$MODE\"` matches `det`; not on every path of this launch)" in diags[0]["message"]
    assert [row["conditions"] for row in inventory(tmp_path, capsys)] == [
        ['`"$MODE"` matches `det`'], ['`"$MODE"` matches `*`']]
