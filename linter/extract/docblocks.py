"""The code blocks of documentation (Markdown, MyST, reStructuredText): located, routed and read.

A documentation reader (``markdown.py``, ``rst.py``) parses a page — or a piece of one, such as a
MyST directive's body or an ``{eval-rst}`` block — as a :class:`Layer`: a text plus, for each of its
characters, the range of the host file it was written at. It hands on each code block it finds as a
:class:`DocBlock`: its language, its code (a :class:`~linter.extract.embedded.Virtual` whose every
character keeps its place in the host file, the indentation of the containers it sits in taken off)
and the labels it sits under (:class:`~linter.launch.ContextLabel`). :func:`read_blocks` then reads
each block as the format its language names:

* ``bash``, ``sh``, ``shell``, ``zsh``, ``console`` (and ``shell-session``, ``terminal``): a shell
  script. When lines start with a prompt (``$ ``; in a console block also ``# ``), only those lines
  (and the lines they continue with ``\\``, after a ``> `` prompt if shown) are commands, the prompt
  taken off; other lines are output;
* ``python``/``py``/``pycon``: Python (of an interactive session, the ``>>> `` and ``... `` lines);
* ``yaml``/``yml``: the YAML format whose sniff holds for the block (compose, Kubernetes …);
* ``dockerfile``: a Dockerfile, when that format is registered;
* no language: a shell script, when its first command starts with an SGLang entry point.

Placeholders people write in docs — ``<MODEL>``, ``<your model path>``, ``...``, ``[OPTIONS]`` —
are unknown values (never a redirection, never an argument SGLang would reject). A block that does
not parse as its language is that block's SGL001; the others are still read. A block a reader found
malformed (``DocBlock.problem``: an unterminated tab, mixed tabs and spaces) is that SGL001 and is not
read. A fix that inserts a line break into a block carries the prefix its lines are written with
(a list item's indentation, a block quote's ``> ``, an admonition's four spaces).
"""

from __future__ import annotations

import re

from linter import records
from linter.extract.embedded import Virtual, extract_as, line_bounds, merge, python_problem
from linter.formats import BY_NAME, REGISTRY
from linter.launch import UNKNOWN_CHAR, ContextLabel, Extraction, Problem
from linter.mentions import mentions_sglang
from linter.records import dataclass
from linter.sglang.entrypoints import LAUNCH_TEXT, PYTHON_LAUNCH_TEXT
from linter.sglang.frameworks import COMMAND_TEXT, python_api_text
from linter.source import SourceFile, Span

SHELL_LANGS = frozenset({"bash", "sh", "shell", "zsh", "console", "shell-session", "shellsession",
                         "sh-session", "terminal", "shell-script", "ksh"})
_CONSOLE_LANGS = frozenset({"console", "shell-session", "shellsession", "sh-session", "terminal"})
PYTHON_LANGS = frozenset({"python", "py", "python3", "ipython", "ipython3", "pycon"})
_CELL_LANGS = PYTHON_LANGS | {""}
"""The languages of a ``{code-cell}`` read as an IPython cell (none named: the page's kernel, Python
in practice)."""
YAML_LANGS = frozenset({"yaml", "yml"})
DOCKERFILE_LANGS = frozenset({"dockerfile", "docker", "containerfile"})

# A prompt: an optional "(venv) " and "user@host:dir", then "$ " (or "# " in a console block).
_PROMPT = r"[ \t]*(?:\([\w.-]+\)[ \t]*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?[ \t]*)?"
_SHELL_PROMPT = re.compile(_PROMPT + r"\$(?:[ \t]|$)")
_CONSOLE_PROMPT = re.compile(_PROMPT + r"[$#](?:[ \t]|$)")
_PS2 = re.compile(r"[ \t]*>[ \t]")
_PY_PROMPT = re.compile(r"(?:>>>|\.\.\.)(?: |$)")
_PLACEHOLDER = re.compile(
    r"<[A-Za-z_][\w.:/@+ -]*[\w.:/@+-]>|<[A-Za-z_]>"  # <MODEL>, <your model path>
    r"|(?<!\S)(?:\.\.\.|…)(?!\S)"  # ... standing for more arguments
    r"|\[(?:[A-Z][A-Z0-9_ .-]*|\.\.\.)\]")  # [OPTIONS], [...]
# The first command of an untagged block that is an SGLang launch.
_ENTRY = re.compile(r"[ \t]*(?:[A-Z_][A-Z0-9_]*=\S*[ \t]+)*(?:python[\d.]*[ \t]+-m[ \t]+sglang\b|sglang[ \t]+serve\b"
                    r"|docker[ \t]+run\b[^\n]*sglang)")


class Layer:
    """A text read as a document, and where each character of it was written in ``host``.

    ``origins`` holds, per character, the host range ``(start, end)`` or None (made-up text); None
    for the whole host file itself (character ``i`` is host ``[i, i + 1)``, nothing stored).
    """

    def __init__(self, host: SourceFile, text: str | None = None, origins: list | None = None) -> None:
        self.host = host
        self.text = host.text if text is None else text
        self._origins = origins
        self._starts: list[int] | None = None

    @classmethod
    def of(cls, virtual: Virtual) -> Layer:
        """The text of ``virtual`` as a layer (a directive's body, an ``{eval-rst}`` block)."""
        return cls(virtual.host, virtual.text, virtual.origins)

    @property
    def line_starts(self) -> list[int]:
        """The offset of each line's first character (0-based lines; ``\\n`` ends a line)."""
        if self._starts is None:
            starts = [0]
            k = self.text.find("\n")
            while k >= 0:
                starts.append(k + 1)
                k = self.text.find("\n", k + 1)
            self._starts = starts
        return self._starts

    def line(self, k: int) -> tuple[int, str]:
        """The offset and text (without its line break) of 0-based line ``k``; ``(len, "")`` past the end."""
        starts = self.line_starts
        if k >= len(starts):
            return len(self.text), ""
        start = starts[k]
        end = starts[k + 1] - 1 if k + 1 < len(starts) else len(self.text)
        return start, self.text[start:end].rstrip("\r")

    def origins(self, i: int, j: int) -> list:
        """The host ranges of characters ``[i, j)``."""
        if self._origins is None:
            return [(k, k + 1) for k in range(i, j)]
        return self._origins[i:j]

    def span(self, i: int, j: int) -> Span | None:
        """The host span of characters ``[i, j)`` (the hull of their places), None when they have none."""
        if self._origins is None:  # the host file itself: character k is [k, k + 1) (no list of them made)
            return Span(self.host, i, j) if i < j else None
        got = [o for o in self.origins(i, j) if o is not None]
        return Span(self.host, got[0][0], got[-1][1]) if got else None

    def label(self, kind: str, text: str, i: int, n: int | None = None) -> ContextLabel:
        """A context label shown as ``text`` and written at layer characters ``[i, i + n)`` (``n``
        defaults to the length of ``text``); its span is None when those characters have no place."""
        return ContextLabel(kind, text, self.span(i, i + (len(text) if n is None else n)))


def code_of(layer: Layer, first: int, lines: list[str]) -> Virtual:
    """The code of ``lines`` (their container indentation already taken off by the parser), which
    are layer lines ``first, first + 1, …``, as a virtual text placed in the host file. A line that
    is not the end of its layer line (a tab the parser expanded) keeps its text, unplaced."""
    code = Virtual(layer.host)
    for k, text in enumerate(lines):
        start, host = layer.line(first + k)
        body = text.lstrip(" ")
        if first + k >= len(layer.line_starts) or not host.endswith(body):
            code.add_plain(text + "\n")  # no place in the file found: the text is kept, unlocated
            continue
        # A tab of the indentation the parser expanded into spaces: those spaces have no place.
        code.add_plain(text[:len(text) - len(body)] if not host.endswith(text) else "")
        kept = text if host.endswith(text) else body
        at = start + len(host) - len(kept)
        code.add(kept, layer.origins(at, at + len(kept)))
        eol = start + len(host)
        if eol < len(layer.text):
            # the "\r" of a CRLF line is not code: the line break maps to the whole "\r\n"
            eol_end = layer.text.find("\n", eol) + 1 or len(layer.text)
            got = [o for o in layer.origins(eol, eol_end) if o is not None]
            code.add("\n", [(got[0][0], got[-1][1]) if got else None])
        else:
            code.add("\n", [None])
    return code


def mixed_indent(lines: list[str], width: int) -> int | None:
    """The index of the first of ``lines`` whose first ``width`` columns of indentation mix tabs and
    spaces (tab stops of 4, as Python-Markdown and markdown-it expand them), None when none does."""
    for k, line in enumerate(lines):
        col = 0
        seen = set()
        for ch in line:
            if col >= width or ch not in " \t":
                break
            seen.add(ch)
            col = col + 1 if ch == " " else (col // 4 + 1) * 4
        if len(seen) == 2:
            return k
    return None


@dataclass
class DocBlock:
    """One code block of a documentation page: ``lang`` its language tag, lower-case (``""`` when it
    names none), ``code`` its text placed in the host, ``line`` the 1-based host line it starts at (for
    messages), ``context`` the labels it sits under, outermost first; ``problem`` when the block is
    malformed (it is then that SGL001 and not read)."""

    lang: str
    code: Virtual
    line: int
    context: tuple[ContextLabel, ...] = ()
    problem: Problem | None = None
    what: str = ""
    """How the block is named in messages (``bash block``); ``{lang or 'untagged'} block`` by default."""
    cell: bool = False
    """A MyST-NB ``{code-cell}``: a Python one is read as a notebook's code cell (``!`` lines, ``%%bash``)."""


def read_blocks(blocks: list[DocBlock], ws, result: Extraction) -> None:
    """Read each block as the format its language names and add its launches (with their context),
    problems and comments to ``result``; set ``result.escape_edit`` when lines carry a prefix."""
    prefixes: dict[int, str] = {}
    for block in blocks:
        what = block.what or f"{block.lang or 'untagged'} block"
        if block.problem is not None:
            result.problems.append(block.problem)
            continue
        code = block.code
        if not mentions_sglang(code.text) and not COMMAND_TEXT.search(code.text):
            # a block about something else: not read, and its syntax is not ours to judge (a framework
            # command is read: its config file may pick SGLang)
            continue
        _prefixes(code, prefixes)
        lang = block.lang
        module, code = route(lang, code)
        if block.cell and lang in _CELL_LANGS:
            from linter.extract.notebook import read_cell

            part = read_cell(block.code, ws, "cell:")
        elif module is None:
            continue
        elif lang in PYTHON_LANGS:
            bad = python_problem(code)
            if bad and not PYTHON_LAUNCH_TEXT.search(code.text) and not python_api_text().search(code.text):
                continue  # a doc snippet (elided with ..., a fragment) that starts no server: not ours to judge
            part = Extraction(problems=[bad]) if bad else extract_as(module, code, ws, key_prefix="python:")
        else:
            part = extract_as(module, code, ws, key_prefix=f"{lang or 'fence'}:")
            if module == BY_NAME["shell"].module and not LAUNCH_TEXT.search(code.text):
                # A block tagged shell that shows a benchmark's output or a log: not a script to judge.
                part.problems = []
        for problem in part.problems:
            problem.message = f"{problem.message} (in the {what} at line {block.line})"
        if block.context:
            part.launches = [records.replace(launch, context=block.context + launch.context)
                             for launch in part.launches]
        merge(result, part)
    host = blocks[0].code.host if blocks else None

    def escape_edit(span: Span, content: str) -> str:
        # A line break in a fix inside an indented block carries the prefix of the block's lines.
        prefix = prefixes.get(span.source.line_of(span.start), "")
        return content.replace("\n", "\n" + prefix) if prefix and span.source is host else content

    if any(prefixes.values()):
        result.escape_edit = escape_edit


def _prefixes(code: Virtual, into: dict[int, str]) -> None:
    """Record, per host line a code line starts on, the host text before it (its container prefix)."""
    host = code.host
    text = code.text
    for i, j in line_bounds(text):
        first = next((o for o in code.origins[i:j] if o is not None), None)
        if first is None:
            continue
        line = host.line_of(first[0])
        start = host.line_starts[line - 1]
        into.setdefault(line, host.text[start:first[0]])


def route(lang: str, code: Virtual) -> tuple[str | None, Virtual]:
    """The format module that reads a block of ``lang`` and the code it reads (prompts and
    placeholders taken care of), or None when the block is not read."""
    if lang in SHELL_LANGS:
        return BY_NAME["shell"].module, _shell_code(code, lang in _CONSOLE_LANGS)
    if lang in PYTHON_LANGS:
        return BY_NAME["python"].module, _python_code(code)
    if lang in YAML_LANGS:
        for row in REGISTRY:
            if ".yaml" in row.extensions and (row.sniff is None or row.sniff(code.text)):
                return row.module, code
        return None, code
    if lang in DOCKERFILE_LANGS:
        row = BY_NAME.get("dockerfile")
        return (row.module if row else None), code
    if lang == "":
        shell = _shell_code(code, True)
        joined = re.sub(r"\\\r?\n", " ", shell.text)  # the first command, with its continuation lines
        first = next((ln for ln in joined.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
        if _ENTRY.match(first):
            return BY_NAME["shell"].module, shell
    return None, code


def _shell_code(code: Virtual, console: bool) -> Virtual:
    """The commands of a shell block: prompt lines without their prompts (and their continuation
    lines) when the block shows prompts, else every line; placeholders as unknown values."""
    text = code.text
    bounds = line_bounds(text)
    prompt = _CONSOLE_PROMPT if console else _SHELL_PROMPT
    prompted = any(prompt.match(text, i, j) for i, j in bounds)
    out = Virtual(code.host)
    continued = False
    for i, j in bounds:
        m = prompt.match(text, i, j) if prompted else None
        if prompted and not m and not continued:
            continued = False
            continue  # output
        start = m.end() if m else i
        if prompted and not m:
            cont = _PS2.match(text, i, j)  # "> " that a shell shows before a continued line
            start = cont.end() if cont else i
        _add_line(out, code, start, j)
        continued = text[i:j].rstrip("\r\n").endswith("\\")
    return out


def _python_code(code: Virtual) -> Virtual:
    """A Python block; an interactive session (``>>> `` and ``... `` prompts) gives only its input lines."""
    text = code.text
    if not any(_PY_PROMPT.match(ln) for ln in text.split("\n")):
        return code
    out = Virtual(code.host)
    i = 0
    while i < len(text):
        j = text.find("\n", i)
        j = len(text) if j < 0 else j + 1
        m = _PY_PROMPT.match(text, i, j)
        if m:
            out.add(text[m.end():j], code.origins[m.end():j])
        i = j
    return out


def _add_line(out: Virtual, code: Virtual, i: int, j: int) -> None:
    text = code.text
    pos = i
    for m in _PLACEHOLDER.finditer(text, i, j):
        out.add(text[pos:m.start()], code.origins[pos:m.start()])
        first, last = code.origins[m.start()], code.origins[m.end() - 1]
        where = (first[0], last[1]) if first is not None and last is not None else first
        out.add(UNKNOWN_CHAR, [where])
        pos = m.end()
    out.add(text[pos:j], code.origins[pos:j])
