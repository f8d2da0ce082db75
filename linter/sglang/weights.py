"""How much memory a model's weights take on each GPU as SGLang shards them, and its KV cache per token.

Parameters are counted from ``config.json`` by architecture family (:func:`count_parameters`), by
part, because SGLang divides the parts differently (0.5.23):

* attention projections are sharded over the attention tensor-parallel group, ``attn_tp = tp /
  attn_dp`` under DP attention (``parallel_group="attn_tp"``, ``models/deepseek_v2.py:2076-2118``;
  ``layers/dp_attention.py``), except DeepSeek's ``fused_qkv_a_proj_with_mqa``/``kv_a_proj_with_mqa``,
  which are ``ReplicatedLinear`` on every GPU (``models/deepseek_v2.py:2069-2100``);
* dense MLPs, routed experts (``ep × moe_tp = tp``) and shared experts over ``tp``;
* the embedding and LM head vocabulary-parallel over ``tp``;
* pipeline parallelism splits the layers over ``pp`` stages.

Norms, router gates and biases are counted as replicated. Anything SGLang replicates beyond this
(the embedding under DP attention, redundant experts, a draft model) only adds memory, so the
per-GPU figure here is a lower bound: a launch whose lower bound does not fit certainly does not.

Bytes per parameter come from the checkpoint (``quantization_config``) and ``--quantization``:
``bf16``/``fp16`` 2, ``fp8``/``int8`` 1, ``fp4``/``int4`` 0.5 (block scales are not counted: a lower
bound), ``mxfp4`` 0.5. The KV cache per token and GPU is ``2 × kv_heads_per_gpu × head_dim × layers ×
bytes`` (``kv_heads_per_gpu = max(1, kv_heads / attn_tp)``: SGLang replicates KV heads when there are
fewer than ranks, ``configs/model_config.py`` ``get_num_kv_heads``) or, for MLA, ``(kv_lora_rank +
qk_rope_head_dim) × layers × bytes`` on every GPU (``mem_cache/memory_pool.py`` ``MLATokenToKVPool``).
"""

from __future__ import annotations

import functools

from linter import datafiles
from linter.records import dataclass

DTYPE_BYTES = {"bf16": 2.0, "fp16": 2.0, "fp32": 4.0, "fp8": 1.0, "int8": 1.0, "fp4": 0.5, "int4": 0.5,
               "mxfp4": 0.5}
"""Bytes per parameter of a storage type, without the block or channel scales (a lower bound)."""

PARTS = ("attention", "attention_replicated", "dense", "experts", "embedding", "lm_head", "replicated")
"""The parts of a model's parameters, as SGLang shards them (see the module docstring)."""

QUANTIZATION_BYTES = {
    "fp8": 1.0, "w8a8_fp8": 1.0, "w8a8_int8": 1.0, "modelopt_fp8": 1.0, "mxfp8": 1.0, "fbgemm_fp8": 1.0,
    "awq": 0.5, "awq_marlin": 0.5, "gptq": 0.5, "gptq_marlin": 0.5, "modelopt_fp4": 0.5, "nvfp4_online": 0.5,
    "petit_nvfp4": 0.5, "mxfp4": 0.5, "quark_mxfp4": 0.5, "w4afp8": 0.5, "moe_wna16": 0.5, "mlx_q4": 0.5,
    "mlx_q8": 1.0, "auto-round": 0.5, "auto-round-int8": 1.0, "bitsandbytes": 0.5,
}
"""``--quantization`` methods → the fewest bytes per linear-layer parameter they store (4-bit methods
0.5, 8-bit methods 1). A method not listed (``compressed-tensors``, ``modelopt``, ``gguf``, ``quark`` …)
stores a per-checkpoint width: the weights are unknown."""


@dataclass(frozen=True)
class KvGeometry:
    """What the KV cache per token depends on: ``kind`` ``"mha"`` (``kv_heads``, ``head_dim``) or
    ``"mla"`` (``kv_lora_rank``, ``rope_dim``), the number of ``layers`` with a KV cache, the
    ``context`` length SGLang serves by default, and ``auto_bytes`` (the dtype ``--kv-cache-dtype
    auto`` stores: the model's activations, bf16)."""

    kind: str
    layers: int
    kv_heads: int = 0
    head_dim: int = 0
    kv_lora_rank: int = 0
    rope_dim: int = 0
    context: int = 0
    auto_bytes: float = 2.0

    def bytes_per_token(self, attn_tp: int, pp: int, dtype_bytes: float) -> float:
        """KV bytes one token takes on one GPU (the fewest: a stage holds ``layers / pp`` layers)."""
        layers = self.layers / pp
        if self.kind == "mla":
            return (self.kv_lora_rank + self.rope_dim) * layers * dtype_bytes
        heads = max(1, self.kv_heads // max(attn_tp, 1))
        return 2 * heads * self.head_dim * layers * dtype_bytes


@dataclass(frozen=True)
class ModelWeights:
    """A model's parameters by part (:data:`PARTS` → count), the storage type of each part
    (``dtypes``: part → a key of :data:`DTYPE_BYTES`), its KV geometry (None when its cache is not a
    plain per-layer one: sliding windows, linear attention) and where the figures come from."""

    name: str
    params: dict
    dtypes: dict
    kv: KvGeometry | None
    source: str
    quantized: bool = False
    fp8_variant: str | None = None

    @property
    def total(self) -> int:
        return sum(self.params.values())

    def bytes_of(self, part: str, quantization_bytes: float | None = None) -> float:
        """Bytes of one part, with ``--quantization`` applied to the linear layers (never raising a
        checkpoint's own narrower storage)."""
        b = DTYPE_BYTES[self.dtypes.get(part, "bf16")]
        if quantization_bytes is not None and part in ("attention", "attention_replicated", "dense", "experts"):
            b = min(b, quantization_bytes)
        return self.params.get(part, 0) * b

    def checkpoint_bytes(self) -> float:
        return sum(self.bytes_of(p) for p in PARTS)

    def per_gpu_bytes(self, tp: int, attn_dp: int, pp: int, quantization_bytes: float | None = None) -> float:
        """The fewest bytes of weights one GPU holds under tensor parallelism ``tp``, DP attention
        ``attn_dp`` and pipeline parallelism ``pp`` (see the module docstring)."""
        attn_tp = max(tp // max(attn_dp, 1), 1)
        b = self.bytes_of
        q = quantization_bytes
        total = (b("attention", q) / attn_tp + b("attention_replicated", q)
                 + (b("dense", q) + b("experts", q) + b("embedding") + b("lm_head")) / tp + b("replicated"))
        return total / pp


# --- counting parameters from config.json -------------------------------------------------------------

def _text_config(cfg: dict) -> dict:
    t = cfg.get("text_config")
    return t if isinstance(t, dict) else cfg


def _int(cfg: dict, key: str, default=None):
    v = cfg.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) and v is not None:
        raise KeyError(key)
    if v is None:
        raise KeyError(key)
    return int(v)


FAMILIES = {
    "dense": ("LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM"),
    "moe": ("Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM", "MixtralForCausalLM"),
    "mla": ("DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM"),
    "glm4_moe": ("Glm4MoeForCausalLM",),
    "gpt_oss": ("GptOssForCausalLM",),
}
"""Architectures whose parameters :func:`count_parameters` counts, by family."""


def family_of(architecture: str | None) -> str | None:
    for fam, archs in FAMILIES.items():
        if architecture in archs:
            return fam
    return None


def count_parameters(cfg: dict, architecture: str) -> tuple[dict, KvGeometry | None]:
    """Parameters by part (:data:`PARTS`) and the KV geometry of a ``config.json`` of a supported
    architecture. Raises KeyError when a key the family needs is missing, ValueError for an
    architecture of no known family. Multi-token-prediction layers (``num_nextn_predict_layers``)
    are not counted: SGLang loads them only for speculative decoding."""
    fam = family_of(architecture)
    if fam is None:
        raise ValueError(f"no parameter count for {architecture}")
    c = _text_config(cfg)
    h = _int(c, "hidden_size")
    layers = _int(c, "num_hidden_layers")
    vocab = _int(c, "vocab_size")
    heads = _int(c, "num_attention_heads")
    tied = bool(c.get("tie_word_embeddings", False))
    p = dict.fromkeys(PARTS, 0)
    p["embedding"] = vocab * h
    p["lm_head"] = 0 if tied else vocab * h
    p["replicated"] = (2 * layers + 1) * h  # the two norms of each layer and the final one
    context = _int(c, "max_position_embeddings", 0)
    if fam == "mla":
        q_lora = c.get("q_lora_rank")
        kv_lora = _int(c, "kv_lora_rank")
        nope, rope, v = _int(c, "qk_nope_head_dim"), _int(c, "qk_rope_head_dim"), _int(c, "v_head_dim")
        qk = nope + rope
        if q_lora:
            q_lora = int(q_lora)
            p["attention_replicated"] += layers * h * (q_lora + kv_lora + rope)
            p["attention"] += layers * q_lora * heads * qk
            p["replicated"] += layers * (q_lora + kv_lora)
        else:
            p["attention_replicated"] += layers * h * (kv_lora + rope)
            p["attention"] += layers * h * heads * qk
            p["replicated"] += layers * kv_lora
        p["attention"] += layers * (kv_lora * heads * (nope + v) + heads * v * h)
        first_dense = _int(c, "first_k_dense_replace", 0)
        freq = _int(c, "moe_layer_freq", 1)
        moe_layers = [i for i in range(layers) if i >= first_dense and i % freq == 0]
        dense_layers = layers - len(moe_layers)
        inter, moe_inter = _int(c, "intermediate_size"), _int(c, "moe_intermediate_size")
        routed, shared = _int(c, "n_routed_experts"), _int(c, "n_shared_experts", 0)
        p["dense"] += dense_layers * 3 * h * inter + len(moe_layers) * shared * 3 * h * moe_inter
        p["experts"] += len(moe_layers) * routed * 3 * h * moe_inter
        p["replicated"] += len(moe_layers) * routed * (h + 1)  # router gate and its correction bias
        kv = KvGeometry("mla", layers, kv_lora_rank=kv_lora, rope_dim=rope, context=context)
        return p, kv
    head_dim = _int(c, "head_dim", 0) or h // heads
    kv_heads = _int(c, "num_key_value_heads", heads)
    q_out, kv_out = heads * head_dim, kv_heads * head_dim
    attn = h * q_out + 2 * h * kv_out + q_out * h
    if fam in ("dense",) and architecture == "Qwen2ForCausalLM" or c.get("attention_bias") or fam == "gpt_oss":
        p["replicated"] += layers * (q_out + 2 * kv_out)  # q/k/v biases (sharded, counted replicated)
    if architecture in ("Qwen3ForCausalLM", "Qwen3MoeForCausalLM") or c.get("use_qk_norm"):
        p["replicated"] += layers * 2 * head_dim
    p["attention"] = layers * attn
    if fam == "dense":
        p["dense"] = layers * 3 * h * _int(c, "intermediate_size")
    elif fam == "moe":
        experts = _int(c, "num_experts", 0) or _int(c, "num_local_experts")
        moe_inter = _int(c, "moe_intermediate_size", 0) or _int(c, "intermediate_size")
        sparse_step = _int(c, "decoder_sparse_step", 1)
        only_mlp = set(c.get("mlp_only_layers") or [])
        moe_layers = [i for i in range(layers) if i not in only_mlp and (i + 1) % sparse_step == 0]
        dense_layers = layers - len(moe_layers)
        shared = _int(c, "shared_expert_intermediate_size", 0)
        p["experts"] = len(moe_layers) * experts * 3 * h * moe_inter
        p["dense"] = dense_layers * 3 * h * _int(c, "intermediate_size") + len(moe_layers) * 3 * h * shared
        p["replicated"] += len(moe_layers) * experts * h + (len(moe_layers) * h if shared else 0)
    elif fam == "glm4_moe":
        first_dense = _int(c, "first_k_dense_replace", 0)
        moe_layers = layers - first_dense
        inter, moe_inter = _int(c, "intermediate_size"), _int(c, "moe_intermediate_size")
        routed, shared = _int(c, "n_routed_experts"), _int(c, "n_shared_experts", 0)
        p["dense"] = first_dense * 3 * h * inter + moe_layers * shared * 3 * h * moe_inter
        p["experts"] = moe_layers * routed * 3 * h * moe_inter
        p["replicated"] += moe_layers * routed * (h + 1)
    elif fam == "gpt_oss":
        experts = _int(c, "num_local_experts")
        inter = _int(c, "intermediate_size")
        p["experts"] = layers * experts * (3 * h * inter)
        p["replicated"] += layers * (experts * (h + 1) + heads + experts * 3 * inter)  # router, sinks, biases
        return p, None  # alternating sliding-window layers: the KV pool is not one per-layer geometry
    kv = KvGeometry("mha", layers, kv_heads=kv_heads, head_dim=head_dim, context=context)
    return p, kv


def checkpoint_dtypes(cfg: dict) -> dict | None:
    """The storage type of each part as ``config.json`` states it (``torch_dtype``/``dtype`` and
    ``quantization_config``); None when the quantization method is one whose width is not read here."""
    c = cfg
    base = str(c.get("torch_dtype") or c.get("dtype") or _text_config(c).get("torch_dtype") or "bfloat16")
    base = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}.get(base, "bf16")
    dtypes = dict.fromkeys(PARTS, base)
    q = c.get("quantization_config")
    if not isinstance(q, dict):
        return dtypes
    method = str(q.get("quant_method", ""))
    if method in ("fp8", "fbgemm_fp8"):
        linear = "fp8"
    elif method == "mxfp4":
        dtypes["experts"] = "mxfp4"
        return dtypes
    elif method in ("awq", "gptq") and q.get("bits") in (4, 8):
        linear = "int4" if q.get("bits") == 4 else "int8"
    else:
        return None
    for part in ("attention", "attention_replicated", "dense", "experts"):
        dtypes[part] = linear
    return dtypes


# --- the table of well-known checkpoints --------------------------------------------------------------

@functools.cache
def _table() -> dict[str, ModelWeights]:
    raw = datafiles.load_json("linter.sglang.data", "model_sizes.json")
    out: dict[str, ModelWeights] = {}
    for entry in raw["models"]:
        kv = entry.get("kv")
        geometry = KvGeometry(**kv) if kv else None
        for repo in entry["repos"]:
            mw = ModelWeights(repo, dict(entry["params"]), dict(entry["dtypes"]), geometry,
                              f"{entry['config_source']}; {entry['card']['source']}",
                              any(v != "bf16" for v in entry["dtypes"].values()), entry.get("fp8_variant"))
            out[repo.lower()] = mw
    return out


def table_entry(model_path: str) -> ModelWeights | None:
    """The size-table entry of a Hugging Face repository id (case-insensitive), or None."""
    return _table().get(model_path.strip().rstrip("/").lower())


def from_config(cfg: dict, name: str) -> ModelWeights | None:
    """The weights of a local ``config.json`` (None when its architecture or quantization is not one
    counted here)."""
    archs = cfg.get("architectures") if isinstance(cfg, dict) else None
    arch = str(archs[0]) if isinstance(archs, list) and archs else None
    if arch is None or family_of(arch) is None:
        return None
    try:
        params, kv = count_parameters(cfg, arch)
    except (KeyError, ValueError, TypeError):
        return None
    dtypes = checkpoint_dtypes(cfg)
    if dtypes is None:
        return None
    return ModelWeights(name, params, dtypes, kv, f"{name} (counted from its config.json)",
                        any(v != "bf16" for v in dtypes.values()))


__all__ = ["DTYPE_BYTES", "PARTS", "QUANTIZATION_BYTES", "KvGeometry", "ModelWeights", "FAMILIES", "family_of",
           "count_parameters", "checkpoint_dtypes", "table_entry", "from_config"]


def _index_weights(cfg: dict, index: dict, name: str) -> ModelWeights | None:
    """Weights from a local ``model.safetensors.index.json``'s ``metadata.total_size`` (bytes), all
    counted as sharded over ``tp``: a lower bound. None when the index holds tensors SGLang does not
    load by default (layers past ``num_hidden_layers``: multi-token prediction) or no total."""
    meta = index.get("metadata") if isinstance(index, dict) else None
    total = meta.get("total_size") if isinstance(meta, dict) else None
    weight_map = index.get("weight_map") if isinstance(index, dict) else None
    if not isinstance(total, (int, float)) or isinstance(total, bool) or total <= 0 or not isinstance(weight_map, dict):
        return None
    layers = _text_config(cfg).get("num_hidden_layers") if isinstance(cfg, dict) else None
    if not isinstance(layers, int):
        return None
    import re

    for key in weight_map:
        m = re.search(r"\blayers\.(\d+)\.", str(key))
        if (m and int(m.group(1)) >= layers) or "mtp" in str(key).lower():
            return None
    params = dict.fromkeys(PARTS, 0)
    params["dense"] = int(total)  # bytes, stored as 1-byte "parameters"
    return ModelWeights(name, params, dict.fromkeys(PARTS, "fp8"), None,
                        f"{name}: metadata.total_size of its model.safetensors.index.json ({int(total):,} bytes)")


def weights_for(model_path: str | None, *, architecture: str | None, read_json, base_dirs,
                override_json: str | None = None) -> tuple[ModelWeights | None, str]:
    """The weights of the model a launch serves and where they come from, or (None, why not): a local
    folder's ``config.json`` (then its safetensors index) first, else the size table
    (``linter/sglang/data/model_sizes.json``)."""
    if model_path is None:
        return None, "the model path is not known statically"
    if override_json:
        return None, "--json-model-override-args changes the model's configuration"
    from pathlib import Path

    candidate = Path(model_path)
    looks_local = model_path.startswith((".", "/", "~")) or model_path.count("/") != 1
    if read_json is not None:
        for base in ([None] if candidate.is_absolute() else [b for b in base_dirs if b is not None]):
            folder = candidate if base is None else Path(base) / candidate
            cfg = read_json(folder / "config.json")
            if cfg is None:
                continue
            got = from_config(cfg, model_path)
            if got is not None:
                return got, f"counted from {(folder / 'config.json').as_posix()}"
            index = read_json(folder / "model.safetensors.index.json")
            got = _index_weights(cfg, index, model_path) if index is not None else None
            if got is not None:
                return got, f"{(folder / 'model.safetensors.index.json').as_posix()} (total size)"
            return None, (f"{(folder / 'config.json').as_posix()} names an architecture or quantization whose "
                          "weights are not counted here")
    if looks_local:
        return None, f"{model_path!r} is a local path with no config.json in the repository"
    entry = table_entry(model_path)
    if entry is None:
        return None, f"{model_path!r} is not in the model size table (linter/sglang/data/model_sizes.json)"
    return entry, f"the model size table ({entry.source})"


__all__ += ["weights_for"]
