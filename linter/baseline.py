"""Baselines: adopt lint-configs in a repository that already has findings, and fail only on new ones.

``lint-configs --write-baseline FILE`` records the current findings; ``lint-configs --baseline FILE``
drops the findings recorded there and reports the rest. A finding is identified by its path
(relative to the baseline file's folder, ``/`` separators), its rule code and its
``Diagnostic.key`` — the launch and the option, e.g. ``services.sglang:attention_backend`` — and
never by its line, so adding lines above a launch does not make its findings new (the worry that
kept ruff from shipping line-based baselines, astral-sh/ruff#1149). Each identity has a count, so
a second identical finding in the same file is new (ESLint's baseline RFC counts per file and rule).

The file is JSON, sorted, one entry per identity::

    {"version": 1, "tool": "lint-configs",
     "findings": [{"path": "deploy/compose.yaml", "code": "SGL101",
                   "key": "services.sglang:attention_backend", "count": 1}]}
"""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from pathlib import Path
from typing import Callable

from linter.rules.base import Diagnostic

VERSION = 1


class BaselineError(Exception):
    """A baseline file that cannot be read; the message names the file and the problem."""


Identity = tuple[str, str, str]


def identity(d: Diagnostic, root: Path) -> Identity:
    """(path relative to ``root``, code, key) of a diagnostic."""
    path = Path(d.span.source.path)
    try:
        rel = Path(os.path.relpath(path, root)).as_posix()
    except ValueError:  # pragma: no cover - another drive on Windows
        rel = path.as_posix()
    return (rel, d.code, d.key or d.code)


def _root(file: Path) -> Path:
    return file.absolute().parent


def dumps(diagnostics: list[Diagnostic], file: Path) -> str:
    """The baseline text for ``diagnostics`` as it would be written to ``file``."""
    counts = Counter(identity(d, _root(file)) for d in diagnostics)
    findings = [{"path": p, "code": c, "key": k, "count": n} for (p, c, k), n in sorted(counts.items())]
    return json.dumps({"version": VERSION, "tool": "lint-configs", "findings": findings}, indent=2,
                      ensure_ascii=False) + "\n"


def write(file: Path, diagnostics: list[Diagnostic]) -> int:
    """Write the baseline for ``diagnostics`` to ``file``; returns the number of findings recorded."""
    text = dumps(diagnostics, file)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BaselineError(f"{file}: cannot write the baseline: {exc}") from None
    return len(diagnostics)


class Baseline:
    """Recorded finding counts, by identity, relative to the baseline file's folder."""

    def __init__(self, root: Path, counts: dict[Identity, int]) -> None:
        self.root = root
        self.counts = counts

    def filter(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics that are not in the baseline (beyond its count), in their order."""
        left = Counter(self.counts)
        kept = []
        for d in diagnostics:
            ident = identity(d, self.root)
            if left[ident] > 0:
                left[ident] -= 1
            else:
                kept.append(d)
        return kept


    def stale(self, diagnostics: list[Diagnostic], checked: Callable[[Path, str], bool]) -> int:
        """How many recorded findings no longer occur: entries left unmatched by ``diagnostics`` (all
        of the run's findings, before filtering) whose file is gone, or whose file and code this run
        checked (``checked(path, code)``: a run over some files, or with ``--select``, cannot tell
        whether the findings of other files or codes still occur)."""
        left = Counter(self.counts)
        for d in diagnostics:
            ident = identity(d, self.root)
            if left[ident] > 0:
                left[ident] -= 1
        n = 0
        for (rel, code, _key), count in left.items():
            path = self.root / rel
            if count > 0 and (not path.exists() or checked(path, code)):
                n += count
        return n


def load(file: Path) -> Baseline:
    """Read a baseline file. Raises :class:`BaselineError` naming the file and the problem."""
    from linter.limits import MAX_FILE_BYTES

    try:
        with open(file, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise BaselineError(f"{file}: the baseline is not a regular file")
            raw = fh.read(MAX_FILE_BYTES + 1)  # /dev/zero, a 20 GB file: never read whole
        if len(raw) > MAX_FILE_BYTES:
            raise BaselineError(f"{file}: the baseline is larger than the {MAX_FILE_BYTES} bytes lint-configs reads")
        data = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise BaselineError(f"{file}: cannot read the baseline: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise BaselineError(f"{file}: the baseline is not valid JSON: {exc}") from None
    except RecursionError:
        raise BaselineError(f"{file}: the baseline is not valid JSON: nested too deeply") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        found = data.get("version") if isinstance(data, dict) else None
        raise BaselineError(f"{file}: not a lint-configs baseline of version {VERSION} (version: {found!r}); "
                            "write one with --write-baseline")
    findings = data.get("findings")
    if not isinstance(findings, list):
        raise BaselineError(f"{file}: 'findings' must be a list")
    counts: dict[Identity, int] = {}
    for i, entry in enumerate(findings):
        if not (isinstance(entry, dict) and all(isinstance(entry.get(k), str) for k in ("path", "code", "key"))
                and isinstance(entry.get("count", 1), int) and not isinstance(entry.get("count", 1), bool)
                and entry.get("count", 1) >= 1):
            raise BaselineError(f"{file}: findings[{i}]: expected path, code and key strings and a positive "
                                f"count, got {entry!r}")
        ident = (entry["path"], entry["code"], entry["key"])
        counts[ident] = counts.get(ident, 0) + entry.get("count", 1)
    return Baseline(_root(file), counts)
