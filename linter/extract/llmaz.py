"""llmaz (InftyAI/llmaz): ``BackendRuntime`` objects whose command starts SGLang, and the
``Playground`` objects that run a model on one.

llmaz runs a Playground's model with its ``BackendRuntime`` (``spec.backendRuntimeConfig.backendName``,
vLLM when not given): the runtime's ``command``, the arguments of its ``recommendedConfigs`` entry the
Playground picks (``configName``, else ``default``) with ``{{ .ModelPath }}`` and ``{{ .ModelName }}``
filled in from the claimed ``OpenModel``, then the Playground's own ``args``, in the image
``spec.image:version`` (the Playground's ``version`` wins); the GPUs of one replica are the model's
first flavor's ``limits``. Facts and sources: ``linter/sglang/data/frameworks.json`` ``llmaz``.

Each recommended config of a ``BackendRuntime`` is a launch (its model is not known there); each
Playground on an SGLang runtime is a launch with its model. A runtime not defined in the file is
llmaz's own — the chart installs one named ``sglang`` (command, arguments and image in the data) — so
a Playground that names ``sglang`` runs that one. Recognition of the command is the shared step
(:mod:`linter.recognize`): a runtime whose command is not SGLang's is not read.
"""

from __future__ import annotations

import re

from linter.extract import yamltree
from linter.launch import Extraction, FrameworkFacts, GpuCount, Launch, MStr, Token, hull
from linter.source import SourceFile, Span

API_GROUP = "inference.llmaz.io"
_TEMPLATE = re.compile(r"\{\{\s*\.(\w+)\s*\}\}")


def _node(root, *path):
    node = root
    for key in path:
        from linter.extract.yamlload import MappingNode

        if not isinstance(node, MappingNode):
            return None
        _, node = yamltree.get(node, key)
    return node


def _str(node, source: SourceFile) -> MStr | None:
    from linter.extract.yamlload import ScalarNode

    return yamltree.mstr(node, source) if isinstance(node, ScalarNode) else None


def _seq(node) -> list:
    from linter.extract.yamlload import SequenceNode

    return list(node.value) if isinstance(node, SequenceNode) else []


def _span(node, source: SourceFile) -> Span:
    return Span(source, node.start_mark.index, node.end_mark.index)


def _words(node, source: SourceFile) -> list[Token]:
    out = []
    for item in _seq(node):
        m = _str(item, source)
        out.append(Token(m) if m is not None else Token(MStr.unknown(_span(item, source))))
    return out


def _fill(tokens: list[Token], values: dict[str, MStr]) -> list[Token]:
    """``{{ .ModelPath }}``-style fields of llmaz's renderFlags filled from ``values`` (a field with no
    value is unknown; backendruntime.go:115-140)."""
    out = []
    for tok in tokens:
        raw = tok.raw
        if "{{" not in raw:
            out.append(tok)
            continue
        parts, pos = [], 0
        for m in _TEMPLATE.finditer(raw):
            parts.append(tok.text[pos:m.start()])
            parts.append(values.get(m.group(1)) or MStr.unknown(tok.location(m.start(), m.end())))
            pos = m.end()
        parts.append(tok.text[pos:])
        out.append(Token(MStr.join(parts, tok.text.where)))
    return out


def _facts(where: Span | None) -> FrameworkFacts:
    from linter.sglang.frameworks import llmaz

    row = llmaz()
    return FrameworkFacts("llmaz", row["program"], f"{row['repository']}@{row['commit'][:8]}", anchor=where)


def launches(docs: list[tuple[str, str, object]], source: SourceFile, result: Extraction) -> list[Launch]:
    """The launches of the llmaz objects among ``docs`` (``(apiVersion, kind, root node)`` of a file's
    documents): one per recommended config of each SGLang ``BackendRuntime``, then one per
    ``Playground`` on an SGLang runtime (of the file, or llmaz's own)."""
    runtimes, models, playgrounds = _objects(docs, source)
    out: list[Launch] = []
    for name, root in runtimes.items():
        out += _runtime_launches(name, root, source, result)
    for pname, root in playgrounds:
        out += _playground_launches(pname, root, runtimes, models, source, result)
    return out


def _objects(docs: list[tuple[str, str, object]], source: SourceFile) -> tuple[dict, dict, list]:
    """The llmaz objects of a file: ``BackendRuntime`` and ``OpenModel`` roots by name (a later one
    of the same name wins), and ``(name or "?", root)`` of each ``Playground``, in file order."""
    runtimes, models, playgrounds = {}, {}, []
    for api_version, kind, root in docs:
        group = api_version.rsplit("/", 1)[0]
        name = _str(_node(root, "metadata", "name"), source)
        if group == API_GROUP and kind == "BackendRuntime" and name is not None:
            runtimes[name.text] = root
        elif group == "llmaz.io" and kind == "OpenModel" and name is not None:
            models[name.text] = root
        elif group == API_GROUP and kind == "Playground":
            playgrounds.append((name.text if name is not None else "?", root))
    return runtimes, models, playgrounds


def _recognised(words: list[Token], image: MStr | None, span: Span, key: str, counts: list[GpuCount],
                where: Span | None, source: SourceFile, result: Extraction) -> list[Launch]:
    """The launches of one command (``words``) the shared recognition step finds, with the object's
    image, span, key, GPUs and llmaz's facts anchored at ``where``."""
    from linter.extract.recognized import launches as recognise

    return [Launch(source=source, program=f.program, span=span, args=f.args, key=key,
                   image=f.image if f.image is not None else image, gpu_decls=list(f.gpu_decls),
                   gpu_counts=counts, framework=_facts(where))
            for f in recognise(words, source, image=image, problems=result.problems)]


def _runtime_launches(name: str, root, source: SourceFile, result: Extraction) -> list[Launch]:
    """A ``BackendRuntime``'s launches: its command with each recommended config's arguments (no model:
    the template fields stay unknown)."""
    command = _words(_node(root, "spec", "command"), source)
    if not command:
        return []
    image = _image(_node(root, "spec", "image"), _node(root, "spec", "version"), source)
    out: list[Launch] = []
    for cfg in _seq(_node(root, "spec", "recommendedConfigs")):
        cname = _str(_node(cfg, "name"), source)
        args = _fill(_words(_node(cfg, "args"), source), {})
        out += _recognised(command + args, image, _span(cfg, source),
                           f"BackendRuntime/{name}:{cname.text if cname else '?'}", [], None, source, result)
    return out


def _playground_launches(pname: str, root, runtimes: dict, models: dict, source: SourceFile,
                         result: Extraction) -> list[Launch]:
    """A ``Playground``'s launch: its runtime's command and the picked config's arguments with the
    claimed model filled in, then the Playground's own ``args``, in the runtime's image (the
    Playground's ``version`` wins); [] when the runtime or its config is not known."""
    from linter.sglang.frameworks import llmaz

    row = llmaz()
    cfg_node = _node(root, "spec", "backendRuntimeConfig")
    backend_node = _node(cfg_node, "backendName")
    backend = _str(backend_node, source)
    backend_name = backend.text if backend is not None else row["default_backend"]
    where = _span(backend_node, source) if backend_node is not None else _span(root, source)
    config_name = _str(_node(cfg_node, "configName"), source)
    cname = config_name.text if config_name is not None else row["default_config"]
    runtime = _runtime(runtimes.get(backend_name), row["builtin"].get(backend_name), cname, where, source)
    if runtime is None:
        return []  # a runtime neither the file nor llmaz's chart defines: not known
    command, base, image_text, version_text = runtime
    if not command or base is None:
        return []
    version = _str(_node(cfg_node, "version"), source)
    image = MStr.join([image_text, MStr.plain(":", where), version or version_text]) \
        if image_text is not None and (version or version_text) is not None else image_text
    values, counts = _claimed_model(root, models, source)
    extra = _words(_node(cfg_node, "args"), source)
    span = hull([_span(root, source)])
    return _recognised(_fill(command + base, values) + extra, image, span, f"Playground/{pname}", counts, where,
                       source, result)


def _runtime(runtime, builtin: dict | None, cname: str, where: Span,
             source: SourceFile) -> tuple[list[Token], list[Token] | None, MStr | None, MStr | None] | None:
    """``(command, arguments of config cname or None, image, version)`` of the runtime a Playground
    names: the file's ``BackendRuntime`` (``runtime``), else llmaz's built-in one (``builtin``, its
    words located at ``where``: they have no place of their own); None when neither is known."""
    if runtime is not None:
        command = _words(_node(runtime, "spec", "command"), source)
        base = next((_words(_node(c, "args"), source) for c in _seq(_node(runtime, "spec", "recommendedConfigs"))
                     if (n := _str(_node(c, "name"), source)) is not None and n.text == cname), None)
        return (command, base, _str(_node(runtime, "spec", "image"), source),
                _str(_node(runtime, "spec", "version"), source))
    if builtin is not None:
        command = [Token(MStr.plain(w, where)) for w in builtin["command"]]
        base = [Token(MStr.plain(w, where)) for w in builtin["configs"][cname]] if cname in builtin["configs"] \
            else None
        return command, base, MStr.plain(builtin["image"], where), MStr.plain(builtin["version"], where)
    return None


def _claimed_model(root, models: dict, source: SourceFile) -> tuple[dict[str, MStr], list[GpuCount]]:
    """The template values (``ModelPath``: the model hub id, ``ModelName``) and one replica's GPUs of the
    ``OpenModel`` a Playground claims (``modelClaim.modelName``, else the first of
    ``modelClaims.models``); empty when the model is not in the file."""
    claimed = _str(_node(root, "spec", "modelClaim", "modelName"), source)
    if claimed is None:
        first = next(iter(_seq(_node(root, "spec", "modelClaims", "models"))), None)
        claimed = _str(_node(first, "name"), source) if first is not None else None
    model = models.get(claimed.text) if claimed is not None else None
    if model is None:
        return {}, []
    values: dict[str, MStr] = {}
    hub = _str(_node(model, "spec", "source", "modelHub", "modelID"), source)
    if hub is not None:
        values["ModelPath"] = hub
    values["ModelName"] = claimed
    return values, _flavor_gpus(model, source)


def _image(image_node, version_node, source: SourceFile) -> MStr | None:
    image, version = _str(image_node, source), _str(version_node, source)
    if image is None:
        return None
    if version is None:
        return image
    return MStr.join([image, MStr.plain(":", image.where), version])


def _flavor_gpus(model, source: SourceFile) -> list[GpuCount]:
    """The GPUs of one replica: the first flavor's ``limits`` (api/core/v1alpha1/model_types.go:103-110)."""
    from linter.gpus.kubernetes import gpu_count

    flavor = next(iter(_seq(_node(model, "spec", "inferenceConfig", "flavors"))), None)
    limits = _node(flavor, "limits") if flavor is not None else None
    out = []
    for k, v in yamltree.items(limits) if limits is not None and hasattr(limits, "value") and \
            isinstance(limits.value, list) else ():
        m = _str(v, source)
        if m is not None:
            got = gpu_count(str(k.value), m.text, m.span_of() or m.location())
            if got is not None:
                out.append(got)
    return out
