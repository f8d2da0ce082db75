"""Frames: the names of one scope at one point of its execution, and the lookups across scopes.

A :class:`Frame` holds what the analysis knows of a scope's names; :class:`FrameLookups` (a part of
:class:`~linter.extract.python.analysis.Analysis`) gives the frame of a scope before a given offset
or at its end, and looks names up through enclosing scopes and class bases.
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import TYPE_CHECKING

from linter import limits
from linter.extract.python.callgraph import call_cycles, shortest_cycle
from linter.extract.python.dataclass_values import UNKNOWN, InstanceConst, instance_const, module_classes
from linter.extract.python.syntax import guards_of
from linter.extract.python.values import (
    NOTFOUND,
    ClassV,
    Const,
    DataInstance,
    DictV,
    FuncV,
    Seq,
    Splat,
    Unk,
    Value,
    copy_value,
    same,
)
from linter.source import Span

if TYPE_CHECKING:
    from linter.extract.python.base import Analysed
    from linter.extract.python.scopes import Scope


_NOT_CONST = object()
"""A parameter some call gives no literal constant (or another one than the other calls)."""


def _agree(seen, value):
    """The ``(constant, node)`` a parameter has at every call so far, ``seen`` at the calls before
    (None: no call yet) and ``value`` the node this call gives it (None: none); ``_NOT_CONST``
    once a call gives no literal constant or another one."""
    const = value.value if isinstance(value, ast.Constant) and not isinstance(value.value, bytes) else _NOT_CONST
    if seen is _NOT_CONST or const is _NOT_CONST:
        return _NOT_CONST
    if seen is None:
        return const, value
    return seen if type(seen[0]) is type(const) and seen[0] == const else _NOT_CONST


def _blocks(node) -> list[list]:
    """The statement lists of ``node``'s own code (its body and every block inside it, not inside a
    definition)."""
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        for field in ("body", "orelse", "finalbody"):
            block = getattr(n, field, None)
            if isinstance(block, list):
                out.append(block)
        todo.extend(c for c in ast.iter_child_nodes(n)
                    if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)))
    return out


def _same_const(a, b) -> bool:
    """Two literal constants are the same value of the same type (``1`` is not ``True``)."""
    return type(a) is type(b) and a == b


def _read_not_passed_on(fn) -> set[str]:
    """The names the function ``fn`` reads other than as a whole argument of a call (a test, a
    value it builds, a subscript …), outside the functions and classes inside it."""
    passed: set[int] = set()
    out: set[str] = set()
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call):
            passed.update(id(a) for a in node.args if isinstance(a, ast.Name))
            passed.update(id(k.value) for k in node.keywords if isinstance(k.value, ast.Name))
        elif isinstance(node, ast.Name) and id(node) not in passed:
            out.add(node.id)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _sets_constant(st, fields: list) -> bool:
    """``st`` is ``x.f = <literal constant>`` for one of the attribute nodes ``fields``."""
    return isinstance(st, ast.Assign) and len(st.targets) == 1 and st.targets[0] in fields and \
        isinstance(st.value, ast.Constant)


def _given_fields(sets: list, pick: int | None) -> dict:
    """``{field: node}`` the statements ``sets`` (:meth:`FrameLookups._field_sets`) give, in order:
    a constant's node; in an ``if``, its body's (``pick`` 0) or its ``else``'s (1), or with ``pick``
    None the attribute's own node (a value not known)."""
    given: dict = {}
    for st in sets:
        if not isinstance(st, ast.If):
            given[st.targets[0].attr] = st.value
        elif pick is None:
            given.update((x.targets[0].attr, x.targets[0]) for x in st.body + st.orelse)
        else:
            given.update((x.targets[0].attr, x.value) for x in (st.body if pick == 0 else st.orelse))
    return given


def _same_or_extended(node, name: str) -> bool:
    """``node`` is the name ``name``, or ``name + …`` (a list or string it extends at its end)."""
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        node = node.left
    return isinstance(node, ast.Name) and node.id == name


def _rebound(fn) -> set[str]:
    """The names the function ``fn``'s own code binds or deletes (an assignment, ``for``, ``with … as``,
    ``except … as``, an import, a ``def`` or ``class``, ``global``/``nonlocal``), outside the functions
    and classes inside it: a parameter among them may not hold its argument at a given call."""
    out: set[str] = set()
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        todo.extend(ast.iter_child_nodes(node))
    return out


class Frame:
    """The names of one scope at one point of its straight-line execution."""

    def __init__(self, analysis: Analysed, scope: Scope, self_class: Scope | None = None) -> None:
        self.a = analysis
        self.scope = scope
        # the class ``self``/``cls`` is an instance of (a method run for that concrete class); None:
        # any class that inherits the method (an attribute some subclass overrides is unknown)
        self.self_class = self_class
        self.vars: dict[str, Value] = {}
        self.overrides: dict[str, Value] = {}
        self.owned: set[int] | None = None  # None: every value is this frame's own
        self._keep: list = []
        self.changed: set[str] = set()  # names bound or changed since the last fork (a superset)
        self.cond: tuple = ()  # the branch this fork runs, for a join that keeps a value per path
        self.journal: dict | None = None  # (in vars?, name) -> value before this run changed it (undo)
        # the code this frame was entered for is in a branch the file decides against (``if not
        # TRUE_ON_POLICY:`` with ``TRUE_ON_POLICY = True``): it never runs (issue 35)
        self.unreachable = False
        # decisions taken on every path that reaches here (the other branch of ``if X: sys.exit()``
        # ended): ``{decision: (branch, ((name the test reads, its value then), ...), where)}``;
        # replaced, never changed in place, so copies share it (:meth:`settle`)
        self.settled: dict = {}

    def copy(self) -> Frame:
        """A frame to run on from here; lists and dicts are copied when it first mutates them."""
        other = Frame(self.a, self.scope, self.self_class)
        other.vars = dict(self.vars)
        other.overrides = dict(self.overrides)
        other.owned = set()
        other.changed = set(self.changed)
        other.unreachable = self.unreachable
        other.settled = self.settled
        return other

    def fork(self) -> Frame:
        """A copy to run one path on, counting its changes from here (for :meth:`Interpreter.join_frames`)."""
        other = self.copy()
        other.changed = set()
        return other

    def snapshot(self) -> Frame:
        """A copy of this frame as it is now; this frame then copies a list or dict before it next
        changes one in place (so the snapshot keeps what it saw)."""
        other = self.copy()
        self.owned = set()
        return other

    def absorb(self, other: Frame) -> None:
        """Take the names of ``other`` (a copy of this frame run on, or a join of such copies). Its
        lists and dicts may be shared (with a remembered loop start), so each is copied before this
        frame first changes it."""
        self.vars = dict(other.vars)
        self.overrides = dict(other.overrides)
        self.owned = set()
        self.changed |= other.changed
        self.unreachable = self.unreachable or other.unreachable
        self.settled = other.settled

    def settle(self, decision, branch: int, names, at: int) -> None:
        """Every path reaching here (the end of the statement ending at offset ``at``) took ``branch``
        of ``decision``, whose test reads ``names``: the same test is decided so while those names keep
        the values they hold now (:meth:`settled_branch`)."""
        reads = tuple((n, self._current(n)) for n in names)
        self.settled = {**self.settled, decision: (branch, reads, at)}

    def settled_branch(self, decision) -> int | None:
        """The branch every path reaching here took of ``decision`` (:meth:`settle`), while the names
        its test reads are still bound to what they were then; else None."""
        fact = self.settled.get(decision)
        if fact is None or any(self._current(n) is not v for n, v in fact[1]):
            return None
        return fact[0]

    def _current(self, name: str):
        return self.overrides.get(name, self.vars.get(name, NOTFOUND))

    def same_as(self, other: Frame, names=None) -> bool:
        """Every name (of ``names``, when only those may differ) holds the same value (with the same
        origins) in both frames."""
        for mine, theirs in ((self.vars, other.vars), (self.overrides, other.overrides)):
            if mine == theirs:  # the same objects (values compare by identity)
                continue
            if mine.keys() != theirs.keys():
                return False
            for k in (mine if names is None else names):
                if k in mine and not same(mine[k], theirs[k]):
                    return False
        return True

    def own(self, value):
        """``value`` made private to this frame before an in-place change (every name bound to the
        same object is rebound to the copy, so aliases stay aliases)."""
        if self.owned is None or not isinstance(value, (Seq, DictV)) or id(value) in self.owned:
            return value
        clone = value.copy()
        for table in (self.vars, self.overrides):
            for k, v in table.items():
                if v is value:
                    self._write(table, k, clone)
                    self.changed.add(k)
        self.owned.add(id(clone))
        self._keep.append(clone)
        return clone

    def bind(self, name: str, value: Value) -> None:
        self.changed.add(name)
        scope = self.scope
        if scope.kind == "function" and (name in scope.globals or name not in self.a.index.locals_of(scope)):
            self._write(self.overrides, name, value)
        else:
            self._write(self.vars, name, value)

    def rebind_mutated(self, name: str, value: Value) -> None:
        """``name``'s object was changed in place into ``value``: every alias of it sees the change."""
        old = self.vars.get(name, self.overrides.get(name))
        self.changed.add(name)
        if isinstance(old, (Seq, DictV)) and old is not value:
            for table in (self.vars, self.overrides):
                for k, v in table.items():
                    if v is old:
                        self._write(table, k, value)
                        self.changed.add(k)
        if name in self.vars or self.scope.kind == "module" or name in self.a.index.locals_of(self.scope):
            self._write(self.vars, name, value)
        else:
            self._write(self.overrides, name, value)

    def _write(self, table: dict, name: str, value) -> None:
        journal = self.journal
        if journal is not None:
            key = (table is self.vars, name)
            if key not in journal:
                journal[key] = table.get(name, NOTFOUND)
        table[name] = value

    def undo(self, journal: dict) -> None:
        """Put back the names a run changed (``journal``, as :meth:`_write` kept it)."""
        for (in_vars, name), old in journal.items():
            table = self.vars if in_vars else self.overrides
            if old is NOTFOUND:
                table.pop(name, None)
            else:
                table[name] = old

    def lookup(self, name: str, where: Span | None):
        """The value of ``name`` here (on the path of the run under way: :meth:`Paths.pick`)."""
        return self.a.pick(self._lookup(name, where))

    def raw_lookup(self, name: str):
        """The value of ``name`` here, a Choice kept as such (for a join)."""
        saved = self.a.taken
        self.a.taken = None
        try:
            return self._lookup(name, None)
        finally:
            self.a.taken = saved

    def _lookup(self, name: str, where: Span | None):
        if name in self.overrides:
            return self.overrides[name]
        scope = self.scope
        if scope.kind == "module":
            return self.vars.get(name, NOTFOUND)
        if scope.kind == "class":
            if name in self.vars:
                return self.vars[name]
            if name in self.a.index.locals_of(scope):
                return Unk(where)
            return self.a.outer_lookup(scope.parent, name, where)
        if name in scope.globals:
            v = copy_value(self.a.module_final().vars.get(name, NOTFOUND))
            setters = self.a.global_setters(name)
            if not any(s is scope for s in setters):
                return self.a.global_read(name, v, where, scope)
            return self.a.setter_start(setters, v, name, where)  # (another may have run before it)
        if name in self.a.index.locals_of(scope):
            return self.vars.get(name, Unk(where))
        return self.a.outer_lookup(scope.parent, name, where, reader=scope)


class FrameLookups:
    """Frames of scopes (at their end, or before an offset) and name lookups through enclosing
    scopes and class attributes. A mixin of :class:`~linter.extract.python.analysis.Analysis`: it
    shares the analysis' caches of frames."""

    def module_final(self) -> Frame:
        return self.final_frame(self.index.scopes[0])

    def final_frame(self, scope: Scope) -> Frame:
        got = self.final_frames.get(id(scope))
        if got is not None:
            return got
        if id(scope) in self._computing:
            return self._computing[id(scope)]
        frame = self.new_frame(scope)
        self._computing[id(scope)] = frame
        try:
            self.run_block(scope.body, frame, None)
        finally:
            del self._computing[id(scope)]
        self.final_frames[id(scope)] = frame
        return frame

    def new_frame(self, scope: Scope, self_class: Scope | None = None) -> Frame:
        """A frame at the start of ``scope``: a function's parameters that every call of the file
        gives the same constant (:meth:`known_params`) are bound, the others unknown."""
        frame = Frame(self, scope, self_class)
        if scope.kind == "function":
            frame.vars.update(self.known_params(scope))
            frame.settled = self.settled_before_calls(scope)
        return frame

    def settled_before_calls(self, scope: Scope) -> dict:
        """The decisions every path of the module took before each call of the module function
        ``scope`` (``if os.environ.get("DET"): sys.exit(…)`` at the module's level, then ``main()``):
        when it is only called by its name from the module's own statements, after an ``if`` of the
        module whose branch ends, each such decision of the module's last frame (:meth:`~Frame.settle`)
        taken before the first call, whose test reads no name the function binds. {} otherwise."""
        memo = self._params_memo
        got = memo.get(("settled", id(scope)))
        if got is not None:
            return got
        calls = self._only_calls(scope)
        module = self.index.scopes[0]
        first = min((self.offsets(c)[0] for c in calls), default=-1)
        out: dict = {}
        if calls and all(self._caller_of(c) is module for c in calls) and any(
                isinstance(st, ast.If) and self.offsets(st)[1] <= first and
                (self.block_ends(st.body) or self.block_ends(st.orelse)) for st in self.module.body):
            final = self.module_final()
            local = self.index.locals_of(scope)
            for key, (branch, reads, at) in final.settled.items():
                if at <= first and final.settled_branch(key) is not None and \
                        not any(n in local or n in scope.globals for n, _ in reads):
                    out[key] = (branch, tuple((n, NOTFOUND) for n, _ in reads), at)  # (read as globals)
        if not self._computing:  # (while a frame is being computed, its decisions are not all known yet)
            memo[("settled", id(scope))] = out
        return out

    def known_params(self, scope: Scope) -> dict:
        """``{parameter: value}`` of a module function that is only ever called by name in this file
        (never passed around, no decorator), for the parameters every one of its calls gives the same
        literal constant (``run(True)`` into ``def run(det): if det: ...``: issue 35, a condition the
        file decides). {} when there is no such call or any call spreads ``*args``/``**kwargs``."""
        memo = self._params_memo
        got = memo.get(id(scope))
        if got is None:
            got = memo[id(scope)] = self._params_from_calls(scope)
        return got

    def _params_from_calls(self, scope: Scope) -> dict:
        entries = self.call_entries(scope)
        if not entries:
            return {}
        out = {}
        for name in entries[0][1]:
            const, node = entries[0][1][name]
            if all(name in bound and _same_const(bound[name][0], const) for _, bound in entries[1:]):
                out[name] = self.given_value(const, node)
        return out

    def given_value(self, const, node) -> Value:
        """The value of the literal ``const`` a call gives at ``node`` (:meth:`call_entries`): a
        string with its origins, a constant, or a dataclass instance built from constants."""
        if isinstance(const, str):
            return self.string(node, None)
        if isinstance(const, InstanceConst):
            built = instance_const(node, self._module_classes())
            return DataInstance(const.qual, {k: Unk(self.span(built[1][k])) if t == UNKNOWN else
                                             self.given_value(c, built[1][k]) for k, t, c in const.fields})
        return Const(const, self.span(node))

    def constant_given(self, node):
        """``(constant, node)`` when ``node`` (an argument, or None) is a literal constant or builds a
        dataclass of the module from constants (:mod:`.dataclass_values`); ``_NOT_CONST`` otherwise."""
        got = _agree(None, node)
        if got is _NOT_CONST and isinstance(node, ast.Call):
            built = instance_const(node, self._module_classes())
            if built is not None:
                return built[0], node
        return got

    def _only_extended(self, name: str) -> bool:
        """The module list ``name`` is only added to at its end by the module's functions
        (:func:`.setters.only_extended_in_place`), asked once per name."""
        from linter.extract.python.setters import only_extended_in_place

        memo = self._params_memo
        key = ("only extended", name)
        got = memo.get(key)
        if got is None:
            got = memo[key] = only_extended_in_place(self.module, name)
        return got

    def _module_classes(self) -> dict:
        memo = self._params_memo
        got = memo.get("dataclasses")
        if got is None:
            got = memo["dataclasses"] = module_classes(self.module)
        return got

    def call_sets(self, scope: Scope) -> list[tuple]:
        """``[(call, (key, {parameter: value})), ...]``: one entry per distinct set of literal
        constants the calls of the module function ``scope`` give its parameters (defaults included;
        a parameter some call gives no constant is left out of that call's set; through a chain of
        calls, :meth:`call_entries`), in the order of their first call, each with the outermost call
        that decides it — when there are two to ``limits.MAX_CALL_VARIANTS`` such sets (``go(det=True)``
        and ``go()``: issue 35, each call's launch is decided). Only the parameters the function reads
        other than to hand them on to a call count (``before_submit=before_submit`` does not). [] otherwise: one set (then
        :meth:`known_params` binds it), more than the limit, a call that spreads ``*args``/``**kwargs``,
        or a function used other than by a call of its name."""
        memo = self._params_memo
        got = memo.get(("sets", id(scope)))
        if got is None:
            got = memo[("sets", id(scope))] = self._call_sets(scope)
        return got

    def _call_sets(self, scope: Scope) -> list[tuple]:
        entries = self.call_entries(scope)
        if not entries or len(entries) < 2:
            return []
        read = _read_not_passed_on(scope.node)
        names = [n for n in scope.params if n in read]
        sets: dict = {}
        for site, given in entries:
            key, bound, path = [], {}, ()
            for name in names:
                if name not in given:
                    continue
                const, node = given[name]
                key.append((name, type(const).__name__, const))
                bound[name] = self.given_value(const, node)
                path += getattr(node, "_lc_path", ())
            if tuple(key) not in sets:
                self._params_memo[("set path", id(scope), ("call",) + tuple(key))] = path
            sets.setdefault(tuple(key), (site, (("call",) + tuple(key), bound)))
        if not 2 <= len(sets) <= limits.MAX_CALL_VARIANTS:
            return []
        return list(sets.values())

    def set_path(self, scope: Scope, key: tuple) -> tuple[str, ...]:
        """The branch along which the caller builds the arguments of the set ``key`` of :meth:`call_sets`
        (a dataclass with a field set in an ``if``), in words; () for most sets."""
        return self._params_memo.get(("set path", id(scope), key), ())

    def call_entries(self, scope: Scope, depth: int = 0) -> list[tuple] | None:
        """``[(call, {parameter: (constant, node)}), ...]``: the literal constants each call of the
        module function ``scope`` gives its parameters (defaults included), one entry per distinct
        set, in the order of their calls. A parameter of the calling module function handed on whole
        (``def f0(c): f1(c)``, ``f1(backend=c)``) has the constants the calls of that function give it,
        through a chain of such calls (issue 35): one entry per set of the caller, whose call —
        the outermost that gives a constant of the set — is the entry's call. None: no call to read
        (a call that spreads ``*args``/``**kwargs``, a function used other than by a call of its
        name). Bounded: a chain deeper than ``limits.MAX_CALL_DEPTH`` or back into a function being
        read (recursion) reads that call's own constants only, as does a caller read along more than
        ``limits.MAX_ARG_SETS`` sets."""
        memo = self._params_memo
        key = ("entries", id(scope))
        if key in memo:
            return memo[key]
        reading = memo.setdefault("reading", [])
        if id(scope) in reading or depth > limits.MAX_CALL_DEPTH:
            return None
        inner = self.self_calls(scope)  # a level of a recursion: its parameters are not constants
        calls = [c for c in self._only_calls(scope) if not any(c is i for i in inner)]
        if not calls:
            memo[key] = None
            return None
        reading.append(id(scope))
        try:
            got = self._call_entries(scope, calls, depth)
        finally:
            reading.pop()
        # kept even when read around a recursion or a cut chain (then it depends on where the reading
        # began, always the same for one file): each function is read once, so functions that all
        # call one another cost their calls, not one reading per chain through them
        memo[key] = got
        return got

    def _call_entries(self, scope: Scope, calls: list, depth: int) -> list[tuple] | None:
        args = scope.node.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        defaults = dict(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        varied = self.varied_by_recursion(scope)
        names = [n for n in positional + [a.arg for a in args.kwonlyargs] if n not in varied]
        out: dict = {}
        for call in calls:
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return None
            given = dict(zip(positional, call.args))
            given.update({k.arg: k.value for k in call.keywords})
            nodes = {name: given.get(name, defaults.get(name)) for name in names}
            for site, bound in self._through_caller(call, nodes, depth):
                fixed = tuple((n, type(c).__name__, c) for n, (c, _) in bound.items())
                out.setdefault(fixed, (site, bound))
        return list(out.values())

    def _through_caller(self, call, nodes: dict, depth: int) -> list[tuple]:
        """``[(call, {parameter: (constant, node)})]`` for one call whose arguments are ``nodes``
        (parameter -> the node it is given, or None): its literal constants, and for each set of
        constants its caller (a module function) is called with, the parameters it hands on whole."""
        own = {}
        handed: dict[str, str] = {}  # parameter -> the caller's parameter it is given
        split = None  # (parameter, [(constant, node) per branch]): a dataclass with a field set in an ``if``
        for name, node in nodes.items():
            got = self.constant_given(node)
            if got is _NOT_CONST and isinstance(node, ast.Name):  # ``args = Args(...); launch(args)``
                got = _NOT_CONST
                variants = [(self.constant_given(b), b, path)
                            for b, path in self._built_in_variable(call, node.id, split is None)]
                if variants and all(g is not _NOT_CONST for g, _, _ in variants):
                    for _, b, path in variants:
                        b._lc_path = path  # (the branch it is built along: :meth:`call_sets`)
                    got = (variants[0][0][0], variants[0][1])
                    if len(variants) > 1:
                        split = (name, [(g[0], b) for g, b, _ in variants])
            if got is not _NOT_CONST:
                own[name] = got
            elif isinstance(node, ast.Name):
                handed[name] = node.id
        out = self._handed_on(call, own, handed, depth)
        if split is None:
            return out
        name, options = split
        return [(site, {**bound, name: option}) for site, bound in out for option in options]

    def _handed_on(self, call, own: dict, handed: dict, depth: int) -> list[tuple]:
        """:meth:`_through_caller`'s entries for one set of this call's own constants ``own``."""
        caller = self._caller_of(call) if handed else None
        outer = None
        if caller is not None and caller.kind == "function":
            usable = {n for n in set(handed.values()) if n in caller.params and n not in self._rebinds(caller)}
            handed = {k: v for k, v in handed.items() if v in usable}
            if handed:
                outer = self.call_entries(caller, depth + 1)
        if not outer or len(outer) > limits.MAX_ARG_SETS:
            return [(call, own)]
        out = []
        for site, env in outer:
            bound = dict(own)
            bound.update({name: env[param] for name, param in handed.items() if param in env})
            out.append((site if len(bound) > len(own) else call, bound))
        return out

    def _built_in_variable(self, call, name: str, split: bool = True) -> list[tuple]:
        """``[(call X(...), path), ...]`` for ``name = X(...)``, when that is the one binding of ``name``
        in the code of the scope making ``call`` (not in a definition inside it) and is written before
        ``call``: a field set to a literal constant right after it, in the same block and before
        ``call`` (``name.x = True``), is given to it as a keyword (a call made up, not in the module).
        A field set in an ``if`` there whose branches only set fields so (``if os.environ.get("DET"):
        name.det = True``) is given per branch, with the branch as the path (``split``, for one such
        ``if``: two calls), else a value not known; the other fields keep theirs (rev38 e9). [] otherwise
        (another binding, a field set anywhere else)."""
        found = self._built_before(call, name)
        if found is None:
            return []
        block, i, fields = found
        built = block[i].value
        sets = self._field_sets(block[i + 1:i + 1 + len(fields)], fields, call)
        covered = sum(len(st.body) + len(st.orelse) if isinstance(st, ast.If) else 1 for st in sets)
        if covered != len(fields) or (fields and (built.args or any(k.arg is None for k in built.keywords))):
            return []  # (a field set elsewhere; or given by position, which a keyword cannot replace)
        if not sets:
            return [(built, ())]
        tests = [st.test for st in sets if isinstance(st, ast.If)]
        picks = [(0, (self.truth(tests[0], True),)), (1, (self.truth(tests[0], False),))] \
            if split and len(tests) == 1 else [(None, ())]
        out = []
        for pick, path in picks:
            given = _given_fields(sets, pick)
            keywords = [k for k in built.keywords if k.arg not in given] + [ast.keyword(arg=f, value=v)
                                                                             for f, v in given.items()]
            out.append((ast.Call(func=built.func, args=[], keywords=keywords), path))
        return out

    def _built_before(self, call, name: str) -> tuple | None:
        """(block, index, the attribute nodes of ``name`` set) of the one binding ``name = X(...)`` in
        the code of the scope making ``call``, written before it (:meth:`_built_in_variable`); None
        when there is no such binding."""
        scope = self._caller_of(call)
        if scope is None or scope.kind not in ("function", "module") or name in scope.params or \
                any(name in s.globals for s in self.index.scopes if s.kind == "function" and scope.kind == "module"):
            return None
        stores, fields = self._stores(scope).get(name, ([], []))
        if len(stores) != 1:
            return None
        memo = self._params_memo
        assigns = memo.get(("assigns", id(scope)))
        if assigns is None:  # ``{id(name node): (block, index)}`` of ``name = …`` statements, once
            assigns = memo[("assigns", id(scope))] = {
                id(st.targets[0]): (b, k) for b in _blocks(scope.node) for k, st in enumerate(b)
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)}
        block, i = assigns.get(id(stores[0]), (None, None))
        if block is None or not isinstance(block[i].value, ast.Call) or \
                self.offsets(block[i])[1] > self.offsets(call)[0]:
            return None
        return block, i, fields

    def _field_sets(self, stmts: list, fields: list, call) -> list:
        """The statements of ``stmts`` before ``call``, up to the first other one, that set one of the
        attribute nodes ``fields`` to a literal constant (``args.x = True``), or are an ``if`` (no
        ``elif``) whose branches only do that."""
        out = []
        for st in stmts:
            if self.offsets(st)[1] > self.offsets(call)[0]:
                break
            if not (_sets_constant(st, fields) or isinstance(st, ast.If) and st.body and
                    all(_sets_constant(x, fields) for x in st.body + st.orelse)):
                break
            out.append(st)
        return out

    def _stores(self, scope: Scope) -> dict:
        """``{name: (the nodes binding it, the attributes of it set)}`` in the code of ``scope`` (not in
        a definition inside it), one walk per scope."""
        memo = self._params_memo
        got = memo.get(("stores", id(scope)))
        if got is not None:
            return got
        got = memo[("stores", id(scope))] = {}
        todo = list(scope.body)
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                got.setdefault(node.id, ([], []))[0].append(node)
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and \
                    isinstance(node.value, ast.Name):
                got.setdefault(node.value.id, ([], []))[1].append(node)
            todo.extend(ast.iter_child_nodes(node))
        return got

    def _caller_of(self, call) -> Scope | None:
        """The scope whose code makes ``call`` (a call of the module's index)."""
        memo = self._params_memo
        got = memo.get("callers")
        if got is None:
            got = memo["callers"] = {id(c): scope for c, scope in self.index.calls}
        return got.get(id(call))

    def _rebinds(self, scope: Scope) -> set[str]:
        memo = self._params_memo
        got = memo.get(("rebinds", id(scope)))
        if got is None:
            got = memo[("rebinds", id(scope))] = _rebound(scope.node)
        return got

    def varied_by_recursion(self, scope: Scope) -> set[str]:
        """Parameters of the function ``scope`` that a call of it by name inside its own body gives
        another value than their own (``go(n - 1, cmd)`` varies ``n``, not ``cmd``): each level of the
        recursion may see another value, so no outer call's value holds for them (issue 35: a
        recursive helper that starts the launch at its last level). Empty when it does not call itself."""
        memo = self._params_memo
        got = memo.get(("varied", id(scope)))
        if got is None:
            got = memo[("varied", id(scope))] = self._varied_by_recursion(scope)
        return got

    def self_calls(self, scope: Scope) -> list:
        """The calls by name of the function ``scope`` inside its own body."""
        node = scope.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return []
        lo, hi = self.offsets(node)
        return [c for c, _ in self.index.calls if isinstance(c.func, ast.Name) and c.func.id == node.name
                and lo <= self.offsets(c)[0] < hi]

    def _varied_by_recursion(self, scope: Scope) -> set[str]:
        return self._recursion_params(scope)[0]

    def grown_by_recursion(self, scope: Scope) -> set[str]:
        """Of :meth:`varied_by_recursion`, the parameters every call of the recursion gives as the
        caller's parameter of the same name, or that plus more (``a(c + ["--x"], n - 1)``): at any
        level they hold what the outermost call gives, then words not known (issue 35, rev36 D8)."""
        memo = self._params_memo
        got = memo.get(("grown", id(scope)))
        if got is None:
            got = memo[("grown", id(scope))] = self._recursion_params(scope)[1]
        return got

    def _recursion_params(self, scope: Scope) -> tuple[set[str], set[str]]:
        calls = self.recursive_calls(scope)
        if not calls:
            return set(), set()
        args = scope.node.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        names = positional + [a.arg for a in args.kwonlyargs]
        varied: set[str] = set()
        grown = set(names)
        for call in calls:
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return set(names), set()
            given = dict(zip(positional, call.args))
            given.update({k.arg: k.value for k in call.keywords})
            varied.update(n for n in names if not (isinstance(given.get(n), ast.Name) and given[n].id == n))
            grown = {n for n in grown if _same_or_extended(given.get(n), n)}
        return varied, grown & varied

    def recursive_calls(self, scope: Scope) -> list:
        """The calls by name of the module function ``scope`` inside its own body, and inside the
        module functions it calls that call it back (a mutual recursion: ``a`` calls ``b`` calls
        ``a``), through calls by name."""
        own = self.self_calls(scope)
        node = scope.node
        if scope.parent is None or scope.parent.kind != "module" or not isinstance(node, (ast.FunctionDef,
                                                                                          ast.AsyncFunctionDef)):
            return own
        cycle = self._cycle_of(scope)
        return own + [c for c, where in self.index.calls if any(where is m for m in cycle)
                      and isinstance(c.func, ast.Name) and c.func.id == node.name]

    def _cycle_of(self, scope: Scope) -> list:
        """The other module functions that ``scope`` reaches through calls by name and that reach it
        (its strongly connected component of the module's call graph, computed once for all)."""
        memo = self._params_memo
        components = memo.get("call cycles")
        if components is None:
            components = memo["call cycles"] = call_cycles([
                s for s in self.index.scopes if s.kind == "function" and s.parent is not None
                and s.parent.kind == "module" and isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef))])
        members = components.get(id(scope), ())
        if not members or shortest_cycle(scope, members) > limits.MAX_CALL_DEPTH:
            return []  # (a chain that long is cut before it calls back: each level is read as it is)
        return [g for g in members if g is not scope]

    def _only_calls(self, scope: Scope) -> list:
        """The calls by name of the module function ``scope``, when the module uses its name nowhere
        else (it is not passed around) and it has no decorator; [] otherwise."""
        node = scope.node
        if scope.parent is None or scope.parent.kind != "module" or \
                not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.decorator_list:
            return []
        calls = [c for c, _ in self.index.calls if isinstance(c.func, ast.Name) and c.func.id == node.name]
        memo = self._params_memo
        uses = memo.get("names")
        if uses is None:  # how often each name is read in the module, counted once
            uses = memo["names"] = Counter(n.id for n in ast.walk(self.module) if isinstance(n, ast.Name))
        return calls if uses[node.name] == len(calls) else []

    def frame_before(self, scope: Scope, offset: int, self_class: Scope | None = None,
                     args: tuple | None = None) -> Frame:
        """The frame of ``scope`` just before the code at ``offset`` runs (a method run for the
        concrete class ``self_class``, when given; a function run with the parameters ``args`` gives,
        ``(key, {name: value})`` — :meth:`bind_args` — when given).

        Calls are looked at in source order, so each scope keeps a cursor (one per argument set): its
        top-level statements before ``offset`` are run once, and only the statement holding
        ``offset`` is entered, on a copy.
        """
        key = (id(scope), id(self_class)) if args is None else (id(scope), id(self_class), args[0])
        cursor = self._cursors.get(key)
        if cursor is None or cursor[1] > offset:
            start = self.new_frame(scope, self_class)
            if args is not None:
                for name, value in args[1].items():
                    start.vars[name] = copy_value(value)  # (the caller's list is not changed in place)
            cursor = [start, -1, 0]  # frame, last offset, next statement index
            cursor[0].unreachable = self.scope_dead(scope)
            self._cursors[key] = cursor
        frame, _, i = cursor
        body = scope.body
        while i < len(body) and self.offsets(body[i])[1] <= offset:
            self.exec_stmt(body[i], frame)
            i += 1
        cursor[1], cursor[2] = offset, i
        copy = frame.copy()
        if i < len(body) and self.contains(body[i], offset):
            self.enter(body[i], copy, offset)
        return copy

    def scope_dead(self, scope: Scope) -> bool:
        """The ``def``/``class`` of ``scope`` is in code the file decides never runs (under ``if False:``,
        ``if not TRUE_ON_POLICY:`` …, or inside such a definition): nothing in it runs (issue 35)."""
        parent = scope.parent
        if parent is None:
            return False
        memo = self._params_memo
        got = memo.get(("dead", id(scope)))
        if got is not None:
            return got
        if self.scope_dead(parent):
            got = True
        else:
            # the tests around the definition, decided on the enclosing scope's final names (a flag set
            # once: ``DEBUG = False``); a test the file does not decide leaves it alive
            frame = self.final_frame(parent) if parent.kind != "class" else self.module_final()
            got = any(self.decide(test, frame, settled=False) is (not holds)
                      for test, holds in guards_of(parent.body, scope.node))
        if not self._computing:  # (while a frame is being computed, its names are not all known yet)
            memo[("dead", id(scope))] = got
        return got

    def outer_lookup(self, scope: Scope | None, name: str, where: Span | None, reader: Scope | None = None):
        """Look ``name`` up from a function or class (``reader``, when given) into its enclosing
        scopes (classes skipped)."""
        while scope is not None and scope.kind == "class":
            scope = scope.parent
        while scope is not None:
            if scope.kind == "function":
                if name in self.index.locals_of(scope):
                    return copy_value(self.final_frame(scope).vars.get(name, Unk(where)))
            elif scope.kind == "module":
                v = self.module_final().vars.get(name, NOTFOUND)
                if v is not NOTFOUND and name in self.index.taint_names and isinstance(v, (Seq, DictV)):
                    if isinstance(v, Seq) and v.kind == "list" and self._only_extended(name):
                        # other functions only add at its end: its words, then words not known
                        return Seq([*copy_value(v).items, Splat(where)])
                    return Unk(where)
                return self.global_read(name, copy_value(v), where, reader)
            scope = scope.parent
            while scope is not None and scope.kind == "class":
                scope = scope.parent
        return NOTFOUND

    def class_attr(self, cls: Scope, name: str, where: Span | None, virtual: bool):
        """The class attribute ``name`` of ``cls`` (of this module or another analysed one), looked up
        along its bases. ``virtual``: ``cls`` stands for itself or any subclass of this module, so
        an attribute a subclass binds is unknown. A method is a :class:`FuncV` bound to ``cls``."""
        if virtual:
            for other in self.index.classes:
                if other is cls or not self._inherits(other, cls):
                    continue
                if name in self.index.locals_of(other):
                    return Unk(where)  # a subclass overrides it
        for c in self.mro(cls):
            owner = c.owner
            if (id(c), name) in owner.index.taint_attrs:
                return Unk(where)
            frame = owner.final_frame(c)
            if name in frame.vars:
                v = copy_value(frame.vars[name])
                if isinstance(v, FuncV):
                    v = FuncV(v.node, v.owner, None if virtual else cls)
                return v
            if name in owner.index.locals_of(c):
                return Unk(where)
        return Unk(where)

    def mro(self, cls: Scope) -> list[Scope]:
        """``cls`` and its bases that resolve to classes, depth first, each once (Python's C3 order
        for the single-inheritance chains and diamonds of test code; at most 20 classes)."""
        out: list[Scope] = []
        todo = [cls]
        while todo and len(out) < 20:
            c = todo.pop(0)
            if any(c is o for o in out):
                continue
            out.append(c)
            todo[0:0] = c.owner.bases(c)
        return out

    def bases(self, cls: Scope) -> list[Scope]:
        """The classes ``cls`` (a class of this module) names as bases, where they resolve."""
        got = self._bases_memo.get(id(cls))
        if got is not None:
            return got
        self._bases_memo[id(cls)] = []  # a class among its own bases (an import cycle): none
        out = []
        for base in cls.node.bases:
            v = self.ev(base.value if isinstance(base, ast.Starred) else base, self.module_final())
            if isinstance(v, ClassV):
                out.append(v.scope)
        self._bases_memo[id(cls)] = out
        return out

    def _inherits(self, cls: Scope, base: Scope) -> bool:
        return any(b is base for b in self.mro(cls)[1:])
