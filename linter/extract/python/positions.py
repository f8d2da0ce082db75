"""Character offsets of :mod:`ast` nodes, and the spans ``ast`` does not record.

``ast`` gives a node's start and end as a line number and a column counted in UTF-8 bytes of that
line, with lines ended by ``\\r\\n``, ``\\r`` or ``\\n`` (CPython's tokenizer reads all three). Every
position in lint-configs is a character offset into the decoded text (:mod:`linter.source`), so
:class:`Positions` converts: the byte column is decoded against its own line (a line of ASCII costs
nothing). Names that ``ast`` keeps only as strings — a ``def``/``class`` name, ``except … as e``, a
keyword argument's name — are found in the text after the node that holds them.
"""

from __future__ import annotations

import re

_NEWLINE = re.compile(r"\r\n|\r|\n")
_NAME = re.compile(r"[^\W\d]\w*")
_DEF_NAME = re.compile(r"(?:async\s+)?(?:def|class)\s+([^\W\d]\w*)")
_AS_NAME = re.compile(r"\bas\s*(?:\\\r?\n\s*)*([^\W\d]\w*)")


class Positions:
    """Offsets of the nodes of one parsed text (``text`` as given to ``ast.parse``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
        self._ascii = text.isascii()
        self._lines: dict[int, bytes | None] = {}  # line index -> its UTF-8 bytes (None: ASCII)

    def char(self, lineno: int, col: int) -> int:
        """The character offset of ``ast``'s (1-based line, byte column)."""
        start = self.starts[lineno - 1]
        if self._ascii or col == 0:
            return start + col
        i = lineno - 1
        data = self._lines.get(i, b"")
        if data == b"":
            end = self.starts[i + 1] if i + 1 < len(self.starts) else len(self.text)
            line = self.text[start:end]
            data = self._lines[i] = None if line.isascii() else line.encode("utf-8")
        if data is None:
            return start + col
        return start + len(data[:col].decode("utf-8", "replace"))

    def offsets(self, node) -> tuple[int, int]:
        """(start, end) character offsets of a node that has a position."""
        return (self.char(node.lineno, node.col_offset), self.char(node.end_lineno, node.end_col_offset))

    def name_after(self, offset: int) -> tuple[int, int]:
        """The identifier that starts at ``offset`` (a keyword argument's name)."""
        m = _NAME.match(self.text, offset)
        return (offset, m.end()) if m else (offset, offset)

    def def_name(self, start: int) -> tuple[int, int]:
        """The name of the ``def``/``class`` statement that starts at ``start`` (after its decorators)."""
        m = _DEF_NAME.match(self.text, start)
        return m.span(1) if m else (start, start)

    def as_name(self, start: int, end: int) -> tuple[int, int]:
        """The name after ``as`` between ``start`` and ``end`` (``except E as e:``)."""
        m = _AS_NAME.search(self.text, start, end)
        return m.span(1) if m else (start, start)

    def strip_parens(self, start: int, end: int) -> tuple[int, int]:
        """(start, end) without one pair of parentheses that encloses all of it (``ast`` counts a
        parenthesised tuple's parentheses as its own; the spans the analysis reports do not)."""
        text = self.text
        if not (text.startswith("(", start) and end > start + 1 and text[end - 1] == ")"):
            return start, end
        depth = 0
        i = start
        quote = None
        while i < end:
            c = text[i]
            if quote is not None:
                if c == "\\":
                    i += 1
                elif text.startswith(quote, i):
                    i += len(quote) - 1
                    quote = None
            elif c in "\"'":
                quote = c * 3 if text.startswith(c * 3, i) else c
                i += len(quote) - 1
            elif c == "#":
                nl = _NEWLINE.search(text, i, end)
                i = nl.start() if nl else end
                continue
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    if i != end - 1:
                        return start, end
                    inner_s, inner_e = start + 1, end - 1
                    while inner_s < inner_e and text[inner_s] in " \t\r\n\\":
                        inner_s += 1
                    while inner_e > inner_s and text[inner_e - 1] in " \t\r\n,\\":
                        if text[inner_e - 1] == ",":
                            break
                        inner_e -= 1
                    return inner_s, inner_e
            i += 1
        return start, end
