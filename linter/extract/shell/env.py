"""Shell variables: the environment a walker carries, and the merge of the environments that
different paths of a script leave.
"""

from __future__ import annotations

import re

from linter.launch import MStr, Token, same_origins

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
"""A shell variable name."""


class _State:
    """A variable state that is not a value (unknown, unset, never assigned)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN_V = _State("UNKNOWN")
"""A variable the file assigns a value that cannot be known."""
UNSET = _State("UNSET")
"""A variable the file unsets (or declares without a value)."""
ABSENT = _State("ABSENT")
"""A variable the file never assigns (its value would come from outside)."""


class Env:
    """name -> MStr (scalar) | list[Token] (array) | UNKNOWN_V | UNSET; absent = never assigned."""

    __slots__ = ("vars", "exported", "allexport")

    def __init__(self, vars_: dict | None = None, exported: set | None = None, allexport: bool = False) -> None:
        self.vars = vars_ if vars_ is not None else {}
        self.exported = exported if exported is not None else set()
        self.allexport = allexport

    def copy(self) -> Env:
        return Env(dict(self.vars), set(self.exported), self.allexport)

    def replace(self, other: Env) -> None:
        self.vars, self.exported, self.allexport = other.vars, other.exported, other.allexport

    def get(self, name: str):
        return self.vars.get(name, ABSENT)

    def set(self, name: str, value, export: bool = False) -> None:
        self.vars[name] = value
        if export or self.allexport:
            self.exported.add(name)

    def child(self, extra: dict | None = None, inherit: bool = True) -> Env:
        """The environment a child process sees: exported variables; others the file assigned are
        unknown there (the name may have come from the environment, exported)."""
        out = Env()
        if inherit:
            for name, value in self.vars.items():
                if value is ABSENT:
                    continue
                if name in self.exported or self.allexport or value is UNSET:
                    out.vars[name] = value
                else:
                    out.vars[name] = UNKNOWN_V
        for name, value in (extra or {}).items():
            out.vars[name] = value
        out.exported = set(out.vars)
        return out


def _same(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, MStr) and isinstance(b, MStr):
        return a.text == b.text and same_origins(a, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.splat == y.splat and _same(x.text, y.text) for x, y in zip(a, b))
    return False


def _same_text(a, b) -> bool:
    if isinstance(a, MStr) and isinstance(b, MStr):
        return a.text == b.text
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.splat == y.splat and x.text.text == y.text.text for x, y in zip(a, b))
    return False


def _unlocated(value):
    """The same value with no editable origin (equal text written in several places)."""
    if isinstance(value, MStr):
        return MStr.plain(value.text, value.where)
    return [Token(_unlocated(t.text), t.splat) for t in value]


def merge(envs: list[Env]) -> Env:
    """The environment after paths that end in ``envs``: a variable with different values is unknown."""
    if len(envs) == 1:
        return envs[0].copy()
    base = envs[0].vars
    differ: set[str] = set()
    for e in envs[1:]:
        ev = e.vars
        differ.update(n for n, v in ev.items() if base.get(n, ABSENT) is not v)
        differ.update(base.keys() - ev.keys())
    out = Env(dict(base), allexport=any(e.allexport for e in envs))
    for n in differ:
        values = [e.get(n) for e in envs]
        first = values[0]
        if all(_same(first, v) for v in values[1:]):
            if first is ABSENT:
                out.vars.pop(n, None)
            else:
                out.vars[n] = first
        elif all(_same_text(first, v) for v in values[1:]):
            out.vars[n] = _unlocated(first)
        else:
            out.vars[n] = UNKNOWN_V
    for e in envs:
        out.exported |= e.exported
    return out
