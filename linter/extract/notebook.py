"""Jupyter notebooks (``.ipynb``, nbformat 4): the code cells, in order, as one Python program.

A name bound in an earlier cell is known in a later one, as when the notebook is run top to bottom.
IPython's own syntax is taken apart first (IPython 8 "Built-in magic commands" and "System shell
access"): a ``!command`` line is a shell command, a ``%%bash``/``%%sh``/``%%script bash`` cell a shell
script, ``%%time``/``%%timeit``/``%%capture`` cells Python, other magics are skipped; ``{expr}`` in a
shell line (IPython expands it from Python) is an unknown value. Outputs are never read.

The code is rebuilt as a virtual file whose characters map into the JSON string literals of the
cells' ``source`` (one string or a list of strings, nbformat 4 schema ``multiline_string``), and the
Python and shell formats extract it (:mod:`linter.extract.embedded`). Locations are lines and columns
of the notebook file; a fix's text is JSON-escaped where it is written, so only those bytes change
and the notebook stays valid JSON in its own layout.
"""

from __future__ import annotations

import json
import re

from linter.extract import jsonpos
from linter.extract.embedded import Virtual, extract_as, line_bounds, merge, problem_at, python_problem
from linter.formats import by_name
from linter.launch import UNKNOWN_CHAR, Extraction
from linter.source import SourceFile, Span

_SHELL_CELL = re.compile(r"%%(?:bash|sh|script[ \t]+(?:ba|z)?sh)\b")
_PYTHON_CELL = re.compile(r"%%(?:time|timeit|capture|prun)\b")
_BANG = re.compile(r"[ \t]*(?:[A-Za-z_][\w.]*[ \t]*=[ \t]*)?!!?")
_MAGIC = re.compile(r"[ \t]*%")
_INDENT = re.compile(r"[ \t]*")


def escape_edit(span: Span, content: str) -> str:
    """A fix's new text as written inside a JSON string literal (RFC 8259 §7)."""
    return json.dumps(content, ensure_ascii=False)[1:-1]


def extract(source: SourceFile, ws) -> Extraction:
    """The launches of a notebook's code cells. A notebook that is not JSON or not nbformat 4 is one
    SGL001 problem (nothing else is read); a cell that is not Python is its own SGL001."""
    result = Extraction(comments=[], escape_edit=escape_edit)
    try:
        doc = json.loads(source.text)
    except json.JSONDecodeError as exc:
        result.problems.append(problem_at(source, exc.pos, f"not a notebook: invalid JSON ({exc.msg})"))
        return result
    except (ValueError, RecursionError) as exc:
        result.problems.append(problem_at(source, 0, f"not a notebook: {exc or 'nested too deeply'}"))
        return result
    version = doc.get("nbformat") if isinstance(doc, dict) else None
    if version != 4 or not isinstance(doc.get("cells"), list):
        what = "its cells are not a list" if version == 4 else \
            f"nbformat {version!r}" if version is not None else "no nbformat field"
        result.problems.append(problem_at(source, 0, f"not an nbformat 4 notebook ({what}); "
                                                     "only nbformat 4 notebooks are read"))
        return result
    try:
        tree = jsonpos.locate(source.text)
    except (ValueError, RecursionError) as exc:
        result.problems.append(problem_at(source, 0, f"not a notebook: {exc}"))
        return result
    cells = tree.members.get("cells")
    program = Virtual(source)
    for n, (node, cell) in enumerate(zip(cells.items, doc["cells"]), 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or not isinstance(node, jsonpos.Obj):
            continue
        code = _cell_code(source, node.members.get("source"))
        if code is None:
            continue
        _cell(source, ws, n, code, program, result)
    if program.text.strip():
        merge(result, extract_as(by_name("python").module, program, ws, key_prefix="notebook:"))
    return result


def read_cell(code: Virtual, ws, key_prefix: str) -> Extraction:
    """One code cell read alone as a notebook's is (a MyST-NB ``{code-cell}`` of a Markdown page): its
    ``!`` lines and a ``%%bash`` body as shell, the rest as Python; a cell that is not Python is one
    SGL001 problem."""
    result = Extraction()
    program = Virtual(code.host)
    _cell(code.host, ws, None, code, program, result)
    if program.text.strip():
        merge(result, extract_as(by_name("python").module, program, ws, key_prefix=key_prefix))
    return result


def _cell_code(source: SourceFile, node) -> Virtual | None:
    """The text of a cell's ``source`` with each character's range in the notebook."""
    parts = [node] if isinstance(node, jsonpos.Str) else \
        node.items if isinstance(node, jsonpos.Arr) else None
    if parts is None or not all(isinstance(p, jsonpos.Str) for p in parts):
        return None
    code = Virtual(source)
    for p in parts:
        code.add(p.text, p.origins)
    return code


def _lines(code: Virtual) -> list[tuple[int, int]]:
    """``(start, end)`` of each line of ``code`` (the end after its line break)."""
    return line_bounds(code.text)


def _cell(source: SourceFile, ws, n: int | None, code: Virtual, program: Virtual, result: Extraction) -> None:
    """Cell ``n`` (None: a cell outside a notebook): its shell parts extracted into ``result``, its
    Python added to ``program``."""
    tag = f"cell{n}:" if n is not None else "cell:"
    text = code.text
    lines = _lines(code)
    first = next((k for k, (i, j) in enumerate(lines) if text[i:j].strip()), None)
    if first is None:
        return
    head = text[lines[first][0]:lines[first][1]].strip()
    if head.startswith("%%"):
        body_start = lines[first][1]
        if _SHELL_CELL.match(head):
            merge(result, extract_as(by_name("shell").module, code.slice(body_start, len(text)), ws,
                                     key_prefix=tag))
            return
        if not _PYTHON_CELL.match(head):
            return  # another cell magic (%%writefile, %%html …): not Python, not shell
        lines = lines[first + 1:]
    cell = Virtual(source)
    k = 0
    while k < len(lines):
        i, j = lines[k]
        line = text[i:j]
        m = _BANG.match(line)
        if m:
            # A shell line runs to the first line not continued with a backslash.
            end_k = k
            while text[lines[end_k][0]:lines[end_k][1]].rstrip("\r\n").endswith("\\") and end_k + 1 < len(lines):
                end_k += 1
            _bang(source, ws, tag, code, i + m.end(), lines[end_k][1], result)
            indent = _INDENT.match(line).group()
            for _ in range(k, end_k + 1):
                cell.add_plain(indent + "pass\n")
            k = end_k + 1
            continue
        if _MAGIC.match(line):
            cell.add_plain(_INDENT.match(line).group() + "pass\n")
        else:
            cell.add(line, code.origins[i:j])
        k += 1
    if not cell.text.endswith("\n"):
        cell.add_plain("\n")
    bad = python_problem(cell)
    if bad is not None:
        bad.message = f"cell {n} {bad.message}" if n is not None else bad.message
        result.problems.append(bad)
        return
    program.add(cell.text, cell.origins)


def _bang(source: SourceFile, ws, tag: str, code: Virtual, start: int, end: int, result: Extraction) -> None:
    """A ``!command`` line: a shell command whose ``{expr}`` parts IPython fills in from Python."""
    text = code.text
    script = Virtual(source)
    i = start
    while i < end:
        if text[i] == "{":
            close = text.find("}", i, end)
            if close > i and "\n" not in text[i:close]:
                script.add(UNKNOWN_CHAR, [(code.origins[i][0], code.origins[close][1])])
                i = close + 1
                continue
        script.add(text[i], [code.origins[i]])
        i += 1
    merge(result, extract_as(by_name("shell").module, script, ws, key_prefix=tag))
