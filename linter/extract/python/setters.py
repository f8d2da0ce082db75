"""Values one function sets for another: a module global bound by ``global CMD`` in one function and
read in another, ``self.cmd`` bound by a method other than ``__init__`` and read in another method.

Whether the function that sets the value runs before the one that reads it is not followed (a call
order is not a path of one function), so the value read is one path per function that may have set it
last — "`setup()` has run" — beside the value the module or the class and its ``__init__`` give it
("`setup()` has not run"): a launch built from it is found, each finding with its condition (issue
35: values along every path). One function that sets it: that function's value at its end; several:
each at its end, starting from an unknown value where it reads what it extends (another may have run
before it). At most ``limits.MAX_PATH_VARIANTS`` paths; past them, the paths are joined.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from linter import limits
from linter.extract.python.values import NOTFOUND, Seq, Splat, Unk, choose, collapse, copy_value, join_values

if TYPE_CHECKING:
    from linter.extract.python.scopes import Scope
    from linter.source import Span


def _is_target(node, name: str, attr: str | None) -> bool:
    """``node`` is the name ``name`` (``attr`` None) or the attribute ``name.attr``."""
    if attr is None:
        return isinstance(node, ast.Name) and node.id == name
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) \
        and node.value.id == name


def only_extends(fn, name: str, attr: str | None = None) -> bool:
    """Every binding of ``name`` (or ``name.attr``) in the function ``fn``'s own code extends what it
    held (``X = X + [...]``, ``X += [...]``): whatever ran before, it ends with those words added."""
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_is_target(t, name, attr) for t in targets):
                left = node.value
                while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add):
                    left = left.left
                if left is node.value or not _is_target(left, name, attr):
                    return False
            elif any(isinstance(t, (ast.Tuple, ast.List, ast.Starred)) for t in targets):
                return False  # (unpacked into it, perhaps)
        elif isinstance(node, ast.AugAssign) and _is_target(node.target, name, attr) and \
                not isinstance(node.op, ast.Add):
            return False
        todo.extend(ast.iter_child_nodes(node))
    return True


class LateSetters:
    """A mixin of :class:`~linter.extract.python.analysis.Analysis` (it reads the analysis' frames)."""

    def global_setters(self, name: str) -> list:
        """The functions of the module that bind the module name ``name`` through ``global name``."""
        memo = self._params_memo
        key = ("global setters", name)
        got = memo.get(key)
        if got is None:
            got = memo[key] = [s for s in self.index.scopes if s.kind == "function" and name in s.globals
                               and name in self.index.binds_of(s).bound]
        return got

    def global_read(self, name: str, base, where: Span | None):
        """The module global ``name`` read in a function that does not set it: ``base`` (its value at
        the module's end) or what each function that sets it leaves (see the module docstring)."""
        setters = self.global_setters(name)
        if not setters:
            return base
        ends = []
        for s in setters:
            v = self.final_frame(s).overrides.get(name, NOTFOUND)
            ends.append((s, base if v is NOTFOUND else v))
        return self._paths_of(("global", name), base, ends, where)

    def attr_read(self, frame, attr: str, where: Span | None):
        """``self.attr`` read in a method of the class ``cls`` that defines it, when methods of that
        class other than ``__init__`` bind it (``scopes.ModuleIndex.method_attrs``); None otherwise
        (the attribute is read as before). In one of those methods, before it binds it: the value
        ``__init__`` leaves (or the class attribute), unknown when another method may have run first;
        in any other method, a value per path (see the module docstring)."""
        scope = frame.scope
        cls = scope.parent
        key = (id(cls), attr)
        setters = self.index.method_attrs.get(key)
        if not setters or self._other_inits(cls, frame.self_class):
            return None
        init = self.index.init_binds.get(key)
        if init is scope:  # read in ``__init__`` before it binds it: the class attribute
            return self._class_level(cls, attr)
        base = self._after_init(init, attr, frame.self_class) if init is not None else self._class_level(cls, attr)
        if any(s is scope for s in setters):
            return self.setter_start(setters, base, f"{scope.self_name}.{attr}", where)
        reading = self._params_memo.setdefault("late attrs", set())
        if key in reading:  # (a setter that reads it through a call back into a reader)
            return Unk(where)
        reading.add(key)
        try:
            ends = []
            for s in setters:
                end = self.frame_before(s, self.offsets(s.node)[1], frame.self_class)
                v = end.overrides.get(f"{s.self_name}.{attr}", NOTFOUND)
                ends.append((s, base if v is NOTFOUND else copy_value(v)))
            return self._paths_of(("attr", key), base, ends, where)
        finally:
            reading.discard(key)

    def setter_start(self, setters: list, base, key: str, where: Span | None):
        """What a function among ``setters`` (those that set the module global or ``self``
        attribute ``key``, ``"self.cmd"``) reads before it sets it: ``base`` when it is the only one;
        else, when every setter only extends it (:func:`only_extends`), ``base`` then words not known
        (what the others that ran before it added); else unknown."""
        if len(setters) == 1:
            return base
        name, _, attr = key.partition(".")
        memo = self._params_memo
        extends = memo.get(("extends", key, id(setters)))
        if extends is None:  # (``setters`` is the list kept for that name: its id stays its own)
            extends = memo[("extends", key, id(setters))] = all(
                only_extends(s.node, s.self_name if attr else name, attr or None) for s in setters)
        if isinstance(base, Seq) and extends:
            return Seq(list(base.items) + [Splat(where)], base.kind)
        return Unk(where)

    def _other_inits(self, cls, self_class) -> bool:
        """A class other than ``cls`` runs its own ``__init__`` for the instance (a subclass of this
        module, or a base of ``cls``): what it binds is not followed here."""
        if any(k is not cls and self._inherits(k, cls) and "__init__" in self.index.locals_of(k)
               for k in self.index.classes):
            return True
        concrete = self_class if self_class is not None else cls
        return any(c is not cls and "__init__" in c.owner.index.locals_of(c) for c in self.mro(concrete))

    def _class_level(self, cls, attr: str):
        """The class attribute ``attr`` of ``cls`` as its body (or a base's) binds it; NOTFOUND: none."""
        v = self.final_frame(cls).vars.get(attr, NOTFOUND)
        if v is not NOTFOUND:
            return copy_value(v)
        for base in self.mro(cls)[1:]:
            if attr in base.owner.index.locals_of(base):
                return base.owner.class_attr(base, attr, None, virtual=False)
        return NOTFOUND

    def _after_init(self, init, attr: str, self_class):
        end = self.frame_before(init, self.offsets(init.node)[1], self_class)
        return copy_value(end.overrides.get(f"{init.self_name}.{attr}", Unk(None)))

    def _paths_of(self, decision: tuple, base, ends: list, where: Span | None):
        """``base`` when no setter has run, else each setter's value at its end (``ends``: ``[(function
        scope, value)]``), a value per path (a join past the cap; unknown where nothing is known)."""
        names = [f"`{s.node.name}()`" for s, _ in ends]
        pairs = []
        if base is not NOTFOUND:
            none = f"{names[0]} has not run" if len(names) == 1 else "none of " + ", ".join(names) + " has run"
            pairs.append((((decision, 0, none),), base))
        for k, (_, v) in enumerate(ends):
            label = f"{names[k]} has run" if len(ends) == 1 else f"{names[k]} ran last"
            pairs.append((((decision, k + 1, label),), v))
        got = choose(pairs, limits.MAX_PATH_VARIANTS)
        if got is not None:
            return got
        memo: dict = {}
        acc = collapse(pairs[0][1], where, memo)
        for _, v in pairs[1:]:
            acc = join_values(acc, collapse(v, where, memo), where, memo)
        return copy_value(acc) if acc is not NOTFOUND else Unk(where)

