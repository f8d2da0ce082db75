"""``--format text`` (the default): each finding as rustc and ruff print one, in at most a dozen lines,
then a summary.

::

    error[SGL101]: fa4 with deterministic inference and the absorbed-MLA model deepseek-ai/DeepSeek-V3
                   (DeepseekV3ForCausalLM) needs an SM100/SM110 GPU (B200, GB200, B300, GB300, Jetson
                   Thor): SGLang 0.5.23 refuses to start on H100 (SM90)
     --> docker-compose.yml:9:27
      |
    9 |       --attention-backend fa4
      |                           ^^^
      |
      = fix: Use --attention-backend fa3
    9 -       --attention-backend fa4
    9 +       --attention-backend fa3
      = help: lint-configs --show-rule SGL101

The header gives the severity as a word (in colour on a terminal), the rule's code and the finding's
message — the message is printed once. Then the place, the source line with ``^`` under the offending
text, the fix as the lines it changes, and a help line naming the command that prints the rule's
documentation (:mod:`linter.rules.links`). What else the finding carries is added while the finding
stays within :data:`MAX_LINES` lines: first the notes about its fix (why it was not applied), then the
labels (``Diagnostic.labels``: the model, the deterministic option, the target declaration — drawn
with ``-`` under their own source lines when they are in the same file), then the other notes, each
in the order the rule gave them, each only when it fits whole. ``--output-format full`` (``full``)
prints every label and every note.

Every line fits the width: a source line longer than the width is shown as a window around the
span (``…`` where it is cut; ``linter/report/snippet.py`` lays out the source lines, marks, labels
and the fix), so a finding on a 124 KB one-line file costs a few hundred characters, not the whole
line. The header, notes and the summary wrap; a word longer than the width (a path) is kept whole.

Colour comes from rich, only when the stream is a terminal and ``NO_COLOR`` is not set (or
``FORCE_COLOR`` is); otherwise the same text is printed plain. Each span has its own colour: the
finding's carets in the severity's, a label's marks, connector and text in blue. The width is the
terminal's, else ``COLUMNS``, else 100.
"""

from __future__ import annotations

import os
import sys

from linter.report.lines import wrap
from linter.rules.links import show_rule_command
from linter.rules.base import SAFE, UNSAFE, Diagnostic

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import Sequence, TextIO

Segment = tuple[str, str]  # (text, rich style)
Row = list[Segment]

DEFAULT_WIDTH = 100
MIN_WIDTH = 40
MAX_LINES = 12
"""The most lines one finding takes in the default text output (its blank separator not counted),
as long as its header, location, source line, fix and help fit (a message longer than the width
several times over takes what it needs)."""
_GUTTER_STYLE = "bold blue"
_FIX_NOTE = "the fix "
"""Notes that begin so say what happened to the fix (not applied, and why): shown before any label."""


def severity_word(severity: str) -> str:
    """``error`` or ``warning``: how every human-readable format names a finding's severity."""
    return "error" if severity == "error" else "warning"


def _severity_style(severity: str) -> str:
    return "bold red" if severity == "error" else "bold yellow"


# --- one finding ----------------------------------------------------------------------------------------------

def rule_summary(code: str) -> str | None:
    """The one-line summary of a rule, or None for a code no rule has (from the rule catalog,
    :func:`linter.codes.summary`: a report of cached results loads no rule)."""
    from linter.codes import summary

    return summary(code)


def _lines(d: Diagnostic, unsafe_fixes: bool, width: int, full: bool = False) -> list[Row]:
    """The rows of one finding, ending with a blank separator row: every label and note when ``full``,
    else as many as fit in :data:`MAX_LINES` (see the module's docstring)."""
    # the snippet renderer (and rich's cell widths) only when there is a finding to show
    from linter.report.safe import sanitized
    from linter.report.snippet import _MAX_FIX_LINES, drawn_labels

    d = sanitized(d)  # what came from a file shows its control characters escaped
    labels = drawn_labels(d)
    if full:
        return _assemble(d, unsafe_fixes, width, labels, d.notes, _MAX_FIX_LINES) + [[]]
    urgent = [n for n in d.notes if n.startswith(_FIX_NOTE)]
    others = [n for n in d.notes if not n.startswith(_FIX_NOTE)]
    fix_lines = _MAX_FIX_LINES
    rows = _assemble(d, unsafe_fixes, width, [], urgent, fix_lines)
    while len(rows) > MAX_LINES and fix_lines > 1:  # a long fix is cut before anything else goes
        fix_lines -= 1
        rows = _assemble(d, unsafe_fixes, width, [], urgent, fix_lines)
    if len(rows) > MAX_LINES:  # a long message: the blank gutter rows go, nothing that says something
        return _assemble(d, unsafe_fixes, width, [], urgent, fix_lines, spaced=False) + [[]]
    chosen_labels: list = []
    chosen_notes = list(urgent)
    for label in labels:
        trial = _assemble(d, unsafe_fixes, width, chosen_labels + [label], chosen_notes, fix_lines)
        if len(trial) <= MAX_LINES:
            chosen_labels.append(label)
            rows = trial
    for note in others:
        trial = _assemble(d, unsafe_fixes, width, chosen_labels, chosen_notes + [note], fix_lines)
        if len(trial) <= MAX_LINES:
            chosen_notes.append(note)
            rows = trial
    return rows + [[]]


def _assemble(d: Diagnostic, unsafe_fixes: bool, width: int, labels: list, notes: Sequence[str],
              fix_lines: int, spaced: bool = True) -> list[Row]:
    """The rows of one finding showing ``labels`` and ``notes`` (in the finding's order), fixes cut at
    ``fix_lines`` lines a side; no separator row. ``spaced``: the blank gutter rows (`` |``) around
    the source lines."""
    from linter.report.safe import visible
    from linter.report.snippet import fix_rows, snippet_rows

    sev = _severity_style(d.severity)
    line, col = d.span.start_line_col
    word = severity_word(d.severity)
    head = f"{word}[{d.code}]: "
    out: list[Row] = []
    # the message once, as a paragraph: its first line beside the code, the rest from the margin
    first = wrap(d.message, width - len(head))[0]
    rest = d.message[len(first):].strip() if d.message.startswith(first) else ""
    wrapped = [first] + (wrap(rest, width) if rest else [])
    out.append([(f"{word}[{d.code}]", sev), (": ", "bold"), (wrapped[0], "bold")])
    for more in wrapped[1:]:
        out.append([(more, "bold")])
    has_text = bool(d.span.source.text)
    snippet: list = []
    fixes: list[tuple[str, str, str, str]] = []
    gw = len(str(line))
    if has_text:
        # the gutter is as wide as the largest line number shown (snippet or fix)
        widest = max(line, max((e.span.end_line_col[0] for e in (d.fix.edits if d.fix else ())), default=0),
                     max((s.end_line_col[0] for s, _ in labels), default=0))
        gw = len(str(widest))
        room = max(MIN_WIDTH - gw - 3, width - gw - 3)
        snippet = snippet_rows(d, room, sev, labels)
        if d.fix is not None:
            fixes = fix_rows(d, room, fix_lines)
    pad = " " * gw
    out.append([(f"{pad}--> ", _GUTTER_STYLE), (f"{visible(d.path)}:{line}:{col}", "")])
    if has_text:
        if spaced:
            out.append([(f"{pad} |", _GUTTER_STYLE)])
        for num, segments in snippet:
            if num == "...":
                out.append([("...", _GUTTER_STYLE)])
            elif num:
                text = segments[0][0] if segments else ""
                out.append([(f"{num:>{gw}} |", _GUTTER_STYLE), (f" {text}" if text else "", "")])
            else:
                out.append([(f"{pad} | ", _GUTTER_STYLE), *segments])
        if spaced:
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
        for header, num, sign, text in fixes:
            if header:
                out.append([(f"{pad}--> ", _GUTTER_STYLE), (header, "")])
                continue
            style = "red" if sign == "-" else "green"
            out.append([(f"{num:>{gw}} ", _GUTTER_STYLE), (sign, style), (f" {text}", style)])
    for note in notes:
        out.extend(_labelled(eq, "note", note, "bold", width))
    out.extend(_labelled(eq, "help", show_rule_command(d.code), "bold", width))
    return out


def _labelled(eq: str, word: str, text: str, style: str, width: int) -> list[Row]:
    """``= word: text``, wrapped under itself."""
    head = f"{eq}{word}: "
    parts = wrap(text, width - len(head))
    rows: list[Row] = [[(eq, _GUTTER_STYLE), (f"{word}: ", style), (parts[0], "")]]
    rows.extend([[(" " * len(head) + p, "")] for p in parts[1:]])
    return rows


def summary(diagnostics: list[Diagnostic], unsafe_fixes: bool, fixed: int = 0, checked=None) -> str:
    """The closing line: counts by severity, fixed findings, and how many more ``--fix``/``--unsafe-fixes``
    would fix. A run that found no launch (``checked``, a :class:`linter.coverage.Coverage`, says so)
    has passed nothing: it says what it found instead of "All checks passed!"."""
    if checked is not None and not checked.launches and not diagnostics and not fixed:
        return checked.describe()
    return _summary(diagnostics, unsafe_fixes, fixed)


def _summary(diagnostics: list[Diagnostic], unsafe_fixes: bool, fixed: int) -> str:
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
            import shutil  # only for a terminal (it imports the compression modules)

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
           fixed: int = 0, show_summary: bool = True, width: int | None = None,
           assumptions: Sequence[str] = (), color: bool | None = None,
           before_summary: Sequence[str] = (), after_summary: Sequence[str] = (), checked=None,
           full: bool = False) -> None:
    """Print diagnostics (and the summary) to ``stream``, every line at most ``width`` cells (default:
    :func:`output_width`); ``assumptions`` are lines printed just before the summary (which SGLang
    release was assumed, ``linter.report.releases``). ``color`` None decides by :func:`use_color`
    (``--color auto``); ``before_summary`` lines (``--show-fixes``) and ``after_summary`` lines
    (warnings such as stale baseline entries) are printed only with the summary; ``checked`` see
    :func:`summary`; ``full`` (``--output-format full``) shows every label and note of each finding."""
    width = max(MIN_WIDTH, width or output_width(stream))
    rows: list[Row] = []
    for d in diagnostics:
        rows.extend(_lines(d, unsafe_fixes, width, full))
    if show_summary:
        rows.extend([(line, "")] for line in before_summary)
        if checked is not None and (checked.launches or diagnostics or fixed):
            rows.extend([(part, "")] for part in wrap(checked.describe(), width))  # what was checked
        rows.extend([(part, "")] for line in assumptions for part in wrap(line, width))
        rows.extend([(line, "bold")] for line in wrap(summary(diagnostics, unsafe_fixes, fixed, checked), width))
        rows.extend([(part, "yellow")] for line in after_summary for part in wrap(line, width))
    write_rows(rows, stream, use_color(stream) if color is None else color, width)


def write_rows(rows: list[Row], stream: TextIO, color: bool, width: int) -> None:
    """Print ``rows`` (each a list of (text, rich style) segments; ``[]`` a blank line): styled by rich
    when ``color`` (decided by the caller: terminal, ``NO_COLOR``, ``FORCE_COLOR``, ``--color`` — rich
    must not decide again), else as plain text with trailing blanks dropped."""
    if color:
        from rich.console import Console
        from rich.text import Text

        console = Console(file=stream, highlight=False, soft_wrap=True, width=width, force_terminal=True,
                          no_color=False)
        for row in rows:
            console.print(Text.assemble(*row) if row else "")
    else:
        for row in rows:
            stream.write("".join(t for t, _ in row).rstrip() + "\n")
