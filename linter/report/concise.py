"""``--format concise``: one line per diagnostic, ``path:line:col: CODE message``."""

from __future__ import annotations

from linter.rules.base import Diagnostic


def render(diagnostics: list[Diagnostic]) -> str:
    """One ``path:line:col: CODE [*] message`` line per diagnostic (``[*]``: a safe fix exists)."""
    lines = []
    for d in diagnostics:
        line, col = d.span.start_line_col
        mark = " [*]" if d.fix is not None and d.fix.applicability == "safe" else ""
        lines.append(f"{d.path}:{line}:{col}: {d.code}{mark} {d.message}")
    return "".join(x + "\n" for x in lines)
