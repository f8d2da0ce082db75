"""Values one function sets for another: a module global bound by ``global CMD`` in one function and
read in another, ``self.cmd`` bound by a method other than ``__init__`` and read in another method.

Whether the function that sets the value runs before the one that reads it is mostly not followed (a call
order is not a path of one function), so the value read is one path per function that may have set it
last — "`setup()` has run" — beside the value the module or the class and its ``__init__`` give it
("`setup()` has not run"): a launch built from it is found, each finding with its condition (issue
35: values along every path). One function that sets it: that function's value at its end; several:
each at its end, starting from what the module gives followed by words not known when every one only
extends it (another may have run before it), else from an unknown value. At most
``limits.MAX_PATH_VARIANTS`` paths; past them, the paths are joined. A module global that one function
sets, read in a function every call of which follows a call of that function in the same block
(``setup()`` then ``run()``), is what that function leaves: one path; a setter every call of which
comes after every call of the reader (``run()`` then ``setup()``, in blocks that run once) is never
seen by it: no path.
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import TYPE_CHECKING

from linter import limits
from linter.extract.python.values import NOTFOUND, Seq, Splat, Unk, choose, collapse, copy_value, join_values

if TYPE_CHECKING:
    from linter.extract.python.scopes import Scope
    from linter.source import Span


def _call_statements(module: ast.Module) -> tuple[dict, set]:
    """``{id(call): (its block, its index)}`` for each call that is a statement of its own
    (``run()``), in any block of ``module``; and the ids of the blocks inside a loop (of the function or
    the module that holds them: they may run more than once)."""
    out: dict = {}
    looped: set = set()
    todo: list = [(module, False)]
    while todo:
        node, in_loop = todo.pop()
        in_loop = in_loop or isinstance(node, (ast.For, ast.AsyncFor, ast.While))
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                if in_loop:
                    looped.add(id(block))
                for i, st in enumerate(block):
                    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                        out[id(st.value)] = (block, i)
        for child in ast.iter_child_nodes(node):
            todo.append((child, in_loop and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                     ast.ClassDef, ast.Lambda))))
    return out, looped


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


_EXTENDING = frozenset({"append", "extend"})


def only_extended_in_place(module: ast.Module, name: str) -> bool:
    """Every use of the module list ``name`` in the module's functions reads it or adds at its end
    (``name.append(…)``, ``name.extend(…)``, ``name += …``): whatever of them ran, the list starts
    with the words the module wrote (review rev38 e2: ``def setup(): CMD.append(…)`` made ``CMD``
    wholly unknown, and its launch was lost). False for any other change (``name.insert``,
    ``name[i] = …``, ``del name[i]``, ``name.sort()`` …, or an alias ``x = name`` that may make them)."""
    for fn in ast.walk(module):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        called = {id(n.func) for n in ast.walk(fn) if isinstance(n, ast.Call)}
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
                if node.attr in _EXTENDING and id(node) in called:
                    continue
                if node.attr not in _READING or not isinstance(node.ctx, ast.Load):
                    return False
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                    node.value.id == name and not isinstance(node.ctx, ast.Load):
                return False
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                    node.target.id == name and not isinstance(node.op, ast.Add):
                return False
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and \
                    isinstance(node.value, ast.Name) and node.value.id == name:
                return False  # an alias (``args = CMD``) may change it in any way: not followed
    return True


_READING = frozenset({"count", "index", "copy"})


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

    def global_read(self, name: str, base, where: Span | None, reader: Scope | None = None):
        """The module global ``name`` read in a function (``reader``, when known) that does not set it:
        ``base`` (its value at the module's end) or what each function that sets it leaves (see the
        module docstring) — only what the one function that sets it leaves when every call of the
        reader comes after a call of that function in the same block (``setup(); run()``)."""
        setters = [s for s in self.global_setters(name)
                   if reader is None or not self._only_after(self._only_calls(reader), self._only_calls(s))]
        if not setters:  # (none, or each runs only after every call of the reader)
            return base
        if len(setters) == 1 and reader is not None and self._always_after(reader, setters[0], name):
            v = self.final_frame(setters[0]).overrides.get(name, NOTFOUND)
            return base if v is NOTFOUND else copy_value(v)
        ends = []
        for s in setters:
            v = self.final_frame(s).overrides.get(name, NOTFOUND)
            ends.append((s, base if v is NOTFOUND else v))
        return self._paths_of(("global", name), base, ends, where)

    def _always_after(self, reader: Scope, setter: Scope, global_name: str) -> bool:
        """Every call of the module function ``reader`` (called only by its name: ``_only_calls``) is
        a statement of its own that follows, in the same block, a statement that calls ``setter``
        by name (``setup()`` then ``run()``, at the module's level or in a function), with nothing
        between them that binds ``global_name``."""
        calls = self._only_calls(reader)
        if not calls:
            return False
        blocks = self._statements()[0]
        name = setter.node.name
        for call in calls:
            got = blocks.get(id(call))
            if got is None:
                return False
            block, i = got
            j = next((j for j in range(i - 1, -1, -1) if isinstance(block[j], ast.Expr) and
                      isinstance(block[j].value, ast.Call) and isinstance(block[j].value.func, ast.Name)
                      and block[j].value.func.id == name), None)
            if j is None or any(isinstance(n, ast.Name) and n.id == global_name and not isinstance(n.ctx, ast.Load)
                                for st in block[j + 1:i] for n in ast.walk(st)):
                return False  # (no call of the setter before it, or the global rebound in between)
        return True

    def _statements(self) -> tuple[dict, set]:
        """:func:`_call_statements` of the module, once."""
        memo = self._params_memo
        got = memo.get("call statements")
        if got is None:
            got = memo["call statements"] = _call_statements(self.module)
        return got

    def _only_after(self, reads: list, sets: list, depth: int = 0) -> bool:
        """The calls ``sets`` (of a setter) all run after the calls ``reads`` (of the function that
        reads what it sets), which so never sees what the setter sets (``run(); setup()``): each call
        is a statement of its own, the blocks holding reads are the blocks holding sets, in each
        block every set comes after every read, and each block runs once (:meth:`_runs_once`).
        False when either list is empty."""
        if not reads or not sets:
            return False
        blocks, looped = self._statements()
        where = [blocks.get(id(c)) for c in reads + sets]
        if any(w is None for w in where):
            return False
        reads_at, sets_at = where[:len(reads)], where[len(reads):]
        last_read: dict = {}
        for block, i in reads_at:
            last_read[id(block)] = max(i, last_read.get(id(block), -1))
        if {id(block) for block, _ in sets_at} != set(last_read) or \
                any(i < last_read[id(block)] for block, i in sets_at):
            return False  # (a read in a block with no set, or a set before a read of its block)
        return all(self._runs_once(block, looped, depth) for block, _ in where)

    def _runs_once(self, block: list, looped: set, depth: int) -> bool:
        """The block runs at most once: not in a loop, and the module's or the body of a module function
        whose one call is a statement in a block that runs once (at most 3 levels)."""
        if id(block) in looped or depth > 3:
            return False
        if block is self.module.body:
            return True
        owner = next((s for s in self.index.scopes if s.kind == "function" and
                      self._holds(s.node, block)), None)
        if owner is None:  # a block of the module's own statements (an ``if __name__ == …`` body)
            return True
        calls = self._only_calls(owner)
        blocks = self._statements()[0]
        return len(calls) == 1 and id(calls[0]) in blocks and \
            self._runs_once(blocks[id(calls[0])][0], looped, depth + 1)

    @staticmethod
    def _holds(fn, block: list) -> bool:
        """``block`` is a block of the function ``fn``'s own code (not of a definition inside it)."""
        todo = [fn]
        while todo:
            node = todo.pop()
            for field in ("body", "orelse", "finalbody"):
                if getattr(node, field, None) is block:
                    return True
            todo.extend(n for n in ast.iter_child_nodes(node)
                        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)))
        return False

    def method_calls(self, scope: Scope) -> list:
        """The calls ``x.name()`` of the method ``scope`` (by its name), when the module reads no
        other attribute of that name; [] otherwise."""
        name = scope.node.name
        calls = [c for c, _ in self.index.calls if isinstance(c.func, ast.Attribute) and c.func.attr == name]
        memo = self._params_memo
        uses = memo.get("attrs")
        if uses is None:
            uses = memo["attrs"] = Counter(n.attr for n in ast.walk(self.module) if isinstance(n, ast.Attribute))
        return calls if uses[name] == len(calls) else []

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
        setters = [s for s in setters if not self._only_after(self.method_calls(scope), self.method_calls(s))]
        if not setters:  # each runs only after every call of the reader
            return base if base is not NOTFOUND else Unk(where)
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

