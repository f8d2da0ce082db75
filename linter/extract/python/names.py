"""The callables the Python format knows by qualified name: process starters (``subprocess``, ``os``,
``asyncio``), SGLang's Python API (from :mod:`linter.sglang.entrypoints`), Modal, and the builtins and
methods the analysis models. A callee counts only when the file's imports resolve it to one of these.
"""

from __future__ import annotations

import re

from linter import datafiles
from linter.sglang.ci import REGISTER_CUDA_CI
from linter.sglang.entrypoints import (
    ENGINE,
    EXECUTE_TRAIN,
    LAUNCH_SERVER_CMD,
    POPEN_LAUNCH_SERVER,
    RUNTIME,
    SERVER_ARGS,
)

POPEN = {f"subprocess.{n}" for n in ("Popen", "run", "call", "check_call", "check_output")}
SHELL_CALLS = {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput",
               "asyncio.create_subprocess_shell"}
# os.exec*/spawn*: (index of the path, index of the argv list or of the first argv word, "v"/"l", has env)
EXEC: dict[str, tuple[int, int, str, bool]] = {}
for _n in ("execv", "execve", "execvp", "execvpe"):
    EXEC[f"os.{_n}"] = (0, 1, "v", _n.endswith("e"))
for _n in ("execl", "execle", "execlp", "execlpe"):
    EXEC[f"os.{_n}"] = (0, 1, "l", _n.endswith("e"))
for _n in ("spawnv", "spawnve", "spawnvp", "spawnvpe"):
    EXEC[f"os.{_n}"] = (1, 2, "v", _n.endswith("e"))
for _n in ("spawnl", "spawnle", "spawnlp", "spawnlpe"):
    EXEC[f"os.{_n}"] = (1, 2, "l", _n.endswith("e"))
for _n in ("posix_spawn", "posix_spawnp"):
    EXEC[f"os.{_n}"] = (0, 1, "v", False)
CREATE_EXEC = "asyncio.create_subprocess_exec"

MODAL_APPS = {"modal.App", "modal.Stub"}
MODAL_DECORATORS = {"function", "cls", "server"}
MODAL_IMAGE = "modal.Image"
SGLANG_IMAGE = re.compile(r"(?:^|[\s/\"'=:])(?P<ref>lmsysorg/sglang:[A-Za-z0-9_.\-\ue000]+)")

BUILTINS = {"str", "list", "tuple", "dict", "int", "float", "bool", "len", "print", "sorted", "repr", "filter",
            "reversed", "map"}
MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update",
            "setdefault", "popitem", "__setitem__", "__delitem__", "__iadd__"}
FRAMEWORK_CALLS = frozenset(
    q for names in datafiles.load_json("linter.sglang.data", "frameworks.json")["frameworks"].values()
    for q in names.get("python", ()))
"""Framework Python APIs that start SGLang (NeMo-Skills' ``eval``/``generate``/``start_server``, AReaL's
``SGLangConfig.build_cmd``; ``linter/sglang/data/frameworks.json``)."""
CALL_NAMES = {q.rsplit(".", 1)[1] for q in (POPEN | SHELL_CALLS | set(EXEC) | {CREATE_EXEC} | ENGINE
                                         | SERVER_ARGS | RUNTIME | LAUNCH_SERVER_CMD | POPEN_LAUNCH_SERVER
                                         | EXECUTE_TRAIN | FRAMEWORK_CALLS)}
"""Last names of the callables above: a call named otherwise is a launch only through an alias."""
COMMAND_METHOD = "__command__"
"""A method whose returned argv a framework runs as the server (BentoML's ``__command__``)."""
CALL_NAME_RE = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, CALL_NAMES | {COMMAND_METHOD}), key=len,
                                                      reverse=True)) + r")\b")
"""Any of the names above as a whole word: a file without one holds no launch (the early exit)."""
STARTERS = frozenset(POPEN | SHELL_CALLS | set(EXEC) | {CREATE_EXEC})
"""The process starters: what they start is an SGLang launch when their command is one."""
LAUNCH_QUALS = STARTERS | ENGINE | SERVER_ARGS | RUNTIME | LAUNCH_SERVER_CMD | POPEN_LAUNCH_SERVER | EXECUTE_TRAIN \
    | FRAMEWORK_CALLS
"""The callables whose call starts a launch: a function that calls one may launch (:mod:`.launchers`)."""
CALL_QUALS = LAUNCH_QUALS | MODAL_APPS | REGISTER_CUDA_CI | {"areal.api.cli_args.SGLangConfig"}
"""Qualified names the analysis knows as such: never resolved to a file of the repository."""
HARMLESS = {"info", "debug", "warning", "warn", "error", "exception", "critical", "log", "print", "write",
            "join", "dumps", "format", "echo", "len", "repr", "str", "copy", "deepcopy"}
"""Functions and methods that do not change the lists and dicts they are given."""
