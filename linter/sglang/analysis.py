"""SGLang's verdict on one launch for each GPU it may run on, computed once per launch.

Two parts, both read by the rules and by ``--explain`` (nothing re-runs them):

* :class:`StartupAnalysis` — the deterministic start-up checks (errors A, B, C of
  :mod:`linter.sglang.decision`) on every declared target GPU, and — when the target or the model is
  unknown — on one GPU of each class SGLang tells apart and for each kind of architecture, to see
  whether the outcome depends on what is missing;
* :class:`Verdict` per GPU — the attention backends SGLang ends up with there
  (:func:`linter.sglang.gates.effective`) and the first hardware gate that fails
  (:func:`linter.sglang.gates.startup_gates`, then :func:`~linter.sglang.gates.load_gates`), in
  SGLang's order: a GPU that already fails a deterministic start-up check gets no gate.
"""

from __future__ import annotations

from dataclasses import dataclass

from linter.gpus.targets import Target
from linter.launch import UNKNOWN
from linter.sglang.decision import (
    HYPOTHETICAL,
    Hardware,
    Outcome,
    deterministic,
    evaluate,
    startup_checks_documented,
)
from linter.sglang.gates import Backends, GateFailure, effective, load_gates, model_gate, startup_gates
from linter.sglang.models import ModelInfo
from linter.sglang.options import OptionTable, ParsedArgs, Setting

_CANDIDATE_ARCHS = (("DeepseekV3ForCausalLM", False), ("DeepseekV32ForCausalLM", True), (None, False))
"""Architectures that stand for an unknown model: absorbed MLA, DSA, and anything else."""


PARSER_EXITS = frozenset({"ambiguous-option", "invalid-choice", "unexpected-value", "missing-value",
                          "missing-required", "unrecognized-argument"})
"""Problems on which SGLang's argparse exits before any start-up check runs (``unknown-option`` is left
out: it may only mean that the assumed release is not the one deployed, and SGL201 says so)."""


def parser_exits(parsed: ParsedArgs) -> bool:
    """True when SGLang's parser rejects the launch (:data:`PARSER_EXITS`): then nothing else runs, so
    no start-up check or gate is judged (the parser rules SGL202-SGL205 report it)."""
    return any(p.kind in PARSER_EXITS for p in parsed.problems)


def hardware_of(target: Target, cuda_build: tuple[int, int]) -> Hardware | None:
    """The :class:`Hardware` SGLang's predicates see for a declared target (None for an unknown GPU).

    Jetson Thor is sm_101 (major 10) under CUDA 12.8–12.9 and sm_110 from CUDA 13.0 (gpu-names.md §2,
    NVIDIA cuRANDDx/nvCOMPDx release notes)."""
    if target.gpu is None:
        return None
    major = target.gpu.cc[0] if target.gpu.cc else None
    if major == 11 and cuda_build < (13, 0):
        major = 10
    return Hardware(target.label, target.gpu.is_cuda, major, cuda_build)


@dataclass(frozen=True)
class StartupAnalysis:
    """Per-target outcomes of one deterministic launch.

    ``known`` pairs each known target with its outcome; ``uncertain`` lists the errors some unknown
    target or architecture would raise, as ``(outcome, what is unknown, hypothetical GPU class label or
    None)``; ``det`` is the setting that turned deterministic inference on.
    """

    det: Setting | None
    known: tuple[tuple[Target, Outcome], ...] = ()
    uncertain: tuple[tuple[Outcome, str, str | None], ...] = ()


@dataclass(frozen=True)
class Verdict:
    """SGLang's outcome on one GPU. ``target`` is None for a hypothetical GPU class (when the target is
    unknown); ``startup`` is the deterministic outcome (None when deterministic inference is off, or
    its outcome depends on something unknown); ``backends`` the attention backends SGLang runs (None
    when they depend on an unknown value); ``gate`` the first hardware gate that fails (or None)."""

    label: str
    hardware: Hardware
    target: Target | None
    startup: Outcome | None
    backends: Backends | None
    gate: GateFailure | None


def startup_analysis(parsed: ParsedArgs, table: OptionTable, model: ModelInfo, targets: list[Target],
                     cuda: tuple[int, int]) -> StartupAnalysis | None:
    """The deterministic start-up checks over the targets; None when deterministic inference is off
    (or that is unknown) or the model path skips SGLang's checks."""
    if not startup_checks_documented(table):
        return None  # a release whose start-up checks are not documented: its parser only
    if parser_exits(parsed):
        return None  # argparse exits first
    on, setting = deterministic(parsed)
    if on is not True or model.skip_checks:
        return None
    known: list[tuple[Target, Outcome]] = []
    uncertain: list[tuple[Outcome, str, str | None]] = []
    archs = [(model.architecture, model.dsa)] if model.architecture else list(_CANDIDATE_ARCHS)
    for target in targets:
        hw = hardware_of(target, cuda)
        if hw is None:
            continue
        if model.architecture and model_gate(parsed, table, model.architecture, model.dsa, hw):
            continue  # the model's own check stops SGLang before the deterministic ones
        outcomes = [evaluate(parsed, table, a, d, hw) for a, d in archs]
        if model.architecture:
            if outcomes[0] is not None:
                known.append((target, outcomes[0]))
        else:
            uncertain.extend((o, "the model's architecture", None) for o in outcomes if o is not None and o.error)
    if not targets or any(t.gpu is None for t in targets):
        what = "the target GPU" if model.architecture else "the target GPU and the model's architecture"
        for cls in HYPOTHETICAL:
            hw = Hardware(cls.label, cls.cuda, cls.major, cuda)
            for a, d in archs:
                if a and model_gate(parsed, table, a, d, hw):
                    continue
                o = evaluate(parsed, table, a, d, hw)
                if o is not None and o.error:
                    uncertain.append((o, what, hw.label))
    return StartupAnalysis(setting, tuple(known), tuple(uncertain))


def verdicts(parsed: ParsedArgs, table: OptionTable, model: ModelInfo, targets: list[Target],
             cuda: tuple[int, int], startup: StartupAnalysis | None) -> tuple[Verdict, ...]:
    """A :class:`Verdict` per known target, then — when a target is unknown or none is declared —
    one per hypothetical GPU class (labelled ``a SM90 GPU (if that were the target)``). None at all for
    a release whose start-up checks are not documented (:func:`~linter.sglang.decision.startup_checks_documented`)."""
    if not startup_checks_documented(table) or parser_exits(parsed):
        return ()
    on, _ = deterministic(parsed)
    by_target = {id(t): o for t, o in startup.known} if startup is not None else {}
    gpus: list[tuple[str, Hardware, Target | None]] = []
    for t in targets:
        hw = hardware_of(t, cuda)
        if hw is not None:
            gpus.append((t.name, hw, t))
    if not targets or any(t.gpu is None for t in targets):
        gpus += [(f"a {c.label} GPU (if that were the target)", Hardware(c.label, c.cuda, c.major, cuda), None)
                 for c in HYPOTHETICAL]
    out = []
    for label, hw, target in gpus:
        if model.skip_checks:
            out.append(Verdict(label, hw, target, None, None, None))
            continue
        first = model_gate(parsed, table, model.architecture, model.dsa, hw)
        if first is not None:  # before the deterministic checks (handle_model_specific_adjustments)
            out.append(Verdict(label, hw, target, None, None, first))
            continue
        if on is UNKNOWN:
            out.append(Verdict(label, hw, target, None, None, None))
            continue
        if target is not None:
            o = by_target.get(id(target))
        else:
            o = evaluate(parsed, table, model.architecture, model.dsa, hw) if on is True else None
        if on is True and o is None:
            out.append(Verdict(label, hw, target, None, None, None))  # depends on an unknown value
            continue
        if o is not None and o.error:
            out.append(Verdict(label, hw, target, o, None, None))
            continue
        b = effective(parsed, model.architecture, model.dsa, hw, o, table, model.mla)
        gate = None
        if b is not None:
            gate = startup_gates(parsed, table, b, hw) or load_gates(parsed, b, model.architecture, hw, model.mla)
        out.append(Verdict(label, hw, target, o, b, gate))
    return tuple(out)
