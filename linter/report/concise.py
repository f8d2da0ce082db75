"""``--format concise``: one line per diagnostic, ``path:line:col: error[CODE] [*] message`` (the
severity as a word, ``error`` or ``warning``, as the text format's header gives it), then the summary
line of the text format (``Found 1 error. [*] 1 fixable with `lint-configs --fix`.``, or ``All checks
passed!``), as ruff's concise output ends."""

from __future__ import annotations

from linter.report.safe import visible
from linter.report.text import severity_word, summary
from linter.rules.base import SAFE, UNSAFE, Diagnostic


def render(diagnostics: list[Diagnostic], unsafe_fixes: bool = False, fixed: int = 0, checked=None) -> str:
    """One ``path:line:col: SEVERITY[CODE] [*] message`` line per diagnostic (``[*]``: a fix ``--fix`` applies:
    a safe one, or an unsafe one with ``unsafe_fixes``), then the summary line (``checked``, a
    :class:`linter.coverage.Coverage`, makes a run that found no launch say so)."""
    lines = []
    for d in diagnostics:
        line, col = d.span.start_line_col
        how = d.fix.applicability if d.fix is not None else None
        fixable = how == SAFE or (unsafe_fixes and how == UNSAFE)
        mark = " [*]" if fixable else ""
        head = f"{visible(d.path)}:{line}:{col}: {severity_word(d.severity)}[{d.code}]{mark}"
        lines.append(f"{head} {visible(d.message)}")
    lines.append(summary(diagnostics, unsafe_fixes, fixed, checked))
    return "".join(x + "\n" for x in lines)
