"""Source files, spans and text edits.

Every position in lint-configs is a character offset into the decoded text of one
:class:`SourceFile`. Lines and columns are derived from offsets only when a diagnostic is
reported: both are 1-based, columns count characters (not bytes), and an end column is exclusive,
as the JSON contract in DESIGN.md says.

Files are decoded once. The text keeps its line endings exactly (``\\r\\n`` stays ``\\r\\n``) and a
UTF-8 byte-order mark is remembered and written back, so that applying an edit changes no byte
outside it.
"""

from __future__ import annotations

import bisect
from dataclasses import field
from pathlib import Path

from linter.records import dataclass

BOM = b"\xef\xbb\xbf"


class DecodeError(ValueError):
    """The bytes of a file are not UTF-8 text. ``offset`` is the byte offset of the first bad byte."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(eq=False)
class SourceFile:
    """One decoded file.

    ``path`` is the absolute path, ``display`` the path printed in diagnostics (relative to the
    working directory, ``/`` separators), ``text`` the decoded text with its line endings, ``bom``
    whether the file started with a UTF-8 byte-order mark.
    """

    path: Path
    display: str
    text: str
    bom: bool = False
    _starts: list[int] = field(default_factory=list, repr=False)

    @classmethod
    def from_bytes(cls, path: Path, display: str, data: bytes) -> SourceFile:
        """Decode ``data`` as UTF-8 (with an optional BOM). Raises :class:`DecodeError`."""
        bom = data.startswith(BOM)
        body = data[len(BOM):] if bom else data
        if b"\x00" in body:
            raise DecodeError("binary file (it holds NUL bytes)", body.index(b"\x00"))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DecodeError(f"not UTF-8 text (byte 0x{body[exc.start]:02x} at byte offset {exc.start})",
                              exc.start) from None
        return cls(path=path, display=display, text=text, bom=bom)

    def encode(self, text: str | None = None) -> bytes:
        """The bytes to write for ``text`` (default: this file's text), with the BOM kept."""
        data = (self.text if text is None else text).encode("utf-8")
        return BOM + data if self.bom else data

    @property
    def line_starts(self) -> list[int]:
        """Offsets at which each line starts (``\\n`` ends a line; ``\\r\\n`` counts once)."""
        if not self._starts:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._starts = starts
        return self._starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        starts = self.line_starts
        line = bisect.bisect_right(starts, offset) - 1
        return line + 1, offset - starts[line] + 1

    def line_of(self, offset: int) -> int:
        return self.line_col(offset)[0]

    def line_text(self, line: int) -> str:
        """Text of a 1-based line without its line ending."""
        starts = self.line_starts
        if not 1 <= line <= len(starts):
            return ""
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset(self, line: int, column: int) -> int:
        """Character offset of a 1-based (line, column)."""
        starts = self.line_starts
        line = max(1, min(line, len(starts)))
        return min(starts[line - 1] + column - 1, len(self.text))

    def span(self, start: int, end: int) -> Span:
        return Span(self, start, end)

    def __repr__(self) -> str:
        return f"SourceFile({self.display!r})"


@dataclass(frozen=True, eq=False)
class Span:
    """A half-open range ``[start, end)`` of character offsets in ``source``."""

    source: SourceFile
    start: int
    end: int

    @property
    def text(self) -> str:
        return self.source.text[self.start:self.end]

    @property
    def start_line_col(self) -> tuple[int, int]:
        return self.source.line_col(self.start)

    @property
    def end_line_col(self) -> tuple[int, int]:
        return self.source.line_col(self.end)

    @property
    def line(self) -> int:
        return self.source.line_of(self.start)

    def key(self) -> tuple[str, int, int]:
        return (str(self.source.path), self.start, self.end)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Span) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        line, col = self.start_line_col
        return f"Span({self.source.display}:{line}:{col} {self.text!r})"


def written(span: Span | None) -> str:
    """The source text of ``span`` extended to the end of its last word (an unknown value's span ends
    at its ``$``), blanks folded, at most 80 characters; "" for None. For messages that quote what a
    file wrote."""
    if span is None:
        return ""
    text = span.source.text
    end = span.end
    while end < len(text) and not text[end].isspace():
        end += 1
    return " ".join(text[span.start:end].split())[:80]


@dataclass(frozen=True)
class Edit:
    """Replace ``span`` with ``content``. Edits never overlap within one fix."""

    span: Span
    content: str


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (offsets refer to ``text``) in one pass. Raises ValueError on overlap."""
    out = []
    pos = 0
    for edit in sorted(edits, key=lambda e: (e.span.start, e.span.end)):
        if edit.span.start < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:edit.span.start])
        out.append(edit.content)
        pos = edit.span.end
    out.append(text[pos:])
    return "".join(out)
