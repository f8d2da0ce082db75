"""Plain record classes: what :func:`dataclasses.dataclass` writes for a class, written once by hand.

A class made with ``@dataclass`` costs its module about a millisecond at import (its methods are
generated as source and compiled on every start), and importing :mod:`dataclasses` loads
:mod:`inspect` with ``ast``, ``dis`` and ``tokenize``: measured together, some 30 ms of a run
answered from the result cache (scripts/bench.py, "one compose file, warm cache"), which does little
else. The classes such a run needs (settings, sources and spans, results, findings and fixes,
formats, counts) derive from :class:`Record` instead: each writes its ``__init__`` out, and
:class:`Record` gives the ``__repr__`` and ``__eq__`` a dataclass has, from the field names in
``_fields`` (:class:`FrozenRecord` also the ``__hash__`` and the refusal to assign that
``frozen=True`` gives). :func:`replace` stands for :func:`dataclasses.replace`. The classes the
extractors and rules use stay dataclasses: a cached run never loads them.
"""

from __future__ import annotations


class Record:
    """A class whose fields are named by ``_fields`` (in ``__init__``'s order): compared field by field
    with an object of the same class, shown as ``Name(field=value, ...)``, and unhashable, as a
    dataclass with ``eq=True`` is."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class FrozenRecord(Record):
    """A :class:`Record` that cannot be changed once made (``__init__`` writes ``self.__dict__``), hashed by
    its fields. Raises AttributeError on assignment, as ``dataclasses.FrozenInstanceError`` does."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")


def replace(obj: Record, **changes):
    """A new record of ``obj``'s class with ``obj``'s fields but ``changes``, made through ``__init__``
    (as :func:`dataclasses.replace`). Raises TypeError for a name that is not a field."""
    unknown = set(changes) - set(obj._fields)
    if unknown:
        raise TypeError(f"{type(obj).__qualname__} has no field {sorted(unknown)[0]!r}")
    return type(obj)(**{name: changes.get(name, getattr(obj, name)) for name in obj._fields})


# ``@dataclass`` made cheaper to define (cold path, issue 37).
# ``@dataclass`` as the standard library's, made cheaper to define: start-up is part of every run.
#
# The standard decorator writes each method it adds as source text and compiles it (``exec``): about
# 1 ms a class, 80 ms of a compose file's 0.3 s run for the 80 classes that run defines. Only
# ``__init__`` (and a frozen class's ``__setattr__``/``__delattr__``) are compiled here, by the standard
# decorator; ``__repr__``, ``__eq__`` and ``__hash__`` are built from :func:`operator.attrgetter`
# instead, with the same results as CPython 3.10–3.12 ``dataclasses`` gives:
#
# - ``__repr__``: ``Name(a=1, b='x')`` (the class's ``__qualname__``, the fields with ``repr=True``),
#   ``...`` for an object already being shown in the same thread;
# - ``__eq__``: ``NotImplemented`` unless ``other.__class__ is self.__class__``, else the tuples of the
#   fields with ``compare=True`` compared;
# - ``__hash__``: with ``eq`` and ``frozen``, the hash of the tuple of the fields with ``hash=True`` (or
#   ``hash=None`` and ``compare=True``); with ``eq`` and not ``frozen``, ``None`` (unhashable); none
#   added when the class body writes ``__hash__`` (or writes none of them with ``eq=False``).
#
# A method the class body writes itself is kept, as the standard decorator keeps it. Only the keyword
# arguments the linter uses are taken (``frozen``, ``eq``); ``dataclasses.fields``, ``replace``,
# ``asdict``, ``is_dataclass``, pickling and copying work as on any dataclass (``__dataclass_params__``
# reads ``repr=False, eq=False``: nothing reads it but the standard decorator, for ``frozen``).

from _thread import get_ident  # noqa: E402
from operator import attrgetter  # noqa: E402


def dataclass(cls=None, /, *, frozen: bool = False, eq: bool = True):
    """``dataclasses.dataclass(cls, frozen=frozen, eq=eq)``, with ``__repr__``, ``__eq__`` and
    ``__hash__`` built without compiling source (see the module docstring). Usable bare (``@dataclass``)
    or called (``@dataclass(frozen=True)``)."""

    def wrap(cls):
        return _process(cls, frozen, eq)

    return wrap if cls is None else wrap(cls)


def _process(cls, frozen: bool, eq: bool):
    import dataclasses  # here, not at the top: a cached run loads records but defines no dataclass

    body = cls.__dict__
    own_repr, own_eq = "__repr__" in body, "__eq__" in body
    class_hash = body.get("__hash__", dataclasses.MISSING)
    # (as dataclasses._process_class: a body that writes __eq__ alone gets __hash__ = None from type())
    explicit_hash = not (class_hash is dataclasses.MISSING or (class_hash is None and own_eq))
    cls = dataclasses.dataclass(cls, frozen=frozen, repr=False, eq=False)
    fields = dataclasses.fields(cls)
    if not own_repr:
        _add(cls, "__repr__", _repr_fn([f.name for f in fields if f.repr]))
    if eq:
        if not own_eq:
            _add(cls, "__eq__", _eq_fn(_getter([f.name for f in fields if f.compare])))
        if not explicit_hash:
            if frozen:
                names = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
                _add(cls, "__hash__", _hash_fn(_getter(names)))
            else:
                cls.__hash__ = None
    return cls


def _add(cls, name: str, fn) -> None:
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)


def _getter(names: list[str]):
    """The tuple of the attributes ``names`` of an object (a tuple for one name, and for none, too)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr_fn(names: list[str]):
    running: set = set()
    getters = [(f"{n}=", attrgetter(n)) for n in names]

    def __repr__(self) -> str:
        key = id(self), get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            shown = ", ".join([f"{label}{get(self)!r}" for label, get in getters])
            return f"{self.__class__.__qualname__}({shown})"
        finally:
            running.discard(key)

    return __repr__


def _eq_fn(values):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash_fn(values):
    def __hash__(self) -> int:
        return hash(values(self))

    return __hash__
