"""``--format text`` (the default): each diagnostic with its source line, a caret under the span,
the fix and the assumptions, then a summary — as ruff prints. Colour comes from rich, and only when
the stream is a terminal and ``NO_COLOR`` is not set; otherwise the same text is printed plain.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from linter.rules.base import SAFE, Diagnostic

Segment = tuple[str, str]  # (text, rich style)


def _lines(d: Diagnostic, unsafe_fixes: bool) -> list[list[Segment]]:
    line, col = d.span.start_line_col
    end_line, end_col = d.span.end_line_col
    mark = " [*]" if d.fix is not None and (d.fix.applicability == SAFE or unsafe_fixes) else ""
    sev = "bold red" if d.severity == "error" else "bold yellow"
    out: list[list[Segment]] = [[
        (f"{d.path}:{line}:{col}: ", "bold"), (d.code, sev), (mark, "cyan"), (f" {d.message}", ""),
    ]]
    src = d.span.source.line_text(line)
    if src or d.span.source.text:
        gutter = " " * len(str(line))
        width = (end_col - col) if end_line == line else max(1, len(src) - col + 1)
        prefix = src[:col - 1].expandtabs(4)
        caret = " " * len(prefix) + "^" * max(1, width)
        out.append([(f"{gutter} |", "blue")])
        out.append([(f"{line} |", "blue"), (f" {src.expandtabs(4)}", "")])
        out.append([(f"{gutter} |", "blue"), (f" {caret}", sev)])
    if d.fix is not None:
        what = "fix" if d.fix.applicability == SAFE else "unsafe fix" + ("" if unsafe_fixes else
                                                                          " (with --unsafe-fixes)")
        out.append([("  = ", "blue"), (f"{what}: ", "cyan"), (d.fix.message, "")])
    for note in d.notes:
        out.append([("  = ", "blue"), ("note: ", "bold"), (note, "")])
    out.append([])
    return out


def summary(diagnostics: list[Diagnostic], unsafe_fixes: bool, fixed: int = 0) -> str:
    """The closing line: counts by severity, fixed findings, and how many more ``--fix``/``--unsafe-fixes`` would fix."""
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    safe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability == SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability != SAFE)
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
        parts.append(f"[*] {fixable} fixable with `lint-configs --fix`{' --unsafe-fixes' if unsafe_fixes and unsafe else ''}.")
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


def render(diagnostics: list[Diagnostic], stream: TextIO = sys.stdout, unsafe_fixes: bool = False,
           fixed: int = 0, show_summary: bool = True, color: bool | None = None,
           before_summary: list[str] = (), after_summary: list[str] = ()) -> None:
    """Print diagnostics (and the summary) to ``stream``. ``color`` None decides by :func:`use_color`;
    ``before_summary`` lines (``--show-fixes``) and ``after_summary`` lines (warnings) are printed
    only with the summary."""
    rows: list[list[Segment]] = []
    for d in diagnostics:
        rows.extend(_lines(d, unsafe_fixes))
    if show_summary:
        rows.extend([(line, "")] for line in before_summary)
        rows.append([(summary(diagnostics, unsafe_fixes, fixed), "bold")])
        rows.extend([(line, "yellow")] for line in after_summary)
    if use_color(stream) if color is None else color:
        from rich.console import Console
        from rich.text import Text

        # Decided above (terminal, NO_COLOR, FORCE_COLOR, --color): rich must not decide again.
        console = Console(file=stream, highlight=False, soft_wrap=True, force_terminal=True, no_color=False)
        for row in rows:
            console.print(Text.assemble(*row) if row else "")
    else:
        for row in rows:
            stream.write("".join(t for t, _ in row) + "\n")
