"""The ConfigMaps a Kubernetes manifest's pods may mount, as its folder and kustomize make them.

A ConfigMap is read from the manifest itself, the YAML files of its folder, the ``configMapGenerator``
of the folder's ``kustomization.yaml`` (each ``files`` item ``path`` or ``key=path``, relative to that
kustomization, and each ``literals`` item ``KEY=VALUE``; kustomize ``api/types/kustomization.go``
``ConfigMapArgs``/``GeneratorArgs`` ``FileSources``/``LiteralSources`` in kustomize v5), and the files
and folders that kustomization's ``resources``/``bases``/``components`` name (their own kustomizations followed too). When the ConfigMap a pod needs is still not found, the
kustomizations that name the manifest's folder or file — an overlay (``overlays/h100`` with
``resources: [../../base]``) whose generator makes the ConfigMap the base mounts — are looked for
near it: under the folder's parent and grandparent, at most :data:`MAX_OVERLAY_SEARCH` folders
deep :data:`MAX_OVERLAY_DEPTH`. Overlays that generate one key with different files leave it unknown.

A reference outside the run's root (``../../../shared``, an absolute path, a link out) is never read:
SGL005 at the reference (:mod:`linter.boundary`). A remote URL is not followed.
"""

from __future__ import annotations

import os
from pathlib import Path

from linter.boundary import referenced_at
from linter.extract import yamltree
from linter.extract.yamlstream import parse_documents
from linter.launch import MStr
from linter.records import dataclass, field
from linter.source import SourceFile, Span
from linter.workspace import Workspace, listing

MAX_KUSTOMIZE_FOLDERS = 32
"""Folders a kustomization's ``resources``/``bases``/``components`` lead to that are read for ConfigMaps."""

MAX_OVERLAY_SEARCH = 64
"""Folders listed while looking for the kustomizations that name a manifest's folder (overlays)."""

MAX_OVERLAY_DEPTH = 3
"""How far below the manifest folder's parent or grandparent an overlay is looked for."""

KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
"""The names kustomize reads a kustomization from, in its order (kustomize ``konfig/general.go``)."""


@dataclass
class ConfigMaps:
    """ConfigMaps of the file and its folder: name -> (key -> value MStr), and the files they are in."""

    data: dict[str, dict[str, MStr]] = field(default_factory=dict)
    files: dict[str, SourceFile] = field(default_factory=dict)
    folder_read: bool = False
    """The YAML files of the folder and its kustomization's generators are read (:func:`folder_configmaps`)."""
    overlays_read: bool = False
    """The overlays that name the folder are read (:func:`overlay_configmaps`)."""
    generated: dict[str, dict[str, SourceFile | MStr | None]] = field(default_factory=dict)
    """``configMapGenerator`` ConfigMaps: name -> (key -> the file of a ``files`` item, the value of a
    ``literals`` item; None when overlays disagree on it)."""


def collect_configmaps(roots, source: SourceFile, into: ConfigMaps, overwrite: bool) -> None:
    """The ``kind: ConfigMap`` objects among ``roots`` (YAML documents of ``source``) into ``into``;
    ``overwrite``: one already known by that name is replaced (the manifest's own win)."""
    for root in roots:
        if not yamltree.is_map(root) or yamltree.scalar_text(yamltree.value_of(root, "kind")) != "ConfigMap":
            continue
        name = yamltree.scalar_text(yamltree.value_of(yamltree.value_of(root, "metadata"), "name"))
        data = yamltree.value_of(root, "data")
        if name is None or (name in into.data and not overwrite):
            continue
        values = {}
        if yamltree.is_map(data):
            for k, v in yamltree.items(data):
                if yamltree.is_scalar(v) and yamltree.is_scalar(k):
                    values[str(k.value)] = yamltree.mstr(v, source)
        into.data[name] = values
        into.files[name] = source


def folder_configmaps(source: SourceFile, ws: Workspace, into: ConfigMaps) -> None:
    """Read the ConfigMaps beside ``source``: the YAML files of its folder and its kustomization's
    generators, then the files and folders that kustomization's ``resources``/``bases``/``components``
    name in other folders of the run's root (their own kustomizations followed too, at most
    :data:`MAX_KUSTOMIZE_FOLDERS` folders)."""
    if into.folder_read:
        return
    into.folder_read = True
    _read_tree(Path(source.path).parent, source, ws, into)


def _read_tree(folder: Path, source: SourceFile, ws: Workspace, into: ConfigMaps) -> None:
    queue, seen = [folder], {folder}
    while queue:
        here = queue.pop(0)
        try:
            names = [p for p in (here / n for n in listing("d", here))
                     if p.suffix.lower() in (".yaml", ".yml") and p != source.path]
        except OSError:
            continue
        for path in names[:200]:
            _configmaps_of_file(path, ws, into)
        for entry, span in _kustomization(here, ws, into):
            target = here / entry
            with referenced_at(span):
                if ws.refuse(target):  # outside the root: SGL005 at the reference, never looked at
                    continue
            if target.suffix.lower() in (".yaml", ".yml"):
                _configmaps_of_file(target, ws, into)
            elif target not in seen and len(seen) < MAX_KUSTOMIZE_FOLDERS:
                seen.add(target)
                queue.append(target)


def _configmaps_of_file(path: Path, ws: Workspace, into: ConfigMaps) -> None:
    other = ws.try_read(path)
    if other is not None and "ConfigMap" in other.text:
        collect_configmaps(parse_documents(other, None), other, into, overwrite=False)


def _read_kustomization(folder: Path, ws: Workspace):
    """(the source, its first YAML document) of the folder's kustomization, or None."""
    for name in KUSTOMIZATION_NAMES:
        text_source = ws.try_read(folder / name, quiet=True)
        if text_source is not None:
            return text_source, next(iter(parse_documents(text_source, None)), None)
    return None


def _refs(source: SourceFile, doc) -> list[tuple[str, Span]]:
    """The local paths a kustomization's ``resources``, ``bases`` and ``components`` name (relative to
    its folder; a remote URL is left out), each with the span of its item."""
    refs = []
    for field_name in ("resources", "bases", "components"):
        items = yamltree.value_of(doc, field_name)
        for item in (items.value if yamltree.is_seq(items) else []):
            ref = yamltree.scalar_text(item)
            if ref and "://" not in ref and not ref.startswith(("github.com/", "git@")):
                refs.append((ref, _span(source, item)))
    return refs


def _span(source: SourceFile, node) -> Span:
    return Span(source, node.start_mark.index, node.end_mark.index)


def _kustomization(folder: Path, ws: Workspace, into: ConfigMaps) -> list[tuple[str, Span]]:
    """The ``configMapGenerator`` entries of the folder's kustomization into ``into.generated``: each
    ``files`` item (``path`` or ``key=path``, relative to that folder) is a key whose value is the
    file's text. The name is the one resources refer to (kustomize adds a hash suffix and rewrites
    the references). Returns its references (:func:`_refs`)."""
    got = _read_kustomization(folder, ws)
    if got is None:
        return []
    text_source, doc = got
    refs = _refs(text_source, doc)
    if "configMapGenerator" not in text_source.text:
        return refs
    gens = yamltree.value_of(doc, "configMapGenerator")
    for gen in (gens.value if yamltree.is_seq(gens) else []):
        cm, files = yamltree.scalar_text(yamltree.value_of(gen, "name")), yamltree.value_of(gen, "files")
        if cm:
            _literals(yamltree.value_of(gen, "literals"), text_source, into.generated.setdefault(cm, {}))
        if not cm or not yamltree.is_seq(files):
            continue
        keys = into.generated.setdefault(cm, {})
        for item in files.value:
            spec = yamltree.scalar_text(item) or ""
            key, _, rel = spec.rpartition("=") if "=" in spec else (spec.rsplit("/", 1)[-1], "", spec)
            if not rel:
                continue
            path = folder / rel
            with referenced_at(_span(text_source, item)):
                if ws.refuse(path):  # outside the root: SGL005 at the item, never read
                    continue
            found = ws.try_read(path, quiet=True)
            if found is not None:
                keys[key] = found
    return refs


def _literals(node, source: SourceFile, keys: dict) -> None:
    """A generator's ``literals`` (``KEY=VALUE`` each; kustomize ``api/kv`` ``parseLiteralSource``:
    split at the first ``=``) into ``keys``, each value located in the kustomization. A value that
    starts or ends with a quote is left out (unknown): kustomize releases strip such quotes
    differently (``strings.Trim`` of both kinds before v4, matching pairs only after)."""
    for item in (node.value if yamltree.is_seq(node) else []):
        spec = yamltree.scalar_text(item) or ""
        key, eq, _ = spec.partition("=")
        if not key or not eq:
            continue
        value = yamltree.mstr(item, source)[len(key) + 1:]
        if value.text[:1] in ("'", '"') or value.text[-1:] in ("'", '"'):
            continue
        keys[key] = value


def overlay_configmaps(source: SourceFile, ws: Workspace, into: ConfigMaps) -> None:
    """Read the ConfigMaps of the kustomizations that name ``source``'s folder or ``source`` in their
    ``resources``/``bases``/``components`` (overlays), as :func:`folder_configmaps` reads a folder's:
    once, after the folder itself. A generated key two overlays give different files is None (not
    known which one the pod gets); a ConfigMap already known is kept."""
    if into.overlays_read:
        return
    into.overlays_read = True
    folder = Path(source.path).parent
    found: list[ConfigMaps] = []
    for overlay in _overlays(folder, Path(source.path), ws):
        mine = ConfigMaps(folder_read=True)
        _read_tree(overlay, source, ws, mine)
        found.append(mine)
    for mine in found:
        for name, values in mine.data.items():
            if name not in into.data:
                into.data[name], into.files[name] = values, mine.files[name]
    known = set(into.generated)
    for mine in found:
        for name, keys in mine.generated.items():
            if name in known:
                continue
            into_keys = into.generated.setdefault(name, {})
            for key, file in keys.items():
                if key in into_keys and (into_keys[key] is None or into_keys[key].text != file.text):
                    into_keys[key] = None  # overlays disagree on it
                else:
                    into_keys.setdefault(key, file)


def _overlays(folder: Path, manifest: Path, ws: Workspace) -> list[Path]:
    """The folders near ``folder`` whose kustomization names ``folder`` or ``manifest``: below its
    parent and grandparent (inside the root), :data:`MAX_OVERLAY_DEPTH` deep, at most
    :data:`MAX_OVERLAY_SEARCH` folders listed, hidden folders skipped; in the order found."""
    wanted = {os.path.normpath(folder), os.path.normpath(manifest)}
    starts = [p for p in (folder.parent, folder.parent.parent) if p != folder and ws.may_read(p)]
    out: list[Path] = []
    listed: set = set()
    for start in starts:
        queue = [(start, 0)]
        while queue and len(listed) < MAX_OVERLAY_SEARCH:
            here, depth = queue.pop(0)
            if here in listed:
                continue
            listed.add(here)
            try:
                names = listing("d", here)
            except OSError:
                continue
            if here != folder and here not in out and any(n in names for n in KUSTOMIZATION_NAMES):
                got = _read_kustomization(here, ws)
                if got is not None and any(os.path.normpath(here / ref) in wanted for ref, _ in _refs(*got)):
                    out.append(here)
            if depth < MAX_OVERLAY_DEPTH:
                # (a folder named in the listing noted above; outside the root never looked at)
                queue.extend((here / n, depth + 1) for n in names
                             if not n.startswith(".") and ws.may_read(here / n) and os.path.isdir(here / n))
    return out
