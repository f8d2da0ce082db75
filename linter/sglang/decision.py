"""SGLang's start-up decision for deterministic inference, reproduced for one launch on one GPU.

This is ``ServerArgs.__post_init__`` reduced to what decides errors A, B and C (sglang-semantics.md
§1; 0.5.18 ``python/sglang/srt/server_args.py`` ``_handle_deterministic_inference`` at 8177-8285,
``python/sglang/srt/arg_groups/overrides.py`` ``_deepseek_family_overrides`` at 593-717 and
``_deterministic_attention_backend`` at 2078-2109; from 0.5.19 the same logic lives in
``python/sglang/srt/arg_groups/attention_hook.py``):

1. the model-family declaration: a DSA model (``index_topk``) with no backend option gets ``dsa``
   on any GPU; the DeepSeek-V3 family with no backend option gets ``trtllm_mla`` on SM100;
2. deterministic inference is on when ``enable_deterministic_inference`` is truthy or
   ``rl_on_policy_target`` is not None;
3. no backend → SGLang fills one (``triton`` for absorbed MLA / ``flashinfer`` otherwise on SM100
   and SM120, ``fa3`` elsewhere); a backend outside the deterministic list → **error A**;
4. an absorbed-MLA architecture (``architectures[0]`` in the release's list) with a backend outside
   the radix-supported list → **error B**; with ``fa4`` where the GPU's compute-capability major is
   not 10 or 11 or torch's CUDA build is older than 12.8 → **error C** (0.5.17 and later).

Only ``attention_backend`` counts; the prefill/decode backends are not consulted, but setting any of
them disables the model-family declaration (``is_attention_backend_not_set``, server_args.py:9058).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources

from linter.launch import UNKNOWN
from linter.sglang.options import OptionTable, ParsedArgs, Setting, version_tuple


@functools.cache
def semantics() -> dict:
    """The SGLang facts of ``linter/sglang/data/semantics.json`` (each with its source)."""
    return json.loads(resources.files("linter.sglang.data").joinpath("semantics.json").read_text("utf-8"))


def startup_checks_documented(table: OptionTable) -> bool:
    """True when SGLang's start-up checks (SGL101-SGL111, SGL901) are documented for the table's
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


@dataclass(frozen=True)
class Outcome:
    """The result on one GPU. ``error`` is ``"A"``, ``"B"``, ``"C"`` or None; ``backend`` is the
    ``attention_backend`` the checks see (after the model-family declaration and SGLang's fill);
    ``chosen_by`` is ``"user"``, ``"model"`` (family declaration) or ``"sglang"`` (deterministic fill);
    ``message`` is SGLang's own error text for that release."""

    error: str | None
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
    if setting is not None:
        backend = setting.value
        if backend is UNKNOWN or not isinstance(backend, str):
            return None
        chosen = "user"
    elif parsed.unknown_words:
        return None  # an argument that is not known statically may set the backend
    else:
        backend, chosen = None, ""
        family = semantics()["deepseek_family_override_architectures"]["value"]
        if not any_backend_option(parsed) and architecture in family:
            if dsa:
                backend, chosen = "dsa", "model"
            elif hw.sm100:
                backend, chosen = "trtllm_mla", "model"
    mla_list = table.list("absorbed_mla_architectures")
    is_mla = architecture in mla_list
    det_list = table.list("deterministic_attention_backends")
    has_c = table.version_tuple >= version_tuple(semantics()["error_c_since"]["value"])
    new_wording = table.version_tuple >= version_tuple(semantics()["mla_wording_since"]["value"])
    radix = mla_backends(table)
    models = "absorbed-MLA models" if new_wording else "DeepSeek models"
    msgs = semantics()["messages"]
    if backend is None:
        if hw.sm100 or hw.sm120:
            backend = "triton" if is_mla else "flashinfer"
        else:
            backend = "fa3"
        chosen = "sglang"
    elif backend not in det_list:
        return Outcome("A", backend, chosen, msgs["A"].format(deterministic=repr(det_list), backend=backend))
    if is_mla:
        if backend not in radix:
            return Outcome("B", backend, chosen, msgs["B"].format(radix=repr(radix), models=models, backend=backend))
        if has_c and backend == "fa4" and not hw.sm100_or_sm110:
            return Outcome("C", backend, chosen, msgs["C"].format(models=models))
    return Outcome(None, backend, chosen)
