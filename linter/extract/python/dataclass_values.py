"""Dataclass instances the file builds from constants (``launch(Args(true_on_policy=True))``).

A call of a ``@dataclass`` class of the module, given literal constants, makes an object whose
fields the file decides: each field the value given, else the field's default (``true_on_policy:
bool = False``). A function that every call hands such an object reads ``args.true_on_policy`` as
that constant (issue 35: a value the file gives is one path). Fields the file does not decide (an
``argparse`` namespace, a dataclass parsed from ``sys.argv``) are not built here and stay unknown.
"""

from __future__ import annotations

import ast
from linter.extract.python.syntax import dotted
from linter.records import dataclass as _dataclass


@_dataclass(frozen=True)
class InstanceConst:
    """The constants a dataclass construction gives (hashable, so calls that give the same ones are
    one set of arguments): ``qual`` the class, ``fields`` ``((field, type name, constant), ...)``
    in the order the class declares them (type name ``UNKNOWN``: given a value that is not a
    constant); a field left to a default that is not a constant is absent."""

    qual: str
    fields: tuple


UNKNOWN = "?"
"""The type name in an :class:`InstanceConst` of a field given a value that is not a constant."""


def _is_dataclass(node: ast.ClassDef) -> bool:
    """``@dataclass``, ``@dataclasses.dataclass`` or either called (``@dataclass(frozen=True)``)."""
    for d in node.decorator_list:
        name = dotted(d.func if isinstance(d, ast.Call) else d)
        if name in ("dataclass", "dataclasses.dataclass"):
            return True
    return False


def _const(node) -> tuple | None:
    """``(constant,)`` of a literal constant (not bytes), or None."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes):
        return (node.value,)
    return None


def _fields(cls: ast.ClassDef) -> list[tuple[str, object]] | None:
    """``[(field, default node or None), ...]`` of a dataclass without bases, in declaration order;
    a ``field(default=X)`` gives X, a ``field(...)`` without it (``default_factory``) ``...``
    (its value is not a constant). None when a base class may add fields."""
    if cls.bases or cls.keywords:
        return None
    out = []
    for st in cls.body:
        if not (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.simple):
            continue
        ann = st.annotation.value if isinstance(st.annotation, ast.Subscript) else st.annotation
        if dotted(ann) in ("ClassVar", "typing.ClassVar"):
            continue
        default = st.value
        if isinstance(default, ast.Call) and dotted(default.func) in ("field", "dataclasses.field"):
            given = {k.arg: k.value for k in default.keywords}
            default = given.get("default", ...)
        out.append((st.target.id, default))
    return out


def instance_const(call, classes: dict) -> tuple | None:
    """``(InstanceConst, {field: node})`` for ``call`` when it builds a dataclass of ``classes``
    (``{name: ast.ClassDef}``, the module's top-level classes) from literal constants: the node each
    field's value is written at (the argument, else the default). None for any other call, one that
    gives a name the class does not have, misses a field without default, or spreads ``*x``/``**x``.
    A field given something else than a constant is in the key as ``(field, UNKNOWN, None)``."""
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        return None
    cls = classes.get(call.func.id)
    if cls is None or not _is_dataclass(cls):
        return None
    fields = _fields(cls)
    if fields is None or len(call.args) > len(fields) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    given: dict = dict(zip([f for f, _ in fields], call.args))
    for k in call.keywords:
        if k.arg is None or k.arg in given or k.arg not in dict(fields):
            return None
        given[k.arg] = k.value
    key, nodes = [], {}
    for name, default in fields:
        node = given.get(name, default)
        if node is None:
            return None  # a field without default not given: the call raises
        const = _const(node)
        if const is None:  # a value that is not a constant: that field stays unknown
            if name in given:
                key.append((name, UNKNOWN, None))
                nodes[name] = node
            continue
        key.append((name, type(const[0]).__name__, const[0]))
        nodes[name] = node
    return InstanceConst(call.func.id, tuple(key)), nodes


def module_classes(module: ast.Module) -> dict:
    """``{name: ast.ClassDef}`` of the classes defined at the top level of ``module`` once only."""
    seen: dict = {}
    for st in module.body:
        if isinstance(st, ast.ClassDef):
            seen[st.name] = st if st.name not in seen else None
    return {k: v for k, v in seen.items() if v is not None}
