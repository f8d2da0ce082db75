"""Python values as the analysis knows them, and the join of the values two paths of the code leave.

Every value is statically known (a string whose characters keep their source origins, a constant, a
list or tuple, a dict of keyword entries, a module or object reference, a function or class of the
module) or a stand-in for an unknown one (:class:`Unk`; :class:`Splat`, any number of unknown list
items). Nothing here knows the syntax tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linter.launch import MStr
from linter.source import Span

if TYPE_CHECKING:
    from linter.extract.python.scopes import Scope


class Value:
    """A statically known Python value (or a stand-in for an unknown one). Values compare by identity;
    they are plain classes (not dataclasses: the Python format's start-up is part of every run)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"


class Str(Value):
    __slots__ = ("m", "joinable")

    def __init__(self, m: MStr, joinable: bool = False) -> None:
        self.m = m
        self.joinable = joinable  # a word of a string split on blanks: text added after it makes new words


class Const(Value):
    __slots__ = ("value", "span")

    def __init__(self, value: object, span: Span | None) -> None:
        self.value = value  # bool, int, float, None
        self.span = span


class Splat:
    """An unknown number of list items (``*args`` of an unknown list)."""

    __slots__ = ("where",)

    def __init__(self, where: Span | None) -> None:
        self.where = where

    __repr__ = Value.__repr__


class Seq(Value):
    __slots__ = ("items", "kind")

    def __init__(self, items: list, kind: str = "list") -> None:
        self.items = items  # of Value or Splat
        self.kind = kind

    def copy(self) -> Seq:
        return Seq(list(self.items), self.kind)


class Entry:
    """A dict item with a known key: its value, where the whole item, its key and its value are written."""

    __slots__ = ("key", "value", "where", "name_span", "value_span")

    def __init__(self, key: str, value: Value, where: Span | None, name_span: Span | None,
                 value_span: Span | None) -> None:
        self.key = key
        self.value = value
        self.where = where
        self.name_span = name_span
        self.value_span = value_span

    __repr__ = Value.__repr__


class DictV(Value):
    __slots__ = ("entries", "open")

    def __init__(self, entries: list[Entry], open: bool = False) -> None:
        self.entries = entries
        self.open = open  # may hold keys that are not known (an unknown ``**x``)

    def copy(self) -> DictV:
        return DictV(list(self.entries), self.open)

    def set(self, entry: Entry) -> None:
        self.entries = [e for e in self.entries if e.key != entry.key] + [entry]

    def merge(self, other) -> None:
        """``self.update(other)``; ``other`` None or not a known dict: any key may be replaced, so
        every value so far becomes unknown (the keys stay, a merge never removes one)."""
        if not isinstance(other, DictV) or other.open:
            self.entries = [Entry(e.key, Unk(e.value_span or e.where), e.where, e.name_span, e.value_span)
                            for e in self.entries]
            self.open = True
        if isinstance(other, DictV):
            for e in other.entries:
                self.set(e)


class Unk(Value):
    __slots__ = ("where",)

    def __init__(self, where: Span | None) -> None:
        self.where = where


class Ref(Value):
    """A module or an object imported from one (``subprocess.Popen``). ``importer`` is the path of
    the file whose relative import (``from .common import X``: ``qual`` ``.common.X``) made it."""

    __slots__ = ("qual", "importer")

    def __init__(self, qual: str, importer: object = None) -> None:
        self.qual = qual
        self.importer = importer


class Instance(Value):
    """An object made by a known call (``modal.App(...)``, ``modal.Image.from_registry(...)``) or a
    method of one (``qual`` ends in ``#method``). ``image`` is the ``lmsysorg/sglang:TAG`` reference a
    Modal image is built from, when its source names one."""

    __slots__ = ("qual", "image")

    def __init__(self, qual: str, image: MStr | None = None) -> None:
        self.qual = qual
        self.image = image


class FuncV(Value):
    """A function or method of an analysed module: its ``ast`` node, the analysis that holds it
    (None: the current one) and, for a method looked up on a class, the class it is bound to."""

    __slots__ = ("node", "owner", "bound")

    def __init__(self, node: object, owner: object = None, bound: Scope | None = None) -> None:
        self.node = node
        self.owner = owner
        self.bound = bound


class ClassV(Value):
    """A class of an analysed module (``scope.owner`` is that module's analysis)."""

    __slots__ = ("scope",)

    def __init__(self, scope: Scope) -> None:
        self.scope = scope


class Choice(Value):
    """A value that differs between paths the analysis cannot decide (the branches of an ``if`` on an
    unknown test, a conditional expression, a function's early returns). ``options`` are
    ``(conds, value)`` pairs: ``conds`` a tuple of ``(decision, branch, label)`` — ``decision`` names
    the ``if``/expression, ``branch`` which of its paths, ``label`` says it in words ("`args.x` is
    true") — and ``value`` is never itself a Choice. At most ``limits.MAX_PATH_VARIANTS`` options."""

    __slots__ = ("options",)

    def __init__(self, options: list) -> None:
        self.options = options


NOTFOUND = object()
"""What a lookup gives for a name bound nowhere it looks (not the same as an unknown value)."""


def same(a, b) -> bool:
    """``a`` and ``b`` are the same value with the same origins (so either may stand for both): one
    comparison per kind of value (:data:`_SAME`); anything else is not the same."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    compare = _SAME.get(type(a))
    return compare is not None and compare(a, b)


def _same_images(a: Instance, b: Instance) -> bool:
    return a.qual == b.qual and (a.image is b.image or (a.image is not None and b.image is not None and
                                                        a.image.origins == b.image.origins))


def _same_choices(a: Choice, b: Choice) -> bool:
    return len(a.options) == len(b.options) and all(
        x[0] == y[0] and same(x[1], y[1]) for x, y in zip(a.options, b.options))


def _same_dicts(a: DictV, b: DictV) -> bool:
    return a.open == b.open and [e.key for e in a.entries] == [e.key for e in b.entries] and \
        all(same(x.value, y.value) for x, y in zip(a.entries, b.entries))


_SAME = {
    Unk: lambda a, b: True,
    Splat: lambda a, b: True,
    Str: lambda a, b: a.joinable == b.joinable and a.m.text == b.m.text and a.m.origins == b.m.origins,
    Const: lambda a, b: type(a.value) is type(b.value) and a.value == b.value and a.span == b.span,
    Ref: lambda a, b: a.qual == b.qual and a.importer == b.importer,
    Instance: _same_images,
    FuncV: lambda a, b: a.node is b.node and a.bound is b.bound,
    ClassV: lambda a, b: a.scope is b.scope,
    Choice: _same_choices,
    Seq: lambda a, b: a.kind == b.kind and len(a.items) == len(b.items) and all(map(same, a.items, b.items)),
    DictV: _same_dicts,
}
"""How :func:`same` compares two values of one type (the exact type: the kinds of value have no
subclasses)."""


def join_values(a, b, where: Span | None, memo: dict):
    """A value that stands for both ``a`` (one path) and ``b`` (another path); ``a`` itself when they
    are the same.

    A list keeps the words both paths agree on: position by position when both have the same number
    of words, else the common first words followed by a :class:`Splat` (any number of unknown words),
    so a list that only one path grew keeps what it had and gets an unknown tail. A dict keeps each key
    whose value both paths agree on; a key only one path set, or set differently, has an unknown value.
    A module reference (an import in a ``try`` or an ``if``) counts on the path where it is bound.
    Anything else that differs is unknown.
    """
    if same(a, b):
        return a
    key = (id(a), id(b))
    got = memo.get(key)
    if got is not None:
        return got[0]
    if isinstance(a, Choice) or isinstance(b, Choice):  # (a loop, a try: joined as before paths were kept)
        out = join_values(collapse(a, where, memo), collapse(b, where, memo), where, memo)
    elif isinstance(b, (Ref, Instance)):
        out = b  # the later binding of a module or a known object
    elif isinstance(a, (Ref, Instance, Unk)):
        out = a
    elif isinstance(a, Seq) and isinstance(b, Seq) and a.kind == b.kind:
        out = Seq(_join_items(a.items, b.items, where, memo), a.kind)
    elif isinstance(a, DictV) and isinstance(b, DictV):
        out = _join_dicts(a, b, where, memo)
    else:
        out = Unk(None)
    memo[key] = (out, a, b)  # a and b kept alive: their ids stay theirs
    return out


def collapse(v, where: Span | None = None, memo: dict | None = None):
    """One value standing for every option of a :class:`Choice` (their join); any other value itself."""
    if not isinstance(v, Choice):
        return v
    memo = {} if memo is None else memo
    acc = v.options[0][1]
    for _, x in v.options[1:]:
        acc = join_values(acc, x, where, memo)
    return acc


def choose(pairs: list, cap: int):
    """A :class:`Choice` of ``pairs`` (``(conds, value)``, a value possibly a Choice itself: its
    options are flattened under ``conds``); the value itself when every path has the same one; None
    when there would be more than ``cap`` options."""
    from linter.branches import flatten

    options = flatten(pairs, Choice, same)
    if options is None:
        v = pairs[0][1]
        return v.options[0][1] if isinstance(v, Choice) else v
    if len(options) > cap:
        return None
    return Choice(options)


def _join_items(a: list, b: list, where: Span | None, memo: dict) -> list:
    if len(a) == len(b) and all(isinstance(x, Splat) == isinstance(y, Splat) for x, y in zip(a, b)):
        return [x if isinstance(x, Splat) else join_values(x, y, where, memo) for x, y in zip(a, b)]
    k = 0
    while k < len(a) and k < len(b) and same(a[k], b[k]):
        k += 1
    items = list(a[:k])
    if not (items and isinstance(items[-1], Splat)):
        items.append(Splat(where))
    return items


def _join_dicts(a: DictV, b: DictV, where: Span | None, memo: dict) -> DictV:
    out = DictV([], a.open or b.open)
    theirs = {e.key: e for e in b.entries}
    for e in a.entries:
        other = theirs.pop(e.key, None)
        if other is not None and same(e.value, other.value):
            out.entries.append(e)
            continue
        value = join_values(e.value, other.value, where, memo) if other is not None else Unk(None)
        if isinstance(value, Unk):
            value = Unk(e.value_span or e.where)
        out.entries.append(Entry(e.key, value, e.where, e.name_span, e.value_span))
    for e in theirs.values():
        out.entries.append(Entry(e.key, Unk(e.value_span or e.where), e.where, e.name_span, e.value_span))
    return out


def fingerprint(v) -> tuple:
    """A hashable key of ``v`` that two values share when :func:`same` holds for them (the text and
    origin of every character, constants with where they are written, the items of a list, the
    entries of a dict): a memo of a function's result per argument values keys on it."""
    if isinstance(v, Str):
        return ("s", v.joinable, v.m.text, tuple((n, id(src), off, id(atom)) for n, src, off, atom in v.m.runs))
    if isinstance(v, Const):
        span = (id(v.span.source), v.span.start) if v.span is not None else None
        return ("c", type(v.value).__name__, v.value, span)
    if isinstance(v, Seq):
        return ("l", v.kind, tuple(fingerprint(i) for i in v.items))
    if isinstance(v, (Splat, Unk)):
        return ("?",)
    if isinstance(v, DictV):
        return ("d", v.open, tuple((e.key, fingerprint(e.value)) for e in v.entries))
    if isinstance(v, Choice):
        return ("ch", tuple((conds, fingerprint(x)) for conds, x in v.options))
    if isinstance(v, Ref):
        return ("r", v.qual, str(v.importer))
    if isinstance(v, FuncV):
        return ("f", id(v.node), id(v.bound))
    if isinstance(v, ClassV):
        return ("C", id(v.scope))
    if isinstance(v, Instance):
        return ("i", v.qual, v.image.text if v.image is not None else None)
    return ("o", type(v).__name__)


def copy_value(v):
    """A copy of a list or dict (its own container, the same items); any other value itself."""
    if isinstance(v, (Seq, DictV)):
        return v.copy()
    return v
