"""Syntax errors (the first ERROR/MISSING node), comments, and the ``#SBATCH`` directives of a script."""

from __future__ import annotations

import bisect
import functools
import re

from linter.argv import skip_options
from linter.extract.shell.document import Doc
from linter.launch import GpuDecl, MStr
from linter.source import SourceFile, Span


def sbatch_directives(source: SourceFile, comments: list, first_command: int) -> list[GpuDecl]:
    """GPU declarations of the ``#SBATCH`` lines before the first command (where sbatch reads them)."""
    from linter.gpus.slurm import GPU_OPTIONS, gpu_decls

    decls: list[GpuDecl] = []
    for name, value in _sbatch_options(source, comments, first_command):
        if value is not None and name in GPU_OPTIONS:
            decls.extend(gpu_decls(name, value, "#SBATCH"))
    return decls


def sbatch_counts(source: SourceFile, comments: list, first_command: int) -> list:
    """GPU and node counts of the ``#SBATCH`` lines before the first command (read together, as
    sbatch reads them: ``--gpus-per-task`` on one line and ``--ntasks-per-node`` on another multiply)."""
    from linter.gpus.counts import SLURM_COUNT_OPTIONS, slurm_counts

    return slurm_counts([(n, v) for n, v in _sbatch_options(source, comments, first_command)
                         if n in SLURM_COUNT_OPTIONS], "#SBATCH")


def _sbatch_options(source: SourceFile, comments: list, first_command: int):
    """``(option name, value token)`` of every ``#SBATCH`` line before the first command, in order."""
    from linter.extract.words import SplitError, split_words
    from linter.recognize import wrappers

    text = source.text
    for span in comments:
        if span.start >= first_command:
            break
        if not text.startswith("#SBATCH", span.start):
            continue
        start = span.start + len("#SBATCH")
        if start < span.end and text[start] not in " \t":
            continue
        try:
            words = split_words(MStr.literal(source, start, span.end))
        except SplitError:
            continue
        cut = next((k for k, w in enumerate(words) if w.raw.startswith("#")), len(words))
        _, opts = skip_options(words[:cut], 0, wrappers()["sbatch"].values)
        for name, value, _ in opts:
            yield name, value


def first_error(root, data: bytes | None = None):
    """The first ERROR or MISSING node in document order, or None — None too when ``data`` (the bytes
    parsed) is given and the error lies where bash does not parse before it runs the code.

    bash reads the inside of a heredoc body, of a backquoted substitution and the word of a
    ``${NAME…}`` expansion only when it runs them: ``bash -n`` accepts ``cat <<EOF`` over ``$'`` or an
    unclosed ``$(``, a backquoted ``echo ${`` and ``${x:-$;}``, which tree-sitter-bash 0.23 takes for
    errors.
    When the tree has an error, the script is parsed once more with those parts blanked out
    (:func:`_blank_run_time_parts`); the error counts only if it is still there."""
    if not root.has_error:
        return None
    bad = next(_errors(root), None)
    if bad is None or data is None:
        return bad
    from linter.extract.shell.document import parse_script

    blanked = _blank_run_time_parts(data)
    if blanked != data and not parse_script(blanked).root_node.has_error:
        return None
    return bad


_HEREDOC = re.compile(rb"(?<![<\\])<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")


def _blank_run_time_parts(data: bytes) -> bytes:
    """``data`` with heredoc bodies and backquoted substitutions replaced by ``_`` (newlines and the
    delimiters kept), and in the word of a ``${…}`` the metacharacters ``; & | < >`` and a ``)`` that
    closes nothing (bash reads them as text there); same length."""
    out = bytearray(data)
    _blank_heredocs(data, out)
    i = 0
    n = len(out)
    while i < n:
        c = out[i]
        if c == 0x5C:  # backslash
            i += 2
        elif c == 0x27:  # a single-quoted string: nothing in it is special
            j = out.find(b"'", i + 1)
            i = n if j < 0 else j + 1
        elif c == 0x60:  # `…`
            i = _blank_backquoted(out, i)
        elif c == 0x24 and i + 1 < n and out[i + 1] == 0x7B:  # ${…}
            i = _blank_expansion_word(out, i)
        else:
            i += 1
    return bytes(out)


def _blank(out: bytearray, i: int, j: int) -> None:
    """``out[i:j]`` replaced by ``_``, line breaks kept."""
    for k in range(i, j):
        if out[k] not in (0x0A, 0x0D):
            out[k] = 0x5F


def _blank_heredocs(data: bytes, out: bytearray) -> None:
    """The bodies of the heredocs of ``data`` blanked in ``out`` (up to the delimiter line, kept)."""
    for m in _HEREDOC.finditer(data):
        if data[max(0, m.start() - 2):m.start()] == b"$(" or b"((" in data[data.rfind(b"\n", 0, m.start()) + 1:m.start()]:
            continue  # an arithmetic shift, not a heredoc
        start = data.find(b"\n", m.end())
        if start < 0:
            continue
        word = m.group(3)
        pos = start + 1
        while pos < len(data):
            end = data.find(b"\n", pos)
            line = data[pos:end if end >= 0 else len(data)]
            if (line.lstrip(b"\t") if m.group(1) else line).rstrip(b"\r") == word:
                break
            _blank(out, pos, end if end >= 0 else len(data))
            pos = (end if end >= 0 else len(data)) + 1


def _blank_backquoted(out: bytearray, i: int) -> int:
    """The inside of the backquoted substitution opening at ``i`` blanked; the index after it."""
    n = len(out)
    j = i + 1
    while j < n and out[j] != 0x60:
        j += 2 if out[j] == 0x5C else 1
    _blank(out, i + 1, min(j, n))
    return j + 1


def _blank_expansion_word(out: bytearray, i: int) -> int:
    """In the ``${…}`` opening at ``i``: the word's metacharacters, a ``)`` that closes nothing and the
    ``$`` of a ``$"…"`` blanked (when its braces close); the index after it."""
    n = len(out)
    depth, j = 1, i + 2
    while j < n and depth:
        if out[j] == 0x5C:
            j += 2
            continue
        depth += out[j] == 0x7B
        depth -= out[j] == 0x7D
        j += 1
    if depth == 0:
        parens = 0
        for k in range(i + 2, j - 1):
            if out[k] == 0x28:
                parens += 1
            elif out[k] == 0x29 and parens:
                parens -= 1
            elif out[k] in b";&|<>)" or out[k] == 0x24 and out[k + 1] == 0x22:  # also $"…" there
                out[k] = 0x5F
    return j


def _errors(root):
    """The ERROR and MISSING nodes under ``root`` in document order (an ERROR node's complete
    statements are skipped: the node where the parse went wrong is the first token that does not fit)."""
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            yield n
            continue
        if n.is_error:
            # tree-sitter's ERROR node often starts at the beginning of the file: skip the complete
            # statements it holds and point at the first token that does not fit.
            found = False
            for child in n.children:
                if child.type in _STATEMENTS and not child.has_error:
                    continue
                if child.has_error or child.is_missing:
                    for inner in _errors(child):
                        found = True
                        yield inner
                    if found:
                        break
                found = True
                yield child
                break
            if not found:
                yield n
            continue
        stack.extend(reversed([c for c in n.children if c.has_error or c.is_missing]))


_STATEMENTS = {"command", "variable_assignment", "variable_assignments", "declaration_command", "unset_command",
               "comment", "pipeline", "list", "redirected_statement", "if_statement", "case_statement",
               "for_statement", "while_statement", "c_style_for_statement", "function_definition", "subshell",
               "compound_statement", "negated_command", "test_command"}


def error_message(node, doc: Doc) -> tuple[str, int]:
    i, j = doc.rng(node)
    if node.is_missing:
        return f"shell syntax error: missing {node.type!r}", i
    snippet = doc.text[i:j].split("\n", 1)[0].strip()
    if len(snippet) > 40:
        snippet = snippet[:37] + "..."
    return f"shell syntax error near {snippet!r}" if snippet else "shell syntax error", i


@functools.cache
def _queries():
    import tree_sitter

    from linter.extract.shell.document import language

    return (tree_sitter.Query(language(), "(comment) @c (program (comment) @top)"),
            tree_sitter.Query(language(), "[(string) (heredoc_body)] @x"))


def comments_of(root, doc: Doc) -> list[Span]:
    """The spans of the script's comments in order (a ``#`` inside a string or heredoc, also in a
    ``$(…)`` there, is text), found by tree-sitter queries (no walk of the tree in Python)."""
    import tree_sitter

    comments_q, strings_q = _queries()
    captures = tree_sitter.QueryCursor(comments_q).captures(root)
    found = captures.get("c", [])
    if not found:
        return []
    found.sort(key=lambda n: n.start_byte)
    inside: list[tuple[int, int]] = []  # disjoint byte ranges of strings and heredocs, in order
    # Only a comment in a ``$(…)`` can stand inside a string; none can when all are top-level statements.
    if len(captures.get("top", ())) < len(found) and ("$(" in doc.text or "`" in doc.text):
        for a, b in sorted((n.start_byte, n.end_byte) for n in tree_sitter.QueryCursor(strings_q).captures(root).get("x", [])):
            if inside and a < inside[-1][1]:
                inside[-1] = (inside[-1][0], max(b, inside[-1][1]))
            else:
                inside.append((a, b))
    starts = [a for a, _ in inside]
    out = []
    for n in found:
        k = bisect.bisect_right(starts, n.start_byte) - 1
        if k >= 0 and n.start_byte < inside[k][1]:
            continue
        i, j = doc.rng(n)
        out.append(Span(doc.source, i, j))
    return out
