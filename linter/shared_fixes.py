"""One edit for a value several launches read: the fixes of a run reconciled across files.

A value written once and used by several launches (a module constant, a shell variable, a compose
``.env`` read by two compose files) is one edit for all of them. :func:`reconcile_shared_fixes` looks
at every fix of a run together: a fix that would write different texts at one place is dropped, and a
fix that also changes a launch it was not computed for is made unsafe (ruff's rule: a fix that may
change behaviour the user relies on is unsafe). The engine calls it per file and the run calls it
over all files and the other readers of what they edit (:func:`linter.engine.reconcile_with_readers`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from typing import Iterable

    from linter.rules.base import Diagnostic

Place = tuple[str, int]
"""A character of a file: (its path as a string, its offset)."""


def reconcile_shared_fixes(results: Iterable) -> None:
    """Across ``results`` (the :class:`~linter.engine.FileResult` objects of a run), drop a fix that
    writes a different text where another fix of the same code writes, make unsafe every fix whose
    edit is also another's unsafe edit, and every safe fix whose edited characters another launch
    reads. Changes the diagnostics in place (their ``fix`` and ``notes``)."""
    results = list(results)
    diags: list[Diagnostic] = [d for res in results for d in res.diagnostics]
    edited = _edited(diags)
    if not edited:
        return
    users = _readers(results, edited)
    readers = {f"{ctx.launch.source.display}:{ctx.identity}": launch_place(ctx, res.source)
               for res in results for ctx in res.contexts}
    for group in _by_edit(diags).values():
        _reconcile(group, users, readers)


def _edited(diags: list[Diagnostic]) -> dict[str, set[int]]:
    # Only the characters a fix edits matter: collecting every origin of every value costs seconds
    # for long values (issue 26).
    edited: dict[str, set[int]] = {}
    for d in diags:
        for e in d.fix.edits if d.fix is not None else ():
            edited.setdefault(str(e.span.source.path), set()).update(
                range(e.span.start, max(e.span.end, e.span.start + 1)))
    return edited


def _readers(results: list, edited: dict[str, set[int]]) -> dict[Place, set[str]]:
    """Each edited character → the launches (``FILE:IDENTITY``) whose server arguments read it."""
    users: dict[Place, set[str]] = {}
    for res in results:
        for ctx in res.contexts:
            who = f"{ctx.launch.source.display}:{ctx.identity}"
            for src_path, off, n in value_uses(ctx):  # (runs, not a tuple per character)
                offs = edited.get(src_path)
                for k in _within(offs, off, n) if offs is not None else ():
                    users.setdefault((src_path, k), set()).add(who)
    return users


def launch_place(ctx, linted=None) -> tuple[str, str | None]:
    """Where a launch is, as a user opens it: ``(FILE:LINE:COLUMN of its command — a call, one path's
    variant —, with the file linted when the command is in another: "(from b200/compose.yaml)" for a
    compose base; the conditions of its path when it is one of several: "when `args.det` is true", else
    None)``. ``linted`` is that file's :class:`~linter.source.SourceFile` (None: the launch's own). A
    launch from the result cache (:class:`linter.cache.codec.RecordedLaunch`) keeps it as ``place``."""
    recorded = getattr(ctx, "place", None)
    if recorded is not None:
        return recorded
    launch = ctx.launch
    line, col = launch.span.start_line_col
    place = f"{launch.source.display}:{line}:{col}"
    if linted is not None and linted.display != launch.source.display:
        place += f" (from {linted.display})"
    if not launch.path:
        return place, None
    from linter.branches import describe

    return place, describe(launch.path)


def _named(keys: set[str], readers: dict) -> str:
    """The launches ``keys`` (``FILE:IDENTITY``) in words: each place once, with the conditions of the
    paths that read the value when not every path of that launch does."""
    conditions: dict[str, list] = {}
    for key in keys:
        place, when = readers.get(key, (key, None))
        conditions.setdefault(place, []).append(when)
    paths: dict[str, int] = {}
    for place, _ in readers.values():
        paths[place] = paths.get(place, 0) + 1
    parts = []
    for place in sorted(conditions):
        whens = sorted(w for w in conditions[place] if w is not None)
        partial = whens and len(conditions[place]) < paths.get(place, 0)
        parts.append(f"{place} ({' or '.join(whens)})" if partial else place)
    return ("the launch at " if len(parts) == 1 else "the launches at ") + ", ".join(parts)


def value_uses(ctx):
    """``(path, offset, length)`` for each run of characters the launch's server-argument values came
    from. A launch from the result cache (:class:`linter.cache.codec.RecordedLaunch`) keeps these runs
    as ``uses``; a resolved one reads them off its values' origins."""
    recorded = getattr(ctx, "uses", None)
    if recorded is not None:
        yield from recorded
        return
    for s in ctx.parsed.settings:
        for n, src, off, _ in s.value_runs:
            if src is not None:
                yield (str(src.path), off, n)


def _within(offs: set[int], off: int, n: int) -> list[int]:
    """The offsets of ``offs`` in ``[off, off + n)``; the smaller side is walked (a 90,000-character
    value is one run, its file a few edits)."""
    if len(offs) < n:
        return [k for k in offs if off <= k < off + n]
    return [k for k in range(off, off + n) if k in offs]


def _by_edit(diags: list[Diagnostic]) -> dict[tuple, list[Diagnostic]]:
    by_edit: dict[tuple, list[Diagnostic]] = {}
    for d in diags:
        for e in d.fix.edits if d.fix is not None else ():
            by_edit.setdefault((d.code, e.span.key()), []).append(d)
    return by_edit


def _reconcile(group: list[Diagnostic], users: dict[Place, set[str]], readers: dict) -> None:
    """The findings of one code whose fixes edit one place; ``readers`` maps a launch's
    ``FILE:IDENTITY`` to where it is (:func:`launch_place`, what a note names)."""
    from linter.rules.base import UNSAFE

    contents = {tuple(e.content for e in d.fix.edits) for d in group if d.fix is not None}
    if len(contents) > 1:
        for d in group:
            if d.fix is not None:
                _note(d, "no fix: this value is shared by launches that need different replacements")
                d.fix = None
        return
    fixed = [d for d in group if d.fix is not None]
    if any(d.fix.applicability != "safe" for d in fixed):
        # One edit serves every launch here: it is unsafe if it is unsafe for any of them.
        for d in fixed:
            if d.fix.applicability == "safe":
                d.fix.applicability = UNSAFE
                _note(d, "the fix is unsafe: the same edit changes another launch that is unsafe to change")
    fixed_for = {f"{d.launch.source.display}:{i}" for d in group if d.launch is not None
                 for i in [d.launch_id] + d.also}
    for d in fixed:
        touched: set[str] = set()
        for e in d.fix.edits:
            for off in range(e.span.start, max(e.span.end, e.span.start + 1)):
                touched |= users.get((str(e.span.source.path), off), set())
        others = touched - fixed_for
        if others and d.fix.applicability == "safe":
            d.fix.applicability = UNSAFE
            _note(d, "the fix is unsafe: the value is also read by " + _named(others, readers))


def _note(d: Diagnostic, note: str) -> None:
    if note not in d.notes:
        d.notes.append(note)
