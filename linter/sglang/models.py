"""Which architecture a launch serves: ``hf_config.architectures[0]`` as SGLang would read it.

SGLang's absorbed-MLA checks look at ``architectures[0]`` only (0.5.18
``python/sglang/srt/server_args.py:8216-8231``). Its sources, first one found wins
(sglang-semantics.md §6.2):

1. a local ``config.json`` when ``--model-path`` names a folder that exists beside the linted file
   (then under the working directory);
2. the user's ``models`` table in the lint-configs configuration (private checkpoints);
3. the catalog of well-known repositories, ``linter/sglang/data/models.json`` (with evidence);
4. the checkpoint's name — the repository name of a Hugging Face id or the last part of a local
   path — when it is a published checkpoint of the catalog or a family of
   ``linter/sglang/data/model_names.json`` (sglang-semantics.md §6.3 only), quantisation suffixes
   such as ``-FP8`` removed. Such a :class:`ModelInfo` has ``inferred_from`` set: rules show the
   inference and never offer a safe fix that rests on it.

``--json-model-override-args '{"architectures": [...]}'`` is applied on top of whichever source,
as SGLang does (``hf_transformers/config.py:266-275``). Anything else is unknown.
``none``/``dummy`` model paths skip all of SGLang's validation (``server_args.py:3622``) and
``instance://`` paths skip the model checks.
"""

from __future__ import annotations

import fnmatch
import functools
import json
from pathlib import Path

from linter import datafiles
from linter.records import dataclass
from linter.source import Span

TYPE_CHECKING = False  # typing is imported only by type checkers: a compose file's run need not load it (8 ms)
if TYPE_CHECKING:
    from typing import Callable


@dataclass(frozen=True)
class ModelInfo:
    """``architecture`` is ``architectures[0]`` or None (unknown); ``dsa`` is True when the config has
    ``index_topk``; ``origin`` says in words where the architecture came from; ``skip_checks`` is
    True for ``none``/``dummy``/``instance://`` model paths."""

    path: str | None
    architecture: str | None
    dsa: bool = False
    origin: str = ""
    span: Span | None = None
    skip_checks: bool = False
    mla: bool = False
    evidence: str = ""
    inferred_from: str | None = None
    """The checkpoint name the architecture was inferred from (source 4), else None."""
    learnable_sink: bool = False
    """The config has ``learnable_sink`` set (DSA attention sinks: SGLang 0.5.20+ then keeps a
    bfloat16 KV cache; ``model_checks.json`` ``dsa_kv_cache_default``)."""

    @property
    def inference_note(self) -> str | None:
        """The note a diagnostic that rests on a name inference carries, or None."""
        if self.inferred_from is None or self.architecture is None:
            return None
        return (f"architecture {self.architecture} inferred from the name {self.inferred_from}; declare it under "
                "`models` if that is wrong")


@functools.cache
def _catalog() -> tuple[dict[str, dict], list[dict]]:
    raw = datafiles.load_json("linter.sglang.data", "models.json")
    exact = {}
    for entry in raw["models"]:
        for repo in entry["repos"]:
            exact[repo.lower()] = entry
    return exact, raw.get("patterns", [])


def catalog_lookup(model_path: str) -> dict | None:
    """The catalog entry for a Hugging Face repository id (case-insensitive), or None."""
    key = model_path.strip().rstrip("/").lower()
    exact, patterns = _catalog()
    if key in exact:
        return exact[key]
    for p in patterns:
        if fnmatch.fnmatchcase(key, p["glob"].lower()):
            return p
    return None


@functools.cache
def _names() -> dict:
    return datafiles.load_json("linter.sglang.data", "model_names.json")


def checkpoint_name(model_path: str) -> str:
    """The name a model path gives its checkpoint: the last non-empty part of the path
    (``/mnt/models/DeepSeek-V3-0324/`` → ``DeepSeek-V3-0324``, ``org/Repo`` → ``Repo``)."""
    parts = [p for p in model_path.replace("\\", "/").split("/") if p]
    return parts[-1] if parts else model_path


def _strip_quantisation(name: str) -> str:
    suffixes = sorted(_names()["quantisation_suffixes"], key=len, reverse=True)
    lowered = name.lower()
    changed = True
    while changed:
        changed = False
        for suf in suffixes:
            for sep in ("-", "_", "."):
                if lowered.endswith(sep + suf) and len(lowered) > len(suf) + 1:
                    lowered = lowered[: -len(suf) - 1]
                    changed = True
    return name[: len(lowered)]


def infer_from_name(model_path: str) -> dict | None:
    """The architecture a checkpoint name stands for, or None when the name matches nothing, matches
    an UNVERIFIED family, or matches families of different architectures.

    Returns ``{"name", "architecture", "dsa", "mla", "source"}``. Matching is on
    :func:`checkpoint_name` compared case-insensitively, first as written, then without quantisation
    suffixes (``DeepSeek-R1-FP4`` → ``DeepSeek-R1``); a name is a published checkpoint when a
    repository of ``models.json`` has that name, or a family when ``model_names.json`` lists it.
    """
    data = _names()
    written = checkpoint_name(model_path)
    for name in dict.fromkeys([written, _strip_quantisation(written)]):
        key = name.lower()
        if any(fnmatch.fnmatchcase(key, g.lower()) for g in data["unverified"]["globs"]):
            return None
        found: dict[str, dict] = {}
        exact, _ = _catalog()
        for repo, entry in exact.items():
            if repo.rsplit("/", 1)[-1] == key:
                found.setdefault(entry["architecture"], {"architecture": entry["architecture"],
                                                         "dsa": bool(entry.get("dsa")), "mla": bool(entry.get("mla")),
                                                         "source": f"the catalog entry {repo} ({entry['evidence']})"})
        for fam in data["families"]:
            if key in (n.lower() for n in fam.get("names", ())) or \
                    any(fnmatch.fnmatchcase(key, g.lower()) for g in fam.get("globs", ())):
                found.setdefault(fam["architecture"], {"architecture": fam["architecture"], "dsa": bool(fam.get("dsa")),
                                                       "mla": bool(fam.get("mla")), "source": fam["source"]})
        if len(found) == 1:
            return {"name": written, **next(iter(found.values()))}
        if found:
            return None  # several architectures: ambiguous
    return None


def resolve_model(
    model_path: str | None,
    *,
    base_dirs: list[Path],
    override_json: str | None = None,
    user_models: dict[str, str] | None = None,
    read_json: Callable[[Path], dict | None] | None = None,
    span: Span | None = None,
    declared: tuple[str, str, Span | None] | None = None,
) -> ModelInfo:
    """Resolve the architecture of ``model_path`` (None when the model path itself is unknown).

    ``base_dirs`` are the folders a relative local path is looked up from (the linted file's folder,
    then the working directory); ``read_json`` reads a local ``config.json`` (returns None when
    missing or invalid) so that callers control file access. ``declared`` is an architecture the
    deployment states for its model — ``(architecture, where in words, span)``, e.g. OME's
    ``modelArchitecture`` — used only when the path gives none (an operator variable such as
    ``$(MODEL_PATH)``, a local path without ``config.json``).
    """
    info = _resolve(model_path, base_dirs, override_json, user_models, read_json, span)
    if info.architecture is None and not info.skip_checks and declared is not None:
        arch, how, where = declared
        return ModelInfo(info.path, arch, origin=how, span=where or span)
    return info


def _resolve(model_path, base_dirs, override_json, user_models, read_json, span) -> ModelInfo:
    override = None
    if override_json:
        try:
            override = json.loads(override_json)
        except (ValueError, RecursionError):  # SGLang fails on it at start-up: SGL212 says so
            override = None
    override = override if isinstance(override, dict) else {}
    archs = override.get("architectures")
    override_arch = str(archs[0]) if isinstance(archs, list) and archs else None
    if model_path is None:
        if override_arch:
            return ModelInfo(None, override_arch, dsa="index_topk" in override, origin="--json-model-override-args",
                             span=span)
        return ModelInfo(None, None, origin="the model path is not known statically", span=span)
    lowered = model_path.lower()
    if lowered in ("none", "dummy"):
        return ModelInfo(model_path, None, origin=f"model path {model_path!r} skips SGLang's checks",
                         span=span, skip_checks=True)
    if lowered.startswith("instance://"):
        return ModelInfo(model_path, None, origin="instance:// model paths skip SGLang's model checks",
                         span=span, skip_checks=True)
    info = _resolve_path(model_path, base_dirs, user_models or {}, read_json, span)
    if override_arch:
        # SGLang sets every key of the override on the loaded config (config.py:266-275).
        return ModelInfo(model_path, override_arch, dsa=info.dsa or "index_topk" in override,
                         origin="--json-model-override-args", span=span)
    if "index_topk" in override and info.architecture:
        return ModelInfo(model_path, info.architecture, True, info.origin, span, mla=info.mla, evidence=info.evidence,
                         inferred_from=info.inferred_from)
    return info


def _has_kv_lora_rank(cfg) -> bool:
    """SGLang reads ``kv_lora_rank`` from the text config (``hf_text_config``: ``text_config`` when the
    config has one; 0.5.23 ``configs/model_config.py:1386-1388``)."""
    if not isinstance(cfg, dict):
        return False
    text = cfg.get("text_config")
    return "kv_lora_rank" in cfg or (isinstance(text, dict) and "kv_lora_rank" in text)


def _resolve_path(model_path, base_dirs, user_models, read_json, span) -> ModelInfo:
    looks_local = model_path.startswith((".", "/", "~")) or model_path.count("/") != 1
    if read_json is not None:
        candidate = Path(model_path)
        bases = [None] if candidate.is_absolute() else base_dirs
        for base in bases:
            folder = candidate if base is None else base / candidate
            cfg = read_json(folder / "config.json")
            if cfg is not None:
                archs = cfg.get("architectures") if isinstance(cfg, dict) else None
                arch = str(archs[0]) if isinstance(archs, list) and archs else None
                return ModelInfo(model_path, arch, dsa=isinstance(cfg, dict) and "index_topk" in cfg,
                                 origin=f"{(folder / 'config.json').as_posix()}", span=span,
                                 mla=_has_kv_lora_rank(cfg),
                                 learnable_sink=isinstance(cfg, dict) and bool(cfg.get("learnable_sink")))
    for key, arch in user_models.items():
        if key.rstrip("/").lower() == model_path.rstrip("/").lower():
            return ModelInfo(model_path, arch, origin="the 'models' table of the lint-configs configuration", span=span)
    if not looks_local:
        entry = catalog_lookup(model_path)
        if entry is not None:
            return ModelInfo(model_path, entry["architecture"], dsa=bool(entry.get("dsa")),
                             origin="the model catalog", evidence=entry["evidence"], span=span,
                             mla=bool(entry.get("mla")))
    guess = infer_from_name(model_path)
    if guess is not None:
        return ModelInfo(model_path, guess["architecture"], dsa=guess["dsa"], span=span, mla=guess["mla"],
                         origin=f"inferred from the name {guess['name']}", evidence=guess["source"],
                         inferred_from=guess["name"])
    what = "a local path with no config.json in the repository" if looks_local else "not in the model catalog"
    return ModelInfo(model_path, None, origin=f"{model_path!r} is {what}", span=span)
