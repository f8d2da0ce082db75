"""The calls of one module, besides ``sys.exit()`` and the like (:func:`.syntax.exits`), that never
return to their caller: they end a path as ``raise`` does.

* A module function that ends the process or raises on every path (``def die(msg): print(msg);
  sys.exit(1)``, ``def fail(m): raise SystemExit(m)``, or one that calls such a function): it has no
  ``return`` and no ``yield``, is not ``async`` (calling one only makes a coroutine) and has no
  decorator, and its name is bound nowhere else in the module.
* ``parser.error(...)`` where every binding of ``parser`` in the module is ``argparse.ArgumentParser(...)``:
  CPython's ``Lib/argparse.py`` (3.8 to 3.13) documents ``ArgumentParser.error`` as "prints a usage
  message incorporating the message to stderr and exits" (status 2), and the Python documentation
  of the argparse module says so too ("This method prints a usage message, including the message,
  to the standard error and terminates the program with a status code of 2").

A spelling is ``(owner, name)``: ``(None, "die")`` for a call of the name ``die``, ``("parser",
"error")`` for ``parser.error``.
"""

from __future__ import annotations

import ast
from collections import Counter

from linter import limits
from linter.extract.python.syntax import dotted, ends, returns_in

_PARSERS = frozenset({"argparse.ArgumentParser"})
"""The classes whose ``error`` method ends the process (see the module docstring)."""


def ending_calls(module: ast.Module) -> frozenset:
    """The spellings ``(owner or None, name)`` of the calls of ``module`` that never return (see the
    module docstring). A function that ends by calling another is found too, through at most
    ``limits.MAX_CALL_DEPTH`` such calls."""
    bound, parsers = _bindings(module)
    out = {(name, "error") for name in parsers}
    functions = [st for st in module.body if isinstance(st, ast.FunctionDef) and not st.decorator_list
                 and bound[st.name] == 1 and not returns_in(st.body)
                 and not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(st))]
    for _ in range(limits.MAX_CALL_DEPTH):
        known = frozenset(out)
        found = [fn for fn in functions if (None, fn.name) not in known and ends(fn.body, known)]
        if not found:
            break
        out.update((None, fn.name) for fn in found)
    return frozenset(out)


def _bindings(module: ast.Module) -> tuple[Counter, set[str]]:
    """(how many times each name is bound in ``module``, in any scope — a ``def``, a ``class``, an
    assignment, a parameter, an import …; the names every binding of which is ``name =
    argparse.ArgumentParser(...)``)."""
    bound: Counter = Counter()
    parsers: dict[str, bool] = {}  # name -> every assignment of it makes an ArgumentParser
    assigned: Counter = Counter()
    imported = _imported_names(module)
    for node in ast.walk(module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] += 1
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] += 1
        elif isinstance(node, ast.arg):
            bound[node.arg] += 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                bound[(a.asname or a.name).split(".")[0]] += 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            makes = isinstance(node.value, ast.Call) and _qualified(node.value.func, imported) in _PARSERS
            parsers[name] = parsers.get(name, True) and makes
            assigned[name] += 1
    # (a parameter, a loop variable … of the same name may be anything)
    return bound, {name for name, makes in parsers.items() if makes and bound[name] == assigned[name]}


def _imported_names(module: ast.Module) -> dict[str, str]:
    """``{name bound by an import: the module or object it names}`` (``import argparse as ap`` gives
    ``ap -> argparse``, ``from argparse import ArgumentParser`` ``ArgumentParser ->
    argparse.ArgumentParser``), from the imports anywhere in ``module``."""
    out: dict[str, str] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
                else:
                    top = a.name.split(".")[0]
                    out[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _qualified(func, imported: dict[str, str]) -> str | None:
    """The dotted name ``func`` (a Name or Attribute node) stands for through the imports, or None."""
    name = dotted(func)
    head, _, rest = name.partition(".")
    if not head or head not in imported:
        return None
    return imported[head] + ("." + rest if rest else "")
