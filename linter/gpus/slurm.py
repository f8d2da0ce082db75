"""GPU types named by Slurm options: ``--gres``, ``--gpus``/``-G``/``--gpus-per-*``, ``--tres-per-*``
and ``--constraint``/``-C`` (Slurm sbatch(1)/srun(1), slurm.schedmd.com; gpu-names.md §Slurm).

A bare count (``--gres=gpu:8``) declares nothing; a constraint feature counts only when the GPU
catalog knows it (``h100|h200`` gives two candidates).
"""

from __future__ import annotations

from linter.launch import UNKNOWN_CHAR, GpuDecl, Token

GPU_OPTIONS = frozenset({"--gres", "--tres-per-task", "--tres-per-node", "--gpus", "-G", "--gpus-per-node",
                         "--gpus-per-task", "--gpus-per-socket", "--constraint", "-C"})
"""The Slurm options that can name a GPU type."""


def gpu_decls(name: str, value: Token, how: str) -> list[GpuDecl]:
    """GPU types named by one Slurm option ``name`` with ``value`` (``--gres gpu:h100:8`` → ``h100``),
    each located at its characters in the file; ``how`` names the program (``#SBATCH``, ``srun``)."""
    raw = value.raw
    out: list[GpuDecl] = []
    what = f"{how} {name}"

    def add(start: int, end: int) -> None:
        text = raw[start:end]
        if not text or text.isdigit() or UNKNOWN_CHAR in text:
            return
        out.append(GpuDecl(text, value.span_of(start, end) or value.location(start, end), f"declared by {what}"))

    if name in ("--gres", "--tres-per-task", "--tres-per-node"):
        pos = 0
        for item in raw.split(","):
            start = pos
            pos += len(item) + 1
            body = item
            off = start
            if body.startswith(("gres/", "gres:")):
                body, off = body[5:], off + 5
            if not (body == "gpu" or body.startswith("gpu:")):
                continue
            parts = body.split(":")
            if len(parts) >= 3 or (len(parts) == 2 and not parts[1].isdigit()):
                add(off + 4, off + 4 + len(parts[1]))
    elif name in ("--gpus", "-G", "--gpus-per-node", "--gpus-per-task", "--gpus-per-socket"):
        pos = 0
        for item in raw.split(","):
            start = pos
            pos += len(item) + 1
            parts = item.split(":")
            if len(parts) >= 2 or (parts and not parts[0].isdigit()):
                add(start, start + len(parts[0]))
    elif name in ("--constraint", "-C"):
        from linter.gpus.catalog import lookup

        k = 0
        n = len(raw)
        while k < n:
            if raw[k] in "|&,[]()! ":
                k += 1
                continue
            m = k
            while m < n and raw[m] not in "|&,[]()! *":
                m += 1
            feature = raw[k:m]
            if feature and UNKNOWN_CHAR not in feature and lookup(feature) is not None:
                add(k, m)
            if m < n and raw[m] == "*":  # h100*2: a count of nodes with the feature
                m += 1
                while m < n and raw[m].isdigit():
                    m += 1
            k = m
    return out
