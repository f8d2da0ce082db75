"""Framework Python APIs that start SGLang: NeMo-Skills' pipeline functions and AReaL's
``SGLangConfig.build_cmd``.

* ``eval(ctx=…, server_type="sglang", server_gpus=8, server_args="…", model=…)`` (also ``generate``
  and ``start_server``, imported from ``nemo_skills.pipeline.cli``): the keyword arguments are the
  ``ns`` command's options, read by the framework's row (:mod:`linter.sglang.frameworks`);
* ``SGLangConfig.build_cmd(sglang_config, tp_size=…, base_gpu_id=…, …)`` (areal/api/cli_args.py:
  1810-1835): the argv of the SGLang server AReaL runs for that config. The config is a
  ``SGLangConfig(…)`` call (its keywords are the ``sglang:`` section) or ``X.sglang`` of a config
  loaded by ``load_expr_config(["--config", "FILE.yaml", …], …)`` — the YAML is read (from the
  repository root, the notebook's folder or the working directory), with the ``X.sglang.FIELD = …``
  assignments written before the call on top. Another config (a parameter, an attribute of an object
  built elsewhere) is not known: the call is not taken for a launch.

The launch is located at the call; each value keeps its origin (a keyword here, a key of the YAML).
"""

from __future__ import annotations

import ast
from typing import Any, Protocol

from linter.extract.python.syntax import call_args
from linter.launch import KwArg, Launch
from linter.source import Span


class LaunchFinder(Protocol):
    """What this module reads of :class:`linter.extract.python.launches.LaunchFinder` (its own type,
    so that this module, which the finder calls, does not import the finder back): the module's
    analysis ``a`` and ``_kwarg`` (a value evaluated at a call turned into a setting)."""

    a: Any

    def _kwarg(self, name: str, v: object, where: Span, name_span: Span | None,
               value_span: Span | None) -> KwArg: ...

_BUILD_ARGS = {"tp_size": "tp", "pp_size": "pp", "base_gpu_id": "base_gpu_id", "host": "host", "port": "port",
               "dist_init_addr": "dist_init_addr", "n_nodes": "n_nodes", "node_rank": "node_rank"}
_BUILD_ORDER = ("sglang_config", "tp_size", "base_gpu_id", "host", "port", "dist_init_addr", "n_nodes",
                "node_rank", "pp_size")
"""build_cmd's parameters in order (areal/api/cli_args.py:1810-1820)."""


def framework_call(finder: LaunchFinder, call, fw, frame, span: Span) -> list[Launch]:
    """The launches of a call to a framework API that starts SGLang (``fw``: its row)."""
    from linter.extract.framework_config import framework_launches
    from linter.recognize import note_passed_over

    a = finder.a
    settings: dict = {}
    alloc = None
    if fw.name == "areal":
        got = _build_cmd(finder, call, frame)
        if got is None:
            return []
        settings, alloc = got
    else:
        for arg in call_args(call):
            if arg.keyword is None:
                continue
            v = a.ev(arg.value, frame)
            settings[arg.keyword] = finder._kwarg(arg.keyword, v, a.span(arg.node), a.keyword_span(arg),
                                                   a.span(arg.value))
    launches, passed = framework_launches(settings, a.source, span, names=(fw.name,), in_config=False,
                                          alloc=alloc)
    for p in passed:
        note_passed_over(p.span, p.message)
    return launches


def _build_cmd(finder: LaunchFinder, call, frame):
    """(settings, allocation values) of ``SGLangConfig.build_cmd(...)``, or None when its config is not
    known statically."""
    a = finder.a
    params: dict = {}
    for k, arg in enumerate([x for x in call_args(call) if x.keyword is None and not x.star]):
        if k < len(_BUILD_ORDER):
            params[_BUILD_ORDER[k]] = arg
    for arg in call_args(call):
        if arg.keyword is not None:
            params[arg.keyword] = arg
    config = params.pop("sglang_config", None)
    if config is None:
        return None
    settings = _config(finder, config.value, frame)
    if settings is None:
        return None
    alloc = {}
    for name, arg in params.items():
        key = _BUILD_ARGS.get(name)
        if key is None:
            continue
        v = a.ev(arg.value, frame)
        alloc[key] = finder._kwarg(key, v, a.span(arg.node), a.keyword_span(arg) if arg.keyword else None,
                                   a.span(arg.value))
    tp = alloc.get("tp")
    if tp is not None:
        alloc["gpus"] = KwArg("gpus", tp.value, tp.where, name_span=tp.name_span, value_span=tp.value_span)
    return settings, alloc


def _config(finder: LaunchFinder, node, frame) -> dict | None:
    """AReaL settings (``sglang.*`` …) of a build_cmd config argument, or None when not known."""
    from linter.extract.python.values import Ref
    from linter.sglang.frameworks import MAPPING

    a = finder.a
    if isinstance(node, ast.Call):
        callee = a.ev(node.func, frame)
        if not (isinstance(callee, Ref) and callee.qual.endswith(".SGLangConfig")):
            return None
        out = {"sglang": KwArg("sglang", MAPPING, a.span(node), name_span=a.span(node.func))}
        for arg in call_args(node):
            if arg.keyword is not None:
                v = a.ev(arg.value, frame)
                key = f"sglang.{arg.keyword}"
                out[key] = finder._kwarg(key, v, a.span(arg.node), a.keyword_span(arg), a.span(arg.value))
        return out
    if isinstance(node, ast.Attribute) and node.attr == "sglang" and isinstance(node.value, ast.Name):
        return _loaded_config(finder, node.value.id, a.offsets(node)[0], frame)
    return None


def _loaded_config(finder: LaunchFinder, name: str, before: int, frame) -> dict | None:
    """The settings of ``name``, bound by ``name[, _] = load_expr_config([... "--config", FILE ...], …)``
    before offset ``before``, with the ``name.sglang.FIELD = value`` assignments made before it."""
    from linter.extract import yamltree
    from linter.extract.framework_config import find_config, read_config
    from linter.launch import Extraction

    a = finder.a
    loaded, assigned = _bindings(a, name, before)
    if loaded is None or a.ws is None:
        return None
    path = _config_path(a.ev(loaded.args[0], frame))
    if path is None:
        return None
    launch = Launch(source=a.source, program="", span=Span(a.source, before, before))
    source = find_config(path, launch, a.ws)
    if source is None:
        return None
    if source not in a.result.related:
        a.result.related.append(source)
    with yamltree.walk(source):
        settings = read_config(source, a.ws, Extraction())
    for node in sorted(assigned, key=lambda n: a.offsets(n)[0]):
        target = node.targets[0]
        key = f"sglang.{target.attr}"
        v = a.ev(node.value, frame)
        settings[key] = finder._kwarg(key, v, a.span(node), a.span(target), a.span(node.value))
    return settings


def _bindings(a, name: str, before: int) -> tuple[ast.Call | None, list[ast.Assign]]:
    """What the module does to ``name`` before offset ``before``: the last ``load_expr_config(...)``
    call bound to it (or None) and the ``name.sglang.FIELD = …`` assignments, in the module's walk
    order."""
    loaded = None
    assigned: list[ast.Assign] = []
    for node in ast.walk(a.module):
        if not isinstance(node, ast.Assign) or a.offsets(node)[0] >= before:
            continue
        for target in node.targets:
            if _loads_config(target, node.value, name):
                loaded = node.value
            if _sets_sglang_field(target, name):
                assigned.append(node)
    return loaded, assigned


def _loads_config(target: ast.expr, value: ast.expr, name: str) -> bool:
    """Whether ``target = value`` binds ``name`` (alone or first of a tuple) to a
    ``load_expr_config(ARGV, …)`` call."""
    first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
    if not (isinstance(first, ast.Name) and first.id == name and isinstance(value, ast.Call)):
        return False
    func = value.func
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return last == "load_expr_config" and bool(value.args)


def _sets_sglang_field(target: ast.expr, name: str) -> bool:
    """Whether ``target`` is ``name.sglang.FIELD``."""
    return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Attribute) \
        and target.value.attr == "sglang" and isinstance(target.value.value, ast.Name) \
        and target.value.value.id == name


def _config_path(argv) -> str | None:
    """The file after ``--config`` (or in ``--config=FILE``) of a statically known argv list (a
    :class:`~linter.extract.python.values.Seq`), or None."""
    from linter.extract.python.values import Seq, Str

    if not isinstance(argv, Seq):
        return None
    words = [i.m.text if isinstance(i, Str) and i.m.known else None for i in argv.items]
    path = next((words[k + 1] for k in range(len(words) - 1) if words[k] == "--config"), None)
    if path is None:
        path = next((w.split("=", 1)[1] for w in words if w and w.startswith("--config=")), None)
    return path
