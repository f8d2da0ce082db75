"""One road from every format to a launch: the same argv behind each wrapper gives the same launch —
the same server arguments, the same finding at the same literal, the same fix — whether it is written
in compose (exec form and string), a shell script or Python (argv list and ``shell=True`` string)."""

from __future__ import annotations

import json
import shlex

import pytest

from linter.engine import lint_text_result
from linter.recognize import unwrap, wrappers
from linter.launch import MStr, Token
from linter.source import apply_edits

LAUNCH = ["python3", "-m", "sglang.launch_server", "--model-path", "deepseek-ai/DeepSeek-V3",
          "--attention-backend", "fa4", "--enable-deterministic-inference"]
SCRIPT = " ".join(LAUNCH)

# (id, words before the launch, how the launch is given: "argv" = its words follow, "string" = one
# shell-string word, release the wrapper implies or None)
WRAPPED = [
    ("plain", [], "argv", None),
    ("env", ["env", "-i", "-u", "X", "A=1"], "argv", None),
    ("exec", ["exec"], "argv", None),
    ("nohup", ["nohup"], "argv", None),
    ("time", ["time", "-p"], "argv", None),
    ("command", ["command"], "argv", None),
    ("timeout", ["timeout", "-s", "KILL", "3600"], "argv", None),
    ("numactl", ["numactl", "--cpunodebind=0", "--membind", "0"], "argv", None),
    ("taskset", ["taskset", "-c", "0-7"], "argv", None),
    ("stdbuf", ["stdbuf", "-oL"], "argv", None),
    ("nice", ["nice", "-n", "5"], "argv", None),
    ("ionice", ["ionice", "-c", "2", "-n", "0"], "argv", None),
    ("chrt", ["chrt", "-f", "10"], "argv", None),
    ("sudo", ["sudo", "-E", "-u", "svc"], "argv", None),
    ("setsid", ["setsid"], "argv", None),
    ("docker-run", ["docker", "run", "--gpus", "all", "-e", "A=1", "--rm", "lmsysorg/sglang:v0.5.18-cu129"],
     "argv", "0.5.18"),
    ("podman-run", ["podman", "run", "--device", "nvidia.com/gpu=all", "lmsysorg/sglang:v0.5.19-cu129"],
     "argv", "0.5.19"),
    ("docker-exec", ["docker", "exec", "-e", "A=1", "sglang"], "argv", None),
    ("apptainer-exec", ["apptainer", "exec", "--nv", "sglang.sif"], "argv", None),
    ("singularity-run", ["singularity", "run", "--nv", "sglang.sif"], "argv", None),
    ("srun", ["srun", "-N", "1", "--ntasks-per-node=1"], "argv", None),
    ("mpirun", ["mpirun", "-np", "2", "-x", "NCCL_DEBUG", "--mca", "btl", "tcp"], "argv", None),
    ("mpiexec", ["mpiexec", "-n", "1"], "argv", None),
    ("torchrun", ["torchrun", "--nproc-per-node", "1", "-m"], "module", None),
    ("deepspeed", ["deepspeed", "--num_gpus", "1", "--module"], "module", None),
    ("accelerate", ["accelerate", "launch", "--num_processes", "1", "-m"], "module", None),
    ("uv", ["uv", "run", "--with", "sglang"], "argv", None),
    ("conda", ["conda", "run", "-n", "serve"], "argv", None),
    ("pdm", ["pdm", "run", "-p", "serve", "--venv", "in-project"], "argv", None),
    ("hatch", ["hatch", "run"], "argv", None),
    ("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24"], "argv", None),
    ("ray", ["ray", "job", "submit", "--address", "http://head:8265", "--"], "argv", None),
    ("kubectl", ["kubectl", "-n", "llm", "exec", "sglang-0", "-c", "server", "--"], "argv", None),
    ("ssh-words", ["ssh", "-p", "2222", "gpu-node"], "argv", None),
    ("ssh-string", ["ssh", "gpu-node"], "string", None),
    ("sbatch-wrap", ["sbatch", "--wrap"], "string", None),
    ("sh-c", ["sh", "-c"], "string", None),
    ("bash-lc", ["bash", "-lc"], "string", None),
    ("zsh-c", ["zsh", "-c"], "string", None),
    ("tmux-string", ["tmux", "new-session", "-d", "-s", "srv"], "string", None),
    ("tmux-words", ["tmux", "new", "-d", "-s", "srv"], "argv", None),
    ("screen", ["screen", "-dmS", "srv"], "argv", None),
]


def words_of(prefix: list[str], how: str) -> list[str]:
    if how == "string":
        return prefix + [SCRIPT]
    if how == "module":
        return prefix + LAUNCH[2:]
    return prefix + LAUNCH


def render(carrier: str, words: list[str]) -> tuple[str, str]:
    head = "# lint-configs: target-gpu=H100\n"
    if carrier == "compose-list":
        return "compose", head + "services:\n  sglang:\n    command: [" + ", ".join(json.dumps(w) for w in words) + "]\n"
    if carrier == "compose-string":
        return "compose", head + "services:\n  sglang:\n    command: " + json.dumps(shlex.join(words)) + "\n"
    if carrier == "shell":
        return "shell", "#!/bin/bash\n" + head + shlex.join(words) + "\n"
    if carrier == "python-argv":
        return "python", head + "import subprocess\n\nsubprocess.Popen([" + ", ".join(map(repr, words)) + "])\n"
    assert carrier == "python-shell"
    return "python", head + "import subprocess\n\nsubprocess.Popen(" + repr(shlex.join(words)) + ", shell=True)\n"


CARRIERS = ["compose-list", "compose-string", "shell", "python-argv", "python-shell"]


@pytest.mark.parametrize("carrier", CARRIERS)
@pytest.mark.parametrize("case", WRAPPED, ids=[c[0] for c in WRAPPED])
def test_the_same_launch_behind_every_wrapper_in_every_format(case, carrier):
    _, prefix, how, release = case
    fmt, text = render(carrier, words_of(prefix, how))
    result = lint_text_result(text, fmt)
    [ctx] = result.contexts
    values = {s.dest: s.value for s in ctx.parsed.settings}
    assert values == {"model_path": "deepseek-ai/DeepSeek-V3", "attention_backend": "fa4",
                      "enable_deterministic_inference": True}
    if release:
        assert ctx.table.version == release
    [diag] = [d for d in result.diagnostics if d.code == "SGL101"]
    assert diag.span.text == "fa4"
    assert diag.fix is not None and diag.fix.applicability.value == "safe"
    assert apply_edits(text, diag.fix.edits) == text.replace("fa4", "fa3")


@pytest.mark.parametrize("words", [
    ["taskset", "-p", "1234"],                       # works on a running process
    ["command", "-v", "python3"],                    # looks a program up
    ["sbatch", "job.sh"],                            # a script file the linter does not see
    ["docker", "run", "lmsysorg/sglang:latest"],     # the image's own command
    ["torchrun", "train.py", "--attention-backend", "fa4"],  # a Python script, not SGLang's module
    ["ray", "job", "submit", "python3", "-m", "sglang.launch_server"],  # no -- separator
    ["python3", "-m", "sglang_router.launch_router", "--worker-urls", "http://a"],  # a router starts no server
])
def test_commands_that_start_no_server(words):
    got = unwrap([Token(MStr.plain(w)) for w in words])
    assert got.kind != "launch"


def test_the_router_launch_server_starts_sglang_servers():
    got = unwrap([Token(MStr.plain(w)) for w in
                  ["python3", "-m", "sglang_router.launch_server", "--model-path", "m", "--dp-size", "2"]])
    assert got.kind == "launch" and [t.raw for t in got.args] == ["--model-path", "m", "--dp-size", "2"]


def test_every_wrapper_row_has_a_source_and_a_parity_case():
    covered = {p[0] for _, p, _, _ in WRAPPED if p}
    for name, row in wrappers().items():
        assert row.source, name
    assert {"env", "exec", "nohup", "time", "command", "timeout", "numactl", "taskset", "stdbuf", "nice",
            "ionice", "chrt", "sudo", "setsid", "docker", "podman", "apptainer", "singularity", "srun", "mpirun",
            "mpiexec", "torchrun", "deepspeed", "accelerate", "uv", "conda", "ray", "kubectl", "ssh", "sbatch",
            "sh", "bash", "zsh", "tmux", "screen"} <= covered


def test_router_options_belong_to_the_router_not_to_sglang():
    from linter.engine import lint_text

    text = ("python3 -m sglang_router.launch_server --model-path Qwen/Qwen3-8B --dp-size 2 "
            "--router-policy cache_aware --router-dp-worker-base-port 31000 --attention-backend FA3\n")
    assert [(d.code, d.span.text) for d in lint_text(text, "shell", ["H100"])] == [("SGL203", "FA3")]


@pytest.mark.parametrize("interpreter, first_arg", [
    # CPython's interpreter options before -m, read as its own option parser reads them
    (["python3", "-m"], 3),
    (["python3", "-u", "-m"], 4),
    (["python3", "-X", "faulthandler", "-m"], 5),
    (["python3", "-Xfaulthandler", "-m"], 4),
    (["python3", "-W", "ignore", "-m"], 5),
    (["python3", "-Wignore::DeprecationWarning", "-m"], 4),
    (["python3", "-Bu", "-m"], 4),
    (["python3", "-OO", "-E", "-s", "-I", "-m"], 7),
    (["python3", "-X", "importtime", "-X", "dev", "-m"], 7),
    (["python3", "--check-hash-based-pycs", "never", "-m"], 5),
    (["python3", "-uX", "dev", "-m"], 5),
    (["/usr/bin/python3.11", "-u", "-msglang.launch_server"], None),
])
def test_interpreter_options_before_the_module(interpreter, first_arg):
    """``python3 -X faulthandler -m sglang.launch_server`` is the launch it looks like (fresh review rev39
    d4: only option words from a fixed list were skipped, so -X, -W and combined flags hid it)."""
    from linter.sglang.entrypoints import LAUNCH_SERVER, match_entry_point, python_program

    words = interpreter + ([] if first_arg is None else ["sglang.launch_server"]) + ["--tp", "8"]
    entry = match_entry_point([Token(MStr.plain(w)) for w in words])
    at = len(interpreter) + (0 if first_arg is None else 1)
    assert (entry.program, entry.args_start) == (LAUNCH_SERVER, at)
    assert python_program([Token(MStr.plain(w)) for w in words]) == ("sglang.launch_server", at)


@pytest.mark.parametrize("words, expected", [
    (["python3", "-c", "import sglang"], (None, 1)),
    (["python3", "-X", "dev", "train.py", "-m", "x"], (None, 3)),
    (["python3", "-h"], (None, 1)),
    (["python3", "--version"], (None, 1)),
    (["python3", "-", "-m", "sglang.launch_server"], (None, 1)),
])
def test_interpreter_options_that_run_no_module(words, expected):
    from linter.sglang.entrypoints import match_entry_point, python_program

    tokens = [Token(MStr.plain(w)) for w in words]
    assert python_program(tokens) == expected
    assert match_entry_point(tokens) is None


@pytest.mark.parametrize("words, found", [
    (["python3", "-X", "dev", "-m", "skyrl_train.entrypoints.main_base", "a=1"], ("SkyRL", 5)),
    (["python3", "-Wignore", "-u", "-mlm_eval", "--model", "sglang"], ("lm-evaluation-harness", 4)),
    (["python3", "-X", "dev", "-m", "something.else"], None),
])
def test_a_framework_module_after_interpreter_options(words, found):
    """The framework commands read the interpreter's options as the SGLang entry points do (one reader,
    :func:`linter.sglang.entrypoints.python_program`)."""
    from linter.sglang.frameworks import match_cli

    got = match_cli([Token(MStr.plain(w)) for w in words])
    assert (got if got is None else (got[0].split(" ")[0], got[1])) == found
