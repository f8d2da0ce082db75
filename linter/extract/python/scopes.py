"""The scopes of one module and what its code binds, mutates and calls: one walk of its ``ast``.

:class:`ModuleIndex` is built once per analysed file and read by the interpretation (which names are
local to a function, which module lists some function mutates in place), by launch recognition
(the calls, in source order) and by the Modal declarations (callers of a function).
"""

from __future__ import annotations

import ast

from linter.extract.python.names import MUTATORS
from linter.extract.python.syntax import (
    FUNCTIONS,
    BindInfo,
    Binds,
    expects_raise,
    is_classmethod,
    is_staticmethod,
    param_names,
    target_names,
)
from linter.launch import GpuDecl, MStr


class Scope:
    """A module, class or function of the analysed file (``kind``: module, class, function; ``node``
    its ``ast`` node): its statements, parameters and the Modal declarations that apply to it."""

    def __init__(self, kind: str, node, parent: Scope | None, qual: str, body: list,
                 params: list[str] | None = None) -> None:
        self.kind = kind
        self.node = node
        self.parent = parent
        self.qual = qual
        self.body = body
        self.params: list[str] = params if params is not None else []
        self.self_name: str | None = None  # first parameter of a method
        self._locals: set[str] | None = None
        self.globals: set[str] = set()
        self.decls: list[GpuDecl] = []
        self.image: MStr | None = None  # Modal ``image=`` of its decorator (or of its app)
        self.decorated = False  # a Modal function or class
        self.callees: set[str] = set()  # module functions / methods called by name
        self.owner = None  # the Analysis of the module that holds it

    def __repr__(self) -> str:
        return f"Scope({self.kind} {self.qual})"


class ModuleIndex:
    """Scopes (module first, then in source order), calls with their scope, per-scope bind info,
    import aliases and the in-place mutations that make a module value or class attribute unknown."""

    def __init__(self, module: ast.Module) -> None:
        self.module = module
        self.scopes: list[Scope] = []
        self.scope_of_node: dict[int, Scope] = {}
        self.calls: list[tuple[object, Scope]] = []
        self._scope_binds: dict[int, BindInfo] = {}
        self.taint_names: set[str] = set()  # module names some function mutates in place
        self.taint_attrs: set[tuple[int, str]] = set()  # (class scope id, attribute)
        # (class scope id, attribute) -> the class's ``__init__`` that binds it with ``=`` (and nothing else does)
        self.init_attrs: dict[tuple[int, str], Scope] = {}
        # (class scope id, attribute) -> the methods of the class other than ``__init__`` that bind it by
        # ``self.x = …``/``self.x += …`` (:mod:`.setters`), and the ``__init__`` that does, when nothing
        # else changes it (not another class, not in place, not through an alias)
        self.method_attrs: dict[tuple[int, str], list[Scope]] = {}
        self.init_binds: dict[tuple[int, str], Scope] = {}
        self.star_imports: list[str] = []
        self.classes: list[Scope] = []
        self.alias_names: set[str] = set()  # names bound by ``import … as``, ``from … import`` or ``x = a.b``
        self.import_names: set[str] = set()  # names bound by an import, or by ``x = NAME`` (a module alias)
        # statement id -> (call or walrus, name) that its own expressions change in place or bind
        self.effects: dict[int, list] = {}
        self.collect()
        self.prescan_taint()
        for key in self.taint_attrs:  # also set elsewhere: not known from __init__ alone
            self.init_attrs.pop(key, None)
        for key in set(self.method_attrs) & self._foreign:
            del self.method_attrs[key]

    def collect(self) -> None:
        """One walk of the module: its scopes, calls, names bound and mutated per scope, import aliases,
        then the module names and class attributes that functions change in place."""
        module_scope = Scope("module", self.module, None, "<module>", list(self.module.body))
        self.scopes.append(module_scope)
        self.scope_of_node[id(self.module)] = module_scope
        Collector(self, module_scope).walk(self.module)
        self.calls.sort(key=lambda c: (c[0].lineno, c[0].col_offset))  # source order (ast lists a
        # call's keyword arguments after its positional ones); a call before the calls inside it
        for scope in self.scopes:
            if scope.kind == "function":
                binds = self.binds_of(scope)
                scope.globals = binds.declared_global
                scope._locals = (set(scope.params) | binds.bound) - binds.declared_global

    def locals_of(self, scope: Scope) -> set[str]:
        if scope._locals is None:
            scope._locals = self.binds_of(scope).bound
        return scope._locals

    # -- names bound / mutated in a piece of code ---------------------------------------------------

    def binds_of(self, scope: Scope) -> BindInfo:
        """Names bound and mutated in the scope's own code (filled by the one walk in :meth:`collect`)."""
        got = self._scope_binds.get(id(scope))
        if got is None:
            got = self._scope_binds[id(scope)] = BindInfo()
        return got

    # -- taint: module lists that functions mutate in place ----------------------------------------

    def prescan_taint(self) -> None:
        self._foreign: set[tuple[int, str]] = set()  # attributes changed other than by a method's ``self.x =``
        for scope in self.scopes:
            info = self.binds_of(scope)
            for base, attr in info.attr_mutated:
                cls = self.class_for_base(scope, base)
                if cls is None:
                    continue
                key = (id(cls), attr)
                own = scope.kind == "function" and scope.parent is cls and base == scope.self_name and \
                    (base, attr) not in info.attr_inplace and not is_classmethod(scope.node)
                if own and scope.node.name == "__init__":
                    self.init_attrs.setdefault(key, scope)  # ``self.x = …`` in ``__init__``
                    self.init_binds.setdefault(key, scope)
                    continue
                self.taint_attrs.add(key)
                if own:
                    self.method_attrs.setdefault(key, []).append(scope)
                else:
                    self._foreign.add(key)
            if scope.kind != "function":
                continue
            local = self.locals_of(scope)
            for name in info.mutated:
                if name not in local:
                    self.taint_names.add(name)
                elif name in info.aliases:
                    for target in info.aliases[name]:
                        if isinstance(target, str):
                            if target not in local:
                                self.taint_names.add(target)
                        else:  # ("attr", base name, attribute)
                            _, base, attr = target
                            cls = self.class_for_base(scope, base)
                            if cls is not None:
                                self.taint_attrs.add((id(cls), attr))
                                self._foreign.add((id(cls), attr))

    def class_for_base(self, scope: Scope, base: str) -> Scope | None:
        if scope.self_name and base == scope.self_name and scope.parent and scope.parent.kind == "class":
            return scope.parent
        for cls in self.classes:  # a class of the module, by name (no evaluation needed)
            if cls.parent is not None and cls.parent.kind == "module" and cls.node.name == base:
                return cls
        return None

    # -- frames -----------------------------------------------------------------------------------


class Collector(Binds):
    """One walk of a module: its scopes, calls, names bound and mutated per scope, import aliases, and
    the effects (in-place changes, ``:=``) of each statement's own expressions."""

    def __init__(self, index: ModuleIndex, module_scope: Scope) -> None:
        super().__init__(index.binds_of(module_scope))
        self.index = index
        self.stack = [module_scope]
        self.statements: list = []  # the statements around the node
        self.expect_raises = 0  # inside the body of ``with pytest.raises(...)`` and the like

    def walk(self, node) -> None:
        if isinstance(node, ast.stmt):
            self.statements.append(node)
            super().walk(node)
            self.statements.pop()
        else:
            super().walk(node)

    def effect(self, node, name: str) -> None:
        if self.statements:
            self.index.effects.setdefault(id(self.statements[-1]), []).append((node, name))

    def visit_NamedExpr(self, node) -> None:
        super().visit_NamedExpr(node)
        for name in target_names(node.target):
            self.effect(node, name)

    def visit_With(self, node) -> bool:
        for item in node.items:
            self.walk(item)
        raises = any(expects_raise(item.context_expr) for item in node.items)
        self.expect_raises += raises
        for st in node.body:
            self.walk(st)
        self.expect_raises -= raises
        return False

    visit_AsyncWith = visit_With

    def enter_def(self, node) -> bool:
        index = self.index
        parent = self.stack[-1]
        qual = node.name if parent.kind == "module" else f"{parent.qual}.{node.name}"
        if isinstance(node, FUNCTIONS):
            params = param_names(node.args)
            scope = Scope("function", node, parent, qual, list(node.body), params=params)
            if parent.kind == "class" and params and not is_staticmethod(node):
                scope.self_name = params[0]
        else:
            scope = Scope("class", node, parent, qual, list(node.body))
            index.classes.append(scope)
        index.scopes.append(scope)
        index.scope_of_node[id(node)] = scope
        self.stack.append(scope)
        self.info = index.binds_of(scope)
        return True

    def leave_def(self, node) -> None:
        self.stack.pop()
        self.info = self.index.binds_of(self.stack[-1])

    def lambda_body(self) -> bool:
        return True  # calls inside a lambda belong to the enclosing scope

    def visit_Call(self, node) -> None:
        super().visit_Call(node)
        scope = self.stack[-1]
        if not self.expect_raises:  # a test expecting SGLang to refuse: not a launch
            self.index.calls.append((node, scope))
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in MUTATORS and isinstance(func.value, ast.Name):
            self.effect(node, func.value.id)
        if isinstance(func, ast.Name):
            scope.callees.add(func.id)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                scope.self_name and func.value.id == scope.self_name:
            scope.callees.add(f"{scope.self_name}.{func.attr}")

    def visit_ImportFrom(self, node) -> None:
        super().visit_ImportFrom(node)
        self.index.import_names.update(alias.asname or alias.name for alias in node.names)
        for alias in node.names:
            if alias.name == "*":
                if not node.level and node.module is not None:
                    self.index.star_imports.append(node.module)
                return
            if alias.asname is not None:
                self.index.alias_names.add(alias.asname)

    def visit_Import(self, node) -> None:
        super().visit_Import(node)
        self.index.import_names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        for alias in node.names:
            if alias.asname is not None:
                self.index.alias_names.add(alias.asname)

    def visit_Assign(self, node) -> None:
        super().visit_Assign(node)
        if isinstance(node.value, ast.Name) or isinstance(node.value, ast.Attribute) and _of_a_module(node.value, self.index):
            for t in node.targets:
                self.index.alias_names.update(target_names(t))
                if isinstance(node.value, ast.Name):
                    self.index.import_names.update(target_names(t))


def _of_a_module(value: ast.Attribute, index) -> bool:
    """``value`` (``a.b.c``) may name a callable of a module — its first name is imported (or a module
    alias) — rather than an attribute of an object (``self.model``, ``cfg.path``): only then is the
    name it is assigned to an alias a call through it may launch by (``run = subprocess.run``)."""
    base = value
    while isinstance(base, ast.Attribute):
        base = base.value
    return not isinstance(base, ast.Name) or base.id in index.import_names
