"""The comments of Python source text, and whether a name is written as code, without tokenizing.

:func:`scan` finds every comment and string literal with a few regular expressions (the rules of
CPython's tokenizer for where a string or a comment starts and ends) and answers what
:mod:`tokenize` would, at a fraction of the cost: the standard tokenizer is pure Python, a token at a
time, and compiling its patterns costs more than reading a small launch file. An f-string counts as
code (its fields are). Text that the tokenizer refuses — a triple-quoted string or a bracket left
open at the end, a line continuation at the very end — gives no answer (None), as it did.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right

from linter.extract.python.literals import closing_quote

_START = re.compile(r"[#'\"]")
_PREFIX = frozenset("rRbBuUfF")
_END = {
    "'": re.compile(r"[^'\\\n]*(?:\\(?:\r\n|[\s\S])[^'\\\n]*)*'"),
    '"': re.compile(r'[^"\\\n]*(?:\\(?:\r\n|[\s\S])[^"\\\n]*)*"'),
    "'''": re.compile(r"[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'''"),
    '"""': re.compile(r'[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""'),
}
_COMMENT_END = re.compile(r"[\r\n]")
_BRACKET = re.compile(r"[()\[\]{}]")
_CONTINUED_AT_END = re.compile(r"\\\r?\n?\Z")
_NESTED_FSTRINGS = sys.version_info >= (3, 12)  # PEP 701: a field may hold the f-string's own quote
_C_TOKENIZER = _NESTED_FSTRINGS  # tokenize is CPython's own tokenizer from 3.12: stricter


def scan(text: str, names: re.Pattern) -> tuple[list[tuple[int, int]], bool] | None:
    """(the (start, end) offsets of every comment, in order; whether ``names`` matches somewhere in
    code — outside comments and plain string literals), or None when Python's tokenizer would stop
    with an error."""
    comments: list[tuple[int, int]] = []
    quiet: list[tuple[int, int]] = []  # comments and plain strings: no code there
    depth = 0
    pos = 0
    n = len(text)
    while pos < n:
        m = _START.search(text, pos)
        code_end = m.start() if m else n
        depth = _brackets(text, pos, code_end, depth)
        if m is None:
            pos = n
            break
        q = m.start()
        c = text[q]
        if c == "#":
            e = _COMMENT_END.search(text, q)
            end = e.start() if e else n
            comments.append((q, end))
            quiet.append((q, end))
            pos = end
            continue
        quote = c * 3 if text.startswith(c * 3, q) else c
        start = q - _prefix_length(text, q)
        fstring = "f" in text[start:q].lower()
        body = q + len(quote)
        if fstring and _NESTED_FSTRINGS:
            close = closing_quote(text, body, n, quote, True)
            end = close + len(quote) if close >= 0 else -1
        else:
            e = _END[quote].match(text, body)
            end = e.end() if e else -1
        if end < 0:
            if len(quote) == 3 or _C_TOKENIZER:
                return None  # EOF in a multi-line string; from 3.12 any unterminated string
            pos = q + 1  # up to 3.11 the tokenizer reads a lone quote as an error and goes on
            continue
        if not fstring:  # an f-string's fields are code
            quiet.append((start, end))
        pos = end
    if depth != 0:
        return None  # EOF in a multi-line statement (up to 3.11 also after one bracket too many)
    tail = _CONTINUED_AT_END.search(text)
    if tail is not None and not _inside(quiet, tail.start()):
        return None
    starts = [s for s, _ in quiet]
    named = any(not _inside(quiet, m.start(), starts) for m in names.finditer(text))
    return comments, named


def _prefix_length(text: str, q: int) -> int:
    """How many letters before the quote at ``q`` are a string prefix (``rb"…"``; in ``if"…"`` none
    is: a prefix starts a word)."""
    for k in (2, 1):
        if q - k >= 0 and all(ch in _PREFIX for ch in text[q - k:q]) and \
                not (q - k > 0 and (text[q - k - 1].isalnum() or text[q - k - 1] == "_")):
            return k
    return 0


def _brackets(text: str, start: int, end: int, depth: int) -> int:
    """The bracket depth after ``text[start:end]``, from ``depth`` before it. Up to Python 3.11 the
    tokenizer counts openers minus closers; from 3.12 a closer without an opener is let through."""
    if start >= end:
        return depth
    chunk = text[start:end]
    if not _C_TOKENIZER:
        return depth + chunk.count("(") + chunk.count("[") + chunk.count("{") - chunk.count(")") \
            - chunk.count("]") - chunk.count("}")
    for c in _BRACKET.findall(chunk):
        if c in "([{":
            depth += 1
        elif depth:
            depth -= 1
    return depth


def _inside(spans: list[tuple[int, int]], offset: int, starts: list[int] | None = None) -> bool:
    """``offset`` is inside one of ``spans`` (sorted, not overlapping)."""
    if starts is None:
        starts = [s for s, _ in spans]
    k = bisect_right(starts, offset) - 1
    return k >= 0 and offset < spans[k][1]
