"""Expression evaluation: an ``ast`` expression and a frame give a :mod:`value <.values>`.

Literals (with implicit concatenation, f-strings, ``str.format`` and ``%``), names, attributes of
modules and classes, ``+`` of lists, tuples and strings, list and dict displays with ``*``/``**``,
and the few calls whose result is known (``shlex.split``, ``str``/``list``/``tuple``/``dict``, string
methods, Modal apps and images). Anything else is unknown.
"""

from __future__ import annotations

import ast

from linter import limits
from linter.extract.python.frames import Frame
from linter.extract.python.lists import index_of, kept_true, lost_list
from linter.extract.python.literals import fstring_pieces, literals
from linter.extract.python.names import BUILTINS, MODAL_APPS, MODAL_IMAGE, SGLANG_IMAGE
from linter.extract.python.strings import as_text, decode_literal, format_text, percent_format, split_whitespace
from linter.extract.python.syntax import FUNCTIONS, call_args, is_classmethod, returns_in
from linter.extract.python.values import (
    NOTFOUND,
    ClassV,
    Const,
    DataInstance,
    DictV,
    Entry,
    FuncV,
    Instance,
    Choice,
    Ref,
    Seq,
    Splat,
    Str,
    Unk,
    Value,
    choose,
    collapse,
    copy_value,
    fingerprint,
)
from linter.extract.words import SplitError, split_words
from linter.launch import UNKNOWN_CHAR, MStr, Token, UnknownOrigin
from linter.source import Span


_MISSING = object()
_NEGATED = {ast.NotEq: ast.Eq, ast.IsNot: ast.Is, ast.NotIn: ast.In}

_UNDECIDED = object()
"""A value :meth:`Evaluator.decide` cannot compare."""


def _plain(v) -> object:
    """The Python value of a known constant or string; ``_UNDECIDED`` for anything else."""
    if isinstance(v, Const):
        return v.value
    if isinstance(v, Str) and v.m.known:
        return v.m.text
    return _UNDECIDED


_INT_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
            ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b}
"""Arithmetic on two known integers (Python's own operators: ``//`` and ``%`` floor)."""
_TOTAL_OPS = (ast.Add, ast.Sub, ast.Mult)
"""Those defined for a right-hand 0."""


def _small_int(v) -> bool:
    """A known integer (not a bool) of at most 64 bits: its products stay small."""
    return isinstance(v, Const) and type(v.value) is int and abs(v.value) < 1 << 63


_ORDER = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
          ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


def _compare(op, left, right) -> bool | None:
    """``left op right`` for two known plain values (:func:`_plain`): ``==``/``!=``/``is``/``is not``
    of any, ``<``/``<=``/``>``/``>=`` of two numbers or two strings (``N = 2`` then ``if N > 4:``);
    None when undecided (an unknown side, another operator, or types Python would not order)."""
    if left is _UNDECIDED or right is _UNDECIDED:
        return None
    kind = type(op)
    if kind in (ast.Eq, ast.NotEq):
        return (left == right) is (kind is ast.Eq)
    if kind in (ast.Is, ast.IsNot):
        same = left is right or (left == right and type(left) is type(right)
                                 and (left is None or isinstance(left, bool)))
        return same is (kind is ast.Is)
    order = _ORDER.get(kind)
    numbers = all(isinstance(v, (int, float)) for v in (left, right))
    if order is None or not (numbers or (isinstance(left, str) and isinstance(right, str))):
        return None
    return order(left, right)


def _truthy(v) -> bool | None:
    """The truth of a known value (a constant, a string, a list of known length, a closed dict), or None."""
    if isinstance(v, Const):
        return bool(v.value)
    if isinstance(v, Str):
        return bool(v.m.text) if v.m.known else (True if v.m.text.replace(UNKNOWN_CHAR, "") else None)
    if isinstance(v, Seq):
        return True if any(not isinstance(i, Splat) for i in v.items) else (None if v.items else False)
    if isinstance(v, DictV):
        return True if v.entries else (None if v.open else False)
    return None


class Evaluator:
    """Values of expressions. A mixin of :class:`~linter.extract.python.analysis.Analysis`: evaluation
    and statement execution call each other (a class attribute runs the class body)."""

    def ev(self, node, frame: Frame) -> Value:
        """The value of ``node`` on the path of the run under way (:meth:`~.paths.Paths.pick`). The
        unknown pieces the paths merged while it was read, and an unknown value with no place, are
        given ``node`` as the place they are reported at (``--explain``: ``true_on_policy_args at
        run.py:306:10``); an inner expression reads them first and keeps its own."""
        made = len(self.unlabelled)
        v = self.pick(self._ev(node, frame))
        if isinstance(v, Unk) and v.where is None:
            v = Unk(self.span(node))
        if len(self.unlabelled) > made:
            where = self.span(node)
            for piece in self.unlabelled[made:]:
                if isinstance(piece, Splat):
                    piece.where = piece.where or where
                else:
                    piece.label = where
            del self.unlabelled[made:]
        return v

    def _ev(self, node, frame: Frame) -> Value:
        """The value of ``node``: one step per kind of expression (:data:`_EV_STEPS`); any other
        kind is unknown."""
        self.budget.step("evaluating the Python module")
        step = _EV_STEPS.get(type(node))
        if step is None:
            return Unk(self.span(node))
        return getattr(self, step)(node, frame)

    def _ev_constant(self, node: ast.Constant, frame: Frame) -> Value:
        value = node.value
        if isinstance(value, str):
            return self.string(node, frame)
        if value is None or isinstance(value, (bool, int, float)):
            return Const(value, self.span(node))
        return Unk(self.span(node))  # bytes, complex, ``...``

    def _ev_name(self, node: ast.Name, frame: Frame) -> Value:
        name = node.id
        v = frame.lookup(name, self.span(node))
        if v is NOTFOUND:
            if name in BUILTINS:
                return Ref(f"builtins.{name}")
            if len(self.index.star_imports) == 1:
                v = Ref(f"{self.index.star_imports[0]}.{name}")
            else:
                return Unk(self.span(node))
        if isinstance(v, Ref):
            got = self.resolve_ref(v)
            if got is not None:
                # a module list that a function here changes in place is not known (as below)
                if name in self.index.taint_names and isinstance(got, (Seq, DictV)):
                    return Unk(self.span(node))
                return got
            if v.importer is not None:  # a relative import that names no file of the repository
                return Unk(self.span(node))
        return v

    def _ev_sequence(self, node: ast.List | ast.Tuple, frame: Frame) -> Value:
        items: list = []
        for e in node.elts:
            if isinstance(e, ast.Starred):
                self._spread(e, frame, items)
            else:
                items.append(self.ev(e, frame))
        return Seq(items, "list" if isinstance(node, ast.List) else "tuple")

    def _spread(self, e: ast.Starred, frame: Frame, items: list) -> None:
        """Append to ``items`` what ``*x`` in a list or tuple display spreads."""
        v = self.ev(e.value, frame)
        size = len(v.items) if isinstance(v, Seq) else len(v.m) if isinstance(v, Str) else 0
        if size and not self.budget.charge(size, "a Python list", self.span(e)):
            items.append(Splat(self.span(e)))  # past the budget: any number of unknown items
        elif isinstance(v, Seq):
            items.extend(v.items)
        elif isinstance(v, Str) and v.m.known:
            items.extend(Str(v.m[k:k + 1]) for k in range(len(v.m)))
        else:
            items.append(Splat(self.span(e)))

    def _ev_dict(self, node: ast.Dict, frame: Frame) -> Value:
        d = DictV([])
        for key_node, value_node in zip(node.keys, node.values):
            if key_node is None:  # ``**x``
                d.merge(self.ev(value_node, frame))
                continue
            key = self.ev(key_node, frame)
            if isinstance(key, Str) and key.m.known:
                d.set(Entry(key.m.text, self.ev(value_node, frame),
                            Span(self.source, self.offsets(key_node)[0], self.offsets(value_node)[1]),
                            key.m.span_of(), self.span(value_node)))
            else:
                d.merge(None)
        return d

    def _ev_unary(self, node: ast.UnaryOp, frame: Frame) -> Value:
        if not isinstance(node.op, ast.USub):
            return Unk(self.span(node))
        v = self.ev(node.operand, frame)
        if isinstance(v, Const) and isinstance(v.value, (int, float)) and not isinstance(v.value, bool):
            return Const(-v.value, self.span(node))
        return Unk(self.span(node))

    def _ev_binop(self, node: ast.BinOp, frame: Frame) -> Value:
        arith = _INT_OPS.get(type(node.op))
        if arith is not None:
            left, right = self.ev(node.left, frame), self.ev(node.right, frame)
            if _small_int(left) and _small_int(right) and (right.value or type(node.op) in _TOTAL_OPS):
                return Const(arith(left.value, right.value), self.span(node))  # N % 2, TP * DP
            if isinstance(node.op, ast.Add):
                return self.add(left, right, self.span(node))
            if isinstance(node.op, ast.Mod) and isinstance(left, Str):
                return percent_format(left.m, right, self.span(node), self.budget)
        return Unk(self.span(node))

    def _ev_subscript(self, node: ast.Subscript, frame: Frame) -> Value:
        """``argv[0]``, ``argv[-1]`` and ``argv[1:]`` of a list or tuple the file gives: a constant index
        (or slice bounds of at least 0, no step) with no run of unknown length before it. Anything
        else is unknown (``os.execvp(cmd[0], cmd)`` names its program this way)."""
        base = self.ev(node.value, frame)
        got = _index(base.items, node.slice) if isinstance(base, Seq) else None
        if isinstance(got, list):
            return Seq(got, base.kind)
        if isinstance(got, Seq):
            return got.copy()
        return got if got is not None else Unk(self.span(node))

    def _ev_named(self, node: ast.NamedExpr, frame: Frame) -> Value:
        return self.ev(node.value, frame)

    def _ev_joined(self, node: ast.JoinedStr, frame: Frame) -> Value:
        return self.string(node, frame)

    def _ev_attribute(self, node: ast.Attribute, frame: Frame) -> Value:
        return self.attribute(node, frame)

    def _ev_call(self, node: ast.Call, frame: Frame) -> Value:
        return self.call_value(node, frame)

    def _ev_if(self, node: ast.IfExp, frame: Frame) -> Value:
        """``A if TEST else B``: one value when the file decides the test, else a value per path."""
        decided = self.decide(node.test, frame)
        if decided is not None:  # the file decides it: one value
            return self.ev(node.body if decided else node.orelse, frame)
        key, flip = self.decision(node.test)
        got = choose([(((key, int(flip), self.truth(node.test, True)),), self.ev(node.body, frame)),
                      (((key, int(not flip), self.truth(node.test, False)),), self.ev(node.orelse, frame))],
                     limits.MAX_PATH_VARIANTS)
        if got is not None and self.taken is None:
            got = collapse(got)
        return Unk(self.span(node)) if got is None or isinstance(got, Unk) else got

    def decision(self, test) -> tuple[tuple, bool]:
        """(the decision a test makes, whether its truth is the inverse of that decision's): tests
        written alike (``not`` aside) in one file are one decision, so ``f"{'-x ' if args.debug else ''}"``
        and a later ``if args.debug:`` take the same branch on each path (an approximation: a test
        whose value changes in between is taken to be the same; so are ``(x := …)`` and a later ``x``,
        and two tests of one subject against different constants exclude each other:
        :meth:`impossible_path`). Branch 0 is the decision's test true."""
        flip = False
        while isinstance(test, (ast.UnaryOp, ast.NamedExpr)):
            if isinstance(test, ast.NamedExpr):  # ``if (det := …):`` is the decision of a later ``if det:``
                test = test.target
            elif isinstance(test.op, ast.Not):
                test, flip = test.operand, not flip
            else:
                break
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _NEGATED:
            test, flip = ast.Compare(test.left, [_NEGATED[type(test.ops[0])]()], test.comparators), not flip
        try:
            text = ast.unparse(test)  # (one spelling: quotes, blanks)
        except (ValueError, RecursionError):
            s, e = self.offsets(test)
            text = self.source.text[s:e]
        key = ("test", id(self.source), text)
        subject = _equality(test)
        if subject is not None:
            self._params_memo.setdefault("equalities", {})[key] = subject
        return key, flip

    def impossible_path(self, frame: Frame | None = None) -> bool:
        """The run under way takes two tests of one subject against different constants as both
        true (``m == "det"`` and ``m == "fast"``), or a branch of a decision other than the one every
        path reaching ``frame`` took (:meth:`~.frames.Frame.settled_branch`: a list built along ``if
        DET:`` before ``if DET: sys.exit(…)``): no run of the program goes that way."""
        taken = self.taken
        if not isinstance(taken, dict):
            return False
        if frame is not None and frame.settled:
            for key, branch in taken.items():
                held = frame.settled_branch(key) if key in frame.settled else None
                if held is not None and held != branch:
                    return True
        equalities = self._params_memo.get("equalities")
        if not equalities:
            return False
        held: dict = {}
        for key, branch in taken.items():
            got = equalities.get(key)
            if got is not None and branch == 0:
                subject, value = got
                if held.setdefault(subject, value) != value:
                    return True
        return False

    def decide(self, test, frame: Frame, settled: bool = True) -> bool | None:
        """Whether ``test`` holds, when the file decides it (issue 35: a condition the file decides is
        not two paths): a known constant, string, list or dict (``TRUE_ON_POLICY = True`` then ``if
        TRUE_ON_POLICY:``), ``not``, ``and``/``or``, and comparisons of known constants or strings
        (:func:`_compare`; chains too); with ``settled``, a test every path reaching ``frame`` has
        decided already (``if DET: sys.exit(…)`` before: :meth:`~.frames.Frame.settled_branch`). None
        when it is not decided here (a value per path is not decided)."""
        if settled and frame.settled:
            memo = self._params_memo.setdefault("decisions", {})
            got = memo.get(id(test))
            if got is None:
                got = memo[id(test)] = (test, self.decision(test))  # (the node kept: its id stays its own)
            key, flip = got[1]
            branch = frame.settled_branch(key)
            if branch is not None:
                return (branch == 0) != flip
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            got = self.decide(test.operand, frame, settled)
            return None if got is None else not got
        if isinstance(test, ast.BoolOp):
            got = [self.decide(v, frame, settled) for v in test.values]
            stop = isinstance(test.op, ast.Or)  # the value that ends an ``or`` (True) or an ``and`` (False)
            for g in got:
                if g is None:
                    return None
                if g is stop:
                    return stop
            return not stop
        if isinstance(test, ast.Compare):
            if len(test.ops) > 4:
                return None
            left = _plain(self.ev(test.left, frame))
            for op, node in zip(test.ops, test.comparators):  # a chain: each pair, as Python does
                right = _plain(self.ev(node, frame))
                got = _compare(op, left, right)
                if got is not True:
                    return got
                left = right
            return True
        return _truthy(self.ev(test, frame))

    def truth(self, test, value: bool) -> str:
        """``test`` (an expression) holding (``value`` True) or not, in words: "`args.x` is true"."""
        while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, value = test.operand, not value
        s, e = self.offsets(test)
        text = " ".join(self.source.text[s:e].split())
        if len(text) > 60:
            text = text[:57] + "..."
        return f"`{text}` is {'true' if value else 'false'}"

    def string(self, node, frame: Frame) -> Value:
        """A string expression (``ast.Constant`` of a str, or ``ast.JoinedStr``): each literal read from
        the source (:mod:`.literals`), its characters with their origins; an f-string's fields from
        the expressions ``ast`` parsed in them."""
        s, e = self.offsets(node)
        text = self.source.text
        lits = literals(text, s, e)
        if not lits:
            return Unk(self.span(node))
        if len(lits) == 1 and "f" not in lits[0].prefix.lower():
            lit = lits[0]
            if "b" in lit.prefix.lower():
                return Unk(self.span(node))
            return Str(decode_literal(self.source, text[lit.start:lit.end], lit.start, raw=lit.raw))
        fields = iter([v.value for v in node.values if isinstance(v, ast.FormattedValue)]
                      if isinstance(node, ast.JoinedStr) else [])
        parts: list[MStr] = []
        for lit in lits:
            prefix = lit.prefix.lower()
            if "b" in prefix:
                return Unk(self.span(node))
            if "f" not in prefix:
                parts.append(decode_literal(self.source, text[lit.start:lit.end], lit.start, raw=lit.raw))
                continue
            for piece in fstring_pieces(text, lit):
                if isinstance(piece, tuple):
                    i, j = piece
                    parts.append(decode_literal(self.source, text[i:j], i, lit.raw, fstring=True))
                    continue
                expr = next(fields, None)
                if expr is None:  # the source and ast disagree: nothing is guessed
                    return Unk(self.span(node))
                v = self.ev(expr, frame)
                m = as_text(v) if piece.simple else None
                # (unknown: labelled by the expression written in the field, ``plan.train_args``)
                parts.append(m if m is not None else MStr.unknown(Span(self.source, piece.start, piece.end),
                                                                  Span(self.source, piece.expr_start, piece.expr_end)))
        if next(fields, None) is not None:
            return Unk(self.span(node))
        if not self.budget.charge(sum(len(p) for p in parts), "a Python string", self.span(node)):
            return Unk(self.span(node))
        return Str(MStr.join(parts, self.span(node)))

    def attribute(self, node, frame: Frame) -> Value:
        where = self.span(node)
        attr = node.attr
        base_node = node.value
        scope = frame.scope
        if isinstance(base_node, ast.Name) and scope.kind == "function" and scope.self_name == base_node.id \
                and base_node.id not in frame.vars and scope.parent is not None and scope.parent.kind == "class":
            bound = frame.overrides.get(f"{base_node.id}.{attr}")
            if bound is not None:  # ``cls.model = …`` earlier in this method
                return bound
            late = self.attr_read(frame, attr, where)  # bound by another method than ``__init__``
            if late is not None:
                return late
            if not is_classmethod(scope.node):
                got = self.instance_attr(frame, attr, where)
                if got is not None:
                    return got
            if frame.self_class is not None:
                return frame.self_class.owner.class_attr(frame.self_class, attr, where, virtual=False)
            return self.class_attr(scope.parent, attr, where, virtual=True)
        if isinstance(base_node, ast.Call) and isinstance(base_node.func, ast.Name) \
                and base_node.func.id == "super" and frame.lookup("super", None) is NOTFOUND:
            return self.super_attr(frame, attr, where)
        base = self.ev(base_node, frame)
        if isinstance(base, Ref):
            ref = Ref(f"{base.qual}.{attr}", base.importer, base.at)
            got = self.resolve_ref(ref)
            return ref if got is None else got
        if isinstance(base, ClassV):
            return self.class_attr(base.scope, attr, where, virtual=False)
        if isinstance(base, DataInstance):
            return base.fields.get(attr, Unk(where))
        if isinstance(base, Instance) and base.qual == MODAL_IMAGE:
            return Instance(MODAL_IMAGE + "#method", base.image)
        return Unk(where)

    def instance_attr(self, frame: Frame, attr: str, where: Span) -> Value | None:
        """``self.attr`` bound only by ``self.attr = …`` in the ``__init__`` the instance runs (the
        first class of its MRO that defines one): the value there at the end of ``__init__``. None
        when no such ``__init__`` binds it, or when read in that ``__init__`` before it binds it (a class
        attribute, then; unknown when a base's ``__init__`` binds it too)."""
        cls = frame.self_class if frame.self_class is not None else frame.scope.parent
        if frame.self_class is None and any(k is not cls and self._inherits(k, cls) and "__init__" in
                                            self.index.locals_of(k) for k in self.index.classes):
            return None  # a subclass runs its own __init__
        mro = self.mro(cls)
        for n, c in enumerate(mro):
            index = c.owner.index
            if "__init__" not in index.locals_of(c):
                continue
            init = index.init_attrs.get((id(c), attr))
            if init is None:
                return None
            if frame.scope is init:
                # read in that ``__init__`` before it binds it (``self.cmd = self.cmd + […]``): not
                # its own end (a loop), but the class attribute — unknown when an ``__init__`` of a
                # base binds it too (``super().__init__()`` may have run; it is not followed)
                return Unk(where) if any((id(k), attr) in k.owner.index.init_attrs for k in mro[n + 1:]) else None
            owner = c.owner
            end = owner.frame_before(init, owner.offsets(init.node)[1], frame.self_class)
            return copy_value(end.overrides.get(f"{init.self_name}.{attr}", Unk(where)))
        return None

    def super_attr(self, frame: Frame, attr: str, where: Span) -> Value:
        """``super().attr`` in a method: the attribute of the class after the method's own class in
        the MRO of the class the method runs for (unknown when that class is not known)."""
        scope = frame.scope
        while scope is not None and scope.kind == "function" and not (scope.parent and scope.parent.kind == "class"):
            scope = scope.parent
        if scope is None or scope.kind != "function":
            return Unk(where)
        defining = scope.parent
        concrete = frame.self_class if frame.self_class is not None else defining
        if frame.self_class is None and any(k is not defining and self._inherits(k, defining)
                                            for k in self.index.classes):
            return Unk(where)  # run for some subclass whose MRO is not known here
        mro = self.mro(concrete)
        after = next((k for k, c in enumerate(mro) if c is defining), None)
        for c in mro[after + 1:] if after is not None else []:
            if attr in c.owner.index.locals_of(c):
                v = c.owner.class_attr(c, attr, where, virtual=False)
                if isinstance(v, FuncV):
                    v = FuncV(v.node, v.owner, frame.self_class)
                return v
        return Unk(where)

    def add(self, left: Value, right: Value, where: Span | None) -> Value:
        # an object imported from a module that is not read (outside the repository) is unknown
        left = Unk(where) if isinstance(left, Ref) else left
        right = Unk(where) if isinstance(right, Ref) else right
        size = len(left.items) + len(right.items) if isinstance(left, Seq) and isinstance(right, Seq) else \
            len(left.m) + len(right.m) if isinstance(left, Str) and isinstance(right, Str) else 0
        if size and not self.budget.charge(size, "a Python list" if isinstance(left, Seq) else "a Python string",
                                           where):
            return Unk(where)  # counted before it is built: past the budget, unknown
        if isinstance(left, Seq) and isinstance(right, Seq) and left.kind == right.kind:
            return Seq(left.items + right.items, left.kind)
        if isinstance(left, Seq) and isinstance(right, Unk):
            return Seq(left.items + [Splat(right.where)], left.kind)
        if isinstance(left, Unk) and isinstance(right, Seq):
            return Seq([Splat(left.where)] + right.items, right.kind)
        if isinstance(left, Str) and isinstance(right, Str):
            return Str(MStr.join([left.m, right.m], where))
        if isinstance(left, Str) and isinstance(right, Unk):
            return Str(MStr.join([left.m, MStr.unknown(right.where)], where))
        if isinstance(left, Unk) and isinstance(right, Str):
            return Str(MStr.join([MStr.unknown(left.where), right.m], where))
        if isinstance(left, Const) and isinstance(right, Const) and type(left.value) in (int, float) and \
                type(right.value) in (int, float):
            return Const(left.value + right.value, where)
        return Unk(where)

    def call_value(self, node, frame: Frame) -> Value:
        """The value a call returns, where it is known: a string method of a known string
        (:meth:`_str_method`), a modelled callable (:data:`_CALL_STEPS`, Modal's app and image), a
        method of a Modal image, a function of the module (:meth:`return_value`); else unknown."""
        where = self.span(node)
        func = node.func
        args = call_args(node)
        positional = [a for a in args if a.keyword is None and not a.star]
        if isinstance(func, ast.Attribute) and func.attr in _STR_METHODS:
            base_v = self.ev(func.value, frame)
            if isinstance(base_v, Str):
                got = self._str_method(base_v.m, func.attr, node, args, positional, frame, where)
                if got is not None:
                    return got
        if isinstance(func, ast.Attribute) and func.attr in _LIST_METHODS:
            base_v = self.ev(func.value, frame)
            if isinstance(base_v, Seq) and base_v.kind == "list":
                return self._list_method(base_v, func.attr, args, positional, frame, where)
        callee = self.ev(func, frame)
        if isinstance(callee, Ref):
            got = self._modelled_call(callee.qual, node, args, positional, frame, where)
            if got is not None:
                return got
        if isinstance(callee, Instance) and callee.qual == MODAL_IMAGE + "#method":  # image.pip_install(...)
            return Instance(MODAL_IMAGE, self._image_ref(node, frame) or callee.image)
        if isinstance(callee, FuncV):
            return self.return_value(callee, where, self.bind_args(callee, node, frame))
        return Unk(where)

    def bind_args(self, fv: FuncV, call, frame: Frame) -> tuple | None:
        """``(key, {parameter: value})``: what the call ``call`` (evaluated in ``frame``) gives each
        parameter of the function ``fv`` — its positional arguments (a ``*x`` of a known list spread),
        keywords (a ``**x`` of a closed dict spread), the defaults of the others (evaluated where the
        function is defined), unknown where an argument cannot be placed; ``key`` identifies the
        values (:func:`~.values.fingerprint`). None when nothing is known, or when the function was
        already evaluated with ``limits.MAX_ARG_SETS`` other sets (it is then evaluated with
        its arguments unknown, as before arguments were bound)."""
        owner = fv.owner or self
        fn = fv.node
        scope = owner.index.scope_of_node.get(id(fn))
        if scope is None or scope.kind != "function" or not isinstance(fn, FUNCTIONS):
            return None
        a = fn.args
        params = [x.arg for x in a.posonlyargs + a.args]
        defaults = dict(zip(params[len(params) - len(a.defaults):], a.defaults))
        defaults.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        if scope.self_name:  # a method: ``self``/``cls`` is not among the call's arguments
            params = params[1:]
        given, placed = self._given(call, frame, params, a.vararg)
        at = None
        bound: dict = {}
        for name in params + [x.arg for x in a.kwonlyargs]:
            if name in given:
                bound[name] = given[name]
            elif placed and name in defaults:
                at = at or owner.final_frame(scope.parent)
                bound[name] = copy_value(owner.ev(defaults[name], at))
            else:
                bound[name] = Unk(None)
        if a.vararg is not None:
            bound[a.vararg.arg] = given[a.vararg.arg]
        if a.kwarg is not None:
            bound[a.kwarg.arg] = Unk(None)
        grown = owner.grown_by_recursion(scope)
        for name in owner.varied_by_recursion(scope):  # another value at each level of a recursion
            v = bound[name]
            # (a list each level extends: what the outermost call gives, then words not known)
            bound[name] = Seq(v.items + [Splat(self.span(call))], v.kind) if name in grown and \
                isinstance(v, Seq) else Unk(None)
        if all(isinstance(v, Unk) for v in bound.values()):
            return None
        key = tuple((name, fingerprint(v)) for name, v in bound.items())
        seen = owner._params_memo.setdefault(("argsets", id(scope)), set())
        if key not in seen:
            if len(seen) >= limits.MAX_ARG_SETS:
                return None
            seen.add(key)
        return key, bound

    def _given(self, call, frame: Frame, params: list[str], vararg) -> tuple[dict, bool]:
        """(the values ``call`` gives by parameter name — ``params`` positional, ``vararg`` the
        ``*args`` one —, whether every argument could be placed: False after a ``*x`` or ``**x`` of
        items not known, when any parameter not named may be given)."""
        given: dict = {}
        placed = True
        values: list = []
        for arg in call.args:
            v = self.ev(arg.value if isinstance(arg, ast.Starred) else arg, frame)
            if not isinstance(arg, ast.Starred):
                values.append(v)
            elif isinstance(v, Seq) and not any(isinstance(i, Splat) for i in v.items):
                values.extend(v.items)
            else:
                placed = False
                break
        given.update(zip(params, values))
        if vararg is not None:
            given[vararg.arg] = Seq(values[len(params):], "tuple") if placed else Unk(None)
        for k in call.keywords:
            v = self.ev(k.value, frame)
            if k.arg is not None:
                given[k.arg] = v
            elif isinstance(v, DictV) and not v.open:
                given.update((e.key, e.value) for e in v.entries)
            else:
                placed = False
        return given, placed

    def _str_method(self, m: MStr, method: str, node, args, positional, frame: Frame, where: Span) -> Value | None:
        """``m.format(...)``, ``m.join(x)``, ``m.split()``, ``m.strip()`` (and ``lstrip``/``rstrip``);
        None for other arguments (the call is then read as any call)."""
        if method == "format":
            return self.str_format(m, node, frame, where)
        if method == "join" and len(args) == 1 and positional:
            return self.join(m, self.ev(positional[0].value, frame), where)
        if method == "split" and not args:
            return Seq([Str(w, joinable=True) for w in split_whitespace(m)])
        if method in ("strip", "lstrip", "rstrip") and not args:
            return Str(_stripped(m, method))
        return None

    def _list_method(self, seq: Seq, method: str, args, positional, frame: Frame, where: Span) -> Value:
        """``cmd.copy()`` (the same items) and ``cmd.index(x)`` (:func:`~.lists.index_of`) of a known
        list; unknown for other arguments."""
        if method == "copy" and not args:
            return seq.copy()
        if method == "index" and len(args) == 1 and positional:
            k = index_of(seq.items, self.ev(positional[0].value, frame))
            if k is not None:
                return Const(k, where)
        return Unk(where)

    def _ev_comprehension(self, node: ast.ListComp | ast.GeneratorExp, frame: Frame) -> Value:
        """A comprehension over a known list: ``[c for c in cmd]`` gives its items, ``[c for c in cmd
        if c]`` (or ``if c != ""``) the ones not known to be empty (:func:`~.lists.kept_true`); any
        other one keeps only its entry point (:func:`~.lists.lost_list`). Unknown over anything else."""
        where = self.span(node)
        if len(node.generators) != 1 or node.generators[0].is_async:
            return Unk(where)
        gen = node.generators[0]
        it = self.ev(gen.iter, frame)
        if not isinstance(it, Seq):
            return Unk(where)
        name = gen.target.id if isinstance(gen.target, ast.Name) else None
        as_str = _is_call_of(node.elt, "str", name)  # [str(c) for c in cmd]: the idiom for an int port
        if name is None or not (as_str or isinstance(node.elt, ast.Name) and node.elt.id == name):
            return lost_list(it.items, where)
        items = list(it.items)
        for test in gen.ifs:  # the filters see the items before the element is made of them
            if _drops_empty(test, name):
                items = kept_true(items)
            elif _drops_none(test, name):
                items = [i for i in items if not (isinstance(i, Const) and i.value is None)]
            else:
                return lost_list(it.items, where)
        return Seq(_as_text_items(items, where) if as_str else items)

    def _call_filter(self, q, args, positional, frame: Frame, where: Span) -> Value | None:
        """``filter(None, cmd)`` / ``filter(bool, cmd)`` of a known list: the items not known to be
        empty; ``sorted(cmd)``, ``reversed(cmd)`` and any other filter keep only its entry point."""
        if not (len(positional) == len(args) == (2 if q == "builtins.filter" else 1)):
            return None
        v = self.ev(positional[-1].value, frame)
        if not isinstance(v, Seq):
            return None
        keep = positional[0].value
        if q == "builtins.filter" and ((isinstance(keep, ast.Constant) and keep.value is None) or
                                       (isinstance(keep, ast.Name) and keep.id == "bool")):
            return Seq(kept_true(v.items))
        return lost_list(v.items, where)

    def _call_map(self, q, args, positional, frame: Frame, where: Span) -> Value | None:
        """``map(str, cmd)`` of a known list (the idiom for an argv with an int port): each item as text,
        an item not known as text unknown; any other function mapped: None (not modelled)."""
        if not (len(positional) == len(args) == 2 and isinstance(positional[0].value, ast.Name)
                and positional[0].value.id == "str"):
            return None
        v = self.ev(positional[1].value, frame)
        if not isinstance(v, Seq):
            return None
        return Seq(_as_text_items(v.items, where))

    def _call_copy(self, q, args, positional, frame: Frame, where: Span) -> Value | None:
        """``copy.copy(cmd)`` / ``copy.deepcopy(cmd)`` of a known list: the same items."""
        if not (len(positional) == len(args) == 1):
            return None
        v = self.ev(positional[0].value, frame)
        return Seq(list(v.items), v.kind) if isinstance(v, Seq) else None

    def _modelled_call(self, q: str, node, args, positional, frame: Frame, where: Span) -> Value | None:
        """The value of a call of the callable named ``q`` that the analysis models, or None."""
        step = _CALL_STEPS.get(q)
        if step is not None:
            return getattr(self, step)(q, args, positional, frame, where)
        if q in MODAL_APPS:  # modal.App(..., image=IMAGE): the default image of its functions
            image = next((self.ev(a.value, frame) for a in args if a.keyword is not None
                          and a.keyword == "image"), None)
            return Instance(q, image.image if isinstance(image, Instance) else None)
        if q.startswith(MODAL_IMAGE + "."):  # modal.Image.from_registry(...) and the like
            return Instance(MODAL_IMAGE, self._image_ref(node, frame))
        return None

    def _call_shlex_split(self, q, args, positional, frame: Frame, where: Span) -> Value | None:
        if not (len(positional) >= 1 and len(args) == len(positional)):
            return None
        v = self.ev(positional[0].value, frame)
        if isinstance(v, Str):
            try:
                return Seq([Splat(t.text.where) if t.splat and self.is_splat(t) else Str(t.text, t.joinable)
                            for t in split_words(v.m)])
            except SplitError:
                return Unk(where)
        return Unk(where)

    def _call_str(self, q, args, positional, frame: Frame, where: Span) -> Value | None:
        if not (len(args) == 1 and positional):
            return None
        m = as_text(self.ev(positional[0].value, frame))
        return Str(m) if m is not None else Unk(where)

    def _call_sequence(self, q, args, positional, frame: Frame, where: Span) -> Value | None:
        """``list(x)``, ``tuple(x)`` of a known sequence; ``list()``, ``tuple()``."""
        kind = "list" if q.endswith("list") else "tuple"
        if len(args) == 1 and positional:
            v = self.ev(positional[0].value, frame)
            if isinstance(v, Seq) and self.budget.charge(len(v.items), "a Python list", where):
                return Seq(list(v.items), kind)
            return Unk(where)
        if not args:
            return Seq([], kind)
        return None

    def _call_dict(self, q, args, positional, frame: Frame, where: Span) -> Value:
        d = DictV([])
        for a in args:
            if a.keyword is not None:
                d.set(self._kw_entry(a, frame))
            elif a.star == "**" or (not a.star and len(positional) == 1):
                d.merge(self.ev(a.value, frame))
            else:
                d.merge(None)
        return d

    def return_value(self, fv: FuncV, where: Span | None, args: tuple | None = None) -> Value:
        """What a call of a module function or method returns when every path ends in ``return``:
        its returned expressions, evaluated where they stand and joined — with the parameters bound
        to ``args`` (:meth:`bind_args`; None: the arguments are unknown). A method bound to a class
        runs for that class. A recursive call, and a chain of calls deeper than
        ``limits.MAX_CALL_DEPTH``, is unknown; a ``return`` that calls back into the function gives the
        list another ``return`` gives, then words not known (:func:`_grown_by_recursion`). Remembered
        per argument values."""
        owner = fv.owner or self
        scope = owner.index.scope_of_node.get(id(fv.node))
        key = (id(scope), id(fv.bound))
        mkey = key if args is None else key + (args[0],)
        # Evaluated before with the same arguments: in full, or at this depth of the chain of calls
        # being evaluated when a chain too deep was cut short under it.
        depth = len(owner.returning)
        done = owner.returned.get((mkey, None))
        if done is None:
            done = owner.returned.get((mkey, depth))
        if done is not None:
            return copy_value(done)
        if scope is None or scope.kind != "function":
            return Unk(where)
        if key in owner.returning:
            owner.cuts[0] += 1  # a recursion cut short: what encloses it is not remembered
            return Unk(where)
        if depth >= limits.MAX_CALL_DEPTH:
            owner.cuts[1] += 1  # a chain too deep: what encloses it is remembered for its depth
            return Unk(where)
        returns = returns_in(scope.node.body)
        if not returns or len(returns) > 4 * limits.MAX_PATH_VARIANTS or not owner.block_ends(scope.node.body):
            return Unk(where)
        owner.returning.add(key)
        cuts = list(owner.cuts)
        try:
            pairs = []
            varies = False
            recursive: set[int] = set()  # the pairs whose return expression calls back into the function
            for k, ret in enumerate(returns):
                at = owner.frame_before(scope, owner.offsets(ret)[0], fv.bound, args)
                if at.unreachable:
                    continue  # in a branch the file decides against (issue 35)
                if ret.value is None:
                    v = Const(None, owner.span(ret))
                else:
                    # its own paths (``return A if c else B``), apart from the caller's: the caller
                    # picks from what it returns
                    before = owner.cuts[0]
                    runs = owner.along_paths(lambda: owner.ev(ret.value, at))
                    if owner.cuts[0] > before:
                        recursive.add(len(pairs))
                    varies = varies or len(runs) > 1
                    v = runs[0][1] if len(runs) == 1 else choose(runs, limits.MAX_PATH_VARIANTS)
                    if v is None:
                        v = Unk(where)
                pairs.append((((("return",) + key, k, owner.return_label(scope.node, ret)),), v))
            if not pairs:
                return Unk(where)
            if recursive:
                pairs = _grown_by_recursion(pairs, recursive, where)
            # a value per return (early returns on paths the linter cannot decide: issue 35)
            got = choose(pairs, limits.MAX_PATH_VARIANTS) if len(pairs) > 1 else pairs[0][1]
            if got is None or self.taken is None:
                got = collapse(Choice([(c, x) for c, x in pairs]) if len(pairs) > 1 else pairs[0][1], where)
            if owner.cuts[0] == cuts[0] and len(pairs) == 1 and not varies:
                # one value whatever the path: remembered (a value per path depends on the path taken)
                owner.returned[(mkey, None if owner.cuts[1] == cuts[1] else depth)] = got
            return copy_value(got)
        finally:
            owner.returning.discard(key)

    def return_label(self, fn, ret) -> str:
        """The path on which ``fn`` (a function node) ends in ``ret`` (one of its ``return``s), in words:
        the tests of the ``if``s around it, of the ``if``s before it (at its level or around it) whose
        body returns, and the ``case`` of a ``match`` it is in ("`a` is false and `mode` matches
        `"det"`"); else its line."""
        def find(block, before: list):
            prev = list(before)
            for st in block:
                if st is ret:
                    return prev
                if isinstance(st, ast.If):
                    tests = [(st.body, self.truth(st.test, True)), (st.orelse, self.truth(st.test, False))]
                    for sub, label in tests:
                        got = find(sub, prev + [label])
                        if got is not _MISSING:
                            return got
                    prev.extend(self._falls_through(st))
                elif isinstance(st, ast.Match):
                    subject = self.truth(st.subject, True).rsplit(" is ", 1)[0]
                    for case in st.cases:
                        s, e = self.offsets(case.pattern)
                        got = find(case.body, prev + [f"{subject} matches `{self.source.text[s:e]}`"])
                        if got is not _MISSING:
                            return got
                elif isinstance(st, (ast.For, ast.While, ast.With, ast.Try)):
                    for sub in (getattr(st, "body", []), getattr(st, "orelse", []), getattr(st, "finalbody", [])):
                        got = find(sub, prev)
                        if got is not _MISSING:
                            return got
                    for h in getattr(st, "handlers", []):
                        got = find(h.body, prev)
                        if got is not _MISSING:
                            return got
            return _MISSING
        got = find(fn.body, [])
        name = getattr(fn, "name", "the function")
        return " and ".join(got) if got and got is not _MISSING else f"`{name}` returns at line {self.span(ret).line}"

    def _falls_through(self, st: ast.If) -> list[str]:
        """What holds after ``st`` when one of its branches returns: its test failing (the body
        returns), and so on along an ``elif`` chain whose branches return; or its test holding (the
        ``else`` returns)."""
        if self.block_ends(st.body):
            rest = st.orelse
            more = self._falls_through(rest[0]) if len(rest) == 1 and isinstance(rest[0], ast.If) else []
            return [self.truth(st.test, False)] + more
        if st.orelse and self.block_ends(st.orelse):
            return [self.truth(st.test, True)]
        return []

    def _image_ref(self, call, frame: Frame) -> MStr | None:
        """The last ``lmsysorg/sglang:TAG`` written in the arguments of a Modal image call."""
        found = None
        for a in call_args(call):
            v = self.ev(a.value, frame)
            for item in (v.items if isinstance(v, Seq) else [v]):
                if isinstance(item, Str):
                    for m in SGLANG_IMAGE.finditer(item.m.text):
                        found = item.m[m.start("ref"):m.end("ref")]
        return found

    def str_format(self, fmt: MStr, call, frame: Frame, where: Span) -> Value:
        """``fmt.format(...)``: replacement fields ``{}``, ``{0}``, ``{name}`` (``!s`` allowed) of known
        values become their text, with the origins of the values; any other field (a conversion, a
        format spec, an attribute or an index, a value not known) becomes unknown text. What Python
        would refuse (a missing argument, mixed numbering, an unbalanced brace) is unknown as a whole."""
        positional: list = []
        keywords: dict = {}
        open_args = False  # a *x or **x whose items are not all known
        for a in call_args(call):
            if a.keyword is not None:
                keywords[a.keyword] = self.ev(a.value, frame)
            elif a.star == "*":
                v = self.ev(a.value, frame)
                if isinstance(v, Seq) and not any(isinstance(i, Splat) for i in v.items):
                    positional.extend(v.items)
                else:
                    open_args = True
            elif a.star == "**":
                v = self.ev(a.value, frame)
                if isinstance(v, DictV) and not v.open:
                    keywords.update({e.key: e.value for e in v.entries})
                else:
                    open_args = True
            else:
                positional.append(self.ev(a.value, frame))
        return format_text(fmt, positional, keywords, open_args, where, self.budget)


    def _kw_entry(self, arg, frame: Frame) -> Entry:
        return Entry(arg.keyword, self.ev(arg.value, frame), self.span(arg.node), self.keyword_span(arg),
                     self.span(arg.value))

    def join(self, sep: MStr, v: Value, where: Span) -> Value:
        if not isinstance(v, Seq):
            return Unk(where)
        parts: list[MStr] = []
        size = sum(len(i.m) if isinstance(i, Str) else 1 for i in v.items) + len(sep) * max(0, len(v.items) - 1)
        if not self.budget.charge(size, "a Python string joined", where):
            return Unk(where)
        for k, item in enumerate(v.items):
            if k:
                parts.append(sep)
            if isinstance(item, Splat):
                parts.append(self._splat_mstr(item.where))
            else:
                m = as_text(item) if isinstance(item, Str) else None
                parts.append(m if m is not None else MStr.unknown(getattr(item, "where", None)))
        return Str(MStr.join(parts, where)) if parts else Str(MStr.plain("", where))

    def _splat_mstr(self, where: Span | None) -> MStr:
        """An unknown character that stands for any number of words (remembered by identity)."""
        origin = UnknownOrigin(where.source, where.start, where) if where is not None else UnknownOrigin(self.source, 0)
        if where is None:  # (labelled by the expression that reads it: :meth:`ev`)
            self.unlabelled.append(origin)
        self._keep.append(origin)
        self.splat_ids.add(id(origin))
        return MStr(UNKNOWN_CHAR, [origin], where)

    def is_splat(self, token: Token) -> bool:
        o = token.text.origins[0] if token.text.origins else None
        return o is not None and id(o) in self.splat_ids


def _index(items: list, key) -> object:
    """``items[key]`` for a constant ``key`` (an item, or a list for a slice), or None when which items
    it takes is not known (a :class:`Splat` before it, a bound that is not a constant of at least 0)."""
    def known(upto: int) -> bool:
        return not any(isinstance(i, Splat) for i in items[:upto])

    if isinstance(key, ast.UnaryOp) and isinstance(key.op, ast.USub) and isinstance(key.operand, ast.Constant) \
            and type(key.operand.value) is int:
        key = ast.Constant(-key.operand.value)  # ``argv[-1]`` is written as a minus and a number
    if isinstance(key, ast.Constant) and type(key.value) is int:
        k = key.value
        if 0 <= k < len(items) and known(k + 1):
            return items[k]
        if -len(items) <= k < 0 and not any(isinstance(i, Splat) for i in items[k:]):
            return items[k]
        return None
    if isinstance(key, ast.Slice) and key.step is None:
        bounds = [b.value if isinstance(b, ast.Constant) and type(b.value) is int and b.value >= 0 else -1
                  for b in (key.lower, key.upper) if b is not None]
        if -1 in bounds:
            return None
        lo = key.lower.value if key.lower is not None else 0
        hi = key.upper.value if key.upper is not None else None
        if known(lo) and (hi is None or known(hi)):
            return list(items[lo:hi])
    return None


_EV_STEPS = {ast.Constant: "_ev_constant", ast.JoinedStr: "_ev_joined", ast.Name: "_ev_name",
             ast.Attribute: "_ev_attribute", ast.List: "_ev_sequence", ast.Tuple: "_ev_sequence",
             ast.Dict: "_ev_dict", ast.UnaryOp: "_ev_unary", ast.BinOp: "_ev_binop", ast.Call: "_ev_call",
             ast.NamedExpr: "_ev_named", ast.IfExp: "_ev_if", ast.Subscript: "_ev_subscript",
             ast.ListComp: "_ev_comprehension", ast.GeneratorExp: "_ev_comprehension"}
"""The step of :meth:`Evaluator._ev` per kind of expression."""
_CALL_STEPS = {"shlex.split": "_call_shlex_split", "builtins.str": "_call_str", "builtins.list": "_call_sequence",
               "builtins.tuple": "_call_sequence", "builtins.dict": "_call_dict", "builtins.filter": "_call_filter",
               "builtins.sorted": "_call_filter", "builtins.reversed": "_call_filter", "builtins.map": "_call_map",
               "copy.copy": "_call_copy", "copy.deepcopy": "_call_copy"}
"""The step of :meth:`Evaluator._modelled_call` per callable it models (each: the value, or None
for arguments it does not read)."""
_STR_METHODS = frozenset({"join", "split", "strip", "lstrip", "rstrip", "format"})
_LIST_METHODS = frozenset({"copy", "index"})
"""The methods of a known list whose result :meth:`Evaluator._list_method` knows."""
"""The methods of a known string whose result :meth:`Evaluator._str_method` knows."""


def _equality(test) -> tuple | None:
    """``(subject text, constant)`` of a test ``subject == constant`` (either side; a string or an
    int constant), else None."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not isinstance(right, ast.Constant) or isinstance(left, ast.Constant) or \
            type(right.value) not in (str, int):
        return None
    try:
        return ast.unparse(left), (type(right.value).__name__, right.value)
    except (ValueError, RecursionError):
        return None


def _as_text_items(items: list, where: Span) -> list:
    """``items`` as ``str()`` gives them (``map(str, cmd)``, ``[str(c) for c in cmd]``): each item as
    text, an item not known as text unknown (at ``where``), a run of unknown items kept as it is."""
    out: list = []
    for item in items:
        m = None if isinstance(item, Splat) else as_text(item)
        out.append(item if isinstance(item, Splat) else Str(m) if m is not None else Unk(where))
    return out


def _is_call_of(node, func: str, name: str | None) -> bool:
    """``node`` is ``func(name)``: one positional argument, the name, and no keyword."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == func and \
        not node.keywords and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == name


def _drops_none(test, name: str) -> bool:
    """``test`` is ``name is not None`` or ``name != None`` (a comprehension's filter that drops the
    ``None`` a conditional item gives: ``"--flag" if det else None``)."""
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.IsNot, ast.NotEq)) \
        and isinstance(test.left, ast.Name) and test.left.id == name \
        and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None


def _drops_empty(test, name: str) -> bool:
    """``test`` is ``name``, ``name != ""`` or ``len(name)`` / ``len(name) > 0`` (a comprehension's
    filter that drops empty words)."""
    if isinstance(test, ast.Name):
        return test.id == name
    if _is_call_of(test, "len", name):
        return True
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Gt) and \
            _is_call_of(test.left, "len", name) and isinstance(test.comparators[0], ast.Constant) and \
            test.comparators[0].value == 0:
        return True
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq) and \
        {type(test.left), type(test.comparators[0])} == {ast.Name, ast.Constant} and \
        {getattr(test.left, "id", None), getattr(test.comparators[0], "id", None)} == {name, None} and \
        "" in (getattr(test.left, "value", None), getattr(test.comparators[0], "value", None))


def _stripped(m: MStr, method: str) -> MStr:
    """``m`` without its leading (``lstrip``), trailing (``rstrip``) or both (``strip``) blanks."""
    text = m.text
    i, j = 0, len(text)
    if method != "rstrip":
        while i < j and text[i].isspace():
            i += 1
    if method != "lstrip":
        while j > i and text[j - 1].isspace():
            j -= 1
    return m[i:j]


def _grown_by_recursion(pairs: list, recursive: set[int], where: Span | None) -> list:
    """``pairs`` (``(conds, value)`` per ``return``) with each return that calls back into its
    function (``return build(n - 1) + [...]``, a recursion cut short: unknown, or a list that starts
    with unknown items) made the list a non-recursive return gives, then words not known, then what
    that return adds after the call — the launch the last level builds, not fully verified, rather
    than none (issue 35). Unchanged without a non-recursive list return."""
    base = next((v for k, (_, v) in enumerate(pairs) if k not in recursive and isinstance(v, Seq)), None)
    if base is None:
        return pairs
    out = []
    for k, (conds, v) in enumerate(pairs):
        if k in recursive and (isinstance(v, Unk) or isinstance(v, Seq) and v.items and isinstance(v.items[0], Splat)):
            rest = v.items[1:] if isinstance(v, Seq) else []
            v = Seq(list(base.items) + [Splat(where)] + rest, base.kind)
        out.append((conds, v))
    return out
