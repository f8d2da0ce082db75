"""``--format json``: one JSON array on stdout (the contract in DESIGN.md).

Each element: ``path`` (relative to the working directory, ``/`` separators), ``line``, ``column``,
``end_line``, ``end_column`` (1-based, columns in characters, end exclusive), ``code``, ``name``,
``severity``, ``message``, ``fix`` (null, or ``applicability``, ``message`` and ``edits`` with the
same location fields plus ``content``), ``notes`` (the extra lines the text output prints as
``= note:``: what SGLang says, where the target and model came from, the release assumed; ``[]``
when none), ``labels`` (the other places the finding rests on — the model, the deterministic option,
a target declaration — each with the location fields and ``message``; ``[]`` when none) and ``url``
(the address of the rule's page when the package declares where its documentation is published,
:mod:`linter.rules.links`; null otherwise — ``lint-configs --show-rule CODE`` prints it).
"""

from __future__ import annotations

import json

from linter.rules.links import rule_url
from linter.rules.base import Diagnostic
from linter.source import Span


def location(span: Span) -> dict:
    """``path``, ``line``, ``column``, ``end_line``, ``end_column`` of a span (1-based, characters, end exclusive)."""
    line, col = span.start_line_col
    end_line, end_col = span.end_line_col
    return {"path": span.source.display, "line": line, "column": col, "end_line": end_line, "end_column": end_col}


def as_dict(d: Diagnostic) -> dict:
    """One element of the JSON array (DESIGN.md contract); ``fix`` is null when there is none."""
    out = {**location(d.span), "code": d.code, "name": d.name, "severity": d.severity, "message": d.message}
    if d.fix is None:
        out["fix"] = None
    else:
        out["fix"] = {"applicability": d.fix.applicability, "message": d.fix.message,
                      "edits": [{**location(e.span), "content": e.content} for e in d.fix.edits]}
    out["notes"] = list(d.notes)
    out["labels"] = [{**location(span), "message": text} for span, text in d.labels]
    out["url"] = rule_url(d.code)
    return out


def render(diagnostics: list[Diagnostic]) -> str:
    """The JSON array of all diagnostics, with a final newline; nothing else goes to stdout."""
    from linter.report.safe import json_text

    return json_text(json.dumps([as_dict(d) for d in diagnostics], indent=2, ensure_ascii=False)) + "\n"
