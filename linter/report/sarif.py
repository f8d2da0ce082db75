"""``--format sarif``: one SARIF 2.1.0 log on stdout (or in ``--output-file``), and nothing else there.

The log has one run. ``runs[0].tool.driver`` lists every rule (not only those that fired), with
its code as ``id``, its kebab-case ``name``, its summary, its whole page (``docs/rules/SGLxxx.md``, the
same text as ``lint-configs --show-rule``) as ``help.markdown`` and ``help.text``, so code scanning
shows it without following a link, and its severity as ``defaultConfiguration.level``. ``helpUri``
and the driver's ``informationUri`` are given only when the installed package declares where they
are published (:mod:`linter.rules.links`): never an address that does not resolve. Each result has ``ruleId`` and
``ruleIndex``, ``level``, ``message``, one location with a 1-based region whose ``endColumn`` is
exclusive (as in the JSON output; columns count Unicode code points, which the run declares with
``columnKind``), ``partialFingerprints``, when the finding has a fix ``fixes``, and when it has
labels (the model, the deterministic option, a target declaration) ``relatedLocations``, each with
its label as ``message``.

The fingerprint (``lintConfigs/v1``) hashes the path, the rule code and ``Diagnostic.key`` (the
launch and the option, never a line number), so an alert keeps its identity when lines are added
above it; the n-th finding with the same identity in one file gets ``:n`` appended.
A run with no findings still has ``results: []`` (GitHub rejects a run without it).
"""

from __future__ import annotations

import hashlib
import json
import re
from urllib.parse import quote

from linter import __version__
from linter.rules.links import home_url, rule_url
from linter.rules.base import SAFE, Diagnostic
from linter.source import Span

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT = "lintConfigs/v1"
_LEVELS = {"error": "error", "warning": "warning", "info": "note", "note": "note"}


def _uri(path: str) -> str:
    """A relative (or ``file://`` absolute) URI for a display path."""
    if path.startswith("/"):
        return "file://" + quote(path)
    return quote(path)


def _region(span: Span) -> dict:
    line, col = span.start_line_col
    end_line, end_col = span.end_line_col
    return {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col}


def _rule(rule) -> dict:
    from linter.rules.docs import rule_page

    docs = rule.docs()
    first = docs.split("\n\n", 1)[0].strip()
    what = re.search(r"^## What it does\n(.*?)(?=^## |\Z)", docs, re.M | re.S)
    full = " ".join((what.group(1) if what else first).split()) or rule.summary
    page = rule_page(rule)
    out = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": full[:1024]},
        "help": {"text": page, "markdown": page},
    }
    url = rule_url(rule.code)
    if url is not None:
        out["helpUri"] = url
    out["defaultConfiguration"] = {"level": _LEVELS.get(rule.severity, "warning")}
    out["properties"] = {"precision": "high", "problem.severity": "error" if rule.severity == "error" else "warning",
                         "tags": ["sglang", "correctness"]}
    return out


def fingerprint(d: Diagnostic, occurrence: int = 0) -> str:
    """A line-independent identity: hash of path, rule code and ``Diagnostic.key``."""
    raw = "\0".join((d.path, d.code, d.key or d.code))
    digest = hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]
    return digest if occurrence == 0 else f"{digest}:{occurrence}"


def _fixes(d: Diagnostic) -> list[dict]:
    if d.fix is None or not d.fix.edits:
        return []
    by_file: dict[str, list[dict]] = {}
    for edit in d.fix.edits:
        by_file.setdefault(edit.span.source.display, []).append(
            {"deletedRegion": _region(edit.span), "insertedContent": {"text": edit.content}})
    text = d.fix.message + ("" if d.fix.applicability == SAFE else " (unsafe fix)")
    return [{"description": {"text": text},
             "artifactChanges": [{"artifactLocation": {"uri": _uri(path)}, "replacements": reps}
                                 for path, reps in by_file.items()]}]


def _driver(rules: list[dict]) -> dict:
    driver: dict = {"name": "lint-configs", "version": __version__, "semanticVersion": __version__}
    home = home_url()
    if home is not None:
        driver["informationUri"] = home
    driver["rules"] = rules
    return driver


def log(diagnostics: list[Diagnostic]) -> dict:
    """The SARIF log as a dict."""
    from linter.rules import ALL_RULES

    index = {r.code: i for i, r in enumerate(ALL_RULES)}
    seen: dict[tuple[str, str, str], int] = {}
    results = []
    for d in diagnostics:
        ident = (d.path, d.code, d.key or d.code)
        occurrence = seen.get(ident, 0)
        seen[ident] = occurrence + 1
        message = d.message
        if d.notes:
            message += "\n" + "\n".join(d.notes)
        result: dict = {
            "ruleId": d.code,
            "level": _LEVELS.get(d.severity, "warning"),
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(d.path)},
                                                "region": _region(d.span)}}],
            "partialFingerprints": {FINGERPRINT: fingerprint(d, occurrence)},
        }
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        fixes = _fixes(d)
        if fixes:
            result["fixes"] = fixes
        if d.labels:
            result["relatedLocations"] = [
                {"id": i, "physicalLocation": {"artifactLocation": {"uri": _uri(span.source.display)},
                                               "region": _region(span)}, "message": {"text": text}}
                for i, (span, text) in enumerate(d.labels, 1)]
        results.append(result)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": _driver([_rule(r) for r in ALL_RULES])},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def render(diagnostics: list[Diagnostic]) -> str:
    """A SARIF 2.1.0 log with one run: every rule, and a result per diagnostic (``results: []`` when none)."""
    from linter.report.safe import json_text

    return json_text(json.dumps(log(diagnostics), indent=2, ensure_ascii=False)) + "\n"
