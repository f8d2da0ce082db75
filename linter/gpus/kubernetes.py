"""Target GPUs and GPU counts from a Kubernetes pod spec's scheduling fields.

Kubernetes schedules a pod on a node whose labels satisfy both ``nodeSelector`` (every key equal) and
the required node affinity ``requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms``: the
terms are ORed, the ``matchExpressions`` of one term are ANDed (Kubernetes API reference, "Node
affinity", NodeSelectorTerm / NodeSelectorRequirement; kubernetes.io/docs/concepts/scheduling-eviction/
assign-pod-node). This module evaluates that logic over the node labels that name a GPU
(``reference/gpu-names.md`` §6): ``In`` and equality give candidates, ``NotIn`` removes them, and the
result is the set of GPUs the pod can land on. ``preferredDuringScheduling…`` affinity and tolerations
only rank or permit nodes: they are hints, never targets. ``Exists``/``DoesNotExist``/``Gt``/``Lt`` and
labels that do not name one GPU (``nvidia.com/gpu.family``, ``nvidia.com/gpu.compute.major``) constrain
nothing here.

Candidates are compared by the catalog GPU they name (``linter.gpus.catalog.lookup``), so
``nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3`` and ``node.kubernetes.io/instance-type: p5.48xlarge``
agree on one H100. The functions take plain values and spans, not YAML, so any format that carries a
pod spec (Kubernetes, Helm, KubeRay …) can use them.
"""

from __future__ import annotations

from linter.gpus.catalog import lookup, normalise
from linter.launch import UNKNOWN_CHAR, GpuCount, GpuDecl
from linter.records import dataclass, field
from linter.source import Span

GPU_LABELS: dict[str, str] = {
    "nvidia.com/gpu.product": "GPU Feature Discovery product label",
    "cloud.google.com/gke-accelerator": "GKE accelerator label",
    "karpenter.k8s.aws/instance-gpu-name": "Karpenter GPU-name label",
    "eks.amazonaws.com/instance-gpu-name": "EKS Auto Mode GPU-name label",
    "k8s.amazonaws.com/accelerator": "EKS accelerator label",
    "karpenter.azure.com/sku-gpu-name": "Karpenter (Azure) GPU-name label",
    "gpu.nvidia.com/class": "CoreWeave GPU class label",
    "gpu.nvidia.com/model": "CoreWeave GPU model label",
    "nebius.com/gpu-name": "Nebius GPU-name label",
    "skypilot.co/accelerator": "SkyPilot accelerator label",
    "amd.com/gpu.product-name": "AMD GPU product label",
}
"""Node labels whose value names a GPU (gpu-names.md §6, "Kubernetes Pod / Deployment / StatefulSet"):
an unknown value is reported (SGL003)."""

INSTANCE_LABELS: dict[str, str] = {
    "node.kubernetes.io/instance-type": "instance-type label",
    "beta.kubernetes.io/instance-type": "instance-type label (beta)",
    "nvidia.com/gpu.machine": "GPU Feature Discovery machine label",
}
"""Node labels whose value is a machine or instance type: a candidate only when the catalog reads a GPU
from it (``m5.large`` has none and is not an unknown GPU)."""

GPU_RESOURCES = ("nvidia.com/gpu", "amd.com/gpu")
"""Extended resources that count whole GPUs (NVIDIA device plugin, AMD device plugin)."""


@dataclass
class Value:
    """A label value as written: ``text`` and where (``span`` None for made-up text)."""

    text: str
    span: Span | None = None


@dataclass
class Requirement:
    """One ``matchExpressions`` entry: ``key``, ``operator`` (``In``, ``NotIn``, ``Exists`` …), ``values``."""

    key: str
    operator: str
    values: list[Value] = field(default_factory=list)


@dataclass
class Scheduling:
    """A pod spec's scheduling fields: ``node_selector`` (label key → value) and the required node
    affinity's ``terms`` (a list of terms, each a list of requirements), or ``terms`` None when there
    is no required node affinity."""

    node_selector: dict[str, Value] = field(default_factory=dict)
    terms: list[list[Requirement]] | None = None


_ANY = None  # "no GPU constraint": the pod may land on any node


def _candidate(key: str, value: Value) -> tuple[str, GpuDecl] | None:
    """(catalog key, declaration) for one label value, or None when the label says nothing of a GPU."""
    text = value.text.strip()
    if not text or UNKNOWN_CHAR in text:
        return None
    if key in GPU_LABELS:
        how = f"declared by the {GPU_LABELS[key]} {key}"
    elif key in INSTANCE_LABELS:
        if lookup(text) is None:
            return None
        how = f"declared by the {INSTANCE_LABELS[key]} {key}"
    else:
        return None
    gpu = lookup(text)
    ident = gpu.canonical if gpu is not None else "?" + normalise(text)
    return ident, GpuDecl(text, value.span, how)


def _constrains(key: str) -> bool:
    return key in GPU_LABELS or key in INSTANCE_LABELS


def _intersect(a: dict | None, b: dict | None) -> dict | None:
    if a is _ANY:
        return b
    if b is _ANY:
        return a
    return {k: v for k, v in a.items() if k in b}


def _term(reqs: list[Requirement]) -> dict | None:
    """The GPUs a pod may land on under one term (``None`` = no GPU constraint)."""
    allowed: dict | None = _ANY
    removed: set[str] = set()
    for req in reqs:
        if not _constrains(req.key):
            continue
        if req.operator == "In":
            found: dict = {}
            for v in req.values:
                got = _candidate(req.key, v)
                if got is not None:
                    found.setdefault(got[0], got[1])
            if req.key in INSTANCE_LABELS and not found:
                continue  # instance types with no GPU the catalog knows: no GPU constraint read
            allowed = _intersect(allowed, found)
        elif req.operator == "NotIn":
            for v in req.values:
                got = _candidate(req.key, v)
                if got is not None:
                    removed.add(got[0])
    if allowed is not _ANY:
        allowed = {k: v for k, v in allowed.items() if k not in removed}
    return allowed


def candidates(scheduling: Scheduling) -> list[GpuDecl]:
    """The target GPUs a pod spec's scheduling declares, each at the label value that names it.

    Empty when nothing constrains the GPU (no GPU label, only ``NotIn``, only a count) and when the
    constraints exclude each other (the pod could not be scheduled; nothing is guessed)."""
    allowed: dict | None = _ANY
    for key, value in scheduling.node_selector.items():
        if not _constrains(key):
            continue
        got = _candidate(key, value)
        if got is None:
            continue
        allowed = _intersect(allowed, {got[0]: got[1]})
    if scheduling.terms:
        union: dict | None = {}
        for reqs in scheduling.terms:
            t = _term(reqs)
            if t is _ANY:
                union = _ANY
                break
            for k, v in t.items():
                union.setdefault(k, v)
        allowed = _intersect(allowed, union)
    if allowed is _ANY:
        return []
    return list(allowed.values())


def gpu_count(resource: str, value: str, span: Span | None) -> GpuCount | None:
    """The :class:`GpuCount` of one ``resources.limits`` entry, or None for a resource that is not a
    GPU. ``value`` is the quantity as written (``8``, ``"8"``)."""
    if resource not in GPU_RESOURCES and resource != "gpu" and not resource.startswith("nvidia.com/mig-"):
        return None
    text = value.strip()
    count = int(text) if text.isdigit() else None
    return GpuCount(resource, count, span, f"the container's resources {resource}")


__all__ = ["GPU_LABELS", "INSTANCE_LABELS", "GPU_RESOURCES", "Value", "Requirement", "Scheduling", "GpuCount",
           "candidates", "gpu_count"]
