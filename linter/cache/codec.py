"""A linted file's result as JSON data for the result cache, and back.

What a cached result must give is exactly what the run would report from a fresh one: the findings
(code, name, severity, message, place, fix with its edits, notes, labels, the launch each belongs to
and its line-independent key) and, of each launch, only what a run reads after linting — the
launch's identity and first line, whether it could be fully verified (the summary line), which
SGLang release it assumed (the text report's notes) and which characters of which files its values
came from (a fix shared by several launches is made unsafe across files:
:func:`linter.engine.reconcile_shared_fixes`). ``--explain`` and ``--list-launches`` need the whole
resolved launch and never use the cache.

Every :class:`~linter.source.SourceFile` a result points into is written once, as its path when it is
the file the workspace read from disk (the cache checks its bytes before the entry is used), else with
its text (a template rendered over its values, the replacement text of a file that is not UTF-8).

Decoding imports neither the rules, the resolver nor the SGLang tables: a cached result is read with
:class:`RecordedLaunch` in place of a resolved launch; the rules' summaries come from the rule catalog (:func:`linter.codes.summary`).
Malformed data raises (:class:`ValueError`, :class:`KeyError`, :class:`TypeError`, :class:`IndexError`):
the caller treats the entry as missing.
"""

from __future__ import annotations

from pathlib import Path

from linter.source import Edit, SourceFile, Span

TYPE_CHECKING = False  # typing is imported only by type checkers: a cached run need not load it
if TYPE_CHECKING:
    from linter.engine import FileResult
    from linter.workspace import Workspace


class LaunchRef:
    """Where a cached finding's launch is: what a run reads of :attr:`Diagnostic.launch` after linting.
    (Plain classes here, not dataclasses: a cached run pays for each class it defines.)"""

    __slots__ = ("source", "first_line")

    def __init__(self, source: SourceFile, first_line: int) -> None:
        self.source = source
        self.first_line = first_line


class RecordedLaunch:
    """A launch of a cached result, as a run uses it after linting (see the module docstring).

    ``uses`` are ``(path, offset, length)`` runs of characters its server arguments' values came from;
    ``release`` is ``(release written or None, release of the table used, parser-only note or None,
    the written release as a version tuple or None, the table's release as a version tuple, whether the
    release came from a dated nightly image tag, how the table's release stands to the written one in
    words or None)``."""

    __slots__ = ("identity", "launch", "unverified", "release", "uses", "place", "group")

    def __init__(self, identity: str, launch: LaunchRef, unverified: tuple[str, ...], release: tuple,
                 uses: tuple[tuple[str, int, int], ...], place: tuple, group: str | None) -> None:
        self.identity = identity
        self.launch = launch
        self.unverified = unverified
        self.release = release
        self.uses = uses
        self.place = place
        self.group = group
        """:func:`linter.coverage.launch_group` of a launch built along paths (None: a launch of its own)."""


def release_facts(ctx) -> tuple:
    """The release facts of a resolved launch, as :attr:`RecordedLaunch.release` holds them."""
    if isinstance(ctx, RecordedLaunch):
        return ctx.release
    from linter.sglang.decision import parser_only_note
    from linter.sglang.options import version_tuple
    from linter.sglang.release import NIGHTLY_WORDS, relation

    written, version = ctx.version_written, ctx.table.version
    return (written, version, parser_only_note(ctx.table),
            list(version_tuple(written)) if written is not None else None, list(version_tuple(version)),
            NIGHTLY_WORDS in ctx.version_origin, relation(written, version) if written is not None else None)


def encode(result: FileResult, ws: Workspace) -> dict:
    """``result`` as JSON data. Raises TypeError for something it cannot write (the result is then not kept)."""
    sources: list[list] = []
    index: dict[int, int] = {}

    def src(f: SourceFile) -> int:
        k = id(f)
        got = index.get(k)
        if got is None:
            got = index[k] = len(sources)
            sources.append([str(f.path)] if ws.holds(f) else [str(f.path), f.display, f.text, f.bom])
        return got

    def span(s: Span) -> list:
        return [src(s.source), s.start, s.end]

    diags = []
    for d in result.diagnostics:
        fix = None
        if d.fix is not None:
            fix = [str(d.fix.applicability), d.fix.message, [span(e.span) + [e.content] for e in d.fix.edits]]
        launch = None
        if d.launch is not None:
            launch = [src(d.launch.source), d.launch.first_line]
        diags.append([d.code, d.name, str(d.severity), d.message, span(d.span), fix, launch, d.key, list(d.notes),
                      d.launch_id, [span(s) + [text] for s, text in d.labels], list(d.also)])
    launches = []
    if result.contexts:
        from linter.coverage import launch_group, unverified_reasons
        from linter.shared_fixes import launch_place, value_uses

        for ctx in result.contexts:
            launches.append([ctx.identity, src(ctx.launch.source), ctx.launch.first_line,
                             list(unverified_reasons(ctx)), list(release_facts(ctx)),
                             [list(u) for u in value_uses(ctx)], list(launch_place(ctx, result.source)),
                             _group_key(launch_group(ctx))])
    return {"fmt": result.fmt, "skipped": result.skipped,
            "source": src(result.source) if result.source is not None else None,
            "related": [src(f) for f in result.related], "diags": diags, "launches": launches,
            "sources": sources}


def _group_key(group) -> str | None:
    """A launch group as the cache keeps it: the string of a launch built along paths, else None."""
    return group if isinstance(group, str) else None


def paths_on_disk(payload: dict) -> list[str]:
    """The files a payload names by path only (the workspace's files: each must be read and checked)."""
    return [s[0] for s in payload["sources"] if len(s) == 1]


def decode(payload: dict, path: Path, files: dict[str, SourceFile]) -> FileResult:
    """The :class:`~linter.engine.FileResult` of ``path`` from ``payload``; ``files`` gives the
    workspace's :class:`SourceFile` for each path of :func:`paths_on_disk`."""
    from linter.engine import FileResult
    from linter.rules.base import Applicability, Diagnostic, Fix

    sources = []
    for s in payload["sources"]:
        if len(s) == 1:
            sources.append(files[s[0]])
        else:
            p, display, text, bom = s
            sources.append(SourceFile(Path(p), str(display), str(text), bool(bom)))

    def span(v) -> Span:
        return Span(sources[v[0]], int(v[1]), int(v[2]))

    diags = []
    for code, name, severity, message, at, fix, launch, key, notes, launch_id, labels, also in payload["diags"]:
        if fix is not None:
            fix = Fix(Applicability(fix[0]), fix[1], [Edit(span(e), e[3]) for e in fix[2]])
        if launch is not None:
            launch = LaunchRef(sources[launch[0]], int(launch[1]))
        diags.append(Diagnostic(code, name, severity, message, span(at), fix, launch, key, list(notes), launch_id,
                                [(span(lab), lab[3]) for lab in labels], list(also)))
    contexts = [RecordedLaunch(ident, LaunchRef(sources[s], int(line)), tuple(unverified),
                               tuple(release), tuple((u[0], int(u[1]), int(u[2])) for u in uses),
                               (str(place[0]), None if place[1] is None else str(place[1])),
                               None if group is None else str(group))
                for ident, s, line, unverified, release, uses, place, group in payload["launches"]]
    source = sources[payload["source"]] if payload["source"] is not None else None
    return FileResult(path, source=source, fmt=payload["fmt"], diagnostics=diags, contexts=contexts,
                      related=[sources[i] for i in payload["related"]], skipped=payload["skipped"])
