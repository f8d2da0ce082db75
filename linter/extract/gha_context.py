"""The GitHub Actions contexts a workflow's own text gives: ``env`` and a literal ``strategy.matrix``.

What the runner does (docs.github.com, "Contexts" — the ``env`` and ``matrix`` contexts and the
context availability table — and "Running variations of jobs in a workflow"):

* ``${{ env.X }}`` is the variable ``X`` of the ``env:`` sections the step sees (step over job over
  workflow), substituted before the shell runs; the ``env`` context is not available in workflow or
  job ``env:`` values, and a job ``container.env`` is not part of it. A name no section defines, or
  one an earlier step may have set by writing ``$GITHUB_ENV``, is unknown here (an action can set it).
* ``strategy.matrix`` runs the job once per combination of its lists (the *legs*): ``exclude`` entries
  drop the combinations they match (every key they name equal), then each ``include`` entry is added to
  every combination whose original values it does not change, or is a combination of its own when it
  fits none. ``${{ matrix.x }}`` is the leg's value of ``x``.
* Property names are matched case-insensitively.

Only literal matrices are read: one whose lists, ``include`` or ``exclude`` are written with an
expression (``${{ fromJSON(…) }}``), hold mappings or lists as values, or make more than
:data:`~linter.limits.MAX_MATRIX_JOBS` combinations is unknown (``None``). Any other expression
(``${{ inputs.x }}``, ``${{ matrix.cfg.backend }}``, ``${{ format(…) }}``) stays unknown.
"""

from __future__ import annotations

import itertools
import re

from linter import limits
from linter.extract import yamldoc as y
from linter.extract.yamltree import is_scalar
from linter.launch import MStr
from linter.source import SourceFile

_MATRIX = re.compile(r"matrix\.([A-Za-z_][A-Za-z0-9_-]*)")
_ENV = re.compile(r"env\.([A-Za-z_][A-Za-z0-9_]*)")

Leg = dict  # matrix key -> MStr (the value written in the matrix)


def legs(job, source: SourceFile) -> list[Leg] | None:
    """The combinations a job's ``strategy.matrix`` runs, in GitHub's order (each key -> its value as
    written), ``[{}]`` when the job has no matrix, None when the matrix is not literal (see the
    module docstring)."""
    _, strategy = y.get(job, "strategy")
    _, matrix = y.get(strategy, "matrix") if y.is_map(strategy) else (None, None)
    if matrix is None:
        return [{}]
    parts = _parts(matrix, source)
    if parts is None:
        return None
    lists, include, exclude = parts
    size = 1
    for _, values in lists:
        size *= len(values)
        if size > limits.MAX_MATRIX_JOBS:
            return None
    keys = [name for name, _ in lists]
    combos = [dict(zip(keys, c)) for c in itertools.product(*[v for _, v in lists])] if lists else []
    combos = [c for c in combos if not any(_matches(c, e) for e in exclude)]
    out = combos + _include(combos, include)
    if len(out) > limits.MAX_MATRIX_JOBS:
        return None
    return out or [{}]


def _parts(matrix, source: SourceFile) -> tuple[list[tuple[str, list[MStr]]], list[Leg], list[Leg]] | None:
    """(the lists by key, ``include``, ``exclude``) of a literal matrix, or None."""
    if not y.is_map(matrix):
        return None  # ${{ fromJSON(needs.setup.outputs.matrix) }}
    lists: list[tuple[str, list[MStr]]] = []
    entries: dict[str, list[Leg]] = {"include": [], "exclude": []}
    for k, v in y.items(matrix):
        name = y.text(k)
        got = _entries(v, source) if name in entries else _scalars(v, source)
        if name is None or got is None:
            return None
        if name in entries:
            entries[name] = got
        else:
            lists.append((name, got))
    return lists, entries["include"], entries["exclude"]


def _include(combos: list[Leg], include: list[Leg]) -> list[Leg]:
    """Add each ``include`` entry to the combinations whose original values it does not change (in
    place); the entries that fit none, as combinations of their own."""
    original = [set(c) for c in combos]
    extra: list[Leg] = []
    for entry in include:
        fitted = False
        for combo, own in zip(combos, original):
            if all(k not in own or combo[k].text == v.text for k, v in entry.items()):
                combo.update(entry)
                fitted = True
        if not fitted:
            extra.append(dict(entry))
    return extra


def _matches(combo: Leg, entry: Leg) -> bool:
    return all(k in combo and combo[k].text == v.text for k, v in entry.items())


def _scalars(node, source: SourceFile) -> list[MStr] | None:
    """The values of one matrix list (a list of scalars with no expression), or None."""
    if not y.is_seq(node) or len(node.value) > limits.MAX_MATRIX_JOBS:
        return None
    out = []
    for item in node.value:
        if not is_scalar(item):
            return None
        m = y.mstr(item, source)
        if "${{" in m.text:
            return None
        out.append(m)
    return out


def _entries(node, source: SourceFile) -> list[Leg] | None:
    """The mappings of an ``include``/``exclude`` list (scalar values, no expression), or None."""
    if not y.is_seq(node) or len(node.value) > limits.MAX_MATRIX_JOBS:
        return None
    out = []
    for item in node.value:
        if not y.is_map(item):
            return None
        entry: Leg = {}
        for k, v in y.items(item):
            name = y.text(k)
            if name is None or not is_scalar(v):
                return None
            m = y.mstr(v, source)
            if "${{" in m.text:
                return None
            entry[name] = m
        out.append(entry)
    return out


def matrix_keys(text: str) -> set[str]:
    """The matrix keys ``text`` reads in its expressions (``${{ matrix.backend }}``), lower-cased."""
    return {m.group(1).lower() for e in _expressions(text) for m in [_MATRIX.fullmatch(e)] if m}


def _expressions(text: str) -> list[str]:
    out = []
    pos = 0
    while (i := text.find("${{", pos)) >= 0:
        j = text.find("}}", i + 3)
        if j < 0:
            break
        out.append(text[i + 3:j].strip())
        pos = j + 2
    return out


def _lookup(table: dict[str, MStr] | None, name: str) -> MStr | None:
    """``table[name]`` matched case-insensitively; None when no key, or more than one, matches."""
    if not table:
        return None
    found = [v for k, v in table.items() if k.lower() == name.lower()]
    return found[0] if len(found) == 1 else None


def substitute(m: MStr, matrix: Leg | None = None, env: dict[str, MStr] | None = None) -> MStr:
    """``m`` with each ``${{ … }}`` replaced as the runner replaces it before the shell runs:
    ``matrix.KEY`` by the leg's value (``matrix``: None when the context is not available there),
    ``env.NAME`` by the ``env`` context's (``env``: None when not available); every other expression,
    and a name these do not hold, by an unknown value. A value substituted is charged to the file's
    expansion budget (past it, unknown)."""
    if "${{" not in m.text:
        return m
    parts: list[MStr] = []
    pos = 0
    while (i := m.text.find("${{", pos)) >= 0:
        j = m.text.find("}}", i + 3)
        j = len(m.text) if j < 0 else j + 2
        parts.append(m[pos:i])
        inner = m.text[i + 3:j - 2].strip() if m.text.endswith("}}", 0, j) else ""
        value = None
        if (hit := _MATRIX.fullmatch(inner)) and matrix is not None:
            value = _lookup(matrix, hit.group(1))
        elif (hit := _ENV.fullmatch(inner)) and env is not None:
            value = _lookup(env, hit.group(1))
        where = m.location(i, j)
        if value is not None and \
                limits.budget().charge(len(value), f"the expression {m.text[i:j]!r}", where):
            parts.append(value)
        else:
            parts.append(MStr.unknown(where))
        pos = j
    parts.append(m[pos:])
    return MStr.join(parts, m.where)


def label(key: str, value: MStr) -> str:
    """A matrix leg's condition in words, as :attr:`~linter.launch.Launch.path` holds conditions."""
    return f"`matrix.{key}` is `{value.text}`"
