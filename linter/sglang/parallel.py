"""SGLang's own start-up checks on the parallel sizes (``--tp``, ``--dp``, ``--nnodes``, DP attention,
context parallelism, ``--base-gpu-id``, ``--gpu-id-step``), per release.

The checks, the releases that have them and where each is raised are data:
``linter/sglang/data/parallel_checks.json``. Each is evaluated here on the sizes SGLang resolves
(:func:`linter.sglang.placement.int_option`); a size that is not known statically fails no check.
"""

from __future__ import annotations

import functools

from linter import datafiles
from linter.records import dataclass
from linter.sglang.options import OptionTable, ParsedArgs, Setting, version_tuple
from linter.sglang.placement import ALIASES, flag_option, has_option, int_option, option_setting, parsed_key


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


@dataclass
class _Sizes:
    """The parallel sizes SGLang resolves for one launch (None when not known statically), whether DP
    attention is on (``dpa``), whether the release has ``--attn-dp-size`` (``new_dp``), and the
    setting each size is written at (``where``)."""

    tp: int | None
    pp: int | None
    dp: int | None
    nnodes: int | None
    attn_dp: int | None
    attn_cp: int | None
    base: int | None
    step: int | None
    dpa: bool | None
    new_dp: bool
    where: dict

    def at(self, *dests: str) -> Setting | None:
        """The first of ``dests`` written in the launch (where a failure is reported)."""
        return next((self.where[d] for d in dests if self.where.get(d) is not None), None)


_WHERE = ("tp_size", "pp_size", "dp_size", "nnodes", "attn_dp_size", "attn_cp_size", "enable_dp_attention",
          "base_gpu_id", "gpu_id_step")


def _sizes(parsed: ParsedArgs, table: OptionTable) -> _Sizes:
    def size(dest: str) -> int | None:
        if not has_option(table, dest):
            return 1 if dest != "base_gpu_id" else 0
        return int_option(parsed, table, dest)

    dp, attn_dp = size("dp_size"), size("attn_dp_size")
    dpa = flag_option(parsed, "enable_dp_attention") if "enable_dp_attention" in table.by_dest else False
    new_dp = "attn_dp_size" in table.by_dest  # 0.5.22+: --dp N --enable-dp-attention means --attn-dp-size N
    if new_dp and dpa and dp is not None and attn_dp == 1:
        attn_dp, dp = dp, 1
    return _Sizes(size("tp_size"), size("pp_size"), dp, size("nnodes"), attn_dp, size("attn_cp_size"),
                  size("base_gpu_id"), size("gpu_id_step"), dpa, new_dp,
                  {d: option_setting(parsed, d) for d in _WHERE})


_failed: list = [(None, None, ())]
"""The last :func:`failures` asked, as one tuple (read and replaced whole): (key, the objects it was
computed from, the failures). A launch's rules ask it again and again (the GPU count, each target's
weights and KV room)."""


def failures(parsed: ParsedArgs, table: OptionTable) -> list[ParallelFailure]:
    """The parallel-size checks of the launch's release that it fails (see the module docstring)."""
    key = parsed_key(parsed, table)
    last = _failed[0]
    if last[0] != key:
        last = _failed[0] = (key, (parsed, table), tuple(_failures(parsed, table)))
    return list(last[2])


def _failures(parsed: ParsedArgs, table: OptionTable) -> list[ParallelFailure]:
    if not parsed.judged(*_WHERE, *ALIASES.values()):
        return []  # argparse refuses one of the sizes: SGLang stops in the parser
    s = _sizes(parsed, table)
    out: list[ParallelFailure] = []
    for c in checks():
        if not _applies(c, table.version):
            continue
        cid, msg = c["id"], c["message"]
        if cid in ("nnodes-divides-tp", "nnodes-divides-tp-pp") and s.nnodes == 0:
            # the check's own ``% nnodes`` raises first (ZeroDivisionError)
            failed, msg = s.at("nnodes"), "ZeroDivisionError: integer modulo by zero (--nnodes 0)"
        elif cid in _CHECKS:
            failed, msg = _CHECKS[cid](s, msg, out)
        else:
            failed = None
        if failed:
            out.append(ParallelFailure(c, msg, failed))
    return out


# Each check: (sizes, SGLang's message, the failures so far) -> (the setting it fails at, or a false
# value; the message). A size that is not known fails nothing.


def _nnodes_divides_tp(s: _Sizes, msg: str, out: list):
    return None not in (s.tp, s.nnodes) and s.tp % s.nnodes != 0 and s.at("nnodes", "tp_size"), msg


def _nnodes_divides_tp_pp(s: _Sizes, msg: str, out: list):
    return (None not in (s.tp, s.pp, s.nnodes) and (s.tp * s.pp) % s.nnodes != 0
            and s.at("nnodes", "tp_size", "pp_size")), msg


def _multinode_dp(s: _Sizes, msg: str, out: list):
    return None not in (s.dp, s.nnodes) and s.dp > 1 and s.nnodes != 1 and s.at("dp_size", "nnodes"), msg


def _multinode_dp_unless_dp_attention(s: _Sizes, msg: str, out: list):
    return (None not in (s.dp, s.nnodes, s.dpa) and s.dp > 1 and s.nnodes != 1 and not s.dpa
            and s.at("dp_size", "nnodes")), msg


def _dp_attention_needs_dp(s: _Sizes, msg: str, out: list):
    return None not in (s.dp, s.dpa) and s.dpa and s.dp <= 1 and s.at("enable_dp_attention"), msg


def _dp_attention_divides_tp(s: _Sizes, msg: str, out: list):
    width = s.attn_dp if s.new_dp else s.dp
    enabled = (s.attn_dp is not None and s.attn_dp > 1) if s.new_dp else s.dpa
    if not (enabled and None not in (s.tp, width) and width):
        return None, msg
    return (s.tp % width != 0 and s.at("attn_dp_size", "dp_size", "enable_dp_attention", "tp_size"),
            f"assert tp_size % {'attn_dp_size' if s.new_dp else 'dp_size'} == 0 ({s.tp} % {width})")


def _attn_cp_divides_tp(s: _Sizes, msg: str, out: list):
    return (None not in (s.tp, s.attn_cp) and s.attn_cp > 1 and s.tp % s.attn_cp != 0
            and s.at("attn_cp_size", "tp_size")), msg


def _attn_cp_dp_divides_tp(s: _Sizes, msg: str, out: list):
    if None in (s.tp, s.attn_cp) or not s.attn_cp > 1 or \
            any(f.check["id"] == "attn-cp-divides-tp" for f in out):  # SGLang stopped at that one
        return None, msg
    width = s.attn_dp if s.new_dp else s.dp
    if width is None:
        return None, msg
    return s.tp % (width * s.attn_cp) != 0 and s.at("attn_cp_size", "dp_size", "tp_size"), msg


def _replicas_with_attn_dp(s: _Sizes, msg: str, out: list):
    if None in (s.dp, s.attn_dp):
        return None, msg
    return s.dp > 1 and s.attn_dp > 1 and s.at("dp_size", "attn_dp_size"), msg.format(dp=s.dp, attn_dp=s.attn_dp)


def _base_gpu_id_non_negative(s: _Sizes, msg: str, out: list):
    return s.base is not None and s.base < 0 and s.at("base_gpu_id"), msg


def _gpu_id_step_positive(s: _Sizes, msg: str, out: list):
    return s.step is not None and s.step < 1 and s.at("gpu_id_step"), msg


_CHECKS = {
    "nnodes-divides-tp": _nnodes_divides_tp, "nnodes-divides-tp-pp": _nnodes_divides_tp_pp,
    "multinode-dp": _multinode_dp, "multinode-dp-unless-dp-attention": _multinode_dp_unless_dp_attention,
    "multinode-dp-replicas": _multinode_dp, "dp-attention-needs-dp": _dp_attention_needs_dp,
    "dp-attention-divides-tp": _dp_attention_divides_tp, "attn-cp-divides-tp": _attn_cp_divides_tp,
    "attn-cp-dp-divides-tp": _attn_cp_dp_divides_tp, "replicas-with-attn-dp": _replicas_with_attn_dp,
    "base-gpu-id-non-negative": _base_gpu_id_non_negative, "gpu-id-step-positive": _gpu_id_step_positive,
}
"""The checks of ``parallel_checks.json`` by id (``multinode-dp-replicas`` is ``multinode-dp``'s test)."""


__all__ = ["ParallelFailure", "checks", "failures"]
