#!/usr/bin/env python3
"""Generate SGLang's per-release CLI option tables for the linter.

What
----
For every SGLang release given on the command line (default: every release the
data folder covers; ``--since 0.4.0``: every final release on PyPI from 0.4.0,
``.postN`` included) this script writes
``linter/sglang/data/options-<VERSION>.json``: the argparse options that
``sglang serve`` / ``python -m sglang.launch_server`` accept (one element per
``argparse.Action``, in the parser's own order, ``-h/--help`` excluded), every
``ServerArgs`` field name (for Python ``Engine(**kwargs)`` validation), and the
attention-backend lists that the linter's deterministic-inference rules need.
With ``--record-parser-fixture VERSION`` it also writes
``tests/fixtures/sglang_parser_<VERSION>.json``: what the real parser does with
a fixed sample of command lines (abbreviations, aliases, ambiguous prefixes,
choice errors, store_true misuse, ...).

A release whose parser cannot be dumped gets no table: it is recorded in
``linter/sglang/data/unavailable.json`` with its wheel, sha256 and the reason
(the worker's exception and the line of the wheel that raised it). The linter
then uses the nearest older table and says so. Nothing is ever guessed.

Provenance
----------
1. ``pip download sglang==VERSION --no-deps`` fetches the published wheel from
   PyPI. The platform tag is pinned (``cp311`` / ``manylinux_2_34_x86_64``,
   the only kind of wheel SGLang 0.5.11+ publishes for CPython 3.11; older
   releases publish one ``py3-none-any`` wheel), so every machine gets the
   same file. The wheel's file name and sha256 go into
   ``source``. ``--wheel-dir`` lets you point at wheels you already have; the
   hash is then computed from those files.
2. The wheel is unpacked into a temporary directory. Nothing is installed.

Method ``argparse-dump`` (used for every committed table, 0.4.0 to 0.5.23)
--------------------------------------------------------------------------
SGLang's own declaration code builds the parser, exactly as
``prepare_server_args`` does::

    parser = argparse.ArgumentParser(prog="sglang serve")
    ServerArgs.add_cli_args(parser)

and the table is a dump of ``parser._actions``. Importing
``sglang.srt.server_args`` normally needs torch, transformers, flashinfer,
sgl-kernel, ... (about 11 GB). Instead, a worker process runs inside a small
throwaway venv (default ``/tmp/sglang-options-venv``) that holds only a pinned
handful of light pure-Python dependencies the declaration code really
executes (``msgspec``, ``pydantic``, ``PyYAML``, ``packaging``, ``dill``; see
``VENV_PACKAGES``). Every other *required* dependency of the wheel (read from
its ``Requires-Dist`` metadata, plus a few packages those pull in, see
``_DIST_TO_MODULES``) is replaced by an import-time stub: a module whose
attributes are permissive placeholder classes (callable, subclassable,
iterable-as-empty, falsy). Modules that are *not* dependencies of the wheel
(``torch_npu``, ...) stay absent, as on a real CUDA install, so optional
feature probes see what they would see there. ``torch`` is shaped like a CPU
build (``torch.version.cuda is None``, no ``torch.npu``; a stub's ``__version__``
is the wheel's ``==`` pin, e.g. ``torch==2.13.0``); none of this affects
argparse declarations, which are static apart from the plugin hooks. The
worker runs with an empty environment (``PATH``, ``HOME``, ``LANG`` and
``PYTHONHASHSEED=0`` only) so ``SGLANG_*`` variables cannot change choices or
defaults. If a stub ever leaked into a table value (a choice, default or
type), the worker fails instead of writing a wrong table. No native extension
module of the wheel is loaded (checked for 0.5.18 and 0.5.23).

Method ``static-ast`` (fallback, ``--method static-ast``)
----------------------------------------------------------
Reads the ``ServerArgs`` dataclass with ``ast`` (``A[...]``/``Arg(...)``
annotations and the literal ``parser.add_argument`` calls in
``add_cli_args``). It is an approximation (no computed choices, no custom
type names) and only understands the single-file dataclass layout of
<= 0.5.19 (for 0.5.20+ it stops with an error rather than write a partial
table); ``source.method`` says which method produced a table. It is used only
when explicitly requested or when ``--method auto`` sees the argparse-dump
fail. Checked against the dump for 0.5.18: the same 506 option strings in the
same order, but about 50 options differ in choices/defaults/type names.
None of the committed tables uses it.

Lists
-----
``lists`` are read with ``ast`` from the wheel's source, never typed by hand:
the module-level constants ``ATTENTION_BACKEND_CHOICES``,
``DETERMINISTIC_ATTENTION_BACKEND_CHOICES``,
``RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND`` and
``RL_ON_POLICY_TARGET_CHOICES`` (``sglang/srt/server_args.py`` up to 0.5.19,
``sglang/srt/arg_groups/choices.py`` from 0.5.20), and the architecture list
literal in ``is_deepseek_model = model_arch in [...]`` inside
``ServerArgs._handle_deterministic_inference`` (server_args.py, <= 0.5.18) or
``handle_deterministic_inference`` (``arg_groups/attention_hook.py``,
0.5.19+). With the argparse-dump method each constant is also compared with
the value the imported module really holds. ``lists_source`` gives the
``file:line`` of each list.

Determinism
-----------
Keys are written in a fixed order, options in argparse action order, set-valued
choices sorted (``--sampling-backend`` is declared with a ``set`` of choices,
whose order in a real process depends on the hash seed), and the output is
``dumps_table`` (one compact line per option, without help text and without
keys at their default, see ``OPTION_DEFAULTS``: 91 tables take ~3.1 MB instead
of ~20 MB), so re-running the generator reproduces the committed files byte
for byte (``--check`` verifies that without writing, unavailable.json included).

Usage
-----
::

    # what produced the committed files (every release from 0.4.0 + two fixtures):
    python3 scripts/generate_sglang_options.py --since 0.4.0 --wheel-dir /tmp/sglang-wheels \\
        --record-parser-fixture 0.5.18 --record-parser-fixture 0.5.23
    python3 scripts/generate_sglang_options.py 0.5.18 0.4.5.post2    # some versions
    # reproduce the data folder byte for byte, writing nothing (exit 1 on a difference):
    python3 scripts/generate_sglang_options.py --check --wheel-dir /tmp/sglang-wheels \\
        --record-parser-fixture 0.5.18 --record-parser-fixture 0.5.23

One release at a time (the worker runs are 1-6 s each). For the 92 releases
0.4.0-0.5.23 with the wheels already in ``--wheel-dir`` (0.44 GB; downloading
them took ~15 min), ``--check`` took 6 min of wall time on a shared two-core
machine (47 s user CPU; unpacking the wheels dominates), plus ~10 s the first
time to create the worker venv.

Needs CPython 3.11 (the wheels' native extension modules are cp311) and PyPI.

Old layouts (0.4.0-0.5.9): ``ServerArgs.add_cli_args`` is a run of plain
``parser.add_argument`` calls and the runtime dependencies sit in the ``srt``
extra (``pip install "sglang[all]"``), so the stubs cover the base and ``srt``
dependencies (following ``sglang[...]`` self-references) and what vLLM and
xgrammar pulled in (``_DIST_TO_MODULES``). Two import-time quirks need fixed
stub values: 0.5.2-0.5.7 look up ``torch.ops.<library name>`` and 0.5.11-0.5.13
patch ``PretrainedConfig.from_dict.__func__``.
"""

from __future__ import annotations

import argparse
import ast
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
GENERATOR = "scripts/generate_sglang_options.py"
DEFAULT_OUT_DIR_NAME = "linter/sglang/data"
UNAVAILABLE = "unavailable.json"
# The oldest release ``--since`` is usually given (issue 18: every release a deployment pins).
OLDEST = "0.4.0"
DEFAULT_OUT_DIR = REPO_ROOT / DEFAULT_OUT_DIR_NAME
DEFAULT_FIXTURE_DIR = REPO_ROOT / "tests" / "fixtures"
DEFAULT_VENV = Path(tempfile.gettempdir()) / "sglang-options-venv"

# The wheel to fetch: SGLang publishes one binary wheel per CPython version.
WHEEL_PLATFORM = "manylinux_2_34_x86_64"
WHEEL_PYTHON = "3.11"
WHEEL_ABI = "cp311"

# Light, real dependencies for the worker venv (installed --no-deps, pinned, so
# the environment is the same everywhere). Everything else is stubbed.
VENV_PACKAGES = [
    "annotated-types==0.8.0",
    "dill==0.4.1",
    "msgspec==0.23.0",
    "orjson==3.13.0",  # json_list_type (0.5.10+) parses with orjson: the type functions run for real
    "packaging==26.4",
    "pydantic==2.14.4",
    "pydantic_core==2.50.5",
    "PyYAML==6.0.4",
    "typing-inspection==0.4.5",
    "typing_extensions==4.16.0",
]

# name in the table -> constant name in SGLang's source
LIST_CONSTANTS = {
    "attention_backend_choices": "ATTENTION_BACKEND_CHOICES",
    "deterministic_attention_backends": "DETERMINISTIC_ATTENTION_BACKEND_CHOICES",
    "radix_supported_deterministic_attention_backends": (
        "RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND"
    ),
    "rl_on_policy_target_choices": "RL_ON_POLICY_TARGET_CHOICES",
}
LIST_ORDER = [
    "attention_backend_choices",
    "deterministic_attention_backends",
    "radix_supported_deterministic_attention_backends",
    "absorbed_mla_architectures",
    "rl_on_policy_target_choices",
]
# Where the module-level constants may live, in lookup order.
LIST_CONSTANT_FILES = [
    "sglang/srt/server_args.py",
    "sglang/srt/arg_groups/choices.py",
]
# Where the deterministic handler may live, and its names.
DETERMINISTIC_HANDLER_FILES = [
    "sglang/srt/server_args.py",
    "sglang/srt/arg_groups/attention_hook.py",
]
DETERMINISTIC_HANDLER_NAMES = (
    "_handle_deterministic_inference",
    "handle_deterministic_inference",
)

# Command lines recorded by --record-parser-fixture. Each runs through the real
# parser built by SGLang's add_cli_args; "--model-path m" satisfies the one
# required option unless the case is about model_path itself.
PARSER_SAMPLES = [
    ("tp_abbrev", ["--model-path", "m", "--tp", "8"]),
    ("tp_abbrev_equals", ["--model-path", "m", "--tp=8"]),
    ("tp_size", ["--model-path", "m", "--tp-size", "2"]),
    ("tp_alias_tensor_parallel_size", ["--model-path", "m", "--tensor-parallel-size", "4"]),
    ("tp_single_dash", ["--model-path", "m", "-tp", "8"]),
    ("attention_ambiguous", ["--model-path", "m", "--attention", "fa4"]),
    ("attention_b_abbrev", ["--model-path", "m", "--attention-b", "fa4"]),
    ("attention_backend", ["--model-path", "m", "--attention-backend", "fa4"]),
    ("attention_backend_equals", ["--model-path", "m", "--attention-backend=fa4"]),
    ("attention_backend_uppercase", ["--model-path", "m", "--attention-backend", "FA4"]),
    ("attention_backend_underscore", ["--model-path", "m", "--attention_backend", "fa3"]),
    ("attention_backend_last_wins", ["--model-path", "m", "--attention-backend", "fa4", "--attention-backend", "triton"]),
    ("attention_backend_cutlass_mla", ["--model-path", "m", "--attention-backend", "cutlass_mla"]),
    ("attention_backend_intel_xpu", ["--model-path", "m", "--attention-backend", "intel_xpu"]),
    ("split_backends", ["--model-path", "m", "--prefill-attention-backend", "fa4", "--decode-attention-backend", "triton"]),
    ("prefill_abbrev", ["--model-path", "m", "--prefill-attention", "fa4"]),
    ("decode_abbrev_ambiguous", ["--model-path", "m", "--decode", "fa4"]),
    ("mem_fraction_abbrev", ["--model-path", "m", "--mem-fraction", "0.8"]),
    ("model_alias", ["--model", "x"]),
    ("model_abbrev_ambiguous", ["--mod", "x"]),
    ("missing_model_path", []),
    ("enable_deterministic_abbrev", ["--model-path", "m", "--enable-deterministic"]),
    ("enable_deterministic_inference", ["--model-path", "m", "--enable-deterministic-inference"]),
    ("enable_deterministic_inference_equals_true", ["--model-path", "m", "--enable-deterministic-inference=true"]),
    ("enable_deterministic_inference_space_true", ["--model-path", "m", "--enable-deterministic-inference", "true"]),
    ("deterministic_fa4", ["--model-path", "m", "--enable-deterministic-inference", "--attention-backend", "fa4"]),
    ("rl_on_policy_target", ["--model-path", "m", "--rl-on-policy-target", "fsdp"]),
    ("rl_on_policy_target_bad", ["--model-path", "m", "--rl-on-policy-target", "megatron"]),
    ("pp_abbrev", ["--model-path", "m", "--pp", "2"]),
    ("pp_size", ["--model-path", "m", "--pp-size", "2"]),
    ("dp_abbrev", ["--model-path", "m", "--dp", "2"]),
    ("ep_alias", ["--model-path", "m", "--ep", "4"]),
    ("disable_radix_abbrev", ["--model-path", "m", "--disable-radix"]),
    ("nccl_init_abbrev", ["--model-path", "m", "--nccl-init", "1.2.3.4:5"]),
    ("json_model_override_args", ["--model-path", "m", "--json-model-override-args", '{"architectures": ["DeepseekV3ForCausalLM"]}']),
    ("kv_cache_dtype", ["--model-path", "m", "--kv-cache-dtype", "fp8_e4m3"]),
    ("kv_cache_dtype_bad", ["--model-path", "m", "--kv-cache-dtype", "fp9"]),
    ("quantization", ["--model-path", "m", "--quantization", "fp8"]),
    ("config_flag", ["--model-path", "m", "--config", "x.yaml"]),
    ("config_equals", ["--model-path", "m", "--config=x.yaml"]),
    ("unknown_flag", ["--model-path", "m", "--no-such-flag"]),
]


# ---------------------------------------------------------------------------
# Parent process: download, unpack, run the worker, read lists, write JSON
# ---------------------------------------------------------------------------


def _log(msg: str) -> None:
    print(f"[generate_sglang_options] {msg}", file=sys.stderr, flush=True)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _wheel_glob(version: str) -> str:
    # cp311-cp311-manylinux_2_34_x86_64 (0.5.16+) or py3-none-any (older releases)
    return f"sglang-{version}-*.whl"


def download_wheel(version: str, dest: Path) -> Path:
    """``pip download sglang==VERSION --no-deps`` with the platform tag pinned."""
    existing = sorted(dest.glob(_wheel_glob(version)))
    if existing:
        return existing[0]
    cmd = [
        sys.executable, "-m", "pip", "download", f"sglang=={version}",
        "--no-deps", "--only-binary=:all:", "-d", str(dest),
        "--platform", WHEEL_PLATFORM, "--python-version", WHEEL_PYTHON,
        "--implementation", "cp", "--abi", WHEEL_ABI, "-q",
    ]
    _log("running: " + " ".join(cmd))
    subprocess.run(cmd, check=True)
    found = sorted(dest.glob(_wheel_glob(version)))
    if not found:
        raise RuntimeError(f"pip download produced no {_wheel_glob(version)} in {dest}")
    return found[0]


def unpack_wheel(wheel: Path, dest: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        z.extractall(dest)


def ensure_venv(venv: Path) -> Path:
    """Create (once) the throwaway venv with the pinned light dependencies."""
    py = venv / "bin" / "python"
    stamp = venv / "sglang-options-packages.txt"
    want = "\n".join(VENV_PACKAGES) + "\n"
    if py.exists() and stamp.exists() and stamp.read_text() == want:
        return py
    if venv.exists():
        shutil.rmtree(venv)
    _log(f"creating worker venv {venv}")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--no-deps", *VENV_PACKAGES],
        check=True,
    )
    stamp.write_text(want)
    return py


def _worker_env(home: Path) -> dict:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def run_worker(python: Path, src: Path, request: dict, home: Path) -> dict:
    cmd = [str(python), "-s", "-B", str(Path(__file__).resolve()), "--_worker", str(src)]
    proc = subprocess.run(
        cmd,
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=_worker_env(home),
        cwd=str(home),
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"worker failed (rc={proc.returncode}):\n{proc.stderr[-6000:]}"
        )
    return json.loads(proc.stdout)


# ----------------------------- lists (ast) ---------------------------------


def _literal_list(node: ast.AST):
    value = ast.literal_eval(node)
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"not a list literal: {ast.dump(node)[:80]}")
    return list(value)


def find_module_constant(src: Path, name: str):
    """Return (value, "file:line") of a module-level ``NAME = [...]``."""
    hits = []
    for rel in LIST_CONSTANT_FILES:
        path = src / rel
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for node in tree.body:
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
                value = node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets = [node.target]
                value = node.value
            for t in targets:
                if isinstance(t, ast.Name) and t.id == name:
                    hits.append((_literal_list(value), f"{rel}:{node.lineno}"))
    if not hits:
        return None, f"not found: no module-level {name} in {', '.join(LIST_CONSTANT_FILES)}"
    # Should a name be bound twice, the last binding is what the module holds
    # (and what the argparse-dump cross-check compares against).
    return hits[-1]


def find_absorbed_mla_architectures(src: Path):
    """The list literal in ``is_deepseek_model = model_arch in [...]``."""
    for rel in DETERMINISTIC_HANDLER_FILES:
        path = src / rel
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if fn.name not in DETERMINISTIC_HANDLER_NAMES:
                continue
            for node in ast.walk(fn):
                if not isinstance(node, ast.Assign):
                    continue
                if not any(isinstance(t, ast.Name) and t.id == "is_deepseek_model" for t in node.targets):
                    continue
                cmp_ = node.value
                if (
                    isinstance(cmp_, ast.Compare)
                    and len(cmp_.ops) == 1
                    and isinstance(cmp_.ops[0], ast.In)
                    and isinstance(cmp_.comparators[0], (ast.List, ast.Tuple))
                ):
                    lst = cmp_.comparators[0]
                    return _literal_list(lst), f"{rel}:{lst.lineno}"
    return None, (
        "not found: no 'is_deepseek_model = model_arch in [...]' in "
        + "/".join(DETERMINISTIC_HANDLER_NAMES)
        + " of "
        + ", ".join(DETERMINISTIC_HANDLER_FILES)
    )


def read_lists(src: Path):
    lists, sources = {}, {}
    for key in LIST_ORDER:
        if key == "absorbed_mla_architectures":
            value, where = find_absorbed_mla_architectures(src)
        else:
            value, where = find_module_constant(src, LIST_CONSTANTS[key])
        lists[key] = value
        sources[key] = where
    return lists, sources


def _module_of(rel: str) -> str:
    return rel[: -len(".py")].replace("/", ".")


# ----------------------------- static fallback ------------------------------


def static_ast_table(src: Path) -> dict:
    """Approximate the parser from the ServerArgs dataclass source (<= 0.5.19).

    Only literal metadata is understood: ``A[T, "help"]``, ``A[T, Arg(...)]``
    with literal keyword values or module-level list constants, and
    ``parser.add_argument(...)`` calls with literal arguments in
    ``add_cli_args``. Computed choices become null.
    """
    rel = "sglang/srt/server_args.py"
    text = (src / rel).read_text(encoding="utf-8")
    tree = ast.parse(text)
    consts = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                consts[node.targets[0].id] = ast.literal_eval(node.value)
            except Exception:
                pass
    cls = next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ServerArgs"),
        None,
    )
    if cls is None:
        raise RuntimeError("static-ast: no 'class ServerArgs' in server_args.py (msgspec layout?)")

    def lit(node):
        if isinstance(node, ast.Name) and node.id in consts:
            return consts[node.id]
        try:
            return ast.literal_eval(node)
        except Exception:
            return None

    def type_name(node):
        s = ast.unparse(node)
        m = re.fullmatch(r"Optional\[(.*)\]", s)
        optional_inner = m.group(1) if m else s
        return optional_inner

    fields, options = [], []
    for node in cls.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        name = node.target.id
        fields.append(name)
        ann = node.annotation
        if not (isinstance(ann, ast.Subscript) and ast.unparse(ann.value) in ("A", "Annotated")):
            continue
        elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        inner, meta = elts[0], {}
        for e in elts[1:]:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                meta = {"help": e.value}
                break
            if isinstance(e, ast.Call) and ast.unparse(e.func) == "Arg":
                meta = {kw.arg: kw.value for kw in e.keywords}
                meta["help"] = lit(meta["help"]) if "help" in meta else ""
                break
        else:
            continue
        if meta.get("no_cli") is not None and lit(meta["no_cli"]):
            continue
        cli = lit(meta["cli_name"]) if "cli_name" in meta else None
        cli = cli or "--" + name.replace("_", "-")
        aliases = lit(meta["aliases"]) if "aliases" in meta else None
        default = lit(node.value) if node.value is not None else None
        tn = type_name(inner)
        action, typ, nargs, choices = "store", "str", None, None
        if "action" in meta:
            action = "custom:" + ast.unparse(meta["action"]).split(".")[-1]
            typ = None
        elif tn == "bool":
            action, typ, nargs = "store_true", None, 0
        elif tn.startswith("Literal["):
            choices = lit(ast.parse(tn[len("Literal"):], mode="eval").body)
            choices = list(choices) if isinstance(choices, tuple) else [choices]
        elif tn.startswith(("List[", "list[")):
            nargs = lit(meta["nargs"]) if "nargs" in meta else "+"
            typ = {"int": "int", "float": "float"}.get(tn[5:-1], "str")
        else:
            typ = {"int": "int", "float": "float"}.get(tn, "str")
        if "type_parser" in meta:
            typ = ast.unparse(meta["type_parser"]).split(".")[-1]
        if "choices" in meta:
            c = lit(meta["choices"])
            choices = list(c) if isinstance(c, (list, tuple)) else None
        if "nargs" in meta and action == "store":
            nargs = lit(meta["nargs"])
        help_ = meta.get("help") or None
        strings = [cli] + list(aliases or [])
        if action == "custom:BooleanOptionalAction":  # argparse adds --no-X itself
            strings = [x for s_ in strings for x in (s_, "--no-" + s_[2:])]
        options.append({
            "dest": name,
            "option_strings": strings,
            "action": action,
            "type": typ,
            "choices": choices,
            "default": default,
            "nargs": nargs,
            "required": node.value is None,
            "deprecated": action.startswith("custom:Deprecated"),
            "help": help_.strip().splitlines()[0] if help_ and help_.strip() else None,
        })
    if not fields:
        raise RuntimeError(
            "static-ast: ServerArgs declares no fields in server_args.py; this "
            "version assembles them elsewhere (arg_groups/fields, msgspec), which "
            "the static fallback does not read"
        )
    # manual parser.add_argument calls in add_cli_args
    add_cli = next(
        (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "add_cli_args"),
        None,
    )
    for call in ast.walk(add_cli) if add_cli else []:
        if not (isinstance(call, ast.Call) and ast.unparse(call.func).endswith("add_argument")):
            continue
        strs = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if not strs:
            continue
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        dest = lit(kw["dest"]) if "dest" in kw else strs[0].lstrip("-").replace("-", "_")
        act = ast.unparse(kw["action"]).strip("\"'") if "action" in kw else "store"
        if act not in ("store", "store_true", "store_false", "append"):
            act = "custom:" + act.split(".")[-1]
        help_ = lit(kw["help"]) if "help" in kw else None
        ch = lit(kw["choices"]) if "choices" in kw else None
        options.append({
            "dest": dest,
            "option_strings": strs,
            "action": act,
            "type": ast.unparse(kw["type"]).split(".")[-1] if "type" in kw else None,
            "choices": sorted(ch) if isinstance(ch, (set, frozenset)) else (list(ch) if isinstance(ch, (list, tuple)) else None),
            "default": lit(kw["default"]) if "default" in kw else None,
            "nargs": lit(kw["nargs"]) if "nargs" in kw else (0 if act in ("store_true", "store_false") else None),
            "required": bool(lit(kw["required"])) if "required" in kw else False,
            "deprecated": act.startswith("custom:Deprecated"),
            "help": help_.strip().splitlines()[0] if isinstance(help_, str) and help_.strip() else None,
        })
    return {
        "options": options,
        "fields": fields,
        "files": [rel],
        "runtime_lists": {},
    }


# ----------------------------- types, actions, deprecations ----------------

# What each of SGLang's own argparse type functions accepts, by name and code fingerprint (the
# worker's ``_fingerprint``: a hash of the function's ast). A builder gets the module constants the
# function reads (``globals``) and returns the ``accepts`` spec of linter/sglang/valuetypes.py; the
# spec is then checked against the real function on every TYPE_PROBES value. A function whose code
# is not listed here is recorded as "unknown" (its values are not judged) until someone reads it.
_CUDA_GRAPH_BACKEND_ERROR = "tc_piecewise was removed; select breakable, full, or disabled"
TYPE_CATALOG = {
    "nullable_str": {"5ecbc673638d": lambda g: {"kind": "any"}},
    "human_readable_int": {"3bc4355c537a": lambda g: {"kind": "human_readable_int"}},
    "json_list_type": {
        "1e84dd738351": lambda g: {"kind": "json", "loader": "json",
                                   "error": "Invalid JSON list: {value}. Please provide a valid JSON list."},
        "778c46126f66": lambda g: {"kind": "json", "loader": "orjson",
                                   "error": "Invalid JSON list: {value}. Please provide a valid JSON list."},
    },
    "parse_cuda_graph_backend_arg": {
        "ee0d6b6e95bc": lambda g: {"kind": "not-in", "values": ["tc_piecewise"], "error": _CUDA_GRAPH_BACKEND_ERROR},
    },
    "parse_cuda_graph_config_arg": {
        "4c4cdc77eaf5": lambda g: {"kind": "cuda-graph-config", "phases": g["Phase.ALL"],
                                   "keys": g["ALLOWED_KEYS_PER_PHASE"]},
        "08c003029c1c": lambda g: {"kind": "cuda-graph-config", "phases": g["Phase.ALL"],
                                   "keys": g["ALLOWED_KEYS_PER_PHASE"], "rejected_backends": ["tc_piecewise"],
                                   "backend_error": _CUDA_GRAPH_BACKEND_ERROR},
    },
}
# The same for SGLang's custom argparse actions that are not deprecations.
ACTION_CATALOG = {
    "LoRAPathAction": {
        "0ab1bed53eb4": {"kind": "any"},  # 0.4.x: NAME=PATH pairs into a dict, never raises
        "a5097a8162df": {"kind": "lora-paths"},  # 0.5.1+: a {...} value is json.loads'd, needs two keys
    },
}
# Deprecated options that SGLang's resolution (not the argparse action) turns into another option's
# value. Each ``rule`` (read by linter/sglang/options.py) is checked by running the release's own
# handler on ServerArgs built from each ``argv`` (only in releases that have the function).
RESOLUTION_PROBES = [
    {
        "option": "--enable-dp-attention",
        "module": "sglang.srt.arg_groups.parallel_hook",
        "function": "handle_deprecated_dp_attention",
        "view": ["sglang.srt.arg_groups.model_override_base", "resolved_view"],
        "fields": ["attn_dp_size", "dp_size", "enable_dp_attention"],
        "argv": [["--dp-size", "8", "--enable-dp-attention"], ["--dp-size", "4", "--attn-dp-size", "2",
                                                              "--enable-dp-attention"],
                 ["--dp-size", "2"], ["--enable-dp-attention"], ["--tp", "8", "--dp", "8", "--enable-dp-attention"]],
        # if enable_dp_attention and attn_dp_size == 1: attn_dp_size = dp_size, dp_size = 1;
        # enable_dp_attention is cleared whenever it was set
        "rule": {"if": {"enable_dp_attention": True, "attn_dp_size": 1},
                 "set": {"attn_dp_size": {"from": "dp_size"}, "dp_size": 1}, "clear": ["enable_dp_attention"]},
    },
]


def _linter_module(name: str):
    """A module of the linter in this checkout (the spec checks use the linter's own code)."""
    import importlib

    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    return importlib.import_module(name)


def _checked_specs(version: str, recorded: dict, catalog_name: str, accepts_of, disagreement) -> dict:
    """name -> ``{"source", "accepts"}`` for each recorded function or action: ``accepts_of(name,
    info)`` is its spec from the catalog (None: not there, recorded as "unknown"), and
    ``disagreement(name, accepts, probe, real)`` a text when the spec's verdict on a probe is not what
    the release's code did (then the generation fails: a spec never disagrees with SGLang)."""
    out = {}
    for name, info in recorded.items():
        accepts = accepts_of(name, info)
        if accepts is None:
            _log(f"{version}: {name} ({info['source']}, {info['fingerprint']}) is not in {catalog_name}: "
                 "recorded as unknown")
            out[name] = {"source": info["source"], "accepts": "unknown"}
            continue
        for probe, real in info["probes"]:
            problem = disagreement(name, accepts, probe, real)
            if problem:
                raise RuntimeError(f"{version}: the spec of {name} {problem}")
        out[name] = {"source": info["source"], "accepts": accepts}
    return out


def type_specs(version: str, recorded: dict) -> dict:
    """``types`` of a table: each type function's source and ``accepts`` (or "unknown"), checked against
    the function's recorded verdict on every TYPE_PROBES value (an ArgumentTypeError's text too)."""
    vt = _linter_module("linter.sglang.valuetypes")

    def accepts_of(name, info):
        builder = TYPE_CATALOG.get(name, {}).get(info["fingerprint"])
        return None if builder is None else builder(info["globals"])

    def disagreement(name, accepts, probe, real):
        got = vt.convert(name, probe, {name: {"accepts": accepts}})
        want = None if real is None else (real[1] if real[0] == "ArgumentTypeError" else "rejected")
        if (got is None) != (want is None) or (want not in (None, "rejected") and got != want):
            return f"says {got!r} for {probe[:40]!r}, the function {real!r}"
        return None

    return _checked_specs(version, recorded, "TYPE_CATALOG", accepts_of, disagreement)


def action_specs(version: str, recorded: dict) -> dict:
    """``actions`` of a table: each custom action's source and ``accepts`` (or "unknown"), checked against
    the action's recorded outcome on every ACTION_PROBES values list."""
    vt = _linter_module("linter.sglang.valuetypes")

    def disagreement(name, accepts, values, real):
        got = vt.action_outcome(accepts, values)
        if (got is None) != (real is None) or (got is not None and list(got) != list(real)):
            return f"says {got!r} for {values!r}, the action {real!r}"
        return None

    return _checked_specs(version, recorded, "ACTION_CATALOG",
                          lambda name, info: ACTION_CATALOG.get(name, {}).get(info["fingerprint"]), disagreement)


def _apply_rule(rule: dict, fields: dict) -> dict:
    """A resolution rule applied to parsed values (the generator's check of RESOLUTION_PROBES)."""
    out = dict(fields)
    if all(fields.get(k) == v for k, v in rule["if"].items()):
        for k, v in rule["set"].items():
            out[k] = fields[v["from"]] if isinstance(v, dict) else v
    for k in rule.get("clear", ()):
        out[k] = False
    return out


def resolution_rules(version: str, recorded: list) -> dict:
    """option -> the resolution entry of its ``deprecation`` (function, source, doc, rule), after checking
    the rule against the release's handler on each probe (the values argparse parsed, and what the
    handler resolved them to, as the worker recorded them)."""
    out = {}
    by_option = {p["option"]: p for p in RESOLUTION_PROBES}
    for rec in recorded:
        probe = by_option[rec["option"]]
        for argv, before, resolved in rec["results"]:
            want = _apply_rule(probe["rule"], before)
            if want != resolved:
                raise RuntimeError(f"{version}: rule for {rec['option']} gives {want} on {argv}, "
                                   f"{rec['function']} {resolved}")
        out[rec["option"]] = {"function": rec["function"], "source": rec["source"], "doc": rec["doc"],
                              "rule": probe["rule"]}
    return out


# ----------------------------- start-up checks (ast) ------------------------

# Values SGLang checks right after the parser accepted them, on the way to starting the server.
# ``log-level``: ``logging.basicConfig(level=getattr(logging, X.log_level.upper()))`` (in
# ``configure_logger``, called first thing when the engine starts; 0.5.23 also in
# ``prepare_server_args``); ``json``: ``json.loads`` of the option's string when the model config
# is built. Found with ``ast`` in each wheel; a release where a pattern is absent has no such check.
STARTUP_JSON_FIELDS = {"json_model_override_args": ("model_override_args", "json_model_override_args")}
STARTUP_CALLERS = ("sglang/srt/entrypoints/engine.py", "sglang/srt/server.py", "sglang/srt/entrypoints/http_server.py")


def find_startup_checks(src: Path) -> list:
    """``[{"dest", "kind", "sources"}]`` of the release unpacked at ``src`` (see above)."""
    found: dict[tuple[str, str], list[str]] = {}
    loggers: list[str] = []
    for path in sorted((src / "sglang" / "srt").rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        if "/test" in rel:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "log_level.upper()" not in text and not any(f in text for fs in STARTUP_JSON_FIELDS.values() for f in fs):
            continue
        tree = ast.parse(text, filename=rel)
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                func = ast.unparse(node.func)
                if func == "getattr" and len(node.args) == 2 and ast.unparse(node.args[0]) == "logging" \
                        and re.fullmatch(r"[\w.]+\.log_level\.upper\(\)", ast.unparse(node.args[1])):
                    found.setdefault(("log_level", "log-level"), []).append(f"{rel}:{node.lineno} ({fn.name})")
                    if fn.name == "configure_logger":
                        loggers.append(fn.name)
                elif func == "json.loads" and len(node.args) == 1:
                    arg = ast.unparse(node.args[0]).rsplit(".", 1)[-1]
                    for dest, names in STARTUP_JSON_FIELDS.items():
                        if arg in names and (fn.name == "__init__" and "model_config" in rel or "arg_groups" in rel):
                            found.setdefault((dest, "json"), []).append(f"{rel}:{node.lineno} ({fn.name})")
    if loggers:  # where the engine calls configure_logger(server_args) as it starts
        for rel in STARTUP_CALLERS:
            path = src / rel
            if path.exists():
                for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if line.strip() == "configure_logger(server_args)":
                        found[("log_level", "log-level")].append(f"{rel}:{k} (configure_logger(server_args))")
    return [{"dest": dest, "kind": kind, "sources": sorted(set(srcs))} for (dest, kind), srcs in sorted(found.items())]


# ----------------------------- assemble ------------------------------------


def dumps(obj) -> str:
    """The parser fixtures' text (``json.dumps`` with ``indent=1``)."""
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


# An option row's keys, in order. A key whose value is its default below is left out, and help
# text is not kept: with one row per line this keeps ~90 tables near 5 MB instead of ~20 MB.
OPTION_KEYS = ["dest", "option_strings", "action", "type", "choices", "default", "nargs", "const", "required",
               "deprecated", "deprecation"]
OPTION_DEFAULTS = {"action": "store", "type": None, "choices": None, "default": None, "nargs": None, "const": None,
                   "required": False, "deprecated": False, "deprecation": None}


def compact_option(o: dict) -> dict:
    """``o`` without ``help`` and without keys that hold their default (see OPTION_DEFAULTS)."""
    def is_default(k):
        d = OPTION_DEFAULTS.get(k, o)  # ``o`` stands for "no default"
        return d is not o and type(o[k]) is type(d) and o[k] == d

    o = {"deprecation": None, "const": None, **o}
    return {k: o[k] for k in OPTION_KEYS if not is_default(k)}


def _line(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dumps_table(table: dict) -> str:
    """A table's text: ``source`` indented, one line per option, per list and for ``fields``."""
    parts = []
    for key, value in table.items():
        if key == "options":
            text = "[\n" + ",\n".join("  " + _line(o) for o in value) + "\n ]"
        elif key in ("lists", "lists_source", "types", "actions"):
            text = "{\n" + ",\n".join(f"  {json.dumps(k)}: {_line(v)}" for k, v in value.items()) + "\n }" if value else "{}"
        elif key == "startup_checks":
            text = "[\n" + ",\n".join("  " + _line(v) for v in value) + "\n ]" if value else "[]"
        elif key == "fields":
            text = _line(value)
        else:
            text = json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n ")
        parts.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def build_table(version: str, wheel: Path, sha: str, method: str, worker: dict,
                lists: dict, lists_source: dict, startup: list | None = None) -> dict:
    files = list(worker["files"])
    types = type_specs(version, worker.get("type_functions", {}))
    actions = action_specs(version, worker.get("custom_actions", {}))
    resolutions = resolution_rules(version, worker.get("resolutions", []))
    options = []
    for o in worker["options"]:
        dep = o.get("deprecation")
        if dep is not None and o["option_strings"][0] in resolutions:
            o = {**o, "deprecation": {**dep, "behaviour": "maps", "resolution": resolutions[o["option_strings"][0]]}}
        options.append(o)
    for where in [t["source"] for t in (*types.values(), *actions.values())] + \
            [d["source"] for d in resolutions.values()]:
        f = where.rsplit(":", 1)[0] if where else None
        if f and f not in files:
            files.append(f)
    for key in LIST_ORDER:
        where = lists_source[key]
        if lists[key] is not None:
            f = where.rsplit(":", 1)[0]
            if f not in files:
                files.append(f)
    head = [f for f in files if f == "sglang/srt/server_args.py"]
    files = head + sorted(f for f in files if f not in head)
    return {
        "sglang_version": version,
        "source": {
            "wheel": wheel.name,
            "sha256": sha,
            "generator": GENERATOR,
            "method": method,
            "files": files,
        },
        "options": [compact_option(o) for o in options],
        "fields": worker["fields"],
        "types": types,
        "actions": actions,
        "startup_checks": startup or [],
        "lists": {k: lists[k] for k in LIST_ORDER},
        "lists_source": {k: lists_source[k] for k in LIST_ORDER},
    }


def generate_version(version: str, args, python: Path | None, workdir: Path,
                     fixture_versions: set) -> tuple[dict, dict | None]:
    wheel_dir = Path(args.wheel_dir) if args.wheel_dir else workdir / "wheels"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    wheel = download_wheel(version, wheel_dir)
    sha = sha256_of(wheel)
    src = workdir / f"src-{version}"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    unpack_wheel(wheel, src)
    home = workdir / "home"
    home.mkdir(exist_ok=True)

    lists, lists_source = read_lists(src)
    want_fixture = version in fixture_versions
    method = args.method
    worker = None
    if method == "argparse-dump":
        request = {
            "check_constants": {
                key: [_module_of(lists_source[key].rsplit(":", 1)[0]), LIST_CONSTANTS[key]]
                for key in LIST_CONSTANTS
                if lists[key] is not None
            },
            "samples": PARSER_SAMPLES if want_fixture else [],
            "resolution_probes": RESOLUTION_PROBES,
        }
        try:
            worker = run_worker(python, src, request, home)
            method = "argparse-dump"
        except Exception as e:  # noqa: BLE001
            shutil.rmtree(src, ignore_errors=True)
            raise _DumpFailed(wheel.name, sha, "argparse-dump failed: " + _failure_reason(e)) from e
    if method == "static-ast":
        if want_fixture:
            raise RuntimeError("a parser fixture needs the argparse-dump method")
        worker = static_ast_table(src)

    for key, runtime in worker.get("runtime_lists", {}).items():
        if runtime != lists[key]:
            raise RuntimeError(
                f"{version}: {key} read by ast ({lists[key]}) differs from the "
                f"imported module's value ({runtime})"
            )
    table = build_table(version, wheel, sha, method, worker, lists, lists_source, find_startup_checks(src))
    fixture = None
    if want_fixture:
        fixture = {
            "sglang_version": version,
            "source": {
                "wheel": wheel.name,
                "sha256": sha,
                "generator": GENERATOR,
                "method": "argparse-dump",
                "parser": 'argparse.ArgumentParser(prog="sglang serve"); ServerArgs.add_cli_args(parser); parser.parse_args(argv)',
                "python": worker["python"],
                "note": (
                    "parser only: prepare_server_args' --config YAML merge and "
                    "ServerArgs resolution are not run. 'namespace' lists only "
                    "the dests whose parsed value differs from the parser default."
                ),
            },
            "cases": worker["samples"],
        }
    shutil.rmtree(src, ignore_errors=True)
    return table, fixture


def version_key(version: str) -> tuple[int, ...]:
    """Sort key of a final release ``X.Y.Z`` or ``X.Y.Z.postN`` (``.postN`` after ``X.Y.Z``)."""
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?", version)
    if not m:
        raise ValueError(f"not a final SGLang release: {version!r}")
    return tuple(int(x) for x in m.groups(default="-1"))


def committed_versions(out_dir: Path) -> list[str]:
    """Every release the data folder covers: a table, or an entry of unavailable.json."""
    found = {p.name[len("options-"):-len(".json")] for p in out_dir.glob("options-*.json")}
    found |= set(load_unavailable(out_dir))
    return sorted(found, key=version_key)


def load_unavailable(out_dir: Path) -> dict:
    path = out_dir / UNAVAILABLE
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["releases"]


def dumps_unavailable(releases: dict) -> str:
    doc = {
        "generator": GENERATOR,
        "note": ("Published SGLang releases for which the generator could not dump the parser; no "
                 "table is written for them (the linter uses the nearest older table and says so)."),
        "releases": {v: releases[v] for v in sorted(releases, key=version_key)},
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def pypi_releases(since: str) -> list[str]:
    """Final releases of ``sglang`` on the index from ``since`` on (``pip index versions``)."""
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "sglang"],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"Available versions: (.*)", out)
    if not m:
        raise RuntimeError("pip index versions sglang printed no version list")
    found = []
    for v in m.group(1).split(","):
        v = v.strip()
        try:
            key = version_key(v)
        except ValueError:
            continue  # a pre-release (rc, dev): not a release deployments pin
        if key >= version_key(since):
            found.append(v)
    return sorted(found, key=version_key)


def _failure_reason(exc: Exception) -> str:
    """One deterministic line: the worker's exception and the innermost frame in the wheel."""
    text = str(exc)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    last = lines[-1] if lines else type(exc).__name__
    frames = re.findall(r'File "[^"]*?/src-[^/"]+/(sglang/[^"]+)", line (\d+)', text)
    return f"{last} ({frames[-1][0]}:{frames[-1][1]})" if frames else last


def main(argv=None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--_worker"]:
        return _worker_main(argv[1:])
    p = argparse.ArgumentParser(
        prog="generate_sglang_options.py",
        description="Generate linter/sglang/data/options-<VERSION>.json from SGLang wheels.",
    )
    p.add_argument("versions", nargs="*",
                   help="SGLang releases (default: every release the data folder covers, tables and "
                        "unavailable.json)")
    p.add_argument("--since", metavar="VERSION",
                   help=f"every final release on PyPI from VERSION on (e.g. {OLDEST}), from `pip index versions`")
    p.add_argument("--out-dir", default=str(DEFAULT_OUT_DIR))
    p.add_argument("--fixture-dir", default=str(DEFAULT_FIXTURE_DIR))
    p.add_argument("--wheel-dir", help="reuse/keep downloaded wheels here (default: a temp dir)")
    p.add_argument("--venv", default=str(DEFAULT_VENV), help="worker venv (created if missing)")
    p.add_argument("--method", choices=["argparse-dump", "static-ast"], default="argparse-dump",
                   help="static-ast only when asked: it approximates the parser, so a failed dump is "
                        "recorded in unavailable.json instead")
    p.add_argument(
        "--record-parser-fixture", action="append", default=[], metavar="VERSION",
        help="also write tests/fixtures/sglang_parser_VERSION.json (repeatable)",
    )
    p.add_argument("--check", action="store_true", help="compare with the files on disk; write nothing")
    args = p.parse_args(argv)
    out_dir, fix_dir = Path(args.out_dir), Path(args.fixture_dir)
    if args.since:
        versions = pypi_releases(args.since)
    else:
        versions = args.versions or committed_versions(out_dir)
    fixture_versions = set(args.record_parser_fixture)
    for v in fixture_versions - set(versions):
        versions.append(v)
    if sys.version_info[:2] != (3, 11):
        print("error: run this with CPython 3.11 (the wheels are cp311)", file=sys.stderr)
        return 2

    t0 = time.monotonic()
    python = ensure_venv(Path(args.venv)) if args.method != "static-ast" else None
    mismatches = 0
    unavailable = load_unavailable(out_dir)
    before = dumps_unavailable(unavailable)
    with tempfile.TemporaryDirectory(prefix="sglang-options-") as tmp:
        workdir = Path(tmp)
        for version in versions:
            t = time.monotonic()
            try:
                table, fixture = generate_version(version, args, python, workdir, fixture_versions)
            except _DumpFailed as exc:
                unavailable[version] = {"wheel": exc.wheel, "sha256": exc.sha, "reason": exc.reason}
                table_path = out_dir / f"options-{version}.json"
                if args.check:
                    mismatches += table_path.exists()
                elif table_path.exists():
                    table_path.unlink()
                _log(f"{version}: UNAVAILABLE: {exc.reason}")
                continue
            unavailable.pop(version, None)
            outputs = [(out_dir / f"options-{version}.json", table, dumps_table)]
            if fixture is not None:
                outputs.append((fix_dir / f"sglang_parser_{version}.json", fixture, dumps))
            for path, obj, serialize in outputs:
                text = serialize(obj)
                if args.check:
                    same = path.exists() and path.read_text(encoding="utf-8") == text
                    mismatches += not same
                    _log(f"{path}: {'identical' if same else 'DIFFERS'}")
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
                    _log(f"wrote {path}")
            _log(
                f"{version}: {len(table['options'])} options, {len(table['fields'])} fields, "
                f"method {table['source']['method']}, {time.monotonic() - t:.1f}s"
            )
    after = dumps_unavailable(unavailable)
    path = out_dir / UNAVAILABLE
    if args.check:
        same = after == before
        mismatches += not same
        _log(f"{path}: {'identical' if same else 'DIFFERS'}")
    elif after != before or not path.exists() and unavailable:
        path.write_text(after, encoding="utf-8")
        _log(f"wrote {path}")
    _log(f"{len(versions)} releases, {len(unavailable)} unavailable; done in {time.monotonic() - t0:.1f}s")
    return 1 if mismatches else 0


class _DumpFailed(Exception):
    """The wheel was fetched but its parser could not be dumped (recorded in unavailable.json)."""

    def __init__(self, wheel: str, sha: str, reason: str) -> None:
        super().__init__(reason)
        self.wheel, self.sha, self.reason = wheel, sha, reason


# ---------------------------------------------------------------------------
# Worker process (runs in the throwaway venv, imports the unpacked wheel)
# ---------------------------------------------------------------------------

# Requires-Dist name -> top-level modules it provides (default: name with - -> _).
# A few entries also list what the package itself pulls in, so that a module a
# real install would have (triton with torch, huggingface_hub with
# transformers, ...) is stubbed instead of absent.
_DIST_TO_MODULES = {
    "aiohttp": ["aiohttp", "multidict", "yarl", "aiosignal"],
    "apache-tvm-ffi": ["tvm_ffi"],
    "cuda-python": ["cuda"],
    "cuda-tile": ["cuda"],
    "datasets": ["datasets", "pyarrow", "pandas", "fsspec", "multiprocess"],
    "decord2": ["decord"],
    "fastapi": ["fastapi", "starlette"],
    "flash-attn-4": ["flash_attn"],
    "flashinfer-python": ["flashinfer"],
    "humming-kernels": ["humming"],
    "ipython": ["IPython"],
    "numba": ["numba", "llvmlite"],
    "nvidia-cutlass-dsl": ["cutlass"],
    "nvidia-mathdx": ["nvmath"],
    "nvidia-ml-py": ["pynvml"],
    "nvshmem4py-cu13": ["nvshmem"],
    "openai": ["openai", "httpx", "jiter", "distro"],
    "openai-harmony": ["openai_harmony"],
    "outlines": ["outlines", "jinja2", "cloudpickle"],
    "pillow": ["PIL"],
    "prometheus-client": ["prometheus_client"],
    "py-spy": [],
    "python-dateutil": ["dateutil"],
    "python-multipart": ["multipart", "python_multipart"],
    "pyzmq": ["zmq"],
    "quack-kernels": ["quack"],
    "requests": ["requests", "urllib3", "certifi", "idna", "charset_normalizer"],
    "sgl-deep-ep": ["deep_ep"],
    "sgl-deep-gemm": ["deep_gemm"],
    "sgl-flash-mla": ["flash_mla"],
    "sglang-kernel": ["sgl_kernel"],
    "smg-grpc-servicer": ["smg_grpc_servicer", "grpc", "google"],
    "torch": ["torch", "triton", "sympy", "networkx", "functorch", "torchgen"],
    "transformers": ["transformers", "huggingface_hub", "tokenizers", "safetensors", "regex"],
    "xgrammar": ["xgrammar", "sentencepiece", "tiktoken"],
    # 0.4.x: vLLM brought torch, transformers, xformers and triton with it.
    "vllm": ["vllm", "torch", "triton", "transformers", "huggingface_hub", "tokenizers", "safetensors",
             "regex", "xformers", "sentencepiece", "numpy", "psutil", "gguf"],
}
# torch is shaped like a CPU build: these attributes do not exist ...
_STUB_ABSENT = {"torch.npu", "torch.hpu", "torch.musa", "torch.mlu", "triton.runtime.driver"}
# ... and these have fixed values.
_STUB_VALUES = {
    # 0.5.2-0.5.7 direct_register_custom_op: getattr(torch.ops, my_lib.m.name) needs a str
    "torch.library.Library().m.name": "sglang",
    "torch.version.cuda": None,
    "torch.version.hip": None,
    "torch.version.git_version": "0",
}
_STUB_DUNDER_VALUES = {"__class_validators__": []}
# dunders a stub answers with another stub: 0.5.11-0.5.13 patch transformers'
# PretrainedConfig.from_dict via ``.from_dict.__func__`` at import time.
_STUB_DUNDER_STUBS = {"__func__"}


def _install_stubs(src: str):
    """Install the import-time stubs for the wheel's heavy dependencies."""
    import abc
    import importlib.abc
    import importlib.machinery
    import re as _re
    import types

    from packaging.requirements import Requirement

    present = set()
    versions = {}
    meta = glob.glob(os.path.join(src, "sglang-*.dist-info", "METADATA"))[0]
    env = {"sys_platform": "linux", "platform_machine": "x86_64", "python_version": "3.11",
           "platform_system": "Linux", "implementation_name": "cpython", "os_name": "posix",
           "platform_python_implementation": "CPython", "python_full_version": "3.11.7",
           "extra": ""}
    with open(meta, encoding="utf-8") as f:
        reqs = [Requirement(line.split(":", 1)[1].strip()) for line in f if line.startswith("Requires-Dist:")]
    # The CUDA server's dependencies: the base ones plus, before SGLang moved its runtime into
    # them, the ``srt`` extra (0.4.x ``pip install "sglang[all]"`` -> ``srt`` ->
    # ``runtime_common``), following ``sglang[...]`` self-references.
    extras = {"", "srt"}
    grew = True
    while grew:
        grew = False
        for req in reqs:
            if _re.sub(r"[-_.]+", "-", req.name).lower() != "sglang":
                continue
            if req.marker is None or any(req.marker.evaluate({**env, "extra": e}) for e in extras):
                new = {_re.sub(r"[-_.]+", "_", x).lower() for x in req.extras} - extras
                if new:
                    extras |= new
                    grew = True
    for req in reqs:
        key = _re.sub(r"[-_.]+", "-", req.name).lower()
        if key == "sglang":
            continue
        if req.marker is not None and not any(req.marker.evaluate({**env, "extra": e}) for e in extras):
            continue
        modules = _DIST_TO_MODULES.get(key, [key.replace("-", "_")])
        present.update(modules)
        pins = [s.version for s in req.specifier if s.operator == "=="]
        if pins and modules:  # e.g. torch==2.13.0 -> torch.__version__
            versions.setdefault(modules[0], pins[0])

    cache = {}
    stubbed = set()

    def attr(prefix, name):
        full = prefix + "." + name
        if full in _STUB_ABSENT:
            raise AttributeError(full)
        if full in _STUB_VALUES:
            return _STUB_VALUES[full]
        return make(full)

    class StubMeta(abc.ABCMeta):
        def __getattr__(cls, name):
            if name in _STUB_DUNDER_VALUES:
                return _STUB_DUNDER_VALUES[name]
            if name in _STUB_DUNDER_STUBS:
                return make(cls._stub_name + "." + name)
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return attr(cls._stub_name, name)

        def __call__(cls, *a, **k):
            if "_stub_name" not in cls.__dict__:  # a real subclass of a stub
                return type.__call__(cls, *a, **k)
            if len(a) == 1 and not k and callable(a[0]):  # used as a decorator
                return a[0]
            return make(cls._stub_name + "()")

        def __getitem__(cls, k):
            return make(cls._stub_name + "[]")

        def __iter__(cls):
            return iter(())

        def __len__(cls):
            return 0

        def __bool__(cls):
            return False

        def __contains__(cls, x):
            return False

        def __int__(cls):
            return 0

        def __index__(cls):
            return 0

        def __float__(cls):
            return 0.0

        def __repr__(cls):
            return "<stub %s>" % cls._stub_name

        def __or__(cls, o):
            return make(cls._stub_name + "|")

        __ror__ = __or__

        def __lt__(cls, o):
            return False

        __le__ = __gt__ = __ge__ = __lt__

        def __add__(cls, o):
            return make(cls._stub_name + "+")

        __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __add__
        __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = __pow__ = __add__
        __and__ = __rand__ = __add__

        def __neg__(cls):
            return make(cls._stub_name + "-")

        __pos__ = __invert__ = __abs__ = __neg__

        def __enter__(cls):
            return cls

        def __exit__(cls, *a):
            return False

        def register(cls, *a, **k):  # ABCMeta.register / registry.register(...)
            return a[-1] if a else None

        def __setitem__(cls, k, v):
            pass

        def __delitem__(cls, k):
            pass

        def __hash__(cls):
            return id(cls)

        def __eq__(cls, o):
            return cls is o

    def _init(self, *a, **k):
        pass

    def _init_subclass(cls, **k):
        pass

    def _pydantic_schema(cls, source, handler):
        from pydantic_core import core_schema

        return core_schema.any_schema()

    def make(name):
        s = cache.get(name)
        if s is None:
            s = StubMeta(
                name.rsplit(".", 1)[-1] or "stub",
                (),
                {
                    "_stub_name": name,
                    "__init__": _init,
                    "__init_subclass__": classmethod(_init_subclass),
                    "__get_pydantic_core_schema__": classmethod(_pydantic_schema),
                    "__module__": name.rsplit(".", 1)[0],
                },
            )
            cache[name] = s
        return s

    class StubModule(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return attr(self.__name__, name)

    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, fullname, path=None, target=None):
            if fullname.split(".")[0] not in present:
                return None
            stubbed.add(fullname.split(".")[0])
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

        def create_module(self, spec):
            m = StubModule(spec.name)
            m.__path__ = []
            m.__all__ = []
            m.__version__ = versions.get(spec.name, "0.0.0")
            return m

        def exec_module(self, module):
            pass

    sys.meta_path.append(Finder())  # last: real modules (stdlib, venv, wheel) win
    return StubMeta, stubbed


def _worker_main(argv) -> int:
    import dataclasses
    import inspect
    import io
    import contextlib
    import importlib

    src = os.path.abspath(argv[0])
    request = json.loads(sys.stdin.read() or "{}")
    sys.path.insert(0, src)
    StubMeta, stubbed = _install_stubs(src)

    def is_stub(x):
        return isinstance(x, StubMeta)

    def rel(path):
        path = os.path.abspath(path)
        return os.path.relpath(path, src) if path.startswith(src + os.sep) else None

    def jsonable(v):
        """JSON value for argparse data; repr (address-free) for anything else."""
        if is_stub(v):
            raise RuntimeError(f"stub leaked into the table: {v!r}")
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, float):
            return v if v == v and v not in (float("inf"), float("-inf")) else repr(v)
        if isinstance(v, (list, tuple)):
            return [jsonable(x) for x in v]
        if isinstance(v, (set, frozenset)):
            return sorted((jsonable(x) for x in v), key=lambda x: json.dumps(x, sort_keys=True))
        if isinstance(v, dict):
            return {str(k): jsonable(x) for k, x in v.items()}
        if callable(v) and hasattr(v, "__qualname__"):
            return f"<{getattr(v, '__module__', '?')}.{v.__qualname__}>"
        r = repr(v)
        return re.sub(r" at 0x[0-9a-f]+", "", r)

    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        from sglang.srt.server_args import ServerArgs

        parser = argparse.ArgumentParser(prog="sglang serve")
        ServerArgs.add_cli_args(parser)

    std_actions = {
        argparse._StoreAction: "store",
        argparse._StoreTrueAction: "store_true",
        argparse._StoreFalseAction: "store_false",
        argparse._AppendAction: "append",
        argparse._StoreConstAction: "store_const",
        argparse._AppendConstAction: "append_const",
        argparse._CountAction: "count",
    }
    files = set()
    for obj in (ServerArgs, ServerArgs.add_cli_args):
        f = rel(inspect.getsourcefile(obj))
        if f:
            files.add(f)
    arg_utils = sys.modules.get("sglang.srt.arg_groups.arg_utils")
    if arg_utils is not None:
        files.add(rel(arg_utils.__file__))
    for name, mod in sys.modules.items():
        if name.startswith("sglang.srt.arg_groups.fields.") and getattr(mod, "__file__", None):
            files.add(rel(mod.__file__))

    def type_name(t):
        if t is None:
            return None
        if t is json.loads:
            return "json"
        if t in (str, int, float):
            return t.__name__
        if is_stub(t):
            raise RuntimeError(f"stub type leaked into the table: {t!r}")
        mod = getattr(t, "__module__", "") or ""
        if mod.startswith("sglang") and mod in sys.modules:
            f = rel(sys.modules[mod].__file__)
            if f:
                files.add(f)
        return getattr(t, "__name__", None) or jsonable(t)

    options = []
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        cls = type(a)
        if cls in std_actions:
            action = std_actions[cls]
        else:
            action = "custom:" + cls.__name__
            f = rel(inspect.getsourcefile(cls)) if cls.__module__.startswith("sglang") else None
            if f:
                files.add(f)
        choices = a.choices
        if isinstance(choices, (set, frozenset, dict)):
            choices = sorted(choices)
        help_ = a.help
        if isinstance(help_, str) and help_.strip():
            help_ = help_.strip().splitlines()[0]
        else:
            help_ = None
        options.append({
            "dest": a.dest,
            "option_strings": list(a.option_strings),
            "action": action,
            "type": type_name(a.type),
            "choices": None if choices is None else jsonable(list(choices)),
            "default": jsonable(a.default),
            "nargs": a.nargs,
            # what a nargs='?' option stores when it is given without a value (argparse's const)
            "const": jsonable(a.const) if a.nargs == "?" else None,
            "required": bool(a.required),
            "deprecated": bool(getattr(a, "deprecated", False)) or cls.__name__.startswith("Deprecated"),
            "help": help_,
        })

    if arg_utils is not None and hasattr(arg_utils, "record_fields"):
        field_names = [f.name for f in arg_utils.record_fields(ServerArgs)]
    elif dataclasses.is_dataclass(ServerArgs):
        field_names = [f.name for f in dataclasses.fields(ServerArgs)]
    else:
        import msgspec

        field_names = [f.name for f in msgspec.structs.fields(ServerArgs)]

    by_action = {id(a): o for a, o in zip([a for a in parser._actions
                                           if not isinstance(a, argparse._HelpAction)], options)}
    type_functions = _record_type_functions(parser, is_stub, rel)
    custom_actions = _record_custom_actions(parser, std_actions, rel)
    for a in parser._actions:
        o = by_action.get(id(a))
        if o is not None and (o["deprecated"] or type(a).__name__.startswith("Deprecated")):
            o["deprecation"] = _record_deprecation(parser, a, rel, jsonable)
    resolutions = _record_resolutions(ServerArgs, request.get("resolution_probes", []), jsonable, rel)

    runtime_lists = {}
    for key, (modname, const) in request.get("check_constants", {}).items():
        mod = importlib.import_module(modname)
        runtime_lists[key] = jsonable(list(getattr(mod, const)))

    samples = []
    for case_id, sample_argv in request.get("samples", []):
        samples.append(_parse_sample(ServerArgs, case_id, sample_argv, jsonable))

    out = {
        "options": options,
        "fields": field_names,
        "files": sorted(f for f in files if f),
        "runtime_lists": runtime_lists,
        "samples": samples,
        "type_functions": type_functions,
        "custom_actions": custom_actions,
        "resolutions": resolutions,
        "python": sys.version.split()[0],
        "stubbed": sorted(stubbed),
    }
    sys.stdout.write(json.dumps(out))
    return 0


# Values every SGLang type function is tried on in the worker; the parent checks that what the table
# says the function accepts (linter/sglang/valuetypes.py) gives the same verdict on each.
TYPE_PROBES = [
    "1", "0", "-1", "8", "1.5", "-0.5", "1e3", "0x10", "+4", " 8 ", "8_000", "\u0663", "abc", "", " ", "None",
    "none", "true", "1k", "1.5k", "25.6k", "1Ki", "1.5Ki", "2M", "3G", "1T", "2Mi", "1K", "k", "1 k", "Ki",
    "[]", "[1, 2]", "[1,", "{}", '{"a": 1}', "{bad}", "NaN", "[NaN]", "Infinity", "[-Infinity]", "1e400",
    "[18446744073709551615]", "[18446744073709551616]", "[-9223372036854775808]", "[-9223372036854775809]",
    '["\\ud800"]', '["\\ud83d\\ude00"]', '"s"', "null", "[" * 1100 + "]" * 1100,
    '{"decode": {}}', '{"prefill": {}}', '{"decode": {"backend": "tc_piecewise"}}',
    '{"prefill": {"backend": "full"}}', '{"decode": {"no_such_key": 1}}', '{"nophase": {}}', '{"decode": 1}',
    '{"decode": []}', "[1]", "tc_piecewise", "full", "breakable", "disabled",
]
# Values lists a custom (non-deprecated) action is called with.
ACTION_PROBES = [
    [], ["a"], ["a=b"], ["a", "b=c"], ['{"lora_name": "a", "lora_path": "b"}'], [' {"lora_name": "a", "lora_path": "b"} '],
    ["{bad}"], ['{"x": 1}'], ["{"], ["}"], ["[1]"], ["{}"], ['{"lora_name": "a"}'],
]


def _fingerprint(obj) -> str:
    """A hash of a function's or class's code (its ``ast``, positions and comments left out)."""
    import hashlib
    import inspect
    import textwrap

    node = ast.parse(textwrap.dedent(inspect.getsource(obj))).body[0]
    return hashlib.sha1(ast.dump(node, annotate_fields=False).encode()).hexdigest()[:12]


def _where(obj, rel) -> str | None:
    import inspect

    try:
        f = rel(inspect.getsourcefile(obj))
        line = inspect.getsourcelines(obj)[1]
    except (OSError, TypeError):
        return None
    return f"{f}:{line}" if f else None


def _plain_globals(fn) -> dict:
    """Module-level constants a function reads (``NAME`` or ``NAME.attr``) whose values are plain data."""
    import inspect
    import textwrap

    def plain(v):
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, (set, frozenset)):
            return sorted(plain(x) for x in v)
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        raise TypeError(type(v).__name__)

    out = {}
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    g = fn.__globals__
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in g:
            names.append((f"{node.value.id}.{node.attr}", lambda n=node: getattr(g[n.value.id], n.attr)))
        elif isinstance(node, ast.Name) and node.id in g:
            names.append((node.id, lambda n=node: g[n.id]))
        for name, get in names:
            try:
                out[name] = plain(get())
            except Exception:  # noqa: BLE001 - a module, a function, a class: not data
                pass
    return dict(sorted(out.items()))


def _outcome(call):
    """None when ``call()`` returns, else [exception type, message]; ``argparse.ArgumentTypeError`` is
    named ``ArgumentTypeError``."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            call()
        except Exception as e:  # noqa: BLE001 - every exception is an outcome to record
            return [type(e).__name__, str(e)]
    return None


def _record_type_functions(parser, is_stub, rel) -> dict:
    """Each of SGLang's type functions in the parser: where it is, its fingerprint, the constants it
    reads and its verdict on every probe value (TYPE_PROBES)."""
    out = {}
    for a in parser._actions:
        t = a.type
        if t is None or t in (str, int, float, bool, json.loads) or is_stub(t) or not callable(t):
            continue
        name = getattr(t, "__name__", None)
        if not name or name in out:
            continue
        out[name] = {
            "source": _where(t, rel),
            "fingerprint": _fingerprint(t),
            "globals": _plain_globals(t),
            "probes": [[p, _outcome(lambda p=p: t(p))] for p in TYPE_PROBES],
        }
    return dict(sorted(out.items()))


def _record_custom_actions(parser, std_actions, rel) -> dict:
    """Each custom action class that is not a deprecation (``LoRAPathAction`` …): where it is, its
    fingerprint, and what it does with each ACTION_PROBES values list."""
    out = {}
    for a in parser._actions:
        cls = type(a)
        if cls in std_actions or isinstance(a, argparse._HelpAction) or cls.__name__.startswith("Deprecated") \
                or not cls.__module__.startswith("sglang") or cls.__name__ in out:
            continue
        probes = []
        for values in ACTION_PROBES:
            ns = argparse.Namespace()
            got = _outcome(lambda values=values, ns=ns: a(parser, ns, list(values), a.option_strings[0]))
            probes.append([values, got])
        out[cls.__name__] = {"source": _where(cls, rel), "fingerprint": _fingerprint(cls), "probes": probes}
    return dict(sorted(out.items()))


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _record_deprecation(parser, a, rel, jsonable) -> dict:
    """What a deprecated option's argparse action does when it is given: raise (the exception, or
    ``parser.error`` -> "parser"), warn (the logged text), store (on which dest, the given value or a
    constant) — found by calling the release's own action with a recording parser."""
    import contextlib
    import io
    import logging

    class _Error(Exception):
        pass

    def error(message):
        raise _Error(message)

    p = argparse.ArgumentParser(prog="sglang serve")
    p.error = error
    sentinel = "\x00given"
    if a.nargs == 0:
        values = []
    elif a.nargs in ("+", "*"):
        values = [sentinel]
    else:
        values = sentinel
    ns = argparse.Namespace()
    records = []

    class _Handler(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    handler = _Handler(logging.DEBUG)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    out, err = io.StringIO(), io.StringIO()
    raised = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            a(p, ns, values, a.option_strings[0])
    except _Error as e:
        raised = ["parser", str(e)]
    except Exception as e:  # noqa: BLE001
        raised = [type(e).__name__, str(e)]
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    printed = [ln for ln in (out.getvalue() + err.getvalue()).splitlines() if ln.strip()]
    warnings = [_ANSI.sub("", m) for m in records + printed]
    stored = {}
    for dest, value in sorted(vars(ns).items()):
        given = value == sentinel or value == [sentinel]
        stored[dest] = {"given": True} if given else {"value": jsonable(value)}
    if raised:
        behaviour = "raises"
    elif warnings:
        behaviour = "warns"
    else:
        behaviour = "ignored" if not stored else "stores"
    out_ = {"behaviour": behaviour}
    if raised:
        out_["error"] = raised[0]
        out_["message"] = _ANSI.sub("", raised[1])
    elif warnings:
        out_["message"] = warnings[0]
    if stored:
        out_["stores"] = stored
    new_flag = getattr(a, "new_flag", None)
    if isinstance(new_flag, str):
        out_["new_flag"] = new_flag
    if isinstance(a.help, str) and a.help.strip():
        out_["help"] = " ".join(a.help.split())
    out_["source"] = f"{_where(type(a), rel)} ({type(a).__name__})"
    return out_


def _record_resolutions(ServerArgs, probes, jsonable, rel) -> list:
    """Run each resolution probe (RESOLUTION_PROBES, when the release has its function): the release's
    own handler on a ServerArgs built from the probe's argv, and the fields it resolved."""
    import contextlib
    import importlib
    import io
    import inspect

    out = []
    for probe in probes:
        try:
            mod = importlib.import_module(probe["module"])
        except ImportError:
            continue
        fn = getattr(mod, probe["function"], None)
        if fn is None:
            continue
        view_mod, view_name = probe["view"]
        view = getattr(importlib.import_module(view_mod), view_name)
        results = []
        for argv in probe["argv"]:
            p = argparse.ArgumentParser(prog="sglang serve")
            ServerArgs.add_cli_args(p)
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                ns = p.parse_args(["--model-path", "m", *argv])
                sa = ServerArgs.from_cli_args(ns)
                fn(sa)
                v = view(sa)
            results.append([argv, {f: jsonable(getattr(ns, f, None)) for f in probe["fields"]},
                            {f: jsonable(getattr(v, f)) for f in probe["fields"]}])
        doc = (inspect.getdoc(fn) or "").split("\n\n")[0]
        out.append({"option": probe["option"], "function": probe["function"],
                    "source": _where(fn, rel), "doc": " ".join(doc.split()),
                    "results": results})
    return out


class _ParseError(Exception):
    pass


def _parse_sample(ServerArgs, case_id, sample_argv, jsonable) -> dict:
    """Run one argv through a fresh parser exactly as prepare_server_args builds it."""
    import contextlib
    import io

    parser = argparse.ArgumentParser(prog="sglang serve")
    ServerArgs.add_cli_args(parser)

    def error(message):
        raise _ParseError(message)

    def exit_(status=0, message=None):
        raise _ParseError(message or f"exit {status}")

    parser.error = error
    parser.exit = exit_
    # The namespace argparse would produce with no option given (first action
    # per dest wins; string defaults go through the action's type), so that
    # "namespace" below holds only what the argv changed.
    defaults = {}
    for a in parser._actions:
        if a.dest is not argparse.SUPPRESS and a.dest not in defaults and a.default is not argparse.SUPPRESS:
            defaults[a.dest] = a.default
            if isinstance(a.default, str):
                try:
                    defaults[a.dest] = parser._get_value(a, a.default)
                except Exception:  # noqa: BLE001
                    pass
    for dest, value in parser._defaults.items():
        defaults.setdefault(dest, value)
    result = {"id": case_id, "argv": list(sample_argv)}
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            ns = parser.parse_args(list(sample_argv))
        except _ParseError as e:
            result["ok"] = False
            result["error"] = str(e)
            return result
    result["ok"] = True
    result["namespace"] = {
        k: jsonable(v)
        for k, v in sorted(vars(ns).items())
        if k not in defaults or v != defaults[k]
    }
    return result


if __name__ == "__main__":
    sys.exit(main())
