"""AReaL experiment configs: the ``sglang:`` section of an AReaL YAML file is the server arguments of
the SGLang rollout servers AReaL starts (its ``SGLangConfig`` dataclass, whose fields are
``ServerArgs`` fields; ``linter/sglang/data/dialects.json`` ``yaml_sections.areal`` has the source).

Keys are field names with underscores, values are YAML values; a value that is exactly an OmegaConf
interpolation ``${a.b}`` takes the value of that key of the same file (``sglang.model_path:
${actor.path}``), with its origin there. AReaL's own defaults apply to the fields the section does not
give (``attention_backend`` is ``fa3`` in AReaL, not SGLang's automatic choice); a finding on such a
default is located at the ``sglang:`` key.
"""

from __future__ import annotations

import re

from linter.extract.compose import _comments, _get, _mapping_items, scalar_mstr, yaml_walk
from linter.launch import UNKNOWN, Extraction, KwArg, Launch
from linter.source import SourceFile, Span
from linter.workspace import Workspace

_INTERPOLATION = re.compile(r"^\$\{([A-Za-z_][\w.]*)\}$")


def _lookup(root, dotted: str):
    from linter.extract.yamlload import MappingNode

    node = root
    for part in dotted.split("."):
        if not isinstance(node, MappingNode):
            return None
        _, node = _get(node, part)
        if node is None:
            return None
    return node


def _value(node, root, source: SourceFile, depth: int = 0):
    """(Python value or UNKNOWN, MStr of a string value or None, the node the value is written in)."""
    from linter.extract.yamlload import ScalarNode

    if not isinstance(node, ScalarNode):
        return UNKNOWN, None, node
    tag = node.tag.rsplit(":", 1)[-1]
    if tag == "bool":
        return node.value.lower() in ("true", "yes", "on"), None, node
    if tag == "null":
        return None, None, node
    if tag == "int":
        try:
            return int(node.value), None, node
        except ValueError:
            return UNKNOWN, None, node
    if tag == "float":
        try:
            return float(node.value), None, node
        except ValueError:
            return UNKNOWN, None, node
    m = _INTERPOLATION.match(node.value)
    if m:
        target = _lookup(root, m.group(1))
        if target is None or depth > 8:
            return UNKNOWN, None, node
        return _value(target, root, source, depth + 1)
    if "${" in node.value:
        return UNKNOWN, None, node
    return node.value, scalar_mstr(node, source), node


def _rollout_engine(root) -> str | None:
    """The engine AReaL's allocation names (``rollout.backend: "sglang:d4t8"`` or a top-level
    ``allocation_mode: sglang:d1+d1``), or None when the file does not say plainly."""
    from linter.extract.yamlload import MappingNode, ScalarNode

    _, rollout = _get(root, "rollout")
    _, backend = _get(rollout, "backend") if isinstance(rollout, MappingNode) else (None, None)
    _, mode = _get(root, "allocation_mode")
    for node in (backend, mode):
        if isinstance(node, ScalarNode) and isinstance(node.value, str) and ":" in node.value \
                and "${" not in node.value:
            return node.value.split(":", 1)[0].strip().lower()
    return None


def extract(source: SourceFile, ws: Workspace) -> Extraction:
    """The SGLang launch an AReaL config's ``sglang:`` section describes."""
    with yaml_walk(source):  # merges memoised and counted, as in compose files
        return _extract(source, ws)


def _extract(source: SourceFile, ws: Workspace) -> Extraction:
    from linter.extract.yamlload import MappingNode

    from linter.extract import yamldoc
    from linter.sglang.dialects import yaml_section

    result = Extraction()
    root = yamldoc.load(source, result)  # a YAML error is SGL001 at its position; too deep is SGL004
    if root is None:
        return result
    result.comments = _comments(source, root)
    if not isinstance(root, MappingNode):
        return result
    dialect = yaml_section("areal")
    key_node, section = _get(root, dialect.section)
    if not isinstance(section, MappingNode):
        return result
    if _rollout_engine(root) not in (None, "sglang"):
        return result  # the rollout runs another engine (vllm:…): the sglang: section is not used
    section_span = Span(source, key_node.start_mark.index, key_node.end_mark.index)
    kwargs: list[KwArg] = []
    for k, v in _mapping_items(section):
        name = str(k.value)
        value, text, written = _value(v, root, source)
        value_span = text.span_of() if text is not None else None
        where = Span(source, k.start_mark.index, v.end_mark.index)
        kwargs.append(KwArg(name, value, where, name_span=Span(source, k.start_mark.index, k.end_mark.index),
                            value_text=text, value_span=value_span))
    given = {kw.name for kw in kwargs}
    for name, value in dialect.defaults.items():
        if name not in given:
            kwargs.append(KwArg(name, value, section_span, name_span=section_span,
                                default_of=f"AReaL sets {name}={value!r} when its sglang: section does not "
                                           f"({dialect.source.split(' (')[0]})"))
    span = Span(source, key_node.start_mark.index, section.end_mark.index)
    result.launches.append(Launch(source=source, program=dialect.program, span=span, style="kwargs",
                                  kwargs=kwargs, key=dialect.section))
    return result
