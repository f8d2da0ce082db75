"""linter.records.dataclass gives the classes the standard library's @dataclass gives: the same
fields, __init__, repr, equality, hashing and frozenness, on a table of class shapes."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys

import pytest

from linter import records


def shapes(dataclass, field=dataclasses.field):
    """The same class bodies, decorated by ``dataclass`` (the standard one or linter.records'), their
    fields made by ``field`` (the standard one or linter.records')."""

    @dataclass
    class Plain:
        a: int
        b: str = "x"
        c: list = field(default_factory=list)

    @dataclass(frozen=True)
    class Frozen:
        a: int
        b: tuple = ()
        extra: dict = field(default_factory=dict, hash=False, compare=False)
        hidden: int = field(default=0, repr=False)

    @dataclass(frozen=True)
    class One:
        a: float

    @dataclass(frozen=True)
    class Empty:
        pass

    @dataclass(eq=False)
    class Identity:
        a: int

    @dataclass(frozen=True, eq=False)
    class FrozenIdentity:
        a: int

    @dataclass
    class OwnEq:
        a: int

        def __eq__(self, other):
            return True

    @dataclass(frozen=True)
    class OwnHash:
        a: int

        def __hash__(self):
            return 7

    @dataclass
    class OwnRepr:
        a: int

        def __repr__(self):
            return "mine"

    @dataclass
    class Node:
        name: str
        children: list = field(default_factory=list)

    @dataclass(frozen=True)
    class Child(Frozen):
        d: int = 1

    @dataclass
    class Later:
        """A class with its own docstring, a field __init__ does not take and a __post_init__."""
        a: int
        made: list = field(default_factory=list, init=False)
        fixed: int = field(default=3, init=False)

        def __post_init__(self):
            self.made.append(self.a)

    @dataclass
    class SelfField:
        self: int
        other: str = "o"

    return {c.__name__: c for c in (Plain, Frozen, One, Empty, Identity, FrozenIdentity, OwnEq, OwnHash, OwnRepr,
                                    Node, Child, Later, SelfField)}


STD, OURS, OWN_FIELD = shapes(dataclasses.dataclass), shapes(records.dataclass), \
    shapes(records.dataclass, records.field)
ARGS = {"Plain": [(1,), (1, "y", [2])], "Frozen": [(1,), (1, (2,), {"k": 1}, 5)], "One": [(1.0,), (float("nan"),)],
        "Empty": [()], "Identity": [(1,)], "FrozenIdentity": [(1,)], "OwnEq": [(1,)], "OwnHash": [(1,)],
        "OwnRepr": [(1,)], "Node": [("n",)], "Child": [(1,), (1, (), {}, 0, 2)],
        "Later": [(1,)], "SelfField": [(1,), (2, "x")]}


def _hash(obj):
    try:
        return ("hash", hash(obj) if type(obj).__hash__ is not object.__hash__ else "identity")
    except TypeError as exc:
        return ("unhashable", str(exc).replace("linter", ""))


@pytest.mark.parametrize("ours_made", [OURS, OWN_FIELD], ids=["dataclasses.field", "records.field"])
@pytest.mark.parametrize("name", sorted(ARGS))
def test_same_behaviour_as_the_standard_decorator(name, ours_made):
    std, ours = STD[name], ours_made[name]
    assert ours.__doc__ == std.__doc__
    assert [(f.name, f.default, f.default_factory, f.repr, f.compare, f.hash) for f in dataclasses.fields(ours)] == \
        [(f.name, f.default, f.default_factory, f.repr, f.compare, f.hash) for f in dataclasses.fields(std)]
    assert ours.__match_args__ == std.__match_args__
    assert (ours.__hash__ is None) == (std.__hash__ is None)
    for args in ARGS[name]:
        a, b = std(*args), ours(*args)
        assert repr(b) == repr(a)
        assert _hash(b) == _hash(a)
        assert (b == ours(*args)) == (a == std(*args))
        assert (b == b) == (a == a)
        assert (b != ours(*args)) == (a != std(*args))
        other = object()
        assert (b == other) == (a == other)
        assert (b == a) is (a == b) is (name == "OwnEq")  # another class: NotImplemented both ways (unless own)
        assert repr(dataclasses.replace(b)) == repr(dataclasses.replace(a)) == repr(records.replace(b))
        init = [f.name for f in dataclasses.fields(std) if f.init]
        if init:
            changed = {init[0]: args[0]}
            assert repr(records.replace(b, **changed)) == repr(dataclasses.replace(a, **changed))
        assert dataclasses.asdict(b) == dataclasses.asdict(a)
        assert repr(copy.copy(b)) == repr(b) and repr(copy.deepcopy(b)) == repr(b)
        frozen = std.__dataclass_params__.frozen
        for f in dataclasses.fields(std):
            if frozen:
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(b, f.name, 1)
                with pytest.raises(dataclasses.FrozenInstanceError):
                    delattr(b, f.name)
            else:
                setattr(b, f.name, 1)
                setattr(a, f.name, 1)
                assert repr(b) == repr(a)


def test_recursive_repr_and_nan():
    a, b = STD["Node"]("root"), OURS["Node"]("root")
    a.children.append(a)
    b.children.append(b)
    assert repr(b) == repr(a) and repr(b).endswith("Node(name='root', children=[...])")
    nan = float("nan")
    assert (OURS["One"](nan) == OURS["One"](nan)) == (STD["One"](nan) == STD["One"](nan))
    x, y = OURS["One"](nan), STD["One"](nan)
    assert (x == x) == (y == y) is True  # the same float object: equal, as the tuples compare
    assert hash(OURS["Empty"]()) == hash(STD["Empty"]()) == hash(())
    assert hash(OURS["One"](2.0)) == hash(STD["One"](2.0)) == hash((2.0,))


def test_pickled_like_a_dataclass():
    from linter.source import SourceFile, Span

    span = Span(SourceFile(None, "f", "text"), 1, 3)
    back = pickle.loads(pickle.dumps(span))
    assert back == span and repr(back) == repr(span) and hash(back) == hash(span)


def test_the_linters_own_classes_are_made_by_it():
    # every dataclass of linter.resolve (a module a compose file's run loads) is a records.dataclass
    from linter import resolve

    made = [c for c in vars(resolve).values() if isinstance(c, type) and dataclasses.is_dataclass(c)
            and c.__module__ == "linter.resolve"]
    assert made and all(c.__repr__.__module__ == "linter.records" for c in made)


def test_records_replace_refuses_what_the_standard_one_refuses():
    later = OWN_FIELD["Later"](1)
    with pytest.raises(ValueError, match="init=False"):
        records.replace(later, made=[])
    with pytest.raises(TypeError):
        records.replace(OWN_FIELD["Plain"](1), nope=2)


@pytest.mark.parametrize("body, error", [
    ("a: int = 1\n    b: int", "non-default argument 'b' follows default argument"),
    ("a: list = []", "mutable default <class 'list'> for field a is not allowed"),
    ("a = field(default=1)", "'a' is a field but has no type annotation"),
])
def test_class_errors_as_the_standard_decorator(body, error):
    for dataclass, field in ((dataclasses.dataclass, dataclasses.field), (records.dataclass, records.field)):
        with pytest.raises((TypeError, ValueError), match=error.replace("(", r"\(")):
            exec(f"@dataclass\nclass C:\n    {body}\n", {"dataclass": dataclass, "field": field})


def test_a_class_is_defined_without_the_dataclasses_module():
    # a cold run defines some 65 classes: neither the module nor a compiled __init__ is paid for at import
    code = ("from __future__ import annotations\nimport sys\nfrom linter.records import dataclass, field\n"
            "@dataclass(frozen=True)\nclass A:\n    a: int\n    b: list = field(default_factory=list)\n"
            "assert 'dataclasses' not in sys.modules\n"
            "x = A(1)\nassert x == A(1, []) and A.__init__.__qualname__ == 'A.__init__'\n"
            "assert repr(x) == 'A(a=1, b=[])' and 'dataclasses' not in sys.modules\n"
            "import dataclasses\nassert dataclasses.is_dataclass(x) and [f.name for f in dataclasses.fields(A)] == ['a', 'b']\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.fixture(params=["generic", "compiled"])
def init_kind(request, monkeypatch):
    """Classes made while their objects are bound generically, or with their compiled __init__."""
    monkeypatch.setattr(records, "COMPILE_AFTER", 10**9 if request.param == "generic" else 0)
    return shapes(records.dataclass, records.field)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_the_generic_and_the_compiled_init_make_the_same_objects(name, init_kind):
    std, ours = STD[name], init_kind[name]
    for args in ARGS[name]:
        names = [f.name for f in dataclasses.fields(std) if f.init]
        for made_std, made_ours in ((std(*args), ours(*args)),
                                    (std(**dict(zip(names, args))), ours(**dict(zip(names, args))))):
            assert repr(made_ours) == repr(made_std) and vars(made_ours) == vars(made_std)


@pytest.mark.parametrize("call", [
    lambda c: c(),  # missing a required argument
    lambda c: c(1, "x", [], 4),  # too many
    lambda c: c.__init__(c.__new__(c), 1, 2, 3, 4, 5),
    lambda c: c(1, nope=2),  # unknown
    lambda c: c(1, a=2),  # repeated
    lambda c: c(1, 2, 3, 4, 5, a=2),  # repeated and too many
    lambda c: c(b=2),  # missing, with another given by keyword
])
@pytest.mark.parametrize("name", ["Plain", "One", "Empty", "Frozen"])
def test_the_generic_and_the_compiled_init_refuse_the_same_arguments(call, name, init_kind):
    def outcome(cls):
        try:
            return repr(call(cls))
        except TypeError as exc:
            return str(exc).replace("shapes.<locals>.", "")

    assert outcome(init_kind[name]) == outcome(STD[name])


def test_a_class_compiles_its_init_after_its_first_objects():
    made = shapes(records.dataclass, records.field)["Plain"]
    generic = made.__init__
    objects = [made(k) for k in range(records.COMPILE_AFTER + 2)]
    assert made.__init__ is not generic and made.__init__.__qualname__.endswith("Plain.__init__")
    assert [o.a for o in objects] == list(range(records.COMPILE_AFTER + 2)) and objects[-1].c == []
