"""``--format gitlab``: a GitLab Code Quality report, one JSON array on stdout (or in ``--output-file``).

GitLab reads the report of a job's ``artifacts:reports:codequality`` and shows its findings in the
merge request (widget and, on some tiers, the changes view). The format is the subset of the
Code Climate spec that GitLab documents ("Code Quality report format", ``doc/ci/testing/code_quality.md``
in gitlab-org/gitlab; ``tests/data/gitlab-codequality-fields.json`` is a schema of those fields):
a single JSON array, no byte order mark, each element with

* ``description`` — the message, then the fix and the notes on their own lines;
* ``check_name`` — the rule code (``SGL101``), as ruff's and ESLint's GitLab output use the rule id;
* ``fingerprint`` — the SARIF ``partialFingerprints`` value (:func:`linter.report.sarif.fingerprint`):
  a hash of the path, the rule code and ``Diagnostic.key`` (launch and option, never a line), with
  ``:n`` for the n-th repeat in one file. GitLab shows findings with one fingerprint as one entry
  and compares fingerprints between the merge request and its target branch, so a finding keeps its
  identity when lines move, and a second identical finding is a new one;
* ``severity`` — GitLab's scale is info, minor, major, critical, blocker; errors are ``major`` and
  warnings ``minor`` (as eslint-formatter-gitlab maps ESLint's error and warning);
* ``location.path`` (relative to the working directory, ``/`` separators: run it at the repository
  root) and ``location.lines.begin``/``end`` (1-based).

A run with no findings writes ``[]`` (GitLab then reports no findings rather than a missing report).
"""

from __future__ import annotations

import json

from linter.report.sarif import fingerprint
from linter.rules.base import SAFE, UNSAFE, Diagnostic

SEVERITY = {"error": "major", "warning": "minor", "info": "info", "note": "info"}


def issues(diagnostics: list[Diagnostic]) -> list[dict]:
    """One Code Quality issue (a dict) per diagnostic, in their order."""
    seen: dict[tuple[str, str, str], int] = {}
    out = []
    for d in diagnostics:
        ident = (d.path, d.code, d.key or d.code)
        occurrence = seen.get(ident, 0)
        seen[ident] = occurrence + 1
        lines = [d.message]
        if d.fix is not None:
            how = {SAFE: "fix", UNSAFE: "unsafe fix (with --unsafe-fixes)"}.get(d.fix.applicability,
                                                                             "suggestion (not applied by --fix)")
            lines.append(f"{how}: {d.fix.message}")
        lines.extend(f"note: {n}" for n in d.notes)
        begin, _ = d.span.start_line_col
        end, _ = d.span.end_line_col
        out.append({
            "type": "issue",
            "description": "\n".join(lines),
            "check_name": d.code,
            "fingerprint": fingerprint(d, occurrence),
            "severity": SEVERITY.get(d.severity, "minor"),
            "location": {"path": d.path, "lines": {"begin": begin, "end": end}},
        })
    return out


def render(diagnostics: list[Diagnostic]) -> str:
    """The report: a JSON array of issues (``[]`` when there are none) and a final newline."""
    from linter.report.safe import json_text

    return json_text(json.dumps(issues(diagnostics), indent=2, ensure_ascii=False)) + "\n"
