"""Markdown runbooks (``.md``, ``.markdown``): the commands people copy, in fenced code blocks.

Fences are found with markdown-it-py's CommonMark parser (CommonMark 0.31 §4.5 "Fenced code
blocks": an unclosed fence runs to the end of the document or of its container), also inside list
items and block quotes — their indentation and ``> `` markers are not part of the code, and spans
skip them. A fence is a piece of another format, by its info string:

* ``bash``, ``sh``, ``shell``, ``zsh``, ``console`` (and ``shell-session``, ``terminal``): a shell
  script. When lines start with a prompt (``$ ``; in a console block also ``# ``), only those lines
  (and the lines they continue with ``\\``, after a ``> `` prompt if shown) are commands, the prompt
  taken off; other lines are output;
* ``python``/``py``/``pycon``: Python (of an interactive session, the ``>>> `` and ``... `` lines);
* ``yaml``/``yml``: the YAML format whose sniff holds for the block (compose, Kubernetes …);
* ``dockerfile``: a Dockerfile, when that format is registered;
* no info string: a shell script, when its first command starts with an SGLang entry point.

Placeholders people write in docs — ``<MODEL>``, ``<your model path>``, ``...``, ``[OPTIONS]`` —
are unknown values (never a redirection, never an argument SGLang would reject). Directives are
written in HTML comments (``<!-- lint-configs: target-gpu=H100 -->``) or as ``#`` comments inside a
fence. A block that does not parse as its language is that block's SGL001; the others are still read.
"""

from __future__ import annotations

import re

from linter.discover import mentions_sglang
from linter.extract.embedded import Virtual, extract_as, line_bounds, merge, python_problem
from linter.sglang.entrypoints import LAUNCH_TEXT, PYTHON_LAUNCH_TEXT
from linter.sglang.frameworks import COMMAND_TEXT
from linter.formats import BY_NAME, REGISTRY
from linter.launch import UNKNOWN_CHAR, Extraction
from linter.source import SourceFile, Span

SHELL_LANGS = frozenset({"bash", "sh", "shell", "zsh", "console", "shell-session", "shellsession",
                         "sh-session", "terminal", "shell-script", "ksh"})
_CONSOLE_LANGS = frozenset({"console", "shell-session", "shellsession", "sh-session", "terminal"})
PYTHON_LANGS = frozenset({"python", "py", "python3", "ipython", "ipython3", "pycon"})
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
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def extract(source: SourceFile, ws) -> Extraction:
    """The launches of a Markdown file's fences, its HTML-comment directives and each block's problems."""
    from markdown_it import MarkdownIt

    result = Extraction(comments=[])
    tokens = MarkdownIt("commonmark").parse(source.text)
    prefixes: dict[int, str] = {}
    fenced: list[tuple[int, int]] = []
    for n, tok in enumerate((t for t in _walk(tokens) if t.type == "fence" and t.map), 1):
        fenced.append((tok.map[0], tok.map[1]))
        code, line_prefixes = _content(source, tok)
        prefixes.update(line_prefixes)
        lang = _lang(tok.info)
        if not mentions_sglang(code.text) and not COMMAND_TEXT.search(code.text):
            # a block about something else: not read, and its syntax is not ours to judge (a framework
            # command is read: its config file may pick SGLang)
            continue
        module, code = _route(lang, code)
        if module is None:
            continue
        if lang in PYTHON_LANGS:
            bad = python_problem(code)
            if bad and not PYTHON_LAUNCH_TEXT.search(code.text):
                continue  # a doc snippet (elided with ..., a fragment) that starts no server: not ours to judge
            part = Extraction(problems=[bad]) if bad else extract_as(module, code, ws, key_prefix="python:")
        else:
            part = extract_as(module, code, ws, key_prefix=f"{lang or 'fence'}:")
            if module == BY_NAME["shell"].module and not LAUNCH_TEXT.search(code.text):
                # A block tagged shell that shows a benchmark's output or a log: not a script to judge.
                part.problems = []
        for problem in part.problems:
            problem.message = f"{problem.message} (in the {lang or 'untagged'} block at line {tok.map[0] + 1})"
        merge(result, part)
    for m in _HTML_COMMENT.finditer(source.text):
        line = source.line_of(m.start()) - 1
        if not any(a <= line < b for a, b in fenced):
            result.comments.append(Span(source, m.start(), m.end() - 3))
    result.comments.sort(key=lambda s: s.start)

    def escape_edit(span: Span, content: str) -> str:
        # A line break in a fix inside a block quote or list item carries the container's prefix.
        prefix = prefixes.get(span.source.line_of(span.start), "")
        return content.replace("\n", "\n" + prefix) if prefix and span.source is source else content

    if any(prefixes.values()):
        result.escape_edit = escape_edit
    return result


def _walk(tokens):
    for tok in tokens:
        yield tok
        if tok.children:
            yield from _walk(tok.children)


def _lang(info: str) -> str:
    """The language of an info string: its first word, lower-case, without ``{.`` attribute syntax."""
    word = info.strip().split(maxsplit=1)[0] if info.strip() else ""
    return word.strip("{}.").split(",")[0].lower()


def _content(source: SourceFile, tok) -> tuple[Virtual, dict[int, str]]:
    """A fence's code mapped to the file, and each line's container prefix (1-based line -> text)."""
    code = Virtual(source)
    prefixes: dict[int, str] = {}
    lines = tok.content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    starts = source.line_starts
    for k, text in enumerate(lines):
        line = tok.map[0] + 2 + k  # 1-based: the line after the opening fence
        host = source.line_text(line)
        body = text.lstrip(" ")
        if line > len(starts) or not host.endswith(body):
            code.add_plain(text + "\n")  # no place in the file found: the text is kept, unlocated
            continue
        # A tab of the indentation the parser expanded into spaces: those spaces have no place.
        code.add_plain(text[:len(text) - len(body)] if not host.endswith(text) else "")
        kept = text if host.endswith(text) else body
        col = len(host) - len(kept)
        start = starts[line - 1] + col
        prefixes[line] = host[:col]
        code.add_host(start, start + len(kept))
        eol = starts[line - 1] + len(host)
        code.add("\n", [(eol, eol + 1)] if eol < len(source.text) else [None])
    return code, prefixes


def _route(lang: str, code: Virtual) -> tuple[str | None, Virtual]:
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
