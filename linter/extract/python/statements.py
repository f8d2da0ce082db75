"""Simple statements: assignments, augmented assignments, ``del``, imports, and the calls that change
a list or dict in place (``cmd.append(x)``, ``kwargs.update(...)``).
"""

from __future__ import annotations

from linter.extract.python.frames import Frame
from linter.extract.python.names import HARMLESS, MUTATORS
from linter.extract.python.syntax import dotted, target_names
from linter.extract.python.values import Const, DictV, Entry, Ref, Seq, Splat, Str, Unk, Value


class Statements:
    """The effect of one simple statement on a frame. A mixin of
    :class:`~linter.extract.python.analysis.Analysis` (with :class:`Interpreter`)."""

    def exec_small(self, small, frame: Frame) -> None:
        cst = self.cst
        if isinstance(small, cst.Assign):
            value = self.ev(small.value, frame)
            v = small.value
            if isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value == "pop" and \
                    isinstance(v.func.value, cst.Name):  # x = cmd.pop() / kwargs.pop("k", None)
                self.header_effects(small, frame, skip=v)
                self.call_effects(v, frame)
            else:
                self.header_effects(small, frame)
            for t in small.targets:
                self.assign(t.target, value, frame)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                value = self.ev(small.value, frame)
                self.header_effects(small, frame)
                self.assign(small.target, value, frame)
        elif isinstance(small, cst.AugAssign):
            self.header_effects(small, frame)
            self.aug_assign(small, frame)
        elif isinstance(small, cst.Expr):
            value = small.value
            if isinstance(value, cst.Await):
                value = value.expression
            if isinstance(value, cst.Call):
                self.header_effects(small, frame, skip=value)
                self.call_effects(value, frame)
            else:
                self.header_effects(small, frame)
        elif isinstance(small, cst.Import):
            for alias in small.names:
                full = dotted(alias.name)
                if alias.asname is not None:
                    frame.bind(alias.asname.name.value, Ref(full))
                else:
                    top = full.split(".")[0]
                    frame.bind(top, Ref(top))
        elif isinstance(small, cst.ImportFrom):
            if isinstance(small.names, cst.ImportStar):
                return
            if small.relative:  # ``from .x import NAME``: resolved from this file's package, if at all
                dots = "." * len(small.relative)
                mod = dots + (dotted(small.module) if small.module is not None else "")
                for alias in small.names:
                    orig = dotted(alias.name)
                    name = alias.asname.name.value if alias.asname is not None else orig
                    sep = "." if small.module is not None else ""
                    frame.bind(name, Ref(f"{mod}{sep}{orig}", self.source.path))
                return
            mod = dotted(small.module)
            for alias in small.names:
                orig = dotted(alias.name)
                name = alias.asname.name.value if alias.asname is not None else orig
                frame.bind(name, Ref(f"{mod}.{orig}"))
        elif isinstance(small, cst.Del):
            for t in (small.target.elements if isinstance(small.target, cst.Tuple) else [small.target]):
                t = t.value if isinstance(t, cst.BaseElement) else t
                if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name):
                    self.del_item(t, frame)
                for name in target_names(cst, t):
                    frame.bind(name, Unk(self.span(small)))
        else:
            self.header_effects(small, frame)  # return, assert …

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
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, self.cst.Index):
            return target.slice[0].slice.value
        return None

    def del_item(self, target, frame: Frame) -> None:
        name = target.value.value
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
        frame.rebind_mutated(name, Unk(self.span(target)))

    def assign(self, target, value: Value, frame: Frame) -> None:
        cst = self.cst
        if isinstance(target, cst.Name):
            frame.bind(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = list(target.elements)
            if isinstance(value, Seq) and len(value.items) == len(elements) and \
                    not any(isinstance(i, Splat) for i in value.items) and \
                    not any(isinstance(e, cst.StarredElement) for e in elements):
                for e, item in zip(elements, value.items):
                    self.assign(e.value, item, frame)
            else:
                for name in target_names(cst, target):
                    frame.bind(name, Unk(self.span(target)))
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            name = target.value.value
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
            frame.rebind_mutated(name, Unk(self.span(target)))
        elif isinstance(target, cst.StarredElement):
            self.assign(target.value, Unk(self.span(target)), frame)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and \
                target.value.value == frame.scope.self_name and target.value.value not in frame.vars:
            # ``cls.model = …`` in a method: read back as such later in the same method
            frame.bind(f"{target.value.value}.{target.attr.value}", value)

    def aug_assign(self, node, frame: Frame) -> None:
        cst = self.cst
        if not isinstance(node.target, cst.Name):
            return
        name = node.target.value
        where = self.span(node)
        cur = frame.own(frame.lookup(name, where))
        val = self.ev(node.value, frame)
        if isinstance(node.operator, cst.AddAssign):
            if isinstance(cur, Seq) and cur.kind == "list":
                if isinstance(val, Seq):
                    cur.items.extend(val.items)
                else:
                    cur.items.append(Splat(self.span(node.value)))
                frame.rebind_mutated(name, cur)
                return
            frame.bind(name, self.add(cur, val, where))
            return
        if isinstance(node.operator, cst.BitOrAssign) and isinstance(cur, DictV):
            cur.merge(val)
            frame.rebind_mutated(name, cur)
            return
        frame.rebind_mutated(name, Unk(where))

    def call_effects(self, call, frame: Frame) -> None:
        """Effects of a call statement on the names it mutates (``cmd.append(x)`` …)."""
        cst = self.cst
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            name = func.value.value
            method = func.attr.value
            if method in MUTATORS:
                cur = frame.own(frame.lookup(name, None))
                args = [a for a in call.args if a.keyword is None and not a.star]
                new: Value = Unk(self.span(call))
                if isinstance(cur, Seq) and cur.kind == "list":
                    if method == "append" and len(args) == 1 and len(call.args) == 1:
                        cur.items.append(self.ev(args[0].value, frame))
                        new = cur
                    elif method == "extend" and len(args) == 1 and len(call.args) == 1:
                        v = self.ev(args[0].value, frame)
                        if isinstance(v, Seq):
                            cur.items.extend(v.items)
                        else:
                            cur.items.append(Splat(self.span(args[0].value)))
                        new = cur
                    elif method == "pop" and len(args) == len(call.args) <= 1:
                        k = self._list_index(cur, args[0].value, frame) if args else \
                            (len(cur.items) - 1 if cur.items and not isinstance(cur.items[-1], Splat) else None)
                        if k is not None:
                            del cur.items[k]
                            new = cur
                    elif method == "insert" and len(args) == 2 and len(call.args) == 2:
                        idx = self.ev(args[0].value, frame)
                        if isinstance(idx, Const) and type(idx.value) is int and (
                                0 <= idx.value <= len(cur.items) and
                                not any(isinstance(i, Splat) for i in cur.items[:idx.value])
                                or not any(isinstance(i, Splat) for i in cur.items)):
                            cur.items.insert(idx.value, self.ev(args[1].value, frame))
                            new = cur
                elif isinstance(cur, DictV) and method == "pop" and 1 <= len(args) == len(call.args) <= 2:
                    key = self.ev(args[0].value, frame)
                    if isinstance(key, Str) and key.m.known:  # gone, whether it was there or not
                        cur.entries = [e for e in cur.entries if e.key != key.m.text]
                        new = cur
                elif isinstance(cur, DictV) and method == "update":
                    new = cur
                    for a in call.args:
                        if a.keyword is not None:
                            cur.set(self._kw_entry(a, frame))
                        elif a.star == "*":
                            cur.merge(None)
                        else:
                            cur.merge(self.ev(a.value, frame))
                elif isinstance(cur, Unk) and method in ("append", "extend") and len(call.args) == 1:
                    # an unknown list grown by known items: unknown items first, then these
                    items: list = [Splat(cur.where)]
                    if method == "append":
                        items.append(self.ev(args[0].value, frame) if args else Unk(None))
                    else:
                        v = self.ev(args[0].value, frame) if args else Unk(None)
                        items.extend(v.items if isinstance(v, Seq) else [Splat(self.span(call))])
                    new = Seq(items)
                frame.rebind_mutated(name, new)
                return
        callee = self.ev(func, frame)
        harmless = isinstance(callee, Ref) or (isinstance(func, cst.Attribute) and func.attr.value in HARMLESS) \
            or (isinstance(func, cst.Name) and func.value in HARMLESS)
        if not harmless:
            for a in call.args:
                if isinstance(a.value, cst.Name):
                    cur = frame.lookup(a.value.value, None)
                    if isinstance(cur, (DictV,)) or (isinstance(cur, Seq) and cur.kind == "list"):
                        frame.rebind_mutated(a.value.value, Unk(self.span(a.value)))
