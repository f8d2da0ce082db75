"""The GPU memory SGLang budgets for weights and KV cache together: ``memory × mem_fraction_static``.

After the weights load, SGLang sizes the KV pool from what is left of that budget and stops when
nothing is: 0.5.23 ``mem_cache/kv_cache_configurator.py:2990-3059`` (``rest_memory = available -
pre_model_load_memory × (1 - mem_fraction_static)``; ``rest_memory <= 0`` raises "Loaded weights
leave no GPU memory for the KV cache under --mem-fraction-static=…"), and before it
``model_executor/model_runner.py`` ``profile_max_num_token`` → "Not enough memory. Please try to
increase --mem-fraction-static." (``pool_configurator.py:94-99`` in 0.5.23). Since the memory free
before loading is at most the device's total, weights above ``total × mem_fraction_static`` always
stop the server.

``--mem-fraction-static`` written on the command line is used as is. Otherwise SGLang computes a
default from the GPU's memory (MiB, as nvidia-smi reports it) and the parallelism; the releases do it
in five ways, read from the wheels (:data:`ERAS`). Only an *upper bound* of the default is computed
here — every term a launch might add to the reservation (speculative decoding, DP-attention
padding, CUDA-graph batch sizes above the smallest, a multimodal model's adjustment) is left out —
so a budget that the weights exceed is exceeded by SGLang's own default too.
"""

from __future__ import annotations

from linter.launch import UNKNOWN
from linter.records import dataclass
from linter.sglang.options import ParsedArgs, version_tuple


def _tp_table(size: int) -> float:
    """0.4.0–0.4.5 ``server_args.py``: by tensor-parallel size (0.4.6.post5+: by tp × pp)."""
    return 0.79 if size >= 16 else 0.81 if size >= 8 else 0.85 if size >= 4 else 0.87 if size >= 2 else 0.88


def _era1(mem: float, tp: int, pp: int, mla: bool | None, dp_attention: bool, v) -> float:
    return _tp_table(tp)


def _era2(mem: float, tp: int, pp: int, mla: bool | None, dp_attention: bool, v) -> float:
    return _tp_table(tp) if mem <= 81920 else (mem - 1024 * 13) / mem


def _era3(mem: float, tp: int, pp: int, mla: bool | None, dp_attention: bool, v) -> float:
    mf = _tp_table(tp * pp) if mem <= 81920 else 0.88
    if mem > 180 * 1000:
        return max(0.79, min(mf + 48 * 1024 * (1 - mf) / mem, (mem - 1024 * 18) / mem))  # CUDA: 0.79; ROCm: the min
    if mem > 96 * 1024:
        return min(mf + 48 * 1024 * (1 - mf) / mem, (mem - 1024 * 18) / mem)
    return mf


def _era4(mem: float, tp: int, pp: int, mla: bool | None, dp_attention: bool, v) -> float:
    p = tp * pp
    if mem < 35 * 1024:
        reserved = (2.8 + p / 10) * 1024
    elif mem < 90 * 1024:
        reserved = (9.5 + p / 2) * 1024
    elif mem < 160 * 1024:
        reserved = (12 + p / 2) * 1024
    else:
        reserved = 32 * 1024
    if dp_attention:
        reserved += 4 * 1024
    return round((mem - reserved) / mem, 3) + 0.0005


def _era5(mem: float, tp: int, pp: int, mla: bool | None, dp_attention: bool, v) -> float:
    # 512 + max(chunked_prefill_size, 2048) × 1.5 + cuda-graph and DP terms (>= 0) + tp × pp / 8 GiB
    reserved = 512 + 2048 * 1.5 + tp * pp / 8 * 1024
    if mem > 60 * 1024:
        reserved = max(reserved, 10 * 1024)
    if v >= (0, 5, 16) and mla is not True:
        # post-capture KV sizing (SGLANG_ENABLE_POST_CAPTURE_KV_SIZING, any model without MLA): only the
        # floor and the parallel slack are reserved
        floor = 512 if v < (0, 5, 18) else 1536
        reserved = min(reserved, floor + tp * pp / 8 * 1024)
    return round((mem - reserved) / mem, 3) + 0.0005


ERAS = (
    (_era1, ("0.4.0", "0.4.3", "0.4.4", "0.4.5"),
     "0.4.5 python/sglang/srt/server_args.py:233-243 (0.79/0.81/0.85/0.87/0.88 by tp size)"),
    (_era2, ("0.4.5.post3", "0.4.6"),
     "0.4.6 python/sglang/srt/server_args.py:224-238 (by tp size up to 80 GiB, else (memory - 13 GiB) / memory)"),
    (_era3, ("0.4.6.post5", "0.4.7"),
     "0.4.7 python/sglang/srt/server_args.py:253-283 (by tp × pp up to 80 GiB; 0.79 above 180 GB; above 96 GiB "
     "at most (memory - 18 GiB) / memory)"),
    (_era4, ("0.4.8", "0.4.9", "0.4.10", "0.5.1", "0.5.2"),
     "0.5.2 python/sglang/srt/server_args.py:452-494 (reserved 2.8 + p/10, 9.5 + p/2, 12 + p/2 GiB or 32 GiB by "
     "memory, p = tp × pp; + 4 GiB for DP attention)"),
    (_era5, ("0.5.3", "0.5.5", "0.5.7", "0.5.9", "0.5.11", "0.5.13", "0.5.15", "0.5.16", "0.5.17", "0.5.18", "0.5.19",
             "0.5.20", "0.5.21", "0.5.22", "0.5.23"),
     "0.5.23 python/sglang/srt/arg_groups/memory_hook.py:289-341 (0.5.20 on; server_args.py before, e.g. 0.5.18 "
     ":4979-5010): reserved 512 + 1.5 × max(chunked prefill, 2048) + graph and DP terms + tp × pp / 8 GiB, at "
     "least 10 GiB above 60 GiB; 1536 + tp × pp / 8 GiB (512 before 0.5.18) with post-capture KV sizing, from "
     "0.5.16, for models without MLA"),
)
"""The default ``mem_fraction_static`` of each range of releases: (upper-bound function, the releases
read that have it, source). A release between two ranges that was not read gets the larger of both."""


def _eras_for(version: str):
    v = version_tuple(version)
    for k, (fn, read, source) in enumerate(ERAS):
        if version in read:
            return [(fn, source)]
    for k, (fn, read, source) in enumerate(ERAS):
        first, last = version_tuple(read[0]), version_tuple(read[-1])
        if first <= v <= last:
            return [(fn, source)]
        nxt = ERAS[k + 1] if k + 1 < len(ERAS) else None
        if nxt is None and v > last:
            return [(fn, source)]
        if nxt is not None and last < v < version_tuple(nxt[1][0]):
            return [(fn, source), (nxt[0], nxt[2])]
    return [(ERAS[0][0], ERAS[0][2])]


@dataclass(frozen=True)
class Budget:
    """What SGLang budgets for weights and KV cache on one GPU: ``fraction`` (``--mem-fraction-static``
    as written, or an upper bound of SGLang's default), ``written`` (True when written), ``mib``
    (``memory × fraction``), ``memory_mib`` and ``how`` (in words, with the source)."""

    fraction: float
    written: bool
    mib: float
    memory_mib: float
    how: str


def budget(parsed: ParsedArgs, version: str, memory_mib: float, tp: int, pp: int, mla: bool | None,
           dp_attention: bool) -> Budget | None:
    """The budget (see the module docstring); None when ``--mem-fraction-static`` is written with a value
    that is not known statically, or when an argument that is not known statically could set it."""
    s = parsed.get("mem_fraction_static")
    if s is not None:
        try:
            frac = float(s.value) if s.value is not UNKNOWN and not isinstance(s.value, bool) else None
        except (TypeError, ValueError):
            frac = None
        if frac is None or not 0 < frac <= 1:
            return None
        return Budget(frac, True, memory_mib * frac, memory_mib, f"--mem-fraction-static {frac:g} as written")
    if parsed.unknown_words:
        return None
    v = version_tuple(version)
    best = None
    for fn, source in _eras_for(version):
        f = min(fn(memory_mib, tp, pp, mla, dp_attention, v), 1.0)
        if best is None or f > best[0]:
            best = (f, source)
    frac, source = best
    return Budget(frac, False, memory_mib * frac, memory_mib,
                  f"SGLang {version}'s default --mem-fraction-static, at most {frac:.3f} here ({source})")


__all__ = ["ERAS", "Budget", "budget"]
