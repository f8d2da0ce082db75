"""SGLang's start-up decision for deterministic inference, reproduced for one launch on one GPU.

This is ``ServerArgs.__post_init__`` reduced to what decides errors A, B and C (sglang-semantics.md
§1; 0.5.18 ``python/sglang/srt/server_args.py`` ``_handle_deterministic_inference`` at 8177-8285,
``python/sglang/srt/arg_groups/overrides.py`` ``_deepseek_family_overrides`` at 593-717 and
``_deterministic_attention_backend`` at 2078-2109; from 0.5.19 the same logic lives in
``python/sglang/srt/arg_groups/attention_hook.py``):

0. deprecated backend aliases are renamed first (0.5.23: ``tokenspeed_mla`` -> ``cutedsl_mla``);
1. the model overrides (:func:`model_backend`), with no backend option: the release's DeepSeek-family
   list — a DSA config (``index_topk``, an architecture of ``is_deepseek_dsa``) gets ``dsa`` on any
   GPU, the rest ``trtllm_mla`` on SM100 — and gpt-oss's own default (``trtllm_mha`` on SM100,
   ``fa3`` on SM90, ``triton`` elsewhere);
2. deterministic inference is on when ``enable_deterministic_inference`` is truthy or
   ``rl_on_policy_target`` is not None;
3. no backend → SGLang fills one (``triton`` for the fill's own DeepSeek list
   ``_deterministic_is_deepseek_model`` / ``flashinfer`` otherwise on SM100 and SM120, ``fa3``
   elsewhere); a backend outside the deterministic list → **error A**;
4. an absorbed-MLA architecture (``architectures[0]`` in the release's check list, which may differ
   from the fill's: 0.5.20+ has Glm5NextForConditionalGeneration in the check list only) with a backend outside
   the radix-supported list → **error B**; with ``fa4`` where the GPU's compute-capability major is
   not 10 or 11 or torch's CUDA build is older than 12.8 → **error C** (0.5.17 and later).

Only ``attention_backend`` counts; the prefill/decode backends are not consulted, but setting any of
them disables the model-family declaration (``is_attention_backend_not_set``, server_args.py:9058).
The per-release lists come from ``model_checks.json`` (``scripts/generate_model_checks.py``).
"""

from __future__ import annotations

import enum
import functools

from linter import datafiles
from linter.launch import UNKNOWN
from linter.records import dataclass
from linter.sglang.options import OptionTable, ParsedArgs, Setting, version_tuple


@functools.cache
def semantics() -> dict:
    """The SGLang facts of ``linter/sglang/data/semantics.json`` (each with its source)."""
    return datafiles.load_json("linter.sglang.data", "semantics.json")


@functools.cache
def _model_checks() -> dict:
    return datafiles.load_json("linter.sglang.data", "model_checks.json")


def release_fact(table: OptionTable, key: str):
    """The value of ``key`` of ``model_checks.json`` (read from SGLang's wheels by
    ``scripts/generate_model_checks.py``, each with its file:line) for ``table``'s release: the entry of
    the newest release read that is not newer than it; None before the first."""
    facts = _facts_for(table.version)
    return None if facts is None else facts[key]["value"]


@functools.cache
def _facts_for(version: str) -> dict | None:
    # Once per release a run meets: the launches of a tree ask for these facts thousands of times.
    best = None
    mine = version_tuple(version)
    for read, facts in _model_checks()["releases"].items():
        v = version_tuple(read)
        if v <= mine and (best is None or v > best[0]):
            best = (v, facts)
    return None if best is None else best[1]


GPT_OSS = "GptOssForCausalLM"


def model_kv_cache_dtype(table: OptionTable, architecture: str | None, dsa: bool, hw: Hardware,
                         learnable_sink: bool = False) -> str | None:
    """The KV-cache dtype SGLang picks itself when ``--kv-cache-dtype`` is ``auto``, or None when it
    keeps ``auto``: a DSA checkpoint (``index_topk``, an architecture of ``is_deepseek_dsa``) of the
    DeepSeek family gets ``fp8_e4m3`` on a CUDA GPU whose compute-capability major is at least 10
    (SM100/SM103/SM110/SM120/SM121), else ``bfloat16`` — unless its config has ``learnable_sink``
    (0.5.20+) — per release (``model_checks.json`` ``dsa_kv_cache_default``, read from
    ``_dsa_kv_cache_dtype_default``, 0.5.23 ``sglang/srt/arg_groups/overrides.py:491``). The
    trtllm_mha SM120 prefill check (0.5.19+) then sees fp8_e4m3. None when the GPU is unknown."""
    rule = release_fact(table, "dsa_kv_cache_default")
    if not rule or not dsa or architecture is None or architecture not in (rule.get("architectures") or ()):
        return None
    dsa_list = release_fact(table, "dsa_architectures")
    if dsa_list is not None and architecture not in dsa_list:
        return None
    if not hw.cuda or hw.major is None:
        return None
    if learnable_sink and "learnable_sink" in (rule.get("unless_config") or ()):
        return "bfloat16"
    return "fp8_e4m3" if hw.major >= rule["fp8_e4m3_from_major"] else "bfloat16"


def canonical_backends(parsed: ParsedArgs, table: OptionTable) -> tuple[object, object, object]:
    """(``--attention-backend``, ``--prefill-attention-backend``, ``--decode-attention-backend``) as
    SGLang's checks see them: None when not given, ``UNKNOWN`` when not known statically, deprecated
    aliases renamed first (0.5.23 ``arg_groups/serving_hook.py:304-322``, ``handle_deprecated_args``:
    ``tokenspeed_mla`` -> ``cutedsl_mla``, and a renamed prefill ``cutedsl_mla`` -> ``trtllm_mla``)."""
    aliases = release_fact(table, "attention_backend_aliases") or {}
    out = []
    for dest in ("attention_backend", "prefill_attention_backend", "decode_attention_backend"):
        s = parsed.get(dest)
        value = None if s is None else (s.value if isinstance(s.value, str) else UNKNOWN)
        if isinstance(value, str) and value in aliases:
            value = aliases[value]
            if dest == "prefill_attention_backend" and value == "cutedsl_mla":
                value = "trtllm_mla"  # cutedsl_mla is decode-only
        out.append(value)
    return out[0], out[1], out[2]


def model_backend(table: OptionTable, architecture: str | None, dsa: bool, hw: Hardware) -> str | None:
    """The backend a model override declares when no backend option is given (None: it declares none).

    * the DeepSeek family (the release's ``_deepseek_family_overrides`` list): ``dsa`` for a DSA config
      (an architecture of ``is_deepseek_dsa``'s list with ``index_topk``) on any GPU, else
      ``trtllm_mla`` on SM100;
    * gpt-oss (``_gpt_oss_overrides``; semantics.json ``gpt_oss_default_backend``): ``trtllm_mha`` on
      SM100, ``fa3`` on SM90, ``aiter`` on ROCm, ``triton`` elsewhere.
    """
    family = release_fact(table, "deepseek_family_override_architectures") or \
        semantics()["deepseek_family_override_architectures"]["value"]
    if architecture in family:
        dsa_list = release_fact(table, "dsa_architectures")
        if dsa and (dsa_list is None or architecture in dsa_list):
            return "dsa"
        return "trtllm_mla" if hw.sm100 else None
    if architecture == GPT_OSS:
        d = semantics()["gpt_oss_default_backend"]["value"]
        if hw.sm100:
            return d["sm100"]
        if hw.sm90:
            return d["sm90"]
        return d["other"] if hw.cuda else d["rocm"]
    return None


def startup_checks_documented(table: OptionTable) -> bool:
    """True when SGLang's start-up checks (SGL101-SGL112, SGL901) are documented for the table's
    release: from ``startup_checks_since`` in semantics.json (0.5.15.post1) on."""
    return table.version_tuple >= version_tuple(semantics()["startup_checks_since"]["value"])


def parser_only_note(table: OptionTable) -> str | None:
    """For a release older than ``startup_checks_since``: says that only its parser is checked."""
    if startup_checks_documented(table):
        return None
    since = semantics()["startup_checks_since"]["value"]
    return (f"SGLang {table.version}: only its argument parser is checked; its start-up checks are not "
            f"documented for releases before {since}")


@dataclass(frozen=True)
class Hardware:
    """What SGLang's SM predicates see: ``cuda`` (torch is a CUDA build and sees the GPU), the
    compute-capability ``major`` and torch's CUDA build ``cuda_build`` as (major, minor).

    Predicates: 0.5.18 ``python/sglang/srt/utils/common.py:258-322`` (``_check_cuda_device_version``).
    """

    label: str
    cuda: bool
    major: int | None
    cuda_build: tuple[int, int] = (12, 9)

    def _check(self, majors: tuple[int, ...], build: tuple[int, int]) -> bool:
        return self.cuda and self.major in majors and self.cuda_build >= build

    @property
    def sm90(self) -> bool:
        return self._check((9,), (12, 3))

    @property
    def sm100(self) -> bool:
        return self._check((10,), (12, 8))

    @property
    def sm100_or_sm110(self) -> bool:
        return self._check((10, 11), (12, 8))

    @property
    def sm120(self) -> bool:
        return self._check((12,), (12, 8))

    @property
    def blackwell(self) -> bool:
        return self._check((10, 11, 12), (12, 8))


# Representative GPUs for a target that is not known: one per class SGLang tells apart.
HYPOTHETICAL = (
    Hardware("SM80/SM89", True, 8),
    Hardware("SM90", True, 9),
    Hardware("SM100/SM103", True, 10),
    Hardware("SM110", True, 11),
    Hardware("SM120", True, 12),
    Hardware("ROCm", False, None),
)


class ErrorClass(str, enum.Enum):
    """Which of SGLang's start-up errors a deterministic launch meets (the keys of ``messages`` in
    data/semantics.json; ../shared/reference/sglang-semantics.md): ``A`` the attention backend is not
    one of the deterministic backends; ``B`` an absorbed-MLA model on a backend whose radix cache is
    refused (``mla_backends``); ``C`` an absorbed-MLA model on ``fa4`` below SM100/SM110 (0.5.x
    server_args.py, since ``error_c_since``). Compares equal to its letter."""

    A = "A"
    B = "B"
    C = "C"

    __str__ = str.__str__
    __format__ = str.__format__


@dataclass(frozen=True)
class Outcome:
    """The result on one GPU. ``error`` is an :class:`ErrorClass` or None; ``backend`` is the
    ``attention_backend`` the checks see (after the model-family declaration and SGLang's fill);
    ``chosen_by`` is ``"user"``, ``"model"`` (family declaration) or ``"sglang"`` (deterministic fill);
    ``message`` is SGLang's own error text for that release."""

    error: ErrorClass | None
    backend: str | None
    chosen_by: str
    message: str = ""


# The options the decision reads. When argparse rejects one of them (ParsedArgs.rejected) SGLang
# never reaches ``__post_init__``: the parser's error is the whole verdict on them.
DECISION_DESTS = ("model_path", "attention_backend", "prefill_attention_backend", "decode_attention_backend",
                  "enable_deterministic_inference", "rl_on_policy_target", "json_model_override_args")


def deterministic(parsed: ParsedArgs) -> tuple[object, Setting | None]:
    """(True | False | UNKNOWN, the setting that decides it).

    ``--rl-on-policy-target`` with any value turns it on (0.5.18 server_args.py:8178-8187); a
    Python value follows truthiness, so the string ``"false"`` turns it on too.
    """
    rl = parsed.get("rl_on_policy_target")
    if rl is not None:
        if rl.kwarg is None or (rl.value is not None and rl.value is not UNKNOWN):
            return True, rl
        if rl.value is UNKNOWN:
            return UNKNOWN, rl
    det = parsed.get("enable_deterministic_inference")
    if det is None:
        # Arguments that are not known statically ($EXTRA_ARGS, a --config file, a list from a
        # function) could turn it on: unknown, not off.
        return (UNKNOWN if parsed.unknown_words else False), None
    if det.value is UNKNOWN:
        return UNKNOWN, det
    return bool(det.value), det


def backend_setting(parsed: ParsedArgs) -> Setting | None:
    """The winning ``--attention-backend`` occurrence (the only backend field SGLang's deterministic checks read)."""
    return parsed.get("attention_backend")


def any_backend_option(parsed: ParsedArgs) -> bool:
    """SGLang's ``not is_attention_backend_not_set()``: any of the three backend options is given (server_args.py:9058)."""
    return any(parsed.get(d) is not None for d in ("attention_backend", "prefill_attention_backend",
                                                   "decode_attention_backend"))


def mla_backends(table: OptionTable) -> list[str]:
    """The backends a deterministic absorbed-MLA launch may use in ``table``'s release (error B's list):
    the radix-supported list, except 0.5.16, which checks its own ``["fa3", "triton"]``."""
    if table.version_tuple < version_tuple(semantics()["error_c_since"]["value"]):
        return list(semantics()["mla_deterministic_backends_before_0_5_17"]["value"])
    return table.list("radix_supported_deterministic_attention_backends")


def evaluate(parsed: ParsedArgs, table: OptionTable, architecture: str | None, dsa: bool,
             hw: Hardware) -> Outcome | None:
    """SGLang's outcome for a deterministic launch on ``hw``; None when an input it needs is unknown.

    The caller has already established that deterministic inference is on.
    """
    setting = backend_setting(parsed)
    user, _, _ = canonical_backends(parsed, table)
    if setting is not None:
        backend = user
        if backend is UNKNOWN or not isinstance(backend, str):
            return None
        chosen = "user"
    elif parsed.unknown_words:
        return None  # an argument that is not known statically may set the backend
    else:
        backend, chosen = None, ""
        if not any_backend_option(parsed):
            backend = model_backend(table, architecture, dsa, hw)
            chosen = "model" if backend is not None else ""
    mla_list = table.list("absorbed_mla_architectures")
    is_mla = architecture in mla_list
    det_list = table.list("deterministic_attention_backends")
    has_c = table.version_tuple >= version_tuple(semantics()["error_c_since"]["value"])
    new_wording = table.version_tuple >= version_tuple(semantics()["mla_wording_since"]["value"])
    radix = mla_backends(table)
    models = "absorbed-MLA models" if new_wording else "DeepSeek models"
    msgs = semantics()["messages"]
    if backend is None:
        # The fill reads its own list (``_deterministic_is_deepseek_model``), which may lack an
        # architecture the absorbed-MLA check list has (0.5.20+: Glm5NextForConditionalGeneration).
        fill_list = release_fact(table, "deterministic_fill_mla_architectures")
        fill_mla = is_mla if fill_list is None else architecture in fill_list
        if hw.sm100 or hw.sm120:
            backend = "triton" if fill_mla else "flashinfer"
        else:
            backend = "fa3"
        chosen = "sglang"
    elif backend not in det_list:
        return Outcome(ErrorClass.A, backend, chosen, msgs["A"].format(deterministic=repr(det_list), backend=backend))
    if is_mla:
        if backend not in radix:
            return Outcome(ErrorClass.B, backend, chosen, msgs["B"].format(radix=repr(radix), models=models, backend=backend))
        if has_c and backend == "fa4" and not hw.sm100_or_sm110:
            return Outcome(ErrorClass.C, backend, chosen, msgs["C"].format(models=models))
    return Outcome(None, backend, chosen)
