"""MkDocs-Material's indented blocks for markdown-it-py: admonitions (``!!!``), collapsible blocks
(``???``, ``???+``) and content tabs (``===``, ``===+``, ``===!``).

Written by hand: no library reads these as MkDocs does. mdit-py-plugins' ``admon`` plugin reads
``!!!``/``???``/``???+`` but closes the block at two consecutive blank lines (so a fence holding two
blank lines is cut in two, the rest read as an indented code block), where Python-Markdown's
``admonition`` and pymdownx's ``details`` keep going while lines are indented; and nothing reads
pymdownx's ``tabbed``. The header lines are matched with the extensions' own expressions
(Python-Markdown 3.11 ``markdown/extensions/admonition.py`` ``AdmonitionProcessor.RE``; pymdown-
extensions 13.1 ``pymdownx/details.py`` and ``pymdownx/tabbed.py`` ``START``), and the body is theirs:
the lines after the header indented by four columns more than it (``tab_length``; a tab advances to
the next multiple of four, as both Python-Markdown and markdown-it expand it), blank lines included,
up to the first line that is indented less; trailing blank lines are not part of it. Inside, the body
is read as any Markdown (fences, lists, more blocks, to markdown-it's nesting limit).

Tokens: ``pymdown_open`` (``meta``: ``kind`` ``"admonition"`` or ``"tab"``, ``title`` as shown or None,
``title_col``/``title_len`` where the title is written on the header line, ``mixed``: the 0-based line of
the first body line whose indentation mixes tabs and spaces, ``unindented``: the line of a code fence
that directly follows an empty block at the header's own indentation) and ``pymdown_close``.
"""

from __future__ import annotations

import re

from linter.extract.docblocks import mixed_indent

# Python-Markdown 3.11, markdown/extensions/admonition.py: AdmonitionProcessor.RE (on one line)
_ADMONITION = re.compile(r'!!! ?([\w\-]+(?: +[\w\-]+)*)(?: +"(.*?)")? *$')
# pymdown-extensions 13.1, pymdownx/details.py: DetailsProcessor.START
_DETAILS = re.compile(r'\?{3}(\+)? ?(?:([\w\-]+(?: +[\w\-]+)*?)?(?: +"(.*?)")|([\w\-]+(?: +[\w\-]+)*?)) *$')
# pymdown-extensions 13.1, pymdownx/tabbed.py: TabbedProcessor.START
_TABBED = re.compile(r'={3}(\+|\+!|!\+|!)? +"(.*?)" *$')
_FENCE = re.compile(r"(`{3,}|~{3,})")
TAB_LENGTH = 4
"""Python-Markdown's ``tab_length`` (the default, which MkDocs keeps)."""


def _header(line: str) -> tuple[str, str | None, int, int] | None:
    """``(kind, title, column, length)`` of a header line (its indentation off): the title as shown,
    None for none (``!!! note ""``), and where on the line the text it is made from is written."""
    m = _ADMONITION.match(line)
    if m:
        if m.group(2) is None:  # no title: the first class, capitalised, is shown
            word = m.group(1).split(" ", 1)[0]
            return "admonition", word.lower().capitalize(), m.start(1), len(word)
        return "admonition", m.group(2) or None, m.start(2), len(m.group(2))
    m = _DETAILS.match(line)
    if m:
        if m.group(4):
            word = m.group(4).split(" ", 1)[0]
            return "admonition", word.lower().capitalize(), m.start(4), len(word)
        return "admonition", m.group(3) or None, m.start(3), len(m.group(3) or "")
    m = _TABBED.match(line)
    if m:
        return "tab", m.group(2), m.start(2), len(m.group(2))
    return None


def pymdown_block(state, start_line: int, end_line: int, silent: bool) -> bool:
    """The markdown-it block rule (see the module docstring)."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False  # an indented code block
    pos = state.bMarks[start_line] + state.tShift[start_line]
    maximum = state.eMarks[start_line]
    if pos >= maximum or state.src[pos] not in "!?=":
        return False
    header = _header(state.src[pos:maximum])
    if header is None:
        return False
    if silent:
        return True
    kind, title, col, length = header
    body_indent = state.sCount[start_line] + TAB_LENGTH
    last = start_line
    line = start_line + 1
    while line < end_line:
        if state.isEmpty(line):
            line += 1
            continue
        if state.sCount[line] < body_indent:
            break
        last = line
        line += 1
    end = last + 1
    line_start = state.src.rfind("\n", 0, pos) + 1
    meta = {"kind": kind, "title": title, "title_col": pos - line_start + col, "title_len": length,
            "mixed": None, "unindented": None}
    body = [state.src[state.bMarks[k]:state.eMarks[k]] for k in range(start_line + 1, end)]
    bad = mixed_indent(body, body_indent) if body else None
    if bad is not None:
        meta["mixed"] = start_line + 1 + bad
    if end == start_line + 1 and line < end_line and state.sCount[line] == state.sCount[start_line]:
        at = state.bMarks[line] + state.tShift[line]
        if _FENCE.match(state.src, at, state.eMarks[line]):
            meta["unindented"] = line

    token = state.push("pymdown_open", "div", 1)
    token.markup = state.src[pos:pos + 4].rstrip(" \"")
    token.block = True
    token.map = [start_line, end]
    token.meta = meta

    old_parent, old_max, old_indent = state.parentType, state.lineMax, state.blkIndent
    state.parentType = "admonition"
    state.lineMax = end
    state.blkIndent = body_indent
    state.md.block.tokenize(state, start_line + 1, end)
    state.parentType, state.lineMax, state.blkIndent = old_parent, old_max, old_indent

    token = state.push("pymdown_close", "div", -1)
    token.block = True
    state.line = end
    return True


def pymdown_plugin(md) -> None:
    """Add the rule to a ``MarkdownIt`` parser (before fences; it may interrupt a paragraph, a list
    or a block quote, as the extensions' headers may start anywhere in a block)."""
    md.block.ruler.before("fence", "pymdown", pymdown_block,
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
