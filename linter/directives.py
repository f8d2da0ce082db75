"""``# lint-configs: …`` comments: target-GPU declarations and suppressions.

Grammar (DESIGN.md):

* ``lint-configs: target-gpu=NAME[, NAME…]`` — the value runs to the end of the comment, split on
  commas and trimmed; it declares the target GPUs of every launch in the file;
* ``lint-configs: ignore[CODE[, CODE…]] reason`` — codes or kebab-case names; it applies on its own
  line, on the line directly below, and to a launch that starts on that line or the line below.

Comments are written with ``#``, in Markdown as HTML comments ``<!-- lint-configs: … -->`` (the
Markdown format passes each comment's span without its ``-->``) and in reStructuredText as comments
``.. lint-configs: …``. A format that can list its comments
exactly passes their spans; otherwise each line is scanned for ``#…lint-configs:``.
"""

from __future__ import annotations

import re

from linter.codes import expand_selector
from linter.gpus.comments import DIRECTIVE as _DIRECTIVE
from linter.gpus.comments import line_scan as _line_scan
from linter.gpus.comments import targets_in
from linter.launch import GpuDecl
from linter.records import dataclass, field
from linter.source import SourceFile, Span

_IGNORE = re.compile(r"(?:ignore|noqa)[ \t]*\[(?P<codes>[^\]]*)\](?P<reason>.*)$")


@dataclass
class Suppression:
    """One ``ignore[...]`` comment. ``codes`` are the resolved codes; ``unknown`` the entries that name
    no rule; ``used`` is set when it suppressed something."""

    span: Span
    line: int
    written: list[str]
    codes: set[str]
    unknown: list[str]
    reason: str
    used: set[str] = field(default_factory=set)


@dataclass
class Directives:
    """The directives of one file: target GPUs it declares, its suppressions, and malformed ones (span, message)."""
    targets: list[GpuDecl] = field(default_factory=list)
    suppressions: list[Suppression] = field(default_factory=list)
    malformed: list[tuple[Span, str]] = field(default_factory=list)


def scan(source: SourceFile, comments: list[Span] | None = None) -> Directives:
    """Find the directives of ``source`` (in ``comments`` when given, else by a line scan)."""
    out = Directives()
    text = source.text
    if "lint-configs" not in text:
        return out
    if comments is None:
        regions = _line_scan(text)
    else:
        regions = []
        for c in comments:
            m = _DIRECTIVE.search(text, c.start, c.end)
            if m and m.start() < c.end:
                regions.append((m.start(), min(m.end(), c.end)))
    for start, end in regions:
        m = _DIRECTIVE.match(text, start, end)
        if not m:
            continue
        body_start = m.start("body")
        body = text[body_start:end].rstrip()
        span = Span(source, start, body_start + len(body))
        line = source.line_of(start)
        declared = targets_in(source, body_start, body)
        if declared is not None:
            out.targets.extend(declared)
            continue
        im = _IGNORE.match(body)
        if im:
            written = [c.strip() for c in im.group("codes").split(",") if c.strip()]
            codes: set[str] = set()
            unknown = []
            for w in written:
                got = expand_selector(w)
                if got is None:
                    unknown.append(w)
                else:
                    codes |= got
            if not written:
                unknown.append("(no code)")
            out.suppressions.append(Suppression(span, line, written, codes, unknown, im.group("reason").strip()))
            continue
        out.malformed.append((span, f"unknown lint-configs directive {body!r}; expected 'target-gpu=NAME' or "
                                    "'ignore[CODE] reason'"))
    return out
