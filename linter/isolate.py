"""One file's failure stays with that file.

:func:`lint_file` is how the command line and the fixer lint a file: an unexpected exception
becomes an SGL000 ``internal-error`` diagnostic on that file (``LINT_CONFIGS_DEBUG=1`` prints the
traceback on stderr) and the run goes on with the other files; inputs past a limit of
:mod:`linter.limits` become SGL004 ``input-too-large`` diagnostics.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

from linter import limits
from linter.engine import Engine, FileResult, without_mention
from linter.rules.base import Diagnostic
from linter.rules.meta import InputTooLarge, InternalError
from linter.source import SourceFile, Span


def lint_file(engine: Engine, path: Path, fmt: str | None = None) -> FileResult:
    """``engine.lint(path)`` that never raises (except KeyboardInterrupt and SystemExit).

    A file longer than :data:`linter.limits.MAX_PARSED_CHARS` or with a line longer than
    :data:`linter.limits.MAX_LINE_CHARS` is not parsed: it gets only SGL004. :func:`crashed` tells whether the result stands for an internal error.
    """
    path = path if path.is_absolute() else (engine.ws.cwd / path)
    if engine.ws.unread(path):
        # The mention filter on the bytes first: a file it skips is never decoded nor kept.
        quick = without_mention(path, engine.options.skip_reasons)
        if quick is not None:
            return quick
    try:
        with limits.collect() as hits:
            long = _long_line(engine, path)
            if long is not None:
                return long
            result = engine.lint(path, fmt=fmt)
        if hits and result.source is not None:
            _add_limit_hits(engine, result, hits)
        return result
    except Exception as exc:  # noqa: BLE001 - any bug stays with this file
        return internal_error(engine, path, exc, "linting")


def internal_error(engine: Engine, path: Path, exc: BaseException, stage: str) -> FileResult:
    """A :class:`FileResult` holding only the SGL000 diagnostic for ``exc`` raised while ``stage``."""
    if os.environ.get("LINT_CONFIGS_DEBUG"):
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    source = engine.ws.try_read(path)
    if source is None:
        source = SourceFile(path, engine.ws.display(path), "")
    text = str(exc)
    if len(text) > 300:
        text = text[:300] + "…"
    d = Diagnostic(InternalError.code, InternalError.name, InternalError.severity,
                   f"internal error while {stage}: {type(exc).__name__}: {text}; please report it "
                   "(LINT_CONFIGS_DEBUG=1 prints the traceback)", Span(source, 0, 0), key=InternalError.code)
    return FileResult(path, source=source, diagnostics=[d])


def crashed(result: FileResult) -> bool:
    """True when ``result`` stands for an internal error (SGL000)."""
    return any(d.code == InternalError.code for d in result.diagnostics)


def _selected(engine: Engine, path: Path) -> bool:
    return InputTooLarge.code in engine.selected_codes(engine.configs.settings_for(path))


def _long_line(engine: Engine, path: Path) -> FileResult | None:
    from linter.discover import detect_format, mentions_sglang

    source = engine.ws.try_read(path)
    if source is None:
        return None
    if path.suffix.lower() == ".ipynb" and len(source.text) <= 8 * limits.MAX_PARSED_CHARS:
        # a notebook's size and long lines are its outputs, which are never read (only code cells are);
        # its JSON reader has its own bounds (MAX_JSON_BYTES, MAX_JSON_DEPTH)
        return None
    if len(source.text) > limits.MAX_PARSED_CHARS:
        hit, limit, what = (0, 0), "MAX_PARSED_CHARS", f"a file of {len(source.text):,} characters"
    else:
        hit = limits.long_line(source.text)
        limit, what = "MAX_LINE_CHARS", f"a line of {hit[1]:,} characters" if hit else ""
    if hit is None or not mentions_sglang(source.text):
        return None
    fmt = detect_format(path, source.text)
    if fmt is None:
        return None
    result = FileResult(path, source=source, fmt=fmt)
    if _selected(engine, path):
        start = hit[0]
        message = limits.message(limit, what, "the file is not checked")
        result.diagnostics.append(Diagnostic(InputTooLarge.code, InputTooLarge.name, InputTooLarge.severity,
                                             message, Span(source, start, start), key=InputTooLarge.code))
    return result


def _add_limit_hits(engine: Engine, result: FileResult, hits: list) -> None:
    if not _selected(engine, result.path):
        return
    seen = {(d.span.key(), d.message) for d in result.diagnostics}
    for span, message in hits:
        if span is None:
            span = Span(result.source, 0, 0)
        if (span.key(), message) in seen:
            continue
        seen.add((span.key(), message))
        result.diagnostics.append(Diagnostic(InputTooLarge.code, InputTooLarge.name, InputTooLarge.severity,
                                             message, span, key=InputTooLarge.code))
