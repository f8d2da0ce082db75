"""Applying fixes: edit, re-parse, re-lint, keep only what works, write atomically.

For each linted file with applicable fixes: the fixes' edits are applied to the original text in
one pass (a fix whose edits overlap an earlier one waits for the next round); the changed files are
swapped in memory and the file is linted again. The change is kept only when no new SGL001 appears
and every fixed diagnostic is gone; otherwise the file is left untouched and the diagnostic says why.
Rounds repeat until nothing changes (at most :data:`MAX_ROUNDS`). Only then are files written:
to a temporary file in the same folder with the original mode, flushed, then renamed over the
original, so a crash never leaves a half-written file. Bytes outside the edits never change: the
text keeps its line endings and the BOM is written back.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from linter.engine import Engine, FileResult, reconcile_with_readers
from linter.rules.base import SAFE, Diagnostic, Fix
from linter.source import SourceFile, apply_edits

MAX_ROUNDS = 10

_CONFLICT = re.compile(r"^(?:<<<<<<<|>>>>>>>)(?: |\r?$)", re.MULTILINE)


def has_conflict_markers(text: str) -> bool:
    """True when ``text`` holds committed merge-conflict markers: such a file is never fixed."""
    return _CONFLICT.search(text) is not None


@dataclass
class FixReport:
    """Files changed (path -> (original text, new text)), how many fixes were applied (``fixed``:
    the diagnostics they fixed, for ``--show-fixes``), and the diagnostics whose fix was refused
    with the reason."""

    changed: dict[Path, tuple[SourceFile, str]] = field(default_factory=dict)
    applied: int = 0
    fixed: list[Diagnostic] = field(default_factory=list)
    refused: list[tuple[Diagnostic, str]] = field(default_factory=list)


def applicable(d: Diagnostic, unsafe: bool) -> bool:
    """True when ``--fix`` applies ``d``'s fix: it has edits and is safe, or ``unsafe`` is allowed."""
    return d.fix is not None and bool(d.fix.edits) and (d.fix.applicability == SAFE or unsafe)


def _identity(d: Diagnostic) -> tuple:
    return (d.code, d.key, d.message)


def fix_all(engine: Engine, results: dict[Path, FileResult], unsafe: bool, within: Path | None = None) -> FixReport:
    """Fix every file of ``results`` in memory (``engine.ws`` holds the new texts afterwards).
    ``within``: apply only fixes whose edits all lie in that file (stdin, whose neighbours on disk
    are read but never written)."""
    report = FixReport()
    originals: dict[Path, SourceFile] = {}
    refused: set[tuple] = set()
    for _ in range(MAX_ROUNDS):
        progress = False
        reconcile_with_readers(engine, results.values())
        for path in sorted(results):
            res = results[path]
            fixes = [d for d in res.diagnostics if applicable(d, unsafe) and _identity(d) not in refused
                     and (within is None or all(e.span.source.path == within for e in d.fix.edits))]
            for d in [d for d in fixes if any(has_conflict_markers(e.span.source.text) for e in d.fix.edits)]:
                refused.add(_identity(d))
                report.refused.append((d, "the file holds merge conflict markers: no fix is written into it"))
                fixes.remove(d)
            if not fixes:
                continue
            chosen, taken = [], []
            for d in sorted(fixes, key=lambda d: d.sort_key()):
                spans = [(e.span.source.path, e.span.start, e.span.end) for e in d.fix.edits]
                if any(p == q and s < te and ts < e for (p, s, e) in spans for (q, ts, te) in taken):
                    continue
                chosen.append(d)
                taken.extend(spans)
            by_file: dict[Path, tuple[SourceFile, list]] = {}
            for d in chosen:
                for e in d.fix.edits:
                    src = e.span.source
                    by_file.setdefault(src.path, (src, []))[1].append(e)
            before = {p: engine.ws.read(p) for p in by_file}
            try:
                for p, (src, edits) in by_file.items():
                    current = before[p]
                    if current.text != src.text:  # stale edits (should not happen): skip this file now
                        raise ValueError("the file changed while fixing")
                    engine.ws.replace(current, apply_edits(current.text, edits))
            except ValueError as exc:
                for p, src in before.items():
                    engine.ws.replace(src, src.text)
                for d in chosen:
                    refused.add(_identity(d))
                    report.refused.append((d, str(exc)))
                continue
            new = engine.lint(path)
            old_ids = {_identity(d) for d in res.diagnostics}
            still = {(d.code, d.key) for d in new.diagnostics}
            broken = [d for d in new.diagnostics if d.code == "SGL001" and _identity(d) not in old_ids]
            failed = [d for d in chosen if (d.code, d.key) in still and
                      sum(1 for x in new.diagnostics if (x.code, x.key) == (d.code, d.key)) >=
                      sum(1 for x in res.diagnostics if (x.code, x.key) == (d.code, d.key))]
            if broken or failed:
                for p, src in before.items():
                    engine.ws.replace(src, src.text)
                reason = ("the fixed file no longer parses: " + broken[0].message) if broken else \
                    "the finding remained after the fix"
                for d in chosen:
                    refused.add(_identity(d))
                    report.refused.append((d, reason))
                continue
            for p, src in before.items():
                originals.setdefault(p, src)
            report.applied += len(chosen)
            report.fixed.extend(chosen)
            results[path] = new
            progress = True
            # Files that read a changed file (a compose file whose .env was edited) are linted again.
            for other, ores in list(results.items()):
                if other != path and any(r.path in by_file for r in ores.related):
                    results[other] = engine.lint(other)
        if not progress:
            break
    for p, src in originals.items():
        new_text = engine.ws.read(p).text
        if new_text != src.text:
            report.changed[p] = (src, new_text)
    return report


def write_atomic(source: SourceFile, text: str) -> None:
    """Write ``text`` over ``source.path`` atomically, keeping the mode and the BOM. Raises OSError."""
    path = Path(os.path.realpath(source.path))  # a symlink stays a symlink: write its target
    data = source.encode(text)
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".lint-configs", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def unified_diff(source: SourceFile, text: str) -> str:
    """A unified diff of one fixed file (``a/`` and ``b/`` prefixed display paths)."""
    return "".join(difflib.unified_diff(source.text.splitlines(keepends=True), text.splitlines(keepends=True),
                                        f"a/{source.display}", f"b/{source.display}"))


__all__ = ["fix_all", "write_atomic", "unified_diff", "FixReport", "applicable", "Fix"]
