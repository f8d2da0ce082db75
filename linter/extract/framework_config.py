"""Framework configs: YAML files in which a framework is told to start SGLang (AReaL's ``sglang:``
section, a ROLL worker's ``strategy_args: {strategy_name: sglang}``, NeMo-RL's
``policy.generation.backend: sglang``, LLaMA-Factory's and ms-swift's ``infer_backend: sglang``,
NeMo-Skills' pipeline ``stage_kwargs`` with ``server_type: sglang``, SkyRL's
``generator.backend: sglang``).

The file is read as a tree of settings with dotted names (:func:`settings_of`): every scalar keeps its
origin, an OmegaConf interpolation that is exactly ``${a.b}`` takes the value of that key of the same
config (with its origin there; ``${oc.env:…}`` and partial interpolations are unknown), and NeMo-RL's
``defaults: parent.yaml`` (a file or a list, relative to the config's folder) is read under it. The
framework knowledge — which settings become which ``ServerArgs`` fields, what the framework sets
itself — is :mod:`linter.sglang.frameworks`; this module only finds the places and builds the
launches (:func:`framework_launches`, also used for the command lines that name such a file).
"""

from __future__ import annotations

import re
from pathlib import Path

from linter.extract import yamltree
from linter.launch import UNKNOWN, Extraction, KwArg, Launch
from linter.source import SourceFile, Span
from linter.workspace import Workspace, exists

_INTERPOLATION = re.compile(r"^\$\{([A-Za-z_][\w.]*)\}$")
MAX_SETTINGS = 20_000
"""Settings read from one config (its parents included); past it the rest is not read."""
MAX_PARENTS = 8
"""``defaults:`` files followed from one config."""

YAML_FRAMEWORKS = ("areal", "roll", "nemo-rl", "llamafactory", "ms-swift", "nemo-skills", "skyrl")
"""The frameworks whose settings a YAML config holds (lm-evaluation-harness takes them on the command
line)."""


def _scalar(node, source: SourceFile):
    """(Python value or UNKNOWN, MStr of a string value or None)."""
    tag = node.tag.rsplit(":", 1)[-1]
    if tag == "bool":
        return node.value.lower() in ("true", "yes", "on"), None
    if tag == "null":
        return None, None
    if tag in ("int", "float"):
        try:
            return (int(node.value) if tag == "int" else float(node.value)), None
        except ValueError:
            return UNKNOWN, None
    return node.value, yamltree.mstr(node, source)


def settings_of(root, source: SourceFile, into: dict | None = None) -> dict:
    """The settings of a YAML mapping: dotted key -> :class:`~linter.launch.KwArg` (a mapping's own key
    maps to :data:`~linter.sglang.frameworks.MAPPING`; a list of scalars to a Python list). Later
    keys (and ``into``'s own) are replaced by this file's."""
    from linter.extract.yamlload import MappingNode, ScalarNode, SequenceNode
    from linter.sglang.frameworks import MAPPING

    out = {} if into is None else into

    def walk(node, prefix: str, depth: int) -> None:
        for k, v in yamltree.items(node):
            if len(out) >= MAX_SETTINGS or depth > 32:
                return
            if not isinstance(k, ScalarNode):
                continue
            key = f"{prefix}{k.value}"
            name_span = Span(source, k.start_mark.index, k.end_mark.index)
            where = Span(source, k.start_mark.index, v.end_mark.index)
            if isinstance(v, MappingNode):
                for sub in [s for s in out if s.startswith(key + ".")]:
                    del out[sub]  # a mapping replaces what a parent file had under the key
                out[key] = KwArg(key, MAPPING, where, name_span=name_span)
                walk(v, key + ".", depth + 1)
            elif isinstance(v, ScalarNode):
                value, text = _scalar(v, source)
                out[key] = KwArg(key, value, where, name_span=name_span, value_text=text,
                                 value_span=text.span_of() if text is not None else
                                 Span(source, v.start_mark.index, v.end_mark.index))
            elif isinstance(v, SequenceNode):
                items = [_scalar(i, source)[0] if isinstance(i, ScalarNode) else UNKNOWN for i in v.value]
                out[key] = KwArg(key, items if all(i is not UNKNOWN for i in items) else UNKNOWN, where,
                                 name_span=name_span)

    if isinstance(root, MappingNode):
        walk(root, "", 0)
    return out


def resolve_interpolations(settings: dict) -> dict:
    """Each value that is exactly ``${a.b}`` replaced by the value of ``a.b`` (keeping its origin there);
    other ``${…}`` values are unknown (OmegaConf resolvers, environment variables)."""
    out = dict(settings)
    for key, kw in settings.items():
        if not isinstance(kw.value, str) or "${" not in kw.value:
            continue
        target, seen = kw, 0
        while isinstance(target.value, str) and (m := _INTERPOLATION.match(target.value)) and seen < 8:
            target = settings.get(m.group(1))
            seen += 1
            if target is None:
                break
        if target is None or (isinstance(target.value, str) and "${" in target.value):
            out[key] = KwArg(key, UNKNOWN, kw.where, name_span=kw.name_span)
        else:
            out[key] = KwArg(key, target.value, kw.where, name_span=kw.name_span, value_text=target.value_text,
                             value_span=target.value_span)
    return out


def read_config(source: SourceFile, ws: Workspace | None, result: Extraction, root=None,
                overrides: dict | None = None) -> dict:
    """The settings of a framework config file, with NeMo-RL's ``defaults:`` parents read under it
    (each parent read joins ``result.related``), then the command line's ``overrides`` (Hydra/OmegaConf
    ``key=value`` settings) on top, and only then interpolations resolved — as OmegaConf does: an
    override of ``actor.path`` reaches ``sglang.model_path: ${actor.path}``, with its origin on the
    command line (NeMo-RL @7ea279ab examples/run_grpo.py:87-94: ``parse_hydra_overrides`` before
    ``OmegaConf.to_container(resolve=True)``; AReaL @4aef98d8 areal/api/cli_args.py:2960-2963:
    ``parse_cli_args`` merges the overrides, ``OmegaConf.to_object`` resolves)."""
    from linter.extract import yamldoc

    if root is None:
        root = yamldoc.load(source, result)
    own = settings_of(root, source)
    chain = _parents(own, source, ws, result, 0)
    merged: dict = {}
    for settings in chain + [own]:
        # OmegaConf merges mappings key by key, except one marked ``_override_: true``, which replaces
        # the parent's (nemo_rl/utils/config.py:30-48)
        for key in [k[:-len("._override_")] for k, v in settings.items() if k.endswith("._override_") and v.value is True]:
            for sub in [k for k in merged if k.startswith(key + ".")]:
                del merged[sub]
        merged.update(settings)
    merged.pop("defaults", None)
    merged.update(overrides or {})
    return resolve_interpolations(merged)


def _parents(own: dict, source: SourceFile, ws: Workspace | None, result: Extraction, depth: int) -> list[dict]:
    """The settings of the files ``defaults:`` names (nemo_rl/utils/config.py:51-95), outermost first."""
    kw = own.get("defaults")
    if ws is None or kw is None or depth >= MAX_PARENTS:
        return []
    names = kw.value if isinstance(kw.value, list) else [kw.value] if isinstance(kw.value, str) else []
    out: list[dict] = []
    for name in names:
        if not isinstance(name, str) or not name.endswith((".yaml", ".yml")):
            continue  # a Hydra defaults list (``- _self_``) is not NeMo-RL's inheritance
        parent = ws.try_read(source.path.parent / name)
        if parent is None or parent.path == source.path:
            continue
        from linter.extract import yamldoc

        if parent not in result.related:
            result.related.append(parent)
        with yamltree.walk(parent):
            node = yamldoc.load(parent, Extraction())
            settings = settings_of(node, parent)
        out.extend(_parents(settings, parent, ws, result, depth + 1))
        out.append(settings)
    return out


def framework_launches(settings: dict, source: SourceFile, span: Span, names=YAML_FRAMEWORKS,
                       key_prefix: str = "", in_config: bool = True,
                       alloc: dict | None = None) -> tuple[list[Launch], list]:
    """The launches the frameworks ``names`` make from ``settings`` and the places passed over
    (:class:`~linter.sglang.frameworks.PassedOver`). The launches belong to ``source``: a config file
    (``in_config``: each launch spans the mapping that picks SGLang) or the command that names it
    (each launch spans ``span``, the command). ``alloc`` gives AReaL's engine sizes when a call names
    them (``build_cmd(tp_size=…)``) instead of the config's allocation."""
    from linter.sglang.frameworks import (
        PassedOver,
        areal_allocation,
        areal_engine,
        convert,
        frameworks,
        select,
    )

    launches: list[Launch] = []
    passed: list = []
    table = frameworks()
    for name in names:
        fw = table[name]
        for prefix in [""] + ([fw.judge] if fw.judge else []):
            found, skipped = select(fw, settings, prefix)
            passed.extend(skipped)
            for inst in found:
                given = alloc
                if fw.name == "areal" and given is None:
                    engine, at = areal_engine(settings)
                    if engine == "?":
                        passed.append(PassedOver(at.value_span or at.where, "not an SGLang launch: AReaL's rollout "
                                                 f"engine ({at.name}) is not known statically"))
                        continue
                    if engine not in (None, "sglang"):
                        continue  # the rollout runs another engine (vllm:…): the sglang: section is not used
                    given = areal_allocation(settings)
                conv = convert(inst, given)
                key = key_prefix + ":".join(p for p in (fw.name, prefix.rstrip("_"), inst.path) if p)
                launches.append(make_launch(source, conv, fw.program, _span_of(inst, source) if in_config else span,
                                            key=key))
    return launches, passed


def _span_of(inst, source: SourceFile) -> Span:
    """A config launch's span: the worker mapping that holds the selector (ROLL, NeMo-Skills), else the
    section the framework passes on (AReaL's ``sglang:``), else the selector (its first line anchors
    launch-wide suppressions)."""
    fw = inst.framework
    for kw in (inst.root.get(inst.path) if inst.path else None, inst.local.get(fw.section) if fw.section else None,
               inst.anchor):
        if kw is not None and kw.where is not None and kw.where.source is source:
            return kw.where
    return Span(source, 0, 0)


def make_launch(source: SourceFile, conv, program: str, span: Span, key: str) -> Launch:
    """A :class:`~linter.launch.Launch` from a framework's converted settings
    (:class:`~linter.sglang.frameworks.Converted`)."""
    if conv.tokens is not None:
        return Launch(source=source, program=program, span=span, style="cli", args=conv.tokens, key=key,
                      gpu_counts=conv.gpu_counts, image=conv.image, framework=conv.facts)
    return Launch(source=source, program=program, span=span, style="kwargs", kwargs=conv.kwargs, key=key,
                  gpu_counts=conv.gpu_counts, image=conv.image, framework=conv.facts)


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The SGLang launches a framework config describes."""
    with yamltree.walk(source):  # merges memoised and counted, as in compose files
        return _extract(source, ws)


def _extract(source: SourceFile, ws: Workspace) -> Extraction:
    from linter.extract import yamldoc
    from linter.extract.yamlload import MappingNode
    from linter.recognize import note_passed_over

    result = Extraction()
    root = yamldoc.load(source, result)  # a YAML error is SGL001 at its position; too deep is SGL004
    if root is None:
        return result
    result.comments = yamltree.comments(source, root)
    if not isinstance(root, MappingNode):
        return result
    settings = read_config(source, ws, result, root)
    launches, passed = framework_launches(settings, source, Span(source, 0, 0))
    result.launches.extend(launches)
    for p in passed:
        note_passed_over(p.span, p.message)
    return result


def config_path(words, option: str = "--config") -> tuple[str, object] | None:
    """``(path, token)`` of ``--config PATH`` / ``--config=PATH`` in a command's words."""
    for i, tok in enumerate(words):
        raw = tok.value or ""
        if raw == option and i + 1 < len(words) and words[i + 1].value:
            return words[i + 1].value, words[i + 1]
        if raw.startswith(option + "="):
            return raw.split("=", 1)[1], tok
    return None


def find_config(path: str, launch: Launch, ws: Workspace) -> SourceFile | None:
    """The config file a command names, looked up as SGLang's ``--config`` is (the folder a ``cd``
    names, else the command's file's folder, the repository root, the working directory)."""
    p = Path(path)
    folder = launch.source.path.parent
    if p.is_absolute():
        candidates = [p]
    elif launch.workdir:
        candidates = [folder / launch.workdir / p] if not launch.workdir.startswith("/") else [Path(launch.workdir) / p]
    else:
        candidates = [folder / p]
        for d in (folder, *folder.parents):
            if exists(d / ".git"):  # (noted: a cached result depends on where the repository's top is)
                candidates.append(d / p)
                break
        candidates.append(ws.cwd / p)
    for c in candidates:
        got = ws.try_read(c)
        if got is not None:
            return got
    return None
