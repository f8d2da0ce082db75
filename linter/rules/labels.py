"""What a finding rests on, as secondary spans for :attr:`Diagnostic.labels` — shared by the
deterministic start-up rules and the gate rules (rules do not import one another)."""

from __future__ import annotations

from linter.gpus.targets import Target
from linter.rules.base import LaunchContext
from linter.sglang.options import Setting
from linter.source import Span


def labels(ctx: LaunchContext, det: Setting | None = None, targets: list[Target] | tuple = (),
           model: bool = True) -> list[tuple[Span | None, str]]:
    """``(span, label)`` for where the model is given (``model: DeepseekV3ForCausalLM``), the option
    that turned deterministic inference on (``det``) and where each of ``targets`` is declared
    (``target H100 (SM90)``). Spans may be None (a value with no place in a file, a target from the
    command line); :meth:`Rule.diagnostic` drops those."""
    out: list[tuple[Span | None, str]] = []
    if model and ctx.model.span is not None:
        arch = ctx.model.architecture
        out.append((ctx.model.span, f"model: {arch}" if arch else "model: architecture not known"))
    if det is not None:
        out.append((det.option_location(), "turns on deterministic inference"))
    for t in targets:
        out.append((t.decl.span, f"target {t.label}"))
    return out
