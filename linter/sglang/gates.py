"""The effective attention backends of a launch on one GPU, and SGLang's hardware gates on them.

Effective backend (sglang-semantics.md §1, §3.3, §4.2; 0.5.18 ``server_args.py`` and
``arg_groups/overrides.py``): the user's ``--attention-backend``; else the model-family declaration
(DSA → ``dsa``; the DeepSeek-V3 family on SM100 → ``trtllm_mla``; only when no backend option is
given); else, with deterministic inference on, SGLang's deterministic fill; else
``_get_default_attn_backend`` (0.5.18 ``server_args.py:5870-5942``). Then ``_attention_backend_default``
(``overrides.py:2112-2126``): equal ``--prefill-/--decode-attention-backend`` replace it, and each phase
uses its own option or inherits ``attention_backend`` (``attention_backends_of``, ``overrides.py:277-291``).

Gates, each with SGLang's own message (sglang-semantics.md §4.3 and §8):

* start-up (``ServerArgs`` post-init, after the deterministic checks): ``trtllm_mla`` off Blackwell,
  ``tokenspeed_mla`` off Blackwell or without an fp8_e4m3 KV cache, ``cutedsl_mla`` as prefill or off
  SM100, ``trtllm_mha`` prefill/decode off their GPUs (per release), ``--kv-cache-dtype mxfp8`` off
  Blackwell, ``--kv-cache-dtype nvfp4`` off SM100/SM120, ``--quantization nvfp4_online`` off SM100,
  ``--enable-deepseek-v4-fp4-indexer`` off SM100/SM120;
* model load (``python/sglang/srt/layers/attention/attention_registry.py:209-221``): ``fa3`` asserts
  ``(major == 8 and not use_mla) or major == 9``.
"""

from __future__ import annotations

from linter.launch import UNKNOWN
from linter.records import dataclass
from linter.sglang.decision import (
    GPT_OSS,
    Hardware,
    Outcome,
    any_backend_option,
    canonical_backends,
    model_backend,
    release_fact,
    semantics,
)
from linter.sglang.options import OptionTable, ParsedArgs, Setting, version_tuple


@dataclass(frozen=True)
class Backends:
    """The backends SGLang runs on one GPU; ``chosen_by`` is ``user``, ``model``, ``sglang`` (the
    deterministic fill) or ``default`` (``_get_default_attn_backend``)."""

    attention: str
    prefill: str
    decode: str
    chosen_by: str


def uses_mla(architecture: str | None, kv_lora_rank: bool = False) -> bool | None:
    """SGLang's wider MLA list (``use_mla_backend``); None when the architecture is unknown. A Pixtral
    checkpoint is MLA when its config has ``kv_lora_rank`` (semantics.json ``pixtral_mla_when_kv_lora_rank``)."""
    if architecture is None:
        return None
    if kv_lora_rank and architecture == semantics()["pixtral_mla_when_kv_lora_rank"]["value"]:
        return True
    return architecture in semantics()["mla_architectures"]["value"]


def default_backend(architecture: str | None, hw: Hardware, kv_lora_rank: bool = False) -> str | None:
    """``_get_default_attn_backend`` for a model without special-casing (None when it depends on
    something unknown, e.g. the KV-head count on ROCm)."""
    mla = uses_mla(architecture, kv_lora_rank)
    if mla is None:
        return None
    if mla:
        if hw.cuda and hw.major == 9 and hw.cuda_build >= (12, 3):
            return "fa3"
        if hw.sm100:
            return "flashinfer"
        if not hw.cuda:
            return None  # aiter or triton by KV heads per TP rank
        return "triton"
    if hw.cuda and hw.major == 9 and hw.cuda_build >= (12, 3):
        return "fa3"
    if hw.sm100:
        return "trtllm_mha"
    if not hw.cuda:
        return "aiter"
    return "flashinfer"


def _str(setting: Setting | None) -> str | None | object:
    if setting is None:
        return None
    return setting.value if isinstance(setting.value, str) else UNKNOWN


def effective(parsed: ParsedArgs, architecture: str | None, dsa: bool, hw: Hardware,
              startup: Outcome | None, table: OptionTable | None = None, kv_lora_rank: bool = False) -> Backends | None:
    """The backends on ``hw``; ``startup`` is the deterministic outcome (None when not deterministic).
    With ``table``, deprecated backend aliases are renamed and the model overrides are the release's
    (:func:`~linter.sglang.decision.model_backend`); ``kv_lora_rank`` marks a config that has one."""
    if table is not None:
        user, pre, dec = canonical_backends(parsed, table)
    else:
        user, pre, dec = (_str(parsed.get(d)) for d in ("attention_backend", "prefill_attention_backend",
                                                           "decode_attention_backend"))
    if UNKNOWN in (user, pre, dec):
        return None
    if startup is not None:
        attention, chosen = startup.backend, startup.chosen_by
    elif user is not None:
        attention, chosen = user, "user"
    elif parsed.unknown_words:
        return None  # an argument that is not known statically may set the backend
    else:
        attention, chosen = None, "default"
        if not any_backend_option(parsed):
            if table is not None:
                attention = model_backend(table, architecture, dsa, hw)
            else:
                family = semantics()["deepseek_family_override_architectures"]["value"]
                if architecture in family:
                    attention = "dsa" if dsa else ("trtllm_mla" if hw.sm100 else None)
            if attention is not None:
                chosen = "model"
        if attention is None:
            attention = default_backend(architecture, hw, kv_lora_rank)
            if attention is None and pre is None and dec is None:
                return None
    if pre is not None and pre == dec:
        attention = pre
    if pre is None and "cutedsl_mla" in (attention, dec):
        pre = "trtllm_mla"  # decode-only CuteDSL MLA: SGLang fills the prefill (0.5.23 overrides.py:1257-1258)
    prefill = pre or attention
    decode = dec or attention
    if prefill is None or decode is None:
        return None
    return Backends(attention or prefill, prefill, decode, chosen)


def model_gate(parsed: ParsedArgs, table: OptionTable, architecture: str | None, dsa: bool,
               hw: Hardware) -> GateFailure | None:
    """gpt-oss's backend whitelist (semantics.json ``gpt_oss_backend_message``): after the model
    override, the prefill and the decode backend must both be in the release's
    ``gpt_oss_attention_backends``; a phase with no backend (only the other split option given) is
    None and fails. Runs before the deterministic checks. None when it passes or depends on an
    unknown value."""
    if architecture != GPT_OSS:
        return None
    supported = release_fact(table, "gpt_oss_attention_backends")
    if not supported:
        return None
    user, pre, dec = canonical_backends(parsed, table)
    if UNKNOWN in (user, pre, dec):
        return None
    if user is None and pre is None and dec is None:
        if parsed.unknown_words:
            return None
        user = model_backend(table, architecture, dsa, hw)
    prefill, decode = pre or user, dec or user
    if prefill in supported and decode in supported:
        return None
    bad = prefill if prefill not in supported else decode
    dest = None
    for d, v in (("prefill_attention_backend", pre), ("decode_attention_backend", dec), ("attention_backend", user)):
        if v is not None and v not in supported and parsed.get(d) is not None:
            dest = d
            break
    if dest is None:  # the phase with no backend: point at the split option that is given
        dest = next((d for d in ("prefill_attention_backend", "decode_attention_backend") if parsed.get(d)), None)
    msg = semantics()["gpt_oss_backend_message"]["value"].format(supported=repr(supported), prefill=prefill,
                                                                 decode=decode)
    return GateFailure("gpt_oss_backend", dest, bad, msg.strip(), ", ".join(supported))


@dataclass(frozen=True)
class GateFailure:
    """``gate`` names the check (``trtllm_mha``, ``fa3_at_load`` …; the rules map names to codes),
    ``dest`` the option to point at
    (None when SGLang chose the value), ``message`` SGLang's text, ``passes`` the GPUs that pass,
    ``at_load`` True for an assert when the model loads (SGLang starts first)."""

    gate: str
    dest: str | None
    backend: str | None
    message: str
    passes: str
    at_load: bool = False


def _value(parsed: ParsedArgs, dest: str) -> object:
    s = parsed.get(dest)
    return None if s is None else s.value


@dataclass(frozen=True)
class _GateInput:
    """What the backend gates read: the launch's options (``parsed``, ``canon``: the three backend
    options with deprecated aliases renamed), the release (``newer``: 0.5.19 or later), the backends
    on ``hw`` and the KV-cache dtype SGLang checks (``kv``: None when not known; ``model_kv``: the
    dtype the model makes SGLang pick when the user leaves it ``auto``)."""

    parsed: ParsedArgs
    table: OptionTable
    b: Backends
    hw: Hardware
    kv: str | None
    model_kv: str | None
    canon: dict
    newer: bool

    def dest_for(self, value: str, phase: str) -> str | None:
        """The option that set ``value`` for ``phase`` (``prefill``/``decode``: its own option, then
        ``--attention-backend``; ``""``: ``--attention-backend`` only), None when SGLang chose it."""
        for d in ((f"{phase}_attention_backend", "attention_backend") if phase else ("attention_backend",)):
            if self.canon.get(d) == value:
                return d
        return None


def backend_gates(parsed: ParsedArgs, table: OptionTable, b: Backends, hw: Hardware,
                  model_kv: str | None = None) -> GateFailure | None:
    """The first server-args gate on the attention backends that fails on ``hw`` (their order in
    ``__post_init__``, :data:`_BACKEND_GATES`). Later backend gates read the same values, so only the
    first one counts. ``model_kv`` is the KV-cache dtype the model makes SGLang pick when the user
    leaves it ``auto`` (a DSA checkpoint's fp8_e4m3 on SM100+, :func:`~linter.sglang.decision.model_kv_cache_dtype`)."""
    kv = _value(parsed, "kv_cache_dtype")  # the SM120 trtllm_mha and tokenspeed_mla checks read it too
    kv = kv if isinstance(kv, str) else ("auto" if kv is None else None)
    if kv == "auto" and model_kv is not None:
        kv = model_kv
    canon = dict(zip(("attention_backend", "prefill_attention_backend", "decode_attention_backend"),
                     canonical_backends(parsed, table)))
    g = _GateInput(parsed, table, b, hw, kv, model_kv, canon, table.version_tuple >= version_tuple("0.5.19"))
    return next((got for gate in _BACKEND_GATES if (got := gate(g)) is not None), None)


def _trtllm_mha_prefill(g: _GateInput) -> GateFailure | None:
    """trtllm_mha prefill off its GPUs (0.5.18 server_args.py:6015-6025: SM100 only; git 001067ff /
    0.5.19+ allow SM90 and SM120 too)."""
    hw = g.hw
    if g.b.prefill != "trtllm_mha" or ((hw.sm90 or hw.sm100 or hw.sm120) if g.newer else hw.sm100):
        return None
    msg = ("TRTLLM MHA backend for prefill requires Hopper (SM90), Blackwell (SM100), or SM120 GPUs. Please use a "
           "different prefill backend." if g.newer else
           "TRTLLM MHA backend for prefill is only supported on Blackwell GPUs (SM100). Please use a different "
           "prefill backend.")
    return GateFailure("trtllm_mha", g.dest_for("trtllm_mha", "prefill"), "trtllm_mha", msg,
                       "SM90, SM100/SM103, SM120" if g.newer else "SM100/SM103")


def _trtllm_mha_sm120_fp8(g: _GateInput) -> GateFailure | None:
    """trtllm_mha prefill on SM120 with an fp8_e4m3 KV cache, in the releases that check it
    (semantics.json ``trtllm_mha_sm120_fp8_message``)."""
    if not (g.b.prefill == "trtllm_mha" and g.hw.sm120 and g.kv == "fp8_e4m3"
            and release_fact(g.table, "trtllm_mha_sm120_fp8_prefill_check")):
        return None
    chosen = "" if g.model_kv is None or _value(g.parsed, "kv_cache_dtype") not in (None, "auto") else (
        " (the fp8_e4m3 KV cache is SGLang's own choice for this DSA checkpoint on SM100+: write "
        "--kv-cache-dtype bfloat16 to keep trtllm_mha prefill)")
    return GateFailure("trtllm_mha", g.dest_for("trtllm_mha", "prefill"), "trtllm_mha",
                       semantics()["trtllm_mha_sm120_fp8_message"]["value"] + chosen,
                       "SM90, SM100/SM103 (SM120/SM121 without an fp8_e4m3 KV cache)")


def _trtllm_mha_decode(g: _GateInput) -> GateFailure | None:
    """trtllm_mha decode off SM90, SM100 and SM120 (0.5.18 server_args.py:6015-6025)."""
    hw = g.hw
    if g.b.decode != "trtllm_mha" or hw.sm90 or hw.sm100 or hw.sm120:
        return None
    return GateFailure("trtllm_mha", g.dest_for("trtllm_mha", "decode"), "trtllm_mha",
                       "TRTLLM MHA backend for decode is only supported on Hopper (SM90), Blackwell (SM100) and "
                       "(SM120) GPUs. Please use a different decode backend.", "SM90, SM100/SM103, SM120")


def _trtllm_mla(g: _GateInput) -> GateFailure | None:
    """trtllm_mla (the attention or decode backend) off Blackwell (overrides.py:2209-2226)."""
    if "trtllm_mla" not in (g.b.attention, g.b.decode) or g.hw.blackwell:
        return None
    return GateFailure("trtllm_mla", g.dest_for("trtllm_mla", "decode"), "trtllm_mla",
                       "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100/SM12x). Please use a "
                       "different backend.", "SM100/SM103, SM110, SM120/SM121 (CUDA 12.8+)")


def _tokenspeed_mla(g: _GateInput) -> GateFailure | None:
    """tokenspeed_mla up to 0.5.22 (0.5.18 overrides.py:2227-2238, 0.5.22 overrides.py:1168-1180): the
    attention or decode backend (not the prefill one) off Blackwell, or without an fp8_e4m3 KV cache;
    from 0.5.23 it is renamed cutedsl_mla first."""
    if "tokenspeed_mla" not in (g.b.attention, g.b.decode):
        return None
    if not g.hw.blackwell:
        return GateFailure("tokenspeed_mla", g.dest_for("tokenspeed_mla", "decode"), "tokenspeed_mla",
                           "tokenspeed_mla backend is only supported on Blackwell GPUs (SM100/SM12x).",
                           "SM100/SM103, SM110, SM120/SM121 (CUDA 12.8+)")
    if g.kv != "fp8_e4m3" and g.kv is not None:
        return GateFailure("tokenspeed_mla", g.dest_for("tokenspeed_mla", "decode"), "tokenspeed_mla",
                           f"tokenspeed_mla backend requires kv-cache-dtype=fp8_e4m3, got {g.kv}.",
                           "SM100/SM103, SM110, SM120/SM121 (CUDA 12.8+) with --kv-cache-dtype fp8_e4m3")
    return None


def _cutedsl_mla(g: _GateInput) -> GateFailure | None:
    """cutedsl_mla as the prefill backend (decode only), or off SM100 (overrides.py:2254-2284)."""
    if "cutedsl_mla" not in (g.b.attention, g.b.decode, g.b.prefill):
        return None
    if _value(g.parsed, "prefill_attention_backend") == "cutedsl_mla":
        return GateFailure("cutedsl_mla", "prefill_attention_backend", "cutedsl_mla",
                           "CuteDSL MLA only supports decoding for now", "none (decode only)")
    if not g.hw.sm100:
        return GateFailure("cutedsl_mla", g.dest_for("cutedsl_mla", "decode"), "cutedsl_mla",
                           "CuteDSL MLA backend is only supported on Blackwell GPUs (SM100). Please use a "
                           "different backend.", "SM100/SM103 (CUDA 12.8+)")
    return None


_BACKEND_GATES = (_trtllm_mha_prefill, _trtllm_mha_sm120_fp8, _trtllm_mha_decode, _trtllm_mla, _tokenspeed_mla,
                  _cutedsl_mla)
"""The backend gates in the order ``ServerArgs.__post_init__`` runs them; the first failure counts."""


def option_gates(parsed: ParsedArgs, hw: Hardware) -> list[GateFailure]:
    """Every server-args gate on an option other than the attention backends that fails on ``hw``.

    Each reads its own option only, so each is a failure of its own: SGLang stops at the first, but
    fixing one does not change the others (nor the backend gates and deterministic checks).
    """
    out: list[GateFailure] = []
    kv = _value(parsed, "kv_cache_dtype")
    # --kv-cache-dtype (server_args.py:6055-6083)
    if kv == "mxfp8" and not hw.blackwell:
        out.append(GateFailure("kv_cache_dtype", "kv_cache_dtype", None,
                               "--kv-cache-dtype mxfp8 requires an SM100+ (Blackwell) GPU for the block-scaled operands used "
                               "by the FA4 MXFP8 attention path.", "SM100/SM103, SM110, SM120/SM121 (CUDA 12.8+)"))
    if kv == "nvfp4" and hw.cuda and not (hw.sm100 or hw.sm120):
        out.append(GateFailure("kv_cache_dtype", "kv_cache_dtype", None,
                               "--kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120. Use --kv-cache-dtype=fp4_mx_block16 "
                               "for the block-size-16 FP4 recipe.", "SM100/SM103, SM120/SM121 (CUDA 12.8+)"))
    # --quantization nvfp4_online (overrides.py:2466-2470)
    if _value(parsed, "quantization") == "nvfp4_online" and not hw.sm100:
        out.append(GateFailure("nvfp4_online", "quantization", None,
                               "--quantization nvfp4_online is supported only on NVIDIA Blackwell SM100/SM103 GPUs.",
                               "SM100/SM103 (CUDA 12.8+)"))
    # --enable-deepseek-v4-fp4-indexer (server_args.py:8091-8097)
    if _value(parsed, "enable_deepseek_v4_fp4_indexer") is True and not (hw.sm100 or hw.sm120):
        out.append(GateFailure("fp4_indexer", "enable_deepseek_v4_fp4_indexer", None,
                               "--enable-deepseek-v4-fp4-indexer requires SM100 or SM120 GPUs with DeepGEMM FP4 indexer "
                               "support.", "SM100/SM103, SM120/SM121 (CUDA 12.8+)"))
    return out


def startup_gates(parsed: ParsedArgs, table: OptionTable, b: Backends, hw: Hardware,
                  model_kv: str | None = None) -> GateFailure | None:
    """The first server-args gate that fails on ``hw``: the one SGLang stops at."""
    return backend_gates(parsed, table, b, hw, model_kv) or next(iter(option_gates(parsed, hw)), None)


def load_gates(parsed: ParsedArgs, b: Backends, architecture: str | None, hw: Hardware,
               kv_lora_rank: bool = False) -> GateFailure | None:
    """Asserts when the model loads: fa3 on NVIDIA needs SM90, or SM8x for non-MLA models
    (``attention_registry.py:209-221``)."""
    if "fa3" not in (b.prefill, b.decode) or not hw.cuda:
        return None
    mla = uses_mla(architecture, kv_lora_rank)
    ok = hw.major == 9 or (hw.major == 8 and mla is False)
    if ok or (hw.major == 8 and mla is None):
        return None
    dest = next((d for d in ("attention_backend", "prefill_attention_backend", "decode_attention_backend")
                 if _value(parsed, d) == "fa3"), None)
    return GateFailure("fa3_at_load", dest, "fa3",
                       "FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend "
                       "flashinfer`.", "SM90" + ("" if mla else ", SM80/SM86/SM89"), at_load=True)
