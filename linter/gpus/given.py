"""What hardware a launch is given: GPUs per node, nodes, and the memory of each GPU.

Every count a deployment declares (:class:`~linter.launch.GpuCount`, read by the formats through
:mod:`linter.gpus.counts`) is an upper bound on what the launch's process can see — a container
gets no more GPUs than its resource request, CUDA enumerates no more than ``CUDA_VISIBLE_DEVICES``
lists — so the GPUs per node are the smallest of the known counts. A count of ``all``, a variable or
an expression is unknown and bounds nothing; no count at all means unknown, never guessed.
``NVIDIA_VISIBLE_DEVICES=all`` set in the container itself can show it every GPU of the host
(:mod:`linter.gpus.counts`): the container-runtime counts then bound nothing.

The memory of each target GPU (:func:`linter.gpus.catalog.memory_of`: a name that does not say which
variant takes the larger, so a claim that weights cannot fit holds on every variant it may be) is
kept per target — a launch meant for several GPUs (a node affinity ``In [H100, H200]``, a SkyPilot
set) may land on any of them, so each is judged, as the backend rules judge each — and ``memory`` is
the largest of them; with an unknown target, or a MIG slice, it is unknown.
"""

from __future__ import annotations

import re

from linter.gpus.catalog import Memory, memory_of
from linter.gpus.targets import Target
from linter.launch import GpuCount
from linter.records import dataclass

_CONTAINER_RESOURCES = ("nvidia.com/gpu", "amd.com/gpu", "gpu", "--gpus")
_NAME_COUNT = re.compile(r"^(.*\S)\s*:\s*(\d+)\s*$")


@dataclass(frozen=True)
class Given:
    """The hardware a launch is given.

    ``count`` is the GPUs each node (pod, container) of the launch can see — the smallest known
    upper bound — and ``count_from`` the declaration that sets it (None for both when unknown);
    ``counts`` every count declaration read, ``nodes``/``nodes_from`` the nodes of its group (None
    when unknown); ``memory`` the memory of each GPU (None when unknown; ``memory_target`` the
    target it is the memory of, ``memory_note`` why it is unknown) — the largest of ``memories``, the
    ``(target, memory)`` of every target whose memory the catalog holds; ``weak`` is True when a target
    comes from a weaker declaration (an image tag, a Karpenter NodePool, documentation context);
    ``mig`` when the container asks for MIG slices (each device is a slice: its memory is not the GPU's).
    """

    count: int | None = None
    count_from: GpuCount | None = None
    counts: tuple[GpuCount, ...] = ()
    nodes: int | None = None
    nodes_from: GpuCount | None = None
    memory: Memory | None = None
    memory_target: Target | None = None
    memory_note: str = ""
    weak: bool = False
    mig: bool = False
    memories: tuple[tuple[Target, Memory], ...] = ()

    def where(self, count: GpuCount | None) -> str:
        """``'nvidia.com/gpu: 4 (the container's resources nvidia.com/gpu at deploy.yaml:12)'``."""
        if count is None:
            return ""
        at = f" at {count.span.source.display}:{count.span.line}" if count.span is not None else ""
        return f"{count.how or count.resource}{at}"


def _decl_counts(targets: list[Target]) -> list[GpuCount]:
    """Counts the chosen target declarations carry: Modal ``gpu="H100:8"`` (``GpuDecl.count``), a
    directive or ``--target-gpu`` written ``NAME:N``. A set of candidates gives the most of them."""
    found: list[tuple[int, Target]] = []
    for t in targets:
        n = t.decl.count
        if n is None:
            m = _NAME_COUNT.match(t.decl.name)
            if m is None:
                return []  # a candidate without a count: the node may have any number
            n = int(m.group(2))
        found.append((n, t))
    if not found:
        return []
    n, t = max(found, key=lambda x: x[0])
    return [GpuCount("count", n, t.decl.span, f"{t.decl.how} ({t.decl.name})")]


def given(launch_counts: list[GpuCount], file_counts: list[GpuCount], targets: list[Target]) -> Given:
    """What a launch is given, from its own count declarations (``launch_counts``), its file's
    (``file_counts``: ``#SBATCH``, SkyPilot, dstack …) and its targets (see the module docstring)."""
    counts = list(launch_counts) + list(file_counts) + _decl_counts(targets)
    mig = any(c.resource.startswith("nvidia.com/mig-") for c in counts)
    nodes_c = [c for c in counts if c.per == "nodes" and c.count is not None]
    nodes_from = min(nodes_c, key=lambda c: c.count) if nodes_c else None
    bounds = _bounds(counts)
    count_from = min(bounds, key=lambda c: c.count) if bounds else None
    memory, memory_target, note, memories = _memory(targets, mig)
    weak = any(t.decl.weak for t in targets)
    return Given(count_from.count if count_from is not None else None, count_from, tuple(counts),
                 nodes_from.count if nodes_from is not None else None, nodes_from, memory, memory_target, note,
                 weak, mig, tuple(memories))


def _bounds(counts: list[GpuCount]) -> list[GpuCount]:
    """The counts that bound the GPUs of one node: known, not a node count, and not a container
    runtime's when ``NVIDIA_VISIBLE_DEVICES=all`` widens what the container sees. A total over the
    job bounds a node too (a node has at most all of them)."""
    widened = any(c.widens for c in counts)
    return [c for c in counts
            if c.count is not None and c.per != "nodes"
            and not (widened and (c.resource in _CONTAINER_RESOURCES or c.resource.startswith(("deploy.", "gpus"))))]


def _memory(targets: list[Target], mig: bool) -> tuple[Memory | None, Target | None, str, list]:
    """(memory, the target it is of, why it is unknown, every (target, memory) the catalog holds)."""
    memory = None
    memory_target = None
    note = ""
    if mig:
        note = "the container asks for MIG slices: each device is a slice of a GPU, with the slice's memory"
    elif not targets:
        note = "no target GPU is declared"
    elif any(t.gpu is None for t in targets):
        note = "a target GPU is not in the catalog"
    memories: list[tuple[Target, Memory]] = []
    if not mig:
        for t in targets:
            m = memory_of(t.name) or (memory_of(t.gpu.canonical) if t.gpu is not None else None)
            if m is not None:
                memories.append((t, m))
    if mig or not targets or any(t.gpu is None for t in targets):
        pass
    elif len(memories) < len(targets):
        unknown = next(t for t in targets if all(t is not k for k, _ in memories))
        note = f"the memory of {unknown.name} is not in the catalog"
    else:
        memory_target, memory = max(memories, key=lambda tm: tm[1].mib)
    return memory, memory_target, note, memories


__all__ = ["Given", "given"]
