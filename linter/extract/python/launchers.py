"""Which functions of the repository's modules can start a launch, decided without the analysis: the
cheap pre-test for a call of a function imported from another module (miles' model scripts call
``_execute_train(args)`` imported from ``scripts/run_*.py``: issue 35), and for a file that does not
mention SGLang but runs a value of a module that does (``from p.good import CMD;
subprocess.run(CMD)``).

A module's part is syntactic (:class:`Facts`): for each of its module-level functions, whether its
body calls a launcher by qualified name (:data:`.names.LAUNCH_QUALS`, through the module's imports:
``subprocess.run``, ``U.execute_train`` …) and which other functions it calls (of the same module, or
imported). It is made once per text per run (:class:`~.modules.ModuleCache`) and shared by every
importer, whatever its step budget: the answer is a pure function of the texts, so a file's result
never depends on the files linted before it, nor on ``-j``. Whether a function can launch is a walk
over those calls across modules of the repository (found as :class:`~.modules.Resolver` finds them),
at most :data:`MAX_FUNCTIONS` functions; the files it reads and looks for are noted for the result
cache each time it is asked. It says *may*: the analysis decides what the call starts.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from linter.extract.python.names import CALL_NAME_RE, LAUNCH_QUALS

if TYPE_CHECKING:
    from linter.extract.python.modules import ModuleCache
    from linter.source import SourceFile
    from linter.workspace import Workspace

MAX_FUNCTIONS = 64
"""Functions looked at for one question (a chain of helpers across modules)."""

Import = tuple[int, tuple[str, ...]]
"""What an imported name stands for: (the import's level of dots, the dotted parts it names)."""


class Facts:
    """What one module's text says about launching, without running anything: ``imports`` (name ->
    the :data:`Import` s that bind it, every one of them: ``if …: from a import f`` ``else: from b
    import f``), ``functions`` (module-level function names), ``direct`` (those whose body calls one
    of :data:`LAUNCH_QUALS`), ``wrappers`` (those of them that hand such a call a parameter, or a sum
    with one: ``def _run(cmd): subprocess.run(cmd)``) and ``calls`` (function -> the dotted names it
    calls otherwise).

    The walk follows what the analysis follows from an imported function: its own launcher calls, the
    module wrappers it calls and the functions it imports, not the other functions of its module (a
    launch inside those is that function's, found where it is written)."""

    def __init__(self, module: ast.Module) -> None:
        self.imports: dict[str, list[Import]] = {}
        self.functions: set[str] = set()
        self.direct: set[str] = set()
        self.wrappers: set[str] = set()
        self.calls: dict[str, set[str]] = {}
        for node in ast.walk(module):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    parts = tuple(alias.name.split("."))
                    self._bind(alias.asname or parts[0], (0, parts if alias.asname else parts[:1]))
            elif isinstance(node, ast.ImportFrom):
                base = tuple(node.module.split(".")) if node.module else ()
                for alias in node.names:
                    if alias.name != "*":
                        self._bind(alias.asname or alias.name, (node.level, base + (alias.name,)))
        for fn in _module_functions(module.body):
            self.functions.add(fn.name)
            called = self.calls.setdefault(fn.name, set())
            params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    dotted = _dotted(node.func)
                    if dotted is None:
                        continue
                    if self._launcher(dotted):
                        self.direct.add(fn.name)
                        if node.args and _has_param(node.args[0], params):
                            self.wrappers.add(fn.name)
                    else:
                        called.add(dotted)

    def _bind(self, name: str, target: Import) -> None:
        got = self.imports.setdefault(name, [])
        if target not in got:
            got.append(target)

    def targets(self, dotted: str) -> list[Import]:
        """What ``dotted`` (``U.execute_train``, ``f``) names through this module's imports."""
        head, _, rest = dotted.partition(".")
        tail = tuple(rest.split(".")) if rest else ()
        return [(level, parts + tail) for level, parts in self.imports.get(head, ())]

    def _launcher(self, dotted: str) -> bool:
        return any(level == 0 and ".".join(parts) in LAUNCH_QUALS for level, parts in self.targets(dotted))


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


def facts_of(cache: ModuleCache, path: Path, tree: ast.Module | None = None) -> Facts | None:
    """The :class:`Facts` of the module at ``path`` (read through the workspace, so the read is noted),
    made once per text; ``tree``: its parsed module, when the caller has it (the linted file). None
    when it cannot be read or parsed."""
    source = cache.ws.try_read(path)
    if source is None:
        return None
    got = cache.facts.get(path)
    if got is not None and got[0] is source:
        return got[1]
    if tree is None:
        parsed = cache.parse(source)
        tree = parsed[0] if parsed is not None else None
    facts = Facts(tree) if tree is not None else None
    cache.facts[path] = (source, facts)
    return facts


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


def can_launch(cache: ModuleCache, path: Path, name: str) -> bool:
    """True when the function ``name`` of the module at ``path`` (or the function an import there
    binds to ``name``) may start a launch: it calls one of :data:`LAUNCH_QUALS`, a wrapper of its
    module, or a function imported from another module of the repository that may."""
    todo, seen = [(path, name)], set()
    while todo and len(seen) < MAX_FUNCTIONS:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        where, fn = node
        facts = facts_of(cache, where)
        if facts is None:
            continue
        if fn in facts.direct:
            return True
        if fn in facts.functions:
            for dotted in sorted(facts.calls.get(fn, ())):
                if "." not in dotted and dotted in facts.functions:
                    if dotted in facts.wrappers:
                        return True
                else:
                    todo.extend(w for w in (_where(cache, where, t) for t in facts.targets(dotted)) if w)
        else:
            todo.extend(w for w in (_where(cache, where, t) for t in facts.targets(fn)) if w)
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


def calls_launcher(source: SourceFile, ws: Workspace, imports: dict | None = None) -> bool:
    """True when the file calls a function it imports from another module of the repository that may
    start a launch (:func:`can_launch`): ``f(…)`` of ``from m import f``, ``m.f(…)`` of ``import a.m as m``."""
    from linter.extract.python.modules import cache_for

    cache = cache_for(ws)
    text = source.text
    for name, targets in (text_imports(text) if imports is None else imports).items():
        for m in re.finditer(rf"(?<![\w.]){re.escape(name)}((?:[ \t]*\.[ \t]*\w+)*)[ \t]*\(", text):
            tail = tuple(p.strip() for p in m.group(1).split(".")[1:])
            for level, parts in targets:
                where = _where(cache, source.path, (level, parts + tail))
                if where is not None and can_launch(cache, *where):
                    return True
    return False


def read_with_imports(source: SourceFile, ws: Workspace) -> bool:
    """The Python row's ``read_with`` (:mod:`linter.formats`): True when a file that does not mention
    SGLang calls an imported function that may launch (:func:`calls_launcher`), or names a runner
    (``subprocess.run`` …) and imports a value or module from a module of the repository that mentions
    SGLang (``from p.good import CMD; subprocess.run(CMD + [...])``)."""
    from linter.extract.python.modules import cache_for
    from linter.mentions import mentions_sglang

    imports = text_imports(source.text)
    if not imports:
        return False
    if CALL_NAME_RE.search(source.text):
        cache = cache_for(ws)
        here = source.path.parent
        root = cache.root_of(here)
        for targets in imports.values():
            for level, parts in targets:
                if _is_outside(level, parts + ("",)):
                    continue
                # the module a name comes from, or the module the name is (``from p import good``)
                for module in (parts[:-1], parts):
                    path = None if not module else cache.module_file(here, root, list(module), level, source.path)
                    other = ws.try_read(path) if path is not None else None
                    if other is not None and mentions_sglang(other.text):
                        return True
    return calls_launcher(source, ws, imports)
