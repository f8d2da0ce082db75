"""Wrapping report text to the output width (shared by the text report and its snippets)."""

from __future__ import annotations


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (at least 10); a longer word (a path, a URL) is
    kept whole. ``[""]`` for empty text."""
    if 0 < len(text) <= max(width, 10) and text.isprintable() and text[0] != " " and text[-1] != " ":
        return [text]  # what textwrap gives a line that fits (a summary): without loading it
    import textwrap

    return textwrap.wrap(text, max(width, 10), break_long_words=False, break_on_hyphens=False) or [""]
