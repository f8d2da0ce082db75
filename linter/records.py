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


def replace(obj, **changes):
    """A new object of ``obj``'s class with ``obj``'s fields but ``changes``, made through ``__init__``,
    as :func:`dataclasses.replace` makes it: for a :class:`Record`, a class made by :func:`dataclass`
    (without loading :mod:`dataclasses`), or any other dataclass (by the standard function). Raises
    TypeError for a name that is not a field, ValueError for a field ``__init__`` does not take."""
    spec = getattr(type(obj), "__rec_spec__", None)
    if spec is not None:
        for f in spec:
            if f.name in changes:
                if not f.init:
                    raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with "
                                     "replace()")
            elif f.init:
                changes[f.name] = getattr(obj, f.name)
        return obj.__class__(**changes)
    if not isinstance(obj, Record):
        import dataclasses

        return dataclasses.replace(obj, **changes)
    unknown = set(changes) - set(obj._fields)
    if unknown:
        raise TypeError(f"{type(obj).__qualname__} has no field {sorted(unknown)[0]!r}")
    return type(obj)(**{name: changes.get(name, getattr(obj, name)) for name in obj._fields})


def init_fields(obj) -> tuple[str, ...] | None:
    """The names of the fields ``__init__`` takes of a dataclass instance (made by :func:`dataclass` or the
    standard decorator), as ``dataclasses.fields`` gives them; None for anything else (a class too).
    Loads :mod:`dataclasses` only for an instance of a class the standard decorator made."""
    spec = getattr(type(obj), "__rec_spec__", None)
    if spec is not None:
        return tuple(f.name for f in spec if f.init)
    if getattr(type(obj), "__dataclass_fields__", None) is None:
        return None
    import dataclasses

    return tuple(f.name for f in dataclasses.fields(obj) if f.init)


# ``@dataclass`` as the standard library's, made cheaper to define: start-up is part of every run.
#
# The standard decorator writes each method it adds as source text and compiles it (``exec``), and
# importing :mod:`dataclasses` loads :mod:`inspect` with ``ast``, ``dis`` and ``tokenize``: together
# about a third of a one-compose-file ``--no-cache`` run (scripts/bench.py, "compose-cold": some 13 ms
# for the import and 1 ms a class for the 65 classes that run defines). Here a class is read without
# that module: ``__init__`` binds its arguments generically for a class's first objects, then is written
# and compiled as the standard one is (:data:`COMPILE_AFTER`; most classes of a run make few objects or
# none); ``__repr__``, ``__eq__``, ``__hash__`` and a frozen
# class's ``__setattr__``/``__delattr__`` are closures, with the same results as CPython 3.10–3.13
# ``dataclasses`` gives:
#
# - ``__repr__``: ``Name(a=1, b='x')`` (the class's ``__qualname__``, the fields with ``repr=True``),
#   ``...`` for an object already being shown in the same thread;
# - ``__eq__``: ``NotImplemented`` unless ``other.__class__ is self.__class__``, else the tuples of the
#   fields with ``compare=True`` compared;
# - ``__hash__``: with ``eq`` and ``frozen``, the hash of the tuple of the fields with ``hash=True`` (or
#   ``hash=None`` and ``compare=True``); with ``eq`` and not ``frozen``, ``None`` (unhashable); none
#   added when the class body writes ``__hash__`` (or writes none of them with ``eq=False``);
# - frozen: assigning or deleting a field raises :class:`dataclasses.FrozenInstanceError` (imported then).
#
# A method the class body writes itself is kept, as the standard decorator keeps it. Only the keyword
# arguments the linter uses are taken (``frozen``, ``eq``). ``dataclasses.fields``, ``replace``, ``asdict``
# and ``is_dataclass`` work as on any dataclass: ``__dataclass_fields__`` and ``__dataclass_params__`` are
# made (importing :mod:`dataclasses`) the first time something asks for them; :func:`replace` here does
# not ask. A class this reading does not cover (a ``ClassVar``, ``InitVar`` or ``KW_ONLY`` annotation,
# a non-string annotation, a base made by the standard decorator, a ``kw_only`` or ``metadata`` field) is
# given to the standard decorator, with the closures above for the methods it compiles.

import sys  # noqa: E402
from _thread import get_ident  # noqa: E402
from operator import attrgetter  # noqa: E402

MISSING = type("_Missing", (), {"__repr__": lambda self: "<MISSING>", "__slots__": ()})()
"""A field's default or default factory that was not given (:data:`dataclasses.MISSING`'s role)."""


class _HasFactory:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _HasFactory()


class Field:
    """What :func:`field` gives, read by :func:`dataclass`: a default, a default factory and the field's
    part in ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` (as :class:`dataclasses.Field`)."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "std")

    def __init__(self, default, default_factory, init: bool, repr: bool, hash, compare: bool, std=None) -> None:
        self.name = self.type = None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.hash, self.compare = init, repr, hash, compare
        self.std = std
        """The :class:`dataclasses.Field` this one was read from, if any."""


def field(*, default=MISSING, default_factory=MISSING, init: bool = True, repr: bool = True, hash=None,
          compare: bool = True) -> Field:
    """:func:`dataclasses.field` for a class made by :func:`dataclass` (without loading :mod:`dataclasses`).
    Raises ValueError when both a default and a default factory are given."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare)


def dataclass(cls=None, /, *, frozen: bool = False, eq: bool = True):
    """``dataclasses.dataclass(cls, frozen=frozen, eq=eq)``, made without compiling source at definition
    and without loading :mod:`dataclasses` (see above). Usable bare (``@dataclass``) or called
    (``@dataclass(frozen=True)``)."""

    def wrap(cls):
        return _process(cls, frozen, eq)

    return wrap if cls is None else wrap(cls)


def _process(cls, frozen: bool, eq: bool):
    body = cls.__dict__
    spec = _read_fields(cls, frozen)
    if spec is None:
        return _process_std(cls, frozen, eq)
    own_eq = "__eq__" in body
    class_hash = body.get("__hash__", MISSING)
    # (as dataclasses._process_class: a body that writes __eq__ alone gets __hash__ = None from type())
    explicit_hash = not (class_hash is MISSING or (class_hash is None and own_eq))
    type.__setattr__(cls, "__rec_spec__", spec)
    cls.__dataclass_fields__ = _Lazy(cls, "__dataclass_fields__", _std_fields)
    cls.__dataclass_params__ = _Lazy(cls, "__dataclass_params__", _std_params)
    cls.__rec_frozen__ = frozen
    init_fields = [f for f in spec if f.init]
    if "__init__" not in body:
        _add(cls, "__init__", _lazy_init(cls, spec, frozen))
    fields = spec
    if "__repr__" not in body:
        _add(cls, "__repr__", _repr_fn([f.name for f in fields if f.repr]))
    if eq and not own_eq:
        _add(cls, "__eq__", _eq_fn(_getter([f.name for f in fields if f.compare])))
    if frozen:
        names = frozenset(f.name for f in fields)
        for name, fn in (("__setattr__", _frozen_setattr(cls, names)), ("__delattr__", _frozen_delattr(cls, names))):
            if name in body:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
            _add(cls, name, fn)
    if eq and not explicit_hash:
        if frozen:
            _add(cls, "__hash__", _hash_fn(_getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)])))
        else:
            cls.__hash__ = None
    if not cls.__doc__:
        cls.__doc__ = cls.__name__ + "(" + ", ".join(_param_text(f) for f in init_fields) + ")"
    if "__match_args__" not in body:
        cls.__match_args__ = tuple(f.name for f in init_fields)
    return cls


def _param_text(f: Field) -> str:
    """A field as ``inspect.signature`` shows it in the standard decorator's class docstring."""
    default = "" if f.default is MISSING and f.default_factory is MISSING else \
        f" = {f.default!r}" if f.default_factory is MISSING else " = <factory>"
    return f"{f.name}: {f.type!r}{default}"


def _read_fields(cls, frozen: bool) -> tuple[Field, ...] | None:
    """The class's fields, its bases' first (as the standard decorator orders them), with the class's
    attributes set as it sets them; None for a class this reading does not cover (see above). Raises
    TypeError and ValueError where the standard decorator does."""
    bases = _base_fields(cls, frozen)
    if bases is None:
        return None
    body = cls.__dict__
    annotations = body.get("__annotations__", {})
    std = sys.modules.get("dataclasses")
    own = []
    for name, kind in annotations.items():
        f = _own_field(name, kind, body.get(name, MISSING), std)
        if f is None:
            return None
        own.append(f)
    for name, value in body.items():
        if (isinstance(value, Field) or (std is not None and isinstance(value, std.Field))) \
                and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    fields = bases
    for f in own:
        fields[f.name] = f
        if isinstance(body.get(f.name), Field) or f.std is not None:
            if f.default is MISSING:
                type.__delattr__(cls, f.name)
            else:
                type.__setattr__(cls, f.name, f.default)
    seen_default = False
    for f in fields.values():
        if f.init:
            if f.default is MISSING and f.default_factory is MISSING:
                if seen_default:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
            else:
                seen_default = True
    return tuple(fields.values())


def _base_fields(cls, frozen: bool) -> dict[str, Field] | None:
    """The fields of the class's bases made by :func:`dataclass`, by name in order; None when a base was
    made by the standard decorator. Raises TypeError for a frozen class on a non-frozen base or the
    other way round."""
    fields: dict[str, Field] = {}
    any_frozen_base = has_bases = False
    for base in cls.__mro__[-1:0:-1]:
        spec = base.__dict__.get("__rec_spec__")
        if spec is None:
            if getattr(base, "__dataclass_fields__", None) is not None:
                return None
            continue
        has_bases = True
        any_frozen_base = any_frozen_base or base.__rec_frozen__
        for f in spec:
            fields[f.name] = f
    if has_bases and any_frozen_base != frozen:
        raise TypeError("cannot inherit non-frozen dataclass from a frozen one" if any_frozen_base else
                        "cannot inherit frozen dataclass from a non-frozen one")
    return fields


def _own_field(name: str, kind, value, std) -> Field | None:
    """The field ``name: kind = value`` of a class body (``std``: the :mod:`dataclasses` module when it is
    loaded, else None); None for one this reading does not cover. Raises ValueError for a mutable
    default, as the standard decorator does."""
    if not isinstance(kind, str) or "ClassVar" in kind or "InitVar" in kind or "KW_ONLY" in kind:
        return None
    if isinstance(value, Field):
        f = Field(value.default, value.default_factory, value.init, value.repr, value.hash, value.compare)
    elif std is not None and isinstance(value, std.Field):
        if value.metadata or getattr(value, "kw_only", std.MISSING) not in (std.MISSING, False):
            return None
        f = Field(MISSING if value.default is std.MISSING else value.default,
                  MISSING if value.default_factory is std.MISSING else value.default_factory,
                  value.init, value.repr, value.hash, value.compare, std=value)
    else:
        f = Field(value, MISSING, True, True, None, True)
        if value is not MISSING and value.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(value)} for field {name} is not allowed: use default_factory")
    f.name, f.type = name, kind
    return f


class _Lazy:
    """The class attribute ``name``, made on first use (``make(cls)``), then kept on the class in its place."""

    def __init__(self, cls, name: str, make) -> None:
        self.cls, self.name, self.make = cls, name, make

    def __get__(self, obj, owner=None):
        value = self.make(self.cls)
        type.__setattr__(self.cls, self.name, value)
        return value


def _std_fields(cls) -> dict:
    """``__dataclass_fields__``: the class's fields as :class:`dataclasses.Field` objects."""
    import dataclasses

    out = {}
    for f in cls.__rec_spec__:
        std = f.std
        if std is None:
            std = dataclasses.field(default=dataclasses.MISSING if f.default is MISSING else f.default,
                                    default_factory=dataclasses.MISSING if f.default_factory is MISSING
                                    else f.default_factory, init=f.init, repr=f.repr, hash=f.hash, compare=f.compare)
            if hasattr(std, "kw_only"):
                std.kw_only = False
        std.name, std.type, std._field_type = f.name, f.type, dataclasses._FIELD
        out[f.name] = std
    return out


def _std_params(cls):
    """``__dataclass_params__``: the decorator's arguments, as the standard decorator's readers read them
    (it reads ``frozen`` of a base)."""
    from types import SimpleNamespace

    return SimpleNamespace(init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=cls.__rec_frozen__,
                           match_args=True, kw_only=False, slots=False, weakref_slot=False)


COMPILE_AFTER = 16
"""Objects a class makes through :func:`_binder`'s generic ``__init__`` before its own is compiled
(:func:`_init_fn`): compiling one costs about what 50 generic calls do, and most classes of a run make
only a few objects (a cold compose run: 42 classes, some 8 ms of compiling saved)."""


def _lazy_init(cls, spec: tuple[Field, ...], frozen: bool):
    """An ``__init__`` that binds its arguments generically (:func:`_binder`) for the class's first
    :data:`COMPILE_AFTER` objects, then compiles the class's own (:func:`_init_fn`) and puts it on the
    class in its place. Written ``(*args, **kwargs)`` so that a field named ``self`` is a keyword too."""
    state: list = [0, None]  # objects made, the generic binder (made on the first call)

    def __init__(*args, **kwargs):
        state[0] += 1
        if state[0] > COMPILE_AFTER:
            real = _init_fn(cls, spec, frozen)
            type.__setattr__(cls, "__init__", real)
            real(*args, **kwargs)
            return
        bind = state[1]
        if bind is None:
            bind = state[1] = _binder(cls, spec, frozen)
        bind(args[0], args[1:], kwargs)

    return __init__


def _binder(cls, spec: tuple[Field, ...], frozen: bool):
    """``bind(self, args, kwargs)``: what the compiled ``__init__`` (:func:`_init_fn`) does with the same
    arguments — the same fields set in the same order, the same defaults and factories, ``__post_init__``
    — and TypeError for arguments it would refuse (too many, unknown, repeated or missing)."""
    names = tuple(f.name for f in spec if f.init)
    index = {name: i for i, name in enumerate(names)}
    count = len(names)
    required = [f.default is MISSING and f.default_factory is MISSING for f in spec if f.init]
    plan = [(f.name, index[f.name] if f.init else None, f.default,
             None if f.default_factory is MISSING else f.default_factory)
            for f in spec if f.init or f.default_factory is not MISSING]
    where = f"{cls.__qualname__}.__init__()"
    least = 1 + sum(required)  # (as CPython words it: the required parameters come first)
    takes = f"{count + 1} positional argument{'s' if count else ''}" if least == count + 1 else \
        f"from {least} to {count + 1} positional arguments"
    post = hasattr(cls, "__post_init__")
    assign = object.__setattr__ if frozen else setattr

    def bind(self, args: tuple, kwargs: dict) -> None:
        given = len(args)
        values = list(args[:count])
        if given < count:
            values.extend([MISSING] * (count - given))
        for name, value in kwargs.items():  # (CPython checks the keywords before the number given)
            i = index.get(name)
            if i is None:
                raise TypeError(f"{where} got an unexpected keyword argument {name!r}")
            if i < given:
                raise TypeError(f"{where} got multiple values for argument {name!r}")
            values[i] = value
        if given > count:
            raise TypeError(f"{where} takes {takes} but {given + 1} were given")
        if given + len(kwargs) < count:
            missing = [names[i] for i in range(count) if required[i] and values[i] is MISSING]
            if missing:
                listed = " and ".join([", ".join(repr(n) for n in missing[:-1]), repr(missing[-1])]
                                      if len(missing) > 1 else [repr(missing[0])])
                raise TypeError(f"{where} missing {len(missing)} required positional argument"
                                f"{'s' if len(missing) > 1 else ''}: {listed}")
        for name, i, default, factory in plan:
            if i is None:
                value = factory()
            else:
                value = values[i]
                if value is MISSING:
                    value = factory() if factory is not None else default
            assign(self, name, value)
        if post:
            self.__post_init__()

    return bind


def _init_fn(cls, spec: tuple[Field, ...], frozen: bool):
    """The ``__init__`` the standard decorator writes for these fields: parameters in order (a default,
    or a marker for a default factory), each field set (through ``object.__setattr__`` when frozen),
    then ``__post_init__()`` when the class has one."""
    self_name = "__dataclass_self__" if any(f.name == "self" for f in spec) else "self"
    names = {"__rec_object__": object, "__rec_has_factory__": _HAS_FACTORY}
    params, lines = [self_name], []
    for f in spec:
        dflt = f"__rec_dflt_{f.name}__"
        if f.default_factory is not MISSING:
            names[dflt] = f.default_factory
            value = f"{dflt}() if {f.name} is __rec_has_factory__ else {f.name}" if f.init else f"{dflt}()"
        elif f.init:
            if f.default is not MISSING:
                names[dflt] = f.default
            value = f.name
        else:
            continue
        if f.init:
            params.append(f.name if f.default is MISSING and f.default_factory is MISSING else
                          f"{f.name}={dflt}" if f.default_factory is MISSING else f"{f.name}=__rec_has_factory__")
        lines.append(f"__rec_object__.__setattr__({self_name},{f.name!r},{value})" if frozen
                     else f"{self_name}.{f.name}={value}")
    if hasattr(cls, "__post_init__"):
        lines.append(f"{self_name}.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + "".join(f" {line}\n" for line in lines or ["pass"])
    exec(source, names)
    fn = names["__init__"]
    fn.__qualname__ = f"{cls.__qualname__}.__init__"
    fn.__module__ = cls.__module__
    return fn


def _process_std(cls, frozen: bool, eq: bool):
    """A class :func:`_read_fields` does not cover, made by the standard decorator (its ``__init__`` and a
    frozen class's attribute methods), with this module's ``__repr__``, ``__eq__`` and ``__hash__``."""
    import dataclasses

    body = cls.__dict__
    own_repr, own_eq = "__repr__" in body, "__eq__" in body
    class_hash = body.get("__hash__", dataclasses.MISSING)
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
    type.__setattr__(cls, name, fn)


def _frozen_error(message: str):
    import dataclasses

    raise dataclasses.FrozenInstanceError(message)


def _frozen_setattr(cls, names: frozenset):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            _frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _frozen_delattr(cls, names: frozenset):
    def __delattr__(self, name):
        if type(self) is cls or name in names:
            _frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__


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
