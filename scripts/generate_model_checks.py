#!/usr/bin/env python3
"""Read SGLang's model-specific start-up checks from its wheels into ``linter/sglang/data/model_checks.json``.

Usage::

    python scripts/generate_model_checks.py WHEEL_DIR              # rewrite the data file
    python scripts/generate_model_checks.py WHEEL_DIR --check      # exit 1 when the file is stale
    python scripts/generate_model_checks.py WHEEL_DIR --diff 0.5.22 0.5.23   # what a release changed

``WHEEL_DIR`` holds ``sglang-<release>-*.whl`` files (``pip download --no-deps sglang==X -d DIR``);
every release from semantics.json's ``startup_checks_since`` on is read. Nothing is imported or run:
each value is a literal read with :mod:`ast` from the wheel's source, with the file and line it sits
on. What is read (the places issue 20 names):

* ``gpt_oss_attention_backends`` — ``supported_backends = [...]`` in the ``GptOssForCausalLM`` branch
  of ``handle_model_specific_adjustments`` (server_args.py up to 0.5.18, arg_groups/model_hook.py from
  0.5.19); the assert checks the prefill and the decode backend against it;
* ``deepseek_family_override_architectures`` — the ``@_register_for(...)`` arguments of
  ``_deepseek_family_overrides`` (DSA config -> ``dsa``; else SM100 -> ``trtllm_mla``);
* ``deterministic_fill_mla_architectures`` — the list in ``_deterministic_is_deepseek_model`` (the
  deterministic fill picks ``triton`` rather than ``flashinfer`` on SM100/SM120 for these); SGLang's
  *check* list is the option table's ``absorbed_mla_architectures`` and may differ;
* ``dsa_architectures`` — the tuple in ``is_deepseek_dsa`` (configs/model_config.py; with
  ``index_topk``);
* ``attention_backend_aliases`` — the ``aliases = {...}`` of ``handle_deprecated_args``
  (arg_groups/serving_hook.py), applied before every other check;
* ``trtllm_mha_sm120_fp8_prefill_check`` — where the "TRTLLM FMHAv2 prefill on SM120" error is
  raised (None when the release has no such check);
* ``dsa_kv_cache_default`` — the KV-cache dtype SGLang picks itself for a DSA checkpoint when
  ``--kv-cache-dtype`` is ``auto`` (``_dsa_kv_cache_dtype_default``: ``fp8_e4m3`` from a compute
  capability major, the architectures it applies to, the config key that vetoes it).

``--diff OLD NEW`` prints a unified diff of the functions these values live in (and of the gpt-oss
default-backend override ``_gpt_oss_overrides``, the deterministic fill, the attention-backend
compatibility checks and the fa3 load-time assert, which are facts in semantics.json), so a new
release's changes to them are seen even where no list changed. The procedure for a new release is in
README's Development section.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import re
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "linter" / "sglang" / "data" / "model_checks.json"
SEMANTICS = ROOT / "linter" / "sglang" / "data" / "semantics.json"

FILES = (
    "sglang/srt/server_args.py",
    "sglang/srt/arg_groups/model_hook.py",
    "sglang/srt/arg_groups/overrides.py",
    "sglang/srt/arg_groups/model_overrides/deepseek_v2.py",
    "sglang/srt/arg_groups/model_overrides/gpt_oss.py",
    "sglang/srt/arg_groups/attention_hook.py",
    "sglang/srt/arg_groups/serving_hook.py",
    "sglang/srt/configs/model_config.py",
    "sglang/srt/layers/attention/attention_registry.py",
)
DIFF_FUNCTIONS = (
    "handle_model_specific_adjustments", "_handle_model_specific_adjustments", "_gpt_oss_overrides",
    "_deepseek_family_overrides", "_deterministic_is_deepseek_model", "_deterministic_attention_backend",
    "handle_attention_backend_compatibility", "_handle_attention_backend_compatibility",
    "handle_deprecated_args", "_handle_deprecated_args", "is_deepseek_dsa", "create_flashattention_v3_backend",
    "_dsa_kv_cache_dtype_default",
)


def _key(version: str) -> tuple[int, ...]:
    m = re.match(r"(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?$", version)
    if not m:
        raise ValueError(version)
    return tuple(int(x) if x is not None else -1 for x in m.groups())


def read_sources(wheel: Path) -> dict[str, str]:
    """{path inside the wheel: text} for :data:`FILES` that the wheel has."""
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        return {f: z.read(f).decode("utf-8") for f in FILES if f in names}


def _functions(src: dict[str, str]):
    for rel, text in src.items():
        for node in ast.walk(ast.parse(text, filename=rel)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield rel, node


def _gpt_oss(src):
    for rel, fn in _functions(src):
        if fn.name.lstrip("_") != "handle_model_specific_adjustments":
            continue
        for node in ast.walk(fn):
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "supported_backends"
                                                     for t in node.targets)):
                return ast.literal_eval(node.value), f"{rel}:{node.value.lineno}"
    return None, "not found"


def _family(src):
    for rel, fn in _functions(src):
        if fn.name != "_deepseek_family_overrides":
            continue
        for dec in fn.decorator_list:
            if isinstance(dec, ast.Call) and getattr(dec.func, "id", None) == "_register_for":
                return [ast.literal_eval(a) for a in dec.args], f"{rel}:{dec.lineno}"
    return None, "not found"


def _list_in(src, name):
    for rel, fn in _functions(src):
        if fn.name != name:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In) and \
                    isinstance(node.comparators[0], (ast.List, ast.Tuple)):
                lst = node.comparators[0]
                return list(ast.literal_eval(lst)), f"{rel}:{lst.lineno}"
    return None, "not found"


def _aliases(src):
    for rel, fn in _functions(src):
        if fn.name.lstrip("_") != "handle_deprecated_args":
            continue
        for node in ast.walk(fn):
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "aliases" for t in node.targets)
                    and isinstance(node.value, ast.Dict)):
                return ast.literal_eval(node.value), f"{rel}:{node.lineno}"
    return {}, "no aliases = {...} in handle_deprecated_args"


def _sm120_fp8(src):
    for rel, text in src.items():
        for i, line in enumerate(text.splitlines(), 1):
            if "TRTLLM FMHAv2 prefill on SM120" in line:
                return True, f"{rel}:{i}"
    return False, "no 'TRTLLM FMHAv2 prefill on SM120' error"


def _dsa_kv_default(src):
    """``_dsa_kv_cache_dtype_default`` (arg_groups/overrides.py): with ``--kv-cache-dtype auto`` a
    DeepSeek-family DSA checkpoint gets ``fp8_e4m3`` when ``major >= N`` (0.5.20+: unless its config
    has ``learnable_sink``), else ``bfloat16``; the architectures are the frozenset the function
    tests ``architectures[0]`` against."""
    for rel, fn in _functions(src):
        if fn.name != "_dsa_kv_cache_dtype_default":
            continue
        major = gate = None
        for node in ast.walk(fn):
            if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Constant) and node.body.value == "fp8_e4m3":
                for cmp_ in ast.walk(node.test):
                    if isinstance(cmp_, ast.Compare) and ast.unparse(cmp_.left) == "major" and \
                            isinstance(cmp_.ops[0], ast.GtE):
                        major = ast.literal_eval(cmp_.comparators[0])
            if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.NotIn) and \
                    ast.unparse(node.left) == "hf_config.architectures[0]" and isinstance(node.comparators[0], ast.Name):
                gate = node.comparators[0].id
        if major is None or gate is None:
            return None, f"{rel}:{fn.lineno}: no fp8_e4m3 default read"
        archs = None
        for node in ast.parse(src[rel]).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == gate for t in node.targets):
                value = node.value
                if isinstance(value, ast.Call) and value.args:  # frozenset({...})
                    value = value.args[0]
                archs = sorted(ast.literal_eval(value))
        unless = ["learnable_sink"] if "learnable_sink" in ast.unparse(fn) else []
        return ({"fp8_e4m3_from_major": major, "unless_config": unless, "architectures": archs},
                f"{rel}:{fn.lineno} (_dsa_kv_cache_dtype_default)")
    return None, "no _dsa_kv_cache_dtype_default"


READERS = {
    "gpt_oss_attention_backends": _gpt_oss,
    "deepseek_family_override_architectures": _family,
    "deterministic_fill_mla_architectures": lambda s: _list_in(s, "_deterministic_is_deepseek_model"),
    "dsa_architectures": lambda s: _list_in(s, "is_deepseek_dsa"),
    "attention_backend_aliases": _aliases,
    "trtllm_mha_sm120_fp8_prefill_check": _sm120_fp8,
    "dsa_kv_cache_default": _dsa_kv_default,
}


def read_release(wheel: Path) -> dict:
    """The values of :data:`READERS` for one wheel: ``{key: {"value": ..., "source": "file:line"}}``."""
    src = read_sources(wheel)
    out = {}
    for key, reader in READERS.items():
        value, where = reader(src)
        out[key] = {"value": value, "source": where}
    return out


def wheels(folder: Path) -> dict[str, Path]:
    since = _key(json.loads(SEMANTICS.read_text("utf-8"))["startup_checks_since"]["value"])
    found = {}
    for w in folder.glob("sglang-*.whl"):
        version = w.name.split("-")[1]
        try:
            if _key(version) >= since:
                found[version] = w
        except ValueError:
            continue
    return dict(sorted(found.items(), key=lambda kv: _key(kv[0])))


def build(folder: Path) -> dict:
    releases = {v: read_release(w) for v, w in wheels(folder).items()}
    return {
        "provenance": "scripts/generate_model_checks.py: literals read with ast from each PyPI wheel of SGLang "
                      "(paths inside the wheel, 'file:line'); one entry per release from startup_checks_since on",
        "releases": releases,
    }


def _function_texts(src: dict[str, str]) -> dict[str, str]:
    out = {}
    for rel, fn in _functions(src):
        if fn.name in DIFF_FUNCTIONS:
            text = src[rel].splitlines()[fn.lineno - 1 - len(fn.decorator_list):fn.end_lineno]
            out[f"{rel}:{fn.name}"] = "\n".join(text) + "\n"
    # a function that moved file keeps its name
    return {k.split(":")[1]: v for k, v in sorted(out.items())}


def diff(folder: Path, old: str, new: str) -> str:
    """A unified diff of the :data:`DIFF_FUNCTIONS` between two releases."""
    found = wheels(folder)
    a, b = _function_texts(read_sources(found[old])), _function_texts(read_sources(found[new]))
    parts = []
    for name in sorted(set(a) | set(b)):
        parts.extend(difflib.unified_diff(a.get(name, "").splitlines(keepends=True),
                                          b.get(name, "").splitlines(keepends=True),
                                          f"{old}:{name}", f"{new}:{name}", n=2))
    ra, rb = read_release(found[old]), read_release(found[new])
    for key in READERS:
        if ra[key]["value"] != rb[key]["value"]:
            parts.append(f"# {key}: {ra[key]['value']} -> {rb[key]['value']} ({rb[key]['source']})\n")
    return "".join(parts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("wheel_dir", type=Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"))
    args = ap.parse_args(argv)
    if args.diff:
        sys.stdout.write(diff(args.wheel_dir, *args.diff) or "no change in these places\n")
        return 0
    text = json.dumps(build(args.wheel_dir), indent=1) + "\n"
    if args.check:
        stale = not OUT.exists() or OUT.read_text("utf-8") != text
        print(f"{OUT.relative_to(ROOT)} is {'stale' if stale else 'current'}")
        return 1 if stale else 0
    OUT.write_text(text, "utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(json.loads(text)['releases'])} releases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
