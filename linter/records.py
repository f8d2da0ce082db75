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
