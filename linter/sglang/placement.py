"""Which GPUs of a node an SGLang launch puts its ranks on: the devices it needs there.

SGLang starts one scheduler process per rank and gives it the CUDA device (0.5.23
``entrypoints/engine.py:928-938``, ``managers/data_parallel_controller.py:695-751`` and
``_calculate_rank_ranges`` at ``engine.py:2051-2077``)::

    pp_size_per_node    = max(pp_size // nnodes, 1)
    nnodes_per_pp_rank  = max(nnodes // pp_size, 1)
    tp_size_per_node    = tp_size // nnodes_per_pp_rank
    gpu_id = base_gpu_id + replica_offset
             + (pp_rank % pp_size_per_node) * tp_size_per_node
             + (tp_rank % tp_size_per_node) * gpu_id_step

where data-parallel replicas (``--dp-size`` without DP attention) each start at
``replica_offset = dp_rank * tp_size * pp_size * gpu_id_step`` (``data_parallel_controller.py:420-449``).
DP attention (``--enable-dp-attention``; ``--attn-dp-size`` in 0.5.23) runs inside the
tensor-parallel group: it adds no GPUs. The device must exist: ``get_available_gpu_memory``
asserts ``gpu_id < torch.cuda.device_count()`` (0.5.23 ``utils/common.py:434-436``) before the
model loads, and CUDA rejects the ordinal ("invalid device ordinal") in ``torch.cuda.set_device``.
So a node needs ``highest gpu_id + 1`` visible devices.

Per release (read from the wheels): 0.4.0–0.4.6 place by tensor-parallel rank only
(``gpu_id = base_gpu_id + tp_rank % tp_size_per_node [* gpu_id_step]``, 0.4.6
``entrypoints/engine.py:511-521``; ``tp_size_per_node = tp_size // nnodes``); pipeline ranks join
the formula in 0.4.7 (``--pp-size`` appears there); ``--gpu-id-step`` exists from 0.4.4; the
replica stride is ``tp_size`` in 0.4.0–0.4.3, ``tp_size * gpu_id_step`` in 0.4.4–0.5.2 and
``tp_size * pp_size * gpu_id_step`` from 0.5.3 (``data_parallel_controller.py``). In 0.4.0 each
DP-attention rank is a process of its own on one GPU, ``dp_size`` (= ``tp_size``) GPUs in all.
"""

from __future__ import annotations

from linter.launch import UNKNOWN
from linter.records import dataclass
from linter.sglang.options import OptionTable, ParsedArgs, Setting, version_tuple

SOURCE = ("sglang 0.5.23 python/sglang/srt/entrypoints/engine.py:928-938 and :2051-2077, "
          "managers/data_parallel_controller.py:420-449 and :695-751, utils/common.py:434-436")

_DESTS = ("tp_size", "pp_size", "dp_size", "attn_dp_size", "enable_dp_attention", "nnodes", "node_rank",
          "base_gpu_id", "gpu_id_step")

ALIASES = {"tp_size": "tensor_parallel_size", "dp_size": "data_parallel_size", "pp_size": "pipeline_parallel_size",
           "ep_size": "expert_parallel_size"}
"""``ServerArgs`` fields whose argparse ``dest`` was the long name until 0.5.10 (``--tp`` stored
``tensor_parallel_size``, copied to ``tp_size`` by ``ServerArgs.from_cli_args``; the option tables)."""


def option_setting(parsed: ParsedArgs, dest: str) -> Setting | None:
    """The winning occurrence of a ``ServerArgs`` field, under its field name or its older ``dest``
    (:data:`ALIASES`): the later one when both are written."""
    # (asked ~35 times a launch: no list, no key function)
    own = parsed.get(dest)
    alias = ALIASES.get(dest)
    older = parsed.get(alias) if alias is not None else None
    if own is None or older is None:
        return older if own is None else own
    return older if older.index > own.index else own


def has_option(table: OptionTable, dest: str) -> bool:
    """Whether the release has the option, under either name."""
    return dest in table.by_dest or ALIASES.get(dest, dest) in table.by_dest


@dataclass(frozen=True)
class Placement:
    """Where one launch's ranks go on a node.

    ``tp``, ``pp``, ``dp`` (data-parallel replicas), ``attn_dp`` (DP-attention groups inside the
    tensor-parallel group), ``nnodes``, ``base`` (``--base-gpu-id``) and ``step`` (``--gpu-id-step``)
    as SGLang resolves them; ``ranks`` the scheduler processes on one node; ``needed`` the devices
    the node must show (highest device index + 1); ``settings`` the options that were written
    (dest → :class:`Setting`), for locating findings.
    """

    tp: int
    pp: int
    dp: int
    attn_dp: int
    nnodes: int
    base: int
    step: int
    ranks: int
    needed: int
    settings: dict

    @property
    def world(self) -> int:
        """GPUs of the whole launch over all its nodes: tensor × pipeline × replicas."""
        return self.tp * self.pp * self.dp

    def describe(self) -> str:
        """``'--tp 8 --pp 2 on 1 node'`` in SGLang's words, for messages."""
        parts = [f"tp {self.tp}"]
        if self.pp > 1:
            parts.append(f"pp {self.pp}")
        if self.dp > 1:
            parts.append(f"dp {self.dp}")
        if self.attn_dp > 1:
            parts.append(f"dp-attention {self.attn_dp}")
        if self.nnodes > 1:
            parts.append(f"nnodes {self.nnodes}")
        if self.base:
            parts.append(f"base-gpu-id {self.base}")
        if self.step != 1:
            parts.append(f"gpu-id-step {self.step}")
        return ", ".join(parts)


def int_option(parsed: ParsedArgs, table: OptionTable, dest: str) -> int | None:
    """The integer an option resolves to: as written, else the release's default (None when the value
    is not known statically, not an integer, or the option is not written while an argument that is
    not known statically could set it)."""
    s = option_setting(parsed, dest)
    if s is None:
        if parsed.unknown_words:
            return None
        opt = table.by_dest.get(dest) or table.by_dest.get(ALIASES.get(dest, dest))
        default = opt.default if opt is not None else None
        return default if isinstance(default, int) and not isinstance(default, bool) else (
            1 if dest in ("tp_size", "pp_size", "dp_size", "attn_dp_size", "nnodes", "gpu_id_step") else
            0 if dest in ("base_gpu_id", "node_rank") else None)
    v = s.value
    if v is UNKNOWN or v is None:
        return None
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v.strip())
    return None


def flag_option(parsed: ParsedArgs, dest: str) -> bool | None:
    """A store-true flag: True, False, or None when an unknown argument could set it."""
    s = parsed.get(dest)
    if s is None:
        return None if parsed.unknown_words else False
    if s.value is UNKNOWN:
        return None
    return bool(s.value) if not isinstance(s.value, str) else s.value.lower() not in ("false", "0", "")


def parsed_key(parsed: ParsedArgs, table: OptionTable) -> tuple:
    """What a result computed from ``parsed`` and ``table`` depends on, for a one-entry memo held with
    them (so their ids stay theirs): the objects, and the lengths of the lists that only grow while
    SGLang's parser is followed (``settings``, ``rejected``, ``unknown_words``)."""
    return id(parsed), id(table), len(parsed.settings), len(parsed.rejected), len(parsed.unknown_words)


_placed: list = [(None, None, None)]
"""The last :func:`placement` asked, as one tuple (read and replaced whole): (key, the objects it was
computed from, the result). A launch's rules ask it again and again (the GPU count, each target's
weights and KV room, colocation)."""


def placement(parsed: ParsedArgs, table: OptionTable) -> Placement | None:
    """Where the launch's ranks go (see the module docstring); None when a size it needs is not known
    statically, is not a positive integer, or the layout is one SGLang rejects before placing ranks
    (a size that does not divide: :mod:`linter.sglang.parallel` reports those)."""
    key = parsed_key(parsed, table)
    last = _placed[0]
    if last[0] == key:
        return last[2]
    result = _placement(parsed, table)
    _placed[0] = (key, (parsed, table), result)
    return result


def _placement(parsed: ParsedArgs, table: OptionTable) -> Placement | None:
    if not parsed.judged(*_DESTS, *ALIASES.values()):
        return None  # argparse refuses one of them: SGLang stops in the parser
    v = version_tuple(table.version)
    # (--node-rank picks which ranks a node runs, not how many devices each node needs: every node of a
    # launch runs tp/nnodes ranks on the same device indices)
    values = {d: int_option(parsed, table, d) for d in ("tp_size", "pp_size", "dp_size", "nnodes", "base_gpu_id",
                                                        "gpu_id_step")}
    values["attn_dp_size"] = int_option(parsed, table, "attn_dp_size") if "attn_dp_size" in table.by_dest else 1
    if any(x is None for x in values.values()):
        return None
    tp, pp, dp, nnodes = values["tp_size"], values["pp_size"], values["dp_size"], values["nnodes"]
    base, step, attn_dp = values["base_gpu_id"], values["gpu_id_step"], values["attn_dp_size"]
    if min(tp, pp, dp, nnodes, step, attn_dp) < 1 or base < 0:
        return None
    dp_attention = flag_option(parsed, "enable_dp_attention") if "enable_dp_attention" in table.by_dest else False
    if dp_attention is None:
        if dp > 1:
            return None  # replicas or attention groups: not known
        dp_attention = False
    if dp_attention and dp > 1:
        attn_dp, dp = (dp if attn_dp == 1 else attn_dp), 1  # inside the tensor-parallel group
    if attn_dp > 1 and dp > 1:
        return None  # 0.5.23 refuses replicas with attention DP (parallel_hook.py:287-291)
    if tp % attn_dp:
        return None  # DP attention groups divide the tensor-parallel group (parallel_hook.py:326)
    if v < (0, 4, 7):
        pp = 1  # no pipeline parallelism before 0.4.7
    if v < (0, 4, 4):
        step = 1
    if nnodes > 1 and dp > 1:
        return None  # replicas over several nodes: SGLang's offsets are per launch, not per node
    if v < (0, 4, 7):
        if tp % nnodes:
            return None
        pp_per_node, tp_per_node = 1, tp // nnodes
    else:
        pp_per_node = max(pp // nnodes, 1)
        nnodes_per_pp_rank = max(nnodes // pp, 1)
        if tp % nnodes_per_pp_rank:
            return None
        tp_per_node = tp // nnodes_per_pp_rank
    stride = tp if v < (0, 4, 4) else tp * step if v < (0, 5, 3) else tp * pp * step
    highest = base + (dp - 1) * stride + (pp_per_node - 1) * tp_per_node + (tp_per_node - 1) * step
    ranks = dp * pp_per_node * tp_per_node
    settings = {d: s for d in _DESTS if (s := option_setting(parsed, d)) is not None}
    return Placement(tp, pp, dp, attn_dp, nnodes, base, step, ranks, highest + 1, settings)


def culprit(p: Placement) -> Setting | None:
    """The written option that most sets how many devices a node needs (where a count finding is
    located): ``--base-gpu-id`` when it alone pushes past, else the largest of tp/pp/dp/nnodes written."""
    order = ["tp_size", "dp_size", "pp_size", "attn_dp_size", "enable_dp_attention", "gpu_id_step", "base_gpu_id",
             "nnodes"]
    if p.base and "base_gpu_id" in p.settings:
        return p.settings["base_gpu_id"]
    for dest in order:
        if dest in p.settings:
            return p.settings[dest]
    return None


__all__ = ["SOURCE", "ALIASES", "Placement", "placement", "int_option", "flag_option", "culprit", "option_setting",
           "has_option"]
