"""Findings of a launch the file builds differently along paths the linter cannot decide.

A format that keeps a value per path (the Python format, for an ``if`` on a command-line flag: see
:mod:`linter.extract.python.paths`) hands on one :class:`~linter.launch.Launch` per path, at the same
place, each with the conditions of its path (``Launch.path``). Their findings are reported together:
a finding every path has is reported as any other (one fix serves them all); a finding only some
paths have is a warning that names the conditions leading there ("when `args.true_on_policy` is
true"), and its fix is unsafe — the value it edits is written once and read by every path, and on
the other paths nothing was wrong with it.
"""

from __future__ import annotations


def _group(launch) -> tuple:
    return (str(launch.source.path), launch.span.start, launch.span.end, launch.program)


def combine(contexts, diags: list) -> None:
    """Mark, in place, the findings of ``diags`` (of the launches of ``contexts``) that only some paths
    of their launch have: severity warning, the path's conditions in the message, the fix unsafe."""
    paths: dict[tuple, set[str]] = {}
    for ctx in contexts:
        if ctx.launch.path:
            paths.setdefault(_group(ctx.launch), set()).add(ctx.identity)
    if not paths:
        return
    having: dict[tuple, set[str]] = {}
    for d in diags:
        if d.launch is not None and d.launch.path:
            having.setdefault((_group(d.launch), d.code, d.span.key()), set()).add(d.launch_id)
    from linter.rules.base import UNSAFE, Severity

    # the paths a finding holds on, for its words: those with the same message (paths that load
    # different models give different findings at one place, each of its own paths)
    holding: dict[tuple, list[tuple[str, ...]]] = {}
    for d in diags:
        if d.launch is not None and d.launch.path:
            holding.setdefault((_group(d.launch), d.code, d.span.key(), d.message), []).append(d.launch.path)
    for d in diags:
        if d.launch is None or not d.launch.path:
            continue
        group = _group(d.launch)
        key = (group, d.code, d.span.key())
        if having[key] >= paths[group]:
            continue  # every path has it
        when = _when(holding[key + (d.message,)])
        d.severity = Severity.WARNING
        d.message = f"{d.message} ({when}; not on every path of this launch)"
        if d.fix is not None and d.fix.applicability == "safe":
            d.fix.applicability = UNSAFE
        if d.fix is not None:
            note = "the fix is unsafe: the value it edits is read on every path of this launch, and only " + \
                   f"the path {when} needs it changed"
            if note not in d.notes:
                d.notes.append(note)


def _when(paths: list[tuple[str, ...]]) -> str:
    """The paths a finding holds on, in words: the conditions they all share, else each path's."""
    from linter.branches import describe

    common = [label for label in paths[0] if all(label in p for p in paths[1:])]
    if common:
        return describe(common)
    unique = list(dict.fromkeys(paths))
    return "when " + " or ".join("(" + " and ".join(p) + ")" if len(p) > 1 else p[0] for p in unique)
