"""SGLang's start-up errors for deterministic inference: SGL101, SGL102, SGL103 and SGL901.

All four read one analysis the resolve step made (``LaunchContext.startup``,
:mod:`linter.sglang.analysis`): SGLang's decision run for every declared target GPU, and — when the
target or the model is unknown — for one GPU of each class SGLang tells apart and for each kind of
architecture, to see whether the outcome depends on what is missing.
"""

from __future__ import annotations

from linter.gpus.targets import Target
from linter.rules.base import (
    SAFE,
    UNSAFE,
    Diagnostic,
    Example,
    Fix,
    LaunchContext,
    Rule,
    Severity,
    candidates_applicability,
    insertion_point,
    target_labels,
)
from linter.rules.labels import labels
from linter.sglang.analysis import StartupAnalysis
from linter.sglang.decision import HYPOTHETICAL, ErrorClass, mla_backends
from linter.sglang.options import Setting
from linter.source import Edit


def analyse(ctx: LaunchContext) -> StartupAnalysis | None:
    """The launch's deterministic start-up analysis, computed once by the resolve step."""
    return ctx.startup


def replacement_backend(ctx: LaunchContext) -> str:
    """A backend every target runs for an absorbed-MLA model: ``fa3`` when every target is SM90
    (fa3 asserts SM90 for MLA models at load, attention_registry.py:209-221), else ``triton``."""
    known = ctx.known_targets
    if known and not ctx.has_unknown_target and all(ctx.hardware(t).sm90 for t in known):
        return "fa3"
    return "triton"


def _assumptions(ctx: LaunchContext) -> list[str]:
    cuda = f"CUDA {ctx.cuda_build[0]}.{ctx.cuda_build[1]}" if ctx.cuda_build else "CUDA 12.8 or newer (assumed)"
    return [f"assumed SGLang {ctx.table.version} ({ctx.version_origin or 'newest known release'}), torch built for {cuda}"]


def applicability_for(ctx: LaunchContext, applicability):
    """``applicability``, made unsafe when the verdict rests on an architecture inferred from the
    checkpoint's name (the name may not be the checkpoint's real architecture) or on a target GPU
    from a weaker declaration (an image tag, a Karpenter NodePool, documentation context)."""
    if ctx.model.inferred_from is not None or any(t.decl.weak for t in ctx.targets):
        return UNSAFE
    return applicability


def model_notes(ctx: LaunchContext) -> list[str]:
    """Where the model's architecture came from, phrased as an inference when it is one."""
    m = ctx.model
    if m.inference_note:
        return [m.inference_note]
    return [f"model architecture {m.architecture}: from {m.origin}"] if m.architecture else []


def _backend_fix(ctx: LaunchContext, setting: Setting, replacement: str, applicability) -> Fix | None:
    span = setting.value_span()
    if span is None:
        return None
    return Fix(applicability_for(ctx, applicability), f"Use --attention-backend {replacement}",
               [Edit(span, replacement)])


def gpu_independent(ctx: LaunchContext, analysis, error: ErrorClass) -> list:
    """``[(GPU class label, outcome)]`` when no target is known but the model is, and SGLang raises
    ``error`` on every GPU class for a backend the user wrote (errors A and B do not depend on the GPU:
    the verdict is definite without a target); else ``[]``."""
    if error not in ("A", "B") or analysis.known or not ctx.model.architecture:
        return []
    hits = {label: o for o, _, label, *_ in analysis.uncertain if label is not None and o.error == error
            and o.chosen_by == "user"}
    return list(hits.items()) if set(hits) == {h.label for h in HYPOTHETICAL} else []


class _StartupRule(Rule):
    error: ErrorClass  # which start-up error the rule reports

    def check(self, ctx: LaunchContext):
        analysis = analyse(ctx)
        if analysis is None:
            return
        failing = [(t, o) for t, o in analysis.known if o.error == self.error]
        if not failing:
            failing = gpu_independent(ctx, analysis, self.error)
        if not failing:
            return
        yield self.report(ctx, analysis, failing)

    def report(self, ctx, analysis, failing) -> Diagnostic:  # pragma: no cover - abstract
        raise NotImplementedError


class Fa4DeterministicMlaNeedsSm100(_StartupRule):
    """Deterministic inference with an absorbed-MLA model on ``fa4`` needs an SM100/SM110 GPU.

    ## What it does
    Reports a launch that turns on deterministic inference (``--enable-deterministic-inference``,
    or ``--rl-on-policy-target`` with any value, or ``enable_deterministic_inference`` truthy in
    Python), serves a model whose ``architectures[0]`` is in SGLang's absorbed-MLA list
    (DeepSeek-V2/V3/R1/V3.1/V3.2, Kimi-K2, GLM-4.7-Flash, GLM-5, Mistral-Large-3 …), sets
    ``--attention-backend fa4``, and targets a GPU whose compute-capability major is not 10 or 11
    (or an image whose torch is built for CUDA older than 12.8).

    ## Why it fails
    SGLang refuses to start (``ServerArgs`` post-init, 0.5.18 ``server_args.py:8245-8251``; 0.5.19+
    ``arg_groups/attention_hook.py``): "Deterministic inference with absorbed-MLA models on the fa4
    attention backend requires SM100/SM110: it runs absorbed MLA, whose qv argument flash_attn.cute
    only implements on those archs." B200, GB200, B300, GB300 (SM100/SM103) and Jetson Thor (SM110)
    pass; Hopper, Ampere, Ada, SM120/SM121 Blackwell (RTX PRO 6000, RTX 50xx, GB10) and AMD fail.

    ## Example
    ```yaml
    # lint-configs: target-gpu=H100
    command: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3
      --attention-backend fa4 --enable-deterministic-inference
    ```
    Use instead ``--attention-backend fa3`` on Hopper, ``triton`` elsewhere.

    ## Fix safety
    The fix replaces ``fa4`` where it is written with ``fa3`` when every target is SM90, otherwise
    ``triton`` (SGLang's fa3 backend asserts SM90 for MLA models when the model loads). It is safe
    when fa4 fails on every target, and unsafe when some target would have run it (the edit changes
    that target's backend too) or a target is unknown.

    ## References
    - docs/sglang.md §1 (the predicate), §2 (the outcome per GPU class) and §3 (the GPU predicates)
    - PR sgl-project/sglang#30817 (FA4 as a deterministic backend for DeepSeek MLA)
    """

    code = "SGL101"
    name = "fa4-deterministic-mla-needs-sm100"
    summary = "fa4 with deterministic inference and an absorbed-MLA model needs an SM100/SM110 GPU"
    fixable = "sometimes"
    error = ErrorClass.C
    VALID = [
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
                ("B200",)),
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
                ("Jetson AGX Thor",)),
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4", ("H100",)),
        Example("--model-path Qwen/Qwen3-8B --attention-backend fa4 --enable-deterministic-inference", ("H100",)),
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 --enable-deterministic-inference",
                ("H100",)),
    ]
    INVALID = [
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
                ("H100",), "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 --enable-deterministic-inference"),
        Example("--model-path zai-org/GLM-4.7-Flash --attention-backend=fa4 --rl-on-policy-target fsdp",
                ("RTX PRO 6000 Blackwell",),
                "--model-path zai-org/GLM-4.7-Flash --attention-backend=triton --rl-on-policy-target fsdp"),
        Example("--model moonshotai/Kimi-K2-Instruct --attention-b fa4 --enable-deterministic",
                ("A100",), "--model moonshotai/Kimi-K2-Instruct --attention-b triton --enable-deterministic"),
    ]

    def report(self, ctx, analysis, failing):
        setting = ctx.parsed.get("attention_backend")
        targets = [t for t, _ in failing]
        replacement = replacement_backend(ctx)
        fix = _backend_fix(ctx, setting, replacement, candidates_applicability(ctx, len(failing)))
        on = []
        for t in targets:
            hw = ctx.hardware(t)
            if hw.cuda and hw.major in (10, 11):
                on.append(f"{t.label} with torch built for CUDA {ctx.assumed_cuda[0]}.{ctx.assumed_cuda[1]} (12.8+ needed)")
            else:
                on.append(t.label)
        msg = (f"fa4 with deterministic inference and the absorbed-MLA model {_model_short(ctx)} needs an SM100/SM110 "
               f"GPU (B200, GB200, B300, GB300, Jetson Thor): SGLang {ctx.table.version} refuses to start on "
               f"{', '.join(on)}")
        notes = [f"SGLang says: \"{failing[0][1].message}\""] + _where(ctx, targets) + _assumptions(ctx)
        return self.diagnostic(msg, setting.value_location(), ctx, fix, key="attention_backend", notes=notes,
                               labels=labels(ctx, analysis.det, targets))


def _model_short(ctx: LaunchContext) -> str:
    m = ctx.model
    return f"{m.path} ({m.architecture})" if m.path else f"({m.architecture})"


def _where(ctx: LaunchContext, targets: list[Target]) -> list[str]:
    return [f"target {t.describe()}" for t in targets] + model_notes(ctx)


class DeterministicMlaBackend(_StartupRule):
    """Deterministic inference with an absorbed-MLA model accepts only ascend, fa3, fa4 and triton.

    ## What it does
    Reports a deterministic launch of an absorbed-MLA model (``architectures[0]`` in SGLang's list)
    whose ``--attention-backend`` is in SGLang's deterministic list but not in its radix-supported
    list — in practice ``flashinfer`` (and ``intel_xpu`` from 0.5.19), and ``fa4`` on 0.5.16.

    ## Why it fails
    SGLang refuses to start (error B; 0.5.18 ``server_args.py:8238-8244``): "Currently only
    ['ascend', 'fa3', 'fa4', 'triton'] attention backends are supported for deterministic inference
    with absorbed-MLA models. But you're using flashinfer." It does not depend on the GPU.

    ## Example
    ``--model-path deepseek-ai/DeepSeek-V3 --attention-backend flashinfer --enable-deterministic-inference``

    ## Fix safety
    The fix writes ``fa3`` when every target is SM90 and ``triton`` otherwise. It is safe when the
    targets are known (the launch fails on every GPU, and the replacement runs on each), unsafe
    when they are not.

    ## References
    - docs/sglang.md §1 (error B) and §2 (the outcome per GPU class)
    """

    code = "SGL102"
    name = "deterministic-mla-backend"
    summary = "deterministic inference with an absorbed-MLA model needs ascend, fa3, fa4 or triton"
    fixable = "sometimes"
    error = ErrorClass.B
    VALID = [
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend triton --enable-deterministic-inference"),
        Example("--model-path Qwen/Qwen3-8B --attention-backend flashinfer --enable-deterministic-inference"),
    ]
    INVALID = [
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend flashinfer --enable-deterministic-inference",
                ("H100",), "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3 --enable-deterministic-inference"),
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
                ("B200",), "--model-path deepseek-ai/DeepSeek-V3 --attention-backend triton --enable-deterministic-inference",
                sglang="0.5.16"),
    ]

    def report(self, ctx, analysis, failing):
        setting = ctx.parsed.get("attention_backend")
        outcome = failing[0][1]
        replacement = replacement_backend(ctx)
        if setting is not None:
            fix = _backend_fix(ctx, setting, replacement, UNSAFE if ctx.has_unknown_target else SAFE)
            loc, what = setting.value_location(), repr(outcome.backend)
        else:
            # SGLang's deterministic fill chose the backend: its own architecture list lacks the model
            # that the absorbed-MLA check list has (0.5.20+: Glm5NextForConditionalGeneration).
            det = analysis.det
            point = insertion_point(det.flag) if det is not None else None
            fix = Fix(UNSAFE, f"Add --attention-backend {replacement}",
                      [Edit(point, f" --attention-backend {replacement}")]) if point is not None else None
            loc = det.option_location() if det is not None else ctx.launch.span
            what = f"the {outcome.backend!r} SGLang fills for it"
        where = "every GPU" if setting is not None else ", ".join(
            getattr(t, "label", str(t)) for t, _ in failing)
        msg = (f"deterministic inference with the absorbed-MLA model {_model_short(ctx)} accepts only "
               f"{', '.join(mla_backends(ctx.table))}: SGLang "
               f"{ctx.table.version} refuses to start with {what} on {where}; use {replacement}")
        notes = [f"SGLang says: \"{outcome.message}\""] + _where(ctx, []) + _assumptions(ctx)
        return self.diagnostic(msg, loc, ctx, fix, key="attention_backend", notes=notes,
                               labels=labels(ctx, analysis.det))


class DeterministicBackend(_StartupRule):
    """Deterministic inference accepts only the release's deterministic attention backends.

    ## What it does
    Reports a deterministic launch whose attention backend is outside SGLang's deterministic list
    (0.5.18: ascend, fa3, fa4, flashinfer, triton; 0.5.19+: also intel_xpu) — whether the user
    wrote it (``--attention-backend flashmla``) or SGLang chose it for the model: ``trtllm_mla`` for
    the DeepSeek-V3 family (DeepSeek-V3/R1/V3.1, Kimi-K2, Mistral-Large-3) on SM100/SM103 when no
    backend option is given, and ``dsa`` for DSA models (DeepSeek-V3.2, GLM-5) on every GPU. A
    backend SGLang chose is reported at the option that turned deterministic inference on.

    ## Why it fails
    SGLang refuses to start (error A; 0.5.18 ``arg_groups/overrides.py:2102-2106``): "Currently only
    [...] attention backends are supported for deterministic inference, but you explicitly specified
    'trtllm_mla'." — even when the user specified nothing.

    ## Example
    ``--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference`` on B200.

    ## Fix safety
    Where the user wrote the backend, the fix replaces it with one every target runs (``fa3`` on
    SM90 only, else ``triton``); where SGLang chose it, the fix adds ``--attention-backend`` after the
    deterministic option when that option is a word of a command string. Both are unsafe: they
    change a backend choice. DSA models have no deterministic backend to offer, so no fix.

    ## References
    - docs/sglang.md §1 (the family's own ``trtllm_mla`` and ``dsa`` reach error A) and §2
    """

    code = "SGL103"
    name = "deterministic-backend"
    summary = "deterministic inference needs a backend from the release's deterministic list"
    fixable = "sometimes"
    error = ErrorClass.A
    VALID = [
        Example("--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference", ("H100",)),
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend triton --enable-deterministic-inference",
                ("B200",)),
    ]
    INVALID = [
        Example("--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference", ("B200",),
                "--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference --attention-backend triton"),
        Example("--model-path deepseek-ai/DeepSeek-V3.2 --enable-deterministic-inference", ("H100",), None),
        Example("--model-path Qwen/Qwen3-8B --attention-backend flashmla --enable-deterministic-inference", ("H100",),
                "--model-path Qwen/Qwen3-8B --attention-backend fa3 --enable-deterministic-inference"),
    ]

    def report(self, ctx, analysis, failing):
        outcome = failing[0][1]
        targets = [t for t, o in failing]
        replacement = replacement_backend(ctx)
        notes = _assumptions(ctx)
        if outcome.chosen_by == "user":
            setting = ctx.parsed.get("attention_backend")
            fix = _backend_fix(ctx, setting, replacement, UNSAFE)
            msg = (f"attention backend {outcome.backend!r} is not deterministic: SGLang {ctx.table.version} refuses to "
                   f"start with --enable-deterministic-inference; use {replacement}")
            notes = [f"SGLang says: \"{outcome.message}\""] + notes
            return self.diagnostic(msg, setting.value_location(), ctx, fix, key="attention_backend", notes=notes,
                                   labels=labels(ctx, analysis.det, model=False))
        det = analysis.det
        why = ("the model is a DSA model (index_topk in its config), for which SGLang picks 'dsa' on every GPU"
               if outcome.backend == "dsa" else
               f"SGLang picks {outcome.backend!r} for {ctx.model.architecture} on SM100/SM103 when no attention "
               "backend is given")
        fix = None
        point = insertion_point(det.flag) if outcome.backend != "dsa" and det is not None else None
        if point is not None:
            fix = Fix(UNSAFE, f"Add --attention-backend {replacement}", [Edit(point, f" --attention-backend {replacement}")])
        msg = (f"deterministic inference with no attention backend: {why}, which is not deterministic, so SGLang "
               f"{ctx.table.version} refuses to start on {target_labels(targets)}"
               + ("" if outcome.backend == "dsa" else f"; give --attention-backend {replacement}"))
        notes = [f"SGLang says: \"{outcome.message}\""] + _where(ctx, targets) + notes
        loc = det.option_location() if det is not None else ctx.launch.span
        return self.diagnostic(msg, loc, ctx, fix, key="enable_deterministic_inference", notes=notes,
                               labels=labels(ctx, None, targets))


class UnverifiableLaunch(Rule):
    """SGLang's start-up checks would pass on some GPUs or models and fail on others, and the target
    GPU or the model is not known.

    ## What it does
    Warns when a deterministic launch would hit SGL101, SGL102 or SGL103 for some GPU class or
    architecture, and the file does not say which GPU it runs on (or names one the catalog does not
    know), or the model's architecture cannot be read (a local path with no ``config.json`` in the
    repository, a model name outside the catalog, a value from the environment). It is located
    where the rule would be: the backend value, or the option that turned deterministic inference on.

    ## Why it fails
    It may not fail — that is the point: the linter cannot tell. Declare the target GPU with a
    ``# lint-configs: target-gpu=H100`` comment in the file, ``--target-gpu`` on the command line or
    ``target-gpus`` in the configuration, and a private model with the ``models`` configuration table.

    ## Fix safety
    No fix: the missing fact has to come from the user.

    ## References
    - README.md, "Declaring the target GPU"; docs/sglang.md §2
    """

    code = "SGL901"
    name = "unverifiable-launch"
    severity = Severity.WARNING
    summary = "the launch passes or fails depending on a target GPU or model that is not known"
    VALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
                     ("B200",))]
    INVALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa4 --enable-deterministic-inference",
                       ())]

    def check(self, ctx: LaunchContext):
        analysis = analyse(ctx)
        if analysis is None or not analysis.uncertain:
            return
        if any(o.error for _, o in analysis.known):
            return  # a definite finding already covers this launch
        if gpu_independent(ctx, analysis, ErrorClass.B) or gpu_independent(ctx, analysis, ErrorClass.A):
            return  # SGL102/SGL103 report it: it fails on every GPU
        outcome, what, _, candidate, candidate_dsa = analysis.uncertain[0]
        rule = {ErrorClass.C: "SGL101", ErrorClass.B: "SGL102", ErrorClass.A: "SGL103"}[outcome.error]
        setting = ctx.parsed.get("attention_backend")
        if outcome.chosen_by == "user" and setting is not None:
            loc = setting.value_location()
        elif analysis.det is not None:
            loc = analysis.det.option_location()
        else:
            loc = ctx.launch.span
        missing = []
        if "target" in what:
            unknown = [t.name for t in ctx.targets if t.gpu is None]
            missing.append(f"the target GPU ({'unknown: ' + ', '.join(unknown) if unknown else 'none declared'})")
        if "architecture" in what:
            missing.append(f"the model's architecture ({ctx.model.origin})")
        # The GPU classes on which SGLang raises this error, from the analysis already made.
        failing = list(dict.fromkeys(label for o, _, label, _, _ in analysis.uncertain
                                     if label is not None and o.error == outcome.error))
        passing = [hw.label for hw in HYPOTHETICAL if hw.label not in failing]
        where = (f" on {', '.join(failing)} GPUs but not on {', '.join(passing)}"
                 if failing and passing and ctx.has_unknown_target else "")
        condition = ""
        if candidate is not None:
            # Only some architectures fail: say which, never that SGLang refuses this model.
            name = ctx.model.path or "the model"
            kind = ("a DSA model (index_topk in its config: DeepSeek-V3.2, GLM-5)" if candidate_dsa else
                    "an absorbed-MLA model (DeepSeek-V2/V3/R1, Kimi-K2, GLM-4.7-Flash …)")
            condition = f"if {name} is {kind}, "
        msg = (f"cannot verify: {condition}SGLang {ctx.table.version} refuses this launch ({rule}){where}, and the "
               f"linter does not know {' or '.join(missing)}")
        notes = []
        if "target" in what:
            notes.append("declare the target with a '# lint-configs: target-gpu=NAME' comment in the file, "
                         "--target-gpu NAME, or 'target-gpus' in the configuration")
        if "architecture" in what:
            notes.append("declare a private model in the 'models' table of the configuration "
                         "(model path = \"DeepseekV3ForCausalLM\")")
        yield self.diagnostic(msg, loc, ctx, None, key=rule, notes=notes + _assumptions(ctx),
                              labels=labels(ctx, analysis.det))
