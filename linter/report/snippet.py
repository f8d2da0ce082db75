"""Source snippets for the text output: a line cut to the width around a span, the marks under it
(``^`` for the finding, ``-`` for its labels) with their labels laid out as rustc does, each in its
own colour, and a fix shown as the lines it changes.

Widths are terminal cells (``rich.cells``): a tab shows as four spaces, a control character or a
bidirectional override as its escape (``\x1b``, ``\u202e``), a wide character takes two cells.
Only a slice of a few widths around the span is ever read from a line, so a finding on a 124 KB
one-line file costs a few hundred characters.
"""

from __future__ import annotations

from linter.records import Record
from linter.report.lines import wrap
from linter.report.safe import visible
from linter.rules.base import Diagnostic
from linter.source import Edit, SourceFile, Span, apply_edits

TAB = 4
ELLIPSIS = "…"
SECONDARY_STYLE = "bold blue"
_MAX_FIX_LINES = 6  # per side of a fix hunk in the full output; the rest is elided
_MIN_LABEL_WIDTH = 24  # narrower than this, a label goes below the marks, from the left


# --- one source line, cut to the width --------------------------------------------------------------------

def _cell(ch: str) -> tuple[str, int]:
    """How one character is shown and its width in cells: a tab as spaces; a control character, a
    bidirectional override or an invisible format character as its escape (``\\x1b``, ``\\u202e``:
    a file cannot reorder or hide what the report shows); a lone surrogate as ``�``."""
    if ch == "\t":
        return " " * TAB, TAB
    shown = visible(ch)
    if shown != ch:
        return shown, len(shown)
    import unicodedata

    from rich.cells import get_character_cell_size  # (a line of printable ASCII never needs them)

    if unicodedata.category(ch) == "Cs":
        return "\ufffd", 1
    return ch, get_character_cell_size(ch)


class _Shown(Record):
    """A window of a line: ``text`` as displayed, the line-relative characters ``[first, last)`` it
    shows of the ``n`` the line has, and ``col(i)``, the display column of character ``i``."""

    text: str
    first: int
    last: int
    n: int
    cols: list[int]  # display column of each shown character, plus one past the last
    _fields = ("text", "first", "last", "n", "cols")

    def __init__(self, text: str, first: int, last: int, n: int, cols: list[int]) -> None:
        self.text, self.first, self.last, self.n, self.cols = text, first, last, n, cols

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
    f0, f1, lo, hi = _slice(n, focus, room, at)
    chunk = text[start + lo:start + hi]
    if chunk.isascii() and chunk.isprintable():  # the common case: one cell each, shown as is
        return _window_ascii(text, start, n, f0, f1, lo, hi, room, at)
    return _window_cells([_cell(c) for c in chunk], n, f0, f1, lo, hi, room, at)


def _slice(n: int, focus: tuple[int, int], room: int, at: int | None) -> tuple[int, int, int, int]:
    """``(f0, f1, lo, hi)``: the focus clipped to a line of ``n`` characters, and the slice of the line
    a window of ``room`` cells reads."""
    f0 = max(0, min(focus[0], n))
    f1 = max(f0, min(focus[1], n))
    # Every character but a zero-width one takes a cell: a room's worth of characters on each side
    # of the focus (or of its first room, when it is wider) is all a window can show.
    lo, hi = max(0, f0 - room), min(n, min(f1, f0 + room) + room)
    if at is not None:
        lo = max(0, min(lo, at))
    return f0, f1, lo, hi


def _window_cells(cells: list[tuple[str, int]], n: int, f0: int, f1: int, lo: int, hi: int, room: int,
                  at: int | None) -> _Shown:
    """:func:`window` walking ``cells``, the (shown text, width) of each character of the slice
    ``[lo, hi)`` of the line read, one at a time."""

    def w(i: int) -> int:
        return cells[i - lo][1]

    if lo == 0 and hi == n and sum(c[1] for c in cells) <= room:
        a, b = 0, n
    else:
        budget = room - 2  # an ellipsis at each end
        fw = sum(w(i) for i in range(f0, min(f1, hi)))  # a focus wider than the slice read: its shown part
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


def _window_ascii(text: str, start: int, n: int, f0: int, f1: int, lo: int, hi: int, room: int,
                  at: int | None) -> _Shown:
    """:func:`window` where each character of the slice ``[lo, hi)`` read takes one cell and is shown
    as is: the same walk done by counting (a third of the text report's time went to walking the
    slice a cell at a time, over 2,400 launch files)."""
    if lo == 0 and hi == n and n <= room:
        a, b = 0, n
    else:
        budget = room - 2  # an ellipsis at each end
        fw = max(0, min(f1, hi) - f0)
        left = (budget - fw) // 2 if fw < budget else budget // 4
        if at is not None:
            a = at
            used = f0 - a if a < f0 else 0
        else:
            a = f0 - min(f0 - lo, max(0, left))
            used = f0 - a
        b = max(a, f0)
        step = min(max(0, hi - b), max(0, budget - used))
        b += step
        used += step
        if at is None:
            a -= min(max(0, a - lo), max(0, budget - used))
    first = 1 if a > 0 else 0
    shown = text[start + a:start + b] if b > a else ""
    if a > 0:
        shown = ELLIPSIS + shown
    if b < n:
        shown += ELLIPSIS
    return _Shown(shown, a, b, n, list(range(first, first + max(0, b - a) + 1)))

# --- the snippet: source lines, marks and labels ----------------------------------------------------------

class _Mark(Record):
    """A mark under a line: characters ``[start, end)`` (line-relative), the finding's own (``primary``)
    or one of its labels, with its ``label``."""

    start: int
    end: int
    primary: bool
    label: str
    _fields = ("start", "end", "primary", "label")

    def __init__(self, start: int, end: int, primary: bool, label: str) -> None:
        self.start, self.end, self.primary, self.label = start, end, primary, label


Segment = tuple[str, str]
"""``(text, rich style)``: a run of one style in a row."""


def _marks_by_line(d: Diagnostic, labels: list[tuple[Span, str]]) -> dict[int, list[_Mark]]:
    """The primary span (unlabelled: the message is the header) and ``labels`` in the finding's file,
    by 1-based line (a span over several lines is marked on its first, to the line's end)."""
    source = d.span.source
    out: dict[int, list[_Mark]] = {}

    def add(span: Span, primary: bool, label: str) -> None:
        line, col = span.start_line_col
        end_line, end_col = span.end_line_col
        start, end = line_bounds(source, line)
        last = end_col - 1 if end_line == line else end - start
        out.setdefault(line, []).append(_Mark(col - 1, max(last, col - 1), primary, label))

    primary_key = d.span.key()
    for span, label in labels:
        if span.source is source and span.key() != primary_key:
            add(span, False, label)
    add(d.span, True, "")
    return out


def drawn_labels(d: Diagnostic) -> list[tuple[Span, str]]:
    """The labels of ``d`` that a snippet can draw: those in the finding's own file, other than its span."""
    key = d.span.key()
    return [(s, label) for s, label in d.labels if s.source is d.span.source and s.key() != key]


def _place(row: list[Segment], col: int, text: str, style: str) -> None:
    """Write ``text`` in ``style`` into the cell grid ``row`` (one (character, style) per cell) from
    display column ``col``."""
    if len(row) < col + len(text):
        row.extend([(" ", "")] * (col + len(text) - len(row)))
    row[col:col + len(text)] = [(ch, style) for ch in text]


def _segments(cells: list[Segment]) -> list[Segment]:
    """A cell grid as runs of one style, trailing blanks dropped."""
    while cells and cells[-1][0] == " ":
        cells = cells[:-1]
    out: list[Segment] = []
    for ch, style in cells:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + ch, style)
        else:
            out.append((ch, style))
    return out


def _snippet_line(shown: _Shown, marks: list[_Mark], room: int, sev: str) -> list[list[Segment]]:
    """The marker row and label rows under one source line, each a list of segments starting at the
    first column after the gutter. Each mark, its connector and its label have the mark's own style
    (``sev`` for the finding's ``^``, :data:`SECONDARY_STYLE` for a label's ``-``), as rustc colours
    each span."""
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

    def style_of(m: _Mark) -> str:
        return sev if m.primary else SECONDARY_STYLE

    marker: list[Segment] = []
    # secondaries first, so that the primary's carets win where they overlap
    for c0, w, m in sorted(placed, key=lambda p: p[2].primary):
        _place(marker, c0, ("^" if m.primary else "-") * w, style_of(m))
    labelled = sorted((p for p in placed if p[2].label), key=lambda p: -p[0])
    first = _segments(marker)
    if labelled:
        c0, w, m = labelled[0]
        end = sum(len(t) for t, _ in first)
        if c0 + w >= end and end + 1 + len(m.label) <= room:  # the rightmost label fits beside its mark
            first.append((" " + m.label, style_of(m)))
            labelled = labelled[1:]
    rows = [first]
    if not labelled:
        return rows
    pending = [(p[0], style_of(p[2])) for p in labelled]
    rows.append(_segments(_connectors(pending)))
    for c0, w, m in labelled:
        pending.remove((c0, style_of(m)))
        if room - c0 < _MIN_LABEL_WIDTH // 2:  # too narrow even to wrap: move it left
            c0 = max(0, room - _MIN_LABEL_WIDTH)
        for text in wrap(m.label, room - c0):
            grid = _connectors(pending)
            _place(grid, c0, text, style_of(m))
            rows.append(_segments(grid))
    return rows


def _connectors(cols: list[tuple[int, str]]) -> list[Segment]:
    grid: list[Segment] = []
    for c, style in cols:
        _place(grid, c, "|", style)
    return grid


def snippet_rows(d: Diagnostic, room_for: int, sev: str,
                 labels: list[tuple[Span, str]] | None = None) -> list[tuple[str, list[Segment]]]:
    """The rows under the finding's header, ``room_for`` cells wide after the gutter, as (line number,
    ``""`` for a marker or label row, or ``"..."`` for elided lines; segments): the line of the primary
    span and those of ``labels`` (default: all of :func:`drawn_labels`), in order, each with its marks
    and labels. ``sev`` is the style of the primary marks."""
    source = d.span.source
    by_line = _marks_by_line(d, drawn_labels(d) if labels is None else labels)
    lines = sorted(by_line)
    out: list[tuple[str, list[Segment]]] = []
    prev = None
    for line in lines:
        if prev is not None and line == prev + 2:  # one line between: show it rather than elide it
            shown = window(source.text, *line_bounds(source, prev + 1), (0, 0), room_for)
            out.append((str(prev + 1), [(shown.text, "")]))
        elif prev is not None and line > prev + 2:
            out.append(("...", []))
        marks = by_line[line]
        primary = next((m for m in marks if m.primary), None)
        focus_marks = [m for m in marks if m.primary] or marks
        span_all = (min(m.start for m in marks), max(m.end for m in marks))
        focus = span_all if span_all[1] - span_all[0] <= room_for - 2 else (focus_marks[0].start, focus_marks[0].end)
        if primary is not None and not (focus[0] <= primary.start <= focus[1]):
            focus = (primary.start, primary.end)
        shown = window(source.text, *line_bounds(source, line), focus, room_for)
        out.append((str(line), [(shown.text, "")]))
        for segments in _snippet_line(shown, marks, room_for, sev):
            out.append(("", segments))
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


def fix_rows(d: Diagnostic, room_for: int, max_lines: int = _MAX_FIX_LINES) -> list[tuple[str, str, str, str]]:
    """(file header or "", line number, ``-``/``+``/``…``, text) rows showing what the fix changes, at
    most ``max_lines`` per side of each hunk (then ``… N more lines``)."""
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
        # The old and the new line are cut at the same character, where the longer of the two shows the
        # edit (an insertion at the end of a line is seen on the new one).
        heads = [t.split("\n", 1)[0].removesuffix("\r") for t in (old, new)]
        longer = max(heads, key=len)
        first_shown = window(longer, 0, len(longer), (rel, rel + width), room_for).first
        for sign, text in (("-", old), ("+", new)):
            lines = text.split("\n")
            for i, line_text in enumerate(lines[:max_lines]):
                line_text = line_text[:-1] if line_text.endswith("\r") else line_text
                focus = (rel, rel + width) if i == 0 else (0, 1)
                shown = window(line_text, 0, len(line_text), focus, room_for, first_shown if i == 0 else None)
                rows.append(("", str(first + i), sign, shown.text))
            if len(lines) > max_lines:
                rows.append(("", "", sign, f"{ELLIPSIS} {len(lines) - max_lines} more lines"))
    return rows
