"""Python values as the analysis knows them, and the join of the values two paths of the code leave.

Every value is statically known (a string whose characters keep their source origins, a constant, a
list or tuple, a dict of keyword entries, a module or object reference, a function or class of the
module) or a stand-in for an unknown one (:class:`Unk`; :class:`Splat`, any number of unknown list
items). Nothing here knows the syntax tree.
"""

from __future__ import annotations

import os
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
    the file whose relative import (``from .common import X``: ``qual`` ``.common.X``) made it; ``at``
    the span of the import statement (where a refused read of the module is reported), or None."""

    __slots__ = ("qual", "importer", "at")

    def __init__(self, qual: str, importer: object = None, at=None) -> None:
        self.qual = qual
        self.importer = importer
        self.at = at


class Instance(Value):
    """An object made by a known call (``modal.App(...)``, ``modal.Image.from_registry(...)``) or a
    method of one (``qual`` ends in ``#method``). ``image`` is the ``lmsysorg/sglang:TAG`` reference a
    Modal image is built from, when its source names one."""

    __slots__ = ("qual", "image")

    def __init__(self, qual: str, image: MStr | None = None) -> None:
        self.qual = qual
        self.image = image


class DataInstance(Value):
    """An instance of a dataclass of the module built from constants (:mod:`.dataclass_values`): ``qual`` its
    class, ``fields`` ``{field: value}`` — those whose value the file gives (the argument, else the
    default). Never changed in place (an attribute it is not given is unknown)."""

    __slots__ = ("qual", "fields")

    def __init__(self, qual: str, fields: dict) -> None:
        self.qual = qual
        self.fields = fields


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
    true"). At most ``limits.MAX_PATH_VARIANTS`` options. ``depth`` 0: no ``value`` is a Choice (or
    a :class:`Deferred`); past the cap, a join keeps the values of its paths as they are — each
    a Choice or Deferred itself, ``depth`` counting how deep they nest (``limits.MAX_PATH_NESTING``):
    a value per path without a list of every path."""

    __slots__ = ("options", "depth")

    def __init__(self, options: list, depth: int = 0) -> None:
        self.options = options
        self.depth = depth


class Deferred(Value):
    """A value computed where it is read, on the path of the run under way: what a statement leaves
    when the values it reads vary along more paths than ``limits.MAX_PATH_VARIANTS`` (``train_args =
    f"{a}{b}…"`` reading twenty values each set in its own ``if``), so the launch that reads it keeps
    the paths that matter (:mod:`.paths`). ``compute()`` gives the value in the evaluation mode of
    ``owner`` (the analysis of its module); ``merged_value`` caches the value with every path merged
    (:meth:`merged`); ``depth`` is how deep the Choices and Deferreds it reads nest."""

    __slots__ = ("compute", "owner", "merged_value", "depth")

    def __init__(self, compute, owner, depth: int = 0) -> None:
        self.compute = compute
        self.owner = owner
        self.merged_value = None
        self.depth = depth

    def merged(self):
        """The value with every path merged: what all paths agree on known, the rest unknown."""
        return self.owner.deferred_merged(self)


def nesting(v) -> int:
    """How deep Choices and Deferreds nest in ``v`` (0 for any other value)."""
    return v.depth + 1 if isinstance(v, (Choice, Deferred)) else 0


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
    DataInstance: lambda a, b: a.qual == b.qual and a.fields.keys() == b.fields.keys() and
    all(same(v, b.fields[k]) for k, v in a.fields.items()),
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
    if isinstance(a, Deferred) or isinstance(b, Deferred):
        return join_values(a.merged() if isinstance(a, Deferred) else a,
                           b.merged() if isinstance(b, Deferred) else b, where, memo)
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


def merge(a, b, unknown):
    """One value for two paths' values ``a`` and ``b`` (concrete, not Choices) where the difference
    does not matter (:mod:`.paths`): what they share stays known with its origins, what differs is
    unknown — a string keeps its common start and end around ``unknown(words)`` (an unknown piece
    of text; ``words``: it may hold blanks, so be several words), a list its common first and last
    items around a :class:`Splat`; otherwise as :func:`join_values`."""
    if same(a, b):
        return a
    if isinstance(a, Str) and isinstance(b, Str) and a.joinable == b.joinable:
        return Str(_merge_text(a.m, b.m, unknown), a.joinable)
    if isinstance(a, Seq) and isinstance(b, Seq) and a.kind == b.kind:
        x, y = a.items, b.items
        if len(x) == len(y) and all(isinstance(i, Splat) == isinstance(j, Splat) for i, j in zip(x, y)):
            return Seq([i if isinstance(i, Splat) else merge(i, j, unknown) for i, j in zip(x, y)], a.kind)
        return Seq(_merge_items(x, y), a.kind)
    return join_values(a, b, None, {})


_MAX_ALIGN_CELLS = 2_500
"""Most pairs of items compared to align the middles of two lists being merged (50 by 50 items: a
launch's arguments that differ between two paths are a few); past it only their common first and
last items are kept."""


def _merge_items(x: list, y: list) -> list:
    """The items of two paths' lists as one list: the items both have, in the same order (their
    longest common subsequence, :func:`same` items), with a :class:`Splat` wherever either has
    items the other does not. Merged one after another, the paths of twenty undecided ``cmd +=``
    keep an item every path has wherever it sits among them (issue 35: ``--enable-deterministic-
    inference`` appended second of twenty was lost into one unknown middle)."""
    p, q = _shared_ends(x, y)
    mx, my = x[p:len(x) - q], y[p:len(y) - q]
    middle: list = []
    i = j = 0
    for ai, aj in (_common_items(mx, my) if len(mx) * len(my) <= _MAX_ALIGN_CELLS else []):
        if ai > i or aj > j:
            middle.append(Splat(None))
        middle.append(mx[ai])
        i, j = ai + 1, aj + 1
    if i < len(mx) or j < len(my) or not middle:
        middle.append(Splat(None))
    out: list = list(x[:p])
    for item in middle:  # (two unknown runs side by side are one)
        if not (isinstance(item, Splat) and out and isinstance(out[-1], Splat)):
            out.append(item)
    return out + x[len(x) - q:]


def _shared_ends(x: list, y: list) -> tuple[int, int]:
    """(how many first items, how many last items) two lists share (:func:`same` items; the last
    ones counted among those left after the first)."""
    n = min(len(x), len(y))
    p = 0
    while p < n and same(x[p], y[p]):
        p += 1
    q = 0
    while q < n - p and same(x[-1 - q], y[-1 - q]):
        q += 1
    return p, q


def _common_items(x: list, y: list) -> list[tuple[int, int]]:
    """The index pairs of a longest common subsequence of ``x`` and ``y`` (items compared with
    :func:`same`; unknown runs never match)."""
    from linter.branches import common_subsequence

    return common_subsequence(len(x), len(y), lambda i, j: not isinstance(x[i], Splat) and same(x[i], y[j]))


def differing_text(a, b) -> str:
    """The parts of two paths' values that differ, as text (for telling whether they name an option
    that matters): a string's middles between the start and end they share, a list's items between
    its shared first and last ones, a dict's keys whose values differ and those values; "" when
    they are the same."""
    if same(a, b):
        return ""
    if isinstance(a, Str) and isinstance(b, Str):
        from linter.branches import text_middles

        return text_middles(a.m.text, b.m.text)
    if isinstance(a, Seq) and isinstance(b, Seq):
        x, y = a.items, b.items
        p, q = _shared_ends(x, y)
        return " ".join(i.m.text for i in x[max(0, p - 1):len(x) - q] + y[max(0, p - 1):len(y) - q]
                        if isinstance(i, Str))
    if isinstance(a, DictV) and isinstance(b, DictV):
        theirs = {e.key: e.value for e in b.entries}
        keys = [e.key for e in a.entries if e.key not in theirs or not same(e.value, theirs[e.key])]
        keys += [k for k in theirs if k not in {e.key for e in a.entries}]
        return " ".join(keys)
    return ""


def _origin_prefix(x: MStr, y: MStr, n: int, tail: bool) -> int:
    """How many of the first (``tail``: last) ``n`` characters of ``x`` and ``y`` have the same
    origins (the source's identity and the offset; an origin object of one character compares by
    these too: each evaluation of a literal makes new ones). Walks the runs, not the characters."""
    rx, ry = list(x.runs), list(y.runs)
    if tail:
        rx.reverse()
        ry.reverse()
    i = j = 0  # run indexes
    ux = uy = 0  # characters of the current runs used already
    done = 0
    while done < n and i < len(rx) and j < len(ry):
        nx, sx, ox, _ = rx[i]
        ny, sy, oy, _ = ry[j]
        left_x, left_y = nx - ux, ny - uy
        # the next character's offset in each run (from its end when walking back)
        cx = (ox + nx - 1 - ux) if tail else ox + ux
        cy = (oy + ny - 1 - uy) if tail else oy + uy
        if sx is not sy or (sx is not None and cx != cy):
            break
        step = min(left_x, left_y, n - done)
        done += step
        ux += step
        uy += step
        if ux == nx:
            i, ux = i + 1, 0
        if uy == ny:
            j, uy = j + 1, 0
    return done


def merge_texts(values: list, unknown) -> tuple[Str, list[str]]:
    """Several paths' strings (``Str`` values alike in ``joinable``) as one: the start and end they
    all share kept (as :func:`merge`), and between them the words every path writes in the same order
    (kept with their origin where every path has the same, as plain text where each path wrote its
    own: issue 35, a ``--sglang-tp-size`` written in both branches of an ``if``), the rest unknown
    pieces; and the text each path has in place of what lies between the start and the end (its
    middle)."""
    ms = [v.m for v in values]
    texts = [m.text for m in ms]
    pt = len(os.path.commonprefix(texts))
    qt = min(len(os.path.commonprefix([t[::-1] for t in texts])), min(len(t) for t in texts) - pt)
    middles = [t[pt:len(t) - qt] for t in texts]
    if not any(c.isspace() for m in middles for c in m):
        pieces = _merge_range(ms, [0] * len(ms), [len(t) for t in texts], unknown)
        return Str(MStr.join(pieces, ms[0].where), values[0].joinable), middles
    rows = _common_words(texts, pt, qt)
    pieces: list = []
    starts = [0] * len(ms)
    for row in rows:
        pieces.extend(_merge_range(ms, starts, [s for s, _ in row], unknown))
        pieces.append(_kept(ms, [s for s, _ in row], row[0][1] - row[0][0]))
        starts = [e for _, e in row]
    pieces.extend(_merge_range(ms, starts, [len(t) for t in texts], unknown))
    return Str(MStr.join(pieces, ms[0].where), values[0].joinable), middles


def _words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each blank-separated word of ``text[start:end]``."""
    out = []
    i = start
    while i < end:
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < end and not text[j].isspace():
            j += 1
        out.append((i, j))
        i = j
    return out


def _common_words(texts: list[str], pt: int, qt: int) -> list[list[tuple[int, int]]]:
    """The whole words every text writes, in the same order, between its first ``pt`` and last ``qt``
    characters (which all share): per word a row of its ``(start, end)`` in each text."""
    from linter.branches import common_subsequence

    def whole(t: str) -> list[tuple[int, int]]:
        end = len(t) - qt
        words = _words(t, pt, end)
        # a word cut by the shared start or end is not whole
        return [(s, e) for s, e in words if (s > 0 and t[s - 1].isspace() or s == 0) and
                (e < len(t) and t[e].isspace() or e == len(t))]

    rows = [[w] for w in whole(texts[0])]
    for t in texts[1:]:
        words = whole(t)
        first = texts[0]
        pairs = common_subsequence(len(rows), len(words), lambda i, j: first[rows[i][0][0]:rows[i][0][1]] ==
                                   t[words[j][0]:words[j][1]])
        rows = [rows[i] + [words[j]] for i, j in pairs]
    return rows


def _kept(ms: list[MStr], starts: list[int], n: int) -> MStr:
    """The ``n`` characters every path writes at ``starts``: with the first path's origins when all
    have the same, else plain text."""
    first = ms[0][starts[0]:starts[0] + n]
    if all(_origin_prefix(first, m[s:s + n], n, tail=False) == n for m, s in zip(ms[1:], starts[1:])):
        return first
    return MStr.plain(first.text)


def _merge_range(ms: list[MStr], starts: list[int], ends: list[int], unknown) -> list[MStr]:
    """The pieces of ``ms[i][starts[i]:ends[i]]`` merged: the start and end they share kept (with
    their origins where all have the same), one unknown piece between (any number of words when the
    texts differ in several words or one leaves out a whole word, else part of one); nothing when
    they are the same text."""
    parts = [m[s:e] for m, s, e in zip(ms, starts, ends)]
    first = parts[0]
    texts = [x.text for x in parts]
    n = len(first.text)
    if all(t == texts[0] for t in texts[1:]):
        return [_kept(ms, starts, n)] if n else []
    pt = len(os.path.commonprefix(texts))
    qt = min(len(os.path.commonprefix([t[::-1] for t in texts])), min(len(t) for t in texts) - pt)
    p = min(_origin_prefix(first, x, pt, tail=False) for x in parts[1:])
    q = min(_origin_prefix(first, x, qt, tail=True) for x in parts[1:])
    mids = [t[pt:len(t) - qt] for t in texts]
    full, at, end = ms[0].text, starts[0] + pt, ends[0] - qt
    boundary = (at == 0 or full[at - 1].isspace()) and (end == len(full) or full[end].isspace())
    words = any(c.isspace() for m in mids for c in m) or boundary and not all(mids)
    return [first[:p], MStr.plain(first.text[p:pt]), unknown(words), MStr.plain(first.text[n - qt:n - q]),
            first[n - q:]]


def _merge_text(x: MStr, y: MStr, unknown) -> MStr:
    """``x`` and ``y`` (two paths' texts) as one: the start and end they share kept (with their origins
    where both have the same, as plain text where the same text was written in two places), the
    middle an unknown piece."""
    tx, ty = x.text, y.text
    if tx == ty:
        p = _origin_prefix(x, y, len(tx), tail=False)
        q = _origin_prefix(x, y, len(tx) - p, tail=True)
        return MStr.join([x[:p], MStr.plain(tx[p:len(tx) - q]), x[len(tx) - q:]], x.where)
    pt = len(os.path.commonprefix([tx, ty]))
    qt = min(len(os.path.commonprefix([tx[::-1], ty[::-1]])), min(len(tx), len(ty)) - pt)
    p = _origin_prefix(x, y, pt, tail=False)
    q = _origin_prefix(x, y, qt, tail=True)
    mx, my = tx[pt:len(tx) - qt], ty[pt:len(ty) - qt]
    # several words, or a whole word that one path leaves out: any number of words
    boundary = (pt == 0 or tx[pt - 1].isspace()) and (qt == 0 or tx[len(tx) - qt].isspace())
    words = any(c.isspace() for c in mx + my) or boundary and not (mx and my)
    return MStr.join([x[:p], MStr.plain(tx[p:pt]), unknown(words), MStr.plain(tx[len(tx) - qt:len(tx) - q]),
                      x[len(tx) - q:]], x.where)


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
    return Choice(options, max(nesting(x) for _, x in options))


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
    if isinstance(v, Deferred):
        return ("D", id(v))
    if isinstance(v, Ref):
        return ("r", v.qual, str(v.importer))
    if isinstance(v, FuncV):
        return ("f", id(v.node), id(v.bound))
    if isinstance(v, ClassV):
        return ("C", id(v.scope))
    if isinstance(v, DataInstance):
        return ("R", v.qual, tuple((k, fingerprint(x)) for k, x in v.fields.items()))
    if isinstance(v, Instance):
        return ("i", v.qual, v.image.text if v.image is not None else None)
    return ("o", type(v).__name__)


def copy_value(v):
    """A copy of a list or dict (its own container, the same items); any other value itself."""
    if isinstance(v, (Seq, DictV)):
        return v.copy()
    return v
