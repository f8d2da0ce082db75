"""reStructuredText (``.rst``, Sphinx documentation): the commands in its code blocks.

The page is parsed with docutils, the reference reader (imported only for a page that mentions
SGLang: it costs about 0.1 s). What Sphinx and its common extensions add is registered for the parse
only, as directives that keep where each line of their content was written:

* code: ``.. code-block:: LANG``, ``.. code:: LANG``, ``.. sourcecode:: LANG`` (Sphinx 9
  ``sphinx/directives/code.py``: ``:caption:``, ``:linenos:``, ``:emphasize-lines:`` …; an option
  Sphinx does not know is docutils' error, as in Sphinx), sphinx-tabs' ``.. code-tab:: LANG [LABEL]``,
  sphinx-prompt's ``.. prompt:: LANG``; ``.. highlight:: LANG`` sets the language of the literal blocks
  after it (Sphinx's default highlights none we read: such a block is read when it starts with an
  SGLang entry point);
* labels: sphinx-design's ``.. tab-item:: LABEL`` and sphinx-tabs' / sphinx-inline-tabs'
  ``.. tab::``/``.. group-tab::`` (a tab), ``.. admonition:: TITLE``, ``.. dropdown:: TITLE``,
  ``.. card:: TITLE`` and the named admonitions (``.. note::`` shown as "Note"); section titles are
  headings;
* every other directive docutils does not know (``tab-set``, ``tabs``, ``toctree``, ``only`` …) has
  its content read as reStructuredText, so a block inside it is found.

A paragraph ending in ``::`` and its indented literal block, and a doctest block (``>>>``), are code
blocks too. Nothing is read from disk or the network (``file_insertion_enabled`` and ``raw_enabled``
off). Each block keeps the labels it sits under (``Launch.context``), outermost first.

Bad input is an SGL001 on its block and the rest is read: a directive docutils rejects (an unknown
option, a missing argument, a malformed table …) when its text mentions SGLang; a code block whose
indentation mixes tabs and spaces. Directives are ``.. lint-configs: target-gpu=H100`` comments (or
``#`` comments inside a code block).
"""

from __future__ import annotations

import re

from linter import limits
from linter.mentions import mentions_sglang
from linter.extract.docblocks import DocBlock, Layer, code_of, mixed_indent, read_blocks
from linter.launch import ContextLabel, Extraction, Problem
from linter.source import SourceFile, Span

_COMMENT = re.compile(r"^[ \t]*\.\.[ \t]+lint-configs[ \t]*:[^\n]*", re.MULTILINE)
_DIRECTIVE_NAME = re.compile(r"^[ \t]*\.\.[ \t]+([A-Za-z0-9][\w:.+-]*?)[ \t]*::", re.MULTILINE)
# Line breaks of str.splitlines (which docutils splits on) that are no line break to us: each becomes a
# space (same length), so docutils' line numbers are ours.
_OTHER_BREAKS = re.compile(r"\r(?!\n)|[\x1c\x1d\x1e\x85\u2028\u2029]")

# Sphinx 9 sphinx/directives/code.py CodeBlock.option_spec, with docutils' code options (number-lines).
_CODE_OPTIONS = ("force", "linenos", "dedent", "lineno-start", "emphasize-lines", "caption", "class", "name",
                 "number-lines")
_CODE_NAMES = {"code-block", "code", "sourcecode"}
_TAB_NAMES = {"tab-item", "tab", "group-tab"}
_TITLED_NAMES = {"admonition", "dropdown", "card"}
_NAMED_ADMONITIONS = {"attention", "caution", "danger", "error", "hint", "important", "note", "tip",
                      "warning", "seealso", "todo"}
_KEEP = {"include", "raw", "container", "topic", "sidebar", "table", "list-table", "csv-table", "math",
         "image", "figure", "parsed-literal", "class", "role", "default-role", "contents", "sectnum",
         "rubric", "epigraph", "highlights", "pull-quote", "compound", "line-block", "replace", "unicode",
         "date", "meta", "title", "header", "footer", "target-notes"}
"""docutils' own directives, kept as docutils implements them (file insertion and raw are off)."""


def extract(source: SourceFile, ws) -> Extraction:
    """The launches of an rst page's code blocks, its ``.. lint-configs:`` comments and each block's problems."""
    result = Extraction(comments=[])
    if len(source.text) > limits.MAX_PARSED_CHARS:
        limits.record("MAX_PARSED_CHARS", f"{source.display} of {len(source.text):,} characters",
                      Span(source, 0, 0), "the file is not read")
        return result
    blocks, problems = rst_blocks(Layer(source), ())
    read_blocks(blocks, ws, result)
    result.problems.extend(problems)
    result.problems.sort(key=lambda p: p.span.start)
    code_lines = {source.line_of(o[0]) for b in blocks for o in b.code.origins if o is not None}
    for m in _COMMENT.finditer(source.text):
        if source.line_of(m.start()) not in code_lines:
            start = m.start() + len(m.group()) - len(m.group().lstrip())
            result.comments.append(Span(source, start, m.end()))
    result.comments.sort(key=lambda s: s.start)
    return result


def rst_blocks(layer: Layer, outer: tuple[ContextLabel, ...]) -> tuple[list[DocBlock], list[Problem]]:
    """The code blocks of ``layer`` read as reStructuredText, under the labels ``outer``, and the
    problems of the page (SGL001 positions in the host)."""
    reader = _Reader(layer)
    try:
        doctree = _parse(_OTHER_BREAKS.sub(" ", layer.text))
    except RecursionError:
        return [], [reader.problem(0, "the page is nested too deeply for the reStructuredText reader")]
    except Exception as exc:  # noqa: BLE001 - docutils failing on a page is that page's SGL001, not a crash
        return [], [reader.problem(0, f"docutils cannot read this page: {type(exc).__name__}: {exc}")]
    reader.walk(doctree, list(outer))
    return reader.blocks, reader.problems


class _Reader:
    """Walks a doctree into code blocks (with their labels) and problems."""

    def __init__(self, layer: Layer) -> None:
        self.layer = layer
        self.blocks: list[DocBlock] = []
        self.problems: list[Problem] = []
        self.highlight = ""  # the language ``.. highlight::`` set for the literal blocks after it

    def problem(self, offset: int, message: str) -> Problem:
        span = self.layer.span(offset, offset + 1)
        at = span.start if span is not None else 0
        return Problem(message, Span(self.layer.host, at, at))

    def _host_line(self, line: int) -> int:
        """The 1-based host line of 0-based layer line ``line``."""
        start, _ = self.layer.line(line)
        span = self.layer.span(start, start + 1)
        return span.source.line_of(span.start) if span is not None else line + 1

    def walk(self, node, labels: list) -> None:
        from docutils import nodes

        for child in node.children:
            if isinstance(child, nodes.section):
                title = child.children[0] if child.children and isinstance(child.children[0], nodes.title) else None
                label = self._title(title) if title is not None else None
                self.walk(child, labels + ([label] if label is not None else []))
            elif isinstance(child, nodes.system_message):
                self._message(child)
            elif isinstance(child, nodes.literal_block):
                self._literal(child, labels)
            elif isinstance(child, nodes.doctest_block):
                self._lines(child, "pycon", labels, "doctest block")
            elif isinstance(child, nodes.comment) and child.get("lc_highlight") is not None:
                self.highlight = child["lc_highlight"]
            elif isinstance(child, nodes.container) and child.get("lc_label") is not None:
                kind, text, line = child["lc_label"]
                self.walk(child, labels + [self._label(kind, text, line - 1)])
            elif isinstance(child, nodes.Element):
                self.walk(child, labels)

    def _label(self, kind: str, text: str, line: int, written: str | None = None) -> ContextLabel:
        """A label shown as ``text``, written as ``written`` (default ``text``) on 0-based layer line ``line``."""
        start, line_text = self.layer.line(line)
        col = line_text.find(written or text)
        if col < 0:
            return ContextLabel(kind, text, None)
        return self.layer.label(kind, text, start + col, len(written or text))

    def _title(self, title) -> ContextLabel | None:
        text = title.astext().strip()
        raw = (title.rawsource or text).strip()
        line = title.line or 0  # docutils gives the line below the title (its underline)
        if not text:
            return None
        for k in range(max(line - 1, 0), max(line - 4, -1), -1):
            _, line_text = self.layer.line(k)
            if raw and raw in line_text:
                return self._label("heading", text, k, raw)
        return ContextLabel("heading", text, None)

    def _message(self, msg) -> None:
        from docutils import nodes

        if msg.get("level", 0) < 3:
            return
        rejected = [c for c in msg.children if isinstance(c, nodes.literal_block)]
        if not rejected or not mentions_sglang(rejected[0].astext()):
            return  # a problem of text that launches nothing: not ours to judge
        said = " ".join(p.astext() for p in msg.children if isinstance(p, nodes.paragraph))
        line = (msg.get("line") or 1) - 1
        start, text = self.layer.line(line)
        where = f" at line {self._host_line(line)}"
        self.problems.append(self.problem(start + len(text) - len(text.lstrip()),
                                          f"docutils rejects the block{where}: {' '.join(said.split())}; it is not read"))

    def _literal(self, node, labels: list) -> None:
        if node.get("lc_name") is None:
            self._lines(node, self.highlight, labels, "literal block")
            return
        lang = node.get("lc_lang")
        lang = self.highlight if lang is None else lang
        labels = list(labels)
        if node.get("lc_tab"):
            labels.append(self._label("tab", node["lc_tab"], node["lc_line"] - 1))
        if node.get("lc_caption"):
            caption = node["lc_caption"]
            for k in range(node["lc_line"] - 1, node["lc_first"]):
                start, text = self.layer.line(k)
                if ":caption:" in text:
                    labels.append(self._label("caption", caption, k))
                    break
        lines = node["lc_lines"]
        what = f"{node['lc_name']} block"
        line = self._host_line(node["lc_line"] - 1)
        if not lines:
            return
        self._block(lang, [t for _, t in lines], lines[0][0], labels, what, line)

    def _lines(self, node, lang: str, labels: list, what: str) -> None:
        """A block docutils made from consecutive lines starting at ``node.line`` (a literal block
        after ``::``, a doctest block): its text's lines are those lines, indentation off."""
        text = node.astext()
        lines = text.split("\n")
        first = (node.line or 1) - 1
        if node.line is None or not self._starts_at(first, lines[0]):
            # docutils gives the line after a literal block's last line for some; find the first line
            first = next((k for k in range(max(first - len(lines) - 2, 0), first + 2)
                          if self._starts_at(k, lines[0]) and self._starts_at(k + len(lines) - 1, lines[-1])), None)
            if first is None:
                return
        self._block(lang, lines, first, labels, what, self._host_line(first))

    def _starts_at(self, k: int, text: str) -> bool:
        _, line = self.layer.line(k)
        return bool(text.strip()) and line.rstrip().endswith(text.rstrip()) if text.strip() else not line.strip()

    def _block(self, lang: str, lines: list[str], first: int, labels: list, what: str, line: int) -> None:
        raw = [self.layer.line(first + k)[1] for k in range(len(lines))]
        bad = mixed_indent(raw, 10 ** 6)
        problem = None
        if bad is not None:
            start, _ = self.layer.line(first + bad)
            problem = self.problem(start, f"the {what} at line {line} mixes tabs and spaces in its indentation "
                                          "(docutils reads a tab as 8 columns; an editor may not): it is not read")
        code = code_of(self.layer, first, lines)
        self.blocks.append(DocBlock(lang.lower(), code, line, tuple(labels), problem, what))


def _parse(text: str):
    """The doctree of ``text`` (docutils, with the directives of :func:`_directives` for this parse)."""
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser, directives
    from docutils.parsers.rst.languages import en
    from docutils.utils import new_document

    parser = Parser()
    settings = get_default_settings(Parser)
    settings.report_level = 5  # say nothing; the messages stay in the tree
    settings.halt_level = 5
    settings.warning_stream = False
    settings.file_insertion_enabled = False  # never read .. include:: or a csv-table :file:/:url:
    settings.raw_enabled = False
    settings.syntax_highlight = "none"
    document = new_document("<rst>", settings)
    ours = _directives()
    known = (set(directives._directive_registry) | set(en.directives)) & _KEEP
    table = dict(ours)
    for m in _DIRECTIVE_NAME.finditer(text):
        name = m.group(1).lower()
        if name not in table and name not in known:
            table[name] = ours["*"]
    saved = dict(directives._directives)
    directives._directives.update(table)
    try:
        parser.parse(text, document)
    finally:
        directives._directives.clear()
        directives._directives.update(saved)
    return document


_CLASSES: dict | None = None


def _directives() -> dict:
    """The directive classes registered for a parse, by name (``"*"``: any other unknown directive)."""
    global _CLASSES
    if _CLASSES is not None:
        return _CLASSES
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives

    class AnyOptions(dict):
        """Every option is accepted, with its text as value (an extension's directive we do not know)."""

        def __missing__(self, key):
            return directives.unchanged

        def __bool__(self):  # docutils looks for options only when a directive has some
            return True

    def _content_lines(d) -> list[tuple[int, str]]:
        return [(d.content.items[k][1], line) for k, line in enumerate(d.content)]

    class Code(Directive):
        """Sphinx's ``code-block``/``code``/``sourcecode``: the language argument and its lines."""

        optional_arguments = 1
        has_content = True
        option_spec = {name: directives.unchanged for name in _CODE_OPTIONS}

        def run(self):
            return [self.node(self.arguments[0] if self.arguments else None)]

        def node(self, lang, tab=None):
            text = "\n".join(self.content)
            node = nodes.literal_block(text, text)
            node["lc_name"] = self.name
            node["lc_lang"] = lang.lower() if lang else lang
            node["lc_lines"] = _content_lines(self)
            node["lc_line"] = self.lineno
            node["lc_first"] = self.content_offset
            node["lc_caption"] = self.options.get("caption")
            node["lc_tab"] = tab
            return node

    class CodeTab(Code):
        """sphinx-tabs' ``code-tab:: LANG [LABEL]``: a code block that is a tab."""

        required_arguments = 1
        optional_arguments = 1
        final_argument_whitespace = True
        option_spec = AnyOptions()

        def run(self):
            lang, _, label = self.arguments[0].partition(" ") if len(self.arguments) == 1 else \
                (self.arguments[0], "", self.arguments[1])
            return [self.node(lang, label.strip() or lang)]

    class Prompt(Code):
        """sphinx-prompt's ``prompt:: LANG [PROMPT [MODIFIERS]]``: the lines are commands."""

        required_arguments = 0
        optional_arguments = 3
        option_spec = AnyOptions()

        def run(self):
            return [self.node(self.arguments[0] if self.arguments else None)]

    class Highlight(Directive):
        """Sphinx's ``highlight:: LANG``: the language of the literal blocks after it."""

        required_arguments = 1
        option_spec = AnyOptions()

        def run(self):
            node = nodes.comment()
            node["lc_highlight"] = self.arguments[0].lower()
            return [node]

    class Container(Directive):
        """A directive whose content is reStructuredText (a tab, an admonition, one docutils does not
        know), read with a label where it has one."""

        optional_arguments = 1
        final_argument_whitespace = True
        has_content = True
        option_spec = AnyOptions()

        def run(self):
            node = nodes.container()
            name = self.name.lower()
            title = self.arguments[0].strip() if self.arguments else ""
            if name in _TAB_NAMES and title:
                node["lc_label"] = ("tab", title, self.lineno)
            elif name in _TITLED_NAMES and title:
                node["lc_label"] = ("admonition", title, self.lineno)
            elif name in _NAMED_ADMONITIONS:
                node["lc_label"] = ("admonition", name.capitalize(), self.lineno)
            document = self.state.document
            depth = getattr(document, "lc_depth", 0)
            if self.content and depth >= limits.MAX_DOC_DEPTH:
                limits.record("MAX_DOC_DEPTH", f"reStructuredText directives nested more than {depth} deep")
            elif self.content:
                document.lc_depth = depth + 1
                try:
                    self.state.nested_parse(self.content, self.content_offset, node)
                finally:
                    document.lc_depth = depth
            return [node]

    class NamedAdmonition(Container):
        """``.. note::`` and its kin: no argument (text on the first line is content)."""

        optional_arguments = 0

    table = {name: Code for name in _CODE_NAMES}
    table.update({"code-tab": CodeTab, "prompt": Prompt, "highlight": Highlight, "*": Container})
    table.update({name: Container for name in _TAB_NAMES | _TITLED_NAMES | {"tab-set", "tabs"}})
    table.update({name: NamedAdmonition for name in _NAMED_ADMONITIONS})
    _CLASSES = table
    return table
