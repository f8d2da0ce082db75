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
