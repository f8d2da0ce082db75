"""Wrapping report text to the output width (shared by the text report and its snippets)."""

from __future__ import annotations

import textwrap


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (at least 10); a longer word (a path, a URL) is
    kept whole. ``[""]`` for empty text."""
    return textwrap.wrap(text, max(width, 10), break_long_words=False, break_on_hyphens=False) or [""]
