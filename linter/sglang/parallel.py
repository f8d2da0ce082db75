"""SGLang's own start-up checks on the parallel sizes (``--tp``, ``--dp``, ``--nnodes``, DP attention,
context parallelism, ``--base-gpu-id``, ``--gpu-id-step``), per release.

The checks, the releases that have them and where each is raised are data:
``linter/sglang/data/parallel_checks.json``. Each is evaluated here on the sizes SGLang resolves
(:func:`linter.sglang.placement.int_option`); a size that is not known statically fails no check.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from linter import datafiles
from linter.sglang.options import OptionTable, ParsedArgs, Setting, version_tuple
from linter.sglang.placement import ALIASES, flag_option, has_option, int_option, option_setting


@dataclass(frozen=True)
class ParallelFailure:
    """A start-up check the launch fails: ``check`` (its row of the data file), SGLang's ``message``
    (the sizes filled in), the ``setting`` to report it at (None when no option of it is written)."""

    check: dict
    message: str
    setting: Setting | None


@functools.cache
def checks() -> list[dict]:
    """The rows of ``parallel_checks.json``."""
    return datafiles.load_json("linter.sglang.data", "parallel_checks.json")["checks"]


def _applies(check: dict, version: str) -> bool:
    v = version_tuple(version)
    return version_tuple(check["since"]) <= v <= version_tuple(check["until"])


def failures(parsed: ParsedArgs, table: OptionTable) -> list[ParallelFailure]:
    """The parallel-size checks of the launch's release that it fails (see the module docstring)."""
    def size(dest: str) -> int | None:
        if not has_option(table, dest):
            return 1 if dest != "base_gpu_id" else 0
        return int_option(parsed, table, dest)

    if not parsed.judged("tp_size", "pp_size", "dp_size", "nnodes", "attn_dp_size", "attn_cp_size",
                         "enable_dp_attention", "base_gpu_id", "gpu_id_step", *ALIASES.values()):
        return []  # argparse refuses one of the sizes: SGLang stops in the parser
    tp, pp, dp, nnodes = size("tp_size"), size("pp_size"), size("dp_size"), size("nnodes")
    attn_dp, attn_cp = size("attn_dp_size"), size("attn_cp_size")
    base, step = size("base_gpu_id"), size("gpu_id_step")
    dpa = flag_option(parsed, "enable_dp_attention") if "enable_dp_attention" in table.by_dest else False
    new_dp = "attn_dp_size" in table.by_dest  # 0.5.22+: --dp N --enable-dp-attention means --attn-dp-size N
    if new_dp and dpa and dp is not None and attn_dp == 1:
        attn_dp, dp = dp, 1
    where = {d: option_setting(parsed, d) for d in ("tp_size", "pp_size", "dp_size", "nnodes", "attn_dp_size", "attn_cp_size",
                                         "enable_dp_attention", "base_gpu_id", "gpu_id_step")}

    def at(*dests: str) -> Setting | None:
        return next((where[d] for d in dests if where.get(d) is not None), None)

    out: list[ParallelFailure] = []
    for c in checks():
        if not _applies(c, table.version):
            continue
        cid, msg = c["id"], c["message"]
        failed = None
        if cid in ("nnodes-divides-tp", "nnodes-divides-tp-pp") and nnodes == 0:
            # the check's own ``% nnodes`` raises first (ZeroDivisionError)
            failed, msg = at("nnodes"), "ZeroDivisionError: integer modulo by zero (--nnodes 0)"
        elif cid == "nnodes-divides-tp" and None not in (tp, nnodes):
            failed = tp % nnodes != 0 and at("nnodes", "tp_size")
        elif cid == "nnodes-divides-tp-pp" and None not in (tp, pp, nnodes):
            failed = (tp * pp) % nnodes != 0 and at("nnodes", "tp_size", "pp_size")
        elif cid == "multinode-dp" and None not in (dp, nnodes):
            failed = dp > 1 and nnodes != 1 and at("dp_size", "nnodes")
        elif cid == "multinode-dp-unless-dp-attention" and None not in (dp, nnodes, dpa):
            failed = dp > 1 and nnodes != 1 and not dpa and at("dp_size", "nnodes")
        elif cid == "multinode-dp-replicas" and None not in (dp, nnodes):
            failed = dp > 1 and nnodes != 1 and at("dp_size", "nnodes")
        elif cid == "dp-attention-needs-dp" and None not in (dp, dpa):
            failed = dpa and dp <= 1 and at("enable_dp_attention")
        elif cid == "dp-attention-divides-tp":
            width = attn_dp if new_dp else dp
            enabled = (attn_dp is not None and attn_dp > 1) if new_dp else dpa
            if enabled and None not in (tp, width) and width:
                failed = tp % width != 0 and at("attn_dp_size", "dp_size", "enable_dp_attention", "tp_size")
                msg = f"assert tp_size % {'attn_dp_size' if new_dp else 'dp_size'} == 0 ({tp} % {width})"
        elif cid == "attn-cp-divides-tp" and None not in (tp, attn_cp) and attn_cp > 1:
            failed = tp % attn_cp != 0 and at("attn_cp_size", "tp_size")
        elif cid == "attn-cp-dp-divides-tp" and None not in (tp, attn_cp) and attn_cp > 1 and \
                not any(f.check["id"] == "attn-cp-divides-tp" for f in out):  # SGLang stopped at that one
            width = attn_dp if new_dp else dp
            if width is not None:
                failed = tp % (width * attn_cp) != 0 and at("attn_cp_size", "dp_size", "tp_size")
        elif cid == "replicas-with-attn-dp" and None not in (dp, attn_dp):
            failed = dp > 1 and attn_dp > 1 and at("dp_size", "attn_dp_size")
            msg = msg.format(dp=dp, attn_dp=attn_dp)
        elif cid == "base-gpu-id-non-negative" and base is not None:
            failed = base < 0 and at("base_gpu_id")
        elif cid == "gpu-id-step-positive" and step is not None:
            failed = step < 1 and at("gpu_id_step")
        if failed:
            out.append(ParallelFailure(c, msg, failed))
    return out


__all__ = ["ParallelFailure", "checks", "failures"]
