"""A launch's identity as the human-readable reports show it."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"#\d+$")
_WHOLE_FILE = ("script:", "<module>:")


def reader_scope(identity: str | None, model: str | None = None) -> str:
    """The launch's scope as a reader knows it (``services.s``, ``launch():deepseek-ai/DeepSeek-V3``):
    ``identity`` (a baseline's launch identity, ``script:deepseek-ai/DeepSeek-V3#1``) without its
    number (the line tells launches apart), without the whole file's scope (``script``, ``<module>``:
    it names nothing to open) and, when ``model`` is given, without the model (shown on its own
    line). An empty string when nothing is left."""
    name = _NUMBER.sub("", identity or "")
    for whole in _WHOLE_FILE:
        if name.startswith(whole):
            name = name[len(whole):]
            break
    if model and name.endswith(model):
        name = name[:-len(model)].removesuffix(":")
    return "" if name in ("script", "<module>") else name
