"""Code embedded in another file: a Markdown fence, a notebook cell, a ``!`` line.

The code is rebuilt as a *virtual* file — its text, and for every character the range of the host
file it was written at (or none, for text the carrier made up such as the line break joining two
cells). The format that owns the code (shell, Python, compose …) extracts the virtual file through
its public ``extract(source, ws)``; then every span and character origin of the result is moved
back onto the host file, so locations, suppressions and fixes name the notebook or the Markdown
file itself. A character written as an escape in the host (``\\n`` in a JSON string) maps to the
whole escape: :meth:`linter.launch.MStr.span_of` is then exact only for unescaped text, and a fix
never edits half an escape.
"""

from __future__ import annotations

import importlib
import re

from linter import records
from linter.launch import UNKNOWN_CHAR, Extraction, MStr, Problem
from linter.source import SourceFile, Span


class Virtual:
    """A virtual text being built for one piece of embedded code.

    ``origins[i]`` is the host range ``(start, end)`` of virtual character ``i`` (``end - start`` is
    more than 1 for an escape), or None for a character with no place in the host.
    """

    def __init__(self, host: SourceFile) -> None:
        self.host = host
        self.parts: list[str] = []
        self.origins: list[tuple[int, int] | None] = []

    def __len__(self) -> int:
        return len(self.origins)

    def add(self, text: str, origins) -> None:
        """Append ``text`` whose characters came from the host ranges ``origins`` (same length)."""
        origins = list(origins)
        assert len(text) == len(origins)
        self.parts.append(text)
        self.origins.extend(origins)

    def add_host(self, start: int, end: int) -> None:
        """Append the host text ``[start, end)`` verbatim."""
        self.add(self.host.text[start:end], [(i, i + 1) for i in range(start, end)])

    def add_plain(self, text: str) -> None:
        """Append made-up text (no host position)."""
        self.add(text, [None] * len(text))

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def slice(self, i: int, j: int) -> Virtual:
        """A new virtual text of characters ``[i, j)`` of this one."""
        out = Virtual(self.host)
        out.add(self.text[i:j], self.origins[i:j])
        return out

    def source(self) -> SourceFile:
        """The virtual file: same path (so sibling files resolve from the host's folder), same display."""
        return SourceFile(path=self.host.path, display=self.host.display, text=self.text)


def extract_as(module: str, virtual: Virtual, ws, key_prefix: str = "") -> Extraction:
    """Extract ``virtual`` with the format module ``module`` (``linter.extract.shell``) and move the
    result onto the host file. Launch keys get ``key_prefix``. The comments are always listed (a
    ``#`` line scan of the virtual text when the format does not list them)."""
    vsrc = virtual.source()
    got: Extraction = importlib.import_module(module).extract(vsrc, ws)
    if got.comments is None:
        got.comments = [Span(vsrc, m.start(), m.end()) for m in re.finditer(r"#[^\r\n]*", vsrc.text)
                        if "lint-configs" in m.group()]
    mapper = _Mapper(vsrc, virtual)
    out: Extraction = mapper.map(got)
    out.launches = [records.replace(launch, key=key_prefix + (launch.key or "")) for launch in out.launches]
    return out


def line_bounds(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each line of ``text`` (the end after its line break)."""
    out, i = [], 0
    while i < len(text):
        j = text.find("\n", i)
        j = len(text) if j < 0 else j + 1
        out.append((i, j))
        i = j
    return out


class _Mapper:
    """Moves spans and origins of the virtual file onto the host file."""

    def __init__(self, vsrc: SourceFile, virtual: Virtual) -> None:
        self.vsrc = vsrc
        self.host = virtual.host
        self.origins = virtual.origins
        self.memo: dict[int, object] = {}

    def _start(self, i: int) -> int:
        """Host offset for an insertion point before virtual character ``i``."""
        n = len(self.origins)
        for k in range(i, n):
            o = self.origins[k]
            if o is not None:
                return o[0]
        for k in range(min(i, n) - 1, -1, -1):
            o = self.origins[k]
            if o is not None:
                return o[1]
        return 0

    def _end(self, j: int) -> int:
        """Host offset just after virtual character ``j - 1``."""
        for k in range(min(j, len(self.origins)) - 1, -1, -1):
            o = self.origins[k]
            if o is not None:
                return o[1]
        return self._start(j)

    def span(self, span: Span) -> Span:
        if span.source is not self.vsrc:
            return span
        if span.start >= span.end:
            at = self._start(span.start)
            return Span(self.host, at, at)
        start, end = self._start(span.start), self._end(span.end)
        return Span(self.host, start, max(start, end))

    def origin(self, o):
        if o is None or o[0] is not self.vsrc:
            return o
        i = o[1]
        h = self.origins[i] if 0 <= i < len(self.origins) else None
        return (self.host, h[0]) if h is not None else None

    def _wide(self, o) -> bool:
        if o is None or o[0] is not self.vsrc or not 0 <= o[1] < len(self.origins):
            return False
        h = self.origins[o[1]]
        return h is not None and h[1] - h[0] > 1

    def map(self, obj):
        key = id(obj)
        if key in self.memo:
            return self.memo[key]
        out = self._map(obj)
        self.memo[key] = out
        return out

    def _map(self, obj):
        if isinstance(obj, Span):
            return self.span(obj)
        if isinstance(obj, MStr):
            where = self.span(obj.where) if obj.where is not None else None
            origins = [self.origin(o) for o in obj.origins]
            for k, ch in enumerate(obj.text):
                # A placeholder written with several characters has no one-character place: the
                # token is then located by its ``where`` (the whole placeholder).
                if ch == UNKNOWN_CHAR and origins[k] is not None and self._wide(obj.origins[k]):
                    origins[k] = None
            return MStr(obj.text, origins, where)
        if isinstance(obj, SourceFile):
            return self.host if obj is self.vsrc else obj
        if isinstance(obj, list):
            return [self.map(x) for x in obj]
        if isinstance(obj, tuple):
            return tuple(self.map(x) for x in obj)
        if isinstance(obj, dict):
            return {k: self.map(v) for k, v in obj.items()}
        names = records.init_fields(obj)
        if names is not None:
            return records.replace(obj, **{name: self.map(getattr(obj, name)) for name in names})
        return obj


def problem_at(host: SourceFile, offset: int, message: str) -> Problem:
    """An SGL001 problem at a host offset."""
    return Problem(message, Span(host, offset, offset))


def python_problem(code: Virtual) -> Problem | None:
    """The SGL001 problem of embedded Python that Python's own parser refuses (it only builds a tree;
    nothing is run), located in the host; None when it parses."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(code.text)
    except SyntaxError as exc:
        return problem_at(code.host, _host_offset(code, exc.lineno or 1, exc.offset or 1),
                          f"is not valid Python: {exc.msg}")
    except (ValueError, RecursionError, MemoryError) as exc:
        return problem_at(code.host, _host_offset(code, 1, 1), f"cannot be parsed as Python: {exc or 'too deep'}")
    return None


def _host_offset(code: Virtual, line: int, col: int) -> int:
    """The host offset of a 1-based line/column of ``code`` (the nearest character that has one)."""
    text = code.text
    i = 0
    for _ in range(line - 1):
        k = text.find("\n", i)
        if k < 0:
            break
        i = k + 1
    i = min(i + max(col - 1, 0), len(text))
    for k in list(range(i, len(text))) + list(range(i - 1, -1, -1)):
        if code.origins[k] is not None:
            return code.origins[k][0]
    return 0


def merge(into: Extraction, part: Extraction) -> None:
    """Add the launches, problems, declarations, comments and related files of ``part`` to ``into``."""
    into.launches.extend(part.launches)
    into.problems.extend(part.problems)
    into.gpu_decls.extend(part.gpu_decls)
    if part.comments:
        into.comments = (into.comments or []) + list(part.comments)
    for rel in part.related:
        if all(r.path != rel.path for r in into.related):
            into.related.append(rel)
