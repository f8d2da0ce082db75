"""The cheap SGLang mention filter: a file (or an embedded block) that names none of :data:`PREFILTER`
is not parsed. Used by the engine for whole files and by the formats that embed code blocks
(Markdown fences, reStructuredText directives) for each block, so it sits in the source layer.
"""

from __future__ import annotations

import re
import sys

__all__ = ["PREFILTER", "imports_other_modules", "mentions_sglang"]

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


_PY_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+(\.*)([A-Za-z_]\w*)?|import[ \t]+([A-Za-z_]\w*))", re.MULTILINE)


def imports_other_modules(name: str, data: bytes) -> bool:
    """True for a Python file (``name`` ends in ``.py``) that imports a module outside Python's standard
    library (a relative import, or a top-level name that is not one of ``sys.stdlib_module_names``): a
    module of the repository may hold the launch it runs (``from p.good import CMD;
    subprocess.run(CMD)``, miles' ``_execute_train(args)``; issue 35). Such a file is not skipped on its
    bytes; the Python format's ``read_with`` then asks about the modules it imports."""
    if not name.endswith(".py"):
        return False
    for m in _PY_IMPORT.finditer(data):
        if m.group(1):
            return True
        top = (m.group(2) or m.group(3) or b"").decode("ascii", "replace")
        if top and top not in sys.stdlib_module_names:
            return True
    return False
