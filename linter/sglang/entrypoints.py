"""Which argument vectors start an SGLang server, and where its server arguments begin.

Entry points (sglang-semantics.md §7.1, SGLang 0.5.18–0.5.23):

* ``python[3][.X] [-u|-O|-B …] -m sglang.launch_server ARGS`` (``python/sglang/launch_server.py``),
  with any path to the interpreter (``/opt/venv/bin/python3``);
* ``sglang serve [MODEL] ARGS`` (console script ``sglang = sglang.cli.main:main``;
  ``python/sglang/cli/serve.py`` turns a first non-option token into ``--model-path``);
* ``python -m sglang.cli.main serve …`` behaves as ``sglang serve``;
* ``python -m sglang_router.launch_server ARGS`` (sgl-project/sglang
  ``sgl-router/py_src/sglang_router/launch_server.py`` @0e6ed14d): one argparse parser with
  ``ServerArgs.add_cli_args`` plus the router's options, all spelled ``--router-*``
  (``RouterArgs.add_cli_args(parser, use_router_prefix=True)``) — it starts ``--dp-size`` SGLang
  servers from the same server arguments, and a router. ``sglang_router.launch_router`` starts only a
  router (no server);
* ``python -m dynamo.sglang`` (and ``.worker``/``.decode_worker``): NVIDIA Dynamo's SGLang worker,
  which takes SGLang's server arguments beside its own (:data:`DYNAMO_MODULES`).

SGLang's benchmark tools (:data:`BENCH_MODULES`) build ``ServerArgs`` from the same parser and are
checked as launches. Other programs that merely share flag names (trainers, ``sglang_router.launch_router``,
``sglang.bench_serving``, a client) are not launches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from linter.launch import Token
from linter.records import dataclass

_PYTHON = re.compile(r"^(?:.*/)?python(?:3(?:\.\d+)?)?$")
_SGLANG = re.compile(r"^(?:.*/)?sglang$")
_PY_NO_ARG = frozenset("bBdEiIOPqsSuvx")
"""CPython's one-letter interpreter options that take no argument, which may be combined (``-Bu``)
(CPython 3.11 ``Python/getopt.c``, ``SHORT_OPTS``: ``bBc:dEhiIJm:OPqRsStuvVW:xX:?``; ``-h``, ``-V``,
``-?`` and ``-c`` run no module)."""
_PY_WITH_ARG = frozenset("WX")
"""Interpreter options whose argument is the rest of the word or the next word (``-X dev``, ``-Wignore``)."""

LAUNCH_SERVER = "python -m sglang.launch_server"
SERVE = "sglang serve"
SERVE_SINCE = "0.5.5"
"""The first release with the ``sglang`` command and ``python -m sglang.cli.main``: the 0.5.5 wheel's
``entry_points.txt`` has ``sglang = sglang.cli.main:main`` and it ships ``sglang/cli/serve.py``;
0.5.4.post3 and every older wheel from 0.4.0 have neither (checked on each release's wheel)."""
ROUTER_SERVER = "python -m sglang_router.launch_server"
DYNAMO = "python -m dynamo.sglang"

DYNAMO_MODULES = ("dynamo.sglang", "dynamo.sglang.worker", "dynamo.sglang.decode_worker")
"""NVIDIA Dynamo's SGLang workers (ai-dynamo/dynamo ``components/src/dynamo/sglang/args.py``
@010ba752: one argparse parser holds Dynamo's runtime, SGLang-worker and router options;
``parse_known_args`` takes those, and what is left goes to a parser built by SGLang's own
``ServerArgs.add_cli_args`` — so SGLang's server arguments are checked as SGLang checks them, and
options Dynamo owns are not SGLang's). Older layouts (``components/backends/sglang``) also run
``dynamo.sglang.worker`` and ``dynamo.sglang.decode_worker`` (field-notes.md #27)."""

BENCH_MODULES = ("sglang.bench_one_batch", "sglang.bench_latency", "sglang.bench_offline_throughput",
                 "sglang.bench_one_batch_server", "sglang.benchmark.one_batch", "sglang.benchmark.one_batch_server",
                 "sglang.benchmark.offline_throughput", "sglang.compile_deep_gemm")
"""SGLang's own tools that build ``ServerArgs`` from the same parser (``ServerArgs.add_cli_args`` +
``from_cli_args``, so the same start-up checks; sglang-semantics.md §7.1; 0.5.23
``sglang/benchmark/one_batch.py``, ``offline_throughput.py``, ``one_batch_server.py``,
``sglang/compile_deep_gemm.py``; older releases name them ``sglang.bench_one_batch``/``bench_latency``/
``bench_offline_throughput``). Their own benchmark options are theirs, not SGLang's."""

BENCH = "python -m sglang (benchmark tool)"

WRAPPER_MODULES = ("skyrl_train.inference_engines.sglang.sglang_server",
                   "skyrl.backends.skyrl_train.inference_engines.sglang.sglang_server")
"""Frameworks' modules that hand their argv to SGLang's own parser and start its HTTP server: SkyRL's
``sglang_server`` (NovaSky-AI/SkyRL ``skyrl-train/skyrl_train/inference_engines/sglang/sglang_server.py``
@7554082e: ``prepare_server_args(sys.argv[1:] + ['--skip-tokenizer-init'])`` then ``launch_server``;
removed with SkyRL's SGLang backend in ac8cbfbf)."""

WRAPPED_SERVER = "python -m FRAMEWORK.sglang_server (SGLang's parser)"

LENIENT_UNKNOWN_OPTIONS = {DYNAMO, BENCH}
"""Entry points whose own options are too many and too release-dependent to list: an option that is
not SGLang's is taken as theirs (skipped with its value), never reported as unknown."""

FOREIGN_OPTION_PREFIXES = {ROUTER_SERVER: ("--router-",)}
"""Per entry point, option prefixes that belong to the program, not to SGLang's server arguments."""


@dataclass(frozen=True)
class EntryPoint:
    """``program`` is :data:`LAUNCH_SERVER`, :data:`SERVE` or :data:`ROUTER_SERVER`; ``args_start``
    indexes the first server argument."""

    program: str
    args_start: int


def entry_program(word: str) -> bool:
    """Whether an argv starting with ``word`` may be an SGLang entry point or a framework dialect
    (:mod:`linter.sglang.dialects`): a Python interpreter or ``sglang``, with any path."""
    return bool(_PYTHON.match(word) or _SGLANG.match(word))


def match_entry_point(words: Sequence[Token]) -> EntryPoint | None:
    """Recognise an SGLang server entry point at the start of ``words``.

    Returns None when the command is something else or when the program itself is unknown.
    """
    if not words:
        return None
    first = words[0].value
    if first is None:
        return None
    if _SGLANG.match(first):
        if len(words) > 1 and words[1].value == "serve":
            return EntryPoint(SERVE, 2)
        return None
    if not _PYTHON.match(first):
        return None
    module, at = python_program(words)
    if module is not None:
        if module == "sglang.launch_server":
            return EntryPoint(LAUNCH_SERVER, at)
        if module == "sglang_router.launch_server":
            return EntryPoint(ROUTER_SERVER, at)
        if module in DYNAMO_MODULES:
            return EntryPoint(DYNAMO, at)
        if module in BENCH_MODULES:
            return EntryPoint(BENCH, at)
        if module in WRAPPER_MODULES:
            return EntryPoint(WRAPPED_SERVER, at)
        if module == "sglang.cli.main" and at < len(words) and words[at].value == "serve":
            return EntryPoint(SERVE, at + 1)
    return None


def python_program(words: Sequence[Token]) -> tuple[str | None, int]:
    """What ``python [OPTIONS] …`` runs, reading the interpreter's options as CPython's own parser does
    (``-X dev``, ``-Wignore``, ``-Bu``, ``-OO``, ``--check-hash-based-pycs MODE``): ``(MODULE, index of
    its first argument)`` for ``-m MODULE`` (or ``-mMODULE``); else ``(None, index of the first word
    after the options)`` — a script, or a word that is not read (``-c``, ``-h``, a word not known)."""
    i = 1
    while i < len(words):
        word = words[i].value
        if word is None or not word.startswith("-") or word == "-":
            return None, i
        if word == "--check-hash-based-pycs":
            i += 2
            continue
        if word.startswith("--"):
            return None, i
        for k in range(1, len(word)):
            c = word[k]
            if c in _PY_NO_ARG:
                continue
            if c in _PY_WITH_ARG:
                i += 1 if k + 1 < len(word) else 2
                break
            if c == "m":
                if k + 1 < len(word):
                    return word[k + 1:], i + 1
                return (words[i + 1].value if i + 1 < len(words) else None), i + 2
            return None, i  # -c, -h, -V or an option CPython does not have
        else:
            i += 1
    return None, i


# ------------------------------------------------------------------------------------------------
# Python API names that start an SGLang server (sglang-semantics.md §7.1 "Entry"; SGLang 0.5.18–0.5.23).
# Qualified names as a Python file imports them; the Python format resolves a callee through the
# file's imports and aliases to one of these.

ENGINE = frozenset({"sglang.Engine", "sglang.srt.entrypoints.engine.Engine", "sglang.api.Engine"})
"""``sglang.Engine(**ServerArgs fields)`` (lazy export in ``python/sglang/__init__.py``, defined in
``python/sglang/srt/entrypoints/engine.py:232-251``); a ``server_args=ServerArgs(...)`` keyword hands it a
ServerArgs, which is then the launch."""

SERVER_ARGS = frozenset({"sglang.ServerArgs", "sglang.srt.server_args.ServerArgs"})
"""``ServerArgs(...)`` (``python/sglang/srt/server_args.py``): a dataclass whose first field,
``model_path``, may be positional; ``__post_init__`` runs the checks the rules model."""

RUNTIME = frozenset({"sglang.Runtime", "sglang.api.Runtime", "sglang.lang.backend.runtime_endpoint.Runtime"})
"""``sgl.Runtime(...)`` (``python/sglang/lang/backend/runtime_endpoint.py:356-400``): builds
``ServerArgs(*args, log_level=…, port=…, **kwargs)``."""

LAUNCH_SERVER_CMD = frozenset({"sglang.utils.launch_server_cmd", "sglang.test.doc_patch.launch_server_cmd",
                               "sglang.utils.execute_shell_command"})
"""``launch_server_cmd(command)`` (``python/sglang/utils.py:476-519``, ``python/sglang/test/doc_patch.py``):
``execute_shell_command`` turns every backslash into a blank, splits on whitespace and takes leading
``KEY=VALUE`` words as environment."""

POPEN_LAUNCH_SERVER = frozenset({"sglang.test.test_utils.popen_launch_server"})
"""``popen_launch_server(model, base_url, timeout, api_key=None, other_args=[...], …)``
(0.5.18 ``python/sglang/test/test_utils.py:661-760``): runs ``sglang serve --model-path MODEL
*other_args``; ``other_args`` is its fifth parameter."""

EXECUTE_TRAIN = frozenset({"miles.utils.external_utils.command_utils.execute_train",
                           "slime.utils.external_utils.command_utils.execute_train"})
"""miles' ``execute_train(train_args, num_gpus_per_node, megatron_model_type, train_script="train.py", …)``
(radixark/miles ``miles/utils/external_utils/command_utils.py`` @00f10e51), and slime's, the same
function (THUDM/slime ``slime/utils/external_utils/command_utils.py:94-175`` @624b824a): runs ``ray job
submit … -- python3 TRAIN_SCRIPT MODEL_ARGS TRAIN_ARGS`` through a shell, so its ``train_args`` string
is the trainer's argv (read in the slime/miles dialect of :mod:`linter.sglang.dialects`)."""

KWARGS_ENTRY_POINTS = ENGINE | SERVER_ARGS | RUNTIME
"""Callables whose keyword arguments are ServerArgs fields."""


def _launch_text_patterns():
    import re

    modules = ["sglang.launch_server", "sglang.cli.main", "sglang_router.launch_server", *DYNAMO_MODULES, *BENCH_MODULES,
               *WRAPPER_MODULES]
    cli = r"\bsglang[ \t]+serve\b|" + "|".join(re.escape(m) + r"\b" for m in sorted(modules, key=len, reverse=True))
    calls = {q.rsplit(".", 1)[1] for q in (ENGINE | SERVER_ARGS | RUNTIME | LAUNCH_SERVER_CMD | POPEN_LAUNCH_SERVER
                                           | EXECUTE_TRAIN)}
    python = cli + "|" + "|".join(r"\b" + re.escape(c) + r"\(" for c in sorted(calls))
    return re.compile(cli), re.compile(python)


LAUNCH_TEXT, PYTHON_LAUNCH_TEXT = _launch_text_patterns()
"""Text that names an SGLang entry point a command line starts (``LAUNCH_TEXT``), or that, in Python,
also calls one of SGLang's launching APIs (``PYTHON_LAUNCH_TEXT``): a cheap test of whether a piece
of a document (a Markdown fence) may hold a launch."""
