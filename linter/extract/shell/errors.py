"""Syntax errors (the first ERROR/MISSING node), comments, and the ``#SBATCH`` directives of a script."""

from __future__ import annotations

import bisect
import functools

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


def first_error(root):
    """The first ERROR or MISSING node in document order, or None."""
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            return n
        if n.is_error:
            # tree-sitter's ERROR node often starts at the beginning of the file: skip the complete
            # statements it holds and point at the first token that does not fit.
            for child in n.children:
                if child.type in _STATEMENTS and not child.has_error:
                    continue
                if child.has_error or child.is_missing:
                    inner = first_error(child)
                    if inner is not None:
                        return inner
                return child
            return n
        stack.extend(reversed([c for c in n.children if c.has_error or c.is_missing]))
    return None


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
