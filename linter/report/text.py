"""``--format text`` (the default): each finding as rustc and ruff's full output print one, then a summary.

::

    error[SGL101]: fa4 with deterministic inference and an absorbed-MLA model needs an SM100/SM110 GPU
     --> deploy/docker-compose.yml:9:27
      |
    1 | # lint-configs: target-gpu=H100
      |                            ---- target H100 (SM90)
    ...
    9 |       --attention-backend fa4
      |                           ^^^ fa4 with deterministic inference and the absorbed-MLA model …
      |
      = fix: Use --attention-backend fa3
      |
    9 -       --attention-backend fa4
    9 +       --attention-backend fa3
      |
      = note: assumed SGLang 0.5.23 (…)
      = help: https://…/docs/rules/SGL101.md

The header names the severity as a word (and in colour on a terminal), the rule's code and its short
summary; the finding's own message labels the primary span (``^``). The secondary spans
(``Diagnostic.labels``: the model, the deterministic option, the target declaration) are drawn with
``-`` under their own lines when they are in the same file. The fix is shown as the lines it changes.

Every line fits the width: a source line longer than the width is shown as a window around the
span (``…`` where it is cut), built from a bounded slice of the line, so a finding on a 124 KB
one-line file costs a few hundred characters, not the whole line. Labels, notes and the message wrap.

Colour comes from rich, only when the stream is a terminal and ``NO_COLOR`` is not set (or
``FORCE_COLOR`` is); otherwise the same text is printed plain. The width is the terminal's, else
``COLUMNS``, else 100.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import unicodedata
from dataclasses import dataclass
from typing import TextIO

from rich.cells import get_character_cell_size

from linter.report.links import rule_url
from linter.rules.base import SAFE, UNSAFE, Diagnostic
from linter.source import Edit, SourceFile, Span, apply_edits

Segment = tuple[str, str]  # (text, rich style)
Row = list[Segment]

DEFAULT_WIDTH = 100
MIN_WIDTH = 40
TAB = 4
ELLIPSIS = "…"
_GUTTER_STYLE = "bold blue"
_SECONDARY_STYLE = "bold blue"
_MAX_FIX_LINES = 6  # per side of a fix hunk; the rest is elided
_MIN_LABEL_WIDTH = 24  # narrower than this, a label goes below the marks, from the left
_MAX_LABEL_LINES = 3  # a primary label that takes more lines under its caret goes below, from the left


def _severity_style(severity: str) -> str:
    return "bold red" if severity == "error" else "bold yellow"


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


def _line_bounds(source: SourceFile, line: int) -> tuple[int, int]:
    """Offsets of the start and end (before ``\\r\\n``/``\\n``) of a 1-based line."""
    starts = source.line_starts
    start = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(source.text)
    if end > start and source.text[end - 1] == "\r":
        end -= 1
    return start, end


def _window(text: str, start: int, end: int, focus: tuple[int, int], room: int, at: int | None = None) -> _Shown:
    """The part of the line ``text[start:end]`` to show in ``room`` cells around the line-relative
    character range ``focus``: the whole line when it fits, else the focus with context on both
    sides (as much of the focus as fits when it is wider), ``…`` where the line is cut. ``at`` fixes
    the first character shown instead. Only a slice of a few widths around the focus is read."""
    n = end - start
    f0 = max(0, min(focus[0], n))
    f1 = max(f0, min(focus[1], n))
    lo, hi = max(0, f0 - 2 * room), min(n, f1 + 2 * room)
    if at is not None:
        lo = max(0, min(lo, at))
    cells = [_cell(c) for c in text[start + lo:start + hi]]

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
        start, end = _line_bounds(source, line)
        last = end_col - 1 if end_line == line else end - start
        out.setdefault(line, []).append(_Mark(col - 1, max(last, col - 1), primary, label))

    primary_key = d.span.key()
    for span, label in d.labels:
        if span.source is source and span.key() != primary_key:
            add(span, False, label)
    add(d.span, True, d.message)
    return out


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters; a longer word (a path, a URL) is kept whole."""
    return textwrap.wrap(text, max(width, 10), break_long_words=False, break_on_hyphens=False) or [""]


def _place(row: list[str], col: int, text: str) -> None:
    """Write ``text`` into the character grid ``row`` from display column ``col``."""
    while len(row) < col + len(text):
        row.append(" ")
    for i, ch in enumerate(text):
        row[col + i] = ch


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
    marker_style = sev if any(m.primary for _, _, m in placed) else _SECONDARY_STYLE
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
        if p[2].primary and len(_wrap(p[2].label, room - p[0])) > _MAX_LABEL_LINES:
            deferred = (p[2].label, sev)
            pending.remove(p[0])
    labelled = [p for p in labelled if deferred is None or not p[2].primary]
    if not labelled:
        rows.extend((text, deferred[1]) for text in _wrap(deferred[0], room))
        return rows
    rows.append(("".join(_connectors(pending)).rstrip(), _SECONDARY_STYLE))
    for c0, w, m in labelled:
        pending.remove(c0)
        style = sev if m.primary else _SECONDARY_STYLE
        if room - c0 < _MIN_LABEL_WIDTH:
            if m.primary:
                deferred = (m.label, style)
                continue
            if room - c0 < _MIN_LABEL_WIDTH // 2:  # too narrow even to wrap: move it left
                c0 = max(0, room - _MIN_LABEL_WIDTH)
        for text in _wrap(m.label, room - c0):
            grid = _connectors(pending)
            _place(grid, c0, text)
            rows.append(("".join(grid).rstrip(), style))
    if deferred is not None:
        for text in _wrap(deferred[0], room):
            rows.append((text, deferred[1]))
    return rows


def _connectors(cols: list[int]) -> list[str]:
    grid: list[str] = []
    for c in cols:
        _place(grid, c, "|")
    return grid


def _snippet(d: Diagnostic, room_for: int, sev: str) -> tuple[list[tuple[str, str, str]], int]:
    """The snippet rows as (gutter number or ``""`` or ``"..."``, text, style), and the widest line number."""
    source = d.span.source
    by_line = _marks_by_line(d)
    lines = sorted(by_line)
    out: list[tuple[str, str, str]] = []
    prev = None
    for line in lines:
        if prev is not None and line == prev + 2:  # one line between: show it rather than elide it
            shown = _window(source.text, *_line_bounds(source, prev + 1), (0, 0), room_for)
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
        shown = _window(source.text, *_line_bounds(source, line), focus, room_for)
        out.append((str(line), shown.text, ""))
        for text, style in _snippet_line(shown, marks, room_for, sev):
            out.append(("", text, style))
        prev = line
    return out, max(lines) if lines else 0


# --- the fix, as the lines it changes -----------------------------------------------------------------------

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


def _fix_rows(d: Diagnostic, room_for: int) -> list[tuple[str, str, str, str]]:
    """(file header or "", line number, ``-``/``+``/``…``, text) rows showing what the fix changes."""
    rows: list[tuple[str, str, str, str]] = []
    for source, first, last, edits in _hunks(d.fix.edits if d.fix else []):
        if source is not d.span.source:
            rows.append((source.display, "", "", ""))
        start = _line_bounds(source, first)[0]
        end = _line_bounds(source, last)[1]
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
                shown = _window(line_text, 0, len(line_text), focus, room_for, first_shown if i == 0 else None)
                if i == 0 and first_shown is None:
                    first_shown = shown.first
                rows.append(("", str(first + i), sign, shown.text))
            if len(lines) > _MAX_FIX_LINES:
                rows.append(("", "", sign, f"{ELLIPSIS} {len(lines) - _MAX_FIX_LINES} more lines"))
    return rows


# --- one finding ----------------------------------------------------------------------------------------------

def rule_summary(code: str) -> str | None:
    """The one-line summary of a rule, or None for a code no rule has."""
    from linter.rules import BY_CODE

    rule = BY_CODE.get(code)
    return rule.summary if rule is not None else None


def _lines(d: Diagnostic, unsafe_fixes: bool, width: int) -> list[Row]:
    sev = _severity_style(d.severity)
    line, col = d.span.start_line_col
    title = rule_summary(d.code) or d.message
    word = "error" if d.severity == "error" else "warning"
    head = f"{word}[{d.code}]: "
    out: list[Row] = []
    wrapped = _wrap(title, width - len(head))
    out.append([(f"{word}[{d.code}]", sev), (": ", "bold"), (wrapped[0], "bold")])
    for more in wrapped[1:]:
        out.append([(" " * len(head) + more, "bold")])
    has_text = bool(d.span.source.text)
    snippet, last_line = ([], line)
    fix_rows: list[tuple[str, str, str, str]] = []
    gw = len(str(line))
    if has_text:
        # the gutter is as wide as the largest line number shown (snippet or fix)
        widest = max(line, max((e.span.end_line_col[0] for e in (d.fix.edits if d.fix else ())), default=0),
                     max((s.end_line_col[0] for s, _ in d.labels if s.source is d.span.source), default=0))
        gw = len(str(widest))
        room = max(MIN_WIDTH - gw - 3, width - gw - 3)
        snippet, last_line = _snippet(d, room, sev)
        if d.fix is not None:
            fix_rows = _fix_rows(d, room)
    pad = " " * gw
    out.append([(f"{pad}--> ", _GUTTER_STYLE), (f"{d.path}:{line}:{col}", "")])
    if has_text:
        out.append([(f"{pad} |", _GUTTER_STYLE)])
        for num, text, style in snippet:
            if num == "...":
                out.append([("...", _GUTTER_STYLE)])
            elif num:
                out.append([(f"{num:>{gw}} |", _GUTTER_STYLE), (f" {text}" if text else "", "")])
            else:
                out.append([(f"{pad} |", _GUTTER_STYLE), (f" {text}", style)])
        out.append([(f"{pad} |", _GUTTER_STYLE)])
    eq = f"{pad} = "
    if d.fix is not None:
        if d.fix.applicability == SAFE:
            what = "fix"
        elif d.fix.applicability == UNSAFE:
            what = "unsafe fix" + ("" if unsafe_fixes else " (with --unsafe-fixes)")
        else:
            what = "suggestion (never applied by --fix)"
        out.extend(_labelled(eq, what, d.fix.message, "bold cyan", width))
        if fix_rows:
            out.append([(f"{pad} |", _GUTTER_STYLE)])
            for header, num, sign, text in fix_rows:
                if header:
                    out.append([(f"{pad}--> ", _GUTTER_STYLE), (header, "")])
                    continue
                style = "red" if sign == "-" else "green"
                out.append([(f"{num:>{gw}} ", _GUTTER_STYLE), (sign, style), (f" {text}", style)])
            out.append([(f"{pad} |", _GUTTER_STYLE)])
    for note in d.notes:
        out.extend(_labelled(eq, "note", note, "bold", width))
    out.extend(_labelled(eq, "help", rule_url(d.code), "bold", width))
    out.append([])
    return out


def _labelled(eq: str, word: str, text: str, style: str, width: int) -> list[Row]:
    """``= word: text``, wrapped under itself."""
    head = f"{eq}{word}: "
    parts = _wrap(text, width - len(head))
    rows: list[Row] = [[(eq, _GUTTER_STYLE), (f"{word}: ", style), (parts[0], "")]]
    rows.extend([[(" " * len(head) + p, "")] for p in parts[1:]])
    return rows


def summary(diagnostics: list[Diagnostic], unsafe_fixes: bool, fixed: int = 0) -> str:
    """The closing line: counts by severity, fixed findings, and how many more ``--fix``/``--unsafe-fixes`` would fix."""
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    safe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability == SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability == UNSAFE)
    parts = []
    if fixed:
        parts.append(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.")
    if not diagnostics:
        parts.append("All checks passed!" if not fixed else "No findings remain.")
        return " ".join(parts)
    found = []
    if errors:
        found.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        found.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    parts.append(f"Found {' and '.join(found)}.")
    fixable = safe + (unsafe if unsafe_fixes else 0)
    if fixable:
        flags = "--fix --unsafe-fixes" if unsafe_fixes and unsafe else "--fix"
        parts.append(f"[*] {fixable} fixable with `lint-configs {flags}`.")
    if unsafe and not unsafe_fixes:
        parts.append(f"({unsafe} more fix{'es' if unsafe != 1 else ''} available with --unsafe-fixes.)")
    return " ".join(parts)


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR``, always with ``FORCE_COLOR``."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def output_width(stream: TextIO) -> int:
    """Cells per line: the terminal's when ``stream`` is one, else ``COLUMNS``, else 100 (at least 40)."""
    width = None
    try:
        if hasattr(stream, "isatty") and stream.isatty():
            width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    except (OSError, ValueError):  # pragma: no cover - a closed or odd stream
        width = None
    if width is None:
        try:
            width = int(os.environ.get("COLUMNS", ""))
        except ValueError:
            width = DEFAULT_WIDTH
    return max(MIN_WIDTH, width)


def render(diagnostics: list[Diagnostic], stream: TextIO = sys.stdout, unsafe_fixes: bool = False,
           fixed: int = 0, show_summary: bool = True, width: int | None = None) -> None:
    """Print diagnostics (and the summary) to ``stream``, every line at most ``width`` cells (default:
    :func:`output_width`)."""
    width = max(MIN_WIDTH, width or output_width(stream))
    rows: list[Row] = []
    for d in diagnostics:
        rows.extend(_lines(d, unsafe_fixes, width))
    if show_summary:
        rows.extend([(line, "bold")] for line in _wrap(summary(diagnostics, unsafe_fixes, fixed), width))
    if use_color(stream):
        from rich.console import Console
        from rich.text import Text

        console = Console(file=stream, highlight=False, soft_wrap=True, width=width, force_terminal=True)
        for row in rows:
            console.print(Text.assemble(*row) if row else "")
    else:
        for row in rows:
            stream.write("".join(t for t, _ in row).rstrip() + "\n")
