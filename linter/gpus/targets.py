"""The target GPUs of a launch, from the places DESIGN.md "Declaring the target GPU" lists.

The first source that names anything is used, and every GPU it names is checked:

1. ``--target-gpu`` on the command line (replaces everything below);
2. what the file declares: ``lint-configs: target-gpu=NAME[, NAME…]`` in any comment, together with
   the file's own declarations (``#SBATCH --gres=gpu:h100:8``, Modal ``gpu="H100:8"`` …);
3. the configuration's ``target-gpus`` for the file's path.

A name the catalog does not know is kept as a target whose ``gpu`` is None (unknown, reported as
SGL003 where it is declared).
"""

from __future__ import annotations

from dataclasses import dataclass

from linter.gpus.catalog import Gpu, lookup
from linter.launch import GpuDecl
from linter.sglang.decision import Hardware


@dataclass
class Target:
    """A declared target: the ``name`` as written, its ``decl`` and the catalog entry (None = unknown)."""

    name: str
    decl: GpuDecl
    gpu: Gpu | None

    def hardware(self, cuda_build: tuple[int, int]) -> Hardware | None:
        """The :class:`Hardware` SGLang would see, or None for an unknown GPU."""
        if self.gpu is None:
            return None
        major = self.gpu.cc[0] if self.gpu.cc else None
        if major == 11 and cuda_build < (13, 0):
            # Jetson Thor is sm_101 (major 10) under CUDA 12.8-12.9 and sm_110 from CUDA 13.0
            # (gpu-names.md §2, NVIDIA cuRANDDx/nvCOMPDx release notes).
            major = 10
        return Hardware(self.label, self.gpu.is_cuda, major, cuda_build)

    @property
    def label(self) -> str:
        if self.gpu is None:
            return f"{self.name} (unknown GPU)"
        return f"{self.name} ({self.gpu.sm})"

    def describe(self) -> str:
        """``H100 (SM90), declared by the lint-configs directive at line 1``."""
        where = self.decl.how
        if self.decl.span is not None:
            where += f" at {self.decl.span.source.display}:{self.decl.span.line}"
        return f"{self.label}, {where}"


def make_targets(decls: list[GpuDecl]) -> list[Target]:
    """Look every declared name up in the catalog (duplicates by name and place are dropped)."""
    seen = set()
    out = []
    for d in decls:
        key = (d.name.strip().lower(), d.span.key() if d.span else None)
        if key in seen:
            continue
        seen.add(key)
        out.append(Target(d.name.strip(), d, lookup(d.name)))
    return out


def choose(cli: list[GpuDecl], file_decls: list[GpuDecl], config: list[GpuDecl]) -> tuple[list[Target], str]:
    """The targets of a launch and which source they came from (``command line``, ``file``,
    ``configuration`` or ``""`` when nothing is declared)."""
    for decls, origin in ((cli, "command line"), (file_decls, "file"), (config, "configuration")):
        if decls:
            return make_targets(decls), origin
    return [], ""
