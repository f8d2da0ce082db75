"""Findings of a launch the file builds differently along paths the linter cannot decide.

A format that keeps a value per path (the Python format, for an ``if`` on a command-line flag: see
:mod:`linter.extract.python.paths`) hands on one :class:`~linter.launch.Launch` per path, at the same
place, each with the conditions of its path (``Launch.path``). Their findings are reported together:
a finding every path has is reported as any other (one fix serves them all); a finding only some
paths have is a warning that names the conditions leading there ("when `args.true_on_policy` is
true") — but one whose rule fails on every path, with other values on the others (``--tp-size 2`` on
one path, ``8`` on the other, each refused with ``--dp-size 3``), stays an error: the launch never
starts. Its fix is unsafe when the value it edits is also read on a path where nothing is wrong with
it (a value written once before the paths part); it stays safe when only the paths that have the
finding read it (a value written in the failing branch itself). Where another launch has the same
finding at the same place on every path (a call that decides the condition), that one finding is
reported, not also the warning.

A path has a finding when it has one of the same code at the same place, or one of the same code
with the same words at another place: ``fa4`` written in both branches (two literals, or ``"fa4" if c
else "fa4"``) is one finding on every path, each literal an error of its own (fresh review of issue 35, D1).
"""

from __future__ import annotations


def _group(launch) -> tuple:
    return (str(launch.source.path), launch.span.start, launch.span.end, launch.program)


def combine(contexts, diags: list) -> list:
    """``diags`` (the findings of the launches of ``contexts``) with those that only some paths of
    their launch have marked, in place: severity warning, the path's conditions in the message, the
    fix unsafe. A marked finding another finding has unmarked (same code, place and words: another
    launch has it on every path) is left out, merged into that one (:func:`_merge_into_every_path`)."""
    paths: dict[tuple, set[str]] = {}
    members: dict[tuple, list] = {}
    for ctx in contexts:
        if ctx.launch.path:
            paths.setdefault(_group(ctx.launch), set()).add(ctx.identity)
            members.setdefault(_group(ctx.launch), []).append(ctx)
    if not paths:
        return diags
    having: dict[tuple, set[str]] = {}  # by place, and by words (the same finding written twice)
    for d in diags:
        if d.launch is not None and d.launch.path:
            having.setdefault((_group(d.launch), d.code, d.span.key()), set()).add(d.launch_id)
            having.setdefault((_group(d.launch), d.code, d.message), set()).add(d.launch_id)
    from linter.rules.base import UNSAFE, Severity

    # the paths a finding holds on, for its words: those with the same message (paths that load
    # different models give different findings at one place, each of its own paths)
    holding: dict[tuple, list[tuple[str, ...]]] = {}
    for d in diags:
        if d.launch is not None and d.launch.path:
            holding.setdefault((_group(d.launch), d.code, d.span.key(), d.message), []).append(d.launch.path)
    # the paths on which a rule fails, whatever the place and words: a rule that fails on every path
    # (with other values on each) means the launch never starts (rev37 d10)
    failing: dict[tuple, set[str]] = {}
    for d in diags:
        if d.launch is not None and d.launch.path and d.severity == Severity.ERROR:
            failing.setdefault((_group(d.launch), d.code), set()).add(d.launch_id)
    original: dict[int, str] = {}  # id of a marked finding -> its message before the path's words
    for d in diags:
        if d.launch is None or not d.launch.path:
            continue
        group = _group(d.launch)
        key = (group, d.code, d.span.key())
        on = having[key] | having[(group, d.code, d.message)]
        if on >= paths[group]:
            continue  # every path has it (here, or in the same words elsewhere)
        when = _when(holding[key + (d.message,)])
        original[id(d)] = d.message
        if failing.get((group, d.code), set()) >= paths[group]:
            d.message = f"{d.message} ({when}; {d.code} fails on every path of this launch, on the others " \
                        "with other values)"
        else:
            d.severity = Severity.WARNING
            d.message = f"{d.message} ({when}; not on every path of this launch)"
        if d.fix is None:
            continue
        sound = [c for c in members[group] if c.identity not in on and _reads(c, d.fix.edits)]
        if not sound:
            continue  # only the paths that have the finding read what the fix edits
        if d.fix.applicability == "safe":
            d.fix.applicability = UNSAFE
        note = "the fix is unsafe: the value it edits is also read " + \
               f"{_when([c.launch.path for c in sound])}, and there nothing is wrong with it"
        if note not in d.notes:
            d.notes.append(note)
    return _merge_into_every_path(diags, original) if original else diags


def _merge_into_every_path(diags: list, original: dict[int, str]) -> list:
    """``diags`` without the findings marked only-some-paths (``original``: id -> unmarked message)
    that an unmarked finding has in the same words at the same place (a call that decides the
    condition, beside one that does not: fresh review of issue 35, D13). That one keeps the launch of
    the one left out among those it serves (``also``), and its fix is unsafe when that one's was."""
    every = {(d.code, d.span.key(), d.message): d for d in diags if id(d) not in original}
    out = []
    for d in diags:
        kept = every.get((d.code, d.span.key(), original[id(d)])) if id(d) in original else None
        if kept is None:
            out.append(d)
            continue
        if d.launch_id != kept.launch_id and d.launch_id not in kept.also:
            kept.also.append(d.launch_id)
        if kept.fix is not None and d.fix is not None and d.fix.applicability != "safe" \
                and kept.fix.applicability == "safe":
            kept.fix.applicability = d.fix.applicability
            kept.notes.extend(n for n in d.notes if n.startswith("the fix is unsafe") and n not in kept.notes)
    return out


def _reads(ctx, edits) -> bool:
    """The launch of ``ctx`` reads a character one of ``edits`` replaces."""
    from linter.shared_fixes import value_uses

    spans = [(str(e.span.source.path), e.span.start, max(e.span.end, e.span.start + 1)) for e in edits]
    return any(p == q and off < end and start < off + n for q, off, n in value_uses(ctx) for p, start, end in spans)


def _when(paths: list[tuple[str, ...]]) -> str:
    """The paths a finding holds on, in words: the conditions they all share, else each path's."""
    from linter.branches import describe

    common = [label for label in paths[0] if all(label in p for p in paths[1:])]
    if common:
        return describe(common)
    unique = list(dict.fromkeys(paths))
    return "when " + " or ".join("(" + " and ".join(p) + ")" if len(p) > 1 else p[0] for p in unique)
