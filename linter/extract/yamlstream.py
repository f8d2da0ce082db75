"""A YAML stream of several documents (``---`` … ``...``), each parsed alone with its nodes' marks
in the whole file's offsets: a Kubernetes manifest, a Helm chart's rendered output, the YAML files
a repository's Karpenter NodePools are read from. One document that does not parse is reported and
the others are still read.
"""

from __future__ import annotations

import re

from linter import limits
from linter.launch import Problem
from linter.source import SourceFile, Span

__all__ = ["MAX_DOCUMENTS", "parse_documents"]

_DOC_START = re.compile(r"^---(?=[ \t]|\r?$)", re.MULTILINE)
_DOC_END = re.compile(r"^\.\.\.[ \t]*\r?$", re.MULTILINE)

MAX_DOCUMENTS = 2000
"""A manifest stream longer than this is read up to here (the rest is reported)."""


def _segments(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each document of a YAML stream (split at ``---`` and after ``...`` lines)."""
    cuts = {0, len(text)}
    cuts.update(m.start() for m in _DOC_START.finditer(text))
    cuts.update(m.end() for m in _DOC_END.finditer(text))
    points = sorted(cuts)
    out = []
    for a, b in zip(points, points[1:]):
        if out and text[out[-1][0]:out[-1][1]].lstrip().startswith("%"):  # directives belong to the next document
            out[-1] = (out[-1][0], b)
            continue
        out.append((a, b))
    return out


def _shift(root, delta: int) -> None:
    """Move the marks of every node under ``root`` by ``delta`` characters (a document parsed alone)."""
    from yaml.error import Mark

    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        # libyaml's marks are read-only: each node gets moved copies (lines stay the document's)
        node.start_mark, node.end_mark = (None if m is None else Mark(None, m.index + delta, m.line, m.column, None, None)
                                          for m in (node.start_mark, node.end_mark))
        value = node.value
        if isinstance(value, list):
            for item in value:
                stack.extend(item if isinstance(item, tuple) else (item,))


def parse_documents(source: SourceFile, problems: list[Problem] | None) -> list:
    """The root node of each document of ``source`` that parses (None for an empty one); a document
    that does not parse adds an SGL001 problem (when ``problems`` is given) and is left out."""
    from linter.extract.yamlload import InvalidYaml, compose

    roots = []
    text = source.text
    segments = _segments(text)
    for k, (a, b) in enumerate(segments):
        if k >= MAX_DOCUMENTS:
            if problems is not None:
                problems.append(Problem(f"more than {MAX_DOCUMENTS} YAML documents: the rest of the file is not read",
                                        Span(source, a, a)))
            break
        chunk = text[a:b]
        if not chunk.strip():
            continue
        try:
            root = compose(chunk)
        except InvalidYaml as exc:
            if problems is not None and exc.offset is None:
                problems.append(Problem(f"invalid YAML in document {k + 1}: {exc}", Span(source, a, a)))
            elif problems is not None:
                offset = a + exc.offset
                problems.append(Problem(f"invalid YAML in document {k + 1}: {exc.problem}; the other documents are "
                                        "still read", Span(source, offset, offset)))
            continue
        except (RecursionError, ValueError) as exc:
            if problems is not None:
                problems.append(Problem(f"invalid YAML in document {k + 1}: {exc}", Span(source, a, a)))
            continue
        except limits.LimitExceeded as exc:
            limits.record(exc.limit, exc.what, Span(source, a, a), "the document is not checked")
            continue
        if root is None:
            continue
        _shift(root, a)
        roots.append(root)
    return roots
