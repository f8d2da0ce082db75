"""``--format github``: GitHub Actions workflow commands, one annotation per diagnostic.

Each diagnostic becomes one line::

    ::error file=deploy/compose.yaml,line=9,col=27,endLine=9,endColumn=30,title=lint-configs (SGL101)::message

(``::warning`` for warnings). ``col`` and ``endColumn`` are given only when the finding starts and
ends on the same line (as ruff does; GitHub misplaces a multi-line column range). The message is
followed by the fix and the notes, on their own lines of the annotation. Escaping follows
``@actions/core``: in the message ``%``, ``\\r``, ``\\n`` become ``%25``, ``%0D``, ``%0A``; property
values also escape ``:`` and ``,`` (``%3A``, ``%2C``).

GitHub shows at most 10 error and 10 warning annotations per step, so every finding past the
tenth of its kind is also printed as a plain ``path:line:col: error[CODE] message`` log line (as the
concise format prints it), and the output
ends with a summary line (``lint-configs: Found 2 errors.``), which the log always shows.
cli.py selects this format when ``GITHUB_ACTIONS=true`` and no ``--format`` is given.

What a linted file holds cannot forge a command (:mod:`linter.report.safe`): every annotation is
one line whose text is shown :func:`~linter.report.safe.visible` and escaped as ``@actions/core``
escapes it, and the plain lines, which carry paths and messages, are printed inside a
``::stop-commands::`` block with a random token (the runner reads ``##[command]`` anywhere in a line).
"""

from __future__ import annotations

from linter.report.safe import could_be_command, sanitized, stop_commands, visible
from linter.report.text import severity_word, summary
from linter.rules.base import SAFE, Diagnostic


def escape_data(value: str) -> str:
    """Escape a workflow-command message (``%``, CR, LF), as ``@actions/core`` does."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a workflow-command property value: the message escapes plus ``:`` and ``,``."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic) -> str:
    """The ``::error``/``::warning`` line of one diagnostic (columns only on single-line spans)."""
    d = sanitized(d)
    line, col = d.span.start_line_col
    end_line, end_col = d.span.end_line_col
    props = [("file", d.path), ("line", str(line))]
    if line == end_line:
        props.append(("col", str(col)))
    props.append(("endLine", str(end_line)))
    if line == end_line:
        props.append(("endColumn", str(end_col)))
    props.append(("title", f"lint-configs ({d.code})"))
    message = [d.message]
    if d.fix is not None:
        how = "fix" if d.fix.applicability == SAFE else "unsafe fix (with --unsafe-fixes)"
        message.append(f"{how}: {d.fix.message}")
    message.extend(f"note: {n}" for n in d.notes)
    command = "error" if d.severity == "error" else "warning"
    return (f"::{command} " + ",".join(f"{k}={escape_property(v)}" for k, v in props)
            + "::" + escape_data("\n".join(message)))


ANNOTATION_LIMIT = 10


def render(diagnostics: list[Diagnostic]) -> str:
    """All annotations, plain log lines for those past GitHub's per-step limit, and the summary line."""
    lines = [annotation(d) for d in diagnostics]
    shown = {"error": 0, "warning": 0}
    hidden = []
    for d in diagnostics:
        kind = "error" if d.severity == "error" else "warning"
        shown[kind] += 1
        if shown[kind] > ANNOTATION_LIMIT:
            line, col = d.span.start_line_col
            hidden.append(f"{visible(d.path)}:{line}:{col}: {severity_word(d.severity)}[{d.code}] {visible(d.message)}")
    plain = []
    if hidden:
        plain.append(f"lint-configs: {len(hidden)} more finding{'s' if len(hidden) != 1 else ''} than GitHub "
                     "annotates in one step:")
        plain.extend(hidden)
    plain.append("lint-configs: " + summary(diagnostics, unsafe_fixes=False))
    # the plain lines carry paths and messages from the files: no workflow command is read in them
    text = "".join(x + "\n" for x in plain)
    return "".join(x + "\n" for x in lines) + (stop_commands(text) if could_be_command(text) else text)
