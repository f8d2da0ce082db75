"""Target GPUs declared in a ``# lint-configs: target-gpu=NAME[, NAME…]`` comment.

The grammar of a ``lint-configs:`` comment (``#``, ``<!-- … -->`` in Markdown, ``.. …`` in
reStructuredText; DESIGN.md) and the reading of its ``target-gpu=`` form, as GPU declarations like
those of ``#SBATCH`` (:mod:`linter.gpus.slurm`). The directive scanner (:mod:`linter.directives`,
which also reads suppressions) is built on it; a format that merges other files into a launch (a
compose base file's target is a default for the services that extend it) reads their declared
targets here, without the scanner the engine runs once per linted file.
"""

from __future__ import annotations

import re

from linter.launch import GpuDecl
from linter.source import SourceFile, Span

__all__ = ["DIRECTIVE", "declared_targets", "line_scan", "targets_in"]

DIRECTIVE = re.compile(r"(?:#+|<!--|(?<!\S)\.\.)[ \t]*lint-configs[ \t]*:[ \t]*(?P<body>[^\r\n]*)")
"""A ``lint-configs:`` comment; ``body`` is what follows the colon up to the end of the line."""
_TARGET = re.compile(r"target-gpus?[ \t]*=[ \t]*(?P<value>.*)$")


def line_scan(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each :data:`DIRECTIVE` match in ``text``: one search per line holding
    ``lint-configs`` (a match ends its line, so at most one a line; a regex scan of 5 MB costs 0.1 s)."""
    out = []
    k = text.find("lint-configs")
    while k >= 0:
        line = text.rfind("\n", 0, k) + 1
        line = max(line, text.rfind("\r", line, k) + 1)
        end = text.find("\n", k)
        end = len(text) if end < 0 else end
        cr = text.find("\r", k, end)
        end = end if cr < 0 else cr
        m = DIRECTIVE.search(text, line, end)  # the line's match, if any, is the one finditer finds
        if m is not None:
            out.append((m.start(), m.end()))
        k = text.find("lint-configs", end)
    return out


def targets_in(source: SourceFile, body_start: int, body: str) -> list[GpuDecl] | None:
    """The GPUs a directive ``body`` (at offset ``body_start`` of ``source``) declares, each located at
    its name (split on commas, trimmed); None when the body is not a ``target-gpu=`` directive."""
    tm = _TARGET.match(body)
    if not tm:
        return None
    out = []
    pos = body_start + tm.start("value")
    for part in tm.group("value").split(","):
        name = part.strip()
        if name:
            s = pos + part.index(name)
            out.append(GpuDecl(name, Span(source, s, s + len(name)),
                               "declared by a lint-configs: target-gpu= comment"))
        pos += len(part) + 1
    return out


def declared_targets(source: SourceFile) -> list[GpuDecl]:
    """The target GPUs the ``target-gpu=`` comments of ``source`` declare, found by a line scan (the
    ``targets`` :func:`linter.directives.scan` finds without a comment list)."""
    text = source.text
    if "lint-configs" not in text:
        return []
    out: list[GpuDecl] = []
    for start, end in line_scan(text):
        m = DIRECTIVE.match(text, start, end)
        if not m:
            continue
        body_start = m.start("body")
        out += targets_in(source, body_start, text[body_start:end].rstrip()) or []
    return out
