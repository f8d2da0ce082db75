"""A Python file parsed with Python's own parser (which only builds a tree; nothing is run): the
``ast.Module`` and its :class:`~.positions.Positions`, or the SGL001 problem that says why not.
Used for the linted file (:func:`linter.extract.python.extract`) and for the modules it imports
(:class:`~.modules.ModuleCache`)."""

from __future__ import annotations

from linter.launch import Extraction, Problem
from linter.source import SourceFile, Span


def parse(source: SourceFile, result: Extraction):
    """(the ``ast.Module`` of a Python file, its :class:`~.positions.Positions`), or None with the
    reason appended to ``result.problems``. Python's own parser only builds a tree; nothing is run."""
    import ast
    import warnings

    from linter.extract.python.positions import Positions

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning: invalid escape sequences and the like
            module = ast.parse(source.text)
    except SyntaxError as err:
        result.problems.append(_syntax_problem(source, err))
        return None
    except (RecursionError, MemoryError, ValueError) as exc:
        what = "nested too deeply" if isinstance(exc, RecursionError) else str(exc) or type(exc).__name__
        result.problems.append(Problem(f"cannot parse the Python file: {what}", Span(source, 0, 0)))
        return None
    return module, Positions(source.text)


def _syntax_problem(source: SourceFile, err: SyntaxError) -> Problem:
    """SGL001 for a file Python's parser refuses: at its position, with its words."""
    if not err.lineno:
        return Problem("Python syntax error", Span(source, 0, 0))
    line = max(1, err.lineno)
    col = max(1, err.offset or 1)
    offset = source.offset(line, col)
    if source.line_of(offset) != line:  # past the end of the line: its end
        offset = source.line_starts[line - 1] + len(source.line_text(line)) if line <= len(
            source.line_starts) else len(source.text)
    return Problem(f"Python syntax error: {err.msg}", Span(source, offset, offset))
