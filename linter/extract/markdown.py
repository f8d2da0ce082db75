"""Markdown runbooks (``.md``, ``.markdown``): the commands people copy, in fenced code blocks —
also in the blocks of MkDocs-Material and of MyST (Sphinx's Markdown).

Fences are found with markdown-it-py's CommonMark parser (CommonMark 0.31 §4.5 "Fenced code
blocks": an unclosed fence runs to the end of the document or of its container), also inside list
items and block quotes — their indentation and ``> `` markers are not part of the code, and spans
skip them. Beside CommonMark:

* **MkDocs-Material / PyMdown Extensions**: admonitions ``!!! note "Title"``, collapsible blocks
  ``??? info`` / ``???+ tip`` and content tabs ``=== "NVIDIA"``, nested to any depth, their body
  indented by four spaces (``linter/extract/pymdown.py``, written by hand: see there why);
* **MyST**: code directives in fences (```` ```{code-block} bash ````, ``{code}``, ``{sourcecode}``,
  ``{code-cell}``), colon fences (``:::{note}``, read with mdit-py-plugins' ``colon_fence``, the
  reader MyST-Parser itself uses; enabled when the page opens one with ``:::{``), directive options
  (``:caption:`` lines or a ``---`` YAML block) taken off as MyST-Parser 5.2 does
  (``myst_parser/parsers/directives.py``), the body of any other directive (``{tab-item}``,
  ``{note}``, ``{dropdown}`` …) read as Markdown again, and ``{eval-rst}`` read as reStructuredText
  (``linter/extract/rst.py``).

A code block is then read by its language (``linter/extract/docblocks.py``): shell, console, Python,
YAML, Dockerfile, or untagged when it starts with an SGLang entry point. Each launch keeps the
labels its block sits under (``Launch.context``): the headings, tab labels and admonition titles,
outermost first, and a code block's caption. Directives are written in HTML comments
(``<!-- lint-configs: target-gpu=H100 -->``) or as ``#`` comments inside a fence.

Bad input is an SGL001 on its block, and the rest of the page is read: a block that does not parse
as its language; a fence opened in an admonition, tab or directive and not closed inside it (it is
not read); an admonition or tab whose body mixes tabs and spaces in its indentation (not read); an
admonition or tab with no indented body directly followed by a fence (MkDocs shows the fence outside
it); a MyST directive that is never closed (it runs to the end of its container, as MyST reads it).
"""

from __future__ import annotations

import re

from linter import limits
from linter.extract.docblocks import DocBlock, Layer, code_of, read_blocks
from linter.extract.embedded import problem_at
from linter.launch import ContextLabel, Extraction, Problem
from linter.records import dataclass, field
from linter.source import SourceFile, Span

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_MYST_COLON = re.compile(r"^[ \t>]*:{3,}[ \t]*\{", re.MULTILINE)
_CLOSING = re.compile(r"[ \t>]*(`{3,}|~{3,}|:{3,})[ \t]*")

# MyST code directives (MyST-Parser 5.2 / Sphinx 9: code-block, sourcecode, code; myst-nb: code-cell)
_CODE_DIRECTIVES = frozenset({"code-block", "sourcecode", "code", "code-cell"})
# Directives whose argument is a label: sphinx-design tab-item, sphinx-tabs tab/group-tab (tab), the
# generic admonition and sphinx-design dropdown/card (their title).
_TAB_DIRECTIVES = frozenset({"tab-item", "tab", "group-tab"})
_TITLED_DIRECTIVES = frozenset({"admonition", "dropdown", "card"})
# docutils' (and Sphinx's) specific admonitions: no argument, shown with their name as title.
_NAMED_ADMONITIONS = frozenset({"attention", "caution", "danger", "error", "hint", "important", "note",
                                "tip", "warning", "seealso", "todo"})


def extract(source: SourceFile, ws) -> Extraction:
    """The launches of a Markdown file's code blocks, its HTML-comment directives and each block's problems."""
    result = Extraction(comments=[])
    reader = _Reader(source)
    reader.document(Layer(source), (), 0)
    read_blocks(reader.blocks, ws, result)
    result.problems.extend(reader.problems)
    result.problems.sort(key=lambda p: p.span.start)
    fenced = sorted(reader.fenced)
    for m in _HTML_COMMENT.finditer(source.text):
        if not any(a <= m.start() < b for a, b in fenced):
            result.comments.append(Span(source, m.start(), m.end() - 3))
    result.comments.sort(key=lambda s: s.start)
    return result


_PARSERS: dict[bool, object] = {}
"""The two parsers (with and without MyST colon fences), made once per process: a parser holds no
state of the text it parsed."""


def _parser(text: str):
    colon = _MYST_COLON.search(text) is not None
    md = _PARSERS.get(colon)
    if md is not None:
        return md
    from markdown_it import MarkdownIt

    from linter.extract.pymdown import pymdown_plugin

    # Only block tokens are read (fences, headings with their text, admonitions and tabs): the inline
    # parse of every paragraph and heading (its children, a fifth of the parse) is not made.
    md = MarkdownIt("commonmark").use(pymdown_plugin).disable(["inline", "text_join"])
    if colon:
        from mdit_py_plugins.colon_fence import colon_fence_plugin

        md.use(colon_fence_plugin)
    _PARSERS[colon] = md
    return md


@dataclass
class _Scope:
    """A container the walk is in: its label (None for the page itself) and the headings seen in it."""

    label: ContextLabel | None = None
    headings: list[tuple[int, ContextLabel]] = field(default_factory=list)
    skip: bool = False  # a malformed block (mixed indentation): its code is not read


class _Reader:
    """Walks a page (and the layers inside it) into code blocks, problems and fenced regions."""

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.blocks: list[DocBlock] = []
        self.problems: list[Problem] = []
        self.fenced: list[tuple[int, int]] = []  # host offsets of every code block (no directives there)

    def problem(self, layer: Layer, offset: int, message: str) -> None:
        span = layer.span(offset, offset + 1)
        self.problems.append(problem_at(self.source, span.start if span else 0, message))

    def document(self, layer: Layer, outer: tuple[ContextLabel, ...], depth: int) -> None:
        """Read ``layer`` as a Markdown document whose blocks sit under the labels ``outer``."""
        md = _parser(layer.text)
        tokens = md.parse(layer.text)
        deepest = md.options.get("maxNesting", 20) - 1
        scopes = [_Scope()]
        for n, tok in enumerate(tokens):
            kind = tok.type
            if tok.level >= deepest and tok.map and tok.nesting == 1:
                # markdown-it reads nothing nested deeper than its maxNesting: say so, once
                start, _ = layer.line(tok.map[0])
                limits.record("MAX_DOC_DEPTH", f"Markdown blocks nested {deepest + 1} deep",
                              layer.span(start, start + 1))
                deepest = 10 ** 9
            if kind == "heading_open" and tok.map and n + 1 < len(tokens):
                label = self._heading(layer, tok, tokens[n + 1].content)
                if label is not None:
                    level = int(tok.tag[1:])
                    heads = scopes[-1].headings
                    while heads and heads[-1][0] >= level:
                        heads.pop()
                    heads.append((level, label))
            elif kind == "pymdown_open":
                scopes.append(self._pymdown(layer, tok, scopes[-1].skip))
            elif kind == "pymdown_close":
                if len(scopes) > 1:
                    scopes.pop()
            elif kind in ("fence", "colon_fence") and tok.map:
                start, _ = layer.line(tok.map[0])
                end, _ = layer.line(tok.map[1])
                span = layer.span(start, max(start + 1, end))
                if span is not None:
                    self.fenced.append((span.start, span.end))
                if scopes[-1].skip:
                    continue
                context = outer + tuple(_labels(scopes))
                self._fence(layer, tok, context, inside=depth > 0 or len(scopes) > 1, depth=depth)

    def _heading(self, layer: Layer, tok, text: str) -> ContextLabel | None:
        start, line = layer.line(tok.map[0])
        content = text.split("\n", 1)[0].strip()
        if not content:
            return None
        col = line.find(content)
        return layer.label("heading", content, start + col) if col >= 0 else ContextLabel("heading", content, None)

    def _pymdown(self, layer: Layer, tok, skipping: bool) -> _Scope:
        meta = tok.meta
        start, _ = layer.line(tok.map[0])
        name = "tab" if meta["kind"] == "tab" else "block"
        title = meta["title"]
        at = start + meta["title_col"]
        label = layer.label(meta["kind"], title, at, meta["title_len"]) if title is not None else None
        shown = f'{tok.markup} "{title}"' if title is not None else tok.markup
        if meta["mixed"] is not None and not skipping:
            at, _ = layer.line(meta["mixed"])
            self.problem(layer, at, f"the {name} {shown} at line {self._line(layer, start)} mixes tabs and "
                                    "spaces in the indentation of its body (MkDocs reads a tab as 4 columns; "
                                    "an editor may not): its code blocks are not read")
            return _Scope(label, skip=True)
        if meta["unindented"] is not None and not skipping:
            at, _ = layer.line(meta["unindented"])
            self.problem(layer, start + meta["title_col"],
                         f"the {name} {shown} has no body indented by 4 spaces: the code block at line "
                         f"{self._line(layer, at)} is shown outside it (indent it to put it inside)")
        return _Scope(label, skip=skipping)

    def _line(self, layer: Layer, offset: int) -> int:
        span = layer.span(offset, offset + 1)
        return self.source.line_of(span.start) if span is not None else 0

    def _fence(self, layer: Layer, tok, context: tuple[ContextLabel, ...], inside: bool, depth: int) -> None:
        """A fence or colon fence: a code block, or a MyST directive."""
        info = tok.info.strip()
        start, _ = layer.line(tok.map[0])
        line = self._line(layer, start)
        closed = _closed(layer, tok)
        lines = tok.content.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if info.startswith("{") and "}" in info:
            name = info[1:info.index("}")].strip().lower()
            argument = info[info.index("}") + 1:].strip()
            if name in _CODE_DIRECTIVES:
                d = _directive_body(lines)
                lang = argument.split(maxsplit=1)[0].lower() if argument else ""
                caption = d.options.get("caption")
                if caption is not None:
                    k, col, text = caption
                    at, _ = layer.line(tok.map[0] + 1 + k)
                    context = context + (layer.label("caption", text, at + col),)
                self._code(layer, tok, lang, lines[d.body:], tok.map[0] + 1 + d.body, context, line, closed,
                           inside, what=f"{{{name}}} block", cell=name == "code-cell")
                return
            if not closed:
                self.problem(layer, start + _indent(layer, tok.map[0]),
                             f"the {{{name}}} directive at line {line} is not closed: it runs to the end of "
                             "its container")
            if depth >= limits.MAX_DOC_DEPTH:
                limits.record("MAX_DOC_DEPTH", f"MyST directives nested more than {depth} deep",
                              layer.span(start, start + 1))
                return
            d = _directive_body(lines)
            body = lines[d.body:]
            first = tok.map[0] + 1 + d.body
            sub = Layer.of(code_of(layer, first, body))
            if name == "eval-rst":
                from linter.extract.rst import rst_blocks

                blocks, problems = rst_blocks(sub, context)
                self.blocks.extend(blocks)
                self.problems.extend(problems)
                return
            label = self._directive_label(layer, tok, name, argument)
            self.document(sub, context + ((label,) if label is not None else ()), depth + 1)
            return
        lang = _lang(info)
        self._code(layer, tok, lang, lines, tok.map[0] + 1, context, line, closed, inside,
                   what=f"{lang or 'untagged'} block")

    def _directive_label(self, layer: Layer, tok, name: str, argument: str) -> ContextLabel | None:
        start, text = layer.line(tok.map[0])
        if name in _TAB_DIRECTIVES or (name in _TITLED_DIRECTIVES and argument):
            if not argument:
                return None
            col = text.find(argument, text.find("}") + 1)
            return layer.label("tab" if name in _TAB_DIRECTIVES else "admonition", argument,
                               start + col) if col >= 0 else None
        if name in _NAMED_ADMONITIONS:
            col = text.find(name, text.find("{"))
            return layer.label("admonition", name.capitalize(), start + max(col, 0), len(name))
        return None

    def _code(self, layer: Layer, tok, lang: str, lines: list[str], first: int, context, line: int,
              closed: bool, inside: bool, what: str, cell: bool = False) -> None:
        code = code_of(layer, first, lines)
        start, _ = layer.line(tok.map[0])
        problem = None
        if inside and not closed:
            problem = Problem(f"the {what} at line {line} is not closed inside its container (its closing "
                              "fence is missing or indented less): it is not read",
                              Span(self.source, *_at(layer, start + _indent(layer, tok.map[0]))))
        self.blocks.append(DocBlock(lang, code, line, context, problem, what, cell))


def _at(layer: Layer, offset: int) -> tuple[int, int]:
    span = layer.span(offset, offset + 1)
    return (span.start, span.start) if span is not None else (0, 0)


def _indent(layer: Layer, line: int) -> int:
    _, text = layer.line(line)
    return len(text) - len(text.lstrip(" \t>"))


def _labels(scopes: list[_Scope]):
    for scope in scopes:
        if scope.label is not None:
            yield scope.label
        for _, label in scope.headings:
            yield label


def _closed(layer: Layer, tok) -> bool:
    """Whether a fence (or colon fence) ends with its closing line (else it ran to its container's end)."""
    a, b = tok.map
    if b - 1 <= a:
        return False
    _, last = layer.line(b - 1)
    m = _CLOSING.fullmatch(last)
    if m is None:
        return False
    marker = tok.markup
    return m.group(1)[0] == marker[0] and len(m.group(1)) >= len(marker)


@dataclass
class _Directive:
    """A MyST directive's content split as MyST-Parser splits it: ``options`` maps a name to
    ``(line index, column, value)`` in the content; ``body`` is the index of the first body line."""

    options: dict[str, tuple[int, int, str]]
    body: int


_OPTION = re.compile(r"[ \t]*:(?P<name>[\w-]+):(?:[ \t]+(?P<value>.*?))?[ \t]*$")
_YAML_OPTION = re.compile(r"[ \t]*(?P<name>[\w-]+)[ \t]*:(?:[ \t]+(?P<value>.*?))?[ \t]*$")


def _directive_body(lines: list[str]) -> _Directive:
    """Options and body of a directive's content (MyST-Parser 5.2,
    ``myst_parser/parsers/directives.py`` ``_parse_directive_options``): a ``---`` YAML block up to the
    next line starting with ``---``, or the leading lines that start with ``:`` (not ``:::``); then one
    blank line is dropped."""
    options: dict[str, tuple[int, int, str]] = {}
    k = 0
    if lines and lines[0].startswith("---"):
        k = 1
        while k < len(lines) and not lines[k].startswith("---"):
            m = _YAML_OPTION.fullmatch(lines[k])
            if m and m.group("value"):
                options[m.group("name")] = (k, m.start("value"), m.group("value").strip("'\""))
            k += 1
        k = min(k + 1, len(lines))
    elif lines and lines[0].lstrip().startswith(":"):
        while k < len(lines) and lines[k].lstrip().startswith(":") and not lines[k].lstrip().startswith(":::"):
            m = _OPTION.fullmatch(lines[k])
            if m and m.group("value"):
                options[m.group("name")] = (k, m.start("value"), m.group("value"))
            k += 1
    if k < len(lines) and not lines[k].strip():
        k += 1
    return _Directive(options, k)


def _lang(info: str) -> str:
    """The language of an info string: its first word, lower-case, without ``{.`` attribute syntax."""
    word = info.strip().split(maxsplit=1)[0] if info.strip() else ""
    return word.strip("{}.").split(",")[0].lower()
