"""SGLang's verdict on one launch for each GPU it may run on, computed once per launch.

Two parts, both read by the rules and by ``--explain`` (nothing re-runs them):

* :class:`StartupAnalysis` — the deterministic start-up checks (errors A, B, C of
  :mod:`linter.sglang.decision`) on every declared target GPU, and — when the target or the model is
  unknown — on one GPU of each class SGLang tells apart and for each kind of architecture, to see
  whether the outcome depends on what is missing;
* :class:`Verdict` per GPU — the attention backends SGLang ends up with there
  (:func:`linter.sglang.gates.effective`), the first hardware gate that fails in SGLang's order
  (``gate``: backend gates, option gates, then :func:`~linter.sglang.gates.load_gates`), and every
  failure independent of the others (``gates``: each option gate, and the first backend gate or the
  load-time assert when the deterministic checks pass).

An option whose value argparse rejects (``ParsedArgs.rejected``) is judged by the parser alone:
SGLang stops there, so no check here reads it.
"""

from __future__ import annotations

from linter.gpus.targets import Target
from linter.launch import UNKNOWN
from linter.records import dataclass
from linter.sglang.decision import (
    DECISION_DESTS,
    HYPOTHETICAL,
    Hardware,
    Outcome,
    deterministic,
    evaluate,
    model_kv_cache_dtype,
    startup_checks_documented,
)
from linter.sglang.gates import (
    Backends,
    GateFailure,
    backend_gates,
    effective,
    load_gates,
    model_gate,
    option_gates,
)
from linter.sglang.models import ModelInfo
from linter.sglang.options import OptionTable, ParsedArgs, Setting

_CANDIDATE_ARCHS = (("DeepseekV3ForCausalLM", False), ("DeepseekV32ForCausalLM", True), (None, False))
"""Architectures that stand for an unknown model: absorbed MLA, DSA, and anything else."""


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

    ``known`` pairs each known target with its outcome (also when the architecture is unknown but
    every candidate architecture gives the same outcome: the verdict does not depend on it);
    ``uncertain`` lists the errors some unknown target or architecture would raise, as ``(outcome,
    what is unknown, hypothetical GPU class label or None, candidate architecture or None when the
    error does not depend on it, candidate is DSA)``; ``det`` is the setting that turned
    deterministic inference on.
    """

    det: Setting | None
    known: tuple[tuple[Target, Outcome], ...] = ()
    uncertain: tuple[tuple[Outcome, str, str | None, str | None, bool], ...] = ()


@dataclass(frozen=True)
class Verdict:
    """SGLang's outcome on one GPU. ``target`` is None for a hypothetical GPU class (when the target is
    unknown); ``startup`` is the deterministic outcome (None when deterministic inference is off, or
    its outcome depends on something unknown); ``backends`` the attention backends SGLang runs (None
    when they depend on an unknown value); ``gate`` the first hardware gate SGLang stops at (None
    when none fails or a start-up check stops it first); ``gates`` every failing gate that is
    independent of the others and of the start-up checks (what the rules report)."""

    label: str
    hardware: Hardware
    target: Target | None
    startup: Outcome | None
    backends: Backends | None
    gate: GateFailure | None
    gates: tuple[GateFailure, ...] = ()


def startup_analysis(parsed: ParsedArgs, table: OptionTable, model: ModelInfo, targets: list[Target],
                     cuda: tuple[int, int]) -> StartupAnalysis | None:
    """The deterministic start-up checks over the targets; None when deterministic inference is off
    (or that is unknown) or the model path skips SGLang's checks."""
    if not startup_checks_documented(table):
        return None  # a release whose start-up checks are not documented: its parser only
    if not parsed.judged(*DECISION_DESTS):
        return None  # the parser already rejects a value the decision reads (SGL202-SGL205 say so)
    on, setting = deterministic(parsed)
    if on is not True or model.skip_checks:
        return None
    known: list[tuple[Target, Outcome]] = []
    uncertain: list[tuple[Outcome, str, str | None, str | None, bool]] = []
    archs = [(model.architecture, model.dsa)] if model.architecture else list(_CANDIDATE_ARCHS)
    for target in targets:
        hw = hardware_of(target, cuda)
        if hw is None:
            continue
        if model.architecture and model_gate(parsed, table, model.architecture, model.dsa, hw):
            continue  # the model's own check stops SGLang before the deterministic ones
        outcomes = [evaluate(parsed, table, a, d, hw) for a, d in archs]
        common = outcomes[0] if model.architecture else _same_verdict(outcomes)
        if common is not None:
            known.append((target, common))
            continue
        uncertain.extend((o, "the model's architecture", None, a, d) for (a, d), o in zip(archs, outcomes)
                         if o is not None and o.error)
    if not targets or any(t.gpu is None for t in targets):
        for cls in HYPOTHETICAL:
            hw = Hardware(cls.label, cls.cuda, cls.major, cuda)
            # gpt-oss's own whitelist stops SGLang before the deterministic checks
            outcomes = [None if a and model_gate(parsed, table, a, d, hw) else evaluate(parsed, table, a, d, hw)
                        for a, d in archs]
            arch_free = model.architecture is not None or _same_verdict(outcomes) is not None
            what = "the target GPU" if arch_free else "the target GPU and the model's architecture"
            for (a, d), o in zip(archs, outcomes):
                if o is not None and o.error:
                    uncertain.append((o, what, hw.label, None if arch_free else a, d))
                    if arch_free:
                        break
    return StartupAnalysis(setting, tuple(known), tuple(uncertain))


def _same_verdict(outcomes: list[Outcome | None]) -> Outcome | None:
    """The common outcome when every candidate architecture gives the same one, else None."""
    if not outcomes or any(o is None for o in outcomes):
        return None
    first = outcomes[0]
    same = all((o.error, o.backend, o.chosen_by) == (first.error, first.backend, first.chosen_by) for o in outcomes)
    return first if same else None


def verdicts(parsed: ParsedArgs, table: OptionTable, model: ModelInfo, targets: list[Target],
             cuda: tuple[int, int], startup: StartupAnalysis | None) -> tuple[Verdict, ...]:
    """A :class:`Verdict` per known target, then — when a target is unknown or none is declared —
    one per hypothetical GPU class (labelled ``a SM90 GPU (if that were the target)``). None at all for
    a release whose start-up checks are not documented (:func:`~linter.sglang.decision.startup_checks_documented`)."""
    if not startup_checks_documented(table):
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
    backends_judged = parsed.judged(*DECISION_DESTS)
    out = []
    for label, hw, target in gpus:
        if model.skip_checks:
            out.append(Verdict(label, hw, target, None, None, None))
            continue
        # Gates on options of their own fail whatever the backend and the start-up checks do.
        own = tuple(f for f in option_gates(parsed, hw) if parsed.judged(f.dest))
        first_own = own[0] if own else None
        if not backends_judged:
            out.append(Verdict(label, hw, target, None, None, first_own, own))
            continue
        first = model_gate(parsed, table, model.architecture, model.dsa, hw)
        if first is not None:  # before the deterministic checks (handle_model_specific_adjustments)
            out.append(Verdict(label, hw, target, None, None, first, (first, *own)))
            continue
        if on is UNKNOWN:
            out.append(Verdict(label, hw, target, None, None, first_own, own))
            continue
        if target is not None:
            o = by_target.get(id(target))
        else:
            o = evaluate(parsed, table, model.architecture, model.dsa, hw) if on is True else None
        if on is True and o is None:
            out.append(Verdict(label, hw, target, None, None, first_own, own))  # depends on an unknown value
            continue
        if o is not None and o.error:
            out.append(Verdict(label, hw, target, o, None, None, own))
            continue
        b = effective(parsed, model.architecture, model.dsa, hw, o, table, model.mla)
        backend = load = None
        if b is not None:
            kv = model_kv_cache_dtype(table, model.architecture, model.dsa, hw, model.learnable_sink)
            backend = backend_gates(parsed, table, b, hw, kv)
            load = load_gates(parsed, b, model.architecture, hw, model.mla)
        gate = backend or first_own or load
        out.append(Verdict(label, hw, target, o, b, gate, own + tuple(g for g in (backend or load,) if g)))
    return tuple(out)
