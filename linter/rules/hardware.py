"""What a launch is given against what it needs: SGL401–SGL404.

SGL401 compares the GPUs SGLang puts the launch's ranks on (:mod:`linter.sglang.placement`) with the
GPUs its node is given (:mod:`linter.gpus.given`), also summed over the launches that run beside it
(:mod:`linter.sglang.colocate`); SGL402 is SGLang's own start-up checks on the parallel sizes
(:mod:`linter.sglang.parallel`); SGL403 and SGL404 compare the model's weights on each GPU
(:mod:`linter.sglang.weights`) with the memory SGLang budgets for weights and KV cache
(:mod:`linter.sglang.memory`). Only what is certain is reported: an unknown count, model, memory or
size means no finding (``--explain`` says which).
"""

from __future__ import annotations

from linter.gpus.catalog import all_gpus
from linter.gpus.counts import VISIBLE_DEVICE_VARIABLES
from linter.rules.base import Example, LaunchContext, Rule, Severity
from linter.sglang import placement as placement_mod
from linter.sglang.memory import budget as memory_budget
from linter.sglang.parallel import failures as parallel_failures
from linter.sglang.placement import Placement, placement
from linter.sglang.weights import QUANTIZATION_BYTES

GIB = 1 << 30
MIB = 1 << 20


def _sglang_own(ctx: LaunchContext) -> bool:
    """Whether SGLang itself resolves the launch's parallel sizes with its own defaults: its entry points
    and Python API. A trainer that starts SGLang (slime/miles, verl, AReaL …) sets some of them itself
    (slime: ``tp_size`` from ``--rollout-num-gpus-per-engine``), so SGLang's defaults say nothing there."""
    from linter.sglang import entrypoints

    own = (entrypoints.LAUNCH_SERVER, entrypoints.SERVE, entrypoints.ROUTER_SERVER, entrypoints.DYNAMO,
           "sglang.Engine", "ServerArgs", "sgl.Runtime")
    return ctx.launch.program in own


def _weak_notes(ctx: LaunchContext) -> list[str]:
    return [f"the target GPU {t.name} is {t.decl.how}: a weaker declaration than one the file states"
            for t in ctx.targets if t.decl.weak]


def _count_label(ctx: LaunchContext, count) -> list:
    return [(count.span, f"gives {count.count} GPU{'s' if count.count != 1 else ''}")] if count is not None else []


class GpuCountExceeded(Rule):
    """More GPUs on a node than the node is given.

    ## What it does
    Computes the devices SGLang puts the launch's ranks on, as the launch's release does —
    tensor, pipeline and data parallelism, DP attention (inside the tensor-parallel group),
    ``--nnodes``, ``--base-gpu-id`` and ``--gpu-id-step`` — and compares the highest device index a
    node needs with the GPUs the node is given: a Kubernetes container's ``nvidia.com/gpu`` /
    ``amd.com/gpu`` limit, a LeaderWorkerSet pod's, compose ``deploy.resources.reservations.devices``,
    ``docker run --gpus``, ``CUDA_VISIBLE_DEVICES``/``NVIDIA_VISIBLE_DEVICES``, Slurm ``--gpus-per-node``,
    ``--gres=gpu:N``, ``--gpus-per-task`` × ``--ntasks-per-node``, SkyPilot/dstack/Truss/Modal ``H100:8``
    or a ``target-gpu=H100:8`` directive. Launches a script runs at the same time in one container
    (the earlier ones in the background, ``… &``) are summed.

    ## Why it fails
    SGLang gives rank *r* the device ``base_gpu_id + … + (tp_rank % tp_size_per_node) × gpu_id_step``
    (0.5.23 ``entrypoints/engine.py:928-938``) and asserts ``gpu_id < torch.cuda.device_count()``
    before loading the model (``utils/common.py:434-436``): with ``--tp 8`` in a pod given four GPUs,
    rank 4 asks for a device that is not there and the server exits. Two servers started side by
    side on the same GPUs each budget most of the memory for themselves and the second runs out.

    ## Example
    ``--tp 8`` in a container with ``nvidia.com/gpu: 4``; the fix is ``--tp 4``, a limit of 8, or —
    over two nodes — ``--nnodes 2``.

    ## Fix safety
    No fix: whether to ask for more GPUs or run on fewer is the user's choice.

    ## References
    - sglang 0.5.23 ``entrypoints/engine.py``, ``managers/data_parallel_controller.py``
    - linter/gpus/counts.py (where each count is read)
    """

    code = "SGL401"
    name = "gpu-count-exceeded"
    summary = "the launch puts ranks on more GPUs than its node, pod or container is given"
    VALID = [Example("--model-path Qwen/Qwen3-8B --tp 4", ("H100:4",)),
             Example("--model-path Qwen/Qwen3-8B --tp 16 --nnodes 2", ("H100:8",))]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --tp 8", ("H100:4",))]

    def check(self, ctx: LaunchContext):
        g = ctx.given
        p = placement(ctx.parsed, ctx.table)
        if g is None or p is None or not _sglang_own(ctx) or parallel_failures(ctx.parsed, ctx.table):
            return  # (SGLang stops at its checks on the sizes first: SGL402)
        if g.count is not None and p.needed > g.count:
            yield self._single(ctx, p, g)
            return
        yield from self._colocated(ctx, p)

    def _single(self, ctx: LaunchContext, p: Placement, g):
        setting = placement_mod.culprit(p)
        loc = setting.value_location() if setting is not None else ctx.launch.span
        last = p.needed - 1
        devices = f"GPU {last}" if p.needed == 1 else f"GPUs {p.base if p.step == 1 and p.dp == 1 else 0}–{last}"
        msg = (f"{p.describe()} puts the launch's ranks on {devices} of each node ({p.ranks} on this node), but "
               f"{g.where(g.count_from)} gives it {g.count}: the rank on GPU {g.count} finds no such device and "
               f"SGLang {ctx.table.version} stops at start-up")
        hint = self._hint(p, g)
        if hint:
            msg += f"; {hint}"
        notes = [f"source: SGLang's rank placement, {placement_mod.SOURCE}"] + _weak_notes(ctx)
        return self.diagnostic(msg, loc, ctx, key=f"{self.code}:count", notes=notes,
                               labels=_count_label(ctx, g.count_from))

    @staticmethod
    def _hint(p: Placement, g) -> str:
        per_node = p.tp * p.pp
        if p.nnodes == 1 and g.nodes and g.nodes > 1 and per_node % g.nodes == 0 and per_node // g.nodes <= g.count:
            return (f"the group has {g.nodes} nodes ({g.where(g.nodes_from)}): --nnodes {g.nodes} spreads the ranks "
                    f"over them ({per_node // g.nodes} per node)")
        if p.base and p.ranks <= g.count:
            return f"--base-gpu-id {p.base} pushes them past the last GPU"
        return f"at most {g.count} ranks fit on a node (for example --tp {g.count}), or give it {p.needed} GPUs"

    def _colocated(self, ctx: LaunchContext, p: Placement):
        g = ctx.given
        others = ctx.colocated
        if not others or any(o.ranks is None for o in others):
            return
        # reported once, at the group's last launch
        from linter.sglang.colocate import position

        if any(o.start > position(ctx) for o in others):
            return
        bounds = [c for c in g.counts if c.count is not None and c.per in ("node", "job")
                  and c.resource not in VISIBLE_DEVICE_VARIABLES and not c.widens]
        if not bounds:
            return
        shared = min(bounds, key=lambda c: c.count)
        fracs = [o.mem_fraction for o in others]
        mine = ctx.parsed.get("mem_fraction_static")
        try:
            fracs.append(float(mine.value) if mine is not None else None)
        except (TypeError, ValueError):
            fracs.append(None)
        if all(f is not None for f in fracs) and sum(fracs) <= 1.0:
            return  # the servers share the GPUs' memory on purpose
        total = p.ranks + sum(o.ranks for o in others)
        if total <= shared.count:
            return
        lines = ", ".join("the launch at {}:{}:{} ({} GPU{})".format(
            o.span.source.display, *o.span.start_line_col, o.ranks, "" if o.ranks == 1 else "s") for o in others)
        msg = (f"this launch ({p.ranks} GPUs) runs at the same time as {lines} in the same container: together "
               f"{total} GPUs, but {g.where(shared)} gives it {shared.count}; the servers share GPUs and each "
               "budgets most of their memory for itself, so the later ones run out of memory at start-up")
        setting = placement_mod.culprit(p)
        loc = setting.value_location() if setting is not None else ctx.launch.span
        labels = _count_label(ctx, shared) + [(o.span, f"also runs here ({o.ranks} GPUs)") for o in others]
        yield self.diagnostic(msg, loc, ctx, key=f"{self.code}:colocated", labels=labels,
                              notes=["launches started in the background (… &) run beside the ones after them"])


class ParallelSizesRejected(Rule):
    """Parallel sizes SGLang refuses at start-up.

    ## What it does
    Runs the checks the launch's release makes on its parallel sizes before it loads a model:
    ``(tp × pp) % nnodes == 0`` ("tp_size must be divisible by number of nodes"), data-parallel
    replicas over several nodes, DP attention's ``tp % dp == 0`` (``tp % attn_dp`` from 0.5.22),
    ``--enable-dp-attention`` with ``--dp 1`` (0.4.5–0.5.1), context parallelism's ``tp % attn_cp``
    and ``tp % (dp × attn_cp)``, replicas with attention DP (0.5.22+), ``--base-gpu-id`` < 0 and
    ``--gpu-id-step`` < 1. Each check, the releases that have it and the line it is raised at are in
    ``linter/sglang/data/parallel_checks.json``.

    ## Why it fails
    These are ``assert`` statements and ``ValueError``\\ s in SGLang's argument resolution
    (``server_args.py``; ``arg_groups/parallel_hook.py`` and ``validation_hook.py`` from 0.5.19): the
    server stops before it starts a scheduler.

    ## Example
    ``--tp 8 --nnodes 3``: 8 is not divisible by 3.

    ## Fix safety
    No fix: which size to change is the user's choice.

    ## References
    - linter/sglang/data/parallel_checks.json (each check with its release range and source line)
    """

    code = "SGL402"
    name = "parallel-sizes-rejected"
    summary = "SGLang's start-up checks refuse these parallel sizes (tp, pp, dp, nnodes, DP attention …)"
    VALID = [Example("--model-path Qwen/Qwen3-8B --tp 8 --nnodes 2", ())]
    INVALID = [Example("--model-path Qwen/Qwen3-8B --tp 8 --nnodes 3", ())]

    def check(self, ctx: LaunchContext):
        if not _sglang_own(ctx):
            return
        for f in parallel_failures(ctx.parsed, ctx.table):
            msg = f"SGLang {ctx.table.version} refuses these parallel sizes at start-up: {f.message}"
            loc = f.setting.value_location() if f.setting is not None else ctx.launch.span
            yield self.diagnostic(msg, loc, ctx, key=f"{self.code}:{f.check['id']}",
                                  notes=[f"source: {f.check['source']}"])


def _quantization_bytes(ctx: LaunchContext):
    """``(bytes, known)`` of ``--quantization``: (None, True) when not written."""
    s = ctx.parsed.get("quantization")
    if s is None:
        return (None, not ctx.parsed.unknown_words)
    if not isinstance(s.value, str):
        return (None, False)
    q = QUANTIZATION_BYTES.get(s.value)
    return (q, q is not None)


def _offloaded(ctx: LaunchContext) -> bool:
    """Weights kept off the GPU (``--cpu-offload-gb``, ``--offload-group-size``): not all on it."""
    for dest, idle in (("cpu_offload_gb", 0), ("offload_group_size", -1)):
        s = ctx.parsed.get(dest)
        if s is not None and str(s.value).strip() not in (str(idle), "0", "-1"):
            return True
    return False


_SPREAD = ("tp_size", "pp_size", "dp_size", "attn_dp_size", "enable_dp_attention", "nnodes", "ep_size")
"""Options that say how a launch is spread over GPUs: the weights check needs one of them, or a GPU count."""


class _Fit:
    """Weights, budget and KV room of one launch on one of its target GPUs (``ok`` False when not known)."""

    def __init__(self, ctx: LaunchContext, target, memory) -> None:
        self.ok = False
        g = ctx.given
        mw = ctx.weights
        p = placement(ctx.parsed, ctx.table)
        if g is None or mw is None or p is None or _offloaded(ctx) or not _sglang_own(ctx) or \
                parallel_failures(ctx.parsed, ctx.table):
            return
        if g.count is None and not any(placement_mod.option_setting(ctx.parsed, d) is not None for d in _SPREAD):
            return  # neither its parallelism nor its GPUs stated: an example of options, not a deployment
        q, known = _quantization_bytes(ctx)
        if not known:
            return
        self.p, self.g, self.mw, self.q = p, g, mw, q
        self.target, self.memory = target, memory
        self.weights = mw.per_gpu_bytes(p.tp, p.attn_dp, p.pp, q)
        self.mla = (ctx.model.mla or ctx.model.architecture in ctx.table.list("absorbed_mla_architectures")) \
            if ctx.model.architecture else None
        self.budget = memory_budget(ctx.parsed, ctx.table.version, memory.mib, p.tp, p.pp, self.mla, p.attn_dp > 1)
        if self.budget is None:
            return
        self.room = self.budget.mib * MIB - self.weights
        self.ok = True

    def needed_tp(self, ctx: LaunchContext) -> int | None:
        """The smallest tensor-parallel size (a power of two up to 64) whose weights fit this GPU's budget."""
        for tp in (1, 2, 4, 8, 16, 32, 64):
            if tp < self.p.tp:
                continue
            w = self.mw.per_gpu_bytes(tp, min(self.p.attn_dp, tp), self.p.pp, self.q)
            b = memory_budget(ctx.parsed, ctx.table.version, self.memory.mib, tp, self.p.pp, self.mla,
                              self.p.attn_dp > 1)
            if b is not None and w < b.mib * MIB * 0.9:
                return tp
        return None

    def bigger_gpu(self, ctx: LaunchContext) -> str | None:
        """The GPU with the least memory (of the catalog's datacenter GPUs) on which these weights fit
        at this parallelism, with a tenth of the budget left."""
        best = None
        same_vendor = self.target.gpu.vendor if self.target.gpu else None
        for gpu in all_gpus():
            if gpu.canonical not in _SUGGESTED or gpu.memory_mib is None or gpu.memory_mib <= self.memory.mib:
                continue
            if same_vendor is not None and gpu.vendor != same_vendor:
                continue
            b = memory_budget(ctx.parsed, ctx.table.version, gpu.memory_mib, self.p.tp, self.p.pp, self.mla,
                              self.p.attn_dp > 1)
            if b is not None and self.weights < b.mib * MIB * 0.9 and (best is None or gpu.memory_mib < best[0]):
                best = (gpu.memory_mib, gpu.canonical)
        return best[1] if best else None


def _fits(ctx: LaunchContext) -> list[_Fit]:
    """The launch's fit on each target GPU whose memory is known (none when the weights, parallelism or
    budget are not certain)."""
    if ctx.given is None:
        return []
    fits = [_Fit(ctx, t, m) for t, m in ctx.given.memories]
    return [f for f in fits if f.ok]


def _others(fits: list[_Fit], chosen: _Fit) -> str:
    names = list(dict.fromkeys(f.target.name for f in fits if f is not chosen and f.target.name != chosen.target.name))
    return ", ".join(names)


_SUGGESTED = ("NVIDIA A100 80GB", "NVIDIA H100 NVL", "NVIDIA H20", "NVIDIA H200 SXM 141GB", "NVIDIA B200",
              "NVIDIA B300", "AMD Instinct MI300X", "AMD Instinct MI325X", "AMD Instinct MI355X")
"""Data-center GPUs a "would fit on" hint may name (the catalog also holds laptops and embedded parts)."""


def _gib(x: float) -> str:
    return f"{x / GIB:.1f} GiB"


class WeightsExceedMemory(Rule):
    """The model's weights do not fit the memory SGLang budgets on each GPU.

    ## What it does
    Takes the model's weights — from a ``config.json`` (or safetensors index) beside the launch, else
    from the size table ``linter/sglang/data/model_sizes.json`` (with the source of every figure),
    with the checkpoint's quantization and ``--quantization`` — divides them as SGLang shards them
    (attention over the attention tensor-parallel group, MLPs, experts, embedding and LM head over
    ``tp``, layers over ``pp``; what SGLang replicates on every GPU stays whole) and compares the
    result with the memory SGLang budgets for weights and KV cache together on one GPU: its memory
    (as nvidia-smi reports it; the larger variant when the name does not say) times
    ``--mem-fraction-static`` — or the largest default the launch's release can compute for that
    GPU and parallelism (``arg_groups/memory_hook.py`` from 0.5.20, ``server_args.py`` before).
    A launch meant for several GPUs (a node affinity ``In [H100, H200]``, a SkyPilot set) may land
    on any of them: each is judged, and the finding names those the weights do not fit.

    ## Why it fails
    After loading the weights SGLang sizes the KV cache from what is left of the budget and stops
    when nothing is (0.5.23 ``mem_cache/kv_cache_configurator.py:3042-3057``: "Loaded weights leave
    no GPU memory for the KV cache"; "Not enough memory. Please try to increase
    --mem-fraction-static" before) — or runs out of memory while loading. A 405B model in BF16 on eight
    80 GB GPUs needs about 95 GiB of weights on each.

    ## Example
    ``meta-llama/Llama-3.1-405B-Instruct --tp 8`` on 8 × H100: use the FP8 checkpoint on H200s, or
    ``--tp 16`` over two nodes.

    ## Fix safety
    No fix: the remedies (more GPUs, a GPU with more memory, a quantized checkpoint) change the
    deployment.

    ## References
    - linter/sglang/weights.py, linter/sglang/memory.py (each figure's source)
    """

    code = "SGL403"
    name = "weights-exceed-memory"
    preview = True  # established cases (DeepSeek-V3 --tp 8 on H100) would gain a finding: opt-in for now
    summary = "the model's weights on each GPU exceed the memory SGLang budgets for weights and KV cache"
    VALID = [Example("--model-path meta-llama/Llama-3.1-405B-Instruct-FP8 --tp 8", ("H200",))]
    INVALID = [Example("--model-path meta-llama/Llama-3.1-405B-Instruct --tp 8", ("H100",))]

    def check(self, ctx: LaunchContext):
        fits = _fits(ctx)
        failing = [f for f in fits if f.room < 0]
        if not failing:
            return
        fit = max(failing, key=lambda f: f.memory.mib)  # the nearest to fitting: every other is shorter
        g, p, b, mem = fit.g, fit.p, fit.budget, fit.memory
        gpu = fit.target.name
        whole = fit.weights > mem.mib * MIB
        where = (f"more than the whole {_gib(mem.mib * MIB)} of {gpu}" if whole else
                 f"more than the {_gib(b.mib * MIB)} SGLang budgets for weights and KV cache on {gpu} "
                 f"({mem.mib} MiB × {b.fraction:.3f})")
        short = fit.weights - (mem.mib * MIB if whole else b.mib * MIB)
        also, fitting = _others(failing, fit), _others([f for f in fits if f.room >= 0], fit)
        on = ""
        if also or fitting:
            on = f" there{f' and on {also}' if also else ''}"
        if fitting:
            on += f" (it fits on {fitting}, {'other target GPUs' if ', ' in fitting else 'another target GPU'})"
        msg = (f"{ctx.model.path} needs at least {_gib(fit.weights)} of weights on each GPU with {p.describe()}, "
               f"{where}: short by {_gib(short)}, so SGLang {ctx.table.version} stops at start-up{on}")
        options = []
        tp = fit.needed_tp(ctx)
        if tp is not None:
            options.append(f"--tp {tp} ({tp * p.pp} GPUs of this kind{', over several nodes' if g.count and tp * p.pp > g.count else ''})")
        bigger = fit.bigger_gpu(ctx)
        if bigger:
            options.append(f"a GPU with more memory ({bigger})")
        if fit.mw.fp8_variant and not fit.mw.quantized and fit.q is None:
            options.append(f"the FP8 checkpoint {fit.mw.fp8_variant}")
        if options:
            msg += "; it would fit with " + " or ".join(options)
        notes = [f"weights: {ctx.weights_origin}", f"memory: {mem.why}", f"budget: {b.how}"] + _weak_notes(ctx)
        loc = ctx.model.span or ctx.launch.span
        failing_targets = {id(f.target) for f in failing}
        labels = [(t.decl.span, f"target {t.label}") for t in ctx.targets if id(t) in failing_targets]
        tp_s = placement_mod.option_setting(ctx.parsed, "tp_size")
        if tp_s is not None:
            labels.append((tp_s.value_location(), f"tp {p.tp}"))
        yield self.diagnostic(msg, loc, ctx, key=f"{self.code}:weights", notes=notes, labels=labels)


class NoRoomForKvCache(Rule):
    """The weights fit, but leave the KV cache less room than one full-length request.

    ## What it does
    With the weights on each GPU (as SGL403 computes them) below SGLang's budget, computes the most
    tokens the KV cache can hold in what is left — the budget's upper bound minus the weights' lower
    bound, divided by the KV bytes per token on one GPU (``--kv-cache-dtype``; KV heads divided over
    the attention tensor-parallel group, or the MLA latent on every GPU) — and warns when even that
    is less than the model's context length (``--context-length`` when written).

    ## Why it fails
    SGLang starts, but warns "KV pool holds N tokens, fewer than --context-length M. One full-length
    request cannot fit, so long requests will be refused or truncated at serving time" (0.5.23
    ``managers/tp_worker.py:556-567``), and serves few requests at a time.

    ## Example
    A model that needs 60 GiB of weights per GPU on 80 GB GPUs with ``--mem-fraction-static 0.8``.

    ## Fix safety
    No fix: lower ``--context-length``, raise ``--mem-fraction-static``, use ``--kv-cache-dtype fp8_e4m3``
    or more GPUs.

    ## References
    - linter/sglang/weights.py (KV bytes per token)
    """

    code = "SGL404"
    name = "kv-cache-too-small"
    severity = Severity.WARNING
    summary = "the weights leave the KV cache less room than one request of the model's context length"
    VALID = [Example("--model-path deepseek-ai/DeepSeek-V3 --tp 8", ("H200",))]
    INVALID = [Example("--model-path meta-llama/Llama-3.1-70B-Instruct --tp 2 --mem-fraction-static 0.9", ("H100",))]

    def check(self, ctx: LaunchContext):
        fits = [f for f in _fits(ctx) if f.room >= 0]  # where the weights do not fit: SGL403's
        if not fits or fits[0].mw.kv is None:
            return
        short = [(f, got) for f in sorted(fits, key=lambda f: -f.memory.mib) for got in [self._tokens(ctx, f)]
                 if got is not None]
        if not short:
            return
        (fit, (tokens, context, per_token)) = short[0]  # the most room: every other has less
        also = _others([f for f, _ in short], fit)
        msg = (f"the weights of {ctx.model.path} leave at most {_gib(fit.room)} per GPU for the KV cache on "
               f"{fit.target.name}{f' (less on {also})' if also else ''} with {fit.p.describe()}: room for at most "
               f"{tokens:,} tokens, fewer than one request of {context:,} tokens (the context length); SGLang "
               "starts but refuses or truncates long requests")
        notes = [f"weights: {ctx.weights_origin}", f"memory: {fit.memory.why}", f"budget: {fit.budget.how}",
                 f"KV cache: {per_token:,.0f} bytes per token on one GPU"] + _weak_notes(ctx)
        loc = ctx.model.span or ctx.launch.span
        targets = {id(f.target) for f, _ in short}
        yield self.diagnostic(msg, loc, ctx, key=f"{self.code}:kv", notes=notes,
                              labels=[(t.decl.span, f"target {t.label}") for t in ctx.targets if id(t) in targets])

    @staticmethod
    def _tokens(ctx: LaunchContext, fit: _Fit):
        """``(tokens the KV cache can hold at most, the context length, KV bytes per token)`` when the
        tokens are fewer than one request of the context length; None otherwise or when not known."""
        kv = fit.mw.kv
        dtype = ctx.parsed.get("kv_cache_dtype")
        if dtype is None:
            if ctx.parsed.unknown_words:
                return None
            per = kv.auto_bytes
        elif not isinstance(dtype.value, str):
            return None
        else:
            v = dtype.value
            per = 2.0 if v in ("auto", "bf16", "bfloat16", "fp16", "float16") else \
                1.0 if v.startswith("fp8") or v == "mxfp8" else 0.5 if "fp4" in v else None
            if v == "auto":
                per = kv.auto_bytes
            if per is None:
                return None
        cl = ctx.parsed.get("context_length")
        context = kv.context
        if cl is not None:
            try:
                context = int(str(cl.value).strip())
            except ValueError:
                return None
        if not context:
            return None
        attn_tp = max(fit.p.tp // max(fit.p.attn_dp, 1), 1)
        per_token = kv.bytes_per_token(attn_tp, fit.p.pp, per)
        tokens = int(fit.room // per_token)
        return None if tokens >= context else (tokens, context, per_token)


HARDWARE_RULES = [GpuCountExceeded, ParallelSizesRejected, WeightsExceedMemory, NoRoomForKvCache]

__all__ = ["HARDWARE_RULES", "GpuCountExceeded", "ParallelSizesRejected", "WeightsExceedMemory", "NoRoomForKvCache"]
