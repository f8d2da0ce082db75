"""libcst syntax helpers: dotted names, statement blocks, the names a piece of code binds and mutates.

libcst is never imported here: each helper takes the ``cst`` module from the caller (extraction
imports it lazily).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from linter.extract.python.names import MUTATORS


def dotted(node) -> str:
    """``a.b.c`` of a Name/Attribute node."""
    parts = []
    while hasattr(node, "attr"):
        parts.append(node.attr.value)
        node = node.value
    parts.append(node.value)
    return ".".join(reversed(parts))


def block_stmts(block) -> list:
    """The statements of an IndentedBlock, or ``[suite]`` for a one-line ``SimpleStatementSuite``."""
    body = getattr(block, "body", None)
    if isinstance(body, (list, tuple)) and body and not hasattr(block, "header"):
        return [block]
    return list(body) if isinstance(body, (list, tuple)) else [block]


def try_types(cst) -> tuple:
    return (cst.Try, cst.TryStar) if hasattr(cst, "TryStar") else (cst.Try,)


def is_match(cst, st) -> bool:
    return hasattr(cst, "Match") and isinstance(st, cst.Match)


def ends(cst, block) -> bool:
    """The block never reaches the statement after it: it ends in ``return`` or ``raise`` (also in
    every branch of a final ``if``/``else``)."""
    stmts = block_stmts(block)
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return bool(last.body) and isinstance(last.body[-1], (cst.Return, cst.Raise))
    if isinstance(last, cst.If):
        orelse = last.orelse
        if orelse is None or not ends(cst, last.body):
            return False
        return ends(cst, orelse) if isinstance(orelse, cst.If) else ends(cst, orelse.body)
    return False


def irrefutable(cst, case) -> bool:
    """``case _:`` or ``case name:`` (no guard): the case always matches."""
    p = case.pattern
    return case.guard is None and isinstance(p, cst.MatchAs) and p.pattern is None


def pattern_captures(cst, pattern) -> list[str]:
    """Names a ``case`` pattern binds."""
    out: list[str] = []

    def walk(node) -> None:
        if isinstance(node, (cst.MatchAs, cst.MatchStar)) and node.name is not None:
            out.append(node.name.value)
        if isinstance(node, cst.MatchMapping) and node.rest is not None:
            out.append(node.rest.value)
        for child in node.children:
            if not isinstance(child, cst.BaseExpression):
                walk(child)

    walk(pattern)
    return out


EXPECT_RAISES = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp"}


def expects_raise(cst, node) -> bool:
    """``pytest.raises(...)``, ``raises(...)`` or ``self.assertRaises[Regex](...)``: a with-item of a
    test that expects its body to fail."""
    if not isinstance(node, cst.Call):
        return False
    f = node.func
    if isinstance(f, cst.Attribute):
        if f.attr.value in EXPECT_RAISES:
            return True
        return f.attr.value == "raises" and isinstance(f.value, cst.Name) and f.value.value == "pytest"
    return isinstance(f, cst.Name) and f.value == "raises"


def swallows(cst, node) -> bool:
    """A with-item that may stop its body anywhere and go on after it."""
    if expects_raise(cst, node):
        return True
    if isinstance(node, cst.Call):
        f = node.func
        name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
        return name == "suppress"
    return False


def param_names(params) -> list[str]:
    out = [p.name.value for p in list(params.posonly_params) + list(params.params)]
    for p in (params.star_arg, *params.kwonly_params, params.star_kwarg):
        name = getattr(p, "name", None)
        if name is not None and hasattr(name, "value"):
            out.append(name.value)
    return out


def is_classmethod(node) -> bool:
    """A function decorated with ``@classmethod``."""
    return any(getattr(d.decorator, "value", None) == "classmethod" for d in node.decorators)


def is_staticmethod(node) -> bool:
    for d in node.decorators:
        dec = d.decorator
        if getattr(dec, "value", None) == "staticmethod":
            return True
    return False


def target_names(cst, target) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out = []
        for e in target.elements:
            out.extend(target_names(cst, e.value))
        return out
    if isinstance(target, cst.StarredElement):
        return target_names(cst, target.value)
    return []


@dataclass
class BindInfo:
    """What one scope's own code binds and changes in place (collected by one libcst walk)."""

    bound: set[str] = field(default_factory=set)
    mutated: set[str] = field(default_factory=set)
    declared_global: set[str] = field(default_factory=set)
    imports: list = field(default_factory=list)
    aliases: dict[str, list] = field(default_factory=dict)  # local name -> names/attrs it was bound to
    attr_mutated: set[tuple[str, str]] = field(default_factory=set)  # (base name, attribute)
    attr_inplace: set[tuple[str, str]] = field(default_factory=set)  # of those, changed other than by ``=``


@functools.cache
def bind_visitor_class(cst):
    """The visitor class that records names bound and mutated in code (not inside nested scopes)."""
    def names(target) -> list[str]:
        return target_names(cst, target)

    class Binds(cst.CSTVisitor):
        def __init__(self, info: BindInfo) -> None:
            super().__init__()
            self.info = info

        def enter_def(self, node) -> bool:
            return False

        def visit_FunctionDef(self, node) -> bool:
            self.info.bound.add(node.name.value)
            return self.enter_def(node)

        def visit_ClassDef(self, node) -> bool:
            self.info.bound.add(node.name.value)
            return self.enter_def(node)

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_Assign(self, node) -> None:
            for t in node.targets:
                self._target(t.target)
                if isinstance(t.target, cst.Name):
                    v = node.value
                    if isinstance(v, cst.Name):
                        self.info.aliases.setdefault(t.target.value, []).append(v.value)
                    elif isinstance(v, cst.Attribute) and isinstance(v.value, cst.Name):
                        self.info.aliases.setdefault(t.target.value, []).append(("attr", v.value.value, v.attr.value))

        def _target(self, target) -> None:
            self.info.bound.update(names(target))
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                self.info.attr_mutated.add((target.value.value, target.attr.value))  # self.x = … / Cls.x = …
            elif isinstance(target, (cst.Tuple, cst.List)):
                for e in target.elements:
                    self._target(e.value)
            elif isinstance(target, cst.Subscript):
                base = target.value
                if isinstance(base, cst.Name):
                    self.info.mutated.add(base.value)
                elif isinstance(base, cst.Attribute) and isinstance(base.value, cst.Name):
                    self.info.attr_mutated.add((base.value.value, base.attr.value))
                    self.info.attr_inplace.add((base.value.value, base.attr.value))

        def visit_AnnAssign(self, node) -> None:
            self._target(node.target)

        def visit_AugAssign(self, node) -> None:
            t = node.target
            if isinstance(t, cst.Name):
                self.info.bound.add(t.value)
                self.info.mutated.add(t.value)
            elif isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name):
                self.info.attr_mutated.add((t.value.value, t.attr.value))
                self.info.attr_inplace.add((t.value.value, t.attr.value))
            else:
                self._target(t)

        def visit_For(self, node) -> None:
            self.info.bound.update(names(node.target))

        def visit_CompFor(self, node) -> None:
            return None

        def visit_WithItem(self, node) -> None:
            if node.asname is not None:
                self.info.bound.update(names(node.asname.name))

        def visit_ExceptHandler(self, node) -> None:
            if node.name is not None:
                self.info.bound.update(names(node.name.name))

        def visit_NamedExpr(self, node) -> None:
            self.info.bound.update(names(node.target))

        def visit_Del(self, node) -> None:
            self.info.bound.update(names(node.target))

        def visit_Import(self, node) -> None:
            self.info.imports.append(node)
            for alias in node.names:
                if alias.asname is not None:
                    self.info.bound.update(names(alias.asname.name))
                else:
                    self.info.bound.add(dotted(alias.name).split(".")[0])

        def visit_ImportFrom(self, node) -> None:
            self.info.imports.append(node)
            if isinstance(node.names, cst.ImportStar):
                return
            for alias in node.names:
                if alias.asname is not None:
                    self.info.bound.update(names(alias.asname.name))
                else:
                    self.info.bound.add(dotted(alias.name))

        def visit_Global(self, node) -> None:
            self.info.declared_global.update(n.name.value for n in node.names)

        def visit_Nonlocal(self, node) -> None:
            self.info.declared_global.update(n.name.value for n in node.names)

        def visit_Call(self, node) -> None:
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value in MUTATORS:
                base = f.value
                if isinstance(base, cst.Name):
                    self.info.mutated.add(base.value)
                elif isinstance(base, cst.Attribute) and isinstance(base.value, cst.Name):
                    self.info.attr_mutated.add((base.value.value, base.attr.value))
                    self.info.attr_inplace.add((base.value.value, base.attr.value))

    return Binds


def binds_in(cst, stmts) -> BindInfo:
    """Names bound and mutated in ``stmts`` (not inside functions or classes defined there)."""
    info = BindInfo()
    visitor = bind_visitor_class(cst)(info)
    for st in stmts:
        st.visit(visitor)
    return info



def returns_in(cst, block) -> list:
    """The ``return`` statements of a function body (not of functions, classes or lambdas inside it)."""
    out: list = []

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node) -> None:
            out.append(node)

        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_ClassDef(self, node) -> bool:
            return False

        def visit_Lambda(self, node) -> bool:
            return False

    block.visit(Returns())
    return out
