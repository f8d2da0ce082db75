"""The target GPUs of a launch, from the places DESIGN.md "Declaring the target GPU" lists.

The first source that names anything is used, and every GPU it names is checked:

1. ``--target-gpu`` on the command line (replaces everything below);
2. what the file declares: ``lint-configs: target-gpu=NAME[, NAME…]`` in any comment, together with
   the file's own declarations (``#SBATCH --gres=gpu:h100:8``, Modal ``gpu="H100:8"`` …);
3. the configuration's ``target-gpus`` for the file's path.

A name the catalog does not know is kept as a target whose ``gpu`` is None (unknown, reported as
SGL003 where it is declared). What SGLang sees of a target (its SM predicates) is SGLang knowledge:
:func:`linter.sglang.analysis.hardware_of`.
"""

from __future__ import annotations

from linter.gpus.catalog import Gpu, lookup
from linter.launch import GpuDecl
from linter.records import dataclass


@dataclass
class Target:
    """A declared target: the ``name`` as written, its ``decl`` and the catalog entry (None = unknown)."""

    name: str
    decl: GpuDecl
    gpu: Gpu | None

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
