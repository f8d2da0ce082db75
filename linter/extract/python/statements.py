"""Simple statements: assignments, augmented assignments, ``del``, imports, and the calls that change
a list or dict in place (``cmd.append(x)``, ``kwargs.update(...)``).
"""

from __future__ import annotations

import ast

from linter.extract.python.frames import Frame
from linter.extract.python.lists import lost_list, removed, slice_bounds
from linter.extract.python.names import HARMLESS, MUTATORS
from linter.extract.python.syntax import call_args, target_names
from linter.extract.python.values import Const, DataInstance, DictV, Entry, Ref, Seq, Splat, Str, Unk, Value


class Statements:
    """The effect of one simple statement on a frame. A mixin of
    :class:`~linter.extract.python.analysis.Analysis` (with :class:`Interpreter`)."""

    def exec_small(self, small, frame: Frame) -> None:
        """The effect of simple statement ``small`` on ``frame``: one step per kind of statement
        (:data:`_SMALL_STEPS`); any other (``return``, ``assert`` …) only runs what its expressions
        do (:meth:`header_effects`)."""
        step = _SMALL_STEPS.get(type(small))
        if step is None:
            self.header_effects(small, frame)
        else:
            getattr(self, step)(small, frame)

    def _exec_assign(self, small: ast.Assign, frame: Frame) -> None:
        value = self.ev(small.value, frame)
        v = small.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "pop" and \
                isinstance(v.func.value, ast.Name):  # x = cmd.pop() / kwargs.pop("k", None)
            self.header_effects(small, frame, skip=v)
            self.call_effects(v, frame)
        else:
            self.header_effects(small, frame)
        for t in small.targets:
            self.assign(t, value, frame)

    def _exec_ann_assign(self, small: ast.AnnAssign, frame: Frame) -> None:
        if small.value is not None:
            value = self.ev(small.value, frame)
            self.header_effects(small, frame)
            self.assign(small.target, value, frame)

    def _exec_aug_assign(self, small: ast.AugAssign, frame: Frame) -> None:
        self.header_effects(small, frame)
        self.aug_assign(small, frame)

    def _exec_expr(self, small: ast.Expr, frame: Frame) -> None:
        value = small.value
        if isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.Call):
            self.header_effects(small, frame, skip=value)
            self.call_effects(value, frame)
        else:
            self.header_effects(small, frame)

    def _exec_import(self, small: ast.Import, frame: Frame) -> None:
        at = self.span(small)
        for alias in small.names:
            full = alias.name
            if alias.asname is not None:
                frame.bind(alias.asname, Ref(full, None, at))
            else:
                top = full.split(".")[0]
                frame.bind(top, Ref(top, None, at))

    def _exec_import_from(self, small: ast.ImportFrom, frame: Frame) -> None:
        if any(alias.name == "*" for alias in small.names):
            return
        at = self.span(small)
        if small.level:  # ``from .x import NAME``: resolved from this file's package, if at all
            mod = "." * small.level + (small.module or "")
            sep = "." if small.module is not None else ""
            for alias in small.names:
                name = alias.asname if alias.asname is not None else alias.name
                frame.bind(name, Ref(f"{mod}{sep}{alias.name}", self.source.path, at))
            return
        for alias in small.names:
            name = alias.asname if alias.asname is not None else alias.name
            frame.bind(name, Ref(f"{small.module}.{alias.name}", None, at))

    def _exec_delete(self, small: ast.Delete, frame: Frame) -> None:
        targets = small.targets
        if len(targets) == 1 and isinstance(targets[0], ast.Tuple):  # ``del (a, b)`` is ``del a, b``
            targets = targets[0].elts
        for t in targets:
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                self.del_item(t, frame)
            for name in target_names(t):
                frame.bind(name, Unk(self.span(small)))

    def _list_index(self, seq: Seq, node, frame: Frame) -> int | None:
        """The position ``seq[node]`` names, when it is known: an int within a list whose words
        up to there (from the start, or from the end for a negative index) are all known words."""
        idx = self.ev(node, frame)
        if not (isinstance(idx, Const) and type(idx.value) is int):
            return None
        k = idx.value + len(seq.items) if idx.value < 0 else idx.value
        if not 0 <= k < len(seq.items):
            return None
        around = seq.items[k:] if idx.value < 0 else seq.items[:k + 1]
        return None if any(isinstance(i, Splat) for i in around) else k

    def _subscript_index(self, target) -> object | None:
        """The index node of ``x[i]`` (one plain index, no slice)."""
        index = target.slice
        if isinstance(index, ast.Slice):
            return None
        if isinstance(index, ast.Tuple) and not self.source.text.startswith("(", self.offsets(index)[0]):
            return None  # ``x[a, b]``: two subscripts, not a tuple
        return index

    def del_item(self, target, frame: Frame) -> None:
        name = target.value.id
        cur = frame.own(frame.lookup(name, None))
        node = self._subscript_index(target)
        if isinstance(cur, Seq) and cur.kind == "list" and node is not None:
            k = self._list_index(cur, node, frame)
            if k is not None:
                del cur.items[k]
                frame.rebind_mutated(name, cur)
                return
        if isinstance(cur, DictV) and node is not None:
            key = self.ev(node, frame)
            if isinstance(key, Str) and key.m.known and not cur.open:
                cur.entries = [e for e in cur.entries if e.key != key.m.text]
                frame.rebind_mutated(name, cur)
                return
        frame.rebind_mutated(name, self._not_followed(cur, target))

    def _not_followed(self, cur: Value, node) -> Value:
        """What ``cur`` is after the change ``node`` makes to it in place and the analysis does not
        follow: a list keeps its entry point (:func:`~.lists.lost_list`), anything else is unknown."""
        if isinstance(cur, Seq) and cur.kind == "list":
            return lost_list(cur.items, self.span(node))
        return Unk(self.span(node))

    def assign(self, target, value: Value, frame: Frame) -> None:
        if isinstance(target, ast.Name):
            frame.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elements = target.elts
            if isinstance(value, Seq) and len(value.items) == len(elements) and \
                    not any(isinstance(i, Splat) for i in value.items) and \
                    not any(isinstance(e, ast.Starred) for e in elements):
                for e, item in zip(elements, value.items):
                    self.assign(e, item, frame)
            else:
                for name in target_names(target):
                    frame.bind(name, Unk(self.span(target)))
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            self._assign_item(target, value, frame)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, Unk(self.span(target)), frame)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                target.value.id == frame.scope.self_name and target.value.id not in frame.vars:
            # ``cls.model = …`` in a method: read back as such later in the same method
            frame.bind(f"{target.value.id}.{target.attr}", value)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            self._set_field(target, value, frame)

    def _assign_item(self, target: ast.Subscript, value: Value, frame: Frame) -> None:
        """``x[k] = value`` (a dict key, a list index or slice): in place where it is known."""
        name = target.value.id
        cur = frame.own(frame.lookup(name, None))
        node = self._subscript_index(target)
        if isinstance(cur, DictV) and node is not None:
            key = self.ev(node, frame)
            if isinstance(key, Str) and key.m.known:
                cur.set(Entry(key.m.text, value, self.span(target), key.m.span_of(), None))
            else:  # a key not known: it may replace any value
                cur.merge(None)
            frame.rebind_mutated(name, cur)
            return
        if isinstance(cur, Seq) and cur.kind == "list" and node is not None:
            k = self._list_index(cur, node, frame)
            if k is not None:
                cur.items[k] = value
                frame.rebind_mutated(name, cur)
                return
        if isinstance(cur, Seq) and cur.kind == "list" and self._assign_slice(cur, target.slice, value, frame):
            frame.rebind_mutated(name, cur)
            return
        frame.rebind_mutated(name, self._not_followed(cur, target))

    def _assign_slice(self, cur: Seq, index, value: Value, frame: Frame) -> bool:
        """``cur[a:b] = [...]`` with known bounds (:func:`~.lists.slice_bounds`) and a known list:
        done in place, True; False when it is not followed."""
        if not (isinstance(index, ast.Slice) and index.step is None and isinstance(value, Seq)):
            return False
        bounds = slice_bounds(cur.items, *(None if b is None else self.ev(b, frame) for b in (index.lower, index.upper)))
        if bounds is None:
            return False
        cur.items[bounds[0]:bounds[1]] = value.items
        return True

    def _set_field(self, target: ast.Attribute, value: Value, frame: Frame) -> None:
        """``args.x = …`` on a dataclass instance the file built (:class:`DataInstance`): read back as such."""
        name = target.value.id
        cur = frame.lookup(name, None)
        if isinstance(cur, DataInstance):
            frame.bind(name, DataInstance(cur.qual, {**cur.fields, target.attr: value}))

    def aug_assign(self, node, frame: Frame) -> None:
        if self._self_attr(node.target, frame):
            self._aug_assign_attr(node, frame)
            return
        if isinstance(node.target, ast.Attribute) and isinstance(node.target.value, ast.Name):
            self._set_field(node.target, Unk(self.span(node)), frame)  # (``args.n += 1``: not followed)
        if not isinstance(node.target, ast.Name):
            return
        name = node.target.id
        where = self.span(node)
        cur = frame.own(frame.lookup(name, where))
        val = self.ev(node.value, frame)
        if isinstance(node.op, ast.Add):
            if isinstance(cur, Seq) and cur.kind == "list":
                if isinstance(val, Seq) and not self.budget.charge(len(cur.items) + len(val.items), "a Python list",
                                                                   where):
                    frame.rebind_mutated(name, Unk(where))  # counted before it is built: past the budget
                    return
                if isinstance(val, Seq):
                    cur.items.extend(val.items)
                else:
                    cur.items.append(Splat(self.span(node.value)))
                frame.rebind_mutated(name, cur)
                return
            frame.bind(name, self.add(cur, val, where))
            return
        if isinstance(node.op, ast.BitOr) and isinstance(cur, DictV):
            cur.merge(val)
            frame.rebind_mutated(name, cur)
            return
        frame.rebind_mutated(name, self._not_followed(cur, node))

    @staticmethod
    def _self_attr(target, frame: Frame) -> bool:
        """``target`` is ``self.x`` (or ``cls.x``) in a method whose ``self`` is not rebound."""
        return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
            target.value.id == frame.scope.self_name and target.value.id not in frame.vars

    def _aug_assign_attr(self, node, frame: Frame) -> None:
        """``self.cmd += [...]`` (``+`` only): read back as such later in the same method, and at the
        end of ``__init__`` by the other methods; any other operator leaves it unknown."""
        where = self.span(node)
        name = f"{node.target.value.id}.{node.target.attr}"
        if not isinstance(node.op, ast.Add):
            frame.bind(name, Unk(where))
            return
        cur = self.attribute(node.target, frame)
        val = self.ev(node.value, frame)
        if isinstance(cur, Seq) and cur.kind == "list":
            if isinstance(val, Seq) and not self.budget.charge(len(cur.items) + len(val.items), "a Python list",
                                                               where):
                frame.bind(name, Unk(where))
                return
            items = cur.items + (val.items if isinstance(val, Seq) else [Splat(self.span(node.value))])
            frame.bind(name, Seq(items))
            return
        frame.bind(name, self.add(cur, val, where))

    def call_effects(self, call, frame: Frame) -> None:
        """Effects of a call statement on the names it mutates (``cmd.append(x)`` …)."""
        func = call.func
        all_args = call_args(call)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in MUTATORS:
            name = func.value.id
            cur = frame.own(frame.lookup(name, None))
            frame.rebind_mutated(name, self._mutated(cur, func.attr, call, all_args, frame))
            return
        if isinstance(func, ast.Attribute) and func.attr in ("append", "extend") and self._self_attr(func.value, frame):
            self._grow_attr(func.value, func.attr, call, all_args, frame)
            return
        self._passed_effects(call, all_args, frame)

    def _grow_attr(self, target: ast.Attribute, method: str, call, all_args: list, frame: Frame) -> None:
        """``self.cmd.append(x)`` / ``self.cmd.extend(xs)``: read back as a new list later in the same
        method, and at the end of ``__init__`` by the other methods (as ``self.cmd += …``)."""
        name = f"{target.value.id}.{target.attr}"
        cur = self.attribute(target, frame)
        if not (isinstance(cur, Seq) and cur.kind == "list" and len(all_args) == 1
                and all_args[0].keyword is None and not all_args[0].star):
            frame.bind(name, Unk(self.span(call)))
            return
        grown = self._mutated(Seq(list(cur.items)), method, call, all_args, frame)
        frame.bind(name, grown)

    def _mutated(self, cur: Value, method: str, call, all_args: list, frame: Frame) -> Value:
        """``cur`` after ``name.method(...)`` (a method of :data:`MUTATORS`): the list or dict changed
        in place where the call is understood (:data:`_LIST_MUTATIONS`, :data:`_DICT_MUTATIONS`), an
        unknown list grown by known items, else unknown."""
        args = [a for a in all_args if a.keyword is None and not a.star]
        step = None
        if isinstance(cur, Seq) and cur.kind == "list":
            step = _LIST_MUTATIONS.get(method)
        elif isinstance(cur, DictV):
            step = _DICT_MUTATIONS.get(method)
        elif isinstance(cur, Unk) and method in ("append", "extend") and len(all_args) == 1:
            step = "_unknown_grown"
        got = getattr(self, step)(cur, method, call, args, all_args, frame) if step is not None else None
        return got if got is not None else self._not_followed(cur, call)

    def _list_append(self, cur: Seq, method, call, args, all_args, frame: Frame) -> Value | None:
        if len(args) == 1 and len(all_args) == 1:
            cur.items.append(self.ev(args[0].value, frame))
            return cur
        return None

    def _list_extend(self, cur: Seq, method, call, args, all_args, frame: Frame) -> Value | None:
        if not (len(args) == 1 and len(all_args) == 1):
            return None
        v = self.ev(args[0].value, frame)
        if isinstance(v, Seq) and not self.budget.charge(len(cur.items) + len(v.items), "a Python list",
                                                         self.span(call)):
            return None  # past the budget: the list is unknown
        if isinstance(v, Seq):
            cur.items.extend(v.items)
        else:
            cur.items.append(Splat(self.span(args[0].value)))
        return cur

    def _list_pop(self, cur: Seq, method, call, args, all_args, frame: Frame) -> Value | None:
        if not len(args) == len(all_args) <= 1:
            return None
        k = self._list_index(cur, args[0].value, frame) if args else \
            (len(cur.items) - 1 if cur.items and not isinstance(cur.items[-1], Splat) else None)
        if k is None:
            return None
        del cur.items[k]
        return cur

    def _list_remove(self, cur: Seq, method, call, args, all_args, frame: Frame) -> Value | None:
        if not (len(args) == 1 and len(all_args) == 1):
            return None
        kept = removed(cur.items, self.ev(args[0].value, frame))
        if kept is None:
            return None
        cur.items[:] = kept
        return cur

    def _list_clear(self, cur: Seq, method, call, args, all_args, frame: Frame) -> Value | None:
        if all_args:
            return None
        cur.items.clear()
        return cur

    def _list_insert(self, cur: Seq, method, call, args, all_args, frame: Frame) -> Value | None:
        if not (len(args) == 2 and len(all_args) == 2):
            return None
        idx = self.ev(args[0].value, frame)
        if isinstance(idx, Const) and type(idx.value) is int and (
                0 <= idx.value <= len(cur.items) and
                not any(isinstance(i, Splat) for i in cur.items[:idx.value])
                or not any(isinstance(i, Splat) for i in cur.items)):
            cur.items.insert(idx.value, self.ev(args[1].value, frame))
            return cur
        return None

    def _dict_pop(self, cur: DictV, method, call, args, all_args, frame: Frame) -> Value | None:
        if not 1 <= len(args) == len(all_args) <= 2:
            return None
        key = self.ev(args[0].value, frame)
        if isinstance(key, Str) and key.m.known:  # gone, whether it was there or not
            cur.entries = [e for e in cur.entries if e.key != key.m.text]
            return cur
        return None

    def _dict_update(self, cur: DictV, method, call, args, all_args, frame: Frame) -> Value | None:
        for a in all_args:
            if a.keyword is not None:
                cur.set(self._kw_entry(a, frame))
            elif a.star == "*":
                cur.merge(None)
            else:
                cur.merge(self.ev(a.value, frame))
        return cur

    def _unknown_grown(self, cur: Unk, method, call, args, all_args, frame: Frame) -> Value:
        """An unknown list grown by known items: unknown items first, then these."""
        items: list = [Splat(cur.where)]
        if method == "append":
            items.append(self.ev(args[0].value, frame) if args else Unk(None))
        else:
            v = self.ev(args[0].value, frame) if args else Unk(None)
            items.extend(v.items if isinstance(v, Seq) else [Splat(self.span(call))])
        return Seq(items)

    def _passed_effects(self, call, all_args: list, frame: Frame) -> None:
        """A call that is not a known mutation: a list or dict it is handed by name may be changed by
        it (unknown from here), unless the callee is imported or harmless (:data:`HARMLESS`)."""
        func = call.func
        callee = self.ev(func, frame)
        harmless = isinstance(callee, Ref) or (isinstance(func, ast.Attribute) and func.attr in HARMLESS) \
            or (isinstance(func, ast.Name) and func.id in HARMLESS)
        if not harmless:
            for a in all_args:
                if isinstance(a.value, ast.Name):
                    cur = frame.lookup(a.value.id, None)
                    if isinstance(cur, (DictV,)) or (isinstance(cur, Seq) and cur.kind == "list"):
                        frame.rebind_mutated(a.value.id, Unk(self.span(a.value)))


_SMALL_STEPS = {ast.Assign: "_exec_assign", ast.AnnAssign: "_exec_ann_assign", ast.AugAssign: "_exec_aug_assign",
                ast.Expr: "_exec_expr", ast.Import: "_exec_import", ast.ImportFrom: "_exec_import_from",
                ast.Delete: "_exec_delete"}
"""The step of :meth:`Statements.exec_small` per kind of simple statement."""
_LIST_MUTATIONS = {"append": "_list_append", "extend": "_list_extend", "pop": "_list_pop", "insert": "_list_insert",
                   "remove": "_list_remove", "clear": "_list_clear"}
"""The step of :meth:`Statements._mutated` per list method it understands (each: the list, or None)."""
_DICT_MUTATIONS = {"pop": "_dict_pop", "update": "_dict_update"}
"""The step of :meth:`Statements._mutated` per dict method it understands."""
