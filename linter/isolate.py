"""One file's failure stays with that file.

:func:`lint_file` is how the command line and the fixer lint a file: an unexpected exception
becomes an SGL000 ``internal-error`` diagnostic on that file (``LINT_CONFIGS_DEBUG=1`` prints the
traceback on stderr) and the run goes on with the other files; inputs past a limit of
:mod:`linter.limits` become SGL004 ``input-too-large`` diagnostics.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from linter import boundary, limits
from linter.boundary import is_within
from linter.engine import Engine, FileResult, without_mention
from linter.rules.base import Diagnostic
from linter.source import SourceFile, Span

INTERNAL_ERROR = "SGL000"
"""The code of :class:`linter.rules.meta.InternalError` (the rule modules are loaded only to lint)."""


def lint_file(engine: Engine, path: Path, fmt: str | None = None, mentioned: bool = False) -> FileResult:
    """``engine.lint(path)`` that never raises (except KeyboardInterrupt and SystemExit). ``mentioned``:
    the caller just found that the mention filter lets the file through (it is not looked at again).

    A file longer than its format's ``size_limit`` (:mod:`linter.formats`; by default
    :data:`linter.limits.MAX_PARSED_CHARS`, a shell script :data:`~linter.limits.MAX_SHELL_CHARS`, a
    compose file :data:`~linter.limits.MAX_YAML_CHARS`) or with a line longer than
    :data:`linter.limits.MAX_LINE_CHARS` is not parsed: it gets only SGL004. :func:`crashed` tells whether the result stands for an internal error.
    """
    path = path if path.is_absolute() else (engine.ws.cwd / path)
    if not mentioned and engine.ws.unread(path):
        # The mention filter on the bytes first: a file it skips is never decoded nor kept.
        quick = without_mention(path, engine.options.skip_reasons)
        if quick is not None:
            return quick
    try:
        with limits.collect() as hits, boundary.collect() as refused:
            long, detected = _long_line(engine, path)
            if long is not None:
                return long
            result = engine.lint(path, fmt=fmt or detected)
        if hits and result.source is not None:
            _add_limit_hits(engine, result, hits)
        if refused and result.source is not None:
            _add_refusals(engine, result, refused)
        return result
    except limits.LimitExceeded as exc:  # past a budget outside the extractors (resolving a launch)
        source = engine.ws.try_read(path)
        result = FileResult(path, source=source, fmt=fmt)
        if source is not None:
            _add_limit_hits(engine, result, [(None, limits.message(exc.limit, exc.what, "the file is not checked"))])
        return result
    except Exception as exc:  # noqa: BLE001 - any bug stays with this file
        return internal_error(engine, path, exc, "linting")


def internal_error(engine: Engine, path: Path, exc: BaseException, stage: str) -> FileResult:
    """A :class:`FileResult` holding only the SGL000 diagnostic for ``exc`` raised while ``stage``."""
    from linter.rules.meta import InternalError

    if os.environ.get("LINT_CONFIGS_DEBUG"):
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    source = engine.ws.try_read(path, named=True)
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
    return any(d.code == INTERNAL_ERROR for d in result.diagnostics)


def _selected(engine: Engine, path: Path) -> bool:
    from linter.rules.meta import InputTooLarge

    return InputTooLarge.code in engine.selected_codes(engine.configs.settings_for(path))


def _long_line(engine: Engine, path: Path) -> tuple[FileResult | None, str | None]:
    """(the SGL004 result of a file past its size or line limit, or None; the file's format when it
    had to be detected here, so that it is not detected twice)."""
    from linter.discover import detect_format, mentions_sglang

    from linter.formats import by_name, named

    source = engine.ws.try_read(path, named=True)
    if source is None:
        return _too_large(engine, path), None
    # each format row names its size limit and whether long lines can reach its parser
    size_limit, fmt = "MAX_PARSED_CHARS", None
    if len(source.text) > limits.MAX_PARSED_CHARS:
        fmt = detect_format(path, source.text)
        if fmt is not None:
            size_limit = by_name(fmt).size_limit
    lines_read = any(f.line_limit for f in named(path)) or not named(path)
    if len(source.text) > getattr(limits, size_limit):
        hit, limit, what = (0, 0), size_limit, f"a file of {len(source.text):,} characters"
    elif not lines_read:
        return None, fmt
    else:
        hit = limits.long_line(source.text)
        limit, what = "MAX_LINE_CHARS", f"a line of {hit[1]:,} characters" if hit else ""
    if hit is None or not mentions_sglang(source.text):
        return None, fmt
    fmt = fmt or detect_format(path, source.text)
    if fmt is None:
        return None, None
    return _not_checked(engine, FileResult(path, source=source, fmt=fmt), hit[0], limit, what), fmt


def _not_checked(engine: Engine, result: FileResult, at: int, limit: str, what: str) -> FileResult:
    """``result`` with the SGL004 finding (at offset ``at`` of its source, when the code is selected)
    for ``what`` past ``limit``: the file is not checked."""
    if _selected(engine, result.path):
        from linter.rules.meta import InputTooLarge

        message = limits.message(limit, what, "the file is not checked")
        result.diagnostics.append(Diagnostic(InputTooLarge.code, InputTooLarge.name, InputTooLarge.severity,
                                             message, Span(result.source, at, at), key=InputTooLarge.code))
    return result


def _too_large(engine: Engine, path: Path) -> FileResult | None:
    """The SGL004 result of a regular file past :data:`linter.limits.MAX_FILE_BYTES` that a format
    claims by its name and whose first ``MAX_FILE_BYTES`` mention SGLang (a notebook with its output
    images, a generated script): not read whole and not checked, which the run says (it was skipped
    in silence); None for any other file (a large data file stays skipped, as a binary one is)."""
    import stat as stat_module

    from linter.discover import mentions_sglang
    from linter.formats import named

    if not named(path) or not engine.ws.may_read(path):
        return None
    try:  # opened without blocking, checked on the descriptor: a FIFO put in its place is never read
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat_module.S_ISREG(st.st_mode) or st.st_size <= limits.MAX_FILE_BYTES:
            return None
        chunks, left = [], limits.MAX_FILE_BYTES
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not mentions_sglang(b"".join(chunks).decode("utf-8", "replace")):
        return None
    result = FileResult(path, source=SourceFile(path, engine.ws.display(path), ""), fmt=named(path)[0].name)
    return _not_checked(engine, result, 0, "MAX_FILE_BYTES", f"a file of {st.st_size:,} bytes")


def _add_refusals(engine: Engine, result: FileResult, refused: list) -> None:
    """SGL005 for each file outside the root that linting ``result``'s file would have read: once per
    referenced file, at the first reference to it (the top of the file when the reader knew none)."""
    from linter.rules.meta import OutsideRoot

    if OutsideRoot.code not in engine.selected_codes(engine.configs.settings_for(result.path)):
        return
    seen: set = set()
    for path, span in refused:
        if path in seen:
            continue
        seen.add(path)
        if span is None:
            span = Span(result.source, 0, 0)
        try:  # as a path from the working folder ("../shared/x.yaml"), not the machine's layout
            shown = Path(os.path.relpath(path, engine.ws.cwd)).as_posix()
        except ValueError:  # pragma: no cover - another drive (Windows)
            shown = engine.ws.display(path)
        root = engine.ws.boundary.root
        where = ("is a symbolic link to a file outside the repository root" if root is not None and
                 is_within(os.path.normpath(path), root) else "is outside the repository root")
        message = (f"{shown} {where}: not read, and never written; the values it would give are unknown (keep the "
                   "file in the repository, or name it on the command line)")
        result.diagnostics.append(Diagnostic(OutsideRoot.code, OutsideRoot.name, OutsideRoot.severity,
                                             message, span, key=f"{OutsideRoot.code}:{shown}"))


def _add_limit_hits(engine: Engine, result: FileResult, hits: list) -> None:
    from linter.rules.meta import InputTooLarge

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
