"""Attention backend × GPU gates: SGL104–SGL112.

Each runs SGLang's resolution for every declared target GPU (``linter.sglang.gates``). SGLang stops
at its first error; these rules report every failure that is independent of the others, so one
edit-and-run cycle fixes the launch: each failing gate on an option of its own (``--kv-cache-dtype``,
``--quantization``, the FP4 indexer), and the first gate on the attention backends — unless a
start-up check of SGL101–SGL103 already fails on that backend — or else the assert SGLang hits when
the model loads. Gates are reported only for declared, known targets.
"""

from __future__ import annotations

from linter.gpus.targets import Target
from linter.records import dataclass
from linter.rules.base import (
    SAFE,
    UNSAFE,
    Example,
    Fix,
    LaunchContext,
    Rule,
    candidates_applicability,
    insertion_point,
    target_labels,
)
from linter.rules.deterministic import applicability_for, model_notes
from linter.rules.labels import labels
from linter.sglang.gates import GateFailure, uses_mla
from linter.source import Edit


@dataclass
class _Hit:
    target: Target
    failure: GateFailure


def gate_failures(ctx: LaunchContext) -> list[_Hit]:
    """Per known target, every independent gate SGLang fails on (``Verdict.gates``: each failing gate
    on an option of its own, and the first backend gate or the fa3 assert at load when the
    deterministic checks pass), from the verdicts the resolve step computed."""
    return [_Hit(v.target, g) for v in ctx.target_verdicts() for g in v.gates]


def _replacement(ctx: LaunchContext, failing: list[Target], backend: str) -> str | None:
    """A backend every declared target runs, for the backends the linter knows how to replace."""
    if backend not in ("fa3", "trtllm_mla"):
        return None
    mla = uses_mla(ctx.model.architecture)
    if mla is None:
        return None
    hws = [ctx.hardware(t) for t in ctx.known_targets]
    if backend == "trtllm_mla" and all(h.sm90 for h in hws):
        return "fa3"
    return "triton" if mla else "flashinfer"


def _by_dest(hits: list[_Hit]) -> dict[object, list[_Hit]]:
    """The hits grouped by the option (``dest``) they are about, in order: one finding each."""
    by_dest: dict[object, list[_Hit]] = {}
    for h in hits:
        by_dest.setdefault(h.failure.dest, []).append(h)
    return by_dest


def _setting_location(setting):
    """Where a finding on a written option points: its value, or its option's name for a keyword
    argument whose value is not written text."""
    return setting.value_location() if setting.kwarg is None or setting.value_text is not None \
        else setting.option_location()


class _GateRule(Rule):
    gate = ""

    def check(self, ctx: LaunchContext):
        hits = [h for h in gate_failures(ctx) if h.failure.gate == self.gate]
        if not hits:
            return
        for dest, group in _by_dest(hits).items():
            f = group[0].failure
            targets = [h.target for h in group]
            setting = ctx.parsed.get(dest) if dest else None
            fix = None
            if setting is not None:
                loc = _setting_location(setting)
                replacement = _replacement(ctx, targets, f.backend or "")
                span = setting.value_span()
                if replacement and span is not None:
                    applies = applicability_for(ctx, candidates_applicability(ctx, len(group)))
                    fix = Fix(applies, f"Use {replacement}", [Edit(span, replacement)])
            else:
                det = ctx.startup
                loc = det.det.option_location() if det is not None and det.det is not None else ctx.launch.span
                replacement = _replacement(ctx, targets, f.backend or "")
                point = insertion_point(det.det.flag) if det is not None and det.det is not None else None
                if replacement and point is not None:
                    fix = Fix(UNSAFE, f"Add --attention-backend {replacement}",
                              [Edit(point, f" --attention-backend {replacement}")])
            what = (f"SGLang {ctx.table.version} starts, then asserts when the model loads"
                    if f.at_load else f"SGLang {ctx.table.version} refuses to start")
            chosen = "" if setting is not None else f" (the {f.backend} SGLang picks for this launch)"
            subject = f"{f.backend}{chosen}" if f.backend else self.subject(ctx, dest)
            msg = (f"{subject} does not run on {target_labels(targets)}: {what}; "
                   f"it runs on {f.passes}")
            notes = [f"SGLang says: \"{f.message}\""] + [f"target {t.describe()}" for t in targets]
            if f.backend is not None:  # the backend SGLang runs depends on the architecture
                notes += model_notes(ctx)
            det = ctx.startup
            yield self.diagnostic(msg, loc, ctx, fix, key=f"{self.code}:{dest}", notes=notes,
                                  labels=labels(ctx, det.det if det is not None else None, targets))

    def subject(self, ctx: LaunchContext, dest) -> str:
        s = ctx.parsed.get(dest) if dest else None
        opt = ctx.table.by_dest.get(dest) if dest else None
        if s is None or opt is None:
            return "this option"
        return f"{opt.primary} {s.value}" if isinstance(s.value, str) else opt.primary


class Fa3UnsupportedGpu(_GateRule):
    """``fa3`` on a GPU its kernels assert against when the model loads.

    ## What it does
    Reports the fa3 attention backend — written by the user, or SGLang's deterministic default on a
    GPU that is neither SM100 nor SM120 — on an NVIDIA GPU whose compute-capability major is neither 8
    nor 9 (Blackwell and Thor included), or on SM8x (A100, A10, L40S, RTX 4090) with an MLA model
    (SGLang's wider MLA list: DeepSeek, Kimi-K2 and K2.5, GLM-4.7-Flash, MiniCPM3 …).

    ## Why it fails
    SGLang starts, then asserts in the model runner (``attention_registry.py:209-221``):
    "FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend
    flashinfer`." — minutes after the launch, once the weights are loaded.

    ## Example
    Deterministic DeepSeek-V3 with no backend on A100: SGLang fills ``fa3`` and the model load fails.

    ## Fix safety
    A written ``fa3`` is replaced by ``triton`` for MLA models and ``flashinfer`` otherwise — safe when
    fa3 fails on every target, unsafe otherwise. Where SGLang chose fa3 itself, the fix adds
    ``--attention-backend triton`` after the deterministic option when that is a word of a command
    string (unsafe: it changes a choice SGLang made).

    ## References
    - docs/sglang.md §4; sgl-project/sglang#12178, #12360, #5536 (fa3 failing on RTX PRO 6000, B200, A100)
    """

    code = "SGL104"
    gate = "fa3_at_load"
    name = "fa3-unsupported-gpu"
    summary = "fa3 on a GPU its kernels assert against when the model loads"
    fixable = "sometimes"
    VALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3", ("H100",)),
             Example("--model-path Qwen/Qwen3-8B --attention-backend fa3", ("A100",))]
    INVALID = [
        Example("--model-path Qwen/Qwen3-8B --attention-backend fa3", ("B200",),
                "--model-path Qwen/Qwen3-8B --attention-backend flashinfer"),
        Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3", ("A100",),
                "--model-path deepseek-ai/DeepSeek-V3 --attention-backend triton"),
        Example("--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference", ("A100",),
                "--model-path deepseek-ai/DeepSeek-V3 --enable-deterministic-inference --attention-backend triton"),
    ]


class TrtllmMlaNeedsBlackwell(_GateRule):
    """``trtllm_mla`` off Blackwell.

    ## What it does
    Reports ``--attention-backend trtllm_mla`` (or ``--decode-attention-backend trtllm_mla``) on a GPU
    that is not Blackwell (compute-capability major 10, 11 or 12 with torch for CUDA 12.8+).

    ## Why it fails
    SGLang refuses to start (``overrides.py:2209-2226``): "TRTLLM MLA backend is only supported on
    Blackwell GPUs (SM100/SM12x). Please use a different backend."

    ## Fix safety
    Replaced by ``fa3`` when every target is SM90, else ``triton``; safe when it fails on every target.
    """

    code = "SGL105"
    gate = "trtllm_mla"
    name = "trtllm-mla-needs-blackwell"
    summary = "trtllm_mla runs only on Blackwell GPUs"
    fixable = "sometimes"
    VALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend trtllm_mla", ("B200",))]
    INVALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend trtllm_mla", ("H100",),
                       "--model-path deepseek-ai/DeepSeek-V3 --attention-backend fa3")]


class TokenspeedMlaNeedsBlackwell(_GateRule):
    """``tokenspeed_mla`` off Blackwell.

    ## What it does
    Reports the ``tokenspeed_mla`` backend on a GPU that is not Blackwell (major 10, 11 or 12).

    ## Why it fails
    SGLang refuses to start (``overrides.py:2227-2238``): "tokenspeed_mla backend is only supported
    on Blackwell GPUs (SM100/SM12x)." Up to 0.5.22: from 0.5.23 ``tokenspeed_mla`` is a deprecated
    alias that SGLang renames to ``cutedsl_mla`` before any check (``arg_groups/serving_hook.py:304``;
    ``model_checks.json`` ``attention_backend_aliases``), so SGL107's SM100-only check applies instead.

    ## Fix safety
    No fix.
    """

    code = "SGL106"
    gate = "tokenspeed_mla"
    name = "tokenspeed-mla-needs-blackwell"
    summary = "tokenspeed_mla runs only on Blackwell GPUs"
    VALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla --kv-cache-dtype fp8_e4m3",
                     ("B200",), sglang="0.5.22")]
    INVALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla --kv-cache-dtype fp8_e4m3",
                       ("H100",), sglang="0.5.22")]


class CutedslMlaNeedsSm100(_GateRule):
    """``cutedsl_mla`` as a prefill backend, or off SM100.

    ## What it does
    Reports ``cutedsl_mla`` given as the prefill backend, or on a GPU whose major is not 10.

    ## Why it fails
    SGLang refuses to start (``overrides.py:2254-2284``): "CuteDSL MLA only supports decoding for now"
    / "CuteDSL MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend."

    ## Fix safety
    No fix.
    """

    code = "SGL107"
    gate = "cutedsl_mla"
    name = "cutedsl-mla-needs-sm100"
    summary = "cutedsl_mla is decode-only and runs only on SM100"
    VALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --decode-attention-backend cutedsl_mla", ("B200",))]
    INVALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --decode-attention-backend cutedsl_mla", ("RTX 5090",))]


class TrtllmMhaGpu(_GateRule):
    """``trtllm_mha`` for prefill or decode on a GPU it does not support.

    ## What it does
    Reports ``trtllm_mha`` as the prefill backend off SM100 (0.5.18) or off SM90/SM100/SM120 (0.5.19+),
    and as the decode backend off SM90/SM100/SM120.

    ## Why it fails
    SGLang refuses to start (0.5.18 ``server_args.py:6015-6025``): "TRTLLM MHA backend for prefill is
    only supported on Blackwell GPUs (SM100). Please use a different prefill backend." / "TRTLLM MHA
    backend for decode is only supported on Hopper (SM90), Blackwell (SM100) and (SM120) GPUs."

    ## Fix safety
    No fix.
    """

    code = "SGL108"
    gate = "trtllm_mha"
    name = "trtllm-mha-gpu"
    summary = "trtllm_mha runs only on some GPUs (per release and phase)"
    VALID = [Example("--model-path Qwen/Qwen3-8B --attention-backend trtllm_mha", ("B200",))]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --attention-backend trtllm_mha", ("A100",))]


class KvCacheDtypeGpu(_GateRule):
    """``--kv-cache-dtype mxfp8`` or ``nvfp4`` on a GPU without the kernels.

    ## What it does
    Reports ``--kv-cache-dtype mxfp8`` off Blackwell and ``--kv-cache-dtype nvfp4`` off SM100/SM120.

    ## Why it fails
    SGLang refuses to start (0.5.18 ``server_args.py:6055-6083``): "--kv-cache-dtype mxfp8 requires an
    SM100+ (Blackwell) GPU …" / "--kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120. Use
    --kv-cache-dtype=fp4_mx_block16 for the block-size-16 FP4 recipe."

    ## Fix safety
    No fix: another KV-cache format changes memory and accuracy.
    """

    code = "SGL109"
    gate = "kv_cache_dtype"
    name = "kv-cache-dtype-gpu"
    summary = "--kv-cache-dtype mxfp8/nvfp4 needs a Blackwell GPU"
    VALID = [Example("--model-path Qwen/Qwen3-8B --kv-cache-dtype fp8_e4m3", ("H100",))]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --kv-cache-dtype nvfp4", ("H100",))]


class Nvfp4OnlineNeedsSm100(_GateRule):
    """``--quantization nvfp4_online`` off SM100/SM103.

    ## What it does
    Reports online NVFP4 quantization on a GPU whose major is not 10.

    ## Why it fails
    SGLang refuses to start (``overrides.py:2466-2470``): "--quantization nvfp4_online is supported
    only on NVIDIA Blackwell SM100/SM103 GPUs."

    ## Fix safety
    No fix.
    """

    code = "SGL110"
    gate = "nvfp4_online"
    name = "nvfp4-online-needs-sm100"
    summary = "--quantization nvfp4_online runs only on SM100/SM103"
    VALID = [Example("--model-path Qwen/Qwen3-8B --quantization nvfp4_online", ("B300",))]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --quantization nvfp4_online", ("RTX PRO 6000 Blackwell",))]


class Fp4IndexerGpu(_GateRule):
    """``--enable-deepseek-v4-fp4-indexer`` off SM100/SM120.

    ## What it does
    Reports the DeepSeek-V4 FP4 indexer on a GPU whose major is neither 10 nor 12.

    ## Why it fails
    SGLang refuses to start (0.5.18 ``server_args.py:8091-8097``): "--enable-deepseek-v4-fp4-indexer
    requires SM100 or SM120 GPUs with DeepGEMM FP4 indexer support."

    ## Fix safety
    No fix.
    """

    code = "SGL111"
    gate = "fp4_indexer"
    name = "fp4-indexer-gpu"
    summary = "--enable-deepseek-v4-fp4-indexer runs only on SM100/SM120"
    VALID = [Example("--model-path deepseek-ai/DeepSeek-V4-Flash --enable-deepseek-v4-fp4-indexer", ("B200",))]
    INVALID = [Example("--model-path deepseek-ai/DeepSeek-V4-Flash --enable-deepseek-v4-fp4-indexer", ("H200",))]


class GptOssBackend(_GateRule):
    """gpt-oss with an attention backend outside its whitelist.

    ## What it does
    Reports a ``GptOssForCausalLM`` launch whose prefill or decode attention backend — the user's,
    or gpt-oss's own default when no backend option is given — is not one of the release's
    ``supported_backends`` (``triton``, ``trtllm_mha``, ``fa3``, ``fa4``, ``ascend``, ``intel_amx``,
    ``intel_xpu``, ``aiter`` in 0.5.15.post1-0.5.23). Setting only one of
    ``--prefill-attention-backend``/``--decode-attention-backend`` leaves the other phase ``None``,
    which fails too.

    ## Why it fails
    SGLang asserts in ``handle_model_specific_adjustments`` (0.5.23
    ``arg_groups/model_hook.py:515-543``; 0.5.15.post1-0.5.18 ``server_args.py``), before the
    deterministic-inference checks: "GptOssForCausalLM requires one of [...] attention backend, but got
    the following backends - Prefill: ... - Decode: ...". The list is read per release from SGLang's
    wheels (``model_checks.json``, ``scripts/generate_model_checks.py``).

    ## Fix safety
    The backend is replaced by ``triton`` (in the whitelist and in the deterministic list, and it runs
    on every CUDA and ROCm GPU); where one split option is missing, ``--<phase>-attention-backend
    triton`` is added after the given one, and when the given one is outside the list too it becomes
    ``triton`` in the same fix (a fix that set one phase only would leave the launch failing). Safe
    when every declared target fails, unsafe otherwise.

    ## References
    - docs/sglang.md §4; semantics.json ``gpt_oss_backend_message``, ``gpt_oss_default_backend``
    """

    code = "SGL112"
    gate = "gpt_oss_backend"
    name = "gpt-oss-backend"
    summary = "gpt-oss runs only on its whitelisted attention backends (prefill and decode)"
    fixable = "sometimes"
    VALID = [Example("--model-path openai/gpt-oss-120b --attention-backend triton", ("H100",)),
             Example("--model-path openai/gpt-oss-120b", ("B200",))]
    INVALID = [
        Example("--model-path openai/gpt-oss-120b --attention-backend flashinfer", ("H100",),
                "--model-path openai/gpt-oss-120b --attention-backend triton"),
        Example("--model-path openai/gpt-oss-120b --prefill-attention-backend fa3", ("H100",),
                "--model-path openai/gpt-oss-120b --prefill-attention-backend fa3 --decode-attention-backend triton"),
        Example("--model-path openai/gpt-oss-120b --decode-attention-backend flashinfer", ("H100",),
                "--model-path openai/gpt-oss-120b --decode-attention-backend triton --prefill-attention-backend triton"),
    ]

    def check(self, ctx: LaunchContext):
        hits = [h for h in gate_failures(ctx) if h.failure.gate == self.gate]
        hypothetical = [v for v in ctx.verdicts if v.target is None]
        # A backend outside the whitelist fails on every GPU: reported even when no target is known.
        everywhere = bool(hypothetical) and all(v.gate is not None and v.gate.gate == self.gate for v in hypothetical)
        if not hits and not everywhere:
            return
        by_dest = _by_dest(hits)
        if everywhere and not hits:
            by_dest[hypothetical[0].gate.dest] = [_Hit(None, hypothetical[0].gate)]
        for dest, group in by_dest.items():
            yield self._finding(ctx, dest, group, everywhere)

    def _finding(self, ctx: LaunchContext, dest, group: list[_Hit], everywhere: bool):
        """The finding for one backend option (``dest``; None: gpt-oss's own default) failing on the
        targets of ``group`` (or on any GPU)."""
        f = group[0].failure
        targets = [h.target for h in group if h.target is not None]
        setting = ctx.parsed.get(dest) if dest else None
        if setting is not None:
            applicability = SAFE if everywhere else candidates_applicability(ctx, len(group))
            loc, subject, fix = self._at_setting(ctx, setting, dest, f, applicability)
            fix, subject = _both_phases(ctx, setting, dest, f, fix, subject)
        else:
            loc, subject, fix = ctx.launch.span, f"{f.backend} (gpt-oss's own default here)", None
        on = target_labels(targets) if targets else "any GPU"
        msg = (f"{subject}: gpt-oss does not run it on {on}; "
               f"SGLang {ctx.table.version} refuses to start; gpt-oss runs on {f.passes}")
        notes = [f"SGLang says: \"{' '.join(f.message.split())}\""] + [f"target {t.describe()}" for t in targets]
        det = ctx.startup
        return self.diagnostic(msg, loc, ctx, fix, key=f"{self.code}:{dest}", notes=notes,
                               labels=labels(ctx, det.det if det is not None else None, targets))

    def _at_setting(self, ctx: LaunchContext, setting, dest, f: GateFailure, applicability):
        """``(location, subject, fix)`` for a backend option that is written: its backend replaced by
        ``triton`` when it is the failing one, else (the other phase's option is missing, so that
        phase's backend is None) ``--<phase>-attention-backend triton`` added after it."""
        loc = _setting_location(setting)
        if isinstance(setting.value, str) and setting.value == f.backend:
            span = setting.value_span()
            fix = Fix(applicability, "Use triton", [Edit(span, "triton")]) if span is not None else None
            return loc, f"{self.subject(ctx, dest)}", fix
        missing = "decode" if dest == "prefill_attention_backend" else "prefill"
        point = insertion_point(setting.value_token)
        fix = Fix(applicability, f"Add --{missing}-attention-backend triton",
                  [Edit(point, f" --{missing}-attention-backend triton")]) if point is not None else None
        return loc, f"--{missing}-attention-backend is missing, so gpt-oss's {missing} backend is None", fix


_SPLIT = {"prefill_attention_backend": "decode", "decode_attention_backend": "prefill"}


def _both_phases(ctx: LaunchContext, setting, dest: str, f: GateFailure, fix: Fix | None,
                 subject: str) -> tuple[Fix | None, str]:
    """SGL112's fix and subject when only one split option is given (``--decode-attention-backend
    flashinfer``): the other phase is None, so a fix that changes one phase only leaves the launch
    failing (0.5.23 ``arg_groups/model_hook.py:515-543`` checks both). When the given backend is
    outside gpt-oss's list too, both are said and the fix sets both to ``triton`` (one edit each);
    otherwise ``fix`` and ``subject`` are kept."""
    other = _SPLIT.get(dest)
    if other is None or ctx.parsed.get(f"{other}_attention_backend") is not None \
            or ctx.parsed.get("attention_backend") is not None:
        return fix, subject
    value = setting.value
    supported = f.passes.split(", ")
    if not isinstance(value, str) or value in supported:
        return fix, subject  # the given backend runs: adding the other phase is the whole fix
    given = dest.split("_", 1)[0]
    subject = (f"--{given}-attention-backend {value} is not one gpt-oss runs, and --{other}-attention-backend "
               f"is missing, so gpt-oss's {other} backend is None")
    span, point = setting.value_span(), insertion_point(setting.value_token)
    if span is None or point is None or fix is None:
        return None, subject
    added = f" --{other}-attention-backend triton"
    edits = [Edit(span, "triton" + added)] if point.start == span.end else \
        [Edit(span, "triton"), Edit(point, added)]
    return Fix(fix.applicability, f"Use triton and add --{other}-attention-backend triton", edits), subject


GATE_RULES = [Fa3UnsupportedGpu, TrtllmMlaNeedsBlackwell, TokenspeedMlaNeedsBlackwell, CutedslMlaNeedsSm100,
              TrtllmMhaGpu, KvCacheDtypeGpu, Nvfp4OnlineNeedsSm100, Fp4IndexerGpu, GptOssBackend]
