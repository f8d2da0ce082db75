"""slime's and miles' ``--sglang-config FILE``: a YAML file of SGLang server groups, each an engine
that takes the trainer's ``--sglang-*`` options with the group's ``overrides`` (``ServerArgs`` field
names) on top (THUDM/slime ``slime/backends/sglang_utils/arguments.py`` @624b824a: "Defines
server_groups with worker_type (regular/prefill/decode/placeholder), num_gpus per group, and optional
per-group 'overrides' dict of ServerArgs field names that override the base --sglang-* CLI args.
Placeholder groups reserve GPU slots without creating engines."; radixark/miles the same).

A trainer launch that names such a file becomes one launch per engine group (placeholders start no
engine); each override keeps the origin of its value in the YAML, so a finding and its fix land
there, and the YAML is a shared value of all the groups and trainers that read it. A file that cannot
be found or read leaves the launch as it is (its settings unknown to nobody: the command line still
counts).
"""

from __future__ import annotations

from pathlib import Path

from linter import records
from linter.launch import UNKNOWN, Extraction, KwArg
from linter.source import Span
from linter.workspace import Workspace


def _config_path(launch) -> tuple[str, object] | None:
    words = launch.args
    for i, tok in enumerate(words):
        raw = tok.value or ""
        if raw == "--sglang-config" and i + 1 < len(words) and words[i + 1].value:
            return words[i + 1].value, words[i + 1]
        if raw.startswith("--sglang-config="):
            return raw.split("=", 1)[1], tok
    return None


def expand_server_groups(extraction: Extraction, ws: Workspace) -> None:
    """Replace each slime/miles trainer launch that names a readable ``--sglang-config`` with one launch
    per engine group of that file (in place on ``extraction``; the YAML joins ``related``)."""
    from linter.sglang.dialects import by_program

    out = []
    for launch in extraction.launches:
        dialect = by_program(launch.program)
        got = _config_path(launch) if dialect is not None and dialect.name == "slime" else None
        if got is None:
            out.append(launch)
            continue
        groups = _groups(Path(got[0]), launch, ws, extraction)
        if not groups:
            out.append(launch)
            continue
        for n, (name, overrides) in enumerate(groups):
            out.append(records.replace(launch, key=f"{launch.key}:{name or f'group{n}'}",
                                           overrides=tuple(overrides)))
    extraction.launches = out


def _groups(path: Path, launch, ws: Workspace, extraction: Extraction) -> list[tuple[str, list[KwArg]]]:
    from linter.extract import yamltree

    folder = launch.source.path.parent
    candidates = [path] if path.is_absolute() else [folder / path, ws.cwd / path]
    source = next((s for s in (ws.try_read(c) for c in candidates) if s is not None), None)
    if source is None:
        return []
    try:
        root = yamltree.load_tree(source)
    except Exception:  # noqa: BLE001 - not YAML: the trainer's settings stay the command line's
        return []
    from linter.extract.yamlload import MappingNode, ScalarNode, SequenceNode

    if not isinstance(root, MappingNode):
        return []
    _, groups = yamltree.get(root, "server_groups")
    if not isinstance(groups, SequenceNode):
        return []
    if source not in extraction.related:
        extraction.related.append(source)
    out = []
    for group in groups.value:
        if not isinstance(group, MappingNode):
            continue
        _, kind = yamltree.get(group, "worker_type")
        if isinstance(kind, ScalarNode) and kind.value == "placeholder":
            continue  # reserves GPUs, starts no engine
        _, name = yamltree.get(group, "name")
        label = str(name.value) if isinstance(name, ScalarNode) else (str(kind.value) if isinstance(kind, ScalarNode)
                                                                      else "")
        overrides = []
        _, table = yamltree.get(group, "overrides")
        for k, v in yamltree.items(table) if isinstance(table, MappingNode) else ():
            where = Span(source, k.start_mark.index, v.end_mark.index)
            text = yamltree.mstr(v, source) if isinstance(v, ScalarNode) else None
            value = _value(v) if isinstance(v, ScalarNode) else UNKNOWN
            overrides.append(KwArg(str(k.value), value, where,
                                   name_span=Span(source, k.start_mark.index, k.end_mark.index),
                                   value_text=text if isinstance(value, str) else None,
                                   value_span=text.span_of() if text is not None and isinstance(value, str) else None))
        out.append((label, overrides))
    return out


def _value(node):
    tag = node.tag.rsplit(":", 1)[-1]
    if tag == "bool":
        return node.value.lower() in ("true", "yes", "on")
    if tag == "null":
        return None
    if tag == "int":
        try:
            return int(node.value)
        except ValueError:
            return UNKNOWN
    return node.value
