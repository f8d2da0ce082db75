"""The cheap SGLang mention filter: a file (or an embedded block) that names none of :data:`PREFILTER`
is not parsed. Used by the engine for whole files and by the formats that embed code blocks
(Markdown fences, reStructuredText directives) for each block, so it sits in the source layer.
"""

from __future__ import annotations

__all__ = ["PREFILTER", "mentions_sglang"]

PREFILTER = ("sglang", "SGLang", "SGLANG", "Sglang", "attention-backend", "attention_backend", "deterministic",
             "rl-on-policy", "rl_on_policy", "execute_train")
"""A file that contains none of these is not parsed: it cannot hold an SGLang launch or setting. The
name is matched in the spellings text uses (``sglang``, ``SGLang``, ``SGLANG_…``, ``Sglang``) rather than
case-insensitively: a page that names SGLang only in prose may hold a framework command that starts it
(an AReaL ``train.py --config X.yaml``), and literal alternatives keep the filter a plain byte scan
(on 2,117 files of verl and AReaL, 27 MB: +9 % scan time for the extra spellings, +140 % for a
case-insensitive ``sglang``). miles' ``execute_train`` starts the trainer, which starts SGLang, from
scripts that may not name SGLang."""


def mentions_sglang(text: str) -> bool:
    """The cheap pre-filter: False when no :data:`PREFILTER` substring occurs (the file is then not parsed)."""
    return any(p in text for p in PREFILTER)
