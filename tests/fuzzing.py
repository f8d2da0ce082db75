"""The fuzzing harness of issue 26: input generators for each format and the oracle that judges a run.

Generators are structure-aware: they assemble compose files (anchors, merges, interpolation,
``sh -c``, ``environment``), ``.env`` files, shell scripts (continuations, variables, quoting,
``#SBATCH``) and Python launch files (subprocess lists, ``shell=True`` strings, ``sgl.Engine``
keyword arguments) from pieces real launch files are made of, then sometimes damage them. A
mutation generator damages the repository's example files byte by byte. Each generator takes a
:class:`Chooser`, so the same code is driven by hypothesis in the quick profile (``tests/test_fuzz.py``:
``HypothesisChooser``, shrinking works) and by a seeded ``random.Random`` in the long profile
(``scripts/fuzz.py``: ``RandomChooser``).

:func:`judge` runs the linter in-process on one generated repository as ``lint-configs --fix
--unsafe-fixes`` would, and counts what issue 26 forbids: internal errors (SGL000), CPU time
over a budget, fixed files that no longer parse, bytes changed outside the fixes' edits, and fixes
that do not converge (a second run would change the files again). The repository is linted with its
folder as the run's root (:mod:`linter.boundary`); an input may also hold files outside it
(:data:`OUTSIDE`) and symbolic links (:class:`Link`): a file outside the root that the run reads or
writes, or whose text reaches a finding, is counted too (issue 30).
"""

from __future__ import annotations

import ast
import random
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent

# ------------------------------------------------------------------------------------------------
# choosers


class Chooser:
    """Where a generator's decisions come from."""

    def choice(self, seq: Sequence):  # pragma: no cover - interface
        raise NotImplementedError

    def integer(self, lo: int, hi: int) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def chance(self, p: float) -> bool:
        """True with probability about ``p``."""
        return self.integer(0, 99) < int(p * 100)


class RandomChooser(Chooser):
    """Decisions from ``random.Random(seed)``: reproducible from the seed alone."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choice(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)


class HypothesisChooser(Chooser):
    """Decisions drawn by hypothesis (``draw`` of ``st.composite`` or ``st.data()``)."""

    def __init__(self, draw) -> None:
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def choice(self, seq):
        return seq[self.draw(self.st.integers(0, len(seq) - 1))]

    def integer(self, lo, hi):
        return self.draw(self.st.integers(lo, hi))


# ------------------------------------------------------------------------------------------------
# pieces

MODELS = ["deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V3-0324", "Qwen/Qwen3-8B", "moonshotai/Kimi-K2-Instruct",
          "meta-llama/Llama-3.1-8B-Instruct", "./models/local", "/abs/model", "${MODEL}", "$MODEL", "''", "m" * 300]
GPUS = ["H100", "H200", "B200", "A100", "L40S", "RTX 4090", "p5.48xlarge", "Blackwell", "B300", "nonsense"]
BACKENDS = ["fa3", "fa4", "flashinfer", "triton", "flashmla", "cutlass_mla", "trtllm_mla", "torch_native", "FA4", ""]
FLAGS = ["--enable-deterministic-inference", "--trust-remote-code", "--tp 8", "--tp-size 2", "--dp 2",
         "--host 0.0.0.0", "--port 30000", "--mem-fraction-static 0.8", "--attention-backend={b}",
         "--attention-backend {b}", "--prefill-attention-backend {b}", "--decode-attention-backend {b}",
         "--enable-determ", "--bogus-flag", "--tp", "--config cfg.yaml", "--help", "--model {m}",
         "--json-model-override-args '{{\"architectures\": [\"DeepseekV3ForCausalLM\"]}}'", "--rl-on-policy-target fsdp"]
ENTRY = ["python3 -m sglang.launch_server", "python -m sglang.launch_server", "sglang serve",
         "python3 -m sglang_router.launch_server", "/usr/bin/python3 -m sglang.launch_server", "sglang.launch_server"]
JUNK = ["\\", "\\\n", "'", '"', "$", "${", "}", "{", "[", "]", "#", " # lint-configs: ignore[SGL101]", "\t", "\r",
        "\r\n", "\x0b", "é", "\u2028", "\ufeff", "$$", "`", "$(", ")", ";", "&&", "|", "<<<<<<< HEAD\n", "=", ":",
        "- ", "*a", "&a ", "<<: *a", "? ", "!!str ", "%", "@", "\\t", "\\x41"]


def _flags(c: Chooser, n: int) -> list[str]:
    out = []
    for _ in range(n):
        f = c.choice(FLAGS)
        out.append(f.format(b=c.choice(BACKENDS), m=c.choice(MODELS)))
    return out


def _server_args(c: Chooser) -> str:
    """Launches lean towards what the rules judge: an MLA model, a backend, deterministic inference."""
    model = c.choice(MODELS[:2] + MODELS) if c.chance(0.9) else None
    parts = [c.choice(ENTRY)] + (["--model-path", model] if model else [])
    if c.chance(0.7):
        parts.append(c.choice(["--attention-backend ", "--attention-backend=", "--decode-attention-backend "])
                     + c.choice(["fa4", "fa3", "fa4"] + BACKENDS))
    if c.chance(0.6):
        parts.append("--enable-deterministic-inference")
    return " ".join(parts + _flags(c, c.integer(0, 3)))


def _damage(c: Chooser, text: str, times: int | None = None) -> str:
    """Insert, delete or duplicate a few pieces at chosen places."""
    for _ in range(times if times is not None else c.integer(0, 3)):
        if not text:
            return c.choice(JUNK)
        i = c.integer(0, len(text))
        op = c.integer(0, 3)
        if op == 0:
            text = text[:i] + c.choice(JUNK) + text[i:]
        elif op == 1:
            text = text[:i] + text[i + c.integer(1, 8):]
        elif op == 2:
            j = min(len(text), i + c.integer(1, 40))
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + "\n" + text[i:]
    return text


def _directive(c: Chooser, comment: str = "#") -> str:
    return f"{comment} lint-configs: target-gpu={c.choice(GPUS)}\n" if c.chance(0.8) else ""


# ------------------------------------------------------------------------------------------------
# generators: each returns {relative path: text}


def gen_dotenv(c: Chooser, names: list[str]) -> str:
    """A compose ``.env`` setting some of ``names`` (quoting, ``export``, comments, expansions)."""
    lines = []
    for name in names:
        if not c.chance(0.7):
            continue
        value = c.choice([c.choice(BACKENDS), c.choice(MODELS), " ".join(_flags(c, c.integer(0, 3))),
                          "${" + c.choice(names) + "}", "$" + c.choice(names) + "-x", "${" + c.choice(names) + ":-fa3}",
                          "${" + c.choice(names) + "}${" + c.choice(names) + "}"])
        quote = c.choice(["", "'", '"'])
        prefix = c.choice(["", "export ", "  "])
        comment = c.choice(["", " # note", "#x"])
        lines.append(f"{prefix}{name}={quote}{value}{quote}{comment}")
    return "\n".join(lines) + c.choice(["\n", "", "\r\n"])


def gen_compose(c: Chooser) -> dict[str, str]:
    """A compose file (and sometimes its ``.env`` and an ``env_file``)."""
    names = ["ATTN", "MODEL", "ARGS", "TP", "IMAGE"]
    out = _directive(c)
    anchor = c.chance(0.4)
    if anchor:
        out += "x-common: &common\n  image: ${IMAGE:-lmsysorg/sglang:v0.5.23-cu129}\n"
        if c.chance(0.5):
            out += "  environment:\n    - ATTN=" + c.choice(BACKENDS) + "\n"
    out += "services:\n"
    for k in range(c.integer(1, 3)):
        out += f"  s{k}:\n"
        if anchor and c.chance(0.7):
            out += "    <<: " + c.choice(["*common", "[*common]", "[*common, *common]"]) + "\n"
        if c.chance(0.6):
            out += "    image: lmsysorg/sglang:" + c.choice(["v0.5.23-cu129", "v0.5.18", "latest", "${TAG}"]) + "\n"
        args = _server_args(c)
        if c.chance(0.3):
            args = args.replace(c.choice(BACKENDS) or "fa3", "${ATTN:-fa4}")
        style = c.integer(0, 4)
        if style == 0:
            out += f"    command: {args}\n"
        elif style == 1:
            out += "    command: >\n" + "".join(f"      {w}\n" for w in args.split(" --"))
        elif style == 2:
            out += "    command: [" + ", ".join(f'"{w}"' for w in args.split()) + "]\n"
        elif style == 3:
            out += f"    entrypoint: [\"sh\", \"-c\"]\n    command: [\"{args} $${{ATTN}}\"]\n"
        else:
            out += "    command:\n" + "".join(f"      - {w}\n" for w in args.split())
        if c.chance(0.4):
            out += "    environment:\n"
            for name in names[:c.integer(1, 3)]:
                out += c.choice([f"      - {name}={c.choice(BACKENDS)}\n", f"      {name}: {c.choice(BACKENDS)}\n"
                                 if False else f"      - {name}\n", "      - ${UNSET:+A=1}\n"])
        if c.chance(0.2):
            out += "    env_file: [extra.env]\n"
    files = {"compose.yaml": _damage(c, out) if c.chance(0.5) else out}
    if c.chance(0.6):
        files[".env"] = gen_dotenv(c, names)
    if "env_file" in out:
        files["extra.env"] = gen_dotenv(c, names)
    if c.chance(0.2):
        files["compose.yaml"] = files["compose.yaml"].replace("\n", "\r\n")
    return files


def gen_env_focused(c: Chooser) -> dict[str, str]:
    """A small compose file that takes everything from a (damaged) ``.env``."""
    names = ["ATTN", "MODEL", "ARGS", "A", "B"]
    compose = (_directive(c) + "services:\n  s:\n    command: " + c.choice(ENTRY) +
               " --model-path ${MODEL:-deepseek-ai/DeepSeek-V3} --attention-backend ${ATTN} ${ARGS} "
               + c.choice(["--enable-deterministic-inference", "", "${A}${B}"]) + "\n")
    env = gen_dotenv(c, names)
    return {"compose.yaml": compose, ".env": _damage(c, env) if c.chance(0.6) else env}


def gen_shell(c: Chooser) -> dict[str, str]:
    """A shell or Slurm script."""
    lines = [c.choice(["#!/bin/bash", "#!/usr/bin/env bash", "#!/bin/sh", ""])]
    if c.chance(0.4):
        lines.append(f"#SBATCH --gres=gpu:{c.choice(['h100', 'b200', 'a100', 'x'])}:{c.integer(1, 8)}")
    lines.append(_directive(c).rstrip("\n"))
    variables = []
    for k in range(c.integer(0, 3)):
        name = c.choice(["ATTN", "MODEL", "ARGS", "TP"])
        value = c.choice(BACKENDS + MODELS + [" ".join(_flags(c, 2))])
        q = c.choice(["", "'", '"'])
        lines.append(c.choice(["", "export ", "local "]) + f"{name}={q}{value}{q}")
        variables.append(name)
    words = _server_args(c).split(" ")
    if variables and c.chance(0.5):
        words.append(c.choice(["$", "${", "\"$"]) + c.choice(variables) + c.choice(["", "}", "}\""]))
    sep = c.choice([" ", " \\\n  ", " \\\n"])
    cmd = sep.join(words)
    wrap = c.integer(0, 4)
    if wrap == 1:
        cmd = f"srun {cmd}"
    elif wrap == 2:
        cmd = f"bash -c \"{cmd}\""
    elif wrap == 3:
        cmd = f"start() {{\n  {cmd}\n}}\nstart"
    elif wrap == 4:
        cmd = f"CUDA_VISIBLE_DEVICES=0 exec {cmd} &"
    lines.append(cmd)
    text = "\n".join(lines) + "\n"
    return {"run.sh": _damage(c, text) if c.chance(0.5) else text}


def gen_python(c: Chooser) -> dict[str, str]:
    """A Python launch file: subprocess lists, a ``shell=True`` string, or ``sgl.Engine`` kwargs."""
    head = "import subprocess\nimport sglang as sgl\n" + _directive(c)
    style = c.integer(0, 3)
    args = _server_args(c)
    if style == 0:
        body = "subprocess.run([" + ", ".join(repr(w) for w in args.split()) + "])\n"
    elif style == 1:
        body = f"subprocess.Popen({args!r}, shell=True)\n"
    elif style == 2:
        kw = [f"model_path={c.choice(MODELS)!r}"]
        if c.chance(0.7):
            kw.append(f"attention_backend={c.choice(BACKENDS)!r}")
        if c.chance(0.6):
            kw.append(f"enable_deterministic_inference={c.choice(['True', 'False', 'flag'])}")
        if c.chance(0.3):
            kw.append("tp_size=" + c.choice(["8", "TP", "-" * c.integer(1, 30) + "1"]))
        body = "def build():\n    return sgl.Engine(\n        " + ",\n        ".join(kw) + ",\n    )\n"
    else:
        body = (f"ATTN = {c.choice(BACKENDS)!r}\nARGS = [" + ", ".join(repr(w) for w in args.split()) +
                "]\nsubprocess.run(ARGS + ['--attention-backend', ATTN])\n")
    text = head + body
    return {"serve.py": _damage(c, text) if c.chance(0.5) else text}


def seed_files() -> list[tuple[str, str]]:
    """(name, text) of the repository's example launch files: the mutation corpus."""
    out = []
    for path in sorted((ROOT / "examples").rglob("*")):
        if path.is_file() and path.suffix in (".yml", ".yaml", ".sh", ".py", ".env") or path.name == ".env":
            out.append((path.relative_to(ROOT / "examples").as_posix(), path.read_text("utf-8")))
    return out


_SEEDS: list[tuple[str, str]] | None = None


def gen_mutation(c: Chooser) -> dict[str, str]:
    """An example file of the repository, damaged (pieces inserted, deleted, duplicated)."""
    global _SEEDS
    if _SEEDS is None:
        _SEEDS = seed_files()
    name, text = c.choice(_SEEDS)
    files = {Path(name).name: _damage(c, text, c.integer(1, 6))}
    if name.endswith((".yml", ".yaml")):
        env = next((t for n, t in _SEEDS if n == str(Path(name).parent / ".env")), None)
        if env is not None:
            files[".env"] = _damage(c, env, c.integer(0, 2))
    if Path(name).name == ".env":
        files = {"compose.yaml": next(t for n, t in _SEEDS if n.endswith("docker-compose.yml")), ".env": files[".env"]}
    return files


def gen_areal(c: Chooser) -> dict[str, str]:
    """An AReaL experiment config: ``sglang:`` keywords beside AReaL's keys, OmegaConf ``${...}``."""
    text = _directive(c) + "experiment_name: e\nactor:\n  path: " + c.choice(MODELS) + "\n"
    text += "rollout:\n  backend: " + c.choice(['"sglang:d4t8"', "sglang:d2", "vllm:d1"]) + "\nsglang:\n"
    text += "  model_path: " + c.choice(["${actor.path}", c.choice(MODELS), "${missing.key}", "${actor.path"]) + "\n"
    if c.chance(0.7):
        text += "  attention_backend: " + c.choice(BACKENDS + ["${actor.backend}", "null"]) + "\n"
    if c.chance(0.6):
        text += "  enable_deterministic_inference: " + c.choice(["true", "false", "yes", "1", "${x}"]) + "\n"
    if c.chance(0.3):
        text += "  tp_size: " + c.choice(["8", "-1", "x", "[1, 2]", "{a: 1}"]) + "\n"
    return {"config.yaml": _damage(c, text) if c.chance(0.5) else text}


def gen_registry(c: Chooser) -> dict[str, str]:
    """Any format of the registry (``linter/formats.py``) from its sample file, with a drawn launch,
    image and target, sometimes damaged: every format that exists is fuzzed, also ones added later."""
    from linter.formats import REGISTRY

    fmt = c.choice([f for f in REGISTRY if f.sample and f.sample_name])
    image = "lmsysorg/sglang:" + c.choice(["v0.5.23-cu129", "v0.5.18", "latest", "v0.4.0"])
    text = fmt.sample.format(head=_directive(c), image=image, command=_server_args(c))
    if c.chance(0.3):  # what the file's own YAML or shell adds around the command
        text += c.choice(["x: &a {b: 1}\ny:\n  <<: [*a, *a]\n", "env:\n  ATTN: fa4\n", "\n# $ATTN ${ATTN}\n",
                          "variables:\n  ATTN: fa4\n"])
    return {fmt.sample_name: _damage(c, text) if c.chance(0.5) else text}


def _some(c: Chooser, hi: int) -> int:
    """A size from 1 to ``hi``, as often small as large (each power of two about as likely)."""
    k = c.integer(0, max(1, hi.bit_length()))
    return max(1, min(hi, c.integer(1 << max(0, k - 1), 1 << k)))


CONTROL = ["\x00", "\x07", "\x1b[31m", "\x1b]8;;http://x\x07", "\r", "\r\n", "\x0b", "\x7f", "\x85", "\u2028",
           "\u202e", "\ufeff", "\t", "::error file=a.yaml,line=1::forged", "##[error]forged", "%0A::warning::x",
           "::stop-commands::x", "\\n", "\\x1b", "${X}", "$(X)", "{{ .X }}", "'", '"']
"""What a value may carry to forge a report or confuse a terminal (issue 30): each must lint without an
internal error, whatever format prints it."""


def _hostile_issue26(c: Chooser, shape: int) -> dict[str, str]:
    """The shapes of issue 26's hostile inputs with drawn sizes: nested merges, doubling ``.env``
    variables, open brackets, escapes, unary chains, deep nesting."""
    head = _directive(c) + "services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
    launch = _server_args(c)
    n = c.integer(1, 400)
    if shape == 0:
        levels = c.integer(1, 14)
        text = "x-m0: &m0 {a: 1}\n" + "".join(f"x-m{k}: &m{k}\n  <<: [*m{k - 1}, *m{k - 1}, *m{k - 1}]\n"
                                             for k in range(1, levels + 1))
        return {"compose.yaml": text + head + f"    <<: *m{levels}\n    command: {launch}\n"}
    if shape == 1:
        levels = c.integer(1, 40)
        env = "A0=xy\n" + "".join(f"A{k}=${{A{k - 1}}}${{A{k - 1}}}\n" for k in range(1, levels + 1))
        return {"compose.yaml": head + f"    command: {launch} --served-model-name ${{A{levels}}}\n", ".env": env}
    if shape == 2:
        return {"compose.yaml": head + f"    command: {launch} " + c.choice(["${", "{", "[", "$(", "'"]) * n * 4 + "\n"}
    if shape == 3:
        return {"compose.yaml": head + "    command: [" + ", ".join(launch.split()) + ', "' + "\\t" * n * 20 + '"]\n'}
    if shape == 4:
        return {"serve.py": "import subprocess\nX = " + c.choice(["-", "~", "not ", "+"]) * n + "1\n"
                "subprocess.run(['python3', '-m', 'sglang.launch_server', '--tp', str(X)])\n"}
    if shape == 5:
        return {"serve.py": "import sglang\nX = " + c.choice(["[", "(", "{", "f'{"]) * n + "\n"}
    if shape == 6:
        return {"run.sh": launch + " " + c.choice(["$(", "${", "\"", "`", "((", "[["]) * n + "\n"}
    return {"compose.yaml": head + "    command: " + launch + "\n    x: " + "- " * n + "\n"
            + c.choice(["  " * k + "- a\n" for k in range(1, 40)])}


def _doubling(c: Chooser, kind: str) -> dict[str, str]:
    """A value doubling through one expander (issue 30's table): shell, Python strings or lists (and
    every form that doubles one), Kubernetes ``$(VAR)``, Helm defines, Dockerfile ``ARG``s."""
    from tests import hostile

    if kind == "shell":
        return hostile.shell_doubling(_some(c, 26))
    if kind == "python-strings":
        return hostile.python_strings(_some(c, 26))
    if kind == "python-lists":
        return hostile.python_lists(_some(c, 40))
    if kind == "k8s":
        return hostile.k8s_doubling(_some(c, 26))
    if kind == "helm":
        return hostile.helm_defines(_some(c, 40))
    if kind == "dockerfile":
        n = _some(c, 30)
        return {"Dockerfile": "FROM lmsysorg/sglang:v0.5.23-cu129\nARG A0=xy\n"
                + "".join(f"ARG A{k}=$A{k - 1}$A{k - 1}\n" for k in range(1, n + 1))
                + f"ENV M=$A{n}\nCMD {_server_args(c)} --served-model-name $M\n"}
    form = c.choice(["A = A + A", "A += A", "A.extend(A)", "A = [*A, *A]", "A = list(A) + list(A)", "A = (*A, *A)",
                     "S = S + S", "S = ''.join([S, S])", "S = '{}{}'.format(S, S)", "S = '%s%s' % (S, S)",
                     "S = f'{S}{S}'", "S = ' '.join(A)"])
    return {"serve.py": "import subprocess\nA = ['--x']\nS = 'xy'\n" + (form + "\n") * _some(c, 40)
            + "subprocess.run(['python3', '-m', 'sglang.launch_server', '--served-model-name', S, *A])\n"}


def _graphs(c: Chooser, kind: int) -> dict[str, str]:
    """Include graphs: compose includes fanning out, meshes and cycles, ``extends`` chains, Helm
    ranges and includes that call each other, a ``--config`` file shared by many launches."""
    from tests import hostile

    if kind == 0:
        return hostile.compose_include_fanout(_some(c, 16), fan=c.integer(1, 5))
    if kind == 1:
        return hostile.compose_include_mesh(_some(c, 8))
    if kind == 2:  # a cycle, and a file including itself
        files = hostile.compose_include_fanout(c.integer(2, 5))
        last = max(files, key=lambda n: (n != "compose.yaml", n))
        files[last] = "include:\n  - compose.yaml\n  - " + last + "\n" + files[last]
        return files
    if kind == 3:
        n = _some(c, 30)
        services = "".join(f"  s{k}:\n    extends: {c.choice([f's{k - 1}', f's{k}', 's0'])}\n" for k in range(1, n))
        return {"compose.yaml": "services:\n  s0:\n    image: lmsysorg/sglang:v0.5.23-cu129\n    command: "
                + _server_args(c) + "\n" + services}
    if kind == 4:
        return hostile.helm_ranges(_some(c, 80), depth=c.integer(1, 5))
    if kind == 5:
        helpers = '{{- define "a" -}}x{{ include "b" . }}{{- end -}}\n{{- define "b" -}}{{ include "a" . }}{{- end -}}\n'
        return hostile._chart(hostile.HELM_POD + '    - "{{ include "' + c.choice(["a", "b", "c"]) + '" . }}"\n',
                              helpers)
    return hostile.shared_config(_some(c, 300), keys=_some(c, 300))


def _work(c: Chooser, kind: int) -> dict[str, str]:
    """Work that repeats: nested shell loops, ``bash -c`` of a variable run many times, Python functions
    calling each other many times, nested Python loops, many open Helm actions, Dockerfile ``ARG`` chains."""
    from tests import hostile

    if kind == 0:
        return hostile.shell_loops(_some(c, 2000), depth=c.integer(1, 7))
    if kind == 1:
        body = "x" * _some(c, 90_000)
        return {"run.sh": f'S="{_server_args(c)} --served-model-name {body}"\n' + 'bash -c "$S"\n' * _some(c, 300)}
    if kind == 2:
        return hostile.python_calls(_some(c, 40), fan=c.integer(1, 9))
    if kind == 3:
        return hostile.python_loops(_some(c, 3000), depth=c.integer(1, 4))
    if kind == 4:
        return hostile.helm_unclosed(_some(c, 20_000))
    return hostile.dockerfile_args(_some(c, 20_000))


def _control(c: Chooser, kind: int) -> dict[str, str]:
    """Control characters, ANSI escapes and forged workflow commands in values of each format."""
    value = "".join(c.choice(CONTROL) + c.choice(["", "m", "fa4", " "]) for _ in range(c.integer(1, 4)))
    launch = _server_args(c)
    if kind == 0:
        quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return {"compose.yaml": _directive(c) + "services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
                "    command: " + launch + " --served-model-name ${V}\n    environment:\n      V: " + quoted + "\n",
                ".env": "V=" + value + "\n"}
    if kind == 1:
        return {"run.sh": _directive(c) + "V=$'" + value.replace("'", "\\'") + "'\n" + launch
                + " --served-model-name \"$V\" " + value + "\n"}
    if kind == 2:
        return {"serve.py": "import subprocess\n" + _directive(c) + f"V = {value!r}\nsubprocess.run(['python3', '-m', "
                "'sglang.launch_server', '--served-model-name', V, " + repr(value) + "])\n"}
    if kind == 3:
        from tests import hostile

        return {"pod.yaml": hostile.K8S_HEAD + "    args: [--served-model-name, $(V)]\n    env:\n    - name: V\n"
                "      value: " + repr(value).replace("'", '"') + "\n"}
    return {"cfg.yaml": value + ": 1\nserved-model-name: " + repr(value).replace("'", '"') + "\n",
            "run.sh": launch + " --config cfg.yaml\n"}


OUTSIDE = "@outside/"
"""An input's key starting with this names a file outside the linted repository (``../outside/`` from
its top): the run must never read, quote or write it."""

SECRET = "outside-secret-7f3a"
"""Text each outside file holds: found in a finding, it was read."""


class Link(str):
    """An input's value that makes its key a symbolic link to this target (a path relative to the
    link's folder, as ``ln -s`` takes it), instead of a file holding text."""


def _links(c: Chooser, kind: int) -> dict[str, str]:
    """Symbolic links out of the tree (issue 30): a linted file, a compose ``include``, an ``env_file``,
    a ``--config`` file, a Python module, a Helm chart's values and a folder, each a link to a file
    outside the repository that holds a fixable launch and :data:`SECRET`. The walk passes over a link
    out; a reference through one is refused (SGL005); nothing outside is read or written."""
    from tests import hostile

    bad = f"{LAUNCH_FIXABLE} --served-model-name {SECRET}"
    outside_compose = ("services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n    command: " + bad + "\n")
    head = "services:\n  s:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
    plain = c.choice([LAUNCH_FIXABLE.split(" --attention_backend")[0], "python3 -m sglang.launch_server --tp 2"])
    via = c.choice(["", "sub/"])  # directly, or through a folder that is itself a link out
    files: dict[str, str] = {}
    if via:
        files["sub"] = Link("../outside")
    target = "../outside/"  # from the repository's top
    if kind == 0:  # a linted file that is a link out
        files[OUTSIDE + "compose.yaml"] = outside_compose
        files["compose.yaml" if not via else "top.yaml"] = (Link(target + "compose.yaml") if not via
                                                           else "include:\n  - sub/compose.yaml\n" + head
                                                           + f"    command: {plain}\n")
    elif kind == 1:  # an include of a link out
        files[OUTSIDE + "other.yaml"] = outside_compose
        if not via:
            files["other.yaml"] = Link(target + "other.yaml")
        files["compose.yaml"] = f"include:\n  - {via}other.yaml\n" + head.replace("  s:", "  t:") + \
            f"    command: {plain}\n"
    elif kind == 2:  # env_file / .env through a link out
        files[OUTSIDE + "x.env"] = f"MODEL={SECRET}\nATTN=fa4\n"
        if not via:
            files[c.choice([".env", "x.env"])] = Link(target + "x.env")
        name = ".env" if ".env" in files else f"{via}x.env"
        env_file = "" if name == ".env" else f"    env_file: {name}\n"
        files["compose.yaml"] = head + env_file + f"    command: {plain} --served-model-name ${{MODEL}}" \
            " --attention-backend ${ATTN}\n"
    elif kind == 3:  # --config through a link out
        files[OUTSIDE + "cfg.yaml"] = f"served-model-name: {SECRET}\nattention_backend: fa3\nunknown-{SECRET}: 1\n"
        if not via:
            files["cfg.yaml"] = Link(target + "cfg.yaml")
        files["run.sh"] = f"{_server_args(c)} --config {via}cfg.yaml\n"
    elif kind == 4:  # a Python module imported through a link out
        files[OUTSIDE + "settings.py"] = f"MODEL = {SECRET!r}\nARGS = ['--attention_backend', 'fa3']\n"
        if not via:
            files["settings.py"] = Link(target + "settings.py")
        module = "sub.settings" if via else "settings"
        files["serve.py"] = (f"import subprocess\nfrom {module} import MODEL, ARGS\nsubprocess.run(['python3', '-m', "
                             "'sglang.launch_server', '--model-path', MODEL, *ARGS])\n")
    else:  # a chart whose values.yaml is a link out
        files[OUTSIDE + "values.yaml"] = f"model: {SECRET}\nattn: fa3\n"
        chart = hostile._chart(hostile.HELM_POD + "    - {{ .Values.model }}\n    - --attention_backend\n"
                               "    - {{ .Values.attn }}\n")
        files.update(chart)
        files["chart/values.yaml"] = Link("../../outside/values.yaml" if not via else "../sub/values.yaml")
    if c.chance(0.3):  # and a link inside the tree, which may be followed
        files["inside.yaml"] = Link("compose.yaml" if "compose.yaml" in files else "run.sh")
    return files


LAUNCH_FIXABLE = "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --attention_backend fa3"
"""A launch with a safe fix (the underscore spelling): followed through a link out, ``--fix`` would write there."""

_DOUBLING = ["shell", "python-strings", "python-lists", "k8s", "helm", "dockerfile", "python-forms"]
_GRAPHS = ["compose-fanout", "compose-mesh", "compose-cycle", "compose-extends", "helm-ranges", "helm-includes",
           "shared-config"]
_WORK = ["shell-loops", "bash-c-repeated", "python-calls", "python-loops", "helm-unclosed", "dockerfile-args"]
_CONTROL = ["compose", "shell", "python", "kubernetes", "config"]
_LINKS = ["linted", "include", "env", "config", "python", "helm"]

HOSTILE: dict[str, Callable[[Chooser], dict[str, str]]] = {
    **{f"issue26-{k}": (lambda c, k=k: _hostile_issue26(c, k)) for k in range(8)},
    **{f"doubling-{k}": (lambda c, k=k: _doubling(c, k)) for k in _DOUBLING},
    **{f"graph-{k}": (lambda c, k=k: _graphs(c, _GRAPHS.index(k))) for k in _GRAPHS},
    **{f"work-{k}": (lambda c, k=k: _work(c, _WORK.index(k))) for k in _WORK},
    **{f"control-{k}": (lambda c, k=k: _control(c, _CONTROL.index(k))) for k in _CONTROL},
    **{f"link-out-{k}": (lambda c, k=k: _links(c, _LINKS.index(k))) for k in _LINKS},
}
"""The hostile shapes by name: the quick profile runs each (``tests/test_fuzz.py``)."""


def gen_hostile(c: Chooser) -> dict[str, str]:
    """One of the :data:`HOSTILE` shapes with drawn sizes — each must stay within the CPU budget."""
    return HOSTILE[c.choice(sorted(HOSTILE))](c)


GENERATORS: dict[str, Callable[[Chooser], dict[str, str]]] = {
    "compose": gen_compose, "env": gen_env_focused, "shell": gen_shell, "python": gen_python,
    "areal": gen_areal, "registry": gen_registry, "mutation": gen_mutation, "hostile": gen_hostile,
}


# ------------------------------------------------------------------------------------------------
# the oracle


@dataclass
class Counts:
    """What the long profile reports, summed over inputs; ``examples`` keeps a few failing inputs."""

    inputs: int = 0
    internal_errors: int = 0
    slow: int = 0
    fixed_not_parsing: int = 0
    bytes_outside_edits: int = 0
    not_converging: int = 0
    outside_touched: int = 0
    fixed_files: int = 0
    max_cpu: float = 0.0
    examples: dict[str, list] = field(default_factory=dict)

    def bad(self) -> int:
        return self.internal_errors + self.slow + self.fixed_not_parsing + self.bytes_outside_edits + \
            self.not_converging + self.outside_touched

    def note(self, kind: str, files: dict, detail: str = "") -> None:
        self.examples.setdefault(kind, [])
        if len(self.examples[kind]) < 3:
            self.examples[kind].append((files, detail))


def _parses(name: str, text: str) -> bool:
    if name.endswith((".yml", ".yaml")):
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        import warnings

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                YAML(typ="rt").compose(text)
            return True
        except (YAMLError, RecursionError, ValueError):
            return False
    if name.endswith(".py"):
        try:
            ast.parse(text)
            return True
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    if name.endswith(".sh"):
        import tree_sitter
        import tree_sitter_bash

        parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
        return not parser.parse(text.encode("utf-8")).root_node.has_error
    return True


def _lint_all(root: Path):
    """Lint the folder ``root`` as ``lint-configs`` run there does: ``root`` is the run's root."""
    from linter.config import ConfigResolver
    from linter.discover import WalkReport, walk
    from linter.engine import Engine, RunOptions, reconcile_with_readers
    from linter.isolate import lint_file
    from linter.workspace import Workspace

    engine = Engine(Workspace(root, root=root), RunOptions(), ConfigResolver())
    report = WalkReport(engine.ws.boundary)
    results = {cand.path: lint_file(engine, cand.path) for cand in walk([root], lambda p, d: False, False, report)}
    reconcile_with_readers(engine, results.values())
    return engine, results


def judge(files: dict[str, str], root: Path, counts: Counts, cpu_budget: float = 2.0) -> None:
    """Lint and fix ``files`` (written into the empty folder ``root``; :data:`OUTSIDE` files into
    ``root/../outside``, which must not exist yet) and add what went wrong to ``counts``."""
    import os

    import linter.fixes as fixes
    from linter.isolate import crashed

    outside = root.parent / "outside"
    for rel, text in files.items():
        dest = outside / rel[len(OUTSIDE):] if rel.startswith(OUTSIDE) else root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, Link):
            os.symlink(str(text), dest)
        else:
            dest.write_bytes(text.encode("utf-8", "surrogatepass"))
    counts.inputs += 1
    originals = {rel: (root / rel).read_bytes() for rel, text in files.items()
                 if not rel.startswith(OUTSIDE) and not isinstance(text, Link)}
    kept_outside = _snapshot(outside)
    applied: dict[Path, list] = {}  # path -> [(text before, edits)] in the order they were applied
    real_apply = fixes.apply_edits

    t0 = time.process_time()
    engine, results = _lint_all(root)
    by_text: dict[int, Path] = {}

    def recording(text, edits):
        new = real_apply(text, edits)
        if edits:
            applied.setdefault(edits[0].span.source.path, []).append((text, list(edits), new))
        return new

    fixes.apply_edits = recording
    try:
        report = fixes.fix_all(engine, results, unsafe=True)
    finally:
        fixes.apply_edits = real_apply
    outcome = fixes.write_all(engine, results, report)
    cpu = time.process_time() - t0
    if kept_outside:
        _judge_outside(engine, results, root, outside, kept_outside, files, counts)
    del by_text
    counts.max_cpu = max(counts.max_cpu, cpu)
    if cpu > cpu_budget:
        counts.slow += 1
        counts.note("slow", files, f"{cpu:.2f} s")
    if any(crashed(r) for r in results.values()) or report.crashed:
        counts.internal_errors += 1
        msg = next((d.message for r in list(results.values()) + report.crashed for d in r.diagnostics
                    if d.code == "SGL000"), "")
        counts.note("internal", files, msg)
        return
    for path in outcome.written:
        counts.fixed_files += 1
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        new_bytes = path.read_bytes()
        new_text = new_bytes.decode("utf-8")
        old = originals.get(rel)
        if old is not None and _parses(rel, old.decode("utf-8", "replace")) and not _parses(rel, new_text):
            counts.fixed_not_parsing += 1
            counts.note("not-parsing", files, rel)
        # The expected bytes: the original, with the recorded edits applied in order, BOM kept.
        steps = applied.get(path, [])
        bom = old is not None and old.startswith(b"\xef\xbb\xbf")
        text = (old[3:] if bom else old or b"").decode("utf-8")
        ok = True
        for before, edits, after in steps:
            if before != text:
                ok = False
                break
            text = after
        expected = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
        if not ok or expected != new_bytes:
            counts.bytes_outside_edits += 1
            counts.note("outside-edits", files, rel)
    if outcome.written:
        engine2, results2 = _lint_all(root)
        again = fixes.fix_all(engine2, results2, unsafe=True)
        if again.changed:
            counts.not_converging += 1
            counts.note("not-converging", files, ", ".join(sorted(p.name for p in again.changed)))


def judge_in_tmp(files: dict[str, str], counts: Counts, cpu_budget: float = 2.0) -> None:
    """:func:`judge` in a fresh temporary folder (removed afterwards)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="lint-configs-fuzz-") as tmp:
        root = Path(tmp, "repo")
        root.mkdir()
        judge(files, root, counts, cpu_budget)


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (not following links) by path: its bytes."""
    import os

    out = {}
    for here, _dirs, names in os.walk(folder):
        for name in names:
            p = os.path.join(here, name)
            if not os.path.islink(p):
                with open(p, "rb") as fh:
                    out[p] = fh.read()
    return out


def _judge_outside(engine, results, root: Path, outside: Path, kept: dict[str, bytes], files, counts) -> None:
    """Count one ``outside_touched`` when the run read a file outside ``root`` (a cached file whose real
    path is outside, or :data:`SECRET` in a finding) or changed anything under ``outside``."""
    import os

    real_root = os.path.realpath(root)
    read = sorted(str(p) for p in list(engine.ws._files) if not _within(os.path.realpath(p), real_root))
    quoted = [d.message for r in results.values() for d in r.diagnostics if SECRET in d.message]
    changed = _snapshot(outside) != kept
    if read or quoted or changed:
        counts.outside_touched += 1
        counts.note("outside", files, f"read {read[:3]} quoted {quoted[:1]} changed {changed}")


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def peak_rss_mib() -> float:
    """Peak resident set of this process so far (MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


__all__ = ["GENERATORS", "HOSTILE", "OUTSIDE", "Counts", "Link", "judge", "judge_in_tmp", "RandomChooser",
           "HypothesisChooser"]
