"""Applying fixes: edit, re-parse, re-lint, keep only what works, write atomically.

For each linted file with applicable fixes: the fixes' edits are applied to the original text in
one pass (a fix whose edits overlap an earlier one waits for the next round); the changed files are
swapped in memory and the file is linted again. The change is kept only when no new SGL001 appears
and every fixed diagnostic is gone; otherwise the file is left untouched and the diagnostic says why.
Rounds repeat until nothing changes (at most :data:`MAX_ROUNDS`). A refusal belongs to one
diagnostic of one file and its edits: the identical fix elsewhere is still tried. A file with merge
conflict markers is never fixed.

Only then are files written (:func:`write_all`), each on its own: to a temporary file
``.NAME.lint-configs-XXXX.tmp`` in the same folder (a name no linted format claims; discovery skips
it) with the original mode, owner and group, flushed, then renamed over the original, so a crash
never leaves a half-written file. Just before the rename the file is checked again: a file whose
inode or bytes changed since it was read (saved by its user, replaced, deleted), a file with more
than one hard link, and a read-only file are left as they are, and the findings stay with a note
saying why. Bytes outside the edits never change: the text keeps its line endings and the BOM is
written back.
"""

from __future__ import annotations

import difflib
import os
import re
import signal
import stat
import tempfile
import threading
from pathlib import Path

from linter.discover import FIXER_TEMP
from linter.engine import Engine, FileResult, reconcile_with_readers
from linter.isolate import crashed, lint_file
from linter.records import dataclass, field
from linter.rules.base import SAFE, Diagnostic, Fix
from linter.source import SourceFile, apply_edits

MAX_ROUNDS = 10

TEMP_PREFIX_TAG = ".lint-configs-"
TEMP_SUFFIX = ".tmp"
TEMP_NAME = FIXER_TEMP  # ``.NAME.lint-configs-XXXX.tmp``: discovery never lints these

_CONFLICT = re.compile(r"^(?:<<<<<<<|>>>>>>>)(?: |$)", re.MULTILINE)


class WriteRefused(Exception):
    """The fixer left a file as it is on purpose (message: why, for the diagnostic's note)."""


@dataclass
class FixReport:
    """Files changed (path -> (original text, new text)), how many fixes were applied (``fixed``:
    the diagnostics they fixed, for ``--show-fixes``), and the diagnostics whose fix was refused
    with the reason."""

    changed: dict[Path, tuple[SourceFile, str]] = field(default_factory=dict)
    applied: int = 0
    fixed: list[Diagnostic] = field(default_factory=list)
    refused: list[tuple[Diagnostic, str]] = field(default_factory=list)
    crashed: list[FileResult] = field(default_factory=list)
    """SGL000 results: lint-configs failed while checking a fix of that file (the fix is refused)."""
    batches: list[tuple[list[Diagnostic], frozenset[Path]]] = field(default_factory=list)
    """(diagnostics fixed, files their edits changed) for each kept change: what is undone when a
    file is not written."""


def applicable(d: Diagnostic, unsafe: bool) -> bool:
    """True when ``--fix`` applies ``d``'s fix: it has edits and is safe, or ``unsafe`` is allowed."""
    return d.fix is not None and bool(d.fix.edits) and (d.fix.applicability == SAFE or unsafe)


def _identity(d: Diagnostic) -> tuple:
    return (d.code, d.key, d.message)


def _refusal(d: Diagnostic) -> tuple:
    """What a refusal is about: this diagnostic in its file, with these edits (offsets aside: they
    move when other fixes of the file are applied)."""
    edits = tuple((str(e.span.source.path), e.span.text, e.content) for e in d.fix.edits) if d.fix else ()
    return (str(d.span.source.path), d.code, d.key, d.message, edits)


def has_conflict_markers(text: str) -> bool:
    """True when a line starts with ``<<<<<<< `` or ``>>>>>>> ``: an unresolved merge, never fixed."""
    return _CONFLICT.search(text) is not None


def fix_all(engine: Engine, results: dict[Path, FileResult], unsafe: bool, within: Path | None = None) -> FixReport:
    """Fix every file of ``results`` in memory (``engine.ws`` holds the new texts afterwards).
    ``within``: apply only fixes whose edits all lie in that file (stdin, whose neighbours on disk
    are read but never written)."""
    fixer = _Fixer(engine, results, unsafe, within)
    for _ in range(MAX_ROUNDS):
        reconcile_with_readers(engine, results.values())
        progress = False
        for path in sorted(results):
            progress |= fixer.fix_file(path)
        if not progress:
            break
    return fixer.finish()


Edits = dict[Path, tuple[SourceFile, list]]
"""The edits of the chosen fixes by the file they change: path -> (the file as the fixes saw it, edits)."""


@dataclass
class _Fixer:
    """The state of one :func:`fix_all`: the results (replaced as files are fixed), the report, each
    changed file's original text (``originals``) and the refusals (:func:`_refusal` keys) that keep
    a fix from being tried again."""

    engine: Engine
    results: dict[Path, FileResult]
    unsafe: bool
    within: Path | None
    report: FixReport = field(default_factory=FixReport)
    originals: dict[Path, SourceFile] = field(default_factory=dict)
    refused: set[tuple] = field(default_factory=set)

    def fix_file(self, path: Path) -> bool:
        """One round for one file: choose its fixes, apply their edits in memory, lint it again and keep
        the change or undo it (refusing the fixes with why). True when a change was kept."""
        res = self.results[path]
        fixes = self._candidates(res)
        if not fixes:
            return False
        chosen = self._choose(fixes)
        by_file = _edits_by_file(chosen)
        before = {p: self.engine.ws.read(p) for p in by_file}
        try:
            self._apply(by_file, before)
        except ValueError as exc:
            self._undo(before)
            self._refuse(chosen, str(exc))
            return False
        if not chosen:
            return False
        new = lint_file(self.engine, path)
        if crashed(new):
            self._undo(before)
            self.report.crashed.append(new)
            self._refuse(chosen, "lint-configs failed while checking the fixed text (an internal error, please "
                                 "report it)")
            return False
        reason = _regression(res, new, chosen)
        if reason is not None:
            self._undo(before)
            self._refuse(chosen, reason)
            return False
        self._keep(path, new, chosen, by_file, before)
        return True

    def _candidates(self, res: FileResult) -> list[Diagnostic]:
        """The findings of ``res`` whose fix ``--fix`` applies, not refused before, with all edits in
        ``within`` when it is given."""
        return [d for d in res.diagnostics if applicable(d, self.unsafe) and _refusal(d) not in self.refused
                and (self.within is None or all(e.span.source.path == self.within for e in d.fix.edits))]

    def _choose(self, fixes: list[Diagnostic]) -> list[Diagnostic]:
        """The fixes applied together this round, in order: a fix editing a file with merge conflict
        markers is refused; one whose edits overlap an earlier chosen one waits for the next round,
        unless they are the same edits (the findings of several paths of one launch fixed by one
        shared edit: each is fixed, and counted, by it)."""
        chosen, taken, same = [], [], set()
        for d in sorted(fixes, key=lambda d: d.sort_key()):
            edits = frozenset((e.span.key(), e.content) for e in d.fix.edits)
            if edits in same:
                chosen.append(d)
                continue
            conflicted = next((e.span.source for e in d.fix.edits if has_conflict_markers(e.span.source.text)), None)
            if conflicted is not None:
                self._refuse([d], f"{conflicted.display} has merge conflict markers (<<<<<<< / >>>>>>>); resolve "
                                  "the conflict first")
                continue
            spans = [(e.span.source.path, e.span.start, e.span.end) for e in d.fix.edits]
            if any(p == q and s < te and ts < e for (p, s, e) in spans for (q, ts, te) in taken):
                continue
            chosen.append(d)
            taken.extend(spans)
            same.add(edits)
        return chosen

    def _apply(self, by_file: Edits, before: dict[Path, SourceFile]) -> None:
        """Swaps in each file's edited text; ValueError when a file changed since the fixes were made
        (stale edits: should not happen)."""
        for p, (src, edits) in by_file.items():
            current = before[p]
            if current.text != src.text:
                raise ValueError("the file changed while fixing")
            self.engine.ws.replace(current, apply_edits(current.text, edits))

    def _undo(self, before: dict[Path, SourceFile]) -> None:
        """Puts the texts of ``before`` back into the workspace."""
        for src in before.values():
            self.engine.ws.replace(src, src.text)

    def _refuse(self, diagnostics: list[Diagnostic], reason: str) -> None:
        """Records that the fixes of ``diagnostics`` are refused (with ``reason``) and not tried again."""
        for d in diagnostics:
            self.refused.add(_refusal(d))
            self.report.refused.append((d, reason))

    def _keep(self, path: Path, new: FileResult, chosen: list[Diagnostic], by_file: Edits,
              before: dict[Path, SourceFile]) -> None:
        """Keeps a change: the originals, counts and the new result; files that read a changed file (a
        compose file whose .env was edited), and a changed file linted on its own (a compose base
        fixed through its override), are linted again."""
        for p, src in before.items():
            self.originals.setdefault(p, src)
        self.report.applied += len(chosen)
        self.report.batches.append((list(chosen), frozenset(by_file)))
        self.report.fixed.extend(chosen)
        self.results[path] = new
        for other, ores in list(self.results.items()):
            if other != path and (other in by_file or any(r.path in by_file for r in ores.related)):
                self.results[other] = lint_file(self.engine, other)

    def finish(self) -> FixReport:
        """The report, with each file whose text differs from its original in ``changed``."""
        for p, src in self.originals.items():
            new_text = self.engine.ws.read(p).text
            if new_text != src.text:
                self.report.changed[p] = (src, new_text)
        return self.report


def _edits_by_file(chosen: list[Diagnostic]) -> Edits:
    """The edits of ``chosen`` grouped by the file they change, in order."""
    by_file: Edits = {}
    seen: set = set()
    for d in chosen:
        for e in d.fix.edits:
            if (e.span.key(), e.content) in seen:
                continue  # the same edit of another chosen fix
            seen.add((e.span.key(), e.content))
            src = e.span.source
            by_file.setdefault(src.path, (src, []))[1].append(e)
    return by_file


def _regression(old: FileResult, new: FileResult, chosen: list[Diagnostic]) -> str | None:
    """Why the fixed file is worse, or None: a new SGL001 (the text no longer parses), or a fixed
    finding that is still there as many times as before."""
    old_ids = {_identity(d) for d in old.diagnostics}
    still = {(d.code, d.key) for d in new.diagnostics}
    broken = [d for d in new.diagnostics if d.code == "SGL001" and _identity(d) not in old_ids]
    if broken:
        return "the fixed file no longer parses: " + broken[0].message
    failed = [d for d in chosen if (d.code, d.key) in still and
              sum(1 for x in new.diagnostics if (x.code, x.key) == (d.code, d.key)) >=
              sum(1 for x in old.diagnostics if (x.code, x.key) == (d.code, d.key))]
    return "the finding remained after the fix" if failed else None


def write_atomic(source: SourceFile, text: str, read_stat: os.stat_result | None = None) -> str | None:
    """Write ``text`` over ``source.path`` atomically, keeping mode, owner, group and the BOM.

    ``source`` is the file as it was read and ``read_stat`` its ``os.stat`` then. Returns a warning
    to print (a read-only file written by root), else None. Raises
    :class:`WriteRefused` (the file was left on purpose: it changed, was replaced or deleted since
    it was read, has several hard links, is read-only, or its owner cannot be kept) or OSError.
    The temporary file is removed on any failure.
    """
    # Ctrl-C or SIGTERM while a file is written wait until it is whole again (written or left, its
    # temporary file removed): the window between creating and removing a temp file is never cut.
    masked = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if masked:
        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        return _write_atomic(source, text, read_stat)
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)


def _write_atomic(source: SourceFile, text: str, read_stat: os.stat_result | None) -> str | None:
    path = Path(os.path.realpath(source.path))  # a symlink stays a symlink: write its target
    data = source.encode(text)
    st = _check_unchanged(path, source, read_stat)
    if st.st_nlink > 1:
        raise WriteRefused(f"the file has {st.st_nlink} hard links; rewriting it would detach this name from "
                           "the others (apply the fix by hand)")
    # Read-only as the OS means it for this process: root may write a 0444 file (as every editor
    # run as root does, and CI containers run as root), so it is written, and said so.
    if not os.access(path, os.W_OK):
        raise WriteRefused(f"the file is read-only (mode {stat.S_IMODE(st.st_mode):04o})")
    warning = None
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        warning = f"the file is read-only (mode {stat.S_IMODE(st.st_mode):04o}); rewritten because lint-configs runs as root"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}{TEMP_PREFIX_TAG}", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            tst = os.fstat(fh.fileno())
            if (tst.st_uid, tst.st_gid) != (st.st_uid, st.st_gid):
                try:
                    os.fchown(fh.fileno(), st.st_uid, st.st_gid)
                except PermissionError:
                    raise WriteRefused("its owner or group could not be kept (lint-configs runs as another "
                                       "user)") from None
            os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
        # The last look before the rename: a save by the user since the read wins over the fix.
        _check_unchanged(path, source, read_stat)
        os.replace(tmp, path)
        return warning
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _check_unchanged(path: Path, source: SourceFile, read_stat: os.stat_result | None) -> os.stat_result:
    try:
        st = os.stat(path)
        with open(path, "rb") as fh:
            if os.fstat(fh.fileno()).st_ino != st.st_ino:
                raise WriteRefused("the file was replaced while lint-configs was fixing it; run it again")
            current = fh.read(len(source.encode()) + 1)
    except FileNotFoundError:
        raise WriteRefused("the file was deleted while lint-configs was fixing it") from None
    if read_stat is not None and (st.st_ino, st.st_dev) != (read_stat.st_ino, read_stat.st_dev):
        raise WriteRefused("the file was replaced while lint-configs was fixing it; run it again")
    if current != source.encode():
        raise WriteRefused("the file changed while lint-configs was fixing it; run it again")
    return st


@dataclass
class WriteOutcome:
    """What :func:`write_all` did: files written, files left on purpose (path -> why) and files
    that failed to be written (path -> OSError text)."""

    written: list[Path] = field(default_factory=list)
    left: dict[Path, str] = field(default_factory=dict)
    failed: dict[Path, str] = field(default_factory=dict)
    warnings: dict[Path, str] = field(default_factory=dict)


def write_all(engine: Engine, results: dict[Path, FileResult], report: FixReport) -> WriteOutcome:
    """Write every changed file of ``report``, each on its own (one failure never stops the others).

    A file not written gets its original text back in ``engine.ws``; the files that read it are
    linted again, so their findings stay, and each finding whose fix edits it gets a note saying
    why it was not applied. ``report.applied`` then counts only what was written.
    """
    out = WriteOutcome()
    for path, (src, text) in sorted(report.changed.items()):
        if not engine.ws.boundary.may_write(path):
            # the file, or the target of the link it is, lies outside the run's root: never written
            out.left[path] = "it lies outside the repository root (a link out of it, or a file a linted file names); " \
                             "lint-configs never writes there"
            continue
        try:
            warning = write_atomic(src, text, engine.ws.stat_when_read(path))
            out.written.append(path)
            if warning:
                out.warnings[path] = warning
        except WriteRefused as exc:
            out.left[path] = str(exc)
        except OSError as exc:
            out.failed[path] = f"cannot write it: {exc.strerror or exc}"
    not_written = {**out.left, **out.failed}
    if not not_written:
        return out
    for path in not_written:
        src, _ = report.changed.pop(path)
        engine.ws.replace(src, src.text)
    for other, res in list(results.items()):
        if other in not_written or any(r.path in not_written for r in res.related):
            results[other] = lint_file(engine, other)
    for res in results.values():
        for d in res.diagnostics:
            if d.fix is None:
                continue
            for e in d.fix.edits:
                why = not_written.get(e.span.source.path)
                if why is not None:
                    note = f"the fix was not applied: {why}"
                    if note not in d.notes:
                        d.notes.append(note)
                    break
    kept = [d for chosen, files in report.batches if not files & not_written.keys() for d in chosen]
    report.applied = len(kept)
    report.fixed = kept
    return out


def unified_diff(source: SourceFile, text: str) -> str:
    """A unified diff of one fixed file (``a/`` and ``b/`` prefixed display paths; an absolute path
    outside the working directory loses its leading ``/`` there, as ``git diff`` prints it). Lines are
    split at ``\n`` only and a last line without one is marked ``\\ No newline at end of file``, as
    ``diff -u`` and ``git diff`` write them, so ``git apply`` and ``patch`` take the output."""
    out = []
    for line in difflib.unified_diff(_diff_lines(source.text), _diff_lines(text),
                                     f"a/{source.display.lstrip('/')}", f"b/{source.display.lstrip('/')}"):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _diff_lines(text: str) -> list[str]:
    # at "\n" only: a lone "\r" is part of its line for diff and git (str.splitlines would split there)
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


__all__ = ["fix_all", "write_atomic", "write_all", "unified_diff", "FixReport", "WriteOutcome", "WriteRefused",
           "applicable", "has_conflict_markers", "Fix"]
