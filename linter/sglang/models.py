"""Which architecture a launch serves: ``hf_config.architectures[0]`` as SGLang would read it.

SGLang's absorbed-MLA checks look at ``architectures[0]`` only (0.5.18
``python/sglang/srt/server_args.py:8216-8231``). Its sources, in the order this module uses them
(sglang-semantics.md §6.2):

1. ``--json-model-override-args '{"architectures": [...]}'`` — applied last by SGLang, so it wins;
2. the user's ``models`` table in the lint-configs configuration (private checkpoints);
3. a local ``config.json`` when ``--model-path`` names a folder that exists beside the linted file
   (then under the working directory);
4. the catalog of well-known repositories, ``linter/sglang/data/models.json`` (with evidence).

Anything else is unknown — never guessed from a name. ``none``/``dummy`` model paths skip all of
SGLang's validation (``server_args.py:3622``) and ``instance://`` paths skip the model checks.
"""

from __future__ import annotations

import fnmatch
import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Callable

from linter.source import Span


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


@functools.cache
def _catalog() -> tuple[dict[str, dict], list[dict]]:
    raw = json.loads(resources.files("linter.sglang.data").joinpath("models.json").read_text("utf-8"))
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


def resolve_model(
    model_path: str | None,
    *,
    base_dirs: list[Path],
    override_json: str | None = None,
    user_models: dict[str, str] | None = None,
    read_json: Callable[[Path], dict | None] | None = None,
    span: Span | None = None,
) -> ModelInfo:
    """Resolve the architecture of ``model_path`` (None when the model path itself is unknown).

    ``base_dirs`` are the folders a relative local path is looked up from (the linted file's folder,
    then the working directory); ``read_json`` reads a local ``config.json`` (returns None when
    missing or invalid) so that callers control file access.
    """
    override_arch = None
    if override_json:
        try:
            override = json.loads(override_json)
        except ValueError:
            override = None
        if isinstance(override, dict) and isinstance(override.get("architectures"), list) and override["architectures"]:
            override_arch = str(override["architectures"][0])
    if model_path is None:
        if override_arch:
            return ModelInfo(None, override_arch, origin="--json-model-override-args", span=span)
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
        return ModelInfo(model_path, override_arch, dsa=info.dsa, origin="--json-model-override-args", span=span)
    return info


def _has_kv_lora_rank(cfg) -> bool:
    """SGLang reads ``kv_lora_rank`` from the text config (``hf_text_config``: ``text_config`` when the
    config has one; 0.5.23 ``configs/model_config.py:1386-1388``)."""
    if not isinstance(cfg, dict):
        return False
    text = cfg.get("text_config")
    return "kv_lora_rank" in cfg or (isinstance(text, dict) and "kv_lora_rank" in text)


def _resolve_path(model_path, base_dirs, user_models, read_json, span) -> ModelInfo:
    for key, arch in user_models.items():
        if key.rstrip("/").lower() == model_path.rstrip("/").lower():
            return ModelInfo(model_path, arch, origin="the 'models' table of the lint-configs configuration", span=span)
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
                                 mla=_has_kv_lora_rank(cfg))
    if not looks_local:
        entry = catalog_lookup(model_path)
        if entry is not None:
            return ModelInfo(model_path, entry["architecture"], dsa=bool(entry.get("dsa")),
                             origin="the model catalog", evidence=entry["evidence"], span=span,
                             mla=bool(entry.get("mla")))
    what = "a local path with no config.json in the repository" if looks_local else "not in the model catalog"
    return ModelInfo(model_path, None, origin=f"{model_path!r} is {what}", span=span)
