"""Source snippets for the text output: a line cut to the width around a span, the marks under it
(``^`` for the finding, ``-`` for its labels) with their labels laid out as rustc does, and a fix
shown as the lines it changes.

Widths are terminal cells (``rich.cells``): a tab shows as four spaces, a control character as
``\ufffd``, a wide character takes two cells. Only a slice of a few widths around the span is ever
read from a line, so a finding on a 124 KB one-line file costs a few hundred characters.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from rich.cells import get_character_cell_size

from linter.report.lines import wrap
from linter.report.safe import visible
from linter.rules.base import Diagnostic
from linter.source import Edit, SourceFile, Span, apply_edits

TAB = 4
ELLIPSIS = "…"
SECONDARY_STYLE = "bold blue"
_MAX_FIX_LINES = 6  # per side of a fix hunk; the rest is elided
_MIN_LABEL_WIDTH = 24  # narrower than this, a label goes below the marks, from the left
_MAX_LABEL_LINES = 3  # a primary label that takes more lines under its caret goes below, from the left


# --- one source line, cut to the width --------------------------------------------------------------------

def _cell(ch: str) -> tuple[str, int]:
    """How one character is shown and its width in cells: a tab as spaces, a control character as ``�``."""
    if ch == "\t":
        return " " * TAB, TAB
    if ch < " " or ch == "\x7f" or unicodedata.category(ch) in ("Cc", "Cs"):
        return "\ufffd", 1
    return ch, get_character_cell_size(ch)


@dataclass
class _Shown:
    """A window of a line: ``text`` as displayed, the line-relative characters ``[first, last)`` it
    shows of the ``n`` the line has, and ``col(i)``, the display column of character ``i``."""

    text: str
    first: int
    last: int
    n: int
    cols: list[int]  # display column of each shown character, plus one past the last

    def col(self, i: int) -> int:
        i = min(max(i, self.first), self.last)
        return self.cols[i - self.first]


def line_bounds(source: SourceFile, line: int) -> tuple[int, int]:
    """Offsets of the start and end (before ``\\r\\n``/``\\n``) of a 1-based line."""
    starts = source.line_starts
    start = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(source.text)
    if end > start and source.text[end - 1] == "\r":
        end -= 1
    return start, end


def window(text: str, start: int, end: int, focus: tuple[int, int], room: int, at: int | None = None) -> _Shown:
    """The part of the line ``text[start:end]`` to show in ``room`` cells around the line-relative
    character range ``focus``: the whole line when it fits, else the focus with context on both
    sides (as much of the focus as fits when it is wider), ``…`` where the line is cut. ``at`` fixes
    the first character shown instead. Only a slice of a few widths around the focus is read."""
    n = end - start
    f0 = max(0, min(focus[0], n))
    f1 = max(f0, min(focus[1], n))
    # Every character but a zero-width one takes a cell: a room's worth of characters on each side
    # of the focus (or of its first room, when it is wider) is all a window can show.
    lo, hi = max(0, f0 - room), min(n, min(f1, f0 + room) + room)
    if at is not None:
        lo = max(0, min(lo, at))
    chunk = text[start + lo:start + hi]
    if chunk.isascii() and chunk.isprintable():  # the common case: one cell each, shown as is
        cells = [(c, 1) for c in chunk]
    else:
        cells = [_cell(c) for c in chunk]

    def w(i: int) -> int:
        return cells[i - lo][1]

    if lo == 0 and hi == n and sum(c[1] for c in cells) <= room:
        a, b = 0, n
    else:
        budget = room - 2  # an ellipsis at each end
        fw = sum(w(i) for i in range(f0, f1))
        left = (budget - fw) // 2 if fw < budget else budget // 4
        a, used = f0, 0
        if at is not None:
            a = at
            used = sum(w(i) for i in range(a, f0)) if a < f0 else 0
        else:
            while a > lo and used + w(a - 1) <= left:
                a -= 1
                used += w(a)
        b = max(a, f0)
        while b < hi and used + w(b) <= budget:
            used += w(b)
            b += 1
        while at is None and a > lo and used + w(a - 1) <= budget:  # the line ended: use the room on the left
            a -= 1
            used += w(a)
    cols = [1 if a > 0 else 0]
    parts = [ELLIPSIS] if a > 0 else []
    for shown, width in cells[a - lo:b - lo]:
        parts.append(shown)
        cols.append(cols[-1] + width)
    if b < n:
        parts.append(ELLIPSIS)
    return _Shown("".join(parts), a, b, n, cols)


# --- the snippet: source lines, marks and labels ----------------------------------------------------------

@dataclass
class _Mark:
    start: int  # line-relative character offsets
    end: int
    primary: bool
    label: str


def _marks_by_line(d: Diagnostic) -> dict[int, list[_Mark]]:
    """The primary span and the labels in the finding's file, by 1-based line (a span over several
    lines is marked on its first, to the line's end)."""
    source = d.span.source
    out: dict[int, list[_Mark]] = {}

    def add(span: Span, primary: bool, label: str) -> None:
        line, col = span.start_line_col
        end_line, end_col = span.end_line_col
        start, end = line_bounds(source, line)
        last = end_col - 1 if end_line == line else end - start
        out.setdefault(line, []).append(_Mark(col - 1, max(last, col - 1), primary, label))

    primary_key = d.span.key()
    for span, label in d.labels:
        if span.source is source and span.key() != primary_key:
            add(span, False, label)
    add(d.span, True, d.message)
    return out


def _place(row: list[str], col: int, text: str) -> None:
    """Write ``text`` into the character grid ``row`` from display column ``col``."""
    if len(row) < col + len(text):
        row.extend(" " * (col + len(text) - len(row)))
    row[col:col + len(text)] = text


def _snippet_line(shown: _Shown, marks: list[_Mark], room: int, sev: str) -> list[tuple[str, str]]:
    """The marker row and label rows under one source line, as (text, style) per row; each text
    starts at the first column after the gutter."""
    placed = []  # (col, width, mark)
    for m in marks:
        starts_in = m.start < shown.last or m.start == shown.last == shown.n
        if not (starts_in and (m.end > shown.first or m.start >= shown.first)):
            continue  # outside the window
        c0 = shown.col(m.start)
        c1 = shown.col(m.end)
        placed.append((c0, max(1, c1 - c0), m))
    if not placed:
        return []
    marker: list[str] = []
    # secondaries first, so that the primary's carets win where they overlap
    for c0, w, m in sorted(placed, key=lambda p: p[2].primary):
        _place(marker, c0, ("^" if m.primary else "-") * w)
    rows: list[tuple[str, str]] = []
    labelled = sorted((p for p in placed if p[2].label), key=lambda p: -p[0])
    marker_style = sev if any(m.primary for _, _, m in placed) else SECONDARY_STYLE
    inline = ""
    if labelled:
        c0, w, m = labelled[0]
        end = len("".join(marker).rstrip())
        if c0 + w >= end and end + 1 + len(m.label) <= room:
            inline = " " + m.label
            labelled = labelled[1:]
    rows.append(("".join(marker).rstrip() + inline, marker_style))
    if not labelled:
        return rows
    deferred = None
    pending = [p[0] for p in labelled]
    # A long primary label (the finding's message) is printed below the marks from the left margin
    # rather than as a narrow column under its caret.
    for p in labelled:
        if p[2].primary and len(wrap(p[2].label, room - p[0])) > _MAX_LABEL_LINES:
            deferred = (p[2].label, sev)
            pending.remove(p[0])
    labelled = [p for p in labelled if deferred is None or not p[2].primary]
    if not labelled:
        rows.extend((text, deferred[1]) for text in wrap(deferred[0], room))
        return rows
    rows.append(("".join(_connectors(pending)).rstrip(), SECONDARY_STYLE))
    for c0, w, m in labelled:
        pending.remove(c0)
        style = sev if m.primary else SECONDARY_STYLE
        if room - c0 < _MIN_LABEL_WIDTH:
            if m.primary:
                deferred = (m.label, style)
                continue
            if room - c0 < _MIN_LABEL_WIDTH // 2:  # too narrow even to wrap: move it left
                c0 = max(0, room - _MIN_LABEL_WIDTH)
        for text in wrap(m.label, room - c0):
            grid = _connectors(pending)
            _place(grid, c0, text)
            rows.append(("".join(grid).rstrip(), style))
    if deferred is not None:
        for text in wrap(deferred[0], room):
            rows.append((text, deferred[1]))
    return rows


def _connectors(cols: list[int]) -> list[str]:
    grid: list[str] = []
    for c in cols:
        _place(grid, c, "|")
    return grid


def snippet_rows(d: Diagnostic, room_for: int, sev: str) -> list[tuple[str, str, str]]:
    """The rows under the finding's header, ``room_for`` cells wide after the gutter, as (line number,
    ``""`` for a marker or label row, or ``"..."`` for elided lines; text; rich style): the lines of
    the primary span and of the labels in the same file, in order, each with its marks and labels.
    ``sev`` is the style of the primary marks and message."""
    source = d.span.source
    by_line = _marks_by_line(d)
    lines = sorted(by_line)
    out: list[tuple[str, str, str]] = []
    prev = None
    for line in lines:
        if prev is not None and line == prev + 2:  # one line between: show it rather than elide it
            shown = window(source.text, *line_bounds(source, prev + 1), (0, 0), room_for)
            out.append((str(prev + 1), shown.text, ""))
        elif prev is not None and line > prev + 2:
            out.append(("...", "", ""))
        marks = by_line[line]
        primary = next((m for m in marks if m.primary), None)
        focus_marks = [m for m in marks if m.primary] or marks
        span_all = (min(m.start for m in marks), max(m.end for m in marks))
        focus = span_all if span_all[1] - span_all[0] <= room_for - 2 else (focus_marks[0].start, focus_marks[0].end)
        if primary is not None and not (focus[0] <= primary.start <= focus[1]):
            focus = (primary.start, primary.end)
        shown = window(source.text, *line_bounds(source, line), focus, room_for)
        out.append((str(line), shown.text, ""))
        for text, style in _snippet_line(shown, marks, room_for, sev):
            out.append(("", text, style))
        prev = line
    return out


# --- a fix, as the lines it changes -----------------------------------------------------------------------

def _hunks(edits: list[Edit]) -> list[tuple[SourceFile, int, int, list[Edit]]]:
    """Edits grouped by file and by the lines they touch: (source, first line, last line, edits)."""
    by_source: dict[int, tuple[SourceFile, list[Edit]]] = {}
    for e in edits:
        by_source.setdefault(id(e.span.source), (e.span.source, []))[1].append(e)
    out = []
    for source, group in by_source.values():
        group.sort(key=lambda e: (e.span.start, e.span.end))
        cur: list[Edit] = []
        first = last = 0
        for e in group:
            a, b = e.span.start_line_col[0], e.span.end_line_col[0]
            if cur and a <= last:
                cur.append(e)
                last = max(last, b)
                continue
            if cur:
                out.append((source, first, last, cur))
            cur, first, last = [e], a, b
        if cur:
            out.append((source, first, last, cur))
    return out


def fix_rows(d: Diagnostic, room_for: int) -> list[tuple[str, str, str, str]]:
    """(file header or "", line number, ``-``/``+``/``…``, text) rows showing what the fix changes."""
    rows: list[tuple[str, str, str, str]] = []
    for source, first, last, edits in _hunks(d.fix.edits if d.fix else []):
        if source is not d.span.source:
            rows.append((visible(source.display), "", "", ""))
        start = line_bounds(source, first)[0]
        end = line_bounds(source, last)[1]
        old = source.text[start:end]
        shifted = [Edit(Span(source, e.span.start - start, e.span.end - start), e.content) for e in edits]
        try:
            new = apply_edits(old, shifted)
        except ValueError:
            continue
        rel = edits[0].span.start - start
        width = max(1, edits[0].span.end - edits[0].span.start, len(edits[0].content))
        first_shown = None  # the old and the new line are cut at the same character
        for sign, text in (("-", old), ("+", new)):
            lines = text.split("\n")
            for i, line_text in enumerate(lines[:_MAX_FIX_LINES]):
                line_text = line_text[:-1] if line_text.endswith("\r") else line_text
                focus = (rel, rel + width) if i == 0 else (0, 1)
                shown = window(line_text, 0, len(line_text), focus, room_for, first_shown if i == 0 else None)
                if i == 0 and first_shown is None:
                    first_shown = shown.first
                rows.append(("", str(first + i), sign, shown.text))
            if len(lines) > _MAX_FIX_LINES:
                rows.append(("", "", sign, f"{ELLIPSIS} {len(lines) - _MAX_FIX_LINES} more lines"))
    return rows
