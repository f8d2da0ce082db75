"""Karpenter ``NodePool`` objects of the repository, and the one a pod's selectors pick.

A Karpenter NodePool (``apiVersion: karpenter.sh/v1``, ``kind: NodePool``; karpenter.sh docs,
"NodePools") launches nodes that satisfy ``spec.template.spec.requirements`` (node-selector
requirements, e.g. ``karpenter.k8s.aws/instance-gpu-name In [h100]`` or
``node.kubernetes.io/instance-type In [p5.48xlarge]``) and labels them with
``spec.template.metadata.labels`` and ``karpenter.sh/nodepool: NAME``. A pod lands on a NodePool's
nodes when its ``nodeSelector`` is satisfied by those labels and requirements.

For a pod whose own selectors name no GPU, the NodePools of the same repository that its
``nodeSelector`` picks — every key matched by a label, a single-value ``In`` requirement or the
pool's name — and whose requirements name one GPU (:func:`linter.gpus.kubernetes.candidates`) are
its weaker targets (``GpuDecl.weak``): the pool named by ``karpenter.sh/nodepool`` only, else every
pool the selector fits. A pod with no ``nodeSelector`` picks nothing (it could land anywhere).

The repository is the nearest folder above the pod's file holding ``.git`` (else the file's
folder); its YAML files are read once per run, at most :data:`MAX_FILES` of them, each only when it
mentions ``NodePool``.

Reading those files is a format's work (YAML documents, through :mod:`linter.extract.yamlstream`), so
this module sits with the formats; what a requirement's values say about GPUs is
:mod:`linter.gpus.kubernetes`.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from linter.extract import yamltree
from linter.extract.yamlstream import parse_documents
from linter.gpus import kubernetes as k8s_gpus
from linter.launch import GpuDecl
from linter.records import dataclass

MAX_FILES = 5000
"""YAML files looked at per repository for NodePools."""
MAX_BYTES = 512 * 1024
"""A file larger than this is not read for NodePools."""
_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "vendor"}


_is_map, _is_seq, _is_str = yamltree.is_map, yamltree.is_seq, yamltree.is_scalar
_text, _val = yamltree.scalar_text, yamltree.value_of


@dataclass
class NodePool:
    """One NodePool: its ``name``, the ``labels`` its nodes carry (key → value), and the GPUs its
    requirements allow (``decls``: one per GPU, at the requirement's value)."""

    name: str
    labels: dict
    decls: list[GpuDecl]


def repository_root(path: Path) -> Path:
    """The nearest folder above ``path`` (a file) that holds ``.git``, else the file's folder."""
    folder = path.parent
    for d in (folder, *folder.parents):
        if (d / ".git").exists():
            return d
    return folder


def _yaml_files(root: Path):
    count = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if name.lower().endswith((".yaml", ".yml")):
                count += 1
                if count > MAX_FILES:
                    return
                yield Path(dirpath) / name


def _pools_in(source) -> list[NodePool]:
    out = []
    for root in parse_documents(source, None):
        if not _is_map(root) or _text(_val(root, "kind")) != "NodePool" or \
                not (_text(_val(root, "apiVersion")) or "").startswith("karpenter.sh/"):
            continue
        name = _text(_val(_val(root, "metadata"), "name")) or ""
        template = _val(_val(root, "spec"), "template")
        labels = {"karpenter.sh/nodepool": name}
        meta_labels = _val(_val(template, "metadata"), "labels")
        if _is_map(meta_labels):
            for k, v in yamltree.items(meta_labels):
                if _is_str(v):
                    labels[str(k.value)] = str(v.value)
        reqs = []
        requirements = _val(_val(template, "spec"), "requirements")
        for e in (requirements.value if _is_seq(requirements) else []):
            key, op = _text(_val(e, "key")), _text(_val(e, "operator"))
            if key is None or op is None:
                continue
            values = []
            vals = _val(e, "values")
            for v in (vals.value if _is_seq(vals) else []):
                if _is_str(v):
                    m = yamltree.mstr(v, source)
                    values.append(k8s_gpus.Value(m.text, m.span_of() or m.location()))
            reqs.append(k8s_gpus.Requirement(key, op, values))
            if op == "In" and len(values) == 1:
                labels.setdefault(key, values[0].text)
        from linter.gpus.catalog import lookup

        decls = [d for d in (k8s_gpus.candidates(k8s_gpus.Scheduling(terms=[reqs])) if reqs else [])
                 if lookup(d.name) is not None]
        for d in decls:
            d.how = f"suggested by the Karpenter NodePool {name!r} the pod's nodeSelector picks ({d.how})"
            d.weak = True
        out.append(NodePool(name, labels, decls))
    return out


@functools.lru_cache(maxsize=8)
def _pools_of_root(root: str, ws_id: int, ws) -> tuple:
    out = []
    for path in _yaml_files(Path(root)):
        try:
            if path.stat().st_size > MAX_BYTES:
                continue
            with open(path, "rb") as fh:
                if b"NodePool" not in fh.read():
                    continue
        except OSError:
            continue
        source = ws.try_read(path)
        if source is not None:
            out.extend(_pools_in(source))
    return tuple(out)


def nodepools(ws, path: Path) -> tuple[NodePool, ...]:
    """The NodePools of the repository holding ``path`` (read once per workspace and repository)."""
    return _pools_of_root(str(repository_root(Path(path))), id(ws), ws)


def picked(ws, path: Path, node_selector: dict[str, str]) -> list[GpuDecl]:
    """The weaker targets of a pod whose ``nodeSelector`` (label key → value) is ``node_selector``
    (see the module docstring); [] when it picks no NodePool that names one GPU each."""
    if not node_selector:
        return []
    pools = nodepools(ws, path)
    if not pools:
        return []
    name = node_selector.get("karpenter.sh/nodepool")
    if name is not None:
        chosen = [p for p in pools if p.name == name]
    else:
        chosen = [p for p in pools if all(p.labels.get(k) == v for k, v in node_selector.items())]
    if not chosen or any(len({d.name for d in p.decls}) != 1 for p in chosen):
        return []
    out: list[GpuDecl] = []
    for p in chosen:
        out.extend(GpuDecl(d.name, d.span, d.how, weak=True) for d in p.decls[:1])
    return out


__all__ = ["NodePool", "MAX_FILES", "repository_root", "nodepools", "picked"]
