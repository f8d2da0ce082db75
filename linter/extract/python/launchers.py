"""Which functions of the repository's modules can start a launch, decided without the analysis: the
cheap pre-test for a call of a function imported from another module (miles' model scripts call
``_execute_train(args)`` imported from ``scripts/run_*.py``: issue 35), and for a file that does not
mention SGLang but runs a value of a module that does (``from p.good import CMD;
subprocess.run(CMD)``).

A module's part is syntactic (:class:`Facts`, :class:`FunctionFacts`): its imports (read from the
text), whether it mentions SGLang, and for each module-level function asked about — only that
function's text is parsed — whether its body calls an SGLang entry point or starts a process by
qualified name (:data:`.names.LAUNCH_QUALS`, through the module's imports: ``subprocess.run``,
``U.execute_train`` …), hands a parameter to the process starter (a wrapper), and which other
functions it calls. It is made once per text per run (:class:`~.modules.ModuleCache`) and shared by
every importer, whatever its step budget: the answer is a pure function of the texts, so a file's
result never depends on the files linted before it, nor on ``-j``. Whether a function may launch is a
walk over those calls (:func:`can_launch`): a process starter counts where a module on the way
mentions SGLang (a ``subprocess.run`` of a module that never names it starts something else), and the
walk goes at most :data:`MAX_HOPS` modules and :data:`MAX_FUNCTIONS` functions from the caller; the
files it reads and looks for are noted for the result cache each time it is asked. It says *may*: the
analysis decides what the call starts.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from linter.extract.python.names import CALL_NAME_RE, LAUNCH_QUALS, STARTERS

if TYPE_CHECKING:
    from linter.extract.python.modules import ModuleCache
    from linter.source import SourceFile
    from linter.workspace import Workspace

MAX_FUNCTIONS = 64
"""Functions looked at for one question (a chain of helpers across modules)."""
MAX_HOPS = 2
"""Modules looked at from the caller: the imported function's, and the modules it imports from (a
wrapper of a utilities module); deeper chains are not followed (the launch is not found there)."""

Import = tuple[int, tuple[str, ...]]
"""What an imported name stands for: (the import's level of dots, the dotted parts it names)."""


class Facts:
    """What one module's text says about launching, without running anything: ``imports`` (name ->
    the :data:`Import` s that bind it, every one of them: ``if …: from a import f`` ``else: from b
    import f``; :func:`text_imports`), ``mentions`` (the text mentions SGLang:
    :func:`linter.mentions.mentions_sglang`) and, asked per module-level function,
    :meth:`function`. Only the asked function's text is parsed (the whole module when that text
    alone does not parse)."""

    def __init__(self, text: str) -> None:
        from linter.mentions import mentions_sglang

        self.text = text
        self.mentions = mentions_sglang(text)
        self.imports = text_imports(text)
        self._functions: dict[str, FunctionFacts | None] | None = None  # from the whole module
        self._asked: dict[str, FunctionFacts | None] = {}
        self._defs: dict[str, int] | None = None  # function name -> offset of its top-level def (-1: indented)

    def function(self, name: str) -> FunctionFacts | None:
        """The :class:`FunctionFacts` of the module-level function ``name``; None when the module
        defines none (a name it imports, a class)."""
        if name not in self._asked:
            self._asked[name] = self._function(name)
        return self._asked[name]

    def _function(self, name: str) -> FunctionFacts | None:
        if self._functions is None:
            if self._defs is None:
                self._defs = {}
                for m in _DEF_RE.finditer(self.text):
                    self._defs.setdefault(m.group(2), m.start() if not m.group(1) else -1)
            start = self._defs.get(name)
            if start is None:
                return None  # no def of it at all (a name it imports, a class)
            if start >= 0:  # a def at the top level: its text alone (an indented one may be under an ``if``)
                end = _TOP_LEVEL.search(self.text, self.text.find("\n", start) + 1 or len(self.text))
                tree = _parse(self.text[start:end.start() if end else len(self.text)])
                if tree is not None and tree.body and isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
                    return FunctionFacts(tree.body[0], self)
            tree = _parse(self.text)
            self._functions = {fn.name: FunctionFacts(fn, self) for fn in _module_functions(tree.body)} if tree else {}
        return self._functions.get(name)

    def targets(self, dotted: str) -> list[Import]:
        """What ``dotted`` (``U.execute_train``, ``f``) names through this module's imports."""
        return targets(self.imports, dotted)

    def qual(self, dotted: str) -> str | None:
        """The qualified name of one of :data:`.names.LAUNCH_QUALS` that ``dotted`` names, else None."""
        return next((q for level, parts in self.targets(dotted)
                     if level == 0 and (q := ".".join(parts)) in LAUNCH_QUALS), None)


class FunctionFacts:
    """One module-level function: ``api`` (its body calls an SGLang or framework entry point:
    ``Engine``, miles' ``execute_train`` …), ``starts`` (it starts a process: ``subprocess.run`` …),
    ``wrapper`` (it hands the process starter a parameter, or a sum with one: ``def _run(cmd):
    subprocess.run(cmd)``) and ``calls`` (the dotted names it calls otherwise)."""

    def __init__(self, fn, facts: Facts) -> None:
        self.api = self.starts = self.wrapper = False
        self.calls: set[str] = set()
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        for node in ast.walk(fn):
            if isinstance(node, ast.Call):
                dotted = _dotted(node.func)
                if dotted is None:
                    continue
                qual = facts.qual(dotted)
                if qual in STARTERS:
                    self.starts = True
                    self.wrapper = self.wrapper or bool(node.args and _has_param(node.args[0], params))
                elif qual in LAUNCH_QUALS:
                    self.api = True
                else:
                    self.calls.add(dotted)


_DEF_RE = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
_TOP_LEVEL = re.compile(r"^[^\s#)\]}]", re.MULTILINE)
"""A line that starts a top-level statement: the end of the function above it."""


def _parse(text: str) -> ast.Module | None:
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


def targets(imports: dict[str, list[Import]], dotted: str) -> list[Import]:
    """What ``dotted`` (``U.execute_train``, ``f``) names through ``imports``."""
    head, _, rest = dotted.partition(".")
    tail = tuple(rest.split(".")) if rest else ()
    return [(level, parts + tail) for level, parts in imports.get(head, ())]


def _has_param(node, params: set[str], depth: int = 0) -> bool:
    """``node`` is a parameter, or a ``+`` with one as an operand (``cmd + ["--x"]``)."""
    if isinstance(node, ast.Name):
        return node.id in params
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and depth < 8 and (
        _has_param(node.left, params, depth + 1) or _has_param(node.right, params, depth + 1))


def _module_functions(body: list):
    """The ``def`` statements of a module's top level, also under its ``if``/``try``/``with``."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield stmt
        elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.AsyncWith)):
            for block in (getattr(stmt, "body", []), getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])):
                yield from _module_functions(block)
            for handler in getattr(stmt, "handlers", []):
                yield from _module_functions(handler.body)


def _dotted(node) -> str | None:
    """``a.b.c`` for a callee written so, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def facts_of(cache: ModuleCache, path: Path) -> Facts | None:
    """The :class:`Facts` of the module at ``path`` (read through the workspace, so the read is noted),
    made once per text per run; None when it cannot be read."""
    source = cache.ws.try_read(path)
    if source is None:
        return None
    got = cache.facts.get(path)
    if got is None or got[0] is not source:
        got = cache.facts[path] = (source, Facts(source.text))
    return got[1]


def _may_call_launcher(cache: ModuleCache, path: Path) -> bool:
    """The module's text names one of the callables of :data:`.names.CALL_NAMES` as a word (a module
    without one calls no launcher itself; it need not be parsed to say so)."""
    source = cache.ws.try_read(path)
    return source is not None and CALL_NAME_RE.search(source.text) is not None


def _is_outside(level: int, parts: tuple[str, ...]) -> bool:
    """An absolute import of the standard library (or of nothing): never a module of the repository."""
    return level == 0 and (len(parts) < 2 or parts[0] in sys.stdlib_module_names)


def _where(cache: ModuleCache, importer: Path, target: Import) -> tuple[Path, str] | None:
    """(the module file, the name in it) that an imported ``target`` names, or None outside the repository."""
    level, parts = target
    if _is_outside(level, parts):
        return None
    here = importer.parent
    path = cache.module_file(here, cache.root_of(here), list(parts[:-1]), level, importer)
    return (path, parts[-1]) if path is not None else None


def can_launch(cache: ModuleCache, path: Path, name: str, mentioned: bool = False) -> bool:
    """True when the function ``name`` of the module at ``path`` (or the function an import there
    binds to ``name``) may start an SGLang launch: it calls an SGLang or framework entry point, or
    starts a process (itself or through a wrapper of its module) where a module on the way mentions
    SGLang (``mentioned``: the caller's does), or calls a function imported from another module of
    the repository that may (at most :data:`MAX_HOPS` modules from the caller)."""
    todo, seen = [(path, name, mentioned, 1)], set()
    while todo and len(seen) < MAX_FUNCTIONS:
        node = todo.pop()
        if node[:3] in seen:
            continue
        seen.add(node[:3])
        where, fn, mentioned, depth = node
        if depth == MAX_HOPS and not _may_call_launcher(cache, where):
            continue  # the last module looked at: only its own launcher calls count
        facts = facts_of(cache, where)
        if facts is None:
            continue
        mentioned = mentioned or facts.mentions
        function = facts.function(fn)
        if function is not None:
            if function.api or (mentioned and function.starts):
                return True
            calls = sorted(function.calls)
            if mentioned and any("." not in d and (f := facts.function(d)) is not None and f.wrapper for d in calls):
                return True
        else:
            calls = [fn]  # a name the module imports (a package re-exporting a function)
        if depth < MAX_HOPS:
            for dotted in calls:
                todo.extend((*w, mentioned, depth + 1) for w in (_where(cache, where, t) for t in facts.targets(dotted))
                            if w)
    return False


# -- the linted file's text, before it is parsed --------------------------------------------------------

_FROM_RE = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.MULTILINE)
_IMPORT_RE = re.compile(r"^[ \t]*import[ \t]+([^\n#;]+)", re.MULTILINE)


def text_imports(text: str) -> dict[str, list[Import]]:
    """The names a Python text binds by ``import`` and ``from … import`` (also indented ones), read
    with regular expressions: the file need not be parsed to ask :func:`calls_launcher`."""
    out: dict[str, list[Import]] = {}
    for m in _FROM_RE.finditer(text):
        base = tuple(p for p in m.group(2).split(".") if p)
        for part in m.group(3).strip("()").replace("\\", " ").split(","):
            words = part.split()
            if words and words[0].isidentifier() and (len(words) == 1 or len(words) == 3 and words[1] == "as"):
                out.setdefault(words[-1], []).append((len(m.group(1)), base + (words[0],)))
    for m in _IMPORT_RE.finditer(text):
        for part in m.group(1).replace("\\", " ").split(","):
            words = part.split()
            if not words or not all(p.isidentifier() for p in words[0].split(".")):
                continue
            parts = tuple(words[0].split("."))
            if len(words) == 3 and words[1] == "as" and words[2].isidentifier():
                out.setdefault(words[2], []).append((0, parts))
            elif len(words) == 1:
                out.setdefault(parts[0], []).append((0, parts[:1]))
    return out


_CALL_TAIL = re.compile(r"((?:[ \t]*\.[ \t]*[A-Za-z_]\w*)*)[ \t]*\(")
"""What follows a name in a call: ``.attr…`` then ``(``."""


def _called(text: str, names) -> set[str]:
    """The dotted names of the calls in ``text`` (``f(``, ``m.f(``) whose first name is one of ``names``
    (found with ``str.find``: one pass per name, no pattern to build)."""
    out = set()
    for name in names:
        at = text.find(name)
        while at >= 0:
            end = at + len(name)
            before = text[at - 1] if at else " "
            if not (before.isalnum() or before in "_.") and not (end < len(text) and (text[end].isalnum() or
                                                                                       text[end] == "_")):
                m = _CALL_TAIL.match(text, end)
                if m is not None:
                    out.add(name + re.sub(r"[ \t]", "", m.group(1)))
            at = text.find(name, end)
    return out


def _in_repository(imports: dict[str, list[Import]]) -> list[str]:
    """The names bound by imports that may name a module of the repository (not the standard library)."""
    return [name for name, bound in imports.items() if any(not _is_outside(lv, p + ("",)) for lv, p in bound)]


def calls_launcher(source: SourceFile, ws: Workspace, imports: dict | None = None) -> bool:
    """True when the file calls a function it imports from another module of the repository that may
    start a launch (:func:`can_launch`): ``f(…)`` of ``from m import f``, ``m.f(…)`` of ``import a.m as m``."""
    from linter.extract.python.modules import cache_for
    from linter.mentions import mentions_sglang

    cache = cache_for(ws)
    imports = text_imports(source.text) if imports is None else imports
    mentioned = None
    for dotted in sorted(_called(source.text, _in_repository(imports))):
        for target in targets(imports, dotted):
            where = _where(cache, source.path, target)
            if where is None:
                continue
            if mentioned is None:
                mentioned = mentions_sglang(source.text)
            with _at_import(ws, source, where[0], target[1][:-1] or target[1]):
                if can_launch(cache, *where, mentioned):
                    return True
    return False


def _read_imported(ws: Workspace, source: SourceFile, path: Path, module: tuple[str, ...]):
    """``ws.try_read(path)`` of the module ``source`` imports as ``module``, reported at its import."""
    with _at_import(ws, source, path, module):
        return ws.try_read(path)


def _at_import(ws: Workspace, source: SourceFile, path: Path, module: tuple[str, ...]):
    """A context in which a refused read of the module at ``path`` (a link out of the root), which
    ``source`` imports as ``module``, is reported at the import that names it, not at the top of the
    file (a file that does not mention SGLang is looked at only here, before any parse)."""
    from contextlib import nullcontext

    if ws.may_read(path):
        return nullcontext()
    from linter import boundary
    from linter.source import Span

    at = import_offset(source.text, module)
    return boundary.referenced_at(Span(source, at, at))


def import_offset(text: str, module: tuple[str, ...]) -> int:
    """Where the first ``import`` / ``from … import`` statement of ``text`` that names ``module`` (its
    last part, as a word) starts; 0 when none does."""
    word = re.compile(r"\b" + re.escape(module[-1]) + r"\b").search
    found = [m.start() + len(m.group(0)) - len(m.group(0).lstrip()) for pattern in (_FROM_RE, _IMPORT_RE)
             for m in pattern.finditer(text) if word(m.group(0))]
    return min(found, default=0)


_STARTER_MODULES = frozenset(q.split(".")[0] for q in STARTERS)


def read_with_imports(source: SourceFile, ws: Workspace) -> bool:
    """The Python row's ``read_with`` (:mod:`linter.formats`): True when a file that does not mention
    SGLang calls an imported function that may launch (:func:`calls_launcher`), or starts a process
    (``subprocess.run`` …, through its imports) and imports a value or module from a module of the
    repository that mentions SGLang (``from p.good import CMD; subprocess.run(CMD + [...])``)."""
    from linter.extract.python.modules import cache_for
    from linter.mentions import mentions_sglang

    imports = text_imports(source.text)
    if not imports:
        return False
    runners = [name for name, bound in imports.items() if any(not lv and p[0] in _STARTER_MODULES for lv, p in bound)]
    called = _called(source.text, runners)
    if any(level == 0 and ".".join(parts) in STARTERS for d in called for level, parts in targets(imports, d)):
        cache = cache_for(ws)
        here = source.path.parent
        root = cache.root_of(here)
        for bound in imports.values():
            for level, parts in bound:
                if _is_outside(level, parts + ("",)):
                    continue
                # the module a name comes from, or the module the name is (``from p import good``)
                for module in (parts[:-1], parts):
                    path = None if not module else cache.module_file(here, root, list(module), level, source.path)
                    other = _read_imported(ws, source, path, module) if path is not None else None
                    if other is not None and mentions_sglang(other.text):
                        return True
    return calls_launcher(source, ws, imports)
