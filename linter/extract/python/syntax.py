"""Syntax helpers over :mod:`ast`: dotted names, call arguments in source order, how a block ends,
``case`` captures, and the names a piece of code binds and mutates (one walk).
"""

from __future__ import annotations

import ast

from linter.extract.python.names import MUTATORS

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
FORS = (ast.For, ast.AsyncFor)
WITHS = (ast.With, ast.AsyncWith)
TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)
SIMPLE = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Import, ast.ImportFrom, ast.Delete,
          ast.Return, ast.Raise, ast.Pass, ast.Assert, ast.Global, ast.Nonlocal, ast.Break, ast.Continue) + \
    ((ast.TypeAlias,) if hasattr(ast, "TypeAlias") else ())
"""Statements that hold no block."""


def dotted(node) -> str:
    """``a.b.c`` of a Name/Attribute node."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    parts.append(node.id if isinstance(node, ast.Name) else "")
    return ".".join(reversed(parts))


def pos(node) -> tuple[int, int]:
    """(line, byte column) where ``node`` starts: sorts nodes in source order."""
    return node.lineno, node.col_offset


class Arg:
    """One argument of a call as written: ``keyword`` (its name, or None), ``star`` (``""``, ``"*"``
    or ``"**"``), ``value`` (the expression) and ``node`` (the ``ast`` node whose span is the whole
    argument: the value, the ``Starred`` or the ``keyword``)."""

    __slots__ = ("keyword", "star", "value", "node")

    def __init__(self, keyword: str | None, star: str, value, node) -> None:
        self.keyword = keyword
        self.star = star
        self.value = value
        self.node = node


def call_args(call: ast.Call) -> list[Arg]:
    """The arguments of ``call`` in source order (``ast`` keeps positional and keyword ones apart)."""
    got = getattr(call, "_lc_args", None)
    if got is not None:
        return got
    out = []
    for a in call.args:
        if isinstance(a, ast.Starred):
            out.append(Arg(None, "*", a.value, a))
        else:
            out.append(Arg(None, "", a, a))
    if call.keywords:
        for k in call.keywords:
            out.append(Arg(k.arg, "" if k.arg is not None else "**", k.value, k))
        if call.args:
            out.sort(key=lambda a: pos(a.node))
    call._lc_args = out
    return out


_EXITS = {("sys", "exit"), ("os", "_exit"), (None, "exit"), (None, "quit")}
"""The calls that end the process, as they are spelled: ``sys.exit()``, ``os._exit()``, and the
``exit()``/``quit()`` builtins (or ``from sys import exit``)."""


def exits(st, enders: frozenset = frozenset()) -> bool:
    """``st`` ends the process or raises whenever it runs: a statement call of :data:`_EXITS` or of
    ``enders`` (more ``(owner name or None, name)`` spellings: the module's own, :mod:`.enders`), or
    an ``assert`` of a false constant (``assert False, "…"``)."""
    if isinstance(st, ast.Assert):
        return isinstance(st.test, ast.Constant) and not st.test.value
    if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)):
        return False
    func = st.value.func
    if isinstance(func, ast.Name):
        return (None, func.id) in _EXITS or (None, func.id) in enders
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return False
    spelled = (func.value.id, func.attr)
    return spelled in _EXITS or spelled in enders


def stmt_ends(st, enders: frozenset = frozenset()) -> bool:
    """The statement ``st`` never reaches the one after it: ``return``, ``raise``, a call that ends
    the process (:func:`exits`), an ``if``/``else`` whose branches all end, a ``match`` whose cases
    all end and whose last case is ``_``."""
    if isinstance(st, (ast.Return, ast.Raise)) or exits(st, enders):
        return True
    if isinstance(st, ast.If):
        return bool(st.orelse) and ends(st.body, enders) and ends(st.orelse, enders)
    if isinstance(st, ast.Match):  # every case ends, and the last one always matches
        return bool(st.cases) and irrefutable(st.cases[-1]) and all(ends(c.body, enders) for c in st.cases)
    return False


def ends(block: list, enders: frozenset = frozenset()) -> bool:
    """The block never reaches the statement after it: one of its statements never reaches the next
    (:func:`stmt_ends`; ``die("…")`` before more code in the branch ends it too)."""
    return any(stmt_ends(st, enders) for st in block)


def test_names(test) -> tuple[str, ...]:
    """The names a test reads (or binds, ``(x := …)``), each once, in the order written."""
    return tuple(dict.fromkeys(n.id for n in ast.walk(test) if isinstance(n, ast.Name)))


def guards_of(block: list, target) -> list:
    """``[(test, holds), ...]``: the ``if``/``elif``/``while`` tests the statement ``target`` (inside
    ``block``, not inside a nested definition) runs under, outermost first, ``holds`` True in a body
    and False in an ``else``; [] when it is not there. ``target`` may also be a test of a statement
    (the first simple statement for which it holds is the one)."""
    found = target if callable(target) else lambda st: st is target
    todo = [(block, [])]
    while todo:
        stmts, guards = todo.pop()
        for st in stmts:
            if found(st):
                return guards
            if isinstance(st, ast.If):
                todo.append((st.body, guards + [(st.test, True)]))
                todo.append((st.orelse, guards + [(st.test, False)]))
            elif isinstance(st, ast.While):
                todo.append((st.body, guards + [(st.test, True)]))
                todo.append((st.orelse, guards))
            elif isinstance(st, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try, *TRIES)):
                for sub in (getattr(st, "body", []), getattr(st, "orelse", []), getattr(st, "finalbody", [])):
                    todo.append((sub, guards))
                for h in getattr(st, "handlers", []):
                    todo.append((h.body, guards))
            elif isinstance(st, ast.Match):
                for case in st.cases:
                    todo.append((case.body, guards))
    return []


def conditional_sides(module) -> dict[int, list]:
    """``{id(call): [(test, holds), ...]}`` for each call inside a branch of a conditional expression
    (``A if TEST else B``: ``holds`` True in ``A``), outermost first. One walk of the module."""
    out: dict[int, list] = {}
    todo: list = [(module, ())]
    while todo:
        node, guards = todo.pop()
        if isinstance(node, ast.Call) and guards:
            out[id(node)] = list(guards)
        if isinstance(node, ast.IfExp):
            todo.append((node.test, guards))
            todo.append((node.body, guards + ((node.test, True),)))
            todo.append((node.orelse, guards + ((node.test, False),)))
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            guards = ()  # a definition's body runs when it is called, not where it is written
        todo.extend((child, guards) for child in ast.iter_child_nodes(node))
    return out


def irrefutable(case) -> bool:
    """``case _:`` or ``case name:`` (no guard): the case always matches."""
    p = case.pattern
    return case.guard is None and isinstance(p, ast.MatchAs) and p.pattern is None


def pattern_captures(pattern) -> list[str]:
    """Names a ``case`` pattern binds."""
    out: list[str] = []

    def walk(node) -> None:
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name is not None:
            out.append(node.name)
        if isinstance(node, ast.MatchMapping) and node.rest is not None:
            out.append(node.rest)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.pattern):
                walk(child)

    walk(pattern)
    return out


EXPECT_RAISES = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp"}


def expects_raise(node) -> bool:
    """``pytest.raises(...)``, ``raises(...)`` or ``self.assertRaises[Regex](...)``: a with-item of a
    test that expects its body to fail."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute):
        if f.attr in EXPECT_RAISES:
            return True
        return f.attr == "raises" and isinstance(f.value, ast.Name) and f.value.id == "pytest"
    return isinstance(f, ast.Name) and f.id == "raises"


def swallows(node) -> bool:
    """A with-item that may stop its body anywhere and go on after it."""
    if expects_raise(node):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        return name == "suppress"
    return False


def param_names(args: ast.arguments) -> list[str]:
    """The parameter names of a function, in order (``*args`` and ``**kwargs`` included)."""
    out = [a.arg for a in args.posonlyargs + args.args]
    for a in (args.vararg, *args.kwonlyargs, args.kwarg):
        if a is not None:
            out.append(a.arg)
    return out


def _decorator_names(node):
    return (d.id for d in node.decorator_list if isinstance(d, ast.Name))


def is_classmethod(node) -> bool:
    """A function decorated with ``@classmethod``."""
    return "classmethod" in _decorator_names(node)


def is_staticmethod(node) -> bool:
    """A function decorated with ``@staticmethod``."""
    return "staticmethod" in _decorator_names(node)


def target_names(target) -> list[str]:
    """The names an assignment target binds (``a``, ``a, *b``, ``[a, (b, c)]``; none for ``x[i]``/``x.y``)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        out = []
        for e in target.elts:
            out.extend(target_names(e))
        return out
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


_FIELDS: dict[type, tuple[str, ...]] = {}
"""The fields of each node type that may hold child nodes (not ``ctx`` and operators: leaves)."""


def children(node) -> list:
    """The child nodes of ``node`` in source order (``ast`` lists a dict's keys before its values and
    a call's keyword arguments after its positional ones), without contexts and operators."""
    t = type(node)
    if t is ast.Dict:
        out = []
        for k, v in zip(node.keys, node.values):
            if k is not None:
                out.append(k)
            out.append(v)
        return out
    if t is ast.Call:
        return [node.func] + [a.node for a in call_args(node)]
    if t is ast.IfExp:
        return [node.body, node.test, node.orelse]
    fields = _FIELDS.get(t)
    if fields is None:
        fields = _FIELDS[t] = tuple(f for f in t._fields if f not in ("ctx", "op", "ops"))
    out = []
    for f in fields:
        v = getattr(node, f, None)
        if isinstance(v, list):
            out.extend(x for x in v if isinstance(x, ast.AST))
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


class BindInfo:
    """What one scope's own code binds and changes in place (collected by one walk)."""

    __slots__ = ("bound", "mutated", "declared_global", "imports", "aliases", "attr_mutated", "attr_inplace")

    def __init__(self) -> None:
        self.bound: set[str] = set()
        self.mutated: set[str] = set()
        self.declared_global: set[str] = set()
        self.imports: list = []
        self.aliases: dict[str, list] = {}  # local name -> names/attrs it was bound to
        self.attr_mutated: set[tuple[str, str]] = set()  # (base name, attribute)
        self.attr_inplace: set[tuple[str, str]] = set()  # of those, changed other than by ``=``


class Binds:
    """A walk that records the names bound and mutated in code (not inside nested functions, classes
    or lambdas: :meth:`enter_def` and :meth:`lambda_body` say whether to go in). Each node type's
    ``visit_<Type>`` is called before its children."""

    _visits: dict[type, object] = {}  # node type -> this class's visit_<Type> (None: none)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._visits = {}

    def __init__(self, info: BindInfo) -> None:
        self.info = info

    def walk(self, node) -> None:
        t = type(node)
        visits = self._visits
        if t in visits:
            visit = visits[t]
        else:
            visit = visits[t] = getattr(type(self), "visit_" + t.__name__, None)
        if visit is not None and visit(self, node) is False:
            return
        for child in children(node):
            self.walk(child)

    def enter_def(self, node) -> bool:
        """Go into a function or class defined here (its decorators, defaults and body)."""
        return False

    def lambda_body(self) -> bool:
        return False

    def visit_FunctionDef(self, node) -> bool:
        self.info.bound.add(node.name)
        if self.enter_def(node):
            self.walk_def(node)
        return False

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef

    def walk_def(self, node) -> None:
        """The parts of a definition, in source order, then :meth:`leave_def`."""
        for d in node.decorator_list:
            self.walk(d)
        if isinstance(node, ast.ClassDef):
            for a in sorted(node.bases + node.keywords, key=pos):
                self.walk(a)
        else:
            self.walk(node.args)
            if node.returns is not None:
                self.walk(node.returns)
        for st in node.body:
            self.walk(st)
        self.leave_def(node)

    def leave_def(self, node) -> None:
        return None

    def visit_arguments(self, node) -> bool:
        # defaults are evaluated where the function is defined; the parameters bind nothing here
        for d in node.defaults:
            self.walk(d)
        for d in node.kw_defaults:
            if d is not None:
                self.walk(d)
        for a in node.posonlyargs + node.args + node.kwonlyargs + [node.vararg, node.kwarg]:
            if a is not None and a.annotation is not None:
                self.walk(a.annotation)
        return False

    def visit_Lambda(self, node) -> bool:
        return self.lambda_body()

    def visit_Assign(self, node) -> None:
        for t in node.targets:
            self._target(t)
            if isinstance(t, ast.Name):
                v = node.value
                if isinstance(v, ast.Name):
                    self.info.aliases.setdefault(t.id, []).append(v.id)
                elif isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name):
                    self.info.aliases.setdefault(t.id, []).append(("attr", v.value.id, v.attr))

    def _target(self, target) -> None:
        self.info.bound.update(target_names(target))
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            self.info.attr_mutated.add((target.value.id, target.attr))  # self.x = … / Cls.x = …
        elif isinstance(target, (ast.Tuple, ast.List)):
            for e in target.elts:
                self._target(e.value if isinstance(e, ast.Starred) else e)
        elif isinstance(target, ast.Subscript):
            base = target.value
            if isinstance(base, ast.Name):
                self.info.mutated.add(base.id)
            elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
                self.info.attr_mutated.add((base.value.id, base.attr))
                self.info.attr_inplace.add((base.value.id, base.attr))

    def visit_AnnAssign(self, node) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node) -> None:
        t = node.target
        if isinstance(t, ast.Name):
            self.info.bound.add(t.id)
            self.info.mutated.add(t.id)
        elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
            # ``self.cmd += [...]``: in ``__init__`` it is followed like ``self.cmd = self.cmd + [...]``
            self.info.attr_mutated.add((t.value.id, t.attr))
        else:
            self._target(t)

    def visit_For(self, node) -> None:
        self.info.bound.update(target_names(node.target))

    visit_AsyncFor = visit_For

    def visit_withitem(self, node) -> None:
        if node.optional_vars is not None:
            self.info.bound.update(target_names(node.optional_vars))

    def visit_ExceptHandler(self, node) -> None:
        if node.name is not None:
            self.info.bound.add(node.name)

    def visit_NamedExpr(self, node) -> None:
        self.info.bound.update(target_names(node.target))

    def visit_Delete(self, node) -> None:
        for t in node.targets:
            self.info.bound.update(target_names(t))

    def visit_Import(self, node) -> None:
        self.info.imports.append(node)
        for alias in node.names:
            self.info.bound.add(alias.asname if alias.asname is not None else alias.name.split(".")[0])

    def visit_ImportFrom(self, node) -> None:
        self.info.imports.append(node)
        for alias in node.names:
            if alias.name != "*":
                self.info.bound.add(alias.asname if alias.asname is not None else alias.name)

    def visit_Global(self, node) -> None:
        self.info.declared_global.update(node.names)

    visit_Nonlocal = visit_Global

    def visit_Call(self, node) -> None:
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in MUTATORS:
            base = f.value
            if isinstance(base, ast.Name):
                self.info.mutated.add(base.id)
            elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
                self.info.attr_mutated.add((base.value.id, base.attr))
                if f.attr not in ("append", "extend"):
                    # ``self.cmd.append(x)`` in ``__init__`` is followed like ``self.cmd += [x]``
                    self.info.attr_inplace.add((base.value.id, base.attr))


def binds_in(stmts) -> BindInfo:
    """Names bound and mutated in ``stmts`` (not inside functions or classes defined there)."""
    info = BindInfo()
    walker = Binds(info)
    for st in stmts:
        walker.walk(st)
    return info


def returns_in(block: list) -> list:
    """The ``return`` statements of a function body (not of functions, classes or lambdas inside it)."""
    out: list = []
    todo = list(reversed(block))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            out.append(node)
        elif isinstance(node, (*DEFS, ast.Lambda)) or not isinstance(node, (ast.stmt, ast.excepthandler,
                                                                            ast.match_case)):
            continue
        todo.extend(reversed(list(ast.iter_child_nodes(node))))
    return out
