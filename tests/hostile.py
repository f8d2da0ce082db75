"""Hostile inputs from issue 26, each a small repository (file name -> content).

Shared by the tests (``tests/test_hostile.py``: each must lint without an internal error) and by
``scripts/measure_hostile.py`` (each must finish in under a second of CPU and 100 MiB).
"""

from __future__ import annotations

HEAD = "services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
LAUNCH = "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3"


def _merge_nest(levels: int) -> str:
    lines = ["x-m0: &m0 {a: 1}"]
    for k in range(1, levels + 1):
        lines.append(f"x-m{k}: &m{k}\n  <<: [*m{k - 1}, *m{k - 1}, *m{k - 1}]\n  b{k}: 1")
    return "\n".join(lines) + f"\nservices:\n  s:\n    <<: *m{levels}\n    command: {LAUNCH}\n"


def _doubling_env(levels: int) -> str:
    lines = ["A0=xx"] + [f"A{k}=${{A{k - 1}}}${{A{k - 1}}}" for k in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


CASES: dict[str, dict[str, str]] = {
    # internal errors
    "long-path-component": {"compose.yaml": HEAD + f"    command: python3 -m sglang.launch_server --model-path "
                                              f"./{'m' * 300}/x --tp 2\n"},
    "yaml-complex-key": {"compose.yaml": HEAD + "    command: " + LAUNCH + "\n    ? [a, b]\n    : 1\n"},
    "yaml-complex-key-top": {"compose.yaml": "? [a, b]\n: 1\n" + HEAD + "    command: " + LAUNCH + "\n"},
    "env-item-loses-equals": {"compose.yaml": HEAD + "    environment:\n      - ${UNSET:+A=1}\n"
                                                     "    command: sh -c '" + LAUNCH + " --attention-backend $$A'\n"},
    "deep-config-json": {"compose.yaml": HEAD + "    command: python3 -m sglang.launch_server --model-path ./m\n",
                         "m/config.json": '{"a":' * 100_000 + "1" + "}" * 100_000},
    "python-unary-chain": {"serve.py": "import subprocess\nX = " + "-" * 500 + "1\n"
                                       "subprocess.run(['python3', '-m', 'sglang.launch_server', '--tp', str(X)])\n"},
    "python-unary-chain-arg": {"serve.py": "import subprocess\nsubprocess.run(['python3', '-m', 'sglang.launch_server',"
                                           " '--tp', " + "-" * 500 + "1])\n"},
    # time and memory
    "merge-keys-12-deep": {"compose.yaml": _merge_nest(12)},
    "doubling-env": {"compose.yaml": HEAD + "    command: " + LAUNCH + " --served-model-name ${A30}\n",
                     ".env": _doubling_env(30)},
    "unclosed-braces-compose": {"compose.yaml": HEAD + "    command: " + LAUNCH + " ${" + "{" * 1500 + "\n"},
    "unclosed-braces-shell": {"run.sh": LAUNCH + " ${" + "{" * 1500 + "\n"},
    "unclosed-braces-python": {"serve.py": "import sglang\nX = " + "{" * 1500 + "\n"},
    "escapes-in-quoted-item": {"compose.yaml": HEAD + "    command: [python3, -m, sglang.launch_server, \""
                                                      + "\\t" * 6754 + "\"]\n"},
    "words-through-env": {"compose.yaml": HEAD + "    command: " + LAUNCH + " ${ARGS}\n",
                          ".env": "ARGS=" + " ".join(f"--w{k}" for k in range(16_000)) + "\n"},
    "words-in-shell-variable": {"run.sh": "ARGS=\"" + "\n".join(f"--w{k}" for k in range(16_000)) + "\"\n"
                                          + LAUNCH + " $ARGS\n"},
    # origins of many pieces (an escape each): a word's span must not scan them from the start
    "escapes-in-bash-c": {"run.sh": "bash -c \"" + LAUNCH + " --x a\\\"b" * 20_000 + "\"\n"},
    "escapes-in-shell-variable": {"run.sh": "ARGS=\"" + " ".join(f"--w\\\"{k}" for k in range(16_000)) + "\"\n"
                                            + LAUNCH + " $ARGS\n"},
    "words-in-python-list": {"serve.py": "import subprocess\nA = [" + ",\n".join(f"'--w{k}'" for k in range(16_000))
                                         + "]\nsubprocess.run(['python3', '-m', 'sglang.launch_server', *A])\n"},
    "unclosed-flow-yaml": {"compose.yaml": HEAD + "    command: " + LAUNCH + "\n    x: " + "{" * 1500 + "\n"},
    "long-line-compose": {"compose.yaml": HEAD + "    command: " + LAUNCH + " --served-model-name "
                                                 + "a" * 300_000 + "\n"},
    "long-line-shell": {"run.sh": LAUNCH + " --served-model-name " + "a" * 300_000 + "\n"},
    "long-line-python": {"serve.py": "import sglang\nX = '" + "a" * 300_000 + "'\n"},
    # a compose file past MAX_PARSED_CHARS is read by libyaml; its tree is bounded by node count
    "many-nodes-compose": {"compose.yaml": HEAD + "    command: " + LAUNCH + "\nx-pad:\n" + "  - a\n" * 310_000},
}

CONFIG_CASES: dict[str, tuple[str, str]] = {
    # name -> (pyproject.toml text, what the error message must name)
    "tool-not-a-table": ('tool = "x"\n', "tool"),
    "bad-exclude-glob": ('[tool.lint-configs]\nextend-exclude = ["[z-a]"]\n', "extend-exclude"),
    "deep-toml": ("a = " + "[" * 2000 + "]" * 2000 + "\n", "pyproject.toml"),
}

# Just under the line limit: each must still be linted within the budgets.
NEAR_LIMIT: dict[str, dict[str, str]] = {
    "line-99k-compose": {"compose.yaml": HEAD + "    command: " + LAUNCH + " --served-model-name " + "a" * 99_000 + "\n"},
    "line-99k-shell": {"run.sh": LAUNCH + " --served-model-name " + "a" * 99_000 + "\n"},
    "line-99k-python": {"serve.py": "import subprocess\nsubprocess.run(['python3', '-m', 'sglang.launch_server', '"
                                    + "a" * 99_000 + "'])\n"},
    "lines-99k-x9-shell": {"run.sh": (LAUNCH + " --served-model-name " + "a" * 99_000 + "\n") * 9},
    "lines-99k-x20-shell": {"run.sh": (LAUNCH + " --served-model-name " + "a" * 99_000 + "\n") * 20},
}
# Past the size limits: not parsed (SGL004).
CASES["lines-99k-x25-shell"] = {"run.sh": (LAUNCH + " --served-model-name " + "a" * 99_000 + "\n") * 25}
CASES.update(NEAR_LIMIT)

CASES["huge-env-line"] = {"compose.yaml": HEAD + "    command: " + LAUNCH + " --served-model-name ${X}\n",
                          ".env": "Y=1\nX=" + "a" * 300_000 + "\n"}
CASES["huge-env-file"] = {"compose.yaml": HEAD + "    command: " + LAUNCH + " --served-model-name ${X}\n",
                          ".env": "".join(f"V{k}=" + "a" * 90 + "\n" for k in range(40_000))}
CASES["short-words-through-env"] = {"compose.yaml": HEAD + "    command: " + LAUNCH + " ${ARGS}\n",
                                   ".env": "ARGS=" + " ".join(["-a"] * 10_000) + "\n"}

CASES["short-words-in-shell-variable"] = {"run.sh": "ARGS=\"" + " ".join(["-a"] * 10_000) + "\"\n" + LAUNCH + " $ARGS\n"}
CASES["line-900k-compose"] = {"compose.yaml": HEAD + "    command: " + LAUNCH + " --served-model-name " + "a" * 900_000 + "\n"}
CASES["line-900k-shell"] = {"run.sh": LAUNCH + " --served-model-name " + "a" * 900_000 + "\n"}
CASES["line-900k-python"] = {"serve.py": "import subprocess\nsubprocess.run(['python3', '-m', 'sglang.launch_server', '"
                                         + "a" * 900_000 + "'])\n"}
CASES["near-limits-compose"] = {"compose.yaml": HEAD + "    command: " + LAUNCH + " --served-model-name " + "a" * 190_000
                                + "\n    labels: [" + "b" * 190_000 + "]\n"}
CASES["near-limits-shell"] = {"run.sh": (LAUNCH + " --served-model-name " + "a" * 190_000 + "\n") * 2}
AREAL_HEAD = "experiment_name: e\nactor:\n  path: deepseek-ai/DeepSeek-V3\nsglang:\n  model_path: ${actor.path}\n"
CASES["areal-unclosed-flow"] = {"config.yaml": AREAL_HEAD + "  x: " + "{" * 1500 + "\n"}
CASES["areal-merge-keys"] = {"config.yaml": _merge_nest(12).split("services:")[0] + AREAL_HEAD + "  <<: *m12\n"}
CASES["areal-long-line"] = {"config.yaml": AREAL_HEAD + "  served_model_name: " + "a" * 300_000 + "\n"}
GHA_HEAD = "on: push\njobs:\n  serve:\n    runs-on: [gpu]\n    steps:\n      - run: " + LAUNCH + "\n"
CASES["workflow-unclosed-flow"] = {".github/workflows/serve.yml": GHA_HEAD + "    x: " + "{" * 1500 + "\n"}
CASES["workflow-merge-keys"] = {".github/workflows/serve.yml": _merge_nest(12).split("services:")[0] + GHA_HEAD
                                + "    <<: *m12\n"}
CASES["dockerfile-long-line"] = {"Dockerfile": "FROM lmsysorg/sglang:v0.5.23-cu129\nCMD " + LAUNCH + " "
                                 + "a" * 300_000 + "\n"}
CASES["dockerfile-unclosed-json"] = {"Dockerfile": "FROM lmsysorg/sglang:v0.5.23-cu129\nCMD [" + "[" * 5000 + "\n"}


# ------------------------------------------------------------------------------------------------
# Issue 30: one budget per file for every expander. Each shape of the table as a generator of
# its size (``n``: levels, files, items or repetitions); :data:`SHAPES_AT` gives the size the table
# names. Each must end in SGL004 naming a budget (or be linted) within 2 s of CPU and 200 MiB.

K8S_HEAD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n"
            "    image: lmsysorg/sglang:v0.5.23-cu129\n    command: [python3, -m, sglang.launch_server]\n")


def k8s_doubling(n: int) -> dict[str, str]:
    """Kubernetes env values doubling through ``$(VAR)``: ``A{k} = $(A{k-1})$(A{k-1})``."""
    env = "    - name: A0\n      value: xy\n" + "".join(f"    - name: A{k}\n      value: $(A{k - 1})$(A{k - 1})\n"
                                                    for k in range(1, n + 1))
    return {"pod.yaml": K8S_HEAD + f"    args: [--model-path, deepseek-ai/DeepSeek-V3, --served-model-name, $(A{n})]\n"
                        "    env:\n" + env}


def _chart(template: str, helpers: str = "", values: str = "x: 1\n") -> dict[str, str]:
    files = {"chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n", "chart/values.yaml": values,
             "chart/templates/deploy.yaml": template}
    if helpers:
        files["chart/templates/_helpers.tpl"] = helpers
    return files


HELM_POD = K8S_HEAD + "    args:\n    - --model-path\n    - deepseek-ai/DeepSeek-V3\n    - --served-model-name\n"


def helm_defines(n: int) -> dict[str, str]:
    """Helm ``define``s each including the previous one twice."""
    helpers = '{{- define "d0" -}}xy{{- end -}}\n' + "".join(
        f'{{{{- define "d{k}" -}}}}{{{{ include "d{k - 1}" . }}}}{{{{ include "d{k - 1}" . }}}}{{{{- end -}}}}\n'
        for k in range(1, n + 1))
    return _chart(HELM_POD + f'    - "{{{{ include "d{n}" . }}}}"\n', helpers)


def helm_ranges(n: int, depth: int = 4) -> dict[str, str]:
    """``depth`` nested ``range`` over an ``n``-item values list, with an empty body."""
    loops = "{{ range $.Values.items }}" * depth + "{{ end }}" * depth
    values = "items:\n" + "".join(f"- {k}\n" for k in range(n))
    return _chart(HELM_POD + "    - m\n" + loops + "\n", values=values)


def helm_unclosed(n: int) -> dict[str, str]:
    """``n`` unclosed ``{{`` in a template."""
    return _chart(HELM_POD + "    - {{ .Values.x }}\n# " + "{{ " * n + "\n")


def compose_include_fanout(n: int, fan: int = 4) -> dict[str, str]:
    """``n`` compose files, each ``include:``-ing the next ``fan`` times (a diamond at every step)."""
    files = {}
    for k in range(n):
        name = "compose.yaml" if k == 0 else f"c{k}.yaml"
        nxt = f"c{k + 1}.yaml"
        text = ""
        if k < n - 1:
            spellings = [nxt, f"./{nxt}", f"sub/../{nxt}", f"./sub/../{nxt}"]
            text = "include:\n" + "".join(f"  - {spellings[i % len(spellings)]}\n" for i in range(fan))
        text += (f"services:\n  s{k}:\n    image: lmsysorg/sglang:v0.5.23-cu129\n    command: " + LAUNCH
                 + f" --served-model-name s{k}\n")
        files[name] = text
    files["sub/.keep"] = ""
    return files


def compose_include_mesh(n: int) -> dict[str, str]:
    """``n`` compose files each including every other one (``n``² includes in every file's graph)."""
    names = ["compose.yaml"] + [f"c{k}.yaml" for k in range(1, n)]
    return {name: "include:\n" + "".join(f"  - {other}\n" for other in names if other != name)
            + f"services:\n  s{k}:\n    image: lmsysorg/sglang:v0.5.23-cu129\n    command: {LAUNCH}\n"
            for k, name in enumerate(names)}


def dockerfile_args(n: int) -> dict[str, str]:
    """``n`` chained Dockerfile ``ARG``s, the last one read by the ``CMD``."""
    return {"Dockerfile": "FROM lmsysorg/sglang:v0.5.23-cu129\nARG A0=xy\n"
            + "".join(f"ARG A{k}=$A{k - 1}\n" for k in range(1, n)) + f"ENV M=$A{n - 1}\nCMD {LAUNCH} --served-model-name $M\n"}


def shared_config(n: int, keys: int | None = None) -> dict[str, str]:
    """``n`` launches sharing one ``--config`` YAML of ``keys`` unknown keys."""
    keys = n if keys is None else keys
    return {"run.sh": f"{LAUNCH} --config cfg.yaml &\n" * n,
            "cfg.yaml": "".join(f"unknown-key-{k}: {k}\n" for k in range(keys))}


def shell_doubling(n: int) -> dict[str, str]:
    """Shell variables doubling: ``A{k}="$A{k-1}$A{k-1}"``."""
    return {"run.sh": "A0=xy\n" + "".join(f'A{k}="$A{k - 1}$A{k - 1}"\n' for k in range(1, n + 1))
            + f'{LAUNCH} --served-model-name "$A{n}"\n'}


def python_strings(n: int) -> dict[str, str]:
    """Python strings doubling, in turn through ``+``, ``.join``, ``.format``, ``%`` and an f-string."""
    forms = ["S{p} + S{p}", "''.join([S{p}, S{p}])", "'{{}}{{}}'.format(S{p}, S{p})", "'%s%s' % (S{p}, S{p})",
             "f'{{S{p}}}{{S{p}}}'"]
    lines = ["import subprocess", "S0 = 'xy'"]
    for k in range(1, n + 1):
        lines.append(f"S{k} = " + forms[k % len(forms)].format(p=k - 1))
    lines.append(f"subprocess.run(['python3', '-m', 'sglang.launch_server', '--served-model-name', S{n}])")
    return {"serve.py": "\n".join(lines) + "\n"}


def python_lists(n: int) -> dict[str, str]:
    """A Python list doubling ``n`` times (``A = A + A``), then splatted into a launch."""
    return {"serve.py": "import subprocess\nA = ['--x']\n" + "A = A + A\n" * n
            + "subprocess.run(['python3', '-m', 'sglang.launch_server', *A])\n"}


def python_calls(n: int, fan: int = 8) -> dict[str, str]:
    """Python functions each returning ``fan`` calls of the one before (``fan ** n`` evaluations)."""
    lines = ["import subprocess", "def f0():", "    return 'x'"]
    for k in range(1, n + 1):
        lines += [f"def f{k}():", "    return " + " + ".join([f"f{k - 1}()"] * fan)]
    lines.append(f"subprocess.run(['python3', '-m', 'sglang.launch_server', '--served-model-name', f{n}()])")
    return {"serve.py": "\n".join(lines) + "\n"}


def python_loops(n: int, depth: int = 3) -> dict[str, str]:
    """``depth`` nested Python loops around ``n`` assignments (each loop runs until its values settle)."""
    pad = "    "
    lines = ["import subprocess", "A0 = 'x'"]
    for d in range(depth):
        lines.append(pad * d + f"for i{d} in range(3):")
    lines += [pad * depth + f"A{k % 50} = A{k % 50} + 'x'" for k in range(n)]
    lines.append("subprocess.run(['python3', '-m', 'sglang.launch_server', '--served-model-name', A0])")
    return {"serve.py": "\n".join(lines) + "\n"}


def shell_loops(n: int, depth: int = 6) -> dict[str, str]:
    """``depth`` nested loops around ``n`` assignments (each loop body is walked twice)."""
    body = "".join(f"A{k}=$A{k}x\n" for k in range(n))
    return {"run.sh": "for a in 1 2; do\n" * depth + body + "done\n" * depth + LAUNCH + " --served-model-name $A0\n"}


SHAPES = {"k8s-doubling": k8s_doubling, "helm-defines": helm_defines, "helm-ranges": helm_ranges,
          "helm-unclosed": helm_unclosed, "compose-include-fanout": compose_include_fanout,
          "dockerfile-args": dockerfile_args, "shared-config": shared_config, "shell-doubling": shell_doubling,
          "python-strings": python_strings, "python-lists": python_lists}
"""Issue 30's table: name -> generator of a size."""

SHAPES_AT = {"k8s-doubling": 24, "helm-defines": 38, "helm-ranges": 80, "helm-unclosed": 20_000,
             "compose-include-fanout": 13, "dockerfile-args": 20_000, "shared-config": 500, "shell-doubling": 24,
             "python-strings": 24, "python-lists": 39}
"""The size of each shape in the issue's table (the largest where it gives two)."""

SHAPE_FILE = {"k8s-doubling": "pod.yaml", "helm-defines": "chart/templates/deploy.yaml",
              "helm-ranges": "chart/templates/deploy.yaml", "helm-unclosed": "chart/templates/deploy.yaml",
              "compose-include-fanout": "compose.yaml", "dockerfile-args": "Dockerfile", "shared-config": "run.sh",
              "shell-doubling": "run.sh", "python-strings": "serve.py", "python-lists": "serve.py"}
"""The file of each shape that starts the expansion (the one ``lint-configs FILE`` is given)."""

BUDGET_CASES = {name: SHAPES[name](n) for name, n in SHAPES_AT.items()}
CASES.update(BUDGET_CASES)

MORE_SHAPES = {"python-calls": python_calls, "python-loops": python_loops, "shell-loops": shell_loops, "compose-include-mesh": compose_include_mesh}
"""Further shapes of the same kind (not in the issue's table): each bounded by a budget too."""
ALL_SHAPES = SHAPES | MORE_SHAPES
